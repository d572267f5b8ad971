"""The shared app's low findings of the fresh-user trials (task lowfix): the LAN notices of
a seat that came back (Textual pilot, no network)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from tests.readable import screen_text
from wizwar_tui.app import WizWarApp
from wizwar_tui.gameui import GameScreenBase, NetNotices


def toasts(app: WizWarApp) -> list[str]:
    """The messages of the notifications the app shows now."""
    return [n.message for n in app._notifications]


async def test_the_lost_connection_notice_goes_when_the_seat_is_back() -> None:
    """The host's screen shows "P2 lost the connection" while P2 is away; once P2 has
    rejoined that notice is gone from the screen (it stayed up to 20 s beside "P2 is
    back") and "P2 is back" shows instead; another seat's notice stays."""
    app = WizWarApp(bot_delay=0, save_games=False)
    async with app.run_test(size=(120, 30), notifications=True) as pilot:
        await pilot.pause()
        screen = app.start_game(game="arcomage", seed=1)
        assert isinstance(screen, GameScreenBase)
        await pilot.pause()
        status = {"P1": "host", "P2": "connected", "P3": "connected"}
        lan = SimpleNamespace(session=SimpleNamespace(seat_status=lambda: dict(status)),
                              game=None, listeners=[])
        screen.lan, screen.net_notices = lan, NetNotices()
        screen.show_net_notices()
        status["P2"] = status["P3"] = "disconnected"
        screen.show_net_notices()
        await pilot.pause()
        assert any(t.startswith("LAN: P2 lost the connection") for t in toasts(app))
        await pilot.pause(0.2)
        await pilot.pause()
        assert "P2 lost the connection" in screen_text(app)
        status["P2"] = "connected"
        screen.show_net_notices()
        await pilot.pause()
        await pilot.pause()
        shown = toasts(app)
        assert not any(t.startswith("LAN: P2 lost") for t in shown), shown
        assert "LAN: P2 is back" in shown
        assert any(t.startswith("LAN: P3 lost the connection") for t in shown), shown
        text = screen_text(app)
        assert "P2 lost the connection" not in text and "P2 is back" in text, text
        screen.lan = None


async def test_wizwar_keys_behind_colon_and_a_go_through_the_shared_routing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Wiz-War's screen routes the keys typed behind ``:`` and ``a`` through the shared
    :meth:`GameScreenBase.notation_key` (it had a copy of its own): the two Wiz-War burst
    tests (``:move d4`` in the command line, ``a`` + ``end`` in the actions menu's filter,
    the menu's early keys) hold with every key seen by the shared method."""
    from textual import events

    from tests import test_trial_fixes_wiz as wiz

    seen: list[str] = []
    shared = GameScreenBase.notation_key

    def spy(self: GameScreenBase, event: events.Key, *args: Any) -> bool:
        seen.append(event.key)
        return shared(self, event, *args)

    monkeypatch.setattr(GameScreenBase, "notation_key", spy)
    await wiz.test_keys_typed_at_once_after_colon_reach_the_command_line()
    assert seen[:2] == ["colon", "m"], seen
    seen.clear()
    await wiz.test_keys_typed_at_once_after_a_reach_the_actions_filter()
    assert seen[:2] == ["a", "e"], seen


def test_the_panel_line_colour_is_written_once() -> None:
    """The quiet panels' colour is one CSS variable (``$panel-line``, app.PANEL_LINE): no
    CSS block of the app writes it out (it was in some twenty)."""
    from pathlib import Path

    from wizwar_tui import app as app_module

    root = Path(app_module.__file__).parent
    files = [p for p in root.rglob("*") if p.suffix in (".py", ".tcss")]
    written = [str(p.relative_to(root)) for p in files
               if app_module.PANEL_LINE.lower() in p.read_text().lower() and p.name != "app.py"]
    assert written == [], written
    uses = sum(p.read_text().count("$panel-line") for p in files)
    assert uses >= 20, uses


@pytest.mark.parametrize("game,panel", [("wizwar", "#players"), ("arcomage", "#ac-log"),
                                        ("wizard-kings", "#wk-log")])
async def test_every_games_panels_follow_the_panel_line_variable(game: str,
                                                                 panel: str) -> None:
    """A panel of each game's screen is drawn in ``$panel-line``: an app that sets the
    variable otherwise draws it so (each block wrote out #5f87af)."""
    from pathlib import Path

    from textual.color import Color

    from wizwar_tui import app as app_module

    class RedLines(WizWarApp):
        """The app with another panel line."""

        CSS_PATH = str(Path(app_module.__file__).parent / WizWarApp.CSS_PATH)  # type: ignore[operator]

        def get_css_variables(self) -> dict[str, str]:
            return {**super().get_css_variables(), "panel-line": "#ff0000"}

    for red in (False, True):
        app = (RedLines if red else WizWarApp)(bot_delay=0, save_games=False)
        want = Color(255, 0, 0) if red else Color.parse("#5f87af")
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            app.start_game(game=game, seed=3)
            await pilot.pause()
            await pilot.pause()
            assert app.screen.query_one(panel).styles.border_top[1] == want, red
