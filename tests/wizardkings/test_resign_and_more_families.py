"""Wizard Kings: resigning in the Combat Phase and in a Dispel window (R104), and the
families added for bots, the app and the conformance suite (R120): custom deploys, three-item
build orders, Sea Transport."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from core.wizardkings import game as G
from core.wizardkings import scenario as S
from core.wizardkings.ruleset import RULESET as R

SCEN = Path(__file__).parent / "scenarios"


def _doc(name: str) -> dict[str, Any]:
    """A scenario file's setup (its ``ruleset`` key dropped, as the runner does)."""
    doc = tomllib.loads((SCEN / name).read_text())
    doc.pop("ruleset", None)
    return doc


def _to_phase(seed: int, phase: str, turn: int = 1) -> Any:
    """A captain-vs-captain game played until ``phase`` of ``turn``."""
    st = R.new_game(R.validate_options({}), seed)
    while not (st.d["phase"] == phase and st.d["turn"] >= turn):
        p = R.to_move(st)[0]
        R.apply(st, R.bot_act(st, p, "captain"))
    return st


def _members(st: Any, p: str, fam: str) -> list[Any]:
    """The members of ``fam``: offered, sorted, each accepted, none listed."""
    listed = {str(a) for a in R.legal_actions(st, p)}
    assert fam in R.families(st, p)
    members = R.expand(st, p, fam)
    assert [str(a) for a in members] == sorted({str(a) for a in members})
    for a in members:
        assert R.why_illegal(st, a) == "", (fam, str(a), R.why_illegal(st, a))
        assert str(a) not in listed, (fam, str(a))
    return members


def test_custom_deploys_are_a_family_of_the_setup() -> None:
    """R9, R11: the standard army written out is a member, and placements with one block in
    another city; one applies and puts every block where it says."""
    st = R.new_game(R.validate_options({}), 5)
    members = _members(st, "P1", "deploy-custom")
    assert len(members) > 10 and all(a.verb == "deploy" and a.words != ("standard",)
                                     for a in members)
    a = members[-1]
    R.apply(st, a)
    for item in a.words[0].split(","):
        lab, _, rest = item.partition("=")
        t, _, rest = rest.partition("@")
        h, _, k = rest.partition(":")
        blk = st.d["blocks"][G.bid("P1", int(lab))]
        assert (blk["type"], blk["at"], blk["strength"]) == (t, h, int(k))


def test_three_item_build_orders_are_a_bounded_family() -> None:
    """R89-R100: orders of three adding items, each accepted, at most TRIPLES_MAX, several
    kinds of item among them; one applies and spends the treasury on all three."""
    from core.wizardkings.turn import TRIPLES_MAX

    st = _to_phase(1, "build", 2)
    p = R.to_move(st)[0]
    members = _members(st, p, "build-triples")
    assert 0 < len(members) <= TRIPLES_MAX
    n_items = [sum(len(w.partition("=")[2].split(",")) for w in a.words) for a in members]
    assert set(n_items) == {3}
    kinds = {w.partition("=")[0] for a in members for w in a.words}
    assert {"new", "step", "castle"} <= kinds
    assert "build-triples" not in R.families(_to_phase(1, "movement", 2), "P1")


def test_sea_transport_is_a_family_of_the_movement_phase() -> None:
    """R50: the Glader in the port 1e7 may sail to the port 1g8 (the shoal hexside 1e8:se
    is avoided); applying the member moves it there."""
    doc = _doc("sea-transport.toml")
    st = S.load(doc)
    members = _members(st, "P1", "transport")
    to = {a.words[1].split("-")[-1]: a for a in members if a.words[0] == "1"}
    assert "1g8" in to
    path = to["1g8"].words[1].split("-")
    assert len(path) <= 4 and "1e8-1f8" not in "-".join(path)
    R.apply(st, to["1g8"])
    assert st.d["blocks"]["P1.1"]["at"] == "1g8" and st.d["blocks"]["P1.1"]["moved"]


def test_a_player_asked_for_a_movement_dispel_may_resign() -> None:
    """R104, R86: of three hostile players, the first asked whether to Dispel the Orcs'
    forced-march resigns: the game does not wait on him, the next is asked, and when he
    passes the spell takes effect (an Orc moves 2 + 1)."""
    doc = _doc("movement-spells.toml")
    doc["game"].update(players=["P1", "P2", "P3"], order=["P2", "P1", "P3"])
    doc["block"].append({"id": "P3.1", "type": "glader", "at": "1a1"})
    st = S.load(doc)
    R.apply(st, R.parse_action("P2 cast forced-march 1 @2,3"))
    assert R.to_move(st) == ["P1"]
    R.apply(st, R.parse_action("P1 resign"))
    assert "P1" in st.d["out"] and st.d["phase"] == "movement"
    assert R.to_move(st) == ["P3"]
    R.apply(st, R.parse_action("P3 pass"))
    assert R.to_move(st) == ["P2"]
    R.apply(st, R.parse_action("P2 move 2 2g3-2h3-2h4"))
    assert st.d["blocks"]["P2.2"]["at"] == "2h4"


def test_a_retreat_that_overstacks_is_listed_with_its_elimination() -> None:
    """R65, R121: in the pursuit round the attacker's only retreat is into a hex of his own
    already full: the retreat naming a block there (or itself) to eliminate is listed, so a
    player (or bot) is never left with no legal action."""
    st = S.load(_doc("retreat-overstack.toml"))
    R.apply(st, R.parse_action("P2 pass 1"))
    listed = [str(a) for a in R.legal_actions(st, "P1")]
    assert listed and all(a.startswith("P1 retreat 1 2a4 eliminate=") for a in listed)
    assert "P1 retreat 1 2a4 eliminate=4" in listed and "P1 retreat 1 2a4" not in listed
