"""Line of sight: what blocks a sightline, ``has_los`` (answers remembered per thread by
what blocks; :func:`fixed_sight` while nothing changes) and ``_sees`` (Visionstone sight
through one wall).

Sources: RB Line of Sight; DG §5 (corner rules); cards.md visionstone, illusion-wall.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from core.wizwar.board import Edge, Sightline, Square, parse_square, sightlines
from core.wizwar.rules.hooks import card_rules, displayed_rules
from core.wizwar.state import State, Wizard

#: has_los answers remembered during one legal_actions call (per thread: bots may think in
#: a worker thread while the app asks for its own player's actions)
_LOS_MEMO = threading.local()


def _is_blocking(state: State, e: Edge) -> bool:
    es = state.edges.get(e)
    return es is not None and e not in state.turn.open_doors


def has_los(state: State, frm: Square, target: Square | Edge, through: int = 0) -> bool:
    """Line of sight from ``frm`` to a square centre or an edge midpoint.

    Source: RB The Cards (L.O.S., centre to centre, any part of a wall interrupts it); FAQ
    (nicking a corner breaks LOS); cards.md §1.2 (thornbushes and stone blocks block, except
    in the caster's or target's square; an open door does not; wizards and objects do not).
    ``through``: how many wall edges the line may pass (1 with a Visionstone; a corner counts
    as two: FAQ).
    """
    if isinstance(target, tuple) and len(target) == 2 and target == frm:
        return True
    key = (tuple(frm), tuple(target), through)
    if getattr(_LOS_MEMO, "state", None) is state:
        table = _LOS_MEMO.table
    else:
        table = _blocking_memo(state)
    got = table.get(key)
    if got is None:
        got = table[key] = _has_los(state, frm, target, through)
    return got


def _blocking_memo(state: State) -> dict[tuple[object, ...], bool]:
    """The has_los answers remembered for what blocks lines of sight in ``state`` now: the
    board (the same layout object), the walls and doors standing, the doors held open, the
    thornbushes and the stone blocks; nothing else goes into an answer (see
    :func:`_clear_line`). One set of answers per thread, dropped when any of these differs
    (compared by value: a dict in another order only misses) or when it grows large.
    Between two actions that put up or take down nothing, the settle's illusion-wall scan
    asks the same lines again."""
    t = _BLOCKING
    opened = state.turn.open_doors
    if (getattr(t, "layout", None) is not state.layout or t.edges != tuple(state.edges)
            or t.opened != opened or t.bushes != tuple(state.bushes)
            or t.stones != state.stones or len(t.table) > 20_000):
        t.layout, t.edges, t.opened = state.layout, tuple(state.edges), list(opened)
        t.bushes, t.stones, t.table = tuple(state.bushes), list(state.stones), {}
    return t.table


#: has_los answers by what blocks (see :func:`_blocking_memo`), per thread
_BLOCKING = threading.local()


@contextmanager
def fixed_sight(state: State) -> Iterator[None]:
    """Within the block, ``has_los`` on ``state`` reads and fills the answers kept for what
    blocks lines of sight in ``state`` now (:func:`_blocking_memo`) without checking again,
    before every question, that nothing blocking changed. For code that puts up or takes
    down nothing meanwhile: ``legal_actions``' dry runs, the settle's illusion-wall scan
    (issue 14: the check built a tuple of every standing edge per question). Nests."""
    outer = getattr(_LOS_MEMO, "state", None), getattr(_LOS_MEMO, "table", None)
    _LOS_MEMO.state, _LOS_MEMO.table = state, _blocking_memo(state)
    try:
        yield
    finally:
        _LOS_MEMO.state, _LOS_MEMO.table = outer


def _has_los(state: State, frm: Square, target: Square | Edge, through: int) -> bool:
    return _clear_line(state, frm, target, through) is not None


def _clear_line(state: State, frm: Square, target: Square | Edge,
                through: int) -> Sightline | None:
    """The first (shortest) sightline from ``frm`` to ``target`` that nothing blocks, with
    ``through`` wall edges allowed, or None (see :func:`has_los`)."""
    edges, opened = state.edges, state.turn.open_doors
    standing = edges.keys()
    has = edges.__contains__
    bushes, stones = state.bushes, state.stones
    for sl in sightlines(state.layout, frm, target):
        # blocked_count(sl, _is_blocking) inlined (the hot path of legal_actions); with no
        # door held open, "blocking" is "standing", counted at C speed
        if opened:
            count = 0
            for e in sl.edges:
                if e in edges and e not in opened:
                    count += 1
            for corner in sl.corners:
                if any(e in edges and e not in opened for e in corner):
                    count += 2
            if count > through:
                continue
        else:
            if standing.isdisjoint(sl.edges):
                count = 0
            elif not through:
                continue
            else:
                count = sum(map(has, sl.edges))
                if count > through:
                    continue
            for corner in sl.corners:
                if not standing.isdisjoint(corner):
                    count += 2
                    if count > through:
                        break
            if count > through:
                continue
        if bushes or stones:
            ends = {frm}
            if len(target) == 2:
                ends.add(target)
            if any(s not in ends and (s in bushes or s in stones) for s in sl.squares):
                continue
        return sl
    return None


def _sees(state: State, w: Wizard, frm: Square, target: Square | Edge) -> bool:
    """A spell's line of sight for ``w``: through as many walls as his displayed stones allow
    (one with a Visionstone: cards.md visionstone; FAQ: a corner counts as two), in two legs
    after a pivot modifier (Around the Corner), only his own square under a condition like
    Blind. Throws use :func:`has_los` (a clear line)."""
    if any(card_rules(c.slug).sees_own_square_only for c in w.conditions):
        return len(target) == 2 and target == frm  # cards.md blind: only his own square
    through = max((r.sight_through for r in displayed_rules(state, w)), default=0)
    if state.turn.active == w.seat and not state.windows:
        for slug, pivot in state.turn.modifiers:
            if card_rules(str(slug)).pivot:  # Around the Corner: two legs, both clear
                p = parse_square(str(pivot))
                return has_los(state, frm, p, through) and has_los(state, p, target, through)
    return has_los(state, frm, target, through)
