"""Play over SSH (net/ssh.py, wizwar_tui/ssh.py) and watchers (net/lan.py).

Everything listens on 127.0.0.1 on free ports. Three layers:
- the LAN layer's watchers and a host where P1 joins too (no SSH at all);
- the SSH server driven by asyncssh's own client in this process, with a tiny stand-in
  for the app (log-in rules, refusals, terminal size, reconnection rules);
- real OpenSSH ``ssh`` clients in tmux (on a private tmux server) playing the real app,
  and the ``wizwar host --ssh`` command itself. These skip only when ``ssh`` or ``tmux``
  is missing (.ci/run installs both).
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import asyncssh
import pytest
from knowledge import Entitled  # tests/knowledge.py

from core.wizwar.rules import legal_actions, to_move
from core.wizwar.state import state_hash
from net import ssh as wssh
from net.lan import Conn, HostGame, PeerGame
from net.protocol import hello

REPO = Path(__file__).resolve().parent.parent
NEED_CLIENT = pytest.mark.skipif(
    shutil.which("ssh") is None or shutil.which("tmux") is None,
    reason="needs the OpenSSH client (ssh) and tmux; .ci/run installs both")
SSH_OPTS = ["-F", "/dev/null", "-o", "StrictHostKeyChecking=no",
            "-o", "UserKnownHostsFile=/dev/null", "-o", "LogLevel=ERROR",
            "-o", "BatchMode=yes", "-o", "IdentityAgent=none", "-o", "ConnectTimeout=20"]


async def until(cond: Callable[[], bool], what: str, timeout: float = 60.0) -> None:
    """Wait until ``cond()`` holds (the deadline only turns a hang into a failure)."""
    end = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.05)


# ------------------------------------------------------------------ small pieces
def test_parse_listen() -> None:
    assert wssh.parse_listen("2222") == ("0.0.0.0", 2222)
    assert wssh.parse_listen("127.0.0.1:0") == ("127.0.0.1", 0)
    assert wssh.parse_listen("[::1]:22") == ("::1", 22)
    assert wssh.parse_listen(":2222") == ("0.0.0.0", 2222)
    for bad in ("", "abc", "host:", "1.2.3.4:99999", "h:-1"):
        with pytest.raises(ValueError):
            wssh.parse_listen(bad)


def test_player_names() -> None:
    for good in ("ann", "Bob_2", "x", "a.b-c", "9lives", "a" * 20):
        assert wssh.player_name(good) == good
    for bad in ("", "a" * 21, "-ann", ".ann", "ann b", "ann;ls", "ann\n", "é", "$(id)"):
        assert wssh.player_name(bad) == ""


def test_host_key_made_once_and_private(tmp_path: Path) -> None:
    path = tmp_path / "cfg" / "wizwar" / wssh.HOST_KEY_FILE
    first = wssh.load_host_key(str(path))
    assert path.stat().st_mode & 0o777 == 0o600
    assert path.parent.stat().st_mode & 0o777 == 0o700
    again = wssh.load_host_key(str(path))
    assert again.get_fingerprint() == first.get_fingerprint()


def test_host_key_lives_in_the_user_config_folder(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    assert wssh.host_key_path() == str(tmp_path / "wizwar" / wssh.HOST_KEY_FILE)


def test_child_env_keeps_nothing_of_the_servers_terminal(
        monkeypatch: pytest.MonkeyPatch) -> None:
    for k, v in {"TMUX": "/tmp/x", "COLUMNS": "200", "LINES": "50", "TEXTUAL": "devtools",
                 "SSH_AUTH_SOCK": "/tmp/agent", "LC_ALL": "C"}.items():
        monkeypatch.setenv(k, v)
    env = wssh.child_env("screen-256color")
    assert env["TERM"] == "screen-256color"
    for k in ("TMUX", "COLUMNS", "LINES", "TEXTUAL", "SSH_AUTH_SOCK", "LC_ALL"):
        assert k not in env
    assert "UTF-8" in env["LANG"].upper().replace("UTF8", "UTF-8")
    assert wssh.child_env("xterm; rm -rf /")["TERM"] == "xterm-256color"
    assert env["WIZWAR_ASCII"] == "0"
    assert wssh.child_env("linux", ascii_only=True)["WIZWAR_ASCII"] == "1"


def test_client_locale_decides_ascii() -> None:
    """A client whose locale (LC_ALL, else LC_CTYPE, else LANG) is not UTF-8 gets the ASCII
    board; a UTF-8 one, or none sent, gets box drawing (issue: non-UTF-8 locale)."""
    assert not wssh.client_wants_ascii({})
    assert not wssh.client_wants_ascii({"LANG": "en_GB.UTF-8"})
    assert not wssh.client_wants_ascii({"LANG": "de_DE.utf8"})
    assert wssh.client_wants_ascii({"LANG": "C"})
    assert wssh.client_wants_ascii({"LANG": "en_US.UTF-8", "LC_ALL": "POSIX"})
    assert not wssh.client_wants_ascii({"LANG": "C", "LC_CTYPE": "C.UTF-8"})
    assert wssh.client_wants_ascii({"LANG": "en_US.ISO-8859-1"})


def test_session_app_draws_ascii_for_a_non_utf8_client(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The session app follows WIZWAR_ASCII, which the server sets from the client's locale
    (a trial found the app ignoring it)."""
    from wizwar_tui.ssh import SSHPlayerApp

    monkeypatch.setenv("WIZWAR_ASCII", "1")
    assert SSHPlayerApp("127.0.0.1", 1, "ann").ascii_only
    monkeypatch.setenv("WIZWAR_ASCII", "0")
    assert not SSHPlayerApp("127.0.0.1", 1, "ann").ascii_only


def test_host_ssh_refuses_bad_arguments(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    """Bad ``--ssh`` values, a missing keys file and no seat left for a player stop the
    command before anything listens (exit 2, with the reason)."""
    from wizwar_tui.cli import main

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    assert main(["host", "--ssh", "nope"]) == 2
    assert "'nope' is not [HOST:]PORT" in capsys.readouterr().err
    assert main(["host", "--ssh", "127.0.0.1:70000"]) == 2
    assert "not a port" in capsys.readouterr().err
    assert main(["host", "--ssh", "127.0.0.1:0", "--ssh-keys", str(tmp_path / "none")]) == 2
    assert "--ssh-keys" in capsys.readouterr().err
    assert main(["host", "--ssh", "127.0.0.1:0", "--bot", "--bots", "1"]) == 2
    assert "leave a seat for a player" in capsys.readouterr().err
    assert not (tmp_path / "wizwar").exists()  # no host key made for nothing


# ------------------------------------------------------------------ LAN layer: watchers
class PublicOnly:
    """After every change on a watcher: it knows no face that was never shown to all
    (tests/knowledge.py). The card a Telepath takes is told to the thief and the victim only
    (a watcher is sent ``P2 choose +31``: tests/test_secrets_frames.py checks every frame)."""

    def __init__(self, peer: PeerGame) -> None:
        self.peer = peer
        self.entitled = Entitled(peer)
        self.leaks: list[str] = []
        self.checks = 0
        peer.on_change = self.check

    def check(self) -> None:
        st = self.peer.state
        if st is None:
            return
        self.entitled.update(st)
        self.leaks += [f"the watcher knows card {cid} ({st.faces[cid]})"
                       for cid in self.entitled.leaks(st)]
        self.checks += 1


async def test_watcher_sees_the_whole_game_and_no_hand() -> None:
    """Two bot peers play a whole game on a host where P1 joins too; a watcher joins after
    a few actions, catches up, ends on the same hash, audits the deal, and never knows a
    face that was not public; it has no seat and proposes nothing."""
    host = HostGame(players=2, local_seat=False)
    port = await host.start()
    assert host.seat_status() == {"P1": "free", "P2": "free"}
    peers = [PeerGame("127.0.0.1", port, name=n) for n in ("ann", "bob")]
    watcher = PeerGame("127.0.0.1", port, name="eve", watch=True)
    spy = PublicOnly(watcher)
    tasks = [asyncio.create_task(host.run()), *[asyncio.create_task(p.run()) for p in peers]]
    try:
        await until(lambda: host.state is not None and host.state.seq >= 5, "some actions")
        wtask = asyncio.create_task(watcher.run())
        res = await asyncio.wait_for(asyncio.gather(*tasks), 240)
        wres = await asyncio.wait_for(wtask, 30)
    finally:
        for t in tasks:
            t.cancel()
        await host.close()
    assert {p.seat for p in peers} == {"P1", "P2"}
    assert res[0] and set(res) == {res[0]} and wres == res[0]
    assert watcher.seat == "" and watcher.audited
    # the same actions, a Telepath's choice sealed for the watcher ("P2 choose +57": the
    # card instance, no face; docs/protocol.md, sealed action fields)
    assert len(watcher.actions) == len(host.actions)
    for mine, real in zip(watcher.actions, host.actions, strict=True):
        if mine != real:
            assert real.split()[1] == "choose" and mine.split()[:2] == real.split()[:2] \
                and mine.split()[2].startswith("+"), (mine, real)
    assert spy.checks > 20 and not spy.leaks, spy.leaks[:3]
    # the host's full state knows every face; the watcher's knows only public ones
    assert watcher.state is not None and host.state is not None
    hidden = [c for c in range(len(host.state.faces)) if c not in spy.entitled.known]
    assert hidden and all(watcher.state.faces[c] == "" for c in hidden)


async def test_a_watcher_cannot_vote_or_play() -> None:
    """A watcher's wrong ack is ignored (no desync), and a watcher that proposes an action
    is dropped; the game and the other watcher go on."""
    host = HostGame(players=2)  # P1: the host's bot; P2: a player who acts when told
    port = await host.start()
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    rogue = Conn(reader, writer)
    msg = hello(host.ruleset, "mallory", "", "00" * 16)
    msg["watch"] = True
    await rogue.send(msg)
    welcome = await rogue.frames.read()
    assert welcome is not None and welcome["type"] == "welcome" and welcome["seat"] == ""
    quiet = PeerGame("127.0.0.1", port, name="eve", watch=True)
    player = PeerGame("127.0.0.1", port, name="ann", bot_play=False)
    tasks = [asyncio.create_task(t) for t in (quiet.run(), player.run(), host.run())]
    try:
        await until(lambda: len(host.watchers) == 2, "two watchers")

        def p2_to_act() -> bool:
            st = host.state
            return st is not None and "P2" in to_move(st) and player.state is not None \
                and player.state.seq == st.seq

        await until(p2_to_act, "P2 to act")
        assert host.state is not None
        seq = host.state.seq
        await rogue.send({"type": "ack", "seq": seq, "hash": "0" * 16})
        await rogue.send({"type": "propose", "action": ["P2", "end", "", [], None, []],
                          "seq": seq, "window": 0})
        await until(lambda: len(host.watchers) == 1, "the proposing watcher dropped")
        assert not host.desync and host.state.seq == seq  # messages are handled in order
        assert player.local_actions is not None
        player.local_actions.put_nowait(legal_actions(host.state, "P2")[0])
        await until(lambda: host.state is not None and host.state.seq > seq and
                    quiet.state is not None and quiet.state.seq == host.state.seq,
                    "the game goes on, the other watcher follows")
        assert state_hash(quiet.state) == state_hash(host.state)  # type: ignore[arg-type]
    finally:
        for t in tasks:
            t.cancel()
        await host.close()
        await rogue.close()


async def test_watchers_are_limited() -> None:
    host = HostGame(players=2, max_watchers=1)
    port = await host.start()
    first = PeerGame("127.0.0.1", port, name="w1", watch=True)
    t = asyncio.create_task(first.run())
    await until(lambda: len(host.watchers) == 1, "the first watcher")
    second = PeerGame("127.0.0.1", port, name="w2", watch=True)
    from net.lan import JoinRefused

    with pytest.raises(JoinRefused, match="too many watchers"):
        await asyncio.wait_for(second.run(), 10)
    t.cancel()
    await host.close()


# ------------------------------------------------------------------ the SSH server in-process
STANDIN = r"""
import os, signal, sys
name, mode = sys.argv[1], sys.argv[2]
def size(*_):
    c, r = os.get_terminal_size(0)
    print(f"size {c}x{r}", flush=True)
signal.signal(signal.SIGWINCH, size)
print(f"hello {name} {mode} term={os.environ.get('TERM')} pid={os.getpid()} "
      f"tty={os.isatty(0)} rejoin={sys.argv[3]!r}", flush=True)
size()
line = sys.stdin.readline()
print(f"got {line.strip()}", flush=True)
"""


def standin(name: str, watch: bool, rejoin: str) -> list[str]:
    """A stand-in for the app: says who it is and its terminal size, echoes one line."""
    return [sys.executable, "-c", STANDIN, name, "watch" if watch else "play", rejoin]


@pytest.fixture(scope="module")
def host_key() -> asyncssh.SSHKey:
    return asyncssh.generate_private_key("ssh-ed25519")


async def _server(host_key: asyncssh.SSHKey, **kw: object) -> wssh.GameSSHServer:
    kw.setdefault("command", standin)
    server = wssh.GameSSHServer("127.0.0.1", 9, bind="127.0.0.1", port=0,
                                host_key=host_key, **kw)  # type: ignore[arg-type]
    await server.start()
    return server


def _connect(server: wssh.GameSSHServer, user: str, **kw: object):  # type: ignore[no-untyped-def]
    kw.setdefault("client_keys", None)
    return asyncssh.connect("127.0.0.1", server.port, username=user, known_hosts=None,
                            agent_path=None, **kw)  # type: ignore[arg-type]


async def _read_until(proc, pattern: str, timeout: float = 30) -> str:  # type: ignore[no-untyped-def]
    """Read a session's output until ``pattern`` (a regex) appears; returns all of it."""
    out = ""
    end = time.monotonic() + timeout
    while not re.search(pattern, out):
        left = end - time.monotonic()
        if left <= 0:
            raise AssertionError(f"no {pattern!r} in {out!r}")
        try:
            chunk = await asyncio.wait_for(proc.stdout.read(4096), left)
        except TimeoutError:
            continue
        if not chunk:
            raise AssertionError(f"session ended before {pattern!r}: {out!r}")
        out += chunk
    return out


async def test_session_gets_its_own_terminal_and_size(host_key: asyncssh.SSHKey) -> None:
    """No login asked by default; the app runs on a PTY of the client's size and type; a
    resize reaches it; keys reach it; its exit status ends the session."""
    server = await _server(host_key)
    try:
        async with _connect(server, "ann") as conn:
            proc = await conn.create_process(term_type="xterm-256color", term_size=(91, 27))
            out = await _read_until(proc, r"size 91x27")
            assert "hello ann play term=xterm-256color" in out and "tty=True" in out
            assert f"rejoin='ssh -p {server.port} ann@127.0.0.1'" in out
            proc.change_terminal_size(120, 40)
            await _read_until(proc, r"size 120x40")
            proc.stdin.write("one line\r")
            await _read_until(proc, r"got one line")
            await asyncio.wait_for(proc.wait_closed(), 20)
            assert proc.exit_status == 0
    finally:
        await server.close()


async def test_only_the_game_is_reachable(host_key: asyncssh.SSHKey) -> None:
    """Commands, sftp, port forwarding both ways are refused; a shell without a terminal
    gets told to use ``ssh -t``."""
    server = await _server(host_key)
    try:
        async with _connect(server, "ann") as conn:
            with pytest.raises(asyncssh.ChannelOpenError):
                await conn.run("id")
            with pytest.raises((asyncssh.ChannelOpenError, asyncssh.SFTPError)):
                await conn.start_sftp_client()
            with pytest.raises(asyncssh.ChannelOpenError) as refused:
                await conn.create_connection(asyncssh.SSHTCPSession, "127.0.0.1", 22)
            assert "port forwarding is not offered by this server" in refused.value.reason
            with pytest.raises(asyncssh.ChannelListenError):
                await conn.forward_remote_port("127.0.0.1", 0, "127.0.0.1", 22)
        async with _connect(server, "bob") as conn:
            proc = await conn.create_process()  # no terminal
            out = await asyncio.wait_for(proc.stdout.read(), 20)
            await proc.wait_closed()
            assert "needs a terminal" in out and proc.exit_status == 1
    finally:
        await server.close()


async def test_connections_are_limited(host_key: asyncssh.SSHKey) -> None:
    """Connections that open no session count too: one over ``max_connections`` is told
    there are too many; when one closes, a newcomer gets in again."""
    server = await _server(host_key, max_connections=2, idle_timeout=600)
    try:
        first = await _connect(server, "ann")
        second = await _connect(server, "bob")
        with pytest.raises(asyncssh.DisconnectError) as refused:
            async with _connect(server, "eve"):
                pass
        assert refused.value.code == asyncssh.DISC_TOO_MANY_CONNECTIONS
        assert "too many connections" in refused.value.reason
        first.close()
        await first.wait_closed()
        await until(lambda: len(server.connections) == 1, "the closed connection uncounted")
        async with _connect(server, "eve") as conn:
            proc = await conn.create_process(term_type="xterm", term_size=(80, 24))
            await _read_until(proc, r"hello eve play")
            proc.close()
        second.close()
    finally:
        await server.close()


async def test_an_idle_connection_without_a_session_is_dropped(
        host_key: asyncssh.SSHKey) -> None:
    """Logged in but no session (``ssh -N``): disconnected after ``idle_timeout``, with the
    reason; a connection with its game session is not."""
    server = await _server(host_key, idle_timeout=0.3)
    try:
        idle = await _connect(server, "ann")
        playing = await _connect(server, "bob")
        proc = await playing.create_process(term_type="xterm", term_size=(80, 24))
        await _read_until(proc, r"hello bob play")
        await asyncio.wait_for(idle.wait_closed(), 30)
        assert not server.connections - {c for c in server.connections if c.sessions}
        assert len(server.connections) == 1  # bob's, with its session, stays
        proc.stdin.write("done\r")
        await _read_until(proc, r"got done")
        playing.close()
    finally:
        await server.close()


async def test_password_login(host_key: asyncssh.SSHKey) -> None:
    server = await _server(host_key, password="s3cret")
    try:
        with pytest.raises(asyncssh.PermissionDenied):
            async with _connect(server, "ann", password="wrong"):
                pass
        with pytest.raises(asyncssh.PermissionDenied):
            async with _connect(server, "ann"):  # no password at all
                pass
        async with _connect(server, "ann", password="s3cret") as conn:
            proc = await conn.create_process(term_type="xterm", term_size=(80, 24))
            await _read_until(proc, r"hello ann play")
            proc.close()
    finally:
        await server.close()


async def test_key_login_and_a_name_belongs_to_its_key(host_key: asyncssh.SSHKey,
                                                       tmp_path: Path) -> None:
    """Only keys in the authorized_keys file log in; the first key to play a name keeps it."""
    good, other, stranger, forced = (asyncssh.generate_private_key("ssh-ed25519")
                                     for _ in range(4))
    keys = tmp_path / "authorized_keys"
    keys.write_bytes(good.export_public_key() + other.export_public_key()
                     + b'command="ls" ' + forced.export_public_key())
    server = await _server(host_key, authorized_keys=str(keys))
    try:
        with pytest.raises(asyncssh.PermissionDenied):
            async with _connect(server, "ann", client_keys=[stranger]):
                pass
        with pytest.raises(asyncssh.PermissionDenied):  # a key for a forced command only
            async with _connect(server, "ann", client_keys=[forced]):
                pass
        async with _connect(server, "ann", client_keys=[good]) as conn:
            proc = await conn.create_process(term_type="xterm", term_size=(80, 24))
            await _read_until(proc, r"hello ann play")
            proc.stdin.write("bye\r")
            await asyncio.wait_for(proc.wait_closed(), 20)
        async with _connect(server, "ann", client_keys=[other]) as conn:
            proc = await conn.create_process(term_type="xterm", term_size=(80, 24))
            out = await asyncio.wait_for(proc.stdout.read(), 20)
            await proc.wait_closed()
            assert "ann plays with another key" in out and proc.exit_status == 1
    finally:
        await server.close()


async def test_names_one_connection_each_and_reconnect(host_key: asyncssh.SSHKey) -> None:
    """A bad name is refused with how to log in; logging in again under a connected name
    closes the older connection (a frozen client cannot lock its player out); a client
    that drops has its app stopped and may log in again under its name."""
    server = await _server(host_key)
    try:
        async with _connect(server, "no;way") as conn:
            proc = await conn.create_process(term_type="xterm", term_size=(80, 24))
            out = await asyncio.wait_for(proc.stdout.read(), 20)
            assert "Log in with your player name" in out
        conn = await _connect(server, "ann")
        proc = await conn.create_process(term_type="xterm", term_size=(80, 24))
        out = await _read_until(proc, r"pid=\d+")
        pid = int(re.search(r"pid=(\d+)", out).group(1))  # type: ignore[union-attr]

        def gone(p: int) -> bool:
            try:
                os.kill(p, 0)
            except ProcessLookupError:
                return True
            return False

        conn2 = await _connect(server, "ann")  # the same name again: it takes over
        p2 = await conn2.create_process(term_type="xterm", term_size=(80, 24))
        out2 = await _read_until(p2, r"pid=\d+")
        assert "hello ann play" in out2
        pid2 = int(re.search(r"pid=(\d+)", out2).group(1))  # type: ignore[union-attr]
        await until(lambda: gone(pid), "the older connection's app stopped")
        old = await asyncio.wait_for(proc.stdout.read(), 20)
        assert "logged in from another connection" in old
        conn.close()
        conn2.abort()  # the client vanishes
        await until(lambda: "ann" not in server.live, "the dropped session released")
        await until(lambda: gone(pid2), "the dropped client's app stopped")
        async with _connect(server, "ann") as conn3:
            p3 = await conn3.create_process(term_type="xterm", term_size=(80, 24))
            await _read_until(p3, r"hello ann play")
            p3.close()
    finally:
        await server.close()


async def test_a_full_game_is_watched(host_key: asyncssh.SSHKey) -> None:
    """Newcomers play while seats are free, then watch; a seated name plays again."""
    game = HostGame(players=2, local_seat=False)
    port = await game.start()
    server = await _server(host_key, game=game)
    game_task = asyncio.create_task(game.run())
    peers: list[asyncio.Task] = []
    try:
        async with _connect(server, "ann") as conn:
            proc = await conn.create_process(term_type="xterm", term_size=(80, 24))
            await _read_until(proc, r"hello ann play")
            proc.close()
        for n in ("ann", "bob"):  # they take the seats (over the LAN, as the app would)
            p = PeerGame("127.0.0.1", port, name=n, bot_play=False)
            peers.append(asyncio.create_task(p.run()))
        await until(lambda: game.free_seats == 0, "both seats taken")
        server.ssh_names.update({"ann", "bob"})  # as if they had come over SSH
        async with _connect(server, "eve") as conn:
            proc = await conn.create_process(term_type="xterm", term_size=(80, 24))
            await _read_until(proc, r"hello eve watch")
            proc.close()
        server.ssh_names.discard("bob")  # now bob is someone else's name, connected
        async with _connect(server, "bob") as conn:
            proc = await conn.create_process(term_type="xterm", term_size=(80, 24))
            out = await asyncio.wait_for(proc.stdout.read(), 20)
            assert "Someone called bob already plays" in out
    finally:
        for t in [*peers, game_task]:
            t.cancel()
        await server.close()
        await game.close()


# ------------------------------------------------------------------ real OpenSSH in tmux
class Tmux:
    """A private tmux server (its own socket) for the test's terminals."""

    def __init__(self) -> None:
        self.sock = f"wizwar-test-{os.getpid()}-{time.monotonic_ns()}"

    def run(self, *args: str) -> str:
        return subprocess.run(["tmux", "-L", self.sock, *args], capture_output=True,
                              text=True, check=False).stdout

    def open(self, name: str, command: str, width: int = 80, height: int = 24) -> None:
        self.run("-u", "new-session", "-d", "-s", name, "-x", str(width), "-y", str(height),
                 command + "; echo SESSION-ENDED $?; sleep 600")

    def screen(self, name: str) -> str:
        return self.run("capture-pane", "-t", name, "-p")

    def keys(self, name: str, *keys: str) -> None:
        self.run("send-keys", "-t", name, *keys)

    def close(self, name: str) -> None:
        self.run("kill-session", "-t", name)

    def kill(self) -> None:
        self.run("kill-server")


def ssh_command(port: int, user: str, *extra: str) -> str:
    import shlex

    return shlex.join(["ssh", "-tt", "-p", str(port), *SSH_OPTS, *extra, f"{user}@127.0.0.1"])


@pytest.fixture
def tmux():  # type: ignore[no-untyped-def]
    t = Tmux()
    yield t
    t.kill()


@NEED_CLIENT
async def test_openssh_players_play_watch_and_reconnect(host_key: asyncssh.SSHKey,
                                                        tmux: Tmux) -> None:
    """Two OpenSSH clients in tmux log in to a hosted game, each gets a seat and the board;
    the one to move types an action, the host commits it, and the other player and a
    watcher see it; a player whose client dies logs in again and has the same seat."""
    game = HostGame(players=2, local_seat=False)
    lan_port = await game.start()
    server = wssh.GameSSHServer("127.0.0.1", lan_port, bind="127.0.0.1", port=0,
                                host_key=host_key, game=game)
    port = await server.start()
    run = asyncio.create_task(game.run())
    try:
        tmux.open("ann", ssh_command(port, "ann"))
        await until(lambda: any(s.name == "ann" and s.connected for s in game.seats),
                    "ann seated over ssh")
        tmux.open("bob", ssh_command(port, "bob"), width=100, height=30)
        await until(lambda: game.state is not None, "the deal")
        seat_of = {s.name: s.seat for s in game.seats}
        assert set(seat_of) == {"ann", "bob"}

        def board_shown(who: str) -> bool:
            scr = tmux.screen(who)
            return "┌" in scr and "│" in scr and seat_of[who] in scr

        def fills(who: str, width: int, height: int) -> bool:
            """The app uses the whole terminal: something on its last row (the key bar)
            and beyond column 80 when wider."""
            lines = tmux.screen(who).splitlines()
            return len(lines) >= height and bool(lines[height - 1].strip()) and \
                (width <= 80 or any(len(ln.rstrip()) > 80 for ln in lines))

        await until(lambda: board_shown("ann") and board_shown("bob"), "both boards")
        await until(lambda: fills("bob", 100, 30) and fills("ann", 80, 24), "own sizes")
        tmux.run("resize-window", "-t", "ann", "-x", "110", "-y", "34")
        await until(lambda: fills("ann", 110, 34), "ann's app resized with her terminal")
        tmux.open("eve", ssh_command(port, "eve"), width=100, height=30)
        await until(lambda: "watching" in tmux.screen("eve"), "eve watching")

        st = game.state
        assert st is not None
        mover_seat = to_move(st)[0]
        mover = next(n for n, s in seat_of.items() if s == mover_seat)
        other = "bob" if mover == "ann" else "ann"
        acts = legal_actions(st, mover_seat)
        moves = [a for a in acts if a.verb == "move" and len(a.targets) == 1]
        action = (moves or acts)[0]
        before = len(game.actions)
        idle = tmux.screen(mover)
        tmux.keys(mover, ":")
        await until(lambda: tmux.screen(mover) != idle, "the command line open")
        tmux.keys(mover, str(action), "Enter")
        await until(lambda: len(game.actions) > before, "the host commits the typed action")
        assert game.actions[before] == str(action)
        square = action.targets[0] if action.verb == "move" else ""

        def seen_by_other() -> bool:
            lines = tmux.screen(other).splitlines()
            return any(mover_seat in ln and square in ln for ln in lines
                       if "moves" in ln or "move" in ln)

        if square:
            await until(seen_by_other, f"{other} sees {action}")
        await until(lambda: f"1 {action}" in tmux.screen("eve"), "eve sees the action")
        hand = {s.seat: list(game.state.wizard(s.seat).hand) for s in game.seats}  # type: ignore[union-attr]

        # ann's client dies; she logs in again and gets her seat back
        tmux.close("ann")
        await until(lambda: game.seat_status()[seat_of["ann"]] == "disconnected",
                    "ann's seat disconnected")
        tmux.open("ann", ssh_command(port, "ann"))
        await until(lambda: game.seat_status()[seat_of["ann"]] == "connected",
                    "ann back in her seat")
        await until(lambda: board_shown("ann"), "ann's board again")
        assert {s.name: s.seat for s in game.seats} == seat_of
        assert list(game.state.wizard(seat_of["ann"]).hand) == hand[seat_of["ann"]]  # type: ignore[union-attr]
        assert not game.desync
    finally:
        run.cancel()
        await game.close()
        await server.close()


@NEED_CLIENT
def test_openssh_refusals(host_key: asyncssh.SSHKey, tmp_path: Path) -> None:
    """The real client: a command, sftp, a -W forward and a -R forward are refused; a key
    not in the keys file is refused; a listed key logs in."""
    good = asyncssh.generate_private_key("ssh-ed25519")
    stranger = asyncssh.generate_private_key("ssh-ed25519")
    for name, key in (("good", good), ("stranger", stranger)):
        path = tmp_path / name
        key.write_private_key(str(path))
        path.chmod(0o600)
    keys = tmp_path / "authorized_keys"
    keys.write_bytes(good.export_public_key())

    async def main() -> list[subprocess.CompletedProcess[str]]:
        server = await _server(host_key, authorized_keys=str(keys))
        base = ["ssh", "-p", str(server.port), *SSH_OPTS, "-o", "IdentitiesOnly=yes"]
        base_info = [a.replace("LogLevel=ERROR", "LogLevel=INFO") for a in base]
        runs = [
            [*base, "-i", str(tmp_path / "good"), "ann@127.0.0.1", "id"],
            [*base, "-i", str(tmp_path / "good"), "-s", "ann@127.0.0.1", "sftp"],
            # the default log level, as a player has it: the refusal's reason is printed
            [*base_info, "-i", str(tmp_path / "good"), "-W", "127.0.0.1:22", "ann@127.0.0.1"],
            [*base, "-i", str(tmp_path / "good"), "-N", "-o", "ExitOnForwardFailure=yes",
             "-R", "0:127.0.0.1:22", "ann@127.0.0.1"],
            [*base, "-i", str(tmp_path / "stranger"), "-tt", "ann@127.0.0.1"],
            [*base, "-i", str(tmp_path / "good"), "-tt", "ann@127.0.0.1"],
        ]
        out = []
        try:
            for argv in runs:
                proc = await asyncio.create_subprocess_exec(
                    *argv, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
                    stderr=asyncio.subprocess.PIPE)
                data = await asyncio.wait_for(proc.communicate(b"typed\r"), 60)
                out.append(subprocess.CompletedProcess(argv, proc.returncode or 0,
                                                       data[0].decode(errors="replace"),
                                                       data[1].decode(errors="replace")))
        finally:
            await server.close()
        return out

    cmd, sftp, fwd_w, fwd_r, stranger_run, good_run = asyncio.run(main())
    assert cmd.returncode == 255 and "exec request failed" in cmd.stderr
    assert sftp.returncode == 255 and "subsystem request failed" in sftp.stderr
    assert fwd_w.returncode == 255 and "stdio forwarding failed" in fwd_w.stderr
    assert "administratively prohibited: port forwarding is not offered by this server" \
        in fwd_w.stderr, fwd_w.stderr
    assert fwd_r.returncode == 255 and "remote port forwarding failed" in fwd_r.stderr
    assert stranger_run.returncode == 255 and "Permission denied" in stranger_run.stderr
    assert good_run.returncode == 0 and "hello ann play" in good_run.stdout
    assert "got typed" in good_run.stdout


@NEED_CLIENT
def test_openssh_idle_connection_is_dropped_with_a_reason(host_key: asyncssh.SSHKey) -> None:
    """``ssh -N`` (log in, open nothing) is disconnected after the idle timeout, and the
    client prints why."""
    async def main() -> tuple[int, str]:
        server = await _server(host_key, idle_timeout=0.5)
        try:
            proc = await asyncio.create_subprocess_exec(
                "ssh", "-N", "-p", str(server.port), *SSH_OPTS, "ann@127.0.0.1",
                stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE)
            _out, err = await asyncio.wait_for(proc.communicate(), 60)
            return proc.returncode or 0, err.decode(errors="replace")
        finally:
            await server.close()

    rc, err = asyncio.run(main())
    assert rc == 255 and "no game session was opened" in err, err


@NEED_CLIENT
def test_wizwar_host_ssh_command(tmp_path: Path, tmux: Tmux) -> None:
    """``wizwar host --ssh 127.0.0.1:0 --bot``: the host key is made in the user config
    folder, an OpenSSH client reaches the game (P2; P1 is the host's bot) and sees the
    board; stopping the host ends the session with the terminal restored and a reason."""
    env = dict(os.environ, XDG_CONFIG_HOME=str(tmp_path / "cfg"),
               XDG_DATA_HOME=str(tmp_path / "data"), PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(
        [sys.executable, "-m", "wizwar_tui.cli", "host", "--ssh", "127.0.0.1:0", "--bot",
         "--seats", "2"], cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True)
    try:
        port = 0
        assert proc.stdout is not None
        said: list[str] = []
        for line in proc.stdout:
            said.append(line)
            m = re.match(r"ssh listening on 127\.0\.0\.1:(\d+)", line)
            if m:
                port = int(m.group(1))
                break
        assert port, "the command never said where ssh listens"
        assert len(said) == 1, said  # the first thing said: where players connect
        said.append(proc.stdout.readline())
        m = re.match(r"game port 127\.0\.0\.1:(\d+) \(for the SSH sessions only\)", said[-1])
        assert m, said
        game_port = int(m.group(1))
        assert (tmp_path / "cfg" / "wizwar" / wssh.HOST_KEY_FILE).exists()
        tmux.open("ann", ssh_command(port, "ann"))
        end = time.monotonic() + 90
        while not ("┌" in (scr := tmux.screen("ann")) and "P2" in scr):
            assert time.monotonic() < end, f"no board over ssh:\n{scr}"
            time.sleep(0.2)
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(30) == 130
        end = time.monotonic() + 30
        while "SESSION-ENDED" not in (scr := tmux.screen("ann")):
            assert time.monotonic() < end, f"the session did not end:\n{scr}"
            time.sleep(0.2)
        assert "the host stopped the game" in scr
        assert "┌" not in scr  # back on the normal screen: the board is gone
        # each port is said once (the ssh command to give out names the ssh port too)
        printed = "".join(said) + proc.stdout.read() + (proc.stderr.read() if proc.stderr
                                                        else "")
        assert printed.count(f":{port}") == 1 and printed.count(f":{game_port}") == 1, printed
        assert f"players connect with:  ssh -p {port} NAME@127.0.0.1" in printed, printed
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


# ------------------------------------------------------------------ the session's app (Pilot)
async def test_the_session_app_is_locked_to_its_game() -> None:
    """The app an SSH session runs goes straight to the game's lobby (no main menu), opens
    nothing else (local games, hosting, joining elsewhere, saved games, replays, the
    command palette, screenshots), and leaving the game ends it."""
    from textual.command import CommandPalette

    from wizwar_tui.lobby import LobbyScreen
    from wizwar_tui.menu import MenuScreen
    from wizwar_tui.ssh import SSHPlayerApp

    host = HostGame(players=2, local_seat=False)
    port = await host.start()
    app = SSHPlayerApp("127.0.0.1", port, "ann", rejoin="ssh -p 2222 ann@example")
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            while host.seat_status()["P1"] != "connected":
                await pilot.pause(0.05)
            assert isinstance(app.screen, LobbyScreen)
            assert not any(isinstance(s, MenuScreen) for s in app.screen_stack)
            assert app.lan is not None and app.lan.rejoin_hint() == "ssh -p 2222 ann@example"
            depth = len(app.screen_stack)
            app.start_game(2)
            app.open_saved_games()
            app.open_replay("/etc/passwd")
            app.open_host_form()
            app.open_join()
            app.host_lan("x", 2, 0, 0, "0.0.0.0")
            app.join_lan("127.0.0.1", 1, "x")
            app.action_screenshot("shot.svg", "/tmp")
            await pilot.press("ctrl+p")
            await pilot.pause()
            assert len(app.screen_stack) == depth and isinstance(app.screen, LobbyScreen)
            assert not isinstance(app.screen, CommandPalette)
            await pilot.press("escape")  # leave the lobby: the session ends
            await pilot.pause()
        assert app.return_code == 0
        await until(lambda: host.seat_status()["P1"] == "free", "the lobby seat freed", 30)
    finally:
        await host.close()


async def test_the_session_app_in_game_leave_key_and_quit_question() -> None:
    """In the game an SSH player's footer offers ``q Leave`` (there is no menu); Ctrl+Q
    asks before leaving the game, with the ssh command that takes the seat back."""
    from wizwar_tui.lobby import ConfirmScreen
    from wizwar_tui.ssh import SSHPlayerApp
    from wizwar_tui.wizwar.game import GameScreen
    from wizwar_tui.wizwar.screens import GameOverScreen

    host = HostGame(players=2)  # P1 the host's bot, P2 the SSH player
    port = await host.start()
    task = asyncio.create_task(host.run())
    app = SSHPlayerApp("127.0.0.1", port, "ann", rejoin="ssh -p 2222 ann@example")
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            while not isinstance(app.screen, GameScreen):
                await pilot.pause(0.05)
            await pilot.pause()
            labels = {key: b.binding.description for key, b in app.screen.active_bindings.items()}
            assert labels.get("q") == "Leave" and "Menu" not in labels.values(), labels
            # the game's own address is the SSH server's business, not shown to the player
            assert f":{port}" not in str(app.screen.query_one("#topbar").render())
            assert "over SSH" in app.screen.lan_label()
            # the help and the game-over screen speak of no menu either
            await pilot.press("question_mark")
            await pilot.pause()
            help_text = str(app.screen.query_one("#help-text").render())
            assert "leave (ends the session)" in help_text and "back to the menu" not in help_text
            await pilot.press("escape")
            await pilot.pause()
            game = app.screen
            assert isinstance(game, GameScreen)
            over = GameOverScreen("P1", "P1 killed P2.", game.view, 2, None, "P2", lan="a game")
            app.push_screen(over)
            await pilot.pause()
            assert str(over.query_one(".hint").render()) == "q disconnect"
            assert not over.check_action("menu", ()) and not over.check_action("new_game", ())
            app.pop_screen()
            await pilot.pause()
            await pilot.press("ctrl+q")
            await pilot.pause()
            assert isinstance(app.screen, ConfirmScreen)
            note = str(app.screen.query_one("#confirm-note").render())
            assert "ssh -p 2222 ann@example" in note
            # drawn as a dialog (it once collapsed to an empty 4x2 box: its width lost to
            # the app's .dialog rule), the question on the screen
            box = app.screen.query_one("#confirm-box")
            assert box.region.width >= 40 and box.region.height >= 4, box.region
            question = app.screen.query_one("#confirm-question")
            assert question.region.width >= len(str(question.render())) > 10
            await pilot.press("y")
            await pilot.pause()
        assert app.return_code == 0
        await until(lambda: host.seat_status()["P2"] == "disconnected", "ann left", 30)
    finally:
        task.cancel()
        await host.close()


async def test_the_watcher_app_shows_the_game_and_no_hand() -> None:
    """A watcher's app shows the watch screen (never the player's game screen, no hand
    panel) with every action of the game as notation."""
    from wizwar_tui.ssh import SSHPlayerApp
    from wizwar_tui.wizwar.game import GameScreen
    from wizwar_tui.wizwar.watch import WatchScreen
    from wizwar_tui.wizwar.widgets import Board, HandPanel

    host = HostGame(players=2)  # P1 the host's bot, P2 a bot peer
    port = await host.start()
    peer = PeerGame("127.0.0.1", port, name="bob")
    tasks = [asyncio.create_task(host.run()), asyncio.create_task(peer.run())]
    app = SSHPlayerApp("127.0.0.1", port, "eve", watch=True)
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            screen = app.screen
            assert isinstance(screen, WatchScreen)
            while not (host.state is not None and host.state.winner
                       and screen.logged == len(host.actions)):
                await pilot.pause(0.05)
            assert app.screen is screen
            assert not any(isinstance(s, GameScreen) for s in app.screen_stack)
            assert not screen.query(HandPanel)
            board = screen.query_one(Board)
            assert board.view is not None and board.view.viewer == "" and not board.view.hand
            await pilot.resize_terminal(60, 20)  # narrow: board above, panels below
            await pilot.pause()
            side, scroll = screen.query_one("#watch-side"), screen.query_one("#watch-scroll")
            assert side.region.y >= scroll.region.bottom and scroll.region.width >= 58
            await pilot.resize_terminal(40, 12)  # too small: says so instead of a blank
            await pilot.pause()
            from wizwar_tui.screens import TooSmall

            assert screen.query_one(TooSmall).display and app.has_class("-tiny")
            await pilot.resize_terminal(100, 30)
            await pilot.pause()
            await pilot.press("q")
            await pilot.pause()
        assert app.return_code == 0
    finally:
        for t in tasks:
            t.cancel()
        await host.close()


# ------------------------------------------------------------------ wrong passwords (issue 13)
class FakeClock:
    """Seconds that move only when the test says so."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_the_login_throttle_makes_an_address_wait_longer_and_longer() -> None:
    """5 free wrong passwords, then waits of 2, 4, 8 s... from the latest failure, per
    address; a right password clears the count; old failures are forgotten."""
    clock = FakeClock()
    t = wssh.LoginThrottle(clock=clock)
    for i in range(wssh.FREE_FAILURES - 1):
        assert t.wait("10.0.0.9") == 0
        assert t.failed("10.0.0.9") == i + 1
    assert t.wait("10.0.0.9") == 0
    t.failed("10.0.0.9")  # the 5th
    assert t.wait("10.0.0.9") == 2 and t.wait("10.0.0.8") == 0
    clock.now += 2
    assert t.wait("10.0.0.9") == 0
    t.failed("10.0.0.9")
    assert t.wait("10.0.0.9") == 4
    clock.now += 4
    t.failed("10.0.0.9")
    assert t.wait("10.0.0.9") == 8
    assert t.first_refusal("10.0.0.9") and not t.first_refusal("10.0.0.9")
    clock.now += wssh.FAILURE_WINDOW + 1
    assert t.wait("10.0.0.9") == 0
    for _ in range(20):
        t.failed("10.0.0.7")
    assert t.wait("10.0.0.7") == wssh.MAX_LOCKOUT
    t.succeeded("10.0.0.7")
    assert t.wait("10.0.0.7") == 0


async def test_wrong_passwords_are_throttled_per_address_and_logged(
        host_key: asyncssh.SSHKey) -> None:
    """After 5 wrong passwords from one address even the right one is refused until its
    wait is over (so guessing gains nothing), and every wrong one is logged with the
    address (a trial guessed 1,365 passwords in 8 s, with nothing logged)."""
    clock = FakeClock()
    logged: list[str] = []
    server = await _server(host_key, password="s3cret", throttle=wssh.LoginThrottle(clock),
                           failure_delay=0.0, log=logged.append)
    try:
        for _ in range(wssh.FREE_FAILURES):
            with pytest.raises(asyncssh.PermissionDenied):
                async with _connect(server, "ann", password="guess"):
                    pass
        wrong = [m for m in logged if m.startswith("ssh: wrong password for ann from 127.0.0.1")]
        assert len(wrong) == wssh.FREE_FAILURES
        with pytest.raises(asyncssh.PermissionDenied):
            async with _connect(server, "ann", password="s3cret"):  # right, but too soon
                pass
        assert any("127.0.0.1 gave too many wrong passwords" in m for m in logged)
        clock.now += 2  # its wait is over
        async with _connect(server, "ann", password="s3cret") as conn:
            proc = await conn.create_process(term_type="xterm", term_size=(80, 24))
            await _read_until(proc, r"hello ann play")
            proc.close()
    finally:
        await server.close()


def test_ssh_follows_bind_and_the_help_says_the_game_port_is_local(
        capsys: pytest.CaptureFixture[str]) -> None:
    """``--ssh PORT --bind 127.0.0.1`` keeps SSH on loopback (it listened on 0.0.0.0); an
    explicit ``--ssh HOST:PORT`` wins; without either SSH listens everywhere. ``wizwar host
    --help`` says a local user can reach the game port directly."""
    import argparse

    from net import cli

    def listen(*argv: str) -> tuple[str, int]:
        parser = argparse.ArgumentParser()
        cli.add_parsers(parser.add_subparsers(dest="cmd"))
        args = parser.parse_args(["host", *argv])
        cli.prepare(parser, args)
        cli.host_defaults(args)
        return wssh.ssh_listen_address(args)

    assert listen("--ssh", "2222", "--bind", "127.0.0.1") == ("127.0.0.1", 2222)
    assert listen("--ssh", "2222", "--bind", "10.1.2.3") == ("10.1.2.3", 2222)
    assert listen("--ssh", "127.0.0.2:2222", "--bind", "0.0.0.0") == ("127.0.0.2", 2222)
    assert listen("--ssh", "2222") == ("0.0.0.0", 2222)
    parser = argparse.ArgumentParser(prog="wizwar")
    cli.add_parsers(parser.add_subparsers(dest="cmd"))
    with pytest.raises(SystemExit):
        parser.parse_args(["host", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "Any user of this machine can reach the game port directly" in text


def test_a_session_app_ends_when_its_server_is_gone(monkeypatch: pytest.MonkeyPatch) -> None:
    """An SSH session's (and a browser tab's) app whose server was killed with ``kill -9``
    (the process re-parented) exits instead of living on orphaned (trial 2, item 1)."""
    from wizwar_tui.ssh import SSHPlayerApp
    from wizwar_tui.web import WebPlayerApp

    for cls in (SSHPlayerApp, WebPlayerApp):
        app = cls("127.0.0.1", 9, "ann")
        codes: list[int | None] = []
        monkeypatch.setattr(app, "exit", lambda return_code=0, codes=codes, **_:
                            codes.append(return_code))
        app._server_gone(os.getppid())  # the server is still its parent
        assert codes == []
        app._server_gone(os.getppid() + 1)  # started by a process that is gone
        assert codes == [1]
