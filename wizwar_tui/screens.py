"""Screens and dialogs: main menu, help, card text, choices, game over."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Footer, Input, OptionList, Static
from textual.widgets.option_list import Option

from core.wizwar.cards import BY_SLUG, IMPLEMENTED
from wizwar_tui import render

TITLE_ART = r"""
 __        ___         __        __
 \ \      / (_)____    \ \      / /_ _ _ __
  \ \ /\ / /| |_  /____ \ \ /\ / / _` | '__|
   \ V  V / | |/ /_____| \ V  V / (_| | |
    \_/\_/  |_/___|       \_/\_/ \__,_|_|
"""

DECK_NOTE = (
    f"The full 6th-edition deck: {len(IMPLEMENTED)} kinds, "
    f"{sum(BY_SLUG[s].count for s in IMPLEMENTED)} cards (124 with two players)."
)

HELP_TEXT = f"""\
[b]Wiz-War[/b] — you are the wizard whose number is shown as "you" in the players panel (P1 against bots; on a LAN, the seat the host gave you).

[b]Goal[/b]  Bring two enemy treasures (¤ with the owner's digit) to your home base (⌂), or be the last wizard alive. Each turn: walk up to 3 squares (more with a boost), attack once, play cards, then end the turn to draw.

[b]The board[/b]  ─│ walls · ═║ doors (locked; Pick Lock opens them) · gaps in the rim are exits to the opposite edge · ⌂N home base of player N · ○ treasure circle · ¤N treasure of player N · ♣ thornbush · █ stone block · † dagger · ● large rock. Green squares: where you can walk now. The line under the board describes the square under the cursor.

[b]Keys[/b]
  arrows / hjkl   move the cursor          m or Enter   walk to the cursor square
  1-9             play card N of the hand  , .  select a card   c  play the selected card
  i               full text of the card    b  boost movement    p  punch
  g               pick up                  d  drop              x  discard the selected card
  e               end the turn             space or n   pass (do not answer an attack)
  a               menu of every legal action (type to filter, Enter to do it)
  :               command line: type notation, e.g. [i]play fireball @P2 +4[/i], [i]move c4-d4[/i]
  Esc             cancel                   ?  this help      q  back to the menu

Playing a card: press its number, put the cursor on the target (amber squares) and press Enter; then pick a number card (+N) or none when asked. A side (wall, door) target is chosen from a list after Enter on the square next to it. When a bot attacks you, the stack panel turns red: play a counteraction (its number) or pass with space.

{DECK_NOTE}
"""


class HelpScreen(ModalScreen[None]):
    """Keys and a short summary of the rules."""

    BINDINGS = [Binding("escape,q,question_mark", "dismiss", "Close")]

    def compose(self) -> ComposeResult:
        """The help text in a scrollable box."""
        with VerticalScroll(id="help-box", classes="dialog"):
            yield Static(HELP_TEXT, id="help-text")

    def action_dismiss(self, result: Any = None) -> None:  # type: ignore[override]
        """Close the help."""
        self.dismiss(None)


class CardScreen(ModalScreen[None]):
    """The full text of one card: name, kind, target, number use, text and rule source."""

    BINDINGS = [Binding("escape,q,i,enter", "close", "Close")]

    def __init__(self, slug: str) -> None:
        super().__init__()
        self.slug = slug

    def compose(self) -> ComposeResult:
        """The card as a framed box."""
        cd = BY_SLUG.get(self.slug)
        t = Text()
        if cd is None:
            t.append(self.slug)
        else:
            t.append(f"{cd.name}\n", "bold")
            t.append(f"kind     {cd.kind}\n")
            t.append(f"target   {cd.target}\n")
            t.append(f"number   {cd.number}\n")
            t.append(f"spell    {'yes' if cd.spell else 'no'}"
                     f"{' · physical' if cd.physical else ''}\n\n")
            t.append(cd.text + "\n\n")
            t.append(f"source: {cd.source}", "dim")
            t.append(f"\ncopies in the deck: {cd.count}", "dim")
        with Vertical(id="card-box", classes="dialog"):
            yield Static(t, id="card-text")
            yield Static("Esc closes", classes="hint")

    def action_close(self) -> None:
        """Close the card."""
        self.dismiss(None)


class ChoiceScreen(ModalScreen[Any]):
    """Pick one of several options (returns its value, or ``None`` on Esc).

    With ``filterable`` an input above the list narrows the options as you type.
    """

    BINDINGS = [
        Binding("escape", "cancel", "Cancel"),
        Binding("down", "cursor(1)", "Down", show=False),
        Binding("up", "cursor(-1)", "Up", show=False),
    ]

    def __init__(self, title: str, options: list[tuple[str, Any]],
                 filterable: bool = False) -> None:
        super().__init__()
        self.title_text = title
        self.options = options
        self.filterable = filterable
        self.shown: list[tuple[str, Any]] = list(options)

    def compose(self) -> ComposeResult:
        """Title, optional filter input, the option list."""
        with Vertical(id="choice-box", classes="dialog"):
            yield Static(self.title_text, id="choice-title")
            if self.filterable:
                yield Input(placeholder="type to filter, Enter to choose", id="choice-filter")
            yield OptionList(*[Option(label) for label, _ in self.options], id="choice-list")
            yield Static("↑↓ choose · Enter confirm · Esc cancel", classes="hint")

    def on_mount(self) -> None:
        """Focus the filter or the list."""
        ol = self.query_one(OptionList)
        if self.options:
            ol.highlighted = 0
        if self.filterable:
            self.query_one(Input).focus()
        else:
            ol.focus()

    def on_input_changed(self, event: Input.Changed) -> None:
        """Narrow the options to those containing every typed word."""
        words = event.value.lower().split()
        self.shown = [(lab, v) for lab, v in self.options
                      if all(w in lab.lower() for w in words)]
        ol = self.query_one(OptionList)
        ol.clear_options()
        ol.add_options([Option(lab) for lab, _ in self.shown])
        if self.shown:
            ol.highlighted = 0

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
        cur = ol.highlighted or 0
        ol.highlighted = max(0, min(len(self.shown) - 1, cur + delta))

    def action_cancel(self) -> None:
        """Close without choosing."""
        self.dismiss(None)


class MenuScreen(Screen[None]):
    """The main menu: play against 1-3 bots, host or join a LAN game, replay a saved game,
    how to play, quit."""

    BINDINGS = [
        Binding("question_mark", "help", "How to play"),
        Binding("q", "quit", "Quit"),
        Binding("2", "play(2)", "2 players", show=False),
        Binding("3", "play(3)", "3 players", show=False),
        Binding("4", "play(4)", "4 players", show=False),
        Binding("r", "replay", "Replay a saved game", show=False),
    ]

    def compose(self) -> ComposeResult:
        """Title and the menu."""
        with Vertical(id="menu-box"):
            yield Static(TITLE_ART, id="menu-title")
            yield Static("the classic game of dungeon wizardry — in your terminal",
                         id="menu-sub")
            yield OptionList(
                Option("Play against 1 bot (2 players)", id="play2"),
                Option("Play against 2 bots (3 players)", id="play3"),
                Option("Play against 3 bots (4 players)", id="play4"),
                Option("Host a LAN game", id="host"),
                Option("Join a LAN game", id="join"),
                Option("Replay a saved game", id="replay"),
                Option("How to play", id="help"),
                Option("Quit", id="quit"),
                id="menu-list",
            )
            yield Static(DECK_NOTE, id="menu-note")
        yield Footer()

    def on_mount(self) -> None:
        """Focus the menu."""
        ol = self.query_one(OptionList)
        ol.highlighted = 0
        ol.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Do the chosen menu entry."""
        oid = event.option.id or ""
        if oid.startswith("play"):
            self.action_play(int(oid[4:]))
        elif oid == "host":
            self.app.open_host_form()  # type: ignore[attr-defined]
        elif oid == "join":
            self.app.open_join()  # type: ignore[attr-defined]
        elif oid == "replay":
            self.app.open_saved_games()  # type: ignore[attr-defined]
        elif oid == "help":
            self.action_help()
        elif oid == "quit":
            self.app.exit(0)

    def action_play(self, players: int) -> None:
        """Start a game against bots."""
        self.app.start_game(players)  # type: ignore[attr-defined]

    def action_help(self) -> None:
        """Show how to play."""
        self.app.push_screen(HelpScreen())

    def action_replay(self) -> None:
        """The saved games, to replay one."""
        self.app.open_saved_games()  # type: ignore[attr-defined]

    async def action_quit(self) -> None:
        """Leave the app."""
        self.app.exit(0)


class GameOverScreen(Screen[None]):
    """Who won, how, and the final lives. Keys: new game, menu, quit."""

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
        elif self.winner == self.human:
            t.append("You win!\n", "bold green")
        else:
            t.append(f"{self.winner} wins.\n", f"bold {render.player_colour(self.winner)}")
        t.append(f"{self.how}\n\n")
        for p in self.final.players:
            status = "dead" if not p.alive else ("out" if p.out else f"life {p.life}")
            you = " (you)" if p.seat == self.human else ""
            if self.lan and p.name and p.name != p.seat:
                you = f" {p.name[:16]}{you}"
            t.append(f"  {p.seat}{you}", f"bold {render.player_colour(p.seat)}")
            t.append(f"  {status}")
            if p.carrying:
                t.append(f"  carrying {p.carrying}")
            t.append("\n")
        where = self.lan if self.lan else f"seed {self.seed}"
        t.append(f"\nround {self.final.round} · {where}", "dim")
        with Vertical(id="over-box", classes="dialog"):
            yield Static("GAME OVER", id="over-title")
            yield Static(t, id="over-text")
            yield Static("m menu · q quit" if self.lan else "n new game · m menu · q quit",
                         classes="hint")
        yield Footer()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """No "new game" after a LAN game (host or join another from the menu)."""
        return not (action == "new_game" and self.lan)

    def action_new_game(self) -> None:
        """Another game with the same number of players and a fresh seed (after a LAN game:
        the menu, to host or join another)."""
        if self.lan:
            self.action_menu()
            return
        self.app.start_game(self.players)  # type: ignore[attr-defined]

    def action_menu(self) -> None:
        """Back to the main menu (closing a LAN game)."""
        leave = getattr(self.app, "leave_lan", None)
        if leave is not None:
            leave()
        self.app.show_menu()  # type: ignore[attr-defined]

    async def action_quit(self) -> None:
        """Leave the app."""
        self.app.exit(0)
