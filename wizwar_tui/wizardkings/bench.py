"""``wizwar bench wizard-kings``: Wizard Kings' speed figures (docs/wizard-kings.md): random
games per second (every action drawn at random among the listed ones, seeded; 2 players, the
default options: a cities game is a draw after turn 30), captain-bot games per second, and
the time of one ``legal_actions`` and one ``apply`` in those games."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Iterable

from core import registry
from core.rng import Rng

PARTS = ("random", "captain")
#: actions after which a game is cut (the turn limit ends every game long before)
CAP = 20_000


def one_game(seed: int, level: str = "") -> tuple[int, float, float, float]:
    """One game from ``seed``: random actions (``level`` "") or both seats at a bot level.
    Returns (actions, seconds in all, seconds in legal_actions, seconds in apply)."""
    rs = registry.get("wizard-kings")
    rng = Rng.from_seed(f"wizard-kings-bench:{seed}")
    st = rs.new_game(rs.validate_options({}), seed)
    n, t_legal, t_apply = 0, 0.0, 0.0
    t0 = time.perf_counter()
    while not rs.result(st).over and n < CAP:
        seat = rs.to_move(st)[0]
        t1 = time.perf_counter()
        if level:
            a = rs.bot_act(st, seat, level)
        else:
            legal = rs.legal_actions(st, seat)
            a = legal[rng.below(len(legal))]
        t2 = time.perf_counter()
        rs.apply(st, a)
        t3 = time.perf_counter()
        t_legal += t2 - t1
        t_apply += t3 - t2
        n += 1
    return n, time.perf_counter() - t0, t_legal, t_apply


def run(runs: int = 5, quick: bool = False, only: Iterable[str] = (),
        echo: Callable[[str], None] = print) -> int:
    """Measure and print the figures (``only``: some of :data:`PARTS`); the exit status (0:
    these figures have no targets). A run is 4 random games (``quick``: 1) and 1 bot game
    (a captain game takes some 40 s). Raises ``ValueError`` for an
    unknown part."""
    want = set(only) or set(PARTS)
    unknown = want - set(PARTS)
    if unknown:
        raise ValueError(f"unknown part(s) {', '.join(sorted(unknown))}; parts: "
                         f"{', '.join(PARTS)}")
    echo(f"Wizard Kings benchmarks ({runs} run{'s' if runs != 1 else ''} of "
         f"{1 if quick else 4} random game{'' if quick else 's'} and 1 bot game; the median run)")
    for part in PARTS:
        if part not in want:
            continue
        level = "" if part == "random" else part
        games = 1 if quick or level else 4
        rates, legal_us, apply_us, lengths = [], [], [], []
        for r in range(runs):
            acts, secs, tl, ta = 0, 0.0, 0.0, 0.0
            for g in range(games):
                n, s, a, b = one_game(1000 * r + g, level)
                acts, secs, tl, ta = acts + n, secs + s, tl + a, ta + b
            rates.append(games / secs)
            legal_us.append(1e6 * tl / max(1, acts))
            apply_us.append(1e6 * ta / max(1, acts))
            lengths.append(acts / games)
        if level:
            echo(f"  {part}-bot games: {statistics.median(rates):.2f} games/s "
                 f"({statistics.median(lengths):.0f} actions a game; a bot's choice "
                 f"{statistics.median(legal_us) / 1000:.1f} ms, apply "
                 f"{statistics.median(apply_us):.0f} µs)")
        else:
            echo(f"  random games: {statistics.median(rates):.2f} games/s "
                 f"({statistics.median(lengths):.0f} actions a game; legal_actions "
                 f"{statistics.median(legal_us) / 1000:.1f} ms, apply "
                 f"{statistics.median(apply_us):.0f} µs)")
    return 0
