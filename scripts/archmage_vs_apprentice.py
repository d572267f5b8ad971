"""Archmage against apprentice: seeded two-player games, seats alternating; prints the record.

Usage: ``python scripts/archmage_vs_apprentice.py [--games 100] [--seed 0] [--budget N]``.
Game ``i`` is played from seed ``seed + i`` with the archmage as P1 in even games and P2 in
odd ones (so neither bot keeps the same seat, sectors or first move). A game that reaches
the self-play length cap counts as a draw. Issue 6: the archmage must win a clear majority.
"""

from __future__ import annotations

import argparse
import sys
import time

from core.wizwar import bot
from core.wizwar.selfplay import MAX_ACTIONS, play_bots


def main(argv: list[str] | None = None) -> int:
    """Play the match and print the running and final record. Returns 0."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--budget", type=int, default=bot.DEFAULT_BUDGET,
                    help=f"archmage playouts per decision (default {bot.DEFAULT_BUDGET})")
    ap.add_argument("--max-actions", type=int, default=MAX_ACTIONS)
    args = ap.parse_args(argv)
    won = lost = drawn = 0
    t0 = time.monotonic()
    for i in range(args.games):
        seed = args.seed + i
        arch = "P1" if i % 2 == 0 else "P2"
        levels = ("archmage", "apprentice") if arch == "P1" else ("apprentice", "archmage")
        actions, winner = play_bots(2, seed, levels, max_actions=args.max_actions,
                                    budget=args.budget)
        n = len(actions)
        if winner == arch:
            won += 1
            res = "won"
        elif winner in ("", "-"):
            drawn += 1
            res = "draw"
        else:
            lost += 1
            res = "lost"
        print(f"game {i + 1:3d} seed {seed:4d} archmage {arch}: {res:4s} in {n:4d} actions"
              f"   [{won}-{lost}-{drawn}, {time.monotonic() - t0:.0f}s]", flush=True)
    print(f"archmage vs apprentice over {args.games} two-player games (budget {args.budget}): "
          f"won {won}, lost {lost}, drawn {drawn}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
