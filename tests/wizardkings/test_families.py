"""Wizard Kings' action families (R120, ``Ruleset.families``/``expand``): group moves,
elven-gates and build orders beyond the listing are reachable by bots and the conformance
suite, every member is accepted, and none is listed too."""

from __future__ import annotations

from typing import Any

from core.wizardkings import game as G
from core.wizardkings import turn as T
from core.wizardkings.ruleset import RULESET as R


def _to_phase(seed: int, phase: str, turn: int = 1) -> Any:
    """A captain-vs-captain game played until ``phase`` of ``turn``."""
    st = R.new_game(R.validate_options({}), seed)
    while not (st.d["phase"] == phase and st.d["turn"] >= turn):
        p = R.to_move(st)[0]
        R.apply(st, R.bot_act(st, p, "captain"))
    return st


def _check_family(st: Any, p: str, fam: str) -> list[Any]:
    listed = {str(a) for a in R.legal_actions(st, p)}
    members = R.expand(st, p, fam)
    assert fam in R.families(st, p)
    assert [str(a) for a in members] == sorted({str(a) for a in members})
    for a in members:
        assert R.why_illegal(st, a) == "", (fam, str(a), R.why_illegal(st, a))
        assert str(a) not in listed, (fam, str(a))
    return members


def test_group_moves_are_a_family_of_accepted_moves() -> None:
    """At the first Movement Phase the families are offered; group moves of two or more
    blocks from one hex are members, each accepted and none listed; a typed group move that
    is a member applies and moves every block named."""
    st = _to_phase(1, "movement")
    p = R.to_move(st)[0]
    members = _check_family(st, p, "move-group")
    assert members and all("," in a.words[0] for a in members)
    a = members[0]
    R.apply(st, a)
    dest = a.words[1].split("-")[-1]
    for lab in a.words[0].split(","):
        assert st.d["blocks"][G.bid(p, int(lab))]["at"] == dest


def test_elven_gates_are_a_family_of_the_elves() -> None:
    """The Elves' player (P1) is offered elven-gates while his wizards may cast; the Orcs
    are not."""
    st = _to_phase(2, "movement")
    while R.to_move(st)[0] != "P1":
        R.apply(st, R.bot_act(st, R.to_move(st)[0], "captain"))
    members = _check_family(st, "P1", "cast:elven-gate")
    assert members and all(a.words[0] == "elven-gate" for a in members)
    assert "cast:elven-gate" not in T.families(st.d, "P2")


def test_build_orders_of_one_and_two_items_are_families() -> None:
    """In the first Build Phase: one-item orders beyond the listing (new units, castles,
    bigger steps), two-item orders that add, and two-item orders that remove are members,
    each accepted, none listed; the quick joint check of two items agrees with the full
    check on every pair."""
    st = _to_phase(1, "build")
    p = R.to_move(st)[0]
    items = _check_family(st, p, "build-items")
    assert any(a.words[0].startswith("new=") for a in items)
    pairs = _check_family(st, p, "build-pairs")
    assert pairs and all(len(a.words) == 2 or "," in a.words[0] for a in pairs)
    removing = R.expand(st, p, "build-pairs-removing")
    assert removing and all("disband=" in str(a) or "merge=" in str(a) for a in removing)
    one = [(a, c) for a, c in T._build_items(st.d, p) if T._build_ok(st.d, a)]
    have = st.d["treasury"][p]
    quick = 0
    for i, (a1, c1) in enumerate(one):
        for a2, c2 in one[i + 1:]:
            if c1 + c2 <= have and T._independent(a1, a2, st.d, p):
                quick += 1
                k1, _, v1 = a1.words[0].partition("=")
                k2, _, v2 = a2.words[0].partition("=")
                words = [f"{k1}={v1},{v2}"] if k1 == k2 else [a1.words[0], a2.words[0]]
                a = R.parse_action(" ".join([p, "build", *words]))
                assert T._build_ok(st.d, a), str(a)
    assert quick > 10
    R.apply(st, pairs[-1])
    assert p in st.d["orders"]


def test_the_quick_move_listing_is_exact() -> None:
    """The listing finds moves by a pruned walk and skips the full check where the end hex
    holds no other side and no water (turn.legal_actions); on every Movement Phase state of
    a game's first 100 actions, a single-block move is listed exactly when the full check
    (R23-R48, game.check_move) accepts it, over every path up to the allowance with road and
    forced-march bonuses."""
    from core.engine import IllegalAction

    st = R.new_game(R.validate_options({}), 2)
    seen = 0
    for _ in range(100):
        p = R.to_move(st)[0]
        g = st.d
        if g["phase"] == "movement" and not g.get("settle") and not g.get("mspell"):
            listed = {str(a) for a in R.legal_actions(st, p) if a.verb == "move"}
            for x in sorted(g["blocks"], key=G.bkey):
                blk = g["blocks"][x]
                if blk["owner"] != p or blk["state"] != "map" or blk["moved"] or \
                        G.utype(g, x).ability == "castle":
                    continue
                for path in T._paths(G.bd(g), blk["at"], G.utype(g, x).move + 1):
                    try:
                        G.check_move(g, p, [x], path)
                        ok = True
                    except IllegalAction:
                        ok = False
                    text = f"{p} move {blk['label']} {'-'.join(path)}"
                    assert ok == (text in listed), (text, ok)
                    seen += ok
        R.apply(st, R.bot_act(st, p, "captain"))
    assert seen > 500


def test_a_road_hex_that_stops_other_moves_ends_a_move_leaving_the_road() -> None:
    """An Ogre on the road at 3c4 may follow it into the forest hex 3d4 and stop there, but
    may not go on off the road (3d4-3d3): only a move that is all road ignores the forest's
    stop (R23, R29). The listing (a pruned walk) agrees with the full check."""
    from core.wizardkings.scenario import load

    st = load({"game": {"maps": [3, 4], "owners": {"P1": [3], "P2": [4]}, "order": ["P2", "P1"],
                        "active": "P2"},
               "block": [{"id": "P2.1", "type": "ogre", "at": "3c4"},
                         {"id": "P1.1", "type": "glader", "at": "3g6"}]})
    listed = {str(a) for a in R.legal_actions(st, "P2")}
    assert "P2 move 1 3d4" in listed
    assert "is forest: the move must stop there" in R.why_illegal(st, "P2 move 1 3d4-3d3")
    assert "P2 move 1 3d4-3d3" not in listed
