"""The cards of Wiz-War, by family: each card's record (``hooks.CardRules``: its effect
when played, its hit effect, what its condition forbids, its creation's rules) is declared
in its family's module, next to its behaviour. Importing this package registers them all.

- ``attacks``: punches, point attacks, Waterbolt, weapons, the player spells, Ugly, Drag
- ``hits``: the hit effect functions of the attack cards
- ``neutrals``: Teleport, Invisible, Speed, Power Run, Shrink, Buddy, the modifiers,
  Mist-Body, Reuse Spell
- ``creations``: walls, doors and locks, Thornbush, stone, Wall of Fire, Waterwall, Illusion
  Wall, Pass Through Wall, Dispel Creation, sectors
- ``counteractions``: answering an open window with a card
- ``stones``: the magic stones
- ``trap``: Trap!

Source: cards.md §2 (the deck by family).
"""

from __future__ import annotations

from core.wizwar.rules.cards import attacks, counteractions, creations, neutrals, stones, trap

__all__ = ["attacks", "counteractions", "creations", "neutrals", "stones", "trap"]
