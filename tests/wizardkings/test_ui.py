"""Wizard Kings in the app (issue 18's screens): the map drawing, the standing blocks seen from
one player's view, orders by keys with the rules' reasons, a whole game to its end by keys, a
4-player bots' game to its end, and the replay of a saved game."""

from __future__ import annotations

import asyncio
import copy
import re
from typing import Any

from rich.console import Console
from rich.text import Text
from textual.widgets import RichLog

from core import registry
from core.rng import Rng
from core.session import LocalSession
from core.wizardkings import game as G
from wizwar_tui import games
from wizwar_tui.app import WizWarApp
from wizwar_tui.wizardkings import render
from wizwar_tui.wizardkings.game import MapView, WizardKingsScreen, event_words
from wizwar_tui.wizardkings.screens import GameOverScreen, help_text

RS = registry.get("wizard-kings")


def plain(t: Text) -> str:
    """Rich text as the terminal shows it, no colours."""
    c = Console(width=400, color_system=None, legacy_windows=False)
    with c.capture() as cap:
        c.print(t, end="")
    return cap.get()


def deployed(seed: int = 5, **opts: Any) -> Any:
    """A 2-player game after both players deployed their standard armies."""
    st = RS.new_game(RS.validate_options(opts), seed)
    for p in ("P1", "P2"):
        RS.apply(st, RS.legal_actions(st, p)[0])
    return st


def four_player_state(seed: int, turn_limit: int = 10) -> Any:
    """A 4-player game on the 4-map layout (maps 3 and 4 turned), built from the core's
    ``blank`` (the ruleset's options offer 2 players only so far)."""
    o = dict(G.DEFAULTS)
    o.update(RS.validate_options({}))
    o.update(players=4, layout="4-map", maps=[1, 2, 3, 4], turn_limit=turn_limit)
    return G.State(G.blank(o, seed), Rng.from_seed(seed)), o


def spread(seed: int = 5) -> Any:
    """After deployment each player moves one block out of its stack, then ends."""
    st = deployed(seed)
    for _ in range(2):
        p = RS.stage(st).players[0]
        la = RS.legal_actions(st, p)
        RS.apply(st, next(a for a in la if a.verb == "move" and "-" not in a.words[1]))
        RS.apply(st, next(a for a in RS.legal_actions(st, p) if a.verb == "end"))
    return st


# ---------------------------------------------------------------- the map drawing
def test_map_ascii_has_every_hex_and_only_ascii() -> None:
    v = RS.view(deployed(), "P1")
    text = plain(render.render_map(v, "1c4", ascii_only=True))
    assert all(ord(ch) < 128 for ch in text)
    for m in (1, 2):
        for c in "abcdefgh":
            for r in range(1, 10):
                assert f"{m}{c}{r}" in text
    uni = plain(render.render_map(v, "1c4"))
    assert "\u2571" in uni and "\u2572" in uni  # the box-drawing diagonals


def test_map_marks_terrain_cities_and_hexside_features() -> None:
    v = RS.view(deployed(), "P1")
    lines = plain(render.render_map(v, None, ascii_only=True)).split("\n")
    text = "\n".join(lines)
    assert "1c2*3" in text and "2f2*3" in text  # cities with their GP
    assert "clrH" in text  # map 1's henge f3
    assert "CLR" in text and "~~~" in text  # coast and sea
    # map 2's ridges around g6, the pass Grim Gap (g5:s), map 1's bridge d4:ne, the river
    # banks of the Silverrun, the all-water hexside d7:ne, the shoal hexside e8:se
    assert "^^^^^^" in text and "PPPPP" in text
    b = render.board_of(v)
    x, y = render.origin(b.hexes["1d4"])
    assert lines[y + 1][x + 7] == "=" and lines[y + 2][x + 8] == "="  # bridge d4:ne
    x, y = render.origin(b.hexes["1d5"])
    assert lines[y + 1][x + 7] == "~"  # bank d5:ne
    x, y = render.origin(b.hexes["1d7"])
    assert lines[y + 1][x + 7] == ":"  # all-water d7:ne
    x, y = render.origin(b.hexes["1e8"])
    assert lines[y + 3][x + 8] == "%"  # shoal hexside e8:se
    # the derived drawing agrees with the shared DRAWINGS.md on map 2's ridge row
    assert "\\^^^^^^  des  ^^^^^^/" in text


def test_four_map_layout_draws_turned_maps() -> None:
    st, _o = four_player_state(3)
    for p in ("P1", "P2", "P3", "P4"):
        RS.apply(st, RS.legal_actions(st, p)[0])
    v = RS.view(st, "P3")
    text = plain(render.render_map(v, None, ascii_only=True))
    b = render.board_of(v)
    assert all(h in text for h in b.hexes)
    # map 3 is turned 180 degrees below map 1: its h9 (sea) is at the top left of its slot,
    # its a1 at the bottom right
    assert b.hexes["3h9"].gq == 0 and b.hexes["3a1"].gq == 7
    assert render.origin(b.hexes["3h9"])[1] < render.origin(b.hexes["3a1"])[1]
    w, h = render.size(b)
    assert w >= 16 * 7 and h >= 18 * 4


def test_standing_blocks_own_faces_enemy_colour_and_label_only() -> None:
    st = spread()
    v = RS.view(st, "P1")
    text = plain(render.render_map(v, None, ascii_only=True))
    g = st.d
    for b, x in g["blocks"].items():
        if x["state"] != "map":
            continue
        if x["owner"] == "P2":  # hidden: never its type in P1's view
            assert v["blocks"][b]["type"] == ""
    # a hex holding one enemy block alone shows its label; one holding one own block its face
    alone = {h: xs for h, xs in render.blocks_at(v).items() if len(xs) == 1}
    assert alone
    for xs in alone.values():
        cell = render.stack_cells(xs, "#", "x", render.friends_of(v))[0][0]
        assert cell in text
        if xs[0]["owner"] == "P2":  # an enemy's mark differs from one's own (trialWK 7)
            assert cell == f"x#{xs[0]['label']}"
        else:
            assert re.fullmatch(r"#[a-z]{3}[1-4]", cell)
    orc_types = {"shakla", "ogre", "troll", "orc", "goblin"}
    # no orc type name of a hidden block reaches P1's hex panel
    for h in {x["at"] for x in g["blocks"].values() if x["state"] == "map"
              and x["owner"] == "P2"}:
        lines = " ".join(plain(t) for t in render.hex_lines(v, h))
        assert "hidden" in lines
        assert not any(re.search(rf"\b{t}\b", lines) for t in orc_types)
    # the same hex seen by its owner shows the faces
    v2 = RS.view(st, "P2")
    h2 = next(x["at"] for x in g["blocks"].values() if x["owner"] == "P2" and x["state"] == "map")
    assert any(re.search(rf"\b{t}\b", plain(t2)) for t2 in render.hex_lines(v2, h2)
               for t in orc_types)


def test_stack_summary_and_battle_marks() -> None:
    blocks = [{"owner": "P1", "label": i, "type": "glader", "strength": 4} for i in range(1, 6)]
    cells = render.stack_cells(blocks, "#")
    assert cells == [("#5", "P1")]
    two = [blocks[0], {"owner": "P2", "label": 3, "type": "", "strength": 0},
           {"owner": "P2", "label": 4, "type": "", "strength": 0}]
    assert render.stack_cells(two, "#") == [("#", "P1"), (" ##", "P2")]


def test_help_names_keys_and_terms() -> None:
    text = help_text()
    for term in ("block", "step", "hexside", "pinning", "retreat", "regroup", "initiative"):
        assert f"[b]{term}[/b]" in text
    assert "ranger" in text and "shakla" in text and "firebolt" in text
    assert games.ui("wizard-kings").title == RS.title


def test_event_words() -> None:
    from core.engine import Event

    e = Event("fired", "fired: ...", {"block": "P1.3", "dice": [2, 5, 1], "hits": 2})
    assert event_words(e) == "  P1.3 fires: dice 2 5 1, 2 hits"
    assert event_words(Event("zzz", "plain line", {})) == "plain line"
    # a spell's or a battle's reveal in words, not the data's repr (trialWK 4)
    rv = Event("revealed", "revealed: ...", {"player": "P2", "blocks": [["P2.2", "shakla", 4]]})
    assert event_words(rv) == "  P2 reveals P2.2 shakla 4"


def test_the_menu_offers_it() -> None:
    """Wizard Kings left ``registry.BUILDING`` (issue 18): the menu lists it."""
    assert "wizard-kings" in games.names() and "wizard-kings" in registry.names()
    assert games.ui("wizard-kings").name == "wizard-kings"


# ---------------------------------------------------------------- the game screen
def screen_of(app: WizWarApp) -> WizardKingsScreen:
    """The game screen under any dialog."""
    game = app.game
    assert isinstance(game, WizardKingsScreen)
    return game


def test_orders_by_keys_and_refusal_in_words() -> None:
    async def run() -> None:
        app = WizWarApp(bot_delay=0, save_games=False, discovery=False)
        async with app.run_test(size=(100, 30)) as pilot:
            scr = app.start_game(game="wizard-kings", seed=5)
            assert isinstance(scr, WizardKingsScreen)
            await pilot.pause()
            await pilot.press("enter")  # deploy the standard army
            await pilot.pause()
            v = scr.view()
            assert v["phase"] == "movement"
            if scr.human not in scr.session.to_move():
                return
            # the cursor went to the human's blocks
            assert scr.my_blocks(v, scr.cursor)
            # select the hex's blocks, keep the first only, light where it may go
            await pilot.press("enter")
            assert scr.mode == "move" and scr.chosen
            await pilot.press("1")  # toggle the first off...
            if scr.chosen:
                await pilot.press("1")
            first = scr.my_blocks(v, scr.sel_hex)[0]
            if scr.chosen != [str(first["label"])]:
                scr.chosen = [str(first["label"])]
            scr.mode = "move"
            reach = scr.reach()
            assert reach
            dest = sorted(reach)[0]
            # a hex it cannot reach: the rules' reason in words
            far = next(h for h in render.board_of(v).hexes if h not in reach
                       and h != scr.sel_hex)
            scr.cursor, scr.trail = far, [far]
            await pilot.press("enter")
            await pilot.pause()
            prompt = str(scr.query_one("#wk-prompt").render())
            assert "Not possible:" in prompt
            before = len(scr.session.actions)
            scr.cursor, scr.trail = dest, []
            await pilot.press("enter")
            await pilot.pause()
            assert len(scr.session.actions) > before
            moved = scr.session.actions[before]
            assert moved.verb == "move" and moved.words[1].split("-")[-1] == dest
            assert str(moved.words[0]) == str(first["label"])

    asyncio.run(run())


def test_arrows_trace_a_path() -> None:
    async def run() -> None:
        app = WizWarApp(bot_delay=0, save_games=False, discovery=False)
        async with app.run_test(size=(80, 24)) as pilot:
            scr = app.start_game(game="wizard-kings", seed=9)
            assert isinstance(scr, WizardKingsScreen)
            await pilot.pause()
            await pilot.press("enter")
            await pilot.pause()
            if scr.human not in scr.session.to_move():
                return
            start = scr.cursor
            await pilot.press("enter")
            assert scr.mode == "move"
            h = render.board_of(scr.view()).hexes[start]
            there, back = ("down", "up") if (h.gq, h.gr + 2) in render.board_of(
                scr.view()).at else ("up", "down")
            await pilot.press(there)
            # the prompt says whether the path may be taken, or what stops it
            note = str(scr.query_one("#wk-prompt").render())
            one = scr.trail[0]
            assert note.startswith(f"{one}: ")
            ok = not scr.session.why(f"P1 move {','.join(scr.chosen)} {one}")
            assert ("Enter moves here" in note) == ok
            await pilot.press(there)
            assert len(scr.trail) == 2
            await pilot.press(back)  # back over the last hex: the path shrinks
            assert len(scr.trail) == 1 and scr.trail[0] != start
            await pilot.press("escape")
            assert scr.trail == [] and scr.mode == "move"
            await pilot.press("escape")
            assert scr.mode == "" and not scr.chosen
            # the map scrolls: at 80x24 it is wider and taller than its window
            box = scr.query_one("#wk-mapbox")
            assert box.max_scroll_x > 0 and box.max_scroll_y > 0
            assert scr.query_one(MapView).has_focus

    asyncio.run(run())


async def play_by_keys(pilot: Any, scr: WizardKingsScreen, limit: int = 3000) -> int:
    """Play the human's seat by keys until the game ends: deploy, a real move by arrows
    now and then, end; fire, pass, retreat, hits and battles; regroups ended; build orders
    sent (a step on a block when the treasury allows). Returns the keys pressed."""
    keys = 0
    done: dict[int, int] = {}  # moves made by keys per turn
    for _ in range(limit):
        if scr.session.over:
            break
        if not scr.my_turn():
            await pilot.pause()
            if not scr.my_turn() and not scr.session.over:
                raise AssertionError(f"stuck: {scr.session.to_move()} {scr.view()['phase']}")
            continue
        v = scr.view()
        verbs = {a.verb for a in scr.legal()}
        ph = v["phase"]
        if ph in ("setup",):
            await pilot.press("enter")
        elif ph == "build":
            mine = [x for x in v["blocks"].values() if x["owner"] == scr.human
                    and x["state"] == "map" and x["type"] not in ("castle",)
                    and x["strength"] < 3]
            if mine and v["treasury"].get(scr.human, 0) >= 4 and not scr.orders:
                scr.cursor = mine[0]["at"]
                scr.reset_selection()
                await pilot.press("s")  # a step on the hex's first own block
                keys += 1
                if "not possible" in str(scr.message or ""):
                    await pilot.press("backspace")
                    keys += 1
            await pilot.press("o")
        elif ph == "movement" and "move" in verbs and done.get(v["turn"], 0) < 2:
            # a move by keys, towards the enemy: into a hex he holds when one is in reach,
            # else the one that ends furthest east (his map)
            done[v["turn"]] = done.get(v["turn"], 0) + 1
            b = render.board_of(v)
            foes = {x["at"] for x in v["blocks"].values() if x["owner"] != scr.human
                    and x["state"] == "map"}
            cands = [a for a in scr.legal() if a.verb == "move"]
            a = next((a for a in cands if a.words[1].split("-")[-1] in foes), None) or max(
                cands, key=lambda a: (b.hexes[a.words[1].split("-")[-1]].gq,
                                      -a.words[1].count("-"), str(a)))
            start = v["blocks"][f"{scr.human}.{a.words[0]}"]["at"]
            scr.cursor = start
            scr.reset_selection()
            await pilot.press("enter")  # select the hex's blocks
            scr.chosen = [a.words[0]]  # (keys 1-9 pick one: tested above)
            path = a.words[1].split("-")
            scr.cursor, scr.trail = path[-1], path
            await pilot.press("enter")  # confirm the path
            if scr.mode:  # refused: end the turn instead
                await pilot.press("escape", "escape", "e")
        elif "end" in verbs and ph == "movement":
            await pilot.press("e")
        elif "battle" in verbs:
            scr.cursor = next(a for a in scr.legal() if a.verb == "battle").words[0]
            await pilot.press("b")
        elif "hit" in verbs:
            await pilot.press("h")
            if scr.query_one("#wk-actions").has_focus:
                await pilot.press("enter")
        elif "fire" in verbs:
            await pilot.press("f")
        elif "retreat" in verbs and "pass" not in verbs:
            await pilot.press("r")
            await pilot.press("enter")  # the cursor is on the unit: no retreat there
            dest = sorted(scr.reach())[0]
            scr.cursor, scr.trail = dest, [dest]
            await pilot.press("enter")
        elif "pass" in verbs:
            await pilot.press("p")
        elif "end" in verbs:
            await pilot.press("e")
        else:  # anything else (eliminate, dispel, regroup only): the list
            await pilot.press("tab", "enter")
        keys += 1
        await pilot.pause()
    return keys


def test_whole_game_by_keys_against_the_bot_and_its_replay(tmp_path: Any) -> None:
    async def run() -> None:
        app = WizWarApp(bot_delay=0, save_games=True, discovery=False)
        async with app.run_test(size=(100, 30)) as pilot:
            scr = app.start_game(game="wizard-kings", seed=21, options={"turn_limit": 10})
            assert isinstance(scr, WizardKingsScreen)
            await pilot.pause()
            keys = await play_by_keys(pilot, scr)
            await pilot.pause()
            assert scr.session.over, "the game did not end"
            assert keys > 20
            assert isinstance(app.screen, GameOverScreen)
            verbs = {a.verb for a in scr.session.actions if a.actor == "P1"}
            assert {"deploy", "move", "end", "build"} <= verbs
            assert verbs & {"fire", "pass", "retreat", "hit", "battle"}  # it fought
            path = scr.logfile.path if scr.logfile is not None else ""
            assert path
            total = len(scr.session.actions)
            final = scr.session.digest()
            await pilot.press("b")  # back to the final map
            assert app.screen is scr
            # the replay of its log, in the app's replay screen
            app.show_menu()
            await pilot.pause()
            rp = app.open_replay(path)
            await pilot.pause()
            from wizwar_tui.wizardkings.replay import WizardKingsReplayScreen

            assert isinstance(rp, WizardKingsReplayScreen)
            assert rp.replay.total == total
            await pilot.press("end")
            await pilot.pause()
            assert RS.state_hash(rp.state) == final
            log = rp.query_one("#log", RichLog)
            lines = ["".join(seg.text for seg in strip) for strip in log.lines]
            assert any(line.startswith("Victory: ") for line in lines)  # events in words
            mp = plain(rp.query_one("#wkr-map").render())  # type: ignore[arg-type]
            assert "1c2" in mp
            await pilot.press("v")  # seen as P2
            await pilot.press("v")  # seen as everyone (the game is over)
            await pilot.pause()
            assert rp.seat == ""
            await pilot.press("home")
            await pilot.pause()
            assert rp.n == 0

    asyncio.run(run())


def test_four_player_bots_game_runs_to_its_end_in_the_app() -> None:
    async def run() -> None:
        app = WizWarApp(bot_delay=0, save_games=False, discovery=False)
        async with app.run_test(size=(100, 30)) as pilot:
            st, o = four_player_state(17, turn_limit=4)
            session = LocalSession(RS, st, "", ("P1", "P2", "P3", "P4"), seed=17, options=o)
            scr = WizardKingsScreen(session=session, seed=17, bot_delay=0)
            app.push_screen(scr)
            for _ in range(3000):  # the bots play on in the app's own tasks: wait for the end
                await pilot.pause(0.1)
                if session.over and isinstance(app.screen, GameOverScreen):
                    break
            assert session.over
            assert isinstance(app.screen, GameOverScreen)
            assert session.result().over
            v = scr.view()
            assert len(v["players"]) == 4
            assert {a.actor for a in session.actions} == {"P1", "P2", "P3", "P4"}
            top = str(scr.query_one("#wk-top").render())
            assert "Wizard Kings" in top

    asyncio.run(run())


def test_view_is_all_the_screen_reads() -> None:
    """The screen's drawing uses ``session.view()`` only: a copy of the state with every P2
    block's type changed draws the same map for P1."""
    st = deployed(7)
    other = copy.deepcopy(st)
    for x in other.d["blocks"].values():
        if x["owner"] == "P2" and x["state"] == "map":
            x["type"], x["strength"] = "goblin", 1
    a = plain(render.render_map(RS.view(st, "P1"), "1c4"))
    b = plain(render.render_map(RS.view(other, "P1"), "1c4"))
    assert a == b


def battle_state() -> Any:
    """A 2-player game played by random legal actions (fixed seed) until a battle is being
    fought."""
    st = RS.new_game(RS.validate_options({"turn_limit": 10}), 27)
    r = Rng.from_seed("battle")
    for _ in range(3000):
        if st.d["battle"] and not st.d["battle"]["victor"]:
            return st
        stage = RS.stage(st)
        assert stage.kind != "over", "no battle in this game"
        p = stage.players[0]
        legal = RS.legal_actions(st, p)
        moves_in = [a for a in legal if a.verb == "move" and any(
            x["state"] == "map" and x["owner"] != p and x["at"] == a.words[1].split("-")[-1]
            for x in st.d["blocks"].values())]
        RS.apply(st, (moves_in or legal)[r.below(len(moves_in or legal))])
    raise AssertionError("no battle")


def test_battle_panel_firing_order_from_the_view() -> None:
    st = battle_state()
    bt = st.d["battle"]
    v = RS.view(st, "P1")
    text = plain(render.firing_order(v))
    rows = [r for r in text.split("\n") if r.strip()]
    assert rows and sum(r.startswith(">") for r in rows) <= 1
    steps = ["D-A+", "A-A+", "D-A", "A-A", "D-B", "A-B", "D-C", "A-C"]
    shown = [r[1:].split()[0] for r in rows]
    assert shown == [s for s in steps if s in shown]  # in firing order, defenders first
    # every block of the battle is on its step's row, face up (revealed in battle, R55)
    faces = " ".join(rows)
    for b in G.on_map(st.d, bt["hex"]):
        x = st.d["blocks"][b]
        assert f"{x['type'][:3]}{x['strength']}" in faces


class _WatchedGame:
    """A stand-in for a watcher's LAN game: the public view and the actions."""

    def __init__(self, st: Any, actions: list[str]) -> None:
        self.st, self.actions = st, actions

    def view(self) -> Any:
        return RS.view(self.st, "")


class _Link:
    """A stand-in for the watcher's ``LanLink``."""

    def __init__(self, game: Any) -> None:
        self.game, self.listeners, self.problem, self.address = game, [], "", "127.0.0.1:1"

    def seats(self) -> list[tuple[str, str, str]]:
        return [("P1", "ann", "joined"), ("P2", "", "free")]


def test_watch_screen_shows_the_public_map_only() -> None:
    from textual.app import App

    from wizwar_tui.wizardkings.watch import WatchScreen

    st = spread()
    link = _Link(_WatchedGame(st, ["P1 deploy standard", "P2 deploy standard"]))

    class Host(App[None]):
        def get_css_variables(self) -> dict[str, str]:  # the screens' ($panel-line)
            from wizwar_tui.app import CSS_VARIABLES

            return {**super().get_css_variables(), **CSS_VARIABLES}

        def on_mount(self) -> None:
            self.push_screen(games.ui("wizard-kings").watch_screen()(link))

    async def run() -> None:
        app = Host()
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            scr = app.screen
            assert isinstance(scr, WatchScreen)
            mp = plain(scr.query_one("#wkw-map").render())  # type: ignore[arg-type]
            assert "1c2*3" in mp
            faces = re.findall(r"[a-z]{3}[1-4]", mp)
            assert not [f for f in faces if f[:3] in {"ran", "gla", "wic", "ogr", "gob",
                                                      "sha", "tro", "cas", "pix", "tre"}]
            # the blocks standing alone show their labels (P1's and P2's alike)
            alone = [xs[0] for xs in render.blocks_at(RS.view(st, "")).values()
                     if len(xs) == 1]
            assert alone and all(f"#{x['label']}" in mp for x in alone)
            assert scr.logged == 2
            link.game = object()  # before the game starts: the seats
            scr.net_changed()
            assert "ann" in str(scr.query_one("#wkw-players").render())

    asyncio.run(run())


def test_build_phase_by_keys() -> None:
    async def run() -> None:
        app = WizWarApp(bot_delay=0, save_games=False, discovery=False)
        async with app.run_test(size=(100, 30)) as pilot:
            scr = app.start_game(game="wizard-kings", seed=5)
            assert isinstance(scr, WizardKingsScreen)
            await pilot.pause()
            await pilot.press("enter")  # deploy
            for _ in range(20):  # end the movement turn (no battle can form on turn 1)
                if scr.view()["phase"] == "build":
                    break
                await pilot.press("e")
                await pilot.pause()
            v = scr.view()
            assert v["phase"] == "build" and scr.my_turn()
            status = str(scr.query_one("#wk-status").render())
            assert "gold 10" in status and "1c2 Sylvanor: up to 3 new" in status
            # a new unit in a city that is not one of yours: the rules' reason
            scr.cursor = "2f2"
            await pilot.press("n")
            await pilot.press("enter")  # the first type of the list (glader)
            await pilot.pause()
            assert scr.orders == [("new", "glader@2f2:1")]
            assert "original cities" in str(scr.message)
            await pilot.press("backspace")
            assert scr.orders == []
            scr.cursor = "1c2"
            await pilot.press("n")
            await pilot.press("enter")
            await pilot.pause()
            assert scr.orders == [("new", "glader@1c2:1")]
            assert "accepted" in str(scr.message)
            before = len(scr.session.actions)
            await pilot.press("o")
            await pilot.pause()
            sent = [a for a in scr.session.actions[before:] if a.actor == "P1"]
            assert [str(a) for a in sent] == ["P1 build new=glader@1c2:1"]

    asyncio.run(run())


def test_a_path_naming_the_hex_left_says_what_a_path_is() -> None:
    """trialWK 5: ``P1 move 4 1a8-1c8`` for a block on 1a8 said "1a8 is not next to 1a8";
    a path lists the hexes entered (notation.md), and the refusal says so."""
    st = RS.new_game(RS.validate_options({}), 7)
    RS.apply(st, "P1 deploy standard")
    RS.apply(st, "P2 deploy standard")
    blk = next(x for x in st.d["blocks"].values()
               if x["owner"] == "P1" and x["state"] == "map" and x["type"] != "castle")
    why = RS.why_illegal(st, f"P1 move {blk['label']} {blk['at']}-{blk['at']}")
    assert why == (f"the block stands in {blk['at']}: a path lists the hexes it enters, "
                   f"not {blk['at']}")


def test_action_lists_order_labels_as_numbers() -> None:
    """Trial finding 10: ``P1 fire 15`` was listed before ``P1 fire 2`` (and ``hit 15`` before
    ``hit 2``, so a key press meant for P1.9 hit P1.5); numbers are compared as numbers."""
    from core.wizardkings import actions
    from wizwar_tui.wizardkings.game import number_order

    texts = ["P1 fire 15", "P1 fire 2", "P1 pass 15", "P1 pass 2", "P1 hit 9", "P1 hit 15",
             "P1 hit 2", "P1 hit 5", "P1 move 12 1c4-1d4", "P1 move 3 1c4-1d4"]
    got = [str(a) for a in number_order([actions.parse(t) for t in texts])]
    assert got == ["P1 fire 2", "P1 fire 15", "P1 hit 2", "P1 hit 5", "P1 hit 9", "P1 hit 15",
                   "P1 move 3 1c4-1d4", "P1 move 12 1c4-1d4", "P1 pass 2", "P1 pass 15"]


def test_game_over_box_says_the_result_once_with_each_sides_city_gp() -> None:
    """Trial finding 14: the box said ``P4 wins.`` and ``P4 wins (cities). (turn 9,
    cities)``, ``seed None`` in a LAN game, and no city GP. Now: the rules' text once, each
    player's cities' GP (R90, R101), no seed line when the game has none."""
    v = dict(RS.view(deployed(5), "P1"))
    v["winner"], v["how"] = "P2", "cities"
    gp = render.city_gp(v)
    assert sum(gp.values()) > 0 and set(gp) == set(v["players"])

    async def run() -> None:
        app = WizWarApp(bot_delay=0, save_games=False, discovery=False)
        async with app.run_test(size=(100, 30)) as pilot:
            box = GameOverScreen(v, "P2 wins (cities).", "P1", None)
            app.push_screen(box)
            await pilot.pause()
            text = plain(box.query_one("#over-text").render())  # type: ignore[arg-type]
            assert text.count("wins") == 1 and text.count("cities)") == 1, text
            assert "P2 wins (cities). (turn " in text
            assert "seed" not in text
            for p in v["players"]:
                assert re.search(rf"{p}\b.*cities {gp[p]} GP", text), text
            draw = dict(v, winner="draw", how="turn-limit")
            box2 = GameOverScreen(draw, "The game ends in a draw.", "P1", 7)
            app.push_screen(box2)
            await pilot.pause()
            text = plain(box2.query_one("#over-text").render())  # type: ignore[arg-type]
            assert text.count("draw") == 1 and "turn-limit" in text and "seed 7" in text, text

    asyncio.run(run())
