"""The key footer of the app's screens: Textual's footer on as many lines as its keys need
(issue 12: at 60 columns the later keys were cut off)."""

from __future__ import annotations

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
