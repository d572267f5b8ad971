"""Board geometry: squares, edges, sectors, assembled layouts and exact line of sight.

Everything here is pure and deterministic: integer geometry only (doubled coordinates, and
crossing parameters scaled to integers), no randomness, no floats, no outcome that depends on
set iteration order.

Source: rulebook, The Board; rulebook, The Cards (line of sight); cards.md §1.2;
notation.md (square and side names); research/wizwar-facts.md §3 (sector shape).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any

Square = tuple[int, int]
Edge = tuple[int, int, str]
Link = tuple[Square, str]

DIRS: dict[str, tuple[int, int]] = {"n": (0, -1), "e": (1, 0), "s": (0, 1), "w": (-1, 0)}
OPPOSITE: dict[str, str] = {"n": "s", "e": "w", "s": "n", "w": "e"}
SIDES: tuple[str, ...] = ("n", "e", "s", "w")
#: clockwise successor of each side (used for sector rotation)
CLOCKWISE: dict[str, str] = {"n": "e", "e": "s", "s": "w", "w": "n"}
SECTOR_SIZE = 5
HOME_LOCAL: Square = (2, 2)
EXIT_LOCAL: dict[str, Square] = {"n": (2, 0), "e": (4, 2), "s": (2, 4), "w": (0, 2)}
TREASURE_PAIRS: tuple[frozenset[Square], ...] = (
    frozenset({(1, 1), (3, 3)}),
    frozenset({(1, 3), (3, 1)}),
)

_SQUARE_RE = re.compile(r"^([a-z]+)([1-9][0-9]*)$")


# ---------------------------------------------------------------------------------------------
# Names
# ---------------------------------------------------------------------------------------------


def _col_name(col: int) -> str:
    n = col + 1
    out = ""
    while n > 0:
        n, rem = divmod(n - 1, 26)
        out = chr(ord("a") + rem) + out
    return out


def square_name(sq: Square) -> str:
    """Name a square: ``(2, 3) -> "c4"``; columns a..z, aa, ab...; rows 1-based.

    Source: notation.md, Places.
    """
    if type(sq) is tuple:
        got = _SQUARE_NAMES.get(sq)
        if got is not None:
            return got
    col, row = sq
    if col < 0 or row < 0:
        raise ValueError(f"square {sq!r} has a negative coordinate")
    got = f"{_col_name(col)}{row + 1}"
    if type(col) is int and type(row) is int and type(sq) is tuple and col < 64 and row < 64:
        _SQUARE_NAMES[sq] = got
    return got


#: names of the squares named so far (boards are small; names never change)
_SQUARE_NAMES: dict[Square, str] = {}
#: names of the edges named so far, by the edge as given
_EDGE_NAMES: dict[Edge, str] = {}


#: Edge kinds as a player reads them (the rest are named as they are: wall, door).
EDGE_WORDS = {"door-jammed": "jammed door", "wall-of-fire": "Wall of Fire",
              "illusion-wall": "Illusion Wall"}


def edge_word(kind: str) -> str:
    """An edge kind in words, for event texts and the screens: ``door-jammed`` -> ``jammed
    door``, ``wall-of-fire`` -> ``Wall of Fire``; ``wall`` and ``door`` as they are."""
    return EDGE_WORDS.get(kind, kind)


def parse_square(text: str) -> Square:
    """Parse a square name such as ``"c4"`` into ``(col, row)`` (0-based).

    Raises ``ValueError`` on anything that is not lower-case letters followed by a row >= 1.
    Source: notation.md, Places.
    """
    got = _PARSED_SQUARES.get(text) if type(text) is str else None
    if got is not None:
        return got
    if not isinstance(text, str):
        raise ValueError(f"square name must be a string, got {text!r}")
    m = _SQUARE_RE.match(text.strip())
    if m is None:
        raise ValueError(
            f"bad square name {text!r}: expected column letters then a row number, e.g. 'c4'"
        )
    n = 0
    for ch in m.group(1):
        n = n * 26 + (ord(ch) - ord("a") + 1)
    got = (n - 1, int(m.group(2)) - 1)
    if len(text) <= 8 and len(_PARSED_SQUARES) < 8192:
        _PARSED_SQUARES[text] = got
    return got


#: square and side names parsed so far (short names only, and a bounded number of them:
#: the text may come from the network)
_PARSED_SQUARES: dict[str, Square] = {}
_PARSED_EDGES: dict[str, Edge] = {}


def canonical_edge(e: Edge) -> Edge:
    """Canonical form of an edge: ``w`` with col > 0 and ``n`` with row > 0 are renamed.

    ``c3:w -> b3:e``, ``b2:n -> b1:s``; ``a1:w`` and ``a1:n`` stay. Source: notation.md, Sides.
    """
    col, row, side = e
    if side not in DIRS:
        raise ValueError(f"bad side {side!r}: expected one of n, e, s, w")
    if side == "w" and col > 0:
        return (col - 1, row, "e")
    if side == "n" and row > 0:
        return (col, row - 1, "s")
    return (col, row, side)


def edge_name(e: Edge) -> str:
    """Name an edge as ``square:side`` in canonical form, e.g. ``"c3:e"``.

    Source: notation.md, Sides.
    """
    if type(e) is tuple:
        got = _EDGE_NAMES.get(e)
        if got is not None:
            return got
    col, row, side = canonical_edge(e)
    got = f"{square_name((col, row))}:{side}"
    if type(e) is tuple and type(e[0]) is int and type(e[1]) is int and e[0] < 64 \
            and e[1] < 64:
        _EDGE_NAMES[e] = got
    return got


def parse_edge(text: str) -> Edge:
    """Parse ``"c3:w"`` into the canonical edge ``(1, 2, "e")``; ``ValueError`` on bad text.

    Source: notation.md, Sides (the parser accepts any spelling of a side).
    """
    got = _PARSED_EDGES.get(text) if type(text) is str else None
    if got is not None:
        return got
    if not isinstance(text, str) or text.count(":") != 1:
        raise ValueError(f"bad side name {text!r}: expected 'square:side', e.g. 'c3:e'")
    sq_text, side = text.strip().split(":")
    if side not in DIRS:
        raise ValueError(f"bad side name {text!r}: side must be one of n, e, s, w")
    col, row = parse_square(sq_text)
    got = canonical_edge((col, row, side))
    if len(text) <= 10 and len(_PARSED_EDGES) < 8192:
        _PARSED_EDGES[text] = got
    return got


# ---------------------------------------------------------------------------------------------
# Doubled-coordinate transforms (for rotations and for unfolding links in line of sight)
# ---------------------------------------------------------------------------------------------

# 2x2 integer rotation matrices (a, b, c, d): (x, y) -> (a*x + b*y, c*x + d*y); y grows south,
# so index k is k quarter turns clockwise on screen.
_ROT: tuple[tuple[int, int, int, int], ...] = (
    (1, 0, 0, 1),
    (0, -1, 1, 0),
    (-1, 0, 0, -1),
    (0, 1, -1, 0),
)

Transform = tuple[int, int, int]  # (rotation index, tx, ty) in doubled coordinates


def _rot(k: int, v: tuple[int, int]) -> tuple[int, int]:
    a, b, c, d = _ROT[k % 4]
    return (a * v[0] + b * v[1], c * v[0] + d * v[1])


def _apply(t: Transform, p: tuple[int, int]) -> tuple[int, int]:
    x, y = _rot(t[0], p)
    return (x + t[1], y + t[2])


def _apply_inv(t: Transform, p: tuple[int, int]) -> tuple[int, int]:
    return _rot(-t[0] % 4, (p[0] - t[1], p[1] - t[2]))


def _centre(sq: Square) -> tuple[int, int]:
    return (2 * sq[0] + 1, 2 * sq[1] + 1)


def _edge_midpoint(e: Edge) -> tuple[int, int]:
    col, row, side = e
    dx, dy = DIRS[side]
    return (2 * col + 1 + dx, 2 * row + 1 + dy)


def _side_of(v: tuple[int, int]) -> str:
    for side in SIDES:
        if DIRS[side] == v:
            return side
    raise ValueError(f"not a unit direction: {v!r}")


def rotate_local(
    sq: Square, side: str | None, rotation: int, size: int = SECTOR_SIZE
) -> tuple[Square, str | None]:
    """Rotate a sector-local square (and side) by ``rotation`` quarter turns clockwise.

    Source: rulebook, The Board (sectors may be rotated by the ROTATION card later).
    """
    x, y = sq
    for _ in range(rotation % 4):
        x, y = size - 1 - y, x
        if side is not None:
            side = CLOCKWISE[side]
    return (x, y), side


def local_to_board(
    origin: Square, rotation: int, sq: Square, side: str | None = None
) -> tuple[Square, str | None]:
    """Map a sector-local square (and side) to board coordinates for a placement.

    Source: rulebook, The Board.
    """
    (x, y), side = rotate_local(sq, side, rotation)
    return (origin[0] + x, origin[1] + y), side


# ---------------------------------------------------------------------------------------------
# Layout
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Layout:
    """Immutable geometry of one assembled board.

    Source: rulebook, The Board.
    """

    width: int
    height: int
    holes: frozenset[Square]
    printed: Mapping[Edge, str]
    links: Mapping[tuple[Square, str], tuple[Square, str]]
    homes: tuple[Square, ...] = ()
    treasure_spots: tuple[tuple[Square, Square], ...] = ()
    placements: tuple[str, ...] = ()
    sector_ids: tuple[str, ...] = ()
    sector_origin: tuple[Square, ...] = ()
    rotations: tuple[int, ...] = ()
    sector_size: int = SECTOR_SIZE
    _cache: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def has_square(self, sq: Square) -> bool:
        """True when ``sq`` is inside the bounding box and not a hole.

        Source: rulebook, The Board.
        """
        col, row = sq
        return 0 <= col < self.width and 0 <= row < self.height and sq not in self.holes

    def squares(self) -> list[Square]:
        """All existing squares in row-major order. Source: rulebook, The Board."""
        got = self._cache.get("squares")
        if got is None:
            got = self._cache["squares"] = tuple(
                (c, r) for r in range(self.height) for c in range(self.width)
                if self.has_square((c, r)))
        return list(got)

    def _check(self, sq: Square) -> None:
        if not self.has_square(sq):
            raise ValueError(f"{sq!r} is not a square of this board")

    def edge_key(self, sq: Square, side: str) -> Edge:
        """The key of the edge crossed when leaving ``sq`` by ``side``.

        Interior edge: its canonical edge. Linked rim crossing: the smaller (tuple order) of the
        two canonical rim edges of the link, shared by both ends, so a smashed rim wall opens the
        link both ways (rulebook, The Board: "if you smash down a wall right next to the A exit,
        you can enter the opposite board edge"). Unlinked rim: its canonical edge.
        Raises ``ValueError`` for a square not on the board or a bad side.
        """
        got = self._edge_key_table.get((sq, side))
        if got is not None:
            return got
        return self._compute_edge_key(sq, side)

    def _compute_edge_key(self, sq: Square, side: str) -> Edge:
        self._check(sq)
        if side not in DIRS:
            raise ValueError(f"bad side {side!r}")
        own = canonical_edge((sq[0], sq[1], side))
        link = self.links.get((sq, side))
        if link is None:
            return own
        (dsq, dside) = link
        other = canonical_edge((dsq[0], dsq[1], dside))
        return min(own, other)

    def neighbor(self, sq: Square, side: str) -> tuple[Square, Edge] | None:
        """Square entered by leaving ``sq`` through ``side`` and the edge key crossed.

        Follows links at the rim; ``None`` beyond an unlinked rim (a test board's hard boundary).
        Source: rulebook, The Board.
        """
        table: dict[tuple[Square, str], tuple[Square, Edge] | None] = self._cache.setdefault(
            "neighbors", {})
        key = (sq, side)
        if key in table:
            return table[key]
        got = self._compute_neighbor(sq, side)
        table[key] = got
        return got

    def _compute_neighbor(self, sq: Square, side: str) -> tuple[Square, Edge] | None:
        self._check(sq)
        dx, dy = DIRS[side]
        nxt = (sq[0] + dx, sq[1] + dy)
        if self.has_square(nxt):
            return nxt, canonical_edge((sq[0], sq[1], side))
        link = self.links.get((sq, side))
        if link is None:
            return None
        return link[0], self.edge_key(sq, side)

    @property
    def _edge_key_table(self) -> dict[tuple[Square, str], Edge]:
        """``edge_key`` of every (existing square, side), computed once per layout."""
        got = self._cache.get("edge_keys")
        if got is None:
            got = {(sq, side): self._compute_edge_key(sq, side)
                   for sq in self.squares() for side in SIDES}
            self._cache["edge_keys"] = got
        return got

    @property
    def _square_objects(self) -> dict[Square, Square]:
        """Every existing square, mapped to one shared tuple; computed once per layout."""
        got = self._cache.get("square_objects")
        if got is None:
            got = self._cache["square_objects"] = {sq: sq for sq in self.squares()}
        return got

    @property
    def _link_transform_table(self) -> dict[tuple[Square, str], Transform]:
        """The unfolding transform of every linked rim crossing, computed once per layout."""
        got = self._cache.get("link_transform")
        if got is None:
            got = self._cache["link_transform"] = {
                (sq, side): _link_transform(sq, side, *dest)
                for (sq, side), dest in self.links.items()}
        return got

    @property
    def _link_keys(self) -> frozenset[Edge]:
        got = self._cache.get("link_keys")
        if got is None:
            got = frozenset(self.edge_key(sq, side) for (sq, side) in self.links) | frozenset(
                canonical_edge((sq[0], sq[1], side)) for (sq, side) in self.links
            )
            self._cache["link_keys"] = got
        return got

    def _edge_squares(self, e: Edge) -> tuple[Square, Square]:
        col, row, side = e
        dx, dy = DIRS[side]
        return (col, row), (col + dx, row + dy)

    def is_rim(self, edge_key: Edge) -> bool:
        """True when the edge has an existing square on one side only.

        Source: rulebook, The Board.
        """
        a, b = self._edge_squares(canonical_edge(edge_key))
        return self.has_square(a) != self.has_square(b)

    def is_linked(self, edge_key: Edge) -> bool:
        """True when the edge is a linked rim crossing (its key or either of its rim edges).

        Source: rulebook, The Board.
        """
        return canonical_edge(edge_key) in self._link_keys

    def link_partner(self, edge_key: Edge) -> Edge | None:
        """The other canonical rim edge of a linked key (``None`` if not linked).

        Source: rulebook, The Board.
        """
        key = canonical_edge(edge_key)
        for (sq, side), (dsq, dside) in sorted(self.links.items()):
            own = canonical_edge((sq[0], sq[1], side))
            if own == key and self.edge_key(sq, side) == key:
                return canonical_edge((dsq[0], dsq[1], dside))
        return None

    def physical_edges(self, edge_key: Edge) -> list[tuple[Square, str]]:
        """The (existing square, side) pairs whose crossing uses this key, sorted.

        Source: rulebook, The Board.
        """
        key = canonical_edge(edge_key)
        table: dict[Edge, list[tuple[Square, str]]] = self._cache.setdefault(
            "physical_edges", {})
        got = table.get(key)
        if got is None:
            got = table[key] = self._compute_physical_edges(key)
        return list(got)

    def _compute_physical_edges(self, key: Edge) -> list[tuple[Square, str]]:
        out: list[tuple[Square, str]] = []
        a, b = self._edge_squares(key)
        if self.has_square(a):
            out.append((a, key[2]))
        if self.has_square(b):
            out.append((b, OPPOSITE[key[2]]))
        for sq, side in sorted(self.links):
            if self.edge_key(sq, side) == key and (sq, side) not in out:
                out.append((sq, side))
        return sorted(out)

    def sector_of(self, sq: Square) -> int | None:
        """Placement index of the sector holding ``sq`` (``None`` on a test board).

        Source: rulebook, The Board.
        """
        if not self.has_square(sq):
            return None
        n = self.sector_size
        for i, (oc, orow) in enumerate(self.sector_origin):
            if oc <= sq[0] < oc + n and orow <= sq[1] < orow + n:
                return i
        return None

    def edges_of(self, sq: Square) -> list[tuple[str, Edge]]:
        """The four (side, edge key) pairs of a square, in n, e, s, w order.

        Source: rulebook, The Board.
        """
        return [(side, self.edge_key(sq, side)) for side in SIDES]

    def edge_exists(self, edge_key: Edge) -> bool:
        """True when at least one existing square touches the edge. Source: rulebook, The Board."""
        a, b = self._edge_squares(canonical_edge(edge_key))
        return self.has_square(a) or self.has_square(b)

    @property
    def _transforms(self) -> tuple[tuple[Transform, tuple[tuple[Square, str], ...]], ...]:
        got = self._cache.get("transforms")
        if got is None:
            fams: dict[Transform, list[tuple[Square, str]]] = {}
            for sq, side in sorted(self.links):
                t = _link_transform(sq, side, *self.links[(sq, side)])
                fams.setdefault(t, []).append((sq, side))
            got = tuple((t, tuple(v)) for t, v in sorted(fams.items()))
            self._cache["transforms"] = got
        return got


def _link_transform(sq: Square, side: str, dsq: Square, dside: str) -> Transform:
    """Rigid map placing the destination's neighbourhood just beyond the source rim edge."""
    want = (-DIRS[side][0], -DIRS[side][1])
    for k in range(4):
        if _rot(k, DIRS[dside]) == want:
            break
    else:  # pragma: no cover - unreachable for unit directions
        raise ValueError("no rotation found")
    dx, dy = DIRS[side]
    beyond = _centre((sq[0] + dx, sq[1] + dy))
    rx, ry = _rot(k, _centre(dsq))
    return (k, beyond[0] - rx, beyond[1] - ry)


def _rim_pair(layout: Layout, e: Edge) -> tuple[Square, str]:
    """(existing square, outward side) of a rim edge; ValueError if not a rim edge."""
    a, b = layout._edge_squares(canonical_edge(e))
    ha, hb = layout.has_square(a), layout.has_square(b)
    if ha and not hb:
        return a, e[2]
    if hb and not ha:
        return b, OPPOSITE[e[2]]
    raise ValueError(f"{edge_name(e)} is not a rim edge of this board")


def _add_link(
    links: dict[tuple[Square, str], tuple[Square, str]],
    a: tuple[Square, str],
    b: tuple[Square, str],
) -> None:
    if a in links or b in links or a == b:
        raise ValueError(f"rim edge linked twice: {a!r} / {b!r}")
    links[a] = b
    links[b] = a


def _freeze(d: Mapping[Any, Any]) -> MappingProxyType[Any, Any]:
    return MappingProxyType(dict(sorted(d.items())))


#: The geometry tables (``Layout._cache``: sightlines, corner keys, edge keys, neighbours,
#: physical edges, link transforms, square and side names) by geometry: width, height, holes
#: and links. Every one of them is a function of these alone, never of the printed walls
#: and doors, so boards that differ only in sector order or rotation (every 4-player board,
#: every 2-player board...) share one set of tables, built once per process (issue 14).
_GEOMETRIES: dict[tuple[Any, ...], dict[str, Any]] = {}
#: At most this many geometries are kept (a game uses one or two; a process rarely more
#: than the seven of the real boards); the oldest is dropped first.
GEOMETRY_MEMO_SIZE = 12
#: A geometry's sightline table is emptied when it holds this many targets (about 2.6 KB
#: each with their lines: a bound on memory; a game asks a few thousand).
SIGHTLINE_TABLE_SIZE = 24_000
_GEOMETRY_LOCK = threading.Lock()


def geometry_cache(width: int, height: int, holes: frozenset[Square],
                   links: Mapping[tuple[Square, str], tuple[Square, str]]) -> dict[str, Any]:
    """The shared table dict of the geometry ``(width, height, holes, links)`` (see
    :data:`_GEOMETRIES`): the same dict object for the same geometry while it is kept, a new
    empty one for a new geometry. Thread-safe (bots may build boards in a worker thread)."""
    key = (width, height, tuple(sorted(holes)), tuple(sorted(links.items())))
    with _GEOMETRY_LOCK:
        got = _GEOMETRIES.pop(key, None)
        if got is None:
            got = {}
            while len(_GEOMETRIES) >= GEOMETRY_MEMO_SIZE:
                _GEOMETRIES.pop(next(iter(_GEOMETRIES)))
        _GEOMETRIES[key] = got
    return got


def forget_geometries() -> None:
    """Drop every shared geometry table (the next board traces its lines afresh, as in a new
    process): for benchmarks and tests."""
    with _GEOMETRY_LOCK:
        _GEOMETRIES.clear()


def open_board(
    width: int,
    height: int,
    walls: Iterable[str] = (),
    doors: Iterable[str] = (),
    exits: Iterable[tuple[str, str] | Sequence[str]] = (),
) -> Layout:
    """The scenario test board of notation.md: an open rectangle with walls only on its rim.

    The rim is a hard boundary (not in ``printed``, not linked, never crossed or destroyed).
    ``walls`` / ``doors`` are edge names added to ``printed``; ``exits`` are pairs of rim edge
    names joined to each other (leave by one, enter by the other; the link is open).
    Source: notation.md, Scenario files ([board]); cards.md §1.2 (a test board's rim cannot be
    destroyed).
    """
    if width < 1 or height < 1:
        raise ValueError(f"board size must be at least 1x1, got {width}x{height}")
    base = Layout(width, height, frozenset(), MappingProxyType({}), MappingProxyType({}))
    links: dict[tuple[Square, str], tuple[Square, str]] = {}
    for pair in exits:
        if len(pair) != 2:
            raise ValueError(f"an exit is a pair of rim sides, got {pair!r}")
        a = _rim_pair(base, parse_edge(pair[0]))
        b = _rim_pair(base, parse_edge(pair[1]))
        _add_link(links, a, b)
    frozen = _freeze(links)
    layout = replace(base, links=frozen, _cache=geometry_cache(width, height, frozenset(), frozen))
    printed: dict[Edge, str] = {}
    for kind, names in (("wall", walls), ("door", doors)):
        for name in names:
            e = parse_edge(name)
            if not layout.edge_exists(e):
                raise ValueError(f"{kind} {name!r} is outside the {width}x{height} board")
            sq, side = layout.physical_edges(e)[0]
            key = layout.edge_key(sq, side)
            if layout.is_rim(key) and not layout.is_linked(key):
                raise ValueError(f"{kind} {name!r} is on the rim, which is already a hard wall")
            if key in printed and printed[key] != kind:
                raise ValueError(f"edge {name!r} is both a wall and a door")
            printed[key] = kind
    return replace(layout, printed=_freeze(printed), _cache=layout._cache)


# ---------------------------------------------------------------------------------------------
# Sectors
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Sector:
    """One sector design in sector-local coordinates (5x5, (0,0) top-left).

    ``walls`` and ``doors`` hold canonical local edges, rim included (``(x, 0, "n")``,
    ``(0, y, "w")``, ``(4, y, "e")``, ``(x, 4, "s")``). Source: rulebook, The Board;
    research/wizwar-facts.md §3.
    """

    id: str
    name: str
    description: str
    walls: frozenset[Edge]
    doors: frozenset[Edge]
    home: Square
    treasures: tuple[Square, Square]

    def edge(self, sq: Square, side: str) -> str:
        """``"wall"``, ``"door"`` or ``"open"`` for a local square's side. Source: rulebook."""
        e = canonical_edge((sq[0], sq[1], side))
        if e in self.walls:
            return "wall"
        if e in self.doors:
            return "door"
        return "open"

    def picture(self) -> str:
        """The sector as the ASCII picture of docs/board-format.md. Source: docs/board-format.md."""
        n = SECTOR_SIZE
        lines: list[str] = []
        for y in range(n + 1):
            row = "+"
            for x in range(n):
                kind = self.edge((x, y), "n") if y < n else self.edge((x, n - 1), "s")
                row += {"wall": "---", "door": "-D-", "open": "   "}[kind] + "+"
            lines.append(row)
            if y == n:
                break
            cell = ""
            for x in range(n):
                kind = self.edge((x, y), "w")
                cell += {"wall": "|", "door": "D", "open": " "}[kind]
                mark = "H" if (x, y) == self.home else "T" if (x, y) in self.treasures else "."
                cell += f" {mark} "
            cell += {"wall": "|", "door": "D", "open": " "}[self.edge((n - 1, y), "e")]
            lines.append(cell)
        return "\n".join(lines) + "\n"


_H_SEG = {"---": "wall", "-D-": "door", "   ": "open"}
_V_SEG = {"|": "wall", "D": "door", " ": "open"}


def parse_sector_picture(
    text: str, where: str = "<picture>", first_line: int = 1
) -> tuple[frozenset[Edge], frozenset[Edge], Square | None, list[Square]]:
    """Parse a 5x5 ASCII sector picture into (walls, doors, home, treasures).

    The format is documented in docs/board-format.md. Raises ``ValueError`` naming ``where``
    and the line. Source: docs/board-format.md.
    """
    n = SECTOR_SIZE
    width = 4 * n + 1
    raw = text.split("\n")
    while raw and raw[-1].strip() == "":
        raw.pop()
    if len(raw) != 2 * n + 1:
        raise ValueError(f"{where}: a sector picture has {2 * n + 1} lines, found {len(raw)}")
    walls: set[Edge] = set()
    doors: set[Edge] = set()
    home: Square | None = None
    treasures: list[Square] = []

    def err(i: int, msg: str) -> ValueError:
        return ValueError(f"{where}, line {first_line + i}: {msg}: {raw[i]!r}")

    for i, line in enumerate(raw):
        if len(line.rstrip()) > width:
            raise err(i, f"line longer than {width} characters")
        line = line.rstrip().ljust(width)
        if i % 2 == 0:
            y = i // 2
            for x in range(n + 1):
                if line[4 * x] != "+":
                    raise err(i, f"expected '+' at column {4 * x + 1}")
            for x in range(n):
                seg = line[4 * x + 1 : 4 * x + 4]
                kind = _H_SEG.get(seg)
                if kind is None:
                    raise err(i, f"bad edge {seg!r} (use '---', '-D-' or three spaces)")
                e = canonical_edge((x, y, "n")) if y < n else (x, n - 1, "s")
                if kind == "wall":
                    walls.add(e)
                elif kind == "door":
                    doors.add(e)
        else:
            y = i // 2
            for x in range(n + 1):
                ch = line[4 * x]
                kind = _V_SEG.get(ch)
                if kind is None:
                    raise err(i, f"bad edge {ch!r} at column {4 * x + 1} (use '|', 'D' or space)")
                e = canonical_edge((x, y, "w")) if x < n else (n - 1, y, "e")
                if kind == "wall":
                    walls.add(e)
                elif kind == "door":
                    doors.add(e)
            for x in range(n):
                cell = line[4 * x + 1 : 4 * x + 4]
                if cell[0] != " " or cell[2] != " " or cell[1] not in ".HT":
                    raise err(
                        i, f"bad square {cell!r} at column {4 * x + 2} (use ' . ', ' H ', ' T ')"
                    )
                if cell[1] == "H":
                    if home is not None:
                        raise err(i, "more than one home base 'H'")
                    home = (x, y)
                elif cell[1] == "T":
                    treasures.append((x, y))
    return frozenset(walls), frozenset(doors), home, treasures


def _reachable(start: Square, n: int, blocked: Callable[[Square, str], bool]) -> list[Square]:
    seen = {start}
    order = [start]
    i = 0
    while i < len(order):
        sq = order[i]
        i += 1
        for side in SIDES:
            dx, dy = DIRS[side]
            nxt = (sq[0] + dx, sq[1] + dy)
            if 0 <= nxt[0] < n and 0 <= nxt[1] < n and nxt not in seen and not blocked(sq, side):
                seen.add(nxt)
                order.append(nxt)
    return order


def validate_sector(s: Sector, where: str = "") -> None:
    """Check a sector against the classic shape; ``ValueError`` listing the first problem.

    5x5, home in the centre, two treasure circles diagonal to it in opposite corners of the
    3x3 core, outer rim wall except one opening in the middle of each side, at least two doors,
    every square reachable once doors are opened. Source: research/wizwar-facts.md §3.
    """
    n = SECTOR_SIZE
    pre = f"{where}sector {s.id!r}: "
    if s.home != HOME_LOCAL:
        raise ValueError(pre + f"home base must be the centre square c3, got {s.home!r}")
    if frozenset(s.treasures) not in TREASURE_PAIRS or len(s.treasures) != 2:
        raise ValueError(pre + "treasures must be b2 & d4 or b4 & d2 (diagonal to the home base)")
    if s.walls & s.doors:
        raise ValueError(pre + "an edge is both wall and door")
    for side, (ex, ey) in EXIT_LOCAL.items():
        for k in range(n):
            sq = {"n": (k, 0), "s": (k, n - 1), "w": (0, k), "e": (n - 1, k)}[side]
            kind = s.edge(sq, side)
            want = "open" if sq == (ex, ey) else "wall"
            if kind != want:
                raise ValueError(
                    pre + f"rim side {square_name(sq)}:{side} must be {want}, found {kind}"
                )
    interior_doors = [e for e in s.doors if not _local_rim(e)]
    if len(interior_doors) < 2:
        raise ValueError(pre + f"needs at least 2 doors, found {len(interior_doors)}")
    got = _reachable(HOME_LOCAL, n, lambda sq, side: s.edge(sq, side) == "wall")
    if len(got) != n * n:
        missing = sorted(
            {(x, y) for x in range(n) for y in range(n)} - set(got), key=lambda q: (q[1], q[0])
        )
        names = ", ".join(square_name(q) for q in missing)
        raise ValueError(pre + f"squares not reachable from the home base: {names}")


def _local_rim(e: Edge) -> bool:
    col, row, side = e
    n = SECTOR_SIZE
    return (
        (side == "n" and row == 0)
        or (side == "w" and col == 0)
        or (side == "e" and col == n - 1)
        or (side == "s" and row == n - 1)
    )


def _read_sector_text(path: str | None) -> tuple[str, str]:
    if path is None:
        ref = resources.files("core.wizwar").joinpath("data/sectors.toml")
        return ref.read_text(encoding="utf-8"), "sectors.toml (packaged)"
    return Path(path).read_text(encoding="utf-8"), path


def load_sectors(path: str | None = None) -> dict[str, Sector]:
    """Load and validate the sector designs from TOML (``None``: the packaged file).

    Raises ``ValueError`` naming the file, sector and line on a malformed file.
    Format: docs/board-format.md. Source: rulebook, The Board; research/wizwar-facts.md §3.
    """
    text, where = _read_sector_text(path)
    got = _SECTORS_READ.get((where, text))
    if got is None:
        got = _parse_sectors(text, where)
        if len(_SECTORS_READ) >= 8:
            _SECTORS_READ.clear()
        _SECTORS_READ[(where, text)] = got
    return dict(got)


#: sector files already parsed, by (where, text): every new game reads the packaged file
_SECTORS_READ: dict[tuple[str, str], dict[str, Sector]] = {}


def _parse_sectors(text: str, where: str) -> dict[str, Sector]:
    import tomllib  # here, not at the top: only new games need it (start-up time)

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"{where}: bad TOML: {exc}") from exc
    unknown = sorted(set(data) - {"sector", "format"})
    if unknown:
        raise ValueError(f"{where}: unknown top-level key(s): {', '.join(unknown)}")
    entries = data.get("sector")
    if not isinstance(entries, list) or not entries:
        raise ValueError(f"{where}: expected one or more [[sector]] tables")
    out: dict[str, Sector] = {}
    for idx, entry in enumerate(entries, start=1):
        loc = f"{where}, [[sector]] #{idx}"
        if not isinstance(entry, dict):
            raise ValueError(f"{loc}: not a table")
        extra = sorted(set(entry) - {"id", "name", "description", "map"})
        if extra:
            raise ValueError(f"{loc}: unknown key(s): {', '.join(extra)}")
        for key in ("id", "name", "description", "map"):
            if not isinstance(entry.get(key), str) or not entry[key]:
                raise ValueError(f"{loc}: missing or empty string key {key!r}")
        sid = entry["id"]
        if sid in out:
            raise ValueError(f"{loc}: duplicate sector id {sid!r}")
        picture = entry["map"]
        id_match = re.search(r"^\s*id\s*=\s*[\"']" + re.escape(sid) + r"[\"']", text, re.M)
        pos = text.find(picture.split("\n", 1)[0], id_match.end() if id_match else 0)
        first_line = text.count("\n", 0, pos) + 1 if pos >= 0 else 1
        walls, doors, home, treasures = parse_sector_picture(
            picture, f"{loc} (id {sid!r})", first_line
        )
        if home is None:
            raise ValueError(f"{loc} (id {sid!r}): no home base 'H' in the map")
        if len(treasures) != 2:
            raise ValueError(f"{loc} (id {sid!r}): needs exactly 2 treasure circles 'T'")
        sector = Sector(
            id=sid,
            name=entry["name"],
            description=entry["description"],
            walls=walls,
            doors=doors,
            home=home,
            treasures=(treasures[0], treasures[1]),
        )
        validate_sector(sector, f"{loc}: ")
        out[sid] = sector
    return out


# ---------------------------------------------------------------------------------------------
# Assembly
# ---------------------------------------------------------------------------------------------

_PLACEMENTS: dict[int, tuple[tuple[str, Square], ...]] = {
    2: (("w", (0, 0)), ("e", (5, 0))),
    3: (("nw", (0, 0)), ("ne", (5, 0)), ("sw", (0, 5))),
    4: (("nw", (0, 0)), ("ne", (5, 0)), ("se", (5, 5)), ("sw", (0, 5))),
}


QUADRANTS: dict[str, Square] = {"nw": (0, 0), "ne": (5, 0), "se": (5, 5), "sw": (0, 5)}


def _line_links(width: int, height: int,
                holes: frozenset[Square]) -> dict[tuple[Square, str], tuple[Square, str]]:
    """Only opposite board edges connect: each row's west end to its east end and each
    column's north end to its south end, the ends being the row's or column's first and last
    existing squares (a hole cuts a row short). Source: rulebook, The Board (after a
    Relocate Sector on a 3-player board "the AUTO WARP is discarded, and only opposite board
    edges connect")."""
    links: dict[tuple[Square, str], tuple[Square, str]] = {}
    for r in range(height):
        cols = [c for c in range(width) if (c, r) not in holes]
        if cols:
            _add_link(links, ((cols[-1], r), "e"), ((cols[0], r), "w"))
    for c in range(width):
        rows = [r for r in range(height) if (c, r) not in holes]
        if rows:
            _add_link(links, ((c, rows[0]), "n"), ((c, rows[-1]), "s"))
    return links


def _board_links(players: int, crossed: bool) -> dict[tuple[Square, str], tuple[Square, str]]:
    links: dict[tuple[Square, str], tuple[Square, str]] = {}
    n = SECTOR_SIZE
    if players == 2:
        w, h = 2 * n, n
        for r in range(h):
            _add_link(links, ((w - 1, r), "e"), ((0, r), "w"))
        if crossed:
            for x in range(n):
                _add_link(links, ((x, 0), "n"), ((x + n, h - 1), "s"))
                _add_link(links, ((x + n, 0), "n"), ((x, h - 1), "s"))
        else:
            for c in range(w):
                _add_link(links, ((c, 0), "n"), ((c, h - 1), "s"))
    elif players == 4:
        w = h = 2 * n
        for r in range(h):
            _add_link(links, ((w - 1, r), "e"), ((0, r), "w"))
        for c in range(w):
            _add_link(links, ((c, 0), "n"), ((c, h - 1), "s"))
    elif players == 3:
        for i in range(n):
            # nw.n <-> sw.s ; nw.w <-> ne.e (opposite edges that both exist)
            _add_link(links, ((i, 0), "n"), ((i, 2 * n - 1), "s"))
            _add_link(links, ((0, i), "w"), ((2 * n - 1, i), "e"))
            # AUTO WARP: ne's south edge <-> sw's east edge, as if adjacent
            _add_link(links, ((n + i, n - 1), "s"), ((n - 1, n + i), "e"))
            # our reading: ne's north edge <-> sw's west edge (their opposites are the hole)
            _add_link(links, ((n + i, 0), "n"), ((0, n + i), "w"))
    else:
        raise ValueError(f"players must be 2, 3 or 4, got {players}")
    return links


def assemble(
    players: int,
    sector_ids: Sequence[str],
    crossed: bool = False,
    sectors: dict[str, Sector] | None = None,
    rotations: Sequence[int] | None = None,
    places: Sequence[str] | None = None,
    warp: bool = True,
) -> Layout:
    """Assemble the full board for 2, 3 or 4 players from sector designs.

    2 players: 10x5, placements w, e. 4 players: 10x10, nw ne se sw. 3 players: 10x10 with the
    se quadrant a hole, placements nw ne sw. Seams are single edges (wall if either sector has a
    wall there, else door if either has a door). Every outer rim edge is linked to the edge
    opposite it (torus): "if you leave a board at point A on either side, you will reenter at
    point A on the opposite side" (rulebook, The Board). ``crossed`` (2 players only): the
    north/south exits cross over to the other sector (FAQ). 3 players: nw.n <-> sw.s and
    nw.w <-> ne.e; the AUTO WARP joins ne's south edge to sw's east edge (square ne col 5+i,
    row 4 leaving south enters sw col 4, row 5+i through its east side, and back); our reading
    for the two edges whose opposite is the hole: ne's north edge (col 5+i, row 0) is joined to
    sw's west edge (col 0, row 5+i) the same way. Source: rulebook, The Board; FAQ.

    ``places`` (3 players, after Relocate Sector): the quadrant (``nw``/``ne``/``se``/``sw``)
    of each sector, the missing one being the hole; ``warp=False`` drops the AUTO WARP and
    joins only opposite board edges (see :func:`_line_links`). The AUTO WARP needs the hole
    in the south-east. Raises ``ValueError`` on a bad combination.
    """
    if players not in _PLACEMENTS:
        raise ValueError(f"players must be 2, 3 or 4, got {players}")
    if crossed and players != 2:
        raise ValueError("the crossed-exit variant is for 2 players only")
    slots = _PLACEMENTS[players]
    if places is not None:
        if players != 3:
            raise ValueError("sector places can only change on a 3-player board")
        names = tuple(places)
        if len(names) != 3 or len(set(names)) != 3 or not set(names) <= set(QUADRANTS):
            raise ValueError(f"places must be three different quadrants of nw ne se sw, got {names}")
        slots = tuple((q, QUADRANTS[q]) for q in names)
    if not warp and players != 3:
        raise ValueError("only a 3-player board has an AUTO WARP to drop")
    hole = next((q for q in QUADRANTS if q not in {p for p, _ in slots}), "")
    if players == 3 and warp and hole != "se":
        raise ValueError("the AUTO WARP needs the empty place in the south-east")
    ids = tuple(sector_ids)
    if len(ids) != len(slots):
        raise ValueError(f"{players} players need {len(slots)} sectors, got {len(ids)}")
    rots = tuple(rotations) if rotations is not None else (0,) * len(slots)
    if len(rots) != len(slots):
        raise ValueError(f"need {len(slots)} rotations, got {len(rots)}")
    if sectors is None:
        sectors = load_sectors()
    for sid in ids:
        if sid not in sectors:
            raise ValueError(f"unknown sector id {sid!r} (known: {', '.join(sorted(sectors))})")
    n = SECTOR_SIZE
    width, height = 2 * n, (n if players == 2 else 2 * n)
    holes: frozenset[Square] = frozenset()
    if players == 3:
        hx, hy = QUADRANTS[hole]
        holes = frozenset((c, r) for c in range(hx, hx + n) for r in range(hy, hy + n))
    links = _freeze(_board_links(players, crossed) if players != 3 or warp
                    else _line_links(width, height, holes))
    base = Layout(
        width=width,
        height=height,
        holes=holes,
        printed=MappingProxyType({}),
        links=links,
        _cache=geometry_cache(width, height, holes, links),
        placements=tuple(p for p, _ in slots),
        sector_ids=ids,
        sector_origin=tuple(o for _, o in slots),
        rotations=tuple(r % 4 for r in rots),
    )
    rank = {"open": 0, "door": 1, "wall": 2}
    printed: dict[Edge, str] = {}
    homes: list[Square] = []
    spots: list[tuple[Square, Square]] = []
    for (_, origin), sid, rot in zip(slots, ids, base.rotations, strict=True):
        sec = sectors[sid]
        for kind, edges in (("wall", sec.walls), ("door", sec.doors)):
            for e in sorted(edges):
                sq, side = local_to_board(origin, rot, (e[0], e[1]), e[2])
                assert side is not None
                key = base.edge_key(sq, side)
                if rank[kind] > rank[printed.get(key, "open")]:
                    printed[key] = kind
        homes.append(local_to_board(origin, rot, sec.home)[0])
        t1 = local_to_board(origin, rot, sec.treasures[0])[0]
        t2 = local_to_board(origin, rot, sec.treasures[1])[0]
        spots.append((t1, t2))
    return replace(
        base,
        printed=_freeze(printed),
        homes=tuple(homes),
        treasure_spots=tuple(spots),
        _cache=base._cache,
    )


# ---------------------------------------------------------------------------------------------
# Line of sight
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Sightline:
    """One geometric line of sight (before deciding what blocks it).

    ``edges``: edge keys whose interior the segment crosses, in order (a link key when the line
    wraps). ``corners``: for each grid point touched (not at the ends), the sorted edge keys
    meeting there. ``squares``: squares whose interior the segment passes, in order.
    ``leg``: the direction of the line's last straight leg, as it arrives at the target, in
    board coordinates (doubled units; after a wrap the part beyond the rim crossing, turned
    back into the target's frame): "away from the caster" is read from it (cards.md §1.8).
    Source: rulebook, The Cards (line of sight); cards.md §1.2.
    """

    edges: tuple[Edge, ...]
    corners: tuple[tuple[Edge, ...], ...]
    squares: tuple[Square, ...]
    length2: int = field(default=0, compare=False)
    leg: tuple[int, int] = field(default=(0, 0), compare=False)


def _corner_keys(layout: Layout, gx: int, gy: int) -> tuple[Edge, ...]:
    """Edge keys meeting at grid point (gx, gy) (grid units, not doubled); memoised per
    layout (the geometry never changes)."""
    table = layout._cache.setdefault("corner_keys", {})
    got = table.get((gx, gy))
    if got is None:
        got = table[(gx, gy)] = _corner_keys_of(layout, gx, gy)
    return got


def _corner_keys_of(layout: Layout, gx: int, gy: int) -> tuple[Edge, ...]:
    keys: set[Edge] = set()
    # each unit edge around the point: (square on one side, side towards the other)
    around = (
        ((gx - 1, gy - 1), "e"),  # vertical, above the point
        ((gx - 1, gy), "e"),  # vertical, below
        ((gx - 1, gy - 1), "s"),  # horizontal, left
        ((gx, gy - 1), "s"),  # horizontal, right
    )
    for sq, side in around:
        dx, dy = DIRS[side]
        other = (sq[0] + dx, sq[1] + dy)
        if layout.has_square(sq):
            keys.add(layout.edge_key(sq, side))
        elif layout.has_square(other):
            keys.add(layout.edge_key(other, OPPOSITE[side]))
    return tuple(sorted(keys))


def _trace(
    layout: Layout, start: tuple[int, int], end: tuple[int, int], t: Transform | None
) -> Sightline | None:
    """Walk the segment start -> end (doubled, unfolded by ``t`` after a rim crossing).

    Exact integer arithmetic only. ``start`` is a square centre (odd, odd). The segment
    crosses the vertical grid line at doubled x = ``x0 + sx*k`` for odd ``k < |dx|`` at
    parameter ``k/|dx|``; scaled by ``D = |dx|*|dy|`` (a zero factor read as 1) every crossing
    parameter is the integer ``k*D/|dx|``, so the crossings are merged in order by integers
    and a vertical and a horizontal crossing at the same integer meet at a grid point (a
    corner the line touches). Between two crossings the line is inside one square, found by
    stepping one column or row per crossing (both at a grid point). Before the first rim
    crossing the squares are read directly; a square beyond the board is reached only by a
    single-axis crossing of a linked rim edge whose link has transform ``t``, after which
    every square is mapped back through ``t``. A line through a rim corner, a second rim
    crossing, or a hole makes no valid line (``None``).
    Source: rulebook, The Cards (line of sight); FAQ (corners); cards.md §1.2.
    """
    x0, y0 = start
    dx, dy = end[0] - x0, end[1] - y0
    ax, ay = abs(dx), abs(dy)
    sx = 1 if dx > 0 else -1
    sy = 1 if dy > 0 else -1
    step_x = ay or 1  # scaled parameter between two vertical grid lines is 2 * step_x
    step_y = ax or 1
    never = 2 * (ax + 1) * (ay + 1)  # beyond every crossing parameter
    kx, ky = 1, 1  # next odd distance to a vertical / horizontal grid line (doubled units)
    ekeys = layout._edge_key_table
    exists = layout._square_objects  # also gives the layout's own tuple (memory: shared)
    side_of = _SIDE_OF
    cx, cy = (x0 - 1) // 2, (y0 - 1) // 2  # the unfolded square the line is in
    cur: Square = (cx, cy)
    squares: list[Square] = [cur]
    wrapped = False
    edges: list[Edge] = []
    corners: list[tuple[Edge, ...]] = []
    tx = step_x if ax > 1 else never
    ty = step_y if ay > 1 else never
    while tx != never or ty != never:
        cross_x = tx <= ty
        cross_y = ty <= tx
        if cross_x:
            cx += sx
        if cross_y:
            cy += sy
        u = (cx, cy)
        was_wrapped = wrapped
        nxt: Square | None
        if not wrapped and u in exists:
            nxt = exists[u]
        else:
            if t is None:
                return None
            if not wrapped:
                # must be the crossing of a linked rim edge whose link has this transform
                if cross_x and cross_y:
                    return None
                if layout._link_transform_table.get((cur, side_of[(cx - cur[0], cy - cur[1])])) != t:
                    return None
                wrapped = True
            c = _apply_inv(t, (2 * cx + 1, 2 * cy + 1))
            nxt = exists.get(((c[0] - 1) // 2, (c[1] - 1) // 2))
            if nxt is None:
                return None
        if cross_x and cross_y:
            gp = (x0 + sx * kx, y0 + sy * ky)
            if wrapped:
                assert t is not None
                gp = _apply_inv(t, gp)
            corners.append(_corner_keys(layout, gp[0] // 2, gp[1] // 2))
        else:
            to = u if was_wrapped != wrapped else nxt
            side = side_of[(to[0] - cur[0], to[1] - cur[1])]
            key = ekeys.get((cur, side))
            edges.append(key if key is not None else layout.edge_key(cur, side))
        if cross_x:
            kx += 2
            tx = kx * step_x if kx < ax else never
        if cross_y:
            ky += 2
            ty = ky * step_y if ky < ay else never
        if nxt != cur:
            squares.append(nxt)
        cur = nxt
    if t is not None and not wrapped:
        return None
    leg = (dx, dy) if t is None else _rot(-t[0] % 4, (dx, dy))
    return Sightline(tuple(edges), tuple(corners), tuple(squares), dx * dx + dy * dy, leg)


#: the side of a square towards a unit step
_SIDE_OF: dict[tuple[int, int], str] = {v: k for k, v in DIRS.items()}


def _target_points(layout: Layout, target: Square | Edge) -> list[tuple[int, int]]:
    if len(target) == 2:
        sq = (target[0], target[1])
        if not layout.has_square(sq):
            raise ValueError(f"{sq!r} is not a square of this board")
        return [_centre(sq)]
    e = canonical_edge(target)
    if not layout.edge_exists(e):
        raise ValueError(f"edge {e!r} is not on this board")
    key = layout.edge_key(*layout.physical_edges(e)[0])
    pts = {
        _edge_midpoint(canonical_edge((sq[0], sq[1], side)))
        for sq, side in layout.physical_edges(key)
    }
    return sorted(pts)


def sightlines(layout: Layout, a: Square, target: Square | Edge) -> list[Sightline]:
    """All geometrically valid straight lines from ``a`` to ``target``, shortest first.

    Direct, or wrapping once through a linked rim crossing (exit, wrap or AUTO WARP: "treat the
    connected board edges as though they are adjacent", "treat it as a straight line"). Ties are
    broken direct first, then by link transform order. The geometry never changes during a
    game, so results are memoised per layout (what blocks is decided by the caller). Source:
    rulebook, The Cards (line of
    sight: centre to centre, or to the centre of the wall for CREATE WALL); rulebook, The Board
    (AUTO WARP); cards.md §1.2.
    """
    cache = layout._cache.setdefault("sightlines", {})
    key = (a, tuple(target))
    hit = cache.get(key)
    if hit is None:
        hit = tuple(_sightlines(layout, a, target))
        if len(cache) >= SIGHTLINE_TABLE_SIZE:
            cache.clear()
        cache[key] = hit
    return list(hit)


def _sightlines(layout: Layout, a: Square, target: Square | Edge) -> list[Sightline]:
    if not layout.has_square(a):
        raise ValueError(f"{a!r} is not a square of this board")
    if len(target) == 2 and (target[0], target[1]) == a:
        return [Sightline((), (), (a,), 0)]
    start = _centre(a)
    found: list[tuple[int, int, Sightline]] = []
    order = 0
    transforms: list[Transform | None] = [None, *(t for t, _ in layout._transforms)]
    for pt in _target_points(layout, target):
        for t in transforms:
            end = pt if t is None else _apply(t, pt)
            sl = _trace(layout, start, end, t)
            order += 1
            if sl is not None and all(sl != f[2] for f in found):
                found.append((sl.length2, order, sl))
    found.sort(key=lambda f: (f[0], f[1]))
    return [f[2] for f in found]


def sightline(layout: Layout, a: Square, target: Square | Edge) -> Sightline | None:
    """The shortest valid sightline from ``a`` to ``target``, or ``None`` if none exists.

    Source: rulebook, The Cards (line of sight); cards.md §1.2.
    """
    got = sightlines(layout, a, target)
    return got[0] if got else None


def blocked_count(sl: Sightline, is_blocking: Callable[[Edge], bool]) -> int:
    """Blocking edges crossed plus 2 per touched corner where any meeting edge blocks.

    Source: rulebook, The Cards ("interrupted by any part of a wall"); FAQ (nicking a corner
    breaks LOS and counts as passing two walls for Visionstone); cards.md §1.2.
    """
    count = sum(1 for e in sl.edges if is_blocking(e))
    count += sum(2 for corner in sl.corners if any(is_blocking(e) for e in corner))
    return count


def line_of_sight(
    layout: Layout, a: Square, target: Square | Edge, is_blocking: Callable[[Edge], bool]
) -> bool:
    """True when some valid sightline from ``a`` to ``target`` has nothing blocking on it.

    Source: rulebook, The Cards (line of sight); cards.md §1.2.
    """
    return any(blocked_count(sl, is_blocking) == 0 for sl in sightlines(layout, a, target))


def printed_blocking(layout: Layout) -> Callable[[Edge], bool]:
    """A blocking test from the printed edges only (walls and doors block; the unlinked rim of
    a test board blocks). Handy for tests and previews. Source: cards.md §1.2.
    """

    def blocking(e: Edge) -> bool:
        if e in layout.printed:
            return True
        return layout.is_rim(e) and not layout.is_linked(e)

    return blocking
