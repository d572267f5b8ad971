"""Keys typed in one burst behind ``:`` on ArcoMage's and Wizard Kings' game screens reach the
notation line (trialRe, issues 12 and 17): they were taken for game keys (``e`` ended the
turn, ``o`` opened the rival's book) because the line got the focus only on a later turn of
the loop. The shared :meth:`wizwar_tui.gameui.GameScreenBase.notation_key` routes them."""

from __future__ import annotations

from textual import events
from textual.widgets import Input

from wizwar_tui.app import WizWarApp


def _burst(app: WizWarApp, text: str) -> None:
    """Post every key of ``text`` at once: none is handled before the whole burst is in."""
    for ch in text:
        key = {":": "colon", " ": "space", "@": "at", "-": "minus"}.get(ch, ch)
        app.post_message(events.Key(key, ch))


async def test_arcomage_burst_after_colon_lands_in_the_line() -> None:
    """``:cast venom @c2`` in one burst on ArcoMage's MAIN: every letter is in the line and
    no game key ran (the ``e`` of "venom" ended the turn before)."""
    from wizwar_tui.arcomage.game import ArcoMageGameScreen

    app = WizWarApp(bot_delay=0, save_games=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.start_game(game="arcomage", seed=3)
        assert isinstance(screen, ArcoMageGameScreen)
        await pilot.pause()
        before = list(screen.session.actions)
        _burst(app, ":cast venom @c2")
        for _ in range(4):
            await pilot.pause()
        assert screen.query_one("#ac-cmd", Input).value == "cast venom @c2"
        assert app.screen is screen  # no ``o`` book, no help opened
        assert list(screen.session.actions) == before


async def test_wizard_kings_burst_after_colon_lands_in_the_line() -> None:
    """The same on Wizard Kings' map: ``:end`` typed at once is the line's, not ``e``."""
    from wizwar_tui.wizardkings.game import WizardKingsScreen

    app = WizWarApp(bot_delay=0, save_games=False, discovery=False)
    async with app.run_test(size=(100, 30)) as pilot:
        scr = app.start_game(game="wizard-kings", seed=5)
        assert isinstance(scr, WizardKingsScreen)
        await pilot.pause()
        before = list(scr.session.actions)
        _burst(app, ":pass")
        for _ in range(4):
            await pilot.pause()
        assert scr.query_one("#wk-line", Input).value == f"{scr.human} pass"
        assert list(scr.session.actions) == before


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
