"""Small fixes from the fresh-user trial of ArcoMage (issue 17, items 5, 9, 10, 11): the
header after the end, the "too small" notice naming the game, the help's words,
the replay's "seen as" hiding a trap's target from its victim (item 6)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from core import log
from core.arcomage.ruleset import RULESET as R
from wizwar_tui import replay
from wizwar_tui.app import WizWarApp
from wizwar_tui.arcomage.game import ArcoMageGameScreen
from wizwar_tui.arcomage.screens import help_text
from wizwar_tui.menu import TooSmall
from wizwar_tui.replay import ReplayScreen


def test_help_says_what_workers_bring_and_the_zoc_start_clause() -> None:
    """R31: Mana, Wall and corpses (no bricks, no INT); R75.1 in the ZoC line."""
    text = help_text()
    assert "bricks" not in text and "Mana, Wall and corpses" in text
    assert "starts next to one moves at most" in text


def test_too_small_names_the_game() -> None:
    assert TooSmall("ArcoMage").game == "ArcoMage"
    assert TooSmall().game == "wizwar"


async def test_header_after_the_end_says_who_won() -> None:
    """Not ``P1's OVER (limit 100)`` once the game has ended (R118)."""
    app = WizWarApp(bot_delay=0, save_games=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.start_game(game="arcomage", seed=1)
        assert isinstance(screen, ArcoMageGameScreen)
        await pilot.pause()
        v = screen.session.view()
        assert "P1's MAIN" in screen.top_text(v).plain
        st = R.new_game(R.validate_options({}), 1)
        R.apply(st, "P1 concede")
        top = screen.top_text(R.view(st, "P1")).plain
        assert "P2 won" in top and "OVER" not in top and "limit" not in top, top


def test_replay_seen_as_the_victim_hides_the_trap_target(tmp_path: Path) -> None:
    """Issue 17 item 6: a saved game's replay seen as P2 shows P1's Magic Trap cast as
    ``@P2:?`` (P2 did not know the target); seen as P1, or as everyone, it shows it whole."""
    o = R.validate_options({})
    st = R.new_game(o, 4)
    data = log.encode(log.header(R, o, 4))
    for i, text in enumerate(["P1 cast magic-trap @P2:lightning", "P2 pass"], 1):
        a = R.parse_action(text)
        R.apply(st, a)
        data += log.encode(log.record(R, i, a, st, force_hash=True))
    p = tmp_path / "g.wwlog"
    p.write_bytes(data)
    rp = replay.load(str(p))
    rp.build()

    def seen_as(seat: str) -> SimpleNamespace:
        ns = SimpleNamespace(replay=rp, seat=seat)
        ns.seen_action = lambda n: ReplayScreen.seen_action(ns, n)
        return ns

    def line(seat: str) -> str:
        return ReplayScreen.action_line(seen_as(seat), 1).plain

    assert line("P2").endswith("P1 cast magic-trap @P2:?")
    assert line("P1").endswith("P1 cast magic-trap @P2:lightning")
    assert line(replay.EVERYONE).endswith("@P2:lightning")
    assert ReplayScreen.action_line(seen_as("P2"), 2).plain.endswith(
        "P2 pass")


@pytest.mark.parametrize("game", ["arcomage", "wizwar"])
async def test_ctrl_c_twice_quits(game: str) -> None:
    """Issue 17 item 7 (README: Ctrl+C asks, and again quits at once; shell-level, every game): the second Ctrl+C,
    on the question's screen, quits as Ctrl+Q does."""
    from wizwar_tui.lobby import ConfirmScreen

    app = WizWarApp(bot_delay=0, save_games=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        app.start_game(game=game, seed=1)
        await pilot.pause()
        await pilot.press("ctrl+c")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen) and app.return_code is None
        await pilot.press("ctrl+c")
        await pilot.pause()
        assert app.return_code == 0


def test_spellbook_says_why_a_wizard_cannot_cast_and_the_trapper_sees_his_trap() -> None:
    """Items 14 and 15: under Animal Form every book line says ``animal-form``, not
    ``later``; the trapper's panel names the spell he trapped (R97), the victim's does not."""
    from wizwar_tui.arcomage import render

    st = R.new_game(R.validate_options({}), 2)
    R.apply(st, "P1 cast magic-trap @P2:lightning")
    R.apply(st, "P2 pass")
    mine = render.player_panel(R.view(st, "P1"), "P2", "P1").plain
    theirs = render.player_panel(R.view(st, "P2"), "P2", "P2").plain
    assert "lightning" in mine and "lightning" not in theirs, (mine, theirs)
    st.d["players"]["P1"]["form"] = {"slug": "animal-form"}  # (the Pale Tower has none)
    v = R.view(st, "P1")
    line = render.spell_line(v, "P1", "firebolt", False).plain
    assert "animal-form" in line and "later" not in line, line


async def test_a_refusal_does_not_outlive_the_next_action() -> None:
    """Item 17: "It is not your decision now." said during the rival's turn is gone from
    the status line once actions are played (into one's own MAIN); until then it stays."""
    from core.arcomage.actions import Action

    app = WizWarApp(bot_delay=0, save_games=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.start_game(game="arcomage", seed=1)
        assert isinstance(screen, ArcoMageGameScreen)
        await pilot.pause()
        s = screen.session
        screen.say("It is not your decision now.")
        v = s.view()
        legal = s.legal_actions()
        assert "not your decision" in screen.prompt(v, legal).plain
        s.submit(Action("P1", "end"))
        screen.run_bots()
        await pilot.pause()
        v = s.view()
        assert "not your decision" not in screen.prompt(v, s.legal_actions()).plain


def test_console_and_ascii_stand_ins_for_the_minus_sign_and_the_clock() -> None:
    """Item 12: TERM=linux drew ``?2 feeblemind`` and ``· ? 58s``."""
    from wizwar_tui.ascii import ascii_char, console_char

    assert console_char("−") == ascii_char("−") == "-"
    assert console_char("⏱") == "@"


def test_play_help_lists_the_clock_values() -> None:
    """Item 18: ``play --help``'s ``--clock`` says its values (0, 60)."""
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "wizwar_tui.cli", "play", "arcomage",
                          "--help"], capture_output=True, text=True, timeout=120).stdout
    flat = " ".join(out.split())
    assert "(one of 0, 60; default 0)" in flat, flat
