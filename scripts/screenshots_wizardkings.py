"""Produce Wizard Kings' SVG screenshots ``screenshots/wizard-kings-*.svg`` by driving the real
app headless: the map at 100x30 and 80x24 (and ASCII), a move under way, a battle, the Build
Phase, game over, the 4-map layout, the replay, the help.

Run: ``.venv/bin/python scripts/screenshots_wizardkings.py`` (from the repository root).
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("XDG_DATA_HOME", tempfile.mkdtemp(prefix="wk-shots-"))

from core import registry  # noqa: E402
from core.rng import Rng  # noqa: E402
from core.session import LocalSession  # noqa: E402
from core.wizardkings import game as G  # noqa: E402
from wizwar_tui.app import WizWarApp  # noqa: E402
from wizwar_tui.wizardkings.game import WizardKingsScreen  # noqa: E402

OUT = ROOT / "screenshots"
RS = registry.get("wizard-kings")


def shot(app: WizWarApp, name: str) -> None:
    """Save the current screen as ``screenshots/wizard-kings-<name>.svg``."""
    fn = f"wizard-kings-{name}.svg"
    app.save_screenshot(filename=fn, path=str(OUT))
    print("saved", OUT / fn)


def towards_enemy(scr: WizardKingsScreen) -> Any:
    """The human's action for the pictures: a move into a hex the enemy holds when one is in
    reach, else (twice a turn) the move ending furthest east; else the random bot's."""
    v = scr.view()
    moves = [a for a in scr.legal() if a.verb == "move"]
    if moves:
        from wizwar_tui.wizardkings import render

        b = render.board_of(v)
        foes = {x["at"] for x in v["blocks"].values() if x["owner"] != scr.human
                and x["state"] == "map"}
        into = [a for a in moves if a.words[1].split("-")[-1] in foes]
        if into:
            return into[0]
        moved = sum(1 for x in v["blocks"].values() if x["owner"] == scr.human and x["moved"])
        if moved < 2:
            return max(moves, key=lambda a: (b.hexes[a.words[1].split("-")[-1]].gq,
                                             -a.words[1].count("-"), str(a)))
        return next(a for a in scr.legal() if a.verb == "end")
    return scr.bot_action(scr.human)


async def advance(pilot: Any, scr: WizardKingsScreen, until: Callable[[dict[str, Any]], bool],
                  limit: int = 3000) -> bool:
    """Let the human's seat play random legal actions (the bots answer) until ``until`` holds
    for the human's view at his turn."""
    for _ in range(limit):
        if scr.session.over:
            return False
        if scr.my_turn() and until(scr.view()):
            scr.reset_selection()
            scr.message = None
            scr.draw()
            await pilot.pause()
            await pilot.pause()
            return True
        if scr.my_turn():
            scr.session.submit(towards_enemy(scr))
            scr.after_human()
        else:
            scr.after_human()
    return False


async def main() -> None:
    """Every screenshot, one app per window size."""
    app = WizWarApp(bot_delay=0, save_games=True, discovery=False)
    async with app.run_test(size=(100, 30)) as pilot:
        scr = app.start_game(game="wizard-kings", seed=27, options={"turn_limit": 10})
        assert isinstance(scr, WizardKingsScreen)
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        await advance(pilot, scr, lambda v: v["phase"] == "movement")
        shot(app, "map")
        await pilot.press("enter")
        mine = scr.my_blocks(scr.view(), scr.cursor)
        if len(mine) > 1:
            for i in range(2, len(mine) + 1):
                await pilot.press(str(i))
        await pilot.press("right")
        await pilot.pause()
        shot(app, "move")
        await pilot.press("escape", "escape")
        await pilot.press("i")
        await pilot.pause()
        shot(app, "hex")
        await pilot.press("escape")
        if await advance(pilot, scr, lambda v: v["phase"] == "build"):
            mine = [x for x in scr.view()["blocks"].values() if x["owner"] == scr.human
                    and x["state"] == "map" and scr.below_max(scr.view(), str(x["label"]))]
            if mine:
                scr.cursor = mine[0]["at"]
                await pilot.press("s")
            await pilot.pause()
            shot(app, "build")
        if await advance(pilot, scr, lambda v: bool(v.get("battle"))
                         and not v["battle"].get("victor") and v["battle"]["round"] >= 1):
            scr.cursor = scr.view()["battle"]["hex"]
            scr.draw()
            await pilot.pause()
            await pilot.pause()
            shot(app, "battle")
        await advance(pilot, scr, lambda v: False, limit=100_000)
        await pilot.pause()
        shot(app, "gameover")
        path = scr.logfile.path if scr.logfile is not None else ""
        await pilot.press("b")
        await pilot.pause()
        shot(app, "final-map")
        await pilot.press("question_mark")
        await pilot.pause()
        shot(app, "help")
        await pilot.press("escape")
        if path:
            app.show_menu()
            await pilot.pause()
            app.open_replay(path)
            await pilot.pause()
            for _ in range(40):
                await pilot.press("right")
            await pilot.pause()
            shot(app, "replay")
    app = WizWarApp(bot_delay=0, save_games=False, discovery=False)
    async with app.run_test(size=(80, 24)) as pilot:
        scr = app.start_game(game="wizard-kings", seed=4)
        assert isinstance(scr, WizardKingsScreen)
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        shot(app, "80x24")
    app = WizWarApp(bot_delay=0, save_games=False, discovery=False, ascii_only=True)
    async with app.run_test(size=(100, 30)) as pilot:
        scr = app.start_game(game="wizard-kings", seed=4)
        assert isinstance(scr, WizardKingsScreen)
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        shot(app, "ascii")
    app = WizWarApp(bot_delay=0, save_games=False, discovery=False)
    async with app.run_test(size=(140, 44)) as pilot:
        o = dict(G.DEFAULTS)
        o.update(RS.validate_options({}))
        o.update(players=4, layout="4-map", maps=[1, 2, 3, 4])
        st = G.State(G.blank(o, 8), Rng.from_seed(8))
        session = LocalSession(RS, st, "P1", ("P2", "P3", "P4"), seed=8, options=o)
        scr = WizardKingsScreen(session=session, seed=8, bot_delay=0)
        app.push_screen(scr)
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        shot(app, "4-map")


if __name__ == "__main__":
    asyncio.run(main())
