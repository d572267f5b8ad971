"""What a screen really shows, for the UI tests: its text as the terminal gets it
(:func:`screen_text`), and whether a panel's title can be read (the colours Textual's
``get_style_at`` draws for each bordered widget's title, against what is behind it)."""

from __future__ import annotations

import io
from typing import Any

from rich.console import Console

MIN_CONTRAST = 3.0
"""WCAG's least contrast for large text and parts of a user interface."""


def screen_text(app: Any) -> str:
    """What the terminal shows now, as plain text (the app's whole output, after its line
    filters: NO_COLOR, ASCII), one line per terminal row."""
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), force_terminal=True,
                      color_system="truecolor", record=True, legacy_windows=False)
    update = app.screen._compositor.render_update(  # what export_screenshot draws
        full=True, screen_stack=app._background_screens)
    console.print(update)
    return console.export_text()


def contrast(fg: Any, bg: Any) -> float:
    """The WCAG contrast ratio of two Rich colours (1 to 21)."""
    def lum(c: Any) -> float:
        t = c.get_truecolor()
        ch = [v / 255 for v in (t.red, t.green, t.blue)]
        ch = [v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4 for v in ch]
        return 0.2126 * ch[0] + 0.7152 * ch[1] + 0.0722 * ch[2]
    hi, lo = sorted((lum(fg), lum(bg)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def panel_titles(screen: Any) -> dict[str, float]:
    """Each shown border title on ``screen`` and its lowest contrast over its letters (the
    title is drawn from the third cell of the widget's top row: ``╭─ Title``)."""
    out: dict[str, float] = {}
    for w in screen.query("*"):
        if not (w.border_title and w.display and w.region.width):
            continue
        title = str(w.border_title)
        r = w.region
        ratios = []
        for x in range(r.x + 3, min(r.x + 3 + len(title), r.right - 1)):
            style = screen.get_style_at(x, r.y)
            assert style.color is not None and style.bgcolor is not None, (title, x)
            ratios.append(contrast(style.color, style.bgcolor))
        out[title] = min(ratios, default=21.0)
    return out


def unreadable(screen: Any) -> dict[str, float]:
    """The titles of :func:`panel_titles` below :data:`MIN_CONTRAST`."""
    return {t: round(c, 2) for t, c in panel_titles(screen).items() if c < MIN_CONTRAST}
