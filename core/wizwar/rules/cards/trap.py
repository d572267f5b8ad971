"""Trap!: it goes off when drawn, d4 physical damage to the drawer as indirect damage, and
goes to the discard pile.

Source: cards.md trap.
"""

from __future__ import annotations

from core.wizwar.rules._common import Out, _roll
from core.wizwar.rules.hooks import CardRules, register
from core.wizwar.rules.stack import _open_indirect
from core.wizwar.state import State, Wizard


def _trap_drawn(state: State, w: Wizard, cid: int, o: Out) -> None:
    """Trap! drawn: d4 physical damage to the drawer, indirect (cards.md trap)."""
    state.discard.append(cid)
    roll = _roll(state)
    o("trap", f"{w.seat} draws Trap! and takes {roll} damage", seat=w.seat, roll=roll)
    _open_indirect(state, [w], roll, "trap", physical=True, cause="")


register(
    CardRules("trap", drawn=_trap_drawn, source="cards.md trap"),
)
