"""Keys typed in one burst behind ``:`` on ArcoMage's and Wizard Kings' game screens reach the
notation line (trialRe, issues 12 and 17): they were taken for game keys (``e`` ended the
turn, ``o`` opened the rival's book) because the line got the focus only on a later turn of
the loop. The shared :meth:`wizwar_tui.gameui.GameScreenBase.notation_key` routes them."""

from __future__ import annotations

import pytest
from textual import events
from textual.widgets import Input

from wizwar_tui.app import WizWarApp


def _burst(app: WizWarApp, text: str) -> None:
    """Post every key of ``text`` at once: none is handled before the whole burst is in."""
    for ch in text:
        key = {":": "colon", " ": "space", "@": "at", "-": "minus"}.get(ch, ch)
        app.post_message(events.Key(key, ch))


@pytest.mark.parametrize("game,seed,line_id,typed,want", [
    # ArcoMage's MAIN: the ``e`` of "venom" ended the turn, ``o`` opened the rival's book
    ("arcomage", 3, "#ac-cmd", ":cast venom @c2", "cast venom @c2"),
    # Wizard Kings' map: the line opens empty (the seat may be typed or left out)
    ("wizard-kings", 5, "#wk-line", ":pass", "pass"),
])
async def test_a_burst_after_colon_lands_in_the_line(game: str, seed: int, line_id: str,
                                                     typed: str, want: str) -> None:
    """Every letter of a burst typed behind ``:`` is in the notation line, no game key ran
    and no other screen opened."""
    app = WizWarApp(bot_delay=0, save_games=False, discovery=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.start_game(game=game, seed=seed)
        await pilot.pause()
        assert getattr(screen, "human", "P1") == "P1"
        before = list(screen.session.actions)
        _burst(app, typed)
        for _ in range(4):
            await pilot.pause()
        assert screen.query_one(line_id, Input).value == want
        assert app.screen is screen
        assert list(screen.session.actions) == before


async def test_a_reopened_refused_line_is_added_to_not_replaced() -> None:
    """trialRe 2: ``:`` reopened the refused line with its text selected, so the first key
    typed after a pause replaced it all (the README says the line reopens "to fix it"):
    the text is kept, the cursor at its end, for every game's line."""
    from wizwar_tui.arcomage.game import ArcoMageGameScreen

    app = WizWarApp(bot_delay=0, save_games=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.start_game(game="arcomage", seed=3)
        assert isinstance(screen, ArcoMageGameScreen)
        await pilot.pause()
        await pilot.press("colon")
        line = screen.query_one("#ac-cmd", Input)
        line.value = "cast raise-skeleton"
        await pilot.press("enter")
        await pilot.pause()
        assert not line.display
        await pilot.press("colon")
        await pilot.pause()
        await pilot.pause()
        await pilot.press("space", "at", "c", "2")
        assert line.value == "cast raise-skeleton @c2"
