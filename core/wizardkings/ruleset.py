"""Wizard Kings behind the engine's contract (``core.engine.Ruleset``): the object the registry
hands out for ``"wizard-kings"``. Source: ../shared/wizard-kings/rules.md
R120 (the interface), R109 (options); coverage in docs/wizard-kings.md.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from core.engine import (
    Dealing,
    Event,
    IllegalAction,
    Option,
    OptionError,
    OptionsSchema,
    Outcome,
    Ruleset,
    Sealed,
    Secret,
    Stage,
)

#: Raised whenever a log of the older version would replay to another state. 2: a block's
#: ``seen`` values follow its strength while it is revealed in a battle (hits, spell step
#: costs, heals; R111), so the state (and a LAN's public hash) after a surviving hit differs.
#: 3: a local movement-phase caster or dispeller is shown (R81 step 2, R86) as on a LAN, so
#: its ``seen`` values after paying enter the state.
RULES_VERSION = 3

def parse_teams(text: str, players: int) -> list[list[str]]:
    """The ``teams`` option (R105): ``P1+P3,P2+P4`` as ``[["P1", "P3"], ["P2", "P4"]]``;
    ``""`` or ``none`` for no teams. Each team names two or more seats of the game, each seat
    in one team at most, and at least two sides are left. Raises :class:`OptionError`.
    Source: rules.md R105, R109."""
    t = text.strip().upper().replace(" ", "")
    if t in ("", "NONE"):
        return []
    seats = [f"P{i + 1}" for i in range(players)]
    teams: list[list[str]] = []
    seen: set[str] = set()
    for part in t.split(","):
        team = part.split("+")
        bad = [x for x in team if x not in seats]
        if bad or len(team) < 2:
            raise OptionError(f"Teams (teams): {text!r}: each team is two or more of "
                              f"{', '.join(seats)} joined by +, teams split by commas "
                              "(P1+P3,P2+P4) (R105)")
        twice = [x for x in team if x in seen or team.count(x) > 1]
        if twice:
            raise OptionError(f"Teams (teams): {twice[0]} is in two teams (R105)")
        seen.update(team)
        teams.append(team)
    sides = len(teams) + players - len(seen)
    if sides < 2:
        raise OptionError(f"Teams (teams): {text!r} leaves one side: nobody to play against "
                          "(R105)")
    return teams


def parse_armies(name: str, players: int) -> dict[str, str]:
    """The ``armies`` option (R8) as seat -> army: ``standard`` Elves for odd seats and Orcs
    for even ones, ``swapped`` the other way, ``elves`` or ``orcs`` for everyone. Raises
    :class:`OptionError`."""
    seats = [f"P{i + 1}" for i in range(players)]
    odd, even = {"standard": ("elves", "orcs"), "swapped": ("orcs", "elves"),
                 "elves": ("elves", "elves"), "orcs": ("orcs", "orcs")}.get(
                     name.strip().lower(), ("", ""))
    if not odd:
        raise OptionError(f"Armies (armies): {name!r} is not allowed; use "
                          + ", ".join(ARMY_SETS) + " (R8)")
    return {p: odd if i % 2 == 0 else even for i, p in enumerate(seats)}


def _check(o: dict[str, Any]) -> None:
    """4 players play on the 4-map layout, each owning one map; 2 on a 2-map layout (R8,
    R21); the teams and armies name the game's seats (R105, R8). Raises
    :class:`OptionError`."""
    four = o["layout"] == "4-map"
    if (o["players"] == 4) != four:
        raise OptionError("4 players play on the 4-map layout (each owns a map), 2 players on "
                          "a 2-map layout (R8, R21)")
    if o["teams"] != "none" and o["players"] != 4:
        raise OptionError("Teams (teams): teams are for 4 players (R105)")
    parse_teams(o["teams"], o["players"])


#: The ``teams`` option's values (R105): no teams, or a pairing of the 4 seats.
TEAMS = ("none", "p1+p3,p2+p4", "p1+p2,p3+p4", "p1+p4,p2+p3")
#: The ``armies`` option's values (R8): which army each seat plays.
ARMY_SETS = ("standard", "swapped", "elves", "orcs")
#: The ``budget`` option's values (R9: 100 GP; the others for shorter or bigger games).
BUDGETS = (100, 60, 80, 120, 150, 200)

OPTIONS = OptionsSchema((
    Option("players", "int", 2, "Players", "2 players, or 4 on the 4-map layout (each against "
           "all)", choices=(2, 4)),
    Option("layout", "choice", "2-map", "Layout", "how the maps join (R21)",
           choices=("2-map", "2-map-strait", "4-map")),
    Option("stacking", "int", 4, "Stacking", "units per side in a hex, plus one wizard (R47)",
           choices=(4, 6)),
    Option("victory", "choice", "cities", "Victory", "cities (R101), time (R102), points (R103)",
           choices=("cities", "time", "points")),
    Option("turns", "int", 10, "Turns", "the last turn of a time or points game",
           choices=(10, 5, 20)),
    Option("turn_limit", "int", 30, "Turn limit",
           "a cities game is a draw after this turn (project decision); 0: none",
           choices=(30, 10, 0)),
    Option("dispel", "bool", True, "Dispel",
           "wizards may dispel the other side's spells (R85; the seed's optional rule)"),
    Option("chaos", "bool", True, "Chaos units",
           "Chaos blocks may be raised and built (R9, R109)"),
    Option("budget", "int", 100, "Budget", "gold to raise a custom army with (R9)",
           choices=BUDGETS),
    Option("teams", "choice", "none", "Teams",
           "alliances of 4 players: p1+p3,p2+p4 and the like; none: each against all (R105)",
           choices=TEAMS),
    Option("armies", "choice", "standard", "Armies",
           "standard: Elves for odd seats, Orcs for even; swapped; elves or orcs: everyone "
           "(R8)", choices=ARMY_SETS),
), check=_check)


class BlocksDealing(Dealing):
    """Wizard Kings has no dealer-held secret: each block is held by its owner (R113). On a
    LAN the generic dealer still builds the game's ``deal``: this hook makes it the marker
    ``{"blocks": "owner"}``, so a networked game's state knows that each peer holds only its
    own seats' blocks (others hidden until revealed, the public hash of R118), while a local
    game (``deal`` None) holds every block."""

    def deal(self, values: list[str], commits: list[str]) -> Any:
        """The marker of a networked game (there are no slots)."""
        return {"blocks": "owner"}


class WizardKings(Ruleset):
    """The Wizard Kings ruleset (rules.md; partial, see docs/wizard-kings.md)."""

    name = "wizard-kings"
    title = "Wizard Kings"
    version = RULES_VERSION
    options = OPTIONS
    bot_levels = ("captain", "warlord")
    tools = {"selfplay": "core.wizardkings.selfplay"}
    secrets = (Secret("block", "owner",
                      "each block's type and strength: its owner (and allies) know them; "
                      "others see label, owner and hex until a battle reveals it (R111)"),)

    def validate_options(self, values: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The options (``OptionsSchema.validate``); 4 players without a layout given play on
        the 4-map layout (``wizwar play wizard-kings --players 4``). Raises
        :class:`OptionError`."""
        vals = dict(values or {})
        if "layout" not in vals and str(vals.get("players", "")) == "4":
            vals["layout"] = "4-map"
        return self.options.validate(vals)

    def lan_refusal(self, options: Mapping[str, Any]) -> str:
        """A team game (R105) is not hosted on a LAN yet: each machine holds only its own
        seats' blocks, so allies could not see each other's blocks as R106 and R111 say.
        Source: rules.md R106, R111 (MISSING on a LAN: docs/wizard-kings.md)."""
        if str(options.get("teams") or "none") != "none":
            return ("teams: a team game is played locally for now (on a LAN each machine "
                    "holds only its own blocks, so allies could not see each other's blocks, "
                    "R106)")
        return ""

    def seats(self, options: Mapping[str, Any]) -> list[str]:
        """``P1``..``Pn``."""
        return [f"P{i + 1}" for i in range(int(options.get("players", 2)))]

    def new_game(self, options: Mapping[str, Any], seed: int | bytes | str, *,
                 names: Iterable[str] = (), deal: Any = None) -> Any:
        """A new game in setup (R11): every player deploys."""
        from core.rng import Rng
        from core.wizardkings import game as G

        o = dict(G.DEFAULTS)
        o.update(self.validate_options(options))
        o["maps"] = {"2-map": [1, 2], "2-map-strait": [1, 3]}.get(o["layout"], [1, 2, 3, 4])
        o["teams"] = parse_teams(o.get("teams") or "", int(o["players"]))
        o["armies"] = parse_armies(o.get("armies") or "standard", int(o["players"]))
        g = G.blank(o, seed)
        if isinstance(deal, dict) and deal.get("blocks") == "owner":
            g["net"] = True  # Part M: this process holds only its own blocks
        return G.State(g, Rng.from_seed(seed))

    def stage(self, state: Any) -> Stage:
        """``sealed`` in setup and build (simultaneous orders, R116), ``act`` otherwise."""
        from core.wizardkings.turn import to_move

        g = state.d
        if g["phase"] == "over":
            return Stage("over", (), g["seq"])
        if g.get("reveal"):  # R114: the owner's peer opens his blocks of the battle hex
            return Stage("reveal", (), g["seq"], holder=g["reveal"]["owners"][0])
        who = tuple(to_move(g))
        if g["phase"] in ("setup", "build"):
            return Stage("sealed", who, g["seq"])
        return Stage("act", who, g["seq"])

    def legal_actions(self, state: Any, player: str) -> list[Any]:
        """turn.legal_actions."""
        from core.wizardkings.turn import legal_actions

        return legal_actions(state, player)

    def bot_choose(self, view: Any, player: str, legal: list[Any], level: str = "", *,
                   expand: Any = None) -> Any:
        """bot.choose from ``view``, ``legal`` and the families only (levels ``captain``,
        the quick default, and ``warlord``, which searches). Raises ``ValueError`` for an
        unknown level."""
        from core.wizardkings import bot

        return bot.choose(view, player, legal, level or "captain", expand)

    def families(self, state: Any, player: str) -> list[str]:
        """turn.families: group moves, elven-gates, build orders beyond the listing."""
        from core.wizardkings.turn import families

        return families(state.d, player)

    def expand(self, state: Any, player: str, family: str) -> list[Any]:
        """turn.expand (every accepted member, sorted by text)."""
        from core.wizardkings.turn import expand

        return expand(state.d, player, family)

    def _action(self, action: Any) -> Any:
        from core.wizardkings.actions import Action, NotationError, parse

        if isinstance(action, Action):
            return action
        try:
            return parse(str(action))
        except NotationError as exc:
            raise IllegalAction(str(exc)) from exc

    def apply(self, state: Any, action: Any) -> list[Event]:
        """Carried out on a copy that replaces the state (a refusal leaves it unchanged)."""
        from core.wizardkings import game as G
        from core.wizardkings.turn import perform

        a = self._action(action)
        trial = G.State(G.copy_dict(state.d), state.rng.copy())
        events = perform(trial, a)
        state.d, state.rng = trial.d, trial.rng
        return events

    def why_illegal(self, state: Any, action: Any) -> str:
        """The reason apply would give, or ``""``."""
        from core.wizardkings import game as G
        from core.wizardkings.turn import perform

        try:
            a = self._action(action)
            trial = G.State(G.copy_dict(state.d), state.rng.copy())
            perform(trial, a)
        except IllegalAction as exc:
            return exc.reason
        return ""

    def view(self, state: Any, player: str) -> Any:
        """game.view (R111)."""
        from core.wizardkings.game import view

        return view(state, player)

    def result(self, state: Any) -> Outcome:
        """R101-R104 and the turn limit."""
        g = state.d
        w = g["winner"]
        if not w:
            return Outcome()
        if w == "draw":
            return Outcome(True, (), True, g["how"], "The game ends in a draw.")
        seats = tuple(p for p in g["players"] if g["sides"].get(p, p) == w)
        if len(seats) > 1:  # a team (R105)
            return Outcome(True, seats, False, g["how"], f"{'+'.join(seats)} win ({g['how']}).")
        return Outcome(True, seats, False, g["how"], f"{w} wins ({g['how']}).")

    def state_hash(self, state: Any) -> str:
        """game.state_hash."""
        from core.wizardkings.game import state_hash

        return state_hash(state)

    def seq(self, state: Any) -> int:
        """Actions applied so far."""
        return int(state.d["seq"])

    def parse_action(self, text: str) -> Any:
        """actions.parse (raises NotationError)."""
        from core.wizardkings.actions import parse

        return parse(text)

    def action_from_wire(self, data: Any) -> Any:
        """actions.Action.from_wire."""
        from core.wizardkings.actions import Action

        return Action.from_wire(data)

    def state_to_wire(self, state: Any) -> Any:
        """The whole state (every block's secrets included: a local engine's copy)."""
        from core.wizardkings.game import copy_dict

        return copy_dict(state.to_wire())

    def state_from_wire(self, data: Any) -> Any:
        """A state from its wire form."""
        from core.wizardkings.game import State

        return State.from_wire(data)

    def chance(self, state: Any) -> Any:
        """``state.rng``: every die (R7, R117) draws from it."""
        return state.rng

    # -- the hidden blocks on a LAN (Part M, R110-R118) --
    def dealing(self) -> Dealing:
        """:class:`BlocksDealing` (no slots; marks a networked game)."""
        return BlocksDealing()

    def keep_private(self, state: Any, seat: str, entropy: bytes) -> None:
        """This process plays ``seat`` in a networked game: its private randomness (R113),
        from which the standard army's labels are permuted (R112). Never sent, never in the
        state hash or a view."""
        state.d.setdefault("private", {})[seat] = entropy.hex()

    def seal(self, state: Any, action: Any) -> Sealed | None:
        """In a networked game a deploy or build orders in full are their owner's secret
        (R116): every other peer gets the public part (``P1 deploy 1@1c2,2@1c2,...``,
        ``P1 build sealed new=1c2 removed=3``; an empty order too, so nobody learns that
        nothing was bought) and the owner's commitment to the whole, opened at the end
        (R115's final audit). ``None`` for anything else, a public part or a local game."""
        from core.wizardkings import game as G

        if not G.net(state.d):
            return None
        return self._sealed_orders(state, action)

    def _sealed_key(self, action: Any) -> Sealed | None:
        """An owner's first commitment carries his private key (R113): sealed by him, the
        others get it without the key, opened at the end for the audit."""
        from core.wizardkings.commits import sealed_public

        a = self._action(action)
        public = sealed_public(a)
        return None if public is None else Sealed((a.actor,), public, by="owner")

    def seen_by_others(self, state: Any, action: Any) -> Sealed | None:
        """The deploy and build orders' public forms in a local game too (R112, R116: the
        other players never learn a block's type or strength from its orders), for the
        replay and the export seen as a seat; a networked game's as :meth:`seal`."""
        return self._sealed_orders(state, action)

    def _sealed_orders(self, state: Any, action: Any) -> Sealed | None:
        """A deploy or build order's public form and who knows it whole (:meth:`seal`)."""
        from core.wizardkings import game as G
        from core.wizardkings.actions import Action, is_public_form

        a = self._action(action)
        g = state.d
        if a.verb == "commit":
            return self._sealed_key(a)
        if a.verb not in ("deploy", "build") or is_public_form(a):
            return None
        if a.verb == "deploy":
            if a.words == ("standard",):
                return None  # refused on a LAN: the full form is listed instead
            items = sorted((int(i.split("=")[0]), i.split("@")[1].split(":")[0])
                           for i in a.words[0].split(","))
            return Sealed((a.actor,), Action(a.actor, "deploy", (
                ",".join(f"{lab}@{h}" for lab, h in items),)), by="owner")
        try:
            public = G.public_build(g, a.actor, a.words)
        except IllegalAction:
            return None  # refused anyway: nothing is sent
        return Sealed((a.actor,), Action(a.actor, "build", tuple(public)), by="owner")

    def answer(self, state: Any, holder: str) -> Any:
        """What ``holder``'s process owes in a reveal pause: a reveal (R114) ``P2 reveal
        3=troll:3:0:<salt>,...`` of his blocks of the battle hex (or the caster, the
        dispeller), each opening its latest commitment, or fresh commitments (R113) ``P2
        commit 3=<digest>,...`` after deployment, a Build Phase or a movement-phase Heal.
        Raises ``ValueError`` when none is awaited or this state does not hold them."""
        from core.wizardkings.turn import reveal_answer

        return reveal_answer(state.d, holder)

    def audit_answer(self, state: Any, holder: str, given: Any) -> Any:
        """The audit's answer (``core.log.audit_answers``): an owner's first commitment,
        opened, carries his key (R113), which the audit's state learns before it asks
        :meth:`answer` (every salt comes from it)."""
        from core.wizardkings.actions import Action, NotationError

        try:
            a = Action.from_wire(given)
        except (NotationError, ValueError):
            a = None
        if a is not None and a.verb == "commit" and a.actor == holder:
            key = next((w[4:] for w in a.words if w.startswith("key=")), "")
            if key and not (state.d.get("private") or {}).get(holder):
                state.d.setdefault("private", {})[holder] = key
        return self.answer(state, holder)

    def content_digest(self) -> str:
        """The LAN scheme of Part M this build speaks, as a digest (R113's per-block
        commitments, R114's openings, R115's queue): a build without them (an empty digest)
        or with another scheme is refused in words at the hello, without a rules version
        bump that would stop old local logs from replaying."""
        from hashlib import blake2b

        return blake2b(b"wizard-kings part-m: r113 block commitments, r114 openings, r115 "
                       b"move queue", digest_size=8).hexdigest()

    def describe_turn(self, state: Any) -> str:
        """``turn N, phase``."""
        return f"turn {state.d['turn']}, {state.d['phase']}"

    def run_scenario(self, doc: dict[str, Any], path: str = "") -> tuple[bool, str]:
        """scenario.run_doc (notation.md §5)."""
        from core.wizardkings.scenario import run_doc

        return run_doc(doc, path)

    def probe_actions(self, state: Any, player: str) -> list[Any]:
        """turn.candidates, wide."""
        from core.wizardkings.turn import candidates

        return candidates(state.d, player, wide=True)

    def redeal_hidden(self, state: Any, player: str, seed: int) -> Any:
        """Other players' hidden blocks given other strengths (label, owner, hex kept)."""
        from core.rng import Rng
        from core.wizardkings import game as G

        other = G.State.from_wire(state.to_wire())
        g = other.d
        if g["phase"] == "over" and not G.net(g):  # nothing is hidden any more (game.view)
            return other
        me = G.side(g, player) if player in g["players"] else ""
        fight = set(G.on_map(g, g["battle"]["hex"])) if g["battle"] else set()
        r = Rng.from_seed(seed)
        for b in sorted(g["blocks"], key=G.bkey):
            x = g["blocks"][b]
            if x["state"] == "map" and G.side(g, x["owner"]) != me and b not in fight and \
                    not x.get("shown"):
                x["strength"] = 1 + r.below(G.utype(g, b).max)
        return other


RULESET = WizardKings()
