"""Wiz-War's UI part (:class:`~wizwar_tui.gameui.GameUI`): its game screen, board renderer and
panels, help text, the Cards reference screens, the game-over screen and its replay drawing.

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

#: The deck line of the menu, the help and the game log. Written out so the menu does not
#: load the card data; ``tests/test_tui.py`` checks it against ``core.wizwar.cards``.
DECK_NOTE = "The full 6th-edition deck: 74 kinds, 125 cards (124 with two players)."


class WizWarUI(GameUI):
    """Wiz-War's screens for the shell (see :mod:`wizwar_tui.gameui`)."""

    name = "wizwar"
    title = "Wiz-War"
    subtitle = "the classic game of dungeon wizardry — in your terminal"
    menu_note = DECK_NOTE
    quick_starts = (
        QuickStart("2", "Play against 1 bot (2 players)", {"players": 2}),
        QuickStart("3", "Play against 2 bots (3 players)", {"players": 3}),
        QuickStart("4", "Play against 3 bots (4 players)", {"players": 4}),
    )
    references = (Reference("c", "Cards: the whole deck (c)", "cards", "Cards"),)

    def game_screen(self) -> type[GameScreenBase]:
        """:class:`wizwar_tui.wizwar.game.GameScreen`."""
        from wizwar_tui.wizwar.game import GameScreen

        return GameScreen

    def help_text(self, ascii_only: bool = False, menu: bool = True) -> str:
        """Keys, the board legend and the rules in short (:func:`screens.help_text`)."""
        from wizwar_tui.wizwar.screens import help_text

        return help_text(ascii_only, menu)

    def open_reference(self, ref: str, app: App[Any]) -> None:
        """``cards``: the Cards screen (the whole deck, filtered by kind)."""
        from wizwar_tui.wizwar.screens import CardsScreen

        if ref == "cards":
            app.push_screen(CardsScreen())

    def sides(self, options: Mapping[str, Any]) -> list[tuple[str, ...]]:
        """Team play: P1+P3 against P2+P4 (rulebook, Team Play Option); else every seat
        alone."""
        if options.get("team"):
            return [("P1", "P3"), ("P2", "P4")]
        return super().sides(options)

    def option_note(self, name: str, values: Mapping[str, Any], refused: str = "") -> str:
        """Short words for the new-game screen: the table ("you and 2 bots"), what each
        variant does, and when it applies ("2 players only": FAQ, crossed exits; "4 players
        only": rulebook, Team Play Option)."""
        if refused:
            return {"crossed": "2 players only", "team": "4 players only"}.get(name, refused)
        if name == "players":
            bots = int(values["players"]) - 1
            return f"you and {bots} bot{'s' if bots > 1 else ''}"
        return {"crossed": "rim exits lead to the opposite sector",
                "doors": "your own sector's doors open for you",
                "team": "P1+P3 (you and P3) against P2+P4"}.get(name, "") \
            or super().option_note(name, values)

    def seat_note(self, seat: str, values: Mapping[str, Any]) -> str:
        """Team play: ``your team-mate · `` (P3) or ``opponent · `` (P2, P4)."""
        if values.get("team") and values.get("players") == 4:
            return "your team-mate · " if seat == "P3" else "opponent · "
        return ""

    def watch_screen(self) -> Callable[[Any], Screen[None]]:
        """:class:`wizwar_tui.wizwar.watch.WatchScreen`: the board, players, stack and actions
        of the public view."""
        from wizwar_tui.wizwar.watch import WatchScreen

        return WatchScreen

    def run_bench(self, runs: int = 5, quick: bool = False, only: list[str] | None = None) -> int:
        """:func:`wizwar_tui.wizwar.bench.run` (docs/performance.md)."""
        from wizwar_tui.wizwar.bench import run

        return run(runs=runs, quick=quick, only=only or ())

    def replay_mark(self, state: Any) -> tuple[int, str]:
        """The round and the active wizard (a replay's turns; rulebook, Turn Sequence)."""
        return int(state.round), str(state.turn.active)

    def replay_screen(self) -> type[ReplayScreen]:
        """:class:`wizwar_tui.wizwar.replay.WizWarReplayScreen`: the board, the stack, the
        players and the hands at action *n*."""
        from wizwar_tui.wizwar.replay import WizWarReplayScreen

        return WizWarReplayScreen


UI = WizWarUI()
