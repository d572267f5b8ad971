"""Wizard Kings' options of R109 (dispel, chaos, budget, teams R105, armies R8): validated
with clear errors, offered as command-line flags and by the menu, and a team game played in
the app with allies seeing each other's blocks (R106, R111) and the bots treating allies as
friends; the app's narrow layout (trialWK)."""

from __future__ import annotations

import asyncio

import pytest

from core import registry
from core.engine import OptionError
from core.wizardkings import game as G
from wizwar_tui.app import WizWarApp
from wizwar_tui.wizardkings import WizardKingsUI
from wizwar_tui.wizardkings.game import WizardKingsScreen, hanging, side_width

RS = registry.get("wizard-kings")
UI = WizardKingsUI()
TEAMS = {"players": 4, "teams": "P1+P3,P2+P4"}


def test_the_new_options_reach_the_state_and_bad_values_are_refused_in_words() -> None:
    """dispel, chaos and budget land in the state's options; teams make sides (R105); armies
    pick each seat's army (R8); a bad value names the option and what is allowed."""
    st = RS.new_game(RS.validate_options({"dispel": "no", "chaos": False, "budget": "150",
                                          "armies": "swapped"}), 1)
    assert st.d["opts"]["dispel"] is False and st.d["opts"]["chaos"] is False
    assert st.d["opts"]["budget"] == 150
    assert st.d["armies"] == {"P1": "orcs", "P2": "elves"}
    st = RS.new_game(RS.validate_options(TEAMS), 1)
    assert st.d["sides"] == {"P1": "P1", "P3": "P1", "P2": "P2", "P4": "P2"}
    assert RS.new_game(RS.validate_options({"players": 4}), 1).d["sides"] == {}
    for bad, words in (({"teams": "p1+p3,p2+p4"}, "teams are for 4 players"),
                       ({"players": 4, "teams": "P1+P5"}, "Teams .teams.: 'P1\\+P5'"),
                       ({"armies": "dwarves"}, "use standard, swapped, elves or orcs"),
                       ({"budget": 70}, "Budget"), ({"dispel": "maybe"}, "yes or no")):
        with pytest.raises(OptionError, match=words):
            RS.validate_options(bad)


def test_the_command_line_takes_teams_and_says_the_off_switch() -> None:
    """``wizwar play wizard-kings --players 4 --teams P1+P3,P2+P4`` gives a team game;
    ``--no-dispel`` turns Dispel off; ``--help`` says so; self-play's own ``--budget``
    (playouts) leaves Wizard Kings' as ``--game-budget``."""
    from net.cli import options_from_args
    from wizwar_tui.cli import build_parser

    p = build_parser({k: RS for k in ("play", "host", "selfplay")})
    args = p.parse_args(["play", "wizard-kings", "--players", "4", "--teams", "P1+P3,P2+P4",
                         "--no-dispel", "--armies", "orcs"])
    o = options_from_args(p, RS, args)
    assert o["teams"] == "p1+p3,p2+p4" and o["dispel"] is False and o["armies"] == "orcs"
    assert RS.new_game(o, 2).d["sides"]["P3"] == "P1"
    sub = next(a for a in p._actions if a.dest == "cmd").choices  # type: ignore[union-attr]
    helptext = sub["play"].format_help()
    assert "--no-dispel: off" in helptext and "--teams" in helptext
    assert "--game-budget" in sub["selfplay"].format_help()


def test_allies_see_each_others_blocks_and_the_bots_treat_them_as_friends() -> None:
    """R106, R111: P1 sees P3's types, not P2's; the menu's team line groups the sides; a
    bot game of two teams ends with one team winning together, and no battle ever has two
    allies on opposite sides."""
    st = RS.new_game(RS.validate_options(TEAMS), 5)
    for p in RS.seats(st.d["opts"] | {"players": 4}):
        RS.apply(st, RS.bot_act(st, p, "captain"))
    v = RS.view(st, "P1")
    seen = {x["owner"] for x in v["blocks"].values() if x["state"] == "map" and x["type"]}
    assert seen == {"P1", "P3"}
    assert UI.sides(RS.validate_options(TEAMS)) == [("P1", "P3"), ("P2", "P4")]
    assert UI.seat_note("P3", RS.validate_options(TEAMS)) == "your ally · "
    assert UI.seat_note("P2", RS.validate_options(TEAMS)) == "opponent · "
    n = 0
    while not RS.result(st).over and n < 400:
        bt = st.d["battle"]
        if bt:
            assert G.side(st.d, bt["attacker"]) != G.side(st.d, bt["defender"])
        p = RS.stage(st).players[0] if RS.stage(st).players else ""
        if not p:
            break
        RS.apply(st, RS.bot_act(st, p, "captain"))
        n += 1
    assert n > 100


def test_the_narrow_layout_and_the_team_game_in_the_app() -> None:
    """At 80x24 the side panels are 30 wide (the map gets the rest), the header of a
    4-player game keeps the whole initiative order, the Turn panel marks the ally, and a
    long action is wrapped with a hanging indent; at 100 columns the panels are 40 again."""
    assert (side_width(80), side_width(100), side_width(160)) == (30, 40, 52)
    text = "P1 move 3,5,7 1c4-1d4-1e4-1f4 and more words to wrap"
    lines = hanging(text, 20).split("\n")
    assert len(lines) > 1 and all(x.startswith("  ") for x in lines[1:])
    assert hanging("P1 end", 20) == "P1 end"
    qs = next(q for q in UI.quick_starts if q.options.get("teams"))

    async def run() -> None:
        app = WizWarApp(bot_delay=0, save_games=False, discovery=False)
        async with app.run_test(size=(80, 24)) as pilot:
            scr = app.start_game(game="wizard-kings", seed=4, options=dict(qs.options))
            assert isinstance(scr, WizardKingsScreen)
            await pilot.pause()
            await pilot.press("enter")  # deploy; the bots deploy and move
            for _ in range(20):
                await pilot.pause()
                if scr.view().get("order"):
                    break
            assert scr.query_one("#wk-side").size.width == 30
            top = scr.top_text(scr.view()).plain
            assert len(top) <= 80 and all(p in top for p in ("P1", "P2", "P3", "P4"))
            status = scr.status_text(scr.view()).plain
            assert "P3 elves" in status and status.count("ally") == 1
            assert "cities worth 25 GP" in status  # the side owns 2 maps (R101)
            await pilot.resize_terminal(100, 30)
            await pilot.pause()
            assert scr.query_one("#wk-side").size.width == 40

    asyncio.run(run())


def test_a_team_game_is_refused_on_a_lan_in_words() -> None:
    """Allies' machines cannot show each other's blocks yet (R106, R111: each machine holds
    only its own), so ``wizwar host`` and the host form refuse a team game before anyone
    joins, naming R106; a game without teams is hosted as before."""
    from net.cli import refusal
    from wizwar_tui.cli import build_parser
    from wizwar_tui.lobby import HostFormScreen

    assert "R106" in RS.lan_refusal(RS.validate_options(TEAMS))
    assert RS.lan_refusal(RS.validate_options({"players": 4})) == ""
    p = build_parser({k: RS for k in ("play", "host", "selfplay")})
    for argv, refused in ((["--teams", "P1+P3,P2+P4"], True), ([], False)):
        args = p.parse_args(["host", "wizard-kings", "--players", "4", *argv])
        from net.cli import prepare

        prepare(p, args)
        assert ("allies could not see each other's blocks" in refusal(args)) is refused

    async def go() -> str:
        app = WizWarApp(discovery=False)
        async with app.run_test(size=(120, 40)) as pilot:
            form = HostFormScreen(game="wizard-kings", seats=4, options={"teams": "P1+P3,P2+P4",
                                                                       "layout": "4-map"})
            await app.push_screen(form)
            await pilot.pause()
            form.submit()
            await pilot.pause()
            return str(form.query_one("#host-error").render())

    assert "R106" in asyncio.run(go())
