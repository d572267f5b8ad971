"""Games dealt by mental poker over real sockets (127.0.0.1): the host relays and routes,
every process holds only its own keys and its partial state (net/poker.py; issue 15)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

import net.poker

from core import log, registry
from net.poker import Player, PokerHost, Stopped, join


def _player(rs: Any, seed: str, tmp: Any, bots: list[str] | None = None) -> Player:
    async def nothing(_m: Any) -> None:
        raise AssertionError("not joined")

    async def none() -> None:
        return None

    return Player(rs, nothing, none, bots=bots or [], keys_dir=str(tmp / "keys"),
                  log_dir=str(tmp / "logs"), seed=seed)


async def _game(players: int, bots: int, joiners: list[Player], tmp: Any,
                seed: str) -> tuple[PokerHost, list[Any]]:
    rs = registry.get("wizwar")
    host = PokerHost(rs, players=players, bots=bots, keys_dir=str(tmp / "hkeys"),
                     log_dir=str(tmp / "logs"), report_dir=str(tmp / "reports"), seed=seed)
    port = await host.start()
    async with asyncio.timeout(500):
        hosting = asyncio.ensure_future(host.run())
        results: list[Any] = []
        for i, p in enumerate(joiners):
            results.append(asyncio.ensure_future(join(p, "127.0.0.1", port, f"guest{i}")))
            await asyncio.sleep(0)  # seat them in order
            while len(host.procs) < 2 + i:
                await asyncio.sleep(0.01)
        got = await asyncio.gather(hosting, *results, return_exceptions=True)
    await host.close()
    return host, got


@pytest.fixture(autouse=True)
def _short_waits(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(net.poker, "WAIT", 60.0)


def test_two_seat_game_dealt_by_poker_plays_to_its_end(tmp_path: Any) -> None:
    rs = registry.get("wizwar")
    guest = _player(rs, "two-seat:1", tmp_path)
    host, got = asyncio.run(_game(2, 0, [guest], tmp_path, "two-seat"))
    assert host.stopped == "", host.stopped
    assert got[0] and got[0] == got[1], got
    for path in (host.player.log_path, guest.log_path):
        loaded = log.read(open(path, "rb").read())
        st = log.replay(loaded)
        assert rs.state_hash(st) == got[0]
