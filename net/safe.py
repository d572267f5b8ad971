"""Text from the network made safe to show: one place, used wherever text enters from a peer.

Every string a peer, a host or anyone on the path can write (a player or game name, the
reason of a ``refuse``, ``bye``, ``reject`` or ``desync``, a TXT value of a discovery advert)
goes through :func:`safe_text` where ``net/`` reads it, before anything shows, logs or prints
it. So a hostile peer cannot set a terminal's title, clear the screen, move the cursor, ring
the bell, reorder text with bidi controls or smear combining marks over other rows
(docs/protocol.md, "What a hostile peer can do"). Rich/Textual markup (``[bold]``) is plain
text here; the app shows network text as ``rich.text.Text`` (never parsed as markup), and
:func:`markup_safe` escapes it for a place that only takes markup.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["markup_safe", "safe_text"]

# Bidi embedding/override/isolate controls and the implicit marks. They are category Cf, which
# safe_text drops anyway; the explicit set documents the intent (Trojan Source, CVE-2021-42574).
_BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)
_DROP_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn"})
# Whole terminal escape sequences (CSI, OSC, other ESC sequences, 8-bit CSI), so that no
# "[31m"-style debris is left behind when the ESC itself is dropped.
_ESCAPES = re.compile(
    r"(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]?"  # CSI: parameters, intermediates, final byte
    r"|(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])"  # OSC, DCS, SOS, PM, APC strings...
    r"[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"  # ...up to BEL or ST
    r"|\x1b[ -/]*[0-~]?"  # any other escape sequence
)
_MAX_COMBINING = 2  # per base character: stops "Zalgo" text from smearing over other rows


def safe_text(value: object, limit: int = 40) -> str:
    """Return ``value`` as one line that is safe to show in a terminal.

    Bytes are decoded as UTF-8 with replacement characters; anything else that is not a
    string is turned into one with ``str``. Terminal escape sequences are removed whole (not
    just their ESC byte: ``"ev\\x1b]0;pwned\\x07\\x1b[2J\\x1b[31mIL"`` becomes ``"evIL"``).
    Other control characters (C0, C1, DEL), format characters (bidi overrides and isolates,
    zero-width characters), surrogates, private-use and unassigned code points are dropped;
    runs of whitespace (newlines and tabs too) become one space, none at either end; more than
    two combining marks on one character are dropped. The result is cut to ``limit``
    characters (at least 1), ending in "…" when it was cut. Never raises.
    """
    if value is None:
        return ""
    if isinstance(value, bytes | bytearray | memoryview):
        text = bytes(value).decode("utf-8", errors="replace")
    elif isinstance(value, str):
        text = value
    else:
        try:
            text = str(value)
        except Exception:  # noqa: BLE001 - hostile input never raises here
            return ""
    if text.isascii() and text.isprintable() and len(text) <= limit \
            and text == text.strip() and "  " not in text:
        return text  # the usual case, at no cost
    text = _ESCAPES.sub("", text)
    out: list[str] = []
    combining = 0
    pending_space = False
    for ch in text:
        if ch.isspace():
            pending_space = bool(out)
            continue
        if ch in _BIDI_CONTROLS:
            continue
        category = unicodedata.category(ch)
        if category in _DROP_CATEGORIES:
            continue
        if category in ("Mn", "Me"):
            combining += 1
            if combining > _MAX_COMBINING or not out:
                continue
        else:
            combining = 0
        if pending_space:
            out.append(" ")
            pending_space = False
        out.append(ch)
    result = "".join(out)
    limit = max(1, limit)
    if len(result) > limit:
        result = result[: limit - 1].rstrip() + "…"
    return result


def markup_safe(value: object, limit: int = 40) -> str:
    """:func:`safe_text`, then Rich markup escaped (``[bold]`` shows as written), for a
    widget that parses markup. Prefer showing a ``rich.text.Text``, which never parses it."""
    text = safe_text(value, limit)
    return text.replace("\\", "\\\\").replace("[", "\\[")
