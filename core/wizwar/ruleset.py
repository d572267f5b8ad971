"""Wiz-War behind the engine's contract (``core.engine.Ruleset``).

The one object the registry hands out for ``"wizwar"``: options schema, stages, the action
forms, bots and scenarios, all delegating to this package's modules. Source for the options:
rulebook, Starting the Game (2 to 4 players) and Optional rules (team play); FAQ (2-player
crossed exits); digest §11, official variants (doors).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from core.engine import (
    Event,
    Option,
    OptionError,
    OptionsSchema,
    Outcome,
    Ruleset,
    Sealed,
    Secret,
    Stage,
)


def _check(opts: dict[str, Any]) -> None:
    """Combinations the rules refuse (rulebook, Team play: four players; FAQ: crossed exits
    are a 2-player layout)."""
    if opts["team"] and opts["players"] != 4:
        raise OptionError("team play needs four players (P1+P3 against P2+P4)")
    if opts["crossed"] and opts["players"] != 2:
        raise OptionError("crossed exits are a 2-player variant")


RULES_VERSION = 5  # 3: the full deck only, team play, Relocate Sector into the 3-player empty place
#: 4 (issue 12, round three): one event, every victim (deaths after every hit and window);
#: no to-hit roll or Invisible escape against attacks needing neither LOS nor the square;
#: a turned-back attack answered by its caster; Reflection splits fixed amounts; permanent
#: effects outlive their caster; round 1 never cut short
#: 5: Telepath's chosen take leaves displayed stones displayed (cards.md §1.4: only a random
#: loss or take puts them back into the hand first)
# (2: 72 of the 74 cards; 1: another deck). A log of another version is refused, not misread.

OPTIONS = OptionsSchema((
    Option("players", "int", 2, "Players", "how many wizards sit at the table",
           choices=(2, 3, 4)),
    Option("crossed", "bool", False, "Crossed exits",
           "2 players: each sector's exits lead to the far side of the other (FAQ)"),
    Option("doors", "bool", False, "Doors variant",
           "a wizard opens the doors of his own sector without a key (official variant)"),
    Option("team", "bool", False, "Team play",
           "4 players: P1+P3 against P2+P4; three enemy treasures on the team's bases win"),
), check=_check)


class WizWar(Ruleset):
    """The Wiz-War ruleset (Chessex 6th edition with the FAQ rulings)."""

    name = "wizwar"
    title = "Wiz-War"
    options = OPTIONS
    secrets = (Secret("card-faces", "dealer",
                      "the face of every card not yet public: the holder of a hand sees its "
                      "faces; the draw pile is seen by nobody"),)

    version = RULES_VERSION
    bot_levels = ("apprentice", "archmage")
    tools = {"selfplay": "core.wizwar.selfplay"}

    # -- setup --
    def seats(self, options: Mapping[str, Any]) -> list[str]:
        """``P1``..``PN`` for N players."""
        n = int(self.validate_options(options)["players"])
        return [f"P{i + 1}" for i in range(n)]

    def config(self, options: Mapping[str, Any], names: Iterable[str] = ()) -> Any:
        """The :class:`~core.wizwar.game.GameConfig` for validated options and names."""
        from core.wizwar.game import GameConfig

        o = self.validate_options(options)
        return GameConfig(players=o["players"], names=tuple(names), crossed=o["crossed"],
                          doors=o["doors"], team=o["team"])

    def new_game(self, options: Mapping[str, Any], seed: int | bytes | str, *,
                 names: Iterable[str] = (), deal: Any = None) -> Any:
        """A new game. ``deal`` (networked games): ``{"faces": [...], "commits": [...]}``
        from the dealer, ``""`` for faces this process may not know."""
        from core.wizwar.game import new_game

        deal = deal or {}
        faces, commits = deal.get("faces"), deal.get("commits")
        return new_game(self.config(options, names), seed,
                        faces=None if faces is None else list(faces),
                        commits=None if commits is None else list(commits))

    # -- play --
    def stage(self, state: Any) -> Stage:
        """Over once there is a winner; an answer window while the stack is open; otherwise
        one player acting (the active player, or whoever must choose, retreat or discard).
        The window id is the number of actions applied (every action changes who decides)."""
        from core.wizwar.rules import to_move

        if state.winner:
            return Stage("over", (), state.seq)
        if state.windows:
            return Stage("answer", tuple(to_move(state)), state.seq)
        return Stage("act", tuple(to_move(state)), state.seq)

    def to_move(self, state: Any) -> list[str]:
        """Who may act now (rules.to_move)."""
        from core.wizwar.rules import to_move

        return to_move(state)

    def legal_actions(self, state: Any, player: str) -> list[Any]:
        """rules.legal_actions."""
        from core.wizwar.rules import legal_actions

        return legal_actions(state, player)

    def families(self, state: Any, player: str) -> list[str]:
        """families.families: ``move-path:2``.. ``move-path:K``, the walks of several squares
        in one action (``legal_actions`` lists movement one square at a time)."""
        from core.wizwar.families import families

        return families(state, player)

    def expand(self, state: Any, player: str, family: str) -> list[Any]:
        """families.expand: every accepted walk of exactly N squares (``move-path:N``)."""
        from core.wizwar.families import expand

        return expand(state, player, family)

    def apply(self, state: Any, action: Any) -> list[Event]:
        """rules.apply (an action value or its notation)."""
        from core.wizwar.rules import apply

        return apply(state, action)

    def why_illegal(self, state: Any, action: Any) -> str:
        """rules.why_illegal."""
        from core.wizwar.rules import why_illegal

        return why_illegal(state, action)

    def view(self, state: Any, player: str) -> Any:
        """view.view: the player's own hand, counts of the others, the public board."""
        from core.wizwar.view import view

        return view(state, player)

    def result(self, state: Any) -> Outcome:
        """Over when ``state.winner`` is set: a seat, a team ``P1+P3``, or ``-`` (nobody:
        every wizard went out at once). Source: rulebook, Winning the Game."""
        w = state.winner
        if not w:
            return Outcome()
        if w == "-":
            return Outcome(True, (), True, "no-one-left", "No wizard is left: nobody wins.")
        seats = tuple(w.split("+"))
        return Outcome(True, seats, False, "win", f"{w} wins.")

    def state_hash(self, state: Any) -> str:
        """state.state_hash (public faces plus the dealer's commitments)."""
        from core.wizwar.state import state_hash

        return state_hash(state)

    def seq(self, state: Any) -> int:
        """Actions applied so far."""
        return int(state.seq)

    # -- forms --
    def parse_action(self, text: str) -> Any:
        """actions.parse (raises ``NotationError``, a ``ValueError``)."""
        from core.wizwar.actions import parse

        return parse(text)

    def action_from_wire(self, data: Any) -> Any:
        """actions.Action.from_wire (raises ``NotationError``)."""
        from core.wizwar.actions import Action

        return Action.from_wire(data)

    def state_to_wire(self, state: Any) -> Any:
        """The full state's wire form."""
        return state.to_wire()

    def state_from_wire(self, data: Any) -> Any:
        """A state from its wire form."""
        from core.wizwar.state import State

        return State.from_wire(data)

    def clone(self, state: Any) -> Any:
        """``determinize.clone`` (a field-by-field copy, about twice as fast as the wire form
        and back; the LAN host makes one per action: docs/performance.md, eighth round),
        without the dealer: like the wire round trip, the copy is not attached to a
        networked game's dealer (the host attaches its dice probe's copy itself)."""
        from core.wizwar.determinize import clone

        copy = clone(state)
        copy.dealer = None
        copy.rng.fresh = False  # transient, not in the wire form
        return copy

    def chance(self, state: Any) -> Any:
        """``state.rng``: every d4, random pick, random direction and reshuffle draws from it
        (rulebook, Equipment: the die). Source of the beacon: design.md, Dice no peer can
        foresee."""
        return state.rng

    # -- bots, scenarios --
    def bot_choose(self, view: Any, player: str, legal: list[Any], level: str = "", *,
                   expand: Callable[[str], list[Any]] | None = None) -> Any:
        """bot.choose at ``level`` (default: the apprentice); ``expand`` lists a family's
        members (the bots ask for ``far:<slug>`` creations, core/wizwar/families.py)."""
        from core.wizwar import bot

        return bot.choose(view, player, legal, level=level or "apprentice", more=expand)

    def run_scenario(self, doc: dict[str, Any], path: str = "") -> tuple[bool, str]:
        """scenario.run_doc."""
        from core.wizwar.scenario import run_doc

        r = run_doc(doc, path)
        return bool(r.ok), "" if r.ok else str(r.detail)

    # -- conformance hooks --
    def probe_actions(self, state: Any, player: str) -> list[Any]:
        """conformance.probe_actions: every card at every target, number and argument."""
        from core.wizwar.conformance import probe_actions

        return probe_actions(state, player)

    def redeal_hidden(self, state: Any, player: str, seed: int) -> Any:
        """conformance.redeal_hidden: the faces ``player`` may not know dealt anew."""
        from core.wizwar.conformance import redeal_hidden

        return redeal_hidden(state, player, seed)


    def default_answer(self, state: Any, player: str) -> Any:
        """A pass: who does not answer an attack in time lets it resolve (the LAN clock)."""
        from core.wizwar.actions import Action

        return Action(player, "pass")

    # -- secrets, the log, the handshake --
    def seal(self, state: Any, action: Any) -> Sealed | None:
        """secrets.seal: Telepath's ``choose`` names its card to the thief and the victim
        only; every other peer gets the card instance (``P3 choose +31``)."""
        from core.wizwar.secrets import seal

        return seal(state, action)

    def dealing(self) -> Any:
        """secrets.DEALING: the card faces as dealer-held slots."""
        from core.wizwar.secrets import DEALING

        return DEALING

    def replay_dealer(self, deal: Any) -> Any:
        """secrets.replay_dealer: recorded reveals and reshuffles of a networked log, or the
        reshuffles of an export text's revealed deal."""
        from core.wizwar.secrets import replay_dealer

        return replay_dealer(deal)

    def export_deal(self, deal: Any, records: list[dict[str, Any]],
                    end: dict[str, Any] | None) -> tuple[list[str], Any]:
        """secrets.export_deal: the ``deal`` and ``reblind`` lines."""
        from core.wizwar.secrets import export_deal

        return export_deal(deal, records, end)

    def parse_deal(self, lines: list[tuple[int, str, str]]) -> Any:
        """secrets.parse_deal."""
        from core.wizwar.secrets import parse_deal

        return parse_deal(lines)

    def deal_words(self) -> tuple[str, ...]:
        """``deal`` and ``reblind``."""
        return ("deal", "reblind")

    def describe_turn(self, state: Any) -> str:
        """``round R, Pn``: the round and the active wizard."""
        return f"round {state.round}, {state.turn.active}"

    def content_digest(self) -> str:
        """secrets.content_digest (the cards and the implemented set)."""
        from core.wizwar.secrets import content_digest

        return content_digest()


RULESET = WizWar()
