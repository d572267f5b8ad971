"""Draw the ArcoMage screenshots of the README (``screenshots/arcomage-*.svg``): a game in a
large window, an attack being answered (the stack and its prompt), the spellbook with a
spell's text, the reference of all spells, game over, and the small window (80x24).

Run from the repository root: ``.venv/bin/python scripts/arcomage_screenshots.py``. The human
summons whenever he can, else plays the apprentice bot's choice on his own view, entered
through the screen (seeded: the pictures are the same every run)."""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core import registry  # noqa: E402
from core.arcomage.data import SUMMONS  # noqa: E402
from wizwar_tui.app import WizWarApp  # noqa: E402

OUT = Path(__file__).resolve().parent.parent / "screenshots"
RS = registry.get("arcomage")


async def shoot(name: str, size: tuple[int, int], seed: int,
                until: Callable[[Any], bool], keys: tuple[str, ...] = (),
                options: dict[str, Any] | None = None) -> None:
    """Play seed ``seed`` until ``until(screen)``, press ``keys``, save the picture."""
    app = WizWarApp(bot_delay=0, save_games=False)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        screen = app.start_game(game="arcomage", seed=seed, options=options or {},
                                levels={"P2": "apprentice"})
        await pilot.pause()
        s = screen.session
        for _ in range(3000):
            if until(screen) or s.over:
                break
            legal = s.legal_actions()
            summons = [a for a in legal if a.verb == "cast" and a.slug in SUMMONS]
            screen.do(summons[0] if summons else
                      RS.bot_choose(s.view(), s.human, legal, "apprentice"))
            await pilot.pause()
        for k in keys:
            await pilot.press(k)
            await pilot.pause()
        await pilot.pause()
        app.save_screenshot(str(OUT / f"arcomage-{name}.svg"))
        print(f"screenshots/arcomage-{name}.svg")


def creatures(n: int) -> Callable[[Any], bool]:
    """Until ``n`` creatures are on the field, at the human's MAIN."""
    def ok(screen: Any) -> bool:
        v = screen.session.view()
        return len(v["creatures"]) >= n and v["step"] == "main" \
            and not v["stack"] and screen.my_turn()
    return ok


def answering(screen: Any) -> bool:
    """Until an enemy spell is on the stack and the human holds priority."""
    v = screen.session.view()
    return bool(v["stack"]) and v["stack"][-1]["caster"] != screen.human \
        and v["prio"] == screen.human and screen.my_turn()


async def main() -> None:
    """Every picture."""
    OUT.mkdir(exist_ok=True)
    await shoot("game", (130, 40), 4, creatures(3))
    await shoot("answer", (130, 40), 4, answering)
    await shoot("spellbook", (130, 40), 4, creatures(1), keys=("s", "down", "down", "i"))
    await shoot("spells", (100, 30), 1, lambda s: True, keys=("S", "down", "down", "down"))
    await shoot("game-over", (100, 30), 2, lambda s: False, options={"turn_limit": 40})
    await shoot("80x24", (80, 24), 4, creatures(2), keys=("z",))


if __name__ == "__main__":
    os.environ.setdefault("NO_COLOR", "")
    if not os.environ["NO_COLOR"]:
        del os.environ["NO_COLOR"]
    asyncio.run(main())
