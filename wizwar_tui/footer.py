"""The key footer of the app's screens: Textual's footer on as many lines as its keys need
(issue 12: at 60 columns the later keys were cut off)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from textual.app import ComposeResult
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer
from textual.widgets._footer import FooterKey


class KeysFooter(Footer):
    """The key footer on as many lines as its keys need, in columns (issue 12: at 60
    columns the later keys were cut off, so a player lost them to the width). On one line
    when they fit, as Textual's footer."""

    DEFAULT_CSS = """
    KeysFooter {
        layout: grid;
        grid-columns: auto;
        grid-gutter: 0 0;
    }
    """

    def compose(self) -> ComposeResult:
        """Textual's keys, then the columns set for the width."""
        self._keys = list(super().compose())
        self.fit_keys(self.size.width or self.app.size.width)
        yield from self._keys

    @staticmethod
    def key_width(key: Widget) -> int:
        """Columns one key takes (``" ? Help "``: the key padded, then its words)."""
        if isinstance(key, FooterKey):
            return len(key.key_display) + 2 + (len(key.description) + 1 if key.description
                                                else 0)
        return key.size.width or 1

    def fit_keys(self, width: int) -> None:
        """The most columns whose widest keys fit in ``width``, and a line per row."""
        keys = getattr(self, "_keys", [])
        widths = [self.key_width(k) for k in keys]
        cols = max(1, len(widths))
        while cols > 1:
            colw = [max(widths[i::cols]) for i in range(cols)]
            if sum(colw) <= width:
                break
            cols -= 1
        rows = max(1, -(-len(widths) // cols))
        self.styles.grid_size_columns = cols
        self.styles.height = rows

    def on_resize(self) -> None:
        """Lay the keys out again for the new width."""
        self.fit_keys(self.size.width)


def show_footer_on_top(screen: Screen[object], shown: bool) -> None:
    """Show ``screen``'s :class:`KeysFooter` only while the screen is on top: call it with
    False on ``ScreenSuspend`` and True on ``ScreenResume``. Under a dialog with a footer
    of its own, a second line of this one showed through and offered keys that the dialog
    does not take (found at 60x20, issue 12)."""
    for footer in screen.query(KeysFooter):
        footer.display = shown


class FittedFooter(Footer):
    """The key footer on one line, its keys dropped whole where the window is too narrow
    for them all: the lowest priority first (a fresh user saw ArcoMage's footer cut
    mid-word at 60x20: ``a Act``). ``priority`` names the keys' actions, most wanted
    first; a key whose action it does not name goes before any it names (the later ones
    first). The keys left keep their order; every key still works (the help lists them)."""

    def __init__(self, *args: Any, priority: Sequence[str] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.priority = tuple(priority)
        self._keys: list[Widget] = []

    def compose(self) -> ComposeResult:
        """Textual's keys, those that fit the width shown."""
        self._keys = list(super().compose())
        self.fit_keys(self.size.width or self.app.size.width)
        yield from self._keys

    def rank(self, index: int, key: Widget) -> tuple[int, int]:
        """The order keys are dropped in, the first dropped first."""
        action = key.action if isinstance(key, FooterKey) else ""
        if action in self.priority:
            return (1, -self.priority.index(action))
        return (0, -index)

    def fit_keys(self, width: int) -> None:
        """Hide the lowest-priority keys until the rest fit in ``width`` columns."""
        keys = self._keys
        for key in keys:
            key.display = True
        total = sum(KeysFooter.key_width(k) for k in keys)
        for _index, key in sorted(enumerate(keys), key=lambda ik: self.rank(*ik)):
            if total <= width:
                break
            key.display = False
            total -= KeysFooter.key_width(key)

    def on_resize(self) -> None:
        """Fit the keys to the new width."""
        self.fit_keys(self.size.width)
