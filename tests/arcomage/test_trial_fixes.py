"""Small fixes from the fresh-user trial of ArcoMage (issue 17, items 5, 9, 10, 11): the
header after the end, the "too small" notice naming the game, the help's words."""

from __future__ import annotations

from core.arcomage.ruleset import RULESET as R
from wizwar_tui.app import WizWarApp
from wizwar_tui.arcomage.game import ArcoMageGameScreen
from wizwar_tui.arcomage.screens import help_text
from wizwar_tui.menu import TooSmall


def test_help_says_what_workers_bring_and_the_zoc_start_clause() -> None:
    """R31: Mana, Wall and corpses (no bricks, no INT); R75.1 in the ZoC line."""
    text = help_text()
    assert "bricks" not in text and "Mana, Wall and corpses" in text
    assert "starts next to one moves at most" in text


def test_too_small_names_the_game() -> None:
    assert TooSmall("ArcoMage").game == "ArcoMage"
    assert TooSmall().game == "wizwar"


async def test_header_after_the_end_says_who_won() -> None:
    """Not ``P1's OVER (limit 100)`` once the game has ended (R118)."""
    app = WizWarApp(bot_delay=0, save_games=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.start_game(game="arcomage", seed=1)
        assert isinstance(screen, ArcoMageGameScreen)
        await pilot.pause()
        v = screen.session.view()
        assert "P1's MAIN" in screen.top_text(v).plain
        st = R.new_game(R.validate_options({}), 1)
        R.apply(st, "P1 concede")
        top = screen.top_text(R.view(st, "P1")).plain
        assert "P2 won" in top and "OVER" not in top and "limit" not in top, top
