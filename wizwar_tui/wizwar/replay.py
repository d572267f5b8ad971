"""Wiz-War's part of the replay: the replay screen's board, stack, players and hands
(:class:`WizWarReplayScreen`; reading the log, the timeline, its keys, seek, play/pause and
"seen as" are the shell's :mod:`wizwar_tui.replay`).

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
from textual.widgets import Static

from core.wizwar.actions import Action
from core.wizwar.board import parse_square
from core.wizwar.view import View, view
from wizwar_tui.footer import KeysFooter
from wizwar_tui.replay import (
    EVERYONE,
    ReplayLog,
    ReplayScreen,
)
from wizwar_tui.wizwar import render
from wizwar_tui.wizwar.game import BoardScroll
from wizwar_tui.wizwar.widgets import Board, BoardRuler, HandsPanel, PlayersPanel, StackPanel


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

    def follow_cursor(self) -> None:
        """After a resize (the footer taking another line, say) keep the last action's
        squares in sight, not the top-left corner: a replay board has no cursor."""
        show = getattr(self.screen, "show_squares", None)
        if self.targets and show is not None:
            show(sorted(self.targets))

    def render(self) -> Text:
        """The board text (empty until a view is set)."""
        if self.view is None:
            return Text("")
        return render.render_board(self.view, None, self.reach, self.targets,
                                   self.ascii_only, header=False,
                                   rim_labels=self.rim_labels)


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
                yield Static(id="info-side")  # the last and next actions on short windows
                yield StackPanel(id="stack-side")  # the stack where the board has no room
                yield PlayersPanel(id="players")
                yield HandsPanel(id="hand")
                yield ReplayLog(id="log", wrap=True, markup=False, auto_scroll=True,
                                min_width=20, max_lines=2000)

    def mount_game(self) -> None:
        """The panels' titles and glyphs."""
        self.query_one("#players").border_title = "Players"
        self.query_one("#hand").border_title = "Hand"
        self.query_one("#stack").border_title = "Stack"
        self.query_one("#stack-side").border_title = "Stack"
        self.query_one(PlayersPanel).ascii_only = self.ascii_only
        for stack in self.query(StackPanel).results(StackPanel):
            stack.ascii_only = self.ascii_only

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
        self.place_stack(v)
        for info in self.query("#info, #info-side").results(Static):
            info.update(self.info_text())

    def fit_game(self) -> None:
        """Where the whole board fits only with its column letters in its top rim, a
        two-line header and no keys line (80x24, a 4-player board: it scrolled; issue 12),
        draw it so (``-rim``); elsewhere the board as ever, scrolling when the window is
        short (↑↓)."""
        board = self.query_one(ReplayBoard)
        st = self.state
        if st is None:
            return
        v = board.view or view(st, self.seat)
        _w, h = self.app.size
        _bw, bh = render.board_size(v, board.scale)
        footer = self.query_one(KeysFooter)
        footer.fit_keys(self.app.size.width)
        keys = footer.styles.height
        rows = keys.cells if keys is not None and keys.cells is not None else 1
        heads = [len(self.head_text(st, rim=on).plain.splitlines())  # as ever, and in -rim
                 for on in (False, True)]
        info = 0 if self.app.has_class("-short") else 2
        needed = heads[0] + 1 + bh + info + 1 + rows  # header, ruler, board, info, keys, footer
        rim = (not self.app.has_class("-narrow") and h < needed
               and h >= heads[1] + bh + rows)
        self.set_class(rim, "-rim")
        board.set_scale(board.scale, rim_labels=rim)

    def place_stack(self, v: View) -> None:
        """Draw the stack where it hides no board row (as the game screen does): under the
        board where it has room, else at the top of the right column (``-stack-side``: the
        log gives up rows). At 80x24 a 4-player board's last row was under the Stack panel
        and its first scrolled out of sight (fresh-user trial)."""
        below = self.query_one("#stack", StackPanel)
        side = self.query_one("#stack-side", StackPanel)
        below.show(v)
        side.show(v)
        narrow = self.app.has_class("-narrow")  # one column: the board's, or the panels'
        side_mode = bool(v.stack) and not narrow and (self.has_class("-rim")
                                                      or not self.stack_fits_below(v))
        below.display = bool(v.stack) and not side_mode
        side.display = side_mode
        self.set_class(side_mode, "-stack-side")

    def stack_fits_below(self, v: View) -> bool:
        """True when the Stack panel under the board leaves every board row in sight: the
        header, the ruler, the board, the square's lines, the stack's lines (wrapped to the
        column), the status line and the footer within the window's height."""
        st = self.state
        if st is None:
            return True
        _w, h = self.app.size
        board = self.query_one(ReplayBoard)
        _bw, bh = render.board_size(v, board.scale)
        margins = 2 if self.app.has_class("-wide") else 0
        width = max(10, (self.query_one("#left").size.width or 46) - 2)
        lines = render.stack_lines(v, self.ascii_only)
        stack = 1 + sum(max(1, -(-t.cell_len // width)) for t in lines)
        keys = self.query_one(KeysFooter).styles.height
        rows = keys.cells if keys is not None and keys.cells is not None else 1
        head = len(self.head_text(st).plain.splitlines())
        info = 0 if self.app.has_class("-short") else 2
        return head + 1 + margins + bh + info + stack + 1 + rows <= h

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

    def board_cut(self) -> bool:
        """True when the board scrolls (the window shows only part of it)."""
        return self.query_one(BoardScroll).max_scroll_y > 0

    def scroll_board(self, lines: int) -> None:
        """Scroll the board when the window is too short for all of it."""
        self.query_one(BoardScroll).scroll_relative(y=lines, animate=False)

