"""ArcoMage's other screens: the help text (keys and the rules' terms), the reference of all
64 spells, and the game-over box."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from core.arcomage.data import SPELLS
from wizwar_tui.arcomage import render
from wizwar_tui.screens import TooSmall


def help_text(ascii_only: bool = False, menu: bool = True) -> str:
    """The help frame's text (Rich markup): the keys, how a turn goes, the rules' terms."""
    leave = "q  back to the menu (after asking)" if menu else "q  leave"
    g = render.GLYPHS[ascii_only]
    # every line within 72 columns: the help frame at 80x24 does not wrap them
    return f"""[b]ArcoMage[/b] — a duel of two archmages on a field of 24 hexes

[b]Keys[/b]
  arrows    move the cursor on the field
  Tab       the focus: field → spellbook → actions (below 80 columns:
            the field or the panels, in turn)
  Enter     on the field: choose the hex (a target, where to walk);
            on your wizard or a creature of yours: its walks (green, {g['mark']})
            · in the spellbook: cast the spell
            · in the action list: play the action
  s         the spellbook: every spell with Circle, cost and state
  a         the action list: every action the rules allow now
            (attacks, blocks, choices)
  e         end your MAIN (COMBAT and END follow)
  p, space  pass priority (a spell on the stack, or the combat window)
  i         the full text of the highlighted spell (or of the spell
            on top of the stack)
  S         all 64 spells
  o         the other archmage's spellbook (public, R4/R98): each
            spell's state for him, his Locks, your traps on it
  z         show the enemy's Zones of Control (red, {g['zoc']} {g['zoc']} {g['zoc']})
  :         type an action in the notation: [i]cast firebolt @P2[/i],
            [i]move c1-c2-b2[/i]
  Esc       drop the choice being made
  ?         this help · {leave}

[b]The field[/b]  rows a–e of 4-5-6-5-4 hexes; c3 and c4 are the
  [i]Nexus[/i] (impassable). P1's wizard starts on c1, P2's on c6. A piece
  shows its owner (P1, P2), a wizard his Life ({g['life']}30), a creature
  its Power/Health (red when damage is marked), z summon-sick,
  * conditions. {g['mark']} after a hex's name: the choice being made may
  pick it. The line under the field tells everything about the hex
  under the cursor. In the
  archmages' panel a destroyed building shows X (MX: no Moat).

[b]A turn[/b]  UNTAP, UPKEEP (conditions tick, your Tower fires),
  PRODUCE (workers bring Mana, Wall and corpses), MAIN (cast, walk),
  COMBAT (declare attacks; the rival blocks), END.

[b]Terms[/b]
  Life       30 at the start; at 0 you lose. Damage goes
             Moat → Wall → Tower → Life.
  Mana       pays for spells; unspent mana carries over.
  Ceiling    INT + workers on your Mage Tower (+2 cunning,
             −2 feeblemind, −2 Stone Form): a spell's Circle (I–VIII)
             must be at most this.
  Book       every spell is always open; each may be cast once per
             turn. Unlock and Magic Untrap are in every book.
  Stack      a cast waits on the stack; the rival may answer with an
             instant, then you, … when both pass in a row the top
             resolves ("respond or pass").
  ZoC        a walk that enters a hex next to an enemy creature stops
             there; a piece that starts next to one moves at most
             one hex (R75).
  Traps      Magic Trap rigs a spell of the rival's book: only the
             trapper knows which.
  Wins       the rival's Life at 0, or Army of the Dead, or Star
             Alignment's three stars.
"""


class SpellsScreen(Screen[None]):
    """The reference of all 64 spells: the list (Circle, name, school, cost) and the
    highlighted spell's whole text."""

    DEFAULT_CSS = """
    SpellsScreen #sp-list { width: 46; border: round $primary; }
    SpellsScreen #sp-text { width: 1fr; border: round $panel-line; padding: 0 1; }
    """
    BINDINGS = [Binding("escape,q,S", "close", "Close")]

    def __init__(self) -> None:
        super().__init__()
        self.slugs = sorted(SPELLS, key=lambda s: (SPELLS[s].circle, SPELLS[s].school,
                                                   SPELLS[s].name))

    def compose(self) -> ComposeResult:
        """The list and the text."""
        with Horizontal():
            yield OptionList(*[Option(self.line(s)) for s in self.slugs], id="sp-list")
            with Vertical():
                yield Static(id="sp-text")
        yield Footer(show_command_palette=False)
        yield TooSmall("ArcoMage")

    def line(self, slug: str) -> Text:
        """One spell's line."""
        sp = SPELLS[slug]
        t = Text(no_wrap=True, overflow="ellipsis")
        t.append(f"{render.ROMAN[sp.circle]:>4} ", "bold")
        t.append(f"{sp.name:<24} {sp.school[:5]:<5} {sp.cost:>2}")
        return t

    def on_mount(self) -> None:
        """The first spell's text."""
        self.query_one("#sp-list").border_title = f"All {len(self.slugs)} spells"
        self.query_one("#sp-list", OptionList).highlighted = 0
        self.show(0)
        self.query_one("#sp-list", OptionList).focus()

    def show(self, i: int) -> None:
        """The text of spell ``i`` of the list."""
        if 0 <= i < len(self.slugs):
            self.query_one("#sp-text", Static).update(render.spell_text(self.slugs[i]))

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        """Follow the highlight."""
        self.show(event.option_index)

    def action_close(self) -> None:
        """Back (the book is kept for the next time the builder opens)."""
        BookScreen.last_book = list(self.book)
        self.app.pop_screen()


class GameOverScreen(Screen[None]):
    """Who won and how, the two archmages at the end. Keys: new game, menu, quit, or back
    to the field."""

    DEFAULT_CSS = """
    GameOverScreen { align: center middle; }
    GameOverScreen #over-box { width: 64; height: auto; border: heavy $success; padding: 1 2; }
    """
    BINDINGS = [
        Binding("escape,f", "field", "Look at the field"),
        Binding("n", "new_game", "New game"),
        Binding("m", "menu", "Menu"),
        Binding("q", "quit", "Quit"),
    ]

    def __init__(self, result: Any, view: Any, human: str, seed: int | None,
                 lan: str = "") -> None:
        super().__init__()
        self.result = result
        self.final = view
        self.human = human
        self.seed = seed
        self.lan = lan

    def compose(self) -> ComposeResult:
        """The result box."""
        t = Text()
        r = self.result
        if r.draw:
            t.append("A draw.\n", "bold")
        elif self.human in r.winners:
            t.append("You win!\n", "bold green")
        elif self.human in ("P1", "P2"):
            t.append("You lose.\n", "bold red")
        if r.text:  # "P2 wins: the rival's Life is gone." names the winner itself
            t.append(f"{r.text}\n\n")
        else:
            t.append(f"{', '.join(r.winners)} wins.\n\n", "bold")
        for p in ("P1", "P2"):
            pl = self.final["players"][p]
            t.append(f"  {p}{' (you)' if p == self.human else ''}", render.colour(p) + " bold")
            t.append(f"  Life {pl['life']} · Moat {pl['moat']} · Wall {pl['wall']} · "
                     f"Tower {pl['tower']}\n")
        where = self.lan or f"seed {self.seed}"
        t.append(f"\nturn {self.final['turn']} · {where}", "dim")
        with Vertical(id="over-box"):
            yield Static(Text("GAME OVER", "bold"), id="over-title")
            yield Static(t, id="over-text")
            hint = ("q disconnect" if not getattr(self.app, "HAS_MENU", True) else
                    "Esc the field · m menu · q quit" if self.lan else
                    "Esc the field · n new game · m menu · q quit")
            yield Static(Text(hint, "dim"))
        yield Footer(show_command_palette=False)
        yield TooSmall("ArcoMage")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """No new game after a LAN game; neither new game nor menu without a menu (SSH)."""
        if action in ("new_game", "menu") and not getattr(self.app, "HAS_MENU", True):
            return False
        return not (action == "new_game" and self.lan)

    def action_field(self) -> None:
        """Back to the field (the game stays over)."""
        self.app.pop_screen()

    def action_new_game(self) -> None:
        """Another game like this one with a fresh seed."""
        self.app.start_again()  # type: ignore[attr-defined]

    def action_menu(self) -> None:
        """The main menu (a LAN game is closed)."""
        leave = getattr(self.app, "leave_lan", None)
        if leave is not None:
            leave()
        self.app.show_menu()  # type: ignore[attr-defined]

    async def action_quit(self) -> None:
        """Leave the app."""
        self.app.exit(0)


class BookScreen(Screen[None]):
    """Building one's own book before a game (R25, R26): 20 different spells of the pool,
    at most 6 of Circle V or higher, at most one alternate win; Unlock and Magic Untrap are
    in every book besides. Space toggles a spell, ``t`` loads a starting book, ``c`` clears,
    ``i`` shows a spell's text, ``g`` starts a game with the book (as P1's own, the option
    ``p1_spells``). The status line says what the rules still refuse, in their words."""

    DEFAULT_CSS = """
    BookScreen #bk-list { width: 56; border: round $primary; }
    BookScreen #bk-text { width: 1fr; border: round $panel-line; padding: 0 1; }
    BookScreen #bk-status { height: auto; background: $panel; }
    """
    BINDINGS = [
        Binding("space,enter", "toggle", "Add/remove"),
        Binding("g", "start", "Play with it"),
        Binding("b", "bot", "Bot level"),
        Binding("t", "starting", "A starting book"),
        Binding("c", "clear", "Clear"),
        Binding("escape,q", "close", "Back"),
    ]

    #: the book last built (kept for the next time the builder opens, in this run of the
    #: app) and the bot level last chosen
    last_book: ClassVar[list[str]] = []
    last_level: ClassVar[str] = ""

    def __init__(self, book: list[str] | None = None) -> None:
        super().__init__()
        from core.arcomage.data import BOOKS, RITES
        from core.arcomage.ruleset import RULESET

        self.pool = sorted((s for s in SPELLS if s not in RITES),
                           key=lambda s: (SPELLS[s].circle, SPELLS[s].school, SPELLS[s].name))
        self.book: list[str] = list(book) if book else (
            list(BookScreen.last_book) or list(BOOKS["pale-tower"]))
        self.levels = RULESET.bot_levels
        self.level = BookScreen.last_level or self.levels[0]
        self.starts = list(BOOKS)
        self.start_n = 0
        self.refused = ""  # why ``g`` was refused, on the status line until the next change

    def compose(self) -> ComposeResult:
        """The pool, the highlighted spell's text, the status line."""
        with Horizontal():
            yield OptionList(*[Option(self.line(s)) for s in self.pool], id="bk-list")
            yield Static(id="bk-text")
        yield Static(id="bk-status")
        yield Footer(show_command_palette=False)
        yield TooSmall("ArcoMage")

    def line(self, slug: str) -> Text:
        """One spell of the pool, marked when it is in the book."""
        sp = SPELLS[slug]
        t = Text(no_wrap=True, overflow="ellipsis")
        t.append("[x] " if slug in self.book else "[ ] ", "bold green" if slug in self.book
                 else "dim")
        t.append(f"{render.ROMAN[sp.circle]:>4} ", "bold")
        t.append(f"{sp.name:<24} {sp.school[:6]:<6} {sp.cost:>2}")
        return t

    def on_mount(self) -> None:
        """The first spell's text and the book's state."""
        ol = self.query_one("#bk-list", OptionList)
        ol.highlighted = 0
        ol.focus()
        self.redraw()

    def problem(self) -> str:
        """Why the book is not legal yet (the rules' words), or ``""``."""
        from core.arcomage.data import check_book

        return check_book(self.book)

    def redraw(self) -> None:
        """The list's marks, the text, the status."""
        from core.arcomage.data import ALTERNATE_WINS

        ol = self.query_one("#bk-list", OptionList)
        keep = ol.highlighted
        for i, s in enumerate(self.pool):
            ol.replace_option_prompt_at_index(i, self.line(s))
        ol.highlighted = keep
        high = sum(SPELLS[s].circle >= 5 for s in self.book)
        wins = sum(s in ALTERNATE_WINS for s in self.book)
        t = Text()
        t.append(f" {len(self.book)}/20 spells · Circle V or more {high}/6 · alternate wins "
                 f"{wins}/1 · ", "bold")
        why = self.problem()
        t.append(why or "a legal book: g plays it", "bold red" if why else "bold green")
        t.append(f"\n against the {self.level} bot (b changes)", "")
        if self.refused:  # on the status line, not in a notice over it (80x24)
            t.append(f"\n {self.refused}", "bold reverse")
        self.query_one("#bk-status", Static).update(t)
        ol.border_title = "Your book (space adds or removes)"
        if keep is not None:
            self.query_one("#bk-text", Static).update(render.spell_text(self.pool[keep]))

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        """Follow the highlight."""
        self.query_one("#bk-text", Static).update(render.spell_text(self.pool[event.option_index]))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Enter toggles too."""
        event.stop()
        self.action_toggle()

    def action_toggle(self) -> None:
        """Add the highlighted spell, or take it out."""
        i = self.query_one("#bk-list", OptionList).highlighted
        if i is None:
            return
        s = self.pool[i]
        if s in self.book:
            self.book.remove(s)
        else:
            self.book.append(s)
        self.refused = ""
        self.redraw()

    def action_starting(self) -> None:
        """Load the next starting book (spells.md §2)."""
        from core.arcomage.data import BOOKS

        self.book = list(BOOKS[self.starts[self.start_n % len(self.starts)]])
        self.start_n += 1
        self.refused = ""
        self.redraw()

    def action_bot(self) -> None:
        """The next bot level for ``g``'s game (``ruleset.bot_levels``)."""
        self.level = self.levels[(self.levels.index(self.level) + 1) % len(self.levels)]
        BookScreen.last_level = self.level
        self.redraw()

    def action_clear(self) -> None:
        """An empty book."""
        self.book = []
        self.refused = ""
        self.redraw()

    def action_start(self) -> None:
        """A game against a bot with this book as P1's own; refused in words until legal,
        on the status line (a notice covered the status line and the footer at 80x24)."""
        why = self.problem()
        if why:
            self.refused = f"g: not a legal book yet: {why}"
            self.app.bell()
            self.redraw()
            return
        BookScreen.last_book = list(self.book)
        self.app.start_game(game="arcomage",  # type: ignore[attr-defined]
                            options={"p1_spells": ",".join(self.book)},
                            levels={"P2": self.level})

    def action_close(self) -> None:
        """Back (the book is kept for the next time the builder opens)."""
        BookScreen.last_book = list(self.book)
        self.app.pop_screen()
