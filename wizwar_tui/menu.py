"""The main menu, and what every screen shares (the title, the smallest size and the
"too small" notice).

Kept apart from :mod:`wizwar_tui.screens` and free of the rules core: it is all ``wizwar``
loads before its first paint (docs/performance.md, start-up). The other screens are imported
when the menu opens them.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

TITLE_ART = r"""
 __        ___         __        __
 \ \      / (_)____    \ \      / /_ _ _ __
  \ \ /\ / /| |_  /____ \ \ /\ / / _` | '__|
   \ V  V / | |/ /_____| \ V  V / (_| | |
    \_/\_/  |_/___|       \_/\_/ \__,_|_|
"""

MIN_SIZE = (48, 16)
"""The smallest terminal (columns, lines) the app draws in; below it every screen says the
window is too small (and nothing else is drawn)."""


class TooSmall(Static):
    """Shown instead of a screen's content when the terminal is below :data:`MIN_SIZE`
    (the app sets the ``-tiny`` class; the style sheet hides everything else)."""

    def on_mount(self) -> None:
        """Say how big the window must be."""
        self.update(Text.assemble(
            ("The window is too small\n", "bold"),
            (f"Wiz-War needs at least {MIN_SIZE[0]} x {MIN_SIZE[1]}.\n", ""),
            ("Enlarge it (or press ctrl+q to quit).", "dim")))


class KeyLine(Static):
    """The menu's key line at the foot of the screen: each shown binding of the screen (key
    and description, as Textual's footer draws them) and Ctrl+P for the command palette.

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
        palette = Text.assemble(("▏", "#6c6c6c"), (" ^p ", "bold #ffa62b"),
                                ("palette ", "#d0d0d0"))
        gap = self.size.width - t.cell_len - palette.cell_len
        if gap > 0:
            t.append(" " * gap)
            t.append_text(palette)
        return t


#: The deck line of the menu, the help and the game log. Written out so the menu does not
#: load the card data; ``tests/test_tui.py`` checks it against ``core.wizwar.cards``.
DECK_NOTE = "The full 6th-edition deck: 74 kinds, 125 cards (124 with two players)."


class MenuScreen(Screen[None]):
    """The main menu: play against 1-3 bots, host or join a LAN game, replay a saved game,
    how to play, quit."""

    BINDINGS = [
        Binding("question_mark", "help", "How to play"),
        Binding("q", "quit", "Quit"),
        Binding("2", "play(2)", "2 players", show=False),
        Binding("3", "play(3)", "3 players", show=False),
        Binding("4", "play(4)", "4 players", show=False),
        Binding("r", "replay", "Replay a saved game", show=False),
        Binding("n", "new_game", "New game...", show=False),
        Binding("c", "cards", "Cards"),
    ]

    def compose(self) -> ComposeResult:
        """Title and the menu."""
        with Vertical(id="menu-box"):
            yield Static(TITLE_ART, id="menu-title")
            yield Static("WIZ-WAR", id="menu-title-line")
            yield Static("the classic game of dungeon wizardry — in your terminal",
                         id="menu-sub")
            yield OptionList(
                Option("Play against 1 bot (2 players)", id="play2"),
                Option("Play against 2 bots (3 players)", id="play3"),
                Option("Play against 3 bots (4 players)", id="play4"),
                Option("New game with options... (n)", id="new"),
                Option("Cards: the whole deck (c)", id="cards"),
                Option("Host a LAN game", id="host"),
                Option("Join a LAN game", id="join"),
                Option("Replay a saved game (r)", id="replay"),
                Option("How to play", id="help"),
                Option("Quit", id="quit"),
                id="menu-list",
            )
            yield Static(DECK_NOTE, id="menu-note")
        yield KeyLine(id="menu-keys")
        yield TooSmall()

    def on_mount(self) -> None:
        """Focus the menu."""
        ol = self.query_one(OptionList)
        ol.highlighted = 0
        ol.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Do the chosen menu entry."""
        oid = event.option.id or ""
        if oid.startswith("play"):
            self.action_play(int(oid[4:]))
        elif oid == "new":
            self.action_new_game()
        elif oid == "cards":
            self.action_cards()
        elif oid == "host":
            self.app.open_host_form()  # type: ignore[attr-defined]
        elif oid == "join":
            self.app.open_join()  # type: ignore[attr-defined]
        elif oid == "replay":
            self.app.open_saved_games()  # type: ignore[attr-defined]
        elif oid == "help":
            self.action_help()
        elif oid == "quit":
            self.app.exit(0)

    def action_play(self, players: int) -> None:
        """Start a game against bots."""
        self.app.start_game(players)  # type: ignore[attr-defined]

    def action_help(self) -> None:
        """Show how to play."""
        from wizwar_tui.screens import HelpScreen

        self.app.push_screen(HelpScreen())

    def action_new_game(self) -> None:
        """The new-game screen (players, seed, variants, bot levels)."""
        from wizwar_tui.screens import NewGameScreen

        self.app.push_screen(NewGameScreen())

    def action_cards(self) -> None:
        """The whole deck, every card's text."""
        from wizwar_tui.screens import CardsScreen

        self.app.push_screen(CardsScreen())

    def action_replay(self) -> None:
        """The saved games, to replay one."""
        self.app.open_saved_games()  # type: ignore[attr-defined]

    async def action_quit(self) -> None:
        """Leave the app."""
        self.app.exit(0)
