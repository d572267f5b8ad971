"""The main menu, and what every screen shares (the title, the smallest size and the
"too small" notice).

Kept apart from :mod:`wizwar_tui.screens` and free of the rules core: it is all ``wizwar``
loads before its first paint (docs/performance.md, start-up). It lists the games from their
light UI-part objects (:mod:`wizwar_tui.games`); the other screens are imported when the
menu opens them.
"""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from wizwar_tui import games

TITLE_ART = r"""
 __        ___         __        __
 \ \      / (_)____    \ \      / /_ _ _ __
  \ \ /\ / /| |_  /____ \ \ /\ / / _` | '__|
   \ V  V / | |/ /_____| \ V  V / (_| | |
    \_/\_/  |_/___|       \_/\_/ \__,_|_|
"""

SUBTITLE = "wizard board games — in your terminal"
"""The menu's line under the title when it lists several games."""

MIN_SIZE = (48, 16)
"""The smallest terminal (columns, lines) the app draws in; below it every screen says the
window is too small (and nothing else is drawn)."""


class TooSmall(Static):
    """Shown instead of a screen's content when the terminal is below :data:`MIN_SIZE`
    (the app sets the ``-tiny`` class; the style sheet hides everything else). ``game``:
    the title of the game on screen (a game's screens pass theirs), else the app's name."""

    def __init__(self, game: str = "") -> None:
        super().__init__()
        self.game = game or "wizwar"

    def on_mount(self) -> None:
        """Say how big the window must be (in the app's words for making it bigger: a
        browser tab's app says to zoom out, since Ctrl+Q there may quit the browser)."""
        hint = getattr(self.app, "TOO_SMALL_HINT", "Enlarge it (or press ctrl+q to quit).")
        self.update(Text.assemble(
            ("The window is too small\n", "bold"),
            (f"{self.game} needs at least {MIN_SIZE[0]} x {MIN_SIZE[1]}.\n", ""),
            (hint, "dim")))


class KeyLine(Static):
    """The menu's key line at the foot of the screen: each shown binding of the screen (key
    and description, as Textual's footer draws them), the screen's ``extra_keys()`` (the
    first game's own keys) and Ctrl+P for the command palette.

    The menu's keys never change, so a plain line does what the footer does, for a fraction
    of the start-up time (the footer builds a widget per key and rebuilds them when the focus
    moves: about 20 ms of the menu's first paint, docs/performance.md)."""

    def render(self) -> Text:
        """The keys of the screen this line is on; the palette key at the right end, where
        the footer has it."""
        t = Text(no_wrap=True, overflow="ellipsis")
        for b in self.screen.BINDINGS:
            if isinstance(b, Binding) and b.show:
                t.append(f" {b.key_display or self.app.get_key_display(b)} ", "bold #ffa62b")
                t.append(f"{b.description} ", "#d0d0d0")
        for key, word in getattr(self.screen, "extra_keys", list)():
            t.append(f" {key} ", "bold #ffa62b")
            t.append(f"{word} ", "#d0d0d0")
        palette = Text.assemble(("▏", "#6c6c6c"), (" ^p ", "bold #ffa62b"),
                                ("palette ", "#d0d0d0"))
        gap = self.size.width - t.cell_len - palette.cell_len
        if gap > 0:
            t.append(" " * gap)
            t.append_text(palette)
        return t


class MenuScreen(Screen[None]):
    """The main menu: for each game (:mod:`wizwar_tui.games`) its quick starts against bots,
    a new game with options, hosting a LAN game, its reference screens and how to play; then
    joining a LAN game, replaying a saved game and quitting. With one game its lines are
    not grouped under a title.

    Option ids: ``GAME:quick:N`` (the game's N-th quick start), ``GAME:new``, ``GAME:host``,
    ``GAME:ref:ID``, ``GAME:help``; ``join``, ``replay``, ``quit``. The keys (``n``,
    ``2``-``4``, ``c``...) act on the first game; ``?`` shows its help."""

    BINDINGS = [
        Binding("question_mark", "help", "How to play"),
        Binding("q", "quit", "Quit"),
        Binding("r", "replay", "Replay a saved game", show=False),
        Binding("n", "new_game", "New game...", show=False),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.uis = games.all_uis()
        first = self.uis[0]
        #: the first game's own menu keys (its quick starts, its reference screens)
        self.game_keys: dict[str, str] = {q.key: f"{first.name}:quick:{i}"
                                          for i, q in enumerate(first.quick_starts) if q.key}
        self.game_keys.update({r.key: f"{first.name}:ref:{r.id}"
                               for r in first.references if r.key})

    def extra_keys(self) -> list[tuple[str, str]]:
        """The first game's keys shown on the key line (its reference screens': ``c
        Cards``), after the menu's own."""
        return [(r.key, r.short) for r in self.uis[0].references if r.key and r.short]

    def entries(self) -> list[Option]:
        """The menu's lines."""
        out: list[Option] = []
        grouped = len(self.uis) > 1
        for ui in self.uis:
            pad = "  " if grouped else ""
            if grouped:
                out.append(Option(Text(ui.title, "bold"), disabled=True))
            out += [Option(pad + q.label, id=f"{ui.name}:quick:{i}")
                    for i, q in enumerate(ui.quick_starts)]
            first = ui is self.uis[0]
            out.append(Option(pad + ("New game with options... (n)" if first
                                     else "New game with options..."), id=f"{ui.name}:new"))
            out += [Option(pad + r.label, id=f"{ui.name}:ref:{r.id}") for r in ui.references]
            if grouped:
                out.append(Option(pad + "Host a LAN game", id=f"{ui.name}:host"))
                out.append(Option(pad + "How to play", id=f"{ui.name}:help"))
        if not grouped:
            out.append(Option("Host a LAN game", id=f"{self.uis[0].name}:host"))
        out.append(Option("Join a LAN game", id="join"))
        out.append(Option("Replay a saved game (r)", id="replay"))
        if not grouped:
            out.append(Option("How to play", id=f"{self.uis[0].name}:help"))
        out.append(Option("Quit", id="quit"))
        return out

    def compose(self) -> ComposeResult:
        """Title and the menu."""
        with Vertical(id="menu-box"):
            yield Static(TITLE_ART, id="menu-title")
            yield Static("WIZ-WAR", id="menu-title-line")
            yield Static(SUBTITLE if len(self.uis) > 1 else self.uis[0].subtitle or SUBTITLE,
                         id="menu-sub")
            yield OptionList(*self.entries(), id="menu-list")
            yield Static(self.uis[0].menu_note, id="menu-note")
        yield KeyLine(id="menu-keys")
        yield TooSmall()

    def on_mount(self) -> None:
        """Focus the menu (on its first line that can be chosen)."""
        ol = self.query_one(OptionList)
        ol.highlighted = next(i for i, o in enumerate(ol.options) if not o.disabled)
        ol.focus()

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        """The note under the menu is the highlighted game's."""
        game = (event.option.id or "").partition(":")[0]
        ui = next((u for u in self.uis if u.name == game), None)
        if ui is not None:
            self.query_one("#menu-note", Static).update(ui.menu_note)

    def on_key(self, event: events.Key) -> None:
        """The first game's own keys (``2``-``4`` its quick starts, ``c`` its cards...)."""
        oid = self.game_keys.get(event.character or "")
        if oid is not None:
            event.stop()
            event.prevent_default()
            self.choose(oid)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Do the chosen menu entry."""
        self.choose(event.option.id or "")

    def choose(self, oid: str) -> None:
        """Do the menu entry ``oid`` (see the class docstring)."""
        game, _, what = oid.partition(":")
        if oid == "join":
            self.app.open_join()  # type: ignore[attr-defined]
        elif oid == "replay":
            self.app.open_saved_games()  # type: ignore[attr-defined]
        elif oid == "quit":
            self.app.exit(0)
        elif what.startswith("quick:"):
            ui = games.ui(game)
            q = ui.quick_starts[int(what[6:])]
            self.app.start_game(game=game, options=dict(q.options))  # type: ignore[attr-defined]
        elif what == "new":
            self.action_new_game(game)
        elif what.startswith("ref:"):
            games.ui(game).open_reference(what[4:], self.app)
        elif what == "host":
            self.app.open_host_form(game=game)  # type: ignore[attr-defined]
        elif what == "help":
            self.action_help(game)

    def action_help(self, game: str = "") -> None:
        """Show how to play (the first game's help from the key)."""
        from wizwar_tui.screens import HelpScreen

        self.app.push_screen(HelpScreen(game=game or self.uis[0].name))

    def action_new_game(self, game: str = "") -> None:
        """The new-game screen (options from the game's schema, seed, bot levels)."""
        from wizwar_tui.screens import NewGameScreen

        self.app.push_screen(NewGameScreen(game or self.uis[0].name))

    def action_replay(self) -> None:
        """The saved games, to replay one."""
        self.app.open_saved_games()  # type: ignore[attr-defined]

    async def action_quit(self) -> None:
        """Leave the app."""
        self.app.exit(0)
