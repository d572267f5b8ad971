"""The game screen: board, panels, log, command line; turns keys into actions.

The screen never decides what is legal: it narrows ``session.legal_actions()`` by what the
player points at, asks ``session.why()`` before submitting, and shows the reason on refusal.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import _time, events, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, ScrollableContainer, Vertical
from textual.widgets import Input, RichLog, Static

from core.engine import Event, IllegalAction
from core.session import LocalSession
from core.wizwar.actions import Action, NotationError, parse
from core.wizwar.board import parse_edge, parse_square
from core.wizwar.view import View
from net.session import NetSession
from wizwar_tui.footer import KeysFooter, show_footer_on_top
from wizwar_tui.gameui import GameScreenBase
from wizwar_tui.saves import HeldHeader, LogFile, new_log, now_text
from wizwar_tui.screens import ChoiceScreen, HelpScreen, TooSmall
from wizwar_tui.wizwar import render
from wizwar_tui.wizwar.screens import CardScreen, CardsScreen
from wizwar_tui.wizwar.widgets import Board, BoardRuler, HandPanel, PlayersPanel, StackPanel

if TYPE_CHECKING:
    from wizwar_tui.lobby import LanLink

Square = tuple[int, int]


def _ruleset() -> Any:
    """The Wiz-War ruleset (a game screen made without a session starts one)."""
    from core.wizwar.ruleset import RULESET

    return RULESET

NET_IDLE_ACTIONS = {"help", "menu", "cancel", "card_text", "hand", "command", "cards",
                    "panels"}
"""Key actions that still make sense while a LAN game is not dealt (or is being rejoined)."""

TYPE_AHEAD_MAX = 8
"""LAN: keys a player may type ahead while their last action is on its way to the host."""


@dataclass(frozen=True)
class TypedAhead:
    """A key pressed in a LAN game while the player's last action had not come back from
    the host: done, in order, once the host has answered (on the state it acknowledged).

    Attributes:
        action: the key's action name (``end``, ``select``, ``card``...; ``do`` for an
            action typed on the command line).
        args: its parameters (``do``: the parsed :class:`Action`).
        square: the board cursor when pressed (``select`` walks or aims there).
        card: the card a number key named when pressed (card *n*); the keys for "the
            selected card" take the one selected when they are done.
    """

    action: str
    args: tuple[Any, ...] = ()
    square: tuple[int, int] = (0, 0)
    card: str = ""

    def label(self) -> str:
        """What the key will do, in words (for the status line)."""
        names = {"end": "end turn", "pass": "pass", "boost": "boost", "punch": "punch",
                 "pickup": "pick up", "drop": "drop", "actions": "actions menu"}
        if self.action == "do":
            return str(self.args[0]).split(" ", 1)[-1]
        if self.action == "select":
            return f"walk/choose {render.square_name(self.square)}"
        if self.action == "card":
            return f"play {render.card_name(self.card)}"
        if self.action == "play_selected":
            return "play the selected card"
        if self.action == "discard":
            return "discard the selected card"
        return names.get(self.action, self.action)


def typed_ahead(method: Callable[..., Any]) -> Callable[..., Any]:
    """Mark a key action a LAN player may type ahead: pressed while their last action is on
    its way to the host, it is queued (:meth:`GameScreen.type_ahead`) instead of refused."""

    @functools.wraps(method)
    def wrapper(self: GameScreen, *args: Any) -> Any:
        if self.type_ahead(method.__name__.removeprefix("action_"), args) is not None:
            return None
        return method(self, *args)

    return wrapper


class GameLog(RichLog):
    """The game's log panel: written again at its new width after a resize (a RichLog
    keeps its lines as wrapped when written, so they were cut off or left narrow)."""

    def on_resize(self, event: events.Resize) -> None:
        """Wrap the log again for the new width (see :meth:`GameScreen.rewrap_log`)."""
        rewrap = getattr(self.screen, "rewrap_log", None)
        if rewrap is not None:
            self.call_after_refresh(rewrap)


class BoardScroll(ScrollableContainer, can_focus=False):
    """Scrolls the board on terminals too small for it (the cursor stays visible)."""

    def on_resize(self) -> None:
        """After the window changed size, bring the cursor's square back into sight."""
        for board in self.query(Board):
            self.call_after_refresh(board.follow_cursor)


class GameBoard(Board):
    """The board with the cursor keys bound (it keeps the focus during play)."""

    BINDINGS = [
        Binding("up,k", "cursor(0,-1)", "Up", show=False),
        Binding("down,j", "cursor(0,1)", "Down", show=False),
        Binding("left,h", "cursor(-1,0)", "Left", show=False),
        Binding("right,l", "cursor(1,0)", "Right", show=False),
    ]

    def action_cursor(self, dx: int, dy: int) -> None:
        """Move the board cursor."""
        self.move_cursor(dx, dy)


#: the keys that open an input, and their actions (run as the key arrives: GameScreen.on_key)
OPENERS = {"a": "actions"}
"""Keys besides ``:`` that open an input at once (:meth:`GameScreen.on_key`)."""


class GameScreen(GameScreenBase):
    """One game: the human against bots (a ``LocalSession``), or a LAN game (a
    ``NetSession`` with its ``LanLink``; the human's actions go to the host, which commits
    them, and the screen redraws when the link reports a change).

    ``accept_since``: when the human's current turn began after the bots acted (Textual's
    clock); the app drops keys pressed before it (see ``WizWarApp.on_event``)."""

    CSS_PATH = "game.tcss"  # loaded when first opened (start-up: only wizwar.tcss)

    BINDINGS = [
        # Help and Menu first: a narrow footer cuts the last keys (issue 12, 60 columns)
        Binding("question_mark", "help", "Help"),
        Binding("q", "menu", "Menu"),
        Binding("tab", "panels", "Board/panels"),
        Binding("a", "actions", "Actions"),
        Binding("colon", "command", "Command"),
        Binding("m,enter", "select", "Walk/choose", show=False),
        Binding("e", "end", "End turn"),
        Binding("space,n", "pass", "Pass", show=False),
        Binding("b", "boost", "Boost", show=False),
        Binding("p", "punch", "Punch", show=False),
        Binding("g", "pickup", "Pick up", show=False),
        Binding("d", "drop", "Drop", show=False),
        Binding("x", "discard", "Discard", show=False),
        Binding("c", "play_selected", "Play card", show=False),
        Binding("i", "card_text", "Card text"),
        Binding("C", "cards", "Cards"),
        Binding("s", "square", "Square", show=False),
        Binding("comma", "hand(-1)", "Prev card", show=False),
        Binding("full_stop", "hand(1)", "Next card", show=False),
        Binding("escape", "cancel", "Cancel", show=False),
        *[Binding(str(i), f"card({i})", f"Card {i}", show=False) for i in range(0, 10)],
    ]

    def __init__(self, players: int = 2, seed: int = 0, ascii_only: bool = False,
                 bot_delay: float = 0.3, session: LocalSession | NetSession | None = None,
                 lan: LanLink | None = None, save_log: bool = False,
                 variants: dict[str, bool] | None = None) -> None:
        super().__init__()
        self.save_log = save_log  # a local game: write its log under the saved games
        self.logfile: LogFile | None = None
        self.players = players
        self.seed: int | None = seed
        self.ascii_only = ascii_only
        self.bot_delay = bot_delay
        self.session: LocalSession | NetSession = (
            session if session is not None else LocalSession.start(
                _ruleset(),
                {"players": players, **{k: v for k, v in (variants or {}).items()
                                        if k != "levels"}},
                seed, levels=(variants or {}).get("levels")))
        self.lan = lan
        self.net = isinstance(self.session, NetSession)
        if self.net:
            self.seed = None
        if self.session.started:
            self.players = len(self.session.view().players)
        self.human = self.session.human
        self.pending: Action | None = None  # sent to the host, not committed yet
        self.pending_at = 0  # actions committed when it was sent
        self.queued: list[TypedAhead] = []  # keys typed ahead while pending (LAN)
        self.log_texts: list[Text | str] = []  # every log line, to wrap again on a resize
        self.log_width = 0  # the width the log was last wrapped at
        self.message_turn: tuple[Any, ...] | None = None  # the turn self.message is about
        self.refused_text = ""  # the command line last refused (":" opens the line with it)
        self.seen_events = 0  # LAN: events already in the log
        self.early: list[str] | None = None  # keys typed while the actions menu opens
        self.seen_messages = len(lan.messages) if lan is not None else 0
        self.logged_problem = ""
        self.busy = False
        self.message: Text | None = None
        self.lost_note = ""  # "You lost your turn": shown before the prompt until he acts
        self.auto_panels = False  # a narrow window shows the panels while he answers
        self.targeting: list[Action] = []
        self.target_card = ""
        self.over_shown = False
        self.first = ""  # who rolled highest and moved first ("" if not seen)
        self.walk_note = ""  # why the human may not step now, in his turn ("" if he may)
        self.card_prefix = 0  # a digit typed that begins a two-digit card number (hand >= 10)
        self.accept_since = 0.0  # keys older than this are dropped (bots were acting)
        self.options: dict[str, Any] = dict(getattr(self.session, "options", None) or {})
        self.team = bool(self.options.get("team"))

    # ------------------------------------------------------------------ layout
    def compose(self) -> ComposeResult:
        """Top bar, board column, side panels, status, command line, footer."""
        yield Static(id="topbar")
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield BoardRuler(id="board-cols")
                with BoardScroll(id="board-scroll"):
                    yield GameBoard(ascii_only=self.ascii_only, id="board")
                yield Static(id="info")
                yield StackPanel(id="stack")
            with Vertical(id="right", classes="game-right"):
                with Vertical(id="side"):
                    yield Static(id="top-side")  # the header line where the board just fits
                    yield Static(id="info-side")  # the square's lines on short windows
                    yield StackPanel(id="stack-side")  # the stack where the board has no room
                    yield PlayersPanel(id="players")
                    yield HandPanel(id="hand")
                yield GameLog(id="log", wrap=True, markup=False, auto_scroll=True, min_width=20)
        yield Static(id="status")
        yield Input(placeholder="notation, e.g. play fireball @P2 +4 · Esc closes", id="cmd",
                    select_on_focus=False)  # a reopened line is fixed, not replaced
        yield KeysFooter(show_command_palette=False)
        yield TooSmall()

    def on_mount(self) -> None:
        """Titles, the first drawing, then let the bots act if they move first."""
        self.query_one("#players").border_title = "Players"
        self.query_one("#hand").border_title = "Hand"
        for stack in self.query(StackPanel):
            stack.border_title = "Stack"
        self.query_one("#log").border_title = "Log"
        self.query_one("#log", RichLog).can_focus = False
        self.query_one("#cmd").display = False
        for panel in (PlayersPanel, HandPanel):
            self.query_one(panel).ascii_only = self.ascii_only
        for stack in self.query(StackPanel):
            stack.ascii_only = self.ascii_only
        board = self.query_one(GameBoard)
        board.focus()
        self.watch(board, "cursor", lambda _sq: self.cursor_moved(), init=False)
        if self.net and not self.session.started:  # not expected: pushed at the deal
            self.refresh_all()
            if self.lan is not None:
                self.lan.listeners.append(self.net_changed)
            return
        me = self.view.player(self.human)
        board.cursor = me.at or (0, 0)
        if self.lan is not None:
            self.log_line(Text(f"LAN game · {self.players} players · {self.lan_label()} · "
                               f"you are {self.human}", "bold"))
        else:
            self.log_line(Text(f"New game · {self.players} players · seed {self.seed} · "
                               f"you are {self.human}{self.options_text()}", "bold"))
        from core.wizwar.cards import deck_list

        cards = len(deck_list("full", self.players))
        self.log_line(Text(f"The full 6th-edition deck: {cards} cards"
                           + (" (Relocate Sector is left out with two players)"
                              if self.players == 2 else ""), "dim"))
        v = self.view
        if v.round == 1 and not self.session.actions:  # nobody has acted: the die roll
            self.first = v.active
            self.log_line(Text(render.first_player_line(v),
                               f"bold {render.player_colour(v.active)}"))
            traps = render.opening_traps_line(v)
            if traps:
                self.log_line(Text(traps))
        if self.lan is not None:
            self.lan.listeners.append(self.net_changed)
            self.net_changed()
            return
        self.start_log()
        self.refresh_all()
        self.call_after_refresh(self.run_bots)

    def options_text(self) -> str:
        """The local game's options for the log's first line (`` · team play`` ...)."""
        out = []
        if self.options.get("crossed"):
            out.append("crossed exits")
        if self.options.get("doors"):
            out.append("doors variant")
        if self.team:
            out.append(f"team play ({render.teams_text()})")
        levels = getattr(self.session, "levels", {}) or {}
        if any(lv != "apprentice" for lv in levels.values()):
            out.append("bots " + ", ".join(f"{s} {lv}" for s, lv in sorted(levels.items())))
        return "".join(f" · {o}" for o in out)

    def start_log(self) -> None:
        """Autosave a local game: its log file is written as it is played, a flushed record
        per action. The header is held back until the first action
        (:class:`net.logfiles.HeldHeader`): the file appears in one atomic write with the
        header and that action, so a game killed before anyone acted (SIGTERM, SIGHUP,
        ``kill -9``) leaves no file (issue 12)."""
        if not self.save_log or self.logfile is not None \
                or not isinstance(self.session, LocalSession):
            return
        try:
            self.logfile = new_log("local", f"seed{self.seed}")
            self.session.record_to(HeldHeader(self.logfile.write).write, started=now_text())
        except OSError as exc:
            self.logfile = None
            self.session.writer = None
            self.notify(f"This game is not saved: {exc}", severity="warning", timeout=8)

    def on_screen_suspend(self) -> None:
        """A dialog or another screen on top: this footer does not show through."""
        show_footer_on_top(self, False)

    def on_screen_resume(self) -> None:
        """On top again: the footer back."""
        show_footer_on_top(self, True)

    def on_unmount(self) -> None:
        """Stop listening to a LAN game; close a local game's log (there is none on disk
        when nobody acted: such a game is not kept; :meth:`LogFile.discard` makes sure)."""
        if self.lan is not None and self.net_changed in self.lan.listeners:
            self.lan.listeners.remove(self.net_changed)
        if self.logfile is not None:
            if isinstance(self.session, LocalSession):
                self.session.writer = None
            if not self.session.actions:  # nobody acted: the game is not kept
                try:
                    self.logfile.discard()
                except OSError:
                    self.logfile.close()  # (left on disk; the list still hides it)
            else:
                self.logfile.close()
            self.logfile = None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """While a LAN game has no state (before the deal, or while rejoining) only the
        keys that need no board work; Tab (board/panels) only in narrow windows."""
        if action == "panels" and not self.app.has_class("-narrow"):
            return False  # wide enough for both: not in the footer, Tab does nothing
        if self.net and not self.session.started and action not in NET_IDLE_ACTIONS:
            return None
        if action == "end":  # the footer offers e only when it can end the turn
            return self.can_end()
        return True

    def can_end(self) -> bool:
        """``e`` can act now: an end of turn is legal for the human, or (LAN) it is typed
        ahead of the host's answer. Not while discarding down, answering an attack, a bot
        acting or after the host is lost (issue 12, hints that lie)."""
        if self.lan_down() or self.session.over:
            return False
        if self.pending is not None:
            return True  # typed ahead: done once the host answers (refused then, in words)
        if not self.human_to_act():
            return False
        return any(a.verb == "end" for a in self.session.legal_actions())

    def lan_label(self) -> str:
        """Where the LAN game is: ``hosting on 0.0.0.0:7654`` / ``joined 10.0.0.2:7654``."""
        if self.lan is None:
            return ""
        if not getattr(self.app, "HAS_MENU", True):  # an SSH session: the address is internal
            return getattr(self.app, "VIA", "over SSH")  # SSHPlayerApp.VIA; a web tab's too
        return f"{'hosting on' if self.lan.hosting else 'joined'} {self.lan.address}"

    def net_changed(self) -> None:
        """The LAN game changed (a commit, a join, a refusal, a lost host): log the new
        events, drop the pending mark, show problems, redraw."""
        s = self.session
        if not s.started:
            self.pending = None
            self.queued.clear()
            problem = self.lan.problem if self.lan is not None else ""
            self.message = Text(problem, "bold red") if problem else None
            self.message_turn = None
            self.refresh_all()
            return
        if self.lan is not None and len(self.lan.messages) > self.seen_messages:
            for msg in self.lan.messages[self.seen_messages:]:
                self.log_line(Text(f"· {msg}", "dim italic"))
            self.seen_messages = len(self.lan.messages)
        events = s.events
        if len(events) > self.seen_events:
            self.log_events(events[self.seen_events:])
            self.seen_events = len(events)
        answered = False
        if self.pending is not None and len(s.actions) != self.pending_at:
            self.pending = None
            answered = True
        reject = self.lan.take_reject() if self.lan is not None else ""
        if reject:
            self.pending = None
            dropped = self.drop_queued()  # they were typed on the refused action
            self.say(f"The host refused: {reject}{dropped}")
        if self.lan is not None and self.lan.problem:
            self.queued.clear()
            self.message = Text(self.lan.problem, "bold red")
            self.message_turn = None
            if self.lan.phase in ("lost", "failed", "desync", "refused") \
                    and self.logged_problem != self.lan.problem:
                self.logged_problem = self.lan.problem
                self.log_line(Text(self.lan.problem, "bold red"))
        elif self.message is not None and self.message.plain.startswith("connection to"):
            self.message = None  # rejoined
        self.refresh_all()
        if s.over:
            self.queued.clear()
            self.show_game_over()
        elif answered and self.queued and self.pending is None:
            self.run_queued()

    # ------------------------------------------------------------------ typing ahead (LAN)
    def type_ahead(self, action: str, args: tuple[Any, ...]) -> bool | None:
        """A key pressed in a LAN game while the last action has not come back from the host
        is queued, to be done once the host answers (:meth:`run_queued`), at most
        :data:`TYPE_AHEAD_MAX`. Returns None when the key is not typed ahead (do it now),
        True when queued, False when refused (the queue is full: the reason is shown)."""
        if not self.net or self.pending is None or self.lan_down() or self.session.over:
            return None
        hand = self.query_one(HandPanel)
        card = ""
        if action == "card":
            n = int(args[0]) if args else 0
            if not 1 <= n <= len(hand.hand):
                return None  # "you have no card n" at once
            card = hand.hand[n - 1]
        elif action in ("play_selected", "discard"):
            if not hand.selected():
                return None
            # "the selected card" is the one selected when the key is done, as in a local
            # game: x x discards two cards, not the first twice
        if len(self.queued) >= TYPE_AHEAD_MAX:
            self.say(f"Wait: {len(self.queued)} keys already wait for the host's answer",
                     "bold yellow")
            return False
        self.queued.append(TypedAhead(action, tuple(args), self.board.cursor, card))
        self.message = None
        self.update_status()
        return True

    def drop_queued(self) -> str:
        """Forget the keys typed ahead; returns a note saying how many (or "")."""
        n = len(self.queued)
        self.queued.clear()
        return f" ({n} key{'s' if n > 1 else ''} typed ahead dropped)" if n else ""

    @work(exclusive=True, group="type-ahead")
    async def run_queued(self) -> None:
        """The host answered: do the keys typed ahead, in order, on the acknowledged state,
        each as if pressed now (a key no longer possible is refused with the usual reason,
        and the keys after it are dropped: they were typed on what it would have done).
        Stops when one sends an action to the host again; the rest wait for that answer."""
        while self.queued and self.pending is None:
            if self.lan_down() or self.session.over:
                self.queued.clear()
                break
            item = self.queued.pop(0)
            self._replay(item)
            await self._choices_done()
            if self.pending is not None:
                break  # sent: the rest waits for the host's next answer
            if self.targeting:
                continue  # aiming a card: the next key may choose the target
            if self.queued:
                note = self.drop_queued()
                if self.message is not None:
                    self.message.append(note, "dim")
                    self.update_status()
            break

    def _replay(self, item: TypedAhead) -> None:
        """Do one key typed ahead, now."""
        if item.action == "select":
            self.select_at(item.square)
        elif item.action == "card":
            hand = self.query_one(HandPanel)
            if item.card in hand.hand:
                hand.index = hand.hand.index(item.card)
            self.targeting = []
            self.start_card(item.card)  # refused with the reason if it cannot be played
        elif item.action == "do":
            self.do(item.args[0])
        else:
            getattr(self, f"action_{item.action}")(*item.args)

    async def _choices_done(self) -> None:
        """Wait for a card or verb with several choices to be chosen (its worker asks)."""
        while True:
            running = [w for w in self.workers
                       if w.node is self and w.group == "choose" and not w.is_finished]
            if not running:
                return
            for w in running:
                with contextlib.suppress(Exception):
                    if w.is_running:
                        await w.wait()
                    else:
                        await asyncio.sleep(0)

    @property
    def view(self) -> View:
        """The human's view now."""
        return self.session.view()

    @property
    def board(self) -> GameBoard:
        """The board widget."""
        return self.query_one(GameBoard)

    # ------------------------------------------------------------------ drawing
    def human_to_act(self, v: View | None = None) -> bool:
        """True when the human may act now (and no bot is still thinking)."""
        v = v or self.view
        if self.pending is not None or self.lan_down():
            return False
        return (not self.busy and not self.session.over and self.human in v.to_move)

    def lan_down(self) -> bool:
        """True when a LAN game cannot go on (host lost, desync, refused)."""
        return self.lan is not None and self.lan.phase in ("lost", "failed", "desync",
                                                           "refused", "rejoining")

    def refresh_all(self) -> None:
        """Redraw every panel from a fresh view."""
        if self.net and not self.session.started:
            self.query_one("#status", Static).update(
                self.message or Text("Waiting for the host to deal…", "italic"))
            return
        v = self.view
        legal = self.session.legal_actions() if self.human_to_act(v) else []
        self.walk_note = render.refusal_words(self.walk_block(v, legal)) if legal and v.active == self.human \
            and not v.stack and not v.discarding else ""
        # the squares to walk to: only when the rules list a step (Lock In Place, a pick-up,
        # walls all round: none; issue 12, hints that lie)
        reach = self.walk_reach(v, legal)
        targets = self._target_squares(v) if self.targeting else set()
        self.fit_board(v)
        self.board.set_view(v, reach, targets)
        self.query_one(BoardRuler).show(v, self.board.scale)
        status = self.session.seat_status() if isinstance(self.session, NetSession) else None
        self.query_one(PlayersPanel).show(v, self.seed, status, team=self.team)
        playable = {a.card for a in legal if a.verb == "play"}
        self.query_one(HandPanel).show(v, playable)
        self.place_stack(v, playable)
        self.update_info()
        self.update_top(v)
        self.update_status(v)
        self.refresh_bindings()  # the footer's e follows can_end

    def place_stack(self, v: View, playable: set[str]) -> None:
        """Draw the stack where it hides nothing (issue 12: at 80x24 the Stack panel under
        the board covered its last two rows; at 60x20 the hand was hidden while answering).
        Where the board column has no room to spare (``-rim``, short or narrow windows) the
        stack goes at the top of the right column (``-stack-side``: the players panel gives
        up rows, the log gives way unless it has a column of its own); a narrow window shows
        the panels (stack and hand) while the human must answer or discard, and the board
        again after (Tab switches as ever)."""
        below = self.query_one("#stack", StackPanel)
        side = self.query_one("#stack-side", StackPanel)
        below.show(v, playable)
        side.show(v, playable)
        narrow = self.app.has_class("-narrow")
        side_mode = bool(v.stack) and (narrow or self.has_class("-rim")
                                       or not self.stack_fits_below(v, playable))
        below.display = bool(v.stack) and (narrow or not side_mode)
        side.display = side_mode
        self.set_class(side_mode, "-stack-side")
        answering = bool(v.stack) and v.stack[0].to_answer == self.human
        discarding = not v.stack and bool(v.discarding) and v.discarding[0] == self.human
        answering = (narrow and (answering or discarding) and not self.targeting
                     and not self.session.over)  # the hand is what he chooses from
        self.set_class(answering, "-hand-room")  # the players panel gives up rows
        if answering and not self.auto_panels:
            self.auto_panels = True  # once per answer: Tab may show the board again
            self.set_class(True, "-panels")
        elif not answering and self.auto_panels:
            self.auto_panels = False
            if not self.targeting:
                self.set_class(False, "-panels")
                self.board.focus()

    def stack_fits_below(self, v: View, playable: set[str]) -> bool:
        """True when the Stack panel under the board leaves every board row in sight: the
        header, the ruler, the board, the stack's lines (wrapped to the column), the status
        line's two rows and the footer within the window's height."""
        _w, h = self.app.size
        _bw, bh = render.board_size(v, self.board.scale)
        margins = 2 if self.app.has_class("-wide") else 0
        width = max(10, (self.query_one("#left").size.width or 46) - 2)
        lines = render.stack_lines(v, self.ascii_only)
        keys = render.answer_keys(v, playable)
        texts = [*lines, *([keys] if keys is not None else [])]
        stack = 1 + sum(max(1, -(-t.cell_len // width)) for t in texts)
        below = 0 if self.app.has_class("-short") else 2  # the square's lines (#info)
        return 1 + 1 + margins + bh + below + stack + 2 + 1 <= h

    def fit_board(self, v: View) -> None:
        """Choose how the board is drawn for the window (issue 12): at :data:`render.LARGE`
        when the window has room for it beside the panels and a log column of 50 (from
        about 170x45: at 200x50 the board had stayed small while the log took the room);
        where the board only just fits (80x24: its bottom rim scrolled one line), the
        column letters go into the board's top rim and the header line into the right
        column (``-rim``), so the whole board shows with a two-line status line."""
        w, h = self.app.size
        narrow = self.app.has_class("-narrow")
        wide = self.app.has_class("-wide")
        lw, lh = render.board_size(v, render.LARGE)
        large = not narrow and w >= lw + 6 + 50 + 50 and h >= lh + 14  # side and log 50 each
        scale = render.LARGE if large else render.SMALL
        bw, bh = render.board_size(v, scale)
        margins = 2 if wide else 0  # the ruler's and the board's margins (game.tcss)
        below = 0 if self.app.has_class("-short") else 2  # the square's lines (#info)
        needed = 1 + 1 + margins + bh + below + 2 + 1  # header, ruler, board, status, footer
        rim = not narrow and not large and h < needed and h >= bh + 3
        self.set_class(rim, "-rim")
        self.board.set_scale(scale, rim_labels=rim)
        left = self.query_one("#left")
        left.styles.width = bw + 6 if large else None  # (None: the width of game.tcss)

    def update_top(self, v: View) -> None:
        """The header line: at the top, or (``-rim``) at the top of the right column, where
        it may take two lines."""
        self.query_one("#topbar", Static).update(self.top_text(v))
        side = self.query_one("#top-side", Static)
        if self.has_class("-rim"):  # the turn first, then who, the round and the game
            turn, where = self.top_parts(v)
            text = Text(no_wrap=True, overflow="ellipsis")
            text.append(turn, "bold")
            text.append("\n" + self.side_where(v, where, side.content_region.width
                                                or side.size.width))
            side.update(text)

    def side_where(self, v: View, where: str, width: int) -> str:
        """The right column header's second line, shortened to ``width`` so that the seed
        (or LAN address) stays whole: "Wiz-War · you are P1 · round 1 · seed S", then
        shorter words for who and the round, then the seed alone (issue 12: ``play
        --players 4`` at 80x24 cut the seed; the team variant is named in the players
        panel too)."""
        for text in (f"Wiz-War · you are {self.human} · round {v.round} · {where}",
                     f"you are {self.human} · round {v.round} · {where}",
                     f"{self.human} · r{v.round} · {where}", where):
            if not width or len(text) <= width:
                return text
        return where.split(" · ")[-1]  # the seed or address; the variants are said below

    def top_parts(self, v: View) -> tuple[str, str]:
        """The header's turn text and where the game is (variants, seed or LAN address)."""
        turn = render.turn_text(v, self.walk_note)
        if self.lan is not None and not v.winner and self.lan.phase in ("lost", "failed",
                                                                        "desync", "refused"):
            turn = "the game has stopped"  # not a stale "your turn" after the host left
        elif self.lan is not None and not v.winner and self.lan.phase == "rejoining":
            turn = "connection lost · rejoining"
        where = self.lan_label() if self.lan is not None else f"seed {self.seed}"
        variants = [w for k, w in (("crossed", "crossed"), ("doors", "doors"),
                                   ("team", "team play")) if self.options.get(k)]
        if variants:  # the variants in play, in the header as the team variant always was
            where = f"{' · '.join(variants)} · {where}"
        return turn, where

    def top_text(self, v: View, width: int | None = None) -> Text:
        """The header line, shortened to fit ``width`` (default: the window's; never
        wrapped): the turn text is kept; "you are", the seed or LAN address and the title
        go first."""
        width = width or self.app.size.width
        turn, where = self.top_parts(v)
        parts = [(" Wiz-War ", f" you are {self.human} · round {v.round} · ", where),
                 (" Wiz-War ", f" {self.human} · r{v.round} · ", where),
                 ("", f" {self.human} · r{v.round} · ", ""),
                 ("", " ", "")]
        for title, head, tail in parts:
            length = len(title) + len(head) + len(turn) + (len(tail) + 3 if tail else 0)
            if length <= width:
                break
        top = Text(no_wrap=True, overflow="ellipsis")
        if title:
            top.append(title, "bold reverse")
        top.append(head)
        top.append(turn, "bold")
        if tail:
            top.append(f" · {tail}")
        return top

    def after_resize(self) -> None:
        """After a resize: redraw what depends on the width, keep the cursor in sight."""
        if self.board.view is None:
            return
        self.refresh_bindings()
        self.fit_board(self.board.view)
        last = self.query_one(HandPanel).last
        self.place_stack(self.board.view, last[1] if last is not None else set())
        self.query_one(BoardRuler).show(self.board.view, self.board.scale)
        self.update_top(self.board.view)
        self.update_info()
        self.board.watch_cursor(self.board.cursor, self.board.cursor)
        if self.focused is None and self.board.display and self.app.screen is self \
                and not self.query_one("#cmd", Input).display:
            self.board.focus()  # it lost the focus while hidden (too small, panels)

    def cursor_moved(self) -> None:
        """The board cursor moved: the square's lines, and while aiming the prompt (it
        names a square's side targets: :meth:`sides_note`)."""
        self.update_info()
        if self.targeting:
            self.update_status()

    def update_info(self) -> None:
        """The lines describing the square under the cursor, never cut without a sign: what
        does not fit ends in "(+N more)", the parts left out (s shows them all) (:func:`render.fit_lines`)."""
        v = self.board.view
        if v is None:
            return
        text = render.square_info(v, self.board.cursor, self.board.reach)
        for info in self.query("#info, #info-side").results(Static):
            # (short windows show them beside the board, which then fits: #info-side)
            width = info.content_region.width or info.size.width
            info.update(render.fit_lines(text, width, info.content_region.height or 2))

    def prompt(self, v: View) -> Text:
        """What the human should do now."""
        t = Text()
        if self.lost_note and not self.session.over:
            t.append(f"{self.lost_note} · ", "bold yellow")
        if self.session.over:
            t.append("Game over.", "bold")
        elif self.pending is not None:
            t.append(f"Sent {self.pending} — waiting for the host…", "italic")
            if self.queued:
                t.append(" then: " + ", ".join(q.label() for q in self.queued), "bold")
        elif self.busy:
            t.append(f"{self.session.bot_to_act() or v.active} is acting…", "italic")
        elif self.targeting:
            t.append(f"{render.card_name(self.target_card)}: put the cursor on the target "
                     "([ ], amber) and press Enter · Esc cancels", "bold yellow")
            note = self.sides_note(v, self.board.cursor)
            if note:
                t.append(f" · {note}", "bold")
        elif v.stack and v.stack[0].to_answer == self.human:
            t.append_text(self.answer_prompt(v))
        elif v.discarding and v.discarding[0] == self.human:
            limit = render.hand_limit(v.player(self.human))
            t.append(f"Too many cards ({len(v.hand)}, limit {limit}): select one (, .) and "
                     "discard it (x)", "bold yellow")
        elif self.human in v.to_move and v.round == 1 and v.active == self.human \
                and self.first:
            first = "You go first" if self.first == self.human else f"{self.first} went first"
            t.append(f"{first} · ", f"bold {render.player_colour(self.first)}")
            t.append(self._turn_hint(v), "bold")
        elif self.human in v.to_move:
            t.append(self._turn_hint(v), "bold")
        else:
            me = v.player(self.human)
            if not me.alive or me.out:
                on = [p.seat for p in v.players if p.alive and not p.out
                      and p.seat != self.human]  # not "the bots" in a LAN game
                t.append(f"You are out of the game ({'dead' if not me.alive else 'out'}); "
                         f"{', '.join(on) or 'nobody'} play{'s' if len(on) == 1 else ''} on"
                         f" · {v.active}'s turn", "italic")
            elif isinstance(self.session, NetSession):
                status = self.session.seat_status()
                movers = list(v.to_move) or [v.active]
                t.append(f"Waiting for {', '.join(movers)} …", "italic")
                gone = [m for m in movers if status.get(m) == "disconnected"]
                if gone:
                    t.append(f" ({', '.join(gone)} disconnected: the game goes on when they "
                             "rejoin)", "bold red")
            else:
                t.append(f"Waiting for {', '.join(v.to_move) or v.active}", "italic")
        return t

    def answer_prompt(self, v: View) -> Text:
        """The status line when the human must answer the open window: what it is (from his
        side: "P2 attacks you with…", "your Fireball on P2…"), the answer played last and by
        whom ("your Full Shield stands: P2 passed on it", "P2 answered with Anti-Anti"), and
        the keys. Source: notation.md (the stack: answers one at a time, a pass each)."""
        win = v.stack[0]
        me = self.human
        source = (f"{render.card_name(win.source)}{render.number_shown(win.source, win.value)}"
                  f"{render.attack_detail(win)}")
        t = Text()
        if win.kind == "indirect":
            t.append(f"{render.card_name(win.source)} deals {win.value} to you", "bold red")
        elif win.attacker == me:
            t.append(f"Your {source} on {win.defender}", "bold yellow")
        else:
            t.append(f"{win.attacker} attacks you with {source}", "bold red")
        if win.counters:
            last = win.counters[-1]
            card = render.card_name(last.card)
            if last.player == me:
                others = sorted({c.player for c in win.counters if c.player != me}
                                | {x for x in (win.attacker, win.defender) if x and x != me})
                t.append(f" · your {card} stands: {', '.join(others) or 'nobody'} passed on "
                         "it", "bold")
            else:
                t.append(f" · {last.player} answered with {card}", "bold")
        # offer a card only when one can answer (issue 12: not beside "no card to answer with")
        can_answer = self.human_to_act(v) and any(
            a.verb == "play" for a in self.session.legal_actions())
        t.append(": answer (card number) or pass (space)" if can_answer else
                 ": no card can answer · pass (space)",
                 "bold yellow" if win.attacker == me else "bold red")
        return t

    def turn_key(self, v: View | None = None) -> tuple[Any, ...] | None:
        """What a status message is about: the round, whose turn, who must act now (an
        attack to answer changes it). None before a LAN game is dealt."""
        if self.net and not self.session.started:
            return None
        v = v or self.view
        return (v.round, v.active, tuple(v.to_move))

    def update_status(self, v: View | None = None) -> None:
        """The status line: the last message if any, else the prompt. A message said during
        another turn (or before someone had to answer an attack) is stale: it gives way to
        the prompt."""
        v = v or self.view
        if self.message is not None and self.message_turn is not None \
                and self.message_turn != self.turn_key(v):
            self.message = None
            self.message_turn = None
        self.query_one("#status", Static).update(self.message or self.prompt(v))
        if self.board.view is not None and not (self.net and not self.session.started):
            self.update_top(v)  # the header from the same view as the status line

    def say(self, text: str, style: str = "bold red") -> None:
        """Show a message in the status line (until the next action, or until the turn
        changes: :meth:`update_status`)."""
        self.message = Text(render.refusal_words(text), style)  # no "(RB Combat)" codes
        self.message_turn = self.turn_key()
        self.update_status()

    def log_line(self, text: Text | str) -> None:
        """Append a line to the log (kept, so a resize can wrap them again)."""
        self.log_texts.append(text)
        self.query_one("#log", RichLog).write(text)

    def rewrap_log(self) -> None:
        """Write the log again at the panel's new width (a RichLog keeps lines as wrapped
        when written: after a resize they were cut off)."""
        log = self.query_one("#log", RichLog)
        width = log.scrollable_content_region.width
        if width <= 0 or width == self.log_width:
            return
        self.log_width = width
        log.clear()
        for text in self.log_texts:
            log.write(text)

    def log_events(self, events: list[Event]) -> None:
        """Append event texts to the log, coloured by the seat they mention first."""
        for ev in events:
            seat = str(ev.data.get("seat", "")) if ev.data else ""
            style = render.player_colour(seat) if seat else ""
            if ev.kind == "lost" and seat == self.human and "this turn" in ev.text:
                # a skipped turn passes in a blink with bots: say it where he looks
                self.lost_note = ("You lost the rest of your turn" if "rest" in ev.text
                                  else "You lost a turn (it was owed)")
            if ev.kind in ("win", "death", "out"):
                style = f"bold {style}".strip()
            self.log_line(Text(ev.text, style))

    # ------------------------------------------------------------------ acting
    def do(self, action: Action) -> bool:
        """Submit one human action; on refusal show the reason and change nothing. In a LAN
        game with an action still on its way to the host, it is typed ahead (queued, done
        when the host answers: :meth:`type_ahead`)."""
        queued = self.type_ahead("do", (action,))
        if queued is not None:
            return queued
        self.message = None
        self.lost_note = ""
        reason = self.session.why(action)
        if reason:
            self.say(f"Not allowed: {reason}")
            return False
        if self.lan_down():
            self.say(self.lan.problem if self.lan is not None else "the game is over")
            return False
        if self.pending is not None:  # not expected: typed ahead above
            self.say("Wait: your last action has not reached the host yet", "bold yellow")
            return False
        try:
            if self.net:
                self.pending, self.pending_at = action, len(self.session.actions)
            events = self.session.submit(action)
        except IllegalAction as exc:
            self.pending = None
            self.say(f"Not allowed: {exc.reason}")
            return False
        self.log_line(Text(f"> {action}", "dim"))
        self.log_events(events)
        self.targeting = []
        self.refresh_all()
        self.run_bots()
        return True

    def do_text(self, text: str) -> bool:
        """Parse notation typed by the human (the actor is added if left out) and do it."""
        text = text.strip().lstrip(":").strip()
        if not text:
            return False
        words = text.split()
        if not (words[0][:1] in ("P", "p") and words[0][1:].isdigit()):
            text = f"{self.human} {text}"
        try:
            action = parse(text)
        except (NotationError, ValueError) as exc:
            self.say(f"Cannot read that: {exc}")
            return False
        if action.actor != self.human:
            self.say(f"You play {self.human}, not {action.actor}")
            return False
        return self.do(self.drop_own_square(action))

    def drop_own_square(self, action: Action) -> Action:
        """A typed walk that starts on the human's own square (``move c3-c4`` from c3) loses
        that square: a path lists the squares entered (notation.md), and the square one
        stands on is what a newcomer writes first (README, The game screen). A walk of the
        own square alone stays refused with the rules' words."""
        if action.verb != "move" or len(action.targets) < 2:
            return action
        me = self.view.player(self.human)
        if me.at is None or action.targets[0].lower() != render.square_name(me.at):
            return action
        return Action(action.actor, "move", action.card, action.targets[1:], action.number,
                      action.args)

    def run_bots(self) -> None:
        """Let the bots act until the human must act or the game ends."""
        if self.session.over:
            self.show_game_over()
            return
        if not self.session.bot_to_act():
            self.busy = False
            self.refresh_all()
            return
        if self.bot_delay <= 0:
            for _ in range(100_000):
                if self.session.over or not self.session.bot_to_act():
                    break
                self.log_events(self.session.step_bot())
            self.busy = False
            self.bots_done()
            self.refresh_all()
            if self.session.over:
                self.show_game_over()
            return
        self.busy = True
        self.refresh_all()
        self.set_timer(self.bot_delay, self._bot_step)

    def _bot_step(self) -> None:
        """One bot action, then schedule the next (a visible pace for the human)."""
        if self.session.over or not self.session.bot_to_act():
            self.busy = False
            self.run_bots()
            return
        self.log_events(self.session.step_bot())
        self.refresh_all()
        if self.session.over:
            self.busy = False
            self.show_game_over()
        elif self.session.bot_to_act():
            self.set_timer(self.bot_delay, self._bot_step)
        else:
            self.busy = False
            self.bots_done()
            self.refresh_all()

    def bots_done(self) -> None:
        """The bots have acted and the human may act: from now on keys count; the ones
        pressed before (queued while a bot was thinking) are dropped by the app, and a
        message about them ("the bots are still acting") gives way to the prompt."""
        self.accept_since = _time.get_time()
        self.message = None

    def show_game_over(self) -> None:
        """Push the game-over screen (once)."""
        if self.over_shown:
            return
        if self.net and not self.session.view().winner:  # stopped on a desync: no winner
            if self.lan is not None and self.lan.problem:
                self.say(self.lan.problem)
            return
        self.over_shown = True
        self.refresh_all()
        how = ""
        for ev in reversed(self.session.events):
            if ev.kind == "win":
                how = ev.text
                break
        from wizwar_tui.wizwar.screens import GameOverScreen

        self.app.push_screen(GameOverScreen(self.session.view().winner, how, self.view,
                                            self.players, self.seed, self.human,
                                            lan=self.lan_label()))

    def walk_block(self, v: View, legal: list[Action] | None = None) -> str:
        """Why the human may take no step now, in the rules' words ("" when ``legal_actions``
        lists a move): ``you are locked in place``, ``no movement left``... Asked of the
        rules with a step to each neighbouring square."""
        legal = self.session.legal_actions() if legal is None else legal
        if any(a.verb == "move" for a in legal):
            return ""
        me = v.player(self.human)
        if me.at is None or v.picked_up:
            return "the pick-up ended your movement" if v.picked_up else "you are off the board"
        reasons = []
        for side in "nesw":
            nb = v.layout.neighbor(me.at, side)
            if nb is not None:
                why = self.session.why(Action(self.human, "move",
                                              targets=(render.square_name(nb[0]),)))
                if why:
                    reasons.append(why)
        if v.moves_left <= 0:
            return "no movement left"
        general = [r for r in reasons if "wall" not in r and "door" not in r
                   and "stone" not in r and "not adjacent" not in r]
        return (general or ["walls all round"])[0]

    def boost_helps(self, v: View, legal: list[Action]) -> bool:
        """A boost is worth offering: a step is legal, or the movement is used up (a boost
        gives more). A wizard who may not step (Lock In Place, walls all round) is not
        offered one (the rules accept it; it would add squares he cannot walk)."""
        return (any(a.verb == "boost" for a in legal)
                and (v.moves_left <= 0 or any(a.verb == "move" for a in legal)))

    def _turn_hint(self, v: View) -> str:
        """The status line of the human's turn: only the keys that can do something now
        (moves and ``m walk`` only while a step is possible, ``p punch`` only with a punch to
        throw, ``1-9 play`` only with a card to play), so a locked wizard or a turn ended by a
        pick-up is not told to walk but why he cannot (issue 12, hints that lie)."""
        legal = self.session.legal_actions()
        verbs = {a.verb for a in legal}
        retreat = render.retreat_now(v)
        if retreat is not None and retreat[0] == self.human:
            return self._retreat_hint(v, retreat, legal)
        if v.choice and v.choice[0] == self.human:
            return f"Telepath: take one card of {v.choice[-1]}'s hand · a choose it"
        parts = ["Your turn"]
        if "move" in verbs:
            parts += [render.moves_text(v.moves_left), "m walk"]
        elif v.active == self.human and not v.stack and not v.picked_up:
            parts.append(f"no step: {render.refusal_words(self.walk_block(v, legal))}")
        if "play" in verbs or self.boost_helps(v, legal):
            parts.append(f"{self.card_keys()} play")
        if "punch" in verbs:
            parts.append("p punch")
        if "end" in verbs:
            parts.append("e end" if verbs - {"end", "discard", "drop"} else
                         "e end: nothing else this turn")
        parts.append("a actions")
        return " · ".join(parts)

    def _retreat_hint(self, v: View, retreat: tuple[str, str, int, str],
                      legal: list[Action]) -> str:
        """The status line of a forced retreat (Go Away, Ugly), in anyone's turn: who forced
        it, how many squares, from where, and how to walk it (the squares it may end on are
        marked on the board: :meth:`walk_reach`). Source: cards.md §1.8 (forced retreat)."""
        _seat, forcer, n, frm = retreat
        who = "you" if forcer == self.human else forcer
        longest = max((len(a.targets) for a in legal if a.verb == "move"), default=0)
        can = f" ({longest} possible)" if 0 < longest < n else ""
        return (f"{who} forces you to retreat {render.squares_text(n)}{can} away from {frm}:"
                " every step farther · cursor on a marked square, m walk · a actions")

    def walk_reach(self, v: View, legal: list[Action]) -> dict[Square, tuple[Square, ...]]:
        """The squares the human may walk to now, each with a path: the squares a forced
        retreat may end on (its legal paths: out of turn too), or this turn's walk; {} when
        the rules list no step (Lock In Place, a pick-up, walls all round: issue 12)."""
        moves = [a for a in legal if a.verb == "move"]
        if not moves:
            return {}
        retreat = render.retreat_now(v)
        if retreat is not None and retreat[0] == self.human:
            out: dict[Square, tuple[Square, ...]] = {}
            for a in moves:
                path = tuple(parse_square(t) for t in a.targets)
                if path:
                    out.setdefault(path[-1], path)
            return out
        return render.reachable(v)

    def legal(self) -> list[Action]:
        """The human's legal actions now ([] while bots act), with the members of the large
        families ``legal_actions`` leaves to ``expand`` (a Drag along several squares, an
        object thrown at a far square) except the walks of several squares, which the
        cursor's walk builds (:meth:`walk_to`)."""
        if not self.human_to_act():
            return []
        out = list(self.session.legal_actions())
        if not self.boost_helps(self.view, out):  # nothing to walk with it (see boost_helps)
            out = [a for a in out if a.verb != "boost"]
        for family in self.session.families():
            if not family.startswith("move-path:"):
                out += self.session.expand(family)
        return out

    def _probe(self, slug: str) -> Action:
        """The play of ``slug`` whose refusal explains best why it cannot be played now:
        aimed at an opponent when the card takes a wizard, so the reason is the real one
        (no line of sight, round 1, ...) rather than a missing target."""
        probes = [Action(self.human, "play", slug, (p.seat,)) for p in self.view.players
                  if p.seat != self.human and p.alive and not p.out]
        probes.append(Action(self.human, "play", slug))
        for a in probes:
            why = self.session.why(a)
            if why and "needs" not in why and "takes" not in why:
                return a
        return probes[-1]

    def _probe_verb(self, verb: str) -> Action:
        """The ``verb`` action whose refusal explains best why none is possible now: aimed at
        each other wizard, then each side of the human's square, so the reason is the real
        one ("you have already attacked this turn", "no attacks in the first round") and not
        a missing target."""
        v = self.view
        probes = [Action(self.human, verb, targets=(p.seat,)) for p in v.players
                  if p.seat != self.human and p.alive and not p.out]
        me = v.player(self.human)
        if me.at is not None:
            probes += [Action(self.human, verb, targets=(render.edge_name(e),))
                       for _side, e in v.layout.edges_of(me.at) if e in v.edges]
        probes.append(Action(self.human, verb))
        for a in probes:
            why = self.session.why(a)
            if why and "needs" not in why and "not in your square" not in why \
                    and "no wall or door" not in why:
                return a
        return probes[-1]

    def refuse_thing(self, verb: str) -> None:
        """Why ``g`` (pick up) or ``d`` (drop) can do nothing: nothing lies here / nothing
        to drop, or the rules' reason for the first thing there is (not "needs a target")."""
        v = self.view
        me = v.player(self.human)
        if verb == "pickup":
            things = list(v.tokens.get(me.at, ())) if me.at is not None else []
            none = "nothing lies here to pick up"
        else:
            objects = [c for c in v.hand if render.BY_SLUG.get(c) is not None
                       and render.BY_SLUG[c].kind in ("object", "magic stone")]
            things = ([me.carrying] if me.carrying else []) + objects
            none = "you carry no treasure and hold no object to drop"
        for thing in things:
            why = self.session.why(Action(self.human, verb, targets=(thing,)))
            if why:
                self.say(f"Not possible: {why}")
                return
        self.say(f"Not possible: {none}")

    def refuse(self, action: Action, fallback: str) -> None:
        """Explain why nothing of this kind is possible (asks the core when it can)."""
        reason = self.session.why(action) if self.human_to_act() else ""
        if self.lan_down():
            reason = self.lan.problem if self.lan is not None else ""
        elif self.pending is not None:
            reason = "your last action has not reached the host yet"
        elif self.busy:
            reason = "the bots are still acting"
        elif self.session.over:
            reason = "the game is over"
        elif not reason and self.human not in self.view.to_move:
            reason = f"it is {self.view.active}'s turn"
        self.say(f"Not possible: {reason or fallback}")

    # ------------------------------------------------------------------ choosing
    @work(exclusive=True, group="choose")
    async def choose_and_do(self, cands: list[Action], what: str,
                            at: Square | None = None, confirm: bool = False) -> None:
        """Narrow ``cands`` (same verb/card) by target, number card and options; then do it.
        ``confirm``: ask for the target even when there is one (a side of the square ``at``
        the player may not have meant: :meth:`select_at`)."""
        cands = list(cands)
        steps: list[tuple[str, Any]] = [
            ("target", lambda a: a.targets),
            ("number card", lambda a: a.number),
            ("option", lambda a: a.args),
        ]
        for label, key in steps:
            values: list[Any] = []
            for a in cands:
                if key(a) not in values:
                    values.append(key(a))
            ask = confirm and label == "target"
            if len(values) <= 1 and not ask:
                continue
            options = [(self._label(label, val, at), (val,)) for val in values]
            self.message = None  # an old refusal does not stay beside the menu
            self.update_status()
            title = f"{what}: choose the {label}"
            if ask and at is not None:
                here = [p.seat for p in self.view.players if p.at == at]
                title = (f"{what} at {render.square_name(at)}: only a side is a target"
                         + (f" ({', '.join(here)} is not)" if here else ""))
            got = await self.app.push_screen_wait(ChoiceScreen(title, options))
            if got is None:
                self.say("Cancelled", "italic")
                return
            cands = [a for a in cands if key(a) == got[0]]
            if not cands:
                return
        self.do(cands[0])

    def _label(self, label: str, val: Any, at: Square | None = None) -> str:
        """How one choice is shown (sides are named relative to the square ``at``)."""
        if label == "target":
            return ", ".join(self._target_label(t, at) for t in val) if val else "(no target)"
        if label == "number card":
            return "no number card" if val is None else f"+{val} (number card {val})"
        if label == "option":
            return " ".join(f"{k}={v}" for k, v in val) if val else "(default)"
        return str(val)

    def _target_label(self, t: str, at: Square | None = None) -> str:
        v = self.view
        if ":" in t:
            try:
                e = parse_edge(t)
            except ValueError:
                return t
            label = render.edge_label(v, e)
            if at is not None and v.layout.has_square(at):
                names = {"n": "north", "e": "east", "s": "south", "w": "west"}
                for side, key in v.layout.edges_of(at):
                    if key == e:
                        # named from the player's side only: the wrap-around board's
                        # edge code (``a5:w`` beside j5) is not a player's word (issue 12)
                        return (f"{names[side]} side of {render.square_name(at)}: "
                                f"{render.edge_kind(v, e)}")
            return label
        try:
            p = v.player(t)
            return f"{t} (wizard at {render.square_name(p.at) if p.at else '?'})"
        except KeyError:
            return t

    def _target_square(self, v: View, t: str) -> set[Square]:
        """Squares where target text ``t`` is (a wizard's square, a side's two squares...)."""
        try:
            p = v.player(t)
            return {p.at} if p.at else set()
        except KeyError:
            pass
        if ".t" in t:
            for sq, toks in v.tokens.items():
                if t in toks:
                    return {sq}
            for p in v.players:
                if p.carrying == t and p.at:
                    return {p.at}
            return set()
        try:
            if ":" in t:
                e = parse_edge(t)
                out = set()
                for sq, _side in v.layout.physical_edges(e):
                    out.add(sq)
                return out
            return {parse_square(t)}
        except ValueError:
            return set()

    def _hits_at(self, v: View, sq: Square) -> list[Action]:
        """The actions being aimed whose target is at ``sq`` (a side: on either square)."""
        return [a for a in self.targeting
                if a.targets and sq in self._target_square(v, a.targets[0])]

    @staticmethod
    def _sides_only(hits: list[Action]) -> bool:
        """True when every one of ``hits`` aims at a side (wall, door) of ``sq``, none at
        the square itself or at what stands in it (a wizard there is not a target)."""
        return bool(hits) and all(":" in a.targets[0] for a in hits)

    def sides_note(self, v: View, sq: Square) -> str:
        """While aiming, what a square marked only for its sides offers: ``"here only the
        east side of a4: door, not P2"`` ("" when the square itself is a target)."""
        hits = self._hits_at(v, sq)
        if not self._sides_only(hits):
            return ""
        sides: list[str] = []
        for a in hits:
            label = self._target_label(a.targets[0], sq)
            if label not in sides:
                sides.append(label)
        here = [p.seat for p in v.players if p.at == sq]
        return (f"here only the {' or the '.join(sides)}"
                + (f", not {', '.join(here)}" if here else ""))

    def _target_squares(self, v: View) -> set[Square]:
        out: set[Square] = set()
        for a in self.targeting:
            if a.targets:
                out |= self._target_square(v, a.targets[0])
        return out

    def start_card(self, slug: str) -> None:
        """Begin playing card ``slug``: aim with the cursor if it takes a target."""
        self.message = None
        legal = self.legal()
        plays = [a for a in legal if a.card == slug and a.verb == "play"]
        if not plays:
            discards = [a for a in legal if a.card == slug and a.verb == "discard"]
            if discards and self.human in self.view.discarding:
                self.do(discards[0])
                return
            self.refuse(self._probe(slug), f"{render.card_name(slug)} has no legal use now")
            cd = render.BY_SLUG.get(slug)
            if cd is not None and cd.kind == "number" and self.message is not None:
                # the digit cannot play it: name the key that can (issue 12)
                self.message.append(" · b boosts your movement with it"
                                    if any(a.verb == "boost" for a in legal) else
                                    " · b boosts with it, an action's +N adds it")
                self.update_status()
            return
        if all(a.targets for a in plays):
            squares = {sq for a in plays for sq in self._target_square(self.view, a.targets[0])}
            if len(squares) > 1:
                self.targeting = plays
                self.target_card = slug
                self.set_class(False, "-panels")  # aim on the board
                self.refresh_all()
                return
        self.choose_and_do(plays, render.card_name(slug))

    # ------------------------------------------------------------------ key actions
    def card_keys(self) -> str:
        """The number keys that reach the hand's cards: ``1-9``, or ``1-15`` for a hand of
        15 (two digits: :meth:`action_card`)."""
        n = len(self.view.hand)
        return f"1-{n}" if n > 9 else "1-9"

    @typed_ahead
    def action_card(self, n: int) -> None:
        """Play card ``n`` (1-based) of the hand. With ten cards or more a digit that begins
        a card number of two (``1`` of a 15-card hand: cards 10-15) selects its card and
        waits: a second digit plays that card (``1`` ``2``: card 12), Enter or ``c`` plays the
        selected one, Esc forgets it. Digits no two-digit number begins play at once."""
        hand = self.query_one(HandPanel)
        if self.card_prefix:
            n, self.card_prefix = self.card_prefix * 10 + n, 0
        elif n * 10 <= len(hand.hand):  # n0.. exists: wait for a second digit
            hand.index = n - 1
            self.card_prefix = n
            top = min(len(hand.hand), n * 10 + 9)
            self.say(f"Card {n} ({render.card_name(hand.hand[n - 1])}) selected: Enter or c "
                     f"plays it, a second digit plays card {n * 10}-{top} · Esc forgets",
                     "bold yellow")
            self.refresh_all()
            return
        if not 1 <= n <= len(hand.hand):
            self.say(f"You have no card {n}")
            return
        hand.index = n - 1
        self.targeting = []
        self.start_card(hand.hand[n - 1])

    @typed_ahead
    def action_play_selected(self) -> None:
        """Play the card under the hand cursor."""
        self.card_prefix = 0
        slug = self.query_one(HandPanel).selected()
        if slug:
            self.targeting = []
            self.start_card(slug)

    def action_hand(self, delta: int) -> None:
        """Move the hand cursor."""
        hand = self.query_one(HandPanel)
        if hand.hand:
            hand.index = (hand.index + delta) % len(hand.hand)
        self.refresh_all()

    def action_card_text(self) -> None:
        """Show the full text of the selected card (or the card being aimed), with the list
        of every card in sight: the hand, the stack, what stands on the square under the
        cursor and its sides, displayed cards and conditions (:func:`render.cards_in_sight`)."""
        if self.net and not self.session.started:
            refs: list[render.CardRef] = []
        else:
            refs = render.cards_in_sight(self.view, self.board.cursor)
        here = [r for r in refs if r[0].startswith("At ")]
        me = self.view.player(self.human).at if refs else None
        v = self.view if refs else None
        if self.targeting:
            slug = self.target_card
        elif v is not None and v.stack and v.stack[0].to_answer == self.human \
                and v.stack[0].source.removesuffix("-tick") in render.BY_SLUG:
            slug = v.stack[0].source.removesuffix("-tick")  # the attack being answered
        elif here and self.board.cursor != me:  # the cursor points at something made
            slug = here[0][1]
        else:
            slug = self.query_one(HandPanel).selected() or (refs[0][1] if refs else "")
        if slug:
            self.app.push_screen(CardScreen(slug, refs))
        else:
            self.say("No card in sight (C lists the whole deck)", "italic")

    def action_square(self) -> None:
        """s: everything about the square under the cursor, one part a line, in a box (the
        lines under the board may be cut: ``(+N more)``)."""
        v = self.board.view
        if v is None:
            return
        text = render.square_info(v, self.board.cursor, self.board.reach)
        self.app.push_screen(HelpScreen(self.ascii_only, "wizwar",
                                        text="\n".join(text.split(" · "))
                                        + "\n\n(Esc closes)"))

    def action_cards(self) -> None:
        """The Cards screen: the whole deck, filtered by kind."""
        self.app.push_screen(CardsScreen())

    def action_panels(self) -> None:
        """Narrow windows: show the side panels instead of the board, or the board again."""
        self.set_class(not self.has_class("-panels"), "-panels")
        if not self.has_class("-panels"):
            self.board.focus()

    @typed_ahead
    def action_select(self) -> None:
        """Enter/m: play the card a first digit selected (:meth:`action_card`), else choose
        the target under the cursor, or walk there."""
        if self.card_prefix:
            self.card_prefix = 0
            self.action_play_selected()
            return
        self.select_at(self.board.cursor)

    def select_at(self, sq: Square) -> None:
        """Choose the target of the card being aimed at ``sq``, or walk to ``sq``."""
        v = self.view
        if self.targeting:
            hits = self._hits_at(v, sq)
            if not hits:
                self.say(f"No target of {render.card_name(self.target_card)} at "
                         f"{render.square_name(sq)}")
                return
            self.targeting = []
            self.refresh_all()
            # a square marked only for a side next to it (a door, a wall): never hit that
            # side silently when the player aimed at what stands in the square (issue 12)
            self.choose_and_do(hits, render.card_name(self.target_card), sq,
                               confirm=self._sides_only(hits))
            return
        self.walk_to(sq)

    def walk_to(self, sq: Square) -> None:
        """Walk to ``sq`` along a shortest reachable path."""
        self.message = None
        v = self.view
        me = v.player(self.human)
        if me.at == sq:
            self.say("You are already there")
            return
        reach = self.walk_reach(v, self.session.legal_actions()) if self.human_to_act(v) \
            else {}
        path = reach.get(sq)
        if not path:
            target = render.square_name(sq)
            action = Action(self.human, "move", targets=(target,))
            self.refuse(action, f"{target} is not reachable this turn")
            return
        self.do(Action(self.human, "move", targets=tuple(render.square_name(s) for s in path)))

    def _verb(self, verb: str, what: str) -> None:
        """Do the only legal action of ``verb`` or choose among them."""
        self.message = None
        cands = [a for a in self.legal() if a.verb == verb]
        if not cands and verb == "boost" and self.human_to_act() \
                and any(a.verb == "boost" for a in self.session.legal_actions()):
            # the rules accept it, but there is no step to walk with it (boost_helps)
            self.say(f"Not worth it: a boost adds squares, and you may take no step "
                     f"({self.walk_block(self.view)})")
            return
        if not cands and verb in ("pickup", "drop") and self.human_to_act():
            self.refuse_thing(verb)
            return
        if not cands:
            self.refuse(self._probe_verb(verb) if verb in ("punch",) else
                        Action(self.human, verb), f"no {what.lower()} is possible now")
            return
        if verb == "end" and any(a.number is None for a in cands):
            # e ends the turn drawing as usual; drawing fewer (end draw 0/1, notation.md) is
            # in the actions menu and the command line
            cands = [a for a in cands if a.number is None]
        if len(cands) == 1:
            self.do(cands[0])
            return
        if verb == "boost":
            options = [(f"boost {a.number}", a) for a in cands]
        else:
            options = [(self._label("target", a.targets) if a.targets else str(a), a)
                       for a in cands]
        self._pick(f"{what}: choose", options)

    @work(exclusive=True, group="choose")
    async def _pick(self, title: str, options: list[tuple[str, Action]]) -> None:
        """Ask which of ``options`` (label, action) to do, and do it (Esc: nothing)."""
        self.message = None  # an old refusal does not stay beside the menu
        self.update_status()
        got = await self.app.push_screen_wait(ChoiceScreen(title, options))
        if got is not None:
            self.do(got)

    @typed_ahead
    def action_boost(self) -> None:
        """Add a number card to this turn's movement."""
        self._verb("boost", "Boost")

    @typed_ahead
    def action_punch(self) -> None:
        """Punch a wizard or a wall/door next to you."""
        self._verb("punch", "Punch")

    @typed_ahead
    def action_pickup(self) -> None:
        """Pick up a treasure or object here."""
        self._verb("pickup", "Pick up")

    @typed_ahead
    def action_drop(self) -> None:
        """Drop what you carry."""
        self._verb("drop", "Drop")

    @typed_ahead
    def action_end(self) -> None:
        """End the turn, drawing 2 (``end draw 0``/``1``, listed too, are in the actions menu
        and may be typed)."""
        plain = Action(self.human, "end")
        if plain in self.legal():
            self.message = None
            self.do(plain)
            return
        self._verb("end", "End turn")

    @typed_ahead
    def action_pass(self) -> None:
        """Do not answer the attack."""
        self._verb("pass", "Pass")

    @typed_ahead
    def action_discard(self) -> None:
        """Discard the selected card."""
        slug = self.query_one(HandPanel).selected()
        if not slug:
            self.say("No card selected")
            return
        self.do(Action(self.human, "discard", slug))

    @typed_ahead
    def action_actions(self) -> None:
        """A filterable menu of every legal action."""
        legal = self.legal()
        if not legal:
            self.refuse(Action(self.human, "end"), "you may not act now")
            return
        # the turn's end last, and nothing highlighted: a and Enter must not end the turn
        # (end, end draw 1, end draw 0: drawing as usual first, as the README lists them)
        legal = [a for a in legal if a.verb != "end"] + sorted(
            (a for a in legal if a.verb == "end"),
            key=lambda a: -(2 if a.number is None else a.number))
        options = [(self._describe(a), a) for a in legal]
        self.early = []  # keys typed before the menu is up are its filter's (on_key)
        self._pick_filtered(options)

    @work(exclusive=True, group="choose")
    async def _pick_filtered(self, options: list[tuple[str, Action]]) -> None:
        menu = ChoiceScreen("Legal actions (type to filter, arrows to choose)", options,
                            filterable=True, preselect=None)
        menu.typed = self.early if self.early is not None else []
        self.early = None
        got = await self.app.push_screen_wait(menu)
        if got is not None:
            self.do(got)

    def on_key(self, event: events.Key) -> None:
        """Keys typed right after ``:`` or ``a`` under load were lost (issue 12): the
        shared :meth:`notation_key` opens the command line (``:``) or the actions menu
        (``a``) at once and sends the printable keys that come through the board after that
        to the line, or (:meth:`early_key`) to the actions menu's filter, instead of losing
        them or taking them for game keys."""
        self.notation_key(event, self.query_one("#cmd", Input), "command", OPENERS)

    def early_key(self, character: str) -> bool:
        """A key typed while the actions menu opens goes to its filter: into the menu once
        it is up, else kept (:attr:`early`) for it; True when taken."""
        top = self.app.screen
        if self.early is not None and not any(w.group == "choose" and not w.is_finished
                                              for w in self.workers):
            self.early = None  # the menu's worker never ran (cancelled): keys are keys
        if top is not self and isinstance(top, ChoiceScreen) and top.filterable:
            top.take_early(character)
            return True
        if top is self and self.early is not None:
            self.early.append(character)
            return True
        return False

    def _describe(self, a: Action) -> str:
        text = str(a).split(" ", 1)[1]
        if a.verb == "end":
            n = 2 if a.number is None else a.number
            return f"{text}   — end the turn, drawing {n} card{'s' if n != 1 else ''}"
        if a.verb in ("play", "discard") and a.card and render.card_name(a.card) != a.card:
            return f"{text}   — {render.card_name(a.card)}"  # (a number card: no echo)
        return text

    def action_command(self) -> None:
        """Open the command line (with the line that was just refused, to fix it)."""
        cmd = self.query_one("#cmd", Input)
        cmd.display = True
        cmd.value = self.refused_text
        cmd.cursor_position = len(cmd.value)
        # focused now, not on a later turn of the loop (Widget.focus defers it): the keys
        # typed right after ":" are already queued and must reach the line (issue 12)
        self.set_focus(cmd)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Do the typed action. The line closes either way, so the next key is the game's
        again; a refused line's reason stays on the status line and ``:`` opens the line
        with its text to fix it (kept open, the line took the keys meant for the game)."""
        if event.input.id != "cmd":
            return
        event.stop()
        ok = self.do_text(event.value)
        self.refused_text = "" if ok else event.value.strip()
        self.close_command()
        if not ok and self.refused_text and self.message is not None:
            self.message.append("  (: to fix the line)", "italic")
            self.update_status()

    def close_command(self) -> None:
        """Hide the command line and give the focus back to the board."""
        cmd = self.query_one("#cmd", Input)
        cmd.display = False
        self.board.focus()

    def action_cancel(self) -> None:
        """Esc: close the command line (and the error it showed), stop aiming a card or
        forget a first digit, or clear the status line's message: the prompt comes back."""
        if self.query_one("#cmd", Input).display:
            self.close_command()
            self.refused_text = ""
            self.message = None
            self.update_status()
            return
        if self.targeting or self.card_prefix:
            self.targeting = []
            self.card_prefix = 0
            self.say("Cancelled", "italic")
            self.refresh_all()
            return
        self.message = None
        self.update_status()

    def action_help(self) -> None:
        """Keys and rules."""
        self.app.push_screen(HelpScreen(self.ascii_only, "wizwar"))

    @work(exclusive=True, group="choose")
    async def action_menu(self) -> None:
        """Back to the main menu, after asking (the game is abandoned; a hosted LAN game is
        closed for everyone, a joined one can be rejoined with ``wizwar join``)."""
        if not self.session.over and not self.lan_down():
            # the same y/n question as Ctrl+Q (lobby.leave_question for a LAN game)
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

