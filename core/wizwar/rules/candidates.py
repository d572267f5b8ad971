"""Candidate actions for ``legal_actions`` and ``sample_legal_action``: every action
worth a dry run for a seat now, in a fixed order (what is legal among them is decided by the
dry run of ``apply``). The verbs that need no card are listed here; each card in hand brings
its own rows (``CardRules.candidates`` and ``answers``, declared with the card), then its
discard; the far targets come from :mod:`core.wizwar.rules.reach`. For ``legal_actions``
(``listing``) a hook may leave out rows its dry run is sure to refuse, found by the dry run's
own checks on the same state (``Near.listing``; issue 14: the point attacks' rows at walls
out of sight); the sampler's rows leave out only those refused by a check shared by all.

Sources: notation.md (actions); cards.md §1.2 (targets).
"""

from __future__ import annotations

from collections.abc import Callable

from core.wizwar import cards as C
from core.wizwar.actions import Action
from core.wizwar.board import edge_name, parse_square, square_name
from core.wizwar.rules import reach
from core.wizwar.rules.hooks import card_rules
from core.wizwar.rules.movement import _retreat_paths
from core.wizwar.rules.rows import Near, Row, _row
from core.wizwar.rules.sight import fixed_sight
from core.wizwar.rules.turn import is_legal, to_move
from core.wizwar.state import State


def legal_actions(state: State, seat: str) -> list[Action]:
    """Every legal action of ``seat`` now, in a fixed order.

    Movement is listed one square at a time (a longer path is legal exactly when each of its
    steps is). Empty when ``seat`` may not act.
    """
    if seat not in to_move(state):
        return []
    # the candidates are only checked (dry runs change nothing), so the lines of sight
    # they ask have the answers kept for what blocks now (from earlier calls too)
    with fixed_sight(state):
        return [a for a in map(_action, _candidate_rows(state, seat, listing=True))
                if is_legal(state, a)]


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
    with fixed_sight(state):
        rows = _candidate_rows(state, seat)
        n = len(rows)
        if weight is None:
            for i in range(n):  # a Fisher-Yates shuffle, stopped at the first legal action
                j = i + below(n - i)
                rows[i], rows[j] = rows[j], rows[i]
                a = _action(rows[i])
                if is_legal(state, a):
                    return a
            return None
        cands = [_action(r) for r in rows]
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


def _candidates(state: State, seat: str) -> list[Action]:
    """The actions :func:`legal_actions` checks for ``seat``, in its order, duplicates
    removed (what is legal among them is decided by the dry run)."""
    return [_action(r) for r in _candidate_rows(state, seat)]


#: The ``Action`` of each candidate row made so far (an action is immutable and a row holds
#: its fields in order, so the kept one equals a new one): a row is looked up, not built
#: again, at every call (issue 14, eighth round). Bounded.
_ACTIONS: dict[Row, Action] = {}
_ACTIONS_LIMIT = 50_000


def _action(row: Row) -> Action:
    """``Action(*row)``, remembered (:data:`_ACTIONS`)."""
    a = _ACTIONS.get(row)
    if a is None:
        if len(_ACTIONS) >= _ACTIONS_LIMIT:
            _ACTIONS.clear()
        a = _ACTIONS[row] = Action(*row)
    return a


def _candidate_rows(state: State, seat: str, listing: bool = False) -> list[Row]:
    """The candidates near the caster (:func:`_near_rows`), then the far targets of
    :mod:`core.wizwar.rules.reach`, duplicates removed (the first kept). ``listing``: for
    :func:`legal_actions` (``Near.listing``: rows sure to be refused may be left out)."""
    rows = _near_rows(state, seat, listing)
    hand = sorted(set(state.hand_slugs(seat)), key=_slug_order)
    numbers = sorted({int(s) for s in hand if C.is_number(s)})
    if state.windows:
        rows += reach.answer_rows(state, seat, hand, numbers)
    elif not (state.retreats or state.choice or state.discarding):
        rows += reach.own_turn_rows(state, seat, hand, numbers, listing)
    return list(dict.fromkeys(rows))


def _near_rows(state: State, seat: str, listing: bool = False) -> list[Row]:
    w = state.wizard(seat)
    out: list[Row] = []
    hand = sorted(set(state.hand_slugs(seat)), key=_slug_order)
    numbers = sorted({int(s) for s in hand if C.is_number(s)})
    if state.windows:
        out.append(_row(seat, "pass"))
        near = Near(seat, w, w.at, [x for x in state.wizards if x.in_game and x.seat != seat],
                    numbers, [None, *numbers])
        for s in hand:  # each card's own answers (counteractions, blocks, escapes, stones)
            answers = card_rules(s).answers
            if answers is not None:
                out += answers(state, near, s)
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
    near = Near(seat, w, at, others, numbers, [None, *numbers], listing)
    for s in hand:  # each card's own candidates, then discarding it
        candidates = card_rules(s).candidates
        if candidates is not None:
            out += candidates(state, near, s)
        out.append(_row(seat, "discard", s))
    # dedupe, keep order (a dict keeps the first of equal rows, in order). Each verb's
    # candidates set only the fields its notation prints, so two candidates are equal exactly
    # when their notation is
    return list(dict.fromkeys(out))


def _slug_order(s: str) -> tuple[int, str]:
    return (0, s) if not C.is_number(s) else (1, s)
