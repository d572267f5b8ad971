"""R121 on a LAN (rules.md R47, R114, R115, R121): an overstack made by a move is settled
with ``eliminate`` actions on networked states; each eliminated block is revealed by its
owner's state through the reveal stage; other peers accept an ``eliminate`` only from the
player who just moved, only right after, only for his blocks in that hex; and the public
count refuses an overstack left unsettled.

The position is made by placing P1's blocks on every state alike (as the Dispel test in
``test_lan_hidden.py`` does): bots seldom overstack on their own.
"""

from __future__ import annotations

import functools
from typing import Any

import pytest

from core.engine import IllegalAction
from core.wizardkings import game as G
from core.wizardkings.actions import parse
from tests.wizardkings.test_lan_hidden import RS, _audit_replay, _peers, _step


def _overstack(seed: int, crowd: int) -> tuple[dict[str, Any], list[Any], str, str, Any]:
    """Networked states at P1's first movement turn; ``crowd`` of P1's other units placed
    (on every state alike) in the hex an unmoved unit of his may move to, then that move
    played. Returns the states, the whole actions, the hex, the moved block and the edit
    (for the audit's replay)."""
    peers = _peers(seed)
    whole: list[Any] = []
    act = functools.partial(RS.bot_act, level="captain")
    while not (peers[""].d["phase"] == "movement" and peers[""].d["active"] == "P1"):
        _step(peers, whole, act)
    mine = peers["P1"].d
    units = [b for b, x in sorted(mine["blocks"].items(), key=lambda i: G.bkey(i[0]))
             if x["owner"] == "P1" and x["state"] == "map" and not G.utype(mine, b).wizard
             and G.utype(mine, b).ability not in ("castle", "aquatic")]
    move = next(a for a in RS.legal_actions(peers["P1"], "P1") if a.verb == "move"
                and "," not in a.words[0] and len(a.words[1].split("-")) == 1
                and G.bid("P1", int(a.words[0])) in units
                and G.status(mine, a.words[1], "P1") != "enemy"
                and not G.on_map(mine, a.words[1]))
    mover, dest = G.bid("P1", int(move.words[0])), move.words[1]
    start = mine["blocks"][mover]["at"]
    others = [b for b in units if b != mover and mine["blocks"][b]["at"] != start][:crowd]
    assert len(others) == crowd

    def edit(st: Any) -> None:
        for b in others:
            st.d["blocks"][b]["at"] = dest
            st.d["blocks"][b]["moved"] = True
    index = len(whole)
    for x in peers.values():
        edit(x)
    _step(peers, whole, act, move)
    return peers, whole, dest, mover, (index, edit)


def test_an_overstack_on_a_lan_is_settled_and_the_eliminated_block_revealed_to_all() -> None:
    """Four units and a fifth moved in (R47, stacking 4): P1's own state lists only
    ``eliminate`` of his blocks there and refuses ``end``; the host (which knows no type)
    accepts by the public count; an eliminate from P2, of a block elsewhere, or once it fits
    is refused with a reason; the eliminated block is revealed by P1's state and every peer
    learns its type; the window closes at P1's next action; the audit replays it all."""
    peers, whole, dest, _mover, edit = _overstack(2, 4)
    p1 = peers["P1"]
    legal = RS.legal_actions(p1, "P1")
    assert legal and {a.verb for a in legal} == {"eliminate"}
    assert {G.bid("P1", int(a.words[0])) for a in legal} == \
        {b for b in G.on_map(p1.d, dest) if p1.d["blocks"][b]["owner"] == "P1"}
    with pytest.raises(IllegalAction, match="settle the overstack"):
        RS.apply(p1, parse("P1 end"))
    assert RS.why_illegal(peers[""], parse("P1 end")) == ""  # 5 blocks: a wizard could be one
    assert "turn" in RS.why_illegal(peers[""], parse(f"P2 eliminate {legal[0].words[0]}"))
    away = next(x for b, x in p1.d["blocks"].items() if x["owner"] == "P1"
                and x["state"] == "map" and x["at"] != dest)
    assert f"not in {dest}" in RS.why_illegal(peers[""], parse(f"P1 eliminate {away['label']}"))
    assert RS.bot_act(p1, "P1", "captain").verb == "eliminate"  # the bots settle it too
    elim = legal[0]
    victim = G.bid("P1", int(elim.words[0]))
    _step(peers, whole, None, elim)
    st = RS.stage(peers[""])
    assert st.kind == "reveal" and st.holder == "P1"
    _step(peers, whole, None)  # P1's state answers: the block's face
    assert whole[-1].verb == "reveal" and whole[-1].words[0].startswith(f"{elim.words[0]}=")
    face = [p1.d["blocks"][victim]["seen"][0], p1.d["blocks"][victim]["seen"][1]]
    for x in peers.values():
        b = x.d["blocks"][victim]
        assert b["state"] != "map" and b["seen"] == face and b["type"] == face[0]
    left = next(b for b in G.on_map(p1.d, dest) if p1.d["blocks"][b]["owner"] == "P1")
    assert "nothing is overstacked" in RS.why_illegal(p1, parse(f"P1 eliminate {left[3:]}"))
    assert {a.verb for a in RS.legal_actions(p1, "P1")} != {"eliminate"}
    _step(peers, whole, None, parse("P1 end"))
    assert not peers[""].d.get("window")
    assert RS.why_illegal(peers[""], parse(f"P1 eliminate {left[3:]}"))  # too late
    audit = _audit_replay(2, whole, edit)
    assert RS.state_hash(audit) == RS.state_hash(peers[""])


def test_an_eliminate_not_right_after_an_overstacking_action_is_refused() -> None:
    """At the start of a movement turn no window is open: an ``eliminate`` is refused by
    every peer, in words (R121)."""
    peers = _peers(2)
    whole: list[Any] = []
    act = functools.partial(RS.bot_act, level="captain")
    while not (peers[""].d["phase"] == "movement" and peers[""].d["active"] == "P1"):
        _step(peers, whole, act)
    lab = next(x["label"] for x in peers["P1"].d["blocks"].values()
               if x["owner"] == "P1" and x["state"] == "map")
    for x in peers.values():
        assert "right after" in RS.why_illegal(x, parse(f"P1 eliminate {lab}"))


def test_an_overstack_left_unsettled_is_refused_by_the_public_count() -> None:
    """Five units and a sixth moved in: six blocks are more than 4 units and a wizard make,
    so even the host, which knows no type, refuses P1's ``end`` until he eliminates (R121's
    public count); after two eliminates (each revealed) it passes everywhere."""
    peers, whole, dest, _mover, _edit = _overstack(2, 5)
    why = RS.why_illegal(peers[""], parse("P1 end"))
    assert "more than 4 units and a wizard" in why
    assert {a.verb for a in RS.legal_actions(peers["P1"], "P1")} == {"eliminate"}
    for _ in range(2):
        elim = RS.legal_actions(peers["P1"], "P1")[0]
        _step(peers, whole, None, elim)
        _step(peers, whole, None)  # the reveal
    assert RS.why_illegal(peers[""], parse("P1 end")) == ""
    assert RS.why_illegal(peers["P1"], parse("P1 end")) == ""
    assert sum(1 for b in G.on_map(peers[""].d, dest)
               if peers[""].d["blocks"][b]["owner"] == "P1") == 4


def test_an_eliminate_that_was_not_needed_passes_the_public_checks_and_fails_the_audit() -> None:
    """Three units and a fourth moved in fit (R47): P1's own state refuses an eliminate, the
    host (which cannot know) accepts it by the public checks, and the final audit's replay,
    with every block known, refuses it (R115: the rest goes to the audit)."""
    peers, whole, dest, _mover, edit = _overstack(2, 3)
    lab = next(peers["P1"].d["blocks"][b]["label"] for b in G.on_map(peers["P1"].d, dest))
    elim = parse(f"P1 eliminate {lab}")
    assert "nothing is overstacked" in RS.why_illegal(peers["P1"], elim)
    assert RS.why_illegal(peers[""], elim) == ""
    with pytest.raises(IllegalAction, match="nothing is overstacked"):
        _audit_replay(2, [*whole, elim], edit)


def test_a_retreat_on_a_lan_names_its_eliminations_and_reveals_them() -> None:
    """R121's retreat: a unit retreating into a hex where its side already has four units
    overstacks it, so the retreat names the block eliminated (``eliminate=``); the owner's
    state refuses the retreat without it; the named block is revealed by its owner's state
    as part of the retreat (a reveal stage, then play goes on) and every peer learns it."""
    peers = _peers(1)
    whole: list[Any] = []
    act = functools.partial(RS.bot_act, level="captain")
    found = None
    while found is None and not RS.result(peers[""]).over:
        st = RS.stage(peers[""])
        if st.kind == "act" and peers[""].d["battle"] and not peers[""].d["battle"]["victor"]:
            p = st.players[0]
            mine = peers[p].d
            bh = mine["battle"]["hex"]
            busy = {bh, *mine["contacts"]}
            crowd = [b for b, x in sorted(mine["blocks"].items(), key=lambda i: G.bkey(i[0]))
                     if x["owner"] == p and x["state"] == "map" and x["at"] not in busy
                     and not G.utype(mine, b).wizard
                     and G.utype(mine, b).ability not in ("castle", "aquatic", "flyer")]
            for a in RS.legal_actions(peers[p], p):
                if a.verb == "retreat" and len(a.words) == 2 and "-" not in a.words[1]:
                    dest = a.words[1]
                    if G.on_map(mine, dest) or G.bd(mine).hexes[dest].water:
                        continue
                    movers = [b for b in crowd if mine["blocks"][b]["at"] != dest][:4]
                    if len(movers) == 4:
                        found = (p, a, dest, movers)
                        break
        if found is None:
            _step(peers, whole, act)
    assert found is not None
    p, retreat, dest, movers = found

    def edit(st: Any) -> None:
        for b in movers:
            st.d["blocks"][b]["at"] = dest
    index = len(whole)
    for x in peers.values():
        edit(x)
    assert "overstacks" in RS.why_illegal(peers[p], retreat)
    assert RS.why_illegal(peers[""], retreat) == ""  # 5 blocks: publicly it may fit
    named = next(a for a in RS.legal_actions(peers[p], p) if a.verb == "retreat"
                 and a.words[:2] == retreat.words and len(a.words) == 3)
    victim = G.bid(p, int(named.words[2].split("=")[1]))
    _step(peers, whole, None, named)
    st = RS.stage(peers[""])
    assert st.kind == "reveal" and st.holder == p
    _step(peers, whole, None)  # the owner's state answers: the block's face
    face = peers[p].d["blocks"][victim]["seen"]
    for x in peers.values():
        b = x.d["blocks"][victim]
        assert b["state"] != "map" and b["seen"] == face and b["type"] == face[0]
        assert sum(1 for y in G.on_map(x.d, dest) if x.d["blocks"][y]["owner"] == p) == 4
    assert RS.stage(peers[""]).kind != "reveal"  # play went on
    audit = _audit_replay(1, whole, (index, edit))
    assert RS.state_hash(audit) == RS.state_hash(peers[""])
