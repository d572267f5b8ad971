"""A LAN game's notices on every game's screen (issue 17): the shell's game-screen base
(``wizwar_tui.gameui.GameScreenBase`` and its ``NetNotices``) shows what the net layer tells
(a peer found at odds and dropped, this seat dropped, a seat that lost its connection and the
game waiting for it to rejoin) on the game screen, whatever the game, not only in the lobby's
log. Everything on 127.0.0.1 in the test's event loop."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import time
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import pytest

from core import registry
from net.lan import HostGame, PeerGame
from wizwar_tui.app import WizWarApp
from wizwar_tui.gameui import GameScreenBase, NetNotices


@pytest.fixture(autouse=True)
def _data_home(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Seat tokens and desync reports go to a temporary folder, not the user's."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))


def test_net_notices_tell_what_is_new_once() -> None:
    """New notices and reports once each, a seat's loss and return, the waiting line."""
    n = NetNotices()
    game = SimpleNamespace(notices=["the host dropped this seat: x"], reports=[])
    assert n.take(game, {"P1": "host", "P2": "connected"}) == [
        ("LAN: the host dropped this seat: x", "warning")]
    assert n.take(game, {"P1": "host", "P2": "connected"}) == []
    assert n.waiting() == ""
    game.reports.append("/tmp/r.txt")
    got = n.take(game, {"P1": "host", "P2": "disconnected"})
    assert got == [("LAN: a peer was found at odds with the host and dropped; report "
                    "/tmp/r.txt", "warning"),
                   ("LAN: P2 lost the connection: the game waits for P2 to rejoin", "warning")]
    assert n.waiting() == "P2 disconnected: the game waits for P2 to rejoin"
    assert n.take(game, {"P1": "host", "P2": "disconnected"}) == []
    assert n.take(game, {"P1": "host", "P2": "connected"}) == [("LAN: P2 is back",
                                                                 "information")]
    assert n.waiting() == ""
    # a screen that comes when a seat is already gone says so at once
    assert NetNotices().take(SimpleNamespace(), {"P2": "disconnected"})[0][0].startswith(
        "LAN: P2 lost")


async def until(pilot: Any, cond: Callable[[], bool], timeout: float = 60.0,
                what: str = "condition") -> None:
    """Let the app and the net tasks run until ``cond()`` holds."""
    end = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}")
        await pilot.pause(0.02)


def toasts(app: WizWarApp) -> list[str]:
    """The messages of the notifications the app shows now."""
    return [n.message for n in app._notifications]


class ArcoTamperer(PeerGame):
    """An ArcoMage peer whose state is corrupted after action 2 (a bug or a cheat)."""

    def _commit(self, msg: dict[str, Any]) -> None:
        super()._commit(msg)
        if msg["seq"] == 2 and self.state is not None:
            self.state.d["players"][self.seat]["life"] += 3


async def test_host_screen_shows_a_report_and_a_seat_waiting_to_rejoin() -> None:
    """The app hosts ArcoMage (P1); a joiner whose state goes wrong is found at odds and
    dropped: the host's game screen (ArcoMage's) shows the report and that P2 lost the
    connection, and its prompt says the game waits for P2 while P2 is to act."""
    args = argparse.Namespace(cmd="host", name="t", port=0, bind="127.0.0.1", seats=2,
                              bots=0, clock=None, advertise=False, game="arcomage",
                              options={"p1_book": "iron-dojo", "p2_book": "pale-tower"})
    app = WizWarApp(lan_args=args, discovery=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: app.lan is not None and bool(app.lan.game.port),
                    what="the lobby")
        link = app.lan
        assert link is not None
        peer = ArcoTamperer("127.0.0.1", link.game.port, ruleset=registry.get("arcomage"),
                            name="odd", bot_play=True)
        task = asyncio.create_task(peer.run())
        try:
            await until(pilot, lambda: isinstance(app.screen, GameScreenBase), what="the game")
            game = app.screen
            assert type(game).__module__ == "wizwar_tui.arcomage.game"
            s = game.session
            # the host's human plays on until the odd peer has acted and been caught
            while not link.game.reports:  # type: ignore[union-attr]
                await until(pilot, lambda: game.my_turn()
                            or bool(link.game.reports), what="our turn or the report")
                if link.game.reports:  # type: ignore[union-attr]
                    break
                n = len(s.actions)
                acts = [str(a) for a in s.legal_actions()]
                pick = next((a for a in acts if a.endswith((" pass", " end"))), acts[0])
                game.do(s.ruleset.parse_action(pick))
                await until(pilot, lambda n=n: len(s.actions) > n or bool(link.game.reports),
                            what="the commit")
            await until(pilot, lambda: any("found at odds" in t for t in toasts(app)),
                        what="the report on the game screen")
            await until(pilot, lambda: any("P2 lost the connection" in t
                                           for t in toasts(app)),
                        what="the lost seat on the game screen")
            assert app.screen is game
            if "P2" in s.to_move():
                await until(pilot, lambda: "the game waits for P2 to rejoin" in str(
                    game.query_one("#ac-status").render()), what="the waiting line")
        finally:
            task.cancel()
            with contextlib.suppress(BaseException):
                await task


class WizTamperer(PeerGame):
    """A Wiz-War peer whose state is corrupted after action 3 (a bug or a cheat)."""

    def _commit(self, msg: dict[str, Any]) -> None:
        super()._commit(msg)
        if msg["seq"] == 3 and self.state is not None:
            self.state.wizard(self.seat).life += 3


async def test_a_joined_players_screen_shows_the_hosts_report() -> None:
    """Wiz-War, three seats: the host's bot (P1), the app joined (P2) and a peer whose state
    goes wrong (P3). The host finds P3 at odds and tells the others (``report``): the joined
    player's game screen (Wiz-War's) shows it, and that P3 lost the connection."""
    from core.wizwar import bot

    host = HostGame(players=3, local_bot=True, bind="127.0.0.1", port=0)
    port = await host.start()
    host_task = asyncio.create_task(host.run())
    app = WizWarApp(discovery=False)
    odd: PeerGame | None = None
    odd_task: asyncio.Task[Any] | None = None
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            app.join_lan("127.0.0.1", port, "dora", retries=0)
            await until(pilot, lambda: any(s.seat == "P2" and s.connected for s in host.seats),
                        what="P2 taken")
            odd = WizTamperer("127.0.0.1", port, name="odd", bot_play=True)
            odd_task = asyncio.create_task(odd.run())
            await until(pilot, lambda: isinstance(app.screen, GameScreenBase), what="the game")
            game = app.screen
            assert type(game).__module__ == "wizwar_tui.wizwar.game"
            s = game.session
            end = time.monotonic() + 120
            while not any("at action" in t for t in toasts(app)):
                assert time.monotonic() < end, "no report on the joined player's screen"
                if s.human in s.to_move() and not s.over:
                    n = len(s.actions)
                    with contextlib.suppress(Exception):
                        s.submit(bot.choose(s.view(), s.human, s.legal_actions()))
                    await until(pilot, lambda n=n: len(s.actions) > n or any(
                        "at action" in t for t in toasts(app)), what="the commit")
                await pilot.pause(0.05)
            assert any(t.startswith("LAN: P3 at action ") for t in toasts(app)), toasts(app)
            await until(pilot, lambda: any("P3 lost the connection" in t for t in toasts(app)),
                        what="P3 lost on the game screen")
    finally:
        if odd_task is not None:
            odd_task.cancel()
            with contextlib.suppress(BaseException):
                await odd_task
        host_task.cancel()
        with contextlib.suppress(BaseException):
            await host_task
        await host.close()
