"""ArcoMage's content as data: the 64 spells, the creatures, the Forms, the conditions and
the two starting books (``../shared/arcomage/spells.md``). One row per spell; what each spell
does on resolution is its effect function in :mod:`core.arcomage.effects`, keyed by slug.

Target words (R55, spells.md §1): ``piece``, ``creature``, ``enemy-creature``,
``own-creature``, ``enemy-wizard``, ``hex`` (a summon's empty hex within distance 2 of the
caster's wizard), ``rival-spell`` (a spell of the rival's book), ``own-locked-spell``,
``stack-spell``, ``effect`` (a condition, a Form or a Lock), ``rival-worker-building``,
``own-destroyed-building``.
"""

from __future__ import annotations

from dataclasses import dataclass

CIRCLES = {"I": 1, "II": 2, "III": 3, "IV": 4, "V": 5, "VI": 6, "VII": 7, "VIII": 8}


@dataclass(frozen=True)
class Spell:
    """One spell of the pool (spells.md §3): slug, name, Circle (1-8), school, mana cost,
    kind (instant, sorcery, summon, enchantment, form, building), the target words in the
    order the cast lists them, and the ``key=value`` arguments it takes."""

    slug: str
    name: str
    circle: int
    school: str
    cost: int
    kind: str
    targets: tuple[str, ...] = ()
    keys: tuple[str, ...] = ()
    corpse_cost: int = 0


def _s(slug: str, name: str, circle: str, school: str, cost: int, kind: str,
       targets: str = "", keys: str = "", corpse: int = 0) -> Spell:
    return Spell(slug, name, CIRCLES[circle], school, cost, kind,
                 tuple(t for t in targets.split(",") if t), tuple(k for k in keys.split(",") if k),
                 corpse)


N, B, E, W, M = "Necromancy", "Bushido", "Elementalism", "Warding", "Mentalism"
_ROWS = (
    _s("raise-skeleton", "Raise Skeleton", "I", N, 1, "summon", "hex", corpse=1),
    _s("venom", "Venom", "I", N, 2, "sorcery", "piece"),
    _s("drain-life", "Drain Life", "II", N, 3, "sorcery", "piece"),
    _s("unlife", "Unlife", "II", N, 1, "enchantment", "creature"),
    _s("wither", "Wither", "III", N, 3, "instant", "creature"),
    _s("summon-ghost", "Summon Ghost", "III", N, 3, "summon", "hex"),
    _s("corpse-explosion", "Corpse Explosion", "III", N, 3, "sorcery", "own-creature"),
    _s("summon-vengeful-spirit", "Summon Vengeful Spirit", "IV", N, 4, "summon", "hex"),
    _s("bone-tithe", "Bone Tithe", "IV", N, 3, "sorcery"),
    _s("plague", "Plague", "V", N, 5, "sorcery"),
    _s("summon-wraith", "Summon Wraith", "V", N, 6, "summon", "hex"),
    _s("wraith-form", "Wraith Form", "V", N, 5, "form"),
    _s("reaper-form", "Reaper Form", "VI", N, 6, "form"),
    _s("lich-form", "Lich Form", "VII", N, 7, "form"),
    _s("army-of-the-dead", "Army of the Dead", "VIII", N, 8, "sorcery"),
    _s("swiftness", "Swiftness", "I", B, 1, "sorcery", "creature"),
    _s("strength", "Strength", "I", B, 2, "instant", "creature"),
    _s("bless", "Bless", "II", B, 2, "sorcery", "creature"),
    _s("shadow-step", "Shadow Step", "II", B, 2, "instant", "own-creature", "to"),
    _s("animal-form", "Animal Form", "II", B, 3, "form"),
    _s("summon-tengu", "Summon Tengu", "III", B, 3, "summon", "hex"),
    _s("summon-samurai", "Summon Samurai", "III", B, 4, "summon", "hex"),
    _s("stone-form", "Stone Form", "III", B, 3, "form"),
    _s("regenerate", "Regenerate", "III", B, 3, "sorcery", "piece"),
    _s("blade-spirit", "Blade Spirit", "IV", B, 4, "summon", "hex"),
    _s("summon-ninja", "Summon Ninja", "IV", B, 4, "summon", "hex"),
    _s("horrific-beast", "Horrific Beast", "V", B, 5, "form"),
    _s("firebolt", "Firebolt", "I", E, 1, "sorcery", "piece"),
    _s("levitate", "Levitate", "II", E, 2, "enchantment", "creature"),
    _s("earthworks", "Earthworks", "II", E, 3, "building"),
    _s("fireball", "Fireball", "III", E, 4, "sorcery", "piece"),
    _s("summon-stone-guardian", "Summon Stone Guardian", "III", E, 3, "summon", "hex"),
    _s("lightning", "Lightning", "IV", E, 4, "instant", "piece"),
    _s("landslide", "Landslide", "IV", E, 4, "sorcery", "rival-worker-building"),
    _s("summon-fire-elemental", "Summon Fire Elemental", "V", E, 5, "summon", "hex"),
    _s("earthquake", "Earthquake", "VI", E, 6, "sorcery", "enemy-wizard"),
    _s("meteor", "Meteor", "VII", E, 8, "sorcery", "enemy-wizard"),
    _s("build-wall", "Build Wall", "I", W, 2, "building"),
    _s("magic-trap", "Magic Trap", "II", W, 2, "sorcery", "rival-spell"),
    _s("magic-untrap", "Magic Untrap", "II", W, 2, "sorcery"),
    _s("protection", "Protection", "II", W, 3, "instant"),
    _s("nightsight", "Nightsight", "II", W, 2, "enchantment"),
    _s("magic-lock", "Magic Lock", "III", W, 3, "sorcery", "rival-spell"),
    _s("unlock", "Unlock", "III", W, 2, "sorcery", "own-locked-spell"),
    _s("dispel", "Dispel", "III", W, 3, "instant", "effect"),
    _s("reactive-armor", "Reactive Armor", "III", W, 3, "enchantment"),
    _s("rebuild", "Rebuild", "III", W, 4, "building", "own-destroyed-building"),
    _s("counterspell", "Counterspell", "IV", W, 4, "instant", "stack-spell"),
    _s("magic-reflection", "Magic Reflection", "IV", W, 3, "instant"),
    _s("purge", "Purge", "IV", W, 3, "enchantment", "creature"),
    _s("reassign", "Reassign", "I", M, 1, "building", "", "moves"),
    _s("study", "Study", "I", M, 3, "sorcery"),
    _s("sleep", "Sleep", "II", M, 2, "sorcery", "creature"),
    _s("cunning", "Cunning", "II", M, 2, "sorcery"),
    _s("feeblemind", "Feeblemind", "III", M, 3, "sorcery", "enemy-wizard"),
    _s("stun", "Stun", "III", M, 3, "instant", "piece"),
    _s("invisibility", "Invisibility", "III", M, 3, "instant", "own-creature"),
    _s("recruit", "Recruit", "III", M, 4, "building", "", "at"),
    _s("paralyze", "Paralyze", "IV", M, 4, "sorcery", "creature"),
    _s("doppelganger", "Doppelganger", "IV", M, 4, "summon", "hex,creature"),
    _s("polymorph", "Polymorph", "V", M, 5, "enchantment", "creature"),
    _s("dominate", "Dominate", "VI", M, 6, "enchantment", "enemy-creature"),
    _s("silence", "Silence", "VI", M, 6, "sorcery", "piece"),
    _s("star-alignment", "Star Alignment", "VIII", M, 8, "enchantment"),
)

#: slug -> Spell, in the order of spells.md
SPELLS: dict[str, Spell] = {s.slug: s for s in _ROWS}
#: the two rites every book holds (R26)
RITES = ("unlock", "magic-untrap")
#: the alternate-win spells (R114)
ALTERNATE_WINS = ("army-of-the-dead", "star-alignment")


@dataclass(frozen=True)
class Creature:
    """A creature kind (spells.md §5): printed Power/Toughness/Speed, types, keywords."""

    slug: str
    name: str
    types: tuple[str, ...]
    power: int
    toughness: int
    speed: int
    keywords: tuple[str, ...] = ()


def _c(slug: str, name: str, types: str, pts: str, kws: str = "") -> Creature:
    p, t, s = (int(x) for x in pts.split("/"))
    return Creature(slug, name, tuple(types.split(",")), p, t, s,
                    tuple(k for k in kws.split(",") if k))


CREATURES: dict[str, Creature] = {c.slug: c for c in (
    _c("skeleton", "Skeleton", "Undead", "2/1/1"),
    _c("ghost", "Ghost", "Spirit", "2/2/2", "shade"),
    _c("vengeful-spirit", "Vengeful Spirit", "Spirit", "2/2/2", "shade,seeker"),
    _c("wraith", "Wraith", "Spirit", "3/2/2", "shade,vampiric"),
    _c("tengu", "Tengu", "Beast", "2/1/3", "flying,haste"),
    _c("samurai", "Samurai", "Human", "3/3/2", "first-strike"),
    _c("blade-spirit", "Blade Spirit", "Spirit", "3/1/2", "autonomous"),
    _c("ninja", "Ninja", "Human", "1/1/3", "invisible"),
    _c("stone-guardian", "Stone Guardian", "Construct", "1/5/0", "rooted,taunt,blocks-air"),
    _c("fire-elemental", "Fire Elemental", "Elemental", "4/3/2", "searing"),
    _c("doppelganger", "Doppelganger", "Shapeshifter", "0/2/1"),
)}
#: the summon spell -> the creature it makes
SUMMONS: dict[str, str] = {
    "raise-skeleton": "skeleton", "summon-ghost": "ghost",
    "summon-vengeful-spirit": "vengeful-spirit", "summon-wraith": "wraith",
    "summon-tengu": "tengu", "summon-samurai": "samurai", "blade-spirit": "blade-spirit",
    "summon-ninja": "ninja", "summon-stone-guardian": "stone-guardian",
    "summon-fire-elemental": "fire-elemental", "doppelganger": "doppelganger",
}
KEYWORDS = ("flying", "blocks-air", "shade", "invisible", "first-strike", "haste", "taunt",
            "rooted", "vampiric", "autonomous", "seeker", "searing", "nightsighted")
#: creature types that leave no corpse (R46)
NO_CORPSE = ("Spirit", "Undead", "Construct", "Elemental")


@dataclass(frozen=True)
class Form:
    """A wizard Form (R92): Speed, Power, whether it allows casting, its duration counter
    (-1: until dispelled), the conditions it makes him immune to."""

    slug: str
    speed: int
    power: int
    casting: bool
    turns: int
    immune: tuple[str, ...] = ()


FORMS: dict[str, Form] = {f.slug: f for f in (
    Form("animal-form", 3, 3, False, 2),
    Form("stone-form", 0, 0, True, 3, ("poisoned", "burning")),
    Form("horrific-beast", 2, 5, False, 3),
    Form("wraith-form", 2, 2, True, 3),
    Form("reaper-form", 1, 3, True, 3),
    Form("lich-form", 0, 0, True, -1, ("poisoned", "burning", "paralyzed", "asleep")),
)}


@dataclass(frozen=True)
class Condition:
    """A condition (R87): who may bear it (``W`` wizard, ``C`` creature), and its duration:
    ``upkeeps`` (poisoned, burning, regenerating: ticks, R88), ``turns`` (N turns), ``next``
    (until the caster's next turn), ``ctrl`` (until the end of its bearer's controller's next
    turn), ``this`` (this turn) or ``dispel`` (until dispelled), with ``n`` its count."""

    slug: str
    on: str
    lasts: str
    n: int = 0


CONDITIONS: dict[str, Condition] = {c.slug: c for c in (
    Condition("poisoned", "WC", "upkeeps", 3),
    Condition("burning", "WC", "upkeeps", 2),
    Condition("regenerating", "WC", "upkeeps", 3),
    Condition("paralyzed", "WC", "ctrl"),
    Condition("asleep", "WC", "ctrl"),
    Condition("stunned", "WC", "this"),
    Condition("silenced", "WC", "ctrl"),
    Condition("blessed", "C", "turns", 3),
    Condition("strength", "C", "turns", 3),
    Condition("agility", "C", "turns", 3),
    Condition("weakened", "C", "turns", 3),
    Condition("frail", "C", "turns", 3),
    Condition("clumsy", "C", "turns", 3),
    Condition("vulnerable", "WC", "turns", 3),
    Condition("cunning", "W", "turns", 3),
    Condition("feeblemind", "W", "turns", 3),
    Condition("invisible", "C", "turns", 3),
    Condition("protection", "W", "next"),
    Condition("magic-reflection", "W", "next"),
    Condition("reactive-armor", "W", "turns", 3),
    Condition("nightsight", "W", "dispel"),
    Condition("levitate", "C", "turns", 3),
    Condition("purge", "C", "turns", 3),
    Condition("unlife", "C", "dispel"),
    Condition("polymorph", "C", "dispel"),
    Condition("dominate", "C", "dispel"),
    Condition("star-alignment", "W", "dispel"),
)}
#: conditions that stop a piece acting (R89)
CANNOT_ACT = ("paralyzed", "asleep", "stunned")
#: layer-6b stat changes: condition -> (power, toughness, speed)
STAT_MODS: dict[str, tuple[int, int, int]] = {
    "blessed": (1, 1, 0), "strength": (2, 0, 0), "agility": (0, 0, 1),
    "weakened": (-2, 0, 0), "frail": (0, -2, 0), "clumsy": (0, 0, -1),
}

#: the starting books (spells.md §2), 20 spells each; the rites are added
BOOKS: dict[str, tuple[str, ...]] = {
    "pale-tower": ("raise-skeleton", "venom", "firebolt", "build-wall", "study", "reassign",
                   "drain-life", "magic-trap", "protection", "wither", "summon-ghost",
                   "corpse-explosion", "fireball", "magic-lock", "summon-vengeful-spirit",
                   "bone-tithe", "counterspell", "summon-wraith", "wraith-form", "lich-form"),
    "iron-dojo": ("swiftness", "strength", "study", "bless", "shadow-step", "earthworks",
                  "nightsight", "summon-tengu", "summon-samurai", "stone-form", "regenerate",
                  "summon-stone-guardian", "dispel", "reactive-armor", "stun", "blade-spirit",
                  "summon-ninja", "lightning", "magic-reflection", "horrific-beast"),
}

POSTS = ("quarry", "mage-tower", "altar", "graveyard", "tower")
LAYERS = ("moat", "wall", "tower")
WORKER_BUILDINGS = ("quarry", "mage-tower", "altar", "graveyard")
BUILDINGS = ("moat", "wall", "tower", "quarry", "mage-tower", "altar", "graveyard")
MAX_LIFE = 30
MAX_WORKERS = 8
MAX_CREATURES = 6


def check_book(spells: list[str]) -> str:
    """Why a list of 20 slugs is not a legal book (R25, R26), or ``""``."""
    if len(spells) != 20:
        return f"a book holds 20 spells, not {len(spells)}"
    for s in spells:
        if s not in SPELLS:
            return f"{s!r} is not a spell of the pool"
        if s in RITES:
            return f"{s} is a rite every book holds; it cannot be one of the 20"
    if len(set(spells)) != len(spells):
        return "a book holds a spell at most once"
    if sum(SPELLS[s].circle >= 5 for s in spells) > 6:
        return "a book holds at most 6 spells of Circle V or higher"
    if sum(s in ALTERNATE_WINS for s in spells) > 1:
        return "a book holds at most one alternate-win spell"
    return ""
