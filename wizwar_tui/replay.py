"""Saved-game replay for every game: the game as a timeline of states, and the screens that
show it (the shell's part; each game's UI part draws its board).

:func:`load` reads a ``.wwlog`` file (docs/log-format.md) or ``wizwar export`` text of any
game through ``core.log`` (``Loaded.ruleset``, the ruleset's replay dealer) into a
:class:`Replay`: one pass over the actions keeps the events of every action and a state checkpoint every
:data:`CHECKPOINT_EVERY` actions, so :meth:`Replay.at` gives the state after any action
``n`` by replaying fewer than that many actions (seeking is instant in a 2,000-action game).

:class:`ReplayScreen` is the timeline: its keys, stepping, turns, jumps, play/pause, speed
and "seen as"; the game's subclass (:meth:`~wizwar_tui.gameui.GameUI.replay_screen`) draws
the board and the panels of the state at action ``n`` as the chosen seat may see it.
"""

from __future__ import annotations

import bisect
import os
from collections.abc import Callable, Iterator
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Footer, Input, OptionList, RichLog, Static
from textual.widgets.option_list import Option

from core import log
from core.engine import Event, IllegalAction, Outcome, Ruleset
from wizwar_tui import games
from wizwar_tui.footer import KeysFooter, show_footer_on_top
from wizwar_tui.saves import actions_text
from wizwar_tui.screens import TooSmall
from wizwar_tui.seats import player_colour

EVERYONE = ""
"""The "seen as" value that shows every hand (allowed once the game is over)."""

CHECKPOINT_EVERY = 50
"""Actions between two kept states (seeking replays fewer than this many actions)."""

LOG_ACTIONS = 60
"""How many actions (with their events) the log panel holds after a jump."""

SPEEDS = (4.0, 2.0, 1.0, 0.5, 0.25, 0.1, 0.05, 0.02)
"""Seconds between two actions while playing (``-`` slower, ``+`` faster)."""

EXPORT_MAGIC = "wizwar-export "  # then the export version


class ReplayError(Exception):
    """A file that cannot be replayed at all; the message says why in plain words."""


# ---------------------------------------------------------------------------- the model
def _step_record(rs: Ruleset, state: Any, dealer: Any, r: dict[str, Any]) -> list[Event]:
    """:meth:`core.log.Replay.step`, keeping the events of the action (the log panel shows
    them). Raises ``log.LogError`` when the action is illegal here or a stored hash
    disagrees."""
    return log.Replay(rs, state, dealer).step(r)


class Replay:
    """A saved game ready to show at any action.

    Attributes:
        path: the file it came from.
        kind: ``local``, ``host``, ``peer`` (a ``.wwlog``) or ``export`` (export text).
        seats, names: the seats and their names (the seat when unnamed).
        team: the team variant (4 players, P1+P3 against P2+P4; rulebook, Team Play
            Option): the replay shows the teams as the game did.
        viewer: the seat the log was written by ("" when unknown or bots only).
        started: the start time from the header ("" when unknown).
        ended: True when the log has its end record (the game is over).
        damage: where and why reading stopped early ("" when the whole file was read).
        problem: why the replay stopped before the last good record ("" normally).
        mismatch: how the end record's result differs from the one the rules give for
            the replayed game ("" when it agrees; the header shows the rules' result).
        actions: the actions that replay, in order (action ``n`` is ``actions[n - 1]``).
        events: the events of each action (``events[n - 1]``).
        marks: ``(round, active seat)`` after ``n`` actions, for ``n`` in ``0..total``.
        turn_starts: the ``n`` at which each turn begins (turn ``k`` at ``turn_starts[k-1]``).
        final_winner: the winner after the last action ("" when none).
        final_draw: the rules call the end a draw (the header says "a draw", as the game did).
        sealed: per action number, ``(seats that knew it whole, its public form)`` for an
            action with fields secret to other seats (``Ruleset.seal``): a seat's view
            shows that seat the public form (until "everyone").
    """

    def __init__(self, path: str, kind: str, seats: list[str], names: list[str],
                 actions: list[Any], start: Callable[[], Any],
                 advance: Callable[[Any, int], list[Event]],
                 restore: Callable[[Any, Any], Any],
                 note: Callable[[Any], Any] = lambda _st: None, *, ruleset: Ruleset,
                 mark: Callable[[Any], tuple[int, str]], viewer: str = "",
                 started: str = "", ended: bool = False, end_winner: str = "",
                 damage: str = "", seed: int | bytes = 0, team: bool = False,
                 every: int = CHECKPOINT_EVERY) -> None:
        self.path = path
        self.ruleset = ruleset
        self.kind = kind
        self.seats = seats
        self.names = names
        self.viewer = viewer
        self.started = started
        self.ended = ended
        self.end_winner = end_winner
        self.damage = damage
        self.seed = seed
        self.team = team
        self.sides: list[list[int]] | None = None  # seat numbers by side (GameUI.sides)
        self.every = every
        self.problem = ""
        self.mismatch = ""
        self.actions = list(actions)
        self.events: list[list[Event]] = []
        self.marks: list[tuple[int, str]] = []
        self.turn_starts: list[int] = [0]
        self.final_winner = ""
        self.final_draw = False  # the rules call the end a draw (the game said "A draw")
        self._start = start
        self._advance = advance
        self._restore = restore
        self._note = note
        self._mark = mark
        self._saved: dict[int, tuple[dict[str, Any], Any]] = {}
        self.sealed: dict[int, tuple[tuple[str, ...], Any]] = {}

    def build(self) -> None:
        """Replay the whole game once: the events of every action, the turn marks, and a
        checkpoint every ``every`` actions. A disagreement (an illegal action, a wrong
        hash) ends the replay there and is kept in ``problem``."""
        st = self._start()
        wire = self.ruleset.state_to_wire
        self._saved = {0: (wire(st), self._note(st))}
        self.marks = [self._mark(st)]
        self.turn_starts = [0]
        self.events = []
        self.sealed = {}
        for i in range(len(self.actions)):
            try:
                got = self.ruleset.seen_by_others(st, self.actions[i])
            except ValueError:
                got = None  # (an action the rules refuse: _advance says why)
            if got is not None:
                self.sealed[i + 1] = (tuple(got.knows), got.public)
            try:
                ev = self._advance(st, i)
            except log.LogError as exc:
                self.problem = str(exc)
                break
            except Exception as exc:  # a malformed log must not end in a traceback
                self.problem = f"action {i + 1} cannot be replayed: {exc!r}"
                break
            self.events.append(ev)
            n = i + 1
            mark = self._mark(st)
            if mark != self.marks[-1]:
                self.turn_starts.append(n)
            self.marks.append(mark)
            if n % self.every == 0:
                self._saved[n] = (wire(st), self._note(st))
        del self.actions[len(self.events):]
        last = st if not self.problem else self.at(self.total)
        outcome = self.ruleset.result(last)
        self.final_winner = winner_text(outcome)
        self.final_draw = outcome.over and outcome.draw
        said = self.end_winner
        if self.ended and not self.problem and said and said != self.final_winner:
            self.mismatch = (f"the end record says {said if said != '-' else 'no-one'} won, "
                            f"but the game, replayed, ends with {self.result()}")

    @property
    def total(self) -> int:
        """How many actions replay."""
        return len(self.events)

    def at(self, n: int) -> Any:
        """A fresh state after ``n`` actions (clamped to ``0..total``), replayed from the
        nearest checkpoint."""
        n = max(0, min(n, self.total))
        base = max(k for k in self._saved if k <= n)
        wire, note = self._saved[base]
        st = self._restore(wire, note)
        for i in range(base, n):
            self._advance(st, i)
        return st

    def everyone_allowed(self, n: int) -> bool:
        """Every hand may be shown once the game is over: the log has its end record, or
        ``n`` is the last action of a game that ended there."""
        return self.ended or (n == self.total and bool(self.final_winner))

    def turn_of(self, n: int) -> int:
        """The turn number (1-based) ``n`` actions in."""
        return bisect.bisect_right(self.turn_starts, n)

    def result(self) -> str:
        """``P1 won``, ``a draw``, ``no winner`` or ``unfinished``: the result the rules give for the
        last state replayed, never the end record's (a log's result is not trusted:
        :attr:`mismatch` says when the end record's disagrees); ``unverified`` when a
        finished log stops replaying before its end."""
        winner = self.final_winner
        if self.ended and self.problem and not winner:
            return "unverified"
        if winner and winner != "-":
            return f"{winner} won"
        if winner == "-":
            return "a draw" if self.final_draw else "no winner"
        return "unfinished"

    def players_text(self) -> str:
        """``P1 Ann vs P2 bob`` (just the seats when unnamed); a team game by sides:
        ``P1+P3 vs P2+P4``."""
        from wizwar_tui.saves import players_text

        return players_text([s if not n or n == s else f"{s} {n}"
                             for s, n in zip(self.seats, self.names, strict=False)],
                            self.sides)


def _sides(rs: Ruleset, options: dict[str, Any]) -> list[list[int]]:
    """The game's sides, asked of its UI part (:func:`wizwar_tui.saves.sides_of`)."""
    from wizwar_tui.saves import sides_of

    return sides_of(rs, options)


def _teamed(rs: Ruleset, options: dict[str, Any]) -> bool:
    """True when a side of the game has several seats (a team game)."""
    return any(len(side) > 1 for side in _sides(rs, options))


def _names(rs: Ruleset, options: dict[str, Any],
           given: tuple[str, ...] | list[str]) -> tuple[list[str], list[str]]:
    """The seats of a game with these options, and their names (the seat when unnamed)."""
    seats = rs.seats(options)
    names = [str(x) for x in given or []]
    return seats, (names + seats[len(names):])[:len(seats)]


def from_log(path: str, data: bytes, every: int = CHECKPOINT_EVERY) -> Replay:
    """A :class:`Replay` of ``.wwlog`` bytes, of the game its header names. Raises
    :class:`ReplayError` when the header is unusable (not a log, a newer format, an unknown
    game or another version of its rules)."""
    try:
        loaded = log.read(data)
        rs = loaded.ruleset
        seats, names = _names(rs, loaded.options, loaded.names)
        log.start_state(loaded)
        mark = games.ui(rs.name).replay_mark
    except (log.LogError, LookupError) as exc:
        raise ReplayError(str(exc)) from None
    except (KeyError, ValueError, TypeError) as exc:
        raise ReplayError(f"the log's header is malformed: {exc!r}") from None
    h = loaded.header
    records = loaded.records
    dealer = log.begin(loaded).dealer  # a log's replay dealer keeps nothing between actions

    def attached(st: Any) -> Any:
        if dealer is not None:
            dealer.attach(st)
        return st

    def restore(wire: Any, _note: Any) -> Any:
        return attached(rs.state_from_wire(wire))

    end = loaded.end or {}
    rp = Replay(path, str(h.get("kind", "") or "local"), seats, names, loaded.actions,
                lambda: attached(log.start_state(loaded)),
                lambda st, i: _step_record(rs, st, dealer, records[i]),
                restore, viewer=str(h.get("viewer", "")), started=str(h.get("started", "")),
                ended=loaded.end is not None, end_winner=str(end.get("winner") or ""),
                damage=loaded.damage, seed=h["seed"], team=_teamed(rs, loaded.options),
                every=every, ruleset=rs, mark=mark)
    rp.sides = _sides(rs, loaded.options)
    rp.build()
    return rp


def from_text(path: str, text: str, every: int = CHECKPOINT_EVERY) -> Replay:
    """A :class:`Replay` of ``wizwar export`` text (its actions applied from its start), of
    the game it names. Raises :class:`ReplayError` when the text cannot be read."""
    try:
        tg = log.parse_text(text)
        tg.start()
        rs = tg.ruleset
        seats, names = _names(rs, tg.options, tg.names)
        mark = games.ui(rs.name).replay_mark
    except (log.LogError, LookupError) as exc:
        raise ReplayError(str(exc)) from None
    except (KeyError, ValueError, TypeError, IndexError) as exc:
        raise ReplayError(f"the export text is malformed: {exc!r}") from None

    def advance(st: Any, i: int) -> list[Event]:
        a = tg.actions[i]
        try:
            return tg.step(st, i)  # with its dice reveals, in a networked game's export
        except IllegalAction as exc:
            raise log.LogError(f"action {i + 1} ({a}) is illegal here: {exc.reason}") from None

    def note(st: Any) -> int:
        left = getattr(getattr(st, "dealer", None), "reblinds", None)
        return len(reblinds) - (len(left) if left is not None else len(reblinds))

    reblinds = list((tg.deal or {}).get("reblinds") or [])

    def restore(wire: Any, used: Any) -> Any:
        st = rs.state_from_wire(wire)
        if reblinds:
            # the export's reshuffle dealer, with the reshuffles not used yet
            # (none left once every reshuffle of the text has been used: no dealer needed)
            rd = rs.replay_dealer({**tg.deal, "reblinds": reblinds[int(used):]})
            if rd is not None:
                rd.attach(st)
        return st

    def start() -> Any:
        return tg.start()  # (TextGame.start copies its deal: the text game stays as read)

    rp = Replay(path, "export", seats, names, tg.actions, start, advance, restore, note,
                seed=tg.seed, team=_teamed(rs, tg.options), every=every, ruleset=rs,
                mark=mark, damage=tg.damage)
    rp.sides = _sides(rs, tg.options)
    rp.build()
    return rp


def load(path: str, every: int = CHECKPOINT_EVERY) -> Replay:
    """Read ``path`` (a ``.wwlog`` file or export text, told apart by the first line
    ``wizwar-export N``) through ``core.log``, for whatever game it names. Raises
    :class:`ReplayError` with the reason in plain words (an unknown game among them)."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as exc:
        raise ReplayError(f"cannot open the file: {exc.strerror or exc}") from None
    if data.lstrip().startswith(EXPORT_MAGIC.encode()):
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ReplayError(f"the export text is not UTF-8: byte 0x{data[exc.start]:02x} at "
                              f"byte {exc.start} is damaged") from None
        return from_text(path, text, every)
    if not data:
        raise ReplayError("the file is empty: not a wizwar log")
    return from_log(path, data, every)


def winner_text(outcome: Outcome) -> str:
    """An outcome as a log's winner field: ``""`` not over, ``"-"`` a draw, the winning
    seats joined by ``+`` (a team)."""
    if not outcome.over:
        return ""
    return "-" if outcome.draw or not outcome.winners else "+".join(outcome.winners)


# ---------------------------------------------------------------------------- drawing
def event_text(ev: Event) -> Text:
    """An event for the log panel, coloured by the seat it is about (as in a game)."""
    seat = str(ev.data.get("seat", "")) if ev.data else ""
    style = player_colour(seat) if seat else ""
    if ev.kind in ("win", "death", "out"):
        style = f"bold {style}".strip()
    return Text(ev.text, style)


def speed_text(delay: float) -> str:
    """``2 actions/s`` or ``1 action every 2 s``."""
    if delay >= 1:
        return f"1 action every {delay:g} s"
    return f"{1 / delay:g} actions/s"


def parse_jump(text: str, rp: Replay, rounds: bool = True) -> int:
    """Where a jump goes: ``12`` turn 12, ``a57`` (or ``#57``) action 57, ``r3`` the start
    of round 3 (a game whose timeline has rounds: ``rounds``; else ``r3`` is refused with
    the reason). Raises ``ValueError`` with the reason."""
    t = text.strip().lower().replace(" ", "")
    how = "type a turn number, a57 for action 57" + (" or r3 for round 3" if rounds else "")
    if not t:
        raise ValueError(how)
    if t.startswith("t") and len(t) > 1 and t[1] in "a#r":
        t = t[1:]  # the t that opened the line, typed again into it (ta57)
    kind = "turn"
    if t[0] in "a#r":
        kind = {"a": "action", "#": "action", "r": "round"}[t[0]]
        t = t[1:]
    elif t.startswith("t"):
        t = t[1:]
    if kind == "round" and not rounds:
        raise ValueError(f"{text.strip()!r}: this game has turns, no rounds: {how}")
    if not t.isdigit():
        raise ValueError(f"{text.strip()!r}: {how}")
    k = int(t)
    if kind == "action":
        if k > rp.total:
            raise ValueError(f"there {'is' if rp.total == 1 else 'are'} only "
                             f"{actions_text(rp.total)}")
        return k
    if kind == "round":
        if k < 1:
            raise ValueError(f"there are rounds 1 to {rp.marks[-1][0] if rp.marks else 1}")
        for n, (rnd, _seat) in enumerate(rp.marks):
            if rnd >= k:
                return n
        raise ValueError(f"the game ends in round {rp.marks[-1][0]}")
    if not 1 <= k <= len(rp.turn_starts):
        raise ValueError(f"there are turns 1 to {len(rp.turn_starts)}")
    return rp.turn_starts[k - 1]


# ---------------------------------------------------------------------------- screens
class ReplayScreen(Screen[None]):
    """A saved game after action ``n`` as the chosen seat saw it, stepped, jumped or played
    at a chosen speed: the shell's timeline, for any game.

    Each game subclasses it (:meth:`~wizwar_tui.gameui.GameUI.replay_screen`) and
    implements :meth:`compose_game` (its board and panels, holding a ``RichLog`` with id
    ``log`` the shell writes the actions and events into), :meth:`draw_game` (draw the state
    after action ``n`` seen as :attr:`seat`; :meth:`info_text` says what the last and next
    actions are) and optionally :meth:`mount_game`, :meth:`fit_game` (which may set the
    ``-rim`` class: a two-line header and no keys line, the footer having the keys) and
    :meth:`scroll_board`."""

    CSS_PATH = ["replay.tcss"]  # loaded when first opened (start-up: only wizwar.tcss)

    BINDINGS = [
        Binding("right,full_stop", "step(1)", "Step", key_display="→"),
        Binding("left,comma", "step(-1)", "Back", key_display="←"),
        Binding("right_square_bracket,pagedown", "turn(1)", "Next turn", show=False),
        Binding("left_square_bracket,pageup", "turn(-1)", "Prev turn", show=False),
        Binding("home,less_than_sign", "go(0)", "Start", show=False),
        Binding("end,greater_than_sign", "go_end", "End", show=False),
        Binding("tab", "panels", "Board/panels"),
        Binding("up,k", "scroll_board(-2)", "Scroll up", show=False),
        Binding("down,j", "scroll_board(2)", "Scroll down", show=False),
        # a priority key: the app runs it as it reads the key, before the keys typed after
        # it are sent on (a plain binding runs when ``t`` comes back up to the app, and
        # ``12`` and Enter typed fast had already gone to the screen: lost)
        Binding("t", "jump", "Jump", priority=True),
        Binding("space", "play", "Play"),  # (the header says playing or paused)
        Binding("plus,equals_sign", "speed(1)", "Faster"),
        Binding("minus", "speed(-1)", "Slower"),
        Binding("v", "seen_as", "Seen as"),
        Binding("escape", "escape", "Back", show=False),
        Binding("q", "back", "Back"),
    ]
    AUTO_FOCUS = None  # nothing takes the keys (the log would take Home/End to scroll)
    #: the game's timeline has rounds apart from its turns (Wiz-War: a round is every
    #: wizard's turn once); a game whose replay marks count its own turns
    #: (:meth:`~wizwar_tui.gameui.GameUI.replay_mark`) says False: the header then says
    #: only "turn 12 (P2)", not "round 12 · turn 12", and ``r3`` is no jump
    ROUNDS: ClassVar[bool] = True

    def __init__(self, replay: Replay, delay: float = 0.5, ascii_only: bool = False,
                 start: int = 0, seat: str | None = None) -> None:
        super().__init__()
        self.replay = replay
        self.ascii_only = ascii_only
        self.n = max(0, min(start, replay.total))
        default = replay.viewer if replay.viewer in replay.seats else replay.seats[0]
        self.default_seat = default
        self.seat = default if seat is None else seat
        self.delay = delay if delay > 0 else 0.5
        self.speeds = sorted(set(SPEEDS) | {self.delay}, reverse=True)
        self.timer: Timer | None = None
        self.message: Text | None = None
        self.state: Any = None
        self.log_n: int | None = None  # the action the log panel shows events up to

    # ------------------------------------------------------------------ layout
    def compose(self) -> ComposeResult:
        """Header, board column, side panels, status, jump line, footer."""
        yield Static(id="replay-head")
        yield from self.compose_game()
        yield Static(id="status")
        rounds = "r3 = round 3 · " if self.ROUNDS else ""
        yield Input(placeholder=f"jump: 12 = turn 12 · a57 = action 57 · {rounds}Esc closes",
                    id="jump", disabled=True)
        # every key in sight at any width (issue 12); no palette mark: at 80 columns it
        # covered the second line's last key ("v See▏^p palette")
        yield KeysFooter(show_command_palette=False)
        yield TooSmall()

    def on_screen_suspend(self) -> None:
        """A dialog on top: this footer does not show through (issue 12)."""
        show_footer_on_top(self, False)

    def on_screen_resume(self) -> None:
        """On top again: the footer back."""
        show_footer_on_top(self, True)

    def on_mount(self) -> None:
        """Titles and the first drawing."""
        self.mount_game()
        self.query_one("#log").border_title = "Log"
        self.query_one("#log", RichLog).can_focus = False
        self.query_one("#jump").display = False
        self.set_focus(None)
        self.show()
        self.call_after_refresh(self.draw_status)  # (whether the board is cut, laid out)

    def on_unmount(self) -> None:
        """Stop playing."""
        self.stop()

    def on_resize(self, _event: Any) -> None:
        """The keys line fits the new width."""
        if self.state is not None:
            self.fit_game()
            self.query_one("#replay-head", Static).update(self.head_text(self.state))
            self.draw_status()
            self.call_after_refresh(self.draw_status)  # (whether the board is cut now)
        self.call_after_refresh(self.log_to_end)

    def fit_game(self) -> None:
        """Lay the game's part out for the window (before drawing); it may set ``-rim``
        where its board only just fits: a shorter header and no keys line (the footer has
        them)."""

    # ------------------------------------------------------------------ drawing
    @property
    def playing(self) -> bool:
        """True while the replay plays by itself."""
        return self.timer is not None

    def seen_as_text(self) -> str:
        """``P1`` or ``everyone``."""
        return "everyone" if self.seat == EVERYONE else self.seat

    def show(self) -> None:
        """Draw everything for action ``n`` as the chosen seat sees it."""
        rp = self.replay
        if self.seat == EVERYONE and not rp.everyone_allowed(self.n):
            self.seat = self.default_seat
            self.message = Text(f"Everyone's hands are shown only at the end of the game: "
                                f"seen as {self.seat} again", "bold yellow")
        st = self.state = rp.at(self.n)
        self.fit_game()
        self.draw_game(st)
        self.query_one("#replay-head", Static).update(self.head_text(st))
        self.draw_status()
        self.sync_log()

    def draw_status(self) -> None:
        """The status line: a message, else the keys; where the board only just fits
        (the game part sets ``-rim``) it shows only a message (the footer has the keys)."""
        status = self.query_one("#status", Static)
        status.update(self.message or self.keys_text())
        status.display = self.message is not None or not self.has_class("-rim")

    # -- the game's part (see the class docstring)
    def compose_game(self) -> Iterator[Widget]:
        """The game's board and panels (with a ``RichLog`` with id ``log``)."""
        yield ReplayLog(id="log", wrap=True, markup=False, auto_scroll=True, min_width=20,
                        max_lines=2000)

    def mount_game(self) -> None:
        """Set up the game's widgets once mounted (titles...)."""

    def draw_game(self, state: Any) -> None:
        """Draw ``state`` (after action :attr:`n`) as :attr:`seat` may see it."""

    def scroll_board(self, lines: int) -> None:
        """↑↓: scroll the board by ``lines`` (a board taller than the window)."""

    def head_text(self, st: Any, rim: bool | None = None) -> Text:
        """The header: file, players, result; action n / N, turn, who is seen, play state;
        the log's damage and where the replay stopped, if any. Each line is cut to the
        window's width (never wrapped). ``rim`` (default: whether the screen has ``-rim``):
        no line of its own for a long file name."""
        if rim is None:
            rim = self.has_class("-rim")
        rp = self.replay
        t = Text(no_wrap=True, overflow="ellipsis")
        t.append(" Replay ", "bold reverse")
        t.append(f" {rp.result()} · ", "bold")
        t.append(f"{rp.players_text()} · {rp.kind}")
        if rp.started:
            t.append(f" · {rp.started.replace('T', ' ')[:16]}")
        name = os.path.basename(rp.path)
        if t.cell_len + 3 + len(name) <= self.app.size.width:
            t.append(f" · {name}\n", "bold")
        elif rim:  # no line to spare: the file is in the saved games
            t.append("\n")
        else:  # too long for the window: the file on a line of its own, in full
            t.append(f"\n file {name}\n", "bold")
        t.append(f" action {self.n} / {rp.total}", "bold")
        rnd, active = rp.marks[self.n]
        t.append(f" · round {rnd}" if self.ROUNDS else "")
        t.append(f" · turn {rp.turn_of(self.n)} ({active})")
        if rp.ruleset.result(st).over:  # who won is on the first line
            t.append(" · game over")
        t.append(" · seen as ")
        t.append(self.seen_as_text(), f"bold {player_colour(self.seat)}")
        t.append(" · ")
        if self.playing:
            t.append(f"▶ playing, {speed_text(self.delay)}", "bold green")
        else:
            t.append(f"paused ({speed_text(self.delay)})", "dim")
        if rp.damage:
            t.append(f"\n log damaged: {rp.damage} — showing the {rp.total} good "
                     f"action{'' if rp.total == 1 else 's'}",
                     "bold red")
        if rp.problem:
            t.append(f"\n replay stops: {rp.problem} — showing the {actions_text(rp.total)} "
                     "before it", "bold red")
        if rp.mismatch:
            t.append(f"\n the log does not verify: {rp.mismatch}", "bold red")
        return t

    def info_text(self) -> Text:
        """The last action, and on a line of its own the next one (each line cut with an
        ellipsis, never wrapped under the board)."""
        rp = self.replay
        t = Text(no_wrap=True, overflow="ellipsis")
        if self.n:
            t.append(f"last {self.n}. ", "dim")
            t.append(str(self.seen_action(self.n)), "bold")
        else:
            t.append("the start of the game", "dim")
        t.append("\n")
        if self.n < rp.total:
            t.append(f"next {self.n + 1}. ", "dim")
            t.append(str(self.seen_action(self.n + 1)))
        else:
            t.append("the end of the log", "dim")
        return t

    KEYS = ("←/→ step · [ ] turn · Home/End start/end · t jump · space play · +/- speed · "
            "v seen as · ↑↓ scroll the board · q back",
            "←→ step · [] turn · Home/End ends · t jump · space play · +- speed · v viewer · "
            "↑↓ scroll · q back",
            "←→ step · [] turn · t jump · space play · +- speed · v seen as · q back")
    """The keys on the status line, longest first: the longest that fits is shown."""

    SCROLL_KEYS = "↑↓ board · ←→ step · [] turn · t jump · space play · v seen as · q back"
    """The shortest keys line when the board is cut (the speed keys are in the footer)."""

    def keys_text(self) -> Text:
        """The keys, on the status line: the longest form that fits the window's width;
        while the board is cut (:meth:`board_cut`) one that names ↑↓ (issue 12: a board
        scrolled at 80x24 and nothing said how to see the rest)."""
        width = self.app.size.width - 2  # the status line's padding
        forms = self.KEYS
        if self.board_cut():
            forms = (*[k for k in self.KEYS if "↑↓" in k], self.SCROLL_KEYS)
        keys = next((k for k in forms if len(k) <= width), forms[-1])
        return Text(keys, "dim", no_wrap=True, overflow="ellipsis")

    def board_cut(self) -> bool:
        """True when the game's board is taller than what the window shows of it (↑↓
        scroll it); the game part says (default: never)."""
        return False

    def action_scroll_board(self, lines: int) -> None:
        """↑↓ (k j): scroll the board when the window is too short for all of it."""
        self.scroll_board(lines)

    def action_panels(self) -> None:
        """Narrow windows: show the side panels instead of the board, or the board again."""
        self.set_class(not self.has_class("-panels"), "-panels")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Tab (board/panels) only in narrow windows."""
        return action != "panels" or self.app.has_class("-narrow")

    def seen_action(self, n: int) -> Any:
        """Action ``n`` (1-based) as the seat seen as knew it: the public form of a sealed
        action the seat did not know whole (``Ruleset.seen_by_others``); everyone's view
        shows it whole. Every text of the replay that names an action goes through this
        (the log panel and the last/next line, trial finding 5)."""
        a = self.replay.actions[n - 1]
        sealed = self.replay.sealed.get(n)
        if sealed is not None and self.seat != EVERYONE and self.seat not in sealed[0]:
            a = sealed[1]
        return a

    def action_line(self, n: int) -> Text:
        """Action ``n`` as a log line: as the seat seen as knew it (:meth:`seen_action`)."""
        return Text(f"{n:>4}. {self.seen_action(n)}", "dim")

    def sync_log(self) -> None:
        """The log panel holds the events of the actions up to ``n``: one action appended
        when stepping forward, rebuilt (the last :data:`LOG_ACTIONS` actions) otherwise."""
        panel = self.query_one("#log", RichLog)
        n = self.n
        if self.log_n is not None and n == self.log_n:
            return
        if self.log_n is not None and n == self.log_n + 1:
            self.write_action(panel, n)
            self.log_n = n
            self.call_after_refresh(self.log_to_end)
            return
        panel.clear()
        first = max(1, n - LOG_ACTIONS + 1)
        if first > 1:
            panel.write(Text(f"… {first - 1} earlier actions", "dim italic"))
        else:
            lead = self.replay.marks[0][1]  # "" for a game whose turns have no first seat
            panel.write(Text(f"Game start · {self.replay.players_text()}"
                             + (f" · {lead} goes first" if lead else ""), "bold"))
        for k in range(first, n + 1):
            self.write_action(panel, k)
        self.log_n = n
        self.call_after_refresh(self.log_to_end)

    def log_to_end(self) -> None:
        """Scroll the log panel to its last line (after the layout settles: the footer
        taking a second line shrank the panel and left its last line below, issue 12)."""
        self.query_one("#log", RichLog).scroll_end(animate=False)

    def write_action(self, panel: RichLog, n: int) -> None:
        """Action ``n`` and its events into the log panel."""
        panel.write(self.action_line(n))
        for ev in self.replay.events[n - 1]:
            panel.write(event_text(ev))

    def say(self, text: str, style: str = "bold yellow") -> None:
        """A message on the status line (until the next move in the replay)."""
        self.message = Text(text, style)
        self.draw_status()

    # ------------------------------------------------------------------ moving
    def go(self, n: int) -> None:
        """Show the state after ``n`` actions (clamped)."""
        self.message = None
        self.n = max(0, min(n, self.replay.total))
        self.show()

    def action_step(self, delta: int) -> None:
        """One action forward or back."""
        self.stop()
        if not 0 <= self.n + delta <= self.replay.total:
            self.say("That is the end of the log" if delta > 0 else
                     "That is the start of the game")
            return
        self.go(self.n + delta)

    def action_turn(self, delta: int) -> None:
        """To the start of the next turn, or of this turn (of the one before when at its
        start)."""
        self.stop()
        starts = self.replay.turn_starts
        if delta > 0:
            later = [s for s in starts if s > self.n]
            self.go(later[0] if later else self.replay.total)
        else:
            earlier = [s for s in starts if s < self.n]
            self.go(earlier[-1] if earlier else 0)

    def action_go(self, n: int) -> None:
        """To action ``n`` (Home: the start)."""
        self.stop()
        self.go(n)

    def action_go_end(self) -> None:
        """To the last action."""
        self.stop()
        self.go(self.replay.total)

    def action_seen_as(self) -> None:
        """Cycle the seat the game is seen as: P1, P2, …, everyone (once the game is over)."""
        rp = self.replay
        order = [*rp.seats, EVERYONE]
        i = order.index(self.seat) if self.seat in order else -1
        nxt = order[(i + 1) % len(order)]
        refused = nxt == EVERYONE and not rp.everyone_allowed(self.n)
        if refused:
            nxt = order[0]
        self.seat = nxt
        self.log_n = None  # the log panel's lines are the seat's (sealed actions)
        self.show()
        if refused:
            why = ("this game is not over" if not rp.final_winner else
                   "go to the last action to see them")
            self.say(f"Everyone's hands are shown only once the game is over ({why}); "
                     f"seen as {nxt}")

    # ------------------------------------------------------------------ playing
    def action_play(self) -> None:
        """Space: play from here (from the start when at the end), or pause."""
        if self.playing:
            self.stop()
            self.show()
            return
        if self.n >= self.replay.total:
            self.n = 0
        self.timer = self.set_interval(self.delay, self.tick)
        self.go(self.n)

    def tick(self) -> None:
        """One action forward while playing; pause at the end."""
        if self.n >= self.replay.total:
            self.stop()
            self.show()
            return
        self.go(self.n + 1)
        if self.n >= self.replay.total:
            self.stop()
            self.show()

    def stop(self) -> None:
        """Pause."""
        if self.timer is not None:
            self.timer.stop()
            self.timer = None

    def action_speed(self, faster: int) -> None:
        """``+`` plays faster, ``-`` slower."""
        i = self.speeds.index(self.delay) if self.delay in self.speeds else 0
        i = max(0, min(len(self.speeds) - 1, i + (1 if faster > 0 else -1)))
        self.delay = self.speeds[i]
        if self.playing:
            self.stop()
            self.timer = self.set_interval(self.delay, self.tick)
        self.show()
        self.say(f"Speed: {speed_text(self.delay)}", "bold")

    # ------------------------------------------------------------------ jumping
    def action_jump(self) -> None:
        """Open the jump line (turn, action or round), focused at once: the keys typed
        right after ``t`` (fast, or pasted) go into it (``Input.focus`` only asks for the
        focus later, after those keys). In the open line ``t`` is typed (``t12``), except
        as its first key (the line is open already, e.g. after a refused jump)."""
        box = self.query_one("#jump", Input)
        if box.display and not box.disabled and box.has_focus:
            if box.value:  # t12 in the open line; an empty line open already (a refused
                box.insert_text_at_cursor("t")  # jump keeps it) takes t as "open it"
            return
        self.stop()
        self.show()
        box.display = True
        box.disabled = False
        box.value = ""
        self.set_focus(box)

    def close_jump(self) -> None:
        """Hide the jump line."""
        box = self.query_one("#jump", Input)
        box.display = False
        box.disabled = True
        self.set_focus(None)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Jump where typed; on a mistake say why and keep the line open."""
        if event.input.id != "jump":
            return
        event.stop()
        try:
            n = parse_jump(event.value, self.replay, self.ROUNDS)
        except ValueError as exc:
            event.input.value = ""
            self.say(f"Cannot jump: {exc}", "bold red")
            return
        self.close_jump()
        self.go(n)

    def action_escape(self) -> None:
        """Esc: close the jump line, else back."""
        if self.query_one("#jump", Input).display:
            self.close_jump()
            return
        self.action_back()

    exit_on_back = False  # opened by ``wizwar replay FILE``: q/Esc return to the shell

    def action_back(self) -> None:
        """Back to the saved games (or the menu); opened from the command line, quit."""
        self.stop()
        if self.exit_on_back:
            self.app.exit(0)
            return
        self.app.pop_screen()


class ReplayErrorScreen(Screen[None]):
    """A file that cannot be replayed: which file, and why."""

    CSS_PATH = ["dialogs.tcss", "replay.tcss"]  # loaded when first opened (start-up: only wizwar.tcss)

    BINDINGS = [Binding("escape,q,enter", "back", "Back")]

    def __init__(self, path: str, reason: str) -> None:
        super().__init__()
        self.path = path
        self.reason = reason

    def compose(self) -> ComposeResult:
        """The message box."""
        t = Text()
        t.append(f"{self.path}\n\n", "bold")
        t.append(self.reason)
        with Vertical(id="replay-error-box", classes="dialog"):
            yield Static("Cannot replay this game", id="over-title")
            yield Static(t, id="replay-error")
            yield Static("Esc back", classes="hint")
        yield Footer()
        yield TooSmall()

    exit_on_back = False  # opened by ``wizwar replay FILE``: q/Esc return to the shell

    def action_back(self) -> None:
        """Back to where we came from (the shell, for ``wizwar replay FILE``)."""
        if self.exit_on_back:
            self.app.exit(0)
            return
        self.app.pop_screen()


SAVED_FIXED = 16 + 2 + 2 + 2 + 11 + 2 + 13
"""The columns of a saved-games row other than the players, the game, the seed and the kind
(date, result, actions, and the gaps)."""


def game_width(games: list[Any]) -> int:
    """The game column: as wide as the longest game title (the ruleset's), at most 14."""
    return min(14, max((len(getattr(g, "game", "") or "") for g in games), default=0))


def seed_width(games: list[Any]) -> int:
    """The seed column: as wide as the longest seed (``wizwar play --seed`` plays it
    again), at most 20 digits (2**64 - 1)."""
    return min(20, max((len(getattr(g, "seed", "") or "?") for g in games), default=0))


def kind_width(games: list[Any]) -> int:
    """The kind column: as wide as the longest kind (``local``, ``peer``, ``selfplay``...),
    at least 5, at most 10."""
    return min(10, max([5, *(len(getattr(g, "kind", "") or "") for g in games)]))


def saved_note(g: Any) -> str:
    """What a row says after its columns: what is wrong with the log (``SavedGame.note``:
    ``damaged at action N``, ``does not verify``, ``unreadable: REASON``) and ``rejoined``
    for earlier logs of the same game left out (:func:`wizwar_tui.saves.list_saved`)."""
    notes = [str(getattr(g, "note", "") or ("damaged" if g.damage else ""))]
    if g.partial:
        notes.append("rejoined")
    return "  ".join(n for n in notes if n)


def _saved_when(g: Any) -> str:
    """A saved game's start, ``YYYY-MM-DD HH:MM`` (its file name's first 16 characters when
    the header has none)."""
    return g.started.replace("T", " ").rstrip("Z")[:16] if g.started else \
        os.path.basename(g.path)[:16]


def _short_players(g: Any, width: int) -> str:
    """A saved game's players in at most ``width`` columns (cut with "…")."""
    players: str = g.players_text
    return players if len(players) <= width else players[:max(0, width - 1)] + "…"


def saved_label_stacked(g: Any, players_width: int, game_width: int, seed_width: int,
                        kind_width: int, width: int) -> Text:
    """A saved-games row on two lines, for windows too narrow for one (80 columns): the
    date, the game and the seed, then under them (indented) the players, kind, result and
    actions, and the note (a third line when it does not fit): every column of every game
    shows (issue 12: at 80 columns the game and seed columns were dropped)."""
    when = _saved_when(g)
    t = Text(no_wrap=True, overflow="ellipsis")
    t.append(f"{when:<16}  ", "bold")
    if game_width:
        title = (getattr(g, "game", "") or "")[:game_width]
        t.append(f"{title:<{game_width}}  ", "#5fd7ff")
    if seed_width:
        t.append(f"seed {getattr(g, 'seed', '') or '?'}", "dim")
    t.rstrip()
    second = Text(no_wrap=True, overflow="ellipsis")
    players = _short_players(g, players_width)
    second.append(f"  {players:<{players_width}}  ")
    second.append(f"{g.kind:<{kind_width}}  ")
    second.append(f"{g.result:<11}  ", "bold" if g.result.endswith("won") else "dim")
    second.append(f"{g.actions:>5} action{'s' if g.actions != 1 else ' '}")
    note = saved_note(g)
    style = "dim" if note == "rejoined" else "bold red"
    lines = [t, second]
    if note and second.cell_len + 2 + len(note) <= width:
        second.append(f"  {note}", style)
    elif note:
        third = Text(f"  {note}", style, no_wrap=True, overflow="ellipsis")
        third.truncate(width, overflow="ellipsis")
        lines.append(third)
    out = Text(no_wrap=True, overflow="ellipsis")
    for i, line in enumerate(lines):
        if i:
            out.append("\n")
        line.truncate(width, overflow="ellipsis")
        out.append_text(line)
    return out


STACKED_FIXED = 2 + 2 + 2 + 11 + 2 + 13
"""The second line of a two-line saved-games row other than the players and the kind (the
indent, the result, the actions and the gaps)."""


def saved_label(g: Any, players_width: int = 18, game_width: int = 0,
                seed_width: int = 0, kind_width: int = 5, width: int = 0) -> Text:
    """One row of the saved-games list: date, game (``game_width`` columns: the ruleset's
    title), seed (``seed_width`` digits, after the word ``seed``), players
    (``players_width`` columns), kind (``kind_width``), result, actions; then the note
    (:func:`saved_note`, bold red for a damaged, unverified or unreadable log). Within
    ``width`` columns (0: no limit) the columns are never cut: a note that does not fit
    goes on a second line of its own."""
    when = _saved_when(g)
    t = Text(no_wrap=True, overflow="ellipsis")
    t.append(f"{when:<16}  ", "bold")
    if game_width:
        title = (getattr(g, "game", "") or "")[:game_width]
        t.append(f"{title:<{game_width}}  ", "#5fd7ff")
    if seed_width:
        t.append(f"{'seed ' + (getattr(g, 'seed', '') or '?'):<{seed_width + 5}}  ", "dim")
    players = _short_players(g, players_width)
    t.append(f"{players:<{players_width}}  ")
    t.append(f"{g.kind:<{kind_width}}  ")
    t.append(f"{g.result:<11}  ", "bold" if g.result.endswith("won") else "dim")
    t.append(f"{g.actions:>5} action{'s' if g.actions != 1 else ' '}")
    note = saved_note(g)
    if not note:
        return t
    style = "dim" if note == "rejoined" else "bold red"
    if width and t.cell_len + 2 + len(note) > width:  # the note on a line of its own
        t.truncate(width)
        line = Text(f"{'':<18}{note}", style, no_wrap=True, overflow="ellipsis")
        line.truncate(width, overflow="ellipsis")
        t.append("\n")
        t.append_text(line)
    else:
        t.append(f"  {note}", style)
    return t


def players_width(games: list[Any], row_width: int, seeds: bool = True,
                  titles: bool = True) -> int:
    """The players column: as wide as the longest players text, within what the row has
    left after the other columns (the game column's unless ``titles`` is false, the seed
    column's unless ``seeds`` is false; at least 12)."""
    need = max((len(g.players_text) for g in games), default=0)
    gw = game_width(games) if titles else 0
    sw = seed_width(games) if seeds else 0
    return max(12, min(need, row_width - SAVED_FIXED - kind_width(games) - 2
                       - (gw + 2 if gw else 0) - (sw + 7 if sw else 0)))


class ReplayLog(RichLog):
    """The replay's log panel: kept at its last line when its size changes (the footer
    taking a second line at 80x24 shrank it after it was written, and its last line stayed
    below: issue 12)."""

    def on_resize(self) -> None:
        """Back to the last line once the new size is laid out."""
        self.call_after_refresh(self.scroll_end, animate=False)


class SavedGamesScreen(Screen[None]):
    """The saved games of every game, newest first, with a game column (the ruleset's
    title); Enter replays one."""

    CSS_PATH = ["lan.tcss", "replay.tcss"]  # loaded when first opened (start-up: only wizwar.tcss)

    BINDINGS = [Binding("escape,q", "back", "Back")]

    def __init__(self, folder: str | None = None) -> None:
        super().__init__()
        self.folder = folder
        self.games: list[Any] = []
        self.problem = ""

    def compose(self) -> ComposeResult:
        """Title, where the games are, the list."""
        from wizwar_tui import saves

        try:
            self.folder = self.folder or saves.games_dir()
            self.games = saves.list_saved(self.folder)
        except OSError as exc:
            self.problem = f"Cannot read the saved games: {exc}"
        with Vertical(id="saved-box", classes="lan-box"):
            yield Static("Replay a saved game", classes="lan-title")
            if self.games:
                gw, sw = game_width(self.games), seed_width(self.games)
                kw = kind_width(self.games)
                yield OptionList(*[Option(saved_label(g, game_width=gw, seed_width=sw,
                                                      kind_width=kw), id=str(i))
                                   for i, g in enumerate(self.games)], id="saved-list")
                n = len(self.games)
                yield Static(f"{n} game{'s' if n != 1 else ''} in {self.folder}",
                             id="saved-where", classes="hint")
            else:
                yield Static(self.problem or
                             f"No saved games yet. Every game is saved as it is played, "
                             f"in {self.folder}", id="saved-where")
            yield Static("↑↓ choose · Enter replay · Esc back", classes="hint")
        yield Footer()
        yield TooSmall()

    def on_mount(self) -> None:
        """Focus the list."""
        if self.games:
            ol = self.query_one(OptionList)
            ol.highlighted = 0
            ol.focus()

    def on_resize(self, _event: Any) -> None:
        """Redraw the rows with the players column as wide as the window allows."""
        self.call_after_refresh(self.fit_rows)

    def fit_rows(self) -> None:
        """The rows again, the players column filling the list's width."""
        if not self.games:
            return
        ol = self.query_one("#saved-list", OptionList)
        width = ol.scrollable_content_region.width - 2  # the option padding
        if width <= 0:
            return
        pw, gw = players_width(self.games, width), game_width(self.games)
        sw, kw = seed_width(self.games), kind_width(self.games)
        need = max(len(g.players_text) for g in self.games)
        fixed = SAVED_FIXED + kw + 2 + (gw + 2 if gw else 0) + (sw + 7 if sw else 0)
        if fixed + need > width:  # no room on one line: two lines a game, no column left
            pw = max(4, min(need, width - STACKED_FIXED - kw - 2))  # out (issue 12)
            for i, g in enumerate(self.games):
                ol.replace_option_prompt_at_index(
                    i, saved_label_stacked(g, pw, gw, sw, kw, width))
            return
        for i, g in enumerate(self.games):
            ol.replace_option_prompt_at_index(i, saved_label(g, pw, gw, sw, kw, width))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Replay the chosen game."""
        event.stop()
        self.app.open_replay(self.games[int(event.option.id or 0)].path)  # type: ignore[attr-defined]

    def action_back(self) -> None:
        """Back to the menu."""
        self.app.pop_screen()
