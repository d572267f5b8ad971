"""The app a browser tab runs (``python -m wizwar_tui.web HOST:PORT --name NAME [--watch]``,
started by :mod:`net.web` with Textual's web driver, one process per tab).

It is the SSH session's app (:class:`wizwar_tui.ssh.SSHPlayerApp`: locked to one game, no
menu, no local games, files or screenshots, leaving the game ends the tab, no game log)
with the browser's words: the seat is taken back by opening the page again under the same
name.
"""

from __future__ import annotations

import sys

from textual import events

from wizwar_tui.ssh import SSHPlayerApp, session_main


class WebPlayerApp(SSHPlayerApp):
    """The app locked to one game for one browser tab (see the module docstring).

    Args:
        host, port: the game's host (a ``HostGame`` on the web server's machine).
        name: the player name (picked on the page).
        watch: watch instead of taking a seat (the game is full or dealt).
        rejoin: the page's address (the "take your seat back" hint).
        game: the ruleset's name ("": the registry's default).
    """

    VIA = "in a browser"
    TOO_SMALL_HINT = "Make the window bigger, or zoom out (Ctrl and -)."
    """The too-small notice's advice (a browser's Ctrl+Q may quit the browser itself)."""
    """How the screens say where the game is (and what is "not available in a browser")."""

    def __init__(self, host: str, port: int, name: str, watch: bool = False,
                 rejoin: str = "", game: str = "") -> None:
        hint = f"open {rejoin} again as {name}" if rejoin else ""
        super().__init__(host, port, name, watch=watch, rejoin=hint, game=game)
        self.sub_title = f"{name} in a browser"

    async def _on_app_blur(self, event: events.AppBlur) -> None:
        """The app stays focused. Textual's web driver sends a blur as the app starts, and
        the server passes the tab's own focus and blur on never (``net/web.py``: a blur
        drops the focused widget), so nothing would ever focus the app again until a key:
        meanwhile the key bar of every screen shown later (the game screen at the deal,
        for the first player, who waited in the lobby) stayed empty."""
        event.prevent_default()


def main(argv: list[str] | None = None) -> int:
    """``python -m wizwar_tui.web HOST:PORT --name NAME [--watch]``; returns the exit
    status."""
    return session_main(argv, WebPlayerApp, "wizwar-web-tab",
                        "one browser tab's app (started by wizwar host --web)",
                        "the page's address")


if __name__ == "__main__":
    sys.exit(main())
