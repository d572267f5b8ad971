"""ArcoMage's low findings of the fresh-user trials (task lowfix): the footer at 60x20, the
joiner's footer once the host has gone, the log naming a creature (Textual pilot)."""

from __future__ import annotations

from textual.widgets._footer import FooterKey

from tests.readable import screen_text
from wizwar_tui.app import WizWarApp
from wizwar_tui.arcomage.game import FOOTER_PRIORITY, ArcoMageGameScreen


def footer_line(app: WizWarApp) -> str:
    """The screen's last row, as the terminal shows it."""
    return screen_text(app).rstrip("\n").splitlines()[-1]


async def test_the_footer_drops_whole_hints_at_60x20() -> None:
    """At 60x20 the footer shows only whole hints (it was cut mid-word: ``a Act``), the
    most wanted kept (Enter on the field, end the turn, pass, help, menu); a wider window
    shows the ones dropped again."""
    app = WizWarApp(bot_delay=0, save_games=False)
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        screen = app.start_game(game="arcomage", seed=3)
        assert isinstance(screen, ArcoMageGameScreen)
        await pilot.pause()
        await pilot.pause()
        line = footer_line(app)
        keys = list(screen.query(FooterKey).results(FooterKey))
        shown = [k for k in keys if k.display]
        hidden = [k for k in keys if not k.display]
        assert hidden, line  # not all of them fit at 60 columns
        for k in shown:
            assert f"{k.key_display} {k.description}" in line, line
        words = line.split()
        for k in hidden:  # no piece of a dropped hint either
            assert k.description.split()[0] not in words, line
        assert {k.action for k in shown} >= {"choose", "end", "pass", "help", "menu"}
        ranks = {a: i for i, a in enumerate(FOOTER_PRIORITY)}
        assert max(ranks[k.action] for k in shown) < min(ranks[k.action] for k in hidden)
        await pilot.resize_terminal(120, 30)
        await pilot.pause()
        await pilot.pause()
        line = footer_line(app)
        assert "a Actions" in line and "o Rival book" in line, line
