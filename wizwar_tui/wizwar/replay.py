"""Wiz-War's part of the replay: reading a Wiz-War log or export text into the shell's
:class:`~wizwar_tui.replay.Replay`, and the replay screen's board, stack, players and hands
(:class:`WizWarReplayScreen`; the timeline, its keys, seek, play/pause and "seen as" are the
shell's :class:`~wizwar_tui.replay.ReplayScreen`).

The screen only ever draws :func:`core.wizwar.view.view` of a replayed state: a player's
own view, or every hand ("everyone") once the game is over. Faces the log's writer never
learned (a networked peer's log) are ``""`` in the state and drawn as ``?``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from rich.text import Text
from textual.containers import Horizontal, Vertical
from textual.geometry import Region
from textual.widget import Widget
from textual.widgets import RichLog, Static

from core import log
from core.engine import Event, IllegalAction
from core.wizwar.actions import Action
from core.wizwar.board import parse_square
from core.wizwar.rules import apply
from core.wizwar.ruleset import RULESET
from core.wizwar.state import State, state_hash
from core.wizwar.view import View, view
from wizwar_tui.replay import (
    CHECKPOINT_EVERY,
    EVERYONE,
    EXPORT_MAGIC,
    Replay,
    ReplayError,
    ReplayScreen,
)
from wizwar_tui.wizwar import render
from wizwar_tui.wizwar.game import BoardScroll
from wizwar_tui.wizwar.widgets import Board, BoardRuler, HandsPanel, PlayersPanel, StackPanel


def mark(st: State) -> tuple[int, str]:
    """Where a state is on the timeline: its round and the active wizard."""
    return st.round, st.turn.active


def _step_record(state: State, r: dict[str, Any]) -> list[Event]:
    """:func:`core.log.step`, keeping the events of the action (the log panel shows them).

    Raises ``log.LogError`` when the action is illegal here or a stored hash disagrees.
    """
    action = Action.from_wire(r["action"])
    if state.dealer is not None:
        log.reveal_all(state, r.get("pre", []))
        state.dealer.pending = list(r.get("reblind", []))
    try:
        events = apply(state, action)
    except IllegalAction as exc:
        raise log.LogError(f"action {r['seq']} ({action}) is illegal here: {exc.reason}") \
            from None
    if state.dealer is not None:
        log.reveal_all(state, r.get("private", []))
    if "hash" in r and state_hash(state) != r["hash"]:
        raise log.LogError(f"action {r['seq']} ({action}): the state hash is "
                           f"{state_hash(state)}, the log says {r['hash']}")
    return events


def _names(config: dict[str, Any]) -> tuple[list[str], list[str]]:
    players = int(config["players"])
    seats = [f"P{i + 1}" for i in range(players)]
    names = [str(x) for x in config.get("names") or []]
    return seats, (names + seats[len(names):])[:players]


def from_log(path: str, data: bytes, every: int = CHECKPOINT_EVERY) -> Replay:
    """A :class:`Replay` of ``.wwlog`` bytes. Raises :class:`ReplayError` when the header is
    unusable (not a log, a newer format, other rules)."""
    try:
        loaded = log.read(data)
        start = loaded.header
        seats, names = _names(start["config"])
        log.start_state(start)
    except log.LogError as exc:
        raise ReplayError(str(exc)) from None
    except (KeyError, ValueError, TypeError) as exc:
        raise ReplayError(f"the log's header is malformed: {exc!r}") from None
    h = loaded.header
    records = loaded.records
    commits = bool(h.get("commits"))

    def restore(wire: dict[str, Any], _note: Any) -> State:
        st = State.from_wire(wire)
        if commits:
            st.dealer = log.ReplayDealer()
        return st

    end = loaded.end or {}
    rp = Replay(path, str(h.get("kind", "") or "local"), seats, names, loaded.actions,
                lambda: log.start_state(h), lambda st, i: _step_record(st, records[i]),
                restore, viewer=str(h.get("viewer", "")), started=str(h.get("started", "")),
                ended=loaded.end is not None, end_winner=str(end.get("winner") or ""),
                damage=loaded.damage, seed=h["seed"],
                team=bool(start["config"].get("team")), every=every, ruleset=RULESET,
                mark=mark)
    rp.build()
    return rp


def from_text(path: str, text: str, every: int = CHECKPOINT_EVERY) -> Replay:
    """A :class:`Replay` of ``wizwar export`` text (its actions applied from its start).
    Raises :class:`ReplayError` when the text cannot be read."""
    try:
        tg = log.parse_text(text)
        first = tg.start()  # (its faces list is tg.faces itself: never played)
    except log.LogError as exc:
        raise ReplayError(str(exc)) from None
    except (KeyError, ValueError, TypeError, IndexError) as exc:
        raise ReplayError(f"the export text is malformed: {exc!r}") from None
    seats = [w.seat for w in first.wizards]
    names = [w.name or w.seat for w in first.wizards]

    def advance(st: State, i: int) -> list[Event]:
        a = tg.actions[i]
        try:
            return apply(st, a)
        except IllegalAction as exc:
            raise log.LogError(f"action {i + 1} ({a}) is illegal here: {exc.reason}") from None

    def note(st: State) -> int:
        left = getattr(st.dealer, "reblinds", None)
        return len(tg.reblinds) - (len(left) if left is not None else len(tg.reblinds))

    def restore(wire: dict[str, Any], used: Any) -> State:
        st = State.from_wire(wire)
        if tg.reblinds:
            # the export's reshuffle dealer, with the reshuffles not used yet
            st.dealer = log._TextDealer(tg.reblinds[int(used):])
        return st

    def start() -> State:
        # TextGame.start() hands its own faces list to the state, which reshuffles change:
        # start from a copy so the text game stays as read
        fresh = log.TextGame(tg.config, tg.seed, list(tg.faces) if tg.faces else None,
                             tg.reblinds, tg.actions)
        return fresh.start()

    rp = Replay(path, "export", seats, names, tg.actions, start, advance, restore, note,
                seed=tg.seed, team=tg.config.team, every=every, ruleset=RULESET, mark=mark)
    rp.build()
    return rp


def load_bytes(path: str, data: bytes, every: int = CHECKPOINT_EVERY) -> Replay:
    """A :class:`Replay` of a ``.wwlog`` file's bytes or ``wizwar export`` text (told apart
    by the first line ``wizwar-export 1``). Raises :class:`ReplayError` with the reason in
    plain words."""
    if data.lstrip().startswith(EXPORT_MAGIC.encode()):
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ReplayError(f"the export text is not UTF-8: {exc}") from None
        return from_text(path, text, every)
    return from_log(path, data, every)


def action_squares(v: View, action: Action | None) -> set[tuple[int, int]]:
    """The squares an action touched, highlighted on the board: a walk's path, or the
    square of a wizard or square it targets, else the actor's square."""
    if action is None:
        return set()
    out: set[tuple[int, int]] = set()
    for t in action.targets:
        try:
            out.add(v.player(t).at or (-1, -1))
            continue
        except KeyError:
            pass
        for part in t.split("-"):
            try:
                out.add(parse_square(part))
            except ValueError:
                break
    if not out:
        try:
            at = v.player(action.actor).at
        except KeyError:
            at = None
        if at is not None:
            out.add(at)
    return {sq for sq in out if v.layout.has_square(sq)}


class ReplayBoard(Board):
    """The board of a replay: no cursor, the last action's squares highlighted."""

    can_focus = False

    def render(self) -> Text:
        """The board text (empty until a view is set)."""
        if self.view is None:
            return Text("")
        return render.render_board(self.view, None, self.reach, self.targets,
                                   self.ascii_only, header=False)


class WizWarReplayScreen(ReplayScreen):
    """The replay of a Wiz-War game: the board (the last action's squares highlighted), the
    stack, the players and the hands seen as the chosen seat, beside the shell's log."""

    CSS_PATH = ["game.tcss", "../replay.tcss"]  # loaded when first opened (start-up: only wizwar.tcss)

    def compose_game(self) -> Iterator[Widget]:
        """The board column and the side panels (the game screen's layout)."""
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield BoardRuler(id="board-cols")
                with BoardScroll(id="board-scroll"):
                    yield ReplayBoard(ascii_only=self.ascii_only, id="board")
                yield Static(id="info")
                yield StackPanel(id="stack")
            with Vertical(id="right"):
                yield PlayersPanel(id="players")
                yield HandsPanel(id="hand")
                yield RichLog(id="log", wrap=True, markup=False, auto_scroll=True,
                              min_width=20, max_lines=2000)

    def mount_game(self) -> None:
        """The panels' titles and glyphs."""
        self.query_one("#players").border_title = "Players"
        self.query_one("#hand").border_title = "Hand"
        self.query_one("#stack").border_title = "Stack"
        for panel in (PlayersPanel, StackPanel):
            self.query_one(panel).ascii_only = self.ascii_only

    def draw_game(self, st: Any) -> None:
        """The board and panels after action ``n``, as the seat seen as sees them."""
        rp = self.replay
        v = view(st, self.seat)
        last = rp.actions[self.n - 1] if self.n else None
        squares = action_squares(v, last)
        self.query_one(ReplayBoard).set_view(v, {}, squares)
        if squares:
            self.call_after_refresh(self.show_squares, sorted(squares))
        self.query_one(BoardRuler).show(v)
        where = f"seed {rp.seed}" if isinstance(rp.seed, int) else "LAN game"
        # "(seen)" marks the seat as "(you)" does in a game: "P1(seen) ♥15", "P1/A(seen)"
        self.query_one(PlayersPanel).show(v, None, where=where, you="(seen)", team=rp.team)
        if self.seat == EVERYONE:
            hands = [(s, view(st, s).hand) for s in rp.seats]
        else:
            hands = [(self.seat, v.hand)]
        self.query_one(HandsPanel).show(hands)
        self.query_one(StackPanel).show(v)
        self.query_one("#info", Static).update(self.info_text())

    def show_squares(self, squares: list[tuple[int, int]]) -> None:
        """Scroll the board (a short window) so the last action's squares are in sight."""
        board = self.query_one(ReplayBoard)
        if board.view is None:
            return
        left = render.row_label_width(board.view)
        top = min(r for _c, r in squares)
        bottom = max(r for _c, r in squares)
        c = squares[0][0]
        region = Region(left + 4 * c, 2 * top, 5, 2 * (bottom - top) + 3)
        self.query_one(BoardScroll).scroll_to_region(region, animate=False)

    def scroll_board(self, lines: int) -> None:
        """Scroll the board when the window is too short for all of it."""
        self.query_one(BoardScroll).scroll_relative(y=lines, animate=False)

