"""The magic stones: displayed in their owner's turn (``_display``); Bloodstone, Shieldstone and
Soulstone also out of turn against damage (``counteractions``). Each stone's record says what
it does while displayed: the hand limit (Brainstone), the allowance (Speedstone), number
cards (Powerstone), sight (Visionstone), damage taken (Shieldstone, Soulstone, Bloodstone)
and dealt (Shadowstone).

Sources: cards.md §1.4 and each stone row; RB The Cards.
"""

from __future__ import annotations

from core.wizwar.rules._common import Out
from core.wizwar.rules.hooks import CardRules, register
from core.wizwar.rules.objects import _display
from core.wizwar.rules.rows import Near, Row, _row
from core.wizwar.state import State, Wizard

#: The stones, each displayed by playing it (cards.md §2 magic stones).
STONES = ("bloodstone", "brainstone", "powerstone", "shadowstone", "shieldstone", "soulstone",
          "speedstone", "visionstone")



def _shieldstone(state: State, w: Wizard, dmg: int, physical: bool, o: Out) -> int | None:
    """Shieldstone: no physical damage (cards.md shieldstone)."""
    if physical:
        o("stone", f"{w.seat}'s Shieldstone stops the physical damage")
        return 0
    return None


def _soulstone(state: State, w: Wizard, dmg: int, physical: bool, o: Out) -> int | None:
    """Soulstone: no magical damage at 3 life or less (cards.md soulstone)."""
    if not physical and w.life <= 3:
        o("stone", f"{w.seat}'s Soulstone stops the magical damage")
        return 0
    return None


def _bloodstone(state: State, w: Wizard, dmg: int, physical: bool, o: Out) -> int | None:
    """Bloodstone: 1 damage less (cards.md bloodstone; FAQ: before the Fireball burns it)."""
    o("stone", f"{w.seat}'s Bloodstone takes a point")
    return dmg - 1


def _shadowstone_life(state: State, owner: Wizard, victim: Wizard, dmg: int, physical: bool,
                      o: Out) -> None:
    """Shadowstone: physical damage its owner's attacks deal to a wizard is added to his life
    (cards.md shadowstone)."""
    if physical:
        owner.life += dmg
        o("stone", f"{owner.seat}'s Shadowstone gives {dmg} life")


def _stone_rows(state: State, n: Near, s: str) -> list[Row]:
    """Displaying the stone; dropping it."""
    return [_row(n.seat, "play", s), _row(n.seat, "drop", targets=(s,))]


def _answer_stone_rows(state: State, n: Near, s: str) -> list[Row]:
    """Displaying the stone while damage is on its way (Bloodstone, Shieldstone,
    Soulstone)."""
    return [_row(n.seat, "play", s)]


register(
    CardRules("bloodstone", candidates=_stone_rows, answers=_answer_stone_rows, play=_display,
              damage_step=_bloodstone, damage_order=3,
              source="cards.md bloodstone, §1.5 step 4; FAQ"),
    CardRules("brainstone", candidates=_stone_rows, play=_display, hand_limit=9,
              source="cards.md brainstone; RB The Cards; DG §3"),
    CardRules("powerstone", candidates=_stone_rows, play=_display, number_bonus=1,
              source="cards.md powerstone, §1.3 step 4"),
    CardRules("shadowstone", candidates=_stone_rows, play=_display, after_dealing=_shadowstone_life,
              source="cards.md shadowstone"),
    CardRules("shieldstone", candidates=_stone_rows, answers=_answer_stone_rows, play=_display,
              damage_step=_shieldstone, damage_order=1,
              source="cards.md shieldstone, §1.5 step 4"),
    CardRules("soulstone", candidates=_stone_rows, answers=_answer_stone_rows, play=_display,
              damage_step=_soulstone, damage_order=2, source="cards.md soulstone, §1.5 step 4"),
    CardRules("speedstone", candidates=_stone_rows, play=_display, base_moves=4,
              source="cards.md speedstone"),
    CardRules("visionstone", candidates=_stone_rows, play=_display, sight_through=1,
              source="cards.md visionstone; FAQ (a corner counts as two)"),
)
