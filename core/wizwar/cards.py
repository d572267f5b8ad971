"""Every card of the Chessex 6th-edition deck: 74 names, 125 cards, as data.

Each entry: slug, display name, count, kind, targeting, number use, our own text, and the
rule source (cards.md row basis). Effects live in ``core.wizwar.rules``; ``IMPLEMENTED``
lists the slugs whose effects the engine carries out (every one of the 74), and games are
dealt from the whole deck.
Source: cards.md §2 (counts checked against §2.9: 74 names, 125 cards).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

ATTACK = "attack"
NEUTRAL = "neutral"
COUNTER = "counteraction"
DUAL = "neutral/counteraction"
OBJECT = "object"
STONE = "magic stone"
TRAP = "trap"
NUMBER = "number"


@dataclass(frozen=True)
class CardDef:
    """One card name of the deck.

    Attributes:
        slug: notation name (``lightning-blast``).
        name: printed-style name.
        count: copies in the 125-card deck.
        kind: one of attack, neutral, counteraction, neutral/counteraction, object,
            magic stone, trap, number.
        target: targeting kind per cards.md §1.2 (``los:player``, ``door``, ``self``...).
        number: number use: ``power``, ``duration``, ``count``, ``distance``, ``modifier``
            or ``none``.
        text: what the card does, in this project's own words.
        source: where the rule comes from.
        spell: True for spells (physical actions and objects are not spells; RB The Cards).
        physical: True when its damage is physical.
    """

    slug: str
    name: str
    count: int
    kind: str
    target: str
    number: str
    text: str
    source: str
    spell: bool = True
    physical: bool = False

    @property
    def uses_number(self) -> bool:
        """True when a number card may be played with it (its number use is not ``none``;
        number cards themselves, ``-``, are the numbers). Source: cards.md §1.3 ("+N on a
        card whose number use is none is refused")."""
        return self.number not in ("none", "-")


def _c(slug: str, count: int, kind: str, target: str, number: str, text: str, source: str,
       *, name: str = "", spell: bool = True, physical: bool = False) -> CardDef:
    nm = name or slug.replace("-", " ").title()
    return CardDef(slug, nm, count, kind, target, number, text, source, spell, physical)


CARDS: tuple[CardDef, ...] = (
    # 2.1 attack spells
    _c("blind", 1, ATTACK, "los:player", "duration",
       "The target sees only his own square for the duration.", "cards.md blind (decided)"),
    _c("card-erasure", 1, ATTACK, "los:player", "none",
       "Name a card; if the target holds one he discards a copy.", "cards.md card-erasure"),
    _c("drop-object", 2, ATTACK, "los:player", "count",
       "The target drops up to N named things he carries in his square.",
       "RB Objects; cards.md drop-object"),
    _c("fireball", 3, ATTACK, "los:target", "power",
       "N magical damage. If any reaches a wizard, every magic stone he holds burns.",
       "cards.md fireball; FAQ (Bloodstone)"),
    _c("go-away", 1, ATTACK, "los:player", "distance",
       "The target retreats N squares away from you at once.", "cards.md go-away"),
    _c("lightning-blast", 3, ATTACK, "los:target", "power",
       "N magical damage and the wizard loses a turn (not if all damage is stopped).",
       "RB Number cards; FAQ lost turns"),
    _c("lock-in-place", 1, ATTACK, "los:player", "duration",
       "The target cannot leave his square by his own means.", "cards.md lock-in-place"),
    _c("medusa", 1, ATTACK, "los:player", "duration",
       "The target turns to stone: he can do nothing and nothing hurts him.",
       "digest §12 Medusa"),
    _c("no-spell", 1, ATTACK, "los:player", "duration",
       "The target cannot cast spells.", "cards.md no-spell"),
    _c("power-drain", 1, ATTACK, "los:player", "power",
       "N magical damage; you gain N life unless all of it is stopped.", "digest §12"),
    _c("powerthrust", 3, ATTACK, "los:target", "power",
       "2 + N magical damage.", "cards.md powerthrust (AF)"),
    _c("slow", 1, ATTACK, "los:player", "duration",
       "The target walks at most 1 square a turn.", "cards.md slow"),
    _c("slow-death", 1, ATTACK, "los:player", "none",
       "Each card the target draws costs him 1 magical damage, until he dies.",
       "cards.md slow-death; digest §7"),
    _c("stone-dead", 1, ATTACK, "los:player", "power",
       "N magical damage for each magic stone the target holds.", "cards.md stone-dead"),
    _c("sudden-death", 1, ATTACK, "los:target", "none",
       "10 magical damage.", "cards.md sudden-death"),
    _c("swap", 1, ATTACK, "any-player", "none",
       "You and the target trade squares; it replaces your movement.", "digest §12 Swap"),
    _c("telepath", 1, ATTACK, "any-player", "none",
       "See the target's hand and take one card of it.", "cards.md telepath"),
    _c("teleport-opponent", 1, ATTACK, "los:player", "none",
       "Put the target on any vacant square.", "cards.md teleport-opponent"),
    _c("thought-steal", 1, ATTACK, "los:player", "count",
       "Take N cards at random from the target's hand.", "digest §12"),
    _c("waterbolt", 3, ATTACK, "los:player", "distance",
       "Push the target N squares away from you; 1 magical damage per blocked square.",
       "cards.md waterbolt; §1.8 push"),
    # 2.2 objects
    _c("dagger", 1, OBJECT, "same:player|los:player", "none",
       "Stab a wizard in your square for 2 physical damage, or throw it (mode=throw) at one "
       "in sight for 2; a thrown dagger lands in his square.",
       "RB Objects (throwing is physical); cards.md dagger", spell=False, physical=True),
    _c("large-rock", 1, OBJECT, "los:player", "none",
       "Throw it at a wizard in sight for 3 physical damage; it lands in his square. Thrown "
       "at a square it does no damage.", "cards.md large-rock (AF)", spell=False, physical=True),
    _c("wizardblade", 1, OBJECT, "same:player", "none",
       "Strike a wizard in your square for 3 magical damage; it stays in your hand.",
       "RB (Wizardblade is magical); cards.md wizardblade", spell=False),
    _c("master-key", 1, OBJECT, "door", "none",
       "Open an undamaged door for your passage this turn, like Pick Lock; reusable.",
       "cards.md master-key", spell=False),
    # 2.3 magic stones
    _c("bloodstone", 1, STONE, "self", "none", "Every damage event against you deals 1 less.",
       "FAQ (Bloodstone vs Fireball)", spell=False),
    _c("brainstone", 1, STONE, "self", "none", "Your hand limit is 9.", "digest §3",
       spell=False),
    _c("powerstone", 1, STONE, "self", "none", "+1 to any action that used a number card.",
       "cards.md powerstone", spell=False),
    _c("shadowstone", 1, STONE, "self", "none",
       "Physical damage your attacks deal to a wizard is added to your life.",
       "cards.md shadowstone", spell=False),
    _c("shieldstone", 1, STONE, "self", "none", "You take no physical damage.",
       "cards.md shieldstone", spell=False),
    _c("soulstone", 1, STONE, "self", "none",
       "While your life is 3 or less you take no magical damage.", "cards.md soulstone",
       spell=False),
    _c("speedstone", 1, STONE, "self", "none", "Your base movement is 4.", "cards.md speedstone",
       spell=False),
    _c("visionstone", 1, STONE, "self", "none",
       "Your line of sight may pass through one wall or door.", "FAQ (corner counts as two)",
       spell=False),
    # 2.4 neutrals
    _c("add", 1, NEUTRAL, "none", "modifier",
       "Your next number-using action adds this card's number to its own.", "cards.md add"),
    _c("amplify", 2, NEUTRAL, "none", "modifier",
       "Your next number-using action has its number doubled.", "cards.md amplify"),
    _c("around-the-corner", 1, NEUTRAL, "los:square", "none",
       "Your next LOS spell traces its line through a pivot square.",
       "cards.md around-the-corner"),
    _c("buddy", 1, NEUTRAL, "los:player", "none",
       "The target cannot attack you until you attack him.", "cards.md buddy"),
    _c("create-wall", 2, NEUTRAL, "los:side", "none",
       "A permanent wall (20 points) on an empty edge in sight. It blocks movement and sight.",
       "RB Map changes; RB LOS (to the wall's midpoint)"),
    _c("destroy-wall", 2, NEUTRAL, "los:side", "none",
       "A wall or door in sight is gone. Every wizard beside it takes 2 physical damage "
       "(not an attack: legal in round 1, no kill credit).",
       "FAQ (no attacks in round 1; Destroy Wall next to someone is legal); cards.md"),
    _c("dispel-creation", 1, NEUTRAL, "los:square|los:side", "none",
       "Remove one magical creation in sight.", "digest (x1 in 6e)"),
    _c("drag", 1, NEUTRAL, "same", "none",
       "A wizard or object in your square moves along your walk.", "RB; digest §9"),
    _c("extend", 1, NEUTRAL, "none", "modifier",
       "Your next duration spell lasts twice as long.", "cards.md extend"),
    _c("fill-square-with-stone", 2, NEUTRAL, "los:square", "none",
       "A permanent stone block fills an empty square.", "RB creation limits"),
    _c("illusion-wall", 1, NEUTRAL, "los:side", "none",
       "A fake wall that blocks sight; others may believe it.", "digest §12"),
    _c("jam-lock", 1, NEUTRAL, "door", "none",
       "A door of your square is jammed for good.", "digest (beats Master Key)", spell=False),
    _c("mist-body", 1, NEUTRAL, "self", "duration",
       "Walk through doors and thornbushes as mist.", "cards.md mist-body"),
    _c("pass-through-wall", 1, NEUTRAL, "self", "none",
       "Once this turn, step through one wall or door of your square.",
       "cards.md pass-through-wall"),
    _c("pick-lock", 4, NEUTRAL, "door", "none",
       "Open a locked door of your square for your own passage this turn; it relocks behind "
       "you. Not a spell.", "RB The Board (doors); RB The Cards (physical actions)",
       spell=False),
    _c("power-run", 1, NEUTRAL, "self", "none",
       "Keep walking past your allowance at 1 life a square.", "cards.md power-run"),
    _c("relocate-sector", 1, NEUTRAL, "sector", "none",
       "Move a sector to another place of the layout.", "RB Board; FAQ"),
    _c("remove-lock", 1, NEUTRAL, "door", "none",
       "A door of your square stays open for good.", "RB Doors", spell=False),
    _c("reuse-spell", 1, NEUTRAL, "spell", "spell",
       "Cast again a non-attack spell you played this turn.", "digest §12"),
    _c("rotate-sector", 1, NEUTRAL, "sector", "none",
       "Turn a sector 90, 180 or 270 degrees.", "RB Board"),
    _c("shrink", 1, NEUTRAL, "self", "duration",
       "You are small: attacks on you hit only on a d4 roll of 1-2.", "digest §12"),
    _c("speed", 2, NEUTRAL, "self", "none",
       "You take one extra full turn right after this one (still the same round).",
       "AF (another turn); RB (no round-1 attacks even with Speed); FAQ"),
    _c("thornbush", 2, NEUTRAL, "los:square", "none",
       "A permanent bush (5 points) on an empty square. It blocks sight and throws; whoever "
       "enters it stops, takes 1 physical damage and loses his next turn.",
       "AF; RB (it can be attacked, blocks throws); cards.md thornbush (decided 1, 5)"),
    _c("ugly", 1, NEUTRAL, "self", "none",
       "Every wizard who sees you retreats 3 squares.", "digest §12"),
    # 2.5 neutral/counteraction
    _c("invisible", 1, DUAL, "self", "duration",
       "For N turns, attacks aimed at you hit only on a d4 roll of 1. As an answer to an "
       "attack it is an escape: that attack misses outright, then you stay invisible.",
       "digest §7 (escape); cards.md invisible"),
    _c("teleport", 1, DUAL, "any-square", "none",
       "Move to any vacant square. As an answer to an attack it is an escape: the attack "
       "misses.", "digest §12 (dodges outright; vacant square)"),
    _c("wall-of-fire", 1, DUAL, "los:side", "none",
       "A wall of fire that blocks sight and burns whoever crosses it.", "RB; cards.md"),
    _c("waterwall", 1, DUAL, "los:side", "distance",
       "A wall of water collapses, pushing wizards beside it away.", "AF; FAQ"),
    # 2.6 counteractions
    _c("absorb", 2, COUNTER, "none", "none",
       "The damage of this one attack or damage event drops by up to 3.",
       "JDB; FAQ (one attack only)"),
    _c("absorb-spell", 1, COUNTER, "none", "none",
       "Cancel a spell aimed at you and take that card into your hand.",
       "JDB; FAQ (beats Card Erasure)"),
    _c("anti-anti", 1, COUNTER, "none", "none",
       "Void the latest counteraction the other side played against this attack. No use "
       "against escapes.", "digest §7; rulebook (counteractions can be counteracted)"),
    _c("blunt", 2, COUNTER, "none", "none",
       "Halve the damage this attack or damage event deals you, rounding up.",
       "FAQ (two Blunts: 5 -> 3 -> 2); RB (round up)"),
    _c("full-reflection", 1, COUNTER, "none", "none",
       "The whole spell turns back on its caster.", "AF; RB"),
    _c("full-shield", 2, COUNTER, "none", "none",
       "Stop one spell attack aimed at you completely (not punches, weapons or indirect "
       "damage).", "AF; JDB"),
    _c("reflection", 2, COUNTER, "none", "none",
       "Against a spell with a number: you keep half and the caster takes half, both "
       "rounded up.", "digest §12; cards.md reflection"),
    _c("reverse", 1, COUNTER, "none", "none",
       "The damage you would take becomes life gained.", "cards.md reverse (decided)"),
    # 2.7 trap
    _c("trap", 1, TRAP, "the drawer", "none",
       "Goes off when drawn: the drawer takes d4 physical damage. Dealt at the start, it is "
       "discarded and replaced.", "RB Setup; cards.md trap (decided d4)", name="Trap!",
       spell=False, physical=True),
    # 2.8 numbers
    _c("2", 12, NUMBER, "-", "-", "Value 2: movement, or one action's number.", "RB", spell=False),
    _c("3", 10, NUMBER, "-", "-", "Value 3.", "RB", spell=False),
    _c("4", 7, NUMBER, "-", "-", "Value 4.", "RB", spell=False),
    _c("5", 4, NUMBER, "-", "-", "Value 5.", "RB", spell=False),
    _c("6", 1, NUMBER, "-", "-", "Value 6.", "RB", spell=False),
)

BY_SLUG: dict[str, CardDef] = {c.slug: c for c in CARDS}

#: Slugs whose effects the engine implements today (issue 2). Every other card is data only.
IMPLEMENTED: tuple[str, ...] = (
    "2", "3", "4", "5", "6",
    "fireball", "lightning-blast", "powerthrust", "waterbolt", "dagger", "large-rock",
    "absorb", "blunt", "reflection", "full-shield", "anti-anti", "pick-lock", "create-wall",
    "destroy-wall", "teleport", "invisible", "speed", "thornbush", "trap",
    "sudden-death", "power-drain", "wizardblade", "master-key", "jam-lock", "remove-lock",
    "fill-square-with-stone", "dispel-creation", "power-run", "reverse",
    "bloodstone", "brainstone", "powerstone", "shadowstone", "shieldstone", "soulstone",
    "speedstone", "visionstone",
    "blind", "no-spell", "slow", "lock-in-place", "medusa", "stone-dead", "swap",
    "teleport-opponent", "shrink", "buddy", "full-reflection", "absorb-spell",
    "add", "amplify", "extend", "thought-steal", "card-erasure", "drop-object",
    "pass-through-wall", "mist-body", "reuse-spell", "telepath", "slow-death",
    "wall-of-fire", "waterwall", "around-the-corner", "drag", "go-away", "ugly",
    "illusion-wall", "rotate-sector", "relocate-sector",
)

#: The cards that damage walls, doors and thornbushes by their points (cards.md §1.8).
POINT_ATTACKS = ("fireball", "lightning-blast", "powerthrust", "sudden-death")


def card(slug: str) -> CardDef:
    """The definition of ``slug``. Raises ``KeyError`` with the slug for an unknown card."""
    try:
        return BY_SLUG[slug]
    except KeyError:
        raise KeyError(f"unknown card {slug!r}") from None


def is_number(slug: str) -> bool:
    """True for the number cards 2..6."""
    return slug in ("2", "3", "4", "5", "6")


#: The shorthand of ``CardDef.source`` and what it stands for, in words a player reads
#: (``../shared/cards.md``, "Sources and how rows cite them"; the rulebook and the FAQ are
#: ``seeds/001``, the digest ``seeds/000``).
SOURCE_WORDS: tuple[tuple[str, str], ...] = (
    ("RB", "rulebook"),
    ("FAQ", "designer's FAQ"),
    ("digest", "rules digest"),
    ("DG", "rules digest"),
    ("AF", "AlanFrew's Wiz-War program"),
    ("JDB", "spell list credited to Tom Jolly"),
    ("LOS", "line of sight"),
)
_SOURCE_RE = re.compile(r"(?<![\w.-])(" + "|".join(re.escape(k) for k, _ in SOURCE_WORDS)
                        + r")(?![\w-])")
_CARDS_MD_RE = re.compile(r"cards\.md(?: ([a-z0-9]+(?:-[a-z0-9]+)*))?")
#: ``(decided)``, ``(decided d4)``, ``(decided: permanent, 4)``: where the sources are silent
#: and the project chose (``../shared/cards.md`` marks those rows "decided").
_DECIDED_RE = re.compile(r"\(decided(?::?\s*([^()]*))?\)")
#: A part that is only a section sign belongs to the reference named before it.
_BARE_SECTION_RE = re.compile(r"(?<=; )§")


def source_words(source: str) -> str:
    """A card's rule source as a player reads it, the data's shorthand spelled out:
    ``RB; digest §12`` -> ``rulebook; rules digest §12``, ``RB Objects`` -> ``rulebook,
    Objects``, ``cards.md lock-in-place`` -> ``card reference: Lock In Place``, ``AF`` ->
    ``AlanFrew's Wiz-War program``, ``cards.md trap (decided d4)`` -> ``card reference:
    Trap! (this game's reading: d4)``, ``cards.md waterbolt; §1.8 push`` -> ``card
    reference: Waterbolt; card reference §1.8 push`` (issue 12: no codes on screen)."""
    words = dict(SOURCE_WORDS)

    def cards_md(m: re.Match[str]) -> str:
        slug = m.group(1)
        if slug is None:
            return "card reference"
        cd = BY_SLUG.get(slug)
        return f"card reference: {cd.name}" if cd is not None else f"card reference {slug}"

    def short(m: re.Match[str]) -> str:
        after = source_text[m.end():m.end() + 2]
        # "RB Objects" -> "rulebook, Objects": a section name follows
        sep = "," if after[:1] == " " and (after[1:].isupper() or after[1:] == "l") else ""
        return words[m.group(1)] + sep

    def decided(m: re.Match[str]) -> str:
        what = (m.group(1) or "").strip()
        return f"(this game's reading: {what})" if what else "(this game's reading)"

    source_text = _DECIDED_RE.sub(decided, source)
    if source_text.startswith("cards.md"):
        source_text = _BARE_SECTION_RE.sub("cards.md §", source_text)
    source_text = _CARDS_MD_RE.sub(cards_md, source_text)
    return _SOURCE_RE.sub(short, source_text)


def shown_name(slug: str) -> str:
    """A card's name as a player reads it: ``Lightning Blast``, ``Number 2`` for a number
    card; a slug that is no card comes back as it is."""
    cd = BY_SLUG.get(slug)
    if cd is None:
        return slug
    return f"Number {cd.name}" if cd.kind == NUMBER else cd.name


def counted(n: int, word: str) -> str:
    """A count and its noun as a player reads it, for the event texts: ``1 turn``,
    ``3 turns``, ``0 cards``; ``word`` is the singular, the plural adds ``s``."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def not_held(text: str) -> str:
    """The refusal for a card (or object) that is not in the hand, in words: ``you hold no
    Lightning Blast``, ``you hold no Number 3 card``; a name that is no card of the deck
    (``nothing``) says so instead of "you hold no nothing"."""
    cd = BY_SLUG.get(text)
    if cd is None:
        return f"there is no card called {text!r}"
    if cd.kind == NUMBER:
        return f"you hold no Number {cd.name} card"
    return f"you hold no {cd.name}"


def deck_list(deck: str, players: int) -> list[str]:
    """The slugs of a new deck, one entry per card, in a fixed order (before shuffling).

    ``deck`` is ``"full"``, the only deck: all 125 cards; 124 with 2 players, Relocate
    Sector removed at setup (FAQ). Raises ``ValueError`` for an unknown deck name.
    """
    if deck != "full":
        raise ValueError(f"unknown deck {deck!r} (the only deck is 'full')")
    out: list[str] = []
    for c in CARDS:
        if c.slug == "relocate-sector" and players == 2:
            continue
        out.extend([c.slug] * c.count)
    return out
