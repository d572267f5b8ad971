"""Wizard Kings' game screen: the map with its standing blocks, the phase and initiative, the
treasuries, the cursor hex's full content, the actions, the log and the ``:`` notation line.

Everything drawn comes from ``session.view()`` (the human's view, rules.md R111): an enemy
block shows only its owner's colour and label until the rules reveal it. Orders are given by
keys (see :data:`KEYS`): the arrows move the cursor over the map; Enter selects your blocks in
the cursor hex (1-9 pick among them); the arrows then trace a path (the hexes where the move
may end are lit); Enter confirms. Battles, retreats, regroups, hits, spells and the Build Phase
have their own keys, and every legal action is in the list (Tab). A refused order is answered
with the rules' reason in words (``session.why``).
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from rich.text import Text
from textual import _time, events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, ScrollableContainer, Vertical
from textual.geometry import Region
from textual.widgets import Input, OptionList, RichLog, Static
from textual.widgets.option_list import Option

from core.engine import IllegalAction
from core.rng import Rng
from core.session import LocalSession
from core.wizardkings.actions import Action, NotationError, parse
from wizwar_tui.footer import FittedFooter
from wizwar_tui.gameui import GameScreenBase
from wizwar_tui.saves import LogFile, new_log, now_text
from wizwar_tui.screens import HelpScreen, TooSmall
from wizwar_tui.wizardkings import render

#: The keys of the game screen, for the help and the reference screen.
KEYS = (
    ("arrows", "move the cursor over the map (a selected block: trace its path); Left/Right "
               "keep the row number"),
    ("Home PgUp End PgDn", "the cursor to the NW, NE, SW, SE neighbour (as 7 9 1 3 on the "
                           "keypad): with the arrows every one of a hex's six neighbours is "
                           "one key away, so any path of adjacent hexes can be traced"),
    ("Enter", "select your blocks in the cursor hex / confirm the move, retreat or regroup"),
    ("1-9", "choose which of the hex's blocks are selected (the hex panel numbers them)"),
    ("Esc", "drop the selection (or the path traced so far)"),
    ("e", "end: your movement turn, or your regroups after a battle"),
    ("f / p", "fire / pass with the unit whose combat turn it is"),
    ("r", "retreat the unit whose combat turn it is (then a hex, Enter)"),
    ("g", "regroup (select a block of the battle hex or beside it, then a hex, Enter)"),
    ("t", "Sea Transport: the selected blocks in a friendly port sail to another port (the "
          "ports in reach lit; arrows and Enter, as a move)"),
    ("b", "fight the battle in the cursor hex (you choose the order of your battles)"),
    ("c / d / h / x", "cast a spell / dispel / choose a hit / eliminate: the list of them"),
    ("s n k m j", "Build Phase: s a step on the selected block, n a new unit in the cursor "
                  "city, k a castle in the cursor hex, m disband the selected block, j merge "
                  "the selected block into another of its type in its hex; Backspace drops "
                  "the last order"),
    ("+ / -", "Build Phase: a step more / less on the new unit queued last in the cursor "
              "hex (or the last one queued): new units are built at 1 step up to their "
              "maximum, each step at the unit's cost (R92)"),
    ("o", "Build Phase: send your orders (empty: build nothing)"),
    ("Tab", "the list of every legal action (Enter plays one; Tab back to the map)"),
    (":", "type an action in the notation (P1 move 3 1c4-1d4)"),
    ("i", "everything about the cursor hex"),
    ("?", "keys, terms and the units"),
    ("q", "leave the game"),
)


def _labels(a: Action) -> str:
    return a.words[0] if a.words else ""


def number_order(acts: list[Action]) -> list[Action]:
    """``acts`` in the order a reader expects: the numbers in their text compared as numbers
    (``fire 2`` before ``fire 15``, trial finding 10), the rest as text."""
    def key(a: Action) -> list[Any]:
        # re.split with a group alternates text and digits, so the key's types line up
        return [int(t) if i % 2 else t for i, t in enumerate(re.split(r"(\d+)", str(a)))]
    return sorted(acts, key=key)


def own_seat(text: str, seat: str) -> str:
    """A typed notation line with the actor's seat: ``move 3 1c4-1d4`` and ``P1 move 3
    1c4-1d4`` both mean P1's move for P1 (trial finding 11: a line prefilled with ``P1 ``
    turned the README's example into ``P1 P1 move …``); another seat is kept, for the rules
    to answer."""
    text = text.strip()
    if text and not re.match(r"P\d+\b", text):
        text = f"{seat} {text}"
    return text


def side_width(columns: int) -> int:
    """The side panels' width in a window ``columns`` wide: 30 below 100 columns, 52 from
    150, else 40."""
    return 30 if columns < 100 else 52 if columns >= 150 else 40


def hanging(text: str, width: int) -> str:
    """``text`` wrapped to ``width`` with its later lines indented by two (a long action in
    the list reads as one item, trialWK)."""
    import textwrap

    if width < 12 or len(text) <= width:
        return text
    return "\n".join(textwrap.wrap(text, width, subsequent_indent="  ",
                                    break_on_hyphens=False))


#: The footer's keys, most wanted first: where the line is too short the last go first,
#: never ``? Help`` nor ``q Menu`` (trialWK 13: at 80x24 it read ``? Hel▏^p palette``).
FOOTER_PRIORITY = ("menu", "help", "enter", "actions", "end", "notation", "hex_info",
                   "command_palette")


class MapScroll(ScrollableContainer, can_focus=False, inherit_bindings=False):
    """The map's scrolling window (it follows the cursor)."""


class MapView(Static, can_focus=True):
    """The map: it holds the keyboard focus while the player gives orders on it."""


class WizardKingsScreen(GameScreenBase):
    """A Wizard Kings game (local or LAN) over a ``core.session.Session``."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "cursor('n')", "Up", show=False),
        Binding("down", "cursor('s')", "Down", show=False),
        Binding("left", "cursor('w')", "Left", show=False),
        Binding("right", "cursor('e')", "Right", show=False),
        Binding("home", "cursor('nw')", "NW", show=False),
        Binding("pageup", "cursor('ne')", "NE", show=False),
        Binding("end", "cursor('sw')", "SW", show=False),
        Binding("pagedown", "cursor('se')", "SE", show=False),
        Binding("enter", "enter", "Select/confirm", key_display="Enter"),
        Binding("escape", "cancel", "Cancel", show=False),
        Binding("e", "end", "End"),
        Binding("f", "fire", "Fire", show=False),
        Binding("p", "pass_", "Pass", show=False),
        Binding("r", "retreat", "Retreat", show=False),
        Binding("g", "regroup", "Regroup", show=False),
        Binding("b", "battle", "Battle", show=False),
        Binding("t", "transport", "Transport", show=False),
        Binding("j", "merge", "Merge", show=False),
        Binding("c", "verb('cast')", "Cast", show=False),
        Binding("d", "verb('dispel')", "Dispel", show=False),
        Binding("h", "verb('hit')", "Hit", show=False),
        Binding("x", "verb('eliminate')", "Eliminate", show=False),
        Binding("s", "build('step')", "Step", show=False),
        Binding("n", "build('new')", "New", show=False),
        Binding("k", "build('castle')", "Castle", show=False),
        Binding("m", "build('disband')", "Disband", show=False),
        Binding("backspace", "build_undo", "Undo", show=False),
        Binding("plus,equals_sign", "new_steps(1)", "Step+", show=False),
        Binding("minus", "new_steps(-1)", "Step-", show=False),
        Binding("o", "send_orders", "Orders", show=False),
        Binding("tab", "actions", "Actions"),
        Binding("colon", "notation", ":notation", key_display=":"),
        Binding("i", "hex_info", "Hex"),
        Binding("question_mark", "help", "Help", key_display="?"),
        Binding("q", "menu", "Menu"),
        *[Binding(str(i), f"pick({i})", show=False) for i in range(1, 10)],
    ]

    DEFAULT_CSS = """
    WizardKingsScreen #wk-top { height: 1; background: #1f2a33; color: #e0e0e0; }
    WizardKingsScreen #wk-main { height: 1fr; }
    WizardKingsScreen #wk-mapbox { width: 1fr; border: round $panel-line; }
    WizardKingsScreen #wk-side { width: 40; }
    WizardKingsScreen #wk-status { height: auto; border: round $panel-line; }
    WizardKingsScreen #wk-hex { height: auto; max-height: 12; border: round $panel-line; }
    WizardKingsScreen #wk-actions { height: 1fr; min-height: 4; border: round $panel-line; }
    WizardKingsScreen #wk-log { height: 1fr; min-height: 4; border: round $panel-line; }
    WizardKingsScreen #wk-prompt { height: auto; max-height: 3; background: #262626; }
    WizardKingsScreen #wk-line { display: none; }
    WizardKingsScreen #wk-line.-open { display: block; }
    WizardKingsScreen MapView { width: auto; height: auto; }
    """
    # (the side panel's width and the hex panel's height follow the window: on_resize; a
    # screen's DEFAULT_CSS is scoped to it, so rules on the app's size classes never matched)

    def __init__(self, *, session: Any = None, lan: Any = None, seed: int | None = None,
                 ascii_only: bool = False, bot_delay: float = 0.3,
                 save_log: bool = False) -> None:
        super().__init__()
        if session is None:
            raise ValueError("a Wizard Kings screen needs a session")
        self.session = session
        self.lan = lan
        self.seed = seed
        self.ascii_only = ascii_only
        self.bot_delay = bot_delay
        self.save_log = save_log
        self.logfile: LogFile | None = None
        self.cursor = ""
        self.sel_hex = ""  # the hex of the selected blocks ("" none)
        self.chosen: list[str] = []  # selected block labels (of the human) in sel_hex
        self.mode = ""  # "" look, "move", "retreat", "regroup"
        self.trail: list[str] = []  # hexes traced from sel_hex
        self.orders: list[tuple[str, str]] = []  # Build Phase items being written
        self.shown: list[Action] = []  # the action list's actions
        self.logged = 0
        self.seen_messages = 0
        self.message: Text | None = None
        self.over_shown = False
        self.bots_pending = False
        self._legal: tuple[int, list[Action]] | None = None
        self._view: tuple[int, dict[str, Any]] | None = None
        self._families: dict[str, tuple[int, list[Action]]] = {}
        self.homed = False  # the cursor was put on the human's blocks once they stood
        self.last_battle = ""  # the battle the cursor last jumped to

    # ------------------------------------------------------------------ layout
    def compose(self) -> ComposeResult:
        """Header line, the map, the side panels, the prompt, the notation line, the keys."""
        yield Static(id="wk-top")
        with Horizontal(id="wk-main"):
            with MapScroll(id="wk-mapbox"):
                yield MapView(id="wk-map")
            with Vertical(id="wk-side"):
                yield Static(id="wk-status")
                yield Static(id="wk-hex")
                yield OptionList(id="wk-actions")
                yield RichLog(id="wk-log", wrap=True, markup=False, min_width=20,
                              max_lines=3000)
        yield Static(id="wk-prompt")
        yield Input(placeholder="e.g. move 3 1c4-1d4 or P1 move 3 1c4-1d4 "
                                "(Esc closes)", id="wk-line",
                    select_on_focus=False)  # a reopened line is fixed, not replaced
        yield FittedFooter(priority=FOOTER_PRIORITY)
        yield TooSmall()

    def on_mount(self) -> None:
        """Titles, the log file, the bots' first actions, the first drawing."""
        self.query_one("#wk-mapbox").border_title = "Map"
        self.query_one("#wk-status").border_title = "Turn"
        self.query_one("#wk-hex").border_title = "Hex"
        self.query_one("#wk-actions").border_title = "Actions (Tab)"
        self.query_one("#wk-log").border_title = "Log"
        self.start_log()
        v = self.view()
        self.cursor = self.home_hex(v)
        if self.lan is not None:
            self.lan.listeners.append(self.net_changed)
        self.after_human()
        self.query_one(MapView).focus()

    def on_unmount(self) -> None:
        """Stop listening to a LAN game; close a local game's log (removed when nobody
        acted)."""
        if self.lan is not None and self.net_changed in self.lan.listeners:
            self.lan.listeners.remove(self.net_changed)
        if self.logfile is not None:
            if isinstance(self.session, LocalSession):
                self.session.writer = None
            if not self.session.actions:
                try:
                    self.logfile.discard()
                except OSError:
                    self.logfile.close()
            else:
                self.logfile.close()
            self.logfile = None

    def start_log(self) -> None:
        """Autosave a local game's log as it is played (``wizwar_tui.saves``)."""
        if not self.save_log or self.logfile is not None \
                or not isinstance(self.session, LocalSession):
            return
        try:
            self.logfile = new_log("local", f"seed{self.seed}")
            self.session.record_to(self.logfile.write, started=now_text())
        except OSError as exc:
            self.logfile = None
            self.session.writer = None
            self.notify(f"This game is not saved: {exc}", severity="warning", timeout=8)

    # ------------------------------------------------------------------ the session
    @property
    def human(self) -> str:
        """The seat played from this keyboard."""
        return str(self.session.human)

    def my_turn(self) -> bool:
        """True when the human must act now."""
        s = self.session
        return not s.over and self.human in s.to_move()

    def view(self) -> dict[str, Any]:
        """The human's view now (cached per action count; never changed by the screen)."""
        s = self.session
        key = len(s.actions)
        if self._view is None or self._view[0] != key:
            self._view = (key, s.view())
        return self._view[1]

    def legal(self) -> list[Action]:
        """The human's legal actions now (cached per action count)."""
        s = self.session
        key = len(s.actions)
        if self._legal is None or self._legal[0] != key:
            acts = list(s.legal_actions()) if self.my_turn() else []
            self._legal = (key, acts)
        return self._legal[1]

    def members(self, family: str) -> list[Action]:
        """The human's members of an action family now (``session.expand``; cached per
        action count; [] when the family is not open)."""
        s = self.session
        key = len(s.actions)
        got = self._families.get(family)
        if got is None or got[0] != key:
            acts = list(s.expand(family)) if self.my_turn() and family in s.families() else []
            got = self._families[family] = (key, acts)
        return got[1]

    def bot_action(self, seat: str) -> Any:
        """A bot seat's action: the ruleset's bot when it has one, else a random legal action
        (a generator seeded by the game's seed and the action count: deterministic)."""
        s = self.session
        rs = s.ruleset
        if rs.bot_levels:
            return rs.bot_act(s.state, seat, s.levels.get(seat, ""))
        legal = rs.legal_actions(s.state, seat)
        if not legal:
            raise IllegalAction(f"{seat} has no legal action")
        # a random bot that mostly ends its Movement Phase turn early keeps games short
        ends = [a for a in legal if a.verb == "end"]
        r = Rng.from_seed(f"wk-ui-bot {self.seed} {len(s.actions)} {seat}")
        if ends and r.below(3) == 0:
            return ends[0]
        return legal[r.below(len(legal))]

    def bot_to_act(self) -> str:
        """The local bot seat that must act now ("" none; a LAN game's bots are the
        host's)."""
        if self.lan is not None or not isinstance(self.session, LocalSession):
            return ""
        s = self.session
        if s.over:
            return ""
        for seat in s.to_move():
            if seat in s.bots:
                return str(seat)
        return ""

    def step_bot(self) -> bool:
        """One bot action; False when no bot must act."""
        seat = self.bot_to_act()
        if not seat:
            return False
        self.session.submit(self.bot_action(seat))
        return True

    def after_human(self) -> None:
        """After the human acted (or at the start): the bots act (at once when the delay is 0,
        else one every ``bot_delay`` seconds), then everything is drawn again."""
        if self.bot_delay <= 0:
            for _ in range(100_000):
                if not self.step_bot():
                    break
            self.bots_done()
            return
        if self.bot_to_act():
            self.bots_pending = True
            self.draw()
            self.set_timer(self.bot_delay, self._bot_tick)
        else:
            self.bots_done()

    def _bot_tick(self) -> None:
        if not self.is_attached:
            return
        self.step_bot()
        if self.bot_to_act():
            self.draw()
            self.set_timer(self.bot_delay, self._bot_tick)
        else:
            self.bots_done()

    def bots_done(self) -> None:
        """The human may act: keys count from now on; the screen drawn; game over shown."""
        self.bots_pending = False
        self.accept_since = _time.get_time()
        self.reset_selection()
        self.draw()
        if self.session.over:
            self.show_game_over()

    def net_changed(self) -> None:
        """A LAN game changed: its messages in the log, everything drawn again."""
        if not self.is_attached:
            return
        messages = getattr(self.lan, "messages", [])
        if len(messages) > self.seen_messages:
            log = self.query_one("#wk-log", RichLog)
            for msg in messages[self.seen_messages:]:
                log.write(Text(f"· {msg}", "dim italic"))
            self.seen_messages = len(messages)
        self.bots_done()

    def play(self, action: Action | str, *, orders: bool = False) -> bool:
        """Submit the human's action; a refusal is said in the rules' words. True when it was
        played. ``orders``: the action is the queued Build Phase orders (``o``)."""
        if isinstance(action, str):
            try:
                action = parse(action)
            except NotationError as exc:
                self.say(f"Not an action: {exc}", "bold yellow", log=False)
                return False
        if self.bots_pending:
            self.say("The bots are still acting.", "yellow")
            return False
        try:
            self.session.submit(action)
        except IllegalAction as exc:
            self.say(f"Not possible: {exc.reason}", "bold yellow", log=False)
            self.draw()
            return False
        self.message = None
        queued = self.order_words() if action.verb == "build" and not orders else ""
        self.orders = []
        self.after_human()
        if queued:
            # a build typed on the notation line is the whole order (trialWK 6)
            self.say(f"Your build order went as typed; the orders queued with keys "
                     f"({queued}) were not part of it.", "yellow")
        return True

    def say(self, text: str, style: str = "", *, log: bool = True) -> None:
        """A line for the prompt (and the log; a refusal only on the prompt, so refused
        lines do not push the game's moves out of the log: trialWK 12)."""
        self.message = Text(text, style)
        if log:
            self.query_one("#wk-log", RichLog).write(Text(text, style or "italic"))
        self.draw_prompt()

    # ------------------------------------------------------------------ drawing
    def home_hex(self, v: dict[str, Any]) -> str:
        """Where the cursor starts: the battle, else the human's first block, else his
        map's a4."""
        if v.get("battle"):
            return str(v["battle"]["hex"])
        mine = [x for x in render.blocks_at(v).items()
                if any(b["owner"] == self.human for b in x[1])]
        if mine:
            return sorted(mine, key=lambda kv: kv[0])[0][0]
        own = v.get("owners", {}).get(self.human) or v["maps"][:1]
        return f"{own[0]}a4"

    def reset_selection(self) -> None:
        """No blocks selected, no path."""
        self.sel_hex, self.chosen, self.mode, self.trail = "", [], "", []

    def reach(self) -> set[str]:
        """The hexes where the current move, retreat or regroup may end."""
        if not self.mode:
            return set()
        return {a.words[1].split("-")[-1] for a in self.mode_actions()}

    def mode_actions(self) -> list[Action]:
        """The legal actions of the current mode for the first chosen block (Sea Transport:
        the members of the ``transport`` family for the chosen blocks together)."""
        if not self.chosen:
            return []
        first = self.chosen[0]
        if self.mode == "transport":
            want = sorted(self.chosen, key=int)
            fam = self.members("transport")
            exact = [a for a in fam if sorted(a.words[0].split(","), key=int) == want]
            if exact or len(want) == 1:
                return exact
            # a part of the hex's blocks: the routes of the first (each checked on Enter)
            labs = ",".join(want)
            return [Action(self.human, "transport", (labs, a.words[1])) for a in fam
                    if a.words[0] == first]
        return [a for a in self.legal() if a.verb == self.mode and a.words
                and a.words[0].split(",")[0] == first]

    def draw(self) -> None:
        """Everything again from the session's view."""
        if not self.is_attached:
            return
        s = self.session
        v = self.view()
        if not self.cursor or self.cursor not in render.board_of(v).hexes:
            self.cursor = self.home_hex(v)
        if not self.homed and self.my_blocks(v, self.home_hex(v)):
            self.homed = True
            self.cursor = self.home_hex(v)
        fight = (v.get("battle") or {}).get("hex", "")
        if fight != self.last_battle:  # the map follows the action: a new battle
            self.last_battle = fight
            if fight:
                self.cursor = fight
        self.query_one("#wk-top", Static).update(self.top_text(v))
        sel = {f"{self.human}.{lab}" for lab in self.chosen}
        mp = render.render_map(v, self.cursor, ascii_only=self.ascii_only, reach=self.reach(),
                               selected=self.sel_hex or None, chosen=sel)
        self.query_one(MapView).update(mp)
        self.query_one("#wk-status", Static).update(self.status_text(v))
        self.query_one("#wk-hex", Static).update(self.hex_text(v))
        self.query_one("#wk-hex").border_title = f"Hex {self.cursor} (i)"
        self.fill_actions()
        log = self.query_one("#wk-log", RichLog)
        for e in s.events[self.logged:]:
            log.write(Text(self.event_text(e)))
        self.logged = len(s.events)
        self.draw_prompt()
        self.call_after_refresh(self.follow_cursor)

    def on_resize(self, event: events.Resize) -> None:
        """A new window size: the side panels narrower below 100 columns (at 80 the map
        shows about 5 hex columns, not 3), wider from 150; the hex panel shorter below 32
        rows; then the map centred on the cursor again and the panels redrawn to the width
        (issue 18, trialWK)."""
        w, h = self.app.size
        side = side_width(w)
        panel = self.query_one("#wk-side")
        if panel.styles.width is None or panel.styles.width.value != side:
            panel.styles.width = side
        self.query_one("#wk-hex").styles.max_height = 8 if h < 32 else 12
        if self.is_attached and self.session is not None:
            self.draw()
            self.call_after_refresh(self.follow_cursor, True)

    def narrow(self) -> bool:
        """The side panels are narrow (a window below 100 columns): shorter words."""
        return side_width(self.app.size.width) < 40

    def follow_cursor(self, centre: bool = False) -> None:
        """Scroll the map so the cursor hex is in sight (``centre``: in the middle, after a
        resize)."""
        if not self.is_attached:
            return
        v = self.view()
        h = render.board_of(v).hexes.get(self.cursor)
        if h is None:
            return
        x, y = render.origin(h)
        self.query_one(MapScroll).scroll_to_region(Region(x, y, 9, 5), animate=False,
                                                   center=centre)

    def top_text(self, v: dict[str, Any]) -> Text:
        """Turn, phase, initiative order and who acts."""
        t = Text(no_wrap=True, overflow="ellipsis")
        t.append(" Wizard Kings ", "bold reverse")
        if self.human:
            t.append(f" you {self.human}", f"bold {render.OWNER.get(self.human, '')}")
            t.append(" ·")
        short = self.narrow()  # below 100 columns: a 4-player order must fit in 80
        t.append(f" turn {v['turn']} · " + (
            "game over" if v["phase"] == "over" else "deployment (R11)"
            if v["phase"] == "setup" else v["phase"].capitalize()
            + ("" if short else " Phase")))
        # who acts before the initiative order: a narrow window cuts the end of the line
        res = self.session.result()
        if res.over:
            t.append(f" · {res.text or 'the game is over'}", "bold green")
        else:
            who = self.session.to_move()
            if self.human in who:
                t.append(" · ")
                t.append("your turn", "bold reverse")
            elif who:
                t.append(f" · {', '.join(who)} to act")
        if v.get("order"):
            t.append(" · init " if short else " · initiative ")
            for i, p in enumerate(v["order"]):
                t.append((" " if i else "") + p, f"bold {render.OWNER.get(p, '')}")
        return t

    def status_text(self, v: dict[str, Any]) -> Text:
        """Players (army, colour, blocks on the map, treasury, cities' GP now) and the
        battle being fought."""
        t = Text()
        gp = render.city_gp(v)
        sides = v.get("sides") or {}
        me = sides.get(self.human, self.human)
        team = [p for p in v["players"] if sides.get(p, p) == me] or [self.human]
        owned = sum(len(v.get("owners", {}).get(p, [1])) for p in team)  # R101: the side's
        target = v["opts"].get("victory_gp") or 10 * owned + 5
        for p in v["players"]:
            on = sum(1 for x in v["blocks"].values() if x["owner"] == p and x["state"] == "map")
            t.append(render.mark_of(p, render.friends_of(v), self.ascii_only) + " ",
                     render.OWNER.get(p, ""))
            t.append(f"{p} ", "bold underline" if p == self.human else "bold")
            t.append(f"{v['armies'][p]} {on} {'bl.' if self.narrow() else 'blocks'} "
                     f"{gp.get(p, 0)} GP")
            if sides and p != self.human and sides.get(p, p) == me:
                t.append(" ally", "bold green")  # R105, R106
            if v["phase"] == "build" and p in v.get("treasury", {}):
                t.append(f" gold {v['treasury'][p]}", "bold")
            if p in v.get("out", []):
                t.append(" · out", "dim")
            t.append("\n")
        if v["opts"].get("victory") == "cities":
            t.append(f"win: cities worth {target} GP", "dim")
        else:
            t.append(f"win: {v['opts']['victory']} after turn {v['opts']['turns']}", "dim")
        bt = v.get("battle")
        if bt and bt.get("victor"):  # the fighting is over: only the regroup is left (R72)
            t.append(f"\nBattle in {bt['hex']} over: {bt['victor']} holds it", "bold #ff8787")
            who = ", ".join(bt.get("regroup", [])[:1])
            t.append(f"\n  regroup (R72){': ' + who if who else ''}")
        elif bt:
            from core.wizardkings.game import STEPS

            step = "-".join(STEPS[bt["step"]]) if bt["step"] < len(STEPS) else "end"
            rnd = "pursuit" if bt["round"] == 4 else f"round {bt['round']}"
            t.append(f"\nBattle in {bt['hex']}: {rnd}, step {step}", "bold #ff8787")
            t.append(f"\n  attacker {bt['attacker']}, defender {bt['defender']}")
            if bt.get("hits"):
                among = " ".join(bt["hits"].get("among", []))
                t.append(f"\n  {bt['hits'].get('n', '?')} hit(s) to take among {among}")
            t.append_text(render.firing_order(v))
        elif v.get("contacts"):
            t.append("\nBattles to fight: " + " ".join(sorted(v["contacts"])), "#ff8787")
        if v["phase"] == "build" and self.my_turn():
            t.append("\n" + self.build_text(v))
        return t

    def build_text(self, v: dict[str, Any]) -> str:
        """The Build Phase: the orders written so far and what the cities may build."""
        from core.wizardkings.units import ARMIES

        army = ARMIES[v["armies"][self.human]]
        lines = [f"Orders: {self.order_words() or '(none: build nothing)'}"]
        for k, item in self.orders:
            if k == "new":  # each new unit with its steps and cost (R92; + / - steps)
                t, _, rest = item.partition("@")
                at, _, n = rest.partition(":")
                ut = army.get(t)
                if ut is not None:
                    lines.append(f"  new {t} in {at}: {n}/{ut.max} steps, "
                                 f"{int(n) * ut.cost} GP (+/-)")
        b = render.board_of(v)
        pool = v["pool"].get(self.human, {})
        if isinstance(pool, dict):
            avail = ", ".join(f"{t} x{n} {army[t].cost}GP" for t, n in sorted(pool.items())
                              if n and t in army)
            lines.append(f"pool (cost per step): {avail or 'empty'}")
        for h in sorted(b.hexes.values(), key=lambda h: h.name):
            if h.city and h.map_id in v.get("owners", {}).get(self.human, []):
                occ = {x["owner"] for x in render.blocks_at(v).get(h.name, [])}
                if occ <= {self.human}:
                    lines.append(f"{h.name} {h.city_name}: up to {h.city} new "
                                 f"{'(port)' if h.port else ''}")
        return "\n".join(lines)

    def hex_text(self, v: dict[str, Any]) -> Text:
        """The cursor hex's content; in the selected hex, your blocks numbered for 1-9."""
        out = Text()
        for line in render.hex_lines(v, self.cursor, ascii_only=self.ascii_only):
            out.append_text(line)
            out.append("\n")
        mine = self.my_blocks(v, self.cursor)
        if mine and self.cursor == self.sel_hex:
            out.append("selected: ", "bold")
            out.append(" ".join(f"{j + 1}:{'[x]' if str(x['label']) in self.chosen else '[ ]'}"
                                f"#{x['label']}" for j, x in enumerate(mine)))
        elif mine:
            out.append("Enter selects; 1-9 one block", "dim")
        return out

    def my_blocks(self, v: dict[str, Any], h: str) -> list[dict[str, Any]]:
        """The human's blocks in hex ``h``."""
        return [x for x in render.blocks_at(v).get(h, []) if x["owner"] == self.human]

    def event_text(self, e: Any) -> str:
        """An event in words (:func:`event_words`)."""
        return event_words(e)

    def fill_actions(self) -> None:
        """The action list: the current mode's actions, else every legal action (and the
        Sea Transports, a family: few, and found nowhere else in the list)."""
        ol = self.query_one("#wk-actions", OptionList)
        acts = number_order(self.legal())
        if not self.mode and acts and self.view()["phase"] == "movement":
            acts = acts + number_order(self.members("transport"))
        if self.mode:
            acts = self.mode_actions() or acts
        self.shown = acts
        ol.clear_options()
        width = (ol.content_size.width or side_width(self.app.size.width) - 4) - 1
        ol.add_options([Option(hanging(str(a), width)) for a in acts[:400]])
        if acts:
            ol.highlighted = 0

    def draw_prompt(self) -> None:
        """What to do now (or the last message)."""
        p = self.query_one("#wk-prompt", Static)
        if self.message is not None:
            p.update(self.message)
            return
        p.update(Text(self.hint(), "italic"))

    def hint(self) -> str:
        """A line saying what the human may do now."""
        s = self.session
        if s.over:
            return "The game is over: q to leave."
        if self.bots_pending:
            return "The bots are acting..."
        if not self.my_turn():
            return f"Waiting for {', '.join(s.to_move()) or 'the game'}."
        v = self.view()
        ph = v["phase"]
        if ph == "setup":
            return "Deployment: Enter deploys the standard army (or Tab for the list)."
        if ph == "build":
            return ("Build Phase: s step on the selected block, n new unit in the cursor "
                    "city (+/- its steps), k castle, m disband, j merge; o sends the orders.")
        if self.mode:
            return (f"{self.mode.capitalize()} {','.join(self.chosen)}: arrows trace the path "
                    "(Home PgUp End PgDn: the diagonals), Enter confirms, Esc cancels.")
        legal = self.legal()
        verbs = sorted({a.verb for a in legal})
        stl = v.get("settle") or (v.get("window") if legal and verbs == ["eliminate"] else None)
        if stl:  # on a LAN the window of R121, when only eliminates are left
            return (f"{stl['hex']} is overstacked (R47): x lists the blocks you may "
                    "eliminate there; Enter on one.")
        sp = v.get("mspell") or (v.get("battle") or {}).get("spell")
        if sp:
            caster = v["blocks"].get(sp.get("caster", ""), {})
            where = f" in {caster['at']}" if caster.get("at") else ""
            from core.wizardkings.turn import SPELLS

            slug = str(sp.get("slug", "a spell"))
            level = sp.get("level") or (SPELLS[slug][1] if slug in SPELLS else "?")
            can = "dispel" in verbs  # only a wizard in range may (R85)
            return (f"{sp.get('caster', 'a wizard')}{where} casts {slug} (level {level}): "
                    + ("d lists your Dispels (R85), p lets it work." if can else
                       "none of your wizards may dispel it (R85): p lets it work."))
        if ph == "movement":
            return ("Movement: Enter selects your blocks in the cursor hex, then arrows and "
                    "Enter move them (t: by sea); e ends your turn." + (
                        " c casts." if "cast" in verbs else ""))
        bt = v.get("battle")
        if bt and bt.get("victor"):
            return "Regroup: g with a block selected, then a hex and Enter; e when done."
        if not bt:
            return "Choose the next battle: cursor on it and b (or Tab)."
        keys = {"fire": "f fire", "pass": "p pass", "retreat": "r retreat", "cast": "c cast",
                "hit": "h choose the hit", "dispel": "d dispel"}
        return "Battle: " + ", ".join(keys[x] for x in keys if x in verbs) + "."

    # ------------------------------------------------------------------ keys
    def key_ok(self) -> bool:
        """Orders are taken only while no bot is acting and the game is on."""
        if self.bots_pending:
            self.say("The bots are still acting.", "yellow")
            return False
        return True

    def action_cursor(self, d: str) -> None:
        """Move the cursor one hex (up/down: north/south; left/right: the next column, same
        row; ``nw ne sw se``, Home PgUp End PgDn: that diagonal neighbour, so each of the six
        neighbours is one key away, trialWK 3). With a move, retreat or regroup under way the
        path grows (back over the last hex: it shrinks)."""
        v = self.view()
        b = render.board_of(v)
        h = b.hexes[self.cursor]
        if d in ("w", "e"):
            dq = -1 if d == "w" else 1
            nxt = b.at.get((h.gq + dq, h.gr))
        else:
            nxt = render.global_step(b, h, d)
        if nxt is None:
            return
        self.cursor = nxt
        if self.mode:
            if len(self.trail) >= 2 and self.trail[-2] == nxt:
                self.trail.pop()
            elif self.trail and self.trail[-1] == nxt:
                pass
            elif nxt == self.sel_hex:
                self.trail = []
            else:
                self.trail.append(nxt)
        self.message = self.path_note() if self.mode in ("move", "transport") else None
        self.draw()

    def path_note(self) -> Text | None:
        """In a move: whether the path traced so far may be taken, or what stops it (the
        rules' words)."""
        if not self.trail or not self.chosen:
            return None
        path = "-".join(self.trail)
        why = self.session.why(Action(self.human, self.mode, (",".join(self.chosen), path)))
        if why:
            return Text(f"{path}: {why}", "yellow")
        return Text(f"{path}: Enter {'sails' if self.mode == 'transport' else 'moves'} here"
                    + self.overstack_note(self.trail[-1]), "green")

    def overstack_note(self, dest: str) -> str:
        """`` (then 1e7 is overstacked: you eliminate a block there, R47)`` when the chosen
        blocks arriving in ``dest`` would pass the stacking limit of your side (units, or a
        second wizard), else ``""``."""
        from core.wizardkings.units import ARMIES

        v = self.view()
        sides = v.get("sides", {})
        mine = sides.get(self.human, self.human)
        here = [x for x in render.blocks_at(v).get(dest, [])
                if sides.get(x["owner"], x["owner"]) == mine
                and str(x["label"]) not in self.chosen]
        coming = [v["blocks"][f"{self.human}.{lab}"] for lab in self.chosen
                  if f"{self.human}.{lab}" in v["blocks"]]

        def wizard(x: dict[str, Any]) -> bool:
            ut = ARMIES[v["armies"][x["owner"]]].get(x.get("type") or "")
            return bool(ut and ut.wizard)

        units = sum(1 for x in here + coming if not wizard(x))
        wizards = sum(1 for x in here + coming if wizard(x))
        if units > v["opts"]["stacking"] or wizards > 1:
            return f" (then {dest} is overstacked: you eliminate a block there, R47)"
        return ""

    def action_enter(self) -> None:
        """Select blocks, confirm a path, deploy."""
        if self.query_one("#wk-line", Input).has_class("-open"):
            return
        if not self.key_ok() or not self.my_turn():
            if not self.my_turn() and not self.session.over:
                self.say(f"It is not your turn: {', '.join(self.session.to_move())} to act.")
            return
        v = self.view()
        if v["phase"] == "setup":
            # on a LAN "deploy standard" is listed in full, its labels chosen by this
            # process (R112, R116): Enter plays that listed form (trialWK 2)
            std = Action(self.human, "deploy", ("standard",))
            listed = [a for a in self.legal() if a.verb == "deploy"]
            self.play(std if std in listed or not listed else listed[0])
            return
        if v["phase"] == "build":
            self.select_here(v)
            return
        if self.mode:
            self.confirm_path()
            return
        self.select_here(v)
        if self.chosen and v["phase"] == "movement":
            self.mode = "move"
            self.trail = []
            if not self.reach():
                why = self.session.why(Action(self.human, "move", (self.chosen[0], self.cursor)))
                self.say("These blocks cannot move now" + (f": {why}" if why else "."))
                self.mode = ""
        self.draw()

    def select_here(self, v: dict[str, Any]) -> None:
        """Select the human's blocks in the cursor hex (unmoved ones in the Movement
        Phase)."""
        mine = self.my_blocks(v, self.cursor)
        if v["phase"] == "movement":
            mine = [x for x in mine if not x.get("moved") and x.get("type") != "castle"]
        if not mine:
            self.say(f"You have no block to select in {self.cursor}.")
            self.reset_selection()
            return
        self.sel_hex = self.cursor
        self.chosen = [str(x["label"]) for x in mine]
        self.trail = []
        self.message = None

    def action_pick(self, n: int) -> None:
        """Keys 1-9: toggle the n-th of your blocks in the selected hex (a new selection of
        that block alone when the hex is not selected yet)."""
        v = self.view()
        mine = self.my_blocks(v, self.cursor if not self.sel_hex else self.sel_hex)
        if n > len(mine):
            return
        lab = str(mine[n - 1]["label"])
        if not self.sel_hex:
            self.sel_hex, self.chosen = self.cursor, [lab]
        elif lab in self.chosen:
            self.chosen.remove(lab)
        else:
            self.chosen.append(lab)
            self.chosen.sort(key=int)
        if not self.chosen:
            self.reset_selection()
        self.trail = []
        self.draw()

    def action_cancel(self) -> None:
        """Esc: close the notation line, or drop the path, or the selection."""
        line = self.query_one("#wk-line", Input)
        if line.has_class("-open"):
            line.remove_class("-open")
            self.query_one(MapView).focus()
            return
        if self.query_one("#wk-actions", OptionList).has_focus:
            self.query_one(MapView).focus()
            return
        if self.trail:
            self.trail = []
            self.cursor = self.sel_hex or self.cursor
        else:
            self.reset_selection()
        self.message = None
        self.draw()

    def confirm_path(self) -> None:
        """Enter with a path traced: the move (retreat, regroup) along it when it is legal,
        else the first legal one ending in the cursor hex; a refusal in the rules' words."""
        dest = self.cursor
        labs = ",".join(self.chosen)
        ends = [a for a in self.mode_actions() if a.words[1].split("-")[-1] == dest]
        trail = "-".join(self.trail)
        if self.mode in ("move", "transport"):
            paths = [a.words[1] for a in ends]
            if trail in paths:
                paths.remove(trail)
            if self.trail and self.trail[-1] == dest:
                paths.insert(0, trail)
            if not paths:
                paths = [trail or dest]
            paths.sort(key=lambda p: (p != trail, p.count("-")))
            why = ""
            for path in paths:
                a = Action(self.human, self.mode, (labs, path))
                why = self.session.why(a)
                if not why:
                    self.play(a)
                    return
            self.say(f"Not possible: {why}", "bold yellow")
            return
        # retreat / regroup: one block, a hex or (a Flyer's retreat) a path
        cands = [a for a in ends if a.words[1] == trail] or ends
        if not cands:
            a = Action(self.human, self.mode, (self.chosen[0], trail or dest))
            why = self.session.why(a) or "no such route"
            self.say(f"Not possible: {why}", "bold yellow")
            return
        self.play(min(cands, key=lambda a: (a.words[1].count("-"), str(a))))

    def verb_actions(self, verb: str) -> list[Action]:
        """The human's legal actions of one verb."""
        return [a for a in self.legal() if a.verb == verb]

    def action_verb(self, verb: str) -> None:
        """c, d, h, x: the list of those actions (one alone is played at once); c lists the
        Elves' elven-gates too (a family: ``cast:elven-gate``), those of the selected blocks'
        hex first."""
        if not self.key_ok():
            return
        acts = number_order(self.verb_actions(verb))
        if verb == "cast":
            gates = self.members("cast:elven-gate")
            if self.sel_hex:
                v = self.view()
                here = {str(x["label"]) for x in self.my_blocks(v, self.sel_hex)}
                gates = sorted(number_order(gates), key=lambda a: a.words[1] not in here)
            acts = acts + gates
        if not acts:
            self.say(f"No {verb} is possible now{self.refusal_reason(verb)}.")
            return
        if len(acts) == 1 and verb != "cast":
            self.play(acts[0])
            return
        self.shown = acts
        ol = self.query_one("#wk-actions", OptionList)
        ol.clear_options()
        width = (ol.content_size.width or side_width(self.app.size.width) - 4) - 1
        ol.add_options([Option(hanging(spell_line(a), width)) for a in acts])
        ol.highlighted = 0
        ol.focus()

    def action_end(self) -> None:
        """e: end the movement turn or the regroups."""
        if not self.key_ok():
            return
        acts = self.verb_actions("end")
        if acts:
            self.play(acts[0])
        elif self.my_turn() and self.view()["phase"] == "build":
            self.say("The Build Phase ends when every order is in: o sends yours "
                     f"({self.order_words() or 'none: build nothing'}).")
        else:
            self.say("Nothing to end now" + ("." if self.my_turn() else ": not your turn."))

    def step_blocks(self) -> list[Action]:
        """The fire/pass/retreat actions of the current combat turn."""
        return [a for a in self.legal() if a.verb in ("fire", "pass", "retreat")]

    def action_fire(self) -> None:
        """f: the unit (or units) of this step fire."""
        if not self.key_ok():
            return
        acts = self.verb_actions("fire")
        labelled = [a for a in acts if a.words]
        if len(labelled) == 1:
            self.play(labelled[0])
        elif acts:
            chosen = [a for a in labelled if a.words[0] in self.chosen]
            self.play(chosen[0] if chosen else next(a for a in acts if not a.words)
                      if any(not a.words for a in acts) else acts[0])
        else:
            self.say("No unit of yours may fire now" + self.why_suffix("fire"))

    def why_suffix(self, verb: str) -> str:
        """``: <the rules' reason>`` for a verb without words, or ``.``."""
        why = self.session.why(Action(self.human, verb)) if self.my_turn() else "not your turn"
        return f": {why}" if why else "."

    def action_pass_(self) -> None:
        """p: the unit of this step passes (or decline a Dispel)."""
        if not self.key_ok():
            return
        acts = self.verb_actions("pass")
        if not acts:
            self.say("Nothing to pass now.")
            return
        chosen = [a for a in acts if a.words and a.words[0] in self.chosen]
        self.play(chosen[0] if chosen else acts[0])

    def action_retreat(self) -> None:
        """r: retreat mode for the unit of this step (its possible hexes lit)."""
        self.start_mode("retreat")

    def action_regroup(self) -> None:
        """g: regroup mode for the selected block (or the first that may regroup)."""
        self.start_mode("regroup")

    def refusal_reason(self, verb: str) -> str:
        """Why no retreat is possible (trial finding 12), as ``": ..."`` ("" for another verb
        or outside a combat turn of the human's): the rules' reason for each hex next to the
        battle hex, for the unit whose combat turn it is, hexes with one reason together
        (``2d7: a unit may not retreat into the enemy hex 2d7 (R67)``)."""
        v = self.view()
        labels = sorted({a.words[0] for a in self.legal() if a.verb in ("fire", "pass")
                         and a.words and a.words[0].isdigit()}, key=int)
        if verb != "retreat" or not v.get("battle") or not labels:
            return ""
        lab = next((x for x in self.chosen if x in labels), labels[0])
        h = v["blocks"][f"{self.human}.{lab}"]["at"]
        reasons: dict[str, list[str]] = {}
        for n in render.board_of(v).neighbours(h):
            why = self.session.why(Action(self.human, "retreat", (lab, n)))
            if why:
                reasons.setdefault(why, []).append(n)
        if not reasons:
            return ""
        if len(reasons) == 1:
            return f": {next(iter(reasons))}"
        return f" for block {lab} in {h}: " + "; ".join(
            f"{', '.join(hs)}: {w}" for w, hs in reasons.items())

    def start_mode(self, verb: str) -> None:
        """Pick a block for a retreat or regroup, light its hexes."""
        if not self.key_ok():
            return
        acts = self.verb_actions(verb)
        if not acts:
            self.say(f"No {verb} is possible now" + (f"{self.refusal_reason(verb)}."
                                                      if self.my_turn() else ": not your turn."))
            return
        labs = [a.words[0] for a in acts]
        lab = next((x for x in self.chosen if x in labs), labs[0])
        v = self.view()
        at = v["blocks"][f"{self.human}.{lab}"]["at"]
        self.sel_hex, self.chosen, self.mode, self.trail = at, [lab], verb, []
        self.cursor = at
        self.message = None
        self.draw()

    def action_battle(self) -> None:
        """b: fight the battle in the cursor hex (or the only one)."""
        if not self.key_ok():
            return
        acts = self.verb_actions("battle")
        if not acts:
            self.say("No battle to choose now.")
            return
        here = [a for a in acts if a.words[0] == self.cursor]
        if here or len(acts) == 1:
            self.play((here or acts)[0])
        else:
            self.say("Put the cursor on one of the battles: " + " ".join(a.words[0] for a in acts))

    def action_transport(self) -> None:
        """t: Sea Transport (R50) for the selected blocks (else the cursor hex's unmoved
        ones): the friendly ports they may sail to are lit; arrows trace the route, Enter
        sails (to the lit port under the cursor, by the traced route or a shortest one)."""
        if not self.key_ok():
            return
        v = self.view()
        if v["phase"] != "movement" or not self.my_turn():
            self.say("Sea Transport is a move of your Movement Phase turn.")
            return
        if not self.chosen or self.mode not in ("move", "transport"):
            self.mode = ""
            self.select_here(v)
        if not self.chosen:
            return
        able = {a.words[0] for a in self.members("transport") if "," not in a.words[0]}
        self.chosen = sorted((x for x in self.chosen if x in able), key=int) or self.chosen
        labs = ",".join(self.chosen)
        self.mode, self.trail = "transport", []
        if not self.mode_actions():
            h = self.sel_hex
            port = render.board_of(v).hexes[h].port
            self.mode = ""
            self.say(f"No Sea Transport for {labs} from {h}: " + (
                "a transport starts in a friendly port with blocks that have not moved, are "
                "not Aquatics or castles and may leave, and ends in a friendly port 1 to 4 "
                "sea hexes away (R50)." if port else f"{h} is not a port (R50)."))
            return
        self.message = Text(f"Sea Transport {labs}: the lit ports are in reach; arrows and "
                            "Home PgUp End PgDn (the diagonals) trace the route (or just the "
                            "port), Enter sails, Esc cancels.", "green")
        self.cursor = self.sel_hex
        self.draw()

    def action_merge(self) -> None:
        """j: Build Phase: merges of the selected block into another of its type in its hex
        (R97), in the list; the chosen one is added to the orders."""
        if not self.key_ok():
            return
        v = self.view()
        if v["phase"] != "build" or not self.my_turn():
            self.say("Merges are build orders of your Build Phase.")
            return
        if not self.chosen:
            self.select_here(v)
        if not self.chosen:
            return
        labs = self.chosen
        acts = [a for a in self.members("build-items") if a.words[0].startswith("merge=")
                and a.words[0][6:].split(">")[0] in labs]
        if not acts:
            self.say(f"No merge for {', '.join('#' + x for x in labs)}: a merge moves steps "
                     "of a block into another of the same type in the same hex (R97).")
            return
        self.shown = acts
        ol = self.query_one("#wk-actions", OptionList)
        ol.clear_options()
        ol.add_options([Option(merge_words(a.words[0])) for a in acts])
        ol.highlighted = 0
        ol.focus()

    # --- Build Phase
    def order_words(self) -> str:
        """The Build Phase orders written so far, in the notation."""
        keys: dict[str, list[str]] = {}
        for k, item in self.orders:
            keys.setdefault(k, []).append(item)
        return " ".join(f"{k}={','.join(items)}" for k, items in keys.items())

    def action_build(self, kind: str) -> None:
        """s n k m: add a step, a new unit, a castle, a disband to the orders."""
        if not self.key_ok():
            return
        v = self.view()
        if v["phase"] != "build" or not self.my_turn():
            self.say("Build orders are written in your Build Phase.")
            return
        if kind in ("step", "disband"):
            if not self.chosen:
                self.select_here(v)
            if not self.chosen:
                return
            lab = self.chosen[0]
            if kind == "step":  # the first selected block below its maximum
                lab = next((x for x in self.chosen if self.below_max(v, x)), lab)
                done = [i for i, (k, it) in enumerate(self.orders)
                        if k == "step" and it.split(":")[0] == lab]
                if done:
                    i = done[0]
                    n = int(self.orders[i][1].split(":")[1]) + 1
                    self.orders[i] = ("step", f"{lab}:{n}")
                else:
                    self.orders.append(("step", f"{lab}:1"))
            else:
                self.orders.append(("disband", lab))
        elif kind == "castle":
            self.orders.append(("castle", self.cursor))
        else:
            pool = v["pool"].get(self.human, {})
            types = [t for t, n in sorted(pool.items()) if n and t != "castle"] \
                if isinstance(pool, dict) else []
            if not types:
                self.say("Your pool has no block left.")
                return
            self.shown = [Action(self.human, "build", (f"new={t}@{self.cursor}:1",))
                          for t in types]
            ol = self.query_one("#wk-actions", OptionList)
            ol.clear_options()
            ol.add_options([Option(f"new {t} in {self.cursor} (1 step; + / - steps)")
                            for t in types])
            ol.highlighted = 0
            ol.focus()
            return
        self.check_orders()

    def action_new_steps(self, d: int) -> None:
        """+ / -: one step more (less) on the new unit queued last in the cursor hex, else
        the last new unit queued; 1 to the type's maximum (R92: "built at any strength from
        1 to its maximum", costing its cost per step x strength), the orders then checked."""
        if not self.key_ok():
            return
        v = self.view()
        if v["phase"] != "build" or not self.my_turn():
            self.say("Build orders are written in your Build Phase.")
            return
        news = [i for i, (k, _it) in enumerate(self.orders) if k == "new"]
        here = [i for i in news if self.orders[i][1].split("@")[1].split(":")[0] == self.cursor]
        if not news:
            self.say("No new unit queued: n queues one in the cursor city, then + adds steps.")
            return
        i = (here or news)[-1]
        t, _, rest = self.orders[i][1].partition("@")
        at, _, n = rest.partition(":")
        from core.wizardkings.units import ARMIES

        ut = ARMIES[v["armies"][self.human]].get(t)
        top = ut.max if ut is not None else 1
        k = int(n or 1) + d
        if k < 1:
            self.say(f"The new {t} in {at} is at 1 step already (Backspace drops it).")
            return
        if k > top:
            self.say(f"A {t} has at most {top} steps (units.md §2).")
            return
        self.orders[i] = ("new", f"{t}@{at}:{k}")
        self.check_orders()

    def below_max(self, v: dict[str, Any], label: str) -> bool:
        """True when the human's block ``label`` is below its type's maximum strength
        (units.md §2)."""
        from core.wizardkings.units import ARMIES

        x = v["blocks"].get(f"{self.human}.{label}")
        if not x or not x.get("type"):
            return False
        ut = ARMIES[v["armies"][self.human]].get(x["type"])
        return ut is not None and x["strength"] < ut.max

    def check_orders(self) -> None:
        """Say whether the orders written so far would be accepted."""
        words = tuple(self.order_words().split())
        try:
            a = parse(" ".join((self.human, "build", *words)))
        except NotationError as exc:
            self.say(f"Not an order: {exc}", "bold yellow")
            return
        why = self.session.why(a)
        self.message = Text(f"Orders: {' '.join(words)}" + (f" — not possible: {why}" if why
                                                            else " — accepted; o sends them"),
                            "bold yellow" if why else "green")
        self.draw()

    def action_build_undo(self) -> None:
        """Backspace: drop the last order."""
        if self.orders:
            self.orders.pop()
            self.check_orders()

    def action_send_orders(self) -> None:
        """o: send the Build Phase orders."""
        if not self.key_ok():
            return
        v = self.view()
        if v["phase"] != "build":
            self.say("Orders are sent in the Build Phase.")
            return
        self.play(" ".join((self.human, "build", *self.order_words().split())), orders=True)

    # --- lists, the notation line, info
    def action_actions(self) -> None:
        """Tab: to the action list and back."""
        ol = self.query_one("#wk-actions", OptionList)
        if ol.has_focus:
            self.query_one(MapView).focus()
        else:
            ol.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Enter in the list: play that action (a new unit is added to the orders)."""
        event.stop()
        if event.option_index >= len(self.shown):
            return
        a = self.shown[event.option_index]
        self.query_one(MapView).focus()
        if a.verb == "build" and self.view()["phase"] == "build" and len(a.words) == 1 \
                and a.words[0].startswith(("new=", "merge=")) and a not in self.legal():
            k, _, item = a.words[0].partition("=")
            self.orders.append((k, item))
            self.check_orders()
            return
        self.play(a)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        """A highlighted action's hex under the cursor."""
        if event.option_index >= len(self.shown) or not self.query_one(
                "#wk-actions", OptionList).has_focus:
            return
        a = self.shown[event.option_index]
        hexes = [w.split("-")[-1] for w in a.words if w[:1].isdigit() and "-" in w or
                 (len(w) == 3 and w[0].isdigit() and w[1].isalpha())]
        if hexes:
            self.cursor = hexes[-1]
            v = self.view()
            self.query_one(MapView).update(render.render_map(
                v, self.cursor, ascii_only=self.ascii_only, reach=self.reach(),
                selected=self.sel_hex or None))
            self.call_after_refresh(self.follow_cursor)

    def action_notation(self) -> None:
        """: opens the notation line."""
        line = self.query_one("#wk-line", Input)
        line.add_class("-open")  # empty, as in the other games: the seat may be typed or not
        self.set_focus(line)  # now: the keys typed behind ":" are queued (notation_key)
        line.cursor_position = len(line.value)

    def on_key(self, event: events.Key) -> None:
        """Keys typed fast behind ``:`` go to the notation line (:meth:`notation_key`)."""
        self.notation_key(event, self.query_one("#wk-line", Input), "notation")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """The notation line: play what was typed. The line closes either way (the next key
        is the game's); a refused line keeps its text, which ``:`` opens again to fix, and
        its reason stays on the prompt line."""
        event.stop()
        line = self.query_one("#wk-line", Input)
        text = own_seat(event.value, self.human)
        ok = self.play(text)
        if ok:
            line.value = ""
        line.remove_class("-open")
        self.query_one(MapView).focus()
        if not ok and line.value.strip() and self.message is not None:
            self.message.append("  (: to fix the line)", "italic")
            self.draw_prompt()

    def action_hex_info(self) -> None:
        """i: everything about the cursor hex, in a box."""
        v = self.view()
        text = "\n".join(str(x) for x in render.hex_lines(v, self.cursor,
                                                              ascii_only=self.ascii_only))
        self.app.push_screen(HelpScreen(self.ascii_only, "wizard-kings", text=text))

    def action_help(self) -> None:
        """?: keys, terms and units."""
        self.app.push_screen(HelpScreen(self.ascii_only, "wizard-kings"))

    def show_game_over(self) -> None:
        """Once: the result in the prompt and the log, and the game-over box."""
        if self.over_shown:
            return
        self.over_shown = True
        res = self.session.result()
        text = f"Game over: {res.text or 'the game is over'}"
        self.query_one("#wk-log", RichLog).write(Text(text, "bold green"))
        self.message = Text(text + "  (q leaves)", "bold green")
        self.draw_prompt()
        from wizwar_tui.wizardkings.screens import GameOverScreen

        self.app.push_screen(GameOverScreen(self.view(), res.text, self.human,
                                            self.seed, self.ascii_only))

    async def action_menu(self) -> None:
        """q: back to the main menu (asking first while the game is on)."""
        if not self.session.over:
            from wizwar_tui.lobby import ConfirmScreen

            def answered(yes: bool | None) -> None:
                if yes:
                    self.leave()

            self.app.push_screen(ConfirmScreen("Leave this game for the main menu?",
                                               self.leave_note()), answered)
            return
        self.leave()

    def leave(self) -> None:
        """Leave the game (a LAN game is left too)."""
        if self.lan is not None:
            self.app.leave_lan()  # type: ignore[attr-defined]
        self.app.show_menu()  # type: ignore[attr-defined]


def spell_line(a: Action) -> str:
    """A cast or dispel in the list with its effect in a few words (``P1 cast leafstorm 14:
    3 dice F4 at the enemy``, trialWK 8); any other action as its notation."""
    from wizwar_tui.wizardkings.spells import short

    slug = a.words[0] if a.verb == "cast" and a.words else a.verb
    what = short(slug) if a.verb in ("cast", "dispel") else ""
    return f"{a}: {what}" if what else str(a)


def merge_words(item: str) -> str:
    """``merge=3>5:2`` as ``merge #3 into #5: 2 steps``."""
    giver, _, rest = item.partition("=")[2].partition(">")
    to, _, k = rest.partition(":")
    return f"merge #{giver} into #{to}: {k} step{'' if k == '1' else 's'}"


def event_words(e: Any) -> str:
    """One event of the rules core in words for the log (its data, the core's plain line for
    kinds not named here)."""
    d = getattr(e, "data", None) or {}
    k = getattr(e, "kind", "")
    try:
        if k == "initiative":
            rolls = ", ".join(f"{p} {a}+{b}" for p, (a, b) in d["rolls"])
            return f"Initiative: {rolls}; order {' '.join(d['order'])}"
        if k == "phase":
            return f"-- {d['phase'].capitalize()} Phase" + (
                f": {d['active']} moves" if d.get("active") else "")
        if k == "deployed":
            return f"{d['player']} deploys {len(d['blocks'])} blocks"
        if k in ("moved", "retreated", "regrouped", "transported"):
            return f"{d['block']} {k} {'-'.join(d['path'])}"
        if k == "battle_formed":
            return f"Battle forms in {d['hex']}: {d['attacker']} attacks {d['defender']}"
        if k == "battle_started":
            return f"Battle in {d['hex']}: {d['attacker']} against {d['defender']} " \
                   f"(blocks revealed)"
        if k == "step":
            return f"  round {d['round']}, step {d['step']}" if d.get("step") else \
                f"  round {d['round']}"
        if k == "fired":
            return f"  {d['block']} fires: dice {' '.join(map(str, d['dice']))}, " \
                   f"{d['hits']} hit{'s' if d['hits'] != 1 else ''}"
        if k == "hit":
            return f"  {d['block']} loses a step (strength {d['strength']})"
        if k == "eliminated":
            return f"  {d['block']} ({d['type']}) eliminated: {d['cause']}"
        if k == "eliminating":  # on a LAN (R121): revealed, then eliminated
            return f"  {d['block']} in {d['hex']} is eliminated (overstack): its owner reveals it"
        if k == "battle_ended":
            return f"Battle in {d['hex']} ends: {d.get('victor') or 'nobody'} holds it"
        if k == "treasury":
            return "Build Phase, treasuries: " + ", ".join(f"{p} {n} GP"
                                                         for p, n in d["treasury"])
        if k == "built":
            new = ", ".join(f"{x} in {h}" for x, h in d["new"])
            gone = ", ".join(d["removed"])
            return f"{d['player']} builds" + (f": new {new}" if new else "") + \
                (f"; disbands {gone}" if gone else "") + ("" if new or gone else
                                                          " steps or nothing new")
        if k == "spell_declared":
            return f"  {d['block']} casts {d['spell']}" + (
                f" on {d['target']}" if d.get("target") else "")
        if k == "dispel":
            return f"  {d['block']} dispels: rolls {d['roll']}, " + (
                "the spell fails" if d["success"] else "no effect")
        if k == "victory":
            return f"Victory: {d['winner']} ({d['how']})"
        if k == "commitments":  # fresh commitments on a LAN (R113)
            return f"{d['player']} commits to {len(d['blocks'])} block(s) (R113)"
        if k == "revealed":  # a battle's or a spell's reveal (R55, R114)
            return f"  {d['player']} reveals " + ", ".join(
                f"{b} {t} {s}" for b, t, s in d["blocks"])
    except (KeyError, TypeError, ValueError):
        pass
    return str(getattr(e, "text", e))
