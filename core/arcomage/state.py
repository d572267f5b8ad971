"""The ArcoMage state: one msgpack-ready dict (str keys; ints, strs, lists, dicts), wrapped
by :class:`State`, and the derived values every rule reads (the layers of R104, the cast
ceiling of R39, a wizard's Form values).

Shape (``State.d``): ``seq``, ``turn``, ``active``, ``first``, ``step`` (``main``,
``attack``, ``block``, ``combat``, ``choose``, ``reveal``, ``over``), ``prio`` (who holds
priority with a spell on the stack or in the combat window) and ``passes``, ``stack`` (cast
spells, bottom first), ``players`` (``P1``/``P2``: Life, Mana, INT, the seven buildings,
``destroyed``, ``workers``, ``corpses``, ``at``, ``form``, ``conditions``, ``book``,
``locked``, ``cast``, ``moved``, ``attacked``), ``creatures`` (by id = entry timestamp),
``traps`` (:mod:`core.arcomage.traps`), ``ts`` (the timestamp counter, R70), ``combat``,
``choice``, ``winner``/``how``, ``clock``, ``turn_limit``, ``timed_out``, ``seed``.
"""

from __future__ import annotations

import copy
from hashlib import blake2b
from typing import Any

from core.arcomage.data import (
    CONDITIONS,
    CREATURES,
    FORMS,
    MAX_LIFE,
    POSTS,
    RITES,
    STAT_MODS,
)
from core.codec import pack

Dict = dict[str, Any]
START = {"life": 30, "mana": 5, "int": 3, "moat": 3, "wall": 5, "tower": 10, "quarry": 5,
         "mage-tower": 5, "altar": 5, "graveyard": 5}
START_WORKERS = {"altar": 2, "quarry": 1, "mage-tower": 1, "graveyard": 1, "tower": 0}
START_HEX = {"P1": "c1", "P2": "c6"}


class State:
    """An ArcoMage game state; ``d`` is its whole wire form (see the module docstring)."""

    __slots__ = ("d",)

    def __init__(self, d: Dict) -> None:
        self.d = d

    def to_wire(self) -> Dict:
        """A deep copy of the state's data (shares nothing)."""
        return copy.deepcopy(self.d)

    @classmethod
    def from_wire(cls, data: Any) -> State:
        """From :meth:`to_wire`; raises ``ValueError`` for a form that is not a state."""
        if not isinstance(data, dict) or "players" not in data or "creatures" not in data:
            raise ValueError("not an ArcoMage state")
        return cls(copy.deepcopy(data))


def other(p: str) -> str:
    """The rival of ``p``."""
    return "P2" if p == "P1" else "P1"


def new_player(name: str, hex_: str, book: list[str]) -> Dict:
    """Player ``name`` at the starting values of R21 with ``book`` (the rites added, R26)."""
    d: Dict = dict(START)
    d.update({"name": name, "destroyed": [], "workers": dict(START_WORKERS), "corpses": 0, "at": hex_,
              "form": {}, "conditions": [], "book": [*book, *[r for r in RITES if r not in book]],
              "locked": [], "cast": [], "moved": 0, "attacked": 0})
    return d


def new_ts(g: Dict) -> int:
    """The next timestamp (R70)."""
    g["ts"] += 1
    return int(g["ts"])


# ---- pieces ----------------------------------------------------------------------------
def creature_at(g: Dict, h: str) -> Dict | None:
    """The creature standing on hex ``h``, or None."""
    for c in g["creatures"]:
        if c["at"] == h:
            return c
    return None


def creature_by_id(g: Dict, cid: int) -> Dict | None:
    """The creature with id ``cid`` still on the field, or None."""
    for c in g["creatures"]:
        if c["id"] == cid:
            return c
    return None


def wizard_at(g: Dict, h: str) -> str:
    """The player whose wizard stands on ``h``, or ``""``."""
    for p in ("P1", "P2"):
        if g["players"][p]["at"] == h:
            return p
    return ""


def occupied(g: Dict, h: str) -> bool:
    """A piece stands on ``h`` (R15)."""
    return bool(wizard_at(g, h)) or creature_at(g, h) is not None


def occupier(g: Dict) -> Any:
    """``occupied`` bound to ``g`` (for the field's walks)."""
    taken = {c["at"] for c in g["creatures"]} | {g["players"][p]["at"] for p in ("P1", "P2")}
    return lambda h: h in taken


def cond(holder: Dict, slug: str) -> Dict | None:
    """The condition ``slug`` on a wizard's or a creature's dict, or None."""
    for c in holder["conditions"]:
        if c["slug"] == slug:
            return c
    return None


# ---- layers (R104) ---------------------------------------------------------------------
def printed(c: Dict) -> Dict:
    """A creature's printed values (layer 1 applied: a copy's values, R105): name, types,
    power, toughness, speed, keywords."""
    if c.get("copy"):
        return dict(c["copy"])
    if c["kind"] == "dummy":
        p, t, s = c["stats"]
        return {"name": "dummy", "types": list(c["types"]), "power": p, "toughness": t,
                "speed": s, "keywords": list(c["keywords"])}
    k = CREATURES[c["kind"]]
    return {"name": k.slug, "types": list(k.types), "power": k.power, "toughness": k.toughness,
            "speed": k.speed, "keywords": list(k.keywords)}


def values(g: Dict, c: Dict) -> Dict:
    """A creature's current values through the layers (R104): ``name``, ``types``,
    ``power``, ``toughness``, ``speed`` (never below 0), ``keywords`` (sorted), ``health``
    (toughness minus marked damage, R64)."""
    v = printed(c)
    types = list(v["types"])
    if cond(c, "unlife") and "Undead" not in types:
        types.append("Undead")  # layer 4
    # layer 5: grants and removals in timestamp order
    changes: list[tuple[int, str]] = []
    for k in c["conditions"]:
        if k["slug"] in ("levitate", "invisible", "purge"):
            changes.append((k["ts"], k["slug"]))
    ns = cond(g["players"][c["controller"]], "nightsight")
    if ns:
        changes.append((ns["ts"], "nightsight"))
    kws = set(v["keywords"])
    for _ts, what in sorted(changes):
        if what == "purge":
            kws = set()
        else:
            kws.add({"levitate": "flying", "invisible": "invisible",
                     "nightsight": "nightsighted"}[what])
    p, t, s = v["power"], v["toughness"], v["speed"]
    if cond(c, "polymorph"):
        p, t = 1, 1  # layer 6a
    for k in sorted(c["conditions"], key=lambda x: x["ts"]):
        if k["slug"] in STAT_MODS:
            dp, dt, ds = STAT_MODS[k["slug"]]
            p, t, s = p + dp, t + dt, s + ds
    p, t = p + c["counters"], t + c["counters"]  # layer 6c
    return {"name": v["name"], "types": sorted(types), "power": p, "toughness": t,
            "speed": max(0, s), "keywords": sorted(kws), "health": t - c["damage"]}


def has(g: Dict, c: Dict, kw: str) -> bool:
    """The creature has keyword ``kw`` now."""
    return kw in values(g, c)["keywords"]


def rooted(g: Dict, c: Dict) -> bool:
    """Rooted: the keyword, or current Speed 0 (R67)."""
    v = values(g, c)
    return "rooted" in v["keywords"] or v["speed"] == 0


def cannot_act(holder: Dict) -> bool:
    """Paralyzed, asleep or stunned (R89)."""
    return any(cond(holder, s) for s in ("paralyzed", "asleep", "stunned"))


def form_of(pl: Dict) -> str:
    """The slug of a wizard's Form, or ``""``."""
    return str(pl["form"].get("slug", "")) if pl["form"] else ""


def wizard_speed(pl: Dict) -> int:
    """The wizard's Speed (its Form's, R92)."""
    f = form_of(pl)
    return FORMS[f].speed if f else 0


def wizard_power(pl: Dict) -> int:
    """The wizard's Power (its Form's, R92)."""
    f = form_of(pl)
    return FORMS[f].power if f else 0


def stands(pl: Dict, building: str) -> bool:
    """The building stands (it is not destroyed, R42)."""
    return building not in pl["destroyed"]


def ceiling(pl: Dict) -> int:
    """The cast ceiling (R39): INT + Mage Tower workers (if it stands) + 2 cunning
    - 2 feeblemind - 2 in Stone Form. Source: seed §5.3."""
    c = int(pl["int"])
    if stands(pl, "mage-tower"):
        c += pl["workers"]["mage-tower"]
    if cond(pl, "cunning"):
        c += 2
    if cond(pl, "feeblemind"):
        c -= 2
    if form_of(pl) == "stone-form":
        c -= 2
    return c


def duration(g: Dict, slug: str, bearer_ctrl: str, caster: str) -> int:
    """The starting counter of condition ``slug`` (R35, R87): upkeeps or turns, -1 for
    until dispelled."""
    k = CONDITIONS[slug]
    if k.lasts in ("upkeeps", "turns"):
        return k.n
    if k.lasts == "this":
        return 1
    if k.lasts == "next":
        return 2 if g["active"] == caster else 1
    if k.lasts == "ctrl":
        return 3 if g["active"] == bearer_ctrl else 2
    return -1


def gain_life(pl: Dict, n: int) -> int:
    """Gain ``n`` Life, never above 30 (R22); returns what was gained."""
    before = pl["life"]
    pl["life"] = min(MAX_LIFE, pl["life"] + max(0, n))
    return int(pl["life"] - before)


# ---- hashing ---------------------------------------------------------------------------
def public_wire(d: Dict) -> Dict:
    """The state without what no peer may need to agree on: the seed, trap slugs and salts
    (R125: the hash covers the public state and the commitments)."""
    out = {k: v for k, v in d.items() if k != "seed"}
    out["traps"] = [{k: v for k, v in t.items() if k not in ("slug", "salt")}
                    for t in d["traps"]]
    out["stack"] = [{k: v for k, v in e.items() if k != "secret"} for e in d["stack"]]
    return out


def state_hash(st: State) -> str:
    """A 16-hex-digit digest of :func:`public_wire` (canonical msgpack)."""
    return blake2b(pack(public_wire(st.d)), digest_size=8).hexdigest()


def workers_total(pl: Dict) -> int:
    """How many workers the player has (R44)."""
    return sum(int(pl["workers"][p]) for p in POSTS)
