"""Candidate rows: the plain-tuple form of a candidate action that ``legal_actions`` checks,
the context a card's candidate hook is given (:class:`Near`), and the row shapes several
cards share (a bare play, a play at each other wizard, a play with each number).

A card's own candidates are its ``CardRules.candidates`` (in its own turn) and
``CardRules.answers`` (answering a window), declared with the card in
``core/wizwar/rules/cards/``; ``candidates._near_rows`` asks them in hand order.

Sources: notation.md (actions); cards.md §1.2 (targets).
"""

from __future__ import annotations

from dataclasses import dataclass

from core.wizwar.board import Square
from core.wizwar.state import State, Wizard

#: A candidate action as a plain tuple, the fields of :class:`~core.wizwar.actions.Action` in
#: order (cheaper to build, compare and drop as a duplicate than an Action; made one only
#: when checked).
Row = tuple[str, str, str, tuple[str, ...], int | None, tuple[tuple[str, str], ...]]


def _row(actor: str, verb: str, card: str = "", targets: tuple[str, ...] = (),
         number: int | None = None, args: tuple[tuple[str, str], ...] = ()) -> Row:
    """One candidate row (the fields of an Action)."""
    return (actor, verb, card, targets, number, args)


@dataclass(frozen=True)
class Near:
    """What a card's candidate hook needs to know about the player it lists for.

    Attributes:
        seat: the player.
        w: his wizard.
        at: his square (in his own turn: never None; answering: may be None).
        others: the other wizards in the game, in seat order.
        numbers: the number cards in his hand, ascending, distinct.
        nums: ``None`` (no number card) then ``numbers``.
        listing: the rows are for ``legal_actions``, which dry-runs every one: a hook may
            leave out a row that the dry run is sure to refuse, found by the very check the
            dry run makes, on the same state (issue 14: a point attack's rows at every wall
            of the board, most of them out of sight). The sampler lists every row.
    """

    seat: str
    w: Wizard
    at: Square | None
    others: list[Wizard]
    numbers: list[int]
    nums: list[int | None]
    listing: bool = False


def _near(state: State, at: Square, r: int) -> list[Square]:
    """The squares within ``r`` steps of ``at`` (Manhattan distance), in board order."""
    return [sq for sq in state.layout.squares()
            if abs(sq[0] - at[0]) + abs(sq[1] - at[1]) <= r]


def _bare_rows(state: State, n: Near, s: str) -> list[Row]:
    """The card played with no target and no number."""
    return [_row(n.seat, "play", s)]


def _self_number_rows(state: State, n: Near, s: str) -> list[Row]:
    """The card played on oneself with each number (none first)."""
    return [_row(n.seat, "play", s, number=k) for k in n.nums]


def _each_other_rows(state: State, n: Near, s: str) -> list[Row]:
    """The card played at each other wizard, with no number."""
    return [_row(n.seat, "play", s, (x.seat,)) for x in n.others]
