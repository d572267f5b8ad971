"""The action families Wiz-War's ``legal_actions`` leaves to ``expand`` (core.engine.Ruleset).

One kind of family today: **walks of several squares in one action**, ``move-path:N`` for
N >= 2 (``P1 move c4-d4-d5``, notation.md). ``legal_actions`` lists movement one square at
a time: every walk is also its squares one step after another, so an app and a bot reach
every square a walk reaches without these families. The walk told at once is still an action
``apply`` accepts, and there are up to 4^N of them for N squares (a walk may turn back), too
many to list with the rest; they are enumerated on demand, one length at a time.

``families(state, seat)`` names ``move-path:2`` up to the longest walk the mover may still
take this turn (the movement left; with Power Run, as many squares more as he has life points
to pay beyond the last, RB Movement, cards.md power-run). ``expand`` lists the members of one
of them: every path of exactly N squares that ``apply`` accepts, built by extending the
accepted paths one square shorter (a path is accepted only if every path it begins with is:
each step is checked as the walk goes, cards.md thornbush and §1.8).

Source: notation.md (actions: move paths); RB Movement.
"""

from __future__ import annotations

from core.wizwar.actions import Action
from core.wizwar.board import parse_square, square_name
from core.wizwar.rules import allowance, is_legal, to_move
from core.wizwar.state import State

#: The prefix of the walk families' names.
MOVE_PATH = "move-path:"


def _walking(state: State, seat: str) -> bool:
    """True when ``seat`` may walk now in his own turn (no answer window, forced retreat,
    Telepath choice or discard pending; on the board)."""
    if seat not in to_move(state) or state.windows or state.retreats or state.choice \
            or state.discarding:
        return False
    t = state.turn
    return (t.active == seat and not t.picked_up and not t.stopped and not t.swapped
            and state.wizard(seat).at is not None)


def longest_walk(state: State, seat: str) -> int:
    """The most squares ``seat`` could walk in one action now (0 when he may not walk): the
    movement left, plus with Power Run one square per life point he could pay beyond his
    last. Source: RB Movement; cards.md power-run."""
    if not _walking(state, seat):
        return 0
    w = state.wizard(seat)
    left = max(0, allowance(state, w) - state.turn.moves_used)
    return left + (max(0, w.life - 1) if state.turn.power_run else 0)


def families(state: State, seat: str) -> list[str]:
    """``["move-path:2", ..., "move-path:K"]`` for the longest walk K >= 2 of ``seat`` now
    (:func:`longest_walk`); ``[]`` otherwise. A family may turn out empty (walls all round)."""
    return [f"{MOVE_PATH}{n}" for n in range(2, longest_walk(state, seat) + 1)]


def expand(state: State, seat: str, family: str) -> list[Action]:
    """Every walk of exactly N squares (``family`` = ``move-path:N``) that ``apply`` accepts
    from ``seat`` now, in a fixed order (paths in the order n, e, s, w of each step). ``[]``
    for a family not named by :func:`families` now. No side effect."""
    if family not in families(state, seat):
        return []
    n = int(family[len(MOVE_PATH):])
    w = state.wizard(seat)
    assert w.at is not None
    paths: list[tuple[str, ...]] = [()]
    for _ in range(n):
        longer = []
        for p in paths:
            cur = parse_square(p[-1]) if p else w.at
            for side in "nesw":
                nb = state.layout.neighbor(cur, side)
                if nb is None:
                    continue
                q = (*p, square_name(nb[0]))
                if is_legal(state, Action(seat, "move", targets=q)):
                    longer.append(q)
        paths = list(dict.fromkeys(longer))
    return [Action(seat, "move", targets=p) for p in paths]


__all__ = ["MOVE_PATH", "expand", "families", "longest_walk"]
