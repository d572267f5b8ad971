"""A test-only ruleset with an owner-held secret, "Hidden number" (``hidden-number``).

P1 and P2 each hide a number 1-9 (``P1 hide 7``: an owner-held secret, ``Secret(holder=
"owner")``; every other process gets ``P1 hide`` and a commitment, ``Ruleset.seal`` with
``by="owner"``). Then, ``rounds`` times each, a seat asks about the other's number (``P1 ask
5``: "is yours at least 5?") and the rules ask the owner: a ``reveal`` stage whose holder's
process answers on its own from its secret (``Ruleset.answer``: ``P2 answer yes``). A seat
scores a point for every "yes" it is told. Nobody but the owner knows a number until the end,
where the audit opens every secret and checks every answer (``core.log.audit_answers``).
Register it in a test with :func:`register` (never in the real registry).
"""

from __future__ import annotations

from hashlib import blake2b
from typing import Any

from core import registry
from core.codec import pack
from core.engine import (
    IllegalAction,
    Option,
    OptionsSchema,
    Outcome,
    Ruleset,
    Sealed,
    Secret,
    Stage,
)

SEATS = ["P1", "P2"]


def _other(seat: str) -> str:
    return "P2" if seat == "P1" else "P1"


class Move:
    """``P1 hide 7`` / ``P1 hide`` (the public form) / ``P1 ask 5`` / ``P2 answer yes``."""

    def __init__(self, actor: str, verb: str, arg: Any = None) -> None:
        self.actor, self.verb, self.arg = actor, verb, arg

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Move) and self.to_wire() == other.to_wire()

    def __hash__(self) -> int:
        return len(self.verb)

    def __str__(self) -> str:
        return " ".join([self.actor, self.verb] + ([] if self.arg is None else [str(self.arg)]))

    def __repr__(self) -> str:
        return f"Move({str(self)!r})"

    def to_wire(self) -> list[Any]:
        """``[actor, verb, arg]`` (``arg`` None in the public form of ``hide``)."""
        return [self.actor, self.verb, self.arg]


class HiddenNumber(Ruleset):
    """See the module docstring."""

    name = "hidden-number"
    title = "Hidden number"
    version = 1
    options = OptionsSchema((Option("rounds", "int", 2, "Rounds", lo=1, hi=5),))
    secrets = (Secret("number", "owner", "each seat's hidden number: its owner only"),)
    bot_levels = ("plain",)

    def seats(self, options: Any) -> list[str]:
        return list(SEATS)

    def new_game(self, options: Any, seed: Any, *, names: Any = (), deal: Any = None) -> Any:
        o = self.validate_options(options)
        return {"rounds": o["rounds"], "hidden": {}, "number": {}, "asked": [],
                "answers": [], "score": dict.fromkeys(SEATS, 0), "seq": 0}

    # the phases: both hide (P1 then P2), then asks and answers alternate
    def _phase(self, st: Any) -> tuple[str, str]:
        for s in SEATS:
            if s not in st["hidden"]:
                return "hide", s
        if len(st["asked"]) > len(st["answers"]):
            return "answer", _other(st["asked"][-1][0])
        if len(st["answers"]) >= 2 * st["rounds"]:
            return "over", ""
        return "ask", SEATS[len(st["asked"]) % 2]

    def stage(self, st: Any) -> Stage:
        phase, seat = self._phase(st)
        if phase == "over":
            return Stage("over")
        if phase == "answer":
            return Stage("reveal", (), st["seq"], holder=seat)
        return Stage("act", (seat,), st["seq"])

    def legal_actions(self, st: Any, player: str) -> list[Any]:
        phase, seat = self._phase(st)
        if player != seat or phase not in ("hide", "ask"):
            return []
        return [Move(player, phase, n) for n in range(1, 10)]

    def why_illegal(self, st: Any, a: Any) -> str:
        if isinstance(a, str):
            a = self.parse_action(a)
        phase, seat = self._phase(st)
        if phase == "over":
            return "the game is over"
        if a.actor != seat:
            return f"{seat} must {phase} now"
        if a.verb != phase:
            return f"{seat} must {phase} now, not {a.verb}"
        if phase == "answer":
            return "" if a.arg in ("yes", "no") else "answer yes or no"
        if phase == "hide" and a.arg is None:
            return ""  # the public form: the number stays with its owner
        return "" if isinstance(a.arg, int) and 1 <= a.arg <= 9 else "a number from 1 to 9"

    def apply(self, st: Any, a: Any) -> list[Any]:
        if isinstance(a, str):
            a = self.parse_action(a)
        why = self.why_illegal(st, a)
        if why:
            raise IllegalAction(why)
        if a.verb == "hide":
            st["hidden"][a.actor] = 1
            if a.arg is not None:  # the owner's process (or a local game) knows it
                st["number"][a.actor] = a.arg
        elif a.verb == "ask":
            st["asked"].append([a.actor, a.arg])
        else:
            asker = st["asked"][-1][0]
            st["answers"].append([a.actor, a.arg])
            if a.arg == "yes":
                st["score"][asker] += 1
        st["seq"] += 1
        return []

    def answer(self, st: Any, holder: str) -> Any:
        """``holder answer yes`` if its number is at least the one asked, else ``no``."""
        if holder not in st["number"]:
            raise ValueError(f"this process does not hold {holder}'s number")
        asked = st["asked"][-1][1]
        return Move(holder, "answer", "yes" if st["number"][holder] >= asked else "no")

    def seal(self, st: Any, a: Any) -> Sealed | None:
        """``hide N`` is the owner's: others get ``hide`` (no number) and a commitment."""
        if a.verb == "hide" and a.arg is not None:
            return Sealed((a.actor,), Move(a.actor, "hide"), by="owner")
        return None

    def view(self, st: Any, player: str) -> Any:
        mine = st["number"].get(player)
        return {"asked": [list(x) for x in st["asked"]], "score": dict(st["score"]),
                "mine": mine}

    def result(self, st: Any) -> Outcome:
        if self._phase(st)[0] != "over":
            return Outcome()
        top = max(st["score"].values())
        return Outcome(True, tuple(s for s in SEATS if st["score"][s] == top), how="points",
                       text="most yes answers")

    def state_hash(self, st: Any) -> str:
        """Everything but the hidden numbers (which only their owners hold)."""
        public = {k: v for k, v in st.items() if k != "number"}
        return blake2b(pack(public), digest_size=8).hexdigest()

    def seq(self, st: Any) -> int:
        return int(st["seq"])

    def parse_action(self, text: str) -> Any:
        words = text.split()
        try:
            if len(words) == 2 and words[1] == "hide" and words[0] in SEATS:
                return Move(words[0], "hide")
            seat, verb, arg = words
            if seat not in SEATS or verb not in ("hide", "ask", "answer"):
                raise ValueError
            return Move(seat, verb, arg if verb == "answer" else int(arg))
        except ValueError:
            raise ValueError(f"not an action: {text!r}") from None

    def action_from_wire(self, data: Any) -> Any:
        if not (isinstance(data, list) and len(data) == 3 and data[0] in SEATS
                and data[1] in ("hide", "ask", "answer")):
            raise ValueError("not an action")
        arg = data[2]
        ok = (arg in ("yes", "no")) if data[1] == "answer" else (
            arg is None and data[1] == "hide" or isinstance(arg, int)
            and not isinstance(arg, bool))
        if not ok:
            raise ValueError("not an action")
        return Move(data[0], data[1], arg)

    def state_to_wire(self, st: Any) -> Any:
        return {**st, "hidden": dict(st["hidden"]), "number": dict(st["number"]),
                "asked": [list(x) for x in st["asked"]],
                "answers": [list(x) for x in st["answers"]], "score": dict(st["score"])}

    def state_from_wire(self, data: Any) -> Any:
        return self.state_to_wire(data)

    def bot_choose(self, view: Any, player: str, legal: list[Any], level: str = "",
                   expand: Any = None) -> Any:
        return legal[(len(view["asked"]) * 4 + int(player[1:]) * 3) % len(legal)]


RULESET = HiddenNumber()


def register(monkeypatch: Any) -> HiddenNumber:
    """Make ``hidden-number`` known to the registry for one test (``monkeypatch``)."""
    monkeypatch.setitem(registry.RULESETS, RULESET.name, "secret_ruleset:RULESET")
    monkeypatch.setitem(registry._loaded, RULESET.name, RULESET)
    return RULESET
