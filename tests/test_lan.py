"""LAN play on 127.0.0.1: lockstep, hidden hands, rejoin, hostile frames (the LAN issue).

No test here touches a real network: every socket is on 127.0.0.1 and nothing advertises.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import msgpack
import pick_ruleset  # tests/pick_ruleset.py (pytest puts tests/ on the path)
import pytest
from knowledge import Entitled  # tests/knowledge.py

from core.codec import pack
from core.wizwar.actions import Action
from core.wizwar.rules import to_move
from core.wizwar.state import State, state_hash
from net.lan import HostGame, PeerGame
from net.protocol import PROTOCOL_VERSION, ProtocolError, check

ROOT = Path(__file__).resolve().parents[1]


class Watcher:
    """Records, after every change on a peer, that it knows no face it may not know (what
    it may know: tests/knowledge.py). Telepath's choose tells the card taken to the thief
    and the victim only (the others are sent "P3 choose +31": test_secrets_frames.py checks
    every frame)."""

    def __init__(self, peer: PeerGame) -> None:
        self.peer = peer
        self.entitled = Entitled(peer)
        self.checks = 0
        self.leaks: list[str] = []
        peer.on_change = self.check

    def check(self) -> None:
        st = self.peer.state
        if st is None or not self.peer.seat:
            return
        self.entitled.update(st, self.peer.seat)
        self.leaks += [f"{self.peer.seat} knows card {cid} ({st.faces[cid]})"
                       for cid in self.entitled.leaks(st)]
        self.checks += 1


async def _game(players: int, bots: int = 0, peer_cls=PeerGame, timeout: float = 240):
    host = HostGame(players=players, bots=bots)
    port = await host.start()
    peers = [peer_cls("127.0.0.1", port, name=f"peer {i}")
             for i in range(players - 1 - bots)]
    watchers = [Watcher(p) for p in peers]
    try:
        res = await asyncio.wait_for(
            asyncio.gather(host.run(), *[p.run() for p in peers]), timeout)
    finally:
        await host.close()
    return host, peers, watchers, res


async def test_whole_game_same_hash_hidden_hands_audited() -> None:
    """Host and two peers play a whole game with bots: every peer ends on the host's hash,
    audits the deal, and never knew a face it may not know."""
    host, peers, watchers, res = await _game(3)
    assert res[0] and len(set(res)) == 1
    assert host.state is not None and host.state.winner
    assert all(p.audited for p in peers)
    for w in watchers:
        assert w.checks > 20 and not w.leaks, w.leaks[:3]


async def test_four_players_with_a_host_bot() -> None:
    """Four seats, one played by the host's bot: same final hash everywhere, no face known
    that may not be. (Reshuffles are checked in the random-play test, whose long games
    always run through the draw pile.)"""
    host, peers, watchers, res = await _game(4, bots=1)
    assert len(set(res)) == 1 and res[0]
    for w in watchers:
        assert w.checks > 0 and not w.leaks, (w.checks, w.leaks[:3])


async def test_peer_dropped_mid_stack_rejoins() -> None:
    """A peer whose connection dies while it must answer an attack rejoins with its seat
    token, catches up from the host's record, and the game finishes on one hash."""
    host = HostGame(players=2)
    port = await host.start()
    peer = PeerGame("127.0.0.1", port, name="flaky")
    killed = asyncio.Event()

    def maybe_kill() -> None:
        st = peer.state
        if not killed.is_set() and st is not None and st.windows and \
                st.windows[0].to_answer == peer.seat:
            killed.set()
            assert peer.conn is not None
            peer.conn.writer.transport.abort()

    peer.on_change = maybe_kill
    host_task = asyncio.create_task(host.run())
    try:
        with pytest.raises((ConnectionError, ProtocolError)):
            await asyncio.wait_for(peer.run(), 120)
        assert killed.is_set(), "no attack on the peer happened"
        await asyncio.sleep(0.1)
        assert host.seat_status()["P2"] == "disconnected"
        again = PeerGame("127.0.0.1", port, name="flaky", token=peer.token)
        final = await asyncio.wait_for(again.run(), 120)
        assert again.seat == "P2"
        assert final == await asyncio.wait_for(host_task, 10)
        assert again.audited
    finally:
        await host.close()


async def _raw(port: int, data: bytes) -> bytes:
    r, w = await asyncio.open_connection("127.0.0.1", port)
    w.write(data)
    await w.drain()
    try:
        got = await asyncio.wait_for(r.read(4096), 5)
    except (TimeoutError, ConnectionError):
        got = b""
    w.close()
    return got


async def test_hostile_frames_drop_only_that_connection() -> None:
    """Random bytes, a truncated frame, a huge length prefix, wrong types, a bad version and a
    forged seat: each drops (or is refused on) that connection only; the game finishes."""
    host = HostGame(players=2)
    port = await host.start()
    bad = [
        os.urandom(64),
        pack({"type": "hello", "proto": 1})[:-3],
        b"\xc6\xff\xff\xff\xf0" + b"x" * 100,  # bin32 claiming ~4 GB
        pack({"type": 5}),
        pack({"type": "hello", "proto": "1", "ruleset": 1, "rules_version": 1,
              "name": "x", "token": "", "nonce_commit": ""}),
        pack([1, 2, 3]),
    ]
    for data in bad:
        await _raw(port, data)
    refused = await _raw(port, pack({"type": "hello", "proto": PROTOCOL_VERSION + 1,
                                     "ruleset": "wizwar", "rules_version": 1, "content": "", "name": "old",
                                     "token": "", "nonce_commit": "00"}))
    msg = msgpack.unpackb(refused, raw=False)
    assert msg["type"] == "refuse" and "protocol version" in msg["reason"]
    assert host.seat_status()["P2"] == "free"
    peer = PeerGame("127.0.0.1", port, name="honest")
    rejected: list[str] = []
    peer.log = rejected.append
    host_task = asyncio.create_task(host.run())
    peer_task = asyncio.create_task(peer.run())
    try:
        while peer.state is None:
            await asyncio.sleep(0.01)
        assert peer.conn is not None
        await peer.conn.send({"type": "propose", "action": Action("P1", "end").to_wire(),
                              "seq": peer.state.seq, "window": 0})
        for data in bad[:3]:  # more garbage mid-game, on fresh connections
            await _raw(port, data)
        res = await asyncio.wait_for(asyncio.gather(host_task, peer_task), 240)
        assert res[0] and res[0] == res[1]
        assert any("you play P2, not P1" in r for r in rejected)
    finally:
        await host.close()


def test_schema_check_refuses_wrong_shapes() -> None:
    """Message validation: maps with a known type and the right key types only."""
    with pytest.raises(ProtocolError):
        check([1])
    with pytest.raises(ProtocolError):
        check({"type": "commit", "seq": "1"})
    with pytest.raises(ProtocolError):
        check({"type": "ack", "seq": True, "hash": "x"})
    assert check({"type": "ack", "seq": 1, "hash": "x"})["seq"] == 1


class SilentAnswerer(PeerGame):
    """Plays its turns with the bot but never answers an attack."""

    async def choose(self, st: State) -> Action | None:
        if st.windows:
            return None
        return await super().choose(st)


async def test_response_clock_enters_a_pass() -> None:
    """With a response clock, an attack left unanswered becomes a logged pass. (Every LAN
    game deals anew from the peers' nonces: play games until one has an attack on P2.)"""
    for _ in range(6):
        host = HostGame(players=2, clock=0.2)
        lines: list[str] = []
        host.log = lines.append
        port = await host.start()
        peer = SilentAnswerer("127.0.0.1", port)
        try:
            res = await asyncio.wait_for(asyncio.gather(host.run(), peer.run()), 240)
        finally:
            await host.close()
        assert res[0] == res[1]
        attacked = any(a.startswith("P1 ") and " @P2" in a or a == "P1 punch P2"
                       for a in host.actions)
        if attacked:
            assert any("ran out of time: pass" in x for x in lines)
            assert "P2 pass" in host.actions
            return
    pytest.fail("no game in six had an attack on P2")


def _free_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def _wizwar(*args: str, env: dict[str, str]) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "wizwar_tui.cli", *args], cwd=ROOT,
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)


def test_cli_three_processes_same_final_hash(tmp_path: Path) -> None:
    """`wizwar host --headless --bot --seats 3` and two `wizwar join --headless --bot` on
    loopback play a whole game and print the same final hash; one joiner is killed with
    SIGKILL mid-game and restarted, and takes its seat back."""
    port = _free_port()
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path), PYTHONUNBUFFERED="1")
    host = _wizwar("host", "--headless", "--bot", "--seats", "3", "--bind", "127.0.0.1",
                   "--port", str(port), "--dealer", "host", env=env)  # poker by default
    try:
        time.sleep(1.0)
        target = f"127.0.0.1:{port}"
        j1 = _wizwar("join", "--headless", "--bot", "--name", "ann", target, env=env)
        j2 = _wizwar("join", "--headless", "--bot", "--name", "bob", target, env=env)
        # kill bob once his game log has begun: a whole game of bots takes under a second
        games = tmp_path / "wizwar" / "games"
        deadline = time.monotonic() + 60
        while not (games.is_dir() and any(games.glob("*-peer-bob-*.wwlog"))):
            assert time.monotonic() < deadline and j2.poll() is None, "bob's game never began"
            time.sleep(0.002)
        assert j2.poll() is None, "the joiner finished before it could be killed"
        j2.send_signal(signal.SIGKILL)
        assert j2.wait(10) == -signal.SIGKILL
        j2 = _wizwar("join", "--headless", "--bot", "--name", "bob", target, env=env)
        results = [p.communicate(timeout=240) for p in (host, j1, j2)]
        outs = [r[0] for r in results]
    finally:
        for p in (host, j1, j2):
            if p.poll() is None:
                p.kill()
    hashes = [line.split()[-1] for o in outs for line in o.splitlines()
              if line.startswith("final hash")]
    assert len(hashes) == 3 and len(set(hashes)) == 1, outs
    host_log = results[0][1]
    assert "game started" in host_log
    rejoined = [s for s in ("P2", "P3") if host_log.count(f"{s} joined") == 2]
    assert len(rejoined) == 1, host_log
    assert host_log.index(f"{rejoined[0]} disconnected") > host_log.index("game started")
    # every process saved its log; all verify, the killed one as an unfinished game
    logs = sorted((tmp_path / "wizwar" / "games").glob("*.wwlog"))
    assert len(logs) == 4
    r = subprocess.run([sys.executable, "-m", "wizwar_tui.cli", "verify", *map(str, logs)],
                       cwd=ROOT, env=env, capture_output=True, text=True)
    assert r.returncode == 0 and r.stdout.strip().endswith("4 passed, 0 failed"), r.stdout
    assert r.stdout.count("(unfinished)") == 1
    assert len({line.split("final hash ")[1] for line in r.stdout.splitlines()
                if "final hash" in line and "unfinished" not in line}) == 1


def test_cli_host_says_its_port_once(tmp_path: Path) -> None:
    """`wizwar host --headless` says where it listens in one line (stdout), and nowhere
    else."""
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path), PYTHONUNBUFFERED="1")
    host = _wizwar("host", "--headless", "--bot", "--bind", "127.0.0.1", "--port", "0",
                   env=env)
    try:
        assert host.stdout is not None
        first = host.stdout.readline()
        m = re.fullmatch(r"listening on 127\.0\.0\.1:(\d+)\n", first)
        assert m, first
        host.terminate()
        out, err = host.communicate(timeout=30)
    finally:
        if host.poll() is None:
            host.kill()
    printed = first + out + err
    assert printed.count(m.group(1)) == 1, printed


class Tamperer(PeerGame):
    """A peer whose state is corrupted after a few actions (a bug or a cheat)."""

    def _commit(self, msg: dict) -> None:
        super()._commit(msg)
        if msg["seq"] == 5 and self.state is not None:
            self.state.wizard(self.seat).life += 3


async def test_a_desync_is_caught_reported_and_the_odd_peer_dropped(tmp_path: Path) -> None:
    """A peer whose state differs is caught at that sequence number: a desync report (both
    hashes, versions, who is at odds, the actions) is written; the host's own record
    replays to its hashes, so that peer is the odd one out: it is dropped, not the game,
    and an honest rejoin on its seat finishes the game on one hash. (A host fault still
    stops the game: tests/test_lan_hardening.py.)"""
    host = HostGame(players=2, report_dir=str(tmp_path))
    port = await host.start()
    peer = Tamperer("127.0.0.1", port, report_dir=str(tmp_path))
    host_task = asyncio.create_task(host.run())
    try:
        with contextlib.suppress(ConnectionError):  # dropped, or it found the desync itself
            await asyncio.wait_for(peer.run(), 60)
        # the peer may stop on its own finding (at 6) before the host judged its ack of 5
        end = time.monotonic() + 30
        while not host.reports and time.monotonic() < end:
            await asyncio.sleep(0.02)
        assert not host.desync and len(host.reports) == 1 and "seq5" in host.reports[0]
        text = Path(host.reports[0]).read_text()
        assert "desync at sequence 5" in text and "protocol" in text
        assert "P2 is the odd one out at action 5" in text
        assert host.state is not None and not host.state.winner
        again = PeerGame("127.0.0.1", port, name="honest", token=peer.token)
        final = await asyncio.wait_for(again.run(), 120)
        assert final == await asyncio.wait_for(host_task, 10) and again.audited
    finally:
        host_task.cancel()
        await host.close()


class RandomPeer(PeerGame):
    """Plays uniformly random legal actions (test-side randomness), to reach every card."""

    rnd: random.Random

    async def choose(self, st: State) -> Action | None:
        from core.wizwar.rules import legal_actions as legal

        acts = legal(st, self.seat)
        return self.rnd.choice(acts) if acts else None


async def _random_lan_game(rnd: random.Random) -> tuple[HostGame, list[RandomPeer],
                                                         list[Watcher]]:
    """A host (P1 played from ``rnd``) and two random peers over 127.0.0.1, played until a
    desync, the end of the game or action 700 (at most about 2 minutes)."""
    from core.wizwar.rules import legal_actions as legal

    host = HostGame(players=3, local_bot=False)
    port = await host.start()
    peers = []
    for _ in range(2):
        p = RandomPeer("127.0.0.1", port)
        p.rnd = random.Random(rnd.random())
        peers.append(p)
    watchers = [Watcher(p) for p in peers]

    async def host_player() -> None:
        assert host.local_actions is not None
        while True:
            await asyncio.sleep(0)
            st = host.state
            if st is None or st.winner or "P1" not in to_move(st) or \
                    not host.local_actions.empty():
                continue
            acts = legal(st, "P1")
            await host.local_actions.put(rnd.choice(acts))

    tasks = [asyncio.create_task(host.run()), asyncio.create_task(host_player()),
             *[asyncio.create_task(p.run()) for p in peers]]
    try:
        for _ in range(24000):
            await asyncio.sleep(0.005)
            st = host.state
            if host.desync or any(p.desync for p in peers) or \
                    (st is not None and (st.winner or st.seq >= 700)):
                break
        await asyncio.sleep(0.3)
    finally:
        for t in tasks:
            t.cancel()
        await host.close()
    return host, peers, watchers


@pytest.mark.parametrize("seed", [1, 2])
async def test_random_play_stays_in_sync_and_hidden(seed: int) -> None:
    """Random legal play (every implemented card gets played) over the LAN: no desync, no
    face known that may not be, every peer on the host's hash at its sequence number, through
    a reshuffle. The deal's nonces are fresh each run, so a game may end before its draw pile
    runs out: such a game is checked too, then dealt again (at most four games)."""
    rnd = random.Random(seed)
    for _attempt in range(4):
        host, peers, watchers = await _random_lan_game(rnd)
        assert not host.desync and not any(p.desync for p in peers)
        assert host.state is not None and host.state.seq > 50
        for p in peers:
            assert p.state is not None
            assert state_hash(p.state) == host.hashes[p.state.seq]
        for w in watchers:
            assert not w.leaks, w.leaks[:3]
        assert host.dealer is not None
        if any(h[3] > 0 for h in host.dealer.history):
            break
    else:
        raise AssertionError("no reshuffle in four games: the new draw pile is dealt behind "
                             "fresh commitments")
    played = {a.split()[2] for a in host.actions if a.split()[1] == "play"}
    assert len(played) >= 8, played
    print(f"seq {host.state.seq}, cards played: {sorted(played)}")


async def test_other_cards_refused_and_lobby_seat_freed() -> None:
    """A build with other cards is refused before it takes a seat; a peer that leaves the
    lobby before the deal frees its seat for someone else."""
    from net.protocol import hello

    host = HostGame(players=2)
    port = await host.start()
    try:
        other = {**hello(host.ruleset, "odd", "", "00"), "content": "0" * 16}
        got = msgpack.unpackb(await _raw(port, pack(other)), raw=False)
        assert got["type"] == "refuse" and "other game content" in got["reason"]
        assert host.seat_status()["P2"] == "free"
        r, w = await asyncio.open_connection("127.0.0.1", port)
        w.write(pack(hello(host.ruleset, "leaver", "", "00", "ab" * 32)))
        await w.drain()
        await asyncio.sleep(0.2)
        assert host.seat_status()["P2"] == "connected"
        w.close()
        await asyncio.sleep(0.2)
        assert host.seat_status()["P2"] == "free"
    finally:
        await host.close()


async def test_host_closing_tells_the_peers() -> None:
    """A host that closes a game in progress says so (bye): the peer stops, no rejoining."""
    from net.lan import HostClosed

    host = HostGame(players=2, local_bot=False)
    port = await host.start()
    peer = PeerGame("127.0.0.1", port)
    host_task = asyncio.create_task(host.run())
    peer_task = asyncio.create_task(peer.run())
    try:
        while peer.state is None:
            await asyncio.sleep(0.01)
        await host.close()
        with pytest.raises(HostClosed, match="closed the game"):
            await asyncio.wait_for(peer_task, 10)
    finally:
        host_task.cancel()


def test_two_processes_under_one_name_keep_their_own_seat_tokens(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two ``wizwar join`` of one user under one name ("guest" in two terminals) must not
    share a seat token (the second would take the first one's seat); once the first one
    has ended (a crash), the next join under that name finds its token and its seat."""
    from net.cli import load_token, save_token, token_slot

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path))
    first_token = "a" * 32
    holder = subprocess.Popen(
        [sys.executable, "-c",
         "import sys; from net.cli import save_token, token_slot\n"
         f"save_token('10.0.0.9', 7654, 'guest', {first_token!r})\n"
         "print(token_slot('10.0.0.9', 7654, 'guest'), flush=True); sys.stdin.read()"],
        cwd=ROOT, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdin is not None
        first_slot = holder.stdout.readline().strip()
        assert first_slot.endswith("guest.token")
        # a second process meanwhile: another slot, no token, and its own saved apart
        assert load_token("10.0.0.9", 7654, "guest") == ""
        assert token_slot("10.0.0.9", 7654, "guest") == first_slot + ".2"
        save_token("10.0.0.9", 7654, "guest", "b" * 32)
        assert load_token("10.0.0.9", 7654, "guest") == "b" * 32
        assert Path(first_slot).read_text() == first_token
        holder.stdin.close()  # the first player's process ends
        assert holder.wait(30) == 0
    finally:
        if holder.poll() is None:
            holder.kill()
    again = subprocess.run(
        [sys.executable, "-c",
         "from net.cli import load_token; print(load_token('10.0.0.9', 7654, 'guest'))"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=60, check=True)
    assert again.stdout.strip() == first_token  # the rejoin takes the first seat back


async def test_a_seat_taken_back_in_the_lobby_stays_taken() -> None:
    """A second connection with a seat's token, before the deal (the same player again,
    from another terminal), takes the seat once and keeps it: the old connection's ending
    does not free the seat under the newcomer (it once did: token and name cleared, and the
    two clients took the seat from each other in a loop). The newcomer's name and seed
    commitment count, and the game is dealt and played to the end."""
    import contextlib

    host = HostGame(players=3)
    port = await host.start()
    host_task = asyncio.create_task(host.run())
    first = PeerGame("127.0.0.1", port, name="ann")
    first_task = asyncio.create_task(first.run())
    tasks = [host_task, first_task]
    try:
        for _ in range(400):
            if first.token:
                break
            await asyncio.sleep(0.01)
        assert first.seat == "P2" and first.token
        again = PeerGame("127.0.0.1", port, name="ann again", token=first.token)
        again_task = asyncio.create_task(again.run())
        tasks.append(again_task)
        for _ in range(400):
            if again.seat and first_task.done():
                break
            await asyncio.sleep(0.01)
        other = PeerGame("127.0.0.1", port, name="cid")
        res = await asyncio.wait_for(asyncio.gather(host_task, again_task, other.run()), 240)
        assert len(set(res)) == 1 and res[0]
        # checked once the game is over, long after the old connection's ending ran
        seat = next(s for s in host.seats if s.seat == "P2")
        assert again.seat == "P2" and other.seat == "P3"
        assert seat.token == first.token and seat.name == "ann again"
    finally:
        await host.close()
        for t in tasks:
            t.cancel()
            with contextlib.suppress(BaseException):
                await t


async def test_a_crossed_game_stays_crossed_on_the_lan() -> None:
    """The crossed-exits option (dropped by the LAN before the ruleset seam) survives: the
    host deals it, the deal message carries it, the joiner's core builds the same crossed
    board, and the game ends on one hash."""
    host = HostGame(players=2, options={"crossed": True})
    port = await host.start()
    peer = PeerGame("127.0.0.1", port, name="cross")
    try:
        res = await asyncio.wait_for(asyncio.gather(host.run(), peer.run()), 240)
    finally:
        await host.close()
    assert res[0] == res[1] and res[0]
    assert host.options["crossed"] is True and peer.options == host.options
    assert host.deal_msg["options"] == {"players": 2, "crossed": 1, "doors": 0, "team": 0}
    for st in (host.state, peer.state):
        assert st.layout_spec["crossed"] == 1 and st.options["crossed"] == 1
    plain = host.ruleset.new_game(host.ruleset.validate_options({}), 1)
    assert plain.layout_spec["crossed"] == 0  # the option changes the board, not just a flag


async def test_an_unknown_or_other_ruleset_is_refused_in_words() -> None:
    """The handshake names the ruleset: a hello for a game the host does not know, or for
    another rules version, is refused with a reason a player reads; the seat stays free."""
    from net.protocol import hello

    host = HostGame(players=2)
    port = await host.start()
    try:
        base = hello(host.ruleset, "odd", "", "00")
        got = msgpack.unpackb(await _raw(port, pack({**base, "ruleset": "chess"})), raw=False)
        assert got["type"] == "refuse"
        assert "this host plays Wiz-War (wizwar)" in got["reason"] and "'chess'" in \
            got["reason"]
        got = msgpack.unpackb(await _raw(port, pack({**base, "rules_version": 0})), raw=False)
        assert got["type"] == "refuse" and "rules wizwar/0 do not match" in got["reason"]
        assert host.seat_status()["P2"] == "free"
    finally:
        await host.close()


def test_discovery_txt_names_the_game_and_its_public_options() -> None:
    from core import registry
    from net.discovery import txt_fields

    rs = registry.get("wizwar")
    assert txt_fields(rs, rs.validate_options({"crossed": True})) == (
        f"wizwar/{rs.version}", "players=2 crossed=1 doors=0 team=0")
    assert txt_fields(rs, rs.validate_options({"players": 4, "team": True}))[1] == \
        "players=4 crossed=0 doors=0 team=1"


def test_net_and_the_generic_engine_import_no_ruleset_and_no_app() -> None:
    """``net/``, the log, the sessions and the scenario runner know no game: no import of a
    ruleset's package, and ``net/`` none of the app (a command to spawn is not an import)."""
    import ast

    root = Path(__file__).resolve().parents[1]
    files = sorted((root / "net").glob("*.py")) + [
        root / "core" / n for n in ("log.py", "session.py", "scenario.py", "engine.py")]
    for f in files:
        for node in ast.walk(ast.parse(f.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            for n in names:
                assert not n.startswith("core.wizwar"), f"{f.name} imports {n}"
                if f.parent.name == "net":
                    assert not n.startswith("wizwar_tui"), f"{f.name} imports {n}"


def test_command_line_options_come_from_the_schema(capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """``wizwar host``/``play`` get one flag per option of the game's schema; a refused
    combination or an unknown GAME is a one-line usage error (status 2), no traceback;
    ``host`` and ``join`` describe their arguments."""
    from wizwar_tui import cli

    for cmd in ("host", "join"):
        with pytest.raises(SystemExit) as exc:
            cli.main([cmd, "--help"])
        assert exc.value.code == 0
        out = capsys.readouterr().out
        assert "TARGET" in out if cmd == "join" else ("GAME" in out and "--seed" in out)
        if cmd == "host":
            for flag in ("--players", "--seats", "--crossed", "--doors", "--team"):
                assert flag in out
    for bad, words in ((["host", "--seats", "3", "--crossed"], "--crossed"),
                       (["play", "--players", "2", "--team"], "--team"),
                       (["play", "chess"], "unknown game 'chess'"),
                       (["host", "chess", "--headless", "--bot"], "unknown game 'chess'"),
                       (["join", "--game", "chess", "127.0.0.1:1"], "unknown game 'chess'")):
        with pytest.raises(SystemExit) as exc:
            cli.main(bad)
        assert exc.value.code == 2, bad
        err = capsys.readouterr().err
        assert words in err and "Traceback" not in err, (bad, err)
    seen: dict = {}  # type: ignore[type-arg]

    def fake_run(args):  # type: ignore[no-untyped-def]
        seen.update(vars(args))
        return 0

    from net import cli as net_cli

    monkeypatch.setattr(net_cli, "run", fake_run)
    assert cli.main(["host", "wiz-war", "--seats", "2", "--crossed", "--seed", "9",
                     "--headless", "--bot"]) == 0
    assert seen["options"] == {"players": 2, "crossed": True, "doors": False, "team": False}
    assert seen["game"] == "wizwar" and seen["seed"] == 9 and seen["ruleset"].name == "wizwar"
    assert cli.main(["host", "--name", "wizwar", "--players", "4", "--team", "--headless",
                     "--bot"]) == 0
    assert seen["options"]["team"] and seen["seats"] == 4 and seen["name"] == "wizwar"


def test_a_seeded_headless_host_plays_the_same_game_twice(tmp_path: Path) -> None:
    """``wizwar host --seed S`` with every seat the host's: the same game, the same hash."""
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path), PYTHONUNBUFFERED="1")
    finals = []
    for _ in range(2):
        r = subprocess.run([sys.executable, "-m", "wizwar_tui.cli", "host", "--headless",
                            "--bot", "--players", "2", "--bots", "1", "--bind", "127.0.0.1",
                            "--port", "0", "--seed", "11"], env=env, capture_output=True,
                           text=True, timeout=240)
        assert r.returncode == 0, r.stderr
        finals.append([x for x in r.stdout.splitlines() if x.startswith("final hash")])
    assert finals[0] == finals[1] and finals[0]


# ---- a sealed stage: the test-only ruleset of tests/pick_ruleset.py ---------------------
class _SlowPicker(PeerGame):
    """A bot peer that takes ``delay`` seconds to choose: it seals later than the others."""

    delay: float = 0.0

    async def choose(self, st):  # type: ignore[no-untyped-def]
        await asyncio.sleep(self.delay)
        return await super().choose(st)


async def test_a_sealed_stage_does_not_depend_on_arrival_order(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A simultaneous sealed stage on 127.0.0.1: every seat commits, then all open; the host
    applies the openings in seat order. With the arrival order swapped (P2 slow, then P3
    slow) the games give the same actions and the same hashes at every step."""
    rs = pick_ruleset.register(monkeypatch)
    runs = []
    for slow in ("P2", "P3"):
        host = HostGame(ruleset=rs, options={"rounds": 4})
        port = await host.start()
        peers = [_SlowPicker("127.0.0.1", port, ruleset=rs) for _ in range(2)]
        try:
            for k, p in enumerate(peers):  # seated in this order: P2, then P3
                await p.connect()
                while host.seat_status()[f"P{k + 2}"] == "free":
                    await asyncio.sleep(0.01)
            for k, p in enumerate(peers):
                p.delay = 0.3 if f"P{k + 2}" == slow else 0.0
            res = await asyncio.wait_for(asyncio.gather(host.run(), *[p.run() for p in peers]),
                                         120)
        finally:
            await host.close()
        assert res[0] == res[1] == res[2] and res[0]
        assert [p.actions for p in peers] == [host.actions, host.actions]
        runs.append((host.actions, dict(host.hashes), host.sealed_order))
    (acts_a, hashes_a, order_a), (acts_b, hashes_b, order_b) = runs
    assert order_a[0][-1] == "P2" and order_b[0][-1] == "P3"  # the slow one sealed last
    assert acts_a == acts_b and hashes_a == hashes_b
    assert acts_a[:3] == ["P1 pick 3", "P2 pick 4", "P3 pick 5"]  # seat order
