"""LAN latency as a figure: a joiner's proposal until every peer has applied it.

``wizwar bench --only lan`` (docs/performance.md, "LAN latency"). A host and two joiners,
each its own process, play a whole game of bots on loopback (``HostGame`` with its own seat
played by its bot, two ``PeerGame`` bots). For every action a joiner proposes, the time
from just before its ``propose`` is written until the last of the three peers (the host
included) has applied the ``commit``; beside it, in the same run, the round trip of a raw
msgpack echo between two processes on loopback (an action-sized map sent, unpacked, packed
and sent back). Both are wall times of ``CLOCK_MONOTONIC``, which every process of a Linux
machine shares, so stamps taken in different processes compare. On a busy machine wall time
is mostly waiting for a core, so the CPU time on the critical path is measured too (each
process's thread CPU clock: the host's from reading the proposal to sending the commit, the
slowest joiner's from taking the commit to having applied it), beside the CPU time of one
echo round trip (both processes). The bots pick legal actions at random (:class:`QuickBots`):
what is timed is the network and the rules' apply, not a bot's thinking.

Run as a module, this is one joiner: ``python -m net.bench join HOST PORT GAME NAME``
prints its stamps as one JSON line; ``python -m net.bench echo`` is the echo's far end.
This module uses clocks, so it is no part of the rules core; it only reads it.
"""

from __future__ import annotations

import asyncio
import json
import socket
import statistics
import subprocess
import sys
import time
from typing import Any

import msgpack

from core import registry
from core.rng import Rng
from net.lan import HostGame, PeerGame


def now() -> float:
    """Seconds of ``CLOCK_MONOTONIC`` (shared by every process of the machine)."""
    return time.clock_gettime(time.CLOCK_MONOTONIC)


class QuickBots:
    """A ruleset whose bots pick a legal action at random (seeded, ``core.rng``): the
    bench times the network and the rules' apply, not a bot's thinking, which would only
    keep the machine's cores busy while the others wait. Everything else is the ruleset's."""

    def __init__(self, ruleset: Any, seed: str) -> None:
        self._ruleset = ruleset
        self._rng = Rng.from_seed(seed)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._ruleset, name)

    def bot_choose(self, view: Any, player: str, legal: list[Any], level: str = "") -> Any:
        """One of ``legal``, at random."""
        return legal[self._rng.below(len(legal))]


class TimedPeer(PeerGame):
    """A bot joiner that stamps each of its proposals (by the sequence number it will get)
    and each commit it applied."""

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.proposed: dict[int, float] = {}
        self.applied: dict[int, float] = {}
        self.checked: dict[int, float] = {}
        self.cpu: dict[int, float] = {}  # CPU seconds from a commit's start to applied
        self._cpu0 = 0.0

    async def choose(self, st: Any) -> Any:
        """The bot's choice, stamped just before it is sent."""
        action = await super().choose(st)
        if action is not None:
            self.proposed[self.ruleset.seq(st) + 1] = now()
        return action

    def _applied(self, seq: int) -> None:
        self.applied[seq] = now()
        self.cpu[seq] = time.thread_time() - self._cpu0

    def _checked(self, seq: int) -> None:
        self.checked[seq] = now()

    def _commit(self, msg: dict[str, Any]) -> None:
        self._cpu0 = time.thread_time()
        super()._commit(msg)
        if not hasattr(PeerGame, "_checked"):  # an older net.lan (A/B runs): checked inline
            self.checked[msg["seq"]] = now()


class TimedHost(HostGame):
    """A host that stamps each action once it has applied and sent it."""

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.applied: dict[int, float] = {}
        self.cpu: dict[int, float] = {}  # CPU seconds from a proposal read to its commit sent
        self._cpu_in = 0.0

    async def _handle(self, seat: Any, msg: dict[str, Any]) -> None:
        t0 = time.thread_time()
        await super()._handle(seat, msg)
        if msg["type"] == "propose":
            self._cpu_in = time.thread_time() - t0

    async def _sequence(self, action: Any) -> str:
        t0 = time.thread_time()
        reason = await super()._sequence(action)
        assert self.state is not None
        if not reason:  # (a refused action: nothing committed, nothing to time)
            self.cpu[self.ruleset.seq(self.state)] = time.thread_time() - t0 + self._cpu_in
        self._cpu_in = 0.0
        return reason

    async def commit(self, action: Any, reveals: list[list[str]] | None = None) -> None:
        """:meth:`HostGame.commit`, stamped."""
        await super().commit(action, reveals)
        assert self.state is not None
        self.applied[self.ruleset.seq(self.state)] = now()


async def _join(host: str, port: int, game: str, name: str) -> dict[str, Any]:
    peer = TimedPeer(host, port, name=name, ruleset=QuickBots(registry.get(game), name))
    final = await peer.run()
    return {"proposed": peer.proposed, "applied": peer.applied, "checked": peer.checked,
            "cpu": peer.cpu, "hash": final}


def _child(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "net.bench", *args],
                            stdout=subprocess.PIPE, text=True)


async def game_latencies(game: str = "", seed: int = 1, players: int = 3,
                         parts: dict[str, list[float]] | None = None,
                         ) -> tuple[list[float], list[float], list[float]]:
    """One game: for each joiner proposal the seconds to the last peer having applied it
    (the host: applied and sent; a joiner: the action is in its state), to the last peer
    having also checked its state hash against the host's, and the CPU seconds on the
    critical path (the host's, from reading the proposal to sending the commit, plus the
    slowest joiner's, from taking the commit to having applied it); ``parts``, when given,
    gets those two parts apart (keys ``host`` and ``joiner``, CPU seconds). Raises
    ``RuntimeError`` when the peers do not end on one hash."""
    rs = registry.get(game or registry.DEFAULT)
    host = TimedHost(ruleset=QuickBots(rs, f"host {seed}"), players=players, seed=seed,
                     local_bot=True)
    port = await host.start()
    kids = [_child("join", "127.0.0.1", str(port), rs.name, f"bench {i}")
            for i in range(players - 1)]
    try:
        async with asyncio.timeout(600):
            final = await host.run()
        outs = [await asyncio.to_thread(k.communicate, timeout=60) for k in kids]
    finally:
        await host.close()
        for k in kids:
            if k.poll() is None:
                k.kill()
                k.wait()
    runs = [json.loads(out.strip().splitlines()[-1]) for out, _ in outs]
    if any(r["hash"] != final for r in runs) or not final:
        raise RuntimeError("the bench game did not end on one hash")
    out: tuple[list[float], list[float], list[float]] = ([], [], [])
    for r in runs:
        for seq, t0 in r["proposed"].items():
            for i, key in enumerate(("applied", "checked")):
                ends = [host.applied.get(int(seq))] + [o[key].get(seq) for o in runs]
                if all(e is not None for e in ends):
                    out[i].append(max(e for e in ends if e is not None) - t0)
            cpus = [o["cpu"].get(seq) for o in runs]
            if int(seq) in host.cpu and all(c is not None for c in cpus):
                slowest = max(c for c in cpus if c is not None)
                out[2].append(host.cpu[int(seq)] + slowest)
                if parts is not None:
                    parts.setdefault("host", []).append(host.cpu[int(seq)])
                    parts.setdefault("joiner", []).append(slowest)
    return out


def echo_round_trips(messages: int = 2000) -> tuple[list[float], float]:
    """Seconds of each round trip of a msgpack map (an action record) to another process
    on loopback that unpacks it and sends it back packed; and the CPU seconds of one round
    trip (both processes' CPU, averaged)."""
    kid = _child("echo")
    cpu0 = time.process_time()
    try:
        assert kid.stdout is not None
        port = int(kid.stdout.readline())
        cli = socket.create_connection(("127.0.0.1", port))
        cli.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        msg = {"type": "commit", "seq": 12, "action": ["P2", "play", "fireball", ["P3"], 3, []],
               "hash": "0123456789abcdef0123456789abcdef"}
        up = msgpack.Unpacker(raw=False)
        out = []
        for _ in range(messages):
            t0 = now()
            cli.sendall(msgpack.packb(msg, use_bin_type=True))
            got = None
            while got is None:
                up.feed(cli.recv(65536))
                for obj in up:
                    got = obj
            out.append(now() - t0)
        mine = time.process_time() - cpu0
        cli.close()
        theirs = float(kid.stdout.readline() or 0.0)
    finally:
        kid.wait(timeout=10)
    return out, (mine + theirs) / messages


def _echo_server() -> None:
    srv = socket.create_server(("127.0.0.1", 0))
    print(srv.getsockname()[1], flush=True)
    conn, _ = srv.accept()
    conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    up = msgpack.Unpacker(raw=False)
    cpu0 = time.process_time()
    with conn:
        while True:
            data = conn.recv(65536)
            if not data:
                print(time.process_time() - cpu0, flush=True)
                return
            up.feed(data)
            for obj in up:
                conn.sendall(msgpack.packb(obj, use_bin_type=True))


def measure(runs: int = 3, game: str = "", players: int = 3) -> dict[str, list[float]]:
    """Per run (one game with seed ``run + 1``, then 2,000 echoes): the median proposal
    latency (to every peer having applied it; ``checked``: and checked its hash), the
    median echo round trip, in seconds, and their ratios. Keys: ``latency``, ``checked``,
    ``echo``, ``ratio``, ``ratio_checked``, ``proposals`` (how many were timed), ``cpu_path``
    (and its parts ``cpu_host``, ``cpu_joiner``: medians), ``echo_cpu``, ``ratio_cpu``."""
    keys = ("latency", "checked", "echo", "ratio", "ratio_checked", "proposals", "cpu_path",
            "echo_cpu", "ratio_cpu", "cpu_host", "cpu_joiner")
    res: dict[str, list[float]] = {k: [] for k in keys}
    for run in range(runs):
        parts: dict[str, list[float]] = {}
        lat, checked, cpu = asyncio.run(game_latencies(game, seed=run + 1, players=players,
                                                       parts=parts))
        echo, echo_cpu = echo_round_trips()
        a, c, b = statistics.median(lat), statistics.median(checked), statistics.median(echo)
        path = statistics.median(cpu) + echo_cpu  # the two hops: one echo's CPU
        for k, v in zip(keys, (a, c, b, a / b, c / b, float(len(lat)), path, echo_cpu,
                               path / echo_cpu, statistics.median(parts["host"]),
                               statistics.median(parts["joiner"])), strict=True):
            res[k].append(v)
    return res


def mental_costs(runs: int = 3, players: int = 4, pile: int = 30,
                 game: str = "wizwar") -> dict[str, list[float]]:
    """The mental-poker dealer's costs (``net.mental``; docs/protocol.md, Mental-poker
    dealing), in CPU seconds of this process, per run: ``deal`` the whole deck of ``game`` among ``players``
    seats, each its own :class:`~net.mental.MentalDealer` in this one process (every
    step made once and checked by every process: the loopback figure on one core), and
    ``deal_path`` its critical path on a LAN with one machine per seat (each step made,
    then checked by one receiver, the others checking at the same time; network time not
    included: add ``2 * players`` one-way trips); ``draw`` one card opened to one seat (every
    other seat's sealed share made, then taken and checked by the receiver); ``show`` one
    card opened to everyone; ``reshuffle`` a ``pile``-card discard pile dealt again (all
    processes, one core); ``audit`` one process's end audit of all that. Keys also
    ``cards`` (the deck's size)."""
    from net.mental import MentalDealer

    cpu = time.process_time  # this process's CPU time: a busy machine's wall time is waiting

    rs = registry.get(game)
    opts = rs.validate_options({"players": players} if "players" in rs.options.names()
                               else {})
    seats = rs.seats(opts)
    values = rs.dealing().values(opts)
    keys = ("deal", "deal_path", "draw", "show", "reshuffle", "audit", "cards")
    res: dict[str, list[float]] = {k: [] for k in keys}
    for run in range(runs):
        procs = [MentalDealer(seats, [s], seed=f"bench:{run}:{s}") for s in seats]
        boxes = {s: p.box_key() for p in procs for s in p.mine}
        for p in procs:
            p.learn_boxes(boxes)
        slots = list(range(len(values)))
        t0 = cpu()
        path = 0.0
        for p in procs:
            p.begin(slots, values)
        while True:
            t1 = cpu()
            msg = next((m for p in procs if (m := p.step()) is not None), None)
            if msg is None:
                break
            for i, p in enumerate(procs):
                p.take_step(msg)
                if i == 0:
                    path += cpu() - t1  # made, and checked by one receiver
        deal = cpu() - t0
        t0 = cpu()
        for p in procs[1:]:
            procs[0].take_shares(p.shares([0], seats[0]))
        draw = cpu() - t0
        t0 = cpu()
        shown = [p.shares([1]) for p in procs]
        for p in procs:
            for m in shown:
                p.take_shares(m)
        show = cpu() - t0
        n = min(pile, len(values) - 2)
        t0 = cpu()
        for p in procs:
            p.begin(list(range(2, 2 + n)), values[2:2 + n])
        while (msg := next((m for p in procs if (m := p.step()) is not None), None)):
            for p in procs:
                p.take_step(msg)
        reshuffle = cpu() - t0
        revealed: dict[str, Any] = {}
        for p in procs:
            revealed.update(p.reveal()["keys"])
        t0 = cpu()
        procs[0].audit(revealed)
        audit = cpu() - t0
        for k, v in zip(keys, (deal, path, draw, show, reshuffle, audit, float(len(values))),
                        strict=True):
            res[k].append(v)
    return res


def main(argv: list[str]) -> int:
    """The child processes: ``join HOST PORT GAME NAME`` or ``echo``; with no argument,
    print the figures of :func:`measure`."""
    if argv[:1] == ["join"]:
        host, port, game, name = argv[1:5]
        out = asyncio.run(_join(host, int(port), game, name))
        print(json.dumps(out), flush=True)
        return 0
    if argv[:1] == ["echo"]:
        _echo_server()
        return 0
    res = measure(int(argv[0]) if argv else 3)
    for i in range(len(res["ratio"])):
        print(f"run {i + 1}: proposal to all applied {1e3 * res['latency'][i]:.3f} ms "
              f"(median of {res['proposals'][i]:.0f}), and checked "
              f"{1e3 * res['checked'][i]:.3f} ms; echo {1e3 * res['echo'][i]:.3f} ms; "
              f"{res['ratio'][i]:.1f}x, {res['ratio_checked'][i]:.1f}x; CPU on the path "
              f"{1e6 * res['cpu_path'][i]:.0f} us (host {1e6 * res['cpu_host'][i]:.0f}, "
              f"joiner {1e6 * res['cpu_joiner'][i]:.0f}), echo CPU "
              f"{1e6 * res['echo_cpu'][i]:.0f} us, {res['ratio_cpu'][i]:.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
