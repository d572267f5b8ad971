"""Wizard Kings' map drawing: the layout's hexes with terrain, hexside features, cities and
standing blocks, as Rich text, from one player's view only (``core.wizardkings.game.view``).

The hexes are flat-topped, odd columns half a hex lower (``../shared/wizard-kings/maps/
FORMAT.md`` §1), drawn as in ``maps/DRAWINGS.md``: a column is 7 characters wide, a hex 4 lines
high. Inside a hex: its name and ``*N`` for a city worth N GP; its terrain (``clr for des swp
mtn``; UPPER CASE coastal; ``~~~`` sea, ``lak`` lake) and flags (``r`` river hex, ``=`` road,
``H`` henge, ``%`` shoal); then the blocks standing there. Hexside marks replace the plain
edge: ``~`` river bank, ``=`` bridge, ``^`` mountain ridge, ``P`` pass, ``W`` waterfall, ``:``
all-water hexside between two land hexes, ``%`` shoal hexside. With ``ascii_only`` every
character is ASCII; otherwise the slanted edges are the box-drawing diagonals.

Blocks stand: the viewer sees the face of his own (and allies') blocks — type and strength
(``ran3``) — and of blocks revealed in the battle being fought; of any other block only its
owner's colour and label (``#7``). A stack shows one block mark per block in the owner's
colour (``▮▮▮``, ``▮5`` for more than three); the hex's full content is
:func:`hex_lines`. The mark tells sides apart without colour too (NO_COLOR, trialWK 7): the
viewer's and his allies' blocks ``▮`` (ASCII ``#``), any other player's ``▯`` (ASCII
``x``): :func:`marks`.
"""

from __future__ import annotations

from typing import Any

from rich.style import Style
from rich.text import Text

from core.wizardkings.maps import SIDES, Board, Hex, board, neighbour

#: Owner colours by seat (block faces and marks).
OWNER = {"P1": "#5fff5f", "P2": "#ff6f5f", "P3": "#5fd7ff", "P4": "#ffd75f"}
#: Owner colour names in words (the panels, the help).
OWNER_NAME = {"P1": "green", "P2": "red", "P3": "blue", "P4": "yellow"}
#: Terrain background colours.
TERRAIN_BG = {"clear": "#2c4422", "forest": "#123a1c", "desert": "#5c4f1e", "swamp": "#23433c",
              "mountain": "#4e4036", "sea": "#14305a", "lake": "#1d4a72"}
TERRAIN_ABBR = {"clear": "clr", "forest": "for", "desert": "des", "swamp": "swp",
                "mountain": "mtn", "sea": "~~~", "lake": "lak"}
#: Highlight backgrounds: the cursor, the selected blocks' hex, where a move may end, the
#: battle hex.
CURSOR_BG = "#9a6a00"
SELECT_BG = "#5f3f8f"
REACH_BG = "#44604a"
BATTLE_BG = "#6a1f1f"
MARK_STYLE = {"~": "bold #5fafff", "=": "bold #ffd75f", "^": "bold #d7af87", "P": "bold #ffffff",
              "W": "bold #87d7ff", ":": "bold #5fafff", "%": "bold #87d7d7"}

COL_W = 7  # characters per column
ROW_H = 4  # lines per hex


def board_of(v: dict[str, Any]) -> Board:
    """The board of a view (its layout and maps)."""
    return board(v["layout"], v["maps"])


def city_gp(v: dict[str, Any]) -> dict[str, int]:
    """The GP of the cities each player holds in view ``v`` (R90, R101): a city with one
    owner's blocks is his, an empty one its map's owner's."""
    gp = {p: 0 for p in v["players"]}
    for h in board_of(v).hexes.values():
        if h.city:
            occ = {x["owner"] for x in blocks_at(v).get(h.name, [])}
            if len(occ) == 1:
                gp[next(iter(occ))] = gp.get(next(iter(occ)), 0) + h.city
            elif not occ:
                for p, ms in v.get("owners", {}).items():
                    if h.map_id in ms:
                        gp[p] = gp.get(p, 0) + h.city
    return gp


def origin(h: Hex) -> tuple[int, int]:
    """Top-left (x, y) of hex ``h``'s drawing cell on the canvas."""
    return COL_W * h.gq, ROW_H * h.gr + (2 if h.gq % 2 else 0)


def centre(h: Hex) -> tuple[int, int]:
    """The canvas (x, y) of the middle of hex ``h`` (to scroll it into sight)."""
    x, y = origin(h)
    return x + 4, y + 2


def size(b: Board) -> tuple[int, int]:
    """Width and height of the canvas of board ``b``."""
    mq = max(h.gq for h in b.hexes.values())
    mr = max(h.gr for h in b.hexes.values())
    return COL_W * (mq + 1) + 2, ROW_H * mr + 7


def global_step(b: Board, h: Hex, s: str) -> str | None:
    """The hex across side ``s`` of ``h`` in the drawing's (global) frame, or None."""
    return b.at.get(neighbour(h.gq, h.gr, s))


def side_mark(b: Board, a: str, c: str) -> str:
    """The mark of the hexside between ``a`` and ``c`` ("" when plain): FORMAT.md's features
    as DRAWINGS.md marks them."""
    sd = b.side_between(a, c)
    if sd is None:
        return ""
    ha, hc = b.hexes[a], b.hexes[c]
    if sd.waterfall:
        return "W"
    if sd.bridge:
        return "="
    if sd.water == "river":
        return "~"
    if sd.shoal:
        return "%"
    if sd.water == "all" and ha.is_land and hc.is_land:
        return ":"
    if sd.land == "pass":
        return "P"
    if sd.land == "mountain" and ha.land != "mountain" and hc.land != "mountain":
        return "^"
    return ""


def _road_set(b: Board) -> set[str]:
    out: set[str] = set()
    for sd in b.sides.values():
        if sd.road:
            out.update((sd.a, sd.b))
    return out


def type_abbr(t: str) -> str:
    """A unit type's three letters (``ranger`` -> ``ran``)."""
    return t[:3]


def blocks_at(v: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """Blocks on the map by hex (seat, label order)."""
    out: dict[str, list[dict[str, Any]]] = {}
    for _b, x in sorted(v["blocks"].items(), key=lambda kv: (int(kv[1]["owner"][1:]),
                                                            int(kv[1]["label"]))):
        if x["state"] == "map":
            out.setdefault(x["at"], []).append(x)
    return out


def block_face(x: dict[str, Any]) -> str:
    """What the viewer reads on a standing block: ``ran3`` (type, strength) when its face is
    shown to him, else ``#7`` (its label)."""
    if x.get("type"):
        return f"{type_abbr(x['type'])}{x['strength']}"
    return f"#{x['label']}"


#: The block marks: (friendly, other) in Unicode and in ASCII.
MARKS = {False: ("\u25ae", "\u25af"), True: ("#", "x")}


def friends_of(v: dict[str, Any]) -> set[str] | None:
    """The seats whose blocks are marked as the viewer's own (his, his allies'); None when
    the view has no viewer (the replay's "everyone": every block alike)."""
    me = v.get("viewer") or ""
    if not me:
        return None
    sides = v.get("sides") or {}
    mine = sides.get(me, me)
    return {p for p in v.get("players", [me]) if sides.get(p, p) == mine} | {me}


def mark_of(owner: str, friends: set[str] | None, ascii_only: bool) -> str:
    """The block mark of ``owner``'s blocks for a viewer whose side is ``friends``."""
    own, other = MARKS[ascii_only]
    return own if friends is None or owner in friends else other


def stack_cells(blocks: list[dict[str, Any]], glyph: str,
                other: str | None = None,
                friends: set[str] | None = None) -> list[tuple[str, str]]:
    """The hex's block line as (text, owner) pieces: one block alone shows its face, a stack
    one mark per block per owner (``▮▮▮``, or ``▮5`` past three). With ``other`` and
    ``friends``, blocks of seats not in ``friends`` are marked ``other`` instead."""

    def g(owner: str) -> str:
        return glyph if other is None or friends is None or owner in friends else other

    if len(blocks) == 1:
        x = blocks[0]
        return [(g(x["owner"]) + block_face(x), x["owner"])]
    owners: list[str] = []
    for x in blocks:
        if x["owner"] not in owners:
            owners.append(x["owner"])
    out: list[tuple[str, str]] = []
    for i, p in enumerate(owners):
        n = sum(1 for x in blocks if x["owner"] == p)
        m = g(p)
        out.append(((" " if i else "") + (m * n if n <= 3 else f"{m}{n}"), p))
    return out


class Canvas:
    """A grid of characters with a style per cell."""

    def __init__(self, w: int, h: int) -> None:
        self.w, self.h = w, h
        self.ch = [[" "] * w for _ in range(h)]
        self.st: list[list[str]] = [[""] * w for _ in range(h)]

    def put(self, x: int, y: int, text: str, style: str = "", bg: str = "") -> None:
        """Write ``text`` from (x, y) (clipped); ``bg`` only sets the background."""
        for i, c in enumerate(text):
            if 0 <= x + i < self.w and 0 <= y < self.h:
                self.ch[y][x + i] = c
                self.st[y][x + i] = f"{style} on {bg}".strip() if bg else style

    def text(self) -> Text:
        """The grid as Rich text (one line per row, runs of one style as one span)."""
        out = Text(no_wrap=True, overflow="crop", end="")
        for y in range(self.h):
            row, sts = self.ch[y], self.st[y]
            x = 0
            while x < self.w:
                j = x
                while j < self.w and sts[j] == sts[x]:
                    j += 1
                out.append("".join(row[x:j]), Style.parse(sts[x]) if sts[x] else None)
                x = j
            if y < self.h - 1:
                out.append("\n")
        return out


def render_map(v: dict[str, Any], cursor: str | None = None, *, ascii_only: bool = False,
               reach: set[str] | frozenset[str] = frozenset(), selected: str | None = None,
               chosen: set[str] | frozenset[str] = frozenset()) -> Text:
    """The whole map of view ``v``: ``cursor`` the hex under the cursor, ``reach`` the hexes a
    move may end in, ``selected`` the hex of the selected blocks, ``chosen`` the selected
    blocks' ids (``P1.3``: their faces drawn bright)."""
    b = board_of(v)
    if id(b) not in _ROADS_BY_BOARD:
        _ROADS_BY_BOARD[id(b)] = _road_set(b)
    roads = _ROADS_BY_BOARD[id(b)]
    w, hgt = size(b)
    cv = Canvas(w, hgt)
    slash, back = ("/", "\\") if ascii_only else ("\u2571", "\u2572")
    glyph, other = MARKS[ascii_only]
    friends = friends_of(v)
    by_hex = blocks_at(v)
    battle = (v.get("battle") or {}).get("hex", "")
    contacts = set(v.get("contacts") or {})
    edge = "#6c6c6c"
    for name in sorted(b.hexes, key=lambda n: (b.hexes[n].gr, b.hexes[n].gq)):
        h = b.hexes[name]
        x0, y0 = origin(h)
        bg = TERRAIN_BG[h.water or h.land]
        if name in reach:
            bg = REACH_BG
        if name == battle or name in contacts:
            bg = BATTLE_BG
        if name == selected:
            bg = SELECT_BG
        if name == cursor:
            bg = CURSOR_BG
        # interior
        cv.put(x0 + 2, y0 + 1, " " * 5, bg=bg)
        cv.put(x0 + 1, y0 + 2, " " * 7, bg=bg)
        cv.put(x0 + 1, y0 + 3, " " * 7, bg=bg)
        label = name + (f"*{h.city}" if h.city else "")
        cv.put(x0 + 2, y0 + 1, label.center(5)[:5],
               "bold #ffffff" if h.city else "#d0d0d0", bg=bg)
        word = (TERRAIN_ABBR[h.water] if h.water else
                (TERRAIN_ABBR[h.land].upper() if h.coastal else TERRAIN_ABBR[h.land]))
        flags = ("r" if h.rivers else "") + ("=" if name in roads else "") \
            + ("H" if h.henge else "") + ("%" if h.shoal else "")
        cv.put(x0 + 1, y0 + 2, (word + flags).center(7)[:7], "#bcbcbc", bg=bg)
        here = by_hex.get(name, [])
        if here:
            cells = stack_cells(here, glyph, other, friends)
            total = sum(len(t) for t, _p in cells)
            x = x0 + 1 + max(0, (7 - total) // 2)
            left = 7
            for t, p in cells:
                t = t[:left]
                bright = any(f"{p}.{x2['label']}" in chosen for x2 in here if x2["owner"] == p)
                cv.put(x, y0 + 3, t, ("bold reverse " if bright else "bold ") + OWNER[p], bg=bg)
                x += len(t)
                left -= len(t)
        # the bottom edge belongs to this hex's cell
        cv.put(x0 + 2, y0 + 4, "_" * 5, edge, bg=bg)
    # the hexsides, each drawn from both hexes the same way; marks win
    for name in sorted(b.hexes, key=lambda n: (b.hexes[n].gr, b.hexes[n].gq)):
        h = b.hexes[name]
        x0, y0 = origin(h)
        for s in SIDES:
            other = global_step(b, h, s)
            mark = side_mark(b, name, other) if other else ""
            style = MARK_STYLE.get(mark, edge)
            if s == "n":
                if other is None:
                    cv.put(x0 + 2, y0, (mark or "_") * 5, style)
                elif mark:  # keep the hex above's background
                    for i in range(5):
                        cv.ch[y0][x0 + 2 + i] = mark
                        old = cv.st[y0][x0 + 2 + i]
                        cv.st[y0][x0 + 2 + i] = style + (" on" + old.split(" on", 1)[1]
                                                         if " on" in old else "")
            elif s == "s":
                if mark:
                    for i in range(5):
                        cv.ch[y0 + 4][x0 + 2 + i] = mark
                        old = cv.st[y0 + 4][x0 + 2 + i]
                        cv.st[y0 + 4][x0 + 2 + i] = style + (" on" + old.split(" on", 1)[1]
                                                             if " on" in old else "")
            elif s == "nw":
                cv.put(x0 + 1, y0 + 1, mark or slash, style)
                cv.put(x0, y0 + 2, mark or slash, style)
            elif s == "ne":
                cv.put(x0 + 7, y0 + 1, mark or back, style)
                cv.put(x0 + 8, y0 + 2, mark or back, style)
            elif s == "sw":
                cv.put(x0, y0 + 3, mark or back, style)
                cv.put(x0 + 1, y0 + 4, mark or back, style)
            else:  # se
                cv.put(x0 + 8, y0 + 3, mark or slash, style)
                cv.put(x0 + 7, y0 + 4, mark or slash, style)
    return cv.text()


_ROADS_BY_BOARD: dict[int, set[str]] = {}


def firing_order(v: dict[str, Any]) -> Text:
    """The battle's firing order (R56): each step's units (defenders first at each
    letter, wizards A+ first), the current step marked, units that acted dimmed."""
    from core.wizardkings.game import STEPS
    from core.wizardkings.units import ARMIES

    bt = v["battle"]
    side_of = v.get("sides", {})
    here = blocks_at(v).get(bt["hex"], [])
    t = Text()
    for i, (who, letter) in enumerate(STEPS):
        units = []
        for x in here:
            own_side = side_of.get(x["owner"], x["owner"])
            is_att = own_side == bt.get("aside", bt["attacker"])
            if (who == "A") != is_att or not x.get("type"):
                continue
            ut = ARMIES[v["armies"][x["owner"]]].get(x["type"])
            if ut is not None and ut.letter == letter:
                units.append(x)
        if not units:
            continue
        cur = i == bt["step"]
        t.append(f"\n{'>' if cur else ' '}{who}-{letter:<2} ", "bold" if cur else "dim")
        for x in units:
            acted = f"{x['owner']}.{x['label']}" in bt.get("acted", [])
            t.append(f"{block_face(x)} ",
                     f"{'dim ' if acted else 'bold ' if cur else ''}"
                     f"{OWNER.get(x['owner'], '')}")
    return t


def hex_lines(v: dict[str, Any], name: str, *, ascii_only: bool = False) -> list[Text]:
    """The full content of hex ``name`` as the viewer sees it: terrain, city, features, and
    every block standing there (face or label, moved)."""
    b = board_of(v)
    h = b.hexes[name]
    out: list[Text] = []
    head = Text(name, "bold")
    terrain = h.water or h.land
    head.append(f"  {terrain}{' (coastal)' if h.coastal else ''}")
    if h.city:
        head.append(f"  city {h.city_name} {h.city} GP", "bold")
        if h.port:
            head.append(" (port)")
    out.append(head)
    feats = []
    if h.rivers:
        feats.append("river " + ", ".join(h.rivers))
    if h.henge:
        feats.append("henge")
    if h.shoal:
        feats.append("shoal")
    if name in _ROADS_BY_BOARD.get(id(b), _road_set(b)):
        feats.append("road")
    for s in SIDES:
        other = global_step(b, h, s)
        if other is None:
            continue
        mark = side_mark(b, name, other)
        if mark:
            word = {"~": "river bank", "=": "bridge", "^": "mountain ridge", "P": "pass",
                    "W": "waterfall", ":": "water", "%": "shoal"}[mark]
            sd = b.side_between(name, other)
            if mark == "P" and sd is not None and sd.pass_name:
                word += f" {sd.pass_name}"
            feats.append(f"{word} to {other}")
    if feats:
        out.append(Text("  " + "; ".join(feats), "dim"))
    here = blocks_at(v).get(name, [])
    if not here:
        out.append(Text("  no blocks"))
    for x in here:
        line = Text("  ")
        line.append(mark_of(x["owner"], friends_of(v), ascii_only) + " ", OWNER[x["owner"]])
        line.append(f"{x['owner']} #{x['label']} ", "bold")
        if x.get("type"):
            line.append(f"{x['type']} {x['strength']}")
            if x["owner"] != v.get("viewer") and v.get("phase") != "over":
                line.append(" (revealed)", "dim")
        else:
            seen = x.get("seen")
            line.append("hidden", "italic")
            if seen:
                line.append(f" (last seen: {seen[0]} {seen[1]})", "dim")
        if x.get("moved"):
            line.append(" · moved", "dim")
        out.append(line)
    return out


def reveal_all(full: dict[str, Any], viewer: str) -> dict[str, Any]:
    """A view of the whole state ``full`` (every block's face): what a finished game's
    replay shows "seen as everyone"."""
    v = {k: x for k, x in full.items() if k not in ("seed", "forced")}
    v["viewer"] = viewer
    return v
