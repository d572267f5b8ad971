"""ArcoMage's game screen: the hex field, both archmages' panels, the spellbook, the stack
with its "respond or pass" prompt, the action list, the ``:`` notation line and the log.

It draws only the session's view (``session.view()``, which is ``RULESET.view(state, me)``)
and acts only through the ``core.session.Session`` protocol (local or LAN), so the rules
decide everything: what is listed comes from ``legal_actions``, and a refusal is shown in the
words of ``why``. Keys: see :func:`wizwar_tui.arcomage.screens.help_text`.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import _time, events, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Input, OptionList, RichLog, Static
from textual.widgets.option_list import Option

from core.arcomage import field as fld
from core.arcomage.actions import Action, NotationError, parse
from core.arcomage.data import SPELLS
from core.arcomage.turn import cast_candidates
from core.engine import IllegalAction
from wizwar_tui.arcomage import render
from wizwar_tui.footer import FittedFooter
from wizwar_tui.gameui import GameScreenBase, ReflowLog
from wizwar_tui.screens import HelpScreen, TooSmall


def step_hex(h: str, dx: int, dy: int) -> str:
    """The hex the cursor goes to from ``h`` by an arrow: left/right along the row (``dx``
    -1/+1), up/down to the nearest hex of the next row (``dy``), or ``h`` at the edge."""
    x, y = fld.XY[h]
    if dy == 0:
        row = [k for k in fld.HEXES if fld.XY[k][1] == y and (fld.XY[k][0] - x) * dx > 0]
        return min(row, key=lambda k: abs(fld.XY[k][0] - x)) if row else h
    row = [k for k in fld.HEXES if fld.XY[k][1] == y + dy]
    if not row:
        return h
    return min(row, key=lambda k: (abs(fld.XY[k][0] - x), -fld.XY[k][0]))


def action_hexes(v: Any, a: Action) -> list[str]:
    """The hexes of the field an action points at: a cast's field targets (a wizard's hex,
    a creature's or an empty hex), a walk's last hex, the targets of attacks and blocks."""
    if a.verb == "move":
        return [a.targets[-1]] if a.targets else []
    if a.verb in ("attack", "block"):
        out = []
        for pair in a.targets:
            _src, _, dst = pair.partition(">")
            h = render.target_hex(v, dst)
            if h:
                out.append(h)
        return out
    if a.verb == "choose":
        return [t for t in a.targets if fld.is_hex(t)]
    if a.verb == "cast":
        return [h for h in (render.target_hex(v, t) for t in a.targets[:1]) if h]
    return []


class ActionList(OptionList):
    """The action list: its rows are cut to its width (``render.fit_rows``), so a new width
    (laid out, the window resized, the panels toggled) cuts them again."""

    def on_resize(self, event: events.Resize) -> None:
        """Ask the screen to cut the rows again for the new width."""
        refit = getattr(self.screen, "refit_actions", None)
        if refit is not None:
            self.call_after_refresh(refit)


class FieldView(Static):
    """The hex field with a cursor (arrows move it; Enter chooses the hex under it)."""

    can_focus = True

    BINDINGS = [
        Binding("left", "cursor(-1, 0)", "Left", show=False),
        Binding("right", "cursor(1, 0)", "Right", show=False),
        Binding("up", "cursor(0, -1)", "Up", show=False),
        Binding("down", "cursor(0, 1)", "Down", show=False),
        Binding("enter", "choose", "Choose hex"),
    ]

    def action_cursor(self, dx: int, dy: int) -> None:
        """Move the cursor one hex."""
        screen = self.screen
        if isinstance(screen, ArcoMageGameScreen):
            screen.move_cursor(dx, dy)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Enter (choose a hex) only while the game goes on (the footer offered it after
        the host had closed the game)."""
        screen = self.screen
        if action == "choose" and isinstance(screen, ArcoMageGameScreen):
            return not screen.ended()
        return True

    def action_choose(self) -> None:
        """Choose the hex under the cursor."""
        screen = self.screen
        if isinstance(screen, ArcoMageGameScreen):
            screen.select_hex(screen.cursor)

    def on_click(self, event: events.Click) -> None:
        """A click puts the cursor on the hex (and chooses it)."""
        screen = self.screen
        if isinstance(screen, ArcoMageGameScreen):
            h = screen.geo.hex_at(event.x, event.y)
            if h:
                screen.cursor = h
                screen.select_hex(h)


FOOTER_PRIORITY = ("choose", "end", "pass", "help", "menu", "actions", "book", "spell_text",
                   "command", "rival_book", "zoc")
"""The footer's keys, most wanted first: a narrow window drops the last ones whole (at
60x20 the footer was cut mid-word); ``?`` lists every key."""


GAME_ACTIONS = frozenset({"actions", "end", "pass", "command"})
"""The screen's keys that act in the game: not offered once it has ended."""


class ArcoMageGameScreen(GameScreenBase):
    """One ArcoMage game over a session (a ``LocalSession`` against a bot, or a LAN game's
    ``NetSession`` with its link): the human is ``session.human``."""

    DEFAULT_CSS = """
    ArcoMageGameScreen #ac-top { height: 1; background: $boost; }
    ArcoMageGameScreen #ac-main { height: 1fr; }
    ArcoMageGameScreen #ac-left { width: auto; }
    ArcoMageGameScreen #ac-field { width: auto; height: auto; min-height: 16; }
    ArcoMageGameScreen #ac-field:focus { background: $boost; }
    ArcoMageGameScreen #ac-info { height: auto; max-height: 3; }
    ArcoMageGameScreen #ac-stack { height: auto; border: round $warning; display: none; }
    /* the quiet panels' line (and title) in Wiz-War's panel blue: $panel is nearly the
       background, so their titles could not be read (in a browser tab above all) */
    ArcoMageGameScreen #ac-log { height: 1fr; min-height: 0; border: round $panel-line; }
    ArcoMageGameScreen #ac-right { width: 1fr; min-width: 28; }
    ArcoMageGameScreen #ac-players { height: auto; max-height: 60%; border: round $panel-line;
        overflow-y: auto; }
    ArcoMageGameScreen #ac-book { height: 1fr; min-height: 4; border: round $primary; }
    ArcoMageGameScreen #ac-actions { height: 1fr; min-height: 4; border: round $success; }
    ArcoMageGameScreen #ac-status { height: auto; max-height: 2; background: $panel; }
    ArcoMageGameScreen #ac-cmd { display: none; }
    """

    BINDINGS = [
        Binding("question_mark", "help", "Help"),
        Binding("q", "menu", "Menu"),
        Binding("s", "book", "Spells"),
        Binding("o", "rival_book", "Rival book"),
        Binding("f", "field", "Field", show=False),
        Binding("a", "actions", "Actions"),
        Binding("e", "end", "End turn"),
        Binding("p,space", "pass", "Pass"),
        Binding("i", "spell_text", "Spell text"),
        Binding("z", "zoc", "ZoC"),
        Binding("S", "reference", "All spells", show=False),
        Binding("colon", "command", "Notation"),
        Binding("tab", "panels", "Field/panels", show=False),
        Binding("escape", "cancel", "Cancel", show=False),
    ]

    def __init__(self, *, session: Any = None, lan: Any = None, seed: int | None = None,
                 ascii_only: bool = False, bot_delay: float = 0.3,
                 save_log: bool = False) -> None:
        super().__init__()
        if session is None:
            raise ValueError("an ArcoMage game screen needs a session")
        self.session = session
        self.lan = lan
        self.seed = seed if lan is None else None
        self.ascii_only = ascii_only
        self.bot_delay = bot_delay
        self.save_log = save_log
        self.logfile: Any = None
        self.human: str = session.human
        self.cursor = "c1"
        self.zoc = False
        self.choosing: list[Action] = []  # the actions the current choice narrows
        self.choosing_what = ""  # what is being chosen, in words
        self.shown: list[Action] = []  # the action list's actions, in its order
        self.book: list[str] = []  # the spellbook list's slugs, in its order
        self.message: Text | None = None
        self.refused_text = ""  # the notation line last refused (":" opens the line with it)
        self.message_seq = -1  # the action count when the message was said
        self.logged = 0  # events written to the log
        self.seen_messages = len(getattr(lan, "messages", [])) if lan is not None else 0
        self.over_shown = False
        self.busy = False
        self.geo = render.FieldGeometry()
        self.list_shown = "book"  # the list shown on a small window
        self.panels_shown = False  # a narrow window shows the panels instead of the field
        opts = dict(getattr(session, "options", None) or {})
        self.clock = int(opts.get("clock", 0) or 0)  # R110: seconds, 0 for none
        self.turn_left = self.resp_left = self.clock
        self.turn_key: Any = None  # the turn whose budget turn_left is (R111)
        self.clock_timer: Any = None  # the one-second timer of a game with the clock
        self.resp_key: Any = None  # the decision whose budget resp_left is

    # ------------------------------------------------------------------ layout
    def compose(self) -> ComposeResult:
        """Top line, field column (field, hex details, stack, log), the panels, the
        spellbook and the action list, the prompt, the notation line."""
        yield Static(id="ac-top")
        with Horizontal(id="ac-main"):
            with Vertical(id="ac-left"):
                yield FieldView(id="ac-field")
                yield Static(id="ac-info")
                yield Static(id="ac-stack")
                yield ReflowLog(id="ac-log", wrap=True, markup=False, min_width=20,
                              max_lines=3000)
            with Vertical(id="ac-right"):
                yield Static(id="ac-players")
                yield OptionList(id="ac-book")
                yield ActionList(id="ac-actions")
        yield Static(id="ac-status")
        yield Input(placeholder="notation, e.g. cast firebolt @P2 · Esc closes", id="ac-cmd",
                    select_on_focus=False)  # a reopened line is fixed, not replaced
        yield FittedFooter(show_command_palette=False, priority=FOOTER_PRIORITY)
        yield TooSmall("ArcoMage")

    def on_mount(self) -> None:
        """Titles, the first drawing, the log file, then the bots if they act first."""
        self.query_one("#ac-players").border_title = "Archmages"
        self.query_one("#ac-book").border_title = "Spellbook (s · Enter casts · i text)"
        self.query_one("#ac-actions").border_title = "Actions (a · Enter plays)"
        self.query_one("#ac-log").border_title = "Log"
        self.query_one("#ac-stack").border_title = "Stack"
        self.query_one("#ac-log", RichLog).can_focus = False
        self.fit_field()
        if self.session.started:
            self.cursor = str(self.session.view()["players"][self.human]["at"])
        where = (f"LAN game · {self.lan_label()}" if self.lan is not None
                 else f"New game · seed {self.seed}")
        self.log_line(Text(f"ArcoMage · {where} · you are {self.human}", "bold"))
        levels = dict(getattr(self.session, "levels", {}) or {})
        if self.lan is None:  # a bot seat without a level plays the default one (R: bot_act)
            for seat in getattr(self.session, "bots", ()):
                levels.setdefault(seat, self.session.ruleset.bot_levels[0])
        if levels:
            self.log_line(Text("against " + ", ".join(f"{s} ({lv})" for s, lv in
                                                      sorted(levels.items())), "dim"))
        self.query_one(FieldView).focus()
        if self.lan is not None:
            self.lan.listeners.append(self.net_changed)
            self.net_changed()
            if self.clock:  # shown only: the host keeps the time (count_down)
                self.clock_timer = self.set_interval(1.0, self.clock_tick)
            return
        self.start_log()
        self.draw()
        self.clock_timer = self.set_interval(1.0, self.clock_tick) if self.clock else None
        self.call_after_refresh(self.run_bots)

    def start_log(self) -> None:
        """Autosave a local game (its log written as it is played)."""
        from core.session import LocalSession

        if not self.save_log or self.logfile is not None \
                or not isinstance(self.session, LocalSession):
            return
        from wizwar_tui.saves import new_log, now_text

        try:
            self.logfile = new_log("local", f"arcomage-seed{self.seed}")
            self.session.record_to(self.logfile.write, started=now_text())
        except OSError as exc:
            self.logfile = None
            self.session.writer = None
            self.notify(f"This game is not saved: {exc}", severity="warning", timeout=8)

    def on_unmount(self) -> None:
        """Stop listening to the LAN game; close the log (dropped when nobody acted)."""
        if self.lan is not None and self.net_changed in self.lan.listeners:
            self.lan.listeners.remove(self.net_changed)
        if self.logfile is not None:
            self.session.writer = None
            if not self.session.actions:
                try:
                    self.logfile.discard()
                except OSError:
                    self.logfile.close()
            else:
                self.logfile.close()
            self.logfile = None

    def fit_field(self) -> None:
        """The field's size for the window: wider hexes when there is room."""
        w, h = self.app.size.width, self.app.size.height
        big = w >= 120 and h >= 36
        geo = render.FieldGeometry(11, 3) if big else render.FieldGeometry()
        if (geo.cw, geo.ch) != (self.geo.cw, self.geo.ch):
            self.geo = geo
        self.query_one("#ac-left").styles.width = self.geo.width + 1
        self.query_one(FieldView).styles.height = self.geo.height  # never squeezed
        self.fit_columns()

    def after_resize(self) -> None:
        """Fit the field to the new size and draw again."""
        self.fit_field()
        self.draw()

    def on_resize(self, event: events.Resize) -> None:
        """The window changed size."""
        self.after_resize()

    # ------------------------------------------------------------------ the LAN
    def lan_label(self) -> str:
        """``hosting on ADDR`` / ``joined ADDR`` for a LAN game."""
        if self.lan is None:
            return ""
        if not getattr(self.app, "HAS_MENU", True):  # an SSH session or a browser tab:
            return getattr(self.app, "VIA", "over SSH")  # the address is internal
        return f"{'hosting on' if getattr(self.lan, 'hosting', False) else 'joined'} " \
               f"{getattr(self.lan, 'address', '')}"

    def lan_down(self) -> bool:
        """The LAN game cannot go on (lost, failed, out of step, refused)."""
        return self.lan is not None and getattr(self.lan, "phase", "") in (
            "lost", "failed", "desync", "refused")

    def net_changed(self) -> None:
        """The LAN game changed: the net layer's messages into the log, draw again."""
        if not self.is_attached:
            return
        messages = getattr(self.lan, "messages", [])
        for msg in messages[self.seen_messages:]:
            self.log_line(Text(f"· {msg}", "dim italic"))
        self.seen_messages = len(messages)
        reject = self.lan.take_reject() if hasattr(self.lan, "take_reject") else ""
        if reject:
            self.say(f"Not allowed: {reject}")
        self.refresh_bindings()  # the footer offers what can be done now (ended: less)
        if self.session.started:
            self.draw()
            if self.session.over:
                self.show_game_over()

    # ------------------------------------------------------------------ drawing
    def view(self) -> Any:
        """The human's view (the only thing drawn); a LAN game that stopped before its end
        (the host closed it, the connection is lost for good) is marked ``stopped`` (its
        words), so nothing is drawn as if a player were still to act."""
        v = self.session.view()
        if self.lan_down() and not v.get("winner"):
            v = dict(v, stopped=str(getattr(self.lan, "problem", "")) or "the LAN game stopped")
        return v

    def my_turn(self) -> bool:
        """The human is to act now."""
        s = self.session
        return bool(s.started and not s.over and self.human in s.to_move()
                    and not self.lan_down())

    def legal(self) -> list[Action]:
        """The human's legal actions now (none when it is not his decision)."""
        if not self.my_turn():
            return []
        return list(self.session.legal_actions())

    def draw(self) -> None:
        """Everything again from the view."""
        if not self.session.started:
            self.query_one("#ac-top", Static).update(Text(" ArcoMage · waiting for the deal"))
            return
        v = self.view()
        legal = self.legal()
        self.query_one("#ac-top", Static).update(self.top_text(v))
        marked = self.marked(v)
        self.query_one(FieldView).update(render.render_field(
            v, self.human, self.geo, cursor=self.cursor, marked=marked, zoc=self.zoc,
            ascii_only=self.ascii_only))
        self.query_one("#ac-info", Static).update(render.piece_info(v, self.cursor))
        stack = self.query_one("#ac-stack", Static)
        stack.display = bool(v["stack"])
        stack.update(render.stack_text(v, self.human))
        compact = self.compact()
        self.query_one("#ac-book").display = not compact or self.list_shown == "book"
        self.query_one("#ac-actions").display = not compact or self.list_shown == "actions"
        players = Text()
        players.append_text(render.player_panel(v, self.human, self.human, compact,
                                                self.ascii_only))
        players.append("\n")
        players.append_text(render.player_panel(v, render.other(self.human), self.human,
                                                compact, self.ascii_only))
        self.query_one("#ac-players", Static).update(players)
        self.draw_book(v, legal)
        self.draw_actions(v, legal)
        self.query_one("#ac-status", Static).update(self.prompt(v, legal))
        for ev in self.session.events[self.logged:]:
            self.log_line(Text(ev.text))
        self.logged = len(self.session.events)

    def compact(self) -> bool:
        """A small window: short panels, one list at a time (the spellbook or the
        actions)."""
        return bool(self.app.size.height < 36 or self.app.size.width < 100)

    def show_list(self, which: str) -> None:
        """Show (on a small window) and focus the spellbook or the action list."""
        self.list_shown = which
        if self.narrow() and not self.panels_shown:
            self.panels_shown = True
            self.fit_columns()
        self.query_one("#ac-book").display = not self.compact() or which == "book"
        self.query_one("#ac-actions").display = not self.compact() or which == "actions"
        self.query_one(f"#ac-{which}", OptionList).focus()

    def marked(self, v: Any) -> list[str]:
        """The hexes the current choice may pick."""
        out: list[str] = []
        for a in self.choosing:
            for h in action_hexes(v, a):
                if h not in out:
                    out.append(h)
        return out

    def draw_book(self, v: Any, legal: list[Action]) -> None:
        """The spellbook: every spell with Circle, cost and state, castable ones first in
        the book's order (the highlight kept on the same spell)."""
        ol = self.query_one("#ac-book", OptionList)
        pl = v["players"][self.human]
        castable = {a.slug for a in legal if a.verb == "cast"}
        order = sorted(pl["book"], key=lambda s: (SPELLS[s].circle, SPELLS[s].name))
        keep = self.book[ol.highlighted] if ol.highlighted is not None and \
            ol.highlighted < len(self.book) else ""
        width = max(24, ol.size.width - 3) if ol.size.width else 36
        self.book = order
        ol.clear_options()
        ol.add_options([Option(render.spell_line(v, self.human, s, s in castable, width))
                        for s in order])
        if order:
            ol.highlighted = order.index(keep) if keep in order else 0
        traps = [t for t in v["traps"] if t["trapper"] == self.human and t["status"] != "sprung"]
        title = f"Spellbook ({len(castable)} castable"
        if traps:
            title += f" · your traps {len(traps)}"
        if v.get("stopped") or v.get("winner"):
            title = "Spellbook (the game has ended"
        ol.border_title = title + ") s · Enter · i"

    def draw_actions(self, v: Any, legal: list[Action]) -> None:
        """The action list: the choice being made, else every legal action."""
        ol = self.query_one("#ac-actions", OptionList)
        acts = [a for a in self.choosing if a in legal] if self.choosing else legal
        if self.choosing and not acts:
            self.choosing = []
            acts = legal
        self.shown = acts
        self.fill_actions()
        self.call_after_refresh(self.refit_actions)  # the list's width once laid out
        if acts:
            ol.highlighted = 0
        ol.border_title = (f"{self.choosing_what} (Enter plays · Esc back)" if self.choosing
                           else f"Actions: {len(acts)} (a · Enter plays)")

    def actions_width(self) -> int:
        """The columns a row of the action list has (0: not laid out yet)."""
        ol = self.query_one("#ac-actions", OptionList)
        return max(0, ol.scrollable_content_region.width - 1) if ol.is_mounted else 0

    def fill_actions(self) -> None:
        """The action list's rows for :attr:`shown`, cut to its width by
        :func:`render.fit_rows` (the end of a row kept: rows differ there)."""
        ol = self.query_one("#ac-actions", OptionList)
        self.rows_width = self.actions_width()
        rows = render.fit_rows([render.describe(a) for a in self.shown], self.rows_width)
        keep = ol.highlighted
        ol.clear_options()
        ol.add_options([Option(r) for r in rows])
        if rows:
            ol.highlighted = keep if keep is not None and keep < len(rows) else 0

    def refit_actions(self) -> None:
        """Cut the rows again when the list's width is not the one they were cut for (the
        list just shown, a new window size)."""
        if self.is_mounted and self.actions_width() != getattr(self, "rows_width", -1):
            self.fill_actions()

    def top_text(self, v: Any) -> Text:
        """ArcoMage, where (seed or LAN), the turn, the step and who acts."""
        t = Text(no_wrap=True, overflow="ellipsis")
        # what matters most first: a narrow window cuts the end (the where, the limit)
        t.append(" ArcoMage ", "bold reverse")
        if v.get("winner"):  # the game is over: nobody's step (R118)
            w = v["winner"]
            t.append(f" turn {v['turn']} · " + ("drawn" if w == "draw" else f"{w} won"))
        elif v.get("stopped"):  # a LAN game ended before its end: nobody is to act
            t.append(f" turn {v['turn']} · GAME ENDED (not finished)", "bold red")
        else:
            t.append(f" turn {v['turn']} · {v['active']}'s {v['step'].upper()}")
        t.append(f" · you are {self.human}", render.colour(self.human))
        away = self.away()
        if away and not v.get("winner"):  # before the rest: a narrow window cuts the end
            t.append(f" · {', '.join(away)} disconnected", "bold red")
        clock = self.clock_text(v)
        if clock:
            t.append(clock, "bold yellow" if "⏱ 1" in clock or "⏱ " + "0" in clock
                     else "bold")
        t.append(f" · {self.lan_label() if self.lan is not None else f'seed {self.seed}'}")
        if v["turn_limit"] and not v.get("winner"):
            t.append(f" (limit {v['turn_limit']})", "dim")
        return t

    def away(self) -> list[str]:
        """The other seats of a LAN game whose connection is lost now (they may rejoin)."""
        if self.net_notices is None:
            return []
        return [p for p in self.net_notices.away() if p != self.human]

    def prompt(self, v: Any, legal: list[Action]) -> Text:
        """What the human may do now (:meth:`prompt_text`); while the rival's connection is
        lost, said first (the host plays on in his turn; the rival's next decision waits
        for him to rejoin)."""
        t = self.prompt_text(v, legal)
        away = self.away()
        if away and not self.session.over and self.my_turn() and self.message is None:
            gone = ", ".join(away)
            t = Text.assemble((f"{gone} disconnected (the game waits at {gone}'s turn) · ",
                               "bold red"), t)
        return t

    def prompt_text(self, v: Any, legal: list[Action]) -> Text:
        """What the human may do now, in words (the message of the last refusal first,
        until an action is played: a refusal said in the rival's turn is stale in one's own)."""
        if self.message is not None and self.message_seq not in (-1, v.get("seq", -1)):
            self.message = None
        if self.message is not None:
            return self.message
        s = self.session
        if s.over:
            return Text(f"{s.result().text}  (q menu)", "bold green")
        if self.lan_down():
            return Text(str(getattr(self.lan, "problem", "")) or "the LAN game stopped",
                        "bold red")
        if self.busy or not self.my_turn():
            waiting = self.net_notices.waiting() if self.net_notices is not None else ""
            if waiting:  # a player waiting to rejoin (gameui.NetNotices)
                return Text(waiting, "bold yellow")
            moving = ", ".join(s.to_move()) or "nobody"
            return Text(f"{moving} is thinking…", "dim")
        if self.choosing:
            if not self.marked(v):  # the choice names no hex (a spell of a book, a stack
                # entry, a building): only the list can pick it
                return Text(f"{self.choosing_what}: pick the target in the action list (a, "
                            "arrows + Enter) · Esc cancels", "bold")
            mark = render.GLYPHS[self.ascii_only]["mark"]
            return Text(f"{self.choosing_what}: arrows + Enter on a green {mark} hex, or pick in the "
                        "action list (a) · Esc cancels", "bold")
        step = v["step"]
        if v["stack"] and v["prio"] == self.human:
            top = v["stack"][-1]
            name = SPELLS[top["slug"]].name if top["slug"] in SPELLS else top["slug"]
            tgt = f" @{render.refs_text(v, top['targets'])}" if top.get("targets") else ""
            who = "You" if top["caster"] == self.human else top["caster"]
            if not any(a.verb == "cast" for a in legal):  # say so: no RESPOND to look for
                return Text(f"{who} cast {name}{tgt}: nothing in your spellbook can answer it "
                            "now: PASS (p)", "bold yellow")
            return Text(f"{who} cast {name}{tgt}: RESPOND (an instant from your spellbook, s) "
                        "or PASS (p)", "bold yellow")
        if step == "combat":
            if not any(a.verb == "cast" for a in legal):
                return Text("Combat window: no instant you can cast now: PASS (p)",
                            "bold yellow")
            return Text("Combat window: cast an instant (s) or PASS (p)", "bold yellow")
        if step == "attack":
            if Action(self.human, "attack") in legal:
                return Text("Declare your attacks: a lists every declaration · p declares none",
                            "bold")
            why = self.session.why(Action(self.human, "attack"))
            return Text(f"Declare your attacks: a lists them ({why})", "bold")
        if step == "block":
            none = " · p blocks with none" if Action(self.human, "block") in legal else ""
            return Text(f"You are attacked: a lists the blocks{none}", "bold yellow")
        if step == "choose":
            mark = render.GLYPHS[self.ascii_only]["mark"]
            return Text(f"A spell asks you to choose: Enter on a green {mark} hex or a (the list)",
                        "bold")
        return Text("Your MAIN: cast (s, Enter) · walk (Enter on your piece) · end the turn (e)",
                    "bold")

    def say(self, text: str, style: str = "bold red") -> None:
        """A message on the prompt line (until the next action) and in the log."""
        self.message = Text(text, style)
        try:
            self.message_seq = int(self.view().get("seq", -1))
        except Exception:  # noqa: BLE001 - no view yet (a LAN game still starting)
            self.message_seq = -1
        self.log_line(Text(text, style))
        if self.is_mounted:
            self.query_one("#ac-status", Static).update(self.message)

    def log_line(self, text: Text) -> None:
        """One line in the log."""
        self.query_one("#ac-log", RichLog).write(text)

    # ------------------------------------------------------------------ acting
    def do(self, action: Action) -> bool:
        """Submit one action of the human's; a refusal is said in the rules' words."""
        self.message = None
        if not self.my_turn():
            self.say("It is not your decision now." if not self.session.over
                     else "The game is over.")
            return False
        reason = self.session.why(action)
        if reason:
            self.say(f"Not allowed: {reason}")
            return False
        try:
            self.session.submit(action)
        except IllegalAction as exc:
            self.say(f"Not allowed: {exc.reason}")
            return False
        self.log_line(Text(f"> {action}", "dim"))
        self.choosing, self.choosing_what = [], ""
        self.draw()
        self.run_bots()
        return True

    def do_text(self, text: str) -> bool:
        """Notation typed by the human (``cast firebolt @P2``; the actor may be left out)."""
        text = text.strip().lstrip(":").strip()
        if not text:
            return False
        words = text.split()
        if words[0].upper() not in ("P1", "P2"):
            text = f"{self.human} {text}"
        try:
            action = parse(text)
        except (NotationError, ValueError) as exc:
            self.say(f"Cannot read that: {exc}")
            return False
        if action.actor != self.human:
            self.say(f"You play {self.human}, not {action.actor}")
            return False
        return self.do(action)

    def run_bots(self) -> None:
        """Let the bots act until the human must (a pause of ``bot_delay`` between two)."""
        if self.lan is not None:
            return
        s = self.session
        if s.over:
            self.show_game_over()
            return
        if not s.bot_to_act():
            self.busy = False
            self.draw()
            return
        if self.bot_delay <= 0:
            for _ in range(100_000):
                if s.over or not s.bot_to_act():
                    break
                s.step_bot()
            self.bots_done()
            return
        self.busy = True
        self.draw()
        self.set_timer(self.bot_delay, self._bot_step)

    def _bot_step(self) -> None:
        """One bot action, then the next after a pause."""
        s = self.session
        if not s.over and s.bot_to_act():
            s.step_bot()
        if not s.over and s.bot_to_act():
            self.draw()
            self.set_timer(self.bot_delay, self._bot_step)
            return
        self.bots_done()

    def bots_done(self) -> None:
        """The human's decision (or the end): keys count from now on."""
        self.busy = False
        self.accept_since = _time.get_time()
        self.draw()
        if self.session.over:
            self.show_game_over()

    def show_game_over(self) -> None:
        """The game-over box, once."""
        if self.over_shown or not self.session.over:
            return
        self.over_shown = True
        self.refresh_bindings()  # the footer no longer offers the game's keys
        self.draw()
        from wizwar_tui.arcomage.screens import GameOverScreen

        self.app.push_screen(GameOverScreen(self.session.result(), self.view(), self.human,
                                            self.seed, lan=self.lan_label()))

    # ------------------------------------------------------------------ the clock
    def budget(self, v: Any) -> str:
        """Which budget runs now for the human (R111): ``turn`` (his own decisions in his turn
        with no enemy spell on top of the stack) or ``response``."""
        top_enemy = bool(v["stack"]) and v["stack"][-1]["caster"] != self.human
        return "turn" if v["active"] == self.human and not top_enemy else "response"

    def clock_tick(self) -> None:
        """One second of a local game with the clock (R110-R112): the budget running now
        loses a second; at 0 the app enters what a timeout means, as a logged action: the
        turn budget ``timeout``, a response budget the rules' default answer
        (``default_answer``: a pass, no blocks, the first choice). Called every second."""
        if not self.clock or self.busy or not self.my_turn():
            return
        v = self.view()
        if self.lan is not None:  # the host keeps the time and enters the timeout (R112):
            self.count_down(v)    # here the budget is only shown
            return
        if self.budget(v) == "turn":
            if self.turn_key != (v["turn"], v["active"]):
                self.turn_key, self.turn_left = (v["turn"], v["active"]), self.clock
            self.turn_left -= 1
            if self.turn_left <= 0:
                self.say("Your turn's 60 seconds are up: the turn passes (R112)", "bold yellow")
                self.do(Action(self.human, "timeout"))
        else:
            if self.resp_key != v["seq"]:
                self.resp_key, self.resp_left = v["seq"], self.clock
            self.resp_left -= 1
            if self.resp_left <= 0:
                from core.arcomage.state import State

                answer = self.session.ruleset.default_answer(State(v), self.human)
                if answer is not None:
                    self.say(f"Time is up: {answer} (R112)", "bold yellow")
                    self.do(answer)
        if self.is_mounted:
            self.query_one("#ac-top", Static).update(self.top_text(self.view()))

    def count_down(self, v: Any) -> None:
        """A LAN game's second: the budget shown loses a second, and nothing is entered
        (the host's clock decides, ``Ruleset.budget``; it may differ from this count by the
        time the network takes)."""
        if self.budget(v) == "turn":
            if self.turn_key != (v["turn"], v["active"]):
                self.turn_key, self.turn_left = (v["turn"], v["active"]), self.clock
            self.turn_left = max(0, self.turn_left - 1)
        else:
            if self.resp_key != v["seq"]:
                self.resp_key, self.resp_left = v["seq"], self.clock
            self.resp_left = max(0, self.resp_left - 1)
        if self.is_mounted:
            self.query_one("#ac-top", Static).update(self.top_text(v))

    def clock_text(self, v: Any) -> str:
        """`` · ⏱ 42s`` of the budget running for the human, or ``""`` (on a LAN the
        count of this screen; the host's clock decides, :meth:`count_down`)."""
        if not self.clock or not self.my_turn():
            return ""
        if self.budget(v) == "turn":
            left = self.turn_left if self.turn_key == (v["turn"], v["active"]) else self.clock
        else:
            left = self.resp_left if self.resp_key == v["seq"] else self.clock
        return f" · ⏱ {max(0, left)}s"

    # ------------------------------------------------------------------ choosing
    def move_cursor(self, dx: int, dy: int) -> None:
        """Arrows on the field."""
        self.cursor = step_hex(self.cursor, dx, dy)
        self.draw()

    def begin_choice(self, cands: list[Action], what: str) -> None:
        """Narrow ``cands`` by the field or the list; one alone with no field target is
        played at once."""
        v = self.view()
        if len(cands) == 1 and not action_hexes(v, cands[0]):
            self.do(cands[0])
            return
        self.choosing, self.choosing_what = cands, what
        self.message = None
        marked = self.marked(v)
        if marked:
            if self.cursor not in marked:
                self.cursor = marked[0]
            if self.narrow() and self.panels_shown:
                self.panels_shown = False
                self.fit_columns()
            self.query_one(FieldView).focus()
            self.list_shown = "actions"
        else:
            self.show_list("actions")
        self.draw()

    def select_hex(self, h: str) -> None:
        """Enter on hex ``h``: pick it for the choice being made, else start a walk (or an
        attack declaration) of the piece standing there."""
        v = self.view()
        if self.choosing:
            picked = [a for a in self.choosing if h in action_hexes(v, a)]
            if not picked:
                self.say(f"{h} is not a choice here: {self.probe_reason(h)}")
                return
            if len(picked) == 1:
                self.do(picked[0])
                return
            self.choosing = picked
            self.choosing_what += f" · {h}"
            self.show_list("actions")
            self.draw()
            return
        legal = self.legal()
        if not legal:
            self.say("It is not your decision now." if not self.session.over
                     else "The game is over.", "bold yellow")
            return
        moves = [a for a in legal if a.verb == "move" and a.targets and a.targets[0] == h]
        if moves:
            # one walk per destination: the shortest listed
            best: dict[str, Action] = {}
            for a in moves:
                end = a.targets[-1]
                if end not in best or len(a.targets) < len(best[end].targets):
                    best[end] = a
            self.begin_choice(list(best.values()), f"Walk from {h}")
            return
        pairs = [a for a in legal if a.verb in ("attack", "block", "choose")
                 and any(p.startswith(h + ">") or p == h for p in a.targets)]
        if pairs:
            self.begin_choice(pairs, f"{pairs[0].verb.title()} with {h}")
            return
        self.say(f"{render.piece_info(v, h).plain} · {self.walk_reason(h)}", "")

    def probe_reason(self, h: str) -> str:
        """Why the choice being made cannot go to ``h``, in the rules' words."""
        v = self.view()
        a = self.choosing[0]
        ref = h
        for p in ("P1", "P2"):
            if v["players"][p]["at"] == h:
                ref = p
        if a.verb == "cast":
            why = self.session.why(f"{a.actor} cast {a.slug} @{ref}")
            return why or "the spell cannot go there"
        if a.verb == "move":
            why = self.session.why(f"{a.actor} move {a.targets[0]}-{h}")
            return why or "no walk of this piece ends there"
        return f"pick one of the green {render.GLYPHS[self.ascii_only]['mark']} hexes"

    def walk_reason(self, h: str) -> str:
        """Why the piece on ``h`` cannot walk now, asked of the rules with a step to each
        neighbour."""
        for n in fld.neighbours(h):
            if fld.passable(n):
                why = self.session.why(f"{self.human} move {h}-{n}")
                if why:
                    return why
        return "nothing to do there now"

    def start_cast(self, slug: str) -> None:
        """Enter on a spell: its casts the rules list now; none: the rules' reason."""
        legal = self.legal()
        if not legal:
            self.say("It is not your decision now." if not self.session.over
                     else "The game is over.", "bold yellow")
            return
        cands = [a for a in legal if a.verb == "cast" and a.slug == slug]
        if not cands:
            self.say(f"{SPELLS[slug].name} cannot be cast now: {self.cast_reason(slug)}")
            return
        self.begin_choice(cands, f"Cast {SPELLS[slug].name}")

    def cast_reason(self, slug: str) -> str:
        """The rules' reason a spell cannot be cast now (asked with a probe cast)."""
        v = self.view()
        probes = [a for a in cast_candidates(v, self.human, wide=True) if a.slug == slug]
        for a in probes[:1]:
            why = self.session.why(a)
            if why:
                return why
        return "no target for it now"

    # ------------------------------------------------------------------ events
    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Enter in the spellbook casts; in the action list plays the action."""
        event.stop()
        if event.option_list.id == "ac-book":
            if event.option_index < len(self.book):
                self.start_cast(self.book[event.option_index])
        elif event.option_list.id == "ac-actions":
            if event.option_index < len(self.shown):
                self.do(self.shown[event.option_index])

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        """Highlighting an action shows on the field where it goes."""
        if event.option_list.id != "ac-actions" or event.option_index >= len(self.shown) \
                or not event.option_list.has_focus:
            return
        hexes = action_hexes(self.view(), self.shown[event.option_index])
        if hexes and hexes[0] != self.cursor:
            self.cursor = hexes[0]
            v = self.view()
            self.query_one(FieldView).update(render.render_field(
                v, self.human, self.geo, cursor=self.cursor, marked=self.marked(v),
                zoc=self.zoc, ascii_only=self.ascii_only))
            self.query_one("#ac-info", Static).update(render.piece_info(v, self.cursor))

    def action_book(self) -> None:
        """Focus the spellbook."""
        self.show_list("book")

    def action_field(self) -> None:
        """Focus the field."""
        if self.narrow() and self.panels_shown:
            self.panels_shown = False
            self.fit_columns()
        self.query_one(FieldView).focus()

    def action_actions(self) -> None:
        """Focus the action list (every legal action, or the choice being made)."""
        self.show_list("actions")

    def action_end(self) -> None:
        """End MAIN (COMBAT and END follow)."""
        self.do(Action(self.human, "end"))

    def action_pass(self) -> None:
        """``p``: pass priority (a spell on the stack, the combat window); at a declaration
        step it declares nothing (``attack`` alone: no attacks, R78; ``block`` alone: no
        blocks, R82). Elsewhere it is refused in words with the prompt kept on the line
        (what the player may do instead), never a message that hides it."""
        if not self.my_turn():
            self.do(Action(self.human, "pass"))  # says whose decision it is
            return
        legal = self.legal()
        for verb in ("pass", "attack", "block"):
            if Action(self.human, verb) in legal:
                self.do(Action(self.human, verb))
                return
        v = self.view()
        self.message = None
        prompt = self.prompt_text(v, legal)
        self.say(f"p passes only with a spell on the stack or in a window · {prompt.plain}",
                 "bold yellow")

    def action_zoc(self) -> None:
        """Show or hide the enemy's Zones of Control (R75) on the field."""
        self.zoc = not self.zoc
        zoc = render.GLYPHS[self.ascii_only]["zoc"]
        self.say(f"Zones of Control shown (red, {zoc}: next to an enemy creature, a walk stops "
                 "there)" if self.zoc else "Zones of Control hidden", "dim")
        self.draw()

    def highlighted_spell(self) -> str:
        """The spell the ``i`` key explains: the spellbook's highlighted one, or the top of
        the stack when the action list or field has focus and a spell is on it."""
        v = self.view()
        ol = self.query_one("#ac-book", OptionList)
        if v["stack"] and not ol.has_focus:
            return str(v["stack"][-1]["slug"])
        if ol.highlighted is not None and ol.highlighted < len(self.book):
            return self.book[ol.highlighted]
        return ""

    def action_rival_book(self) -> None:
        """``o``: the other archmage's spellbook with each spell's state and his Locks (both
        books and the Locks are public, R4/R98), from the view only."""
        v = self.view()
        rival = "P2" if self.human == "P1" else "P1"
        self.app.push_screen(HelpScreen(self.ascii_only, "arcomage",
                                        text=render.book_text(v, rival, self.human)))

    def action_spell_text(self) -> None:
        """A spell's full text."""
        slug = self.highlighted_spell()
        if slug in SPELLS:
            self.app.push_screen(HelpScreen(self.ascii_only, "arcomage",
                                            text=render.spell_text(slug)))  # type: ignore[arg-type]

    def action_reference(self) -> None:
        """The reference of all 64 spells."""
        from wizwar_tui.arcomage.screens import SpellsScreen

        self.app.push_screen(SpellsScreen())

    def action_help(self) -> None:
        """Keys and the rules' terms."""
        self.app.push_screen(HelpScreen(self.ascii_only, "arcomage"))

    def action_command(self) -> None:
        """Open the notation line (with the line just refused, to fix it)."""
        cmd = self.query_one("#ac-cmd", Input)
        cmd.display = True
        cmd.value = self.refused_text
        cmd.cursor_position = len(cmd.value)
        self.set_focus(cmd)  # now: the keys typed behind ":" are queued (notation_key)

    def on_key(self, event: events.Key) -> None:
        """Keys typed fast behind ``:`` go to the notation line (:meth:`notation_key`)."""
        self.notation_key(event, self.query_one("#ac-cmd", Input), "command")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Play the typed notation; the line closes (the next key is the game's). A refused
        line's reason stays on the prompt line and ``:`` opens the line with its text."""
        event.stop()
        cmd = self.query_one("#ac-cmd", Input)
        cmd.display = False
        self.query_one(FieldView).focus()
        ok = self.do_text(event.value)
        self.refused_text = "" if ok else event.value.strip()
        if not ok and self.refused_text and self.message is not None:
            self.message.append("  (: to fix the line)", "italic")
            self.query_one("#ac-status", Static).update(self.message)

    def action_cancel(self) -> None:
        """Esc: close the notation line, or drop the choice being made."""
        cmd = self.query_one("#ac-cmd", Input)
        if cmd.display:
            cmd.display = False
            self.refused_text = ""
            self.query_one(FieldView).focus()
            return
        self.choosing, self.choosing_what, self.message = [], "", None
        self.draw()

    def narrow(self) -> bool:
        """Below 80 columns the field and the panels take turns (Tab switches)."""
        return bool(self.app.size.width < 80)

    def action_panels(self) -> None:
        """Tab: on a narrow window the panels instead of the field, or the field again; else
        the focus to the next of the field, the spellbook and the action list."""
        if not self.narrow():
            self.focus_next()
            return
        self.panels_shown = not self.panels_shown
        self.fit_columns()
        if self.panels_shown:
            self.show_list(self.list_shown)
        else:
            self.query_one(FieldView).focus()

    def fit_columns(self) -> None:
        """On a narrow window one column at a time; else both."""
        narrow = self.narrow()
        self.query_one("#ac-left").display = not narrow or not self.panels_shown
        self.query_one("#ac-right").display = not narrow or self.panels_shown

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Letter keys go to the notation line while it is open; once the game has ended
        (over, or a LAN game the host closed or that is lost) the keys that act in it are
        not offered, only what can still be done: leave, the help, looking at the books
        and the field (a fresh user's joiner was still offered End turn and Pass)."""
        if self.is_mounted and action not in ("cancel",):
            cmd = self.query_one("#ac-cmd", Input)
            if cmd.display and cmd.has_focus:
                return False
        if action in GAME_ACTIONS and self.ended():
            return False
        return True

    def ended(self) -> bool:
        """The game cannot go on: it is over, or its LAN game stopped (:meth:`lan_down`)."""
        return bool(self.session.started and self.session.over) or self.lan_down()

    @work(exclusive=True, group="choose")
    async def action_menu(self) -> None:
        """Back to the main menu, after asking (a LAN game is left)."""
        if not self.session.over and not self.lan_down():
            from wizwar_tui.lobby import ConfirmScreen, leave_question

            if self.lan is None:
                question, note = ("Leave this game for the main menu?", self.leave_note())
            else:
                question, note = leave_question(self.lan)
            if question and not await self.app.push_screen_wait(
                    ConfirmScreen(question, note)):
                return
        if self.lan is not None:
            self.app.leave_lan()  # type: ignore[attr-defined]
        self.app.show_menu()  # type: ignore[attr-defined]
