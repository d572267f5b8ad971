"""LAN latency as a figure: a joiner's proposal until every peer has applied it.

``wizwar bench --only lan`` (docs/performance.md, "LAN latency"). A host and two joiners,
each its own process, play a whole game of bots on loopback (``HostGame`` with its own seat
played by its bot, two ``PeerGame`` bots). For every action a joiner proposes, the time
from just before its ``propose`` is written until the last of the three peers (the host
included) has applied the ``commit``; beside it, in the same run, the round trip of a raw
msgpack echo between two processes on loopback (an action-sized map sent, unpacked, packed
and sent back). Both are wall times of ``CLOCK_MONOTONIC``, which every process of a Linux
machine shares, so stamps taken in different processes compare.

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

    async def choose(self, st: Any) -> Any:
        """The bot's choice, stamped just before it is sent."""
        action = await super().choose(st)
        if action is not None:
            self.proposed[self.ruleset.seq(st) + 1] = now()
        return action

    def _applied(self, seq: int) -> None:
        self.applied[seq] = now()

    def _commit(self, msg: dict[str, Any]) -> None:
        super()._commit(msg)
        self.checked[msg["seq"]] = now()


class TimedHost(HostGame):
    """A host that stamps each action once it has applied and sent it."""

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.applied: dict[int, float] = {}

    async def commit(self, action: Any, reveals: list[list[str]] | None = None,
                     adopt: Any = None) -> None:
        """:meth:`HostGame.commit`, stamped."""
        await super().commit(action, reveals, adopt)
        assert self.state is not None
        self.applied[self.ruleset.seq(self.state)] = now()


async def _join(host: str, port: int, game: str, name: str) -> dict[str, Any]:
    peer = TimedPeer(host, port, name=name, ruleset=QuickBots(registry.get(game), name))
    final = await peer.run()
    return {"proposed": peer.proposed, "applied": peer.applied, "checked": peer.checked,
            "hash": final}


def _child(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "net.bench", *args],
                            stdout=subprocess.PIPE, text=True)


async def game_latencies(game: str = "", seed: int = 1, players: int = 3,
                         ) -> tuple[list[float], list[float]]:
    """One game: the seconds from each joiner proposal to the last peer having applied it
    (the host: applied and sent; a joiner: the action is in its state), and to the last
    peer having also checked its state hash against the host's. Raises ``RuntimeError``
    when the peers do not end on one hash."""
    rs = registry.get(game or registry.DEFAULT)
    host = TimedHost(ruleset=QuickBots(rs, f"host {seed}"), players=players, seed=seed,
                     local_bot=True)
    port = await host.start()
    kids = [_child("join", "127.0.0.1", str(port), rs.name, f"bench {i}")
            for i in range(players - 1)]
    try:
        final = await asyncio.wait_for(host.run(), 600)
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
    out: tuple[list[float], list[float]] = ([], [])
    for r in runs:
        for seq, t0 in r["proposed"].items():
            for i, key in enumerate(("applied", "checked")):
                ends = [host.applied.get(int(seq))] + [o[key].get(seq) for o in runs]
                if all(e is not None for e in ends):
                    out[i].append(max(e for e in ends if e is not None) - t0)
    return out


def echo_round_trips(messages: int = 2000) -> list[float]:
    """Seconds of each round trip of a msgpack map (an action record) to another process
    on loopback that unpacks it and sends it back packed."""
    kid = _child("echo")
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
        cli.close()
    finally:
        kid.wait(timeout=10)
    return out


def _echo_server() -> None:
    srv = socket.create_server(("127.0.0.1", 0))
    print(srv.getsockname()[1], flush=True)
    conn, _ = srv.accept()
    conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    up = msgpack.Unpacker(raw=False)
    with conn:
        while True:
            data = conn.recv(65536)
            if not data:
                return
            up.feed(data)
            for obj in up:
                conn.sendall(msgpack.packb(obj, use_bin_type=True))


def measure(runs: int = 3, game: str = "", players: int = 3) -> dict[str, list[float]]:
    """Per run (one game with seed ``run + 1``, then 2,000 echoes): the median proposal
    latency (to every peer having applied it; ``checked``: and checked its hash), the
    median echo round trip, in seconds, and their ratios. Keys: ``latency``, ``checked``,
    ``echo``, ``ratio``, ``ratio_checked``, ``proposals`` (how many were timed)."""
    keys = ("latency", "checked", "echo", "ratio", "ratio_checked", "proposals")
    res: dict[str, list[float]] = {k: [] for k in keys}
    for run in range(runs):
        lat, checked = asyncio.run(game_latencies(game, seed=run + 1, players=players))
        echo = echo_round_trips()
        a, c, b = statistics.median(lat), statistics.median(checked), statistics.median(echo)
        for k, v in zip(keys, (a, c, b, a / b, c / b, float(len(lat))), strict=True):
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
              f"{res['ratio'][i]:.1f}x, {res['ratio_checked'][i]:.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
