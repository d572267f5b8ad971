"""ArcoMage's rules core below the scenarios: the field's geometry against rules.md's
tables, the notation, setup, hashing and views (Source: ../shared/arcomage/rules.md §2, §3,
§18; notation.md §2)."""

from __future__ import annotations

import re

import pytest
import shared

from core.arcomage import field as fld
from core.arcomage.actions import NotationError, parse
from core.arcomage.data import BOOKS, CREATURES, SPELLS
from core.arcomage.effects import EFFECTS
from core.arcomage.ruleset import RULESET as R
from core.codec import pack
from core.engine import IllegalAction, OptionError


# ---- the field (R8-R19) ----------------------------------------------------------------
def test_neighbour_table_matches_rules_md() -> None:
    """R10's printed table, parsed from rules.md, is exactly what the field computes
    (neighbours clockwise from twelve, Nexus hexes included)."""
    text = (shared.need("arcomage") / "rules.md").read_text()
    rows = re.findall(r"^\| (\w\d)(?: \(Nexus\))? \| ([^|]+) \| (\w\d)(?: \(Nexus\))? \| ([^|]+) \|$",
                      text, re.M)
    table = {}
    for a, na, b, nb in rows:
        table[a] = [x.strip(" []") for x in na.split(",")]
        table[b] = [x.strip(" []") for x in nb.split(",")]
    assert len(table) == 24
    for h in fld.HEXES:
        assert fld.neighbours(h) == table[h], h


def test_coordinates_and_reading_order() -> None:
    """R9's coordinates and R18's reading order."""
    assert len(fld.HEXES) == 24 and fld.HEXES[0] == "a1" and fld.HEXES[-1] == "e4"
    assert fld.XY["c3"] == (4, 2) and fld.XY["b5"] == (9, 1) and fld.XY["e1"] == (2, 4)
    assert not fld.passable("c3") and not fld.passable("c4") and fld.passable("c2")


def test_clockwise_examples_of_r19() -> None:
    """The four worked examples of R19."""
    assert fld.clockwise_sorted("c2", fld.neighbours("c2")) == ["b2", "c3", "d2", "d1", "c1",
                                                                  "b1"]
    assert fld.clockwise_sorted("c2", ["d2", "b1"])[0] == "d2"
    assert fld.clockwise_sorted("c2", ["b2", "a1", "e1"])[0] == "a1"
    assert fld.clockwise_sorted("d5", ["a3", "e2"]) == ["e2", "a3"]
    assert fld.clockwise_sorted("c1", ["a1", "b1"]) == ["b1", "a1"]


def test_distances_of_r16_and_r17() -> None:
    """c1 to c6: 6 walking around the Nexus, 5 on the grid; occupied hexes are walked
    around, but the last hex may be occupied."""
    assert fld.distances("c1", lambda h: False)["c6"] == 6
    assert fld.grid_distance("c1", "c6") == 5
    assert fld.grid_distance("b2", "d5") == 4 and fld.grid_distance("b2", "d3") == 2
    walled = {"b1", "c2", "d1"}
    d = fld.distances("c1", lambda h: h in walled)
    assert d["b1"] == 1 and "b2" not in d  # c1 is boxed in: it reaches only its neighbours


def test_nearest_breaks_ties_clockwise_and_skips_unreachable() -> None:
    """R108: smallest distance, then clockwise from twelve; unreachable ones are not
    candidates."""
    free = lambda h: False  # noqa: E731
    assert fld.nearest("c1", ["b2", "d2"], free) == "b2"
    assert fld.nearest("c1", ["d2", "a1"], free) == "a1"  # about 1-2 o'clock before 4
    assert fld.nearest("c1", ["e4", "a2"], free) == "a2"   # distance 3 before 5
    boxed = {"b1", "c2", "d1"}
    assert fld.nearest("c1", ["e4"], lambda h: h in boxed) == ""  # unreachable
    assert fld.nearest("c1", [], free) == ""


# ---- content ---------------------------------------------------------------------------
def test_every_spell_has_one_row_and_one_effect() -> None:
    """64 spells, each with an effect function keyed by its slug; the counts of spells.md."""
    assert len(SPELLS) == 64 and set(EFFECTS) == set(SPELLS)
    assert len(CREATURES) == 11
    for name, book in BOOKS.items():
        assert len(book) == 20 and len(set(book)) == 20, name
        assert sum(SPELLS[s].circle >= 5 for s in book) <= 6


# ---- notation --------------------------------------------------------------------------
@pytest.mark.parametrize("text", [
    "P1 cast firebolt @P2", "P1 cast firebolt @d4", "P1 cast doppelganger @b2,d4",
    "P1 cast shadow-step @b2 to=d3", "P1 cast reassign moves=altar>mage-tower,quarry>tower",
    "P1 cast recruit at=altar", "P1 cast magic-lock @P2:fireball",
    "P1 cast magic-trap @P2:? commit=" + "9f" * 16, "P2 cast counterspell @P1:fireball",
    "P2 cast dispel @b2/levitate", "P2 cast dispel @P1/wraith-form",
    "P1 cast landslide @P2.altar", "P1 cast protection", "P1 move c2-b2-b3", "P1 end",
    "P1 attack b4>P2,d4>d5", "P1 attack", "P2 block c5>b5", "P2 block", "P2 pass",
    "P1 choose b2", "P1 reveal fireball n=2 salt=" + "4b" * 16, "P1 reveal", "P1 timeout",
    "P1 concede",
])
def test_notation_round_trips(text: str) -> None:
    """Every example of notation.md §2 parses, prints canonically, and survives its wire
    form."""
    from core.arcomage.actions import Action

    a = parse(text)
    assert str(a) == text and parse(str(a)) == a
    assert Action.from_wire(a.to_wire()) == a


def test_notation_canonical_order() -> None:
    """Pairs are printed by their first hex in reading order, moves sorted as text."""
    assert str(parse("P1 attack d4>d5,b4>P2")) == "P1 attack b4>P2,d4>d5"
    assert str(parse("P1 cast reassign moves=quarry>tower,altar>quarry")) == \
        "P1 cast reassign moves=altar>quarry,quarry>tower"


@pytest.mark.parametrize("text, words", [
    ("P3 end", "not a player"),
    ("P1 cast fireblast @P2", "not a spell"),
    ("P1 cast firebolt", "takes 1 target"),
    ("P1 cast firebolt @P2:fireball", "not a piece target"),
    ("P1 cast shadow-step @b2", "needs to="),
    ("P1 cast firebolt @P2 to=b2", "takes no to="),
    ("P1 cast magic-trap @P2:fireball commit=" + "0" * 32, "takes no commit="),
    ("P1 reveal fireball n=2 salt=xyz", "32 lower-case hex"),
    ("P1 move c2", "walk"),
    ("P1 end now", "takes nothing"),
])
def test_notation_errors_say_why(text: str, words: str) -> None:
    """A malformed action is a NotationError naming the problem."""
    with pytest.raises(NotationError, match=re.escape(words)):
        parse(text)


# ---- setup, hashing, views -------------------------------------------------------------
def test_new_game_is_the_first_players_main_without_produce() -> None:
    """R120 and R21: turn 1, P1's MAIN, the starting values, no PRODUCE for the first player."""
    st = R.new_game({}, 7)
    g = st.d
    assert (g["turn"], g["active"], g["step"]) == (1, "P1", "main")
    p1 = g["players"]["P1"]
    assert (p1["life"], p1["mana"], p1["int"], p1["moat"], p1["wall"], p1["tower"]) == \
        (30, 5, 3, 3, 5, 10)
    assert p1["at"] == "c1" and g["players"]["P2"]["at"] == "c6"
    assert p1["book"][-2:] == ["unlock", "magic-untrap"] and len(p1["book"]) == 22
    st2 = R.new_game({"first": "p2"}, 7)
    assert st2.d["active"] == "P2" and st2.d["players"]["P2"]["mana"] == 5


def test_an_illegal_own_book_is_refused_with_the_reason() -> None:
    """R120: new_game (the options check) refuses an illegal book in words."""
    with pytest.raises(OptionError, match="at most 6 spells of Circle V"):
        R.validate_options({"p1_spells": ",".join(
            ["plague", "summon-wraith", "wraith-form", "reaper-form", "lich-form", "meteor",
             "earthquake", *list(BOOKS["pale-tower"])[:13]])})
    with pytest.raises(OptionError, match="rite"):
        R.validate_options({"p2_spells": ",".join(["unlock", *BOOKS["iron-dojo"][:19]])})
    own = list(BOOKS["iron-dojo"])
    own[0] = "meteor"
    st = R.new_game({"p1_spells": ",".join(own)}, 1)
    assert "meteor" in st.d["players"]["P1"]["book"]


def test_a_refused_action_leaves_the_state_byte_identical() -> None:
    """R119: IllegalAction with a reason, nothing changed."""
    st = R.new_game({}, 3)
    before = pack(R.state_to_wire(st))
    for text in ("P2 end", "P1 cast lich-form", "P1 pass", "P1 move c1-c2",
                 "P1 cast summon-ghost @c4", "P1 timeout", "P1 reveal"):
        with pytest.raises(IllegalAction) as exc:
            R.apply(st, text)
        assert exc.value.reason
        assert pack(R.state_to_wire(st)) == before, text


def test_trap_target_is_hidden_from_the_victim_and_from_the_hash() -> None:
    """R57, R98, R125: the victim's and a watcher's views show `?`; the trapper's shows the
    spell; the hash covers the commitment, not the slug."""
    st = R.new_game({}, 5)
    R.apply(st, "P1 cast magic-trap @P2:lightning")
    for who in ("P2", ""):
        v = R.view(st, who)
        assert "lightning" not in repr(v["stack"]) and "lightning" not in repr(v["traps"])
        assert "seed" not in v
    assert R.view(st, "P1")["stack"][0]["secret"] == "lightning"
    R.apply(st, "P2 pass")
    assert R.view(st, "P2")["traps"][0]["slug"] == "?"
    assert R.view(st, "P1")["traps"][0]["slug"] == "lightning"
    other = R.redeal_hidden(st, "P2", 11)
    assert other.d["traps"][0]["slug"] != "lightning"
    assert R.view(other, "P2") == R.view(st, "P2")
    assert R.state_hash(other) == R.state_hash(st)


def test_the_trap_commitment_is_blake2b_128_of_salt_and_slug() -> None:
    """R125: commit = blake2b-128("<salt>|<slug>"), salt = blake2b-128("arcomage-trap|seed|n")."""
    from hashlib import blake2b

    st = R.new_game({}, 42)
    R.apply(st, "P1 cast magic-trap @P2:study")
    t = st.d["traps"][0]
    salt = blake2b(b"arcomage-trap|42|1", digest_size=16).hexdigest()
    assert t["salt"] == salt and t["n"] == 1
    assert t["commit"] == blake2b(f"{salt}|study".encode(), digest_size=16).hexdigest()


def test_same_seed_same_hashes() -> None:
    """Determinism: the same actions from the same seed give the same hash after each."""
    def run() -> list[str]:
        st = R.new_game({}, 9)
        out = [R.state_hash(st)]
        for _ in range(60):
            who = R.to_move(st)[0]
            legal = R.legal_actions(st, who)
            R.apply(st, legal[len(out) * 7 % len(legal)])
            out.append(R.state_hash(st))
            if R.result(st).over:
                break
        return out
    assert run() == run()


def test_spell_doc_generated_and_current() -> None:
    """docs/arcomage-spells.md is generated from the data and is up to date."""
    from core.arcomage import doc

    assert doc.main(["--check"]) == 0


def test_events_carry_plain_data() -> None:
    """R123 / core.engine.Event: every event's data holds ints, strs and lists only, and the
    victim's events never name the trapped spell."""
    st = R.new_game({}, 2)
    seen = []
    for text in ("P1 cast magic-trap @P2:lightning", "P2 pass", "P1 cast firebolt @P2",
                 "P2 pass", "P1 end", "P2 cast summon-tengu @c5", "P1 pass"):
        seen += R.apply(st, text)

    def plain(x: object) -> bool:
        if isinstance(x, list):
            return all(plain(y) for y in x)
        return isinstance(x, (int, str)) and not isinstance(x, bool)

    assert {e.kind for e in seen} >= {"cast", "mana", "trap-set", "resolve", "damage",
                                      "summon", "turn", "produce"}
    for e in seen:
        assert all(plain(v) for v in e.data.values()), e
        assert "lightning" not in repr(e.data), e
