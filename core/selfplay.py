"""What every ruleset's self-play run reports (``wizwar selfplay [GAME]``): one game's result,
the run's totals and the figures they print. Each ruleset's ``selfplay`` module plays the
games and adds its own counters (cards played, spells cast, unit types used) to
:class:`RunReport`; this module names no game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class GameResult:
    """One self-play game.

    Attributes:
        seed: the game seed. players: seats. levels: bot level per seat.
        options: the options played (``{}``: the ruleset's defaults).
        winner: the winning seat or side (``"P1+P3"`` for a team), ``"-"`` when nobody wins
            (a draw, nobody left), ``""`` for a capped or failed game.
        actions: actions applied. rounds: the round (or turn) reached. capped: stopped at
        the length cap. failure: ``""`` or ``"crash: ..."`` / ``"invariant: ..."``.
        bad_action: the first bad action (notation) and its number, when failing.
        log: the game's log bytes when it failed (else ``b""``). moves: the actions applied.
    """

    seed: int
    players: int
    levels: tuple[str, ...]
    options: dict[str, Any] = field(default_factory=dict)
    winner: str = ""
    actions: int = 0
    rounds: int = 0
    capped: bool = False
    failure: str = ""
    bad_action: str = ""
    log: bytes = b""
    moves: list[Any] = field(default_factory=list, repr=False)


@dataclass
class RunReport:
    """The totals of a self-play run: ``players`` seats, ``levels``, the ``games`` played
    (a ruleset's subclass adds its counters as further fields)."""

    players: int
    levels: tuple[str, ...]
    games: list[GameResult] = field(default_factory=list)

    @property
    def crashes(self) -> int:
        """Games stopped by an exception."""
        return sum(1 for g in self.games if g.failure.startswith("crash"))

    @property
    def invariant_failures(self) -> int:
        """Games stopped by a failed check."""
        return sum(1 for g in self.games if g.failure.startswith("invariant"))

    def wins(self) -> dict[str, int]:
        """Wins per seat, every seat listed; a team's win (``"P1+P3"``) counts for each of
        its seats; failed games count for nobody."""
        out = {f"P{i + 1}": 0 for i in range(self.players)}
        for g in self.games:
            for s in g.winner.split("+"):
                if s in out and not g.failure:
                    out[s] += 1
        return out


def tenths(total: int, n: int) -> str:
    """``total / n`` rounded to one decimal, in integers (``n`` > 0): ``tenths(7, 2)`` is
    ``"3.5"``."""
    t = (total * 10 + n // 2) // n
    return f"{t // 10}.{t % 10}"
