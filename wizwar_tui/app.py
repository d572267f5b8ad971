"""The Wiz-War Textual app: main menu, game against bots, game over.

``run()`` is what the ``wizwar`` command calls (see :mod:`wizwar_tui.cli`).
"""

from __future__ import annotations

import os

from textual.app import App
from textual.binding import Binding

from wizwar_tui.game import GameScreen
from wizwar_tui.screens import MenuScreen


def new_seed() -> int:
    """A fresh seed for a game (the core itself is deterministic given the seed)."""
    return int.from_bytes(os.urandom(4), "big") % 1_000_000


class WizWarApp(App[int]):
    """Wiz-War in the terminal: you against bots.

    Args:
        players: seats in a game started from the command line (2-4).
        seed: the game's seed (``None``: a fresh one per game).
        start_game: go straight into a game instead of the menu.
        ascii_only: draw the board with ASCII characters only.
        bot_delay: seconds between two bot actions (0 in tests: bots act at once).
    """

    CSS_PATH = "wizwar.tcss"
    TITLE = "Wiz-War"
    BINDINGS = [Binding("ctrl+q", "quit", "Quit", show=False, priority=True)]
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (100, "-wide")]
    VERTICAL_BREAKPOINTS = [(0, "-short"), (32, "-tall")]

    def __init__(self, players: int = 2, seed: int | None = None, start_game: bool = False,
                 ascii_only: bool = False, bot_delay: float = 0.3) -> None:
        super().__init__()
        self.players = players
        self.seed = seed
        self.start_now = start_game
        self.ascii_only = ascii_only
        self.bot_delay = bot_delay

    def on_mount(self) -> None:
        """Show the menu, and start a game at once for ``wizwar play``."""
        self.push_screen(MenuScreen())
        if self.start_now:
            self.start_game(self.players, self.seed)

    def start_game(self, players: int, seed: int | None = None) -> GameScreen:
        """Start a new game of ``players`` seats (the human is P1), replacing any other."""
        self.show_menu()
        game = GameScreen(players=players, seed=new_seed() if seed is None else seed,
                          ascii_only=self.ascii_only, bot_delay=self.bot_delay)
        self.push_screen(game)
        return game

    def show_menu(self) -> None:
        """Pop every screen above the main menu."""
        while len(self.screen_stack) > 2:
            self.pop_screen()

    @property
    def game(self) -> GameScreen | None:
        """The game screen, if a game is on."""
        for s in reversed(self.screen_stack):
            if isinstance(s, GameScreen):
                return s
        return None


def run(players: int = 2, seed: int | None = None, start_game: bool = False,
        ascii_only: bool = False) -> int:
    """Run the app; returns the exit status.

    The pause between two bot actions is 0.3 s, or ``WIZWAR_BOT_DELAY`` seconds.
    """
    try:
        delay = float(os.environ.get("WIZWAR_BOT_DELAY", "0.3"))
    except ValueError:
        delay = 0.3
    app = WizWarApp(players=players, seed=seed, start_game=start_game, ascii_only=ascii_only,
                    bot_delay=delay)
    app.run()
    return 0 if app.return_code in (None, 0) else int(app.return_code)
