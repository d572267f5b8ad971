"""Both armies' unit types (``../shared/wizard-kings/units.md`` §2; rules.md R3-R6, R9, R10).

Each :class:`UnitType` has its movement allowance, ability, combat letter and number, cost per
step, maximum strength and pool count. Source: units.md §2.1 (Elves), §2.2 (Orcs).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class UnitType:
    """One unit type: ``slug``, ``move`` (MA), ``ability`` (``""`` plain, ``flyer``, ``aquatic``,
    ``amphibian``, ``forest-folk``, ``mountain-folk``, ``desert-folk``, ``castle``), ``letter``
    (``"A+"`` wizards, A, B, C), ``number`` (the highest die that hits; 0 for wizards),
    ``cost`` per step, ``max`` strength, ``pool`` (blocks in the army's set), ``wizard``."""

    slug: str
    move: int
    ability: str
    letter: str
    number: int
    cost: int
    max: int
    pool: int
    wizard: bool = False
    chaos: bool = False


def _t(slug: str, move: int, ability: str, rating: str, cost: int, mx: int, pool: int,
       chaos: bool = False) -> UnitType:
    wiz = rating == "A+"
    return UnitType(slug, move, ability, "A+" if wiz else rating[0], 0 if wiz else int(rating[1:]),
                    cost, mx, pool, wiz, chaos)


ARMIES: dict[str, dict[str, UnitType]] = {
    "elves": {u.slug: u for u in (
        _t("wicana", 2, "flyer", "A+", 2, 4, 3),
        _t("ranger", 2, "forest-folk", "A2", 4, 3, 5),
        _t("pixie", 2, "flyer", "B1", 2, 3, 3),
        _t("treek", 1, "forest-folk", "C4", 3, 2, 3),
        _t("glader", 2, "forest-folk", "C1", 1, 4, 8),
        _t("castle", 0, "castle", "C4", 2, 4, 3),
        _t("pegasus", 3, "flyer", "A1", 4, 3, 1, True),
        _t("unicorn", 3, "forest-folk", "B2", 4, 3, 1, True),
        _t("mermaid", 2, "aquatic", "B2", 3, 3, 1, True),
    )},
    "orcs": {u.slug: u for u in (
        _t("shakla", 2, "flyer", "A+", 2, 4, 3),
        _t("ogre", 2, "", "B3", 4, 3, 3),
        _t("troll", 2, "amphibian", "B2", 3, 3, 4),
        _t("orc", 2, "mountain-folk", "C2", 2, 4, 6),
        _t("goblin", 2, "mountain-folk", "C1", 1, 4, 6),
        _t("castle", 0, "castle", "C4", 2, 4, 3),
        _t("pegasus", 3, "flyer", "A1", 4, 3, 1, True),
        _t("kraken", 2, "aquatic", "B3", 4, 3, 1, True),
        _t("dragon", 3, "flyer", "A5", 8, 3, 1, True),
    )},
}

#: The standard armies (R10): (type, strength) per block.
STANDARD: dict[str, list[tuple[str, int]]] = {
    "elves": [("wicana", 4), ("wicana", 4), ("ranger", 3), ("ranger", 3), ("ranger", 3),
              ("pixie", 3), ("treek", 2), *[("glader", 4)] * 5, ("castle", 4), ("castle", 4)],
    "orcs": [("shakla", 4), ("shakla", 4), ("ogre", 3), ("troll", 3), ("troll", 3),
             ("orc", 4), ("orc", 4), ("orc", 4), *[("goblin", 4)] * 4, ("castle", 4),
             ("castle", 3)],
}

#: Which terrain gives a folk its bonus and lets it pass without stopping (R23, R60).
FOLK_TERRAIN = {"forest-folk": "forest", "mountain-folk": "mountain", "desert-folk": "desert",
                "amphibian": "swamp"}


def unit(army: str, slug: str) -> UnitType:
    """The type ``slug`` of ``army``. Raises ``KeyError`` with a message naming both."""
    try:
        return ARMIES[army][slug]
    except KeyError:
        raise KeyError(f"the {army} have no unit {slug!r}") from None


def all_slugs() -> list[str]:
    """Every unit slug of both armies, sorted."""
    return sorted({s for a in ARMIES.values() for s in a})
