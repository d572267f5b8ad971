"""Findings of a fresh-user trial of Wiz-War (issue 12, helper wz12b): aiming at a square
marked only for a side next to it, the opening deal's Trap!, Ugly's log line."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

from test_tui import open_game, session_of  # tests/test_tui.py

from core.session import LocalSession
from core.wizwar.actions import Action
from core.wizwar.board import parse_square
from wizwar_tui.app import WizWarApp
from wizwar_tui.screens import ChoiceScreen
from wizwar_tui.wizwar.game import GameScreen

#: P1 at c3 holds Sudden Death; P2 stands at a3 behind the closed door a3:e. P1 sees the
#: door (from b3's side) but not P2: the door is the only target, and it marks a3 and b3.
DOOR = {"board": {"size": "5x5", "doors": ["a3:e"]},
        "players": [{"at": "c3", "hand": ["sudden-death", "3"]},
                    {"at": "a3", "hand": ["2"]}],
        "turn": {"active": "P1"}}


def duel(hand: list[str], p2_at: str = "a1") -> dict[str, Any]:
    """A 5x5 board, P1 to act at c3 holding ``hand``, P2 at ``p2_at`` holding a 2."""
    return {"board": {"size": "5x5"},
            "players": [{"at": "c3", "hand": hand}, {"at": p2_at, "hand": ["2"]}],
            "turn": {"active": "P1"}}


@contextlib.asynccontextmanager
async def playing(s: LocalSession) -> AsyncIterator[tuple[WizWarApp, Any, GameScreen]]:
    """The app at 120x40 with a game screen on ``s`` drawn: (app, pilot, screen)."""
    app = WizWarApp(bot_delay=0, save_games=False)
    async with app.run_test(size=(120, 40)) as pilot:
        yield app, pilot, await open_game(pilot, app, s)


async def until_acted(pilot: Any, s: LocalSession) -> None:
    """Let the app run a few turns of its loop, until ``s`` has an action (bounded)."""
    for _ in range(5):
        await pilot.pause()
        if s.actions:
            break


async def test_a_square_marked_for_its_side_asks_before_hitting_the_door() -> None:
    """Enter on the wizard's square (marked because of the door beside it) does not hit
    the door silently: the prompt names the side and the wizard who is not a target, and a
    dialog asks; Esc leaves the state as it was, choosing the side plays it."""
    s = session_of(DOOR)
    plays = [a for a in s.legal_actions() if a.card == "sudden-death" and a.verb == "play"]
    assert {a.targets[0] for a in plays} == {"a3:e"}  # P2 is not a legal target
    async with playing(s) as (app, pilot, game):
        game.start_card("sudden-death")
        await pilot.pause()
        a3 = parse_square("a3")
        assert a3 in game._target_squares(game.view)
        game.board.cursor = a3
        await pilot.pause()
        status = str(game.query_one("#status").render())
        assert "here only the east side of a3: door 15hp, not P2" in status
        game.select_at(a3)
        await pilot.pause()
        await pilot.pause()
        assert isinstance(app.screen, ChoiceScreen)
        assert "only a side is a target (P2 is not)" in app.screen.title_text
        assert not s.actions  # nothing done yet
        await pilot.press("escape")
        await pilot.pause()
        assert not s.actions
        game.start_card("sudden-death")
        await pilot.pause()
        game.select_at(a3)
        await pilot.pause()
        await pilot.pause()
        assert isinstance(app.screen, ChoiceScreen)
        await pilot.press("enter")
        await until_acted(pilot, s)
        assert s.actions and s.actions[0].targets == ("a3:e",)


async def test_a_square_with_its_own_target_is_not_asked_about() -> None:
    """Aiming at the wizard himself (in sight) plays at once, as before: the question is
    only for squares whose targets are all sides."""
    s = session_of(duel(["sudden-death"], p2_at="a3"))
    async with playing(s) as (_app, pilot, game):
        game.start_card("sudden-death")
        await pilot.pause()
        a3 = parse_square("a3")
        assert game.sides_note(game.view, a3) == ""
        game.select_at(a3)
        await until_acted(pilot, s)
        assert s.actions and s.actions[0] == Action("P1", "play", "sudden-death",
                                                    targets=("P2",))


def test_the_opening_trap_is_announced_in_words() -> None:
    """Seed 42 deals the Trap! at the start: the rulebook discards and replaces it, and the
    line says so with the cards left to draw (the header's deck count); a deal without a
    Trap! has no such line."""
    from core.wizwar.game import GameConfig, new_game
    from core.wizwar.view import view as build_view
    from wizwar_tui.wizwar import render

    st = new_game(GameConfig(), 42)
    line = render.opening_traps_line(build_view(st, "P1"))
    assert line.startswith("A Trap! dealt at the start was discarded and replaced")
    assert line.endswith("(rulebook) · deck 109")  # the header's count
    assert render.opening_traps_line(build_view(new_game(GameConfig(), 0), "P1")) == ""


async def test_the_game_log_shows_the_opening_trap() -> None:
    """The game screen's log carries the line at the start of a game whose deal had one."""
    from core.wizwar.game import GameConfig, new_game
    from core.wizwar.ruleset import RULESET

    s = LocalSession(RULESET, new_game(GameConfig(), 42), human="P1", bots=("P2",))
    async with playing(s) as (_app, _pilot, game):
        texts = [str(t) for t in game.log_texts]
        assert any(t.startswith("A Trap! dealt at the start was discarded") for t in texts)


def test_uglys_log_line_names_the_card() -> None:
    """Every card's line names it; Ugly's said only "P2 shows his face"."""
    from test_tui_hints import UGLY

    s = session_of(UGLY)
    events = s.submit(Action("P2", "play", "ugly"))
    texts = [e.text for e in events]
    assert "P2 casts Ugly and shows his face" in texts


def test_a_narrow_hand_line_keeps_the_cards_kind() -> None:
    """At 80 columns "5 Wall Of Fire" lost "· neutral/counter": the name is cut (or the
    kind shortened) before the kind is dropped, so a player sees that a card counters."""
    from wizwar_tui.wizwar import render

    assert render.card_summary("wall-of-fire", 40) == "Wall Of Fire · neutral/counter"
    for width in (29, 26, 22, 18):
        line = render.card_summary("wall-of-fire", width)
        assert len(line) <= width and line.startswith("Wall Of")
        assert line.endswith(("· neutral/counter", "· neu/ctr"))
    assert render.card_summary("full-reflection", 14).endswith("· ctr")


def test_a_lan_bot_seat_says_bot_once() -> None:
    """The LAN players panel read "P2      bot P2 bot ♥15": a bot seat's name ("bot P2",
    net.lan seat names) repeats its seat and status, so only the status is shown; a
    person's name stays."""
    from core.wizwar.game import GameConfig, new_game
    from core.wizwar.view import view as build_view
    from wizwar_tui.wizwar import render

    v = build_view(new_game(GameConfig(names=("alice", "bot P2")), 0), "P1")
    bot = render.player_line(v, v.player("P2"), "bot").plain
    assert bot.count("bot") == 1 and "P2 " not in bot[3:]
    assert "alice" in render.player_line(v, v.player("P1"), "connected").plain


def test_the_side_header_keeps_the_seed_whole() -> None:
    """``play --players 4`` at 80x24 puts the header in the right column (34 cells), where
    "Wiz-War · you are P1 · round 1 · seed 12345678901234" was cut inside the seed."""
    from types import SimpleNamespace

    from core.wizwar.game import GameConfig, new_game
    from core.wizwar.view import view as build_view

    v = build_view(new_game(GameConfig(players=4), 1), "P1")
    me = SimpleNamespace(human="P1")
    full = GameScreen.side_where(me, v, "seed 7", 40)  # type: ignore[arg-type]
    assert full == "Wiz-War · you are P1 · round 1 · seed 7"
    for where, width in (("seed 12345678901234", 34),
                         ("team play · seed 18446744073709551615", 34)):
        line = GameScreen.side_where(me, v, where, width)  # type: ignore[arg-type]
        assert len(line) <= width and line.endswith(where.split(" · ")[-1])


async def test_keys_typed_at_once_after_colon_reach_the_command_line() -> None:
    """A burst ``:`` ``move d3`` arriving before the command line had the focus (Textual
    focuses on a later turn of the loop) lost the letters to the board (``m`` walked, the
    rest fell away) under load: every key of the burst lands in the line."""
    from textual import events
    from textual.widgets import Input

    s = session_of(duel(["3"]))
    async with playing(s) as (app, pilot, game):
        for ch in ":move d4":  # posted in one go: none is handled before the burst is in
            key = "colon" if ch == ":" else "space" if ch == " " else ch
            app.post_message(events.Key(key, ch))
        for _ in range(4):
            await pilot.pause()
        assert game.query_one("#cmd", Input).value == "move d4"
        assert not s.actions


async def test_keys_typed_at_once_after_a_reach_the_actions_filter() -> None:
    """``a`` then ``end`` in one burst: the letters were lost (or taken for game keys, ``e``
    ends the turn) before the menu's filter had the focus; they filter the menu."""
    from textual import events
    from textual.widgets import Input

    s = session_of(duel(["3"]))
    async with playing(s) as (app, pilot, _game):
        for ch in "aend":
            app.post_message(events.Key(ch, ch))
        for _ in range(6):
            await pilot.pause()
        assert isinstance(app.screen, ChoiceScreen)
        assert app.screen.query_one(Input).value == "end"
        assert not s.actions
        assert all("end" in label for label, _ in app.screen.shown)
