"""Produce the SVG screenshots in ``screenshots/`` by driving the real app headless.

Run: ``.venv/bin/python scripts/screenshots.py`` (from the repository root).
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from textual.widgets import Input  # noqa: E402

from core.wizwar import bot  # noqa: E402
from wizwar_tui.app import WizWarApp  # noqa: E402

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


async def game(size: tuple[int, int], name: str, players: int = 2) -> None:
    """A game in progress: a few actions in, the cursor on a reachable square."""
    app = WizWarApp(players=players, seed=3, start_game=True, bot_delay=0)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        for _ in range(2):
            await policy_step(pilot, app)
        await pilot.press("left", "down")
        await pilot.pause()
        await shot(app, name)


async def attack() -> None:
    """A bot's attack waiting for the human's answer."""
    app = WizWarApp(players=2, seed=0, start_game=True, bot_delay=0)
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


async def gameover() -> None:
    """The game-over screen of a short game."""
    app = WizWarApp(players=2, seed=48, start_game=True, bot_delay=0)
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
    app = WizWarApp(players=2, seed=3, start_game=True, bot_delay=0)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("comma")  # the hand cursor wraps to the last card (Invisible)
        await pilot.press("i")
        await pilot.pause()
        await shot(app, "card.svg")


async def main() -> None:
    """Every screenshot."""
    OUT.mkdir(exist_ok=True)
    await menu()
    await game((120, 40), "game.svg")
    await game((80, 24), "game-80x24.svg")
    await game((120, 40), "game-4p.svg", players=4)
    await attack()
    await gameover()
    await card()


if __name__ == "__main__":
    asyncio.run(main())
