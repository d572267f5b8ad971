"""Produce the SVG screenshots in ``screenshots/`` by driving the real app headless.

Run: ``.venv/bin/python scripts/screenshots.py`` (from the repository root).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from textual.widgets import Input  # noqa: E402

from core.wizwar import bot  # noqa: E402
from net.discovery import GameAd  # noqa: E402
from net.lan import PeerGame  # noqa: E402
from wizwar_tui.app import WizWarApp  # noqa: E402
from wizwar_tui.lobby import JoinScreen, LobbyScreen  # noqa: E402
from wizwar_tui.wizwar.game import GameScreen  # noqa: E402

OUT = ROOT / "screenshots"


async def policy_step(pilot, app: WizWarApp) -> None:  # type: ignore[no-untyped-def]
    """One human action chosen by the apprentice policy, typed in the command line."""
    game = app.game
    assert game is not None
    s = game.session
    action = bot.choose(s.view(), s.human, s.legal_actions())
    await pilot.press("colon")
    app.screen.query_one("#cmd", Input).value = str(action).split(" ", 1)[1]
    await pilot.press("enter")
    await pilot.pause()


async def shot(app: WizWarApp, name: str) -> None:
    """Save the current screen as ``screenshots/<name>``."""
    app.save_screenshot(filename=name, path=str(OUT))
    print("saved", OUT / name)


async def menu() -> None:
    """The main menu."""
    app = WizWarApp(bot_delay=0)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await shot(app, "menu.svg")


async def game(size: tuple[int, int], name: str, players: int = 2,
               ascii_only: bool = False) -> None:
    """A game in progress: a few actions in, the cursor on a reachable square."""
    app = WizWarApp(players=players, seed=3, start_game=True, bot_delay=0, save_games=False,
                    ascii_only=ascii_only)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        for _ in range(2):
            await policy_step(pilot, app)
        await pilot.press("left", "down")
        await pilot.pause()
        await shot(app, name)


async def attack() -> None:
    """A bot's attack waiting for the human's answer."""
    app = WizWarApp(players=2, seed=0, start_game=True, bot_delay=0, save_games=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        g = app.game
        assert g is not None
        for _ in range(200):
            v = g.session.view()
            if v.stack and v.stack[0].to_answer == g.human:
                break
            await policy_step(pilot, app)
        await pilot.pause()
        await shot(app, "attack.svg")


async def attack_small(size: tuple[int, int], name: str) -> None:
    """A 4-player game (the 10x10 board) at a small size while the human must answer: the
    stack beside the board (80x24), or the stack and the hand in place of it (60x20)."""
    app = WizWarApp(players=4, seed=3, start_game=True, bot_delay=0, save_games=False)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        g = app.game
        assert g is not None
        for _ in range(200):
            v = g.session.view()
            if v.stack and v.stack[0].to_answer == g.human:
                break
            g.do(bot.choose(v, g.session.human, g.session.legal_actions()))
            await pilot.pause()
        await pilot.pause()
        await shot(app, name)


async def retreat() -> None:
    """A forced retreat in another player's turn: P2's Ugly face, P1's squares marked."""
    from core.session import LocalSession
    from core.wizwar.actions import Action
    from core.wizwar.ruleset import RULESET
    from core.wizwar.scenario import build_state
    from core.wizwar.state import Script

    st = build_state({"board": {"size": "5x5"},
                      "players": [{"at": "c3", "hand": ["3", "fireball"]},
                                  {"at": "c1", "hand": ["ugly", "2"]}],
                      "turn": {"active": "P2"}})
    st.script = Script()
    s = LocalSession(RULESET, st, human="P1", bots=("P2",))
    s.submit(Action("P2", "play", "ugly"))
    app = WizWarApp(bot_delay=0, save_games=False)
    async with app.run_test(size=(100, 30)) as pilot:
        app.push_screen(GameScreen(session=s, bot_delay=0))
        await pilot.pause()
        await pilot.pause()
        await shot(app, "retreat.svg")


async def saved_80() -> None:
    """The saved games at 80x24: two lines a game where one does not hold every column."""
    import os
    import tempfile

    from core.session import LocalSession
    from core.wizwar.ruleset import RULESET

    with tempfile.TemporaryDirectory() as tmp:
        old = os.environ.get("XDG_DATA_HOME")
        os.environ["XDG_DATA_HOME"] = tmp
        try:
            games = Path(tmp) / "wizwar" / "games"
            games.mkdir(parents=True)
            for i, (players, seed) in enumerate([(2, 5), (4, 18446744073709551615), (3, 77)]):
                s = LocalSession.start(RULESET, {"players": players, "team": players == 4},
                                       seed, human="")
                with open(games / f"g{i}.wwlog", "wb") as f:
                    s.record_to(f.write, started=f"2025-01-0{i + 1}T10:11:12Z")
                    for _ in range(30):
                        s.step_bot()
            app = WizWarApp(bot_delay=0, discovery=False, save_games=False)
            async with app.run_test(size=(80, 24)) as pilot:
                await pilot.pause()
                await pilot.press("r")
                await pilot.pause()
                await pilot.pause()
                await shot(app, "saved-80x24.svg")
        finally:
            if old is None:
                os.environ.pop("XDG_DATA_HOME", None)
            else:
                os.environ["XDG_DATA_HOME"] = old


async def replay_80() -> None:
    """A 2-player replay at 80x24, at the end of its log: the last lines shown."""
    import tempfile

    from core.session import LocalSession
    from core.wizwar.ruleset import RULESET

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "20250102-101112-local-seed5-1a2b.wwlog"
        s = LocalSession.start(RULESET, {"players": 2}, 5, human="")
        with open(path, "wb") as f:
            s.record_to(f.write, started="2025-01-02T10:11:12Z")
            for _ in range(40):
                s.step_bot()
        app = WizWarApp(replay_file=str(path), discovery=False, save_games=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("end")
            await pilot.pause()
            await pilot.pause()
            await shot(app, "replay-80x24.svg")


async def replay_4p_80() -> None:
    """A 4-player replay at 80x24: the 10x10 board whole (its letters in the top rim)."""
    import tempfile

    from core.session import LocalSession
    from core.wizwar.ruleset import RULESET

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "20250102-101112-local-seed5-4p.wwlog"
        s = LocalSession.start(RULESET, {"players": 4}, 5, human="")
        with open(path, "wb") as f:
            s.record_to(f.write, started="2025-01-02T10:11:12Z")
            for _ in range(40):
                s.step_bot()
        app = WizWarApp(replay_file=str(path), discovery=False, save_games=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            for _ in range(12):
                await pilot.press("right")
            await pilot.pause()
            await pilot.pause()
            await shot(app, "replay-4p-80x24.svg")


async def gameover() -> None:
    """The game-over screen of a short game."""
    app = WizWarApp(players=2, seed=48, start_game=True, bot_delay=0, save_games=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        g = app.game
        assert g is not None
        while not g.session.over:
            await policy_step(pilot, app)
        await pilot.pause()
        await shot(app, "gameover.svg")


async def card() -> None:
    """The full text of a card."""
    app = WizWarApp(players=2, seed=3, start_game=True, bot_delay=0, save_games=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("comma")  # the hand cursor wraps to the last card
        await pilot.press("i")
        await pilot.pause()
        await shot(app, "card.svg")


async def narrow() -> None:
    """A 60x20 window: the board alone (Tab shows the panels), and the panels."""
    app = WizWarApp(players=2, seed=3, start_game=True, bot_delay=0, save_games=False)
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        await shot(app, "game-60x20.svg")
        await pilot.press("tab")
        await pilot.pause()
        await shot(app, "game-60x20-panels.svg")


async def too_small() -> None:
    """A 40x12 window: the app says it is too small."""
    app = WizWarApp(players=2, seed=3, start_game=True, bot_delay=0, save_games=False)
    async with app.run_test(size=(40, 12)) as pilot:
        await pilot.pause()
        await shot(app, "too-small-40x12.svg")


async def cards() -> None:
    """The Cards screen from the menu: the attack cards, Fireball highlighted."""
    app = WizWarApp(bot_delay=0, save_games=False)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        await pilot.press("c", "1", "down", "down", "down")
        await pilot.pause()
        await shot(app, "cards.svg")


async def card_in_sight() -> None:
    """i during a bot's attack: the hand, the stack's Lightning Blast shown."""
    from core.session import LocalSession
    from core.wizwar.ruleset import RULESET
    from core.wizwar.scenario import build_state
    from core.wizwar.state import Script

    st = build_state({
        "board": {"size": "5x5"},
        "players": [{"at": "a1", "hand": ["full-shield", "blunt", "3", "wall-of-fire"]},
                    {"at": "a4", "hand": ["lightning-blast", "4"]}],
        "turn": {"active": "P2"},
    })
    st.script = Script()
    app = WizWarApp(bot_delay=0, save_games=False)
    async with app.run_test(size=(100, 32)) as pilot:
        game_screen = GameScreen(session=LocalSession(RULESET, st, human="P1", bots=("P2",)),
                                 bot_delay=0, seed=0)
        app.push_screen(game_screen)
        await pilot.pause()
        await pilot.press("i")
        await pilot.pause()
        await pilot.press("down", "down", "down", "down")
        await pilot.pause()
        await shot(app, "card-in-sight.svg")


async def new_game() -> None:
    """The new-game screen: 4 players, team play, seed 42."""
    app = WizWarApp(bot_delay=0, save_games=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("n", "right", "right", "down", "4", "2", "down", "down", "down",
                          "right", "down")
        await pilot.pause()
        await shot(app, "newgame.svg")


async def replay() -> None:
    """A finished 3-bot game's log (made in a temp dir) in the replay screen, part way
    through, seen as P1."""
    import tempfile

    from core.session import LocalSession
    from core.wizwar.ruleset import RULESET

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "20250102-101112-local-seed2-1a2b.wwlog"
        s = LocalSession.start(RULESET, {"players": 3}, 2, human="")
        with open(path, "wb") as f:
            s.record_to(f.write, started="2025-01-02T10:11:12Z")
            s.run_bots()
        app = WizWarApp(replay_file=str(path), discovery=False, save_games=False)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            await pilot.press("t", "1", "4", "enter")  # turn 14
            await pilot.press("right", "right", "right")
            await pilot.pause()
            await shot(app, "replay.svg")


async def until(pilot, cond: Callable[[], bool], timeout: float = 20.0) -> None:  # type: ignore[no-untyped-def]
    """Let the app and the LAN tasks run until ``cond()`` holds."""
    end = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > end:
            raise RuntimeError("timed out")
        await pilot.pause(0.02)


def host_args(seats: int, bots: int = 0) -> argparse.Namespace:
    """``wizwar host`` on loopback only (never advertised: no zeroconf), on a free port."""
    return argparse.Namespace(cmd="host", name="Friday duel", port=0, bind="127.0.0.1",
                              seats=seats, bots=bots, clock=None, advertise=True)


async def stop(task: asyncio.Task) -> None:  # type: ignore[type-arg]
    """Cancel a background peer."""
    task.cancel()
    with contextlib.suppress(BaseException):
        await task


async def lobby() -> None:
    """The host's lobby: P2 taken by a (bot) player, P3 still free."""
    app = WizWarApp(lan_args=host_args(3), discovery=False, save_games=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        port = app.lan.game.port  # type: ignore[union-attr]
        peer = PeerGame("127.0.0.1", port, name="bob", bot_play=True)
        task = asyncio.create_task(peer.run())
        try:
            await until(pilot, lambda: "online" in str(app.screen.query_one(
                "#lobby-seats").render()))
            await pilot.pause()
            await shot(app, "lobby.svg")
        finally:
            await stop(task)


async def join() -> None:
    """The found-games screen, fed two made-up games (no zeroconf)."""
    games = [
        GameAd("Friday duel", "192.168.1.20", 7654, 1, "wizwar/1", "players=2", 1, 1,
               "Friday duel._wizwar._tcp.local."),
        GameAd("Lunch break", "192.168.1.35", 7654, 1, "wizwar/1", "players=4", 2, 2,
               "Lunch break._wizwar._tcp.local."),
        GameAd("Rematch", "192.168.1.41", 7700, 1, "wizwar/1", "players=3", 3, 0,
               "Rematch._wizwar._tcp.local."),
    ]
    app = WizWarApp(discovery=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        app.push_screen(JoinScreen(name="alice", discover=False, games=games))
        await pilot.pause()
        await pilot.press("down")
        await pilot.pause()
        await shot(app, "join.svg")


async def lan_game() -> None:
    """A hosted game in progress: P2 online, P3 offline (its player dropped), P4 a bot."""
    app = WizWarApp(lan_args=host_args(4, bots=1), discovery=False, save_games=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        port = app.lan.game.port  # type: ignore[union-attr]
        bob = PeerGame("127.0.0.1", port, name="bob", bot_play=True)
        carol = PeerGame("127.0.0.1", port, name="carol", bot_play=True)
        tasks = [asyncio.create_task(bob.run())]
        await until(pilot, lambda: bob.seat == "P2")
        tasks.append(asyncio.create_task(carol.run()))
        try:
            await until(pilot, lambda: isinstance(app.screen, GameScreen))
            g = app.screen
            assert isinstance(g, GameScreen)
            await until(pilot, lambda: bool(g.query("#board")) and g.board.view is not None)
            for _ in range(3):
                await until(pilot, g.human_to_act)
                await policy_step(pilot, app)
            await until(pilot, g.human_to_act)  # P1 to act: nobody waits for carol
            await stop(tasks[1])
            if carol.conn is not None:
                await carol.conn.close()
            await until(pilot, lambda: "offline" in str(g.query_one("#players").render()))
            await pilot.pause()
            await shot(app, "lan-game.svg")
        finally:
            for t in tasks:
                await stop(t)


async def main() -> None:
    """Every screenshot (``lan`` as the only argument: the menu and the LAN ones;
    ``replay``: the menu and the replay screen; ``terminal``: the small-terminal, ASCII,
    Cards and new-game ones; ``small``: issue 12's last ones, an attack at 80x24 and 60x20,
    a forced retreat, the saved games, a 2- and a 4-player replay at 80x24 and the new-game
    screen)."""
    OUT.mkdir(exist_ok=True)
    if sys.argv[1:] == ["replay"]:
        await menu()
        await replay()
        return
    if sys.argv[1:] == ["lan"]:
        await menu()
        await lobby()
        await join()
        await lan_game()
        return
    if sys.argv[1:] == ["small"]:  # issue 12's last findings
        await attack_small((80, 24), "attack-80x24.svg")
        await attack_small((60, 20), "attack-60x20.svg")
        await retreat()
        await saved_80()
        await replay_80()
        await replay_4p_80()
        await new_game()
        return
    if sys.argv[1:] == ["terminal"]:
        await game((200, 50), "game-200x50.svg", players=4)
        await game((80, 24), "game-80x24.svg")
        await game((80, 24), "game-ascii.svg", ascii_only=True)
        await narrow()
        await too_small()
        await cards()
        await card_in_sight()
        await new_game()
        return
    await menu()
    await game((120, 40), "game.svg")
    await game((80, 24), "game-80x24.svg")
    await game((80, 24), "game-ascii.svg", ascii_only=True)
    await game((120, 40), "game-4p.svg", players=4)
    await game((200, 50), "game-200x50.svg", players=4)
    await narrow()
    await too_small()
    await cards()
    await card_in_sight()
    await new_game()
    await attack()
    await attack_small((80, 24), "attack-80x24.svg")
    await attack_small((60, 20), "attack-60x20.svg")
    await retreat()
    await gameover()
    await card()
    await lobby()
    await join()
    await lan_game()
    await replay()
    await saved_80()
    await replay_80()
    await replay_4p_80()


if __name__ == "__main__":
    asyncio.run(main())
