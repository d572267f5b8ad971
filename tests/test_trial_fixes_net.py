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


async def test_a_bot_joiner_following_a_game_without_bots_is_refused_in_words(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``wizwar join ADDR --headless --bot`` at a host of a game without bots: the joiner
    learns the game, then stops in words (not a ValueError once its bot had to act)."""
    from net.lan import JoinRefused

    rs = dice_ruleset.register(monkeypatch, dice_ruleset.NO_BOTS)
    host = HostGame(ruleset=rs, local_bot=False)
    port = await host.start()
    peer = PeerGame("127.0.0.1", port, follow_host=True)
    try:
        async with asyncio.timeout(30):
            with pytest.raises(JoinRefused) as exc:
                await peer.run()
    finally:
        await host.close()
    assert str(exc.value) == ("the host plays Sealed dice without bots, which has no bots "
                              "yet: a bot cannot play your seat")


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


# ---- items 4, 16, 19: refused in words at start ------------------------------------------
def _refused(words: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    from wizwar_tui.cli import main

    assert main(words) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return err


def test_a_game_without_bots_refuses_bot_seats_at_start(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Any ruleset without bots (``bot_levels`` empty): ``--bots``/``--bot``/``--headless``
    are refused in words before anything listens (it was a ValueError traceback once the
    first bot had to act)."""
    rs = dice_ruleset.register(monkeypatch, dice_ruleset.NO_BOTS)
    base = ["host", rs.name, "--bind", "127.0.0.1", "--port", "0", "--no-advertise"]
    err = _refused([*base, "--headless", "--bot", "--bots", "1"], capsys)
    assert "Sealed dice without bots has no bots yet" in err
    err = _refused(["join", "127.0.0.1:9", "--game", rs.name, "--headless", "--bot"], capsys)
    assert "--bot: Sealed dice without bots has no bots yet" in err


def test_ssh_and_web_flags_need_their_server(capsys: pytest.CaptureFixture[str]) -> None:
    """``--ssh-password`` without ``--ssh`` was silently ignored (a lobby on 0.0.0.0 with no
    password); now it is refused, as are the other front flags without theirs."""
    base = ["host", "--bind", "127.0.0.1", "--port", "0", "--no-advertise", "--headless",
            "--bot", "--bots", "1", "--players", "2"]
    assert "--ssh-password needs --ssh" in _refused([*base, "--ssh-password", "pw"], capsys)
    assert "--ssh-keys needs --ssh" in _refused([*base, "--ssh-keys", "k"], capsys)
    assert "--web-password needs --web" in _refused([*base, "--web-password", "pw"], capsys)


@pytest.mark.parametrize("name", ["", "   ", "\x1b\x07"])
def test_a_blank_name_is_refused(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    """``--name ""`` joined as ``P2 joined ()``; now refused, for a player and a game."""
    err = _refused(["join", "127.0.0.1:9", "--headless", "--bot", "--name", name], capsys)
    assert "--name: your player name cannot be empty" in err
    err = _refused(["host", "--bind", "127.0.0.1", "--port", "0", "--headless", "--bot",
                    "--bots", "1", "--players", "2", "--name", name], capsys)
    assert "--name: the game's name cannot be empty" in err


# ---- item 2 (second half): an option's value is never the game ----------------------------
def test_an_options_value_is_not_taken_for_the_game() -> None:
    """``wizwar host --name ArcoMage`` hosts Wiz-War named ArcoMage; a GAME after the
    options is still found."""
    from core import registry
    from net.cli import game_in_argv, value_flags
    from wizwar_tui.cli import build_parser, parse

    plain = build_parser(dict.fromkeys(("play", "host", "selfplay"), registry.get()))
    flags = value_flags(plain, "host")
    assert {"--name", "--port", "--bind"} <= flags and "--headless" not in flags
    assert game_in_argv(["host", "--name", "ArcoMage", "--headless"], "host", flags) == \
        "wizwar"
    assert game_in_argv(["host", "--headless", "--name", "x", "arcomage"], "host", flags) == \
        "arcomage"
    assert game_in_argv(["host", "--name=ArcoMage"], "host", flags) == "wizwar"
    _parser, args = parse(["host", "--name", "ArcoMage", "--headless", "--bot"])
    assert (args.game, args.name) == ("wizwar", "ArcoMage")


# ---- items 17, 18: Ctrl+C and a closed pipe ------------------------------------------------
def _wizwar(*words: str, **kw):  # type: ignore[no-untyped-def]
    import subprocess
    import sys

    return subprocess.Popen([sys.executable, "-m", "wizwar_tui.cli", *words], text=True,
                            **kw)


def _wait_for(path, text: str, proc, seconds: float = 60) -> None:  # type: ignore[no-untyped-def]
    import time

    deadline = time.monotonic() + seconds
    while text not in path.read_text():
        assert proc.poll() is None, path.read_text()
        assert time.monotonic() < deadline, f"no {text!r} in: {path.read_text()}"
        time.sleep(0.05)


def test_ctrl_c_on_a_headless_host_and_join_is_one_line(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Ctrl+C (SIGINT) on ``wizwar host --headless`` and ``wizwar join --headless`` in the
    lobby: "stopped: the game is closed", status 130, no traceback, and no "game log:" line
    (nothing was dealt, so no log file was written)."""
    import signal
    import subprocess

    host_err, join_err = tmp_path / "host.err", tmp_path / "join.err"
    with open(host_err, "w") as he, open(join_err, "w") as je:
        host = _wizwar("host", "--headless", "--bot", "--bind", "127.0.0.1", "--port", "0",
                       "--no-advertise", "--players", "3", "--dealer", "host",  # not poker
                       stdout=subprocess.PIPE, stderr=he)
        peer = None
        try:
            assert host.stdout is not None
            line = host.stdout.readline()
            assert line.startswith("listening on 127.0.0.1:"), line
            port = line.strip().rsplit(":", 1)[1]
            peer = _wizwar("join", f"127.0.0.1:{port}", "--headless", "--bot", "--name",
                           "bob", stdout=subprocess.PIPE, stderr=je)
            _wait_for(host_err, "P2 joined (bob)", host)
            _wait_for(join_err, "joined as P2", peer)
            for proc, err in ((peer, join_err), (host, host_err)):
                proc.send_signal(signal.SIGINT)
                assert proc.wait(60) == 130, err.read_text()
                text = err.read_text()
                assert "stopped: the game is closed" in text
                assert "Traceback" not in text and "KeyboardInterrupt" not in text
                assert "game log:" not in text
        finally:
            for proc in (host, peer):
                if proc is not None and proc.poll() is None:
                    proc.kill()
                    proc.wait(10)


@pytest.mark.parametrize("what", ["export", "selfplay"])
def test_output_cut_short_ends_quietly(what: str, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """``wizwar export FILE | head`` and ``wizwar selfplay ... | head``: the reader is gone
    (here before the first line), so the write fails: a quiet exit 141, no traceback."""
    import subprocess

    from wizwar_tui.cli import main

    assert main(["selfplay", "--games", "1", "--players", "2", "--save-all", "--logs",
                 str(tmp_path), "--max-actions", "30"]) == 0
    words = ["export", str(next(tmp_path.glob("*.wwlog")))] if what == "export" else \
        ["selfplay", "--games", "1", "--players", "2", "--max-actions", "30", "--logs",
         str(tmp_path / "x")]
    proc = _wizwar(*words, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # as `head` exits: every write to stdout fails
    err = proc.stderr.read()
    assert proc.wait(120) == 141, err
    assert "Traceback" not in err and "BrokenPipe" not in err


async def test_the_host_form_refuses_bots_for_a_game_without_bots() -> None:
    """The app's host form, for a game whose ruleset has no bots: bots > 0 is refused on the
    form in words (it was a game that stopped once the first bot seat had to act)."""
    from textual.widgets import Input

    from wizwar_tui.app import WizWarApp

    app = WizWarApp(discovery=False)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        app.open_host_form()
        await pilot.pause()
        form = app.screen
        form.ruleset = dice_ruleset.NO_BOTS  # type: ignore[attr-defined]
        form.query_one("#host-bots", Input).value = "1"
        form.query_one("#host-port", Input).value = "0"
        form.query_one("#host-name", Input).focus()
        await pilot.press("enter")
        await pilot.pause()
        assert "Bots: Sealed dice without bots has no bots yet" in \
            str(form.query_one("#host-error").render())
        assert app.lan is None
