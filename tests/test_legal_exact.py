"""Wiz-War's ``legal_actions`` lists exactly what ``apply`` accepts (issue "One engine, three
games", deliverable 2): the cases the conformance suite found, pinned on built positions.

Each test builds a position, checks that the action the listing once left out is accepted
*and* listed (so the app's action list and the bots can play it), and that the position is
exact over the whole probe (``core.wizwar.conformance.probe_actions``).
"""

from __future__ import annotations

from typing import Any

import pytest

from core import registry
from core.wizwar.scenario import build_state

RS = registry.get("wizwar")


def _state(hand: list[str], *, at: str = "a1", others: tuple[str, ...] = ("l12",),
           size: str = "12x12", **extra: Any) -> Any:
    players = [{"at": at, "hand": hand}, *[{"at": o} for o in others]]
    return build_state({"board": {"size": size, **extra.pop("board", {})},
                        "players": players, **extra})


def _listed(state: Any, seat: str = "P1") -> set[str]:
    return {str(a) for a in RS.legal_actions(state, seat)}


def _members(state: Any, seat: str = "P1") -> set[str]:
    return {str(a) for f in RS.families(state, seat) for a in RS.expand(state, seat, f)}


def _exact(state: Any, seat: str = "P1") -> list[str]:
    """The accepted probes that are neither listed nor family members (want none)."""
    known = _listed(state, seat) | _members(state, seat)
    return [str(a) for a in RS.probe_actions(state, seat)
            if str(a) not in known and RS.why_illegal(state, a) == ""]


def test_walks_of_several_squares_are_a_family() -> None:
    """A walk told at once (``P1 move b1-c1``) is accepted; it is a member of the family
    ``move-path:2`` (walks are listed square by square), not of the listing."""
    st = _state([])
    assert RS.why_illegal(st, RS.parse_action("P1 move b1-c1")) == ""
    assert "P1 move b1-c1" not in _listed(st)
    assert RS.families(st, "P1") == ["move-path:2", "move-path:3"]
    two = {str(a) for a in RS.expand(st, "P1", "move-path:2")}
    assert {"P1 move b1-c1", "P1 move b1-a1", "P1 move a2-a3", "P1 move a2-b2"} <= two
    three = {str(a) for a in RS.expand(st, "P1", "move-path:3")}
    assert "P1 move b1-c1-d1" in three and len(three) > len(two)
    assert RS.expand(st, "P1", "move-path:4") == []  # three squares of movement
    assert RS.families(st, "P2") == []  # not his turn


def test_a_walk_stops_at_a_wall_and_in_a_thornbush() -> None:
    """The family holds only what apply accepts: no walk through a wall, none beyond a
    thornbush (entering one ends the move)."""
    st = _state([], board={"walls": ["a1:e"], "bushes": ["a2"]})
    two = {str(a) for a in RS.expand(st, "P1", "move-path:2")}
    assert not any(p.startswith("P1 move b1") or p.startswith("P1 move a2-") for p in two)
    assert RS.expand(st, "P1", "move-path:2") == [] or _exact(st) == []


@pytest.mark.parametrize("hand,action", [
    (["teleport-opponent"], "P1 play teleport-opponent @P2 to=l1"),
    (["thornbush"], "P1 play thornbush @a12"),
])
def test_far_targets_are_listed(hand: list[str], action: str) -> None:
    """Teleport Opponent to a far square and Thornbush beyond three squares: accepted and
    listed (they were accepted but never listed, so no app list and no bot could play
    them)."""
    st = _state(hand, others=("a9",))
    assert RS.why_illegal(st, RS.parse_action(action)) == ""
    assert action in _listed(st)
    assert _exact(st) == []
