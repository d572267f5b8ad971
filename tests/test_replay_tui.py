"""The replay viewer: local games autosaved, the saved-games list, the replay screen (steps,
jumps, play, seen as), damaged / export / unreadable files, and instant seeking."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import msgpack
import pytest
from textual.widgets import Input, OptionList, RichLog

from core import log
from core.codec import pack
from core.session import LocalSession
from core.wizwar import bot
from core.wizwar.ruleset import RULESET
from core.wizwar.state import state_hash
from core.wizwar.view import view
from net.lan import HostGame, PeerGame
from tests.readable import screen_text
from wizwar_tui import cli, replay
from wizwar_tui.app import WizWarApp
from wizwar_tui.menu import MenuScreen
from wizwar_tui.replay import ReplayErrorScreen, ReplayScreen, SavedGamesScreen
from wizwar_tui.wizwar import render
from wizwar_tui.wizwar import replay as wizwar_replay

SHORT_GAME_SEED = 48  # 2 players: the apprentice policy for P1 wins in ~20 human actions


@pytest.fixture(autouse=True)
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Saved games go under ``tmp_path``, never the real home."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return tmp_path / "data"


def bot_log(path: Path, players: int = 2, seed: int = 5, limit: int | None = None,
            started: str = "2025-01-02T10:11:12Z") -> LocalSession:
    """A bots-only game written to ``path`` (stopped after ``limit`` actions if given)."""
    s = LocalSession.start(RULESET, {"players": players}, seed, human="")
    with open(path, "wb") as f:
        def write(b: bytes) -> None:
            f.write(b)
            f.flush()

        s.record_to(write, started=started)
        if limit is None:
            s.run_bots()
        else:
            for _ in range(limit):
                s.step_bot()
    return s


def replay_app(path: Path | str, **kw: object) -> WizWarApp:
    """An app opening ``path`` in the replay screen (``wizwar replay FILE``)."""
    return WizWarApp(replay_file=str(path), save_games=False, discovery=False,
                     **kw)  # type: ignore[arg-type]


def head(app: WizWarApp) -> str:
    """The replay header as plain text."""
    return str(app.screen.query_one("#replay-head").render())


def board_text(app: WizWarApp) -> str:
    """The replay board as plain text."""
    return app.screen.query_one(wizwar_replay.ReplayBoard).plain()


def status(app: WizWarApp) -> str:
    """The status line."""
    return str(app.screen.query_one("#status").render())


async def test_local_game_autosaved_listed_and_replayed(data_home: Path) -> None:
    """A game played in the app is saved as played, is in the saved-games list from the
    main menu, and replays to the very same state."""
    app = WizWarApp(players=2, seed=SHORT_GAME_SEED, start_game=True, bot_delay=0,
                    discovery=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        game = app.game
        assert game is not None and game.logfile is not None
        path = game.logfile.path
        assert path.startswith(str(data_home)) and "local-seed48" in path
        s = game.session
        for _ in range(8):  # eight human actions through the command line (bots answer)
            action = bot.choose(s.view(), s.human, s.legal_actions())
            await pilot.press("colon")
            app.screen.query_one("#cmd", Input).value = str(action).split(" ", 1)[1]
            await pilot.press("enter")
            await pilot.pause()
        assert not s.over
        digest, n_actions = s.digest(), len(s.actions)
        with open(path, "rb") as f:  # flushed as played
            assert len(log.read(f.read()).records) == n_actions
        await pilot.press("q")  # leave the game: "Leave this game?" - yes
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)
        assert game.logfile is None  # closed with the game screen
        with open(path, "rb") as f:
            loaded = log.read(f.read())
        assert loaded.end is None and not loaded.damage
        assert len(loaded.records) == n_actions and loaded.header["kind"] == "local"
        assert loaded.header["started"]

        # the menu entry: the saved games, newest first
        menu = app.screen.query_one(OptionList)
        labels = [str(o.prompt) for o in menu.options]
        menu.highlighted = labels.index("Replay a saved game (r)")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, SavedGamesScreen)
        rows = [str(o.prompt) for o in app.screen.query_one(OptionList).options]
        assert len(rows) == 1
        assert "unfinished" in rows[0] and f"{n_actions} actions" in rows[0]
        assert "P1 vs P2" in rows[0] and "local" in rows[0]
        assert rows[0].split()[2] == RULESET.title  # the game column, after the date
        seed = loaded.header["seed"]
        assert rows[0].split()[3:5] == ["seed", str(seed)]  # then the seed (issue 12)
        await pilot.press("enter")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        assert f"action 0 / {n_actions}" in head(app) and "unfinished" in head(app)
        assert os.path.basename(path) in head(app)

        # step to the end: the identical final state
        start_board = board_text(app)
        await pilot.press("end")
        await pilot.pause()
        assert screen.n == n_actions and f"action {n_actions} / {n_actions}" in head(app)
        assert screen.state is not None and state_hash(screen.state) == digest
        assert board_text(app) != start_board

        # back and forward: the action number and the board change, and come back
        end_board = board_text(app)
        steps = 0
        while board_text(app) == end_board:
            await pilot.press("left")
            steps += 1
            assert steps < 50
        assert screen.n == n_actions - steps
        assert f"action {n_actions - steps} / {n_actions}" in head(app)
        await pilot.press(*["right"] * steps)
        await pilot.pause()
        assert screen.n == n_actions and board_text(app) == end_board

        # q: back to the list, Esc: back to the menu
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, SavedGamesScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)


async def test_saved_games_list_when_empty(data_home: Path) -> None:
    """No saved games: the list says where games are saved."""
    app = WizWarApp(bot_delay=0, discovery=False, save_games=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, SavedGamesScreen)
        text = str(app.screen.query_one("#saved-where").render())
        assert "No saved games yet" in text and str(data_home) in text.replace("\n", "")


async def test_no_autosave_when_saving_is_off(data_home: Path) -> None:
    app = WizWarApp(players=2, seed=3, start_game=True, bot_delay=0, save_games=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.game is not None and app.game.logfile is None
    assert not (data_home / "wizwar" / "games").exists() or \
        not os.listdir(data_home / "wizwar" / "games")


async def test_seen_as_cycles_and_everyone_refused_before_the_end(tmp_path: Path) -> None:
    """An unfinished log: P1, P2, then "everyone" is refused (back to P1); the other seat's
    hand is its own view."""
    path = tmp_path / "unfinished.wwlog"
    s = bot_log(path, seed=5, limit=30)
    async with replay_app(path).run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = pilot.app.screen
        assert isinstance(screen, ReplayScreen)
        assert "unfinished" in head(pilot.app) and "seen as P1" in head(pilot.app)
        await pilot.press("end")
        await pilot.pause()
        assert state_hash(screen.state) == s.digest()
        hand = str(screen.query_one("#hand").render())
        assert all(render.card_summary(c) in hand for c in s.view("P1").hand)
        await pilot.press("v")
        await pilot.pause()
        assert screen.seat == "P2" and "seen as P2" in head(pilot.app)
        hand = str(screen.query_one("#hand").render())
        assert all(render.card_summary(c) in hand for c in s.view("P2").hand)
        await pilot.press("v")
        await pilot.pause()
        assert screen.seat == "P1"
        assert "only once the game is over" in status(pilot.app)


async def test_everyone_after_the_end_shows_every_hand(tmp_path: Path) -> None:
    path = tmp_path / "finished.wwlog"
    s = bot_log(path, players=3, seed=2)
    assert s.over
    async with replay_app(path).run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = pilot.app.screen
        assert isinstance(screen, ReplayScreen)
        await pilot.press("t", "5", "enter")  # turn 5, part way through
        await pilot.pause()
        assert screen.n == screen.replay.turn_starts[4]
        await pilot.press("v", "v", "v")
        await pilot.pause()
        assert screen.seat == replay.EVERYONE and "seen as everyone" in head(pilot.app)
        st = screen.replay.at(screen.n)
        for size in ((120, 40), (80, 24)):
            await pilot.resize_terminal(*size)
            await pilot.pause()
            panel = screen.query_one("#hand")
            hands = str(panel.render())
            lines = hands.splitlines()
            # a paragraph per seat: the seat starts it, a long hand wraps under it (not cut)
            assert [ln.split()[0] for ln in lines
                    if not ln.startswith(" ")] == ["P1", "P2", "P3"]
            assert all(len(ln) <= panel.content_region.width for ln in lines)
            words = " ".join(hands.split())
            for seat in ("P1", "P2", "P3"):
                names = [render.card_name(c) for c in view(st, seat).hand]
                assert ", ".join(names) in words
        assert len(lines) > 3  # at 80 columns some hand takes more than one line
        await pilot.press("v")
        await pilot.pause()
        assert screen.seat == "P1"


async def test_everyone_only_at_the_last_action_without_an_end_record(tmp_path: Path) -> None:
    """A finished game whose end record is lost: every hand only at the last action."""
    path = tmp_path / "cut.wwlog"
    s = bot_log(path, seed=5)
    data = path.read_bytes()
    end = pack(log.end_record(s.ruleset, s.state))
    assert data.endswith(end)
    path.write_bytes(data[:-len(end)])
    async with replay_app(path).run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = pilot.app.screen
        assert isinstance(screen, ReplayScreen)
        assert not screen.replay.ended and screen.replay.result() == f"{s.state.winner} won"
        await pilot.press("v", "v")
        await pilot.pause()
        assert screen.seat == "P1" and "go to the last action" in status(pilot.app)
        await pilot.press("end", "v", "v")
        await pilot.pause()
        assert screen.seat == replay.EVERYONE
        await pilot.press("left")
        await pilot.pause()
        assert screen.seat == "P1"  # not the last action any more


async def test_damaged_log_shows_the_damage(tmp_path: Path) -> None:
    path = tmp_path / "damaged.wwlog"
    s = bot_log(path, seed=5, limit=40)
    path.write_bytes(path.read_bytes()[:-5])  # the last record is cut short
    async with replay_app(path).run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = pilot.app.screen
        assert isinstance(screen, ReplayScreen)
        text = head(pilot.app).replace("\n", " ")
        assert "log damaged: truncated record 40" in text
        assert "showing the 39 good actions" in text
        assert "action 0 / 39" in text
        await pilot.press("end")
        await pilot.pause()
        st = log.replay(log.read(path.read_bytes()))
        assert state_hash(screen.state) == state_hash(st)
        assert len(s.actions) == 40


async def test_export_text_replays(tmp_path: Path) -> None:
    src = tmp_path / "game.wwlog"
    s = bot_log(src, seed=9)
    text = log.export_text(log.read(src.read_bytes()))
    path = tmp_path / "game.txt"
    path.write_text(text)
    async with replay_app(path).run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = pilot.app.screen
        assert isinstance(screen, ReplayScreen)
        assert screen.replay.kind == "export" and f"{s.state.winner} won" in head(pilot.app)
        await pilot.press("end")
        await pilot.pause()
        assert screen.n == len(s.actions)
        assert state_hash(screen.state) == s.digest()


@pytest.mark.parametrize("what", ["newer", "rules", "not-a-log", "missing", "bad-export"])
async def test_unreadable_files_show_an_error(tmp_path: Path, what: str) -> None:
    path = tmp_path / "bad.wwlog"
    src = tmp_path / "src.wwlog"
    bot_log(src, seed=5, limit=5)
    up = msgpack.Unpacker(raw=False)
    up.feed(src.read_bytes())
    objs = list(up)
    if what == "newer":
        objs[0]["version"] = 99
        path.write_bytes(b"".join(pack(o) for o in objs))
        expect = "newer"
    elif what == "rules":
        objs[0]["rules_version"] = 0
        path.write_bytes(b"".join(pack(o) for o in objs))
        expect = "rules version"
    elif what == "not-a-log":
        path.write_bytes(b"hello, this is not a wizwar log\n")
        expect = "not a wizwar log"
    elif what == "missing":
        path = tmp_path / "nowhere.wwlog"
        expect = "cannot open"
    else:
        path.write_text(f"wizwar-export 1\nruleset wizwar {RULESET.version}\nfoo bar\n")
        expect = "unknown line"
    async with replay_app(path).run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(pilot.app.screen, ReplayErrorScreen)
        text = str(pilot.app.screen.query_one("#replay-error").render())
        assert expect in text and str(path.name) in text
        await pilot.press("escape")  # ``wizwar replay FILE``: back to the shell (issue 12)
        await pilot.pause()
        assert pilot.app.return_code == 0


async def test_replay_file_from_the_command_line_quits_on_q(tmp_path: Path) -> None:
    """``wizwar replay FILE``: q leaves the replay for the shell, not the menu (issue 12);
    opened from the saved-games list, it goes back to the list (tested elsewhere)."""
    path = tmp_path / "game.wwlog"
    bot_log(path, players=2, seed=5)
    async with replay_app(path).run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert isinstance(pilot.app.screen, ReplayScreen)
        await pilot.press("q")
        await pilot.pause()
        assert pilot.app.return_code == 0 and not isinstance(pilot.app.screen, MenuScreen)


async def test_step_jump_play_and_speed(tmp_path: Path) -> None:
    path = tmp_path / "game.wwlog"
    s = bot_log(path, players=2, seed=5)
    n_actions = len(s.actions)
    async with replay_app(path, replay_delay=0.01).run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = pilot.app.screen
        assert isinstance(screen, ReplayScreen)
        panel = screen.query_one("#log", RichLog)
        await pilot.press("right", "right", "full_stop")
        await pilot.pause()
        assert screen.n == 3 and "action 3 /" in head(pilot.app)
        assert len(panel.lines) > 3  # the start line, the actions and their events
        await pilot.press("comma")
        await pilot.pause()
        assert screen.n == 2
        # jumps: an action, a round, a turn; a mistake keeps the line open
        await pilot.press("t", "a", "4", "0", "enter")
        await pilot.pause()
        assert screen.n == 40
        await pilot.press("t", "x", "enter")
        await pilot.pause()
        assert "Cannot jump" in status(pilot.app)
        assert screen.query_one("#jump", Input).display
        await pilot.press("escape")
        await pilot.pause()
        assert not screen.query_one("#jump", Input).display
        assert isinstance(pilot.app.screen, ReplayScreen)
        await pilot.press("t", "r", "2", "enter")
        await pilot.pause()
        assert screen.replay.marks[screen.n][0] == 2 and screen.replay.marks[screen.n - 1][0] == 1
        await pilot.press("right_square_bracket")
        await pilot.pause()
        assert screen.n in screen.replay.turn_starts
        await pilot.press("home")
        await pilot.pause()
        assert screen.n == 0
        # play, then pause (a delay long enough that a loaded machine cannot reach the end
        # between the key and the check; wait for a tick rather than for a fixed time)
        screen.delay = 0.1
        await pilot.press("space")
        assert screen.playing and "playing" in head(pilot.app)
        for _ in range(100):
            await pilot.pause(0.05)
            if screen.n > 0:
                break
        await pilot.press("space")
        await pilot.pause()
        assert not screen.playing and screen.n > 0 and "paused" in head(pilot.app)
        # speed: - slower, + faster
        screen.delay = before = 0.5
        await pilot.press("minus")
        assert screen.delay > before
        await pilot.press("plus", "plus")
        assert screen.delay < before
        # playing stops by itself at the end
        await pilot.press("end", "left", "left")
        screen.delay = 0.01
        await pilot.press("space")
        for _ in range(500):
            await pilot.pause(0.02)
            if not screen.playing:
                break
        assert not screen.playing and screen.n == n_actions
        # the log panel is in step with a jump back
        await pilot.press("t", "a", "1", "enter")
        await pilot.pause()
        texts = [line.text for line in panel.lines]
        assert any("1. " in t for t in texts) and not any("  2. " in t for t in texts)


async def test_peer_log_keeps_unknown_faces_hidden(tmp_path: Path) -> None:
    """A joined game's log: the other hand's faces were never learned and show as ?."""
    host_bytes: list[bytes] = []
    peer_bytes: list[bytes] = []
    host = HostGame(players=2, writer=host_bytes.append)
    port = await host.start()
    peer = PeerGame("127.0.0.1", port, name="bob", writer=peer_bytes.append)
    try:
        await asyncio.wait_for(asyncio.gather(host.run(), peer.run()), 120)
    finally:
        await host.close()
    path = tmp_path / "peer.wwlog"
    path.write_bytes(b"".join(peer_bytes))
    async with replay_app(path).run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = pilot.app.screen
        assert isinstance(screen, ReplayScreen)
        assert screen.seat == "P2" and "peer" in head(pilot.app)  # the log's own seat
        await pilot.press("t", "3", "enter")
        await pilot.pause()
        assert "?" not in str(screen.query_one("#hand").render())
        await pilot.press("v")  # everyone (the game is over): P1's faces still unknown
        await pilot.pause()
        assert screen.seat == replay.EVERYONE
        lines = str(screen.query_one("#hand").render()).splitlines()
        assert lines[0].startswith("P1") and "?" in lines[0] and "?" not in lines[1]
        await pilot.press("v")  # P1's hand: never known to this peer
        await pilot.pause()
        assert screen.seat == "P1"
        hand = str(screen.query_one("#hand").render())
        assert "? (not known)" in hand and "(no cards)" not in hand
        await pilot.press("end")
        await pilot.pause()
        end = log.read(path.read_bytes()).end
        assert end is not None and state_hash(screen.state) == end["hash"]


def long_log() -> tuple[log.Loaded, int]:
    """A 2,100-action game: four bots that end every turn at once (discarding down to the
    hand limit), so the deck is reshuffled many times and nobody ever wins."""
    s = LocalSession.start(RULESET, {"players": 4}, 7, human="")
    out: list[bytes] = []
    s.record_to(out.append)
    while len(s.actions) < 2100 and not s.over:
        seat = s.to_move()[0]
        legal = s.legal_actions(seat)
        pick = next((a for verb in ("end", "discard", "pass") for a in legal
                     if a.verb == verb), None)
        s.submit(pick or bot.choose(s.view(seat), seat, legal))
    return log.read(b"".join(out)), len(s.actions)


def test_seeking_a_long_game_matches_a_full_replay(tmp_path: Path) -> None:
    """Seeking (from the nearest checkpoint) gives the states a replay from the start gives,
    at many points of a 2,100-action game (no timing here: that belongs in benchmarks)."""
    loaded, n_actions = long_log()
    assert n_actions >= 2000
    path = tmp_path / "long.wwlog"
    path.write_bytes(b"".join(log.encode(x) for x in [loaded.header, *loaded.records]))
    rp = replay.load(str(path))
    assert rp.total == n_actions and not rp.problem and not rp.damage
    cps = log.Checkpoints(loaded)
    points = sorted({0, 1, 49, 50, 51, 999, 1000, n_actions - 1, n_actions,
                     *range(0, n_actions + 1, 137)})
    for n in points:
        want = state_hash(log.replay(loaded, upto=n))
        assert state_hash(rp.at(n)) == want, n
        assert state_hash(cps.at(n)) == want, n
    assert len(rp.turn_starts) > 500


async def test_long_game_in_the_replay_screen(tmp_path: Path) -> None:
    loaded, n_actions = long_log()
    path = tmp_path / "long.wwlog"
    path.write_bytes(b"".join(log.encode(x) for x in [loaded.header, *loaded.records]))
    async with replay_app(path).run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = pilot.app.screen
        assert isinstance(screen, ReplayScreen)
        await pilot.press("end")
        await pilot.pause()
        assert f"action {n_actions} / {n_actions}" in head(pilot.app)
        await pilot.press("t", "a", "1", "5", "0", "7", "enter")
        await pilot.pause()
        assert screen.n == 1507
        assert state_hash(screen.state) == state_hash(log.replay(loaded, upto=1507))
        panel = screen.query_one("#log", RichLog)
        assert "earlier actions" in panel.lines[0].text


def test_replay_subcommand(monkeypatch: pytest.MonkeyPatch) -> None:
    """``wizwar replay FILE`` runs the app straight into the replay screen."""
    got: dict[str, object] = {}

    def fake_run(**kw: object) -> int:
        got.update(kw)
        return 0

    import wizwar_tui.app as app_mod

    monkeypatch.setattr(app_mod, "run", fake_run)
    assert cli.main(["replay", "some.wwlog", "--delay", "0.2"]) == 0
    assert got["replay"] == "some.wwlog" and got["replay_delay"] == 0.2


async def test_seeking_a_networked_game_and_its_export(tmp_path: Path) -> None:
    """A hosted game (the dealer's commitments, reshuffles re-blinded) and its export text:
    a state reached by seeking equals the one reached by stepping from the start."""
    out: list[bytes] = []
    host = HostGame(players=4, bots=3, writer=out.append)
    await host.start()
    try:
        await asyncio.wait_for(host.run(), 240)
    finally:
        await host.close()
    path = tmp_path / "host.wwlog"
    path.write_bytes(b"".join(out))
    text = tmp_path / "host.txt"
    text.write_text(log.export_text(log.read(path.read_bytes())))
    for f in (path, text):
        rp = replay.load(str(f), every=7)
        assert rp.total > 50 and not rp.problem and rp.result().endswith("won")
        again = replay.load(str(f), every=10_000)  # no checkpoint but the start
        st = again.at(0)
        seq = [state_hash(st)]
        for i in range(again.total):
            again._advance(st, i)
            seq.append(state_hash(st))
        for n in range(0, rp.total + 1, 3):
            assert state_hash(rp.at(n)) == seq[n], (f.name, n)


async def test_a_4_player_replay_board_fits_80x24(tmp_path: Path) -> None:
    """At 80x24 the 10x10 board of a 4-player replay shows whole: its column letters in
    its top rim, a two-line header, the last and next actions beside it, no keys line (the
    footer has every key on one line); a message still shows (issue 12: it scrolled)."""
    path = tmp_path / "four.wwlog"
    bot_log(path, players=4, limit=12)
    async with replay_app(path).run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.pause()
        screen = pilot.app.screen
        assert isinstance(screen, ReplayScreen) and screen.has_class("-rim")
        scroll = screen.query_one("#board-scroll")
        assert scroll.max_scroll_y == 0 and not screen.board_cut()
        board = screen.query_one(wizwar_replay.ReplayBoard)
        assert board.region.bottom <= 24 - 1 and board.region.height == 21
        assert board_text(pilot.app).splitlines()[0].startswith("   ┌─a─")
        assert not screen.query_one("#board-cols").display
        assert len(head(pilot.app).splitlines()) == 2
        assert not screen.query_one("#status").display
        side = str(screen.query_one("#info-side").render()).splitlines()
        assert side == ["the start of the game", f"next 1. {screen.replay.actions[0]}"]
        await pilot.press("left")  # at the start: a message, on the status line
        await pilot.pause()
        assert screen.query_one("#status").display
        assert status(pilot.app) == "That is the start of the game"
        await pilot.press("right")
        await pilot.pause()
        assert not screen.query_one("#status").display
    async with replay_app(path).run_test(size=(100, 34)) as pilot:  # room: as ever
        await pilot.pause()
        screen = pilot.app.screen
        assert not screen.has_class("-rim") and screen.query_one("#board-cols").display


async def test_a_4_player_replay_stack_leaves_the_board_whole_at_80x24(tmp_path: Path) -> None:
    """At 80x24 a 4-player replay's Stack panel goes to the top of the right column: every
    board row stays in sight (it covered row 10 and row 1 scrolled away, with no ↑↓ hint),
    the stack says who attacks whom, and the board's rows are back under it once the stack
    is gone (fresh-user trial)."""
    path = tmp_path / "four.wwlog"
    bot_log(path, players=4, limit=44)
    async with replay_app(path).run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = pilot.app.screen
        assert isinstance(screen, ReplayScreen)
        n = next(k for k in range(1, screen.replay.total + 1)
                 if view(screen.replay.at(k), screen.seat).stack)
        screen.go(n)
        await pilot.pause()
        await pilot.pause()
        side = screen.query_one("#stack-side")
        assert side.display and not screen.query_one("#stack").display
        assert "attacks" in str(side.render())
        assert side.region.x >= screen.query_one("#right").region.x
        scroll = screen.query_one("#board-scroll")
        assert scroll.max_scroll_y == 0 and scroll.scroll_y == 0 and not screen.board_cut()
        board = screen.query_one(wizwar_replay.ReplayBoard)
        assert board.region.bottom <= 24 - 1 and board.region.height == 21
        shown = screen_text(pilot.app).splitlines()  # what the terminal shows
        labels = [line[:4].strip() for line in shown]
        assert [str(r) for r in range(1, 11)] == [x for x in labels if x.isdigit()]
        row10 = next(line for line in shown if line.startswith(" 10 "))
        assert "Stack" not in row10 and "━" not in row10[:44]
        assert any("Stack" in line[44:] for line in shown)
        assert not screen.query_one("#status").display  # nothing cut: the footer has the keys
        screen.go(n - 1 if not view(screen.replay.at(n - 1), screen.seat).stack else 0)
        await pilot.pause()
        assert not side.display and not screen.query_one("#stack").display
        assert not screen.has_class("-stack-side")


async def test_replay_board_scrolls_at_80x20(tmp_path: Path) -> None:
    """A 3-player board is taller than the replay's board area at 80x20: the keys line says
    ↑↓ shows the rest, ↓/j and ↑/k scroll it, and stepping to an action in the rows out of
    sight scrolls them into view."""
    path = tmp_path / "three.wwlog"
    bot_log(path, players=3, seed=2)
    async with replay_app(path).run_test(size=(80, 20)) as pilot:
        await pilot.pause()
        await pilot.pause()
        screen = pilot.app.screen
        assert isinstance(screen, ReplayScreen)
        scroll = screen.query_one("#board-scroll")
        assert scroll.max_scroll_y > 0 and scroll.scroll_y == 0
        assert status(pilot.app).startswith("↑↓ board · ")
        await pilot.press("j", "j", "down")
        await pilot.pause()
        assert scroll.scroll_y == min(6, scroll.max_scroll_y) > 0
        await pilot.press("k", "up", "up")
        await pilot.pause()
        assert scroll.scroll_y == 0
        # the first action of a seat whose wizard stands in the bottom rows
        low = next(n for n in range(1, screen.replay.total + 1)
                   if min(r for _c, r in wizwar_replay.action_squares(
                       view(screen.replay.at(n), screen.seat),
                       screen.replay.actions[n - 1]) or {(0, 0)}) >= 8)
        await pilot.press("t")
        await pilot.pause()
        screen.query_one("#jump", Input).value = f"a{low}"
        await pilot.press("enter")
        await pilot.pause()
        assert screen.n == low and scroll.scroll_y > 0


async def test_saved_games_list_uses_the_width_and_counts_right(data_home: Path) -> None:
    """At 130 columns the players column shows long names whole (beside the seed column);
    one game is "1 game"; a log with no action is not listed."""
    from wizwar_tui.saves import games_dir

    names = ("Archmage Zoltan", "Belladonna the Grey", "Crispin")
    s = LocalSession.start(RULESET, {"players": 3}, 5, human="", names=names)
    path = Path(games_dir()) / "long-names.wwlog"
    with open(path, "wb") as f:
        s.record_to(f.write, started="2025-01-02T10:11:12Z")
        for _ in range(4):
            s.step_bot()
    bot_log(Path(games_dir()) / "nothing.wwlog", limit=0)
    app = WizWarApp(bot_delay=0, discovery=False, save_games=False)
    async with app.run_test(size=(130, 40)) as pilot:
        await pilot.pause()
        await pilot.press("r")
        await pilot.pause()
        await pilot.pause()
        assert isinstance(app.screen, SavedGamesScreen)
        rows = [str(o.prompt) for o in app.screen.query_one(OptionList).options]
        assert len(rows) == 1
        assert " vs ".join(names) in rows[0] and "4 actions" in rows[0]
        assert "seed 5" in rows[0]
        where = str(app.screen.query_one("#saved-where").render())
        assert where.startswith("1 game in ")


def team_log(path: Path, actions: int = 9) -> LocalSession:
    """A 4-player team game (P1+P3 against P2+P4) of bots, ``actions`` long."""
    s = LocalSession.start(RULESET, {"players": 4, "team": True}, 3, human="")
    with open(path, "wb") as f:
        s.record_to(f.write, started="2025-01-02T10:11:12Z")
        for _ in range(actions):
            s.step_bot()
    return s


async def test_team_game_replays_with_its_teams(tmp_path: Path) -> None:
    """A team game's replay shows the sides as the game did: the header ``P1+P3 vs
    P2+P4``, ``P1/A`` in the players panel and the teams line."""
    path = tmp_path / "team.wwlog"
    team_log(path)
    app = replay_app(path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ReplayScreen) and app.screen.replay.team
        assert "P1+P3 vs P2+P4" in head(app) and "P1 vs P2 vs P3" not in head(app)
        players = str(app.screen.query_one("#players").render())
        assert "P1/A" in players and "P2/B" in players and "P4/B" in players
        assert render.teams_text() in players


async def test_replay_players_panel_marks_the_seen_seat_as_a_game_does(tmp_path: Path) -> None:
    """``(seen)`` follows the seat as ``(you)`` does in a game, a space before the life, and
    the life column stays aligned on every row."""
    path = tmp_path / "g.wwlog"
    bot_log(path, players=3, limit=4)
    app = replay_app(path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        rows = str(app.screen.query_one("#players").render()).splitlines()[:3]
        assert "P1(seen) ♥" in rows[0], rows
        assert len({r.index("♥") for r in rows}) == 1, rows


async def test_replay_hint_and_last_action_fit(tmp_path: Path) -> None:
    """The keys line fits 100 columns whole; the last action and what comes next are on
    lines of their own (never wrapped under the board)."""
    path = tmp_path / "team.wwlog"
    team_log(path)
    app = replay_app(path)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        keys = status(app)
        assert len(keys) <= 98 and keys.endswith("q back") and "↑↓" in keys
        await pilot.press("end")
        await pilot.pause()
        info = app.screen.query_one("#info")
        lines = str(info.render()).splitlines()
        assert lines[0].startswith("last 9. P1 ") and lines[1] == "the end of the log"
        await pilot.press("home")
        await pilot.pause()
        lines = str(info.render()).splitlines()
        assert lines == ["the start of the game", f"next 1. {app.screen.replay.actions[0]}"]
    async with replay_app(path).run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert "↑↓ scroll the board" in status(pilot.app)


@pytest.mark.parametrize("size", [(100, 30), (80, 24), (60, 20)])
async def test_saved_rows_fit_with_long_seeds_and_teams(monkeypatch, size) -> None:  # type: ignore[no-untyped-def]
    """A row with a 20-digit seed and a team game fits the list at 100, 80 and 60 columns
    with every column: the game, the seed, the teams (uncut from 80), the count (issue 12: at 100
    columns the seed gave way, at 80 the game too; a row too long for one line takes two)."""
    from wizwar_tui import saves
    from wizwar_tui.saves import SavedGame
    games = [SavedGame(path=f"/nowhere/g{i}.wlog", started="2026-12-01T10:00:00Z",
                       players=["Anna", "Bert", "Cleo"], kind="local", actions=123,
                       result="unfinished", damage="", team=True, game="Wiz-War",
                       sides=[[0, 2], [1]], seed="18446744073709551615") for i in range(2)]
    monkeypatch.setattr(saves, "list_saved", lambda folder=None: games)
    app = WizWarApp(bot_delay=0, save_games=False)
    async with app.run_test(size=size) as pilot:
        app.push_screen(SavedGamesScreen("/nowhere"))
        await pilot.pause()
        await pilot.pause()
        ol = app.screen.query_one("#saved-list", OptionList)
        width = ol.scrollable_content_region.width - 2
        for o in ol.options:
            text = str(o.prompt)
            assert all(len(line) <= width for line in text.splitlines()), text
            assert "123 actions" in text
            assert games[0].players_text in text or (size[0] < 80 and "Anna+Cleo" in text)
            assert "Wiz-War" in text and "seed 18446744073709551615" in text, text


async def test_the_replay_header_shows_a_long_file_name_in_full(tmp_path: Path) -> None:
    """A long log name that does not fit after the players at 100 columns goes on a line
    of its own instead of being cut (issue 12: "…seed945112-7cea.w.")."""
    name = "2026-12-01T10-00-00Z-wizwar-local-4p-seed94511299887766-7cea.wlog"
    path = tmp_path / name
    bot_log(path, players=4, limit=3)
    app = replay_app(path)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        lines = head(app).splitlines()
        assert any(line.rstrip().endswith(name) for line in lines), lines
        assert all(len(line) <= 100 for line in lines)


async def test_a_game_left_before_anyone_acted_leaves_no_file(data_home: Path) -> None:
    """Leaving a local game before the first action removes its log: such a game is not
    kept (README), and ``wizwar verify`` lists no "0 actions" file (issue 12)."""
    app = WizWarApp(players=2, seed=SHORT_GAME_SEED, start_game=True, bot_delay=0,
                    discovery=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        game = app.game
        assert game is not None and game.logfile is not None
        assert not game.session.actions  # the human moves first: nobody has acted
        path = game.logfile.path
        # nothing on disk until someone acts: a kill now (SIGTERM, SIGHUP) leaves no file
        assert not os.path.exists(path) and not os.path.exists(path + ".part")
        assert not [f for f in os.listdir(data_home / "wizwar" / "games")]
        await pilot.press("q")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)
        assert not os.path.exists(path) and not os.path.exists(path + ".part")


async def test_the_log_file_appears_with_the_first_action(data_home: Path) -> None:
    """A local game's log is held back until someone acts; then the file appears with the
    header and that action, each later action appended (issue 12: a game killed before
    anyone acted left a header-only file)."""
    app = WizWarApp(players=2, seed=SHORT_GAME_SEED, start_game=True, bot_delay=0,
                    discovery=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        game = app.game
        assert game is not None and game.logfile is not None
        path = game.logfile.path
        assert not os.path.exists(path)
        s = game.session
        assert game.do(s.legal_actions()[0])
        await pilot.pause()
        loaded = log.read(Path(path).read_bytes())
        assert loaded.header["seed"] == SHORT_GAME_SEED and len(loaded.records) == 1
        assert game.do(s.legal_actions()[0])
        await pilot.pause()
        assert len(log.read(Path(path).read_bytes()).records) == 2


@pytest.mark.parametrize("size", [(60, 20), (80, 24)])
async def test_the_replay_footer_shows_every_key(tmp_path: Path, size: tuple[int, int]) -> None:
    """Issue 12 (a player must never lose a key to the width): the replay screen's footer
    takes as many lines as its keys need; every key lies wholly inside the window."""
    from textual.widgets import Footer
    from textual.widgets._footer import FooterKey

    path = tmp_path / "game.wwlog"
    bot_log(path, limit=20)
    app = replay_app(path)
    async with app.run_test(size=size) as pilot:
        for _ in range(3):
            await pilot.pause()
        assert isinstance(app.screen, ReplayScreen)
        footer = app.screen.query_one(Footer)
        keys = list(footer.query(FooterKey))
        assert {"step(1)", "jump", "seen_as", "back"} <= {k.action for k in keys}
        for k in keys:
            assert k.region.width > 0 and k.region.right <= size[0], (k.description, k.region)


async def test_a_forged_result_is_not_shown(tmp_path: Path) -> None:
    """The replay header shows the result the rules give, not a forged end record's, and
    says the log does not verify (trial 11 item 6)."""
    src = tmp_path / "game.wwlog"
    s = bot_log(src, seed=9)
    full = log.read(src.read_bytes())
    real = s.state.winner
    other = next(p for p in ("P1", "P2") if p != real)
    end = {**full.end, "result": {**full.end["result"], "winners": [other]}, "winner": other}
    path = tmp_path / "forged.wwlog"
    path.write_bytes(b"".join(log.encode(x) for x in [full.header, *full.records, end]))
    async with replay_app(path).run_test(size=(120, 30)) as pilot:
        await pilot.pause()
        assert isinstance(pilot.app.screen, ReplayScreen)
        text = head(pilot.app).replace("\n", " ")
        assert f"Replay  {real} won" in text and f"says {other} won" in text, text
        assert "does not verify" in text


async def test_a_game_without_a_replay_screen_gets_a_message(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``wizwar replay FILE`` (and Enter in the saved-games list) of a game whose screens have
    no replay: a message in words, the app still running; q leaves it (trial 11 item 3)."""
    import pick_ruleset

    rs = pick_ruleset.register(monkeypatch)
    path = tmp_path / "pick.wwlog"
    s = LocalSession.start(rs, {"rounds": 2}, 0, human="")
    with open(path, "wb") as f:
        s.record_to(f.write)
        s.run_bots()
    async with replay_app(path).run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = pilot.app.screen
        assert isinstance(screen, ReplayErrorScreen)
        assert "Pick a number games cannot be replayed in the app yet" in screen.reason
        await pilot.press("q")
        await pilot.pause()
    assert pilot.app.return_code == 0


async def test_a_damaged_export_text_replays_up_to_its_last_good_line(tmp_path: Path) -> None:
    """Export text with a bad action line replays the actions before it and the header says
    the line, as a damaged binary log does (trial 11 item 14)."""
    src = tmp_path / "game.wwlog"
    bot_log(src, seed=9)
    body = log.export_text(log.read(src.read_bytes())).splitlines()
    acts = [i for i, x in enumerate(body) if x[:1] == "P" and x[1:2].isdigit()]
    k = acts[7]
    path = tmp_path / "game.txt"
    path.write_text("\n".join([*body[:k], "P1 fly north", *body[k + 1:]]) + "\n")
    async with replay_app(path).run_test(size=(120, 30)) as pilot:
        await pilot.pause()
        screen = pilot.app.screen
        assert isinstance(screen, ReplayScreen) and screen.replay.total == 7
        text = head(pilot.app).replace("\n", " ")
        assert f"log damaged: line {k + 1}:" in text and "the 7 good actions" in text, text


@pytest.mark.parametrize("size", [(100, 30), (80, 24)])
async def test_saved_rows_never_cut_the_count_and_say_what_is_wrong(
        monkeypatch, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    """Every row keeps its action count whole at 100x30 and 80x24, whatever its kind
    (``selfplay``), seed, players and note; a truncated log says ``damaged at action N``; an
    unreadable one is listed with the reason (trial 11 item 11)."""
    from wizwar_tui import saves
    from wizwar_tui.saves import SavedGame
    base = dict(started="2026-12-01T10:00:00Z", result="unfinished", game="Wiz-War")
    games = [
        SavedGame(path="/nowhere/a.wwlog", players=["P1", "P2", "P3", "P4"], kind="selfplay",
                  actions=12345, damage="truncated record 12346 at byte 99", team=False,
                  seed="18446744073709551615", **base),  # type: ignore[arg-type]
        SavedGame(path="/nowhere/b.wwlog", players=["Anna", "Bert", "Cleo", "Dora"],
                  kind="peer", actions=98, damage="", team=True, sides=[[0, 2], [1, 3]],
                  seed="LAN", partial=1, **base),  # type: ignore[arg-type]
        SavedGame(path="/nowhere/c.wwlog", started="", players=[], kind="?", actions=0,
                  result="unreadable", damage="this log is of ruleset 'chess'",
                  unreadable=True),
    ]
    monkeypatch.setattr(saves, "list_saved", lambda folder=None: games)
    app = WizWarApp(bot_delay=0, save_games=False)
    async with app.run_test(size=size) as pilot:
        app.push_screen(SavedGamesScreen("/nowhere"))
        await pilot.pause()
        await pilot.pause()
        ol = app.screen.query_one("#saved-list", OptionList)
        width = ol.scrollable_content_region.width - 2
        rows = [str(o.prompt) for o in ol.options]
        for row in rows:
            assert all(len(line) <= width for line in row.splitlines()), row
        assert "12345 actions" in rows[0] and "damaged at action 12346" in rows[0], rows[0]
        assert all("Wiz-War" in row and "seed " in row for row in rows[:2]), rows  # issue 12
        assert "selfplay" in rows[0]
        assert "   98 actions" in rows[1] and "rejoined" in rows[1], rows[1]
        assert "unreadable" in rows[2] and "chess" in rows[2], rows[2]
