"""The rest of the fresh-user trial of ArcoMage (issue 17): every field highlight found
without colour (NO_COLOR, ``--ascii``, the Linux console), one Life glyph, the LAN host told
when its joiner leaves, the book builder's notice, the replay's go-to-turn."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from textual import events

from core.arcomage import scenario
from core.arcomage.ruleset import RULESET as R
from core.session import LocalSession
from tests.readable import screen_text
from wizwar_tui.app import WizWarApp
from wizwar_tui.arcomage import render
from wizwar_tui.arcomage.game import ArcoMageGameScreen


def zoc_view() -> dict:  # type: ignore[type-arg]
    """P1's view with a P2 skeleton on b2 (its Zone of Control: a1, a2, b1, b3, c2...)."""
    st = scenario.load({"creatures": [{"kind": "skeleton", "owner": "P2", "at": "b2"}]})
    return R.view(st, "P1")


@pytest.mark.parametrize("ascii_only", [False, True])
@pytest.mark.parametrize("size", [(7, 2), (11, 3)])
def test_highlights_have_shapes_not_only_colours(ascii_only: bool,
                                                 size: tuple[int, int]) -> None:
    """Issue 17 (NO_COLOR as Wiz-War does it): in the plain text (no style at all) a marked
    hex has the mark after its name, an empty one also in its middle; a guarded hex (ZoC)
    has the hatch; an unmarked, unguarded hex has neither."""
    g = render.GLYPHS[ascii_only]
    geo = render.FieldGeometry(*size)
    v = zoc_view()
    plain = render.render_field(v, "P1", geo, marked=["c2", "c6", "d1"], zoc=True,
                                ascii_only=ascii_only).plain
    assert f"c2{g['mark']}" in plain and f"d1{g['mark']}" in plain
    assert f"c6{g['mark']}@P2" in plain  # an occupied target: the mark after the name
    assert f"b3{g['zoc']}" in plain and f" {g['zoc']} {g['zoc']} " in plain
    assert f"e4{g['mark']}" not in plain and f"e4{g['zoc']}" not in plain
    assert f"d1{g['zoc']}" not in plain  # d1 is not next to b2
    # without a highlight there is no mark at all
    bare = render.render_field(v, "P1", geo, ascii_only=ascii_only).plain
    assert g["mark"] not in bare and f"b3{g['zoc']}" not in bare
    if ascii_only:
        assert plain.isascii()


def test_life_is_one_glyph_in_ascii() -> None:
    """``--ascii``: Life is ``L`` on the field and in the compact panel alike (it was ``L``
    on the field and ``*`` in the panel)."""
    v = R.view(R.new_game(R.validate_options({}), 1), "P1")
    field = render.render_field(v, "P1", render.FieldGeometry(), ascii_only=True).plain
    panel = render.player_panel(v, "P1", "P1", compact=True, ascii_only=True).plain
    assert "L30" in field and "L30" in panel and "*" not in panel and "♥" not in panel
    assert "♥30" in render.player_panel(v, "P1", "P1", compact=True).plain


def _colours(text: str) -> list[str]:
    return re.findall(r"\x1b\[[0-9;]*m", text)


@pytest.mark.parametrize("ascii_only", [False, True])
async def test_no_color_walks_and_zoc_are_found(monkeypatch: pytest.MonkeyPatch,
                                                ascii_only: bool) -> None:
    """NO_COLOR=1 at 80x24: Enter on one's creature marks the hexes it may walk to on the
    screen itself (the mark after d2 and e1), ``z`` hatches the hexes next to an enemy
    creature."""
    monkeypatch.setenv("NO_COLOR", "1")
    app = WizWarApp(bot_delay=0, save_games=False, ascii_only=ascii_only)
    g = render.GLYPHS[ascii_only]
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.no_color
        screen = app.start_game(game="arcomage", seed=1)
        assert isinstance(screen, ArcoMageGameScreen)
        await pilot.pause()
        screen.session.state = scenario.load({"creatures": [  # type: ignore[attr-defined]
            {"kind": "skeleton", "owner": "P2", "at": "b2"},
            {"kind": "skeleton", "owner": "P1", "at": "e2"}]})
        screen.cursor = "e2"
        screen.draw()
        await pilot.pause()
        before = screen_text(app)
        assert f"e1{g['mark']}" not in before and f"b3{g['zoc']}" not in before
        await pilot.press("enter")  # the skeleton's walks
        await pilot.pause()
        text = screen_text(app)
        assert f"e1{g['mark']}" in text and f"d2{g['mark']}" in text, text
        await pilot.press("escape")
        await pilot.press("z")
        await pilot.pause()
        text = screen_text(app)
        assert f"b3{g['zoc']}" in text and f"a2{g['zoc']}" in text, text


def type_at_once(app: WizWarApp, keys: list[str]) -> None:
    """Send ``keys`` as a terminal does when they are typed fast (or pasted): all queued
    before the app handles the first (``pilot.press`` waits for the app after each key)."""
    driver = app._driver
    assert driver is not None
    for k in keys:
        ev = events.Key(k, "\r" if k == "enter" else k)
        ev.set_sender(app)
        driver.send_message(ev)


def bot_game_log(tmp_path: Path) -> tuple[Path, LocalSession]:
    """A whole bot game of ArcoMage saved as a log (turn limit 40)."""
    path = tmp_path / "arco.wwlog"
    out = path.open("ab")

    def write(b: bytes) -> None:
        out.write(b)
        out.flush()

    s = LocalSession.start(R, R.validate_options({"turn_limit": 40}), 5, human="")
    s.record_to(write)
    s.run_bots()
    out.close()
    assert s.over
    return path, s


async def test_replay_jump_keeps_keys_typed_at_once_and_speaks_of_turns(
        tmp_path: Path) -> None:
    """Issue 17 (replay): ``t`` then digits typed at once (no pause: a fast typist, a
    paste) all reach the jump line (the first ones were lost while its focus was pending);
    the header says ArcoMage's turn and the active archmage, no "round" that is the same
    number; the jump line offers no rounds."""
    from wizwar_tui.arcomage.replay import ArcoMageReplayScreen

    path, s = bot_game_log(tmp_path)
    app = WizWarApp(bot_delay=0, save_games=False, replay_file=str(path))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ArcoMageReplayScreen)
        rp = screen.replay
        assert len(rp.turn_starts) >= 12
        type_at_once(app, ["t", "1", "2", "enter"])
        await pilot.pause(0.2)
        assert screen.n == rp.turn_starts[11], (screen.n, rp.turn_starts[:13])
        head = screen.query_one("#replay-head").render()
        text = str(head)
        assert "turn 12 (P" in text and "round" not in text, text
        assert "round" not in (screen.query_one("#jump").placeholder or "")


def test_jump_to_a_round_is_refused_where_there_are_only_turns(tmp_path: Path) -> None:
    """ArcoMage's replay (no rounds): ``r3`` says why it is no jump; ``12`` and ``t12`` go
    to turn 12; a game with rounds still takes ``r3``."""
    from wizwar_tui import replay

    path, _s = bot_game_log(tmp_path)
    rp = replay.load(str(path))
    rp.build()
    with pytest.raises(ValueError, match="no rounds"):
        replay.parse_jump("r3", rp, rounds=False)
    assert replay.parse_jump("12", rp, rounds=False) == rp.turn_starts[11]
    assert replay.parse_jump("t12", rp, rounds=False) == rp.turn_starts[11]
    assert replay.parse_jump("r3", rp) == next(n for n, (r, _) in enumerate(rp.marks) if r >= 3)


async def test_book_builder_refusal_is_on_the_status_line_not_over_it() -> None:
    """Issue 17 (80x24): ``g`` on a book that is not legal says why on the book builder's
    status line (a notice covered the status line); the next change clears it."""
    from wizwar_tui.arcomage.screens import BookScreen

    app = WizWarApp(bot_delay=0, save_games=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.push_screen(BookScreen())
        await pilot.pause()
        await pilot.press("c", "g")
        await pilot.pause()
        assert isinstance(app.screen, BookScreen)
        assert not list(app._notifications), list(app._notifications)
        text = screen_text(app)
        assert "not a legal book yet" in text, text
        status = str(app.screen.query_one("#bk-status").render())
        assert "not a legal book yet" in status
        await pilot.press("space")
        await pilot.pause()
        assert "not a legal book yet" not in str(app.screen.query_one("#bk-status").render())


async def test_host_is_told_in_its_own_turn_that_the_joiner_left() -> None:
    """Issue 17 (LAN): the joiner's connection lost while it is the host's turn: the top
    line and the prompt say so (the prompt said only "Your MAIN: ..." and a notice went
    by); once the joiner is back, neither does."""
    from wizwar_tui.gameui import NetNotices

    app = WizWarApp(bot_delay=0, save_games=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.start_game(game="arcomage", seed=1)
        assert isinstance(screen, ArcoMageGameScreen)
        await pilot.pause()
        notices = NetNotices()
        screen.net_notices = notices  # as a LAN game's screen has (GameScreenBase)
        notices.take(None, {"P1": "host", "P2": "connected"})
        notices.take(None, {"P1": "host", "P2": "disconnected"})
        screen.draw()
        await pilot.pause()
        v = screen.session.view()
        assert "P2 disconnected" in screen.top_text(v).plain
        prompt = screen.prompt(v, screen.legal()).plain
        assert prompt.startswith("P2 disconnected") and "Your MAIN" in prompt, prompt
        assert "P2 disconnected" in screen_text(app)
        notices.take(None, {"P1": "host", "P2": "connected"})
        v = screen.session.view()
        assert "disconnected" not in screen.top_text(v).plain
        assert "disconnected" not in screen.prompt(v, screen.legal()).plain
