"""Damage: taking damage (death at 0 life, once the event is over) and lost turns. What one hit of each attack does
is its card's hit effect (``CardRules.hit``, see ``core/wizwar/rules/cards/hits.py``).

Sources: RB Combat; cards.md §1.7 (lost turns); FAQ.
"""

from __future__ import annotations

from core.wizwar.rules._common import Out
from core.wizwar.state import State, Wizard


def _lose_turn(state: State, w: Wizard, o: Out) -> None:
    """A lost turn. If the active player loses a turn to his own reflected attack in his own
    turn, he loses the rest of the current turn (FAQ; cards.md §1.7); otherwise it adds up."""
    if w.seat == state.turn.active and not state.turn.ending:
        state.turn.lost_rest = True
        o("lost", f"{w.seat} loses the rest of this turn", seat=w.seat)
    else:
        w.lost_turns += 1
        o("lost", f"{w.seat} loses a turn", seat=w.seat)


def _hurt(state: State, w: Wizard, n: int, o: Out) -> None:
    """Take ``n`` points of damage. A wizard brought to 0 life or less does not die at once:
    damage from one event lands on every victim first, then ``victory._deaths`` takes them
    all (cards.md §1.9, One event, every victim; RB Combat)."""
    w.life -= n
    o("damage", f"{w.seat} takes {n} damage ({w.life} life left)", seat=w.seat, amount=n)
