"""Watching a Wizard Kings game over SSH (``wizwar host --ssh``, a watcher's session): the map
and its standing blocks, the players and the actions, from the public view only
(``view(state, "")``: every block shows its owner's colour and label, none its face, except in
the battle being fought, rules.md R111)."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, ScrollableContainer, Vertical
from textual.screen import Screen
from textual.widgets import Footer, RichLog, Static

from wizwar_tui.screens import TooSmall
from wizwar_tui.wizardkings import render


class WatchScreen(Screen[None]):
    """Watching a game: the seats until it starts, then the map, the players and the actions
    as notation. ``link`` is the watcher's ``wizwar_tui.lobby.LanLink`` (its ``game`` has
    ``view()`` and ``actions`` once the game is on)."""

    BINDINGS = [Binding("q,escape", "leave", "Stop watching")]
    DEFAULT_CSS = """
    WatchScreen #wkw-top { height: 1; background: #1f2a33; color: #d0d0d0; }
    WatchScreen #wkw-main { height: 1fr; }
    WatchScreen #wkw-scroll { width: 1fr; border: round $panel-line; }
    WatchScreen #wkw-side { width: 36; }
    WatchScreen #wkw-players { height: auto; border: round $panel-line; }
    WatchScreen #wkw-log { height: 1fr; border: round $panel-line; }
    WatchScreen #wkw-map { width: auto; height: auto; }
    """

    def __init__(self, link: Any) -> None:
        super().__init__()
        self.link = link
        self.logged = 0

    def compose(self) -> ComposeResult:
        """Top line, map, side panels."""
        yield Static(id="wkw-top")
        with Horizontal(id="wkw-main"):
            with ScrollableContainer(id="wkw-scroll", can_focus=False):
                yield Static(id="wkw-map")
            with Vertical(id="wkw-side"):
                yield Static(id="wkw-players")
                yield RichLog(id="wkw-log", wrap=True, markup=False, min_width=20)
        yield Footer()
        yield TooSmall()

    def on_mount(self) -> None:
        """First drawing; redraw on every change of the game."""
        self.query_one("#wkw-players").border_title = "Players"
        self.query_one("#wkw-log").border_title = "Actions"
        self.query_one("#wkw-log", RichLog).can_focus = False
        self.link.listeners.append(self.net_changed)
        self.net_changed()

    def on_unmount(self) -> None:
        """Stop listening to the game."""
        if self.net_changed in self.link.listeners:
            self.link.listeners.remove(self.net_changed)

    def public_view(self) -> dict[str, Any] | None:
        """The game's public view, or None before it starts."""
        game = self.link.game
        view = getattr(game, "view", None)
        if view is None:
            return None
        v = view()
        return dict(v) if isinstance(v, dict) and "blocks" in v else None

    def net_changed(self) -> None:
        """Redraw from the watcher's public view."""
        link = self.link
        top = Text()
        top.append(" watching Wizard Kings ", "bold reverse")
        v = self.public_view()
        players = Text()
        if v is None:
            top.append(" · waiting for the game to start")
            for seat, who, st in link.seats():
                players.append(f"{seat} ", f"bold {render.OWNER.get(seat, '')}")
                players.append(f"{who[:20]} {st}\n" if who else f"{st}\n")
            players.append("You watch: you see no block's face.", "dim")
        else:
            top.append(f" · turn {v['turn']} · {v['phase']}")
            if v.get("winner"):
                top.append(f" · {v['winner']} ({v.get('how', '')})", "bold green")
            self.query_one("#wkw-map", Static).update(render.render_map(
                v, (v.get("battle") or {}).get("hex"), ascii_only=bool(
                    getattr(self.app, "ascii_only", False))))
            for p in v["players"]:
                on = sum(1 for x in v["blocks"].values() if x["owner"] == p
                         and x["state"] == "map")
                players.append(f"{p} ", f"bold {render.OWNER.get(p, '')}")
                players.append(f"{v['armies'][p]} {on} blocks\n")
            players.append("You watch: no block's face is shown.", "dim")
        self.query_one("#wkw-players", Static).update(players)
        if getattr(link, "problem", ""):
            top.append(f" · {link.problem}", "bold red")
        self.query_one("#wkw-top", Static).update(top)
        log = self.query_one("#wkw-log", RichLog)
        actions = list(getattr(link.game, "actions", []) or [])
        if len(actions) < self.logged:  # caught up again after a reconnection
            log.clear()
            self.logged = 0
        for i, act in enumerate(actions[self.logged:], self.logged + 1):
            text = str(act)
            line = Text(f"{i:>4} ", "dim")
            line.append(text, render.OWNER.get(text.split(" ", 1)[0], ""))
            log.write(line)
        self.logged = len(actions)

    def action_leave(self) -> None:
        """Stop watching: end the session."""
        self.app.exit(0)
