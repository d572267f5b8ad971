"""A test-only ruleset, "Sealed dice" (``sealed-dice``): two seats pick 1-6 at once each
round (a simultaneous sealed stage); the pick that completes the round rolls a d4, which
goes to the higher pick's score. Like Wizard Kings (a deploy that starts the turn, which
rolls), its ``why_illegal`` judges an action by trying it on a copy, so in a networked game
checking the round's last pick meets a roll before the beacon value is there. Register it
in a test with :func:`register` (never in the real registry).
"""

from __future__ import annotations

import copy
from hashlib import blake2b
from typing import Any

from core import registry
from core.codec import pack
from core.engine import IllegalAction, Option, OptionsSchema, Outcome, Ruleset, Stage
from core.rng import Rng

SEATS = ["P1", "P2"]


class Pick:
    """``P2 pick 5``: a seat's sealed number."""

    def __init__(self, actor: str, n: int) -> None:
        self.actor, self.n = actor, n

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Pick) and (self.actor, self.n) == (other.actor, other.n)

    def __hash__(self) -> int:
        return self.n

    def __str__(self) -> str:
        return f"{self.actor} pick {self.n}"

    def to_wire(self) -> list[Any]:
        """``[actor, n]``."""
        return [self.actor, self.n]


def _perform(st: dict[str, Any], a: Pick) -> None:
    """Apply ``a`` to ``st`` in place; raises ``IllegalAction`` (before any roll)."""
    if st["round"] > st["rounds"] or a.actor in st["picks"]:
        raise IllegalAction(f"{a.actor} has picked (or the game is over)")
    if not 1 <= a.n <= 6:
        raise IllegalAction("pick 1 to 6")
    st["picks"][a.actor] = a.n
    st["seq"] += 1
    if len(st["picks"]) == len(SEATS):
        roll = st["rng"].d4()  # a beaconed game: needs this action's beacon value
        top = max(SEATS, key=lambda s: (st["picks"][s], s))
        st["score"][top] += roll
        st["rolls"].append(roll)
        st["picks"], st["round"] = {}, st["round"] + 1


class SealedDice(Ruleset):
    """See the module docstring."""

    name = "sealed-dice"
    title = "Sealed dice"
    version = 1
    options = OptionsSchema((Option("rounds", "int", 3, "Rounds", lo=1, hi=9),))
    bot_levels = ("plain",)

    def seats(self, options: Any) -> list[str]:
        return list(SEATS)

    def new_game(self, options: Any, seed: Any, *, names: Any = (), deal: Any = None) -> Any:
        o = self.validate_options(options)
        return {"round": 1, "rounds": o["rounds"], "picks": {}, "rolls": [],
                "score": dict.fromkeys(SEATS, 0), "seq": 0, "rng": Rng.from_seed(seed)}

    def chance(self, st: Any) -> Any:
        return st["rng"]

    def stage(self, st: Any) -> Stage:
        if st["round"] > st["rounds"]:
            return Stage("over")
        return Stage("sealed", tuple(s for s in SEATS if s not in st["picks"]), st["round"])

    def legal_actions(self, st: Any, player: str) -> list[Any]:
        if player not in self.stage(st).players:
            return []
        return [Pick(player, n) for n in range(1, 7)]

    def why_illegal(self, st: Any, a: Any) -> str:
        """Tries ``a`` on a copy (the generator copied with its beacon state)."""
        if isinstance(a, str):
            a = self.parse_action(a)
        trial = {**copy.deepcopy({k: v for k, v in st.items() if k != "rng"}),
                 "rng": st["rng"].copy()}
        try:
            _perform(trial, a)
        except IllegalAction as exc:
            return exc.reason
        return ""

    def apply(self, st: Any, a: Any) -> list[Any]:
        if isinstance(a, str):
            a = self.parse_action(a)
        _perform(st, a)
        return []

    def view(self, st: Any, player: str) -> Any:
        return {"round": st["round"], "score": dict(st["score"])}

    def result(self, st: Any) -> Outcome:
        if st["round"] <= st["rounds"]:
            return Outcome()
        top = max(st["score"].values())
        return Outcome(True, tuple(s for s in SEATS if st["score"][s] == top), how="points",
                       text="most points")

    def state_hash(self, st: Any) -> str:
        return blake2b(pack(self.state_to_wire(st)), digest_size=8).hexdigest()

    def seq(self, st: Any) -> int:
        return int(st["seq"])

    def describe_turn(self, st: Any) -> str:
        return f"round {st['round']}"

    def parse_action(self, text: str) -> Any:
        try:
            seat, verb, n = text.split()
            if verb != "pick" or seat not in SEATS:
                raise ValueError
            return Pick(seat, int(n))
        except ValueError:
            raise ValueError(f"not a pick: {text!r}") from None

    def action_from_wire(self, data: Any) -> Any:
        if not (isinstance(data, list) and len(data) == 2 and data[0] in SEATS
                and isinstance(data[1], int) and not isinstance(data[1], bool)):
            raise ValueError("not a pick")
        return Pick(data[0], data[1])

    def state_to_wire(self, st: Any) -> Any:
        return {**st, "picks": dict(st["picks"]), "rolls": list(st["rolls"]),
                "score": dict(st["score"]), "rng": st["rng"].to_wire()}

    def state_from_wire(self, data: Any) -> Any:
        return {**data, "picks": dict(data["picks"]), "rolls": list(data["rolls"]),
                "score": dict(data["score"]), "rng": Rng.from_wire(data["rng"])}

    def bot_choose(self, view: Any, player: str, legal: list[Any], level: str = "", *,
                   expand: Any = None) -> Any:
        return Pick(player, (view["round"] * (int(player[1:]) + 2)) % 6 + 1)


class NoBotDice(SealedDice):
    """"Sealed dice" with no bots (``sealed-dice-nobots``): a game no bot can play yet."""

    name = "sealed-dice-nobots"
    title = "Sealed dice without bots"
    bot_levels = ()


RULESET = SealedDice()
NO_BOTS = NoBotDice()


def register(monkeypatch: Any, rs: SealedDice = RULESET) -> SealedDice:
    """Make ``rs`` (``sealed-dice``, or :data:`NO_BOTS`) known to the registry for one test
    (``monkeypatch``)."""
    where = "RULESET" if rs is RULESET else "NO_BOTS"
    monkeypatch.setitem(registry.RULESETS, rs.name, f"dice_ruleset:{where}")
    monkeypatch.setitem(registry._loaded, rs.name, rs)
    return rs
