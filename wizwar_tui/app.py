"""The app shell (Textual): main menu, games against bots, LAN games, replays, for every
game of :mod:`wizwar_tui.games` (each game's screens come from its UI part).

``run()`` is what the ``wizwar`` command calls (see :mod:`wizwar_tui.cli`); ``run_lan()``
is ``wizwar host`` / ``wizwar join`` without ``--headless``.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from textual import events
from textual.app import App
from textual.binding import Binding
from textual.filter import LineFilter
from textual.geometry import Size
from textual.widget import Widget

from wizwar_tui import games
from wizwar_tui.ascii import AsciiFilter, ConsoleFilter, wants_ascii
from wizwar_tui.gameui import GameScreenBase
from wizwar_tui.menu import MIN_SIZE, MenuScreen

if TYPE_CHECKING:  # the menu needs none of these: they load when first used (start-up time)
    import argparse

    from wizwar_tui.lobby import HostFormScreen, LanLink
    from wizwar_tui.replay import ReplayErrorScreen, ReplayScreen, SavedGamesScreen

NARROW_BELOW = 78
"""Narrower terminals show the board or the side panels, Tab switching (the board column
and the panels do not fit side by side)."""

WIDE_FROM = 100
SHORT_BELOW = 32
HUGE_FROM = 150
"""From this width (``-huge``) the game screen puts its log in a column of its own, the full
height of the window, beside the players and the hand (at 200x50 the log had few rows)."""

KEEP_KEYS = ("ctrl+q", "ctrl+c")
"""Keys never dropped as stale (quitting always works)."""


def size_classes(size: Size) -> dict[str, bool]:
    """The app's size classes for a terminal of ``size``: ``-tiny`` below
    :data:`~wizwar_tui.screens.MIN_SIZE` (every screen says the window is too small),
    ``-narrow``/``-medium``/``-wide`` by width (and ``-huge`` from :data:`HUGE_FROM`),
    ``-short``/``-tall`` by height."""
    w, h = size
    return {
        "-tiny": w < MIN_SIZE[0] or h < MIN_SIZE[1],
        "-narrow": w < NARROW_BELOW,
        "-medium": NARROW_BELOW <= w < WIDE_FROM,
        "-wide": w >= WIDE_FROM,
        "-huge": w >= HUGE_FROM,
        "-short": h < SHORT_BELOW,
        "-tall": h >= SHORT_BELOW,
    }


def new_seed() -> int:
    """A fresh seed for a game (the core itself is deterministic given the seed)."""
    return int.from_bytes(os.urandom(4), "big") % 1_000_000


PANEL_LINE = "#5f87af"
"""The quiet panels' line and title colour (``$panel-line`` in the app's CSS): Textual's
``$panel`` is nearly the background, so those titles could not be read."""

CSS_VARIABLES = {"panel-line": PANEL_LINE}
"""The app's own CSS variables (:meth:`WizWarApp.get_css_variables`): the screens' styles
use them, so an app that hosts one of the screens gives them too."""


class WizWarApp(App[int]):
    """The wizwar app: you against bots, or against friends on the LAN, in any game of
    :mod:`wizwar_tui.games`.

    Args:
        game: the game started at once (``start_game``; "" for the default game).
        players: the ``players`` option of a game started at once (a shorthand; other
            options in :attr:`variants`).
        seed: the game's seed (``None``: a fresh one per game).
        start_game: go straight into a game instead of the menu.
        ascii_only: draw the board with ASCII characters only.
        bot_delay: seconds between two bot actions (0 in tests: bots act at once).
        lan_args: ``wizwar host``/``join`` arguments: open the host lobby or the join
            flow at once.
        discovery: look for games and advertise them on the LAN (mDNS); off in tests.
        save_games: write a game log of each game as it is played (local games too).
        replay_file: a saved game (``.wwlog`` or export text) to open in the replay screen
            at once (``wizwar replay FILE``).
        replay_delay: seconds between two actions when a replay plays.

    Size: the app sets the classes of :func:`size_classes` on itself at every resize (the
    style sheet lays the screens out by them; below ``MIN_SIZE`` every screen shows only
    "the window is too small"). With ``ascii_only`` every character drawn is ASCII
    (:class:`~wizwar_tui.ascii.AsciiFilter`); with ``TERM=linux`` only characters the
    console's fonts have (:class:`~wizwar_tui.ascii.ConsoleFilter`). Keys pressed while
    the bots acted and still queued when the human's turn begins are dropped
    (:meth:`on_event`).
    """

    CSS_PATH = "wizwar.tcss"
    TITLE = "Wiz-War"
    #: False where the app is locked to one game (an SSH session): no main menu to go back to,
    #: so leaving the game ends the session and the screens say so
    HAS_MENU = True
    BINDINGS = [Binding("ctrl+q", "quit", "Quit", show=False, priority=True),
                # Ctrl+C as Ctrl+Q, above every screen's and widget's own (a modal question's
                # screen kept it as "copy the selected text", so twice did not quit)
                Binding("ctrl+c", "help_quit", show=False, priority=True)]

    def get_css_variables(self) -> dict[str, str]:
        """Textual's CSS variables and the app's own: ``$panel-line``
        (:data:`PANEL_LINE`), the line and title colour of the quiet panels of every
        screen (it was written out in some twenty CSS blocks)."""
        return {**super().get_css_variables(), **CSS_VARIABLES}

    def __init__(self, players: int | None = None, seed: int | None = None,
                 start_game: bool = False,
                 ascii_only: bool = False, bot_delay: float = 0.3,
                 lan_args: argparse.Namespace | None = None, discovery: bool = True,
                 save_games: bool = True, replay_file: str | None = None,
                 replay_delay: float = 0.5, game: str = "") -> None:
        super().__init__()
        self.game_name = game  # the game started at once ("" the default)
        self.replay_file = replay_file
        self.replay_delay = replay_delay
        self.players = players
        self.seed = seed
        self.start_now = start_game
        self.ascii_only = ascii_only
        self.bot_delay = bot_delay
        self.lan_args = lan_args
        self.discovery = discovery
        self.save_games = save_games
        self.lan: LanLink | None = None
        self.variants: dict[str, Any] = {}  # options (and "levels") of the game started at once
        self.options: dict[str, Any] = {}  # the last local game's options (for "new game")
        self.levels: dict[str, str] = {}  # the last local game's bot levels
        self.last_game = ""  # the last local game's ruleset name
        self.ascii_filter = AsciiFilter(enabled=ascii_only)
        self.console_filter = ConsoleFilter(
            enabled=not ascii_only and os.environ.get("TERM", "") == "linux")
        self.dropped_keys = 0  # stale keys dropped (see on_event)
        self._focus_before_tiny: dict[int, Widget | None] = {}

    def get_line_filters(self) -> Sequence[LineFilter]:
        """Textual's filters (NO_COLOR...), then ASCII-only when asked, or the Linux
        console's glyphs with ``TERM=linux``."""
        filters = list(super().get_line_filters())
        if self.ascii_filter.enabled:
            filters.append(self.ascii_filter)
        elif self.console_filter.enabled:
            filters.append(self.console_filter)
        return filters

    def on_resize(self, event: events.Resize) -> None:
        """Set the size classes (the layout follows them; see :func:`size_classes`)."""
        self.update_size_classes(event.size)

    def update_size_classes(self, size: Size | None = None) -> None:
        """Set the classes of :func:`size_classes` for ``size`` (default: the app's). Going
        below the smallest size hides every widget (which drops the focus); each screen's
        focus is kept and given back when the window is big enough again."""
        classes = size_classes(size or self.size)
        was_tiny = self.has_class("-tiny")
        if classes["-tiny"] and not was_tiny:
            self._focus_before_tiny = {id(sc): sc.focused for sc in self.screen_stack}
        self.update_classes(classes, animate=False)
        if was_tiny and not classes["-tiny"]:
            kept = self._focus_before_tiny
            for sc in self.screen_stack:
                widget = kept.get(id(sc))
                if widget is not None and sc.focused is None and widget.is_attached:
                    sc.call_after_refresh(sc.set_focus, widget)
            self._focus_before_tiny = {}
        if self.screen_stack:
            self.screen.refresh_bindings()  # keys that depend on the width (Tab)
        game = self.game
        if game is not None and game.is_mounted:
            game.call_after_refresh(game.after_resize)

    async def on_event(self, event: events.Event) -> None:
        """Drop a key the human pressed before the current turn began (while the bots were
        acting and the app was busy): it must not do something in the new turn."""
        if isinstance(event, events.Key) and not event.is_forwarded \
                and event.key not in KEEP_KEYS:
            game = self.game
            if game is not None and event.time < game.accept_since:
                self.dropped_keys += 1
                return
        await super().on_event(event)

    async def action_quit(self) -> None:
        """Ctrl+Q (and Ctrl+C): quit; in a LAN game that others play too, ask first
        (:func:`wizwar_tui.lobby.ask_before_quitting`); in a local game not over, ask too,
        saying what is kept (:meth:`GameScreenBase.leave_note`). Pressed again while the
        question is open, it quits at once (as the question's hint says)."""
        from wizwar_tui.lobby import ConfirmScreen, ask_before_quitting

        if self.lan is not None:
            if ask_before_quitting(self):
                return
        else:
            game = self.game
            if game is not None and not getattr(game.session, "over", True) \
                    and not isinstance(self.screen, ConfirmScreen):
                def answered(yes: bool | None) -> None:
                    if yes:
                        self.exit()

                self.push_screen(ConfirmScreen("Quit wizwar?", game.leave_note()), answered)
                return
        self.exit()

    async def action_help_quit(self) -> None:
        """Ctrl+C quits as Ctrl+Q does (Textual only showed a notice)."""
        await self.action_quit()

    def on_mount(self) -> None:
        """Show the menu, and start a game at once for ``wizwar play``, or open the lobby /
        the join flow for ``wizwar host`` / ``wizwar join``, or the replay for
        ``wizwar replay``."""
        self.update_size_classes()
        self.set_class(self.no_color, "-no-color")  # NO_COLOR: highlights by shape too
        self.push_screen(MenuScreen())
        if self.replay_file is not None:
            # ``wizwar replay FILE``: leaving the replay returns to the shell, not the menu
            self.open_replay(self.replay_file).exit_on_back = True
        if self.start_now:
            values = dict(self.variants)
            levels = values.pop("levels", None)
            self.start_game(self.players, self.seed, game=self.game_name, levels=levels,
                            **values)
        args = self.lan_args
        if args is not None and getattr(args, "cmd", "") == "host":
            from net.cli import dealer_choice

            dealer = dealer_choice(args) if getattr(args, "ruleset", None) is not None \
                else "host"
            self.host_lan(name=args.name, seats=args.seats, bots=args.bots, port=args.port,
                          bind=args.bind, clock=args.clock, advertise=args.advertise,
                          options=getattr(args, "options", None),
                          game=getattr(args, "game", "") or "", dealer=dealer)
        elif args is not None and getattr(args, "cmd", "") == "join":
            self.open_join(name=args.name, target=args.target or "",
                           retries=args.retries, game=getattr(args, "game", None) or "")

    async def on_unmount(self) -> None:
        """Close a LAN game still open (stop listening, drop the connections)."""
        if self.lan is not None:
            await self.lan.close()
            self.lan = None

    def start_game(self, players: int | None = None, seed: int | None = None, *,
                   game: str = "", options: dict[str, Any] | None = None,
                   levels: dict[str, str] | None = None,
                   **values: Any) -> GameScreenBase | None:
        """Start a new game of ``game`` ("" the default) against bots (the human in the first
        seat), replacing any other; ``seed`` ``None`` draws one from the OS. ``options``
        (and ``values``, and ``players`` as a shorthand for a ``players`` option, ignored by
        a game whose schema has none) are
        validated by the ruleset's schema; ``levels`` is a bot level per bot seat (one of
        ``ruleset.bot_levels``). Refused options are said in a notification (and ``None``
        is returned)."""
        from core.engine import OptionError
        from core.session import LocalSession

        ui = games.ui(game)
        ruleset = ui.ruleset()
        seed = new_seed() if seed is None else seed
        asked = dict(options or {})
        asked.update(values)
        if players is not None and "players" in ruleset.options.names():
            asked["players"] = players  # the shorthand, for a game whose schema has it
        try:
            opts = ruleset.validate_options(asked)
            session = LocalSession.start(ruleset, opts, seed, human=ruleset.seats(opts)[0],
                                         levels=levels)
        except (OptionError, ValueError) as exc:
            self.notify(f"Cannot start this game: {exc}", severity="error", timeout=8)
            return None
        self.last_game, self.options, self.levels = ui.name, opts, dict(levels or {})
        self.leave_lan()
        self.show_menu()
        screen = ui.game_screen()(session=session, seed=seed, ascii_only=self.ascii_only,
                                  bot_delay=self.bot_delay, save_log=self.save_games)
        self.push_screen(screen)
        return screen

    def start_again(self) -> GameScreenBase | None:
        """Another game like the last local one (its game, options and bot levels) with a
        fresh seed."""
        return self.start_game(game=self.last_game, options=self.options, levels=self.levels)

    # ------------------------------------------------------------------ replay
    def open_saved_games(self) -> SavedGamesScreen:
        """The list of saved games (Enter replays one)."""
        from wizwar_tui.replay import SavedGamesScreen

        screen = SavedGamesScreen()
        self.push_screen(screen)
        return screen

    def open_replay(self, path: str) -> ReplayScreen | ReplayErrorScreen:
        """Replay the saved game ``path`` (a ``.wwlog`` or export text); a file that cannot
        be replayed, or of a game without a replay screen, gets a screen saying why."""
        from wizwar_tui.replay import ReplayError, ReplayErrorScreen
        from wizwar_tui.replay import load as load_replay

        try:
            game = load_replay(path)
        except ReplayError as exc:
            err = ReplayErrorScreen(path, str(exc))
            self.push_screen(err)
            return err
        try:
            cls = games.ui(game.ruleset.name).replay_screen()
        except NotImplementedError:  # a game whose screens have no replay yet
            err = ReplayErrorScreen(path, f"{game.ruleset.title} games cannot be replayed "
                                          "in the app yet: `wizwar verify FILE` checks "
                                          "this one and `wizwar export FILE` prints it")
            self.push_screen(err)
            return err
        screen = cls(game, delay=self.replay_delay, ascii_only=self.ascii_only)
        self.push_screen(screen)
        return screen

    def show_menu(self) -> None:
        """Pop every screen above the main menu."""
        while len(self.screen_stack) > 2:
            self.pop_screen()

    # ------------------------------------------------------------------ LAN
    def open_host_form(self, error: str = "", game: str = "",
                       **fields: object) -> HostFormScreen:
        """Show the host form (prefilled with ``fields``, with ``error`` if hosting failed)."""
        from wizwar_tui.lobby import HostFormScreen

        form = HostFormScreen(error=error, game=game, **fields)  # type: ignore[arg-type]
        self.push_screen(form)
        return form

    def open_join(self, name: str = "guest", target: str = "", retries: int = 5,
                  game: str = "") -> None:
        """The join flow: the found-games screen; with ``HOST:PORT`` join it at once, to
        play ``game`` (``wizwar join --game``; "": whatever the host plays)."""
        from wizwar_tui.lobby import JoinScreen, parse_address

        addr = parse_address(target) if ":" in target else None  # one word: a game's name
        if ":" in target and addr is None:
            self.push_screen(JoinScreen(name=name, target="", retries=retries, discover=False))
            self.notify(f"{target!r} is not HOST:PORT (a port is 1-65535)", severity="error",
                        timeout=10)
            return
        self.push_screen(JoinScreen(name=name, target=target, retries=retries,
                                    discover=self.discovery and addr is None))
        if addr is not None:
            self.join_lan(addr[0], addr[1], name, retries=retries, game=game)

    def host_lan(self, name: str, seats: int, bots: int, port: int, bind: str,
                 clock: float | None = None, advertise: bool = True,
                 form: HostFormScreen | None = None,
                 options: dict[str, Any] | None = None, game: str = "",
                 dealer: str = "host") -> None:
        """Host a game of ``game`` ("" the default; the app's player is P1) with the game's
        ``options`` and show its lobby; if the port cannot be opened, say so on the host
        form. ``dealer``: ``host`` (the host's dealer) or ``poker`` (mental poker,
        :mod:`wizwar_tui.pokerlink`: the host's bots' keys in this process)."""
        from wizwar_tui.lobby import new_host

        self.leave_lan()
        link: Any
        if dealer == "poker":
            from wizwar_tui.pokerlink import new_poker_host

            link = new_poker_host(self, name, seats, bots, port, bind,
                                  advertise=advertise and self.discovery,
                                  save=self.save_games, options=options, game=game)
        else:
            link = new_host(self, name, seats, bots, port, bind, clock=clock,
                            advertise=advertise and self.discovery, save=self.save_games,
                            options=options, game=game)
        fields = {"name": name, "seats": seats, "bots": bots, "port": port, "bind": bind,
                  "clock": clock, "advertise": advertise, "options": options, "game": game,
                  "dealer": dealer}
        self.run_worker(self._host(link, form, fields), group="lan", exclusive=False,
                        exit_on_error=False)

    async def _host(self, link: LanLink, form: HostFormScreen | None,
                    fields: dict[str, object]) -> None:
        """Listen (or explain on the form why not), show the lobby, advertise, play."""
        from wizwar_tui.lobby import LobbyScreen

        saved = getattr(self.lan_args, "saved", None) if form is None else None
        if saved is not None:  # ``wizwar host --resume LOG``: play on from the host's log
            from net.resume import ResumeError, restore

            try:
                await restore(link.game, saved)  # type: ignore[arg-type]
            except ResumeError as exc:
                self.open_host_form(error=f"Cannot resume: {exc}", **fields)  # type: ignore[arg-type]
                return
        try:
            starter = getattr(link, "host", None) or link.game  # a poker game's PokerHost
            await starter.start()  # type: ignore[union-attr]
        except (OSError, ValueError) as exc:
            text = f"Cannot listen on {fields['bind']}:{fields['port']}: " \
                   f"{getattr(exc, 'strerror', None) or exc}"
            if form is not None and form.is_attached:
                form.show_error(text)
            else:
                self.open_host_form(error=text, **fields)  # type: ignore[arg-type]
            return
        self.lan = link
        self.push_screen(LobbyScreen(link))
        if link.advertise:
            self.run_worker(link.start_advertising(), group="lan", exclusive=False,
                            exit_on_error=False)
        await link.run_host()

    def join_lan(self, host: str, port: int, name: str, retries: int = 5,
                 game: str = "") -> None:
        """Join the game at ``host:port`` (of ``game``; "": whatever the host plays) and show
        the waiting screen until the deal."""
        from wizwar_tui.lobby import LobbyScreen, new_peer

        self.leave_lan()
        link = new_peer(self, host, port, name, retries=retries, save=self.save_games,
                        game=game)
        self.lan = link
        link.listeners.append(lambda: self._join_failed(link))
        self.push_screen(LobbyScreen(link))
        self.run_worker(link.run_peer(), group="lan", exclusive=False, exit_on_error=False)

    def join_poker(self, host: str, port: int, name: str, game: str = "") -> None:
        """Join the game at ``host:port`` dealt by mental poker (its host refused a joiner
        that does not deal it): a :class:`~wizwar_tui.pokerlink.PokerLink`, this seat played
        from the game screen, its keys in this process."""
        from core.engine import UnknownRuleset
        from wizwar_tui.lobby import LobbyScreen
        from wizwar_tui.pokerlink import new_poker_peer

        try:
            link = new_poker_peer(self, host, port, name, save=self.save_games, game=game)
        except UnknownRuleset as exc:  # an ad of a game this wizwar does not have
            self.notify(f"Cannot join: {exc}", severity="error", timeout=10, markup=False)
            return
        self.leave_lan()
        self.lan = link
        link.listeners.append(lambda: self._join_failed(link))
        self.push_screen(LobbyScreen(link))
        self.run_worker(link.run_peer(), group="lan", exclusive=False, exit_on_error=False)

    def _join_failed(self, link: LanLink) -> None:
        """Back to the join screen with the reason when we never got into the game; a host
        that deals by mental poker is joined as a poker process (:meth:`join_poker`)."""
        from net.lan import PeerGame
        from wizwar_tui.lobby import JoinScreen, LobbyScreen

        if link.phase not in ("failed", "refused") or link.game_shown:
            return
        link.listeners.clear()
        if link.phase == "refused" and "mental poker" in link.problem and \
                not getattr(link, "poker", False) and isinstance(link.game, PeerGame):
            peer = link.game
            if isinstance(self.screen, LobbyScreen) and self.screen.link is link:
                self.pop_screen()
            self.join_poker(peer.host, peer.port, peer.name,
                            game="" if peer.follow_host else peer.ruleset.name)
            return
        if isinstance(self.screen, LobbyScreen) and self.screen.link is link:
            self.pop_screen()
        if isinstance(self.screen, JoinScreen):
            self.screen.show_error(link.problem)
        else:
            self.notify(link.problem, severity="error", timeout=10, markup=False)

    def game_screen_class(self, game: str = "") -> type[GameScreenBase]:
        """The game screen this app shows for a LAN game of ``game`` (its UI part's; an SSH
        session's has other keys)."""
        return games.ui(game).game_screen()

    def show_lan_game(self, link: LanLink) -> GameScreenBase:
        """The game is dealt: the game screen over the lobby."""
        while isinstance(self.screen, GameScreenBase):  # a stale one (never expected)
            self.pop_screen()
        game = self.game_screen_class(link.game.ruleset.name)(session=link.session, lan=link,
                                        ascii_only=self.ascii_only, bot_delay=0)
        self.push_screen(game)
        return game

    def leave_lan(self) -> None:
        """Close the LAN game if there is one (stops its workers and connections)."""
        link, self.lan = self.lan, None
        if link is None:
            return
        link.closed = True
        self.workers.cancel_group(self, "lan")
        self.run_worker(link.close(), group="lan-close", exclusive=False, exit_on_error=False)

    @property
    def game(self) -> Any:
        """The game screen (a :class:`~wizwar_tui.gameui.GameScreenBase`), if a game is
        on."""
        for s in reversed(self.screen_stack):
            if isinstance(s, GameScreenBase):
                return s
        return None


def run(players: int = 2, seed: int | None = None, start_game: bool = False,
        ascii_only: bool | None = None, replay: str | None = None, replay_delay: float = 0.5,
        variants: dict[str, Any] | None = None, game: str = "") -> int:
    """Run the app; returns the exit status. With ``replay`` (``wizwar replay FILE``) the
    saved game opens in the replay screen at once. ``game``: the game started at once ("" the
    default); ``variants``: its options (and ``levels``, the bot level per seat; see
    :meth:`WizWarApp.start_game`).

    ``ascii_only`` ``None``: ASCII when the locale or stdout is not UTF-8 (or
    ``WIZWAR_ASCII=1``; see :func:`wizwar_tui.ascii.wants_ascii`). The pause between two
    bot actions is 0.3 s, or ``WIZWAR_BOT_DELAY`` seconds.
    """
    try:
        delay = float(os.environ.get("WIZWAR_BOT_DELAY", "0.3"))
    except ValueError:
        delay = 0.3
    if ascii_only is None:
        ascii_only = wants_ascii()
    app = WizWarApp(players=players, seed=seed, start_game=start_game, ascii_only=ascii_only,
                    bot_delay=delay, replay_file=replay, replay_delay=replay_delay, game=game)
    app.variants = dict(variants or {})
    app.run()
    return 0 if app.return_code in (None, 0) else int(app.return_code)


def run_lan(args: argparse.Namespace) -> int:
    """Run the app for ``wizwar host`` (straight into the lobby) or ``wizwar join`` (join
    ``HOST:PORT`` at once, else the found-games screen); returns the exit status."""
    if args.cmd == "host" and not 0 <= args.bots < args.seats:
        import sys

        print("--bots must leave your own seat free", file=sys.stderr)
        return 2
    app = WizWarApp(lan_args=args,
                    ascii_only=bool(getattr(args, "ascii", False)) or wants_ascii())
    app.run()
    return 0 if app.return_code in (None, 0) else int(app.return_code)
