"""Wizard Kings' rules core: maps and geometry (maps/FORMAT.md, LAYOUTS.md), notation
round trips (notation.md §2), views hiding other owners' blocks (R111), determinism.
"""

from __future__ import annotations

import itertools

import pytest

from core import registry
from core.wizardkings.actions import NotationError, parse
from core.wizardkings.maps import LAYOUTS, Board, MapError, neighbour

RS = registry.get("wizard-kings")


def test_neighbours_follow_the_flat_topped_table() -> None:
    """FORMAT.md §1: even and odd columns."""
    assert neighbour(2, 3, "ne") == (3, 2) and neighbour(3, 3, "ne") == (4, 3)
    assert neighbour(2, 3, "sw") == (1, 3) and neighbour(3, 3, "sw") == (2, 4)


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_every_arrangement_of_the_maps_links(layout: str) -> None:
    """LAYOUTS.md: any map fits any slot; every arrangement validates."""
    n = len(LAYOUTS[layout])
    for maps in itertools.permutations([1, 2, 3, 4], n):
        b = Board(layout, list(maps))
        assert len(b.hexes) == 72 * n


def test_worked_example_of_map_one() -> None:
    """FORMAT.md §6: the Silverrun at d4, its bridge, the lower section d7-e7."""
    b = Board("1-map", [1])
    ne = b.parse_side("1d4:ne")
    assert (ne.water, ne.bridge, ne.road) == ("river", True, True)
    se = b.parse_side("1d4:se")
    assert (se.water, se.bridge) == ("river", False)
    assert b.parse_side("1d7:ne").water == "all"
    assert b.parse_side("1d3:s").course  # a river step d3-d4
    assert b.parse_side("1c4:se") is b.parse_side("1d4:nw")


def test_seams_join_the_edge_roads_and_turn_the_south_maps() -> None:
    """LAYOUTS.md: 1h4:ne = 2a4:sw is a road hexside; a turned map's n side faces south."""
    b = Board("2-map", [1, 2])
    assert b.parse_side("1h4:ne") is b.parse_side("2a4:sw") and b.parse_side("1h4:ne").road
    s = Board("2-map-strait", [3, 4])
    assert s.step("4a9", "n") is None or s.hexes[s.step("4a9", "n") or ""].gr > s.hexes["4a9"].gr
    assert s.hexes["4a9"].gr == 9 and s.hexes["4a1"].gr == 17
    assert s.side_between("3a9", s.at[(0, 9)]) is not None
    assert s.side_between("3a9", s.at[(0, 9)]).water == "all"  # type: ignore[union-attr]


def test_bad_layouts_are_refused_in_words() -> None:
    """Unknown layout, wrong number of maps."""
    with pytest.raises(MapError, match="unknown layout"):
        Board("3-map", [1, 2, 3])
    with pytest.raises(MapError, match="takes 2 different maps"):
        Board("2-map", [1, 1])


@pytest.mark.parametrize("text", [
    "P1 move 3,5 1d4-1e4", "P1 transport 3 1e8-1e9-1f8-1g8", "P1 cast elfshot 4 @P2.7",
    "P2 cast fireball 2", "P1 retreat 3 1c4 eliminate=6", "P2 hit 5", "P1 battle 2a4",
    "P1 build castle=1e3 disband=9 merge=4>6:1 new=glader@1c2:2,ranger@1c2:1 step=5:2",
    "P1 deploy standard", "P1 end", "P1 fire", "P1 pass 3", "P1 regroup 3 1e4"])
def test_notation_round_trips(text: str) -> None:
    """notation.md §2: parse(str(a)) == a, and the canonical text is kept."""
    a = parse(text)
    assert str(a) == text and parse(str(a)) == a
    assert RS.action_from_wire(a.to_wire()) == a


def test_notation_puts_things_in_canonical_order() -> None:
    """Labels ascending, build keys alphabetical."""
    assert str(parse("P1 move 5,3 1d4")) == "P1 move 3,5 1d4"
    assert str(parse("P1 build step=5:2 new=glader@1c2:2")) == \
        "P1 build new=glader@1c2:2 step=5:2"


@pytest.mark.parametrize("text", ["P1 fly 3 1c4", "P9 end", "P1 move 3 1z4", "P1 build gold=3",
                                  "P1 move 3,3 1c4"])
def test_bad_notation_is_refused(text: str) -> None:
    """A clear NotationError."""
    with pytest.raises(NotationError):
        parse(text)


def _deployed(seed: int = 7) -> object:
    st = RS.new_game({}, seed)
    RS.apply(st, "P1 deploy standard")
    RS.apply(st, "P2 deploy standard")
    return st


def test_standard_deployment_fills_every_city_and_starts_turn_one() -> None:
    """R11, R12, R13: every owned city gets a unit; labels 1..14; then initiative, movement."""
    st = _deployed()
    g = st.d  # type: ignore[attr-defined]
    assert g["phase"] == "movement" and g["turn"] == 1 and len(g["order"]) == 2
    for p, m in (("P1", 1), ("P2", 2)):
        mine = [x for x in g["blocks"].values() if x["owner"] == p]
        assert sorted(x["label"] for x in mine) == list(range(1, 15))
        cities = {h for h in ("1c2", "1e7", "1b6", "1g2", "1a8", "1g8")} if m == 1 else None
        if cities:
            assert cities <= {x["at"] for x in mine}


def test_view_hides_other_owners_blocks() -> None:
    """R111: an opponent sees label, owner and hex only; the owner sees everything."""
    st = _deployed()
    v2 = RS.view(st, "P2")
    v1 = RS.view(st, "P1")
    b = v2["blocks"]["P1.1"]
    assert b["type"] == "" and b["strength"] == 0 and b["at"]
    assert v1["blocks"]["P1.1"]["type"] != ""
    assert isinstance(v2["pool"]["P1"], int) and isinstance(v2["pool"]["P2"], dict)
    other = RS.redeal_hidden(st, "P2", 3)
    assert RS.view(other, "P2") == v2


def test_same_seed_same_game_and_refusals_change_nothing() -> None:
    """Determinism (R7, R118): the same seed and actions give the same hashes; a refused
    action leaves the state byte-identical."""
    a, b = _deployed(11), _deployed(11)
    assert RS.state_hash(a) == RS.state_hash(b)
    before = RS.state_to_wire(a)
    p = RS.to_move(a)[0]
    assert RS.why_illegal(a, f"{p} move 1 1a1-1a2-1a3-1a4-1a5")
    from core.engine import IllegalAction
    with pytest.raises(IllegalAction):
        RS.apply(a, f"{p} move 1 1a1-1a2-1a3-1a4-1a5")
    assert RS.state_to_wire(a) == before


def test_a_random_playout_ends() -> None:
    """Random legal play reaches the end (victory or the turn limit)."""
    from core.rng import Rng

    st = RS.new_game({"turn_limit": 10}, 5)
    pick = Rng.from_seed("wk playout")
    for _ in range(3000):
        if RS.result(st).over:
            break
        p = RS.to_move(st)[0]
        legal = RS.legal_actions(st, p)
        assert legal, f"{p} to move with nothing listed"
        RS.apply(st, legal[pick.below(len(legal))])
    assert RS.result(st).over


def test_view_does_not_tell_whether_a_hidden_block_flew() -> None:
    """R52, R46: the Flyer flag of an entry and the limit counts depend on hidden types."""
    from core.wizardkings.scenario import load

    st = load({"game": {"order": ["P1", "P2"], "active": "P1"},
               "block": [{"id": "P2.1", "type": "goblin", "at": "1c4"},
                         {"id": "P1.1", "type": "pixie", "at": "1c4", "from": "1b4"}]})
    v = RS.view(st, "P2")
    assert v["entries"]["1c4"][0][3] == -1 and "counts" not in v
    assert RS.view(st, "P1")["entries"]["1c4"][0][3] == 1


def test_a_map_that_breaks_the_format_is_refused(tmp_path: object,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """FORMAT.md §5: city GP must add up to 10; a river must end on the coast."""
    from pathlib import Path

    from core.wizardkings import maps

    src = (maps.DATA / "map1.toml").read_text()
    d = Path(str(tmp_path))
    for i in (2, 3, 4):
        (d / f"map{i}.toml").write_text((maps.DATA / f"map{i}.toml").read_text())
    monkeypatch.setattr(maps, "DATA", d)
    (d / "map1.toml").write_text(src.replace('gp = 3', 'gp = 2', 1))
    with pytest.raises(MapError, match="add up to 10"):
        Board("1-map", [1])
    (d / "map1.toml").write_text(src.replace('"d6", "d7"]', '"d6"]'))
    with pytest.raises(MapError, match="coastal"):
        Board("1-map", [1])


def test_broken_river_banks_and_a_missing_seam_road_are_refused(
        tmp_path: object, monkeypatch: pytest.MonkeyPatch) -> None:
    """FORMAT.md §5.4: a river's banks form one unbroken line of hexsides (a gap would let
    ground units walk round the river); §4: a road passes through a4 and through h4."""
    from pathlib import Path

    from core.wizardkings import maps

    src = (maps.DATA / "map1.toml").read_text()
    d = Path(str(tmp_path))
    for i in (2, 3, 4):
        (d / f"map{i}.toml").write_text((maps.DATA / f"map{i}.toml").read_text())
    monkeypatch.setattr(maps, "DATA", d)
    (d / "map1.toml").write_text(src)
    Board("1-map", [1])
    (d / "map1.toml").write_text(src.replace('"d5:ne", "d5:se", ', '', 1))
    with pytest.raises(MapError, match="Silverrun's banks do not form one unbroken line"):
        Board("1-map", [1])
    (d / "map1.toml").write_text(src.replace('path = ["a4", "b4",', 'path = ["b4",', 1))
    with pytest.raises(MapError, match="no road passes through a4"):
        Board("1-map", [1])


def test_last_seen_is_the_strength_a_block_stood_up_with() -> None:
    """R111: every view keeps a block's last revealed values as ``seen``. A block hit down
    in a battle (or paying a spell's steps) and surviving is remembered at the strength it
    had when its battle ended, not at the strength it was revealed with (trial finding 2:
    ``hidden (last seen: orc 4)`` after ``P2.10 loses a step (strength 3)``)."""
    st = RS.new_game(RS.validate_options({"turn_limit": 10}), 7)
    fighters: dict[str, list[str]] = {}
    lowered: set[str] = set()  # blocks that lost a step in the battle being fought
    checked = 0
    for _ in range(4000):
        if RS.result(st).over:
            break
        events = RS.apply(st, RS.bot_act(st, RS.to_move(st)[0], "captain"))
        g = st.d
        for e in events:
            if e.kind == "battle_started":
                fighters[e.data["hex"]] = list(e.data["blocks"])
            elif e.kind in ("hit", "steps_paid"):
                lowered.add(e.data["block"])
            elif e.kind == "battle_ended":
                for b in fighters.pop(e.data["hex"], []):
                    x = g["blocks"][b]
                    if x["state"] != "map":
                        continue
                    assert x["seen"] == [x["type"], x["strength"]], (b, x)
                    other = next(p for p in g["players"] if p != x["owner"])
                    them = RS.view(st, other)["blocks"][b]
                    assert them["seen"] == [x["type"], x["strength"]], (b, them)
                    checked += b in lowered
                lowered = set()
    assert checked >= 2, "no block survived a battle after losing a step"


def test_a_local_game_over_shows_every_block_face_up() -> None:
    """R119 (a finished game has no secret left; the replay's "everyone"): once a local game
    is over, every view shows every block's type and strength and every pool by type, so the
    board (``b``) and the game-over screen show the blocks face up; before, they are hidden."""
    st = RS.new_game(RS.validate_options({}), 7)
    while st.d["phase"] == "setup":
        p = RS.to_move(st)[0]
        RS.apply(st, RS.parse_action(f"{p} deploy standard"))
    theirs = [b for b, x in st.d["blocks"].items() if x["owner"] == "P2" and x["state"] == "map"]
    assert theirs and all(RS.view(st, "P1")["blocks"][b]["type"] == "" for b in theirs)
    assert isinstance(RS.view(st, "P1")["pool"]["P2"], int)
    p = RS.to_move(st)[0]
    RS.apply(st, RS.parse_action(f"{p} resign"))
    assert RS.result(st).over
    for viewer in ("P1", "P2"):
        v = RS.view(st, viewer)
        for b, x in st.d["blocks"].items():
            if x["state"] == "map":
                assert [v["blocks"][b]["type"], v["blocks"][b]["strength"]] == \
                    [x["type"], x["strength"]], (viewer, b)
        assert v["pool"] == st.d["pool"]
    # nothing is left to redeal: the selfplay/conformance "no view shows a hidden block" holds
    assert RS.view(RS.redeal_hidden(st, "P1", 3), "P1") == RS.view(st, "P1")


def test_a_local_movement_phase_caster_is_seen_after_it_pays() -> None:
    """R81 step 2, R111: a movement-phase caster is revealed, locally as on a LAN, so once
    the spell is over every other view keeps its values after paying as ``seen`` (wkfixA's
    note: locally ``shown`` was never set and the caster stayed unseen)."""
    st = RS.new_game(RS.validate_options({"turn_limit": 10}), 7)
    for _ in range(3000):
        assert not RS.result(st).over, "no movement-phase spell was cast"
        p = RS.to_move(st)[0]
        casts = [a for a in RS.legal_actions(st, p)
                 if " cast " in f" {a} " and st.d["phase"] == "movement"]
        if casts:
            a = casts[0]
            b = f"{p}.{str(a).split()[3]}"
            RS.apply(st, a)
            while st.d.get("mspell"):  # the Dispel windows: everyone lets it work
                q = RS.to_move(st)[0]
                RS.apply(st, RS.parse_action(f"{q} pass"))
            x = st.d["blocks"][b]
            other = next(o for o in st.d["players"] if o != p)
            seen = RS.view(st, other)["blocks"][b]
            assert seen["type"] == "" and seen["seen"] == [x["type"], x["strength"]], (a, seen)
            return
        RS.apply(st, RS.bot_act(st, p, "captain"))
