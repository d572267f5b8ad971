"""Dice no peer can foresee, over the LAN on 127.0.0.1 (core/beacon.py, net/lan.py).

Every action that rolls is announced once fixed; every seat reveals its next chain value; the
commit carries them; every peer checks them; the logs replay to the same hashes. No test here
touches a real network.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from typing import Any

import msgpack
import pytest

from core import beacon as B
from core import log, registry
from core.codec import pack
from core.wizwar.actions import Action
from core.wizwar.rules import legal_actions, to_move
from core.wizwar.state import State, state_hash
from net.dealer import DealError
from net.lan import HostGame, PeerGame

RS = registry.get("wizwar")


class RandomPeer(PeerGame):
    """Plays random legal actions (test-side randomness), one that rolls whenever it has
    one (asked of its own partial state), so that games roll often."""

    rnd: random.Random = random.Random(0)

    async def choose(self, st: State) -> Action | None:
        acts = legal_actions(st, self.seat)
        rolling = [a for a in acts if B.needs_chance(RS, st, a)]
        return self.rnd.choice(rolling or acts) if acts else None


async def _host_player(host: HostGame, rnd: random.Random) -> None:
    """The host's own seat: an action that rolls whenever it has one, else a random one."""
    assert host.local_actions is not None
    while True:
        await asyncio.sleep(0)
        st = host.state
        if st is None or st.winner or "P1" not in to_move(st) or \
                not host.local_actions.empty() or host.roll_msg:
            continue
        acts = legal_actions(st, "P1")
        rolling = [a for a in acts if B.needs_chance(RS, st, a)]
        await host.local_actions.put(rnd.choice(rolling or acts))


async def _play(host: HostGame, peers: list[PeerGame], *, rolls: int, seed: int,
                limit: float = 90) -> list[asyncio.Task[Any]]:
    """Run until the host's game rolled ``rolls`` times (or ended); the tasks, to cancel."""
    rnd = random.Random(seed)
    tasks = [asyncio.create_task(host.run()), asyncio.create_task(_host_player(host, rnd)),
             *[asyncio.create_task(p.run()) for p in peers]]
    loop = asyncio.get_running_loop()
    end = loop.time() + limit
    while loop.time() < end:
        await asyncio.sleep(0.01)
        st = host.state
        if host.desync or any(p.desync for p in peers) or any(t.done() for t in tasks[2:]):
            break
        if st is not None and (st.winner or st.rng.rolls >= rolls):
            break
    return tasks


async def _stop(host: HostGame, tasks: list[asyncio.Task[Any]]) -> None:
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    await host.close()


async def _play_fresh(make: Callable[[int], Awaitable[tuple[HostGame, list[PeerGame]]]], *,
                      rolls: int, seed: int, limit: float = 90
                      ) -> tuple[HostGame, list[PeerGame], list[asyncio.Task[Any]]]:
    """:func:`_play` on a game from ``make(attempt)`` (a started host and its peers, each
    peer's random choices seeded by the attempt), dealt again when a game ends before it
    ever rolled: the deal comes from fresh nonces every run, and about one random game in
    forty has no roll at all, which tests of the dice cannot use."""
    for attempt in range(8):
        host, peers = await make(attempt)
        for i, p in enumerate(peers):
            if isinstance(p, RandomPeer):
                p.rnd = random.Random(attempt * 10 + i)
        tasks = await _play(host, peers, rolls=rolls, seed=seed + attempt, limit=limit)
        st = host.state
        if st is None or not st.winner or st.rng.rolls or host.desync or \
                any(t.done() for t in tasks[2:]):
            return host, peers, tasks
        await _stop(host, tasks)
    raise AssertionError("eight random games in a row ended without a roll")


async def test_lan_rolls_use_every_seats_reveal_and_the_logs_replay() -> None:
    """Two remote peers and the host: every roll's commit holds one checked reveal per seat
    (chains committed in the lobby), each peer's state ends on the host's hash, and the
    host's and a peer's logs replay to the same hashes (the recorded reveals feed the same
    generator). From what a peer knew before each roll (the joint seed and every earlier
    message), the old stream does not give the roll."""
    hlog, plog = bytearray(), bytearray()

    async def make(attempt: int) -> tuple[HostGame, list[PeerGame]]:
        host = HostGame(players=3, local_bot=False)
        port = await host.start()
        peers: list[PeerGame] = [RandomPeer("127.0.0.1", port, name=f"p{i}") for i in range(2)]
        hlog.clear()
        plog.clear()
        host.writer, peers[0].writer = hlog.extend, plog.extend
        return host, peers

    host, peers, tasks = await _play_fresh(make, rolls=4, seed=3, limit=200)
    await asyncio.sleep(0.3)  # the last commit reaches the peers
    await _stop(host, tasks)
    st = host.state
    assert st is not None and not host.desync and not any(p.desync for p in peers)
    assert st.rng.beaconed and (st.rng.rolls >= 4 or st.winner and st.rng.rolls >= 1)
    rolled = [m for m in host.sent if m["type"] == "commit" and m["beacon"]]
    assert len(rolled) == st.rng.rolls
    tips = host.deal_msg["chains"]
    check = B.Tracker.from_tips(tips)
    for m in rolled:
        assert [s for s, _ in m["beacon"]] == ["P1", "P2", "P3"]
        check.accept_all(m["beacon"])  # each reveal opens the chain committed in the lobby
    for p in peers:
        assert p.state is not None and state_hash(p.state) == host.hashes[p.state.seq]
    for data, viewer in ((hlog, "P1"), (plog, "P2")):
        loaded = log.read(bytes(data))
        assert loaded.header["extra"]["beacon"]["chains"] == tips
        n = len(loaded.records)
        again = log.replay(loaded)
        assert state_hash(again) == host.hashes[n], viewer
        assert again.rng.rolls == sum(1 for r in loaded.records if log.dice_of(r))
    # the host's log verifies in two other processes under other hash seeds, and its export
    # text (with its dice lines) replays alone to the same game
    import os
    import subprocess
    import sys
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "host.wwlog")
        with open(path, "wb") as f:
            f.write(bytes(hlog))
        for hs in ("1", "2"):
            out = subprocess.run([sys.executable, "-m", "wizwar_tui.cli", "verify", path],
                                 capture_output=True, text=True, timeout=120,
                                 env={**os.environ, "PYTHONHASHSEED": hs})
            assert out.returncode == 0 and "PASS" in out.stdout, out.stdout + out.stderr
    text = log.export_text(log.read(bytes(hlog)))
    assert "dice beacon" in text and text.count("\ndice ") == 1 + len(rolled)
    game = log.parse_text(text)
    st2 = game.start()
    for i in range(len(game.actions)):
        game.step(st2, i)
    final = log.replay(log.read(bytes(hlog)))
    assert st2.to_wire()["wizards"] == final.to_wire()["wizards"]
    assert st2.rng.to_wire() == final.rng.to_wire()
    # the peer's foresight, the old way: before each roll it knows the joint seed and the
    # generator's counter (every earlier message); the seed's stream gave the roll's first
    # block then, and it is not the block the roll used (which needs the reveals)
    from hashlib import blake2b

    loaded = log.read(bytes(plog))
    cps = log.Checkpoints(loaded, every=10)
    for i, r in enumerate(loaded.records):
        if not log.dice_of(r):
            continue
        before, after = cps.at(i), cps.at(i + 1)
        n = before.rng.counter
        old = blake2b(n.to_bytes(8, "big"), key=before.rng.seed, digest_size=8).digest()
        key = blake2b(after.rng.beacon, key=before.rng.seed, digest_size=32).digest()
        used = blake2b(n.to_bytes(8, "big"), key=key, digest_size=8).digest()
        assert after.rng.counter > n and used != old
        assert after.rng.beacon == blake2b(
            before.rng.beacon + B.combine(before.rng.seed, before.rng.rolls, log.dice_of(r) or []),
            digest_size=32).digest()  # the roll is the combination of every seat's reveal


async def test_a_tampered_reveal_is_refused_and_a_withheld_one_waits_for_its_seat() -> None:
    """A peer that sends a reveal that does not open its chain is dropped; the game waits
    for that seat's dice (and says so); the seat joins again from a new process (a new
    chain, taken in sequence) and the game goes on in step."""

    class Forger(RandomPeer):
        async def _reveal(self, msg: dict[str, Any]) -> None:
            assert self.conn is not None
            await self.conn.send({"type": "beacon", "index": msg["index"], "value": "ab" * 32})

    said: list[str] = []

    async def make(attempt: int) -> tuple[HostGame, list[PeerGame]]:
        said.clear()
        host = HostGame(players=2, local_bot=False, log=said.append)
        port = await host.start()
        return host, [Forger("127.0.0.1", port, name="forger")]

    host, (forger,), tasks = await _play_fresh(make, rolls=1, seed=5, limit=150)
    port = host.port
    try:
        assert tasks[2].done() and isinstance(tasks[2].exception(), (ConnectionError,
                                                                     OSError)), \
            "the forger was not dropped"
        await asyncio.sleep(0.1)
        st = host.state
        assert st is not None and host.roll_msg and st.rng.rolls == 0
        assert host.roll_msg["waiting"] == ["P2"] == host.dice_waiting()
        from net.session import NetSession

        pause = NetSession(host).stage()
        assert pause.kind == "reveal" and pause.holder == "P2" and not pause.players
        assert any("waiting for P2's dice (every roll needs each player's share)" in m for m in said)
        assert any("does not open its committed chain" in m for m in said)
        seq = st.seq
        await asyncio.sleep(0.2)
        assert st.seq == seq, "the game went on without P2's dice"
        honest = RandomPeer("127.0.0.1", port, name="honest", token=forger.token)
        tasks.append(asyncio.create_task(honest.run()))
        loop = asyncio.get_running_loop()
        end = loop.time() + 120
        while loop.time() < end and (st.rng.rolls < 3 and not st.winner) and \
                not honest.desync and not tasks[-1].done():
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.3)
        assert not honest.desync and not host.desync
        assert st.rng.rolls >= 2 or st.winner
        assert any(m["type"] == "chain" and m["seat"] == "P2" for m in host.sent)
        assert honest.state is not None
        assert state_hash(honest.state) == host.hashes[honest.state.seq]
    finally:
        await _stop(host, tasks)


async def test_a_player_without_a_dice_chain_is_refused_in_words() -> None:
    from net.protocol import hello

    host = HostGame(players=2)
    port = await host.start()
    try:
        r, w = await asyncio.open_connection("127.0.0.1", port)
        w.write(pack(hello(host.ruleset, "chainless", "", "00")))
        await w.drain()
        got = msgpack.unpackb(await asyncio.wait_for(r.read(4096), 5), raw=False)
        w.close()
        assert got["type"] == "refuse" and "dice chain" in got["reason"]
        assert host.seat_status()["P2"] == "free"
    finally:
        await host.close()


async def test_a_peer_refuses_a_commit_whose_reveal_was_forged() -> None:
    """A host that alters a seat's reveal in a commit (to choose the dice) is caught by every
    peer: the reveal does not open that seat's chain."""

    class Forging(HostGame):
        async def _broadcast(self, msg: dict[str, Any]) -> None:
            if msg.get("type") == "commit" and msg["beacon"]:
                msg = dict(msg, beacon=[[s, "cd" * 32] if s == "P1" else [s, v]
                                        for s, v in msg["beacon"]])
            await super()._broadcast(msg)

    async def make(attempt: int) -> tuple[HostGame, list[PeerGame]]:
        host = Forging(players=2, local_bot=False)
        port = await host.start()
        return host, [RandomPeer("127.0.0.1", port, name="checker")]

    host, _, tasks = await _play_fresh(make, rolls=1, seed=6, limit=150)
    try:
        await asyncio.sleep(0.3)
        assert tasks[2].done()
        exc = tasks[2].exception()
        assert isinstance(exc, DealError) and "P1" in str(exc), exc
    finally:
        await _stop(host, tasks)


@pytest.mark.parametrize("players", [2])
async def test_a_local_replay_of_a_lan_log_is_a_beaconed_game(players: int) -> None:
    """The host's log of a LAN game replays in a local process with no network: the start
    state is beaconed from the header, and a record that rolls without its reveals is
    refused in words."""
    data = bytearray()

    async def make(attempt: int) -> tuple[HostGame, list[PeerGame]]:
        host = HostGame(players=players, local_bot=False)
        port = await host.start()
        data.clear()
        host.writer = data.extend
        return host, [RandomPeer("127.0.0.1", port, name="p")]

    host, _, tasks = await _play_fresh(make, rolls=1, seed=8, limit=150)
    await asyncio.sleep(0.2)
    await _stop(host, tasks)
    loaded = log.read(bytes(data))
    at = next(i for i, r in enumerate(loaded.records) if log.dice_of(r))
    assert B.is_beaconed(RS, log.start_state(loaded))
    r = loaded.records[at]
    loaded.records[at] = {**r, "reveals": {k: v for k, v in r["reveals"].items()
                                           if k != "beacon"}}
    with pytest.raises(log.LogError, match="no dice reveals"):
        log.replay(loaded)
