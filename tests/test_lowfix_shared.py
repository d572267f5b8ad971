"""The shared app's low findings of the fresh-user trials (task lowfix): the LAN notices of
a seat that came back (Textual pilot, no network)."""

from __future__ import annotations

from types import SimpleNamespace

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
