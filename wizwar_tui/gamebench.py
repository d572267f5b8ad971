"""Games-per-second figures for any ruleset (``wizwar bench GAME`` of a game other than
Wiz-War): random games (every action drawn, seeded, among the listed ones) and games of
both seats at a bot level, with the time of one ``legal_actions`` (or one bot choice) and
one ``apply``. Names no game: each game's ``bench`` module gives its ruleset name, title,
parts and how many games a run plays."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from core import registry
from core.rng import Rng

#: actions after which a game is cut (every game's turn limit ends it long before)
CAP = 20_000


def one_game(game: str, seed: int, level: str = "") -> tuple[int, float, float, float]:
    """One game of ruleset ``game`` from ``seed``, default options: random actions
    (``level`` "") or both seats at bot level ``level``. Returns (actions, seconds in all,
    seconds choosing: ``legal_actions`` or the bot, seconds in ``apply``). Raises
    ``UnknownRuleset`` for an unknown game."""
    rs = registry.get(game)
    rng = Rng.from_seed(f"{game}-bench:{seed}")
    st = rs.new_game(rs.validate_options({}), seed)
    n, t_choose, t_apply = 0, 0.0, 0.0
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
        t_choose += t2 - t1
        t_apply += time.perf_counter() - t2
        n += 1
    return n, time.perf_counter() - t0, t_choose, t_apply


@dataclass(frozen=True)
class GameBench:
    """One game's bench: ``game`` its ruleset name, ``title`` for the heading, ``parts``
    ("random" and bot levels), ``games`` per run (``quick``: 1) and ``bot_games`` per run
    of a bot part (0: as many as ``games``)."""

    game: str
    title: str
    parts: tuple[str, ...]
    games: int = 4
    bot_games: int = 0

    def run(self, runs: int = 5, quick: bool = False, only: Iterable[str] = (),
            echo: Callable[[str], None] = print) -> int:
        """Measure and print the figures (``only``: some of :attr:`parts`); the exit status
        (0: these figures have no targets). Raises ``ValueError`` for an unknown part."""
        want = set(only) or set(self.parts)
        unknown = want - set(self.parts)
        if unknown:
            raise ValueError(f"unknown part(s) {', '.join(sorted(unknown))}; parts: "
                             f"{', '.join(self.parts)}")
        games = 1 if quick else self.games
        bots = 1 if quick else (self.bot_games or games)
        echo(f"{self.title} benchmarks ({runs} run{'s' if runs != 1 else ''} of {games} "
             f"random game{'s' if games != 1 else ''} and {bots} bot "
             f"game{'s' if bots != 1 else ''}; the median run)")
        for part in self.parts:
            if part not in want:
                continue
            level = "" if part == "random" else part
            n_games = bots if level else games
            rates, choose_us, apply_us, lengths = [], [], [], []
            for r in range(runs):
                acts, secs, tc, ta = 0, 0.0, 0.0, 0.0
                for g in range(n_games):
                    n, s, c, a = one_game(self.game, 1000 * r + g, level)
                    acts, secs, tc, ta = acts + n, secs + s, tc + c, ta + a
                rates.append(n_games / secs)
                choose_us.append(1e6 * tc / max(1, acts))
                apply_us.append(1e6 * ta / max(1, acts))
                lengths.append(acts / n_games)
            what = f"{part}-bot games" if level else "random games"
            choosing = "a bot's choice" if level else "legal_actions"
            echo(f"  {what}: {statistics.median(rates):.2f} games/s "
                 f"({statistics.median(lengths):.0f} actions a game; {choosing} "
                 f"{statistics.median(choose_us) / 1000:.2f} ms, apply "
                 f"{statistics.median(apply_us):.0f} µs)")
        return 0
