"""Watching an ArcoMage game over SSH (``wizwar host arcomage --ssh``, a watcher's session):
the field, both archmages, the stack and the actions, from the public view only (a
watcher sees what the victim of a trap sees: never a trap's spell, R98)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, RichLog, Static

from net.lan import PeerGame
from wizwar_tui.arcomage import render
from wizwar_tui.gameui import ReflowLog
from wizwar_tui.lobby import LanLink
from wizwar_tui.screens import TooSmall


class WatchScreen(Screen[None]):
    """Watching a game: the seats until the deal, then the field, the archmages, the stack
    and the actions as notation, from the public view (``view(state, "")``)."""

    BINDINGS = [Binding("q,escape", "leave", "Stop watching")]
    DEFAULT_CSS = """
    WatchScreen #aw-top { height: 1; background: $boost; }
    WatchScreen #aw-left { width: auto; }
    WatchScreen #aw-side { width: 1fr; min-width: 24; }
    WatchScreen #aw-players { height: auto; border: round $panel-line; }
    WatchScreen #aw-log { height: 1fr; border: round $panel-line; }
    """

    def __init__(self, link: LanLink) -> None:
        super().__init__()
        self.link = link
        self.logged = 0

    def compose(self) -> ComposeResult:
        """Top line, the field, the side panels."""
        yield Static(id="aw-top")
        with Horizontal():
            with Vertical(id="aw-left"):
                yield Static(id="aw-field")
                yield Static(id="aw-stack")
            with Vertical(id="aw-side"):
                yield Static(id="aw-players")
                yield ReflowLog(id="aw-log", wrap=True, markup=False, min_width=20)
        yield Footer()
        yield TooSmall()

    def on_mount(self) -> None:
        """First drawing; redraw on every change of the game."""
        self.query_one("#aw-players").border_title = "Archmages"
        geo = render.FieldGeometry()
        self.query_one("#aw-left").styles.width = geo.width + 1
        self.query_one("#aw-field").styles.height = geo.height
        self.query_one("#aw-log").border_title = "Actions"
        self.query_one("#aw-log", RichLog).can_focus = False
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
        top.append(f" ArcoMage · {link.address} · ")
        v = game.view() if isinstance(game, PeerGame) else None
        if v is None:
            status = link.session.seat_status()
            free = sum(1 for st in status.values() if st == "free")
            top.append(f"waiting for {free} more player{'s' if free != 1 else ''}"
                       if free else "dealing…")
            self.query_one("#aw-players", Static).update(Text("You watch: no trap's spell "
                                                              "is shown.", "dim"))
        else:
            top.append(f"turn {v['turn']} · {v['active']}'s {v['step'].upper()}"
                       if not v["winner"] else f"{v['winner']} wins ({v['how']})"
                       if v["winner"] != "draw" else "a draw")
            self.query_one("#aw-field", Static).update(render.render_field(
                v, "", render.FieldGeometry(), ascii_only=bool(
                    getattr(self.app, "ascii_only", False))))
            players = Text()
            players.append_text(render.player_panel(v, "P1", ""))
            players.append("\n")
            players.append_text(render.player_panel(v, "P2", ""))
            self.query_one("#aw-players", Static).update(players)
            self.query_one("#aw-stack", Static).update(render.stack_text(v, ""))
        if link.problem:
            top.append(f" · {link.problem}", "bold red")
        self.query_one("#aw-top", Static).update(top)
        log = self.query_one("#aw-log", RichLog)
        actions = game.actions if isinstance(game, PeerGame) else []
        if len(actions) < self.logged:
            log.clear()
            self.logged = 0
        for i, act in enumerate(actions[self.logged:], self.logged + 1):
            line = Text(f"{i:>4} ", "dim")
            line.append(str(act), render.colour(str(act).split(" ", 1)[0]))
            log.write(line)
        self.logged = len(actions)

    def action_leave(self) -> None:
        """Stop watching: end the session."""
        self.app.exit(0)
