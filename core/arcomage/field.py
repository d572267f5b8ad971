"""The field: 24 hexes in rows of 4-5-6-5-4 split by the Nexus, and every geometric question.

Source: rules.md §2 (R8-R19), seed §2, §2.1, §2.2, §6.4. Everything is integer arithmetic on
the (x, y) table of R9; nothing iterates a set to decide anything.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable

ROWS = ("a", "b", "c", "d", "e")
_ROW_X0 = (2, 1, 0, 1, 2)
_ROW_LEN = (4, 5, 6, 5, 4)

#: every hex name in reading order (R18)
HEXES: tuple[str, ...] = tuple(f"{r}{i + 1}" for k, r in enumerate(ROWS)
                               for i in range(_ROW_LEN[k]))
#: hex -> (x, y) (R9)
XY: dict[str, tuple[int, int]] = {
    f"{r}{i + 1}": (_ROW_X0[k] + 2 * i, k) for k, r in enumerate(ROWS) for i in range(_ROW_LEN[k])}
_AT: dict[tuple[int, int], str] = {v: k for k, v in XY.items()}
#: reading-order index of each hex
ORDER: dict[str, int] = {h: i for i, h in enumerate(HEXES)}
#: the two impassable centre hexes (R12)
NEXUS = ("c3", "c4")
#: the six steps, clockwise from twelve: NE, E, SE, SW, W, NW (R10, R11)
STEPS = ((1, -1), (2, 0), (1, 1), (-1, 1), (-2, 0), (-1, -1))


def is_hex(name: str) -> bool:
    """True for one of the 24 hex names."""
    return name in XY


def passable(h: str) -> bool:
    """Not a Nexus hex (R15)."""
    return h not in NEXUS


def _neighbours(h: str) -> tuple[str, ...]:
    x, y = XY[h]
    return tuple(_AT[(x + dx, y + dy)] for dx, dy in STEPS if (x + dx, y + dy) in _AT)


_NEIGHBOURS: dict[str, tuple[str, ...]] = {h: _neighbours(h) for h in HEXES}


def neighbours(h: str) -> list[str]:
    """The adjacent hexes of ``h``, clockwise from twelve (R10), Nexus hexes included."""
    return list(_NEIGHBOURS[h])


def adjacent(a: str, b: str) -> bool:
    """True when ``a`` and ``b`` share an edge (R10)."""
    (x1, y1), (x2, y2) = XY[a], XY[b]
    return (x2 - x1, y2 - y1) in STEPS


def grid_distance(a: str, b: str) -> int:
    """The distance ignoring pieces and the Nexus (R17): dy + max(0, (dx - dy) / 2)."""
    (x1, y1), (x2, y2) = XY[a], XY[b]
    dx, dy = abs(x1 - x2), abs(y1 - y2)
    return dy + max(0, (dx - dy) // 2)


def distances(start: str, occupied: Callable[[str], bool]) -> dict[str, int]:
    """Walking distance (R16) from ``start``; see :func:`walk_distances`."""
    return dict(walk_distances(start, tuple(h for h in HEXES if occupied(h))))


@functools.lru_cache(maxsize=4096)
def walk_distances(start: str, taken: tuple[str, ...]) -> dict[str, int]:
    """Walking distance (R16) from ``start`` to every reachable hex: steps through adjacent
    hexes, every hex entered before the last passable and unoccupied; the last may be
    occupied (that is how the distance to a piece is measured). Nexus hexes are never
    reached. ``taken``: the occupied hexes in reading order. The result is cached: never
    change it (:func:`distances` hands out a copy)."""
    occupied = set(taken).__contains__
    out = {start: 0}
    frontier = [start]
    d = 0
    while frontier:
        d += 1
        nxt: list[str] = []
        for h in frontier:
            if h != start and occupied(h):
                continue  # one may end on an occupied hex, never pass through it
            for n in _NEIGHBOURS[h]:
                if n in out or not passable(n):
                    continue
                out[n] = d
                nxt.append(n)
        frontier = nxt
    return out


def clockwise_sorted(origin: str, hexes: Iterable[str]) -> list[str]:
    """``hexes`` ordered clockwise from twelve around ``origin`` (R19), exact integer
    comparison (cross products), same bearing: smaller grid distance first."""
    ox, oy = XY[origin]

    def rel(h: str) -> tuple[int, int]:
        return XY[h][0] - ox, XY[h][1] - oy

    def half(h: str) -> int:
        dx, dy = rel(h)
        return 0 if (dx > 0 or (dx == 0 and dy < 0)) else 1

    def cmp(p: str, q: str) -> int:
        hp, hq = half(p), half(q)
        if hp != hq:
            return -1 if hp < hq else 1
        (px, py), (qx, qy) = rel(p), rel(q)
        cross = px * qy - py * qx
        if cross > 0:
            return -1
        if cross < 0:
            return 1
        gp, gq = grid_distance(origin, p), grid_distance(origin, q)
        return -1 if gp < gq else (1 if gp > gq else 0)

    return sorted(hexes, key=functools.cmp_to_key(cmp))


def nearest(origin: str, candidates: Iterable[str], occupied: Callable[[str], bool]) -> str:
    """The Nearest of the candidate hexes (R108): the smallest walking distance from
    ``origin``; ties broken clockwise from twelve (R19). Unreachable candidates are left out.
    ``""`` when none is reachable."""
    dist = distances(origin, occupied)
    reach = [h for h in candidates if h in dist and h != origin]
    if not reach:
        return ""
    best = min(dist[h] for h in reach)
    return clockwise_sorted(origin, [h for h in reach if dist[h] == best])[0]
