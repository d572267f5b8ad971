"""Pilot tests of LAN play in the app: the host lobby, joining by address, playing through
the host. Everything runs on 127.0.0.1 in the test's event loop; no zeroconf."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import time
from collections.abc import AsyncIterator, Callable

import pytest
from rich.color import ColorSystem
from textual.widgets import Input, OptionList

from core.wizwar import bot
from net.discovery import GameAd
from net.lan import HostGame, PeerGame
from net.session import NetSession
from wizwar_tui.app import WizWarApp
from wizwar_tui.lobby import JoinScreen, LobbyScreen, parse_address
from wizwar_tui.saves import verify_files
from wizwar_tui.wizwar.game import GameScreen
from wizwar_tui.wizwar.screens import GameOverScreen


@pytest.fixture(autouse=True)
def _data_home(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Seat tokens and desync reports go to a temporary folder, not the user's."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))


def host_args(**kw: object) -> argparse.Namespace:
    """``wizwar host`` arguments on loopback (never advertised), on a free port."""
    base: dict[str, object] = {"cmd": "host", "name": "test game", "port": 0,
                               "bind": "127.0.0.1", "seats": 2, "bots": 0, "clock": None,
                               "advertise": True}
    base.update(kw)
    return argparse.Namespace(**base)


async def until(pilot, cond: Callable[[], bool], timeout: float = 15.0,  # type: ignore[no-untyped-def]
                what: str = "condition") -> None:
    """Let the app and the net tasks run until ``cond()`` holds."""
    end = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}")
        await pilot.pause(0.02)


@contextlib.asynccontextmanager
async def hosting(host: HostGame) -> AsyncIterator[int]:
    """Start ``host`` and run it for the block (gives its port); cancel and close it after."""
    port = await host.start()
    task = asyncio.create_task(host.run())
    try:
        yield port
    finally:
        task.cancel()
        with contextlib.suppress(BaseException):
            await task
        await host.close()


async def type_action(pilot, app: WizWarApp, text: str) -> None:  # type: ignore[no-untyped-def]
    """Type ``text`` (notation without the actor: ``move c4``) on the game's command line
    and press Enter."""
    await pilot.press("colon")
    app.screen.query_one("#cmd", Input).value = text
    await pilot.press("enter")


def text_of(screen, wid: str) -> str:  # type: ignore[no-untyped-def]
    """The plain text a Static shows."""
    return str(screen.query_one(wid).render())


def test_parse_address() -> None:
    assert parse_address("127.0.0.1:7001") == ("127.0.0.1", 7001)
    assert parse_address("myhost") == ("myhost", 7654)
    assert parse_address("[::1]:80") == ("::1", 80)
    for bad in ("", "host:abc", "two words", "h:99999"):
        assert parse_address(bad) is None


async def test_host_lobby_then_bot_peer_joins_and_game_starts() -> None:
    app = WizWarApp(lan_args=host_args(), discovery=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), what="the lobby")
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen)
        seats = text_of(lobby, "#lobby-seats")
        assert "P1" in seats and "host" in seats and "P2" in seats and "free" in seats
        port = lobby.link.game.port
        assert port
        info = text_of(lobby, "#lobby-info")
        assert f"wizwar join 127.0.0.1:{port}" in info
        assert "starts by itself" in info
        peer = PeerGame("127.0.0.1", port, name="robot", bot_play=True)
        task = asyncio.create_task(peer.run())
        try:
            await until(pilot, lambda: isinstance(app.screen, GameScreen), what="the game")
            # the lobby (still under the game) saw the seat taken
            seats = text_of(lobby, "#lobby-seats")
            assert "robot" in seats and "online" in seats
            game = app.screen
            assert isinstance(game, GameScreen) and isinstance(game.session, NetSession)
            assert game.human == "P1"
            await until(pilot, lambda: bool(game.query("#board")) and game.board.view is not None,
                        what="the board")
            board = game.board.plain()
            assert "┌" in board and "1" in board and "2" in board
            players = text_of(game, "#players")
            assert "host" in players and "online" in players and "robot" in players
            assert "hosting on 127.0.0.1" in text_of(game, "#topbar")
            # the host's human plays one legal action through the app (it is committed)
            await until(pilot, lambda: game.human_to_act(), what="the host's turn")
            s = game.session
            n = len(s.actions)
            action = bot.choose(s.view(), s.human, s.legal_actions())
            await type_action(pilot, app, str(action).split(" ", 1)[1])
            await until(pilot, lambda: len(s.actions) > n, what="the commit")
            assert s.actions[n] == str(action)
            # the peer's core followed
            await until(pilot, lambda: peer.actions[: n + 1] == s.actions[: n + 1],
                        what="the peer to follow")
            # the app writes the game log as it goes (it replays to the same hashes)
            link = app.lan
            assert link is not None and link.save is not None
            lines: list[str] = []
            assert verify_files([link.save.path], echo=lines.append) == 0, lines
            # a peer that drops shows as offline
            assert peer.conn is not None
            task.cancel()
            with contextlib.suppress(BaseException):
                await task
            await peer.conn.close()
            await until(pilot, lambda: "offline" in text_of(game, "#players"),
                        what="the seat to show offline")
        finally:
            task.cancel()
            with contextlib.suppress(BaseException):
                await task


async def test_host_form_from_menu_refuses_bad_fields() -> None:
    app = WizWarApp(discovery=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        labels = [str(o.prompt).strip() for o in app.screen.query_one(OptionList).options]
        assert "Host a LAN game" in labels and "Join a LAN game" in labels
        app.screen.query_one(OptionList).highlighted = labels.index("Host a LAN game")
        await pilot.press("enter")
        await pilot.pause()
        form = app.screen
        form.query_one("#host-bots", Input).value = "2"
        form.query_one("#host-bind", Input).value = "127.0.0.1"
        form.query_one("#host-port", Input).value = "0"
        form.query_one("#host-name", Input).focus()
        await pilot.press("enter")
        await pilot.pause()
        assert "Bots" in text_of(form, "#host-error")
        form.query_one("#host-bots", Input).value = "0"
        form.query_one("#host-opt-players", Input).value = "3"
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), what="the lobby")
        seats = text_of(app.screen, "#lobby-seats")
        assert seats.count("free") == 2
        await pilot.press("escape")
        await until(pilot, lambda: app.lan is None and len(app.screen_stack) == 2,
                    what="back to the menu")


async def test_join_by_address_and_play_a_move() -> None:
    host = HostGame(players=2, local_bot=True, bind="127.0.0.1", port=0, name="bot host")
    port = await host.start()
    host_task = asyncio.create_task(host.run())  # (cancelled in the test: the host crashes)
    app = WizWarApp(discovery=False)
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            labels = [str(o.prompt) for o in app.screen.query_one(OptionList).options]
            app.screen.query_one(OptionList).highlighted = labels.index("Join a LAN game")
            await pilot.press("enter")
            await pilot.pause()
            join = app.screen
            assert isinstance(join, JoinScreen)
            addr = join.query_one("#join-addr", Input)
            assert join.query_one("#join-name", Input).has_focus  # the name first
            await pilot.press(*"alice", "tab")  # no games listed: Tab -> the address
            assert addr.has_focus
            await pilot.press(*f"127.0.0.1:{port}", "enter")
            await until(pilot, lambda: isinstance(app.screen, GameScreen), what="the game")
            game = app.screen
            assert isinstance(game, GameScreen)
            assert game.human == "P2"
            await until(pilot, lambda: bool(game.query("#board")) and game.board.view is not None,
                        what="the board")
            players = text_of(game, "#players")
            assert "alice" in players and "online" in players and "host" in players
            assert f"joined 127.0.0.1:{port}" in text_of(game, "#topbar")
            s = game.session
            # P1 (the host's bot) may go first: wait for our turn, then end it via ':'
            await until(pilot, lambda: game.human_to_act(), what="our turn", timeout=20)
            if any(a.verb == "end" for a in s.legal_actions()):
                text = "end"
            else:
                action = bot.choose(s.view(), s.human, s.legal_actions())
                text = str(action).split(" ", 1)[1]
            n = len(host.actions)
            await type_action(pilot, app, text)
            await until(pilot, lambda: len(host.actions) > n, what="the host's commit")
            assert host.actions[n] == f"P2 {text}"
            await until(pilot, lambda: len(s.actions) > n, what="the commit to come back")
            assert game.pending is None
            assert f"P2 {text}" in s.actions
            # the host goes away: the app says so instead of crashing
            app.lan.retries = 1  # type: ignore[union-attr]
            host_task.cancel()
            with contextlib.suppress(BaseException):
                await host_task
            # a crash, not a close: the listening socket and the connections just die
            assert host._server is not None
            host._server.close()
            for seat in host.seats:
                if seat.conn is not None:
                    seat.conn.writer.transport.abort()
            await until(pilot, lambda: "rejoin with" in text_of(game, "#status"),
                        what="the lost-host message", timeout=15)
            assert f"wizwar join 127.0.0.1:{port}" in text_of(game, "#status")
            # the header no longer speaks of a turn that cannot go on (issue 12: stale text)
            await until(pilot, lambda: "the game has stopped" in text_of(game, "#topbar"),
                        what="the header to say the game stopped", timeout=5)
            top = text_of(game, "#topbar")
            assert "your turn" not in top and "is acting" not in top
            assert isinstance(app.screen, GameScreen)
            assert not isinstance(app.screen, GameOverScreen)
    finally:
        host_task.cancel()
        with contextlib.suppress(BaseException):
            await host_task
        await host.close()


async def test_join_unreachable_address_says_why() -> None:
    app = WizWarApp(discovery=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        app.open_join(name="bob")
        await pilot.pause()
        join = app.screen
        assert isinstance(join, JoinScreen)
        join.query_one("#join-addr", Input).value = "127.0.0.1:1"
        join.query_one("#join-addr", Input).focus()
        await pilot.press("enter")
        await until(pilot, lambda: "cannot join" in text_of(join, "#join-error"),
                    what="the error")
        assert app.screen is join


def test_parse_address_refuses_what_names_no_machine() -> None:
    """``2`` or ``192.168.1`` are not addresses a player means (the C resolver would take
    them as 0.0.0.2 and 192.168.0.1): refused, so the join screen can say so."""
    for bad in ("2", "2:7654", "192.168.1", "300.1.1.1:80", "-x", "fe80::1"):
        assert parse_address(bad) is None, bad
    assert parse_address("192.168.1.20") == ("192.168.1.20", 7654)
    assert parse_address("my-box.lan:99") == ("my-box.lan", 99)


def _found(name: str = "duel", port: int = 7001) -> GameAd:
    """A game as the LAN browser reports it (nothing is looked up)."""
    return GameAd(name=name, host="127.0.0.1", port=port, proto=1, ruleset="wizwar/1",
                  options="players=2", seats_taken=1, seats_free=1, service=f"{name}._x")


async def test_join_screen_starts_in_the_name_and_shows_the_focused_field() -> None:
    """The join form: the name first; the focused field's row stands out (its label turns
    gold, the field's colour differs even in 256 colours); with no game found Tab goes
    name -> address (the empty list is skipped)."""
    app = WizWarApp(discovery=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        app.open_join(name="bob")
        await pilot.pause()
        join = app.screen
        assert isinstance(join, JoinScreen)
        name, addr = join.query_one("#join-name", Input), join.query_one("#join-addr", Input)
        assert app.focused is name
        labels = list(join.query(".form-label"))
        assert labels[0].rich_style.color != labels[1].rich_style.color
        assert labels[0].rich_style.bold and not labels[1].rich_style.bold
        eight_bit = ColorSystem.EIGHT_BIT
        assert name.rich_style.bgcolor.downgrade(eight_bit) != \
            addr.rich_style.bgcolor.downgrade(eight_bit)
        await pilot.press("tab")
        await pilot.pause()
        assert app.focused is addr
        assert labels[1].rich_style.bold and not labels[0].rich_style.bold


async def test_join_screen_games_list_shows_focus_and_keeps_typed_keys() -> None:
    """With a game found, Tab goes name -> games list -> address; the focused list's border
    changes colour, and a letter typed on it goes to the address field, not lost."""
    app = WizWarApp(discovery=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        app.push_screen(JoinScreen(name="bob", discover=False, games=[_found()]))
        await pilot.pause()
        join = app.screen
        lst = join.query_one("#join-games", OptionList)
        blurred = lst.styles.border_top
        assert app.focused is join.query_one("#join-name", Input)
        await pilot.press("tab")
        await pilot.pause()
        assert app.focused is lst
        assert lst.styles.border_top != blurred
        await pilot.press("1", "0")
        addr = join.query_one("#join-addr", Input)
        assert app.focused is addr and addr.value == "10"


async def test_join_screen_says_why_an_address_is_refused() -> None:
    """Enter on ``2`` (or nothing) in the address field says what is wrong; no join."""
    app = WizWarApp(discovery=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        app.open_join(name="bob")
        await pilot.pause()
        join = app.screen
        join.query_one("#join-addr", Input).focus()
        await pilot.press("enter")
        assert "Type the host's address" in text_of(join, "#join-error")
        await pilot.press("2", "enter")
        await pilot.pause()
        assert "\u201c2\u201d is not an address" in text_of(join, "#join-error")
        assert app.screen is join and app.lan is None


async def test_join_screen_takes_a_name_of_forty_letters() -> None:
    """The name field keeps the whole name the protocol allows (40, net/lan.py
    clean_name), says the limit, and joins under it."""
    app = WizWarApp(discovery=False)
    joined: list[str] = []
    app.join_lan = lambda host, port, name, retries=5: joined.append(name)  # type: ignore[method-assign]
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        app.open_join(name="bob")
        await pilot.pause()
        join = app.screen
        long = "Archmage Zoltan of the Seventh Sector !!"  # 40 letters
        await pilot.press(*long, "x", "y")
        assert join.query_one("#join-name", Input).value == long
        assert "up to 40" in str(join.query_one("#join-name-hint").render())
        await pilot.press("tab", *"127.0.0.1:7001", "enter")
        assert joined == [long]


async def test_desync_shows_the_report_path() -> None:
    host = HostGame(players=2, local_bot=True, bind="127.0.0.1", port=0)
    app = WizWarApp(discovery=False)
    async with hosting(host) as port, app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        app.join_lan("127.0.0.1", port, "dora", retries=0)
        await until(pilot, lambda: isinstance(app.screen, GameScreen), what="the game")
        game = app.screen
        assert isinstance(game, GameScreen)
        await until(pilot, lambda: game.human_to_act(), what="our turn", timeout=20)
        assert host.state is not None
        host.state.wizards[0].life -= 1  # the host cheats: the peer's core notices
        s = game.session
        action = bot.choose(s.view(), s.human, s.legal_actions())
        await type_action(pilot, app, str(action).split(" ", 1)[1])
        await until(pilot, lambda: "desync" in text_of(game, "#status"),
                    what="the desync message")
        status = text_of(game, "#status")
        assert "report in" in status and "desync-seq" in status
        assert not game.human_to_act()
        assert isinstance(app.screen, GameScreen)  # no game-over screen for a desync


async def _play_one(pilot, app, game: GameScreen) -> None:  # type: ignore[no-untyped-def]
    """Our seat plays one legal action through the command line; waits for its commit."""
    await until(pilot, lambda: game.human_to_act(), what="our turn", timeout=30)
    s = game.session
    n = len(s.actions)
    action = bot.choose(s.view(), s.human, s.legal_actions())
    await type_action(pilot, app, str(action).split(" ", 1)[1])
    await until(pilot, lambda: len(s.actions) > n, what="the commit")


async def test_rejoining_in_the_same_app_continues_the_game_log(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A joined player who leaves and joins the same game again (same name: the seat token
    takes the seat back) keeps one log file: the rejoin appends the actions after the
    ones it holds; ``wizwar verify`` passes on it and it holds every action."""
    from wizwar_tui.saves import games_dir, list_saved

    host = HostGame(players=2, local_bot=True, bind="127.0.0.1", port=0, name="bot host")
    app = WizWarApp(discovery=False)
    async with hosting(host) as port, app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        app.join_lan("127.0.0.1", port, "alice", retries=0)
        await until(pilot, lambda: isinstance(app.screen, GameScreen), what="the game")
        first = app.screen
        assert isinstance(first, GameScreen)
        await _play_one(pilot, app, first)
        link = app.lan
        assert link is not None and link.save is not None
        path = link.save.path
        app.leave_lan()
        await until(pilot, lambda: not host.seats[1].connected, what="the seat to free")
        app.join_lan("127.0.0.1", port, "alice", retries=0)
        await until(pilot, lambda: isinstance(app.screen, GameScreen)
                    and app.screen is not first, what="the game again")
        again = app.screen
        assert isinstance(again, GameScreen) and again.human == "P2"
        await _play_one(pilot, app, again)
        await until(pilot, lambda: len(again.session.actions) == len(host.actions),
                    what="caught up")
        assert app.lan is not None and app.lan.save is not None
        assert app.lan.save.path == path
        logs = [f for f in os.listdir(games_dir()) if f.endswith(".wwlog")]
        assert logs == [os.path.basename(path)]
        lines: list[str] = []
        assert verify_files([path], echo=lines.append) == 0, lines
        assert f"PASS {path}: {len(host.actions)} actions" in lines[0]
        assert [g.actions for g in list_saved()] == [len(host.actions)]


# ------------------------------------------------------------------ typing ahead, leaving
class GatedHost(HostGame):
    """A host that commits only as many actions as the test allows (``allow``): the test
    decides when the host answers, so keys are surely pressed before the answer."""

    def __post_init__(self) -> None:
        super().__post_init__()
        self.allow = 10**9
        self._gate = asyncio.Condition()

    async def let(self, n: int) -> None:
        """Allow ``n`` more commits (``allow`` is set to exactly ``n``)."""
        async with self._gate:
            self.allow = n
            self._gate.notify_all()

    async def commit(self, action, reveals=None) -> None:  # type: ignore[no-untyped-def]
        async with self._gate:
            await self._gate.wait_for(lambda: self.allow > 0)
            self.allow -= 1
        await super().commit(action, reveals)


def two_steps(game: GameScreen) -> tuple[str, str]:
    """Squares A, B: A next to our wizard, B next to A but two steps from the wizard (so a
    walk to B computed before the move to A would not be the one step ``move B``)."""
    from wizwar_tui.wizwar import render

    reach = render.reachable(game.view)
    for path in reach.values():
        if len(path) == 2:
            return render.square_name(path[0]), render.square_name(path[1])
    raise AssertionError("no two-step walk from our wizard")


async def _joined_game(pilot, app, host: GatedHost):  # type: ignore[no-untyped-def]
    """The app joins ``host`` as P2 and waits for P2's turn; then the host holds commits."""
    app.join_lan("127.0.0.1", host.port, "alice", retries=0)
    await until(pilot, lambda: isinstance(app.screen, GameScreen), what="the game")
    game = app.screen
    assert isinstance(game, GameScreen)
    await until(pilot, lambda: game.human_to_act() and game.view.moves_left >= 3,
                what="the start of our turn", timeout=30)
    from wizwar_tui.wizwar.widgets import HandPanel

    # the turn can come before the screen's nested panels are mounted (a fast host)
    await until(pilot, lambda: bool(game.query(HandPanel)), what="the hand panel")
    await host.let(0)
    return game


async def test_keys_typed_ahead_are_done_when_the_host_answers() -> None:
    """Two moves and an end typed before the host has answered the first: all three are
    committed, in order, the second walk computed from where the first one ended."""
    host = GatedHost(players=2, local_bot=True, bind="127.0.0.1", port=0)
    app = WizWarApp(discovery=False)
    async with hosting(host), app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        game = await _joined_game(pilot, app, host)
        a, b = two_steps(game)
        n = len(host.actions)
        await type_action(pilot, app, f"move {a}")
        assert game.pending is not None
        from core.wizwar.board import parse_square

        game.board.cursor = parse_square(b)
        await pilot.press("m")  # walk to B: typed ahead
        await pilot.press("e")  # end the turn: typed ahead
        status = text_of(game, "#status")
        assert "then:" in status and f"walk/choose {b}" in status \
            and "end turn" in status, status
        assert "Wait" not in status and len(host.actions) == n
        await host.let(10**9)
        await until(pilot, lambda: len(host.actions) >= n + 3, what="three commits")
        assert host.actions[n:n + 3] == [f"P2 move {a}", f"P2 move {b}", "P2 end"]
        assert not game.queued


async def test_a_typed_ahead_key_no_longer_possible_is_refused() -> None:
    """A step typed ahead that the first move made impossible is refused with the rules'
    reason once the host has answered; the key typed after it is dropped."""
    from wizwar_tui.wizwar import render

    host = GatedHost(players=2, local_bot=True, bind="127.0.0.1", port=0)
    app = WizWarApp(discovery=False)
    async with hosting(host), app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        game = await _joined_game(pilot, app, host)
        steps = [p[0] for p in render.reachable(game.view).values() if len(p) == 1]
        a, c = next((a, c) for a in steps for c in steps
                    if abs(a[0] - c[0]) + abs(a[1] - c[1]) > 1)
        a_name, c_name = render.square_name(a), render.square_name(c)
        n = len(host.actions)
        for text in (f"move {a_name}", f"move {c_name}"):
            await type_action(pilot, app, text)
        await pilot.press("e")
        assert len(game.queued) == 2
        await host.let(10**9)
        await until(pilot, lambda: "Not allowed" in text_of(game, "#status"),
                    what="the refusal of the second step")
        status = text_of(game, "#status")
        assert "1 key typed ahead dropped" in status, status
        assert host.actions[n:] == [f"P2 move {a_name}"] and not game.queued
        assert game.human_to_act()  # still our turn: the dropped end was not done


async def test_discards_typed_ahead_take_the_card_selected_when_done() -> None:
    """``x x`` typed while the first discard is with the host discards two cards, as in a
    local game (the second key once named the card the first one discarded, and was
    refused: "you hold no ...")."""
    from wizwar_tui.wizwar.widgets import HandPanel

    host = GatedHost(players=2, local_bot=True, bind="127.0.0.1", port=0)
    app = WizWarApp(discovery=False)
    async with hosting(host), app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        game = await _joined_game(pilot, app, host)
        hand = game.query_one(HandPanel)
        before = list(game.view.hand)
        n = len(host.actions)
        await pilot.press("x")  # discards the selected card: sent
        assert game.pending is not None
        await pilot.press("x")  # typed ahead
        assert len(game.queued) == 1 and "discard the selected card" in text_of(
            game, "#status")
        await host.let(10**9)
        await until(pilot, lambda: len(host.actions) >= n + 2, what="two discards")
        first, second = host.actions[n:n + 2]
        assert first.startswith("P2 discard ") and second.startswith("P2 discard ")
        gone = [first.split()[-1], second.split()[-1]]
        left = list(before)
        for slug in gone:
            left.remove(slug)  # each discarded card was in the hand: two cards gone
        await until(pilot, lambda: sorted(game.view.hand) == sorted(left),
                    what="the hand without the two discards")  # applied after the host's hash
        assert sorted(game.view.hand) == sorted(left) and hand.selected()
        assert "Not allowed" not in text_of(game, "#status")


async def test_a_message_does_not_outlive_its_turn() -> None:
    """A refusal said during the other player's turn gives way to the prompt when our turn
    comes."""
    host = GatedHost(players=2, local_bot=True, bind="127.0.0.1", port=0)
    app = WizWarApp(discovery=False)
    async with hosting(host), app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        game = await _joined_game(pilot, app, host)
        s = game.session
        await pilot.press("e")
        while "P2" in s.to_move():  # the end of the turn may ask for discards
            n = len(s.actions)
            await host.let(1)
            await until(pilot, lambda n=n: len(s.actions) > n and game.pending is None,
                        what="a commit")
            if game.human_to_act():
                action = bot.choose(s.view(), s.human, s.legal_actions())
                game.do(action)
        assert s.to_move() == ["P1"]  # held by the host
        await pilot.press("p")
        assert "it is P1's turn" in text_of(game, "#status")
        await host.let(10**9)
        await until(pilot, lambda: game.human_to_act(), what="our turn again",
                    timeout=30)
        await pilot.pause()
        assert "Not possible" not in text_of(game, "#status")


async def test_typing_ahead_is_bounded() -> None:
    host = GatedHost(players=2, local_bot=True, bind="127.0.0.1", port=0)
    app = WizWarApp(discovery=False)
    async with hosting(host), app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        game = await _joined_game(pilot, app, host)
        await pilot.press("e")
        from wizwar_tui.wizwar.game import TYPE_AHEAD_MAX

        for _ in range(TYPE_AHEAD_MAX + 2):
            await pilot.press("p")
        assert len(game.queued) == TYPE_AHEAD_MAX
        assert "already wait for the host" in text_of(game, "#status")


async def test_joined_lobby_names_the_players_and_leaving_asks() -> None:
    """A joined player's lobby shows who sits where; once dealt, Ctrl+Q asks before
    leaving the game (n stays, y leaves: the host sees the seat disconnected)."""
    from wizwar_tui.lobby import ConfirmScreen

    host = HostGame(players=3, local_bot=True, bind="127.0.0.1", port=0)
    port = await host.start()
    host_task = asyncio.create_task(host.run())
    robot = PeerGame("127.0.0.1", port, name="robot", bot_play=True)
    robot_task: asyncio.Task | None = None
    app = WizWarApp(discovery=False)
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            app.join_lan("127.0.0.1", port, "alice", retries=0)
            def our_seat_shown() -> bool:
                screen = app.screen
                return isinstance(screen, LobbyScreen) and bool(screen.query("#lobby-seats")) \
                    and "alice (you)" in text_of(screen, "#lobby-seats")

            await until(pilot, our_seat_shown, what="our seat in the lobby")
            lobby = app.screen
            seats = text_of(lobby, "#lobby-seats").splitlines()
            assert "host" in seats[0] and "free" in seats[2], seats
            robot_task = asyncio.create_task(robot.run())
            await until(pilot, lambda: "robot" in text_of(lobby, "#lobby-seats"),
                        what="the other player's name")
            await until(pilot, lambda: isinstance(app.screen, GameScreen), what="the game")
            await pilot.press("ctrl+q")
            await pilot.pause()
            assert isinstance(app.screen, ConfirmScreen)
            assert "Leave the game?" in text_of(app.screen, "#confirm-question")
            assert f"wizwar join 127.0.0.1:{port}" in text_of(app.screen, "#confirm-note")
            await pilot.press("n")
            await pilot.pause()
            assert isinstance(app.screen, GameScreen) and app.is_running
            await pilot.press("ctrl+q")
            await pilot.pause()
            assert app.return_code is None
            await pilot.press("y")
            assert app.return_code == 0
        await asyncio.wait_for(_seat_gone(host, "P2"), 15)
    finally:
        for t in (robot_task, host_task):
            if t is not None:
                t.cancel()
                with contextlib.suppress(BaseException):
                    await t
        await host.close()


async def _seat_gone(host: HostGame, seat: str) -> None:
    while host.seat_status()[seat] != "disconnected":
        await asyncio.sleep(0.05)


async def test_the_host_is_asked_before_ending_the_game_for_everyone() -> None:
    """The hosting app: Esc in the lobby and Ctrl+Q in the game ask "End the game for all
    players?" once someone has joined; n keeps the game, Ctrl+Q twice quits and the peer
    is told the host closed the game."""
    from net.lan import HostClosed
    from wizwar_tui.lobby import ConfirmScreen

    app = WizWarApp(lan_args=host_args(seats=3), discovery=False)
    peers: list[asyncio.Task] = []
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), what="the lobby")
        assert app.return_code is None
        await pilot.press("ctrl+q")  # nobody has joined: nothing to ask, it quits
        assert app.return_code == 0 and not isinstance(app.screen, ConfirmScreen)

    app = WizWarApp(lan_args=host_args(seats=3), discovery=False)
    first = PeerGame("127.0.0.1", 0, name="robot", bot_play=True)
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen), what="the lobby")
            lobby = app.screen
            port = lobby.link.game.port
            first.port = port
            peers.append(asyncio.create_task(first.run()))
            await until(pilot, lambda: "robot" in text_of(lobby, "#lobby-seats"),
                        what="a player in the lobby")
            await pilot.press("escape")
            await pilot.pause()
            assert isinstance(app.screen, ConfirmScreen)
            assert "End the game for all players?" in text_of(app.screen, "#confirm-question")
            await pilot.press("n")
            await pilot.pause()
            assert app.screen is lobby and app.lan is not None
            second = PeerGame("127.0.0.1", port, name="robby", bot_play=True)
            peers.append(asyncio.create_task(second.run()))
            await until(pilot, lambda: isinstance(app.screen, GameScreen), what="the game")
            await pilot.press("ctrl+q")
            await pilot.pause()
            assert isinstance(app.screen, ConfirmScreen)
            assert "End the game for all players?" in text_of(app.screen, "#confirm-question")
            await pilot.press("escape")
            await pilot.pause()
            assert isinstance(app.screen, GameScreen) and app.is_running
            await pilot.press("ctrl+q")
            await pilot.pause()
            assert app.return_code is None
            await pilot.press("ctrl+q")  # twice: quit at once
            assert app.return_code == 0
        with pytest.raises(HostClosed):
            await asyncio.wait_for(peers[0], 15)
    finally:
        for t in peers:
            t.cancel()
            with contextlib.suppress(BaseException):
                await t


def test_connection_problems_in_plain_words() -> None:
    """A failed join says why in words, not the socket's errno text."""
    import socket

    from wizwar_tui.lobby import connect_problem

    assert "nothing is listening" in connect_problem(
        ConnectionRefusedError(111, "Connect call failed ('127.0.0.1', 7702)"))
    assert connect_problem(socket.gaierror(-2, "Name or service not known")) == \
        "no such host name"
    assert "Errno" not in connect_problem(OSError(113, "No route to host"))


async def test_host_form_takes_the_options_of_the_schema() -> None:
    """The host form has a field per option of the ruleset's schema and refuses a combination
    in the ruleset's words (crossed exits with three players)."""
    from core.wizwar.ruleset import RULESET

    app = WizWarApp(discovery=False)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        app.open_host_form()
        await pilot.pause()
        form = app.screen
        for o in RULESET.options:
            assert form.query_one(f"#host-opt-{o.name}", Input)
        form.query_one("#host-opt-players", Input).value = "3"
        form.query_one("#host-opt-crossed", Input).value = "yes"
        form.query_one("#host-port", Input).value = "0"
        form.query_one("#host-name", Input).focus()
        await pilot.press("enter")
        await pilot.pause()
        assert "Crossed exits are a 2-player variant" in text_of(form, "#host-error")
        assert app.lan is None
        form.query_one("#host-opt-players", Input).value = "five"
        await pilot.press("enter")
        await pilot.pause()
        assert "Players (players): 'five' is not allowed; use 2, 3 or 4" in \
            text_of(form, "#host-error")


async def test_join_by_a_game_name_not_found_says_so() -> None:
    """``wizwar join nosuchgame`` (issue 12): the name is a game to look for, not put in
    the address field; with no such game found the form says so in words."""
    app = WizWarApp(discovery=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        app.open_join(name="bob", target="nosuchgame")
        await pilot.pause()
        join = app.screen
        assert isinstance(join, JoinScreen)
        assert join.query_one("#join-addr", Input).value == ""
        err = join.query_one("#join-error")
        assert err.display and "No game named \u201cnosuchgame\u201d found" in str(err.render())
    assert JoinScreen(target="10.0.0.2").auto_join == ""  # an address alone is no name
