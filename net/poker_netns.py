"""Mental poker between machines, as near as one machine gets: the host's process in one
network namespace, every joiner's process in another, over a veth pair (with ``netem``'s
delay on both ends when the kernel has it), every seat its bot's (issue 15: "the measured
cost of a deal, a draw and a reshuffle on LAN"; ``wizwar bench --only poker-lan``,
docs/protocol.md, Measured costs). Needs root and iproute2 (``ip netns``).

Run as a module, this is one process of the game: ``python -m net.poker_netns host IP
PLAYERS SEED`` prints its port, then its timings as one JSON line at the end; ``python -m
net.poker_netns join IP PORT SEED I`` prints its timings. This module uses clocks (the
processes' own ``Player.timings``, wall seconds), so it is no part of the rules core."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from typing import Any

from core import registry


def _ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True, text=True, timeout=10)


async def _host(ip: str, players: int, seed: str) -> dict[str, Any]:
    from net.poker import PokerHost

    host = PokerHost(registry.get("wizwar"), players=players, bind=ip, seed=seed)
    port = await host.start()
    print(port, flush=True)
    final = await host.run()
    await host.close()
    return {"hash": final, "timings": host.player.timings}


async def _join(ip: str, port: int, seed: str, i: int) -> dict[str, Any]:
    from net.poker import Player, join

    async def nothing(_m: Any) -> None:
        raise ConnectionError("not joined")

    async def none() -> None:
        return None

    p = Player(registry.get("wizwar"), nothing, none, seed=f"{seed}:{i}")
    final = await join(p, ip, port, f"bench {i}")
    return {"hash": final, "timings": p.timings}


def costs(players: int = 4, seed: str = "bench-poker:0",
          delay: str = "0.2ms") -> dict[str, Any]:
    """One whole game between namespaces: the deal (the slowest process's), the median draw
    (at its receiver), card shown to everyone and reshuffle, in wall seconds; ``netem``: the
    delay added to each end of the link ("" when the kernel has no netem: ``netem_error``
    says why); ``reshuffles``.
    Raises ``RuntimeError`` when namespaces cannot be made or the game does not end on one
    hash."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        raise RuntimeError("needs root, to make network namespaces")
    pid = os.getpid()
    a, b = f"wzpkA{pid}", f"wzpkB{pid}"
    va, vb = f"wzpA{pid}"[:15], f"wzpB{pid}"[:15]
    sub = f"10.214.{pid % 250}"
    made: list[str] = []
    why = ""
    try:
        for ns in (a, b):
            _ip("netns", "add", ns)
            made.append(ns)
        _ip("link", "add", va, "type", "veth", "peer", "name", vb)
        _ip("link", "set", va, "netns", a)
        _ip("link", "set", vb, "netns", b)
        for ns, v, host in ((a, va, 1), (b, vb, 2)):
            _ip("-n", ns, "addr", "add", f"{sub}.{host}/24", "dev", v)
            _ip("-n", ns, "link", "set", "lo", "up")
            _ip("-n", ns, "link", "set", v, "up")
        netem = delay
        for ns, v in ((a, va), (b, vb)):
            got = subprocess.run(["ip", "netns", "exec", ns, "tc", "qdisc", "add", "dev", v,
                                  "root", "netem", "delay", delay], capture_output=True,
                                 text=True, timeout=10)
            if got.returncode != 0:  # (no netem in this kernel: "qdisc kind is unknown")
                netem = ""
                why = (got.stderr or got.stdout).strip()[:200]
        mod = [sys.executable, "-m", "net.poker_netns"]
        hostp = subprocess.Popen(["ip", "netns", "exec", a, *mod, "host", f"{sub}.1",
                                  str(players), seed], stdout=subprocess.PIPE, text=True)
        assert hostp.stdout is not None
        port = hostp.stdout.readline().strip()
        joins = [subprocess.Popen(["ip", "netns", "exec", b, *mod, "join", f"{sub}.1", port,
                                   seed, str(i)], stdout=subprocess.PIPE, text=True)
                 for i in range(players - 1)]
        outs = [json.loads(p.communicate(timeout=600)[0].strip().splitlines()[-1])
                for p in (hostp, *joins)]
    except (subprocess.SubprocessError, OSError, ValueError, IndexError) as exc:
        raise RuntimeError(f"the namespaces' game failed: {exc}") from exc
    finally:
        for ns in made:
            subprocess.run(["ip", "netns", "del", ns], capture_output=True, timeout=10)
    if len({o["hash"] for o in outs}) != 1 or not outs[0]["hash"]:
        raise RuntimeError("the namespaces' game did not end on one hash")

    def median(xs: list[float]) -> float:
        xs = sorted(xs)
        return xs[len(xs) // 2] if xs else 0.0

    ts = [o["timings"] for o in outs]
    return {"deal": max(t["deal"][0] for t in ts),
            "draw": median([x for t in ts for x in t.get("draw", [])]),
            "show": median([x for t in ts for x in t.get("show", [])]),
            "reshuffle": median([x for t in ts for x in t.get("reshuffle", [])]),
            "reshuffles": len(ts[0].get("reshuffle", [])), "netem": netem,
            "netem_error": why}


def main(argv: list[str]) -> int:
    """The child processes (``host IP PLAYERS SEED``, ``join IP PORT SEED I``); with no
    argument, print :func:`costs`."""
    if argv[:1] == ["host"]:
        out = asyncio.run(_host(argv[1], int(argv[2]), argv[3]))
    elif argv[:1] == ["join"]:
        out = asyncio.run(_join(argv[1], int(argv[2]), argv[3], int(argv[4])))
    else:
        out = costs()
    print(json.dumps(out), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
