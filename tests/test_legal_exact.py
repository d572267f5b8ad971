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
from core.wizwar.actions import Action
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
    """The family holds only what apply accepts: no walk through a wall, none on beyond a
    thornbush (entering one ends the move)."""
    st = _state([], board={"walls": ["a1:e"], "bushes": ["a2"]})
    two = {str(a) for a in RS.expand(st, "P1", "move-path:2")}
    assert two == set()  # b1 is behind a wall; a2 is a bush: the walk ends there
    assert {"P1 move a2"} == {t for t in _listed(st) if " move " in t}
    assert RS.why_illegal(st, RS.parse_action("P1 move a2-a3"))
    assert _exact(st) == []


def test_ending_the_turn_drawing_fewer_is_listed() -> None:
    """``end draw 0`` and ``end draw 1`` are accepted (draw up to 2, RB) and listed."""
    st = _state([])
    assert {"P1 end", "P1 end draw 0", "P1 end draw 1"} <= _listed(st)


def test_card_erasure_names_any_card() -> None:
    """Card Erasure may name any card (cards.md): every name is listed, not four."""
    st = _state(["card-erasure"], others=("a5",))
    names = {t for t in _listed(st) if "card-erasure" in t}
    assert "P1 play card-erasure @P2 name=2" in names
    assert "P1 play card-erasure @P2 name=fireball" in names
    assert len(names) > 50


def test_waterbolt_on_a_diagonal_names_its_push() -> None:
    """On a diagonal the caster names the push (cards.md §1.8): those are listed (the plain
    form is refused there), and a dir= off the diagonal is refused, not a second spelling."""
    st = _state(["waterbolt", "2"], at="b2", others=("c3", "b4"))
    listed = _listed(st)
    assert "P1 play waterbolt @P2 +2 dir=e" in listed
    assert "P1 play waterbolt @P2 +2 dir=s" in listed
    assert "P1 play waterbolt @P2 +2" not in listed
    assert RS.why_illegal(st, RS.parse_action("P1 play waterbolt @P2 +2"))
    assert "P1 play waterbolt @P3 +2" in listed
    assert "only for a target on a diagonal" in \
        RS.why_illegal(st, RS.parse_action("P1 play waterbolt @P3 +2 dir=s"))
    assert _exact(st) == []


def test_objects_thrown_at_a_square_are_a_family() -> None:
    """A dagger thrown at a far square is accepted: a member of ``throw:dagger``."""
    st = _state(["dagger"], others=("a9",))
    assert "throw:dagger" in RS.families(st, "P1")
    members = {str(a) for a in RS.expand(st, "P1", "throw:dagger")}
    assert "P1 play dagger @a12 mode=throw" in members
    assert "P1 play dagger @a12 mode=throw" not in _listed(st)
    assert _exact(st) == []


def test_a_drag_along_a_walk_is_a_family() -> None:
    """Drag along two squares: a member of ``drag-path:2``."""
    st = _state(["drag"], others=("a1",))
    members = {str(a) for a in RS.expand(st, "P1", "drag-path:2")}
    assert "P1 play drag @P2 path=a2-a3" in members
    assert "P1 play drag @P2 path=a2" in _listed(st)


def test_a_wall_of_fire_block_takes_no_number() -> None:
    """Played as a block, a Wall of Fire once took a number card and ignored it."""
    st2 = build_state({"board": {"size": "5x5"},
                       "players": [{"at": "a1", "hand": ["fireball", "3"]},
                                   {"at": "a4", "hand": ["wall-of-fire", "2"]}]})
    RS.apply(st2, RS.parse_action("P1 play fireball @P2 +3"))
    assert "P2 play wall-of-fire @a2:s" in _listed(st2, "P2")
    assert "no number" in RS.why_illegal(st2, RS.parse_action("P2 play wall-of-fire @a2:s +2"))
    assert _exact(st2, "P2") == []


def test_teleport_opponent_to_a_far_square_is_listed() -> None:
    """Teleport Opponent to a far square: accepted and listed (it was accepted but never
    listed, so no app list and no bot could play it)."""
    st = _state(["teleport-opponent"], others=("a9",))
    action = "P1 play teleport-opponent @P2 to=l1"
    assert RS.why_illegal(st, RS.parse_action(action)) == ""
    assert action in _listed(st)
    assert _exact(st) == []


@pytest.mark.parametrize("hand,action,family", [
    (["thornbush"], "P1 play thornbush @a12", "far:thornbush"),
    (["create-wall"], "P1 play create-wall @a10:s", "far:create-wall"),
    (["waterwall", "3"], "P1 play waterwall @a10:s +3", "far:waterwall"),
])
def test_far_creations_are_a_family(hand: list[str], action: str, family: str) -> None:
    """Thornbush beyond three squares (and every creation far in line of sight): accepted,
    a member of ``far:<slug>`` (a line traced to every square and side at every step was too
    slow to list), the near ones still listed."""
    st = _state(hand, others=("l12",))
    assert RS.why_illegal(st, RS.parse_action(action)) == ""
    assert action not in _listed(st)
    assert family in RS.families(st, "P1")
    assert action in {str(a) for a in RS.expand(st, "P1", family)}
    assert any(t.startswith(action.rsplit(" @", 1)[0] + " @") for t in _listed(st))
    assert _exact(st) == []


def test_a_large_rock_has_one_written_form() -> None:
    """A Large Rock is always thrown (cards.md large-rock: ``P1 play large-rock @P2``): the
    redundant ``mode=throw`` is refused with a reason, and no listing or family holds both
    forms of one throw (the action list showed every throw twice; found by a trial)."""
    from core import registry

    rs = registry.get("wizwar")
    for seed in range(40):
        st = rs.new_game(rs.validate_options({"players": 2}), seed)
        seat = rs.to_move(st)[0]
        hand = {st.faces[c] for c in st.wizard(seat).hand}
        if "large-rock" in hand:
            break
    else:
        pytest.skip("no seed dealt a Large Rock")
    st.round = 2
    every = list(rs.legal_actions(st, seat))
    for fam in rs.families(st, seat):
        every += rs.expand(st, seat, fam)
    rocks = [a for a in every if a.card == "large-rock" and a.verb == "play"]
    assert rocks and not any(a.arg("mode") for a in rocks)
    other = next(s for s in rs.seats({"players": 2}) if s != seat)
    assert "leave out mode=throw" in rs.why_illegal(
        st, rs.parse_action(f"{seat} play large-rock @{other} mode=throw"))


def test_drop_object_naming_several_things_is_a_family() -> None:
    """Drop Object +3 may name up to three things (cards.md drop-object): the lists of two and
    three sorted names are the families ``drop-names:2`` and ``drop-names:3``; a list longer
    than the count, unsorted or with a repeat is refused in words; the probe is exact."""
    st = build_state({"board": {"size": "5x5"},
                      "players": [{"at": "a1", "hand": ["drop-object", "3"], "treasures": ["e5", ""]},
                                  {"at": "a5", "carrying": "P1.t1", "treasures": ["e1", ""]}]})
    fams = RS.families(st, "P1")
    assert [f for f in fams if f.startswith("drop-names:")] == ["drop-names:2", "drop-names:3"]
    two = {str(a) for a in RS.expand(st, "P1", "drop-names:2")}
    three = {str(a) for a in RS.expand(st, "P1", "drop-names:3")}
    assert "P1 play drop-object @P2 +3 drop=P1.t1,dagger" in two
    assert "P1 play drop-object @P2 drop=P1.t1,dagger" not in two  # count 1: one name
    assert "P1 play drop-object @P2 +3 drop=P1.t1,P2.t1,dagger" in three
    assert not two & _listed(st) and not three & _listed(st)
    for text, why in [("P1 play drop-object @P2 drop=P1.t1,dagger", "up to 1 thing"),
                      ("P1 play drop-object @P2 +3 drop=dagger,dagger", "once")]:
        assert why in RS.why_illegal(st, RS.parse_action(text))
    # the notation and the wire form sort the names; an unsorted list built by hand is refused
    assert str(RS.parse_action("P1 play drop-object @P2 +3 drop=dagger,p1.t1")) == \
        "P1 play drop-object @P2 +3 drop=P1.t1,dagger"
    wire = ["P1", "play", "drop-object", ["P2"], 3, [["drop", "dagger,P1.t1"]]]
    assert RS.action_from_wire(wire).arg("drop") == "P1.t1,dagger"
    raw = Action("P1", "play", "drop-object", ("P2",), 3, (("drop", "dagger,P1.t1"),))
    assert "in order" in RS.why_illegal(st, raw)
    assert _exact(st) == []
