"""Pure functions from a :class:`~core.wizwar.view.View` to text: the board, info lines, cards.

Nothing here changes game state or imports Textual; the widgets call these functions with the
human's view (attributes down) and tests can call them directly.
"""

from __future__ import annotations

import re
import textwrap
from collections import deque

from rich.text import Text

from core.wizwar.board import edge_name, edge_word, parse_square, square_name
from core.wizwar.cards import BY_SLUG
from core.wizwar.state import HAND_LIMIT
from core.wizwar.view import PlayerInfo, StackInfo, View
from wizwar_tui.seats import PLAYER_COLOURS as PLAYER_COLOURS  # the shell's, shared
from wizwar_tui.seats import SEAT_STATUS as SEAT_STATUS
from wizwar_tui.seats import player_colour as player_colour
from wizwar_tui.seats import seat_status_text as seat_status_text

Square = tuple[int, int]
Edge = tuple[int, int, str]

#: Edge states that draw a line on the board.
_LINED = ("wall", "door", "door-jammed", "door-open", "boundary", "wall-of-fire",
          "illusion-wall")

_GLYPHS = {
    False: {
        "h": {"wall": "───", "boundary": "───", "door": "═══", "door-jammed": "═╪═",
              "door-open": "┈┈┈", "exit": "   ", "open": "   ", "wall-of-fire": "≈≈≈",
              "illusion-wall": "┄┄┄"},
        "v": {"wall": "│", "boundary": "│", "door": "║", "door-jammed": "╫",
              "door-open": "┊", "exit": " ", "open": " ", "wall-of-fire": "≈",
              "illusion-wall": "┆"},
        "wizard_treasure": "¤", "treasure": "¤", "bush": "♣", "stone": "███", "home": "⌂",
        "spot": "○", "floor": "·", "reach": "•", "dagger": "†", "large-rock": "●",
        "trap": "^", "target": "[]",
    },
    True: {
        "h": {"wall": "---", "boundary": "---", "door": "=D=", "door-jammed": "=X=",
              "door-open": "- -", "exit": "   ", "open": "   ", "wall-of-fire": "~~~",
              "illusion-wall": "-.-"},
        "v": {"wall": "|", "boundary": "|", "door": "D", "door-jammed": "X",
              "door-open": ":", "exit": " ", "open": " ", "wall-of-fire": "~",
              "illusion-wall": ";"},
        "wizard_treasure": "$", "treasure": "$", "bush": "#", "stone": "###", "home": "@",
        "spot": "o", "floor": ".", "reach": "*", "dagger": "!", "large-rock": "R",
        "trap": "^", "target": "[]",
    },
}
"""Board glyphs: ``False`` the Unicode set, ``True`` the ASCII-only one. Every state has a
shape of its own (never only a colour): walls ``─│``/``-|``, doors ``═║``/``=D=``, walls
of fire ``≈``/``~``, illusion walls ``┄┆``/``-.-;``; reachable empty squares ``•``/``*``
instead of the floor dot; a square holding a target of the card being aimed is drawn in
brackets ``[x]``. The ASCII home base is ``@N`` (``hN`` read as the square hN)."""

# (up, down, left, right) -> junction glyph
_JUNCTIONS = {
    (1, 1, 1, 1): "┼", (1, 1, 1, 0): "┤", (1, 1, 0, 1): "├", (1, 1, 0, 0): "│",
    (1, 0, 1, 1): "┴", (0, 1, 1, 1): "┬", (0, 0, 1, 1): "─", (1, 0, 1, 0): "┘",
    (1, 0, 0, 1): "└", (0, 1, 1, 0): "┐", (0, 1, 0, 1): "┌", (1, 0, 0, 0): "╵",
    (0, 1, 0, 0): "╷", (0, 0, 1, 0): "╴", (0, 0, 0, 1): "╶", (0, 0, 0, 0): " ",
}

MORE = "+"
"""The last character of a square holding more marks than its three cells show."""

WALL_STYLE = "#a8a8a8"
DOOR_STYLE = "bold #d7af5f"
FIRE_STYLE = "bold #ff8700"
ILLUSION_STYLE = "italic #8787af"
CURSOR_STYLE = "reverse"
REACH_BG = "on #1c3d24"
TARGET_BG = "on #4a2a00"
LABEL_STYLE = "dim"

Scale = tuple[int, int]
SMALL: Scale = (3, 1)
"""A square's inside in characters (width, rows) at the usual scale: 4x2 per square with
its grid lines, a 10x10 board 44x21."""
LARGE: Scale = (5, 2)
"""The larger scale of big terminals (issue 12: at 200x50 the board stayed small): 6x3 per
square, a 10x10 board 64x31; each square shows up to ten marks on two lines."""
SCALES: tuple[Scale, ...] = (LARGE, SMALL)
"""The scales, largest first (the game screen takes the largest that fits)."""


def board_size(view: View, scale: Scale = SMALL) -> tuple[int, int]:
    """(width, height) in characters of the board drawn by :func:`render_board` at
    ``scale``, with its row numbers and without the column letters."""
    iw, ih = scale
    lay = view.layout
    return row_label_width(view) + (iw + 1) * lay.width + 1, (ih + 1) * lay.height + 1


def _widen(glyph: str, iw: int) -> str:
    """A 3-character segment glyph drawn ``iw`` wide: ``═╪═`` -> ``══╪══``."""
    if len(glyph) == iw:
        return glyph
    k = (iw - 1) // 2
    return glyph[0] * k + glyph[1] + glyph[2] * (iw - 1 - k)


def board_glyphs(ascii_only: bool = False) -> dict:  # type: ignore[type-arg]
    """The board's glyph table of the Unicode (or ASCII-only) mode; see ``_GLYPHS``."""
    return _GLYPHS[ascii_only]


def moves_text(n: int) -> str:
    """``1 move``, ``3 moves``: the squares left to walk this turn."""
    return f"{n} move" if n == 1 else f"{n} moves"


def card_name(slug: str) -> str:
    """The printed name of a card slug, or the slug itself (``punch``, ``thornbush``...);
    ``?`` for a face not known (a networked peer's log)."""
    if not slug:
        return "?"
    cd = BY_SLUG.get(slug)
    if cd is None and slug.endswith("-tick") and slug[:-5] in BY_SLUG:
        return f"{BY_SLUG[slug[:-5]].name} tick"  # one tick of Slow Death
    return cd.name if cd else slug.replace("-", " ")


def card_title(slug: str) -> str:
    """``Fireball``; number cards as ``Number 3``."""
    cd = BY_SLUG.get(slug)
    if cd is not None and cd.kind == "number":
        return f"Number {cd.name}"
    return card_name(slug)


def seat_digit(seat: str) -> str:
    """``"P2" -> "2"``."""
    return seat[1:] if seat.startswith("P") else seat[:1]


def passable(view: View, e: Edge) -> bool:
    """True when a wizard may cross edge key ``e`` now (open, or a door picked open)."""
    return e not in view.edges or e in view.open_doors


def reachable(view: View, seat: str | None = None) -> dict[Square, tuple[Square, ...]]:
    """Squares ``seat`` (default the viewer) can walk to now, each with a shortest path.

    BFS over the layout's neighbours through open edges (or doors picked open this turn), up
    to ``view.moves_left`` steps, never into a stone block, and never through a thornbush (it
    may only be the last square of a path). Empty unless it is the seat's own turn.
    """
    seat = seat or view.viewer
    try:
        me = view.player(seat)
    except KeyError:
        return {}
    if (me.at is None or not me.alive or me.out or view.active != seat or view.stack
            or view.discarding or seat not in view.to_move or view.picked_up):
        return {}
    start = me.at
    stones = set(view.stones)
    paths: dict[Square, tuple[Square, ...]] = {start: ()}
    queue: deque[Square] = deque([start])
    while queue:
        sq = queue.popleft()
        path = paths[sq]
        if len(path) >= view.moves_left:
            continue
        if sq != start and sq in view.bushes:
            continue
        for side in "nesw":
            nb = view.layout.neighbor(sq, side)
            if nb is None:
                continue
            nsq, e = nb
            if nsq in paths or nsq in stones or not passable(view, e):
                continue
            paths[nsq] = (*path, nsq)
            queue.append(nsq)
    del paths[start]
    return paths


def edge_state(view: View, sq: Square, side: str) -> str:
    """What lies on ``side`` of ``sq``: wall, door, door-jammed, door-open, open, exit,
    boundary (an unlinked rim with no wall), or "" when the square does not exist."""
    lay = view.layout
    if not lay.has_square(sq):
        return ""
    e = lay.edge_key(sq, side)
    if e in view.open_doors:
        return "door-open"
    if e in view.edges:
        return view.edges[e][0]
    nb = lay.neighbor(sq, side)
    if nb is None:
        return "boundary"
    dx, dy = {"n": (0, -1), "e": (1, 0), "s": (0, 1), "w": (-1, 0)}[side]
    if not lay.has_square((sq[0] + dx, sq[1] + dy)):
        return "exit"
    return "open"


def _hseg(view: View, c: int, r: int) -> str:
    """State of the horizontal grid segment above row ``r`` at column ``c``."""
    lay = view.layout
    if lay.has_square((c, r)):
        return edge_state(view, (c, r), "n")
    if lay.has_square((c, r - 1)):
        return edge_state(view, (c, r - 1), "s")
    return ""


def _vseg(view: View, c: int, r: int) -> str:
    """State of the vertical grid segment left of column ``c`` at row ``r``."""
    lay = view.layout
    if lay.has_square((c, r)):
        return edge_state(view, (c, r), "w")
    if lay.has_square((c - 1, r)):
        return edge_state(view, (c - 1, r), "e")
    return ""


def _seg_style(state: str) -> str:
    if state.startswith("door"):
        return DOOR_STYLE
    if state == "wall-of-fire":
        return FIRE_STYLE
    if state == "illusion-wall":
        return ILLUSION_STYLE
    return WALL_STYLE


def square_marks(view: View, sq: Square, ascii_only: bool = False) -> list[tuple[str, str]]:
    """The marks drawn inside one square, most important first, as (text, style) pairs."""
    g = _GLYPHS[ascii_only]
    marks: list[tuple[str, str]] = []
    if sq in view.stones:
        return [(g["stone"], "#808080")]
    for p in view.players:
        if p.at == sq and p.alive and not p.out:
            col = player_colour(p.seat)
            marks.append((seat_digit(p.seat), f"bold {col}"))
            if p.carrying:
                owner = p.carrying.split(".")[0]
                marks.append((g["wizard_treasure"], f"bold {player_colour(owner)}"))
    if sq in view.bushes:
        marks.append((g["bush"], "bold green"))
    for tok in view.tokens.get(sq, ()):
        if ".t" in tok:
            owner = tok.split(".")[0]
            marks.append((g["treasure"] + seat_digit(owner), f"bold {player_colour(owner)}"))
        elif tok == "thornbush":
            if sq not in view.bushes:
                marks.append((g["bush"], "bold green"))
        else:
            marks.append((g.get(tok, tok[:1].upper()), "bold white"))
    if not marks:
        for p in view.players:
            if p.home == sq:
                marks.append((g["home"] + seat_digit(p.seat), player_colour(p.seat)))
        for i, spots in enumerate(view.layout.treasure_spots):
            if sq in spots and i < len(view.players):
                marks.append((g["spot"], f"dim {player_colour(view.players[i].seat)}"))
    if not marks:
        marks.append((g["floor"], "#4e4e4e"))
    return marks


def _cell(view: View, sq: Square, ascii_only: bool, reach: bool = False,
          target: bool = False) -> list[tuple[str, str]]:
    """Exactly three characters of (char, style) for one square, centred.

    ``reach``: an empty square the viewer can walk to shows the reach dot instead of the
    floor dot; ``target``: a one-character mark is put in brackets ``[x]``, a longer one
    keeps the opening bracket ``[`` in the first cell (shapes, not only colours, tell the
    highlights apart: NO_COLOR and 16-colour terminals). A wizard and the treasure he
    carries are one group: a square shows whole groups in at most two cells, so two
    groups never run together (``2$3`` would read as P2 carrying P3's treasure) nor into
    the side glyph next to the square; groups that do not fit end in :data:`MORE`
    (``+``): the line under the board (:func:`square_info`) names everything on the
    square."""
    g = _GLYPHS[ascii_only]
    groups: list[list[tuple[str, str]]] = []
    for text, style in square_marks(view, sq, ascii_only):
        if reach and text == g["floor"]:
            text, style = g["reach"], "bold #87d787"
        chars = [(ch, style) for ch in text]
        if text == g["wizard_treasure"] and style.startswith("bold ") and groups \
                and len(groups[-1]) == 1 and groups[-1][0][0].isdigit():
            groups[-1].extend(chars)  # the treasure a wizard carries goes with him
        else:
            groups.append(chars)
    return _fit_groups(groups, g["target"] if target else "")


def _fit_groups(groups: list[list[tuple[str, str]]], brackets: str) -> list[tuple[str, str]]:
    """Three cells from mark ``groups`` (see :func:`_cell`); ``brackets`` is ``"[]"`` for a
    target, else empty."""
    if len(groups) == 1 and len(groups[0]) == 3 and not brackets:
        return list(groups[0])  # the stone block fills its square
    if brackets and len(groups) == 1 and len(groups[0]) == 1:
        return [(brackets[0], "bold"), groups[0][0], (brackets[1], "bold")]

    def take(room: int) -> list[tuple[str, str]]:
        out: list[tuple[str, str]] = []
        for grp in groups:
            if len(out) + len(grp) > room:
                break
            out.extend(grp)
        return out

    shown = take(2)
    if sum(len(grp) for grp in groups) > len(shown):  # some hidden: room for the MORE
        shown = (take(1) or groups[0][:1]) + [(MORE, "bold reverse")]
        if len(groups[0]) == 2 and not brackets:
            shown = [*groups[0], (MORE, "bold reverse")]
    if brackets:
        shown = [(brackets[0], "bold"), *shown[:2]]
    elif len(shown) == 1:
        shown = [(" ", ""), shown[0]]
    while len(shown) < 3:
        shown.append((" ", ""))
    return shown


def _cell_rows(view: View, sq: Square, ascii_only: bool, reach: bool, target: bool,
               scale: Scale) -> list[list[tuple[str, str]]]:
    """The inside of one square at ``scale``: ``ih`` rows of ``iw`` (char, style). At
    :data:`SMALL` the three cells of :func:`_cell`; larger, the same mark groups (a wizard
    with what he carries) on up to ``ih`` centred lines, a space between groups, a target in
    brackets on the first line, :data:`MORE` when some still do not fit."""
    iw, ih = scale
    if scale == SMALL:
        return [_cell(view, sq, ascii_only, reach, target)]
    g = _GLYPHS[ascii_only]
    marks = square_marks(view, sq, ascii_only)
    if len(marks) == 1 and marks[0][0] == g["stone"] and not target:
        ch, style = marks[0][0][0], marks[0][1]
        return [[(ch, style)] * iw for _ in range(ih)]
    groups: list[list[tuple[str, str]]] = []
    for text, style in marks:
        if reach and text == g["floor"]:
            text, style = g["reach"], "bold #87d787"
        chars = [(ch, style) for ch in text]
        if text == g["wizard_treasure"] and style.startswith("bold ") and groups \
                and len(groups[-1]) == 1 and groups[-1][0][0].isdigit():
            groups[-1].extend(chars)
        else:
            groups.append(chars)
    widths = [iw - 2 if target and i == 0 else iw for i in range(ih)]
    rows: list[list[tuple[str, str]]] = [[] for _ in range(ih)]
    pending = list(groups)
    for i, w in enumerate(widths):
        last = i == ih - 1
        while pending:
            need = len(pending[0]) + (1 if rows[i] else 0)
            room = w - (1 if last and len(pending) > 1 else 0)  # keep a cell for MORE
            if len(rows[i]) + need > room:
                break
            if rows[i]:
                rows[i].append((" ", ""))
            rows[i].extend(pending.pop(0))
        if last and pending:
            rows[i] = rows[i][:w - 1] + [(MORE, "bold reverse")]
    out = []
    for i, (row, w) in enumerate(zip(rows, widths, strict=True)):
        pad = (w - len(row)) // 2
        line = [(" ", "")] * pad + row + [(" ", "")] * (w - len(row) - pad)
        if target and i == 0:
            line = [(g["target"][0], "bold"), *line, (g["target"][1], "bold")]
        out.append(line)
    return out


def column_name(col: int) -> str:
    """The letters of column ``col`` in square names: ``0 -> "a"``, ``26 -> "aa"``."""
    return square_name((col, 0))[:-1]


def row_label_width(view: View) -> int:
    """Columns taken on the left of the board by the row numbers (and one space)."""
    return len(str(view.layout.height)) + 1


def column_labels(view: View, scale: Scale = SMALL) -> Text:
    """The column letters, each above the centre of its squares (for a board drawn with
    row numbers at ``scale``, see :func:`render_board`)."""
    lay = view.layout
    iw = scale[0]
    chars = [" "] * board_size(view, scale)[0]
    for c in range(lay.width):
        name = column_name(c)
        start = row_label_width(view) + (iw + 1) * c + 1 + iw // 2 - (len(name) - 1) // 2
        for i, ch in enumerate(name):
            if start + i < len(chars):
                chars[start + i] = ch
    return Text("".join(chars).rstrip(), LABEL_STYLE, no_wrap=True, overflow="crop")


def render_board(
    view: View,
    cursor: Square | None = None,
    reach: dict[Square, tuple[Square, ...]] | None = None,
    targets: set[Square] | None = None,
    ascii_only: bool = False,
    coords: bool = True,
    header: bool = True,
    scale: Scale = SMALL,
    rim_labels: bool = False,
) -> Text:
    """The board as Rich text: at ``scale`` (width, rows) inside each square plus the grid
    lines (4 columns x 2 rows per square at :data:`SMALL`, 6 x 3 at :data:`LARGE`).

    ``cursor`` is drawn reversed; ``reach`` squares get a green background and ``targets``
    (squares holding a legal target of the card being played) an amber one. With
    ``coords`` the row numbers are drawn on the left (dim, level with the square centres)
    and, with ``header`` too, the column letters on a first line (the app draws those in a
    separate ruler so they stay visible while the board scrolls). ``rim_labels`` puts the
    column letters in the board's top rim instead (a line saved where the board just fits:
    80x24, issue 12).
    """
    lay = view.layout
    g = _GLYPHS[ascii_only]
    iw, ih = scale
    reach = reach or {}
    targets = targets or set()
    out = Text(no_wrap=True, overflow="crop")
    if coords and header:
        out.append_text(column_labels(view, scale))
        out.append("\n")
    width = row_label_width(view)
    letters = {}
    if rim_labels:
        for c in range(lay.width):
            name = column_name(c)
            at = iw // 2 - (len(name) - 1) // 2
            letters[c] = (at, name)
    for y in range((ih + 1) * lay.height + 1):
        if y:
            out.append("\n")
        r, k = divmod(y, ih + 1)
        if coords:
            label = str(r + 1) if k == 1 else ""
            out.append(f"{label:>{width - 1}} ", LABEL_STYLE)
        if k == 0:  # a line of horizontal segments and junctions
            for c in range(lay.width + 1):
                up = _vseg(view, c, r - 1) if r > 0 else ""
                down = _vseg(view, c, r) if r < lay.height else ""
                left = _hseg(view, c - 1, r) if c > 0 else ""
                right = _hseg(view, c, r) if c < lay.width else ""
                key = tuple(int(s in _LINED) for s in (up, down, left, right))
                ch = _JUNCTIONS[key]  # type: ignore[index]
                if ascii_only and ch != " ":
                    ch = "+" if sum(key) >= 2 and key not in ((1, 1, 0, 0), (0, 0, 1, 1)) \
                        else ("|" if key[0] or key[1] else "-")
                out.append(ch, WALL_STYLE)
                if c < lay.width:
                    st = _hseg(view, c, r)
                    seg = _widen(g["h"].get(st, "   ") if st else "   ", iw)
                    if y == 0 and c in letters:
                        at, name = letters[c]
                        out.append(seg[:at], _seg_style(st))
                        out.append(name, f"bold {LABEL_STYLE}")
                        out.append(seg[at + len(name):], _seg_style(st))
                    else:
                        out.append(seg, _seg_style(st))
        else:
            for c in range(lay.width + 1):
                st = _vseg(view, c, r)
                out.append(g["v"].get(st, " ") if st else " ", _seg_style(st))
                if c < lay.width:
                    sq = (c, r)
                    if not lay.has_square(sq):
                        out.append(" " * iw)
                        continue
                    bg = ""
                    if sq in targets:
                        bg = TARGET_BG
                    elif sq in reach:
                        bg = REACH_BG
                    rows = _cell_rows(view, sq, ascii_only, sq in reach, sq in targets, scale)
                    for ch, style in rows[k - 1]:
                        s = f"{style} {bg}".strip()
                        if sq == cursor:
                            s = f"{s} {CURSOR_STYLE}".strip()
                        out.append(ch, s)
    return out


def thing_name(text: str) -> str:
    """A token or carried thing in words: ``P2.t1`` -> ``P2's treasure 1``, a card's slug
    -> its name (``dagger`` -> ``Dagger``)."""
    seat, dot, n = text.partition(".t")
    if dot and seat[:1] == "P" and seat[1:].isdigit() and n.isdigit():
        return f"{seat}'s treasure {n}"
    return card_name(text)


def square_info(view: View, sq: Square, reach: dict[Square, tuple[Square, ...]]) -> str:
    """About the square under the cursor: its name, every wizard (with what he carries),
    home base and treasure circle on it, everything on its floor, the thornbush or stone
    block, its sides; ``walk N`` when reachable. Every piece the board draws (and those a
    crowded square's ``+`` hides) is named here."""
    lay = view.layout
    if not lay.has_square(sq):
        return f"{square_name(sq)}: no square here"
    parts = [square_name(sq)]
    for p in view.players:
        if p.at == sq and p.alive and not p.out:
            extra = f", carrying {thing_name(p.carrying)}" if p.carrying else ""
            parts.append(f"wizard {p.seat} (life {p.life}{extra})")
        if p.home == sq:
            parts.append(f"{p.seat}'s home base")
    for i, spots in enumerate(lay.treasure_spots):
        if sq in spots and i < len(view.players):
            parts.append(f"{view.players[i].seat}'s treasure circle")
    floor = [thing_name(tok) for tok in view.tokens.get(sq, ())
             if not (tok == "thornbush" and sq in view.bushes)]
    if floor:
        parts.append("on the floor: " + ", ".join(floor))
    if sq in view.bushes:
        parts.append(f"thornbush ({view.bushes[sq]} hp)")
    if sq in view.stones:
        parts.append("stone block")
    sides = []
    for side, e in lay.edges_of(sq):
        st = edge_state(view, sq, side)
        if st in ("open",):
            continue
        hp = f" {view.edges[e][1]}hp" if e in view.edges and st != "wall-of-fire" else ""
        label = {"exit": "open exit", "boundary": "edge"}.get(st, st).replace("-", " ")
        made = " (Create Wall)" if edge_card(view, e) == "create-wall" else ""
        sides.append(f"{side}:{label}{hp}{made}")
    parts.append("sides " + (", ".join(sides) if sides else "all open"))
    if sq in reach:
        parts.append(f"walk {len(reach[sq])}")
    return " · ".join(parts)


def fit_lines(text: str, width: int, lines: int) -> str:
    """``text`` (parts joined by `` · ``) wrapped in ``lines`` lines of ``width`` cells; if
    it does not fit, cut at a part boundary and ended with ``(+N more)`` (N parts not
    shown; ASCII-safe, unlike an ellipsis that ASCII mode draws as a full stop), so a cut is
    never silent (``s`` on the game screen shows the whole text). ``width`` <= 0: the text as it is."""
    if width <= 0 or lines <= 0:
        return text
    if len(textwrap.wrap(text, width)) <= lines:
        return text
    parts = text.split(" · ")
    for keep in range(len(parts) - 1, 0, -1):
        cut = " · ".join(parts[:keep]) + f" (+{len(parts) - keep} more)"
        if len(textwrap.wrap(cut, width)) <= lines:
            return cut
    flat = textwrap.wrap(text, width)
    return "\n".join([*flat[:lines - 1], flat[lines - 1][:max(0, width - 3)] + "..."])


def edge_card(view: View, e: Edge) -> str:
    """The card that made what stands on edge ``e``: ``create-wall`` for a wall the board
    does not print, ``wall-of-fire``, ``illusion-wall``; "" for printed walls and doors."""
    kind = view.edges.get(e, ("", 0))[0]
    if kind in ("wall-of-fire", "illusion-wall"):
        return kind
    if kind == "wall" and view.layout.printed.get(e) != "wall":
        return "create-wall"
    return ""


CardRef = tuple[str, str, str]
"""One card a player can read about: (group, slug, note), e.g. ``("Your hand", "fireball",
"card 3")``."""


def cards_in_sight(view: View, at: Square | None = None) -> list[CardRef]:
    """Every card the viewer can read about now, grouped: his hand, the open stack (the
    attack and its answers), what stands on square ``at`` or its sides (objects, thornbush,
    stone block, created walls), every player's displayed cards and conditions, and the
    top of the discard pile. Only public facts and the viewer's own hand (the view)."""
    out: list[CardRef] = []
    for i, slug in enumerate(view.hand):
        if slug:
            out.append(("Your hand", slug, f"card {i + 1}"))
    for win in view.stack:
        if win.source in BY_SLUG:
            who = win.attacker if win.kind != "indirect" else win.defender
            out.append(("Stack", win.source, f"{who} · {win.value}"))
        for c in win.counters:
            if c.card in BY_SLUG:
                out.append(("Stack", c.card, f"{c.player} answers"))
    if at is not None and view.layout.has_square(at):
        where = f"At {square_name(at)}"
        for tok in view.tokens.get(at, ()):
            if tok == "thornbush" and at in view.bushes:
                out.append((where, tok, f"{view.bushes[at]} hp"))
            elif tok in BY_SLUG:
                out.append((where, tok, "on the floor"))
        if at in view.bushes and "thornbush" not in view.tokens.get(at, ()):
            out.append((where, "thornbush", f"{view.bushes[at]} hp"))
        if at in view.stones:
            out.append((where, "fill-square-with-stone", "stone block"))
        for side, e in view.layout.edges_of(at):
            slug = edge_card(view, e)
            if slug:
                out.append((where, slug, f"{side} side"))
        for p in view.players:
            if p.at == at and p.carrying and p.carrying in BY_SLUG:
                out.append((where, p.carrying, f"carried by {p.seat}"))
    for p in view.players:
        for slug in p.displayed:
            if slug in BY_SLUG:
                out.append(("Displayed", slug, p.seat))
        for slug, caster, turns in p.durations or tuple((c, "", 0) for c in p.conditions):
            if slug in BY_SLUG:  # with how long it lasts (cards.md §1.6)
                left = condition_text(slug, caster, turns).split(": ", 1)[-1] if caster \
                    else ""
                out.append(("On wizards", slug, f"{p.seat} · {left}" if left else p.seat))
    if view.discard and view.discard[-1] in BY_SLUG:
        out.append(("Discard pile", view.discard[-1], "top card"))
    return out


def edge_label(view: View, e: Edge) -> str:
    """``c3:e wall 20hp``, ``c3:e jammed door 10hp`` (the kind in words)."""
    return f"{edge_name(e)} {edge_kind(view, e)}"


def edge_kind(view: View, e: Edge) -> str:
    """What is on side ``e``, without its name: ``wall 20hp``, ``open``."""
    kind, hp = view.edges.get(e, ("open", 0))
    return edge_word(kind) + (f" {hp}hp" if e in view.edges else "")


TEAMS = (("P1", "P3"), ("P2", "P4"))
"""The team variant's sides (4 players): P1+P3 against P2+P4. Source: rulebook, Team Play
Option ("the 1st and 3rd are one team, the 2nd and 4th the other")."""


def team_of(seat: str) -> str:
    """``"A"`` for P1/P3, ``"B"`` for P2/P4 (the team variant), "" for other seats."""
    for name, seats in zip("AB", TEAMS, strict=True):
        if seat in seats:
            return name
    return ""


def teams_text() -> str:
    """``team A: P1+P3 · team B: P2+P4``."""
    return " · ".join(f"team {name}: {'+'.join(seats)}"
                      for name, seats in zip("AB", TEAMS, strict=True))


def player_line(view: View, p: PlayerInfo, status: str | None = None,
                you: str = "(you)", ascii_only: bool = False, team: bool = False,
                width: int = 0) -> Text:
    """One line of the players panel; in a LAN game (``status`` given) the player's name
    and the seat's connection state follow the seat. ``you`` marks the viewer's seat;
    ``team`` (the team variant) puts the team letter after the seat; ``ascii_only`` draws
    ``>`` and ``hp`` for the turn mark and the heart.

    ``width`` (0: no limit) is the room of the line: what does not fit is said shorter,
    never cut inside a word: the carried treasure by its owner only (``¤P4's``), then the
    displayed cards from the last as a count (``[Powerstone,+2]``, ``[3 displayed]``,
    ``[+3]``); fields that still do not fit are left off whole behind ``…`` (issue 12:
    "Soulston/e]" at 80x24)."""
    col = player_colour(p.seat)
    head = Text()
    turn = (">" if ascii_only else "▶") if view.active == p.seat else " "
    head.append(turn, "bold")
    head.append(f"{p.seat}", f"bold {col}")
    if team:
        head.append(f"/{team_of(p.seat)}", col)
    mark = you if p.seat == view.viewer else ""
    head.append(f"{mark:<{max(6, len(you) + 1)}}")  # a space after the mark on every row
    fields: list[Text] = []
    if status is not None:
        # a bot seat's name "bot P2" says only what its status ("bot") and seat say: it
        # read "P2 bot P2 bot" (issue 12)
        name = p.name if p.name and p.name.replace(status, "").strip() not in ("", p.seat) \
            else ""
        if name:
            fields.append(Text(name[:10], col))
        fields.append(seat_status_text(status))
    if p.out or not p.alive:
        fields.append(Text("dead" if not p.alive else "out", "bold red"))
    else:
        fields.append(Text(f"{'hp' if ascii_only else '♥'}{p.life:>2}", "bold"))
    fields.append(Text(f"hand {p.hand_size}"))
    sign = "$" if ascii_only else "¤"
    carry_style = player_colour(p.carrying.split(".")[0]) if p.carrying else ""
    carry = [f"{sign}{thing_name(p.carrying)}"] if p.carrying else []
    if carry and ".t" in p.carrying:
        carry.append(f"{sign}{p.carrying.split('.')[0]}'s")  # the owner only
    names = [card_name(c) for c in p.displayed]
    shown = [f"[{','.join(names)}]"] if names else []
    for keep in range(len(names) - 1, 0, -1):
        shown.append(f"[{','.join(names[:keep])},+{len(names) - keep}]")
    if names:
        shown += [f"[{len(names)} displayed]", f"[+{len(names)}]"]

    def assemble(c: int, d: int) -> Text:
        t = head.copy()
        parts = [*fields]
        if carry:
            parts.append(Text(carry[c], carry_style))
        if shown:
            parts.append(Text(shown[d], "dim"))
        for i, part in enumerate(parts):
            t.append(" " if i else "")
            t.append_text(part)
        return t

    full = assemble(0, 0)
    if not width or full.cell_len <= width:
        return full
    short = max(len(carry) - 1, 0)
    for d in range(len(shown) or 1):  # the treasure shorter first, then the displayed cards
        t = assemble(short, d)
        if t.cell_len <= width:
            return t
    t = head.copy()  # still too long: whole fields while they fit, then a sign
    ell = "..." if ascii_only else "…"
    parts = [*fields, *([Text(carry[-1], carry_style)] if carry else []),
             *([Text(shown[-1], "dim")] if shown else [])]
    for i, part in enumerate(parts):
        room = width - t.cell_len - (1 if i else 0) - part.cell_len
        if room < (0 if i == len(parts) - 1 else len(ell) + 1):
            t.append((" " if i else "") + ell, "dim")
            return t
        t.append(" " if i else "")
        t.append_text(part)
    return t


def turns_text(n: int) -> str:
    """``1 turn``, ``2 turns``."""
    return f"{n} turn" if n == 1 else f"{n} turns"


def condition_text(slug: str, caster: str, turns: int) -> str:
    """One effect on a wizard with how long it lasts (cards.md §1.6: it ends at the start of
    one of its caster's turns once N of the recipient's turns have begun; ``turns`` is how
    many more must begin, -1 permanent): ``Lock In Place: 2 more turns``, ``Lock In Place:
    ends when P2's turn begins``, ``Slow Death: permanent``."""
    name = card_name(slug)
    if turns < 0:
        return f"{name}: permanent"
    if turns == 0:
        return f"{name}: ends when {caster}'s turn begins"
    return f"{name}: {turns} more {'turn' if turns == 1 else 'turns'}"


def effects_line(p: PlayerInfo, width: int = 0, ascii_only: bool = False) -> Text | None:
    """The second line of a player in the players panel: his lost turns and every effect on
    him with its remaining count (None when there is none). ``width`` (0: no limit): the
    effects after the first that do not fit are left off whole behind ``…`` (``...`` when
    ``ascii_only``). A wizard who is dead or out gets none: no turn of his begins again, so a
    count of turns left would never run down (the line beside him already says ``dead``/``out``).
    Source: cards.md §1.6, §1.7; rulebook, Death ("out of the game")."""
    if p.out or not p.alive:
        return None
    parts: list[tuple[str, str]] = []
    if p.lost_turns:
        parts.append((f"loses his next {turns_text(p.lost_turns)}"
                      if p.lost_turns > 1 else "loses his next turn", "yellow"))
    durations = p.durations or tuple((c, "", 0) for c in p.conditions)
    for slug, caster, turns in durations:
        parts.append((condition_text(slug, caster, turns), "italic"))
    if not parts:
        return None
    ell = "..." if ascii_only else "…"
    t = Text("   ")
    for i, (text, style) in enumerate(parts):
        sep = " · " if i else ""
        last = i == len(parts) - 1
        if i and width and t.cell_len + len(sep) + len(text) + (0 if last else 2) > width:
            t.append(" " + ell, "dim")  # the first effect alone: the panel's own "…" cuts it
            break
        if i:
            t.append(sep, "dim")
        t.append(text, style)
    return t


def hand_limit(p: PlayerInfo) -> int:
    """The most cards ``p`` may keep: 7, or 9 with a displayed Brainstone."""
    return HAND_LIMIT + 2 if "brainstone" in p.displayed else HAND_LIMIT


def first_player_line(view: View) -> str:
    """Who rolled highest and moves first, from a view taken at the start of the game."""
    if view.active == view.viewer:
        return "You rolled highest and go first"
    return f"{view.active} rolled highest and goes first"


def opening_traps_line(view: View) -> str:
    """The public line for the Trap! cards the opening deal put aside, from a view taken
    before anyone acted ("" when none was dealt). At that moment the discard pile holds
    only those. Source: rulebook, Starting the Game ("If TRAP! is drawn on the deal,
    discard it and redraw"); digest, Setup."""
    n = sum(1 for face in view.discard if face == "trap")
    if not n:
        return ""
    what = "A Trap! dealt at the start was" if n == 1 else f"{n} Trap! cards dealt at the start were"
    return f"{what} discarded and replaced (rulebook) · deck {view.deck_size}"


def retreat_forcer(view: View, seat: str, frm: str) -> str:
    """Who forces ``seat``'s retreat from square ``frm``: the wizard standing there (the
    active player first: Ugly's face, Go Away's caster), else the active player."""
    try:
        at = parse_square(frm)
    except ValueError:
        return view.active
    there = [p.seat for p in view.players if p.at == at and p.seat != seat and p.alive]
    if view.active in there or not there:
        return view.active
    return there[0]


def retreat_now(view: View) -> tuple[str, str, int, str] | None:
    """The forced retreat to walk now, ``(seat, forcer, squares, from-square)``, or None
    (a retreat waits while an answer window or Telepath's choice is open: to_move)."""
    if not view.retreats or view.stack or view.choice or view.winner:
        return None
    seat, frm, n = view.retreats[0]
    return seat, retreat_forcer(view, seat, frm), n, frm


def squares_text(n: int) -> str:
    """``1 square``, ``3 squares``."""
    return f"{n} square" if n == 1 else f"{n} squares"


def turn_text(view: View, cannot_walk: str = "") -> str:
    """What the header says about the turn: whose it is and who must act now.

    ``your turn · moves left 3``; ``your turn · no step: you are locked in place`` (the
    screen passes ``cannot_walk``, the rules' reason, when no step is legal);
    ``discard down to 7 (hand 9)``; ``P2's turn · P2 is acting``; ``P2's turn · answer
    Fireball (4)``; ``P1's turn · P2 is discarding``; ``P2's turn · retreat 3 squares: P2
    forced it``; ``P1's turn · Telepath: take a card of P2's hand``...
    """
    me = view.viewer
    if view.winner:
        if view.winner == "-":  # no wizard left (victory.py)
            return "game over · nobody wins"
        return "game over · " + ("you win" if me in view.winner.split("+") else f"{view.winner} wins")
    turn = "your turn" if view.active == me else f"{view.active}'s turn"
    if view.stack:  # who acts, in the rules' order (to_move): the stack, Telepath's
        win = view.stack[0]  # choice, a forced retreat, a discard, the active player
        what = (f"{card_name(win.source)}{number_shown(win.source, win.value)}"
                f"{attack_detail(win)}")
        if win.to_answer == me:
            return f"{turn} · answer {what}"
        return f"{turn} · {win.to_answer} is answering {what}"
    if view.choice:
        chooser, target = view.choice[0], view.choice[-1]
        if chooser == me:
            return f"{turn} · Telepath: take a card of {target}'s hand"
        return f"{turn} · {chooser} is taking a card of {target}'s hand (Telepath)"
    retreat = retreat_now(view)
    if retreat is not None:
        seat, forcer, n, _frm = retreat
        by = "you" if forcer == me else forcer
        if seat == me:
            return f"{turn} · retreat {squares_text(n)}: {by} forced it"
        return f"{turn} · {seat} is retreating {squares_text(n)} from {by}"
    if view.discarding:
        p = view.player(view.discarding[0])
        if p.seat == me:
            return f"discard down to {hand_limit(p)} (hand {p.hand_size})"
        return f"{turn} · {p.seat} is discarding down to {hand_limit(p)}"
    if view.active == me:
        if cannot_walk:
            return f"your turn · no step: {cannot_walk}"
        return f"your turn · moves left {view.moves_left}"
    actor = view.to_move[0] if view.to_move else view.active
    return f"{turn} · {actor} is acting"


_SOURCE_NOTE = re.compile(r"\s*\((?:RB|FAQ|DG|digest|cards\.md)\b[^()]*\)")


def refusal_words(text: str) -> str:
    """A refusal for the short status line without the rules' source codes: ``no attacks
    in the first round (RB Combat; FAQ errata)`` -> ``no attacks in the first round``
    (issue 12: internal words; the card text still names its source, in words)."""
    return _SOURCE_NOTE.sub("", text)


def answer_keys(view: View, playable: set[str]) -> Text | None:
    """For the viewer who must answer: the cards he may answer with and their keys
    (``answer with: 1 Full Shield · 3 Blunt``), so a window too narrow for the hand panel
    still shows them; None when he has no answer to make or none to play."""
    if not view.stack or view.stack[0].to_answer != view.viewer:
        return None
    keys = [f"{i + 1} {card_name(slug)}" for i, slug in enumerate(view.hand)
            if slug in playable]
    if not keys:
        return Text("  no card to answer with: pass (space)", "italic")
    return Text("  answer with: " + " · ".join(keys) + " · or pass (space)", "bold")


def stack_lines(view: View, ascii_only: bool = False) -> list[Text]:
    """The open answer windows: the attack and the counteractions played on it."""
    out: list[Text] = []
    arrow = "->" if ascii_only else "↳"
    for win in view.stack:
        out.append(stack_headline(win, view.viewer))
        for c in win.counters:
            num = f" +{c.number}" if c.number is not None else ""
            note = f" ({c.note})" if c.note else ""
            out.append(Text(f"  {arrow} {c.player} played {card_name(c.card)}{num}{note}",
                            player_colour(c.player)))
        who = "you" if win.to_answer == view.viewer else win.to_answer
        out.append(Text(f"  waiting for: {who}", "bold"))
    return out


def number_shown(slug: str, value: int) -> str:
    """`` (4)`` after a card's name on the stack, or "" for a card that takes no number
    card (Slow Death's value says nothing)."""
    cd = BY_SLUG.get(slug.removesuffix("-tick"))  # a tick: its card's number use
    return "" if cd is not None and not cd.uses_number else f" ({value})"


def attack_detail(win: StackInfo) -> str:
    """What the attack fixed when it was played, in words (public): `` naming Fireball``
    (Card Erasure), `` to c4`` (Teleport Opponent), `` to drop P1's treasure 1`` (Drop
    Object); "" for the rest."""
    if not win.arg:
        return ""
    if win.source == "card-erasure":
        return f" naming {card_name(win.arg)}"
    if win.source == "teleport-opponent":
        return f" to {win.arg}"
    if win.source == "drop-object":
        return " to drop " + ", ".join(thing_name(x) for x in win.arg.split(","))
    return ""


def stack_headline(win: StackInfo, viewer: str) -> Text:
    """``P2 attacks P1 with Fireball (4)``, ``P2 attacks you with Card Erasure naming
    Fireball`` (:func:`attack_detail`)."""
    t = Text()
    if win.kind == "indirect":
        t.append(f"{card_name(win.source)} deals {win.value} to ", "bold")
        t.append(win.defender, f"bold {player_colour(win.defender)}")
        return t
    t.append(win.attacker, f"bold {player_colour(win.attacker)}")
    defender = "you" if win.defender == viewer else win.defender
    t.append(f" attacks {defender} with {card_name(win.source)}"
             f"{number_shown(win.source, win.value)}{attack_detail(win)}", "bold")
    return t


def card_summary(slug: str, width: int = 0) -> str:
    """``Fireball · attack #power`` for the hand panel: the name, the kind, and what a
    number card sets for it (``?`` for a face not known). With ``width`` the longest of
    ``Name · kind #use``, ``Name · kind`` that fits (issue 12: a cut line read
    "attack #po…"); narrower, the name is cut (``Wall Of… · neutral/counter``), then the kind
    shortened (``Wall Of F… · neu/ctr``): the kind stays, a player must see that a card
    counters (issue 12, 80 columns). Only where even that does not fit, the name alone."""
    if not slug:
        return "? (not known)"
    cd = BY_SLUG.get(slug)
    if cd is None:
        return slug
    if cd.kind == "number":
        return f"Number {cd.name}"
    kind = cd.kind.replace("counteraction", "counter")
    use = f" #{cd.number}" if cd.uses_number else ""  # what its number card sets
    for text in (f"{cd.name} · {kind}{use}", f"{cd.name} · {kind}"):
        if not width or len(text) <= width:
            return text
    short = "/".join(SHORT_KINDS.get(k, k[:4]) for k in kind.split("/"))
    for tail in (f" · {kind}", f" · {short}"):
        keep = width - len(tail) - 1  # the name's letters kept, before its "…"
        if keep >= 4:
            return f"{cd.name[:keep].rstrip()}…{tail}"
    return cd.name


#: the card kinds in three letters, for a hand line too narrow for the whole word
SHORT_KINDS = {"attack": "atk", "counter": "ctr", "neutral": "neu", "object": "obj",
               "magic stone": "stone", "trap": "trap"}
