"""The plain screens of a game that brings no UI part of its own (the shell's fallback).

Any ruleset of ``core.registry`` can be played in the app before its own screens exist: the
game screen shows the player's view as text, who is to act in which stage, the legal actions
in a list (Enter plays one; the large families of ``ruleset.families`` are listed through
``ruleset.expand``) and the events; the bots act at once. :class:`PlainUI` is the
:class:`~wizwar_tui.gameui.GameUI` that :func:`wizwar_tui.games.ui` hands out for such a game.
"""

from __future__ import annotations

import pprint
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Footer, OptionList, RichLog, Static
from textual.widgets.option_list import Option

from core.engine import IllegalAction
from wizwar_tui.gameui import GameScreenBase, GameUI, QuickStart
from wizwar_tui.screens import TooSmall


class PlainGameScreen(GameScreenBase):
    """A game of any ruleset through the ``core.session.Session`` protocol only: the view as
    text, the stage, the legal actions (Enter plays the highlighted one) and the events."""

    BINDINGS = [Binding("q", "menu", "Menu")]
    DEFAULT_CSS = """
    PlainGameScreen #plain-top { height: auto; background: #1f2a33; color: #d0d0d0; }
    PlainGameScreen #plain-main { height: 1fr; }
    PlainGameScreen #plain-view-box { width: 1fr; border: round $panel-line; }
    PlainGameScreen #plain-side { width: 1fr; }
    PlainGameScreen #plain-actions { height: 1fr; border: round #5fd7ff; }
    PlainGameScreen #plain-log { height: 1fr; border: round $panel-line; }
    """

    def __init__(self, *, session: Any = None, lan: Any = None, seed: int | None = None,
                 ascii_only: bool = False, bot_delay: float = 0.3,
                 save_log: bool = False) -> None:
        super().__init__()
        if session is None:
            raise ValueError("a plain game screen needs a session")
        self.session = session
        self.lan = lan
        self.seed = seed
        self.shown: list[Any] = []  # the actions listed, in the list's order
        self.logged = 0  # events written to the log panel
        self.seen_messages = 0  # the LAN game's messages written to the log panel

    def compose(self) -> ComposeResult:
        """Header, the view, the actions and the log."""
        yield Static(id="plain-top")
        with Horizontal(id="plain-main"):
            with VerticalScroll(id="plain-view-box"):
                yield Static(id="plain-view")
            with Vertical(id="plain-side"):
                yield OptionList(id="plain-actions")
                yield RichLog(id="plain-log", wrap=True, markup=False, min_width=20)
        yield Footer()
        yield TooSmall()

    def on_mount(self) -> None:
        """Titles, the bots' first actions, the first drawing."""
        self.query_one("#plain-view-box").border_title = "Your view"
        self.query_one("#plain-actions").border_title = "Your actions (Enter)"
        self.query_one("#plain-log").border_title = "Log"
        self.run_bots()
        self.draw()
        self.query_one(OptionList).focus()
        if self.lan is not None:  # a LAN game: redraw on every commit from the host
            self.lan.listeners.append(self.net_changed)

    def on_unmount(self) -> None:
        """Stop listening to the LAN game."""
        if self.lan is not None and self.net_changed in self.lan.listeners:
            self.lan.listeners.remove(self.net_changed)

    def net_changed(self) -> None:
        """The LAN game changed (another seat's action, the next round, a message of the
        net layer such as a refused proposal): log the new messages, draw it again."""
        if not self.is_attached:
            return
        messages = getattr(self.lan, "messages", [])
        if len(messages) > self.seen_messages:
            log = self.query_one("#plain-log", RichLog)
            for msg in messages[self.seen_messages:]:
                log.write(Text(f"· {msg}", "dim italic"))
            self.seen_messages = len(messages)
        self.draw()

    def run_bots(self) -> None:
        """Let the bots act until the human must (or the game is over)."""
        for _ in range(10_000):
            if self.session.over or not self.session.bot_to_act():
                break
            self.session.step_bot()

    def legal(self) -> list[Any]:
        """The human's legal actions now, with every member of the large families."""
        s = self.session
        if s.over or s.human not in s.to_move():
            return []
        out = list(s.legal_actions())
        for fam in s.families():
            out += s.expand(fam)
        return out

    def draw(self) -> None:
        """Everything again from the session."""
        s = self.session
        rs = s.ruleset
        top = Text(no_wrap=True, overflow="ellipsis")
        top.append(f" {rs.title} ", "bold reverse")
        if self.seed is not None:
            top.append(f" seed {self.seed} ·")
        top.append(f" you are {s.human} · ")
        result = s.result()
        if result.over:
            top.append(result.text or "the game is over", "bold green")
        else:
            stage = s.stage()
            top.append(f"{stage.kind}: {', '.join(stage.players) or 'nobody'} to act")
        self.query_one("#plain-top", Static).update(top)
        self.query_one("#plain-view", Static).update(
            Text(pprint.pformat(s.view(), width=60, sort_dicts=False)))
        self.shown = self.legal()
        ol = self.query_one("#plain-actions", OptionList)
        ol.clear_options()
        ol.add_options([Option(str(a)) for a in self.shown])
        if self.shown:
            ol.highlighted = 0
        log = self.query_one("#plain-log", RichLog)
        for ev in s.events[self.logged:]:
            log.write(Text(ev.text))
        self.logged = len(s.events)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Play the chosen action; the bots answer; a refusal is said in the log."""
        event.stop()
        action = self.shown[event.option_index]
        try:
            self.session.submit(action)
        except IllegalAction as exc:
            self.query_one("#plain-log", RichLog).write(Text(f"Not possible: {exc.reason}",
                                                             "bold yellow"))
            return
        self.run_bots()
        self.draw()

    def action_menu(self) -> None:
        """Back to the main menu (a LAN game is left)."""
        if self.lan is not None:
            self.app.leave_lan()  # type: ignore[attr-defined]
        self.app.show_menu()  # type: ignore[attr-defined]


class PlainUI(GameUI):
    """The UI part of a game without one (:func:`plain_ui` names it): the plain game screen,
    one quick start (the defaults)."""

    quick_starts = (QuickStart("", "Play against bots", {}),)

    def game_screen(self) -> type[GameScreenBase]:
        """:class:`PlainGameScreen`."""
        return PlainGameScreen

    def help_text(self, ascii_only: bool = False, menu: bool = True) -> str:
        """The plain screen's keys."""
        return (f"[b]{self.title}[/b] — this game has no screens of its own yet: the list "
                "shows your legal actions (Enter plays one), the left panel your view. "
                + ("q back to the menu" if menu else "q leave"))


def plain_ui(name: str, title: str) -> GameUI:
    """A :class:`PlainUI` for the ruleset ``name`` titled ``title``."""
    cls = type(f"PlainUI[{name}]", (PlainUI,), {"name": name, "title": title,
                                                 "__module__": __name__})
    return cls()
