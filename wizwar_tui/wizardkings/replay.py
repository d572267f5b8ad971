"""Wizard Kings' part of the replay: the map and panels at action *n*
(:class:`WizardKingsReplayScreen`; the timeline, its keys and "seen as" are the shell's
:mod:`wizwar_tui.replay`).

The map shows ``view(state, seat)`` of the replayed state: a seat's own view (its blocks' faces,
the others' colours and labels), or every block's face ("everyone") once the game is over,
when the rules have revealed them all (rules.md R119's final audit).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, ScrollableContainer, Vertical
from textual.css.query import NoMatches
from textual.geometry import Region
from textual.widget import Widget
from textual.widgets import RichLog, Static

from wizwar_tui.replay import EVERYONE, ReplayScreen
from wizwar_tui.wizardkings import render


class ReplayMapScroll(ScrollableContainer, can_focus=False, inherit_bindings=False):
    """The replay's map window."""


class WizardKingsReplayScreen(ReplayScreen):
    """The replay of a Wizard Kings game: the map (the last action's hexes lit), the players
    and the battle, the last action's hex in full, beside the shell's log."""

    CSS_PATH = ["../replay.tcss"]  # the shell's (paths are relative to this module)
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("h,H,shift+left", "scroll_side(-14)", "Map left", show=False),
        Binding("l,L,shift+right", "scroll_side(14)", "Map right", show=False),
    ]
    #: the keys line while the map is cut sideways (trialWK 4: ``l`` did nothing and 2d-2h
    #: were never seen below about 150 columns), longest first
    SIDE_KEYS = ("↑↓ h/l scroll the map · ←→ step · [] turn · t jump · space play · "
                 "v seen as · q back",
                 "↑↓hl map · ←→ step · [] turn · t jump · space play · v seen as · q back")
    DEFAULT_CSS = """
    WizardKingsReplayScreen #wkr-main { height: 1fr; }
    WizardKingsReplayScreen #wkr-mapbox { width: 1fr; border: round $panel-line; }
    WizardKingsReplayScreen #wkr-side { width: 40; }
    WizardKingsReplayScreen #wkr-status { height: auto; border: round $panel-line; }
    WizardKingsReplayScreen #wkr-info { height: auto; }
    WizardKingsReplayScreen #log { height: 1fr; border: round $panel-line; }
    WizardKingsReplayScreen #wkr-map { width: auto; height: auto; }
    """

    def compose_game(self) -> Iterator[Widget]:
        """The map column and the side panels."""
        with Horizontal(id="wkr-main"):
            with Vertical(id="wkr-left"):
                with ReplayMapScroll(id="wkr-mapbox"):
                    yield Static(id="wkr-map")
                yield Static(id="wkr-info")
            with Vertical(id="wkr-side"):
                yield Static(id="wkr-status")
                yield RichLog(id="log", wrap=True, markup=False, auto_scroll=True,
                              min_width=20, max_lines=2000)

    def mount_game(self) -> None:
        """The panels' titles."""
        self.query_one("#wkr-mapbox").border_title = "Map"
        self.query_one("#wkr-status").border_title = "Players"
        self.fit_game()

    def fit_game(self) -> None:
        """The side panels as wide as the game screen's for the window (30 below 100
        columns: the map shows 5 hex columns at 80, not 4)."""
        from wizwar_tui.wizardkings.game import side_width

        side = self.query_one("#wkr-side")
        want = side_width(self.app.size.width)
        if side.styles.width is None or side.styles.width.value != want:
            side.styles.width = want

    def seen_view(self, st: Any) -> dict[str, Any]:
        """The view drawn: the seat's, or every block's face for "everyone"."""
        rs = self.replay.ruleset
        if self.seat == EVERYONE:
            return render.reveal_all(rs.state_to_wire(st)["g"], "")
        return dict(rs.view(st, self.seat))

    def draw_game(self, st: Any) -> None:
        """The map and panels after action ``n`` as the seat seen as sees them."""
        v = self.seen_view(st)
        last = self.seen_action(self.n) if self.n else None
        hexes = action_hexes(last)
        b = render.board_of(v)
        lit = {h for h in hexes if h in b.hexes}
        # the hex the action ends in (a path's last, a new unit's city): the map follows it
        cursor = next((h for h in reversed(hexes) if h in b.hexes), None)
        self.query_one("#wkr-map", Static).update(render.render_map(
            v, cursor, ascii_only=self.ascii_only, reach=lit))
        t = Text()
        t.append(f"turn {v['turn']} · {v['phase']}\n", "bold")
        if v.get("order"):
            t.append("initiative " + " ".join(v["order"]) + "\n")
        for p in v["players"]:
            on = sum(1 for x in v["blocks"].values() if x["owner"] == p and x["state"] == "map")
            t.append(f"{p} ", f"bold {render.OWNER.get(p, '')}")
            t.append(f"{v['armies'][p]} · {on} blocks\n")
        bt = v.get("battle")
        if bt:
            t.append(f"battle in {bt['hex']}, round {bt['round']}\n", "bold #ff8787")
        if cursor:
            for line in render.hex_lines(v, cursor, ascii_only=self.ascii_only):
                t.append_text(line)
                t.append("\n")
        self.query_one("#wkr-status", Static).update(t)
        self.query_one("#wkr-info", Static).update(self.info_text())
        if cursor:
            h = b.hexes[cursor]
            x, y = render.origin(h)
            self.call_after_refresh(lambda: self.query_one(ReplayMapScroll).scroll_to_region(
                Region(x, y, 9, 5), animate=False))

    def head_text(self, st: Any, rim: bool | None = None) -> Text:
        """The shell's header with the rules' turn: ``turn 3 · Build Phase (P1, P2 to act)``
        where the shell says ``round 3 · turn 3 ()`` (a replay's turns are the game's turns:
        :meth:`WizardKingsUI.replay_mark`)."""
        t = super().head_text(st, rim)
        rp = self.replay
        rnd, active = rp.marks[self.n]
        old = f" · round {rnd} · turn {rp.turn_of(self.n)} ({active})"
        i = t.plain.find(old)
        if i < 0:
            return t
        return t[:i] + Text(turn_words(st.d, rp.ruleset.to_move(st))) + t[i + len(old):]

    def write_action(self, panel: RichLog, n: int) -> None:
        """Action ``n`` and its events in words (as the game's log says them)."""
        from wizwar_tui.wizardkings.game import event_words

        panel.write(self.action_line(n))
        for ev in self.replay.events[n - 1]:
            panel.write(Text(event_words(ev)))

    def scroll_board(self, lines: int) -> None:
        """↑↓: scroll the map."""
        self.query_one(ReplayMapScroll).scroll_relative(y=lines, animate=False)

    def action_scroll_side(self, cols: int) -> None:
        """h / l (Shift+←/→): scroll the map sideways (two hex columns)."""
        self.query_one(ReplayMapScroll).scroll_relative(x=cols, animate=False)

    def board_cut(self) -> bool:
        """True when the map's window shows only a part of it (up/down or sideways)."""
        try:
            box = self.query_one(ReplayMapScroll)
        except NoMatches:  # not composed yet
            return False
        return box.max_scroll_y > 0 or box.max_scroll_x > 0

    def keys_text(self) -> Text:
        """The shell's keys line; while the map is cut sideways, one naming h/l too."""
        try:
            side_cut = self.query_one(ReplayMapScroll).max_scroll_x > 0
        except NoMatches:  # not composed yet
            side_cut = False
        if not side_cut:
            return super().keys_text()
        width = self.app.size.width - 2
        keys = next((k for k in self.SIDE_KEYS if len(k) <= width), self.SIDE_KEYS[-1])
        return Text(keys, "dim", no_wrap=True, overflow="ellipsis")


def action_hexes(action: Any) -> list[str]:
    """The hexes an action names (a path's hexes, a battle's, a new unit's city)."""
    if action is None:
        return []
    out: list[str] = []
    for w in getattr(action, "words", ()):
        for part in w.replace("=", ",").replace("@", ",").replace(":", ",").split(","):
            for h in part.split("-"):
                if len(h) == 3 and h[0] in "1234" and h[1] in "abcdefgh" and h[2].isdigit():
                    out.append(h)
    return out


def turn_words(g: dict[str, Any], moving: list[str]) -> str:
    """`` · turn 3 · Build Phase (P1, P2 to act)``: the game turn (R13), its phase and who
    acts (nobody once the game is over)."""
    phase = g["phase"]
    if phase == "over":
        return f" · turn {g['turn']}"
    name = "deployment" if phase == "setup" else f"{phase.capitalize()} Phase"
    who = f" ({', '.join(moving)} to act)" if moving else ""
    return f" · turn {g['turn']} · {name}{who}"
