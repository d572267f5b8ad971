"""The shell's screens and dialogs, for every game: the help frame, choices, the new-game
screen (generated from the ruleset's options schema). (The main menu is
:mod:`wizwar_tui.menu`, kept light for start-up; each game's own screens are in its UI part.)"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Footer, Input, OptionList, Static
from textual.widgets.option_list import Option

from core.engine import Option as GameOption
from core.engine import OptionError
from wizwar_tui import games
from wizwar_tui.menu import TooSmall

__all__ = ["ChoiceScreen", "HelpScreen", "NewGameScreen", "TooSmall"]


class HelpScreen(ModalScreen[None]):
    """The help frame: a game's keys and a short summary of its rules, in a scrollable box
    (the text is the UI part's :meth:`~wizwar_tui.gameui.GameUI.help_text`; ``game`` "" is
    the default game; ``ascii_only``: the text drawn with ASCII glyphs; ``text``: another
    text to show in the same box, e.g. everything about one square)."""

    BINDINGS = [Binding("escape,q,question_mark,s", "dismiss", "Close"),
                Binding("j", "scroll(1)", "Down", show=False),
                Binding("k", "scroll(-1)", "Up", show=False)]

    def __init__(self, ascii_only: bool = False, game: str = "",
                 text: str | None = None) -> None:
        super().__init__()
        self.ascii_only = ascii_only
        self.game = game
        self.text = text

    def compose(self) -> ComposeResult:
        """The help text in a scrollable box."""
        with VerticalScroll(id="help-box", classes="dialog"):
            text = self.text if self.text is not None else games.ui(self.game).help_text(
                self.ascii_only, getattr(self.app, "HAS_MENU", True))
            yield Static(text, id="help-text", markup=self.text is None)
        yield TooSmall()

    def action_dismiss(self, result: Any = None) -> None:  # type: ignore[override]
        """Close the help."""
        self.dismiss(None)

    def action_scroll(self, delta: int) -> None:
        """j/k: scroll the text (the arrows do it too)."""
        self.query_one("#help-box").scroll_relative(y=delta, animate=False)


class ChoiceScreen(ModalScreen[Any]):
    """Pick one of several options (returns its value, or ``None`` on Esc).

    With ``filterable`` an input above the list narrows the options as you type.
    ``preselect``: the option highlighted at first (None: none, so Enter chooses nothing
    until an arrow key or the filter highlights one).
    """

    CSS_PATH = "dialogs.tcss"  # loaded when first opened (start-up: only wizwar.tcss)

    BINDINGS = [
        Binding("escape", "cancel", "Cancel"),
        Binding("down", "cursor(1)", "Down", show=False),
        Binding("up", "cursor(-1)", "Up", show=False),
    ]

    def __init__(self, title: str, options: list[tuple[str, Any]],
                 filterable: bool = False, preselect: int | None = 0) -> None:
        super().__init__()
        self.preselect = preselect
        self.title_text = title
        self.options = options
        self.filterable = filterable
        self.shown: list[tuple[str, Any]] = list(options)
        #: characters typed for the filter before it could take them (the screen that
        #: opened this one hands them over: :meth:`take_early`)
        self.typed: list[str] = []

    def compose(self) -> ComposeResult:
        """Title, optional filter input, the option list."""
        with Vertical(id="choice-box", classes="dialog"):
            yield Static(self.title_text, id="choice-title")
            if self.filterable:
                yield Input(placeholder="type to filter, Enter to choose", id="choice-filter")
            yield OptionList(*[Option(label) for label, _ in self.options], id="choice-list")
            yield Static(self.HINT, classes="hint", id="choice-hint")
        yield TooSmall()

    HINT = "↑↓ choose · Enter confirm · Esc cancel"

    def update_more(self, *_: object) -> None:
        """The hint line says when options lie above or below what the list shows (a
        fresh user missed the last actions below the fold; issue 12)."""
        ol = self.query_one(OptionList)
        below = ol.virtual_size.height - ol.scroll_offset.y > ol.scrollable_content_region.height
        above = ol.scroll_offset.y > 0
        signs = [s for s, on in (("more above ↑", above), ("more below ↓", below)) if on]
        self.query_one("#choice-hint", Static).update(
            self.HINT + (f" · {len(self.shown)} in all, " + ", ".join(signs) if signs else ""))

    def on_mount(self) -> None:
        """Focus the filter or the list."""
        ol = self.query_one(OptionList)
        if self.options and self.preselect is not None:
            ol.highlighted = min(self.preselect, len(self.options) - 1)
        else:
            ol.highlighted = None  # (an OptionList highlights its first option when made)
        if self.filterable:
            inp = self.query_one(Input)
            self.set_focus(inp)  # now: the keys queued behind this one are for it
            if self.typed:  # typed before the filter was there (issue 12)
                inp.value = "".join(self.typed) + inp.value
                inp.cursor_position = len(inp.value)
                self.typed.clear()
        else:
            ol.focus()
        self.watch(ol, "scroll_y", self.update_more, init=False)
        self.watch(ol, "virtual_size", self.update_more, init=False)
        self.call_after_refresh(self.update_more)

    def take_early(self, ch: str) -> None:
        """A character typed for the filter that reached the screen below (it was typed
        right after the key that opened this one): into the filter, in order."""
        inp = self.query(Input).first() if self.filterable else None
        if inp is not None and self.is_mounted and self.focused is inp:
            inp.insert_text_at_cursor(ch)
        else:
            self.typed.append(ch)

    def on_resize(self) -> None:
        """The window changed: what the list shows too."""
        self.call_after_refresh(self.update_more)

    def on_input_changed(self, event: Input.Changed) -> None:
        """Narrow the options to those containing every typed word."""
        words = event.value.lower().split()
        self.shown = [(lab, v) for lab, v in self.options
                      if all(w in lab.lower() for w in words)]
        ol = self.query_one(OptionList)
        ol.clear_options()
        ol.add_options([Option(lab) for lab, _ in self.shown])
        if self.shown and (words or self.preselect is not None):
            ol.highlighted = 0 if words else min(self.preselect or 0, len(self.shown) - 1)
        else:
            ol.highlighted = None
        self.call_after_refresh(self.update_more)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter in the filter chooses the highlighted option."""
        event.stop()
        ol = self.query_one(OptionList)
        if ol.highlighted is not None and self.shown:
            self.dismiss(self.shown[ol.highlighted][1])

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Enter (or a click) on an option chooses it."""
        event.stop()
        self.dismiss(self.shown[event.option_index][1])

    def action_cursor(self, delta: int) -> None:
        """Move the highlight (used while the filter input has focus)."""
        ol = self.query_one(OptionList)
        if not self.shown:
            return
        if ol.highlighted is None:  # nothing highlighted yet: the first arrow picks the first
            ol.highlighted = 0
            return
        cur = ol.highlighted
        ol.highlighted = max(0, min(len(self.shown) - 1, cur + delta))

    def action_cancel(self) -> None:
        """Close without choosing."""
        self.dismiss(None)



SHELL_ROWS = ("seed", "start")
SEED_MAX = 2**64 - 1  # as ``wizwar play --seed`` (a log stores it as a msgpack uint 64)
"""The new-game screen's own lines besides the options (and a ``bot:SEAT`` line per bot)."""


def cut_at_word(text: str, room: int) -> str:
    """``text`` when it has at most ``room`` characters, else its words that fit with
    ``…`` after them (never a word cut in two; a first word too long is cut)."""
    if len(text) <= room:
        return text
    head = text[:room - 1]
    if text[room - 1] != " " and " " in head:
        head = head.rsplit(" ", 1)[0]
    return head.rstrip(" ;,:·/(") + "…"


class NewGameScreen(Screen[None]):
    """A game against bots with every option of the game's schema (``ruleset.options``): the
    first option (the table size in every game so far), the seed (blank: a random one from
    the OS, shown in the game's header), the other options, each bot's level
    (``ruleset.bot_levels``), then "Start the game".

    An ``int`` with choices or a ``choice`` option is a selector, a ``bool`` an on/off
    toggle; labels come from the schema, hints from the game's UI part
    (:meth:`~wizwar_tui.gameui.GameUI.option_note`, the schema's help by default). An option
    the ruleset refuses with the earlier lines' values (its ``OptionError``) is shown dimmed
    at its default with the reason, and is left at its default when the game starts.

    Keys: ↑↓ choose a line, ←→ (or h l, space) change it, digits type the seed (Backspace
    erases, ``r`` draws a random one now), Enter on the last line or ``s`` starts.
    """

    CSS_PATH = ["dialogs.tcss", "lan.tcss"]  # loaded when first opened (start-up: only wizwar.tcss)

    BINDINGS = [
        Binding("escape,q", "back", "Back"),
        Binding("s", "start", "Start"),
        Binding("left,h", "change(-1)", "Change", show=False),
        Binding("right,l,space", "change(1)", "Change"),
        Binding("r", "random_seed", "Random seed", show=False),
        Binding("backspace", "seed_back", "Erase", show=False),
        Binding("j", "move(1)", "Down", show=False),
        Binding("k", "move(-1)", "Up", show=False),
    ]

    def __init__(self, game: str = "", seed: str = "", values: Mapping[str, Any] | None = None,
                 levels: Mapping[str, str] | None = None) -> None:
        super().__init__()
        self.game = game
        self.ui = games.ui(game)
        self.ruleset = self.ui.ruleset()
        self.schema = self.ruleset.options
        clash = [n for n in self.schema.names() if n in SHELL_ROWS or n.startswith("bot:")]
        if clash:
            raise ValueError(f"option {clash[0]!r} clashes with a line of the new-game screen")
        self.values: dict[str, Any] = self.schema.defaults()  # as chosen (see effective())
        self.values.update({k: self.schema[k].coerce(v) for k, v in (values or {}).items()})
        self.seed_text = seed
        self.levels: dict[str, str] = dict(levels or {})
        self.message = ""

    def compose(self) -> ComposeResult:
        """Title, the option lines, a message line and the keys."""
        title = ("New game against bots" if len(games.names()) == 1
                 else f"New game of {self.ui.title} against bots")
        with Vertical(id="newgame-box", classes="dialog lan-box"):
            yield Static(title, classes="lan-title")
            yield OptionList(id="newgame-list")
            yield Static(id="newgame-about", classes="hint")
            yield Static(id="newgame-msg", classes="lan-error")
            yield Static("↑↓ choose · ←→/Enter change · digits: seed · r random · "
                         "s start · Esc back", classes="hint")
        yield Footer()
        yield TooSmall()

    def on_mount(self) -> None:
        """Draw the lines and focus them."""
        self.draw()
        ol = self.query_one("#newgame-list", OptionList)
        ol.highlighted = 0
        ol.focus()
        self.call_after_refresh(self.draw)  # the hints for the laid-out width

    # ------------------------------------------------------------------ model
    def _check(self, values: Mapping[str, Any]) -> str:
        """"" when the ruleset accepts ``values``, else its reason in words."""
        try:
            self.schema.validate(values)
        except OptionError as exc:
            return str(exc)
        return ""

    def effective(self) -> dict[str, Any]:
        """The options as the game would start: each option in schema order keeps its chosen
        value when the ruleset accepts it with the earlier ones (the later ones at their
        defaults), else its default."""
        out = self.schema.defaults()
        for o in self.schema:
            trial = dict(out)
            trial[o.name] = self.values[o.name]
            if not self._check(trial):
                out = trial
        return out

    def _alternatives(self, o: GameOption) -> list[Any]:
        """The values option ``o`` can be set to other than its default (for the check)."""
        if o.kind == "bool":
            return [not o.default]
        if o.choices:
            return [c for c in o.choices if c != o.default]
        if o.kind == "int":
            return [v for v in (o.default - 1, o.default + 1)
                    if (o.lo is None or v >= o.lo) and (o.hi is None or v <= o.hi)]
        return []

    def refused(self, name: str) -> str:
        """"" when option ``name`` can be set now, else why not (the ruleset's words): no
        other value is accepted with the earlier options' values."""
        o = self.schema[name]
        eff = self.effective()
        before = self.schema.defaults()
        for other in self.schema:
            if other.name == name:
                break
            before[other.name] = eff[other.name]
        alts = self._alternatives(o)
        reasons = [self._check({**before, name: v}) for v in alts]
        if not alts or any(not r for r in reasons):
            return ""
        return reasons[0]

    def applies(self, key: str) -> str:
        """"" when line ``key`` can be changed now, else why not (short, from the UI part)."""
        if key not in self.schema.names():
            return ""
        why = self.refused(key)
        return self.ui.option_note(key, self.effective(), why) if why else ""

    def rows(self) -> list[str]:
        """The keys of the lines, top to bottom."""
        names = self.schema.names()
        return [*names[:1], "seed", *names[1:],
                *[f"bot:{s}" for s in self.bot_seats()], "start"]

    def bot_seats(self) -> list[str]:
        """The seats the bots play (every seat but the first, which is the human's)."""
        return self.ruleset.seats(self.effective())[1:]

    def level(self, seat: str) -> str:
        """The bot level chosen for ``seat`` (the ruleset's default first)."""
        levels = self.ruleset.bot_levels
        return self.levels.get(seat, levels[0] if levels else "")

    def seed(self) -> int | None:
        """The typed seed (``None``: blank, a random one)."""
        return int(self.seed_text) if self.seed_text else None

    def options(self) -> dict[str, Any]:
        """The validated options map the game starts with (:meth:`effective`)."""
        return self.schema.validate(self.effective())

    def bot_levels(self) -> dict[str, str]:
        """The level of each bot seat."""
        return {s: self.level(s) for s in self.bot_seats()} if self.ruleset.bot_levels else {}

    HINT_AT = 34
    """The column a line's hint starts in (after the label and the value)."""
    HINT_ROOM = 24
    """The fewest columns the hints get beside the values; a narrower list has no hint
    column (the highlighted line's hint is under the list, ``#newgame-about``)."""

    def hint(self, key: str) -> str:
        """What line ``key`` means (its value's consequence, or why it cannot change)."""
        if key == "start":
            return "start with these options (s)"
        why = self.applies(key)
        eff = self.effective()
        if key.startswith("bot:"):
            seat = key[4:]
            levels = self.ruleset.bot_levels
            hint = " / ".join(levels) if len(levels) > 1 else "the only level so far"
            return self.ui.seat_note(seat, eff) + hint
        if key == "seed":
            return "type digits; blank: a random one"
        return why or self.ui.option_note(key, eff)

    LIST_ROWS = 12
    """The most lines the list shows without scrolling (``#newgame-list``'s max-height
    in dialogs.tcss less its border)."""

    def hint_room(self, width: int) -> int:
        """The columns a hint has in a list ``width`` wide (0: no limit; -1: none, the
        list is too narrow for a hint column). A list that scrolls keeps two for its bar."""
        if not width:
            return 0
        bar = 2 if len(self.rows()) > self.LIST_ROWS else 0
        room = width - self.HINT_AT - 1 - bar
        return room if room >= self.HINT_ROOM else -1

    def line(self, key: str, width: int = 0) -> Text:
        """One line: label, value, hint. ``width`` (0: no limit) is the list's: a hint
        longer than its column is cut at a word with ``…`` (the highlighted line's is
        under the list in full, :meth:`draw_about`); a list too narrow for the column
        (:meth:`hint_room`) has no hints on its lines."""
        t = Text(no_wrap=True, overflow="ellipsis")
        if key == "start":
            t.append("  Start the game", "bold green")
            return t
        why = self.applies(key)
        eff = self.effective()
        if key.startswith("bot:"):
            label, value = f"{key[4:]} bot", self.level(key[4:])
        elif key == "seed":
            label = "Seed"
            value = self.seed_text or "random"
        else:
            o = self.schema[key]
            label = o.label
            x = eff[key]
            value = ("on" if x else "off") if o.kind == "bool" else str(x)
        style = "dim" if why else ""
        t.append(f"  {label:<15}", style or "bold")
        shown = f"< {value} >" if not why else f"  {value}  "
        t.append(f"{shown:<16}", style or "bold #5fd7ff")
        room = self.hint_room(width)
        if room < 0:
            return t
        t.append(f" {cut_at_word(self.hint(key), room) if room else self.hint(key)}", "dim")
        return t

    def list_width(self) -> int:
        """The columns an option line of the list has (0 before the first layout)."""
        ol = self.query_one("#newgame-list", OptionList)
        return max(ol.content_region.width, 0)

    def draw(self) -> None:
        """Redraw the lines (keeping the highlight), the message, and under the list the
        highlighted line's hint when a line's hint is cut or the list has no hint column."""
        ol = self.query_one("#newgame-list", OptionList)
        at = ol.highlighted or 0
        ol.clear_options()
        rows = self.rows()
        width = self.list_width()
        ol.add_options([Option(self.line(k, width), id=k) for k in rows])
        ol.highlighted = min(at, len(rows) - 1)
        self.query_one("#newgame-msg", Static).update(self.message)
        self.draw_about()

    def draw_about(self) -> None:
        """The highlighted line's hint in full under the list, when some line's hint is
        cut or the list is too narrow for hints (the same rows stay shown while moving)."""
        about = self.query_one("#newgame-about", Static)
        room = self.hint_room(self.list_width())
        about.display = room < 0 or (room > 0 and any(
            len(self.hint(k)) > room for k in self.rows() if k != "start"))
        if about.display:
            key = self.current()
            label = self.line(key).plain[2:2 + 15].strip()
            about.update(Text(f"{label}: {self.hint(key)}", "dim"))

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        """A narrow list: the hint under it follows the highlight."""
        self.draw_about()

    def on_resize(self) -> None:
        """The window changed: the hints wrap, or go under the list, for the new width."""
        self.call_after_refresh(self.draw)

    def current(self) -> str:
        """The key of the highlighted line."""
        ol = self.query_one("#newgame-list", OptionList)
        rows = self.rows()
        return rows[ol.highlighted] if ol.highlighted is not None else rows[0]

    # ------------------------------------------------------------------ keys
    def action_change(self, delta: int) -> None:
        """Change the highlighted line by one step."""
        key = self.current()
        self.message = ""
        why = self.applies(key)
        if why:
            self.message = f"{self.schema[key].label}: {why}"
        elif key.startswith("bot:"):
            seat = key[4:]
            levels = list(self.ruleset.bot_levels)
            if levels:
                cur = levels.index(self.level(seat)) if self.level(seat) in levels else 0
                self.levels[seat] = levels[(cur + delta) % len(levels)]
        elif key == "seed":
            self.message = "Type the seed's digits (Backspace erases, r draws one)"
        elif key in self.schema.names():
            self.step_option(self.schema[key], delta)
        self.draw()

    def step_option(self, o: GameOption, delta: int) -> None:
        """Option ``o`` one step on: a bool toggles, a closed list cycles, an int counts
        within its bounds (a text option is not set here: the message says so)."""
        x = self.values[o.name]
        if o.kind == "bool":
            self.values[o.name] = not x
        elif o.choices:
            items = list(o.choices)
            cur = items.index(x) if x in items else 0
            self.values[o.name] = items[(cur + delta) % len(items)]
        elif o.kind == "int":
            v = x + delta
            if (o.lo is None or v >= o.lo) and (o.hi is None or v <= o.hi):
                self.values[o.name] = v
        else:
            where = self.ui.edit_option(self.app, o.name)
            if where:
                self.message = f"{o.label}: {where}"

    def action_move(self, delta: int) -> None:
        """j/k: the next/previous line."""
        ol = self.query_one("#newgame-list", OptionList)
        ol.highlighted = max(0, min(len(self.rows()) - 1, (ol.highlighted or 0) + delta))

    def action_random_seed(self) -> None:
        """Draw a random seed from the OS now, to see it before the game."""
        from wizwar_tui.app import new_seed

        self.seed_text = str(new_seed())
        self.draw()

    def action_seed_back(self) -> None:
        """Erase the seed's last digit."""
        self.seed_text = self.seed_text[:-1]
        self.draw()

    def on_key(self, event: events.Key) -> None:
        """Digits type the seed: 0 to 2**64-1, as on the command line (a digit that would go
        past it is refused with a word, not dropped silently)."""
        if event.character is not None and event.character.isdigit():
            event.stop()
            event.prevent_default()
            text = (self.seed_text + event.character).lstrip("0") or "0"
            if int(text) > SEED_MAX:
                self.message = f"A seed is a whole number from 0 to {SEED_MAX}"
            else:
                self.seed_text = text
                self.message = ""
            self.draw()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Enter: start on the last line, change the option elsewhere."""
        event.stop()
        if event.option.id == "start":
            self.action_start()
        elif event.option.id != "seed":
            self.action_change(1)

    def action_start(self) -> None:
        """Start the game with these options."""
        self.app.start_game(game=self.game, options=self.options(),  # type: ignore[attr-defined]
                            seed=self.seed(), levels=self.bot_levels())

    def action_back(self) -> None:
        """Back to the menu."""
        self.dismiss(None)
