"""Wizard Kings in the app, issue 18's later items: the 4-player quick start (menu and
``wizwar play wizard-kings --players 4``), Sea Transport and merges by keys, and the replay
counting the rules' game turns."""

from __future__ import annotations

import asyncio
import contextlib
import re
import tomllib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from rich.text import Text

from core import registry
from core.engine import OptionError
from core.session import LocalSession
from core.wizardkings import scenario as S
from wizwar_tui.app import WizWarApp
from wizwar_tui.wizardkings import UI
from wizwar_tui.wizardkings.game import WizardKingsScreen, merge_words

RS = registry.get("wizard-kings")
SCEN = Path(__file__).parent / "scenarios"


def _doc(name: str) -> dict[str, Any]:
    doc = tomllib.loads((SCEN / name).read_text())
    doc.pop("ruleset", None)
    return doc


def _screen_on(st: Any, bots: tuple[str, ...]) -> WizardKingsScreen:
    """A screen over a local session of ``st`` played by P1 (the rest bots)."""
    opts = RS.validate_options({"players": len(st.d["players"])}) \
        if len(st.d["players"]) in (2, 4) else RS.validate_options({})
    session = LocalSession(RS, st, "P1", bots, seed=1, options=opts)
    return WizardKingsScreen(session=session, seed=1, bot_delay=0)


async def _mounted(pilot: Any, app: WizWarApp, scr: WizardKingsScreen) -> None:
    """Wait (bounded) until ``scr`` is the mounted, drawn screen (under load one pause may
    not be enough)."""
    for _ in range(200):
        await pilot.pause(0.05)
        if app.screen is scr and scr.is_attached and scr.cursor:
            return
    raise AssertionError("the game screen was not mounted")


@contextlib.asynccontextmanager
async def _playing(st: Any, bots: tuple[str, ...] = ("P2",),
                   ) -> AsyncIterator[tuple[WizWarApp, Any, WizardKingsScreen]]:
    """The app at 120x40 with a mounted screen over ``st`` (:func:`_screen_on`):
    (app, pilot, screen)."""
    app = WizWarApp(bot_delay=0, save_games=False, discovery=False)
    async with app.run_test(size=(120, 40)) as pilot:
        scr = _screen_on(st, bots)
        app.push_screen(scr)
        await _mounted(pilot, app, scr)
        yield app, pilot, scr


@contextlib.asynccontextmanager
async def _started(seed: int = 5, size: tuple[int, int] = (100, 30),
                   ) -> AsyncIterator[tuple[WizWarApp, Any, WizardKingsScreen]]:
    """The app with a new Wizard Kings game of ``seed`` started from it: (app, pilot,
    screen)."""
    app = WizWarApp(bot_delay=0, save_games=False, discovery=False)
    async with app.run_test(size=size) as pilot:
        scr = app.start_game(game="wizard-kings", seed=seed)
        assert isinstance(scr, WizardKingsScreen)
        await pilot.pause()
        yield app, pilot, scr


def test_four_players_play_on_the_four_map_layout() -> None:
    """R8, R21: ``--players 4`` alone picks the 4-map layout, each player owning a map; a
    4-player game on a 2-map layout (or 2 players on 4 maps) is refused in words."""
    o = RS.validate_options({"players": 4})
    assert o["layout"] == "4-map"
    st = RS.new_game(o, 3)
    assert st.d["maps"] == [1, 2, 3, 4]
    assert st.d["owners"] == {"P1": [1], "P2": [2], "P3": [3], "P4": [4]}
    with pytest.raises(OptionError, match="4-map"):
        RS.validate_options({"players": 4, "layout": "2-map"})
    with pytest.raises(OptionError, match="2 players"):
        RS.validate_options({"layout": "4-map"})
    from net.cli import options_from_args
    from wizwar_tui.cli import build_parser

    games = {k: RS for k in ("play", "host", "selfplay")}
    p = build_parser(games)
    args = p.parse_args(["play", "wizard-kings", "--players", "4"])
    assert options_from_args(p, RS, args)["layout"] == "4-map"


def test_the_menus_four_player_quick_start_plays_against_three_bots() -> None:
    """The menu's second Wizard Kings line starts P1 against bots at P2-P4 on four maps."""
    qs = [q for q in UI.quick_starts if q.options.get("players") == 4
          and not q.options.get("teams")]
    assert len(qs) == 1 and "3 bots" in qs[0].label

    async def run() -> None:
        app = WizWarApp(bot_delay=0, save_games=False, discovery=False)
        async with app.run_test(size=(80, 24)) as pilot:
            scr = app.start_game(game="wizard-kings", seed=4, options=dict(qs[0].options))
            assert isinstance(scr, WizardKingsScreen)
            await pilot.pause()
            s = scr.session
            assert list(s.ruleset.seats(s.options)) == ["P1", "P2", "P3", "P4"]
            assert scr.human == "P1" and set(s.bots) == {"P2", "P3", "P4"}
            assert scr.view()["layout"] == "4-map"
            top = scr.top_text(scr.view()).plain
            assert top.index("your turn") < 80  # said before the (long) initiative order
            await pilot.press("enter")  # deploy the standard army; the bots deploy too
            await pilot.pause()
            assert s.state.d["phase"] != "setup"
            assert all(p in s.state.d["deployed"] for p in ("P1", "P2", "P3", "P4"))

    asyncio.run(run())


def test_sea_transport_by_keys() -> None:
    """R50: t on the Glader in the port 1e7 lights the ports it may sail to; with the cursor
    on 1g8 Enter sails there (a route the rules accept: the shoal hexside is avoided); t on
    a hex that is no port says so."""
    st = S.load(_doc("sea-transport.toml"))

    async def run() -> None:
        async with _playing(st) as (app, pilot, scr):
            scr.cursor = "1d6"
            await pilot.press("t")
            assert "no block" in str(scr.message) or "not a port" in str(scr.message)
            scr.reset_selection()
            scr.cursor = "1e7"
            await pilot.press("t")
            assert scr.mode == "transport" and scr.chosen == ["1"]
            assert "1g8" in scr.reach()
            scr.cursor = "1g8"
            await pilot.press("enter")
            await pilot.pause()
            last = scr.session.actions[-1]
            assert last.verb == "transport" and last.words[1].endswith("1g8")
            assert scr.session.state.d["blocks"]["P1.1"]["at"] == "1g8"

    asyncio.run(run())


def test_merge_by_keys_in_the_build_phase() -> None:
    """R97: j on the Glader 2 of 1c2 lists its merges into the Glader 1 (strength 3 of 4);
    choosing one adds it to the orders, which o sends."""
    st = S.load(_doc("allied-build-clash.toml"))

    async def run() -> None:
        async with _playing(st, ("P2", "P3")) as (app, pilot, scr):
            assert scr.my_turn()
            scr.cursor = "1c2"
            await pilot.press("enter")  # select the hex's blocks
            scr.chosen = ["2"]
            await pilot.press("j")
            texts = [str(a.words[0]) for a in scr.shown]
            assert "merge=2>1:1" in texts and all(t.startswith("merge=2>") for t in texts)
            ol = scr.query_one("#wk-actions")
            ol.highlighted = texts.index("merge=2>1:1")  # type: ignore[attr-defined]
            await pilot.press("enter")
            assert scr.orders == [("merge", "2>1:1")]
            assert "accepted" in str(scr.message)
            await pilot.press("o")
            await pilot.pause()
            assert any(str(a) == "P1 build merge=2>1:1" for a in scr.session.actions)

    asyncio.run(run())
    assert merge_words("merge=2>1:1") == "merge #2 into #1: 1 step"


def test_the_replay_counts_the_games_turns(tmp_path: Any) -> None:
    """Trial item 21: a replay's turns are the rules' game turns (its turn k starts where
    game turn k does) and the header says ``turn 1 · deployment`` / ``turn 2 · Movement
    Phase (P1 to act)``, not a count of seat changes."""
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
        async with app.run_test(size=(120, 40)) as pilot:
            rp = app.open_replay(str(path))
            await pilot.pause()
            r = rp.replay
            assert len(r.turn_starts) == 3  # turns 1, 2 and the start of 3
            for k, n in enumerate(r.turn_starts, 1):
                assert r.marks[n][0] == k
                assert r.marks[n - 1][0] == k - 1 if n else True
            head = rp.head_text(rp.state).plain
            assert " · turn 1 · deployment (P1, P2 to act)" in head and "round" not in head
            rp.go(r.turn_starts[1] + 1)
            head = rp.head_text(rp.state).plain
            assert " · turn 2 · " in head and "Phase" in head
            assert isinstance(rp.head_text(rp.state), Text)

    asyncio.run(run())


def test_a_route_into_a_full_port_warns_of_the_elimination() -> None:
    """R47: tracing a Sea Transport into a port already holding four of your units says the
    port will be overstacked (a block there eliminated) before Enter; after it the prompt
    says to eliminate with x, not how to move."""
    doc = _doc("sea-transport.toml")
    doc["block"] += [{"id": f"P1.{i}", "type": "glader", "at": "1g8"} for i in range(2, 6)]
    st = S.load(doc)

    async def run() -> None:
        async with _playing(st) as (app, pilot, scr):
            scr.cursor = "1e7"
            await pilot.press("t")
            route = next(a.words[1] for a in scr.mode_actions() if a.words[1].endswith("1g8"))
            scr.trail, scr.cursor = route.split("-"), "1g8"
            note = scr.path_note()
            assert note is not None and "1g8 is overstacked" in note.plain
            await pilot.press("enter")
            await pilot.pause()
            assert scr.session.state.d["settle"] == {"player": "P1", "hex": "1g8"}
            assert "x lists the blocks" in scr.hint()

    asyncio.run(run())


def test_the_prompt_names_the_spell_waiting_for_a_dispel() -> None:
    """R86: asked whether to Dispel the Orcs' forced-march, the prompt says who casts what
    where and which keys answer."""
    st = S.load(_doc("movement-spells.toml"))
    RS.apply(st, RS.parse_action("P2 cast forced-march 1 @2,3"))

    async def run() -> None:
        async with _playing(st) as (app, pilot, scr):
            assert scr.my_turn()
            hint = scr.hint()
            assert "P2.1 in 2f2 casts forced-march (level 2)" in hint and "p lets it work" in hint
            # P1 has no wizard in range here (only "pass" is legal): "d" is not offered
            # (trialWK 7: "d lists your Dispels" answered "No dispel is possible now")
            can = any(a.verb == "dispel" for a in scr.legal())
            assert not can and "none of your wizards may dispel it (R85)" in hint

    asyncio.run(run())


def test_c_lists_the_elven_gates_and_tab_the_sea_transports() -> None:
    """units.md §4.1, R50: the elven-gates (a family) are in the list c opens, and the Sea
    Transports (a family) in the action list, so both are played by keys."""
    st = S.load(_doc("elven-gate.toml"))

    async def run() -> None:
        async with _playing(st) as (app, pilot, scr):
            await pilot.press("c")
            gates = [a for a in scr.shown if a.words[:1] == ("elven-gate",)]
            assert gates and all(scr.session.why(a) == "" for a in gates[:5])
            await pilot.press("enter")
            await pilot.pause()
            assert gates[0] in scr.session.actions  # (then the bot P2 answers the Dispel window)

    asyncio.run(run())
    st = S.load(_doc("sea-transport.toml"))

    async def run2() -> None:
        async with _playing(st) as (app, pilot, scr):
            assert any(a.verb == "transport" for a in scr.shown)

    asyncio.run(run2())


async def test_a_refused_notation_line_closes_and_colon_opens_it_to_fix() -> None:
    """A refused notation line closes, so the next key is the game's (``?`` the help, not a
    letter in the line); the reason stays on the prompt; ``:`` opens it with its text."""
    from textual.widgets import Input

    from wizwar_tui.screens import HelpScreen

    async with _started(5) as (app, pilot, scr):
        await pilot.press("colon")
        line = scr.query_one("#wk-line", Input)
        assert line.has_focus
        line.value = f"{scr.human} fly to the moon"
        await pilot.press("enter")
        await pilot.pause()
        before = len(scr.session.actions)
        prompt = str(scr.query_one("#wk-prompt").render())
        assert "Not an action" in prompt and "to fix the line" in prompt
        assert not line.has_class("-open") and not line.has_focus
        await pilot.press("colon")
        assert line.has_focus and line.value == f"{scr.human} fly to the moon"
        await pilot.press("escape")
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        assert len(scr.session.actions) == before


async def test_every_panel_title_can_be_read() -> None:
    """Each panel's title on the game screen stands out from what is behind it (3:1 at
    least; the panels' dark grey lines, #444444, made their titles hard to read)."""
    from tests.readable import panel_titles, unreadable

    async with _started(5, (120, 40)) as (app, pilot, scr):
        assert len(panel_titles(app.screen)) >= 2, panel_titles(app.screen)
        assert not unreadable(app.screen)


async def test_enter_at_deployment_plays_the_listed_deploy_in_a_networked_game() -> None:
    """trialWK 2: on a LAN the first key of the game, Enter ("Enter deploys the standard
    army"), was refused ("the standard army is deployed in full ... choose the listed
    deploy"); Enter plays that listed deploy (R112, R116), as it plays "deploy standard" in a
    local game."""
    from wizwar_tui.wizardkings.game import MapView

    async with _started(5) as (app, pilot, scr):
        scr.session.state.d["net"] = True  # as a networked peer's state (game.net)
        scr._legal = None  # (the screen's cache of the local game's listing)
        listed = [a for a in scr.session.legal_actions() if a.verb == "deploy"]
        assert listed and listed[0].words != ("standard",)
        before = len(scr.session.actions)
        scr.query_one(MapView).focus()
        await pilot.press("enter")
        await pilot.pause()
        assert len(scr.session.actions) > before, (scr.message, scr.session.to_move())
        assert str(scr.session.actions[before]) == str(listed[0])


def test_a_typed_build_says_the_queued_orders_were_not_sent_and_refusals_stay_off_the_log(
        ) -> None:
    """trialWK 6: orders queued with keys (``s``) were dropped without a word when a build
    was typed on the notation line; trialWK 12: every refused line went into the game's
    log, pushing the moves out of it (a refusal is said on the prompt only)."""
    from textual.widgets import RichLog

    st = RS.new_game(RS.validate_options({}), 7)
    for _ in range(2000):
        if st.d["phase"] == "build" and "P1" in RS.to_move(st):
            break
        seat = RS.to_move(st)[0]
        RS.apply(st, RS.bot_act(st, seat, "captain"))
    assert st.d["phase"] == "build" and "P1" in RS.to_move(st)

    async def run() -> None:
        async with _playing(st) as (app, pilot, scr):
            log = scr.query_one("#wk-log", RichLog)
            lines = len(log.lines)
            assert not scr.play("P1 fly to the moon") and not scr.play("P1 move 1 1a1")
            assert len(log.lines) == lines  # refusals: on the prompt only
            assert scr.message is not None and "Not possible" in scr.message.plain
            lab = next(str(b["label"]) for b in st.d["blocks"].values()
                       if b["owner"] == "P1" and b["state"] == "map")
            scr.orders = [("disband", lab)]  # as queued with keys (never sent)
            assert scr.play("P1 build")
            assert scr.message is not None
            assert f"the orders queued with keys (disband={lab}) were not part of it" in \
                scr.message.plain

    asyncio.run(run())


async def test_the_notation_line_takes_the_readme_example_as_typed() -> None:
    """Trial finding 11: ``:`` opened the line as ``P1 ``, so typing the example the
    placeholder and README show (``P1 move 3 1c4-1d4``) gave ``unknown verb 'P1'``. The line
    opens empty (as in the other games); the own seat may be typed or left out."""
    from textual.widgets import Input

    from wizwar_tui.wizardkings.game import WizardKingsScreen, own_seat

    assert own_seat(" move 3 1c4-1d4", "P1") == "P1 move 3 1c4-1d4"
    assert own_seat("P1 move 3 1c4-1d4", "P1") == "P1 move 3 1c4-1d4"
    assert own_seat("P2 end", "P1") == "P2 end"
    app = WizWarApp(bot_delay=0, save_games=False, discovery=False)
    async with app.run_test(size=(100, 30)) as pilot:
        scr = app.start_game(game="wizard-kings", seed=5)
        assert isinstance(scr, WizardKingsScreen)
        await pilot.pause()
        await pilot.press("colon")
        line = scr.query_one("#wk-line", Input)
        assert line.has_focus and line.value == ""
        typed = f"{scr.human} deploy standard"
        await pilot.press(*[{" ": "space"}.get(c, c) for c in typed])
        assert line.value == typed
        await pilot.press("enter")
        await pilot.pause()
        assert typed in [str(a) for a in scr.session.actions], \
            str(scr.query_one("#wk-prompt").render())


def _p1_in_battle(seed: int, later: bool) -> Any:
    """A captain-vs-captain game from ``seed`` up to P1's first combat turn in which a unit
    (not a castle) may fire but not retreat: in round 1 (``later`` False) or later."""
    st = RS.new_game(RS.validate_options({"turn_limit": 10}), seed)
    for _ in range(4000):
        assert not RS.result(st).over, "no such combat turn"
        seat = RS.to_move(st)[0]
        bt = st.d["battle"]
        if seat == "P1" and bt and (bt["round"] >= 2) == later:
            la = RS.legal_actions(st, "P1")
            fire = [a for a in la if a.verb == "fire" and a.words]
            if fire and not any(a.verb == "retreat" for a in la) and \
                    st.d["blocks"][f"P1.{fire[0].words[0]}"]["type"] != "castle":
                return st
        RS.apply(st, RS.bot_act(st, seat, "captain"))
    raise AssertionError("no such combat turn")


@pytest.mark.parametrize(("seed", "later"), [(1, True), (7, False)])
def test_no_retreat_says_why(seed: int, later: bool) -> None:
    """Trial finding 12: "No retreat is possible now." named no hex and no rule; it now gives
    the rules' reason for the hexes next to the battle (R66-R69)."""
    st = _p1_in_battle(seed, later)
    h = st.d["battle"]["hex"]

    async def run() -> None:
        app = WizWarApp(bot_delay=0, save_games=False, discovery=False)
        async with app.run_test(size=(120, 40)) as pilot:
            scr = _screen_on(st, ("P2",))
            app.push_screen(scr)
            await _mounted(pilot, app, scr)
            scr.start_mode("retreat")
            await pilot.pause()
            said = scr.message.plain if scr.message is not None else ""
            assert said.startswith("No retreat is possible now"), said
            if later:
                assert re.search(r"[1-4][a-h][1-9]", said.split(h, 1)[-1]), said
                assert re.search(r"\(R6[7-9]\)|\(R4[0-9]\)|\(R5[0-2]\)", said), said
            else:
                assert "(R66)" in said, said

    asyncio.run(run())
