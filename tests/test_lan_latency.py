"""Issue 13 item 11 (LAN latency, docs/performance.md): the host applies each action once,
sends its commit before its state hash (protocol 5: a ``hash`` frame follows), and every
hash is still compared. Loopback only, seeded bots (``net.bench.QuickBots``)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from core import registry
from core.wizwar.state import state_hash
from net.bench import QuickBots
from net.lan import HostGame, PeerGame, swap_contents
from net.protocol import PROTOCOL_VERSION
from tests.waiting import until


class Counting(QuickBots):
    """Random bots that count the ruleset's whole applies (the host's rules work)."""

    def __init__(self, ruleset: Any, seed: str) -> None:
        super().__init__(ruleset, seed)
        self.applies = 0

    def apply(self, state: Any, action: Any) -> Any:
        """``ruleset.apply``, counted."""
        self.applies += 1
        return self._ruleset.apply(state, action)


class Recording(PeerGame):
    """A bot peer that keeps the type, seq and hash of every frame it receives."""

    frames: list[tuple[str, int, str | None]]

    async def _handle(self, msg: dict[str, Any]) -> str | None:
        if not hasattr(self, "frames"):
            self.frames = []
        self.frames.append((msg["type"], msg.get("seq", -1), msg.get("hash")))
        return await super()._handle(msg)


async def _play(host: HostGame, peers: list[PeerGame], actions: int) -> list[asyncio.Task[Any]]:
    port = await host.start()
    tasks = [asyncio.create_task(host.run())]
    for p in peers:
        p.port = port
        tasks.append(asyncio.create_task(p.run()))
    await until(lambda: host.state is not None and (host.state.seq >= actions
                                                    or host.over or bool(host.desync)),
                f"{actions} actions")
    return tasks


async def _stop(host: HostGame, tasks: list[asyncio.Task[Any]]) -> None:
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    await host.close()


def test_swap_contents_keeps_identity_and_refuses_what_it_cannot_reach() -> None:
    """The host's state object stays the one everyone holds; a map swaps its items; objects
    of two types or without contents it can reach are left alone (False)."""
    rs = registry.get("wizwar")
    a = rs.new_game(rs.validate_options({"players": 2}), 1)
    b = rs.new_game(rs.validate_options({"players": 2}), 2)
    ha, hb = state_hash(a), state_hash(b)
    assert swap_contents(a, b)
    assert (state_hash(a), state_hash(b)) == (hb, ha)
    x, y = {"k": 1}, {"k": 2, "j": 3}
    assert swap_contents(x, y) and x == {"k": 2, "j": 3} and y == {"k": 1}
    assert not swap_contents(a, x)
    assert not swap_contents((1,), (2,))


async def test_the_host_applies_each_action_once_and_keeps_its_state_object() -> None:
    """An action that does not roll is applied once on the host (to the copy made while it
    waited, which then becomes its state's contents); one that rolls twice (the probe, then
    with its dice). The host's state object is the same from start to end, and every peer
    ends on the host's hashes."""
    rs = Counting(registry.get("wizwar"), "host")
    host = HostGame(ruleset=rs, players=3, seed=3)
    peers: list[PeerGame] = [PeerGame("127.0.0.1", 0, name=f"p{i}",
                                      ruleset=QuickBots(registry.get("wizwar"), f"p{i}"))
                             for i in range(2)]
    tasks = await _play(host, peers, 40)
    st = host.state
    await _stop(host, tasks)  # the game stopped where it is: count
    seq = st.seq
    rolled = sum(1 for m in host.sent if m["type"] == "commit" and m["beacon"])
    # one apply per action, two for one that rolled; at most one probe of an action whose
    # dice were still awaited when the game was stopped
    assert seq + rolled <= rs.applies <= seq + rolled + 1, (rs.applies, seq, rolled)
    assert seq >= 40 or host.over
    assert host.state is st
    for p in peers:
        assert p.state is not None and state_hash(p.state) == host.hashes[p.state.seq]
    assert not host.desync and not any(p.desync for p in peers)


class Judging(Counting):
    """Counting bots that also count the ruleset's separate legality checks."""

    def __init__(self, ruleset: Any, seed: str) -> None:
        super().__init__(ruleset, seed)
        self.checks = 0

    def why_illegal(self, state: Any, action: Any) -> str:
        """``ruleset.why_illegal``, counted."""
        self.checks += 1
        return str(self._ruleset.why_illegal(state, action))


async def test_the_host_judges_an_action_by_its_one_apply() -> None:
    """Seventh round: the rules run once per action on the host. An action that does not
    roll is judged by the probe's apply (which refuses an illegal action with its reason),
    not by a ``why_illegal`` first and that apply after it: the host's separate checks are
    only those of the actions that roll (judged before their dice are taken)."""
    rs = Judging(registry.get("wizwar"), "host")
    host = HostGame(ruleset=rs, players=3, seed=5)
    peers: list[PeerGame] = [PeerGame("127.0.0.1", 0, name=f"p{i}",
                                      ruleset=QuickBots(registry.get("wizwar"), f"p{i}"))
                             for i in range(2)]
    tasks = await _play(host, peers, 40)
    st = host.state
    await _stop(host, tasks)
    rolled = sum(1 for m in host.sent if m["type"] == "commit" and m["beacon"])
    assert st.seq >= 40 or host.over
    assert rs.checks <= rolled + 1, (rs.checks, rolled, st.seq)
    assert st.seq + rolled <= rs.applies <= st.seq + rolled + 1, (rs.applies, st.seq, rolled)
    for p in peers:
        assert p.state is not None and state_hash(p.state) == host.hashes[p.state.seq]
    assert not host.desync and not any(p.desync for p in peers)


async def test_an_illegal_proposal_is_refused_with_the_rules_reason() -> None:
    """The probe's apply is the host's check: a joiner's illegal proposal gets a ``reject``
    with the reason the rules give, nothing is committed, and the game goes on."""
    from core.wizwar.actions import parse

    rs = registry.get("wizwar")
    host = HostGame(ruleset=QuickBots(rs, "host"), players=2, seed=7)
    peer = Recording("127.0.0.1", 0, name="p", ruleset=QuickBots(rs, "p"))
    port = await host.start()
    peer.port = port
    tasks = [asyncio.create_task(host.run()), asyncio.create_task(peer.run())]
    try:
        await until(lambda: host.state is not None and peer.state is not None
                    and peer.state.seq == host.state.seq, "the game under way")
        assert host.state is not None
        seat = next(s for s in host.seats if s.kind == "remote")
        bad = parse(f"{seat.seat} move z99")
        want = rs.why_illegal(host.state, bad)
        assert want
        got = await host._sequence(bad)
        assert got == want
        assert not any(m["type"] == "commit" and m["action"] == bad.to_wire()
                       for m in host.sent)
        seq = host.state.seq
        await until(lambda: host.state is not None and (host.state.seq > seq + 2
                                                        or host.over),
                    "the game going on")
    finally:
        await _stop(host, tasks)
    assert not host.desync


async def test_the_commit_goes_out_before_its_hash_which_follows_and_is_compared() -> None:
    """Protocol 5: a live ``commit`` carries no hash; the host's hash of it comes next in a
    ``hash`` frame (before the next commit), equal to the host's; a commit kept for a
    catch-up carries its hash."""
    assert PROTOCOL_VERSION >= 5  # 6 changed only the poker hand-over
    host = HostGame(ruleset=QuickBots(registry.get("wizwar"), "host"), players=2, seed=4)
    peer = Recording("127.0.0.1", 0, name="rec",
                     ruleset=QuickBots(registry.get("wizwar"), "rec"))
    tasks = await _play(host, [peer], 25)
    try:
        # (the game may be over by now, its last frames not a hash: read up to the last hash)
        await until(lambda: sum(t == "hash" for t, _, _ in peer.frames) >= 12, "12 hashes")
        seqs = [(t, s, h) for t, s, h in peer.frames if t in ("commit", "hash")]
        seqs = seqs[:max(i for i, (t, _, _) in enumerate(seqs) if t == "hash") + 1]
        commits = [s for t, s, h in seqs if t == "commit"]
        assert len(commits) >= 10
        for i, (t, s, h) in enumerate(seqs[:-1]):
            if t == "commit":
                assert h is None, "a live commit held its hash back from the wire"
                assert seqs[i + 1][:2] == ("hash", s)
                assert seqs[i + 1][2] == host.hashes[s]
        assert all(m["hash"] == host.hashes[m["seq"]] for m in host.sent
                   if m["type"] == "commit" and m["seq"] <= commits[-2])
    finally:
        await _stop(host, tasks)


class WrongHash(HostGame):
    """Sends a wrong ``hash`` frame for action 6 (its state and commits honest)."""

    async def _broadcast(self, msg: dict[str, Any]) -> None:
        if msg.get("type") == "hash" and msg["seq"] == 6:
            msg = dict(msg, hash="0" * 32)
        await super()._broadcast(msg)


async def test_a_hash_frame_that_is_not_the_peers_is_a_desync(tmp_path: Path) -> None:
    """The peer compares the host's hash, which now follows the commit: a wrong one is a
    desync at that action (report written, the host told), and the peer does not ack it."""
    host = WrongHash(ruleset=QuickBots(registry.get("wizwar"), "host"), players=2, seed=5,
                     report_dir=str(tmp_path))
    peer = Recording("127.0.0.1", 0, name="rec", report_dir=str(tmp_path),
                     ruleset=QuickBots(registry.get("wizwar"), "rec"))
    tasks = await _play(host, [peer], 6)
    try:
        assert await asyncio.wait_for(tasks[1], 60) == ""
        assert peer.desync and "desync at sequence 6" in Path(peer.desync).read_text()
        assert peer.state is not None and peer.state.seq == 6
        await until(lambda: bool(host.reports) or bool(host.desync), "the host told")
    finally:
        await _stop(host, tasks)
