"""Wizard Kings' other screens: the help and reference text (keys, terms, the units and the
spells, generated from the rules core's data) and the game-over box.

Sources: ``../shared/wizard-kings/rules.md`` (the terms: R1-R7, R19, R46, R48, R66-R72),
``units.md`` §2 (the armies) and §4 (the spells).
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Footer, Static

from wizwar_tui.screens import TooSmall

#: The terms of the game in short (rules.md), for the reference screen.
TERMS = (
    ("block", "a unit: a wooden block standing on its edge. Its owner sees its face (type "
              "and strength); the others see only its colour and label until a battle, a "
              "spell or its elimination reveals it (R2, R111)."),
    ("step", "one point of strength. A block fights with its strength in dice; each hit "
             "takes a step off the strongest enemy unit (R4, R61)."),
    ("hexside", "the edge between two hexes. Its terrain (clear, river bank, bridge, "
                "mountain ridge, pass, water) limits how many units may cross it into a "
                "battle in one phase: clear 4, rough 2 (R19, R46)."),
    ("pinning", "units entering a hex held by the enemy pin as many defending units; the "
                "pinned may not leave (R48)."),
    ("retreat", "from round 2 on, a unit may leave a battle on its turn to an adjacent "
                "friendly or vacant hex its side entered from (R66-R71). The attacker must "
                "retreat in the pursuit round."),
    ("regroup", "after a battle the victor's units there, and friendly ones beside it, may "
                "each move one hex (R72)."),
    ("initiative", "each turn every player rolls two dice; the highest moves first (R15)."),
    ("firing order", "A+ (wizards) first, then A, B, C; defenders before attackers at each "
                     "letter (R56)."),
    ("control", "a city counts for the player who holds it alone, or for its map's owner "
                "when vacant (R39, R90). Its GP fill the treasury in the Build Phase."),
    ("Build Phase", "orders written by every player at once: new units in your original "
                    "cities (as many as the city's GP), steps on blocks, castles, disbands; "
                    "gold not spent is lost (R89-R100)."),
)

#: How the map is drawn (the legend).
LEGEND = (
    ("1c2*3", "hex c2 of map 1, a city worth 3 GP"),
    ("clr for des swp mtn", "terrain; UPPER CASE: coastal; ~~~ sea, lak lake"),
    ("r = H %", "flags: river hex, road hex, henge, shoal hex"),
    ("~ = ^ P W : %", "hexsides: river bank, bridge, mountain ridge, pass, waterfall, "
                      "water, shoal"),
    ("#ran3", "your block: a ranger of strength 3 (block marks in the owner's colour; "
              "# yours and your allies', x any other player's, so sides differ without "
              "colour too)"),
    ("x#7", "an enemy block: its colour and label only"),
    ("### / #5 / xx", "a stack: one mark per block (5 blocks); i shows the hex in full"),
)
#: The legend's block marks outside ASCII (render.MARKS).
_UNICODE_MARKS = {"#ran3": "\u25aeran3", "x#7": "\u25af#7",
                  "### / #5 / xx": "\u25ae\u25ae\u25ae / \u25ae5 / \u25af\u25af"}


def unit_lines() -> list[str]:
    """Both armies' unit types from ``core.wizardkings.units`` (units.md §2): slug, move,
    ability, combat rating, cost per step, maximum strength, blocks in the set."""
    from core.wizardkings.units import ARMIES

    out = []
    for army, units in ARMIES.items():
        out.append(f"{army.capitalize()}:")
        for u in units.values():
            rating = "A+" if u.wizard else f"{u.letter}{u.number}"
            out.append(f"  {u.slug:<10} move {u.move}  {rating:<3} {u.cost} GP/step  "
                       f"max {u.max}  x{u.pool}  {u.ability or '-'}"
                       + ("  (Chaos)" if u.chaos else ""))
    return out


def spell_lines() -> list[str]:
    """The wizards' spells from ``core.wizardkings.turn`` (units.md §4): army, level, when
    they are cast and what each does (:mod:`wizwar_tui.wizardkings.spells`, trialWK 8)."""
    from core.wizardkings.turn import MOVE_SPELLS, NOT_BUILT, SPELLS
    from wizwar_tui.wizardkings.spells import full

    out = []
    for army in ("elves", "orcs"):
        names = [(lv, s, "combat") for s, (a, lv, *_r) in SPELLS.items() if a == army]
        names += [(lv, s, "movement") for s, (a, lv) in MOVE_SPELLS.items() if a == army
                  and s not in SPELLS]
        names += [(2, s, "not built") for s, a in NOT_BUILT.items() if a == army]
        out.append(f"{army.capitalize()}' wizards:")
        for lv, s, ph in sorted(names):
            if s == "heal":
                ph = "movement or combat"
            out.append(f"  {s} (level {lv}, {ph}): {full(s)}")
    out.append(f"Dispel (every wizard of strength 2+): {full('dispel')} (units.md 4.3). A "
               "spell costs its level in steps, paid when declared; the caster keeps at least "
               "1 (R78).")
    return out


def help_text(ascii_only: bool = False, menu: bool = True) -> str:
    """The help frame (Rich markup): keys, the map's legend, the terms, units and spells."""
    from rich.markup import escape

    from wizwar_tui.wizardkings.game import KEYS

    parts = ["[b]Wizard Kings[/b] — armies of hidden blocks on hex maps. Take cities worth "
             "15 GP (10 per map you own + 5) to win.", "", "[b]Keys[/b]"]
    for k, what in KEYS:
        if k == "q" and not menu:
            what = "leave"
        parts.append(f"  [b]{escape(k)}[/b]  {escape(what)}")
    parts += ["", "[b]The map[/b]"]
    for k, what in LEGEND:
        if not ascii_only and k in _UNICODE_MARKS:  # the marks the map draws
            k = _UNICODE_MARKS[k]
            what = what.replace("# yours", "\u25ae yours").replace("x any", "\u25af any")
        parts.append(f"  [b]{escape(k)}[/b]  {escape(what)}")
    parts += ["", "[b]Terms[/b]"]
    for k, what in TERMS:
        parts.append(f"  [b]{escape(k)}[/b]: {escape(what)}")
    parts += ["", "[b]Units[/b]", *map(escape, unit_lines()), "", "[b]Spells[/b]",
              *map(escape, spell_lines())]
    return "\n".join(parts)


class GameOverScreen(Screen[None]):
    """Who won and how, the cities and blocks left. Keys: new game, menu, back to the map,
    quit."""

    CSS_PATH = "../dialogs.tcss"

    BINDINGS = [
        Binding("n", "new_game", "New game"),
        Binding("m", "menu", "Menu"),
        Binding("escape,b", "back", "See the map"),
        Binding("q", "quit", "Quit"),
    ]

    def __init__(self, view: Any, text: str, human: str, seed: int | None,
                 ascii_only: bool = False) -> None:
        super().__init__()
        self.final = view
        self.text = text
        self.human = human
        self.seed = seed
        self.ascii_only = ascii_only

    def compose(self) -> ComposeResult:
        """The result box."""
        from wizwar_tui.wizardkings import render

        v = self.final
        t = Text()
        winner = v.get("winner", "")
        if winner == "draw":
            if "draw" not in self.text:
                t.append("A draw.\n", "bold")
        elif winner == self.human or self.human in v.get("sides", {}) \
                and v["sides"][self.human] == winner:
            t.append("You win!\n", "bold green")
        elif winner and winner not in self.text:  # the rules' text names him: said once
            t.append(f"{winner} wins.\n", f"bold {render.OWNER.get(winner, '')}")
        # the rules' text names how the game ended ("P4 wins (cities)."): said once
        how = v.get("how", "")
        said = f"({how})" in self.text or not how
        t.append(f"{self.text} (turn {v['turn']}{'' if said else ', ' + how})\n\n")
        gp = render.city_gp(v)
        for p in v["players"]:
            on = sum(1 for x in v["blocks"].values() if x["owner"] == p and x["state"] == "map")
            you = " (you)" if p == self.human else ""
            t.append(f"  {p}{you}", f"bold {render.OWNER.get(p, '')}")
            t.append(f"  {v['armies'][p]}, {on} blocks on the map, cities {gp.get(p, 0)} GP\n")
        if self.seed is not None:  # a LAN game's seed is the beacon's, known to no one seat
            t.append(f"\nseed {self.seed}", "dim")
        with Vertical(id="over-box", classes="dialog"):
            yield Static("GAME OVER", id="over-title")
            yield Static(t, id="over-text")
            hint = "b see the map · n new game · m menu · q quit" \
                if getattr(self.app, "HAS_MENU", True) else "b see the map · q disconnect"
            yield Static(hint, classes="hint")
        yield Footer()
        yield TooSmall()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """No new game or menu where the app has none (an SSH session)."""
        if action in ("new_game", "menu") and not getattr(self.app, "HAS_MENU", True):
            return False
        return True

    def action_back(self) -> None:
        """Back to the final map."""
        self.app.pop_screen()

    def action_new_game(self) -> None:
        """Another game like this one, a fresh seed."""
        self.app.start_again()  # type: ignore[attr-defined]

    def action_menu(self) -> None:
        """Back to the main menu."""
        leave = getattr(self.app, "leave_lan", None)
        if leave is not None:
            leave()
        self.app.show_menu()  # type: ignore[attr-defined]

    async def action_quit(self) -> None:
        """Leave the app."""
        self.app.exit(0)
