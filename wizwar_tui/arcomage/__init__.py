"""ArcoMage's UI part (:class:`~wizwar_tui.gameui.GameUI`): its game screen (the hex field,
the archmages, the spellbook, the stack), the help text, the reference of all 64 spells,
the game-over box and its replay drawing.

This module stays light (the menu imports it before its first paint): the screens, the
renderer and the rules core load inside the methods.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from wizwar_tui.gameui import GameScreenBase, GameUI, QuickStart, Reference

if TYPE_CHECKING:
    from textual.app import App
    from textual.screen import Screen

    from wizwar_tui.replay import ReplayScreen


class ArcoMageUI(GameUI):
    """ArcoMage's screens for the shell (see :mod:`wizwar_tui.gameui`)."""

    name = "arcomage"
    title = "ArcoMage"
    subtitle = "a duel of two archmages on a field of hexes — in your terminal"
    menu_note = "Your Pale Tower v the bot's Iron Dojo · 64 spells, creatures, a stack"
    # short enough for the menu's box at 80x24 (the books are in menu_note)
    quick_starts = (QuickStart("", "Play against a bot", {}),)
    references = (Reference("", "ArcoMage: all 64 spells", "spells", "Spells"),
                  Reference("", "ArcoMage: build your own book", "book", "Book"))

    def game_screen(self) -> type[GameScreenBase]:
        """:class:`wizwar_tui.arcomage.game.ArcoMageGameScreen`."""
        from wizwar_tui.arcomage.game import ArcoMageGameScreen

        return ArcoMageGameScreen

    def help_text(self, ascii_only: bool = False, menu: bool = True) -> str:
        """Keys and the rules' terms (:func:`screens.help_text`)."""
        from wizwar_tui.arcomage.screens import help_text

        return help_text(ascii_only, menu)

    def open_reference(self, ref: str, app: App[Any]) -> None:
        """``spells``: the reference of all 64 spells; ``book``: building one's own book."""
        from wizwar_tui.arcomage.screens import BookScreen, SpellsScreen

        if ref == "spells":
            app.push_screen(SpellsScreen())
        elif ref == "book":
            app.push_screen(BookScreen())

    def edit_option(self, app: Any, name: str) -> str:
        """P1's own book is built in the book builder (opened here; its ``g`` plays it);
        P2's (the bot's) only on the command line."""
        if name == "p1_spells":
            from wizwar_tui.arcomage.screens import BookScreen

            app.push_screen(BookScreen())
            return ""
        return super().edit_option(app, name)

    def option_note(self, name: str, values: Mapping[str, Any], refused: str = "") -> str:
        """Short words for the new-game screen (the books, the first player)."""
        if refused:
            return refused
        return {"p1_book": "your book (you are P1)", "p2_book": "the bot's book",
                "first": "the first player skips PRODUCE on turn 1",
                "p1_spells": "your own book: Enter opens the book builder (build your "
                             "own book; its g plays it)"}.get(name, "") \
            or super().option_note(name, values)

    def watch_screen(self) -> Callable[[Any], Screen[None]]:
        """:class:`wizwar_tui.arcomage.watch.WatchScreen`: the field, the archmages, the stack
        and the actions of the public view."""
        from wizwar_tui.arcomage.watch import WatchScreen

        return WatchScreen

    def run_bench(self, runs: int = 5, quick: bool = False, only: list[str] | None = None) -> int:
        """:func:`wizwar_tui.arcomage.bench.run`: random and apprentice games per second."""
        from wizwar_tui.arcomage.bench import run

        return run(runs=runs, quick=quick, only=only or ())

    def replay_mark(self, state: Any) -> tuple[int, str]:
        """The turn and the active archmage (a replay's turns; rules.md §4)."""
        return int(state.d["turn"]), str(state.d["active"])

    def replay_screen(self) -> type[ReplayScreen]:
        """:class:`wizwar_tui.arcomage.replay.ArcoMageReplayScreen`."""
        from wizwar_tui.arcomage.replay import ArcoMageReplayScreen

        return ArcoMageReplayScreen


UI = ArcoMageUI()
