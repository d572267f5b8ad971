"""ASCII-only output: when the app draws with ASCII, and the filter that makes sure it does
(and a milder filter for the Linux console's limited fonts).

The board has its own ASCII glyphs (``render.py``, ``ascii_only``); everything else the app
draws (Textual's borders, scrollbars, footer, dialogs, our panels' dots and arrows) passes
through :class:`AsciiFilter`, which turns every non-ASCII character into an ASCII one of
the same width. So with ``--ascii`` or a non-UTF-8 locale no byte above 127 reaches the
terminal from the screen's content.
"""

from __future__ import annotations

import os
import sys
import unicodedata
from collections.abc import Mapping
from functools import lru_cache

from rich.cells import cell_len
from rich.segment import Segment
from textual.color import Color
from textual.filter import LineFilter

_TABLE = {
    "·": "|", "•": "*", "…": ".", "—": "-", "–": "-", "‘": "'", "’": "'", "“": '"',
    "”": '"', "›": ">", "‹": "<", "»": ">", "«": "<", "▶": ">", "►": ">", "▸": ">",
    "◀": "<", "◄": "<", "◂": "<", "▲": "^", "▼": "v", "▴": "^", "▾": "v", "←": "<",
    "→": ">", "↑": "^", "↓": "v", "↳": ">", "↵": "<", "♥": "*", "¤": "$", "⌂": "@",
    "○": "o", "●": "O", "♣": "#", "†": "!", "×": "x", "✓": "v", "✔": "v", "✗": "x",
    "✘": "x", "≈": "~", "°": "o", "±": "+", "\u00a0": " ", "⏎": "<", "⌫": "<",
    "−": "-", "⏱": "@",  # the minus sign (ArcoMage's ceiling parts), the clock's stopwatch
}
"""Characters with a natural ASCII look-alike (one cell each). The separator ``·`` becomes
``|``: ``.`` is the ASCII board's empty square (and ends sentences); ``⌂`` (home base)
becomes ``@``: ``h3`` would read as the square h3."""


@lru_cache(4096)
def ascii_char(ch: str) -> str:
    """The ASCII stand-in for one character, as many cells wide as ``ch`` is.

    Box drawing becomes ``- | = +``; block elements (scrollbars, half blocks) ``- | #`` or
    a blank (the lower blocks a scrollbar's thumb ends in: ``▁`` drawn as ``_`` left stray
    underscores at the edge of the help box and the log);
    accented letters lose the accent; anything else unknown becomes ``?``."""
    if ord(ch) < 128:
        return ch
    if ch in _TABLE:
        return _TABLE[ch]
    width = cell_len(ch)
    if width == 0:
        return ""
    name = unicodedata.name(ch, "")
    if name.startswith("BOX DRAWINGS"):
        words = name.split()
        horiz = "HORIZONTAL" in words or words[-1] in ("LEFT", "RIGHT")
        vert = "VERTICAL" in words or words[-1] in ("UP", "DOWN")
        corner = any(w in words for w in ("AND", "ARC", "DIAGONAL"))
        if corner or (horiz and vert):
            return "+"
        if vert:
            return "|"
        return "=" if "DOUBLE" in words else "-"
    if "BLOCK" in name:
        if "EIGHTH" in name and ("LEFT" in name or "RIGHT" in name):
            return "|"
        if name.startswith("UPPER ONE EIGHTH"):
            return "-"
        if name.startswith(("LOWER", "UPPER", "LEFT", "RIGHT")):
            return " "  # partial blocks (scrollbar ends, half-cell drawing)
        return "#"
    if name.startswith(("QUADRANT", "LIGHT SHADE", "MEDIUM SHADE", "DARK SHADE")):
        return "#"
    plain = "".join(c for c in unicodedata.normalize("NFKD", ch) if ord(c) < 128)
    if len(plain) == width:
        return plain
    return "?" * width


def to_ascii(text: str) -> str:
    """``text`` with every character replaced by :func:`ascii_char` (same cell width)."""
    if text.isascii():
        return text
    return "".join(ascii_char(ch) for ch in text)


class AsciiFilter(LineFilter):
    """A Textual line filter: every character the app draws becomes ASCII."""

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        """Each segment's text through :func:`to_ascii` (control segments untouched)."""
        return [seg if seg.control or seg.text.isascii()
                else Segment(to_ascii(seg.text), seg.style, seg.control)
                for seg in segments]


CONSOLE_SAFE = frozenset(
    bytes(range(0x80, 0x100)).decode("cp437")
    + "☺☻♥♦♣♠•◘○◙♂♀♪♫☼►◄↕‼¶§▬↨↑↓→←∟↔▲▼⌂"
    + "".join(chr(c) for c in range(0xA0, 0x100)))
"""Characters the Linux console's fonts draw: the IBM PC set (CP437) and Latin-1."""

_CONSOLE_TABLE = {
    "╭": "┌", "╮": "┐", "╰": "└", "╯": "┘", "╵": "│", "╷": "│", "╴": "─", "╶": "─",
    "┈": "·", "┊": ":", "┄": "░", "┆": "░", "▶": "►", "◀": "◄", "▔": "─", "▁": "─",
    "▏": "│", "▕": "│", "━": "─", "┃": "│",
}
"""Console stand-ins that keep the look (a door picked open ``···``, an illusion wall
``░``, round corners square)."""


@lru_cache(4096)
def console_char(ch: str) -> str:
    """``ch`` if the Linux console draws it, else a stand-in of the same width: one from
    the console's own set when there is a close one, else :func:`ascii_char`."""
    if ord(ch) < 128 or ch in CONSOLE_SAFE:
        return ch
    return _CONSOLE_TABLE.get(ch) or ascii_char(ch)


class ConsoleFilter(LineFilter):
    """A Textual line filter for ``TERM=linux``: characters its fonts lack (rounded
    corners, partial blocks, dashed lines) become ones it has (:func:`console_char`)."""

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        """Each segment's text through :func:`console_char`."""
        out = []
        for seg in segments:
            if seg.control or seg.text.isascii():
                out.append(seg)
            else:
                out.append(Segment("".join(console_char(c) for c in seg.text), seg.style,
                                   seg.control))
        return out


def _utf8_name(name: str) -> bool:
    low = name.lower().replace("-", "").replace("_", "")
    return "utf8" in low


def locale_is_utf8(environ: Mapping[str, str] | None = None,
                   coerced: bool | None = None) -> bool:
    """True when the user's locale says the terminal takes UTF-8.

    The locale is the first set of ``LC_ALL``, ``LC_CTYPE`` and ``LANG`` (as ``setlocale``
    reads them). Python replaces a C/POSIX locale by ``LC_CTYPE=C.UTF-8`` at start-up
    (PEP 538) and then runs in UTF-8 mode (PEP 540); that ``LC_CTYPE`` is Python's, not the
    user's, and is skipped (``coerced``: default, detected from ``sys.flags.utf8_mode``
    when neither ``PYTHONUTF8`` nor ``-X utf8`` asked for it). No locale at all is C.
    """
    env = os.environ if environ is None else environ
    if coerced is None:
        coerced = bool(sys.flags.utf8_mode) and "PYTHONUTF8" not in env \
            and "utf8" not in sys._xoptions
    for var in ("LC_ALL", "LC_CTYPE", "LANG"):
        value = env.get(var, "")
        if not value:
            continue
        if var == "LC_CTYPE" and coerced and value == "C.UTF-8":
            continue
        return _utf8_name(value)
    return False


def wants_ascii(environ: Mapping[str, str] | None = None, encoding: str | None = None,
                coerced: bool | None = None) -> bool:
    """Should the app draw with ASCII only? ``WIZWAR_ASCII=1``/``0`` decides if set; else
    yes when stdout's ``encoding`` is not UTF-8 or the locale is not UTF-8
    (:func:`locale_is_utf8`)."""
    env = os.environ if environ is None else environ
    forced = env.get("WIZWAR_ASCII", "").strip().lower()
    if forced in ("1", "yes", "true", "on"):
        return True
    if forced in ("0", "no", "false", "off"):
        return False
    enc = encoding if encoding is not None else (getattr(sys.stdout, "encoding", "") or "")
    if enc and not _utf8_name(enc):
        return True
    return not locale_is_utf8(env, coerced)
