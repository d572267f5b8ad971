"""The magic stones: displayed in their owner's turn (``_display``); Bloodstone, Shieldstone and
Soulstone also out of turn against damage (``counteractions``). What each does lives where
its effect is asked: the hand limit (Brainstone), the allowance (Speedstone), number cards
(Powerstone), sight (Visionstone), damage (``objects._stones_step``, ``_shadowstone``).

Sources: cards.md §1.4 and each stone row; RB The Cards.
"""

from __future__ import annotations

from core.wizwar.rules.hooks import CardRules, register
from core.wizwar.rules.objects import _display

#: The stones, each displayed by playing it (cards.md §2 magic stones).
STONES = ("bloodstone", "brainstone", "powerstone", "shadowstone", "shieldstone", "soulstone",
          "speedstone", "visionstone")

register(*(CardRules(slug, play=_display, source=f"cards.md {slug}")
           for slug in STONES if slug != "speedstone"),
         CardRules("speedstone", play=_display, base_moves=4, source="cards.md speedstone"))
