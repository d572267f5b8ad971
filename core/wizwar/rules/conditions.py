"""Durations and conditions: asking a wizard's conditions what they forbid (each card's
``CardRules.forbids``: Medusa, No Spell, Lock in Place, Slow, Mist-Body) and what they do
when he draws (``CardRules.after_draw``: Slow Death's tick).

Sources: cards.md §1.6 (durations), cards.md rows medusa, no-spell, lock-in-place, slow,
mist-body, slow-death; DG §12.
"""

from __future__ import annotations

from core.wizwar.actions import Action
from core.wizwar.rules._common import Out
from core.wizwar.rules.hooks import card_rules, conditions_of
from core.wizwar.state import State, Wizard


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
    """After ``w`` draws a card: each condition on him that acts on a draw does so, the first
    of each card only, in the order they were put on him (Slow Death's tick; cards.md
    slow-death)."""
    done: list[str] = []
    for c, r in conditions_of(w):
        if r.after_draw is not None and c.slug not in done:
            done.append(c.slug)
            r.after_draw(state, w, c, o)
