"""Wizard Kings in the app, the fresh-user trial's map and keyboard findings (issue 18,
trialWK): the cursor's hex always in sight, all six neighbours by keys, the replay
scrolling sideways, new units of more than one step, own stacks marked without colour,
the spells' effects, the 80-column footer, the Turn panel during a regroup."""

from __future__ import annotations

import asyncio
import tomllib
from pathlib import Path
from typing import Any

from core import registry
from core.session import LocalSession
from core.wizardkings import scenario as S
from wizwar_tui.app import WizWarApp
from wizwar_tui.wizardkings import render
from wizwar_tui.wizardkings.game import MapScroll, WizardKingsScreen

RS = registry.get("wizard-kings")
SCEN = Path(__file__).parent / "scenarios"


def _doc(name: str) -> dict[str, Any]:
    doc = tomllib.loads((SCEN / name).read_text())
    doc.pop("ruleset", None)
    return doc


def _new_screen(seed: int) -> WizardKingsScreen:
    opts = RS.validate_options({})
    st = RS.new_game(opts, seed)
    session = LocalSession(RS, st, "P1", ("P2",), seed=seed, options=opts)
    return WizardKingsScreen(session=session, seed=seed, bot_delay=0)


def _screen_on(st: Any) -> WizardKingsScreen:
    session = LocalSession(RS, st, "P1", ("P2",), seed=1, options=RS.validate_options({}))
    return WizardKingsScreen(session=session, seed=1, bot_delay=0)


async def _mounted(pilot: Any, app: WizWarApp, scr: Any) -> None:
    for _ in range(200):
        await pilot.pause(0.05)
        if app.screen is scr and scr.is_attached and getattr(scr, "cursor", True):
            return
    raise AssertionError("the screen was not mounted")


def _cursor_in_sight(scr: WizardKingsScreen) -> bool:
    """The whole drawing cell of the cursor's hex (9 x 5) lies in the map's window."""
    box = scr.query_one(MapScroll)
    h = render.board_of(scr.view()).hexes[scr.cursor]
    x, y = render.origin(h)
    win = box.scrollable_content_region
    sx, sy = box.scroll_offset.x, box.scroll_offset.y
    return sx <= x and x + 9 <= sx + win.width and sy <= y and y + 5 <= sy + win.height


def test_the_cursors_hex_stays_in_sight_east_and_west() -> None:
    """trialWK 1: at 80x24 and 100x30 (the side panels of wkr) the cursor's hex is wholly
    in the map's window after every step east across both maps and back west."""

    async def run(size: tuple[int, int]) -> None:
        app = WizWarApp(bot_delay=0, save_games=False, discovery=False)
        async with app.run_test(size=size) as pilot:
            scr = _new_screen(21)
            app.push_screen(scr)
            await _mounted(pilot, app, scr)
            await pilot.press("enter")  # deploy
            await pilot.pause(0.1)
            scr.cursor = "1a8"
            scr.draw()
            await pilot.pause(0.1)
            box = scr.query_one(MapScroll)
            assert box.max_scroll_x > 0  # the board is wider than the window
            seen = []
            for key in ["right"] * 15 + ["left"] * 15:
                await pilot.press(key)
                await pilot.pause(0.05)
                seen.append(scr.cursor)
                assert _cursor_in_sight(scr), (size, key, scr.cursor, box.scroll_offset)
            assert "2h8" in seen and seen[-1] == "1a8"

    asyncio.run(run((80, 24)))
    asyncio.run(run((100, 30)))


def test_six_keys_reach_the_six_neighbours_and_trace_a_diagonal_transport() -> None:
    """trialWK 3: Up Down Left Right Home PgUp End PgDn reach every neighbour of a hex
    (flat-topped hexes: Left/Right keep the row, Home/PgUp/End/PgDn are NW NE SW SE);
    the Sea Transport 1e7 -> 1f7 -> 1g8 is traced by keys (Right, PgDn) and sails."""
    st = S.load(_doc("sea-transport.toml"))

    async def run() -> None:
        app = WizWarApp(bot_delay=0, save_games=False, discovery=False)
        async with app.run_test(size=(120, 40)) as pilot:
            scr = _screen_on(st)
            app.push_screen(scr)
            await _mounted(pilot, app, scr)
            b = render.board_of(scr.view())
            for start in ("1c4", "1d4"):  # an upper and a lower column
                got = set()
                for key in ("up", "down", "left", "right", "home", "pageup", "end",
                            "pagedown"):
                    scr.cursor = start
                    await pilot.press(key)
                    got.add(scr.cursor)
                assert got == set(b.neighbours(start)), (start, got)
            scr.cursor = "1e7"
            await pilot.press("t")
            assert scr.mode == "transport"
            await pilot.press("right", "pagedown")
            assert scr.trail == ["1f7", "1g8"], scr.trail
            assert "Enter sails here" in str(scr.message), scr.message
            await pilot.press("enter")
            await pilot.pause()
            last = scr.session.actions[-1]
            assert last.verb == "transport" and last.words[1] == "1f7-1g8"

    asyncio.run(run())


def test_the_replay_follows_the_last_action_sideways_and_h_l_scroll_it(tmp_path: Any) -> None:
    """trialWK 4: at 80x24 the replay's map follows the hex the last action ends in, east
    or west (a path's last hex), h / l scroll it sideways, and the keys line says so."""
    from wizwar_tui.wizardkings.replay import ReplayMapScroll, action_hexes

    session = LocalSession.start(RS, {}, 9, human="")
    data: list[bytes] = []
    session.record_to(data.append)
    while not session.over and session.state.d["turn"] < 3:
        seat = session.to_move()[0]
        session.submit(RS.bot_act(session.state, seat, "captain"))
    path = tmp_path / "g.wwlog"
    path.write_bytes(b"".join(data))

    async def run() -> None:
        app = WizWarApp(bot_delay=0, save_games=False, discovery=False)
        async with app.run_test(size=(80, 24)) as pilot:
            rp = app.open_replay(str(path))
            await pilot.pause()
            box = rp.query_one(ReplayMapScroll)
            b = render.board_of(rp.seen_view(rp.state))
            ends = {}
            for n, a in enumerate(rp.replay.actions, 1):
                hx = [h for h in action_hexes(a) if h in b.hexes]
                if hx:
                    ends[n] = hx[-1]
            east = max(ends, key=lambda n: b.hexes[ends[n]].gq)
            west = min(ends, key=lambda n: b.hexes[ends[n]].gq)
            assert b.hexes[ends[east]].gq >= 12  # on the orcs' map, past 2d
            xs = []
            for n in (west, east, west):
                rp.go(n)
                await pilot.pause(0.1)
                x, y = render.origin(b.hexes[ends[n]])
                win = box.scrollable_content_region
                ox, oy = box.scroll_offset.x, box.scroll_offset.y
                assert ox <= x and x + 9 <= ox + win.width, (n, ends[n], ox)
                assert oy <= y and y + 5 <= oy + win.height, (n, ends[n], oy)
                xs.append(ox)
            assert xs[1] > xs[0]
            assert "hl" in rp.keys_text().plain or "h/l" in rp.keys_text().plain
            before = box.scroll_offset.x
            await pilot.press("h")
            await pilot.pause()
            assert box.scroll_offset.x < before
            await pilot.press("l", "l")
            await pilot.pause()
            assert box.scroll_offset.x > before - 14

    asyncio.run(run())


def test_plus_and_minus_set_a_new_units_steps_in_the_build_phase() -> None:
    """trialWK 6, R92: a new unit queued by n gets steps by + (to its maximum, no further)
    and loses them by - (not below 1); the Turn panel shows its steps and cost; o sends
    the order with that strength."""
    from core.wizardkings.units import ARMIES

    st = S.load(_doc("allied-build-clash.toml"))
    glader = ARMIES["elves"]["glader"]

    async def run() -> None:
        app = WizWarApp(bot_delay=0, save_games=False, discovery=False)
        async with app.run_test(size=(120, 40)) as pilot:
            session = LocalSession(RS, st, "P1", ("P2", "P3"), seed=1,
                                   options=RS.validate_options({}))
            scr = WizardKingsScreen(session=session, seed=1, bot_delay=0)
            app.push_screen(scr)
            await _mounted(pilot, app, scr)
            assert scr.my_turn() and scr.view()["phase"] == "build"
            await pilot.press("plus")
            assert "No new unit queued" in str(scr.message)
            scr.cursor = "1c2"
            await pilot.press("n")
            texts = [str(a.words[0]) for a in scr.shown]
            ol = scr.query_one("#wk-actions")
            ol.highlighted = texts.index("new=glader@1c2:1")  # type: ignore[attr-defined]
            await pilot.press("enter")
            assert scr.orders == [("new", "glader@1c2:1")]
            for _ in range(glader.max + 1):
                await pilot.press("plus")
            assert scr.orders == [("new", f"glader@1c2:{glader.max}")]
            assert f"at most {glader.max} steps" in str(scr.message)
            await pilot.press("minus")
            k = glader.max - 1
            assert scr.orders == [("new", f"glader@1c2:{k}")]
            assert "accepted" in str(scr.message)
            panel = str(scr.status_text(scr.view()))
            assert f"new glader in 1c2: {k}/{glader.max} steps, {k * glader.cost} GP" in panel
            for _ in range(k + 1):
                await pilot.press("minus")
            assert scr.orders == [("new", "glader@1c2:1")]
            await pilot.press("equals_sign")  # the unshifted + key
            await pilot.press("o")
            await pilot.pause()
            assert any(str(a) == "P1 build new=glader@1c2:2" for a in scr.session.actions)

    asyncio.run(run())


def test_own_and_enemy_stacks_differ_without_colour() -> None:
    """trialWK 7: with NO_COLOR or ASCII the viewer's (and allies') blocks are marked ▮ / #,
    any other player's ▯ / x, on the map, in the hex panel and in the Turn panel; the
    replay's "everyone" view marks them all alike."""
    blocks = [{"owner": "P1", "label": 1, "type": "glader", "strength": 4},
              {"owner": "P1", "label": 2, "type": "glader", "strength": 4},
              {"owner": "P2", "label": 3, "type": "", "strength": 0},
              {"owner": "P2", "label": 4, "type": "", "strength": 0}]
    assert render.stack_cells(blocks, "#", "x", {"P1"}) == [("##", "P1"), (" xx", "P2")]
    assert render.stack_cells(blocks, "#", "x", {"P2"}) == [("xx", "P1"), (" ##", "P2")]
    assert render.stack_cells(blocks, "#", "x", None) == [("##", "P1"), (" ##", "P2")]
    assert render.stack_cells(blocks[2:3], "\u25ae", "\u25af", {"P1"}) == [("\u25af#3", "P2")]
    opts = RS.validate_options({})
    st = RS.new_game(opts, 3)
    for seat in ("P1", "P2"):
        RS.apply(st, RS.legal_actions(st, seat)[0])
    v = RS.view(st, "P1")
    text = render.render_map(v, None, ascii_only=True).plain
    uni = render.render_map(v, None).plain
    by = render.blocks_at(v)
    mine = [h for h, xs in by.items() if len(xs) > 1 and all(x["owner"] == "P1" for x in xs)]
    theirs = [h for h, xs in by.items() if len(xs) > 1 and all(x["owner"] == "P2" for x in xs)]
    assert mine and theirs
    assert "##" in text and "xx" in text
    assert "\u25ae\u25ae" in uni and "\u25af\u25af" in uni
    enemy = render.hex_lines(v, theirs[0], ascii_only=True)[-1].plain
    own = render.hex_lines(v, mine[0], ascii_only=True)[-1].plain
    assert enemy.lstrip().startswith("x P2") and own.lstrip().startswith("# P1")
    assert render.friends_of(render.reveal_all(RS.state_to_wire(st)["g"], "")) is None


def test_every_spell_says_what_it_does_in_the_reference_and_the_c_list() -> None:
    """trialWK 8, units.md §4: each spell of the rules core has its effect in words, the
    reference (``?``, the menu's page) names it with its dice, and the ``c`` list gives each
    cast a short effect."""
    from core.wizardkings.turn import MOVE_SPELLS, SPELLS
    from wizwar_tui.wizardkings.game import spell_line
    from wizwar_tui.wizardkings.screens import help_text
    from wizwar_tui.wizardkings.spells import SPELL_TEXT, short

    assert set(SPELLS) | set(MOVE_SPELLS) | {"dispel"} == set(SPELL_TEXT)
    text = help_text()
    assert "leafstorm (level 2, combat): 3 dice F4" in text
    assert "terror (level 1, combat): rounds 2-4 only" in text
    assert "elfshot (level 1, combat): targeted: 2 dice F3" in text
    assert text.count("heal (level 1") == 1
    from core.wizardkings.actions import parse

    line = spell_line(parse("P1 cast leafstorm 14"))
    assert line == "P1 cast leafstorm 14: " + short("leafstorm") and "3 dice F4" in line
    assert spell_line(parse("P1 dispel 4")).endswith(short("dispel"))
    assert spell_line(parse("P1 end")) == "P1 end"
    st = S.load(_doc("elven-gate.toml"))

    async def run() -> None:
        app = WizWarApp(bot_delay=0, save_games=False, discovery=False)
        async with app.run_test(size=(120, 40)) as pilot:
            scr = _screen_on(st)
            app.push_screen(scr)
            await _mounted(pilot, app, scr)
            await pilot.press("c")
            ol = scr.query_one("#wk-actions")
            first = str(ol.get_option_at_index(0).prompt)  # type: ignore[attr-defined]
            slug = scr.shown[0].words[0]
            assert short(slug).split()[0] in first, first

    asyncio.run(run())


def test_the_footer_drops_whole_hints_and_keeps_help_and_menu() -> None:
    """trialWK 13: at 80x24 (and 60) the footer shows whole hints that fit, ``? Help`` and
    ``q Menu`` among them, the least needed left out; at 120 columns all of them."""
    from textual.widgets._footer import FooterKey

    from wizwar_tui.footer import FittedFooter, KeysFooter

    async def run(size: tuple[int, int]) -> list[str]:
        app = WizWarApp(bot_delay=0, save_games=False, discovery=False)
        async with app.run_test(size=size) as pilot:
            scr = _new_screen(3)
            app.push_screen(scr)
            await _mounted(pilot, app, scr)
            await pilot.pause(0.2)
            foot = scr.query_one(FittedFooter)
            keys = [k for k in foot.query(FooterKey) if k.display]
            assert sum(KeysFooter.key_width(k) for k in keys) <= size[0]
            return [k.action for k in keys]

    small = asyncio.run(run((80, 24)))
    narrow = asyncio.run(run((60, 24)))
    wide = asyncio.run(run((120, 40)))
    for acts in (small, narrow, wide):
        assert "help" in acts and "menu" in acts
    assert "command_palette" not in small and "command_palette" in wide
    assert set(narrow) < set(small) <= set(wide)


def test_the_turn_panel_during_a_regroup_shows_the_battle_over() -> None:
    """trialWK 9, R72: once the battle is won, the Turn panel says it is over and who
    regroups, not the last round's step and firing order."""
    st = S.load(_doc("regroup-out.toml"))
    RS.apply(st, RS.parse_action("P1 retreat 1 2a4"))  # the attacker's last unit leaves

    async def run() -> None:
        app = WizWarApp(bot_delay=0, save_games=False, discovery=False)
        async with app.run_test(size=(100, 30)) as pilot:
            session = LocalSession(RS, st, "P2", ("P1",), seed=1,
                                   options=RS.validate_options({}))
            scr = WizardKingsScreen(session=session, seed=1, bot_delay=0)
            app.push_screen(scr)
            await _mounted(pilot, app, scr)
            assert any(a.verb == "regroup" for a in scr.legal())
            panel = str(scr.status_text(scr.view()))
            assert "Battle in 2b4 over: P2 holds it" in panel and "regroup (R72): P2" in panel
            assert "step" not in panel and ">A-" not in panel and "round 2" not in panel
            assert "Regroup" in scr.hint()

    asyncio.run(run())
