"""The game outlives its host (issue 15): the relay's process dies mid-game, the lowest
process still there sequences the game, the others reach it, the old host comes back with
its kept keys as a peer, and the game ends on one hash with every log verifying
(net/handover.py; docs/protocol.md, "Hand-over")."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

import net.poker
from core import log, registry
from net.handover import Link, come_back, play
from net.poker import Player, PokerHost


@pytest.fixture(autouse=True)
def _short_waits(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(net.poker, "WAIT", 60.0)
    monkeypatch.setattr(net.poker, "THINK", 60.0)


def _player(rs: Any, seed: str, tmp: Any, **kw: Any) -> Player:
    async def nothing(_m: Any) -> None:
        raise AssertionError("not joined")

    async def none() -> None:
        return None

    return Player(rs, nothing, none, keys_dir=str(tmp / "keys"), log_dir=str(tmp / "logs"),
                  seed=seed, **kw)


async def _kill(host: PokerHost, hosting: asyncio.Future[Any]) -> None:
    """The host's process is gone: its relay and its player stop, every link closes."""
    hosting.cancel()
    assert host.player_task is not None
    host.player_task.cancel()
    for t in (hosting, host.player_task):
        with pytest.raises(asyncio.CancelledError):
            await t
    await host.close()


async def _seat(host: PokerHost, port: int, joiners: list[Player], name: str = "g",
                ) -> tuple[asyncio.Future[Any], list[asyncio.Future[Any]]]:
    """Run ``host`` and seat ``joiners`` one at a time over hand-over links
    (:func:`net.handover.play`, as ``{name}0``, ``{name}1`` …), so joiner i is process
    i + 1. Returns the host's run and the joiners' games."""
    hosting = asyncio.ensure_future(host.run())
    tasks = []
    for i, p in enumerate(joiners):
        tasks.append(asyncio.ensure_future(play(p, "127.0.0.1", port, f"{name}{i}")))
        while len(host.procs) < 2 + i:
            await asyncio.sleep(0.01)
    return hosting, tasks


async def _handover_game(tmp: Any, seed: str, when: Callable[[PokerHost, list[Player]], bool],
                         said: list[str], back: bool = True,
                         make: Callable[..., PokerHost] = PokerHost,
                         ) -> tuple[PokerHost, list[Any], list[Player]]:
    """A 3-seat game (the host's process and two joiners, every seat its bot): the host's
    process is killed once ``when(host, joiners)``; it comes back from its kept keys
    (``back``). Returns the host, every result (the returned host's, then the joiners')
    and the players (the returned host's, then the joiners')."""
    rs = registry.get("wizwar")
    host = make(rs, players=3, keys_dir=str(tmp / "hkeys"), log_dir=str(tmp / "logs"),
                seed=seed)
    port = await host.start()
    joiners = [_player(rs, f"{seed}:{i}", tmp, log=said.append) for i in (1, 2)]
    async with asyncio.timeout(400):
        hosting, tasks = await _seat(host, port, joiners, "guest")
        while not when(host, joiners):
            await asyncio.sleep(0.002)
        kept = host.player.keys_path
        assert kept is not None
        await _kill(host, hosting)
        players = list(joiners)
        if back:
            again = Player(rs, host.player.send, host.player.recv,
                           keys_dir=str(tmp / "hkeys"), log_dir=str(tmp / "logs"),
                           rejoin_from=kept, log=said.append)
            tasks.insert(0, asyncio.ensure_future(come_back(again)))
            players.insert(0, again)
        got = await asyncio.gather(*tasks, return_exceptions=True)
    return host, got, players


def _verified(players: list[Player], final: str) -> None:
    rs = registry.get("wizwar")
    for p in players:
        assert not p.verdict
        st = log.replay(log.read(open(p.log_path, "rb").read()))
        assert rs.state_hash(st) == final


def test_the_host_killed_between_actions_the_game_goes_on_and_ends_on_one_hash(
        tmp_path: Any) -> None:
    """The host's process dies after some actions: P2's process (the lowest still there)
    sequences the game, P3's reaches it, the host's comes back from its kept keys as a peer
    and replays the game from the frames the new sequencer sends it; the game ends on one
    hash, the audit passes and every log verifies."""
    said: list[str] = []
    host, got, players = asyncio.run(_handover_game(
        tmp_path, "ho:1", lambda h, js: js[0].seq >= 12, said))
    assert got[0] and got == [got[0]] * 3, got
    _verified(players, got[0])
    links: list[Link] = [p.link for p in players]  # type: ignore[attr-defined]
    assert links[1].seq is not None and links[2].relay_proc == 1
    assert players[0].mine == ["P1"] and players[0].seq == players[1].seq
    assert any("this process is the sequencer now" in x for x in said), said
    assert any("reaching P2's process" in x for x in said), said


class DyingHost(PokerHost):
    """A host whose process dies in the middle of routing its ``die_at``-th frame: that
    frame (and every one after it) reaches only some processes, or none."""

    die_at: int = 0
    routed: int = 0
    dead: bool = False

    def _send(self, p: Any, msg: dict[str, Any]) -> None:
        self.routed += 1
        if self.routed >= self.die_at and p.proc > 1:
            self.dead = True  # P3's process never gets it; P2's (and the host's) did
        if self.dead:
            return
        super()._send(p, msg)


@pytest.mark.parametrize("kind", ["deal", "reshuffle", "reveal", "partial", "audit",
                                  "stack"])
def test_the_host_killed_mid_deal_mid_reshuffle_mid_reveal(tmp_path: Any, kind: str) -> None:
    """The host's process dies during the first deal, during a reshuffle of the discard
    (a new deal under way), while a card is opening (a partial unmasking boxed for one
    seat relayed), in the middle of relaying one frame (it reached P2's process, not
    P3's), during the end's key reveal and with an attack's answers on the stack (a
    counteraction played, the window open): the game goes on at P2's process and ends on one hash; every log verifies."""
    said: list[str] = []

    def mid_deal(_h: PokerHost, js: list[Player]) -> bool:
        d = js[1].dealer
        # the dealer exists a moment before its first deal's epoch does: poll until both are
        return d is not None and bool(d.ledger.epochs) and \
            2 <= len(d.ledger.epochs[0].steps) < 5

    def mid_reshuffle(_h: PokerHost, js: list[Player]) -> bool:
        d = js[1].dealer
        return d is not None and len(d.ledger.epochs) >= 2 and \
            not d.ledger.done(d.ledger.epochs[-1])

    def mid_reveal(h: PokerHost, js: list[Player]) -> bool:
        return js[0].seq >= 5 and bool(h.frames) and h.frames[-1][1]["type"] == "unmask" \
            and bool(h.frames[-1][1]["to"])

    def mid_stack(_h: PokerHost, js: list[Player]) -> bool:
        st = js[0].state
        return st is not None and bool(st.windows) and bool(st.windows[0].counters)

    def audit(_h: PokerHost, js: list[Player]) -> bool:
        return any(m["type"] == "mp_keys" for m in js[1].outbox[-2:])

    def partial(h: PokerHost, _js: list[Player]) -> bool:
        return isinstance(h, DyingHost) and h.dead

    when = {"deal": mid_deal, "reshuffle": mid_reshuffle, "reveal": mid_reveal,
            "partial": partial, "audit": audit, "stack": mid_stack}[kind]
    def dying(*a: Any, **kw: Any) -> PokerHost:
        h = DyingHost(*a, **kw)
        h.die_at = 900
        return h

    host, got, players = asyncio.run(_handover_game(tmp_path, f"ho:{kind}", when, said,
                                                    make=dying if kind == "partial" else PokerHost))
    assert got[0] and got == [got[0]] * 3, (got, said[-5:])
    _verified(players, got[0])
    assert players[1].link.seq is not None  # type: ignore[attr-defined]
    assert players[2].link.relay_proc == 1  # type: ignore[attr-defined]
    if kind == "reshuffle":
        assert players[1].timings.get("reshuffle"), "no reshuffle in this game"


def test_the_host_back_then_a_joiner_killed_and_back(tmp_path: Any) -> None:
    """The reverse: after the hand-over and the host's return, P3's process dies too and
    comes back from its kept keys, reaching the sequencer; the game ends on one hash."""
    said: list[str] = []
    rs = registry.get("wizwar")

    async def go() -> tuple[list[Any], list[Player]]:
        host = PokerHost(rs, players=3, keys_dir=str(tmp_path / "hkeys"),
                         log_dir=str(tmp_path / "logs"), seed="rev")
        port = await host.start()
        joiners = [_player(rs, f"rev:{i}", tmp_path, log=said.append) for i in (1, 2)]
        async with asyncio.timeout(400):
            hosting, tasks = await _seat(host, port, joiners)
            while joiners[0].seq < 8:
                await asyncio.sleep(0.002)
            kept = host.player.keys_path
            assert kept is not None
            await _kill(host, hosting)
            again = Player(rs, host.player.send, host.player.recv,
                           keys_dir=str(tmp_path / "hkeys"), log_dir=str(tmp_path / "logs"),
                           rejoin_from=kept, log=said.append)
            back = asyncio.ensure_future(come_back(again))
            while again.seq < joiners[0].seq or again.seq < 20:
                await asyncio.sleep(0.002)
            third = joiners[1]
            kept3 = third.keys_path
            assert kept3 is not None
            tasks[1].cancel()  # P3's process is gone: its links close, its memory is lost
            with pytest.raises(asyncio.CancelledError):
                await tasks[1]
            third.link.closed = True  # type: ignore[attr-defined]
            if third.link._writer is not None:  # type: ignore[attr-defined]
                third.link._writer.close()  # type: ignore[attr-defined]
            if third.link._server is not None:  # type: ignore[attr-defined]
                third.link._server.close()  # type: ignore[attr-defined]
            new3 = _player(rs, "unused", tmp_path, rejoin_from=kept3, log=said.append)
            c = asyncio.ensure_future(come_back(new3))
            got = await asyncio.gather(back, tasks[0], c, return_exceptions=True)
        return list(got), [again, joiners[0], new3]

    got, players = asyncio.run(go())
    assert got[0] and got == [got[0]] * 3, (got, said[-6:])
    _verified(players, got[0])
    assert sum("P3 reached the sequencer" in x for x in said) == 2, said  # after each death
    assert any("P1 reached the sequencer" in x for x in said), said


HOST_SCRIPT = """
import asyncio, sys
import net.poker
from core import registry
from net.poker import PokerHost

async def main():
    host = PokerHost(registry.get("wizwar"), players=3, keys_dir=sys.argv[1],
                     log_dir=sys.argv[2], seed="kill9")
    port = await host.start()
    print(port, flush=True)
    await host.run()

asyncio.run(main())
"""


def test_kill_9_of_the_host_process_the_others_finish_the_game(tmp_path: Any) -> None:
    """The host is a process of its own, killed with SIGKILL mid-game (no frame of its
    own after that, its links reset by the kernel): the joiners hand over, the host's
    keys kept in its data folder bring it back as a peer, and the game ends on one hash
    with every log verifying."""
    import os
    import signal
    import sys

    rs = registry.get("wizwar")
    said: list[str] = []
    hkeys = tmp_path / "hkeys"

    async def go() -> tuple[list[Any], list[Player]]:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-c", HOST_SCRIPT, str(hkeys), str(tmp_path / "logs"),
            stdout=asyncio.subprocess.PIPE, cwd=os.getcwd())
        assert proc.stdout is not None
        port = int((await proc.stdout.readline()).decode())
        joiners = [_player(rs, f"kill9:{i}", tmp_path, log=said.append) for i in (1, 2)]
        async with asyncio.timeout(400):
            tasks = [asyncio.ensure_future(play(joiners[0], "127.0.0.1", port, "ann"))]
            await asyncio.sleep(0.3)  # seated first (the test does not depend on it)
            tasks.append(asyncio.ensure_future(play(joiners[1], "127.0.0.1", port, "bob")))
            while joiners[0].seq < 10:
                await asyncio.sleep(0.002)
            proc.send_signal(signal.SIGKILL)
            await proc.wait()
            kept = [f for f in os.listdir(hkeys) if joiners[0].game in f]
            assert len(kept) == 1, kept
            # the host's process back: `wizwar join --headless --bot --back KEYS`
            back = await asyncio.create_subprocess_exec(
                sys.executable, "-c", "import sys; from wizwar_tui.cli import main; "
                "sys.exit(main(sys.argv[1:]))", "join", "--headless", "--bot", "--back",
                str(hkeys / kept[0]), stdout=asyncio.subprocess.PIPE,
                env={**os.environ, "XDG_DATA_HOME": str(tmp_path / "data")})
            out, _ = await back.communicate()
            got = await asyncio.gather(*tasks, return_exceptions=True)
        assert back.returncode == 0, out
        return [out.decode(), *got], joiners

    got, players = asyncio.run(go())
    out = got.pop(0)
    assert got[0] and got == [got[0]] * 2, (got, said[-6:])
    assert f"final hash {got[0]}" in out and "seat P1" in out and "audit passed" in out, out
    _verified(players, got[0])
    logs = list((tmp_path / "data").rglob("*.wwlog"))
    assert len(logs) == 1  # the host's process wrote its log too, and it verifies
    st = log.replay(log.read(logs[0].read_bytes()))
    assert rs.state_hash(st) == got[0]
    assert sorted(s for p in players for s in p.mine) == ["P2", "P3"]


async def _die(link: Link, task: asyncio.Future[Any]) -> None:
    """A joiner's process is gone (it may be the sequencer): its relay and its player
    stop, its sockets close."""
    link.closed = True
    if link.seq_task is not None:
        link.seq_task.cancel()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    if link._server is not None:
        link._server.close()
    if link._writer is not None:
        link._writer.close()
    if link.seq is not None:
        for q in link.seq.procs:
            if q.close is not None:
                await q.close()


def test_the_sequencer_killed_too_the_host_back_sequences_again(tmp_path: Any) -> None:
    """Two hand-overs: the host's process dies (P2's relays) and comes back, listening on a
    new address it announces, signed (``mp_addr``); then P2's, the sequencer, dies: the
    host's process, the lowest still there, sequences the game again, P3's reaches it at the
    new address, P2's comes back (its kept keys hold that address too); one hash, every log
    verifies."""
    said: list[str] = []
    rs = registry.get("wizwar")

    async def go() -> tuple[list[Any], list[Player]]:
        host = PokerHost(rs, players=3, keys_dir=str(tmp_path / "hkeys"),
                         log_dir=str(tmp_path / "logs"), seed="twice")
        port = await host.start()
        joiners = [_player(rs, f"twice:{i}", tmp_path, log=said.append) for i in (1, 2)]
        async with asyncio.timeout(400):
            hosting, tasks = await _seat(host, port, joiners)
            while joiners[0].seq < 6:
                await asyncio.sleep(0.002)
            kept = host.player.keys_path
            assert kept is not None
            await _kill(host, hosting)
            first = Player(rs, host.player.send, host.player.recv,
                           keys_dir=str(tmp_path / "hkeys"), log_dir=str(tmp_path / "logs"),
                           rejoin_from=kept, log=said.append)
            back = asyncio.ensure_future(come_back(first))
            while first.seq < 14:  # caught up, and on
                await asyncio.sleep(0.002)
            second = joiners[0]
            kept2 = second.keys_path
            assert kept2 is not None
            await _die(second.link, tasks[0])  # type: ignore[attr-defined]
            new2 = _player(rs, "unused", tmp_path, rejoin_from=kept2, log=said.append)
            again = asyncio.ensure_future(come_back(new2))
            got = await asyncio.gather(back, again, tasks[1], return_exceptions=True)
        return list(got), [first, new2, joiners[1]]

    got, players = asyncio.run(go())
    assert got[0] and got == [got[0]] * 3, (got, said[-6:])
    _verified(players, got[0])
    links: list[Link] = [p.link for p in players]  # type: ignore[attr-defined]
    assert links[0].seq is not None and links[0].handovers == 2  # back, then the relay
    assert links[2].relay_proc == 0 and links[1].relay_proc == 0
    assert links[2].relay_addr == players[0].addr != ""
    assert any("listening at" in x and "may sequence the game again" in x for x in said)


def test_join_back_with_keys_that_are_not_a_poker_process_s_says_so(
        tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    """``wizwar join --back KEYS`` with no such file, or a file with no process number or
    addresses: a clear error, status 1."""
    from wizwar_tui.cli import main

    bad = tmp_path / "k.json"
    bad.write_text('{"game": "x"}')
    assert main(["join", "--headless", "--bot", "--back", str(tmp_path / "none.json")]) == 1
    assert "cannot come back with" in capsys.readouterr().err
    assert main(["join", "--headless", "--bot", "--back", str(bad)]) == 1
    assert "no process number" in capsys.readouterr().err


def test_a_joiner_s_link_drops_and_the_host_takes_it_back(tmp_path: Any) -> None:
    """Only P3's link drops (the host is alive): P3's process reaches the host again on
    its address (``mp_resume``), is sent what it missed and goes on; nobody hands over."""
    said: list[str] = []
    rs = registry.get("wizwar")

    async def go() -> tuple[list[Any], list[Player], PokerHost]:
        host = PokerHost(rs, players=3, keys_dir=str(tmp_path / "hkeys"),
                         log_dir=str(tmp_path / "logs"), seed="blip", log=said.append)
        port = await host.start()
        joiners = [_player(rs, f"blip:{i}", tmp_path, log=said.append) for i in (1, 2)]
        async with asyncio.timeout(400):
            hosting, tasks = await _seat(host, port, joiners)
            while joiners[1].seq < 8:
                await asyncio.sleep(0.002)
            close = host.procs[2].close
            assert close is not None
            await close()  # the host's end of P3's link
            got = await asyncio.gather(hosting, *tasks, return_exceptions=True)
        await host.close()
        return list(got), [host.player, *joiners], host

    got, players, host = asyncio.run(go())
    assert got[0] and got == [got[0]] * 3, (got, said[-6:])
    _verified(players, got[0])
    assert all(p.link.seq is None for p in players[1:])  # type: ignore[attr-defined]
    assert any("P3 reached the sequencer" in x for x in said), said
    assert any("back on P1's process, the relay" in x for x in said), said


def test_a_returning_process_makes_its_past_choices_again_from_its_log(
        tmp_path: Any) -> None:
    """A person's choices are not asked again when his process comes back: the host's
    process (its seat played by a ``choose``, as a person's screen) is killed mid-game;
    back from its kept keys, it makes its seat's past actions again from the log it wrote
    as the game went (the kept keys name it) and is asked only from where the game is;
    the game ends on one hash and every log verifies."""
    rs = registry.get("wizwar")
    asked: list[int] = []

    def person(st: Any, seat: str) -> Any:
        asked.append(rs.seq(st))
        return rs.bot_act(st, seat)

    async def go() -> tuple[list[Any], list[Player], int]:
        host = PokerHost(rs, players=3, keys_dir=str(tmp_path / "hkeys"), choose=person,
                         log_dir=str(tmp_path / "hlogs"), seed="again")
        port = await host.start()
        joiners = [_player(rs, f"again:{i}", tmp_path) for i in (1, 2)]
        async with asyncio.timeout(400):
            hosting, tasks = await _seat(host, port, joiners)
            while len(asked) < 3:
                await asyncio.sleep(0.002)
            kept = host.player.keys_path
            assert kept is not None
            await _kill(host, hosting)
            mine = sum(1 for r in host.player.records if r["action"].actor == "P1")
            before = max(asked)
            asked.clear()
            again = Player(rs, host.player.send, host.player.recv, choose=person,
                           keys_dir=str(tmp_path / "hkeys"), log_dir=str(tmp_path / "blogs"),
                           rejoin_from=kept)
            tasks.insert(0, asyncio.ensure_future(come_back(again)))
            got = await asyncio.gather(*tasks, return_exceptions=True)
        assert again.replayed >= mine > 0, (again.replayed, mine)
        return list(got), [again, *joiners], before

    got, players, before = asyncio.run(go())
    assert got[0] and got == [got[0]] * 3, got
    _verified(players, got[0])
    # asked only after the death (the choice proposed as it died is kept: made again)
    assert asked and min(asked) > before, (asked, before)


def test_a_forged_or_unsigned_mp_resumed_is_refused_and_the_next_process_tried(
        tmp_path: Any) -> None:
    """Something else answers at the dead relay's address (as a stranger could once the
    host's port is free): to P2's ``mp_resume`` with an unsigned ``mp_resumed``, to P3's
    with one signed by other keys. Each is refused in words and the next process is tried:
    P2's process sequences, P3's reaches it, the host comes back; one hash, every log
    verifies. (Before ``mp_resumed`` was signed both took the stranger for the relay and
    the game stalled.)"""
    from nacl.signing import SigningKey

    from core.codec import pack
    from net.poker import resumed_body

    said: list[str] = []
    answered: list[str] = []
    stranger = SigningKey(b"s" * 32)

    async def fake(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        from net.protocol import FrameReader

        msg = await FrameReader(reader).read()
        assert msg is not None and msg["type"] == "mp_resume"
        if not answered:
            writer.write(pack({"type": "mp_resumed", "proc": 0}))
            answered.append("unsigned")
        else:
            ch = str(msg["challenge"])
            sig = stranger.sign(resumed_body(str(msg["game"]), 0, int(msg["proc"]), ch, 9,
                                             0)).signature.hex()
            writer.write(pack({"type": "mp_resumed", "proc": 0, "challenge": ch, "g": 9,
                               "sent": 0, "sig": sig}))
            answered.append("forged")
        await writer.drain()
        await reader.read()  # holds the link open, sending nothing more

    async def go() -> tuple[list[Any], list[Player]]:
        server = await asyncio.start_server(fake, "127.0.0.1", 0)
        fport = server.sockets[0].getsockname()[1]
        rs = registry.get("wizwar")
        host = PokerHost(rs, players=3, keys_dir=str(tmp_path / "hkeys"),
                         log_dir=str(tmp_path / "logs"), seed="forge")
        port = await host.start()
        joiners = [_player(rs, f"forge:{i}", tmp_path, log=said.append) for i in (1, 2)]
        async with asyncio.timeout(120):
            hosting, tasks = await _seat(host, port, joiners)
            while joiners[0].seq < 6:
                await asyncio.sleep(0.002)
            for p in joiners:  # the relay's address now answers with the stranger
                p.link.relay_addr = f"127.0.0.1:{fport}"  # type: ignore[attr-defined]
            kept = host.player.keys_path
            assert kept is not None
            await _kill(host, hosting)
            again = Player(rs, host.player.send, host.player.recv,
                           keys_dir=str(tmp_path / "hkeys"), log_dir=str(tmp_path / "logs"),
                           rejoin_from=kept, log=said.append)
            tasks.insert(0, asyncio.ensure_future(come_back(again)))
            got = await asyncio.gather(*tasks, return_exceptions=True)
        server.close()
        return list(got), [again, *joiners]

    got, players = asyncio.run(go())
    assert got[0] and got == [got[0]] * 3, (got, said[-6:])
    _verified(players, got[0])
    assert sorted(answered) == ["forged", "unsigned"], answered
    refused = [x for x in said if x.startswith("refused what answers at")]
    assert len(refused) == 2 and all("trying the next process" in x for x in refused), said
    assert any("not signed by that process's keys" in x for x in refused), refused
    assert any("no mp_resumed" in x for x in refused), refused
    assert players[1].link.seq is not None  # type: ignore[attr-defined]
    assert players[2].link.relay_proc == 1  # type: ignore[attr-defined]


def test_a_joiner_that_does_not_sequence_shows_who_is_away(tmp_path: Any) -> None:
    """Presence for every process: P3's process (never the sequencer) shows the host's seat
    ``disconnected`` while the host's process is gone and ``host`` once it is back; then,
    P3's process gone, the host's process (back, not the sequencer either) shows P3
    ``disconnected``, and ``connected`` once P3's process is back (``mp_presence``)."""
    from net.poker_session import PokerSession

    rs = registry.get("wizwar")
    seen: list[tuple[str, str, str]] = []

    async def until(p: Player, seat: str, status: str) -> None:
        s = PokerSession(p)
        while s.seat_status().get(seat) != status:
            await asyncio.sleep(0.005)
        seen.append((", ".join(p.mine), seat, status))

    async def go() -> tuple[list[Any], list[Player]]:
        host = PokerHost(rs, players=3, keys_dir=str(tmp_path / "hkeys"),
                         log_dir=str(tmp_path / "logs"), seed="here")
        port = await host.start()
        joiners = [_player(rs, f"here:{i}", tmp_path) for i in (1, 2)]
        async with asyncio.timeout(300):
            hosting, tasks = await _seat(host, port, joiners)
            while joiners[1].seq < 6:
                await asyncio.sleep(0.002)
            assert PokerSession(joiners[1]).seat_status()["P1"] == "host"
            kept = host.player.keys_path
            assert kept is not None
            await _kill(host, hosting)
            await until(joiners[1], "P1", "disconnected")  # the game waits for P1's keys
            while joiners[1].link.relay_proc != 1:  # type: ignore[attr-defined]
                await asyncio.sleep(0.005)
            await until(joiners[1], "P1", "disconnected")  # and the new relay says so too
            first = Player(rs, host.player.send, host.player.recv,
                           keys_dir=str(tmp_path / "hkeys"), log_dir=str(tmp_path / "logs"),
                           rejoin_from=kept)
            back = asyncio.ensure_future(come_back(first))
            await until(joiners[1], "P1", "host")
            while first.seq < joiners[0].seq or first.seq < 14:
                await asyncio.sleep(0.002)
            assert PokerSession(first).seat_status()["P3"] == "connected"
            third = joiners[1]
            kept3 = third.keys_path
            assert kept3 is not None
            await _die(third.link, tasks[1])  # type: ignore[attr-defined]
            await until(first, "P3", "disconnected")
            new3 = _player(rs, "unused", tmp_path, rejoin_from=kept3)
            c = asyncio.ensure_future(come_back(new3))
            await until(first, "P3", "connected")
            got = await asyncio.gather(back, tasks[0], c, return_exceptions=True)
        return list(got), [first, joiners[0], new3]

    got, players = asyncio.run(go())
    assert got[0] and got == [got[0]] * 3, got
    _verified(players, got[0])
    assert seen == [("P3", "P1", "disconnected"), ("P3", "P1", "disconnected"),
                    ("P3", "P1", "host"), ("P1", "P3", "disconnected"),
                    ("P1", "P3", "connected")], seen
