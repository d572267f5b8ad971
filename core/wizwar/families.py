"""The action families Wiz-War's ``legal_actions`` leaves to ``expand`` (core.engine.Ruleset).

``families(state, seat)`` names them, ``expand(state, seat, family)`` lists one on demand;
``legal_actions`` plus every family's members is exactly what ``apply`` accepts (the
conformance suite, ``tests/conformance``, checks it). Five kinds:

* ``move-path:N`` (N >= 2): **walks of N squares in one action** (``P1 move c4-d4-d5``,
  notation.md). ``legal_actions`` lists movement one square at a time: every walk is also its
  squares one step after another, so an app and a bot reach every square a walk reaches
  without these families. Up to 4^N walks of N squares (a walk may turn back): listed one
  length at a time, up to the longest walk the mover may still take this turn (the movement
  left; with Power Run, as many squares more as he has life points to pay beyond the last,
  RB Movement, cards.md power-run). Built by extending the accepted walks one square shorter
  (a walk is accepted only if every walk it begins with is: each step is checked as the walk
  goes, cards.md thornbush and §1.8).
* ``drag-path:N`` (N >= 2): Drag along a walk of N squares (``P1 play drag @P2 path=c4-c5``;
  cards.md drag): each thing in the dragger's square along each accepted walk of N squares.
  ``legal_actions`` lists the drags of one square.
* ``throw:<slug>``: an object or magic stone in the hand thrown at a square (``P1 play dagger
  @h8 mode=throw``; cards.md §1.4): every square of the board, a line traced to each, too
  slow to list at every step. A thrown object does no damage (FAQ); throwing a weapon at a
  wizard is listed.
* ``far:<slug>``: a creation in the hand (Create Wall, Wall of Fire, Waterwall, Illusion Wall,
  Thornbush, Fill Square with Stone, Around the Corner) on an edge or square in line of sight
  beyond the two or three squares round the caster that ``legal_actions`` lists (cards.md
  §1.2: any target in LOS); a line traced to every square and side is too slow to list at
  every step (core/wizwar/rules/reach.py).
* ``drop-names:K`` (K >= 2): Drop Object naming K different things at once (``P1 play
  drop-object @P2 +2 drop=P1.t1,dagger``, names sorted; cards.md drop-object: up to N things
  named, N its count). ``legal_actions`` lists one name; up to C(23, K) lists per target and
  number card: listed one K at a time, up to the largest count the caster's number cards give.

Source: notation.md (actions: move paths, arguments); RB Movement; cards.md §1.4, drag.
"""

from __future__ import annotations

from itertools import combinations

from core.wizwar import cards as C
from core.wizwar.actions import Action
from core.wizwar.board import parse_square, square_name
from core.wizwar.rules import allowance, is_legal, legal_actions, reach, to_move
from core.wizwar.rules._common import _final_number as final_number
from core.wizwar.state import State

#: The prefixes of the families' names.
MOVE_PATH = "move-path:"
DRAG_PATH = "drag-path:"
THROW = "throw:"
FAR = "far:"
DROP_NAMES = "drop-names:"


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
    """The families of ``seat`` now, in this order: ``move-path:2`` .. ``move-path:K`` for
    the longest walk K >= 2 (:func:`longest_walk`), ``drag-path:2`` .. ``drag-path:K`` when
    he holds Drag, ``throw:<slug>`` for each object and stone slug in his hand, ``far:<slug>``
    for each creation in his hand. ``[]`` when
    he may not act in his own turn. A family may turn out empty (walls all round)."""
    if not _walking(state, seat) and not _own_turn(state, seat):
        return []
    k = longest_walk(state, seat)
    hand = sorted(set(state.hand_slugs(seat)) - {""})
    out = [f"{MOVE_PATH}{n}" for n in range(2, k + 1)]
    if "drag" in hand:
        out += [f"{DRAG_PATH}{n}" for n in range(2, k + 1)]
    if _own_turn(state, seat):
        out += [f"{THROW}{s}" for s in hand if C.BY_SLUG[s].kind in (C.OBJECT, C.STONE)]
        out += [f"{FAR}{s}" for s in hand if s in reach.FAR_CARDS]
        if "drop-object" in hand:
            out += [f"{DROP_NAMES}{k}" for k in range(2, _drop_limit(state, seat) + 1)]
    return out


def _drop_count(state: State, seat: str, number: int | None) -> int:
    """How many things Drop Object played with ``number`` (None: no number card) may name:
    its count after the turn's modifiers (RB; cards.md §1.3, drop-object)."""
    return final_number(state, state.wizard(seat), number, "count")


def _drop_limit(state: State, seat: str) -> int:
    """The most names a Drop Object of ``seat``'s may list now, over his number cards."""
    numbers = sorted({int(s) for s in state.hand_slugs(seat) if C.is_number(s)})
    return max(_drop_count(state, seat, n) for n in [None, *numbers])


def _own_turn(state: State, seat: str) -> bool:
    """True when ``seat`` acts in his own turn with nothing pending and may still play."""
    return (seat in to_move(state) and not (state.windows or state.retreats or state.choice
                                            or state.discarding)
            and state.turn.active == seat and not state.turn.picked_up
            and state.wizard(seat).at is not None)


def _walks(state: State, seat: str, n: int) -> list[tuple[str, ...]]:
    """Every walk of exactly ``n`` squares ``apply`` accepts from ``seat`` now, in a fixed
    order (each step in the order n, e, s, w)."""
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
    return paths


def _draggable(state: State, seat: str) -> list[str]:
    """What lies or stands in ``seat``'s square to be dragged: the other wizards, loose
    treasures, objects (cards.md drag)."""
    at = state.wizard(seat).at
    out = [x.seat for x in state.wizards if x.in_game and x.seat != seat and x.at == at]
    out += [t for t, sq in sorted(state.treasures.items()) if sq == at]
    out += [state.face(c) for sq, c in state.floor if sq == at]
    return list(dict.fromkeys(out))


def expand(state: State, seat: str, family: str) -> list[Action]:
    """The members of ``family`` (one of :func:`families` now) that ``apply`` accepts from
    ``seat``, in a fixed order; ``[]`` for a family not named now. No side effect."""
    if family not in families(state, seat):
        return []
    if family.startswith(MOVE_PATH):
        return [Action(seat, "move", targets=p)
                for p in _walks(state, seat, int(family[len(MOVE_PATH):]))]
    if family.startswith(DRAG_PATH):
        walks = _walks(state, seat, int(family[len(DRAG_PATH):]))
        cands = [Action(seat, "play", "drag", (t,), None, (("path", "-".join(p)),))
                 for t in _draggable(state, seat) for p in walks]
        return [a for a in cands if is_legal(state, a)]
    if family.startswith(DROP_NAMES):
        return _drops(state, seat, int(family[len(DROP_NAMES):]))
    if family.startswith(FAR):
        listed = set(legal_actions(state, seat))
        cands = [Action(*r) for r in reach.far_rows(state, seat, family[len(FAR):])]
        return [a for a in cands if a not in listed and is_legal(state, a)]
    slug = family[len(THROW):]
    squares = [square_name(q) for q in state.layout.squares()]
    if slug == "large-rock":  # a Large Rock is always thrown: written without mode=throw
        cands = [Action(seat, "play", slug, (q,)) for q in squares]
    else:
        cands = [Action(seat, "play", slug, (q,), None, (("mode", "throw"),)) for q in squares]
    return [a for a in cands if is_legal(state, a)]


def _drops(state: State, seat: str, k: int) -> list[Action]:
    """Every accepted Drop Object of ``seat`` naming exactly ``k`` things: per listed way of
    playing it with one name (target, number card), each sorted choice of ``k`` of the names
    that listing offers, when the count allows ``k`` (the names' legality does not depend on
    the target, only on each name: core/wizwar/rules/cards/attacks.py ``_drop_names``)."""
    ways: dict[tuple[tuple[str, ...], int | None], list[str]] = {}
    for a in legal_actions(state, seat):
        if a.verb == "play" and a.card == "drop-object":
            ways.setdefault((a.targets, a.number), []).append(a.arg("drop"))
    out: list[Action] = []
    for (targets, number), names in ways.items():
        if _drop_count(state, seat, number) >= k:
            out += [Action(seat, "play", "drop-object", targets, number,
                           (("drop", ",".join(c)),))
                    for c in combinations(sorted(set(names)), k)]
    return out


__all__ = ["DRAG_PATH", "DROP_NAMES", "FAR", "MOVE_PATH", "THROW", "expand", "families", "longest_walk"]
