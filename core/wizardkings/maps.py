"""Wizard Kings' maps and layouts: hex geometry with hexside terrain, loaded from the map data
files and validated (``../shared/wizard-kings/maps/FORMAT.md``, ``LAYOUTS.md``; rules.md R17-R21,
R18, R19, R31, R37).

A :class:`Board` is the assembled layout: every hex by name (``"1c4"``), each with its land
terrain, water and features, and every hexside between two adjacent hexes with its derived water
part, land terrain and flags. Pure data; deterministic (every list sorted by hex order).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent / "data"

SIDES = ("n", "ne", "se", "s", "sw", "nw")
OPPOSITE = {"n": "s", "ne": "sw", "se": "nw", "s": "n", "sw": "ne", "nw": "se"}
COLS = "abcdefgh"
LAND = {"c": "clear", "d": "desert", "s": "swamp", "f": "forest", "m": "mountain"}
ROUGH = ("clear", "desert", "swamp", "forest", "mountain")

#: layout name -> slots (origin q, origin r, rotation degrees), in slot order (LAYOUTS.md).
LAYOUTS: dict[str, tuple[tuple[int, int, int], ...]] = {
    "1-map": ((0, 0, 0),),
    "2-map": ((0, 0, 0), (8, 0, 0)),
    "2-map-strait": ((0, 0, 0), (0, 9, 180)),
    "4-map": ((0, 0, 0), (8, 0, 0), (0, 9, 180), (8, 9, 180)),
}


class MapError(ValueError):
    """A map file or layout that breaks FORMAT.md (the message says which rule and where)."""


def neighbour(q: int, r: int, side: str) -> tuple[int, int]:
    """The (q, r) next to (q, r) across ``side`` on a flat-topped grid whose odd columns sit
    half a hex lower (FORMAT.md §1)."""
    odd = q % 2 == 1
    return {
        "n": (q, r - 1),
        "ne": (q + 1, r) if odd else (q + 1, r - 1),
        "se": (q + 1, r + 1) if odd else (q + 1, r),
        "s": (q, r + 1),
        "sw": (q - 1, r + 1) if odd else (q - 1, r),
        "nw": (q - 1, r) if odd else (q - 1, r - 1),
    }[side]


def hex_key(name: str) -> tuple[int, int, int]:
    """Sort key of a hex name: map, column, row (notation.md §2)."""
    return (int(name[0]), COLS.index(name[1]), int(name[2:]))


@dataclass
class Hex:
    """One hex of the board. ``land``: a land terrain name or ``""`` (sea/lake); ``water``:
    ``"sea"``, ``"lake"`` or ``""``; ``coastal``; ``city`` GP (0: none) and ``city_name``;
    ``henge``; ``shoal``; ``rivers`` (names of rivers whose course holds it); ``owner_map``."""

    name: str
    map_id: int
    q: int
    r: int
    gq: int = 0
    gr: int = 0
    land: str = ""
    water: str = ""
    coastal: bool = False
    city: int = 0
    city_name: str = ""
    henge: bool = False
    shoal: bool = False
    rivers: list[str] = field(default_factory=list)

    @property
    def is_land(self) -> bool:
        """A land hex (coastal included)."""
        return not self.water

    @property
    def port(self) -> bool:
        """A coastal or river city (R37)."""
        return bool(self.city) and (self.coastal or bool(self.rivers))


@dataclass
class Side:
    """One hexside (R19): ``water`` none/coast/river/all, ``land`` terrain or pass (``""`` for
    all-water), flags ``road``, ``bridge``, ``shoal``, ``waterfall``, and ``course`` (between
    consecutive hexes of one river's course: a river step, R32)."""

    a: str
    b: str
    water: str = "none"
    land: str = ""
    road: bool = False
    bridge: bool = False
    shoal: bool = False
    waterfall: bool = False
    course: bool = False
    pass_name: str = ""


def load_map(map_id: int) -> dict[str, Any]:
    """The parsed TOML of map ``map_id`` (1-4). Raises :class:`MapError`."""
    p = DATA / f"map{map_id}.toml"
    try:
        with open(p, "rb") as f:
            doc = tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise MapError(f"map {map_id}: cannot load {p.name}: {exc}") from exc
    if doc.get("id") != map_id:
        raise MapError(f"map {map_id}: its file says id {doc.get('id')!r}")
    return doc


def _cell(name: str) -> tuple[int, int]:
    if len(name) < 2 or name[0] not in COLS or not name[1:].isdigit():
        raise MapError(f"bad hex {name!r}")
    q, r = COLS.index(name[0]), int(name[1:]) - 1
    if not (0 <= q < 8 and 0 <= r < 9):
        raise MapError(f"hex {name!r} is off the map")
    return q, r


class Board:
    """An assembled layout (R21): ``Board("2-map", [1, 2])``. Raises :class:`MapError` for an
    unknown layout, a wrong number of maps, or a map or layout that fails validation."""

    def __init__(self, layout: str = "2-map", maps: list[int] | tuple[int, ...] = (1, 2)) -> None:
        if layout not in LAYOUTS:
            raise MapError(f"unknown layout {layout!r}: one of {', '.join(LAYOUTS)}")
        slots = LAYOUTS[layout]
        maps = [int(m) for m in maps]
        if len(maps) != len(slots) or len(set(maps)) != len(maps):
            raise MapError(f"layout {layout} takes {len(slots)} different maps, not {maps}")
        self.layout, self.maps = layout, maps
        self.hexes: dict[str, Hex] = {}
        self.at: dict[tuple[int, int], str] = {}
        self.slot_of: dict[int, int] = {}
        self.sides: dict[frozenset[str], Side] = {}
        docs = {m: load_map(m) for m in maps}
        for i, m in enumerate(maps):
            self.slot_of[m] = i
            self._place(docs[m], slots[i])
        self._derive(docs)
        self.validate()

    # -- building --
    def _global(self, map_id: int, q: int, r: int) -> tuple[int, int]:
        ox, oy, rot = LAYOUTS[self.layout][self.slot_of[map_id]]
        return (ox + q, oy + r) if rot == 0 else (ox + 7 - q, oy + 8 - r)

    def _place(self, doc: dict[str, Any], slot: tuple[int, int, int]) -> None:
        m = int(doc["id"])
        rows = doc.get("terrain", [])
        if len(rows) != 9:
            raise MapError(f"map {m}: terrain has {len(rows)} rows, not 9")
        for r, row in enumerate(rows):
            toks = row.split()
            if len(toks) != 8:
                raise MapError(f"map {m}: row {r + 1} has {len(toks)} hexes, not 8")
            for q, t in enumerate(toks):
                name = f"{m}{COLS[q]}{r + 1}"
                h = Hex(name, m, q, r)
                if t == "~":
                    h.water = "sea"
                elif t == "o":
                    h.water = "lake"
                elif t.lower() in LAND:
                    h.land, h.coastal = LAND[t.lower()], t.isupper()
                else:
                    raise MapError(f"map {m}: unknown terrain {t!r} at {name}")
                h.gq, h.gr = self._global(m, q, r)
                self.hexes[name] = h
                self.at[(h.gq, h.gr)] = name
        for c in doc.get("city", []):
            h = self.hexes[f"{m}{c['hex']}"]
            h.city, h.city_name = int(c["gp"]), str(c.get("name", ""))
        for x in doc.get("henges", []):
            self.hexes[f"{m}{x}"].henge = True
        for x in doc.get("shoals", []):
            self.hexes[f"{m}{x}"].shoal = True
        for rv in doc.get("river", []):
            for x in rv["course"]:
                self.hexes[f"{m}{x}"].rivers.append(str(rv["name"]))

    def step(self, name: str, side: str) -> str | None:
        """The hex across ``side`` of hex ``name`` (sides in that hex's own map frame), or None
        off the board."""
        h = self.hexes[name]
        q, r = neighbour(h.q, h.r, side)
        return self.at.get(self._global(h.map_id, q, r))

    def neighbours(self, name: str) -> list[str]:
        """The hexes adjacent to ``name``, in side order n..nw (a fresh list; computed once
        per hex)."""
        cache: dict[str, list[str]] = self.__dict__.setdefault("_nb", {})
        out = cache.get(name)
        if out is None:
            out = []
            for s in SIDES:
                n = self.step(name, s)
                if n is not None:
                    out.append(n)
            cache[name] = out
        return list(out)

    def within(self, name: str, n: int) -> dict[str, int]:
        """Every hex at most ``n`` steps from ``name`` (R20, terrain ignored), with its
        distance; ``name`` itself at 0."""
        out, frontier = {name: 0}, [name]
        for d in range(1, n + 1):
            nxt = []
            for x in frontier:
                for y in self.neighbours(x):
                    if y not in out:
                        out[y] = d
                        nxt.append(y)
            frontier = nxt
        return out

    def side_between(self, a: str, b: str) -> Side | None:
        """The hexside between adjacent hexes ``a`` and ``b`` (None when not adjacent)."""
        return self.sides.get(frozenset((a, b)))

    def parse_side(self, text: str, map_id: int | None = None) -> Side:
        """A hexside from ``"c4:se"`` (with ``map_id``) or ``"1c4:se"``. Raises MapError."""
        hx, _, sd = text.partition(":")
        name = f"{map_id}{hx}" if map_id is not None else hx
        if name not in self.hexes or sd not in SIDES:
            raise MapError(f"bad hexside {text!r}")
        other = self.step(name, sd)
        if other is None:
            raise MapError(f"hexside {text!r} is on the board's edge")
        return self.sides[frozenset((name, other))]

    def _derive(self, docs: dict[int, dict[str, Any]]) -> None:
        for name in sorted(self.hexes, key=hex_key):
            for s in SIDES:
                o = self.step(name, s)
                if o is not None and frozenset((name, o)) not in self.sides:
                    x, y = sorted((name, o), key=hex_key)
                    self.sides[frozenset((name, o))] = Side(x, y)
        banks: set[frozenset[str]] = set()
        course: set[frozenset[str]] = set()
        water: set[frozenset[str]] = set()
        for m, doc in docs.items():
            for rv in doc.get("river", []):
                c = [f"{m}{x}" for x in rv["course"]]
                for a, b in zip(c, c[1:], strict=False):
                    if frozenset((a, b)) not in self.sides:
                        raise MapError(f"map {m}: river {rv['name']} course {a}-{b} not adjacent")
                    course.add(frozenset((a, b)))
                if not self.hexes[c[-1]].coastal:
                    raise MapError(f"map {m}: river {rv['name']} must end in a coastal hex")
                for x in rv.get("banks", []):
                    bank = self.parse_side(x, m)
                    if self._k(bank) in course or not (set(self.hexes[bank.a].rivers) |
                                                       set(self.hexes[bank.b].rivers)):
                        raise MapError(f"map {m}: bank {x} is not a side of a river hex or is "
                                       "a course hexside")
                    banks.add(self._k(bank))
                for x in rv.get("bridges", []):
                    sd = self.parse_side(x, m)
                    if self._k(sd) not in banks:
                        raise MapError(f"map {m}: bridge {x} is not a bank")
                    sd.bridge = True
                for x in rv.get("waterfalls", []):
                    self.parse_side(x, m).waterfall = True
                lower = [self._k(self.parse_side(x, m))
                         for x in doc.get("hexsides", {}).get("water", [])]
                line = {self._k(self.parse_side(x, m)) for x in rv.get("banks", [])} | \
                    {k for k in lower if k & set(c)}
                if not self._unbroken(line):
                    raise MapError(f"map {m}: river {rv['name']}'s banks do not form one "
                                   "unbroken line of hexsides (FORMAT.md §5.4)")
            roads = {x for rd in doc.get("road", []) for x in rd["path"]}
            for end in ("a4", "h4"):
                if end not in roads:
                    raise MapError(f"map {m}: no road passes through {end} (the seam road, "
                                   "FORMAT.md §4)")
            hs = doc.get("hexsides", {})
            for x in hs.get("water", []):
                water.add(self._k(self.parse_side(x, m)))
        for sd in self.sides.values():
            ha, hb = self.hexes[sd.a], self.hexes[sd.b]
            k = self._k(sd)
            if ha.water and hb.water:
                sd.water = "all"
            elif ha.water or hb.water:
                land = hb if ha.water else ha
                if not land.coastal:
                    raise MapError(f"{land.name} touches water but is not coastal")
                sd.water = "all"
            elif k in water:
                sd.water = "all"
            elif k in banks:
                sd.water = "river"
            elif k in course:
                sd.water, sd.course = "coast", True
            elif ha.coastal and hb.coastal:
                sd.water = "coast"
            if sd.water != "all":
                sd.land = max(ha.land, hb.land, key=ROUGH.index)
        for m, doc in docs.items():
            hs = doc.get("hexsides", {})
            for terr in ROUGH:
                for x in hs.get(terr, []):
                    sd = self.parse_side(x, m)
                    if sd.water != "all":
                        sd.land = terr
            for p in hs.get("pass", []):
                sd = self.parse_side(str(p["at"]), m)
                sd.land, sd.pass_name = "pass", str(p.get("name", ""))
            for x in hs.get("shoal", []):
                self.parse_side(x, m).shoal = True
            for rd in doc.get("road", []):
                path = [f"{m}{x}" for x in rd["path"]]
                for a2, b2 in zip(path, path[1:], strict=False):
                    sd2 = self.side_between(a2, b2)
                    if sd2 is None:
                        raise MapError(f"map {m}: road {rd['name']} {a2}-{b2} not adjacent")
                    sd2.road = True
        # seam roads: a map's h4 meets the next map's a4 (LAYOUTS.md)
        for sd in self.sides.values():
            ha, hb = self.hexes[sd.a], self.hexes[sd.b]
            if ha.map_id != hb.map_id and {ha.name[1:], hb.name[1:]} == {"h4", "a4"}:
                sd.road = True

    @staticmethod
    def _k(sd: Side) -> frozenset[str]:
        return frozenset((sd.a, sd.b))

    def _corners(self, k: frozenset[str]) -> list[frozenset[str]]:
        """The corners of hexside ``k`` on the board: the three hexes meeting there."""
        a, b = sorted(k, key=hex_key)
        common = set(self.neighbours(a)) & set(self.neighbours(b))
        return [frozenset((a, b, x)) for x in sorted(common, key=hex_key)]

    def _unbroken(self, line: set[frozenset[str]]) -> bool:
        """Whether the hexsides ``line`` are one chain, each sharing a corner with another
        (FORMAT.md §5.4); an empty line or a single hexside is unbroken."""
        if len(line) <= 1:
            return True
        todo = sorted(line, key=lambda k: sorted(hex_key(x) for x in k))
        seen = {todo[0]}
        frontier = [todo[0]]
        while frontier:
            k = frontier.pop()
            mine = set(self._corners(k))
            for o in todo:
                if o not in seen and mine & set(self._corners(o)):
                    seen.add(o)
                    frontier.append(o)
        return len(seen) == len(line)

    # -- validation (FORMAT.md §5) --
    def validate(self) -> None:
        """Check the rules of FORMAT.md §5 on the assembled board. Raises :class:`MapError`."""
        for m in self.maps:
            gp = [h.city for h in self.hexes.values() if h.map_id == m and h.city]
            if any(g not in (1, 2, 3) for g in gp) or sum(gp) != 10:
                raise MapError(f"map {m}: city GP {gp} must be 1-3 each and add up to 10")
            for c in COLS:
                if not self.hexes[f"{m}{c}9"].water:
                    raise MapError(f"map {m}: row 9 must be all sea ({c}9)")
            for c in COLS:
                h8 = self.hexes[f"{m}{c}8"]
                if not (h8.water or h8.coastal):
                    raise MapError(f"map {m}: row 8 must be coastal land or sea ({c}8)")
            for c in ("a", "h"):
                if not (self.hexes[f"{m}{c}8"].coastal and self.hexes[f"{m}{c}8"].is_land):
                    raise MapError(f"map {m}: {c}8 must be coastal land")
                for r in range(1, 8):
                    h = self.hexes[f"{m}{c}{r}"]
                    if h.water or h.coastal or h.land == "mountain" or h.rivers:
                        raise MapError(f"map {m}: edge hex {h.name} must be plain inland land")
        for h in self.hexes.values():
            if h.city and h.water:
                raise MapError(f"{h.name}: a city on water")
            if h.city and h.henge:
                raise MapError(f"{h.name}: a henge on a city")
            if h.coastal and not any(
                    self.hexes[n].water or self.sides[frozenset((h.name, n))].water == "all"
                    for n in self.neighbours(h.name)):
                raise MapError(f"{h.name} is coastal but touches no water")
        for sd in self.sides.values():
            if sd.road and (sd.water == "all" or (sd.water == "river" and not sd.bridge)):
                raise MapError(f"road crosses {sd.a}-{sd.b} without a bridge")
        for m in self.maps:
            start = f"{m}a4"
            seen = {start}
            todo = [start]
            while todo:
                x = todo.pop()
                for n in self.neighbours(x):
                    sd = self.sides[frozenset((x, n))]
                    if n in seen or self.hexes[n].water or sd.water in ("all", "river"):
                        continue
                    if (sd.land == "mountain" or self.hexes[n].land == "mountain") and not sd.road:
                        continue
                    seen.add(n)
                    todo.append(n)
            for h in self.hexes.values():
                if h.map_id == m and (h.city or h.name == f"{m}h4") and h.name not in seen:
                    raise MapError(f"map {m}: {h.name} cannot be reached from a4 on foot")

    def distance(self, a: str, b: str) -> int:
        """Fewest steps between two hexes ignoring terrain (R20)."""
        seen, frontier, d = {a}, [a], 0
        while frontier:
            if b in frontier:
                return d
            nxt = []
            for x in frontier:
                for n in self.neighbours(x):
                    if n not in seen:
                        seen.add(n)
                        nxt.append(n)
            frontier, d = sorted(nxt, key=hex_key), d + 1
        return 10**6


_BOARDS: dict[tuple[str, tuple[int, ...]], Board] = {}


def board(layout: str, maps: list[int] | tuple[int, ...]) -> Board:
    """A cached :class:`Board` (boards are never mutated after building)."""
    key = (layout, tuple(int(m) for m in maps))
    if key not in _BOARDS:
        _BOARDS[key] = Board(layout, list(key[1]))
    return _BOARDS[key]
