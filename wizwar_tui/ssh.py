"""The app an SSH session runs (``python -m wizwar_tui.ssh HOST:PORT --name NAME [--watch]``,
started by :mod:`net.ssh`, one process per session on its own PTY).

It is the ordinary app locked to one game: it joins (or watches) the game at ``HOST:PORT``
and nothing else. No main menu, no local games, no hosting or joining elsewhere, no saved
games or replays (they are files on the server), no command palette (it can save
screenshots); leaving the game ends the session. Game logs are not written (a player's log
would be a file on the server). A watcher sees only public information: the board, the
players, the stack, the discards and the actions, never a hand.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Footer, Static

from net.cli import load_token, parse_target
from net.lan import PeerGame
from wizwar_tui import games
from wizwar_tui.app import WizWarApp
from wizwar_tui.gameui import GameScreenBase
from wizwar_tui.lobby import LanLink

RETRIES = 3
"""Rejoins after a lost connection (the host runs on the same machine as the SSH server)."""


class SSHLink(LanLink):
    """A ``LanLink`` whose rejoin hint is to log in again over SSH."""

    hint = ""

    def rejoin_hint(self) -> str:
        """How to take the seat back: log in again under the same name."""
        return self.hint or f"ssh -p PORT {self.game.name}@HOST"


class NoticeScreen(Screen[None]):
    """A message with nothing to do but leave (the end of a session)."""

    BINDINGS = [Binding("q,escape,enter", "leave", "Disconnect")]
    CSS_PATH = "dialogs.tcss"  # (as a DEFAULT_CSS its width lost to the app's .dialog)

    def __init__(self, title: str, text: str) -> None:
        super().__init__()
        self.title_text = title
        self.text = text

    def compose(self) -> ComposeResult:
        """Title, message, the key."""
        with Vertical(id="notice-box", classes="dialog"):
            yield Static(self.title_text, id="notice-title")
            yield Static(self.text, id="notice-text", markup=False)  # the host's words
            yield Static("q disconnect", classes="hint")
        yield Footer()

    def action_leave(self) -> None:
        """End the session."""
        self.app.exit(0)


def ssh_game_screen(base: type[GameScreenBase]) -> type[GameScreenBase]:
    """The game screen of an SSH player: the game's own (``base``), but ``q`` is labelled for
    what it does over SSH (leave the game, which ends the session: there is no menu)."""
    return type(f"SSH{base.__name__}", (base,), {
        "BINDINGS": [Binding("q", "menu", "Leave")],
        "__module__": base.__module__,  # its style sheets are found beside the game's screen
        "__doc__": ssh_game_screen.__doc__})


class SSHPlayerApp(WizWarApp):
    """The app locked to one game for one SSH session (see the module docstring).

    Args:
        host, port: the game's host (a ``HostGame`` on the SSH server's machine).
        name: the player name (the SSH user name).
        watch: watch instead of taking a seat (the game is full or dealt).
        rejoin: the ``ssh`` command that logs in again (the "take your seat back" hint).
    """

    ENABLE_COMMAND_PALETTE = False
    HAS_MENU = False

    def __init__(self, host: str, port: int, name: str, watch: bool = False,
                 rejoin: str = "", game: str = "") -> None:
        from wizwar_tui.ascii import wants_ascii

        # the server sets WIZWAR_ASCII from the client's locale (net/ssh.py child_env)
        super().__init__(discovery=False, save_games=False, bot_delay=0,
                         ascii_only=wants_ascii())
        self.game_host, self.game_port = host, port
        self.player_name = name
        self.watch = watch
        self.rejoin = rejoin
        self.game_name = game  # the ruleset ("": the registry's default)
        self.sub_title = f"{name} over SSH"

    def on_mount(self, event: events.Mount) -> None:
        """Straight into the game (the base app's menu is never shown). The app ends when
        the server that started it is gone (killed with ``kill -9``: nothing would ever
        reach this session again, and the process would live on orphaned)."""
        event.prevent_default()
        parent = os.getppid()
        self.set_interval(2.0, lambda: self._server_gone(parent))
        self.push_screen(NoticeScreen("Wiz-War", "Connecting to the game…"))
        from core import registry

        peer = PeerGame(self.game_host, self.game_port, name=self.player_name,
                        bot_play=False, watch=self.watch,
                        ruleset=registry.get(self.game_name or registry.DEFAULT),
                        token="" if self.watch else load_token(
                            self.game_host, self.game_port, self.player_name))
        link = SSHLink(self, peer, f"{self.game_host}:{self.game_port}", retries=RETRIES,
                       save=False)
        link.hint = self.rejoin
        self.lan = link
        link.listeners.append(lambda: self._join_failed(link))
        if self.watch:
            self.push_screen(games.ui(self.game_name).watch_screen()(link))
        else:
            from wizwar_tui.lobby import LobbyScreen

            self.push_screen(LobbyScreen(link))
        self.run_worker(link.run_peer(), group="lan", exclusive=False, exit_on_error=False)

    def show_lan_game(self, link: LanLink) -> Any:
        """At the deal: the game screen for a player (:func:`ssh_game_screen`: ``q`` leaves,
        there is no menu); a watcher's screen stays."""
        if self.watch:
            return self.screen
        return super().show_lan_game(link)

    def game_screen_class(self, game: str = "") -> type[GameScreenBase]:
        """The game's screen with ``q`` labelled Leave (:func:`ssh_game_screen`: there is no
        menu)."""
        return ssh_game_screen(super().game_screen_class(game or self.game_name))

    def _server_gone(self, parent: int) -> None:
        """Exit when the process that started this session is no longer its parent."""
        if os.getppid() != parent:
            self.exit(return_code=1)

    def _join_failed(self, link: LanLink) -> None:
        """Never got in (refused, or no host): say why on a screen of its own."""
        if link.phase not in ("failed", "refused") or link.game_shown:
            return
        link.listeners.clear()
        self.notice("Cannot join the game", link.problem)

    def notice(self, title: str, text: str) -> None:
        """Replace everything with a message; its only key disconnects."""
        while len(self.screen_stack) > 1:
            self.pop_screen()
        self.push_screen(NoticeScreen(title, text))

    # ---- everything outside this one game is closed ---------------------------------------
    def leave_lan(self) -> None:
        """Leaving the game ends the session (:meth:`show_menu` follows): stop the game's
        workers; the connection is closed as the app ends (``on_unmount``)."""
        if self.lan is not None:
            self.lan.closed = True
            self.workers.cancel_group(self, "lan")

    def show_menu(self) -> None:
        """There is no menu over SSH: leaving the game ends the session."""
        self.exit(0)

    VIA = "over SSH"
    """How the screens say where the game is played (a browser tab's app: "in a browser")."""

    def _not_here(self, *_args: object, **_kw: object) -> None:
        self.notify(f"Not available {self.VIA}: only this game is.", severity="warning")

    def action_screenshot(self, filename: str | None = None, path: str | None = None) -> None:
        """No screenshots: they would be files on the server."""
        self._not_here()

    def action_suspend_process(self) -> None:
        """No suspending: nobody on the SSH side could resume the app."""
        self._not_here()

    start_game = _not_here  # type: ignore[assignment]
    open_saved_games = _not_here  # type: ignore[assignment]
    open_replay = _not_here  # type: ignore[assignment]
    open_host_form = _not_here  # type: ignore[assignment]
    open_join = _not_here  # type: ignore[assignment]
    host_lan = _not_here  # type: ignore[assignment]
    join_lan = _not_here  # type: ignore[assignment]


def main(argv: list[str] | None = None) -> int:
    """``python -m wizwar_tui.ssh HOST:PORT --name NAME [--watch]``; returns the exit status."""
    return session_main(argv, SSHPlayerApp, "wizwar-ssh-session",
                        "one SSH session's app (started by wizwar host --ssh)",
                        "the ssh command that logs in again")


def session_main(argv: list[str] | None, app_cls: type[SSHPlayerApp], prog: str,
                 description: str, rejoin_help: str) -> int:
    """The command line of one locked-down session's app (an SSH session, a browser tab):
    ``HOST:PORT --name NAME [--watch] [--rejoin R] [--game G]``, the app ``app_cls`` run to
    its end; returns the exit status (2 and a usage message for bad arguments)."""
    p = argparse.ArgumentParser(prog=prog, description=description)
    p.add_argument("target", help="HOST:PORT of the game")
    p.add_argument("--name", required=True)
    p.add_argument("--watch", action="store_true")
    p.add_argument("--rejoin", default="", help=rejoin_help)
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
    app = app_cls(addr[0], addr[1], args.name, watch=args.watch, rejoin=args.rejoin,
                  game=args.game)
    app.run()
    return 0 if app.return_code in (None, 0) else int(app.return_code)


if __name__ == "__main__":
    sys.exit(main())
