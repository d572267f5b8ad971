"""Wiz-War's own screens: the help text, card text, the Cards screen, game over. (The
shell's help frame, choices and new-game screen are :mod:`wizwar_tui.screens`.)"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.css.query import NoMatches
from textual.screen import ModalScreen, Screen
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from core.wizwar.cards import BY_SLUG, CARDS, CardDef, source_words
from wizwar_tui.menu import TooSmall
from wizwar_tui.wizwar import DECK_NOTE, render


def board_legend(ascii_only: bool = False) -> str:
    """What the board's glyphs mean, drawn with the glyphs of the mode in use."""
    g = render.board_glyphs(ascii_only)
    h, v = g["h"], g["v"]
    return (f"{h['wall'][0]}{v['wall']} walls · {h['door']} {v['door']} doors (locked; Pick "
            f"Lock opens them) · {h['wall-of-fire']} wall of fire · {h['illusion-wall']} "
            f"illusion wall · gaps in the rim are exits to the opposite edge · "
            f"{g['home']}N home base of player N · {g['spot']} treasure circle · "
            f"{g['treasure']}N treasure of player N · {g['bush']} thornbush · "
            f"{g['stone']} stone block · {g['dagger']} dagger · {g['large-rock']} large rock · "
            f"a square ending in {render.MORE} holds more than it shows (the line under the "
            "board lists all). "
            f"Reachable squares (you can walk there now) show {g['reach']} and are green; "
            f"the targets of a card you aim are in brackets {g['target'][0]} "
            f"{g['target'][1]} and amber. The line under the board describes the square "
            "under the cursor.")


def help_text(ascii_only: bool = False, menu: bool = True) -> str:
    """The help screen's text (keys and a short summary of the rules); ``menu`` False: the
    app has no main menu (an SSH session), so ``q`` leaves the game and ends the session."""
    g = render.board_glyphs(ascii_only)
    q_key = ("q             back to the menu" if menu
             else "q             leave (ends the session)")
    return f"""\
[b]Wiz-War[/b] — you are the wizard whose number is shown as "you" in the players panel (P1 against bots; on a LAN, the seat the host gave you).

[b]Goal[/b]  Bring two enemy treasures ({g['treasure']} with the owner's digit) to your home base ({g['home']}), or be the last wizard alive. Each turn: walk up to 3 squares (more with a boost), attack once, play cards, then end the turn to draw. Team play (4 players): P1+P3 against P2+P4; three enemy treasures on your team's home bases win.

[b]The board[/b]  {board_legend(ascii_only)}

[b]Players panel[/b]  life, cards in hand, what the wizard carries ({g['treasure']}P4's treasure 2) and his displayed cards in brackets. A narrow panel says them shorter: {g['treasure']}P4's (P4's treasure), [Powerstone,+2] (two more displayed), [+3] (three displayed); [b]i[/b] lists every displayed card in full. The line under a player: his lost turns and the effects on him with the turns they last.

[b]Keys[/b] (all plain keys: no Alt, no function keys, no mouse)
  arrows, hjkl  move the cursor
  m, Enter      walk to the cursor's square (or aim at it)
  1-9           play card N of the hand (10 cards or more: two digits,
                1 2 plays card 12; 1 alone selects card 1, Enter plays it)
  , .           select a card        c  play the selected card
  x             discard the selected card
  i             card text: the selected card and every card in sight
                (hand, stack, cursor's square, displayed, conditions)
  s             the square under the cursor in full (its lines may be cut)
  C             the Cards screen: the whole deck, filter by kind
  b p g d       boost movement · punch · pick up · drop
  e             end the turn
  space, n      pass (do not answer an attack)
  a             every legal action, in a menu (type to filter; the
                end of the turn last, end draw 1/0 draw fewer)
  :             command line: notation, e.g. [i]play fireball @P2 +4[/i]
  Tab           narrow windows: the board or the panels
  Esc           cancel, or clear a message   ?  this help
  {q_key}
  ctrl+q        quit (asks during a game; again: at once)

Playing a card: press its number, put the cursor on the target (amber squares, in brackets) and press Enter; then pick a number card (+N) or none when asked. A side (wall, door) target is chosen from a list after Enter on the square next to it. When someone attacks you, the stack panel turns red: play a counteraction (its number) or pass with space. Keys pressed while bots act are dropped; in a LAN game, keys pressed while your last action is on its way to the host are kept and done in order when it answers.

{DECK_NOTE}
"""


HELP_TEXT = help_text()
"""The help text with the Unicode board glyphs."""


#: What a card's targeting code means, in words (cards.md §1.2); ``|`` joins two ways.
TARGET_WORDS = {
    "los:player": "a wizard in your line of sight",
    "los:square": "a square in your line of sight",
    "los:side": "a wall or door side in your line of sight",
    "los:target": "a wizard, wall, door or thornbush in your line of sight",
    "same:player": "a wizard in your own square",
    "same": "your own square",
    "adjacent": "your square or one next to it",
    "door": "a door on a side of your own square",
    "self": "you",
    "any-player": "any wizard on the board (no line of sight needed)",
    "any-square": "any square on the board (no line of sight needed)",
    "sector": "a whole sector of the board",
    "spell": "a spell being cast",
    "the drawer": "the player who draws it",
    "none": "no target",
    "-": "no target",
}

#: What a card does with a number card played with it (cards.md §1.3).
NUMBER_WORDS = {
    "power": "points of damage",
    "duration": "how many of the target's turns it lasts",
    "distance": "squares of movement",
    "count": "how many things",
    "modifier": "the amount it adds or takes away",
    "spell": "the number of the spell it answers",
    "none": "none (a number card cannot be added)",
    "-": "it is a number card: boosts movement or gives a card its number",
}


def target_words(code: str) -> str:
    """A targeting code of the card data (``los:player``, ``same:player|los:player``) in
    words; an unknown code is shown as it is."""
    return " or ".join(TARGET_WORDS.get(part, part) for part in code.split("|"))


def plural(n: int, word: str) -> str:
    """``1 kind``, ``2 kinds``."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def card_text(slug: str) -> Text:
    """The full text of card ``slug``: name, kind, target, number use, spell or not, what
    it does, the rule source and the copies in the deck."""
    cd = BY_SLUG.get(slug)
    t = Text()
    if cd is None:
        t.append(render.card_name(slug), "bold")
        t.append("\n\n(not a card of the deck)", "dim")
        return t
    t.append(f"{cd.name}\n", "bold")
    t.append(f"kind     {cd.kind}\n")
    t.append(f"target   {target_words(cd.target)}\n")
    t.append(f"number   {NUMBER_WORDS.get(cd.number, cd.number)}\n")
    t.append(f"spell    {'yes' if cd.spell else 'no'}"
             f"{' · physical' if cd.physical else ''}\n\n")
    t.append(cd.text + "\n\n")
    t.append(f"source: {source_words(cd.source)}", "dim")
    t.append(f"\ncopies in the deck: {cd.count}", "dim")
    return t


def card_label(cd: CardDef) -> str:
    """A deck list line: ``3x Fireball``, ``12x Number 2``."""
    return f"{cd.count:>2}x {render.card_title(cd.slug)}"


class CardScreen(ModalScreen[None]):
    """The full text and rule source of a card. With ``refs`` (see
    :func:`render.cards_in_sight`), a list of every card in sight on the left (the hand,
    the stack, the square under the cursor, displayed cards...), ↑↓ choosing which one
    is shown; it opens on ``slug``."""

    CSS_PATH = "../dialogs.tcss"  # loaded when first opened (start-up: only wizwar.tcss)

    BINDINGS = [Binding("escape,q,i,enter", "close", "Close")]

    def __init__(self, slug: str, refs: list[render.CardRef] | None = None) -> None:
        super().__init__()
        self.slug = slug
        self.refs: list[render.CardRef] = list(refs or [])
        self.rows: list[int] = []  # option index -> refs index (-1: a group title)

    def compose(self) -> ComposeResult:
        """The list of cards in sight (if several) and the card's text."""
        with Vertical(id="card-box", classes="dialog"):
            with Horizontal(id="card-split"):
                options: list[Option] = []
                group = None
                for i, (grp, slug, note) in enumerate(self.refs):
                    if grp != group:
                        group = grp
                        options.append(Option(Text(grp, "bold"), disabled=True))
                        self.rows.append(-1)
                    if grp == "Your hand" and note.startswith("card "):
                        label = f" {note[5:]} {render.card_title(slug)}"
                    else:
                        label = f" {render.card_title(slug)}" + (f" · {note}" if note else "")
                    options.append(Option(label))
                    self.rows.append(i)
                yield OptionList(*options, id="card-list")
                with VerticalScroll(id="card-scroll"):
                    yield Static(card_text(self.slug), id="card-text")
            yield Static("↑↓ other cards in sight · Esc closes" if len(self.refs) > 1
                         else "Esc closes", classes="hint")
        yield TooSmall()

    def on_mount(self) -> None:
        """Highlight the card shown; hide the list when there is only one card."""
        ol = self.query_one("#card-list", OptionList)
        if len(self.refs) <= 1:
            ol.display = False
            self.set_focus(None)
            return
        self.set_class(True, "-with-list")
        start = next((k for k, i in enumerate(self.rows)
                      if i >= 0 and self.refs[i][1] == self.slug), None)
        if start is None:
            start = next(k for k, i in enumerate(self.rows) if i >= 0)
        ol.highlighted = start
        ol.focus()

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        """Show the highlighted card."""
        event.stop()
        i = self.rows[event.option_index] if event.option_index < len(self.rows) else -1
        if i >= 0:
            self.slug = self.refs[i][1]
            self.query_one("#card-text", Static).update(card_text(self.slug))
            self.query_one("#card-scroll").scroll_home(animate=False)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Enter closes."""
        event.stop()
        self.dismiss(None)

    def action_close(self) -> None:
        """Close the card."""
        self.dismiss(None)


KINDS: tuple[str, ...] = ("attack", "neutral", "neutral/counteraction", "counteraction",
                          "object", "magic stone", "trap", "number")
"""The card kinds in the order the Cards screen filters them (cards.md §2)."""

KIND_SHORT = {"neutral/counteraction": "neutral/counter", "counteraction": "counter",
              "magic stone": "stone"}


NARROW_KIND = {"neutral/counteraction": "neut/ctr", "counteraction": "counter",
               "magic stone": "stone", "neutral": "neutral"}
"""The kinds in the fewest letters, for the Cards screen's key legend on narrow windows."""


class CardsScreen(ModalScreen[None]):
    """The whole deck: every card kind with its copies, its full text and rule source,
    browsed with ↑↓ and filtered by kind (``f`` next kind, ``F`` previous, ``0`` all,
    ``1``-``8`` a kind). Opens from the main menu and from a game (``C``)."""

    CSS_PATH = "../dialogs.tcss"  # loaded when first opened (start-up: only wizwar.tcss)

    BINDINGS = [
        Binding("escape,q", "close", "Close"),
        Binding("f,tab", "kind(1)", "Next kind"),
        Binding("F,shift+tab", "kind(-1)", "Prev kind", show=False),
        Binding("0", "kind_at(0)", "All", show=False),
        *[Binding(str(i + 1), f"kind_at({i + 1})", kind, show=False)
          for i, kind in enumerate(KINDS)],
        Binding("j", "move(1)", "Down", show=False),
        Binding("k", "move(-1)", "Up", show=False),
    ]

    def __init__(self, kind: str = "") -> None:
        super().__init__()
        self.kind = kind  # "" = every kind
        self.shown: list[CardDef] = []

    def compose(self) -> ComposeResult:
        """Title, the kind filter, the list and the text of the highlighted card."""
        with Vertical(id="cards-box", classes="dialog"):
            yield Static(id="cards-title")
            yield Static(id="cards-kinds")
            with Horizontal(id="cards-split"):
                yield OptionList(id="cards-list")
                with VerticalScroll(id="cards-scroll"):
                    yield Static(id="cards-text")
            yield Static("↑↓ browse · f/Tab next kind · 0 all · 1-8 a kind · Esc closes",
                         classes="hint")
        yield Footer()
        yield TooSmall()

    def on_mount(self) -> None:
        """Fill the list."""
        self.fill()
        if self._list() is not None:
            self.query_one("#cards-list", OptionList).focus()

    def _list(self) -> OptionList | None:
        """The list of cards, or None when the screen has no children (yet, or any more: keys
        typed ahead in a burst, ``c17``, can close or replace it before it is first shown)."""
        try:
            return self.query_one("#cards-list", OptionList)
        except NoMatches:
            return None

    def fill(self) -> None:
        """Show the cards of the chosen kind (all with ``kind`` ""); nothing when the screen
        is not (or no longer) built."""
        self.shown = [c for c in CARDS if not self.kind or c.kind == self.kind]
        ol = self._list()
        if ol is None:
            return
        ol.clear_options()
        ol.add_options([Option(card_label(c)) for c in self.shown])
        t = Text()
        order = ("", *KINDS)
        if self.app.has_class("-narrow") or self.app.size.width < 110:  # the row would wrap
            # the chosen kind, then every key's kind in short (the bare "0-8 a kind" had no
            # legend; issue 12)
            t.append(f"[{order.index(self.kind)} {self.kind or 'all'}]", "bold reverse")
            t.append(" · keys: " + " ".join(
                f"{i} {NARROW_KIND.get(kind, kind) or 'all'}" for i, kind in enumerate(order)),
                "dim")
        else:
            for i, kind in enumerate(order):
                label = f"{i} {KIND_SHORT.get(kind, kind) or 'all'}"
                t.append(f"[{label}]" if kind == self.kind else f" {label} ",
                         "bold reverse" if kind == self.kind else "dim")
                t.append(" ")
        self.query_one("#cards-kinds", Static).update(t)
        copies = sum(c.count for c in self.shown)
        what = f"{self.kind} cards" if self.kind else "the whole deck"
        self.query_one("#cards-title", Static).update(Text.assemble(
            ("Cards", "bold #ffd75f"), f" · {what}: {plural(len(self.shown), 'kind')}, {plural(copies, 'card')}",
            ("" if self.kind else " (124 with two players)", "dim")))
        if self.shown:
            ol.highlighted = 0
            self.show_card(0)

    def show_card(self, index: int) -> None:
        """Show the text of the ``index``-th card listed."""
        if 0 <= index < len(self.shown):
            self.query_one("#cards-text", Static).update(card_text(self.shown[index].slug))
            self.query_one("#cards-scroll").scroll_home(animate=False)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        """The highlighted card's text."""
        event.stop()
        self.show_card(event.option_index)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Enter: nothing more to open (the text is already shown)."""
        event.stop()

    def action_kind(self, delta: int) -> None:
        """The next (or previous) kind filter."""
        order = ("", *KINDS)
        self.kind = order[(order.index(self.kind) + delta) % len(order)]
        self.fill()

    def action_kind_at(self, index: int) -> None:
        """Filter by kind ``index`` (0: all, then :data:`KINDS`)."""
        self.kind = ("", *KINDS)[index]
        self.fill()

    def action_move(self, delta: int) -> None:
        """j/k: move the highlight."""
        ol = self._list()
        if ol is not None and self.shown:
            ol.highlighted = max(0, min(len(self.shown) - 1, (ol.highlighted or 0) + delta))

    def action_close(self) -> None:
        """Back to where it was opened."""
        self.dismiss(None)


class GameOverScreen(Screen[None]):
    """Who won, how, and the final lives. Keys: new game, menu, quit."""

    CSS_PATH = "../dialogs.tcss"  # loaded when first opened (start-up: only wizwar.tcss)

    BINDINGS = [
        Binding("n", "new_game", "New game"),
        Binding("m", "menu", "Menu"),
        Binding("q", "quit", "Quit"),
    ]

    def __init__(self, winner: str, how: str, view: Any, players: int, seed: int | None,
                 human: str, lan: str = "") -> None:
        super().__init__()
        self.winner = winner
        self.how = how
        self.final = view
        self.players = players
        self.seed = seed
        self.human = human
        self.lan = lan  # "" for a local game, else what to call the LAN game

    def compose(self) -> ComposeResult:
        """The result box."""
        t = Text()
        if self.winner == "-":
            t.append("Nobody wins.\n", "bold")
        elif self.human and self.human in self.winner.split("+"):
            t.append("Your team wins!\n" if "+" in self.winner else "You win!\n", "bold green")
        elif "+" in self.winner:
            t.append(f"Team {self.winner} wins.\n", "bold")
        else:
            t.append(f"{self.winner} wins.\n", f"bold {render.player_colour(self.winner)}")
        how = self.how
        for who in (self.winner, f"team {self.winner}"):  # "P2 wins." said once
            if how.startswith(f"{who} wins"):
                how = how[len(who) + len(" wins"):].lstrip(" :")
                how = how[:1].upper() + how[1:]
        if self.human and self.human in self.winner.split("+"):  # said to the winner
            how = how.replace("his own home base", "your own home base").replace(
                "its home bases", "your team's home bases")
        t.append(f"{how}\n\n")
        for p in self.final.players:
            status = "dead" if not p.alive else ("out" if p.out else f"life {p.life}")
            you = " (you)" if p.seat == self.human else ""
            if self.lan and p.name and p.name != p.seat:
                you = f" {p.name[:16]}{you}"
            seat = p.seat
            if getattr(self.final, "options", {}).get("team"):  # team play: P1/A, P2/B
                seat = f"{p.seat}/{render.team_of(p.seat)}"
            t.append(f"  {seat}{you}", f"bold {render.player_colour(p.seat)}")
            t.append(f"  {status}")
            if p.carrying:
                from core.wizwar.rules import thing_name

                t.append(f"  carrying {thing_name(p.carrying)}")
            t.append("\n")
        where = self.lan if self.lan else f"seed {self.seed}"
        t.append(f"\nround {self.final.round} · {where}", "dim")
        with Vertical(id="over-box", classes="dialog"):
            yield Static("GAME OVER", id="over-title")
            yield Static(t, id="over-text")
            if not getattr(self.app, "HAS_MENU", True):
                hint = "q disconnect"
            elif self.lan:
                hint = "m menu · q quit"
            else:
                hint = "n new game · m menu · q quit"
            yield Static(hint, classes="hint")
        yield Footer()
        yield TooSmall()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """No "new game" after a LAN game (host or join another from the menu); neither
        "new game" nor "menu" where the app has no menu (an SSH session: ``q`` disconnects)."""
        if action in ("new_game", "menu") and not getattr(self.app, "HAS_MENU", True):
            return False
        return not (action == "new_game" and self.lan)

    def action_new_game(self) -> None:
        """Another game with the same number of players and a fresh seed (after a LAN game:
        the menu, to host or join another)."""
        if self.lan:
            self.action_menu()
            return
        self.app.start_again()  # type: ignore[attr-defined]

    def action_menu(self) -> None:
        """Back to the main menu (closing a LAN game)."""
        leave = getattr(self.app, "leave_lan", None)
        if leave is not None:
            leave()
        self.app.show_menu()  # type: ignore[attr-defined]

    async def action_quit(self) -> None:
        """Leave the app."""
        self.app.exit(0)
