"""Pilot tests of games dealt by mental poker in the app (issue 15): hosting one from the
host form (a bot on the host's machine, a joiner), joining one from the Join screen, the
moves played through the game screen on the process's own partial state. Everything runs
on 127.0.0.1 in the test's event loop; no zeroconf."""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from collections.abc import Callable
from typing import Any

import pytest
from textual.widgets import Input, OptionList

import net.poker
from core import log, registry
from core.wizwar import bot
from net.poker import Player, PokerHost, join
from net.poker_session import PokerSession
from wizwar_tui.app import WizWarApp
from wizwar_tui.lobby import HostFormScreen, JoinScreen, LobbyScreen
from wizwar_tui.pokerlink import PokerLink
from wizwar_tui.wizwar.game import GameScreen


@pytest.fixture(autouse=True)
def _data_home(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Keys, logs and reports go to a temporary folder, not the user's."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setattr(net.poker, "WAIT", 60.0)


def _bot(st: Any, seat: str) -> Any:
    return registry.get("wizwar").bot_act(st, seat)


def _joiner(tmp: Any, seed: str) -> Player:
    async def nothing(_m: Any) -> None:
        raise AssertionError("not joined")

    async def none() -> None:
        return None

    return Player(registry.get("wizwar"), nothing, none, choose=_bot, seed=seed,
                  log_dir=str(tmp / "joiner-logs"))


async def until(pilot: Any, cond: Callable[[], bool], timeout: float = 60.0,
                what: str = "condition") -> None:
    """Let the app and the net tasks run until ``cond()`` holds."""
    end = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}")
        await pilot.pause(0.02)


async def shown(pilot: Any, game: Any) -> None:
    """Wait for the game screen's board to be drawn."""
    await until(pilot, lambda: bool(game.query("#board")) and game.board.view is not None,
                what="the board")


def text_of(screen: Any, wid: str) -> str:
    """The plain text a Static shows."""
    return str(screen.query_one(wid).render())


async def play_moves(pilot: Any, app: WizWarApp, game: GameScreen, count: int,
                     others: Callable[[], int]) -> None:
    """Our seat plays ``count`` legal actions through the command line (the others play
    theirs meanwhile); each is applied by this process and by the other process
    (``others()``: how many actions it applied)."""
    s = game.session
    for _ in range(count):
        await until(pilot, lambda: game.human_to_act(), what="our turn")
        n = len(s.actions)
        action = bot.choose(s.view(), s.human, s.legal_actions())
        await pilot.press("colon")
        app.screen.query_one("#cmd", Input).value = str(action).split(" ", 1)[1]
        await pilot.press("enter")
        await until(pilot, lambda n=n: len(s.actions) > n, what="the action applied")
        assert s.actions[n] == str(action)
        await until(pilot, lambda n=n: others() > n, what="the other process to apply it")


async def test_host_a_poker_game_from_the_form_with_a_bot_and_a_joiner(tmp_path: Any) -> None:
    app = WizWarApp(discovery=False)
    joiner = _joiner(tmp_path, "app-host:joiner")
    task: asyncio.Task[Any] | None = None
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            menu = app.screen.query_one(OptionList)
            labels = [str(o.prompt).strip() for o in menu.options]
            menu.highlighted = labels.index("Host a LAN game")
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, HostFormScreen), what="form")
            form = app.screen
            # mental poker is the default whenever two or more people play
            assert form.query_one("#host-dealer", Input).value == "poker"
            form.query_one("#host-opt-players", Input).value = "3"
            form.query_one("#host-bots", Input).value = "1"
            form.query_one("#host-bind", Input).value = "127.0.0.1"
            form.query_one("#host-port", Input).value = "0"
            form.query_one("#host-dealer", Input).value = "cards"
            form.query_one("#host-name", Input).focus()
            await pilot.press("enter")
            await pilot.pause()
            assert "Dealer: poker" in text_of(form, "#host-error")  # a word it does not know
            form.query_one("#host-dealer", Input).value = "mental poker"
            form.query_one("#host-name", Input).focus()
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen), what="the lobby")
            lobby = app.screen
            link = lobby.link
            assert isinstance(link, PokerLink) and link.host is not None
            info = text_of(lobby, "#lobby-info")
            assert "Dealer: mental poker (each hand readable only on its owner's machine)" \
                in info
            assert "P3 (bot) on P1's machine" in info
            seats = text_of(lobby, "#lobby-seats")
            assert "P2" in seats and "free" in seats and "bot" in seats
            port = link.host.port
            assert f"wizwar join 127.0.0.1:{port}" in info
            task = asyncio.ensure_future(join(joiner, "127.0.0.1", port, "bob"))
            await until(pilot, lambda: isinstance(app.screen, GameScreen), what="the game")
            game = app.screen
            await shown(pilot, game)
            assert isinstance(game, GameScreen) and isinstance(game.session, PokerSession)
            assert game.human == "P1" and game.net
            assert "bob" in text_of(game, "#players")
            # the screen renders this process's view only: the joiner's hand is not known
            host_state = link.game.state
            assert not any(host_state.faces[c] for c in host_state.wizard("P2").hand
                           if c not in host_state.public_cards())
            await play_moves(pilot, app, game, 3, lambda: len(joiner.records))
            # both processes went through the same states (one hash per action)
            both = min(len(joiner.records), len(link.game.records))
            assert both >= 3 and [r["hash"] for r in joiner.records[:both]] == \
                [r["hash"] for r in link.game.records[:both]]
            # the host's log is written as the game goes and replays to where it is
            loaded = log.read(open(link.game.log_path, "rb").read())
            assert loaded.header["extra"]["dealer"] == "poker"
            log.replay(loaded)
    finally:
        if task is not None:
            task.cancel()
            with contextlib.suppress(BaseException):
                await task


async def test_join_a_poker_game_from_the_join_screen(tmp_path: Any) -> None:
    rs = registry.get("wizwar")
    host = PokerHost(rs, players=2, choose=_bot, bind="127.0.0.1", seed="app-join",
                     log_dir=str(tmp_path / "host-logs"))
    port = await host.start()
    run = asyncio.ensure_future(host.run())
    app = WizWarApp(discovery=False)
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            menu = app.screen.query_one(OptionList)
            labels = [str(o.prompt).strip() for o in menu.options]
            menu.highlighted = labels.index("Join a LAN game")
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, JoinScreen), what="join")
            await pilot.press(*"alice", "tab")
            await pilot.press(*f"127.0.0.1:{port}", "enter")
            # the host refuses a joiner that does not deal by poker: the app joins as one
            await until(pilot, lambda: isinstance(app.lan, PokerLink), what="a poker join")
            await until(pilot, lambda: isinstance(app.screen, GameScreen), what="the game")
            game = app.screen
            await shown(pilot, game)
            assert isinstance(game, GameScreen) and game.human == "P2"
            assert "alice" in text_of(game, "#players")
            lobby = next(s for s in app.screen_stack if isinstance(s, LobbyScreen))
            assert "Dealer: mental poker" in text_of(lobby, "#lobby-info")
            await play_moves(pilot, app, game, 2, lambda: len(host.player.records))
            assert host.procs[1].name == "alice"
            mine = app.lan.game  # type: ignore[union-attr]
            both = min(len(mine.records), len(host.player.records))
            assert [r["hash"] for r in mine.records[:both]] == \
                [r["hash"] for r in host.player.records[:both]]
            # the host's hand is not known in this process: the screen cannot show it
            st = mine.state
            assert not any(st.faces[c] for c in st.wizard("P1").hand
                           if c not in st.public_cards())
    finally:
        run.cancel()
        with contextlib.suppress(BaseException):
            await run
        await host.close()


async def test_the_join_screen_lists_a_poker_game_with_its_dealer() -> None:
    from net.discovery import GameAd

    ads = [GameAd("poker night", "10.0.0.2", 7654, 5, "wizwar/3", "players=2", 1, 1,
                  "poker night._wizwar._tcp.local.", ("10.0.0.2",), dealer="poker"),
           GameAd("quick", "10.0.0.3", 7654, 5, "wizwar/3", "players=2", 1, 1,
                  "quick._wizwar._tcp.local.", ("10.0.0.3",), dealer="host")]
    app = WizWarApp(discovery=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        app.push_screen(JoinScreen(games=ads, discover=False))
        await until(pilot, lambda: isinstance(app.screen, JoinScreen), what="join")
        await pilot.pause()
        lines = [str(o.prompt) for o in app.screen.query_one("#join-games", OptionList).options]
        assert "mental poker" in lines[0] and "mental poker" not in lines[1]
        assert "host deals" in lines[1]
        # choosing it joins as a poker process at once
        calls: list[tuple[Any, ...]] = []
        app.join_poker = lambda *a, **k: calls.append((*a, k))  # type: ignore[method-assign]
        lst = app.screen.query_one("#join-games", OptionList)
        lst.focus()
        lst.highlighted = 0
        await pilot.press("enter")
        await pilot.pause()
        assert calls == [("10.0.0.2", 7654, "guest", {"game": "wizwar"})]


def test_wizwar_host_dealer_poker_runs_in_the_app_and_refuses_a_clock(
        capsys: pytest.CaptureFixture[str]) -> None:
    """``wizwar host --dealer poker`` is the app's now (``net.cli.run`` hands it over);
    with ``--clock`` it is refused in words (a poker game has no answer clock yet)."""
    from net.cli import prepare, run
    from wizwar_tui.cli import build_parser

    rs = registry.get("wizwar")
    p = build_parser(dict.fromkeys(("play", "host", "selfplay"), rs))
    args = p.parse_args(["host", "--dealer", "poker"])
    prepare(p, args)
    assert run(args) is None  # the app hosts it
    args = p.parse_args(["host", "--dealer", "poker", "--clock", "20"])
    prepare(p, args)
    assert run(args) == 2
    assert "no answer clock" in capsys.readouterr().err
    args = p.parse_args(["host", "--dealer", "poker", "--ssh", "2222"])
    prepare(p, args)
    assert run(args) == 2
    assert "the host deals it" in capsys.readouterr().err


async def test_the_lobby_of_a_game_the_host_deals_says_so() -> None:
    """The trusted host's dealer stays an option; its lobby says it can read every hand."""
    app = WizWarApp(discovery=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        app.host_lan(name="fast", seats=2, bots=0, port=0, bind="127.0.0.1", dealer="host")
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), what="the lobby")
        await pilot.pause()
        assert not isinstance(app.lan, PokerLink)
        assert "Dealer: the host (it can read every hand; faster)" in text_of(
            app.screen, "#lobby-info")


async def _kill_host(host: PokerHost, hosting: asyncio.Future[Any]) -> None:
    """The host's process is gone (as in tests/test_poker_handover.py): its relay and its
    player stop, every link of it closes."""
    hosting.cancel()
    assert host.player_task is not None
    host.player_task.cancel()
    for t in (hosting, host.player_task):
        with contextlib.suppress(BaseException):
            await t
    await host.close()


async def test_an_app_joiner_plays_on_when_the_host_dies_and_comes_back(
        tmp_path: Any) -> None:
    """Issue 15, the app's hand-over: the app joins a 3-seat poker game from the Join
    screen (P2, the lowest process after the host's), a headless bot joins (P3); the host's
    process is killed mid-game. The app's process sequences the game and its log says so
    in words; the game waits for the host's keys; the host's process comes back from its
    kept keys (``come_back``) and the person plays on through the same screen, every
    process on one hash."""
    from net.handover import come_back, play

    rs = registry.get("wizwar")
    hkeys = str(tmp_path / "hkeys")
    host = PokerHost(rs, players=3, choose=_bot, bind="127.0.0.1", seed="app-ho",
                     keys_dir=hkeys, log_dir=str(tmp_path / "host-logs"))
    port = await host.start()
    hosting = asyncio.ensure_future(host.run())
    bot3 = _joiner(tmp_path, "app-ho:3")
    bot3_said: list[str] = []
    bot3.log = bot3_said.append
    tasks: list[asyncio.Future[Any]] = []
    app = WizWarApp(discovery=False)
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            menu = app.screen.query_one(OptionList)
            labels = [str(o.prompt).strip() for o in menu.options]
            menu.highlighted = labels.index("Join a LAN game")
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, JoinScreen), what="join")
            await pilot.press(*"alice", "tab")
            await pilot.press(*f"127.0.0.1:{port}", "enter")
            await until(pilot, lambda: len(host.procs) >= 2, what="the app seated")
            tasks.append(asyncio.ensure_future(play(bot3, "127.0.0.1", port, "bot3")))
            await until(pilot, lambda: isinstance(app.screen, GameScreen), what="the game")
            game = app.screen
            assert isinstance(game, GameScreen)
            await shown(pilot, game)
            assert game.human == "P2"
            link = app.lan
            assert isinstance(link, PokerLink)
            mine = link.player
            await play_moves(pilot, app, game, 2, lambda: len(bot3.records))
            kept = host.player.keys_path
            assert kept is not None
            before = len(mine.records)
            await _kill_host(host, hosting)
            await until(pilot, lambda: any("the host P1 is gone" in m for m in link.messages),
                        what="the app to say the host is gone")
            said = "\n".join(link.messages)
            assert "the host P1 is gone; this process relays the game now" in said, said
            assert "waiting for P1's keys" in said, said
            await until(pilot, lambda: "the host P1 is gone; P2 relays the game now" in
                        bot3_said, what="the bot's process to reach P2's")
            await until(pilot, lambda: any("P1's keys" in str(t) for t in game.log_texts),
                        what="the game screen's log to say it")
            assert link.phase == "playing" and not link.problem
            assert link.session.seat_status()["P1"] == "disconnected"
            hint = link.rejoin_hint()  # the Leave dialog: how this seat is taken back
            assert hint == f"wizwar join --back {mine.keys_path}", hint
            assert mine.keys_path and os.path.exists(mine.keys_path)
            back = Player(rs, host.player.send, host.player.recv, choose=_bot,
                          keys_dir=hkeys, log_dir=str(tmp_path / "back-logs"),
                          rejoin_from=kept)
            tasks.append(asyncio.ensure_future(come_back(back)))
            await until(pilot, lambda: any("P1 reached the sequencer" in m
                                           for m in link.messages), what="P1 back")
            assert link.session.seat_status()["P1"] == "host"
            await play_moves(pilot, app, game, 3, lambda: len(bot3.records))
            assert len(mine.records) >= before + 3
            await until(pilot, lambda: len(back.records) >= len(mine.records) and
                        len(bot3.records) >= len(mine.records), what="everyone level")
            n = len(mine.records)
            hashes = [[r["hash"] for r in p.records[:n]] for p in (mine, bot3, back)]
            assert hashes[0] == hashes[1] == hashes[2]
            assert link.phase == "playing" and not link.problem
            ho = link.player.link  # type: ignore[attr-defined]
            assert ho.seq_task is not None and not ho.seq_task.done()
        # the app closed (its person left): the relay it ran stops, nothing left running
        assert ho.closed and ho.seq_task.done()
    finally:
        for t in tasks:
            t.cancel()
            with contextlib.suppress(BaseException):
                await t
        with contextlib.suppress(BaseException):
            await _kill_host(host, hosting)


async def test_the_host_back_in_the_app_is_not_asked_its_past_choices(
        tmp_path: Any) -> None:
    """``wizwar join --back KEYS`` in the app (``WizWarApp.back_poker``): the host's process
    of a 3-seat poker game (two headless bot joiners) is killed mid-game; it comes back in
    the app from its kept keys, makes its seat's past actions again from the log it wrote
    (the screen is never asked for them) and the person plays on through the game screen,
    every process on one hash."""
    from net.handover import play

    rs = registry.get("wizwar")
    hkeys = str(tmp_path / "hkeys")
    host = PokerHost(rs, players=3, choose=_bot, bind="127.0.0.1", seed="app-back",
                     keys_dir=hkeys, log_dir=str(tmp_path / "host-logs"))
    port = await host.start()
    hosting = asyncio.ensure_future(host.run())
    bots = [_joiner(tmp_path, f"app-back:{i}") for i in (2, 3)]
    tasks: list[asyncio.Future[Any]] = []
    app = WizWarApp(discovery=False)
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            for i, b in enumerate(bots):
                tasks.append(asyncio.ensure_future(play(b, "127.0.0.1", port, f"bot{i}")))
                await until(pilot, lambda i=i: len(host.procs) >= 2 + i, what="seated")
            await until(pilot, lambda: sum(r["action"].actor == "P1"
                                           for r in host.player.records) >= 3,
                        what="the host's seat to act")
            kept = host.player.keys_path
            assert kept is not None
            await _kill_host(host, hosting)
            played = sum(r["action"].actor == "P1" for r in host.player.records)
            app.back_poker(kept, name="hana")
            link = app.lan
            assert isinstance(link, PokerLink)
            asked: list[int] = []
            session = link.session
            real = session.choose

            async def choose(state: Any, seat: str) -> Any:
                asked.append(rs.seq(state))
                return await real(state, seat)

            link.player.choose = choose
            await until(pilot, lambda: isinstance(app.screen, GameScreen), what="the game")
            game = app.screen
            assert isinstance(game, GameScreen)
            await shown(pilot, game)
            assert game.human == "P1"
            await play_moves(pilot, app, game, 2, lambda: len(bots[1].records))
            mine = link.player
            assert mine.replayed >= played > 0, (mine.replayed, played)
            assert asked and min(asked) >= len(host.player.records), asked
            await until(pilot, lambda: all(len(b.records) >= len(mine.records) for b in bots),
                        what="everyone level")
            n = len(mine.records)
            assert [r["hash"] for r in mine.records[:n]] == \
                [r["hash"] for r in bots[0].records[:n]] == \
                [r["hash"] for r in bots[1].records[:n]]
            said = "\n".join(link.messages)
            assert "back: reaching the game's processes" in said, said
            assert link.address == bots[0].addr  # the sequencer it reached (P2's process)
            assert link.phase == "playing" and not link.problem
    finally:
        for t in tasks:
            t.cancel()
            with contextlib.suppress(BaseException):
                await t
        with contextlib.suppress(BaseException):
            await _kill_host(host, hosting)


async def test_back_in_the_app_with_a_file_that_is_no_process_keys_says_so(
        tmp_path: Any) -> None:
    """``wizwar join --back KEYS`` in the app with a missing file or one that holds no
    process of a game: said in words, no game opened, nothing else changed."""
    bad = tmp_path / "bad.json"
    bad.write_text('{"game": "x"}')
    app = WizWarApp(discovery=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        for keys in (str(tmp_path / "none.json"), str(bad)):
            app.back_poker(keys)
            await pilot.pause()
            assert app.lan is None
        said = [str(n.message) for n in app._notifications]
        assert any("Cannot come back with" in m and "none.json" in m for m in said), said
        assert any("no process number" in m for m in said), said
