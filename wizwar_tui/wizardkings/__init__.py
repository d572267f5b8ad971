"""Wizard Kings' UI part (:class:`~wizwar_tui.gameui.GameUI`): the map and its standing
blocks, the game screen, the help and reference text, the game-over box and the replay.

This module stays light (the menu imports it before its first paint): the screens and the
rules core load inside the methods.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from wizwar_tui.gameui import GameScreenBase, GameUI, QuickStart, Reference

if TYPE_CHECKING:
    from textual.app import App
    from textual.screen import Screen

    from wizwar_tui.replay import ReplayScreen


class WizardKingsUI(GameUI):
    """Wizard Kings' screens for the shell (see :mod:`wizwar_tui.gameui`)."""

    name = "wizard-kings"
    title = "Wizard Kings"
    menu_note = "Block wargame: hidden armies on hex maps."
    # short labels: the menu's column is about 36 wide and wraps without an indent (trialWK)
    quick_starts = (QuickStart("", "Play against 1 bot (2 players)", {}),
                    QuickStart("", "Play against 3 bots (4 players)",
                               {"players": 4, "layout": "4-map"}),
                    QuickStart("", "Teams: you+P3 against P2+P4",
                               {"players": 4, "layout": "4-map", "teams": "p1+p3,p2+p4"}))
    references = (Reference("", "Keys, terms, units and spells", "reference", ""),)

    def sides(self, options: Mapping[str, Any]) -> list[tuple[str, ...]]:
        """The seats by side: a ``teams`` game's partners together (R105), else every seat
        alone."""
        from core.wizardkings.ruleset import parse_teams

        seats = self.ruleset().seats(options)
        teams = parse_teams(str(options.get("teams") or ""), len(seats))
        grouped = [tuple(t) for t in teams]
        return grouped + [(p,) for p in seats if not any(p in t for t in teams)]

    def seat_note(self, seat: str, values: Mapping[str, Any]) -> str:
        """A team game: ``your ally · `` or ``opponent · `` before a bot seat (R105)."""
        from core.engine import OptionError

        try:
            sides = self.sides(values)
        except (OptionError, ValueError):
            return ""
        if all(len(t) == 1 for t in sides):
            return ""
        mine = next(t for t in sides if "P1" in t)
        return "your ally · " if seat in mine else "opponent · "

    def game_screen(self) -> type[GameScreenBase]:
        """:class:`wizwar_tui.wizardkings.game.WizardKingsScreen`."""
        from wizwar_tui.wizardkings.game import WizardKingsScreen

        return WizardKingsScreen

    def help_text(self, ascii_only: bool = False, menu: bool = True) -> str:
        """Keys, the map's legend, the terms, units and spells."""
        from wizwar_tui.wizardkings.screens import help_text

        return help_text(ascii_only, menu)

    def open_reference(self, ref: str, app: App[Any]) -> None:
        """``reference``: the help frame with the keys, terms, units and spells."""
        from wizwar_tui.screens import HelpScreen

        if ref == "reference":
            app.push_screen(HelpScreen(getattr(app, "ascii_only", False), self.name))

    def option_note(self, name: str, values: Mapping[str, Any], refused: str = "") -> str:
        """Short words for the new-game screen."""
        if not refused and name == "layout":
            return {"2-map": "maps 1 and 2 side by side",
                    "2-map-strait": "map 3 turned below map 1, a strait between",
                    "4-map": "maps 1 2 above, 3 4 turned below: 4 players"}.get(
                str(values.get("layout")), "")
        return super().option_note(name, values, refused)

    def watch_screen(self) -> Callable[[Any], Screen[None]]:
        """:class:`wizwar_tui.wizardkings.watch.WatchScreen`: the map, players and actions
        of the public view."""
        from wizwar_tui.wizardkings.watch import WatchScreen

        return WatchScreen

    def run_bench(self, runs: int = 5, quick: bool = False, only: list[str] | None = None) -> int:
        """:func:`wizwar_tui.wizardkings.bench.run`: random and captain-bot games per
        second."""
        from wizwar_tui.wizardkings.bench import run

        return run(runs=runs, quick=quick, only=only or ())

    def replay_mark(self, state: Any) -> tuple[int, str]:
        """The game turn (R13: initiative, movement, combat, build) and ``""``: a replay's
        turns are the rules' turns (its "turn 3" is the game's turn 3, not the third change of
        the seat acting); the replay screen's header says the phase and who acts."""
        return int(state.d["turn"]), ""

    def replay_screen(self) -> type[ReplayScreen]:
        """:class:`wizwar_tui.wizardkings.replay.WizardKingsReplayScreen`."""
        from wizwar_tui.wizardkings.replay import WizardKingsReplayScreen

        return WizardKingsReplayScreen


UI = WizardKingsUI()
