"""A 3-seat poker game inside one network namespace, for tests/test_discovery.py (issue 15:
"zeroconf re-announces the game under the same name").

``python tests/netns_poker_game.py IP DIR``: the host (P1) advertises the game on ``IP``;
two joiners (P2, P3) join it; after some actions the host's process is killed (its relay,
its player and its links stop, its ad is withdrawn) and P2's process, the new sequencer,
announces the game again under the same name. JSON lines on stdout: ``advertised`` (name,
port), ``killed`` (the host's kept keys), ``announced`` (name, addr), then ``done`` (each
joiner's final hash, and whether its log verifies) once the host's process is back (run by
the test in another namespace with ``wizwar join --back``)."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import net.poker  # noqa: E402
from core import log, registry  # noqa: E402
from net.cli import advertise_poker  # noqa: E402
from net.handover import Link, play  # noqa: E402
from net.poker import Player, PokerHost  # noqa: E402


def emit(event: str, **fields: object) -> None:
    sys.stdout.write(json.dumps({"event": event, **fields}) + "\n")
    sys.stdout.flush()


async def main(ip: str, folder: str) -> None:
    rs = registry.get("wizwar")
    host = PokerHost(rs, players=3, bind=ip, keys_dir=f"{folder}/hkeys",
                     log_dir=f"{folder}/logs", seed="zc")
    port = await host.start()
    adv = await advertise_poker(host, "Poker night")
    emit("advertised", name=adv.name, port=port)

    async def nothing(_m: object) -> None:
        raise AssertionError("not joined")

    async def none() -> None:
        return None

    joiners = [Player(rs, nothing, none, keys_dir=f"{folder}/keys{i}",
                      log_dir=f"{folder}/logs", seed=f"zc:{i}", log=lambda m: emit("log", m=m))
               for i in (1, 2)]
    hosting = asyncio.ensure_future(host.run())
    tasks = []
    for i, p in enumerate(joiners):
        tasks.append(asyncio.ensure_future(play(p, ip, port, f"g{i}")))
        while len(host.procs) < 2 + i:
            await asyncio.sleep(0.01)
    while joiners[0].seq < 6:
        await asyncio.sleep(0.01)
    kept = host.player.keys_path
    await adv.stop()  # (a killed host's ad: gone; its cached record times out as well)
    hosting.cancel()
    assert host.player_task is not None
    host.player_task.cancel()
    for t in (hosting, host.player_task):
        try:
            await t
        except asyncio.CancelledError:
            pass
    await host.close()
    emit("killed", keys=kept)
    link: Link = joiners[0].link  # type: ignore[attr-defined]
    while link.advertiser is None:
        await asyncio.sleep(0.05)
    emit("announced", name=link.advertiser.name, addr=joiners[0].addr)
    got = await asyncio.gather(*tasks, return_exceptions=True)
    ok = []
    for p, h in zip(joiners, got, strict=True):
        st = log.replay(log.read(open(p.log_path, "rb").read())) if p.log_path else None
        ok.append(st is not None and rs.state_hash(st) == h)
    emit("done", hashes=[str(h) for h in got], verified=ok)


if __name__ == "__main__":
    net.poker.WAIT = 90.0
    asyncio.run(main(sys.argv[1], sys.argv[2]))
