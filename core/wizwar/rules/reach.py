"""The candidates that make ``legal_actions`` exact: the targets far from the caster.

``candidates._candidate_rows`` lists each card at the targets near its caster (two or three
squares round him, the first line of sight), which is where a card is usually played. (A
Large Rock is always thrown, so it is written without mode=throw: one form per action.) The
rules accept more: Teleport Opponent to any vacant square,
Card Erasure naming any card, Drop Object naming any one thing, a number card with an attack on a wall, a door or a bush, a
a Waterbolt's push named on a diagonal, Reuse Spell recasting any spell it may, ending the turn drawing 0 or
1. These rows add them, so an app's action list and a bot can play every action ``apply``
accepts (the conformance suite, ``tests/conformance``, checks that nothing accepted is left
out). Walks and drags of several squares in one action, objects thrown at a square, and a
creation anywhere in line of sight beyond the squares round the caster (Create Wall, Wall of
Fire, Waterwall, Illusion Wall, Thornbush, Fill Square with Stone, Around the Corner's pivot:
a line traced to every square and side of the board, too slow to list at every step: see
:func:`far_rows`), are the families of :mod:`core.wizwar.families`, listed on demand.

Sources: notation.md (actions); cards.md §1.2 (targets: LOS, any square), §1.3 (number
cards), §1.8 (push on a diagonal); RB (draw up to 2 at the end of the turn).
"""

from __future__ import annotations

from core.wizwar import cards as C
from core.wizwar.board import edge_name, sightlines, square_name
from core.wizwar.rules._common import _may_attack
from core.wizwar.rules.cards.creations import _attackable_edge
from core.wizwar.rules.sight import _sees
from core.wizwar.rules.stack import _other_side
from core.wizwar.state import State

#: A candidate row (``candidates.Row``): the fields of an Action in order.
Row = tuple[str, str, str, tuple[str, ...], int | None, tuple[tuple[str, str], ...]]

#: Point attacks that may hit a wall, a door or a bush with a number card (cards.md §1.3).
_POINT = ("fireball", "lightning-blast", "powerthrust")
#: Edge creations played in one's own turn on any edge in line of sight.
_EDGE_MAKERS = ("create-wall", "wall-of-fire", "waterwall", "illusion-wall")
#: Square targets anywhere in line of sight.
_SQUARE_CARDS = ("thornbush", "fill-square-with-stone", "around-the-corner")


#: The creations whose far targets are the families ``far:<slug>`` (:func:`far_rows`).
FAR_CARDS = (*_EDGE_MAKERS, *_SQUARE_CARDS)
#: The slugs whose far targets are listed here.
_WIDE = frozenset((*_POINT, "teleport-opponent", "card-erasure",
                   "waterbolt", "large-rock", "reuse-spell", "drop-object"))
#: Every object and magic stone slug (what Drop Object may name), sorted.
_OBJECTS = tuple(sorted(s for s, cd in C.BY_SLUG.items() if cd.kind in (C.OBJECT, C.STONE)))


def _names(state: State) -> tuple[list[str], list[str]]:
    """The names of every square and every side of the board (kept with the layout, which
    never changes in place)."""
    lay = state.layout
    got = lay._cache.get("reach-names")
    if got is None:
        squares = [square_name(s) for s in lay.squares()]
        edges = list(dict.fromkeys(edge_name(e) for s in lay.squares()
                                   for _side, e in lay.edges_of(s)))
        got = lay._cache["reach-names"] = (squares, edges)
    return got


def _row(actor: str, verb: str, card: str = "", targets: tuple[str, ...] = (),
         number: int | None = None, args: tuple[tuple[str, str], ...] = ()) -> Row:
    return (actor, verb, card, targets, number, args)


def answer_rows(state: State, seat: str, hand: list[str], numbers: list[int]) -> list[Row]:
    """In an answer window: a Wall of Fire or a Waterwall on any edge of any line of sight
    between ``seat`` and the other side (the attacker, or for an attacker whose attack was
    turned on him, the one who turned it; the rules take the first clear one)."""
    out: list[Row] = []
    win = state.windows[0]
    if win.kind != "attack" or not any(s in ("wall-of-fire", "waterwall") for s in hand):
        return out
    w = state.wizard(seat)
    att = state.wizard(_other_side(win, seat))
    if att.at is None or w.at is None or att.at == w.at:
        return out
    for s in hand:
        if s in ("wall-of-fire", "waterwall"):
            for sl in sightlines(state.layout, att.at, w.at):
                for e in sl.edges:
                    out += [_row(seat, "play", s, (edge_name(e),), n)
                            for n in ([None, *numbers] if s == "waterwall" else [None])]
    return out


def own_turn_rows(state: State, seat: str, hand: list[str], numbers: list[int],
                  listing: bool = False) -> list[Row]:
    """In ``seat``'s own turn (nothing on the stack, no retreat, choice or discard pending):
    the far targets of the cards in ``hand`` (distinct slugs) and ``end draw 0|1``.

    The point attacks' rows at walls, doors and bushes (with each number) only while an
    attack is allowed (``_may_attack``); ``listing`` (for ``legal_actions``, which dry-runs
    every row): only at those the caster may attack and sees, by the checks of
    ``_point_attack`` itself (``Near.listing``)."""
    out: list[Row] = [_row(seat, "end", number=0), _row(seat, "end", number=1)]
    w = state.wizard(seat)
    if state.turn.picked_up or w.at is None:
        return out
    if not any(s in _WIDE for s in hand) and not state.bushes:
        return out
    squares, edges = _names(state)
    others = [x for x in state.wizards if x.in_game and x.seat != seat]
    nums: list[int | None] = [None, *numbers]
    at = w.at
    if any(s in _POINT for s in hand) and numbers and _may_attack(state, w):
        aimed = [e for e in state.edges if _attackable_edge(state, e, seat)
                 and _sees(state, w, at, e)] if listing else list(state.edges)
        bushy = [sq for sq in state.bushes if _sees(state, w, at, sq)] if listing \
            else list(state.bushes)
    else:
        aimed, bushy = [], []
    for s in hand:
        if s in _POINT:
            for e in aimed:
                out += [_row(seat, "play", s, (edge_name(e),), n) for n in numbers]
            for sq in bushy:
                out += [_row(seat, "play", s, (square_name(sq),), n) for n in numbers]
        elif s == "teleport-opponent":
            out += [_row(seat, "play", s, (x.seat,), args=(("to", q),))
                    for x in others for q in squares]
        elif s == "card-erasure":
            out += [_row(seat, "play", s, (x.seat,), args=(("name", slug),))
                    for x in others for slug in sorted(C.BY_SLUG)]
        elif s == "drop-object":
            # one name: any treasure or object he might hold (his hand is hidden); lists of
            # several names (up to the count, sorted, no repeat) are the families
            # drop-names:K (core/wizwar/families.py)
            names = [*sorted(state.treasures), *_OBJECTS]
            out += [_row(seat, "play", s, (x.seat,), n, (("drop", t),))
                    for x in others for t in names for n in nums]
        elif s == "waterbolt":
            out += [_row(seat, "play", s, (x.seat,), n, (("dir", d),))
                    for x in others for n in nums for d in "nesw"]
        if s == "reuse-spell":
            out += _reuse_rows(state, seat, squares, edges, others, nums)
    for sq in state.bushes:  # a punch at a bush in the square or a next one
        out.append(_row(seat, "punch", targets=(square_name(sq),)))
    return out


def far_rows(state: State, seat: str, slug: str) -> list[Row]:
    """A creation (``FAR_CARDS``) at every edge or square of the board, for the family
    ``far:<slug>`` of :mod:`core.wizwar.families`: the rules take any target in line of
    sight, and a line traced to every square and side at every step is too slow to list (the
    listing keeps those within two or three squares)."""
    if slug not in FAR_CARDS:
        return []
    squares, edges = _names(state)
    if slug in _SQUARE_CARDS:
        return [_row(seat, "play", slug, (q,)) for q in squares]
    numbers = sorted({int(s) for s in state.hand_slugs(seat) if C.is_number(s)})
    nums: list[int | None] = [None, *numbers] if slug == "waterwall" else [None]
    return [_row(seat, "play", slug, (e,), n) for e in edges for n in nums]


def _reuse_rows(state: State, seat: str, squares: list[str], edges: list[str],
                others: list, nums: list[int | None]) -> list[Row]:
    """Reuse Spell on each spell played this turn, at every target shape it may take."""
    out: list[Row] = []
    for p in sorted(set(state.turn.played)):
        cd = C.BY_SLUG.get(p)
        if cd is None or cd.kind == C.ATTACK or not cd.spell or p == "reuse-spell":
            continue
        shapes: list[tuple[str, ...]] = [(), *[(x.seat,) for x in others],
                                         *[(q,) for q in squares], *[(e,) for e in edges]]
        out += [_row(seat, "play", "reuse-spell", t, n, (("spell", p),))
                for t in shapes for n in nums]
    return out


__all__ = ["FAR_CARDS", "answer_rows", "far_rows", "own_turn_rows"]
