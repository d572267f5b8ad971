"""ArcoMage drawn as text: the hex field in box-drawing glyphs (ASCII under ``LANG=C``), the
archmages' panels, the spellbook lines, the stack and a piece's details.

Everything here reads a *view* (``RULESET.view(state, player)``, :func:`core.arcomage.game.view`):
a dict of the state's shape with what the viewer may not know taken out. The derived values
(a creature's values through the layers, the cast ceiling, Zone of Control) come from the
rules core's own read-only functions applied to that view. Source: rules.md §2 (the field,
R8-R12), §5 (R39 the ceiling), §9 (R75 Zone of Control).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import Any

from rich.text import Text

from core.arcomage import field as fld
from core.arcomage.data import SPELLS, SUMMONS, WORKER_BUILDINGS
from core.arcomage.movement import guarded
from core.arcomage.state import ceiling, cond, form_of, stands, values, wizard_power, wizard_speed
from core.arcomage.turn import cost_of, why_cannot_cast
from wizwar_tui.arcomage.texts import CONDITION_TEXT, SPELL_TEXT

View = dict[str, Any]

#: each player's colour (16-colour names; NO_COLOR is honoured by Textual itself)
COLOURS = {"P1": "bright_cyan", "P2": "bright_yellow"}
ROMAN = ("0", "I", "II", "III", "IV", "V", "VI", "VII", "VIII")

#: the glyphs that tell the field's highlights apart without colour (NO_COLOR, 16 colours,
#: the Linux console), as Wiz-War's board does with its reach dot and target brackets:
#: ``mark`` stands after the hex name of a hex the current choice may pick (a walk's end,
#: a target), ``zoc`` fills the empty lines of a hex in an enemy's Zone of Control (R75) and
#: stands after the name of an occupied one; ``life`` is Life everywhere (field and panels).
#: Unicode glyphs are all in the Linux console's font (CP437/Latin-1).
GLYPHS = {
    False: {"mark": "♦", "zoc": "×", "life": "♥", "nexus": "░"},
    True: {"mark": ">", "zoc": "x", "life": "L", "nexus": ":"},
}

#: (up, down, left, right) -> the box glyph there
_BOX = {
    (0, 0, 1, 1): "─", (1, 1, 0, 0): "│", (0, 1, 0, 1): "┌", (0, 1, 1, 0): "┐",
    (1, 0, 0, 1): "└", (1, 0, 1, 0): "┘", (1, 1, 0, 1): "├", (1, 1, 1, 0): "┤",
    (0, 1, 1, 1): "┬", (1, 0, 1, 1): "┴", (1, 1, 1, 1): "┼", (0, 0, 1, 0): "─",
    (0, 0, 0, 1): "─", (1, 0, 0, 0): "│", (0, 1, 0, 0): "│",
}


def colour(p: str) -> str:
    """The style of player ``p``'s pieces."""
    return COLOURS.get(p, "")


def other(p: str) -> str:
    """The rival seat."""
    return "P2" if p == "P1" else "P1"


def short_name(kind: str, n: int) -> str:
    """A creature kind's name in at most ``n`` letters (``Skel``, ``StGu``)."""
    words = kind.split("-")
    if len(words) > 1 and n <= 5:
        return (words[0][:2].title() + words[1][:n - 2].title())[:n]
    return kind.replace("-", " ").title()[:n]


class FieldGeometry:
    """The text layout of the field at one size: each hex a box ``cw`` characters wide inside
    and ``ch`` lines high inside; neighbours in a row share an edge, and rows overlap by half
    a hex (R8's pointy-top drawing, to scale)."""

    def __init__(self, cw: int = 7, ch: int = 2) -> None:
        self.cw, self.ch = cw, ch
        self.step = (cw + 1) // 2  # text columns per unit of x (R9: neighbours differ by 2)
        self.width = 10 * self.step + cw + 2
        self.height = 5 * (ch + 1) + 1

    def origin(self, h: str) -> tuple[int, int]:
        """The top-left corner (column, line) of hex ``h``'s box."""
        x, y = fld.XY[h]
        return x * self.step, y * (self.ch + 1)

    def hex_at(self, col: int, line: int) -> str:
        """The hex whose inside holds text cell (col, line), or ``""``."""
        for h in fld.HEXES:
            c0, l0 = self.origin(h)
            if c0 < col <= c0 + self.cw and l0 < line <= l0 + self.ch:
                return h
        return ""


def _edges(geo: FieldGeometry) -> tuple[set[tuple[int, int]], set[tuple[int, int]]]:
    """The horizontal edge cells (line, col->col+1) and vertical ones (line->line+1, col)."""
    hor: set[tuple[int, int]] = set()
    ver: set[tuple[int, int]] = set()
    for h in fld.HEXES:
        c0, l0 = geo.origin(h)
        for c in range(c0, c0 + geo.cw + 2):
            hor.add((l0, c))
            hor.add((l0 + geo.ch + 1, c))
        for ln in range(l0, l0 + geo.ch + 2):
            ver.add((ln, c0))
            ver.add((ln, c0 + geo.cw + 1))
    return hor, ver


def hex_lines(v: View, h: str, geo: FieldGeometry, ascii_only: bool = False) -> list[Text]:
    """The inside of hex ``h``: ``geo.ch`` lines of ``geo.cw`` characters (the third
    character of the first line, after the name, is a space: :func:`render_field` puts the
    highlight's glyph there)."""
    w = geo.cw
    g = GLYPHS[ascii_only]
    out = [Text(h.ljust(w)[:w])] + [Text(" " * w) for _ in range(geo.ch - 1)]
    if h in fld.NEXUS:
        out = [Text("Nexus".center(w)[:w], "dim")] + [Text(g["nexus"] * w, "dim")
                                                      for _ in range(geo.ch - 1)]
        return out
    for p in ("P1", "P2"):
        pl = v["players"][p]
        if pl["at"] == h:
            st = colour(p) + " bold"
            line = Text(h + " ")
            line.append(("@" + p)[: w - 3], st)
            out[0] = _pad(line, w)
            form = form_of(pl)
            word = form.replace("-form", "").replace("-", " ").title() if form else "wizard"
            life = f"{g['life']}{pl['life']}"
            extra = f"{word} {life}" if w >= 10 else life
            if geo.ch >= 2:
                out[1] = _pad(Text(extra, st), w)
            if geo.ch >= 3:
                out[2] = _pad(Text(_marks(pl["conditions"]), "magenta"), w)
            return out
    for c in v["creatures"]:
        if c["at"] != h:
            continue
        val = values(v, c)
        st = colour(c["controller"])
        line = Text(h + " ")
        line.append(c["controller"], st + " bold")
        flags = ("z" if c.get("sick") else "") + ("*" if c["conditions"] else "")
        line.append(flags[: max(0, w - 5)], "magenta")
        out[0] = _pad(line, w)
        if geo.ch >= 2:
            ph = Text(short_name(val["name"], w - 4 if w < 10 else 6), st)
            ph.append(" " if w >= 10 else "")
            hstyle = "bold red" if c["damage"] else st
            ph.append(f"{val['power']}/", st)
            ph.append(f"{val['health']}", hstyle)
            out[1] = _pad(ph, w)
        if geo.ch >= 3:
            out[2] = _pad(Text(f"T{val['toughness']} S{val['speed']} "
                               + _marks(c["conditions"]), "magenta"), w)
        return out
    return out


def _marks(conds: list[dict[str, Any]]) -> str:
    """Conditions in a few letters (``Po Bu``)."""
    return " ".join(k["slug"][:2].title() for k in conds)


def _pad(t: Text, w: int) -> Text:
    t.truncate(w, overflow="crop")
    t.pad_right(w - len(t.plain))
    return t


def render_field(v: View, viewer: str, geo: FieldGeometry, *, cursor: str = "",
                 marked: Iterable[str] = (), zoc: bool = False,
                 ascii_only: bool = False) -> Text:
    """The whole field as text: every hex's box and inside; the cursor hex reversed, the
    ``marked`` hexes (where a chosen action may go) on green, and with ``zoc`` the hexes
    guarded against ``viewer``'s pieces (R75: adjacent to an enemy creature) on red.

    Each highlight has a shape too, so it is found without colour (NO_COLOR, 16 colours,
    the Linux console; :data:`GLYPHS`): a marked hex has ``♦`` (``>``) after its name and
    its inside bold and underlined; a guarded hex has ``×`` (``x``) after its name, and its
    empty lines hatched ``× × ×``; the cursor is reversed."""
    g = GLYPHS[ascii_only]
    hor, ver = _edges(geo)
    grid = [[" "] * geo.width for _ in range(geo.height)]
    for ln in range(geo.height):
        for col in range(geo.width):
            up = (ln - 1, col) in ver and (ln, col) in ver
            down = (ln, col) in ver and (ln + 1, col) in ver
            left = (ln, col - 1) in hor and (ln, col) in hor
            right = (ln, col) in hor and (ln, col + 1) in hor
            key = (int(up), int(down), int(left), int(right))
            if any(key):
                glyph = _BOX.get(key, "+")
                if ascii_only:
                    glyph = "-" if glyph == "─" else "|" if glyph == "│" else "+"
                grid[ln][col] = glyph
    marked_set = set(marked)
    guard = {h for h in fld.HEXES if fld.passable(h) and zoc and guarded(v, h, viewer)}
    insides: dict[tuple[int, int], tuple[str, int, Text]] = {}
    for h in fld.HEXES:
        c0, l0 = geo.origin(h)
        lines = hex_lines(v, h, geo, ascii_only)
        if h in marked_set or h in guard:
            lines = _highlight(lines, g["mark"] if h in marked_set else g["zoc"],
                               g["zoc"] if h in guard else "")
        for i, t in enumerate(lines):
            insides[(l0 + 1 + i, c0 + 1)] = (h, i, t)
    out = Text(no_wrap=True, overflow="crop")
    for ln in range(geo.height):
        col = 0
        while col < geo.width:
            got = insides.get((ln, col))
            if got is None:
                out.append(grid[ln][col], "grey50")
                col += 1
                continue
            h, _i, t = got
            style = ""
            if h in guard:
                style = "on dark_red"
            if h in marked_set:
                style = "bold underline on dark_green"
            if h == cursor:
                style = "reverse"
            t = t.copy()
            if style:
                t.stylize(style)
            out.append_text(t)
            col += geo.cw
        out.append("\n")
    out.rstrip()
    return out


def _highlight(lines: list[Text], badge: str, hatch: str) -> list[Text]:
    """A hex's inside ``lines`` with ``badge`` after its name (the first line's third
    character, a space); its blank lines hatched with ``hatch`` (``" × × × "``), or, with
    none, the first blank one carries ``badge`` in its middle (an empty hex to pick)."""
    out = []
    centred = False
    for i, t in enumerate(lines):
        t = t.copy()
        w = len(t.plain)
        if i == 0 and w > 2 and t.plain[2] == " ":
            t = t[:2] + Text(badge, "bold") + t[3:]
        elif i > 0 and not t.plain.strip():
            if hatch:
                t = Text("".join(hatch if k % 2 else " " for k in range(w)), "bold")
            elif not centred:
                t = Text(badge.center(w), "bold")
                centred = True
        out.append(t)
    return out


def piece_info(v: View, h: str) -> Text:
    """What stands on hex ``h``, all of it: a creature's owner, controller, types, Power,
    Toughness, Health, Speed, marked damage, counters, keywords and conditions; a wizard's
    Form, Speed and Power."""
    t = Text(no_wrap=False)
    t.append(f"{h}: ", "bold")
    if h in fld.NEXUS:
        t.append("the Nexus (impassable; it splits the field into the upper and lower lanes)")
        return t
    for p in ("P1", "P2"):
        pl = v["players"][p]
        if pl["at"] == h:
            t.append(f"{p}'s wizard", colour(p) + " bold")
            form = form_of(pl)
            t.append(f" · Life {pl['life']}")
            if form:
                t.append(f" · {form} (Speed {wizard_speed(pl)}, Power {wizard_power(pl)})")
            if pl["conditions"]:
                t.append(" · " + ", ".join(_cond_text(k) for k in pl["conditions"]), "magenta")
            return t
    for c in v["creatures"]:
        if c["at"] != h:
            continue
        val = values(v, c)
        t.append(val["name"].replace("-", " ").title(), colour(c["controller"]) + " bold")
        who = c["controller"] if c["owner"] == c["controller"] else \
            f"{c['controller']} (owner {c['owner']})"
        t.append(f" of {who} · {'/'.join(val['types'])} · Power {val['power']} · Toughness "
                 f"{val['toughness']} · Health {val['health']} · Speed {val['speed']}")
        if c["damage"]:
            t.append(f" · {c['damage']} damage marked", "bold red")
        if c["counters"]:
            t.append(f" · {c['counters']:+d}/{c['counters']:+d} counters")
        if val["keywords"]:
            t.append(" · " + ", ".join(val["keywords"]), "cyan")
        if c.get("sick"):
            t.append(" · summon-sick", "dim")
        if c["conditions"]:
            t.append(" · " + ", ".join(_cond_text(k) for k in c["conditions"]), "magenta")
        return t
    t.append("empty" if fld.passable(h) else "impassable", "dim")
    return t


def _cond_text(k: dict[str, Any]) -> str:
    """A condition with its counter (``poisoned 2``)."""
    n = k.get("left", k.get("n", -1))
    extra = ""
    if isinstance(n, int) and n >= 0:
        extra = f" {n}"
    if k["slug"] == "star-alignment":
        extra = f" ({k.get('stars', 0)} stars)"
    return k["slug"] + extra


def ceiling_text(pl: dict[str, Any]) -> str:
    """The cast ceiling with its parts (R39): ``IV (3+1 tower)``."""
    parts = [str(pl["int"])]
    if stands(pl, "mage-tower") and pl["workers"]["mage-tower"]:
        parts.append(f"{pl['workers']['mage-tower']} tower")
    if cond(pl, "cunning"):
        parts.append("2 cunning")
    minus = []
    if cond(pl, "feeblemind"):
        minus.append("2 feeble")
    if form_of(pl) == "stone-form":
        minus.append("2 stone")
    return f"{ROMAN[max(0, min(8, ceiling(pl)))]} ({'+'.join(parts)}" \
           f"{''.join('-' + m for m in minus)})"


def player_panel(v: View, p: str, me: str, compact: bool = False,
                 ascii_only: bool = False) -> Text:
    """One archmage's panel: Life, Mana, INT and the cast ceiling with its parts,
    Moat/Wall/Tower, the worker buildings with their workers (``Quarry 5:1w``: integrity 5,
    one worker; ``X`` destroyed), corpses, Form, conditions, the traps lying on his book
    (and the turns they were set) and how many spells he cast this turn. ``compact``: about
    three lines of 28 characters (a small window), Life as the field shows it (``♥30``,
    ASCII ``L30``: :data:`GLYPHS`)."""
    pl = v["players"][p]
    t = Text(no_wrap=False, overflow="fold")
    st = colour(p) + " bold"
    t.append(f"{p}{' (you)' if p == me else ''}", st)
    if v["active"] == p and not v["winner"] and not v.get("stopped"):
        t.append("▶", "bold")
    form = form_of(pl)

    def building(b: str, name: str) -> None:
        gone = b in pl["destroyed"]
        t.append(f"{name}{pl[b] if not gone else 'X'}", "red" if gone else "")

    if compact:
        t.append(f" {GLYPHS[ascii_only]['life']}{pl['life']}", "bold")
        t.append(f" Mana {pl['mana']} INT {pl['int']}\n")
        t.append(f"Ceil {ceiling_text(pl).replace(' tower', '')} ")
        for b, n in (("moat", "M"), ("wall", "W"), ("tower", "T")):
            building(b, n)
            t.append(" ")
        t.append("\n")
        for b, n in (("quarry", "Q"), ("mage-tower", "MT"), ("altar", "A"),
                     ("graveyard", "G")):
            building(b, n)
            t.append(f":{pl['workers'][b]} ")
        t.append(f"T:{pl['workers']['tower']} c{pl['corpses']}")
        if form:
            t.append(f"\nForm {form}", "bold")
    else:
        t.append(f" Life {pl['life']}", "bold")
        t.append(f"  Mana {pl['mana']}  INT {pl['int']}\n")
        t.append(f"Ceiling {ceiling_text(pl)}\n")
        for b in ("moat", "wall", "tower"):
            building(b, b.title() + " ")
            t.append("  ")
        t.append(f"\nWorkers: Tower {pl['workers']['tower']}\n")
        for b in WORKER_BUILDINGS:
            building(b, {"mage-tower": "MTower ", "graveyard": "Grave "}.get(b, b.title() + " "))
            t.append(f":{pl['workers'][b]}w ")
        t.append(f"\nCorpses {pl['corpses']}  Form {form or '—'}")
    if pl["conditions"]:
        t.append("\n" + ", ".join(_cond_text(k) for k in pl["conditions"]), "magenta")
    traps = [tr for tr in v["traps"] if tr["victim"] == p and tr["status"] != "sprung"]
    if traps:  # the trapper knows which spell he trapped (R97): the view holds his slugs
        turns = ", ".join(str(tr["turn"]) + (f" {tr['slug']}" if tr.get("slug", "?") != "?"
                                             else "") for tr in traps)
        whose, whom = ("your", "you") if p == me else ("his", "him")  # the viewer's own panel
        t.append(f"\ntraps on {whom} {len(traps)} (turn {turns})" if compact else
                 f"\nTraps on {whose} book: {len(traps)} (set turn {turns})", "yellow")
    if pl["cast"] and not compact:
        t.append(f"\nCast this turn: {len(pl['cast'])}", "dim")
    return t


def spell_state(v: View, p: str, slug: str) -> tuple[str, str]:
    """A book spell's state for ``p`` now, in a word and a style: ``cast`` (this turn),
    ``locked``, ``above ceiling``, ``too dear``, ``ready``; or, when the wizard cannot cast
    at all (silenced, stunned, paralyzed, asleep, a Form without casting), that word
    (``silenced``, ``animal-form``). Source: R47-R49 (the once-per-turn rule, what prevents
    casting, locks, the ceiling, the cost)."""
    pl = v["players"][p]
    spell = SPELLS[slug]
    if slug in pl["cast"]:
        return "cast", "dim"
    barred = why_cannot_cast(pl)
    if barred:  # "your wizard is silenced: ..." / "in animal-form your wizard cannot cast"
        word = barred.split(":")[0].split()[-1] if ":" in barred else barred.split()[1]
        return word, "red"
    if slug in pl["locked"]:
        return "locked", "red"
    if spell.circle > ceiling(pl):
        return "above ceiling", "dim red"
    if cost_of(pl, spell) > pl["mana"]:
        return "too dear", "yellow"
    return "ready", "green"


def book_text(v: View, p: str, me: str) -> str:
    """``p``'s whole spellbook as ``me`` sees it (both books and the Locks on them are
    public, R4/R98): per spell its Circle, name, cost for ``p`` and state for ``p`` now
    (:func:`spell_state`: cast this turn, locked, above his ceiling, too dear, ready), the
    Locks marked ``LOCKED``, ``me``'s own traps on it named (R97: the trapper knows them);
    the count of traps lying on it from the rival's side is all the victim knows."""
    pl = v["players"][p]
    whose = "Your" if p == me else f"{p}'s"
    locks = sorted(pl["locked"])
    lines = [f"{whose} spellbook: {len(pl['book'])} spells · cast ceiling {ceiling(pl)} · "
             f"mana {pl['mana']}", f"Locks: {', '.join(locks) if locks else 'none'}"]
    traps = [tr for tr in v["traps"] if tr["victim"] == p and tr["status"] != "sprung"]
    if traps:
        lines.append(f"Traps on {'your' if p == me else 'his'} book: {len(traps)}")
    lines.append("")
    order = sorted(pl["book"], key=lambda s: (SPELLS[s].circle, SPELLS[s].name))
    for slug in order:
        sp = SPELLS[slug]
        state, _ = spell_state(v, p, slug)
        if state == "cast":
            state = "cast this turn"
        marks = []
        if slug in pl["locked"] and state != "locked":  # (cast before it was locked)
            marks.append("LOCKED")
        if any(tr["victim"] == p and tr.get("slug") == slug and tr["trapper"] == me
               and tr["status"] != "sprung" for tr in v["traps"]):
            marks.append("your trap")
        cost = f"{cost_of(pl, sp)}" + ("+c" if sp.corpse_cost else "")
        line = f"{ROMAN[sp.circle]:>4} {sp.name:<22} {cost:>3}  {state}"
        lines.append(line + (f"  [{', '.join(marks)}]" if marks else ""))
    lines += ["", "(Esc closes · j/k scroll)"]
    return "\n".join(lines)


def spell_line(v: View, p: str, slug: str, castable: bool, width: int = 40) -> Text:
    """One spellbook line cut to ``width``: Circle, name, cost (``+c``: and a corpse) and
    state (``now``: the rules list a cast of it now; else why not in a word: ``done`` cast
    this turn, ``lock`` locked, ``ceil`` above the cast ceiling, ``dear`` too dear, ``later``
    not in this step, or no target). A trap the viewer set on it is marked."""
    sp = SPELLS[slug]
    pl = v["players"][p]
    state, style = spell_state(v, p, slug)
    if castable:
        state, style = "now", "bold green"
    elif v.get("stopped") or v.get("winner"):  # the game has ended: nothing is "later"
        state, style = "ended", "dim"
    else:
        state = {"ready": "later", "above ceiling": "ceil", "too dear": "dear",
                 "locked": "lock", "cast": "done"}.get(state, state)
    cost = f"{cost_of(pl, sp)}" + ("+c" if sp.corpse_cost else "")
    trapped = any(tr["victim"] == p and tr.get("slug") == slug and tr["status"] != "sprung"
                  for tr in v["traps"])
    name_w = max(6, width - 15)
    t = Text(no_wrap=True, overflow="ellipsis")
    t.append(f"{ROMAN[sp.circle]:>4}", "bold")
    t.append(" ")
    name = sp.name if len(sp.name) <= name_w else sp.name[: name_w - 1] + "…"
    t.append(name.ljust(name_w), "bold" if castable else "")
    t.append(f"{cost:>3} ")
    t.append(state, style)
    if trapped:
        t.append(" T", "bold red")
    return t


def spell_text(slug: str) -> Text:
    """A spell's whole card: name, Circle, school, cost, kind, targets and effect, and what
    each condition it gives does (a trial: "The target gains strength." said not what)."""
    sp = SPELLS[slug]
    effect, targets = SPELL_TEXT.get(slug, ("", ""))
    t = Text()
    t.append(sp.name, "bold")
    t.append(f"  ({slug})\n", "dim")
    t.append(f"Circle {ROMAN[sp.circle]} · {sp.school} · {sp.kind} · cost {sp.cost} mana")
    if sp.corpse_cost:
        t.append(f" + {sp.corpse_cost} corpse")
    t.append(f"\nTargets: {targets or 'none'}")
    if sp.keys:
        t.append(f" · arguments: {', '.join(sp.keys)}")
    if slug in SUMMONS:
        t.append(f"\nSummons: {SUMMONS[slug]}")
    t.append(f"\n\n{effect}")
    for name, (wiz, crea, lasts, given) in CONDITION_TEXT.items():
        if slug not in given:
            continue  # the conditions this spell gives, in words (spells.md §7)
        t.append(f"\n\n{name}", "bold")
        t.append(f" ({lasts}): ")
        on = [f"on a wizard: {wiz}" if wiz != "—" else "",
              f"on a creature: {crea}" if crea != "—" else ""]
        t.append("; ".join(x for x in on if x) + ".")
    return t


def ref_text(v: View, ref: str) -> str:
    """A stack target as a player reads it: a creature's internal ``#id`` (R56 follows the
    piece, not its hex) becomes its hex and name (``a4 Blade Spirit``, with ``/slug`` kept);
    a creature no longer on the field reads ``a creature now gone``; any other ref is shown
    as it is written (``P2``, ``b3``, ``P2:lightning``)."""
    if not ref.startswith("#"):
        return ref
    num, _, rest = ref[1:].partition("/")
    c = next((c for c in v["creatures"] if str(c["id"]) == num), None)
    base = f"{c['at']} {short_name(c['kind'], 40)}" if c else "a creature now gone"
    return f"{base}/{rest}" if rest else base


def refs_text(v: View, refs: Iterable[str]) -> str:
    """Several stack targets for the screen (:func:`ref_text`), comma-separated."""
    return ", ".join(ref_text(v, r) for r in refs)


def stack_text(v: View, me: str) -> Text:
    """The stack, top first, with who holds priority."""
    t = Text()
    if not v["stack"]:
        return t
    for i, e in enumerate(reversed(v["stack"])):
        sp = SPELLS.get(e["slug"])
        name = sp.name if sp else e["slug"]
        t.append("top " if i == 0 else "    ", "bold" if i == 0 else "dim")
        t.append(f"{e['caster']} ", colour(e["caster"]) + " bold")
        t.append(name)
        if e.get("targets"):
            t.append(" @" + refs_text(v, e["targets"]))
            if e.get("secret") and e["caster"] == me:  # the trapper's own trap target
                t.append(f" (your trap: {e['secret']})", "yellow")
        if e.get("args"):
            t.append(" " + " ".join(f"{k}={x}" for k, x in sorted(e["args"].items())))
        t.append("\n")
    if v["prio"]:
        t.append(f"{v['prio']} holds priority", "bold")
    return t


def target_hex(v: View, ref: str) -> str:
    """The hex a target or move reference stands for (``P2`` a wizard's hex, ``b2`` itself,
    ``b2/levitate`` the piece's hex), or ``""``."""
    base = ref.split("/")[0].split(":")[0].split(".")[0]
    if base in ("P1", "P2"):
        if ":" in ref or "." in ref:
            return ""
        return str(v["players"][base]["at"])
    return base if fld.is_hex(base) else ""


def fit_row(text: str, width: int) -> str:
    """``text`` in at most ``width`` characters for a list row: too long, its middle is cut
    (``cast shadow-st…@c5 to=d4``), never its end: the rows of one spell differ at the end
    (the ``to=`` hex, the last target), and a cut tail made them look all alike. The tail
    kept starts at a word where it can. ``width`` < 8: as it is (the list cuts it)."""
    if width < 8 or len(text) <= width:
        return text
    keep = width - 1  # room besides the "…"
    tail_n = max(keep // 2, keep - len(text.split(" ")[0]))
    tail = text[-tail_n:]
    if " " in tail[:-1]:  # start the tail at a word when the word fits
        cut = tail.index(" ")
        if len(tail) - cut - 1 >= keep // 3:
            tail = tail[cut + 1:]
    return text[: keep - len(tail)] + "…" + tail


def _cut(text: str, width: int, head: int) -> str:
    """``text`` in ``width`` characters: its first ``head`` ones, ``…`` and its end."""
    return text[:head] + "…" + text[len(text) - (width - 1 - head):]


def fit_rows(texts: list[str], width: int) -> list[str]:
    """The rows of a list, each by :func:`fit_row`; rows that would then read alike (two
    spells whose names begin alike, ``magic-lock``/``magic-trap``, before one target) are
    cut again, each group at the first place that tells them apart, end kept."""
    out = [fit_row(t, width) for t in texts]
    groups: dict[str, list[int]] = {}
    for i, t in enumerate(out):
        groups.setdefault(t, []).append(i)
    for same in groups.values():
        if len(same) < 2 or width < 8:
            continue
        # the head up to the first letter where they differ (``cast magic-l…``), else
        # the verb and the longest end, else any cut that tells them apart
        common = len(os.path.commonprefix([texts[i] for i in same]))
        first = len(texts[same[0]].split(" ")[0])
        for head in [h for h in (common + 1, first) if 0 < h < width - 1] + \
                list(range(1, width - 1)):
            cut = [_cut(texts[i], width, head) if len(texts[i]) > width else texts[i]
                   for i in same]
            if len(set(cut)) == len(cut):
                for i, c in zip(same, cut, strict=True):
                    out[i] = c
                break
    return out


def describe(a: Any) -> str:
    """An action for the action list: its notation without the actor (every listed action
    is the player's own), as it is typed on the ``:`` line (``cast raise-skeleton @a1``);
    the actor's ``P1 `` would push a target off a narrow panel (80x24)."""
    text = str(a)
    actor = getattr(a, "actor", "")
    return text[len(actor) + 1:] if actor and text.startswith(f"{actor} ") else text
