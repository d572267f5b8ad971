"""The fresh-user trial's network and hosting defects (notes: trial 11, items 1, 2, 4, 5, 7,
16-19). Every socket is on 127.0.0.1; nothing advertises."""

from __future__ import annotations

import asyncio

import dice_ruleset  # tests/dice_ruleset.py (pytest puts tests/ on the path)
import pytest

from core import beacon
from net.lan import HostGame, PeerGame


# ---- item 1: a sealed stage whose last opening rolls ----------------------------------
def test_why_illegal_judges_an_action_that_rolls_without_its_dice() -> None:
    """On a beaconed state the round's last pick rolls: the ruleset's own check meets the
    roll (ChanceNeeded); beacon.why_illegal judges it legal, refuses a bad pick with the
    rules' reason, and leaves the state as it was."""
    rs = dice_ruleset.RULESET
    st = rs.new_game({}, b"seed")
    beacon.beaconize(rs, st)
    beacon.apply_with(rs, st, rs.parse_action("P1 pick 3"))  # no roll: the round goes on
    before = rs.state_hash(st)
    with pytest.raises(beacon.ChanceNeeded):
        rs.why_illegal(st, rs.parse_action("P2 pick 4"))
    assert beacon.why_illegal(rs, st, rs.parse_action("P2 pick 4")) == ""
    assert beacon.why_illegal(rs, st, rs.parse_action("P2 pick 9")) == "pick 1 to 6"
    assert beacon.why_illegal(rs, st, rs.parse_action("P1 pick 2")).startswith("P1 has picked")
    assert rs.state_hash(st) == before and st["rolls"] == []


async def test_a_sealed_round_whose_last_opening_rolls_plays_on_the_lan(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Host (P1, its bot) and one joined bot (P2) on 127.0.0.1 play "Sealed dice": each
    round's second opening rolls, which used to stop the host with ChanceNeeded in its
    check of the opening. Now every round is played, each roll from the beacon, and both
    peers end on the same hash."""
    rs = dice_ruleset.register(monkeypatch)
    host = HostGame(ruleset=rs, options={"rounds": 3})
    port = await host.start()
    peer = PeerGame("127.0.0.1", port, ruleset=rs)
    try:
        async with asyncio.timeout(120):
            await peer.connect()
            res = await asyncio.gather(host.run(), peer.run())
    finally:
        await host.close()
    assert res[0] == res[1] and res[0]
    assert not host.desync
    assert host.actions == peer.actions and len(host.actions) == 6
    assert len(host.state["rolls"]) == 3 and host.state["rng"].rolls == 3
