"""What each Wizard Kings spell does, in words, for the app: the spell reference (``?`` and
the menu's reference page) and the ``c`` list (trialWK 8: nowhere in the app could a player
read that leafstorm is 3 dice F4, or what Terror needs).

The text is data of this game's own folder, written from ``../shared/wizard-kings/units.md``
§4 (the army cards: every spell there is ``decided``); the rules themselves are in
``core.wizardkings.turn``. Each entry: slug -> (short, long): the short form for a list line,
the long one for the reference.
"""

from __future__ import annotations

#: slug -> (short effect, full effect). Source: units.md §4.1 (Wicana), §4.2 (Shakla), §4.3.
SPELL_TEXT: dict[str, tuple[str, str]] = {
    "elfshot": ("2 dice F3 at one enemy unit",
                "targeted: 2 dice F3 (each die <= 3 a hit), every hit on the one enemy unit "
                "named (R62)"),
    "heal": ("+1 step to a unit in the hex",
             "one friendly unit in the caster's hex (not a wizard or castle, below its "
             "maximum) gains 1 step; cast in the Movement Phase the caster may not move "
             "afterwards (R79)"),
    "entangle": ("one enemy may not fire next turn",
                 "roots bind one enemy unit: in its next combat turn of this battle it may "
                 "not fire or cast (it may still retreat or pass); if that turn has passed "
                 "this round, the one in the next round"),
    "elven-gate": ("a unit of the hex jumps 4 hexes",
                   "Movement Phase: one unmoved friendly unit of the caster's hex (the caster "
                   "too, never a castle) moves to a hex at most 4 away that is friendly or "
                   "neutral, not a battle hex, one it could enter; that is its move; "
                   "stacking applies (R47)"),
    "leafstorm": ("3 dice F4 at the enemy",
                  "3 dice F4 (each die <= 4 a hit), hits allocated as fire's (R61)"),
    "wrath-of-the-wood": ("every enemy loses 1 step",
                          "every enemy unit in the battle loses 1 step, no roll (seat, label "
                          "order); units at 0 are eliminated"),
    "firebolt": ("3 dice F2 at the enemy",
                 "3 dice F2 (each die <= 2 a hit), hits allocated as fire's (R61)"),
    "bloodlust": ("your units +1 to fire this round",
                  "every friendly non-wizard unit in the battle fires with +1 to its rating "
                  "until the end of this combat round (adds to folk bonuses)"),
    "terror": ("one enemy must retreat (round 2+)",
               "rounds 2-4 only (R66): one enemy unit, not a castle, must retreat at once by "
               "its side's retreat rules (R67-R70), using up the round's retreat hexside "
               "limit (R69); its owner chooses where; with no legal retreat it is "
               "eliminated (R71)"),
    "fireball": ("4 dice F3 at the enemy",
                 "4 dice F3 (each die <= 3 a hit), hits allocated as fire's (R61)"),
    "forced-march": ("1-2 units of the hex move +1",
                     "Movement Phase: one or two unmoved friendly ground units of the caster's "
                     "hex (not castles, not the caster) get +1 movement allowance for this "
                     "move (adds to the road bonus)"),
    "firestorm": ("6 dice F3 at the enemy",
                  "6 dice F3 (each die <= 3 a hit), hits allocated as fire's (R61)"),
    "dispel": ("stop the spell just cast",
               "pay 1 step, roll 1d6: the roll minus the spell's level >= 3 stops it "
               "(level 1: 4-6, level 2: 5-6, level 3: 6); both wizards keep their losses; "
               "windows and range R86"),
}


def short(slug: str) -> str:
    """The spell's effect in a few words ("" for an unknown slug)."""
    return SPELL_TEXT.get(slug, ("", ""))[0]


def full(slug: str) -> str:
    """The spell's whole effect ("" for an unknown slug)."""
    return SPELL_TEXT.get(slug, ("", ""))[1]
