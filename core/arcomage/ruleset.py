"""ArcoMage behind the engine's contract (``core.engine.Ruleset``): the one object the
registry hands out for ``"arcomage"``. Source: ``../shared/arcomage/rules.md`` §18
(R119-R125); options from R20 (books, first player, clock, turn limit).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from core.engine import (
    Budget,
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

RULES_VERSION = 1


def _check(opts: dict[str, Any]) -> None:
    """A custom book must be legal (R25, R26); the message says why not."""
    from core.arcomage.data import check_book

    for p in ("p1", "p2"):
        text = opts[f"{p}_spells"].strip()
        if text:
            why = check_book([s.strip() for s in text.split(",")])
            if why:
                raise OptionError(f"{p.upper()}'s spells ({p}_spells): {why}")


OPTIONS = OptionsSchema((
    Option("p1_book", "choice", "pale-tower", "P1's book",
           "the starting book P1 plays (spells.md §2)", choices=("pale-tower", "iron-dojo")),
    Option("p2_book", "choice", "iron-dojo", "P2's book",
           "the starting book P2 plays (spells.md §2)", choices=("iron-dojo", "pale-tower")),
    Option("first", "choice", "p1", "First player", "who takes turn 1 (he skips its PRODUCE)",
           choices=("p1", "p2")),
    Option("clock", "int", 0, "Clock", "seconds per turn and per response; 0: no clock",
           choices=(0, 60)),
    Option("turn_limit", "int", 100, "Turn limit",
           "the game is a draw after the END of this turn; 0: no limit",
           choices=(100, 40, 200, 0)),
    Option("p1_spells", "str", "", "P1's own book",
           "20 different spells, comma-separated, instead of the starting book (R25)",
           public=False, max_len=800),
    Option("p2_spells", "str", "", "P2's own book",
           "20 different spells, comma-separated, instead of the starting book (R25)",
           public=False, max_len=800),
), check=_check)


class OwnersDealing(Dealing):
    """ArcoMage has no dealer-held secret; its one secret is held by each trapper (R125).
    On a LAN the generic dealer still builds the game's ``deal``: this hook makes it the
    marker ``{"traps": "owner"}``, so a networked game's state knows that each trapper deals
    his own traps (redacted casts, trap answers awaited in a ``reveal`` stage, R128) while a
    local game (``deal`` None) keeps the process as the dealer of every trap."""

    def deal(self, values: list[str], commits: list[str]) -> Any:
        """The marker of a networked game (there are no slots)."""
        return {"traps": "owner"}


class ArcoMage(Ruleset):
    """The ArcoMage ruleset (rules.md R1-R129)."""

    name = "arcomage"
    title = "ArcoMage"
    version = RULES_VERSION
    options = OPTIONS
    bot_levels = ("apprentice", "archmage")
    tools = {"selfplay": "core.arcomage.selfplay"}
    secrets = (Secret("trap-target", "owner",
                      "which spell of the rival's book a Magic Trap rigs: the trapper knows "
                      "it; the victim and watchers see only that a trap lies, and when"),)

    def seats(self, options: Mapping[str, Any]) -> list[str]:
        """Always ``P1`` and ``P2``."""
        return ["P1", "P2"]

    def new_game(self, options: Mapping[str, Any], seed: int | bytes | str, *,
                 names: Iterable[str] = (), deal: Any = None) -> Any:
        """A new game at the first player's MAIN of turn 1 (R120)."""
        from core.arcomage.game import new_game

        owners = isinstance(deal, dict) and deal.get("traps") == "owner"
        return new_game(self.validate_options(options), seed, owners=owners)

    # -- play --
    def stage(self, state: Any) -> Stage:
        """Over, an answer window (a spell on the stack, or the combat window), or one
        player acting; the window id is the action count."""
        from core.arcomage.turn import to_move

        g = state.d
        if g["winner"]:
            return Stage("over", (), g["seq"])
        if g.get("awaiting"):  # R128: the trapper's process answers; nobody decides
            return Stage("reveal", (), g["seq"], holder=other_seat(g["awaiting"]["victim"]))
        if g["stack"] or g["step"] == "combat":
            return Stage("answer", tuple(to_move(g)), g["seq"])
        return Stage("act", tuple(to_move(g)), g["seq"])

    def legal_actions(self, state: Any, player: str) -> list[Any]:
        """turn.legal_actions (sorted by text; no timeout or concede)."""
        from core.arcomage.turn import legal_actions

        return legal_actions(state.d, player)

    def _action(self, action: Any) -> Any:
        from core.arcomage.actions import Action, NotationError, parse

        if isinstance(action, Action):
            return action
        try:
            return parse(str(action))
        except NotationError as exc:
            raise IllegalAction(str(exc)) from exc

    def apply(self, state: Any, action: Any) -> list[Event]:
        """Validate, then carry out on a copy that replaces the state (so a refusal leaves
        it byte-identical). Raises :class:`IllegalAction`."""
        import copy

        from core.arcomage.turn import perform, validate

        a = self._action(action)
        info = validate(state.d, a)
        g = copy.deepcopy(state.d)
        events = perform(g, a, info)
        state.d = g
        return events

    def why_illegal(self, state: Any, action: Any) -> str:
        """The reason ``apply`` would give, or ``""``."""
        from core.arcomage.turn import validate

        try:
            validate(state.d, self._action(action))
        except IllegalAction as exc:
            return exc.reason
        return ""

    def view(self, state: Any, player: str) -> Any:
        """game.view (R98)."""
        from core.arcomage.game import view

        return view(state, player)

    def result(self, state: Any) -> Outcome:
        """Win by Life (R113), alternate wins (R114), draws (R115, R116), concession
        (R117)."""
        g = state.d
        w, how = g["winner"], g["how"]
        if not w:
            return Outcome()
        if w == "draw":
            text = ("Both wizards fall at once: a draw." if how == "both-dead" else
                    "The turn limit is reached: a draw.")
            return Outcome(True, (), True, how, text)
        words = {"life": f"{w} wins: the rival's Life is gone.",
                 "concede": f"{w} wins: the rival concedes.",
                 "army-of-the-dead": f"{w} wins with the Army of the Dead.",
                 "star-alignment": f"{w} wins: the stars align."}
        return Outcome(True, (w,), False, how, words.get(how, f"{w} wins."))

    def state_hash(self, state: Any) -> str:
        """state.state_hash: the public state and the trap commitments (R125)."""
        from core.arcomage.state import state_hash

        return state_hash(state)

    def seq(self, state: Any) -> int:
        """Actions applied so far."""
        return int(state.d["seq"])

    # -- forms --
    def parse_action(self, text: str) -> Any:
        """actions.parse (raises NotationError, a ValueError)."""
        from core.arcomage.actions import parse

        return parse(text)

    def action_from_wire(self, data: Any) -> Any:
        """actions.Action.from_wire."""
        from core.arcomage.actions import Action

        return Action.from_wire(data)

    def state_to_wire(self, state: Any) -> Any:
        """The whole state (the dealer's copy: trap slugs and salts included)."""
        return state.to_wire()

    def state_from_wire(self, data: Any) -> Any:
        """A state from its wire form."""
        from core.arcomage.state import State

        return State.from_wire(data)

    def budget(self, state: Any, player: str) -> Budget | None:
        """R111 with the clock on: the active player's **turn budget** (key ``turn N P1``,
        shared by all his decisions of turn N with no enemy spell on top of the stack; it
        runs out into ``P1 timeout``, R112), else a fresh **response budget** for this one
        decision (key ``response SEQ``; it runs out into :meth:`default_answer`). None with
        the clock off, when ``player`` is not to move, or in a trap answer's pause.
        Source: rules.md R110-R112."""
        from core.arcomage import turn
        from core.arcomage.actions import Action

        g = state.d
        secs = int(g.get("clock") or 0)
        if not secs or turn.over(g) or g.get("awaiting") or player not in turn.to_move(g):
            return None
        if player == g["active"] and not turn._top_enemy(g, player):
            return Budget(f"turn {g['turn']} {player}", secs, Action(player, "timeout"))
        answer = self.default_answer(state, player)
        return None if answer is None else Budget(f"response {g['seq']}", secs, answer)

    def keeper_only(self, action: Any) -> str:
        """``timeout`` is entered by the clock's keeper (the host, the local app), never
        proposed by the player (R112)."""
        a = self._action(action)
        if a.verb == "timeout":
            return ("a timeout is entered by the host's clock when the turn budget runs out "
                    "(R112), never proposed")
        return ""

    def answer_clock_refusal(self) -> str:
        """ArcoMage's clock is a rule of the game (R110-R112: a budget per turn and per
        response, its timeout a logged action), its option ``clock`` (``--game-clock S`` on
        ``host``); a second, generic answer clock beside it is refused in words."""
        return ("ArcoMage's clock is --game-clock S (R110-R112: S seconds per turn and per "
                "response; 60 in the rules); --clock is Wiz-War's answer clock")

    def default_answer(self, state: Any, player: str) -> Any:
        """A response timeout (R112): a pass with priority, no blocks, the first choice."""
        from core.arcomage.actions import Action
        from core.arcomage.field import ORDER

        g = state.d
        if g["step"] == "block":
            return Action(player, "block")
        if g["step"] == "choose":
            mine = sorted((c["at"] for c in g["creatures"] if c["controller"] == player),
                          key=lambda h: ORDER[h])
            return Action(player, "choose", "", (mine[0],)) if mine else None
        return Action(player, "pass")

    # -- bots --
    def bot_choose(self, view: Any, player: str, legal: list[Any], level: str = "", *,
                   expand: Any = None) -> Any:
        """bot.choose from ``view`` and ``legal`` only (levels ``apprentice``, the quick
        default, and ``archmage``, which searches). Raises ``ValueError`` for an unknown
        level."""
        from core.arcomage import bot

        return bot.choose(view, player, legal, level or "apprentice", self)

    # -- the trap secret (R125, R128, R129) --
    def dealing(self) -> Dealing:
        """:class:`OwnersDealing` (no slots; marks a networked game)."""
        return OwnersDealing()

    def export_deal(self, deal: Any, records: list[dict[str, Any]],
                    end: dict[str, Any] | None) -> tuple[list[str], Any]:
        """A networked game's marker (:class:`OwnersDealing`) as the line ``traps owner``,
        so its text replays as that game did: redacted casts accepted, trap answers awaited
        (R125, R128); a local game's text has no deal line."""
        if isinstance(deal, dict) and deal.get("traps") == "owner":
            return ["traps owner"], {"traps": "owner"}
        return [], deal

    def parse_deal(self, lines: list[tuple[int, str, str]]) -> Any:
        """The marker from a ``traps owner`` line (None without one). Raises
        ``ValueError`` for any other deal line."""
        deal = None
        for n, word, rest in lines:
            if word != "traps" or rest.strip() != "owner":
                raise ValueError(f"line {n}: the deal line of a networked game is "
                                 "'traps owner'")
            deal = {"traps": "owner"}
        return deal

    def deal_words(self) -> tuple[str, ...]:
        """``traps`` (:meth:`parse_deal`)."""
        return ("traps",)

    def seal(self, state: Any, action: Any) -> Sealed | None:
        """A Magic Trap cast in full form (``P1 cast magic-trap @P2:fireball``) is the
        trapper's secret: every other peer gets ``P1 cast magic-trap @P2:?`` and the net
        layer's commitment to the whole cast, opened at the end (R125, R129)."""
        from core.arcomage.actions import Action

        a = self._action(action)
        if a.verb == "cast" and a.slug == "magic-trap" and not a.targets[0].endswith(":?"):
            victim = a.targets[0].partition(":")[0]
            return Sealed((a.actor,), Action(a.actor, "cast", "magic-trap",
                                             (f"{victim}:?",)), by="owner")
        return None

    def answer(self, state: Any, holder: str) -> Any:
        """The trap answer ``holder``'s process gives on its own (R128): the opening
        ``P1 reveal fireball n=2`` when one of his traps lies on the spell being cast, else
        ``P1 reveal`` ("no trap here"). Raises ``ValueError`` when this state does not
        hold the slugs of ``holder``'s traps lying on the caster's book, or when no answer
        of ``holder``'s is awaited."""
        from core.arcomage import traps
        from core.arcomage.actions import Action

        g = state.d
        aw = g.get("awaiting")
        if not aw or other_seat(aw["victim"]) != holder:
            raise ValueError(f"no trap answer of {holder}'s is awaited")
        mine = [t for t in traps.lying(g, aw["victim"]) if t["trapper"] == holder]
        if any("slug" not in t for t in mine):
            raise ValueError(f"this process does not hold {holder}'s trap targets")
        for t in mine:
            if t["slug"] == aw["slug"]:
                return Action(holder, "reveal", aw["slug"], (), (("n", str(t["n"])),))
        return Action(holder, "reveal")

    def content_digest(self) -> str:
        """A digest of the content tables (spells, creatures, Forms, conditions, books):
        peers whose content differs do not play together even at one rules version."""
        from hashlib import blake2b

        from core.arcomage import data

        text = repr((data.SPELLS, data.CREATURES, data.FORMS, data.CONDITIONS, data.BOOKS,
                     data.STAT_MODS))
        return blake2b(text.encode(), digest_size=8).hexdigest()

    def describe_turn(self, state: Any) -> str:
        """``turn N, Pn``."""
        return f"turn {state.d['turn']}, {state.d['active']}"

    def run_scenario(self, doc: dict[str, Any], path: str = "") -> tuple[bool, str]:
        """scenario.run_doc (notation.md §3-§4)."""
        from core.arcomage.scenario import run_doc

        return run_doc(doc, path)

    # -- conformance hooks --
    def probe_actions(self, state: Any, player: str) -> list[Any]:
        """Wider candidates than the listing: every spell of the pool at every hex, both
        wizards, every book spell; every walk to a neighbour; every verb."""
        from core.arcomage.turn import candidates

        return candidates(state.d, player, wide=True)

    def redeal_hidden(self, state: Any, player: str, seed: int) -> Any:
        """The traps ``player`` may not see moved to other spells of their victims' books."""
        from core.arcomage import traps

        other = self.clone(state)
        traps.redeal(other.d, player, seed)
        return other


def other_seat(p: str) -> str:
    """The other seat of the two."""
    return "P2" if p == "P1" else "P1"


RULESET = ArcoMage()
