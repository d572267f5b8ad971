"""Durations and conditions: what a duration effect forbids its wizard (Medusa, No
Spell, Lock in Place, Slow, Mist-Body) and Slow Death's tick on each draw.

Sources: cards.md §1.6 (durations), cards.md rows medusa, no-spell, lock-in-place, slow,
mist-body, slow-death; DG §12.
"""

from __future__ import annotations

from collections.abc import Callable

from core.wizwar import cards as C
from core.wizwar.actions import Action
from core.wizwar.rules._common import Out
from core.wizwar.state import (
    State,
    Window,
    Wizard,
)


def _medusa_forbids(state: State, w: Wizard, a: Action) -> str:
    """Medusa's lockout: no moving, spells, counteractions, objects, stones or punches; his
    turns still begin and end with a draw (DG §12; cards.md medusa)."""
    if a.verb in ("end", "pass") or (a.verb == "discard" and state.discarding):
        return ""
    return "you are stone (Medusa): you can only end your turn or pass"


def _no_spell_forbids(state: State, w: Wizard, a: Action) -> str:
    """No Spell: no spell cards of any kind; objects, stones, lock tools, punches, walking and
    boosts still work (cards.md no-spell)."""
    if a.verb == "play" and (cd := C.BY_SLUG.get(a.card)) and cd.spell:
        return "you are under No Spell: you cannot cast spells"
    return ""


def _lock_forbids(state: State, w: Wizard, a: Action) -> str:
    """Lock in Place: he cannot leave his square by his own means (cards.md lock-in-place)."""
    if a.verb == "move" or (a.verb == "play" and a.card == "teleport"):
        return "you are locked in place"
    return ""


def _slow_forbids(state: State, w: Wizard, a: Action) -> str:
    """Slow: no boost and no Power Run (cards.md slow)."""
    if a.verb == "boost" or (a.verb == "play" and a.card == "power-run"):
        return "you are slowed: at most 1 square a turn"
    return ""


def _mist_forbids(state: State, w: Wizard, a: Action) -> str:
    """Mist-Body: no punches, no weapons, no picking up (cards.md mist-body)."""
    if a.verb in ("punch", "pickup") or (a.verb == "play" and a.card in
                                          ("dagger", "large-rock", "wizardblade")):
        return "as mist you cannot punch, use weapons or pick anything up"
    return ""


CONDITION_RULES: dict[str, Callable[[State, Wizard, Action], str]] = {
    "medusa": _medusa_forbids,
    "no-spell": _no_spell_forbids,
    "lock-in-place": _lock_forbids,
    "slow": _slow_forbids,
    "mist-body": _mist_forbids,
}


def _restricted(state: State, w: Wizard, a: Action) -> str:
    """Why a condition on ``w`` forbids ``a`` ("" if none does)."""
    for c in w.conditions:
        rule = CONDITION_RULES.get(c.slug)
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
