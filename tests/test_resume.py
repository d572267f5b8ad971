"""Resuming a hosted LAN game from the host's log (``wizwar host --resume LOG``;
net/resume.py; docs/protocol.md, Resuming a game). Everything on 127.0.0.1."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import subprocess
import sys
from hashlib import blake2b
from pathlib import Path

import pytest
from test_lan import Watcher  # tests/test_lan.py

from core import log
from core.beacon import Chain
from net.lan import HostGame, PeerGame
from net.resume import ResumeError, load, restore

ROOT = Path(__file__).resolve().parents[1]


async def _interrupted(tmp_path: Path, stop_at: int, seed: int = 11) -> Path:
    """A 3-seat Wiz-War game (P1 the host's bot, P2 ann, P3 bob) stopped once the host has
    sequenced ``stop_at`` actions, as a host killed mid-game: its log is returned."""
    data: list[bytes] = []
    host = HostGame(players=3, seed=seed, writer=data.append)
    reached = asyncio.Event()
    host.on_change = lambda: (host.state is not None and host.state.seq >= stop_at
                              and reached.set())
    port = await host.start()
    peers = [PeerGame("127.0.0.1", port, name=n) for n in ("ann", "bob")]
    tasks = [asyncio.ensure_future(x) for x in (host.run(), *[p.run() for p in peers])]
    try:
        async with asyncio.timeout(120):
            await reached.wait()
    finally:
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(BaseException):
                await t
        for p in peers:
            if p.conn is not None:
                await p.conn.close()
        await host.close()
    path = tmp_path / "host.wwlog"
    path.write_bytes(b"".join(data))
    return path


async def played_log(seed: int, names: tuple[str, ...] = ("ann", "bob")) -> log.Loaded:
    """A whole 2-seat Wiz-War LAN game, every seat a joined bot player (``names``), as the
    host logged it. The host's seed and the players' nonces and dice chains are fixed, so
    the game is the same every time (seed 1: 134 actions, P1 wins; the last three are
    ``P2 end``, ``P1 play powerthrust @P2``, ``P2 pass``, none rolling)."""
    data: list[bytes] = []
    host = HostGame(players=len(names), local_seat=False, seed=seed, writer=data.append)
    port = await host.start()
    peers = []
    for n in names:
        p = PeerGame("127.0.0.1", port, name=n)
        p._nonce = blake2b(f"nonce:{seed}:{n}".encode(), digest_size=32).hexdigest()
        p.chain = Chain(blake2b(f"chain:{seed}:{n}".encode(), digest_size=32).digest())
        peers.append(p)
    try:
        async with asyncio.timeout(300):
            await asyncio.gather(host.run(), *[p.run() for p in peers])
    finally:
        await host.close()
    return log.read(b"".join(data))


def cut(loaded: log.Loaded, left: int, path: Path) -> Path:
    """``loaded`` as a host stopped ``left`` actions before the end would have left it."""
    path.write_bytes(b"".join(log.encode(x) for x in [loaded.header,
                                                       *loaded.records[:-left]]))
    return path


async def test_a_resumed_game_plays_on_to_its_end_with_hands_still_hidden(
        tmp_path: Path) -> None:
    """A host log of a game stopped at action 40 resumes: the logged actions are the new
    game's first 40, ann and bob take their seats back by name from new processes (in the
    other order), the game ends on one hash everywhere, every peer's audit of the resumed
    deal passes, no peer ever knew a card it may not know, and the resumed host's log is
    the whole game and replays."""
    path = await _interrupted(tmp_path, 40)
    saved = load(str(path))
    assert saved.actions >= 40 and saved.bots == 0
    data: list[bytes] = []
    host = HostGame(players=3, seed=5, writer=data.append)
    await restore(host, saved)
    assert host.seat_status() == {"P1": "host", "P2": "disconnected", "P3": "disconnected"}
    assert host.free_seats == 0
    port = await host.start()
    bob = PeerGame("127.0.0.1", port, name="bob")
    ann = PeerGame("127.0.0.1", port, name="ann")
    watchers = [Watcher(bob), Watcher(ann)]
    try:
        async with asyncio.timeout(240):
            res = await asyncio.gather(host.run(), bob.run(), ann.run())
    finally:
        await host.close()
    assert (bob.seat, ann.seat) == ("P3", "P2")
    assert res[0] and len(set(res)) == 1
    assert host.audit == "" and ann.audited and bob.audited
    for w in watchers:
        assert w.checks > 5 and not w.leaks, w.leaks[:3]
    new = log.read(b"".join(data))
    assert new.end is not None and len(new.records) > saved.actions
    assert [r["action"] for r in new.records[:saved.actions]] == \
        [r["action"] for r in saved.loaded.records]
    log.replay(new)  # every stored hash, the end and the audit of sealed actions


async def test_a_game_of_sealed_stages_resumes(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Another game of the engine: "Pick a number" (sealed simultaneous stages, no dealt
    secret) stopped after its first round plays on to its end with its players back by
    name, on one hash everywhere."""
    import pick_ruleset

    rs = pick_ruleset.register(monkeypatch)
    data: list[bytes] = []
    host = HostGame(ruleset=rs, options={"rounds": 3}, bots=1, writer=data.append, seed=2)
    reached = asyncio.Event()
    host.on_change = lambda: (host.state is not None and rs.seq(host.state) >= 3
                              and reached.set())
    port = await host.start()
    peer = PeerGame("127.0.0.1", port, name="ann", ruleset=rs)
    tasks = [asyncio.ensure_future(x) for x in (host.run(), peer.run())]
    try:
        async with asyncio.timeout(60):
            await reached.wait()
    finally:
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(BaseException):
                await t
        if peer.conn is not None:
            await peer.conn.close()
        await host.close()
    path = tmp_path / "pick.wwlog"
    path.write_bytes(b"".join(data))
    saved = load(str(path))
    assert saved.actions == 3 and saved.bots == 1
    again = HostGame(ruleset=rs, options=saved.options, bots=saved.bots)
    await restore(again, saved)
    port = await again.start()
    ann = PeerGame("127.0.0.1", port, name="ann", ruleset=rs)
    try:
        async with asyncio.timeout(60):
            res = await asyncio.gather(again.run(), ann.run())
    finally:
        await again.close()
    assert ann.seat == "P2" and res[0] and len(set(res)) == 1
    assert rs.result(again.state).over and again.audit == ""


async def test_a_stranger_gets_no_seat_of_a_resumed_game(tmp_path: Path) -> None:
    """Only the names the log holds take its seats: a stranger is refused (the game is
    full), and a seat once taken back needs its token, not just its name."""
    saved = load(str(await _interrupted(tmp_path, 12)))
    host = HostGame(players=3, seed=5)
    await restore(host, saved)
    port = await host.start()
    try:
        eve = PeerGame("127.0.0.1", port, name="eve")
        with pytest.raises(Exception, match="full"):
            async with asyncio.timeout(30):
                await eve.run()
        ann = PeerGame("127.0.0.1", port, name="ann")
        run = asyncio.ensure_future(ann.run())
        async with asyncio.timeout(30):
            while host.seat_status()["P2"] != "connected":
                await asyncio.sleep(0.02)
        again = PeerGame("127.0.0.1", port, name="ann")
        with pytest.raises(Exception, match="full"):
            async with asyncio.timeout(30):
                await again.run()
        run.cancel()
        with contextlib.suppress(BaseException):
            await run
    finally:
        await host.close()


async def test_what_cannot_be_resumed_is_refused_in_words(tmp_path: Path) -> None:
    """No file, not a log, a player's log, a finished game, a log without actions: each
    refused with its reason."""
    with pytest.raises(ResumeError, match="cannot read"):
        load(str(tmp_path / "nothing.wwlog"))
    junk = tmp_path / "junk.wwlog"
    junk.write_bytes(b"not a log")
    with pytest.raises(ResumeError, match="not a game log"):
        load(str(junk))
    path = await _interrupted(tmp_path, 5)
    loaded = log.read(path.read_bytes())
    peer = tmp_path / "peer.wwlog"
    peer.write_bytes(b"".join(log.encode(x) for x in [
        {**loaded.header, "kind": "peer", "viewer": "P2"}, *loaded.records]))
    with pytest.raises(ResumeError, match="only the host's own log"):
        load(str(peer))
    empty = tmp_path / "empty.wwlog"
    empty.write_bytes(log.encode(loaded.header))
    with pytest.raises(ResumeError, match="no action was played"):
        load(str(empty))
    over = tmp_path / "over.wwlog"
    st = log.replay(loaded)
    over.write_bytes(path.read_bytes() + log.encode(log.end_record(loaded.ruleset, st)))
    with pytest.raises(ResumeError, match="is over"):
        load(str(over))


async def test_the_apps_host_screen_resumes(tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """``wizwar host --resume LOG`` in the app: the game screen comes at once at the log's
    last action with the app's player on P1 (the host's own seat in the log); ann and bob
    take their seats back by name, the game plays on (the app's player types a move that is
    committed) and the players' cores follow."""
    import argparse

    from test_tui_lan import type_action, until

    from core.wizwar import bot
    from wizwar_tui.app import WizWarApp
    from wizwar_tui.wizwar.game import GameScreen

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    saved = load(str(await _interrupted(tmp_path, 15)))
    args = argparse.Namespace(cmd="host", name="resumed", port=0, bind="127.0.0.1",
                              seats=3, bots=saved.bots, clock=None, advertise=False,
                              options=saved.options, game=saved.ruleset.name, saved=saved)
    app = WizWarApp(lan_args=args, discovery=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, GameScreen), 30, "the game screen")
        game = app.screen
        assert isinstance(game, GameScreen) and game.human == "P1"
        s = game.session
        assert len(s.actions) == saved.actions
        link = app.lan
        assert link is not None
        host = link.game
        assert isinstance(host, HostGame)
        peers = [PeerGame("127.0.0.1", host.port, name=n, bot_play=True)
                 for n in ("bob", "ann")]
        tasks = [asyncio.ensure_future(p.run()) for p in peers]
        try:
            await until(pilot, lambda: all(p.seat for p in peers), 30, "the seats taken")
            assert [p.seat for p in peers] == ["P3", "P2"]
            await until(pilot, lambda: game.human_to_act() or host.over, 60, "P1's turn")
            if not host.over:
                n = len(s.actions)
                action = bot.choose(s.view(), s.human, s.legal_actions())
                await type_action(pilot, app, str(action).split(" ", 1)[1])
                await until(pilot, lambda: len(s.actions) > n, 30, "the commit")
                assert s.actions[n] == str(action)
                await until(pilot, lambda: all(p.actions[:n + 1] == s.actions[:n + 1]
                                               for p in peers), 30, "the players to follow")
            assert not host.desync
        finally:
            for t in tasks:
                t.cancel()
            for t in tasks:
                with contextlib.suppress(BaseException):
                    await t


def test_the_command_refuses_in_words(tmp_path: Path) -> None:
    """A bad LOG is an argparse error in words (exit 2)."""
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data"), "PYTHONPATH": str(ROOT)}
    bad = subprocess.run([sys.executable, "-m", "wizwar_tui.cli", "host", "--resume",
                          str(tmp_path / "none.wwlog"), "--headless", "--bot"],
                         capture_output=True, text=True, env=env, timeout=60)
    assert bad.returncode == 2 and "--resume: cannot read" in bad.stderr
    junk = tmp_path / "junk.wwlog"
    junk.write_bytes(b"\x00")
    bad = subprocess.run([sys.executable, "-m", "wizwar_tui.cli", "host", "--resume",
                          str(junk), "--web", "0"], capture_output=True, text=True, env=env,
                         timeout=60)
    assert bad.returncode == 2 and "is not a game log" in bad.stderr


@pytest.mark.parametrize("front", [["--headless", "--bot"], ["--ssh", "127.0.0.1:0", "--bot"],
                                   ["--web", "0", "--bot"]], ids=["headless", "ssh", "web"])
def test_every_hosting_path_resumes(tmp_path: Path, front: list[str]) -> None:
    """``wizwar host --resume LOG`` with ``--headless --bot``, ``--ssh`` or ``--web`` plays
    on: its players, joined by ``wizwar join --headless --bot`` on the game port under the
    names they had (in the other order), get their seats back and every process ends on one
    final hash (the host exits 0). P1 was the host's bot, so ``--bot`` keeps it so."""
    path = asyncio.run(_interrupted(tmp_path, 20))
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data"), "PYTHONPATH": str(ROOT),
           "PYTHONUNBUFFERED": "1"}
    host = subprocess.Popen([sys.executable, "-m", "wizwar_tui.cli", "host", "--resume",
                             str(path), *front, "--bind", "127.0.0.1", "--port", "0",
                             "--seed", "3", "--no-advertise"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    joins: list[subprocess.Popen[str]] = []
    try:
        assert host.stdout is not None
        line = host.stdout.readline()
        if front[0] != "--headless":
            line = host.stdout.readline()  # after the front's own port: the game port
        m = re.search(r"(?:listening on|game port) 127\.0\.0\.1:(\d+)", line)
        assert m, line
        joins = [subprocess.Popen([sys.executable, "-m", "wizwar_tui.cli", "join",
                                   f"127.0.0.1:{m.group(1)}", "--name", n, "--headless",
                                   "--bot"],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                  env=env) for n in ("bob", "ann")]
        outs = [j.communicate(timeout=300) for j in joins]
        hout, herr = host.communicate(timeout=120)
    finally:
        for p in (host, *joins):
            if p.poll() is None:
                p.kill()
                p.wait()
    assert host.returncode == 0, herr
    assert "resumed" in herr and "at action" in herr, herr
    finals = {ln for out, _ in outs for ln in out.splitlines() if ln.startswith("final hash")}
    finals |= {ln for ln in hout.splitlines() if ln.startswith("final hash")}
    assert len(finals) == 1, (finals, [e for _, e in outs])
    assert [ln for ln in outs[0][0].splitlines() if ln.startswith("seat")] == ["seat P3"]
    assert [ln for ln in outs[1][0].splitlines() if ln.startswith("seat")] == ["seat P2"]


async def test_a_resumed_game_nobody_plays_on_writes_no_saved_game(tmp_path: Path) -> None:
    """``restore`` writes nothing until an action is played on (the header and the logged
    actions are held), then all of them and that action, in order; and ``wizwar host
    --resume LOG --web`` stopped before anyone joined leaves no new saved game (every start
    used to write one). (Without ``--bot``: the host's bot would play on at once when P1 is
    to move, and then the new log is rightly written.)"""
    path = await _interrupted(tmp_path, 20)
    saved = load(str(path))
    data: list[bytes] = []
    host = HostGame(players=3, seed=5, writer=data.append)
    await restore(host, saved)
    assert data == []  # nothing yet: nobody has played on
    assert host.state is not None
    from core import beacon
    from core.wizwar.rules import legal_actions, to_move

    # an action that rolls no dice (the interrupted game's deal is not fixed)
    action = next(a for a in legal_actions(host.state, to_move(host.state)[0])
                  if not beacon.needs_chance(host.ruleset, host.state, a))
    await host.commit(action)
    for _ in range(500):  # the record is written just after the commit is sent (protocol 5)
        if data and len(log.read(b"".join(data)).records) > saved.actions:
            break
        await asyncio.sleep(0.01)
    got = log.read(b"".join(data))
    assert len(got.records) == saved.actions + 1
    assert [r["action"] for r in got.records[:saved.actions]] == \
        [r["action"] for r in saved.loaded.records]
    await host.close()

    games = tmp_path / "data" / "wizwar" / "games"
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data"), "PYTHONPATH": str(ROOT),
           "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "wizwar_tui.cli", "host", "--resume",
                             str(path), "--web", "0", "--no-advertise"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert proc.stdout is not None
        said = [proc.stdout.readline() for _ in range(3)]
        assert said[2].startswith("players open:"), said
        link = said[2].split("open:", 1)[1].strip()

        async def page() -> int:  # served: the host is in its game loop, its signals set
            import aiohttp

            async with aiohttp.ClientSession() as s, s.get(link) as r:
                return r.status

        assert await page() == 200
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(60) == 130
        err = proc.stderr.read() if proc.stderr else ""
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert "resumed" in err and "game log:" not in err, err
    assert not games.exists() or not [p.name for p in games.iterdir()], list(games.iterdir())
