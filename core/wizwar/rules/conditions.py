"""Durations and conditions: asking a wizard's conditions what they forbid (each card's
``CardRules.forbids``: Medusa, No Spell, Lock in Place, Slow, Mist-Body) and Slow Death's
tick on each draw.

Sources: cards.md §1.6 (durations), cards.md rows medusa, no-spell, lock-in-place, slow,
mist-body, slow-death; DG §12.
"""

from __future__ import annotations

from core.wizwar.actions import Action
from core.wizwar.rules._common import Out
from core.wizwar.rules.hooks import card_rules
from core.wizwar.state import (
    State,
    Window,
    Wizard,
)


def _restricted(state: State, w: Wizard, a: Action) -> str:
    """Why a condition on ``w`` forbids ``a`` ("" if none does)."""
    for c in w.conditions:
        rule = card_rules(c.slug).forbids
        if rule is not None:
            why = rule(state, w, a)
            if why:
                return why
    return ""


def _tick(state: State, w: Wizard, o: Out) -> None:
    """A Slow Death tick after a draw: answered as if it were an attack by the caster (any
    counteraction, for this tick only); nobody's attack, no kill credit; none while
    petrified (cards.md slow-death; DG §7 and §12)."""
    curse = next((c for c in w.conditions if c.slug == "slow-death"), None)
    if curse is None or w.has("medusa"):
        return
    caster = curse.caster if state.wizard(curse.caster).in_game else w.seat
    o("tick", f"Slow Death: {w.seat} takes a tick", seat=w.seat)
    state.windows.insert(0, Window(kind="attack", attacker=caster, defender=w.seat,
                                   source="slow-death-tick", value=1, to_answer=w.seat,
                                   target=w.seat, passes=1))
