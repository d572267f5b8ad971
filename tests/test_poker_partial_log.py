"""A mental-poker game's log is written as the game goes (net/poker.py, issue 15): a
process stopped before the end leaves the public record and what it may know, which
replays up to where it stopped; the finished game's log is the whole audited one."""

from __future__ import annotations

import asyncio
import shutil
from typing import Any

import pytest

import net.poker
from core import log, registry
from net.poker import Player, PokerHost, join


class Killed(Exception):
    """The guest's process dies mid-game."""


def _bot(st: Any, seat: str) -> Any:
    return registry.get("wizwar").bot_act(st, seat)


@pytest.fixture(autouse=True)
def _short_waits(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(net.poker, "WAIT", 30.0)
    monkeypatch.setattr(net.poker, "THINK", 30.0)


async def _play(tmp: Any, stop_at: int = 0) -> tuple[PokerHost, Player, list[str], Any, dict[int, list[str]]]:
    """A 2-seat game over 127.0.0.1; the guest's log copied after each of its actions
    (``snaps``); with ``stop_at`` the guest's process dies at that action (its link closes
    with no end)."""
    rs = registry.get("wizwar")
    snaps: list[str] = []
    faces: dict[int, list[str]] = {}

    async def nothing(_m: Any) -> None:
        raise AssertionError("not joined")

    async def none() -> None:
        return None

    def choose(st: Any, seat: str) -> Any:
        if stop_at and guest.seq >= stop_at:
            raise Killed  # the process dies: nothing more is written
        return _bot(st, seat)

    guest = Player(rs, nothing, none, choose=choose, log_dir=str(tmp / "glogs"),
                   seed="partial:1")

    def snap() -> None:
        if guest.log_path and guest.seq and not rs.result(guest.state).over:
            dest = str(tmp / f"snap-{guest.seq}.wwlog")
            shutil.copy(guest.log_path, dest)
            snaps.append(dest)
            faces[guest.seq] = list(guest.state.faces)

    guest.on_change = snap
    host = PokerHost(rs, players=2, choose=_bot, log_dir=str(tmp / "hlogs"), seed="partial")
    port = await host.start()
    run = asyncio.ensure_future(host.run())
    joined = asyncio.ensure_future(join(guest, "127.0.0.1", port, "guest"))
    got = await asyncio.gather(run, joined, return_exceptions=True)
    await host.close()
    return host, guest, snaps, got, faces


def test_the_log_as_the_game_goes_replays_up_to_each_action(tmp_path: Any) -> None:
    rs = registry.get("wizwar")
    host, guest, snaps, got, faces = asyncio.run(_play(tmp_path))
    assert got[0] and got[0] == got[1], got
    assert len(snaps) > 5
    for path in snaps[:3] + snaps[-2:]:
        loaded = log.read(open(path, "rb").read())
        assert loaded.end is None and loaded.damage == ""
        assert loaded.header["extra"]["audit"] == "unfinished"
        st = log.replay(loaded)  # every record's hash checked
        n = len(loaded.records)
        assert rs.state_hash(st) == guest.records[n - 1]["hash"]
        assert log.result_text(loaded.result()) == "unfinished"
        # the guest's own hand is known in its log; the host's hand is not
        assert st.hand_slugs("P2") and all(st.hand_slugs("P2"))
        # exactly the faces the guest's process knew then: its own hand, the public cards,
        # never a card of the host's hand it was not shown
        assert list(st.faces) == faces[n], n
        assert "" in st.hand_slugs("P1")
    # the finished game's log is the whole audited one
    final = log.read(open(guest.log_path, "rb").read())
    assert final.end is not None and final.header["extra"]["audit"] == "passed"
    assert rs.state_hash(log.replay(final)) == got[1]


def test_a_process_killed_mid_game_leaves_a_log_that_replays(
        tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(net.poker, "WAIT", 2.0)  # the host gives up on the dead guest
    monkeypatch.setattr(net.poker, "THINK", 2.0)
    rs = registry.get("wizwar")
    host, guest, _snaps, got, _faces = asyncio.run(_play(tmp_path, stop_at=6))
    assert isinstance(got[1], Killed), got
    assert host.stopped
    loaded = log.read(open(guest.log_path, "rb").read())
    assert loaded.end is None and len(loaded.records) >= 6
    st = log.replay(loaded)
    assert rs.state_hash(st) == guest.records[-1]["hash"]


def test_a_poker_session_plays_a_whole_game_from_submitted_moves(tmp_path: Any) -> None:
    """The app's PokerSession (net/poker_session.py): the person's moves go in through
    ``submit`` (checked first: another seat's move or an illegal one is refused), the player
    awaits them, the game ends on one hash and its audit, and the log is the whole one."""
    from core.engine import IllegalAction
    from net.poker_session import PokerSession

    rs = registry.get("wizwar")

    async def main() -> tuple[str, str, PokerSession, list[str]]:
        host = PokerHost(rs, players=2, log_dir=str(tmp_path / "h"), seed="session")
        session = PokerSession(host.player, host=host)
        host.player.choose = session.choose
        refused: list[str] = []
        mine: list[Any] = []

        def moved() -> None:  # the person plays the bot's move when his seat is to move
            if session.over or session.to_move()[:1] != [session.human]:
                return
            if not session._waiting:
                asyncio.get_running_loop().call_soon(moved)
                return
            try:  # a move for the other seat is refused in words, and nothing is sent
                session.submit("P2 end")
            except IllegalAction as exc:
                refused.append(str(exc))
            mine.append(rs.bot_act(host.player.state, session.human))
            session.submit(mine[-1])

        host.player.on_change = moved
        port = await host.start()
        guest = Player(rs, _none_send, _none_recv, choose=_bot, seed="session:1")
        got = await asyncio.gather(host.run(), join(guest, "127.0.0.1", port, "g"))
        await host.close()
        assert [str(r["action"]) for r in host.player.records
                if r["action"].actor == "P1"] == [str(a) for a in mine]
        return got[0], got[1], session, refused

    a, b, session, refused = asyncio.run(main())
    assert a and a == b
    assert session.over and session.result().over
    assert len(refused) > 5 and all(r for r in refused)
    final = log.read(open(session.player.log_path, "rb").read())
    assert final.end is not None and rs.state_hash(log.replay(final)) == a


async def _none_send(_m: Any) -> None:
    raise AssertionError("not joined")


async def _none_recv() -> None:
    return None


def test_a_move_no_longer_legal_is_dropped_in_words() -> None:
    """PokerSession.choose drops a queued move that is not legal on the state it is asked
    for (the screen is told: its pending move does not wait forever) and takes the next."""
    from types import SimpleNamespace

    from net.poker_session import PokerSession

    rs = registry.get("wizwar")
    st = rs.new_game(rs.validate_options({"players": 2}), 7)
    seat = rs.to_move(st)[0]
    other = "P2" if seat == "P1" else "P1"
    told: list[str] = []
    player = SimpleNamespace(ruleset=rs, state=st, mine=[seat], last_reject="",
                             on_change=lambda: told.append(player.last_reject))
    session = PokerSession(player)

    async def main() -> Any:
        session._moves.put_nowait(rs.parse_action(f"{other} end"))  # not this seat's turn
        good = rs.legal_actions(st, seat)[0]
        session._moves.put_nowait(good)
        return good, await session.choose(st, seat)

    good, got = asyncio.run(main())
    assert got == good
    assert len(told) == 1 and told[0].startswith(f"{other} end: ")
