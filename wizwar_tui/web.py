"""The app a browser tab runs (``python -m wizwar_tui.web HOST:PORT --name NAME [--watch]``,
started by :mod:`net.web` with Textual's web driver, one process per tab).

It is the SSH session's app (:class:`wizwar_tui.ssh.SSHPlayerApp`: locked to one game, no
menu, no local games, files or screenshots, leaving the game ends the tab, no game log)
with the browser's words: the seat is taken back by opening the page again under the same
name.
"""

from __future__ import annotations

import argparse
import sys

from net.cli import parse_target
from wizwar_tui.ssh import SSHPlayerApp


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
    """How the game screen says where the game is (``over SSH`` for an SSH session)."""

    def __init__(self, host: str, port: int, name: str, watch: bool = False,
                 rejoin: str = "", game: str = "") -> None:
        hint = f"open {rejoin} again as {name}" if rejoin else ""
        super().__init__(host, port, name, watch=watch, rejoin=hint, game=game)
        self.sub_title = f"{name} in a browser"

    def _not_here(self, *_args: object, **_kw: object) -> None:
        self.notify("Not available in the browser: only this game is.", severity="warning")

    def action_screenshot(self, filename: str | None = None, path: str | None = None) -> None:
        """No screenshots: they would be files on the server."""
        self._not_here()

    def action_suspend_process(self) -> None:
        """No suspending: nobody could resume the app."""
        self._not_here()

    start_game = _not_here  # type: ignore[assignment]
    open_saved_games = _not_here  # type: ignore[assignment]
    open_replay = _not_here  # type: ignore[assignment]
    open_host_form = _not_here  # type: ignore[assignment]
    open_join = _not_here  # type: ignore[assignment]
    host_lan = _not_here  # type: ignore[assignment]
    join_lan = _not_here  # type: ignore[assignment]


def main(argv: list[str] | None = None) -> int:
    """``python -m wizwar_tui.web HOST:PORT --name NAME [--watch]``; returns the exit
    status."""
    p = argparse.ArgumentParser(prog="wizwar-web-tab",
                                description="one browser tab's app (started by wizwar host --web)")
    p.add_argument("target", help="HOST:PORT of the game")
    p.add_argument("--name", required=True)
    p.add_argument("--watch", action="store_true")
    p.add_argument("--rejoin", default="", help="the page's address")
    p.add_argument("--game", default="", help="the game's ruleset (default: the default game)")
    args = p.parse_args(argv)
    if args.game:
        from core import registry
        from core.engine import UnknownRuleset

        try:
            args.game = registry.canonical(args.game)
        except UnknownRuleset as exc:
            p.error(str(exc))
    try:
        addr = parse_target(args.target)
    except LookupError as exc:
        p.error(str(exc))
    if addr is None:
        p.error(f"{args.target!r} is not HOST:PORT")
    app = WebPlayerApp(addr[0], addr[1], args.name, watch=args.watch, rejoin=args.rejoin,
                       game=args.game)
    app.run()
    return 0 if app.return_code in (None, 0) else int(app.return_code)


if __name__ == "__main__":
    sys.exit(main())
