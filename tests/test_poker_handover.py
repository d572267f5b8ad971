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
    assert host._player_task is not None
    host._player_task.cancel()
    for t in (hosting, host._player_task):
        with pytest.raises(asyncio.CancelledError):
            await t
    await host.close()


async def _handover_game(tmp: Any, seed: str, when: Callable[[PokerHost, list[Player]], bool],
                         said: list[str], back: bool = True,
                         ) -> tuple[PokerHost, list[Any], list[Player]]:
    """A 3-seat game (the host's process and two joiners, every seat its bot): the host's
    process is killed once ``when(host, joiners)``; it comes back from its kept keys
    (``back``). Returns the host, every result (the returned host's, then the joiners')
    and the players (the returned host's, then the joiners')."""
    rs = registry.get("wizwar")
    host = PokerHost(rs, players=3, keys_dir=str(tmp / "hkeys"), log_dir=str(tmp / "logs"),
                     seed=seed)
    port = await host.start()
    joiners = [_player(rs, f"{seed}:{i}", tmp, log=said.append) for i in (1, 2)]
    async with asyncio.timeout(400):
        hosting = asyncio.ensure_future(host.run())
        tasks = []
        for i, p in enumerate(joiners):
            tasks.append(asyncio.ensure_future(play(p, "127.0.0.1", port, f"guest{i}")))
            while len(host.procs) < 2 + i:
                await asyncio.sleep(0.01)
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
