"""A test-only ruleset, "Pick a number" (``pick-a-number``): three seats pick 1-9 at once each
round (a simultaneous sealed stage); the highest pick no one else chose scores. Its state
records the picks in the order applied, so a host that applied them in arrival order would
give other hashes. Register it in a test with :func:`register` (never in the real registry).
"""

from __future__ import annotations

from hashlib import blake2b
from typing import Any

from core import registry
from core.codec import pack
from core.engine import IllegalAction, Option, OptionsSchema, Outcome, Ruleset, Stage

SEATS = ["P1", "P2", "P3"]


class Pick:
    """``P2 pick 7``: a seat's sealed number."""

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


class PickANumber(Ruleset):
    """See the module docstring."""

    name = "pick-a-number"
    title = "Pick a number"
    version = 1
    options = OptionsSchema((Option("rounds", "int", 3, "Rounds", lo=1, hi=9),))
    bot_levels = ("plain",)

    def seats(self, options: Any) -> list[str]:
        return list(SEATS)

    def new_game(self, options: Any, seed: Any, *, names: Any = (), deal: Any = None) -> Any:
        o = self.validate_options(options)
        return {"round": 1, "rounds": o["rounds"], "picks": {}, "order": [],
                "score": dict.fromkeys(SEATS, 0), "seq": 0}

    def stage(self, st: Any) -> Stage:
        if st["round"] > st["rounds"]:
            return Stage("over")
        return Stage("sealed", tuple(s for s in SEATS if s not in st["picks"]), st["round"])

    def legal_actions(self, st: Any, player: str) -> list[Any]:
        if player not in self.stage(st).players:
            return []
        return [Pick(player, n) for n in range(1, 10)]

    def why_illegal(self, st: Any, a: Any) -> str:
        if isinstance(a, str):
            a = self.parse_action(a)
        if a.actor not in self.stage(st).players:
            return f"{a.actor} has picked (or the game is over)"
        return "" if 1 <= a.n <= 9 else "pick 1 to 9"

    def apply(self, st: Any, a: Any) -> list[Any]:
        why = self.why_illegal(st, a)
        if why:
            raise IllegalAction(why)
        if isinstance(a, str):
            a = self.parse_action(a)
        st["picks"][a.actor] = a.n
        st["order"].append(str(a))
        st["seq"] += 1
        if len(st["picks"]) == len(SEATS):
            ns = list(st["picks"].values())
            unique = [s for s, n in st["picks"].items() if ns.count(n) == 1]
            if unique:
                st["score"][max(unique, key=lambda s: st["picks"][s])] += 1
            st["picks"], st["round"] = {}, st["round"] + 1
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
        return blake2b(pack(st), digest_size=8).hexdigest()

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
        return {**st, "picks": dict(st["picks"]), "order": list(st["order"]),
                "score": dict(st["score"])}

    def state_from_wire(self, data: Any) -> Any:
        return self.state_to_wire(data)

    def bot_choose(self, view: Any, player: str, legal: list[Any], level: str = "", *,
                   expand: Any = None) -> Any:
        return Pick(player, (view["round"] * (int(player[1:]) + 1)) % 9 + 1)


RULESET = PickANumber()


def register(monkeypatch: Any) -> PickANumber:
    """Make ``pick-a-number`` known to the registry for one test (``monkeypatch``)."""
    monkeypatch.setitem(registry.RULESETS, RULESET.name, "pick_ruleset:RULESET")
    monkeypatch.setitem(registry._loaded, RULESET.name, RULESET)
    return RULESET
