"""Play over SSH: ``wizwar host --ssh [HOST:]PORT`` serves a hosted game to plain OpenSSH
clients (``ssh -p PORT NAME@HOST``; nothing to install on the player's side).

Design (docs/ssh.md):

- The game itself is an ordinary LAN host (:class:`net.lan.HostGame`) listening on
  127.0.0.1 by default, in which every seat is taken by a joining player (nobody plays at
  the host's own terminal; ``--bot`` gives P1 to the host's bot).
- Each SSH session runs its own ``python -m wizwar_tui.ssh`` (the Textual app, locked to
  this one game) on a fresh pseudo-terminal sized like the player's terminal, as a LAN
  peer of that host; the terminal's resizes are passed on to the PTY (the kernel tells the
  app with SIGWINCH). So every connection has its own screen size and keys, and no rules or
  network code is special to SSH.
- The SSH user name is the player name. Reconnecting under the same name takes the same
  seat back (the seat token ``wizwar join`` keeps per host, port and name). A name cannot be
  played from two connections at once; with ``--ssh-keys`` a name belongs to the first key
  that plays it.
- When every seat is taken (or the cards are dealt) a newcomer watches: a watcher gets only
  public information (``PeerGame(watch=True)``), never a hand.
- Only the game is reachable: a session must ask for a shell with a terminal; commands
  (``ssh host ls``), subsystems (sftp), port forwarding (local, remote, Unix sockets), agent
  and X11 forwarding are all refused, and the client's environment is not passed on.
- The host key is made on first use and kept in the user config folder (platformdirs);
  ``--ssh-password`` (or ``WIZWAR_SSH_PASSWORD``) and/or ``--ssh-keys FILE`` (an
  authorized_keys file) restrict who may connect; with neither, anyone who reaches the port
  may play.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import fcntl
import hmac
import os
import pty
import re
import signal
import struct
import sys
import termios
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import asyncssh

from net.safe import safe_text

if TYPE_CHECKING:
    from net.lan import HostGame

Log = Callable[[str], None]

NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,19}")
"""A player name as an SSH user name: a letter or digit, then up to 19 of ``A-Z a-z 0-9 _ . -``."""

HOST_KEY_FILE = "ssh_host_ed25519_key"
RESTORE_TERMINAL = b"\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?2004l\x1b[?1049l\x1b[?25h\x1b[0m"
"""Written after the app ends (even killed): mouse and paste modes off, the normal screen,
the cursor shown, so the player's terminal is usable again."""
MAX_SESSIONS = 16
MAX_CONNECTIONS = 32
"""Open SSH connections at most (logging in, playing, or idle); one more is told that there
are too many and disconnected. A connection holds at most one session, so this leaves room
for :data:`MAX_SESSIONS` sessions and some logins in progress."""
IDLE_TIMEOUT = 30.0
"""Seconds a logged-in connection may stay without a game session (``ssh -N``, or a
multiplexing ``ControlMaster`` after its session ended) before it is disconnected."""
FORWARDING_REFUSED = ("port forwarding is not offered by this server: it serves only the "
                      "wizwar game (play with: ssh -p {port} NAME@HOST)")
"""The reason an OpenSSH client prints when it asks to forward a port (``-L``, ``-W``):
``channel 0: open failed: administratively prohibited: port forwarding is not offered…``."""
PASSWORD_ENV = "WIZWAR_SSH_PASSWORD"
FREE_FAILURES = 5
"""Wrong passwords an address may give within :data:`FAILURE_WINDOW` before it must wait."""
FAILURE_WINDOW = 600.0
"""Seconds a wrong password counts against its address."""
MAX_LOCKOUT = 300.0
"""The longest wait (seconds) an address is given, however many wrong passwords it sent."""
FAILURE_DELAY = 1.0
"""Seconds every wrong password waits before its answer (a guesser on one connection
gets one try a second at most)."""


class LoginThrottle:
    """Wrong passwords counted per client address, so a password cannot be guessed at speed.

    After :data:`FREE_FAILURES` wrong passwords within :data:`FAILURE_WINDOW` seconds an
    address must wait 2 s before its next password is checked, and after each further wrong
    one twice as long as before (4 s, 8 s, ... up to :data:`MAX_LOCKOUT`), counted from
    that failure. While it waits, every password from it is refused unchecked, the right
    one too, so guessing gains nothing; a right password clears its count. At 5 free
    tries and a doubling wait an address gets about 13 guesses in ten minutes.
    ``clock``: seconds (monotonic; a test passes its own).
    """

    def __init__(self, clock: Callable[[], float] | None = None,
                 free: int = FREE_FAILURES, window: float = FAILURE_WINDOW,
                 longest: float = MAX_LOCKOUT) -> None:
        import time

        self.clock = clock or time.monotonic
        self.free, self.window, self.longest = free, window, longest
        self.failures: dict[str, list[float]] = {}  # address -> times of wrong passwords
        self.told: dict[str, float] = {}  # address -> the failure whose wait was logged

    def _recent(self, address: str) -> list[float]:
        now = self.clock()
        kept = [t for t in self.failures.get(address, []) if now - t < self.window]
        if kept:
            self.failures[address] = kept
        else:
            self.failures.pop(address, None)
        return kept

    def wait(self, address: str) -> float:
        """Seconds ``address`` must still wait before a password of its is checked (0: it
        may try now)."""
        recent = self._recent(address)
        over = len(recent) - self.free
        if over < 0:
            return 0.0
        lockout = min(self.longest, 2.0 ** (over + 1))
        return max(0.0, recent[-1] + lockout - self.clock())

    def first_refusal(self, address: str) -> bool:
        """True the first time a waiting ``address`` is refused after its latest failure
        (so the log says so once, not for every try)."""
        last = self.failures.get(address, [0.0])[-1]
        if self.told.get(address) == last:
            return False
        self.told[address] = last
        return True

    def failed(self, address: str) -> int:
        """Count a wrong password of ``address``; returns how many it gave in the window."""
        self._recent(address)
        self.failures.setdefault(address, []).append(self.clock())
        if len(self.failures) > 4096:  # a flood of addresses: forget the oldest
            oldest = min(self.failures, key=lambda a: self.failures[a][-1])
            del self.failures[oldest]
            self.told.pop(oldest, None)
        return len(self.failures[address])

    def succeeded(self, address: str) -> None:
        """A right password: the address starts afresh."""
        self.failures.pop(address, None)


def _quiet(_msg: str) -> None:
    pass


def parse_listen(text: str, default_host: str = "0.0.0.0") -> tuple[str, int]:
    """``[HOST:]PORT`` as (host, port); ``[::1]:2222`` for IPv6. Raises ``ValueError`` with a
    readable reason for anything else (a port is 0-65535, 0 picks a free one)."""
    text = text.strip()
    host, sep, port = text.rpartition(":")
    if not sep:
        host, port = default_host, text
    host = host.strip("[]") or default_host
    if not port.isdigit():
        raise ValueError(f"{text!r} is not [HOST:]PORT (e.g. 2222 or 0.0.0.0:2222)")
    n = int(port)
    if not 0 <= n <= 65535:
        raise ValueError(f"{n} is not a port (0-65535)")
    return host, n


def player_name(username: str) -> str:
    """The player name for an SSH user name ("" if it cannot be one: see :data:`NAME_RE`)."""
    return username if NAME_RE.fullmatch(username) else ""


def host_key_path() -> str:
    """Where the server's host key lives: the user config folder (``~/.config/wizwar`` on
    Linux), file ``ssh_host_ed25519_key``."""
    from platformdirs import user_config_dir

    return os.path.join(user_config_dir("wizwar"), HOST_KEY_FILE)


def load_host_key(path: str | None = None) -> asyncssh.SSHKey:
    """The server's Ed25519 host key from ``path`` (default :func:`host_key_path`), made and
    saved (mode 0600, folder 0700) on first use so players' ``known_hosts`` stay valid from
    one game to the next. Raises ``OSError`` when the file cannot be read or written and
    ``asyncssh.KeyImportError`` when it is not a key."""
    path = path or host_key_path()
    if os.path.exists(path):
        return asyncssh.read_private_key(path)
    key = asyncssh.generate_private_key("ssh-ed25519", comment="wizwar host key")
    folder = os.path.dirname(path)
    if folder:
        os.makedirs(folder, mode=0o700, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(key.export_private_key())
    return key


def set_winsize(fd: int, cols: int, rows: int) -> None:
    """Set a terminal's size in characters (the kernel signals SIGWINCH to its foreground
    process group when it changes)."""
    cols = max(1, min(int(cols or 80), 1000))
    rows = max(1, min(int(rows or 24), 1000))
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))


def _take_terminal() -> None:  # pragma: no cover - runs in the child before exec
    """Make the PTY on stdin the controlling terminal of the new session."""
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


def client_wants_ascii(sent: Mapping[str, str]) -> bool:
    """True when the locale the client sent (``LC_ALL``, else ``LC_CTYPE``, else ``LANG``,
    as OpenSSH's default ``SendEnv LANG LC_*`` passes them) is not a UTF-8 one: that
    terminal cannot show box-drawing glyphs, so the app draws with ASCII. Nothing sent:
    False (the usual UTF-8 terminal). The values are only read, never passed on."""
    for key in ("LC_ALL", "LC_CTYPE", "LANG"):
        value = str(sent.get(key, "") or "")
        if value:
            norm = value.upper().replace("UTF8", "UTF-8")
            return "UTF-8" not in norm
    return False


def child_env(term: str, ascii_only: bool = False) -> dict[str, str]:
    """The environment of a player's app: the server's own, minus terminal and devtools
    variables of the server's terminal, with the player's terminal type, and
    ``WIZWAR_ASCII=1`` when the client's locale is not UTF-8 (:func:`client_wants_ascii`).
    No variable the client sent is passed on."""
    drop = ("COLUMNS", "LINES", "TMUX", "TMUX_PANE", "STY", "TERM", "TERM_PROGRAM",
            "COLORTERM")
    env = {k: v for k, v in os.environ.items()
           if k not in drop and not k.startswith(("TEXTUAL", "SSH_"))}
    env["TERM"] = term if re.fullmatch(r"[A-Za-z0-9._+-]{1,40}", term or "") else \
        "xterm-256color"
    env["PYTHONIOENCODING"] = "utf-8"
    if "UTF-8" not in env.get("LANG", "").upper().replace("UTF8", "UTF-8"):
        env["LANG"] = "C.UTF-8"
    env.pop("LC_ALL", None)
    env["WIZWAR_ASCII"] = "1" if ascii_only else "0"
    return env


#: the module an SSH session runs (``python -m``): the app locked to one game. A command, not
#: an import: ``net/`` imports nothing of the app.
SESSION_MODULE = "wizwar_tui.ssh"


def player_command(lan_host: str, lan_port: int, name: str, watch: bool,
                   rejoin: str = "", game: str = "") -> list[str]:
    """The process an SSH session runs: the app (:data:`SESSION_MODULE`), locked to the game
    at ``lan_host:lan_port``; ``rejoin`` is the ``ssh`` command that takes the seat back;
    ``game`` the ruleset's name (the app's default when "")."""
    argv = [sys.executable, "-m", SESSION_MODULE, f"{lan_host}:{lan_port}", "--name", name]
    if game:
        argv += ["--game", game]
    if rejoin:
        argv += ["--rejoin", rejoin]
    if watch:
        argv.append("--watch")
    return argv


class GameSSHServer:
    """The SSH front door of one hosted game.

    Args:
        lan_host, lan_port: where the game's host (``HostGame``) listens; each session's
            app joins there.
        bind, port: where SSH listens (port 0: a free one; see :attr:`port` after
            :meth:`start`).
        password: if set, clients may log in with it.
        authorized_keys: if set, an OpenSSH authorized_keys file; clients may log in with
            one of its keys (its ``from=`` options are honoured). With neither password
            nor keys, no authentication is asked.
        host_key: the server's host key (default: :func:`load_host_key`).
        game: the hosted game, to decide play or watch and to spot names already seated
            (None: always play).
        command: ``(name, watch, rejoin) -> argv`` of a session's process (default
            :func:`player_command`; ``rejoin`` is the ``ssh`` command to log in again).
        max_sessions: live sessions at most (players and watchers).
        max_connections: open connections at most (:data:`MAX_CONNECTIONS`).
        idle_timeout: seconds a logged-in connection may stay without a session
            (:data:`IDLE_TIMEOUT`).
        log: where to report connections, refusals and wrong passwords.
        throttle: wrong passwords per address (default: a fresh :class:`LoginThrottle`).
        failure_delay: seconds each wrong password waits for its answer
            (:data:`FAILURE_DELAY`).
    """

    def __init__(self, lan_host: str, lan_port: int, *, bind: str = "127.0.0.1",
                 port: int = 0, password: str = "", authorized_keys: str | None = None,
                 host_key: asyncssh.SSHKey | None = None, game: HostGame | None = None,
                 command: Callable[[str, bool, str], Sequence[str]] | None = None,
                 max_sessions: int = MAX_SESSIONS, max_connections: int = MAX_CONNECTIONS,
                 idle_timeout: float = IDLE_TIMEOUT, log: Log = _quiet,
                 throttle: LoginThrottle | None = None,
                 failure_delay: float = FAILURE_DELAY) -> None:
        self.lan_host, self.lan_port = lan_host, lan_port
        self.bind, self.port = bind, port
        self.password = password
        self.keys = asyncssh.read_authorized_keys(authorized_keys) if authorized_keys \
            else None
        self.host_key = host_key if host_key is not None else load_host_key()
        self.game = game
        game_name = game.ruleset.name if game is not None else ""
        self.command = command or (lambda name, watch, rejoin: player_command(
            lan_host, lan_port, name, watch, rejoin, game_name))
        self.max_sessions = max_sessions
        self.max_connections = max_connections
        self.idle_timeout = idle_timeout
        self.log = log
        self.throttle = throttle if throttle is not None else LoginThrottle()
        self.failure_delay = failure_delay
        self.connections: set[_Connection] = set()
        self.live: dict[str, GameSession] = {}
        self.key_of: dict[str, str] = {}  # player name -> fingerprint of the key it plays with
        self.ssh_names: set[str] = set()  # names that ever played through this server
        self._acceptor: asyncssh.SSHAcceptor | None = None
        self._sessions: set[GameSession] = set()

    @property
    def auth(self) -> str:
        """How clients log in, in words: ``none``, ``password``, ``keys``, ``keys or password``."""
        if self.keys is not None and self.password:
            return "keys or password"
        return "keys" if self.keys is not None else "password" if self.password else "none"

    @property
    def fingerprint(self) -> str:
        """The host key's SHA256 fingerprint (what a player's ``ssh`` shows on first use)."""
        return self.host_key.get_fingerprint("sha256")

    async def start(self) -> int:
        """Listen; returns the SSH port. Raises ``OSError`` if the port cannot be opened."""
        self._acceptor = await asyncssh.listen(
            self.bind, self.port, server_factory=lambda: _Connection(self),
            server_host_keys=[self.host_key], encoding=None, line_editor=False,
            allow_pty=True, agent_forwarding=False, x11_forwarding=False,
            allow_scp=False, sftp_factory=None, login_timeout=60,
            keepalive_interval=15, keepalive_count_max=4, reuse_address=True)
        self.port = self._acceptor.sockets[0].getsockname()[1]
        self.log(f"ssh: log in: {self.auth}; host key {self.fingerprint}")
        return self.port

    def stop_listening(self) -> None:
        """Accept no new connections (live sessions go on)."""
        if self._acceptor is not None:
            self._acceptor.close()

    async def wait_sessions(self, timeout: float | None = None) -> None:
        """Wait until every live session has ended (or ``timeout`` seconds)."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout):
                while self._sessions:
                    await asyncio.sleep(0.2)

    async def close(self, why: str = "the server is shutting down") -> None:
        """Stop listening and end every session (its app is stopped; the player reads
        ``why``)."""
        self.stop_listening()
        for s in list(self._sessions):
            s.end(why)
        if self._acceptor is not None:
            with contextlib.suppress(Exception):
                async with asyncio.timeout(5):
                    await self._acceptor.wait_closed()
        await self.wait_sessions(5)

    # ---- deciding what a session gets ---------------------------------------------------
    def admit(self, session: GameSession) -> tuple[str, str]:
        """``("play" | "watch", "")`` or ``("refuse", why)`` for a session that asked for
        the game. Registers the name as live when admitted."""
        name = session.name
        if not name:
            return "refuse", ("Log in with your player name: ssh -p PORT NAME@HOST (a letter "
                              "or digit, then up to 19 of A-Z a-z 0-9 _ . -).")
        if name in self.live:
            return "refuse", (f"{name} is already playing from another connection. Close it "
                              "first, or log in under another name.")
        if session.key:
            owner = self.key_of.setdefault(name, session.key)
            if owner != session.key:
                return "refuse", f"{name} plays with another key: log in under another name."
        elif name in self.key_of:
            return "refuse", f"{name} plays with a key: log in with that key."
        if len(self.live) >= self.max_sessions:
            return "refuse", "Too many players and watchers are connected; try again later."
        mode = "play"
        game = self.game
        if game is not None:
            seat = next((s for s in game.seats if s.kind == "remote" and s.token
                         and s.name == name), None)
            if seat is not None and name not in self.ssh_names and seat.connected:
                return "refuse", (f"Someone called {name} already plays {seat.seat} (from "
                                  "the LAN): log in under another name.")
            if seat is None and (game.deal_msg or game.free_seats == 0):
                mode = "watch"
        self.live[name] = session
        if mode == "play":
            self.ssh_names.add(name)
        return mode, ""

    def release(self, session: GameSession) -> None:
        """A session ended: its name is free again."""
        if self.live.get(session.name) is session:
            del self.live[session.name]
        self._sessions.discard(session)


class _Connection(asyncssh.SSHServer):
    """One client connection: authentication and what it may open (one game session)."""

    def __init__(self, server: GameSSHServer) -> None:
        self.server = server
        self.conn: asyncssh.SSHServerConnection | None = None
        self.key = ""  # fingerprint of the key the client logged in with
        self.sessions = 0
        self.too_many = False
        self.idle: asyncio.TimerHandle | None = None

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        """Remember the connection (for the peer address), and count it: beyond
        ``max_connections`` it is disconnected as soon as it says who it is."""
        self.conn = conn
        self.too_many = len(self.server.connections) >= self.server.max_connections
        if not self.too_many:
            self.server.connections.add(self)

    def connection_lost(self, exc: Exception | None) -> None:
        """The connection is gone: it no longer counts."""
        self.server.connections.discard(self)
        self.stop_idle_clock()

    def begin_auth(self, username: str) -> bool:
        """Ask for authentication only when a password or keys are set. A connection over
        the limit is told so and disconnected (``DisconnectError``: the client prints the
        reason)."""
        if self.too_many:
            self.server.log("ssh: refused a connection: too many connections")
            raise asyncssh.DisconnectError(
                asyncssh.DISC_TOO_MANY_CONNECTIONS,
                "too many connections to this game; try again later")
        return bool(self.server.password) or self.server.keys is not None

    def auth_completed(self) -> None:
        """Logged in: a game session must follow within ``idle_timeout`` seconds."""
        self.start_idle_clock()

    def start_idle_clock(self) -> None:
        """Disconnect this connection if it opens no session within ``idle_timeout``."""
        self.stop_idle_clock()
        if self not in self.server.connections:  # gone already (or never counted)
            return
        self.idle = asyncio.get_running_loop().call_later(self.server.idle_timeout,
                                                          self._idle_out)

    def stop_idle_clock(self) -> None:
        """A session is open (or the connection is gone): no idle limit."""
        if self.idle is not None:
            self.idle.cancel()
            self.idle = None

    def _idle_out(self) -> None:
        self.idle = None
        if self.conn is not None and self in self.server.connections:
            self.server.log("ssh: disconnected an idle connection (no game session)")
            self.conn.disconnect(asyncssh.DISC_BY_APPLICATION,
                                 "no game session was opened: log in with "
                                 f"ssh -t -p {self.server.port} NAME@HOST")

    def password_auth_supported(self) -> bool:
        """Passwords only with ``--ssh-password``."""
        return bool(self.server.password)

    def _address(self) -> str:
        peer = self.conn.get_extra_info("peername", ("", 0)) if self.conn is not None \
            else None
        return str(peer[0]) if peer else "?"

    async def validate_password(self, username: str, password: str) -> bool:
        """The one game password (compared in constant time), throttled per client address
        (:class:`LoginThrottle`): an address that gave too many wrong ones is refused
        unchecked until its wait is over; every wrong password is logged and answered only
        after ``failure_delay`` seconds."""
        self.key = ""
        server = self.server
        if not server.password:
            return False
        address = self._address()
        who = safe_text(username, 20) or "?"
        wait = server.throttle.wait(address)
        if wait > 0:
            if server.throttle.first_refusal(address):
                server.log(f"ssh: {address} gave too many wrong passwords: every password "
                           f"from it is refused for {wait:.0f} s (the latest for {who})")
            await asyncio.sleep(server.failure_delay)
            return False
        if hmac.compare_digest(password.encode(), server.password.encode()):
            server.throttle.succeeded(address)
            return True
        count = server.throttle.failed(address)
        server.log(f"ssh: wrong password for {who} from {address} ({count} in "
                   f"{server.throttle.window / 60:g} min)")
        await asyncio.sleep(server.failure_delay)
        return False

    def public_key_auth_supported(self) -> bool:
        """Keys only with ``--ssh-keys``."""
        return self.server.keys is not None

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        """A key listed in the authorized_keys file (``from=`` honoured). A key restricted
        to a forced ``command=`` is refused: the game is the only thing served, so such a
        key was meant for something else."""
        keys = self.server.keys
        if keys is None or self.conn is None:
            return False
        addr = self.conn.get_extra_info("peername", ("", 0))[0]
        options = keys.validate(key, addr, addr)
        if options is None:
            return False
        if "command" in options:
            self.server.log("ssh: refused a key with a forced command= (not a game key)")
            return False
        self.key = key.get_fingerprint("sha256")
        return True

    def kbdint_auth_supported(self) -> bool:
        """No keyboard-interactive login."""
        return False

    def session_requested(self) -> GameSession | bool:
        """One game session per connection."""
        if self.sessions >= 1:
            return False
        self.sessions += 1
        assert self.conn is not None
        user = self.conn.get_extra_info("username") or ""
        here = self.conn.get_extra_info("sockname") or ("", 0)
        host = str(here[0])
        self.stop_idle_clock()
        session = GameSession(self.server, player_name(user), self.key)
        session.on_end = self.start_idle_clock  # a connection left without its session
        if session.name and host:
            host = f"[{host}]" if ":" in host else host
            session.rejoin = f"ssh -p {here[1]} {session.name}@{host}"
        return session

    def connection_requested(self, dest_host: str, dest_port: int, orig_host: str,
                             orig_port: int) -> bool:
        """No local port forwarding (``ssh -L``, ``ssh -W``): refused with a sentence the
        client prints (:data:`FORWARDING_REFUSED`)."""
        self.server.log(f"ssh: refused a port forward to {dest_host}:{dest_port}")
        raise asyncssh.ChannelOpenError(asyncssh.OPEN_ADMINISTRATIVELY_PROHIBITED,
                                        FORWARDING_REFUSED.format(port=self.server.port))

    def server_requested(self, listen_host: str, listen_port: int) -> bool:
        """No remote port forwarding (``ssh -R``)."""
        self.server.log(f"ssh: refused a remote forward of {listen_host}:{listen_port}")
        return False

    def unix_connection_requested(self, dest_path: str) -> bool:
        """No Unix socket forwarding (refused like a port forward)."""
        raise asyncssh.ChannelOpenError(asyncssh.OPEN_ADMINISTRATIVELY_PROHIBITED,
                                        FORWARDING_REFUSED.format(port=self.server.port))

    def unix_server_requested(self, listen_path: str) -> bool:
        """No remote Unix socket forwarding."""
        return False

    def tun_requested(self, unit: int | None) -> bool:
        """No tunnel devices."""
        return False

    def tap_requested(self, unit: int | None) -> bool:
        """No tap devices."""
        return False


class GameSession(asyncssh.SSHServerSession):
    """One player's (or watcher's) session: the app on its own PTY, bytes both ways.

    Attributes:
        name: the player name ("" when the SSH user name cannot be one).
        key: the fingerprint of the client's key ("" for a password or no login).
        mode: ``play`` or ``watch`` once admitted.
    """

    def __init__(self, server: GameSSHServer, name: str, key: str) -> None:
        self.server = server
        self.name = name
        self.key = key
        self.mode = ""
        self.rejoin = ""
        self.chan: asyncssh.SSHServerChannel | None = None
        self.term: str | None = None
        self.size = (80, 24)
        self.master = -1
        self.proc: asyncio.subprocess.Process | None = None
        self._pending = b""
        self._reading = False
        self._paused = False
        self._output_done = asyncio.Event()
        self._task: asyncio.Task | None = None
        self._closed = False
        self._why = ""
        self.on_end: Callable[[], None] | None = None  # the connection's idle clock
        server._sessions.add(self)

    # ---- what the client may ask ----------------------------------------------------------
    def connection_made(self, chan: asyncssh.SSHServerChannel) -> None:
        """Keep the channel."""
        self.chan = chan

    def pty_requested(self, term_type: str, term_size: tuple[int, int, int, int],
                      term_modes: Any) -> bool:
        """A terminal: its type and size are the app's."""
        self.term = term_type or "xterm-256color"
        self.size = (term_size[0] or 80, term_size[1] or 24)
        return True

    def shell_requested(self) -> bool:
        """The game (the only thing there is)."""
        return True

    def exec_requested(self, command: str) -> bool:
        """No commands (``ssh host ls``)."""
        self.server.log(f"ssh: refused a command from {self.name or '?'}")
        return False

    def subsystem_requested(self, subsystem: str) -> bool:
        """No subsystems (sftp)."""
        self.server.log(f"ssh: refused subsystem {subsystem[:20]!r} from {self.name or '?'}")
        return False

    def break_received(self, msec: int) -> bool:
        """Breaks are not passed on."""
        return False

    def signal_received(self, signal: str) -> None:
        """Signals from the client are ignored."""

    def session_started(self) -> None:
        """The shell was granted: start the game."""
        self._task = asyncio.ensure_future(self._run())

    # ---- bytes and sizes ---------------------------------------------------------------
    def terminal_size_changed(self, width: int, height: int, pixwidth: int,
                              pixheight: int) -> None:
        """The player resized the terminal: resize the app's PTY."""
        self.size = (width or self.size[0], height or self.size[1])
        if self.master >= 0:
            with contextlib.suppress(OSError):
                set_winsize(self.master, *self.size)

    def data_received(self, data: bytes, datatype: Any) -> None:
        """Keys from the player, to the app (kept until the app has started)."""
        if not isinstance(data, bytes | bytearray) or len(self._pending) > 65536:
            return  # the app is not reading: drop keys, not memory
        self._pending += bytes(data)
        if self.master >= 0:
            self._flush_input()

    def _flush_input(self) -> None:
        loop = asyncio.get_running_loop()
        while self._pending and self.master >= 0:
            try:
                n = os.write(self.master, self._pending)
            except BlockingIOError:
                loop.add_writer(self.master, self._flush_input)
                return
            except OSError:
                self._pending = b""
                return
            self._pending = self._pending[n:]
        if self.master >= 0:
            loop.remove_writer(self.master)

    def eof_received(self) -> bool:
        """The client will send no more keys: the app goes on (keep the channel open)."""
        return True

    def pause_writing(self) -> None:
        """The client is slow: stop reading the app's output for now."""
        self._paused = True
        if self._reading:
            asyncio.get_running_loop().remove_reader(self.master)
            self._reading = False

    def resume_writing(self) -> None:
        """The client caught up: read the app's output again."""
        self._paused = False
        if self.master >= 0 and not self._reading and not self._output_done.is_set():
            asyncio.get_running_loop().add_reader(self.master, self._readable)
            self._reading = True

    def _readable(self) -> None:
        try:
            data = os.read(self.master, 65536)
        except BlockingIOError:
            return
        except OSError:  # EIO: the app closed its terminal
            data = b""
        if not data:
            asyncio.get_running_loop().remove_reader(self.master)
            self._reading = False
            self._output_done.set()
            return
        if self.chan is not None:
            with contextlib.suppress(Exception):
                self.chan.write(data)

    # ---- the game ---------------------------------------------------------------------
    def _say(self, text: str) -> None:
        if self.chan is not None:
            with contextlib.suppress(Exception):
                self.chan.write(("\r\n" + text.replace("\n", "\r\n") + "\r\n").encode())

    def _exit(self, status: int) -> None:
        if self.chan is not None:
            with contextlib.suppress(Exception):
                self.chan.exit(status)

    async def _run(self) -> None:
        """Admit the session, run its app on a PTY, end the session with the app."""
        try:
            await self._serve()
        finally:
            self._close_master()
            self.server.release(self)
            if self.on_end is not None and not self._closed:
                self.on_end()

    def _client_env(self) -> Mapping[str, str]:
        """The environment variables the client sent (read only for its locale)."""
        try:
            return self.chan.get_environment() if self.chan is not None else {}
        except Exception:  # noqa: BLE001 - a channel without an environment: none sent
            return {}

    async def _serve(self) -> None:
        server = self.server
        if self.term is None:
            self._say("wizwar needs a terminal: connect with  "
                      f"ssh -t -p {server.port} {self.name or 'NAME'}@HOST")
            self._exit(1)
            return
        await self._take_over()
        self.mode, why = server.admit(self)
        if self.mode == "refuse":
            server.log(f"ssh: refused {self.name or 'a nameless login'}: {why}")
            self._say(why)
            self._exit(1)
            return
        server.log(f"ssh: {self.name} connected ({'watching' if self.mode == 'watch' else 'to play'}"
                   f", terminal {self.size[0]}x{self.size[1]})")
        master, slave = pty.openpty()
        try:
            set_winsize(slave, *self.size)
            self.proc = await asyncio.create_subprocess_exec(
                *server.command(self.name, self.mode == "watch", self.rejoin), stdin=slave,
                stdout=slave, stderr=slave,
                env=child_env(self.term, client_wants_ascii(self._client_env())),
                start_new_session=True, preexec_fn=_take_terminal, close_fds=True)
        except OSError as exc:
            os.close(master)
            self._say(f"cannot start the game: {exc}")
            self._exit(1)
            return
        finally:
            os.close(slave)
        self.master = master
        os.set_blocking(master, False)
        set_winsize(master, *self.size)  # a resize that came while starting
        if self._closed:  # the client left while the app was starting
            self._kill()
        else:
            if not self._paused:
                asyncio.get_running_loop().add_reader(master, self._readable)
                self._reading = True
            self._flush_input()  # keys typed while the app was starting
        rc = await self.proc.wait()
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(2):
                await self._output_done.wait()  # the app's last screen
        server.log(f"ssh: {self.name} left")
        if self.chan is not None:
            with contextlib.suppress(Exception):
                self.chan.write(RESTORE_TERMINAL)
        if self._why:
            self._say(self._why)
        self._exit(rc if rc >= 0 else 1)
        if self.chan is not None:
            with contextlib.suppress(Exception):
                self.chan.close()

    async def _take_over(self) -> None:
        """A name already connected logs in again (a laptop that slept, a frozen client):
        the older connection is closed and this one takes the seat, unless the name is
        bound to another key (then :meth:`GameSSHServer.admit` refuses). Waits up to 6 s
        for the older app to stop, so its game connection is gone before this one joins."""
        server = self.server
        old = server.live.get(self.name)
        if old is None or old is self or (server.keys is not None and old.key != self.key):
            return
        server.log(f"ssh: {self.name} logged in again; the older connection is closed")
        old.end(f"{self.name} logged in from another connection; this one is closed.")
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 6
        while server.live.get(self.name) is old and loop.time() < deadline:
            await asyncio.sleep(0.05)

    def _close_master(self) -> None:
        if self.master >= 0:
            loop = asyncio.get_running_loop()
            loop.remove_reader(self.master)
            loop.remove_writer(self.master)
            with contextlib.suppress(OSError):
                os.close(self.master)
            self.master = -1

    def _kill(self) -> None:
        """Stop the app: SIGHUP to its session (as a closing terminal would), SIGKILL if it
        is still there 3 seconds later."""
        proc = self.proc
        if proc is None or proc.returncode is not None:
            return
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGHUP)

        def hard() -> None:
            if proc.returncode is None:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(proc.pid, signal.SIGKILL)

        asyncio.get_running_loop().call_later(3, hard)

    def end(self, why: str) -> None:
        """End the session from the server's side (the app is stopped; ``why`` is shown once
        the player's terminal is restored)."""
        self._why = why
        self._closed = True
        self._kill()
        if self.proc is None and self.chan is not None:
            self._say(why)
            with contextlib.suppress(Exception):
                self.chan.close()

    def connection_lost(self, exc: Exception | None) -> None:
        """The client is gone: stop its app (its seat waits for it to reconnect)."""
        self._closed = True
        self.chan = None
        self._kill()
        if self.proc is None and self._task is None:
            self.server.release(self)


# --------------------------------------------------------------------------- the command
def _err(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def join_addresses(bind: str, port: int) -> list[str]:
    """The ``ssh`` commands players type (one per address of this machine when listening on
    every address)."""
    if bind in ("0.0.0.0", "", "::"):
        from net.discovery import local_addresses

        hosts = local_addresses() or ["127.0.0.1"]
    else:
        hosts = [bind]
    return [f"ssh -p {port} NAME@{h if ':' not in h else '[' + h + ']'}" for h in hosts]


def ssh_listen_address(args: argparse.Namespace) -> tuple[str, int]:
    """Where ``wizwar host --ssh`` listens for SSH: the HOST of ``--ssh HOST:PORT``; without
    one the ``--bind`` address when one was given (``args.bind_given``: ``--bind 127.0.0.1``
    keeps SSH on loopback too), else every address (0.0.0.0). Raises ``ValueError`` like
    :func:`parse_listen`."""
    given = getattr(args, "bind_given", None)
    return parse_listen(args.ssh, default_host=given or "0.0.0.0")


async def host_ssh(args: argparse.Namespace) -> int:
    """``wizwar host --ssh [HOST:]PORT``: host a game (every seat joins, by SSH or the LAN;
    ``--bot``: P1 is the host's bot) and serve it over SSH until it is over and the last
    player has left. Returns the exit status."""
    from net.hosting import say_game_port, serve, start_game, stop_on_signals

    try:
        ssh_bind, ssh_port = ssh_listen_address(args)
    except ValueError as exc:
        _err(f"--ssh: {exc}")
        return 2
    password = args.ssh_password or os.environ.get(PASSWORD_ENV, "")
    keys = args.ssh_keys
    if keys:
        try:
            asyncssh.read_authorized_keys(keys)
        except (OSError, ValueError, asyncssh.KeyImportError) as exc:
            _err(f"--ssh-keys {keys}: {getattr(exc, 'strerror', None) or exc}")
            return 2
    try:
        host_key = load_host_key()
    except (OSError, ValueError, asyncssh.KeyImportError) as exc:
        _err(f"cannot load or make the SSH host key {host_key_path()}: "
             f"{getattr(exc, 'strerror', None) or exc}")
        return 1
    stop = stop_on_signals()  # before the link is printed: a signal then ends it cleanly
    started = await start_game(args)
    if isinstance(started, int):
        return started
    game, save, lan_port, lan_host = started
    server = GameSSHServer(lan_host, lan_port, bind=ssh_bind, port=ssh_port,
                           password=password, authorized_keys=keys or None,
                           host_key=host_key, game=game, log=_err)
    try:
        port = await server.start()
    except OSError as exc:
        _err(f"ssh: cannot listen on {ssh_bind}:{ssh_port}: {exc.strerror or exc}")
        await game.close()
        save.close()
        return 1
    print(f"ssh listening on {ssh_bind}:{port}", flush=True)
    say_game_port(args, lan_host, lan_port, "the SSH sessions")
    for cmd in join_addresses(ssh_bind, port):
        _err(f"players connect with:  {cmd}")
    if server.auth == "none" and not ssh_bind.startswith("127."):
        _err("ssh: no --ssh-password or --ssh-keys: anyone who can reach this port may play")
    if server.auth != "none":
        _err(f"ssh: note: any user of this machine can reach the game port {args.bind}:"
             f"{lan_port} directly, without the SSH password or keys (docs/ssh.md)")
    return await serve(args, game, save, lan_port, server,
                       lambda: server.wait_sessions(600), "leave", stop)
