"""Watching a Wiz-War game over SSH (``wizwar host --ssh``, a watcher's session): the board,
the players, the stack and the actions, from the public view only (never a hand)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, ScrollableContainer, Vertical
from textual.screen import Screen
from textual.widgets import Footer, RichLog, Static

from net.lan import PeerGame
from wizwar_tui.lobby import LanLink
from wizwar_tui.screens import TooSmall
from wizwar_tui.wizwar import render
from wizwar_tui.wizwar.widgets import Board, BoardRuler, PlayersPanel, StackPanel


class WatchScreen(Screen[None]):
    """Watching a game: the seats until the deal, then the board, the players, the stack
    and the actions as notation, from the public view (``view(state, "")``)."""

    BINDINGS = [Binding("q,escape", "leave", "Stop watching")]
    SCOPED_CSS = False  # the size classes (-narrow) are the app's, above this screen
    DEFAULT_CSS = """
    #watch-top { height: 1; background: #1f2a33; color: #d0d0d0; }
    #watch-main { height: 1fr; }
    #watch-scroll { width: auto; max-width: 70%; height: 100%; }
    #watch-side { width: 1fr; min-width: 24; }
    #watch-players { height: auto; border: round $panel-line; }
    #watch-stack { height: auto; border: round #ff875f; }
    #watch-log { height: 1fr; border: round $panel-line; }
    .-narrow #watch-main { layout: vertical; }
    .-narrow #watch-scroll { width: 100%; max-width: 100%; height: 3fr; }
    .-narrow #watch-side { width: 100%; height: 2fr; }
    """

    def __init__(self, link: LanLink) -> None:
        super().__init__()
        self.link = link
        self.logged = 0

    def compose(self) -> ComposeResult:
        """Top line, board, side panels."""
        yield Static(id="watch-top")
        with Horizontal(id="watch-main"):
            with ScrollableContainer(id="watch-scroll", can_focus=False):
                yield BoardRuler(id="watch-ruler")
                yield Board(id="watch-board")
            with Vertical(id="watch-side"):
                yield PlayersPanel(id="watch-players")
                yield StackPanel(id="watch-stack")
                yield RichLog(id="watch-log", wrap=True, markup=False, min_width=20)
        yield Footer()
        yield TooSmall()

    def on_mount(self) -> None:
        """First drawing; redraw on every change of the game."""
        self.query_one("#watch-players").border_title = "Players"
        self.query_one("#watch-stack").border_title = "Stack"
        self.query_one("#watch-log").border_title = "Actions"
        self.query_one("#watch-log", RichLog).can_focus = False
        self.query_one("#watch-stack").display = False
        self.link.listeners.append(self.net_changed)
        self.net_changed()

    def on_unmount(self) -> None:
        """Stop listening to the game."""
        if self.net_changed in self.link.listeners:
            self.link.listeners.remove(self.net_changed)

    def net_changed(self) -> None:
        """Redraw from the watcher's public view."""
        link, game = self.link, self.link.game
        top = Text()
        top.append(" watching ", "bold reverse")
        top.append(f" \u201c{getattr(game, 'game', '') or link.address}\u201d · ")
        view = game.view() if isinstance(game, PeerGame) else None
        status = link.session.seat_status()
        if view is None:
            free = sum(1 for st in status.values() if st == "free")
            top.append(f"waiting for {free} more player{'s' if free != 1 else ''}"
                       if free else "dealing…")
            seats = Text()
            for seat, who, st in link.seats():
                seats.append(f"{seat}  ", f"bold {render.player_colour(seat)}")
                if who:
                    seats.append(f"{who[:20]}  ")
                seats.append_text(render.seat_status_text(st))
                seats.append("\n")
            seats.append("You watch: you see no hand.", "dim")
            self.query_one("#watch-players", PlayersPanel).update(seats)
        else:
            top.append(render.turn_text(view) if not view.winner else
                       f"{view.winner} wins" if view.winner != "-" else "nobody wins")
            self.query_one("#watch-ruler", BoardRuler).show(view)
            self.query_one("#watch-board", Board).set_view(view, {})
            self.query_one("#watch-players", PlayersPanel).show(
                view, None, status, where="watching: no hand is shown", you="")
            self.query_one("#watch-stack", StackPanel).show(view)
        if link.problem:
            top.append(f" · {link.problem}", "bold red")
        self.query_one("#watch-top", Static).update(top)
        log = self.query_one("#watch-log", RichLog)
        actions = game.actions if isinstance(game, PeerGame) else []
        if len(actions) < self.logged:  # caught up again after a reconnection
            log.clear()
            self.logged = 0
        for i, act in enumerate(actions[self.logged:], self.logged + 1):
            actor = act.split(" ", 1)[0]
            line = Text(f"{i:>4} ", "dim")
            line.append(act, render.player_colour(actor))
            log.write(line)
        self.logged = len(actions)

    def action_leave(self) -> None:
        """Stop watching: end the session."""
        self.app.exit(0)
