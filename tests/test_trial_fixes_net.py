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


# ---- item 5: the joiner learns the host's game from the handshake -----------------------
async def test_a_joiner_that_names_no_game_plays_the_hosts(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A joiner guessing the default game (Wiz-War) at a host of "Sealed dice": the host's
    refusal names its game, the joiner connects again as that game and plays it through."""
    rs = dice_ruleset.register(monkeypatch)
    host = HostGame(ruleset=rs, options={"rounds": 2})
    port = await host.start()
    peer = PeerGame("127.0.0.1", port, follow_host=True)
    assert peer.ruleset.name == "wizwar"
    try:
        async with asyncio.timeout(120):
            res = await asyncio.gather(host.run(), peer.run())
    finally:
        await host.close()
    assert peer.ruleset is rs and res[0] == res[1] and res[0]
    assert peer.actions == host.actions and len(peer.actions) == 4


async def test_a_joiner_that_names_another_game_is_refused_in_words(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Without ``follow_host`` (``--game wizwar``) the host's refusal stands, names both
    games and the host's by its registry name; no garbled "join with `wizwar join` of"."""
    from net.lan import OtherGame

    rs = dice_ruleset.register(monkeypatch)
    host = HostGame(ruleset=rs)
    port = await host.start()
    peer = PeerGame("127.0.0.1", port)
    try:
        async with asyncio.timeout(30):
            with pytest.raises(OtherGame) as exc:
                await peer.run()
    finally:
        await host.close()
    assert exc.value.ruleset == "sealed-dice"
    assert str(exc.value) == ("this host plays Sealed dice (sealed-dice), not Wiz-War "
                              "(wizwar)")


def _join_args(words: list[str]):  # type: ignore[no-untyped-def]
    from net.cli import prepare
    from wizwar_tui.cli import parse

    parser, args = parse(words)
    prepare(parser, args)
    return args


async def test_headless_join_follows_the_host_unless_game_is_given(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """``wizwar join ADDR --headless --bot`` plays whatever the host plays; with ``--game
    wizwar`` at a host of another game it stops with a line saying what to type."""
    from net.cli import join_headless

    rs = dice_ruleset.register(monkeypatch)
    host = HostGame(ruleset=rs, options={"rounds": 1})
    port = await host.start()
    try:
        async with asyncio.timeout(30):
            code = await join_headless(_join_args(
                ["join", f"127.0.0.1:{port}", "--game", "wizwar", "--headless", "--bot"]))
        err = capsys.readouterr().err
        assert code == 1
        assert ("refused: this host plays Sealed dice (sealed-dice), not Wiz-War (wizwar): "
                "join without --game, or with --game sealed-dice") in err
        async with asyncio.timeout(120):
            res = await asyncio.gather(host.run(), join_headless(_join_args(
                ["join", f"127.0.0.1:{port}", "--headless", "--bot", "--name", "bob"])))
    finally:
        await host.close()
    out = capsys.readouterr()
    assert res[1] == 0, out.err
    assert f"final hash {res[0]}" in out.out


def test_the_apps_join_follows_the_host_unless_a_game_is_named() -> None:
    """``lobby.new_peer`` (the app's ``wizwar join``): no game named: the joiner follows
    the host's game; ``--game arcomage``: that game, refused by a host of another."""
    from wizwar_tui.lobby import new_peer

    link = new_peer(None, "127.0.0.1", 7711, "bob", save=False)
    assert link.game.follow_host and link.game.ruleset.name == "wizwar"
    link = new_peer(None, "127.0.0.1", 7711, "bob", save=False, game="arcomage")
    assert not link.game.follow_host and link.game.ruleset.name == "arcomage"


# ---- item 7: the rejoin hint names the player ------------------------------------------
def test_the_rejoin_hint_names_the_player() -> None:
    """The seat token is kept under the player's name: ``wizwar join ADDR`` alone (as
    "guest") is refused, "the game is full"; the hint says ``--name``."""
    from wizwar_tui.lobby import new_peer

    assert new_peer(None, "127.0.0.1", 7711, "bob", save=False).rejoin_hint() == \
        "wizwar join 127.0.0.1:7711 --name bob"
    assert new_peer(None, "10.0.0.2", 7654, "Ann Lee", save=False).rejoin_hint() == \
        "wizwar join 10.0.0.2:7654 --name 'Ann Lee'"
