"""ArcoMage's part of the replay: the field, the archmages and the stack at action *n*, seen
as the chosen seat (the timeline, its keys, seek and "seen as" are the shell's
:mod:`wizwar_tui.replay`). Only ``RULESET.view(state, seat)`` is drawn; "everyone" (allowed
once the game is over) is drawn as P1's view with every trap shown by the state."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from rich.text import Text
from textual.containers import Horizontal, Vertical
from textual.widget import Widget
from textual.widgets import Static

from core import registry
from wizwar_tui.arcomage import render
from wizwar_tui.arcomage.game import action_hexes
from wizwar_tui.gameui import ReflowLog
from wizwar_tui.replay import EVERYONE, ReplayScreen


class ArcoMageReplayScreen(ReplayScreen):
    """The replay of an ArcoMage game: the field (the last action's hexes marked), the
    stack and both archmages, beside the shell's log."""

    CSS_PATH = ["../replay.tcss"]  # the shell's sheet (relative to this module)
    ROUNDS = False  # the marks are ArcoMage's turns (rules.md §4): no rounds besides them
    DEFAULT_CSS = """
    ArcoMageReplayScreen #ar-left { width: auto; }
    ArcoMageReplayScreen #ar-field { width: auto; height: auto; }
    ArcoMageReplayScreen #ar-right { width: 1fr; }
    ArcoMageReplayScreen #ar-players { height: auto; border: round $panel-line; }
    """

    def compose_game(self) -> Iterator[Widget]:
        """The field column and the side panels."""
        with Horizontal(id="main"):
            with Vertical(id="ar-left"):
                yield Static(id="ar-field")
                yield Static(id="info")
                yield Static(id="ar-stack")
            with Vertical(id="ar-right"):
                yield Static(id="ar-players")
                yield ReflowLog(id="log", wrap=True, markup=False, auto_scroll=True,
                              min_width=20, max_lines=2000)

    def mount_game(self) -> None:
        """Titles."""
        self.query_one("#ar-players").border_title = "Archmages"
        geo = render.FieldGeometry()
        self.query_one("#ar-left").styles.width = geo.width + 1
        self.query_one("#ar-field").styles.height = geo.height

    def draw_game(self, st: Any) -> None:
        """The field and panels after action ``n``, as the chosen seat sees them."""
        rs = registry.get("arcomage")
        seat = self.seat if self.seat != EVERYONE else "P1"
        v = rs.view(st, seat) if self.seat != EVERYONE else {**st.d, "viewer": ""}
        last = self.replay.actions[self.n - 1] if self.n else None
        marked: list[str] = []
        if last is not None:
            try:
                a = rs.parse_action(str(last))
                marked = action_hexes(v, a)
            except ValueError:
                marked = []
        self.query_one("#ar-field", Static).update(render.render_field(
            v, seat, render.FieldGeometry(), marked=marked, ascii_only=self.ascii_only))
        players = Text()
        players.append_text(render.player_panel(v, "P1", ""))  # no "(you)" in a replay
        players.append("\n")
        players.append_text(render.player_panel(v, "P2", ""))
        self.query_one("#ar-players", Static).update(players)
        self.query_one("#ar-stack", Static).update(render.stack_text(v, seat))
        self.query_one("#info", Static).update(self.info_text())
