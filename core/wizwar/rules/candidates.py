"""Candidate actions for ``legal_actions`` and ``sample_legal_action``: every action
worth a dry run for a seat now, in a fixed order (what is legal among them is decided by the
dry run of ``apply``).

Sources: notation.md (actions); cards.md §1.2 (targets).
"""

from __future__ import annotations

from collections.abc import Callable

from core.wizwar import cards as C
from core.wizwar.actions import Action
from core.wizwar.board import (
    QUADRANTS,
    Square,
    edge_name,
    parse_square,
    sightlines,
    square_name,
)
from core.wizwar.rules import reach
from core.wizwar.rules.cards.counteractions import ANSWER_STONES
from core.wizwar.rules.movement import _retreat_paths
from core.wizwar.rules.sight import _LOS_MEMO
from core.wizwar.rules.stack import _other_side
from core.wizwar.rules.turn import is_legal, to_move
from core.wizwar.state import (
    State,
)


def legal_actions(state: State, seat: str) -> list[Action]:
    """Every legal action of ``seat`` now, in a fixed order.

    Movement is listed one square at a time (a longer path is legal exactly when each of its
    steps is). Empty when ``seat`` may not act.
    """
    if seat not in to_move(state):
        return []
    # the candidates are only checked (dry runs change nothing), so a line of sight asked
    # again by another candidate has the same answer: remember it for this call
    outer = getattr(_LOS_MEMO, "state", None), getattr(_LOS_MEMO, "table", None)
    _LOS_MEMO.state, _LOS_MEMO.table = state, {}
    try:
        return [a for a in _candidates(state, seat) if is_legal(state, a)]
    finally:
        _LOS_MEMO.state, _LOS_MEMO.table = outer


def sample_legal_action(state: State, seat: str, below: Callable[[int], int],
                        weight: Callable[[Action], int] | None = None) -> Action | None:
    """One legal action of ``seat`` drawn at random, without listing them all: exactly the
    distribution of drawing from :func:`legal_actions` (uniformly, or in proportion to
    ``weight(action)``, a positive int), with a few dry runs instead of one per candidate.

    The candidates of :func:`legal_actions` are put in random order one at a time (with
    ``weight``: each next one drawn in proportion to its weight among those left) and the
    first that passes the check is returned. In a uniformly random order every legal action
    is equally likely to come first among the legal ones (by symmetry); in a weighted one
    (successive draws in proportion to weight), the first legal one is drawn in proportion to
    its weight among the legal ones (the illegal ones drawn before it do not change the odds
    between the legal ones left). ``below(n)`` must return an int in ``[0, n)`` (e.g. ``Rng.below``: the choice
    is deterministic for a seeded generator). None when ``seat`` may not act or has no legal
    action (when :func:`legal_actions` is empty). Raises ``ValueError`` for a weight below 1.
    """
    if seat not in to_move(state):
        return None
    outer = getattr(_LOS_MEMO, "state", None), getattr(_LOS_MEMO, "table", None)
    _LOS_MEMO.state, _LOS_MEMO.table = state, {}
    try:
        rows = _candidate_rows(state, seat)
        n = len(rows)
        if weight is None:
            for i in range(n):  # a Fisher-Yates shuffle, stopped at the first legal action
                j = i + below(n - i)
                rows[i], rows[j] = rows[j], rows[i]
                a = Action(*rows[i])
                if is_legal(state, a):
                    return a
            return None
        cands = [Action(*r) for r in rows]
        ws = [weight(a) for a in cands]
        if any(w < 1 for w in ws):
            raise ValueError("weights must be positive integers")
        total = sum(ws)
        while cands:
            r, k = below(total), 0
            while r >= ws[k]:
                r -= ws[k]
                k += 1
            a = cands.pop(k)
            total -= ws.pop(k)
            if is_legal(state, a):
                return a
        return None
    finally:
        _LOS_MEMO.state, _LOS_MEMO.table = outer


def _candidates(state: State, seat: str) -> list[Action]:
    """The actions :func:`legal_actions` checks for ``seat``, in its order, duplicates
    removed (what is legal among them is decided by the dry run)."""
    return [Action(*r) for r in _candidate_rows(state, seat)]


#: A candidate action as a plain tuple, the fields of :class:`Action` in order (cheaper to
#: build, compare and drop as a duplicate than an Action; made one only when checked).
Row = tuple[str, str, str, tuple[str, ...], int | None, tuple[tuple[str, str], ...]]


def _row(actor: str, verb: str, card: str = "", targets: tuple[str, ...] = (),
         number: int | None = None, args: tuple[tuple[str, str], ...] = ()) -> Row:
    return (actor, verb, card, targets, number, args)


def _candidate_rows(state: State, seat: str) -> list[Row]:
    """The candidates near the caster (:func:`_near_rows`), then the far targets of
    :mod:`core.wizwar.rules.reach`, duplicates removed (the first kept)."""
    rows = _near_rows(state, seat)
    hand = sorted(set(state.hand_slugs(seat)), key=_slug_order)
    numbers = sorted({int(s) for s in hand if C.is_number(s)})
    if state.windows:
        rows += reach.answer_rows(state, seat, hand, numbers)
    elif not (state.retreats or state.choice or state.discarding):
        rows += reach.own_turn_rows(state, seat, hand, numbers)
    return list(dict.fromkeys(rows))


def _near_rows(state: State, seat: str) -> list[Row]:
    w = state.wizard(seat)
    out: list[Row] = []
    hand = sorted(set(state.hand_slugs(seat)), key=_slug_order)
    numbers = sorted({int(s) for s in hand if C.is_number(s)})
    if state.windows:
        out.append(_row(seat, "pass"))
        for s in hand:
            if s in ANSWER_STONES:
                out.append(_row(seat, "play", s))
            win = state.windows[0]
            if s in ("wall-of-fire", "waterwall") and win.kind == "attack":
                att = state.wizard(_other_side(win, seat))  # the line between the two sides
                if att.at is not None and w.at is not None and att.at != w.at:
                    for sl in sightlines(state.layout, att.at, w.at)[:1]:
                        for e in sl.edges:
                            out += [_row(seat, "play", s, (edge_name(e),), n)
                                    for n in ([None, *numbers] if s == "waterwall"
                                              else [None])]
            if s in ("teleport",):
                for sq in state.layout.squares():
                    out.append(_row(seat, "play", s, (square_name(sq),)))
            elif s == "invisible":
                out.append(_row(seat, "play", s))
                out += [_row(seat, "play", s, number=n) for n in numbers]
            elif C.BY_SLUG[s].kind in (C.COUNTER,):
                out.append(_row(seat, "play", s))
        return out
    if state.retreats and state.retreats[0][0] == seat:
        _s, frm, n = state.retreats[0]
        return [_row(seat, "move", targets=tuple(square_name(x) for x in p))
                for p in _retreat_paths(state, w, parse_square(frm), n)]
    if state.choice:
        target = state.wizard(state.choice[1])
        return [_row(seat, "choose", s) for s in sorted(set(state.hand_slugs(target.seat)))
                if s]
    if state.discarding:
        return [_row(seat, "discard", s) for s in hand]
    out.append(_row(seat, "end"))
    if state.turn.picked_up:
        return out
    at = w.at
    if at is None:
        return out
    for side in "nesw":
        nb = state.layout.neighbor(at, side)
        if nb is not None:
            out.append(_row(seat, "move", targets=(square_name(nb[0]),)))
    out += [_row(seat, "boost", number=n) for n in numbers]
    others = [x for x in state.wizards if x.in_game and x.seat != seat]
    for x in others:
        out.append(_row(seat, "punch", targets=(x.seat,)))
    for _s, e in state.layout.edges_of(at):
        if e in state.edges:
            out.append(_row(seat, "punch", targets=(edge_name(e),)))
    for t, t_at in sorted(state.treasures.items()):
        if t_at == at:
            out.append(_row(seat, "pickup", targets=(t,)))
    for sq, c in state.floor:
        if sq == at:
            out.append(_row(seat, "pickup", targets=(state.face(c),)))
    if w.carrying:
        out.append(_row(seat, "drop", targets=(w.carrying,)))
    nums: list[int | None] = [None, *numbers]
    for s in hand:
        if s in ("fireball", "lightning-blast", "powerthrust", "waterbolt", "power-drain",
                 "sudden-death"):
            for x in others:
                for n in (nums if s != "sudden-death" else [None]):
                    out.append(_row(seat, "play", s, (x.seat,), n))
            if s not in ("waterbolt", "power-drain"):
                for e in state.edges:
                    out.append(_row(seat, "play", s, (edge_name(e),), None))
                for sq in state.bushes:
                    out.append(_row(seat, "play", s, (square_name(sq),), None))
        elif C.BY_SLUG[s].kind == C.STONE:
            out.append(_row(seat, "play", s))
            out.append(_row(seat, "drop", targets=(s,)))
        elif s == "wizardblade":
            for x in others:
                out.append(_row(seat, "play", s, (x.seat,)))
            out.append(_row(seat, "drop", targets=(s,)))
        elif s in ("master-key", "jam-lock", "remove-lock"):
            for _side, e in state.layout.edges_of(at):
                if e in state.edges:
                    out.append(_row(seat, "play", s, (edge_name(e),)))
            if s == "master-key":
                out.append(_row(seat, "drop", targets=(s,)))
        elif s == "fill-square-with-stone":
            for sq in _near(state, at, 3):
                out.append(_row(seat, "play", s, (square_name(sq),)))
        elif s == "dispel-creation":
            for e, es in state.edges.items():
                if es.created:
                    out.append(_row(seat, "play", s, (edge_name(e),)))
            for sq in [*state.bushes, *state.stones]:
                out.append(_row(seat, "play", s, (square_name(sq),)))
        elif s in ("power-run", "speed", "amplify", "extend"):
            out.append(_row(seat, "play", s))
        elif s == "add":
            out += [_row(seat, "play", s, number=n) for n in nums]
        elif s == "card-erasure":
            for x in others:
                for slug in ("absorb-spell", "full-shield", "reflection", "teleport"):
                    out.append(_row(seat, "play", s, (x.seat,), args=(("name", slug),)))
        elif s == "drop-object":
            for x in others:
                if x.carrying:
                    out.append(_row(seat, "play", s, (x.seat,),
                                      args=(("drop", x.carrying),)))
        elif s in ("blind", "no-spell", "slow", "lock-in-place", "medusa", "stone-dead",
                   "shrink", "thought-steal"):
            for n in nums:
                if s == "shrink":
                    out.append(_row(seat, "play", s, number=n))
                else:
                    out += [_row(seat, "play", s, (x.seat,), n) for x in others]
        elif s in ("wall-of-fire", "waterwall", "illusion-wall"):
            for sq in _near(state, at, 2):
                for _side, e in state.layout.edges_of(sq):
                    if e not in state.edges:
                        out += [_row(seat, "play", s, (edge_name(e),), n)
                                for n in (nums if s == "waterwall" else [None])]
        elif s == "relocate-sector":
            pls = state.layout.placements
            dests = list(pls) + ([q for q in QUADRANTS if q not in pls] if len(pls) == 3 else [])
            out += [_row(seat, "play", s, (x,), args=(("to", y),))
                    for x in pls for y in dests if x != y]
        elif s == "rotate-sector":
            for pl in state.layout.placements:
                out += [_row(seat, "play", s, (pl,), args=(("turn", t),))
                        for t in ("90", "180", "270")]
        elif s == "pass-through-wall":
            for _side, e in state.layout.edges_of(at):
                if e in state.edges:
                    out.append(_row(seat, "play", s, (edge_name(e),)))
        elif s == "mist-body":
            out += [_row(seat, "play", s, number=n) for n in nums]
        elif s == "reuse-spell":
            for p in sorted(set(state.turn.played)):
                if p == "teleport":
                    for sq in _near(state, at, 3):
                        out.append(_row(seat, "play", s, (square_name(sq),),
                                          args=(("spell", p),)))
                elif p in ("speed", "power-run"):
                    out.append(_row(seat, "play", s, args=(("spell", p),)))
        elif s == "around-the-corner":
            for sq in _near(state, at, 2):
                out.append(_row(seat, "play", s, (square_name(sq),)))
        elif s == "ugly":
            out.append(_row(seat, "play", s))
        elif s == "go-away":
            out += [_row(seat, "play", s, (x.seat,), n) for x in others for n in nums]
        elif s == "drag":
            for x in others:
                if x.at == at:
                    for side in "nesw":
                        nb = state.layout.neighbor(at, side)
                        if nb is not None:
                            out.append(_row(seat, "play", s, (x.seat,),
                                              args=(("path", square_name(nb[0])),)))
        elif s in ("swap", "buddy", "telepath", "slow-death"):
            out += [_row(seat, "play", s, (x.seat,)) for x in others]
        elif s == "teleport-opponent":
            for x in others:
                for sq in _near(state, at, 2):
                    out.append(_row(seat, "play", s, (x.seat,),
                                      args=(("to", square_name(sq)),)))
        elif s in ("dagger", "large-rock"):
            for x in others:
                out.append(_row(seat, "play", s, (x.seat,)))
                if s == "dagger":
                    out.append(_row(seat, "play", s, (x.seat,), args=(("mode", "throw"),)))
            out.append(_row(seat, "drop", targets=(s,)))
        elif s == "create-wall":
            for sq in _near(state, at, 3):
                for _side, e in state.layout.edges_of(sq):
                    if e not in state.edges:
                        out.append(_row(seat, "play", s, (edge_name(e),)))
        elif s == "destroy-wall":
            for e in state.edges:
                out.append(_row(seat, "play", s, (edge_name(e),)))
        elif s == "pick-lock":
            for _side, e in state.layout.edges_of(at):
                if e in state.edges:
                    out.append(_row(seat, "play", s, (edge_name(e),)))
        elif s == "thornbush":
            for sq in _near(state, at, 3):
                out.append(_row(seat, "play", s, (square_name(sq),)))
        elif s == "teleport":
            for sq in state.layout.squares():
                out.append(_row(seat, "play", s, (square_name(sq),)))
        elif s == "invisible":
            out += [_row(seat, "play", s, number=n) for n in nums]
        elif s == "speed":
            out.append(_row(seat, "play", s))
        out.append(_row(seat, "discard", s))
    # dedupe, keep order (a dict keeps the first of equal rows, in order). Each verb's
    # candidates set only the fields its notation prints, so two candidates are equal exactly
    # when their notation is
    return list(dict.fromkeys(out))


def _near(state: State, at: Square, r: int) -> list[Square]:
    return [sq for sq in state.layout.squares()
            if abs(sq[0] - at[0]) + abs(sq[1] - at[1]) <= r]


def _slug_order(s: str) -> tuple[int, str]:
    return (0, s) if not C.is_number(s) else (1, s)
