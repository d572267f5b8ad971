"""ArcoMage in the app (issue 17): the field drawn from the view, the panels, the spellbook,
the stack prompt, refusals in the rules' words, and whole games played by keys against each
bot level (Textual pilot)."""

from __future__ import annotations

from typing import Any

import pytest

from core import registry
from core.arcomage import field as fld
from core.arcomage.actions import Action
from core.arcomage.data import SPELLS
from core.session import LocalSession
from wizwar_tui import games
from wizwar_tui.app import WizWarApp
from wizwar_tui.arcomage import render
from wizwar_tui.arcomage.game import ArcoMageGameScreen, action_hexes, step_hex
from wizwar_tui.arcomage.screens import GameOverScreen, SpellsScreen
from wizwar_tui.arcomage.texts import SPELL_TEXT

RS = registry.get("arcomage")


def test_every_spell_has_its_text() -> None:
    """The screens' spell texts cover the pool exactly."""
    assert set(SPELL_TEXT) == set(SPELLS)
    assert "Deal 2 damage" in render.spell_text("firebolt").plain


def test_the_ui_part_is_found() -> None:
    """games.ui names ArcoMage's own screens, its title the ruleset's."""
    ui = games.ui("arcomage")
    assert ui.title == RS.title
    assert ui.game_screen() is ArcoMageGameScreen


def test_field_draws_every_hex_and_the_wizards() -> None:
    """Each of the 24 hexes is named on the field, the Nexus marked, both wizards shown with
    their owner; ASCII has no box glyph."""
    st = RS.new_game(RS.validate_options({}), 1)
    v = RS.view(st, "P1")
    text = render.render_field(v, "P1", render.FieldGeometry()).plain
    for h in fld.HEXES:
        if h not in fld.NEXUS:
            assert h in text
    assert "Nexus" in text and "@P1" in text and "@P2" in text
    plain = render.render_field(v, "P1", render.FieldGeometry(), ascii_only=True).plain
    assert all(ord(ch) < 128 for ch in plain)
    assert "┼" in text or "┴" in text


def test_cursor_reaches_every_hex() -> None:
    """The arrows reach all 24 hexes from c1."""
    seen, todo = {"c1"}, ["c1"]
    while todo:
        h = todo.pop()
        for d in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            n = step_hex(h, *d)
            if n not in seen:
                seen.add(n)
                todo.append(n)
    assert seen == set(fld.HEXES)


def arrows(start: str, goal: str) -> list[str]:
    """The arrow keys that take the cursor from ``start`` to ``goal``."""
    keys = {(1, 0): "right", (-1, 0): "left", (0, 1): "down", (0, -1): "up"}
    prev: dict[str, tuple[str, str]] = {}
    seen, todo = {start}, [start]
    while todo:
        h = todo.pop(0)
        if h == goal:
            break
        for d, k in keys.items():
            n = step_hex(h, *d)
            if n not in seen:
                seen.add(n)
                prev[n] = (h, k)
                todo.append(n)
    out: list[str] = []
    h = goal
    while h != start:
        h, k = prev[h]
        out.append(k)
    return out[::-1]


async def pick_in_list(pilot: Any, screen: ArcoMageGameScreen, which: str,
                       index: int) -> None:
    """Highlight entry ``index`` of a list by keys and press Enter."""
    from textual.widgets import OptionList

    ol = screen.query_one(f"#ac-{which}", OptionList)
    assert ol.has_focus
    await pilot.press("home")
    for _ in range(index):
        await pilot.press("down")
    assert ol.highlighted == index
    await pilot.press("enter")


async def play_by_keys(pilot: Any, screen: ArcoMageGameScreen, a: Action) -> None:
    """Enter action ``a`` the way a player does: the spellbook and the field for a cast,
    the field for a walk, the keys e and p, the action list for the rest."""
    v = screen.view()
    if a.verb == "end":
        await pilot.press("e")
        return
    if a.verb == "pass":
        await pilot.press("p")
        return
    if a.verb == "cast":
        await pilot.press("s")
        await pick_in_list(pilot, screen, "book", screen.book.index(a.slug))
    elif a.verb == "move":
        await pilot.press("f")
        for k in arrows(screen.cursor, a.targets[0]):
            await pilot.press(k)
        await pilot.press("enter")
    else:
        await pilot.press("a")
        await pick_in_list(pilot, screen, "actions", screen.shown.index(a))
        return
    await pilot.pause()
    if screen.choosing:
        hexes = action_hexes(v, a)
        if hexes and screen.marked(v):
            for k in arrows(screen.cursor, hexes[0]):
                await pilot.press(k)
            await pilot.press("enter")
            await pilot.pause()
        if screen.choosing:
            await pilot.press("a")
            await pick_in_list(pilot, screen, "actions", screen.shown.index(a))


async def whole_game(level: str, seed: int) -> tuple[LocalSession, list[str]]:
    """Play a whole game by keys against the bot at ``level``: the human's choice is the
    apprentice's on his own view (from the listed actions), entered through the UI."""
    app = WizWarApp(bot_delay=0, save_games=False)
    kinds: list[str] = []
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        screen = app.start_game(game="arcomage", seed=seed, options={"turn_limit": 40},
                                levels={"P2": level})
        assert isinstance(screen, ArcoMageGameScreen)
        await pilot.pause()
        s = screen.session
        for _ in range(3000):
            if s.over:
                break
            assert screen.my_turn(), "the bot left the human no decision"
            before = len(s.actions)
            legal = s.legal_actions()
            a = RS.bot_choose(s.view(), s.human, legal, "apprentice")
            await play_by_keys(pilot, screen, a)
            await pilot.pause()
            assert len(s.actions) > before, f"{a} was not played through the keys"
            done = s.actions[before]
            if a.verb == "move":  # the field offers the shortest walk to each hex
                assert (done.verb, done.targets[0], done.targets[-1]) == \
                    (a.verb, a.targets[0], a.targets[-1])
            else:
                assert done == a
            kinds.append(a.verb)
        assert s.over
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)
    return s, kinds


@pytest.mark.parametrize(("level", "seed"), [("apprentice", 2), ("archmage", 3)])
async def test_whole_game_by_keys(level: str, seed: int) -> None:
    """A whole game against each bot level, every action of the human's entered by keys:
    casts through the spellbook (targets on the field), walks, passes, ends, attacks."""
    s, kinds = await whole_game(level, seed)
    assert s.result().over
    assert "cast" in kinds and "end" in kinds


async def test_refusal_in_the_rules_words() -> None:
    """Enter on a spell the rules refuse now says why (a corpse is needed), and the
    notation line refuses a cast above the ceiling in words; nothing is played."""
    app = WizWarApp(bot_delay=0, save_games=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.start_game(game="arcomage", seed=1)
        assert isinstance(screen, ArcoMageGameScreen)
        await pilot.pause()
        await pilot.press("s")
        await pick_in_list(pilot, screen, "book", screen.book.index("raise-skeleton"))
        await pilot.pause()
        assert screen.message is not None
        assert "needs a corpse" in screen.message.plain
        await pilot.press("colon")
        for ch in "cast lich-form":
            await pilot.press(ch if ch != " " else "space")
        await pilot.press("enter")
        await pilot.pause()
        assert "above your cast ceiling" in screen.message.plain
        assert not screen.session.actions
        # the refused line closed (the next key is the game's); ":" opens it with its text
        from textual.widgets import Input

        cmd = screen.query_one("#ac-cmd", Input)
        assert not cmd.display and not cmd.has_focus
        assert "to fix the line" in screen.message.plain
        await pilot.press("colon")
        assert cmd.display and cmd.has_focus and cmd.value == "cast lich-form"
        await pilot.press("escape")
        assert not cmd.display
        await pilot.press("colon")
        assert cmd.value == ""  # Esc forgot it


async def test_stack_prompt_and_spell_reference() -> None:
    """A spell on the stack with the human holding priority: the prompt says respond or
    pass, the stack panel shows it; S opens all 64 spells."""
    app = WizWarApp(bot_delay=0, save_games=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = app.start_game(game="arcomage", seed=1, options={"first": "p2"})
        assert isinstance(screen, ArcoMageGameScreen)
        await pilot.pause()
        s = screen.session
        # P1 casts an instant in answer to nothing: instead make P1 cast firebolt and see
        # the bot's answer window from P2's side is the bot's; check the human's own:
        for _ in range(200):
            if s.over or s.view()["stack"]:
                break
            legal = s.legal_actions()
            a = next((x for x in legal if x.verb == "cast" and x.slug == "firebolt"), None)
            a = a or RS.bot_choose(s.view(), s.human, legal, "apprentice")
            screen.do(a)
            await pilot.pause()
        v = s.view()
        if v["stack"] and v["prio"] == s.human:
            legal = screen.legal()
            prompt = screen.prompt(v, legal).plain
            assert "PASS" in prompt
            # RESPOND only when some instant can answer; else the prompt says nothing can
            assert ("RESPOND" in prompt) == any(a.verb == "cast" for a in legal), prompt
            passes = [a for a in legal if a.verb == "pass"]
            assert "nothing in your spellbook can answer it" in screen.prompt(v, passes).plain
        await pilot.press("S")
        await pilot.pause()
        assert isinstance(app.screen, SpellsScreen)


async def test_book_building_screen() -> None:
    """The book screen: a starting book is legal; a 21st spell is refused in the rules'
    words; a legal book of one's own starts a game with it as P1's book."""
    from wizwar_tui.arcomage.screens import BookScreen

    app = WizWarApp(bot_delay=0, save_games=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        games.ui("arcomage").open_reference("book", app)
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, BookScreen)
        assert screen.problem() == ""
        first_out = next(i for i, s in enumerate(screen.pool) if s not in screen.book)
        await pilot.press("home", *["down"] * first_out, "space")
        await pilot.pause()
        assert "holds 20 spells, not 21" in screen.problem()
        await pilot.press("g")
        await pilot.pause()
        assert app.screen is screen  # refused
        await pilot.press("space")  # out again
        swap_out = screen.book[0]
        await pilot.press("home", *["down"] * screen.pool.index(swap_out), "space")
        await pilot.press("home", *["down"] * first_out, "space")
        await pilot.pause()
        assert screen.problem() == "" and swap_out not in screen.book
        await pilot.press("g")
        await pilot.pause()
        game = app.screen
        assert isinstance(game, ArcoMageGameScreen)
        assert screen.pool[first_out] in game.session.view()["players"]["P1"]["book"]


async def test_local_clock_enters_the_timeout() -> None:
    """With the clock (R110-R112) the app keeps time: 60 ticks of the human's turn budget
    enter ``P1 timeout`` (a logged action) and the turn passes; without a clock nothing is
    ever entered. The ticks are called directly (no real time in the test)."""
    app = WizWarApp(bot_delay=0, save_games=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.start_game(game="arcomage", seed=1, options={"clock": 60})
        assert isinstance(screen, ArcoMageGameScreen)
        await pilot.pause()
        s = screen.session
        screen.clock_timer.pause()  # the test ticks by itself
        assert not s.actions
        screen.turn_key = None  # a fresh budget from the next tick
        for _ in range(59):
            screen.clock_tick()
        assert not s.actions and "⏱ 1s" in screen.top_text(s.view()).plain
        screen.clock_tick()
        await pilot.pause()
        assert s.actions[0] == Action("P1", "timeout")
        assert s.view()["turn"] >= 2
    app = WizWarApp(bot_delay=0, save_games=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.start_game(game="arcomage", seed=1)
        await pilot.pause()
        for _ in range(100):
            screen.clock_tick()
        assert not screen.session.actions


async def test_replay_of_a_saved_game(tmp_path: Any) -> None:
    """A saved ArcoMage log opens in the replay screen: the field, the archmages and the
    last action at any step; it seeks to the end."""
    from core.session import LocalSession
    from wizwar_tui.arcomage.replay import ArcoMageReplayScreen

    path = tmp_path / "arco.wwlog"
    out = path.open("ab")

    def write(b: bytes) -> None:
        out.write(b)
        out.flush()

    s = LocalSession.start(RS, RS.validate_options({"turn_limit": 40}), 5, human="")
    s.record_to(write)
    s.run_bots()
    out.close()
    assert s.over
    app = WizWarApp(bot_delay=0, save_games=False, replay_file=str(path))
    async with app.run_test(size=(110, 34)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ArcoMageReplayScreen)
        for _ in range(5):
            await pilot.press("right")
        await pilot.pause()
        assert screen.n == 5
        field = str(screen.query_one("#ar-field").render())
        assert "Nexus" in field and "@P1" in field
        assert str(s.actions[4]) in str(screen.query_one("#info").render())
        await pilot.press("end")
        await pilot.pause()
        assert screen.n == len(s.actions)


async def test_narrow_window_shows_field_or_panels() -> None:
    """Below 80 columns the field and the panels take turns: Tab shows the panels, choosing
    a spell with field targets brings the field back with the targets marked."""
    app = WizWarApp(bot_delay=0, save_games=False)
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        screen = app.start_game(game="arcomage", seed=5)
        assert isinstance(screen, ArcoMageGameScreen)
        await pilot.pause()
        assert screen.query_one("#ac-left").display and not screen.query_one("#ac-right").display
        await pilot.press("tab")
        await pilot.pause()
        assert screen.query_one("#ac-right").display and not screen.query_one("#ac-left").display
        await pick_in_list(pilot, screen, "book", screen.book.index("firebolt"))
        await pilot.pause()
        assert screen.query_one("#ac-left").display and screen.choosing
        assert set(screen.marked(screen.view())) == {"c1", "c6"}


def test_help_lines_fit_the_help_frame_at_80_columns() -> None:
    """The help's lines (markup left out) fit in 72 columns, so the help frame of an 80x24
    terminal shows them unwrapped (a wrapped line lost its indent: trial at 80x24)."""
    import re

    from wizwar_tui.arcomage.screens import help_text

    for menu in (True, False):
        for line in help_text(menu=menu).splitlines():
            assert len(re.sub(r"\[/?[bi]\]", "", line)) <= 72, line


def test_a_spell_text_says_what_its_conditions_do() -> None:
    """Every condition of the rules has its words (spells.md §7), and a spell that gives one
    says what it does: Strength's card names +2/+0 and 3 turns, Venom's the Life loss."""
    from core.arcomage.data import CONDITIONS, SPELLS
    from wizwar_tui.arcomage.render import spell_text
    from wizwar_tui.arcomage.texts import CONDITION_TEXT

    assert set(CONDITION_TEXT) == set(CONDITIONS)
    assert all(g in SPELLS or g in ("searing",) for v in CONDITION_TEXT.values() for g in v[3])
    strength = spell_text("strength").plain
    assert "strength (3 turns): on a creature: +2/+0" in strength
    assert "loses 1 Life at each of its upkeeps" in spell_text("venom").plain
    assert "\n\n" not in spell_text("study").plain.split("permanently.")[1]



async def test_every_panel_title_can_be_read() -> None:
    """Each panel's title on the game screen and the spells screen stands out from what is
    behind it (a contrast of 3:1 at least): the log's and the archmages' titles were drawn
    in $panel, nearly the background, and could not be read in a browser tab."""
    from tests.readable import panel_titles, unreadable

    app = WizWarApp(bot_delay=0, save_games=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = app.start_game(game="arcomage", seed=1)
        assert isinstance(screen, ArcoMageGameScreen)
        await pilot.pause()
        assert {"Archmages", "Log"} <= set(panel_titles(app.screen))
        assert not unreadable(app.screen)
        await pilot.press("S")
        await pilot.pause()
        assert isinstance(app.screen, SpellsScreen)
        assert not unreadable(app.screen)
