"""The game screen's widgets. Each receives the human's :class:`View` (attributes down) and
draws it; none of them changes game state."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Static

from core.wizwar.view import View
from wizwar_tui.wizwar import render

Square = tuple[int, int]


class Board(Widget):
    """The board drawn with box glyphs, the cursor and the squares reachable this turn."""

    can_focus = True
    cursor: reactive[Square] = reactive((0, 0))

    def __init__(self, ascii_only: bool = False, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.ascii_only = ascii_only
        self.view: View | None = None
        self.reach: dict[Square, tuple[Square, ...]] = {}
        self.targets: set[Square] = set()
        self.scale: render.Scale = render.SMALL  # the game screen picks it (set_scale)
        self.rim_labels = False  # the column letters in the top rim (no ruler line)

    def set_scale(self, scale: render.Scale, rim_labels: bool = False) -> None:
        """Draw at ``scale`` (:data:`render.SMALL` or :data:`render.LARGE`), with the
        column letters in the top rim when ``rim_labels``."""
        if (scale, rim_labels) == (self.scale, self.rim_labels):
            return
        self.scale, self.rim_labels = scale, rim_labels
        if self.view is not None:
            self.set_view(self.view, self.reach, self.targets)

    def set_view(self, view: View, reach: dict[Square, tuple[Square, ...]],
                 targets: set[Square] | None = None) -> None:
        """Show ``view`` with the reachable squares ``reach`` and highlighted ``targets``."""
        self.view = view
        self.reach = reach
        self.targets = targets or set()
        self.styles.width, self.styles.height = render.board_size(view, self.scale)
        self.refresh()

    def move_cursor(self, dx: int, dy: int) -> None:
        """Move the cursor by (dx, dy), staying on the board."""
        if self.view is None:
            return
        lay = self.view.layout
        c = min(max(self.cursor[0] + dx, 0), lay.width - 1)
        r = min(max(self.cursor[1] + dy, 0), lay.height - 1)
        self.cursor = (c, r)

    def watch_cursor(self, _old: Square, new: Square) -> None:
        """Keep the cursor visible when the board scrolls (small terminals)."""
        self.follow_cursor()

    def follow_cursor(self) -> None:
        """Scroll the board's container just enough to show the cursor's square (never the
        whole board into view, which on a short window jumped back to the top row)."""
        from textual.geometry import Region

        if self.parent is not None and hasattr(self.parent, "scroll_to_region"):
            col, row = self.cursor
            left = render.row_label_width(self.view) if self.view is not None else 0
            iw, ih = self.scale
            region = Region(left + (iw + 1) * col, (ih + 1) * row, iw + 2, ih + 2)
            self.parent.scroll_to_region(region, animate=False)  # type: ignore[union-attr]

    def render(self) -> Text:
        """The board text (empty until a view is set)."""
        if self.view is None:
            return Text("")
        return render.render_board(self.view, self.cursor, self.reach, self.targets,
                                   self.ascii_only, header=False, scale=self.scale,
                                   rim_labels=self.rim_labels)

    def plain(self) -> str:
        """The board as plain text (for tests and screen readers)."""
        return self.render().plain


class BoardRuler(Static):
    """The column letters above the board; outside the board's scroll area, so they stay
    in sight when a small terminal scrolls the board."""

    def show(self, view: View, scale: render.Scale = render.SMALL) -> None:
        """Draw the letters of ``view``'s columns for a board at ``scale``."""
        self.update(render.column_labels(view, scale))


class PlayersPanel(Static):
    """Life, treasure, hand size and displayed stones of every player, and under a player
    his lost turns and the effects on him with how many turns they last."""

    ascii_only = False
    """Draw the turn mark and the heart in ASCII (``>``, ``hp``)."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.last: tuple[View, int | None, dict[str, str] | None, str | None, str, bool] \
            | None = None

    def on_resize(self) -> None:
        """Draw the players again for the new width (what each line says depends on it)."""
        if self.last is not None:
            self.show(*self.last)

    def show(self, view: View, seed: int | None, status: dict[str, str] | None = None,
             where: str | None = None, you: str = "(you)", team: bool = False) -> None:
        """Draw ``view``'s players, the round and the seed; in a LAN game (``status``: the
        seat connection states) each player's name and connection instead of the seed.
        ``where`` replaces the seed text; ``you`` marks the viewer (a replay: ``(seen)``);
        ``team`` (the team variant) shows each seat's team and a line naming the teams.
        A line longer than the panel is said shorter, never cut inside a word
        (:func:`render.player_line`, :func:`render.effects_line`)."""
        self.last = (view, seed, status, where, you, team)
        width = self.content_region.width
        t = Text(no_wrap=True, overflow="ellipsis")
        for p in view.players:
            t.append_text(render.player_line(view, p, None if status is None else
                                              status.get(p.seat, ""), you=you,
                                              ascii_only=self.ascii_only, team=team,
                                              width=width))
            t.append("\n")
            effects = render.effects_line(p, width=width, ascii_only=self.ascii_only)
            if effects is not None:  # lost turns and effects with their counts
                t.append_text(effects)
                t.append("\n")
        if team:
            t.append(render.teams_text() + "\n", "bold")
        if where is None:
            where = "LAN game" if status is not None else f"seed {seed}"
        t.append(f"round {view.round} · deck {view.deck_size} · {where}", "dim")
        self.update(t)


class HandPanel(Static):
    """The human's cards, numbered from 1 (two digits past nine: GameScreen.action_card),
    with a hand cursor; a displayed stone is marked ``(displayed)``."""

    ascii_only = False
    """Draw the hand cursor as ``>``."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.hand: tuple[str, ...] = ()
        self.index = 0
        self.last: tuple[View, set[str]] | None = None

    def on_resize(self) -> None:
        """Draw the hand again for the new width (what each line says depends on it)."""
        if self.last is not None:
            self.show(*self.last)

    def show(self, view: View, playable: set[str]) -> None:
        """Draw the hand; ``playable`` cards (some legal play exists) are bright. Each line
        says as much as the panel's width holds (:func:`render.card_summary`)."""
        self.last = (view, playable)
        width = self.content_region.width
        self.hand = view.hand
        if self.index >= len(self.hand):
            self.index = max(0, len(self.hand) - 1)
        t = Text(no_wrap=True, overflow="ellipsis")
        if not self.hand:
            t.append("(no cards)", "dim")
        shown = list(view.displayed)  # displayed stones still count in the hand (cards.md §1.4)
        wide = len(self.hand) > 9
        for i, slug in enumerate(self.hand):
            if i:
                t.append("\n")
            mark = (">" if self.ascii_only else "›") if i == self.index else " "
            style = "bold" if slug in playable else "dim"
            if i == self.index:
                style += " reverse"
            head = f"{mark}{i + 1:>2} " if wide else f"{mark}{i + 1} "
            t.append(head, "bold")
            note = " (displayed)" if slug in shown else ""
            room = width - len(head) - len(note) if width else 0
            t.append(render.card_summary(slug, max(room, 1) if width else 0), style)
            if note:
                shown.remove(slug)
                t.append(note, "bold cyan")
        self.update(t)
        keys = f"1-{len(self.hand)}" if wide else "1-9"
        self.border_subtitle = f"{keys} play · ,/. select · i text"

    def selected(self) -> str:
        """The slug under the hand cursor ("" if the hand is empty)."""
        return self.hand[self.index] if self.hand else ""


class HandsPanel(Static):
    """A replay's hands: the seen seat's cards, or every seat's once the game is over.
    Faces the log's writer never learned are drawn as ``?``."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.hands: list[tuple[str, tuple[str, ...]]] = []

    def show(self, hands: list[tuple[str, tuple[str, ...]]]) -> None:
        """Draw ``hands``: (seat, cards) pairs; one pair lists the cards one a line, several
        pairs give each seat a paragraph of card names, wrapped to the panel's width under
        the seat (never cut)."""
        self.hands = list(hands)
        self.update(self.hands_text(self.content_region.width or self.size.width or 40))
        self.border_subtitle = "v seen as"

    def hands_text(self, width: int) -> Text:
        """The hands as text for a panel ``width`` cells wide."""
        hands = self.hands
        t = Text(no_wrap=True, overflow="ellipsis")
        if len(hands) == 1:
            _seat, cards = hands[0]
            if not cards:
                t.append("(no cards)", "dim")
            wide = len(cards) > 9
            for i, slug in enumerate(cards):
                if i:
                    t.append("\n")
                head = f" {i + 1:>2} " if wide else f" {i + 1} "
                t.append(head, "bold")  # each line what fits (issue 12: lines were cut)
                t.append(render.card_summary(slug, max(1, width - len(head))),
                         "bold" if slug else "dim")
            return t
        for i, (seat, cards) in enumerate(hands):
            if i:
                t.append("\n")
            t.append(f"{seat} ", f"bold {render.player_colour(seat)}")
            if not cards:
                t.append("(no cards)", "dim")
                continue
            indent = len(seat) + 1
            col = indent
            names = [render.card_name(c) if c else "?" for c in cards]
            for j, name in enumerate(names):
                piece = name + ("," if j < len(names) - 1 else "")
                if j and col + 1 + len(piece) > max(width, indent + 8):
                    t.append("\n" + " " * indent)
                    col = indent
                elif j:
                    t.append(" ")
                    col += 1
                t.append(piece)
                col += len(piece)
        return t

    def on_resize(self) -> None:
        """Wrap the hands again for the new width."""
        if self.hands:
            self.update(self.hands_text(self.content_region.width or self.size.width))


class StackPanel(Static):
    """The pending attack and the counteractions played on it."""

    ascii_only = False
    """Draw the answers' arrows as ``->``."""

    def show(self, view: View, playable: set[str] | None = None) -> None:
        """Draw ``view.stack``; the panel is hidden when nothing is pending. With
        ``playable`` (the cards with a legal play now) and the viewer to answer, a last line
        names the cards he may answer with and their keys (:func:`render.answer_keys`)."""
        lines = render.stack_lines(view, self.ascii_only)
        keys = render.answer_keys(view, playable) if playable is not None else None
        if lines and keys is not None:
            lines.append(keys)
        self.display = bool(lines)
        t = Text()
        for i, line in enumerate(lines):
            if i:
                t.append("\n")
            t.append_text(line)
        self.update(t)
        mine = bool(view.stack) and view.stack[0].to_answer == view.viewer
        self.set_class(mine, "-urgent")

