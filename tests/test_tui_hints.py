"""The game screen's status lines in states outside one's own plain turn (issue 12, round
four: "hints that lie"): a forced retreat in another player's turn, Telepath's choice, being
out of the game, watching. Each test checks the words the player reads and the marks."""

from __future__ import annotations

import pytest
from test_tui import open_game, session_of  # tests/test_tui.py

from core.session import LocalSession
from core.wizwar.actions import Action
from core.wizwar.ruleset import RULESET
from wizwar_tui.app import WizWarApp
from wizwar_tui.wizwar import render
from wizwar_tui.wizwar.game import GameScreen

#: P2 (a bot) shows his Ugly face down column c: P1 at c3 sees him and must retreat 3.
UGLY = {"board": {"size": "5x5"},
        "players": [{"at": "c3", "hand": ["3", "fireball"]},
                    {"at": "c1", "hand": ["ugly", "2"]}],
        "turn": {"active": "P2"}}


def ugly_session() -> LocalSession:
    """P2 has shown his face: P1 (the human) must walk a forced retreat in P2's turn."""
    s = session_of(UGLY)
    s.submit(Action("P2", "play", "ugly"))
    v = s.view()
    assert v.active == "P2" and v.to_move == ("P1",) and v.retreats == (("P1", "c1", 3),)
    return s


async def test_a_forced_retreat_in_anothers_turn_is_named_and_marked() -> None:
    """Not "Your turn · 0 moves": the status line names who forced the retreat and how many
    squares; the header says so; the board marks exactly the squares the retreat may end on
    (the rules' paths), and walking to one of them is the retreat."""
    s = ugly_session()
    ends = {a.targets[-1] for a in s.legal_actions() if a.verb == "move"}
    assert ends
    app = WizWarApp(bot_delay=0, save_games=False)
    async with app.run_test(size=(120, 40)) as pilot:
        game = await open_game(pilot, app, s)
        status = str(game.query_one("#status").render())
        assert "Your turn" not in status and "moves" not in status
        assert "P2 forces you to retreat 3 squares away from c1" in status
        top = str(game.query_one("#topbar").render())
        assert "P2's turn · retreat 3 squares: P2 forced it" in top
        assert "moves left" not in top
        assert {render.square_name(sq) for sq in game.board.reach} == ends
        assert "•" in game.board.plain() or "*" in game.board.plain()
        end = sorted(ends)[0]
        game.walk_to(game.board.reach and next(sq for sq in game.board.reach
                                               if render.square_name(sq) == end))
        await pilot.pause()
        v = s.view()
        assert not v.retreats and render.square_name(v.player("P1").at) == end  # type: ignore[arg-type]


def test_the_header_of_a_retreat_seen_by_others() -> None:
    """The forcer and the others read who is retreating, not "P2 is acting"."""
    s = ugly_session()
    assert render.turn_text(s.view("P2")) == "your turn · P1 is retreating 3 squares from you"
    assert render.turn_text(s.view("")) == "P2's turn · P1 is retreating 3 squares from P2"


#: P1 (the human) reads P2's mind with Telepath.
TELEPATH = {"board": {"size": "5x5"},
            "players": [{"at": "c3", "hand": ["telepath", "3"]},
                        {"at": "a1", "hand": ["fireball", "2"]}],
            "turn": {"active": "P1"}}


async def test_telepaths_choice_is_named_not_a_walk() -> None:
    """While the human must take a card of the hand Telepath showed, the status line says so
    (not "Your turn · 3 moves · m walk"), the header too, and no square is marked."""
    s = session_of(TELEPATH)
    s.submit(Action("P1", "play", "telepath", ("P2",)))
    s.submit(Action("P2", "pass"))
    v = s.view()
    assert v.choice == ("P1", "P2") and v.to_move == ("P1",)
    app = WizWarApp(bot_delay=0, save_games=False)
    async with app.run_test(size=(120, 40)) as pilot:
        game = await open_game(pilot, app, s)
        status = str(game.query_one("#status").render())
        assert "Telepath: take one card of P2's hand" in status
        assert "walk" not in status and "moves" not in status
        top = str(game.query_one("#topbar").render())
        assert "your turn · Telepath: take a card of P2's hand" in top
        assert game.board.reach == {}
    assert render.turn_text(s.view("P2")) == \
        "P1's turn · P1 is taking a card of P2's hand (Telepath)"


async def test_a_lost_turn_is_said_where_the_player_looks() -> None:
    """A turn the human loses passes in a blink while the bots play: the status line says
    so before the prompt, until he acts (not a bare "Your turn" as if nothing happened)."""
    doc = {"board": {"size": "5x5"},
           "players": [{"at": "c3", "hand": ["3"], "lost_turns": 1},
                       {"at": "a1", "hand": []}],
           "turn": {"active": "P2"}}
    s = session_of(doc)
    app = WizWarApp(bot_delay=0, save_games=False)
    async with app.run_test(size=(120, 40)) as pilot:
        game = await open_game(pilot, app, s)
        game.run_bots()
        await pilot.pause()
        assert any(e.kind == "lost" and "P1" in e.text for e in s.events)
        assert s.view().to_move == ("P1",)
        status = str(game.query_one("#status").render())
        assert status.startswith("You lost a turn") and "Your turn" in status
        game.do(Action("P1", "end"))
        await pilot.pause()
        assert "lost" not in str(game.query_one("#status").render())


async def test_a_dead_player_reads_who_plays_on() -> None:
    """Out of the game: the status line names who plays on (not "the bots", which is false
    on a LAN) and whose turn it is."""
    doc = {"board": {"size": "5x5"},
           "players": [{"at": "c3", "hand": []}, {"at": "a1", "hand": []},
                       {"at": "e5", "hand": []}],
           "turn": {"active": "P2"}}
    s = session_of(doc)
    s.state.wizards[0].alive = False  # type: ignore[attr-defined]
    s.state.wizards[0].at = None  # type: ignore[attr-defined]
    app = WizWarApp(bot_delay=0, save_games=False)
    async with app.run_test(size=(120, 40)) as pilot:
        game = GameScreen(session=s, bot_delay=10)  # the bots wait: P2's turn stays
        app.push_screen(game)
        await pilot.pause()
        game.busy = False  # between two bot steps
        status = game.prompt(s.view()).plain
        assert "bots" not in status
        assert "You are out of the game (dead); P2, P3 play on · P2's turn" in status


def test_nobody_wins_is_said_in_words() -> None:
    """No wizard left: the header says nobody wins, not "- wins"."""
    s = session_of({"board": {"size": "5x5"},
                    "players": [{"at": "c3", "hand": []}, {"at": "a1", "hand": []}],
                    "turn": {"active": "P1"}})
    s.state.winner = "-"  # type: ignore[attr-defined]
    assert render.turn_text(s.view("P1")) == "game over · nobody wins"


# ---------------------------------------------------------------- the stack's place
async def attacked_at(size: tuple[int, int], check) -> None:  # type: ignore[no-untyped-def]
    """A 4-player game (the 10x10 board) at ``size``, the human played by the bot policy
    until he must answer an attack; then ``await check(pilot, game)``."""
    from core.wizwar import bot

    app = WizWarApp(players=4, seed=3, start_game=True, bot_delay=0, save_games=False)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        game = app.game
        assert isinstance(game, GameScreen)
        for _ in range(200):
            v = game.session.view()
            if v.stack and v.stack[0].to_answer == game.human:
                break
            s = game.session
            game.do(bot.choose(v, s.human, s.legal_actions()))
            await pilot.pause()
        await pilot.pause()
        await pilot.pause()
        assert game.session.view().stack
        await check(pilot, game)


def shown_lines(widget) -> int:  # type: ignore[no-untyped-def]
    """How many content lines of ``widget`` are inside its region (not clipped)."""
    return min(len(str(widget.render()).splitlines()), widget.content_region.height)


async def test_the_stack_covers_no_board_row_at_80x24() -> None:
    """Issue 12: at 80x24 the Stack panel under the board covered its last two rows during
    an attack. The stack goes to the right column: the whole board shows, and so do the
    stack and every card of the hand (to choose the answer from)."""
    async def check(pilot, game: GameScreen) -> None:  # type: ignore[no-untyped-def]
        assert game.query_one("#board-scroll").max_scroll_y == 0
        bottom = game.board.plain().splitlines()[-1]
        assert bottom.strip().startswith("└")
        side = game.query_one("#stack-side")
        assert side.display and not game.query_one("#stack").display
        assert "waiting for: you" in str(side.render())
        assert side.region.bottom <= game.query_one("#hand").region.y
        hand = game.query_one("#hand")
        assert shown_lines(hand) == len(game.session.view().hand)
        assert hand.region.bottom <= game.query_one("#status").region.y
        await pilot.resize_terminal(120, 40)  # room under the board again
        await pilot.pause()
        await pilot.pause()
        assert game.query_one("#stack").display and not side.display
    await attacked_at((80, 24), check)


async def test_the_hand_shows_while_answering_at_60x20() -> None:
    """Issue 12: at 60x20 an attack showed the stack but not the hand to answer from. While
    the human must answer, the panels show (the stack and the whole hand); Tab shows the
    board again."""
    async def check(pilot, game: GameScreen) -> None:  # type: ignore[no-untyped-def]
        assert game.has_class("-panels")
        hand = game.query_one("#hand")
        assert hand.region.height > 0
        assert shown_lines(hand) == len(game.session.view().hand)
        side = game.query_one("#stack-side")
        assert side.display and side.region.height > 0
        await pilot.press("tab")
        await pilot.pause()
        assert not game.has_class("-panels") and game.query_one("#stack").display
    await attacked_at((60, 20), check)


# ---------------------------------------------------------------- the replay at 80x24
def test_replay_hand_lines_say_what_fits() -> None:
    """Issue 12: the 80x24 replay cut hand lines ("attack #po…"). Each line says what fits
    (name, kind, the number's use), as the game's hand panel does."""
    from wizwar_tui.wizwar.widgets import HandsPanel

    panel = HandsPanel()
    panel.hands = [("P1", ("lightning-blast", "fireball", "3"))]
    for width in (20, 30, 60):
        lines = panel.hands_text(width).plain.splitlines()
        assert len(lines) == 3
        for line in lines:  # never cut at its end; a long name may be (the kind stays)
            assert len(line) <= width and not line.endswith("…"), (width, line)
        assert lines[0].endswith(("· attack", "· attack #power", "· atk")), (width, lines[0])
        assert "Lightning Blast" in lines[0] or width < 30
    assert render.card_summary("lightning-blast") in panel.hands_text(60).plain


@pytest.mark.parametrize("players,team,seed,actions",
                         [(2, False, 5, 40), (4, True, 18446744073709551615, 30)])
async def test_replay_at_80x24_shows_the_last_log_line_and_every_key(
        tmp_path, players: int, team: bool, seed: int, actions: int) -> None:  # type: ignore[no-untyped-def]
    """Issue 12: the 80x24 replay cut the second key line (the palette mark covered "v
    Seen as") and the last log line (the footer's second line shrank the log after it was
    written; with four players the log reached below the window, under the status line).
    At the end of the log the last action's events are the last lines, inside the window."""
    from pathlib import Path

    from textual.widgets import Footer, RichLog
    from textual.widgets._footer import FooterKey

    path = Path(tmp_path) / "g.wwlog"
    opts: dict[str, object] = {"players": players, **({"team": True} if team else {})}
    s = LocalSession.start(RULESET, opts, seed, human="")
    with open(path, "wb") as f:
        s.record_to(f.write, started="2025-01-02T10:11:12Z")
        for _ in range(actions):
            s.step_bot()
    app = WizWarApp(replay_file=str(path), save_games=False, discovery=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("end")
        for _ in range(3):
            await pilot.pause()
        log = app.screen.query_one("#log", RichLog)
        assert log.max_scroll_y > 0 and log.scroll_y == log.max_scroll_y
        assert s.events[-1].text.endswith(str(log.lines[-1].text).strip())
        assert log.region.height >= 2  # the title and at least the last line
        footer = app.screen.query_one(Footer)
        status = app.screen.query_one("#status")  # (hidden where the board just fits: -rim)
        below = status.region.y if status.display else footer.region.y
        assert log.region.bottom <= below
        keys = list(footer.query(FooterKey))
        assert "seen_as" in {k.action for k in keys}
        assert not any(k.action == "command_palette" for k in keys)
        for k in keys:
            assert k.region.right <= 80 and footer.region.y <= k.region.y < 24
        marks = [w for w in footer.children if not isinstance(w, FooterKey)]
        assert not any(m.display and m.region.area for m in marks), marks  # no palette mark


async def test_the_hand_shows_while_discarding_at_60x20() -> None:
    """Of the same kind: at 60x20 the discard prompt ("select one and discard it") left the
    hand behind Tab. The panels show while the human must discard, the board after."""
    app = WizWarApp(players=2, seed=3, start_game=True, bot_delay=0, save_games=False)
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        game = app.game
        assert isinstance(game, GameScreen) and not game.has_class("-panels")
        await pilot.press("e")  # seed 3: the first turn's end draws 2 (9 in hand)
        await pilot.pause()
        v = game.session.view()
        assert v.discarding and v.discarding[0] == "P1"
        assert game.has_class("-panels")
        hand = game.query_one("#hand")
        assert hand.region.height > 0 and shown_lines(hand) >= 7
        await pilot.press("x", "x")
        await pilot.pause()
        await pilot.pause()
        assert not game.session.view().discarding or game.session.view().discarding[0] != "P1"
        assert not game.has_class("-panels")


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
async def test_the_hand_is_never_below_the_window(size: tuple[int, int]) -> None:
    """Issue 12's hunt, of the kind "the hand is hidden": at 80x24 a 4-player game's player
    lines wrapped over three rows each and pushed the hand's last cards and the whole log
    below the status line; at 60x20 a 9-card hand to discard from did not fit. Through 30
    actions of a real game every panel shown ends above the status line."""
    from core.wizwar import bot

    app = WizWarApp(players=4, seed=3, start_game=True, bot_delay=0, save_games=False)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        game = app.game
        assert isinstance(game, GameScreen)
        checked = 0
        for _ in range(30):
            if game.session.over:
                break
            v = game.session.view()
            status = game.query_one("#status").region.y
            for wid in ("#hand", "#log", "#players", "#stack-side"):
                w = game.query_one(wid)
                if w.display and w.region.height:
                    assert w.region.bottom <= status, (wid, w.region, status, len(v.hand))
                    checked += 1
            hand = game.query_one("#hand")
            if hand.region.height:
                assert shown_lines(hand) == max(1, len(v.hand))
            game.do(bot.choose(v, game.session.human, game.session.legal_actions()))
            await pilot.pause()
        assert checked > 20
