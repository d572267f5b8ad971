"""Deterministic lockstep on a LAN: one host sequences actions, every peer checks them.

Generic over rulesets: a game is a :class:`~core.engine.Ruleset` and a validated options map.
The host numbers the actions, but is not trusted to compute: every peer validates each action
with its own rules core, applies it, and compares its state hash with the host's; a mismatch
stops the game at that sequence number and writes a desync report. Secrets stay hidden: a
peer's core knows only the values the host's dealer revealed to it (net/dealer.py).
The game seed is built from every seat's committed-then-revealed nonce.
See docs/protocol.md for every message.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from hashlib import blake2b
from typing import Any

from core import beacon, log, registry
from core.beacon import BeaconError, Chain, Tracker
from core.engine import Event, IllegalAction, OptionError, Ruleset, UnknownRuleset
from core.rng import ChanceNeeded
from net.dealer import REVEAL_KEYS, DealError, HostDealer, PeerDealer
from net.protocol import (
    HELLO_FRAME,
    MAX_FRAME,
    PROTOCOL_VERSION,
    FrameReader,
    ProtocolError,
    action_commitment,
    chain_tip_problem,
    encode,
    game_id,
    hello,
    version_problem,
)
from net.safe import safe_text

Log = Callable[[str], None]

#: what a peer's log keeps of a ``commit``: the dealer's reveal lists and the action's dice
#: reveals (``beacon``), replayed by ``core.log``


def _quiet(_msg: str) -> None:
    pass


def clean_name(name: object, limit: int = 40) -> str:
    """A player name safe to show in a terminal (:func:`net.safe.safe_text`: escape sequences
    removed whole, so no debris is left; control and format characters dropped), at most
    ``limit`` characters."""
    return safe_text(name, limit)


#: the longest reason (of ``refuse``, ``bye``, ``reject``, ``desync``) kept from the network
REASON_LIMIT = 300


def nonce_commit(nonce_hex: str) -> str:
    """Commitment to a seat's seed nonce (blake2b of its bytes, hex)."""
    return blake2b(bytes.fromhex(nonce_hex), digest_size=16).hexdigest()


def joint_seed(nonces: dict[str, str], seats: list[str]) -> bytes:
    """The game seed: blake2b over every seat's nonce in seat order, so no single seat,
    host included, chooses the deck order (design.md, Fair shuffle)."""
    h = blake2b(digest_size=32)
    for s in seats:
        h.update(bytes.fromhex(nonces[s]))
    return h.digest()


def _audit_record(records: list[dict[str, Any]], end: dict[str, Any]) -> str:
    """One generic end-of-game audit of a networked game's own log in memory (header,
    records) and its end record: every sealed action opens its commitment, and every answer
    an owner gave about its secret is the one the rules give from the secret opened at the
    end (``core.log.audit_sealed``, ``audit_answers``). ``""`` when it passes, else the
    problem in words, naming the seat and the action."""
    if not records:
        return ""
    loaded = log.read(b"".join(log.encode(r) for r in records) + log.encode(end))
    try:
        log.audit_sealed(loaded)
        log.audit_answers(loaded)
    except log.LogError as exc:
        return str(exc)
    return ""


def write_desync_report(seq: int, mine: str, theirs: str, actions: list[str],
                        folder: str | None = None, ruleset: Ruleset | None = None,
                        note: str = "") -> str:
    """Write a desync report (both hashes, the protocol and the ruleset with its version,
    ``note``: what was found and who is to blame, if known; the actions so far); returns its
    path. Raises ``OSError`` if the folder cannot be written."""
    if folder is None:
        from platformdirs import user_data_dir

        folder = os.path.join(user_data_dir("wizwar"), "desync")
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, f"desync-seq{seq}-{secrets.token_hex(4)}.txt")
    with open(path, "w", encoding="utf-8") as f:
        rules = f"{ruleset.name}/{ruleset.version}" if ruleset is not None else "?"
        f.write(f"wizwar desync at sequence {seq}\nthis peer's hash: {mine}\n"
                f"other hash: {theirs}\nprotocol {PROTOCOL_VERSION}, rules "
                f"{rules}\n" + (f"found: {clean_name(note, 2000)}\n" if note else "")
                + "\nactions:\n")
        for i, a in enumerate(actions, 1):
            f.write(f"{i} {a}\n")
    return path


MAX_UNSENT = 4 << 20
"""bytes: what one connection may have queued and not yet taken; beyond it the reader is
too slow (or not reading) and is dropped, so it never holds back the game or the host's
memory (a seat may rejoin and catch up)."""
MAX_UNAUTHENTICATED = 16
"""connections that have not said ``hello`` yet, at most; one more is refused at once."""
HELLO_TIMEOUT = 10.0
"""seconds a new connection has to say ``hello``."""
KEEPALIVE = (10, 5, 3)
"""TCP keepalive (idle seconds, seconds between probes, probes): a dead link is noticed in
about 25 s; the same bound (``TCP_USER_TIMEOUT``) applies to data sent and never
acknowledged."""


def keepalive(writer: asyncio.StreamWriter) -> None:
    """Turn TCP keepalive on for the connection of ``writer`` (:data:`KEEPALIVE`), so a
    peer whose link died (a cable pulled, a laptop closed) is noticed and dropped or
    rejoined instead of waited for forever. Options this system lacks are left out."""
    import socket

    sock = writer.get_extra_info("socket")
    if sock is None:
        return
    idle, interval, count = KEEPALIVE
    with contextlib.suppress(OSError):
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
    for name, value in (("TCP_KEEPIDLE", idle), ("TCP_KEEPINTVL", interval),
                        ("TCP_KEEPCNT", count),
                        ("TCP_USER_TIMEOUT", 1000 * (idle + interval * count))):
        opt = getattr(socket, name, None)
        if opt is not None:
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.IPPROTO_TCP, opt, value)


def swap_contents(a: Any, b: Any) -> bool:
    """Exchange the contents of two objects of one type (every slot and the instance
    ``__dict__``), so that ``a`` keeps its identity and holds what ``b`` held, and the other
    way round: the LAN host's state object stays the one everyone holds while it takes the
    contents of the copy an action was applied to (:meth:`HostGame._probe`). A ``dict``
    swaps its items. False (nothing changed) for objects of different types, with a slot
    unset, or with neither slots nor a ``__dict__`` (the caller then applies the action to
    its own object instead)."""
    if type(a) is not type(b):
        return False
    slots: list[str] = []
    for k in type(a).__mro__:
        names = getattr(k, "__slots__", ())
        slots.extend([names] if isinstance(names, str) else
                     [n for n in names if n not in ("__dict__", "__weakref__")])
    if any(not hasattr(a, n) or not hasattr(b, n) for n in slots):
        return False
    for n in slots:
        va = getattr(a, n)
        setattr(a, n, getattr(b, n))
        setattr(b, n, va)
    da, db = getattr(a, "__dict__", None), getattr(b, "__dict__", None)
    if isinstance(a, dict):  # a state that is a plain map: its items are its contents
        da, db = a, b
    elif da is None and not slots:
        return False  # contents this cannot reach (a tuple, a C object)
    if da is not None and db is not None:
        keep = dict(da)
        da.clear()
        da.update(db)
        db.clear()
        db.update(keep)
    return True


def describe(exc: BaseException) -> str:
    """Why a connection was dropped, in words, never empty (``TimeoutError()`` has no
    message: "no answer in time")."""
    text = safe_text(str(exc), REASON_LIMIT)
    if text:
        return text
    if isinstance(exc, TimeoutError):
        return "no answer in time"
    if isinstance(exc, ConnectionError):
        return "the connection was lost"
    return type(exc).__name__


class Conn:
    """One TCP connection: framed reads, writes that never wait.

    :meth:`send` queues a message in the transport and returns: a reader that does not keep
    up never blocks the sender. Once more than ``max_unsent`` bytes wait for it, the
    connection is dropped (:attr:`reason` says why). TCP keepalive is on (:func:`keepalive`).
    """

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                 max_unsent: int = MAX_UNSENT) -> None:
        self.frames = FrameReader(reader)
        self.writer = writer
        self.closed = False
        self.max_unsent = max_unsent
        self.reason = ""  # why this side dropped the connection ("" if it did not)
        keepalive(writer)

    async def send(self, msg: dict[str, Any]) -> None:
        """Send one message; a broken pipe just marks the connection closed."""
        self.write(encode(msg))

    def write(self, data: bytes) -> None:
        """Queue ``data`` (encoded frames); drop the connection if too much is waiting."""
        if self.closed:
            return
        try:
            self.writer.write(data)
        except (ConnectionError, RuntimeError):
            self.closed = True
            return
        if self.writer.transport.get_write_buffer_size() > self.max_unsent:
            self.drop(f"too slow: more than {self.max_unsent} bytes were waiting for it")

    def drop(self, reason: str) -> None:
        """Close the connection at once, whatever is still queued (``reason`` kept)."""
        self.reason = self.reason or reason
        self.closed = True
        with contextlib.suppress(Exception):
            self.writer.transport.abort()

    async def close(self) -> None:
        """Close the connection (idempotent), after what is queued, if it goes within a
        second (a slow reader is cut off)."""
        self.closed = True
        with contextlib.suppress(Exception):
            self.writer.close()
            async with asyncio.timeout(1.0):
                await self.writer.wait_closed()
        with contextlib.suppress(Exception):
            self.writer.transport.abort()


@dataclass
class Seat:
    """One seat at the host's table."""

    seat: str
    kind: str  # "local" (the host's own player), "bot" (played by the host), "remote"
    name: str = ""
    token: str = ""
    conn: Conn | None = None
    nonce_commit: str = ""
    nonce: str = ""
    bot: bool = False
    chain_tip: str = ""  # the seat's committed dice chain (hex)
    chain: Chain | None = None  # the host's own and bot seats: the host holds their chain
    new_tip: str = ""  # a rejoin from a new process: its chain, taken at the next safe point
    recommit: bool = False  # the lobby reopened after its nonce was sent: it owes a new one
    sealed: tuple[Any, str] | None = None  # its last proposal's (public wire, commitment)
    by_name: bool = False  # a resumed game's seat: the first hello under its name takes it

    @property
    def connected(self) -> bool:
        """A remote seat with a live connection (local and bot seats always are)."""
        return self.kind != "remote" or (self.conn is not None and not self.conn.closed)


@dataclass
class HostGame:
    """The hosting peer: seats, the secret deal, the sequencer.

    Attributes:
        ruleset: the game (default: the registry's default). options: its options (validated
        in ``__post_init__``; missing ones take their defaults). players: a shorthand for
        the ``players`` option, for a ruleset that has one (0: from ``options``).
        bots: how many of the last seats the host's bots play. bot_level: their level
        (the ruleset's default when ""). seed: the host's share of the game seed (its own
        and its bots' nonces, and the deal: ``HostDealer.deal``); None: fresh randomness. local_bot: the host's own seat (P1) is played by the bot (headless hosting).
        local_seat: False makes P1 a remote seat like the others, for a host where nobody
        plays at the host's own terminal (``wizwar host --ssh``: everyone joins).
        max_watchers: how many watchers (connections that only look on) may connect.
        clock: seconds a remote seat has to answer an attack before a logged ``pass`` is
        entered for it (None: no clock).
        seed_timeout: seconds the seed phase (from the deal to every nonce in) may last; a
        seat that has not sent its nonce by then is freed and the lobby reopens.
        reports: the reports written for peers found at odd with the host and dropped (the
        game went on); ``desync`` is the report of a stop.
        game_id: the current deal's id (``net.protocol.game_id``; "" before the deal).
    """

    players: int = 0
    name: str = "wizwar"
    bind: str = "127.0.0.1"
    port: int = 0
    bots: int = 0
    local_bot: bool = True
    local_seat: bool = True
    max_watchers: int = 8
    max_unauthenticated: int = MAX_UNAUTHENTICATED
    max_unsent: int = MAX_UNSENT
    hello_timeout: float = HELLO_TIMEOUT
    ruleset: Ruleset = field(default_factory=registry.get)
    options: dict[str, Any] = field(default_factory=dict)
    bot_level: str = ""
    seed: int | None = None
    clock: float | None = None
    log: Log = _quiet
    report_dir: str | None = None
    seats: list[Seat] = field(default_factory=list)
    state: Any = None
    dealer: HostDealer | None = None
    sent: list[dict[str, Any]] = field(default_factory=list)  # commits, private per seat
    hashes: dict[int, str] = field(default_factory=dict)
    actions: list[str] = field(default_factory=list)
    desync: str = ""
    start_msg: dict[str, Any] = field(default_factory=dict)
    deal_msg: dict[str, Any] = field(default_factory=dict)
    local_actions: asyncio.Queue | None = None
    on_change: Callable[[], None] | None = None
    events: list[Event] = field(default_factory=list)
    writer: Callable[[bytes], None] | None = None
    started: str = ""
    last_reject: str = ""
    tracker: Tracker = field(default_factory=Tracker)  # every seat's dice chain so far
    roll_msg: dict[str, Any] = field(default_factory=dict)  # the roll being revealed
    reveals_in: dict[str, str] = field(default_factory=dict)  # its reveals so far, by seat
    openings: list[list[Any]] = field(default_factory=list)  # sealed actions: [seq, wire, salt]
    audit: str = ""  # the end's audit of the secrets: "" passed, else the first problem
    seed_timeout: float = 60.0
    reports: list[str] = field(default_factory=list)
    game_id: str = ""
    past_games: list[str] = field(default_factory=list)  # deals of this host that reopened
    acks: dict[int, dict[str, str]] = field(default_factory=dict)  # seq -> seat -> hash
    # the rules' clock (Ruleset.budget): seconds left per budget key
    budget_left: dict[str, float] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._unauthenticated = 0  # connections that have not said hello yet
        self._owner_seals: dict[str, dict[int, str]] = {}  # seat -> seq -> its commitment
        self._openings_in = asyncio.Event()
        self._conns: set[Conn] = set()  # every open connection (closed with the game)
        self._spare: tuple[Any, int, Any] | None = None  # (state, seq, a copy of it)
        # the action applied to the spare, to be committed: (state, action, after, events,
        # the dealer's note of what was known before)
        self._probed: tuple[Any, Any, Any, list[Event], dict[str, Any]] | None = None
        # the last commit's work that its frame does not need (:meth:`_settle`): its
        # message, action, reveals, the record's sealed part, and the state object it
        # replaced (checked unchanged) or None
        self._unsettled: tuple[dict[str, Any], Any, dict[str, Any], list[str],
                               Any] | None = None
        opts = dict(self.options)
        if self.players and "players" in self.ruleset.options.names():
            opts["players"] = self.players
        self.options = self.ruleset.validate_options(opts)  # raises OptionError
        seat_ids = self.ruleset.seats(self.options)
        self.players = len(seat_ids)
        if not 0 <= self.bots < self.players:
            raise ValueError("bots must leave the host's own seat")
        self.seats = []
        for i, seat in enumerate(seat_ids):
            if i == 0 and self.local_seat:
                self.seats.append(Seat(seat, "local", "host", bot=self.local_bot))
            elif i >= self.players - self.bots:
                self.seats.append(Seat(seat, "bot", f"bot {seat}", bot=True))
            else:
                self.seats.append(Seat(seat, "remote"))
        self._inbox: asyncio.Queue[tuple[str, Any, int, int]] = asyncio.Queue()
        self._sealed_box: asyncio.Queue[tuple[str, dict[str, Any]]] = asyncio.Queue()
        self.sealed_in: dict[str, Any] = {}  # the current sealed window's commitments
        self.sealed_order: list[list[str]] = []  # per sealed window: seats as they sealed
        self._all_joined = asyncio.Event()
        self._nonces_in = asyncio.Event()
        self._reopen_ev = asyncio.Event()
        self._reopen_reason = ""
        self._record: list[dict[str, Any]] = []  # the host's log (header, records) in memory
        self._check: Any = None  # the self-check's replay (core.log.Replay) and how far
        self._checked = 0
        self._reveals_done = asyncio.Event()
        self._server: asyncio.base_events.Server | None = None
        self._tasks: set[asyncio.Task] = set()
        self.local_actions = asyncio.Queue()
        self.watchers: list[Conn] = []

    # ---- seats ------------------------------------------------------------------------
    def seat(self, s: str) -> Seat:
        """The seat record of ``s``."""
        return next(x for x in self.seats if x.seat == s)

    @property
    def free_seats(self) -> int:
        """Remote seats nobody has taken yet."""
        return sum(1 for s in self.seats if s.kind == "remote" and not s.token)

    def seat_status(self) -> dict[str, str]:
        """Per seat: ``host``, ``bot``, ``free``, ``connected`` or ``disconnected``."""
        out = {}
        for s in self.seats:
            if s.kind == "local":
                out[s.seat] = "host"
            elif s.kind == "bot":
                out[s.seat] = "bot"
            elif not s.token:
                out[s.seat] = "free"
            else:
                out[s.seat] = "connected" if s.connected else "disconnected"
        return out

    def seat_names(self) -> dict[str, str]:
        """Per seat: the name of who plays it ("" for a free seat); the host's own seat is
        ``host``, a bot seat ``bot Pn``."""
        return {s.seat: s.name if (s.kind != "remote" or s.token) else "" for s in self.seats}

    def peers_msg(self) -> dict[str, Any]:
        """The ``peers`` message: every seat's status, and (``names``) who sits there, so
        a joined player's lobby can show the other players before the deal."""
        return {"type": "peers", "seats": self.seat_status(), "names": self.seat_names()}

    def _changed(self) -> None:
        msg = self.peers_msg()
        if msg != getattr(self, "_last_peers", None):
            self._last_peers = msg
            task = asyncio.ensure_future(self._broadcast(msg))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        if self.on_change is not None:
            self.on_change()

    # ---- network ----------------------------------------------------------------------
    async def start(self) -> int:
        """Listen; returns the port (useful with port 0)."""
        self._server = await asyncio.start_server(self._serve, self.bind, self.port)
        self.port = self._server.sockets[0].getsockname()[1]
        return self.port  # the caller says where it listens (once: `wizwar host`, the lobby)

    async def close(self) -> None:
        """Stop listening and drop every connection (telling each peer the game is closed,
        unless it ended normally)."""
        if self._server is not None:
            self._server.close()
        if not self.desync:
            await self._settle()  # the last action's record is written
        over = self.over
        for s in self.seats:
            if s.conn is not None:
                if not over and not s.conn.closed:
                    await s.conn.send({"type": "bye", "reason": "the host closed the game"})
                await s.conn.close()
        for w in list(self.watchers):
            if not over:
                await w.send({"type": "bye", "reason": "the host closed the game"})
            await w.close()
        for c in list(self._conns):  # the ones that never got a seat (no hello yet)
            await c.close()
        for t in list(self._tasks):
            t.cancel()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        conn = Conn(reader, writer, self.max_unsent)
        seat: Seat | None = None
        self._conns.add(conn)
        if self._unauthenticated >= self.max_unauthenticated:
            self.log("refused a connection: too many connections have not said hello yet")
            await conn.send({"type": "refuse", "reason": "too many connections are joining "
                             "at once; try again in a few seconds"})
            await conn.close()
            self._conns.discard(conn)
            return
        self._unauthenticated += 1
        counted = True
        try:
            conn.frames.limit = HELLO_FRAME
            try:
                async with asyncio.timeout(self.hello_timeout):
                    msg = await conn.frames.read()
            except TimeoutError:
                raise ProtocolError(f"no hello within {self.hello_timeout:g} s") from None
            finally:
                self._unauthenticated -= 1
                counted = False
            conn.frames.limit = MAX_FRAME
            if msg is None:
                return  # closed before saying hello: a discovery probe (net.discovery)
            if msg["type"] != "hello":
                raise ProtocolError("the first message must be hello")
            problem = version_problem(self.ruleset, msg)
            if problem:  # naming the game played here: a joiner that named none follows it
                await conn.send({"type": "refuse", "reason": problem,
                                 "ruleset": self.ruleset.name})
                return
            if msg.get("watch") is True:
                await self._watch(conn)
                return
            problem = chain_tip_problem(msg.get("chain"))
            if problem:
                await conn.send({"type": "refuse", "reason": problem})
                return
            problem = self._stranger(msg)
            if problem:
                await conn.send({"type": "refuse", "reason": problem})
                return
            seat = self._take_seat(msg)
            if seat is None:
                await conn.send({"type": "refuse", "reason": "the game is full"})
                return
            # a seat taken back with its token: the new connection is the seat's before the
            # old one is closed, so the old one's ending does not free the seat (in the
            # lobby that cleared the token and name under the newcomer: a takeover loop)
            # From here to the end of the catch-up nothing waits (sends only queue), so no
            # broadcast reaches the new connection before its catch-up: a commit ahead of
            # the start it follows dropped a rejoining peer ("a commit before the start").
            await self._settle()  # its hash frame goes to the others; the catch-up has it
            old, seat.conn = seat.conn, conn
            await conn.send({"type": "welcome", "seat": seat.seat, "token": seat.token,
                             "players": self.players, "game": self.name[:80],
                             "ruleset": self.ruleset.name})
            self.log(f"{seat.seat} joined ({seat.name})")
            if seat.new_tip and seat.seat not in self.reveals_in:
                await self._recommit(seat, tell_it=False)  # it learns it in the catch-up
            await self._catch_up(seat)
            if old is not None:
                await old.close()
            self._changed()
            self._check_joined()
            while True:
                msg = await conn.frames.read()
                if msg is None:
                    break
                await self._handle(seat, msg)
        except (TimeoutError, ProtocolError, ConnectionError, OSError, ValueError) as exc:
            self.log(f"dropping a connection{f' of {seat.seat}' if seat else ''}: "
                     f"{conn.reason or describe(exc)}")
        else:
            if conn.reason:
                self.log(f"dropped a connection{f' of {seat.seat}' if seat else ''}: "
                         f"{conn.reason}")
        finally:
            if counted:
                self._unauthenticated -= 1
            self._conns.discard(conn)
            await conn.close()
            if seat is not None and seat.conn is conn:
                if not self.deal_msg:  # left before the deal: the seat is free again
                    seat.token = seat.name = seat.nonce_commit = ""
                    seat.conn, seat.recommit = None, False
                    self.log(f"{seat.seat} left the lobby; the seat is free")
                else:
                    self.log(f"{seat.seat} disconnected")
                self._changed()

    async def _watch(self, conn: Conn) -> None:
        """A watcher: it gets what every seat gets except the private reveals (no hand face,
        ever), and may send nothing but ``bye``. The catch-up is written in one go, before
        the watcher is added to the broadcast list, so nothing is missed or sent twice."""
        if len(self.watchers) >= self.max_watchers:
            await conn.send({"type": "refuse", "reason": "too many watchers"})
            return
        backlog: list[dict[str, Any]] = [
            {"type": "welcome", "seat": "", "token": "", "players": self.players,
             "game": self.name[:80], "ruleset": self.ruleset.name},
            self.peers_msg()]
        if self.deal_msg:
            backlog.append(self.deal_msg)
        if self.start_msg:
            backlog.append(self._for(self.start_msg, ""))
        backlog.extend(self._for(m, "") for m in self.sent)
        conn.write(b"".join(encode(m) for m in backlog))
        if conn.closed:
            return
        self.watchers.append(conn)
        self.log(f"a watcher joined ({len(self.watchers)} watching)")
        try:
            while True:
                msg = await conn.frames.read()
                if msg is None or msg["type"] == "bye":
                    break
                if msg["type"] != "ack":  # a watcher's ack is not a vote: ignored
                    raise ProtocolError(f"a watcher may not send {msg['type']}")
        finally:
            if conn in self.watchers:
                self.watchers.remove(conn)
            why = f": {conn.reason}" if conn.reason else ""
            self.log(f"a watcher left{why} ({len(self.watchers)} watching)")

    def _take_seat(self, msg: dict[str, Any]) -> Seat | None:
        token = msg["token"]
        if token:
            for s in self.seats:
                if s.kind == "remote" and s.token == token:
                    if not self.deal_msg:  # taken back in the lobby: the newcomer's name
                        s.name = clean_name(msg["name"])  # and seed commitment count now
                        s.nonce_commit = msg["nonce_commit"][:64]
                        s.chain_tip = msg["chain"]
                        s.recommit = False  # a hello's commitment is a fresh one
                    elif not self.start_msg and (msg["nonce_commit"][:64] != s.nonce_commit
                                                 or msg["chain"] != s.chain_tip):
                        # the seed phase, from a process with other commitments: they are
                        # in the deal, so the lobby reopens and the host deals again
                        s.nonce_commit = msg["nonce_commit"][:64]
                        s.chain_tip = msg["chain"]
                        s.nonce, s.recommit = "", False
                        self._reopen_reason = (f"{s.seat} joined again with new seed "
                                               "commitments: dealing again")
                        self._reopen_ev.set()
                    elif msg["chain"] != s.chain_tip:  # a new process: a new dice chain
                        s.new_tip = msg["chain"]
                    return s
        for s in self.seats:  # a resumed game's seat, taken back under its player's name
            if s.kind == "remote" and s.by_name and s.name == clean_name(msg["name"]):
                s.by_name = False
                if msg["chain"] != s.chain_tip:  # a new process: a new dice chain
                    s.new_tip = msg["chain"]
                return s
        if self.deal_msg:  # the game has begun: only rejoins
            return None
        for s in self.seats:
            if s.kind == "remote" and not s.token:
                s.token = secrets.token_hex(16)
                s.name = clean_name(msg["name"])
                s.nonce_commit = msg["nonce_commit"][:64]
                s.chain_tip = msg["chain"]
                return s
        return None

    def _stranger(self, msg: dict[str, Any]) -> str:
        """Why a hello is a stranger's rejoin ("" if it is not): it names a game (``game``,
        the id of the deal it was in) this host never dealt, or, once dealt, it brings a
        seat token no seat here holds. A host restarted on the same port is a new game: its
        old players are refused in words, never seated as if they were rejoining."""
        gid = msg.get("game", "")
        if not isinstance(gid, str):
            raise ProtocolError("hello: 'game' must be a string")
        gid = clean_name(gid, 32)
        if gid and gid != self.game_id and gid not in self.past_games:
            now = (f"it is dealing game {self.game_id[:8]}" if self.game_id else
                   "it has no game dealt")
            return (f"this host is not running the game you were in (game {gid[:8]}; {now}): "
                    "it was restarted or is another host on the same port; your seat there "
                    "is lost, join it anew")
        token = msg["token"]
        if token and self.deal_msg and not any(
                s.kind == "remote" and (s.token == token or (
                    s.by_name and s.name == clean_name(msg["name"]))) for s in self.seats):
            return ("no seat of this game holds your seat token (a host restarted since, or "
                    "a seat freed): join it anew")
        return ""

    def _check_joined(self) -> None:
        """Set the all-joined event once every remote seat is taken and none owes a fresh
        nonce commitment (after a reopened lobby)."""
        if all(s.token and not s.recommit for s in self.seats if s.kind == "remote"):
            self._all_joined.set()

    async def _catch_up(self, seat: Seat) -> None:
        """A rejoining peer gets everything it was sent so far, in order, written in one go
        (nothing can come between: no broadcast reaches it before its catch-up). The last
        commit was settled before the seat took the connection, so every commit in the
        backlog carries its hash."""
        assert seat.conn is not None
        backlog: list[dict[str, Any]] = []
        if self.deal_msg:
            backlog.append(self.deal_msg)
        if self.start_msg:
            backlog.append(self._for(self.start_msg, seat.seat))
        backlog.extend(self._for(m, seat.seat) for m in self.sent)
        if self.roll_msg and seat.seat not in self.reveals_in:
            backlog.append(self.roll_msg)
        if self.sealed_in:
            backlog.append(self.sealed_in)
        if backlog:
            seat.conn.write(b"".join(encode(m) for m in backlog))

    def _for(self, msg: dict[str, Any], seat: str) -> dict[str, Any]:
        """What ``seat`` (``""``: a watcher) is sent of a sequenced message: its own private
        reveals only, and of an action with sealed fields (``Ruleset.seal``) the whole
        action and its opening if the rules let it know them, else the public form and the
        commitment only."""
        out = dict(msg)
        if "private" not in msg:  # a dice chain announced (sequenced with the commits)
            return out
        sealed = out.pop("_sealed", None)
        if sealed is not None:
            if seat and seat in sealed["knows"] and sealed["salt"]:
                out["sealed"] = [sealed["commit"], sealed["salt"]]
            elif seat and seat in sealed["knows"]:  # its owner, which holds the opening
                out["sealed"] = [sealed["commit"]]
            else:
                out["action"] = sealed["public"]
                out["sealed"] = [sealed["commit"]]
        out["private"] = msg["private"].get(seat, [])
        out["last"] = self.ruleset.seq(self.state) if self.state is not None else 0  # catch up
        return out

    async def _handle(self, seat: Seat, msg: dict[str, Any]) -> None:
        t = msg["type"]
        if t == "nonce":
            if self._nonces_in.is_set() or seat.nonce:
                return  # a rejoining peer answers the deal again; the seed is fixed already
            n = msg["nonce"]
            try:
                ok = len(n) == 64 and nonce_commit(n) == seat.nonce_commit
            except ValueError:
                ok = False
            if not ok:
                raise ProtocolError("the nonce does not match its commitment")
            seat.nonce = n
            if all(s.nonce for s in self.seats if s.kind == "remote"):
                self._nonces_in.set()
        elif t == "recommit":
            if self.deal_msg or not seat.recommit:
                return  # only a reopened lobby asks for one; a late one is harmless
            seat.nonce_commit = msg["nonce_commit"][:64]
            seat.recommit = False
            self._check_joined()
        elif t == "propose":
            assert seat.conn is not None
            try:
                action = self.ruleset.action_from_wire(msg["action"])
            except ValueError as exc:
                await seat.conn.send({"type": "reject", "reason": str(exc), "action": []})
                return
            if action.actor != seat.seat:
                await seat.conn.send({"type": "reject", "action": action.to_wire(),
                                      "reason": f"you play {seat.seat}, not {action.actor}"})
                return
            keeper = self.ruleset.keeper_only(action)  # the clock's own actions (a timeout)
            if keeper:
                await seat.conn.send({"type": "reject", "action": action.to_wire(),
                                      "reason": keeper})
                return
            sealed = msg.get("sealed")  # an owner-held secret, sealed by its owner
            seat.sealed = (msg["action"], sealed) if isinstance(sealed, str) and \
                len(sealed) == 32 else None
            await self._inbox.put((seat.seat, action, msg["seq"], msg["window"]))
        elif t in ("sealed", "open"):
            await self._sealed_box.put((seat.seat, msg))
        elif t == "openings":
            self._take_openings(seat, msg["openings"])
        elif t == "ack":
            mine = self.hashes.get(msg["seq"])
            if mine is None:
                return  # no such action (yet): nothing to compare
            self.acks.setdefault(msg["seq"], {})[seat.seat] = msg["hash"][:64]
            if mine != msg["hash"] and not self.desync:
                await self._judge(seat, msg["seq"], msg["hash"][:64],
                                  f"its ack of action {msg['seq']} names another state hash")
        elif t == "report":
            if self.desync:
                return
            theirs = msg.get("hash")
            await self._judge(seat, msg["seq"], theirs[:64] if isinstance(theirs, str) else "",
                              "it reports: " + clean_name(msg["reason"], 300))
        elif t == "beacon":
            if not self.roll_msg or msg["index"] != self.roll_msg["index"] or \
                    seat.seat in self.reveals_in:
                return  # a late or repeated answer to a roll already settled
            try:
                self.tracker.check(seat.seat, msg["value"])
            except BeaconError as exc:
                raise ProtocolError(str(exc)) from exc
            self.reveals_in[seat.seat] = msg["value"]
            if all(s.seat in self.reveals_in for s in self.seats):
                self._reveals_done.set()
        elif t == "bye":
            raise ConnectionError("peer left")
        else:
            raise ProtocolError(f"a peer may not send {t}")

    def _self_check(self) -> str:
        """The host checks its own state: its record (the same header and records as its
        log) is replayed with the rules, and every state hash it sent must come out again,
        and the live state must be the record's. Returns "" when they do, else what went
        wrong (a real host fault). Incremental: each action is replayed once."""
        rs = self.ruleset
        if not self._record:
            return ""  # not started: no state to be wrong about
        try:
            if self._check is None:
                self._check = log.begin(log.read(log.encode(self._record[0])))
                self._checked = 0
                if rs.state_hash(self._check.state) != self.hashes.get(0):
                    self._check = None
                    return "the host's start state is not the one its record deals"
            for r in self._record[1 + self._checked:]:
                self._check.step(r)
                self._checked += 1
                if rs.state_hash(self._check.state) != self.hashes.get(r["seq"]):
                    return (f"replaying the host's record gives another state after action "
                            f"{r['seq']} than the one the host sent")
        except (log.LogError, IndexError, ValueError) as exc:
            return f"the host's record does not replay: {exc}"
        if self.state is not None and rs.state_hash(self._check.state) != \
                rs.state_hash(self.state):
            return "the host's live state is not the one its record replays to"
        return ""

    async def _judge(self, seat: Seat, seq: int, theirs: str, reason: str) -> None:
        """One peer disagrees with the host at action ``seq`` (a wrong ``ack`` hash, or its
        ``report`` of a desync or a cheat). Told apart from a host fault: the host checks
        its own state (:meth:`_self_check`) and compares the other seats' acks of ``seq``.
        A host fault (its own check fails, or other peers computed the disagreeing peer's
        hash and none the host's) stops the game for everyone with a report; otherwise that
        peer is the odd one out: a report naming it is written (:attr:`reports`), it is
        dropped (it may rejoin and catch up from the record), everyone is told, and the game
        goes on. Raises ``ConnectionError`` to end the dropped peer's connection."""
        rs = self.ruleset
        await self._settle()
        if self.desync:
            return  # the host's own check stopped the game meanwhile
        mine = self.hashes.get(seq, "")
        if theirs and seq in self.hashes:  # a claim about that action, like an ack
            self.acks.setdefault(seq, {})[seat.seat] = theirs
        fault = self._self_check()
        others = {s: h for s, h in self.acks.get(seq, {}).items() if s != seat.seat}
        with_host = sorted(s for s, h in others.items() if h == mine)
        with_them = sorted(s for s, h in others.items() if theirs and h == theirs)
        if not fault and with_them and not with_host:
            fault = (f"{', '.join([seat.seat, *with_them])} computed another state than the "
                     f"host's at action {seq}, and no peer the host's")
        if fault:
            self.desync = write_desync_report(
                seq, mine, theirs, self.actions, self.report_dir, rs,
                note=f"a host fault: {fault} ({seat.seat}: {reason})")
            self.log(f"DESYNC at {seq}: {fault}; report {self.desync}")
            await self._stop_all(seq, fault)
            return
        why = (f"{seat.seat} is the odd one out at action {seq} ({reason}): the host's record "
               "replays to its own hashes"
               + (f" and {', '.join(with_host)} computed the host's" if with_host else ""))
        path = write_desync_report(seq, mine, theirs, self.actions, self.report_dir, rs,
                                   note=why)
        self.reports.append(path)
        self.log(f"{why}; {seat.seat} is dropped (it may rejoin and catch up); report {path}")
        if seat.conn is not None:
            await seat.conn.send({"type": "drop", "seq": seq, "reason": (
                f"your state is not the host's at action {seq} ({reason}); join again to "
                "catch up from the host's record")})
        note = {"type": "report", "seat": seat.seat, "seq": seq, "reason": why}
        for s in self.seats:
            if s is not seat and s.kind == "remote" and s.conn is not None:
                await s.conn.send(note)
        for w in list(self.watchers):
            await w.send(note)
        raise ConnectionError(f"dropped: {why}")

    async def _broadcast(self, msg: dict[str, Any]) -> None:
        """Send ``msg`` to every connected seat and watcher (a message with ``private``
        reveals as :meth:`_for` each); one encoding serves every copy that is the same."""
        done: dict[tuple[int, bool], bytes] = {}  # (id of a private reveal list, whether the
        # seat may know a sealed action whole) -> the frame encoded with them
        empty: list[Any] = []
        sealed = msg.get("_sealed")

        def frame(seat: str) -> bytes:
            knows = sealed is not None and bool(seat) and seat in sealed["knows"]
            if "private" not in msg:
                key = (0, knows)
            else:
                mine = msg["private"].get(seat) or empty
                key = (id(mine) if mine else 1, knows)
            if key not in done:
                done[key] = encode(self._for(msg, seat) if "private" in msg else msg)
            return done[key]

        for s in self.seats:
            if s.kind == "remote" and s.conn is not None:
                s.conn.write(frame(s.seat))
        for w in list(self.watchers):
            w.write(frame(""))

    # ---- the game ---------------------------------------------------------------------
    async def run(self) -> str:
        """Wait for the seats, deal, play to the end; returns the final state hash. A game
        already started (resumed from its log: ``net.resume.restore``) plays on at once."""
        if self._server is None:
            await self.start()
        if self.start_msg:
            return await self._play()
        while True:  # the lobby, the deal and the seed phase (again if the lobby reopens)
            await self._deal()
            if not any(s.kind == "remote" for s in self.seats):
                break
            reason = await self._seed_phase()
            if not reason:
                break
            await self._reopen(reason)
        rs = self.ruleset
        assert self.dealer is not None
        names = [s.name or s.seat for s in self.seats]
        tips = {s.seat: s.chain_tip for s in self.seats}
        nonces = {s.seat: s.nonce for s in self.seats}
        seed = joint_seed(nonces, [s.seat for s in self.seats])
        deal = self.dealer.game_deal()
        st = rs.new_game(self.options, seed, names=names, deal=deal)
        for s in self.seats:  # the owner-held secrets of the seats this process plays
            if s.kind != "remote":
                rs.keep_private(st, s.seat, secrets.token_bytes(16))
        beacon.beaconize(rs, st)  # the deal stays on the joint seed; each roll then not
        self.dealer.attach(st)
        self.state = st
        pre, private = self.dealer.start_reveals(st)
        self.start_msg = {"type": "start", "nonces": nonces, "pre": pre, "private": private,
                          "hash": rs.state_hash(st)}
        head = log.header(rs, self.options, seed, kind="host", viewer="P1", names=names,
                          deal=deal, started=self.started,
                          extra={"nonces": nonces, "beacon": {"chains": tips},
                                 "dealer": "host"})
        self._record = [head]  # kept for the host's own check (_self_check)
        if self.writer is not None:
            self.writer(log.encode(head))
        self.hashes[0] = rs.state_hash(st)
        await self._broadcast(self.start_msg)
        asyncio.get_running_loop().call_soon(self._make_spare)
        self.log(f"game started, first to act {', '.join(rs.to_move(st))}")
        self._changed()
        return await self._play()

    async def _play(self) -> str:
        """From the start (or a resumed game's last action) to the end: each stage's
        actions sequenced, then the owners' openings, the audit and ``end``; returns the
        final state hash ("" on a desync)."""
        rs = self.ruleset
        assert self.dealer is not None
        while not rs.result(self.state).over and not self.desync:
            st = self.state  # a new object after each action (the probe's: :meth:`commit`)
            stage = rs.stage(st)
            if stage.kind == "sealed":
                await self._sealed_round(stage)
                continue
            if stage.kind == "reveal" and stage.holder:
                # the rules ask an owner about its secret: its own process answers
                seat = self.seat(stage.holder)
            elif stage.kind == "reveal" or not stage.players:
                raise RuntimeError(f"{rs.title}: a {stage.kind} stage with nobody to act; "
                                   "the LAN host cannot go on")
            else:
                seat = self.seat(stage.players[0])
            if stage.kind == "reveal" and seat.kind != "remote":
                action = rs.answer(st, seat.seat)  # the host holds its own seats' secrets
            elif seat.bot:
                action = rs.bot_act(st, seat.seat, self.bot_level)
                await asyncio.sleep(0)
            elif seat.kind == "local":
                assert self.local_actions is not None
                action = await self._local_next(seat)
            else:
                action = await self._next_from(seat)
                if action is None:
                    continue
            # a beaconed game's action is judged by its probe, the one apply it gets when it
            # does not roll (:meth:`_sequence`): the rules run once, not a check and then an
            # apply that checks again (docs/performance.md, seventh round)
            reason = "" if beacon.is_beaconed(rs, st) else beacon.why_illegal(rs, st, action)
            if not reason:
                reason = await self._sequence(action)
            if reason and stage.kind == "reveal" and seat.kind == "remote":
                # an owner's answer is computed by the rules from its secret: one they
                # refuse (a reveal that does not open its commitment) is a lie, and the
                # game stops at once, naming the seat (docs/protocol.md, Owner-held secrets)
                await self._stop_answer(seat.seat, rs.seq(st), reason)
                continue
            if reason:
                if seat.kind == "remote" and seat.conn is not None:
                    await seat.conn.send({"type": "reject", "reason": reason,
                                          "action": action.to_wire()})
                elif seat.kind == "local" and not seat.bot:
                    self.last_reject = reason
                    self.log(f"refused: {reason}")
                continue
        await self._settle()
        if self.desync:
            return ""
        st = self.state
        await self._owners_open()
        end = log.end_record(rs, st, self.dealer.history, openings=self.openings)
        self.audit = _audit_record(self._record, end)
        if self.audit:
            self.log(f"AUDIT FAILED: {self.audit}")
        if self.writer is not None:
            self.writer(log.encode(end))
        await self._broadcast({"type": "end", "history": self.dealer.history,
                               "openings": self.openings, "hash": rs.state_hash(st)})
        await asyncio.sleep(0.05)
        return rs.state_hash(st)

    async def _owners_open(self) -> None:
        """At the end, before the audit: wait until every remote owner opened the actions
        it sealed itself (``openings``; a peer sends them once it applied the last action),
        check each against the commitment sequenced, and add them to :attr:`openings` in
        action order. An owner that never opens keeps the game waiting, like a dropped
        peer; a wrong opening is left out, so every peer's audit names that action."""
        while any(self._owner_seals.get(s.seat) for s in self.seats if s.kind == "remote"):
            await self._openings_in.wait()
            self._openings_in.clear()
        self.openings.sort(key=lambda o: o[0])

    def _take_openings(self, seat: Seat, got: list[Any]) -> None:
        """A remote owner's ``openings`` ``[seq, whole action wire, salt]``: each one must
        open a commitment this seat sealed (else it is left out and said in words)."""
        due = self._owner_seals.get(seat.seat, {})
        for o in got[:4096]:
            if not (isinstance(o, list) and len(o) == 3 and isinstance(o[0], int)
                    and isinstance(o[2], str) and o[0] in due):
                continue
            if action_commitment(o[1], o[2]) != due[o[0]]:
                self.log(f"{seat.seat}'s opening of action {o[0]} does not match its "
                         "commitment")
            else:
                self.openings.append([o[0], o[1], o[2]])
            del due[o[0]]
        self._openings_in.set()

    async def _deal(self) -> None:
        """Wait for every seat, then deal: the host's own and bot seats' nonces and chains,
        the dealer's commitments, the game id; broadcast the ``deal``."""
        if any(s.kind == "remote" for s in self.seats):
            await self._all_joined.wait()
        p1 = self.seats[0]
        if p1.kind == "local":
            p1.nonce = self._host_nonce(p1.seat)
            p1.nonce_commit = nonce_commit(p1.nonce)
        for s in self.seats:
            if s.kind == "bot":
                s.nonce = self._host_nonce(s.seat)
                s.nonce_commit = nonce_commit(s.nonce)
            if s.kind != "remote":
                s.chain = Chain(self._host_chain_secret(s.seat))
                s.chain_tip = s.chain.tip.hex()
        tips = {s.seat: s.chain_tip for s in self.seats}
        self.tracker = Tracker.from_tips(tips)
        rs = self.ruleset
        self.dealer = HostDealer.deal(rs.dealing(), self.options, self.seed)
        names = [s.name or s.seat for s in self.seats]
        seats = [s.seat for s in self.seats]
        commits = {s.seat: s.nonce_commit for s in self.seats}
        self.game_id = game_id(seats, commits, tips, self.dealer.commits())
        self._nonces_in.clear()
        self._reopen_ev.clear()
        self.deal_msg = {"type": "deal", "commits": self.dealer.commits(),
                         "nonce_commits": commits,
                         "options": rs.options.to_wire(self.options), "names": names,
                         "chains": tips, "game": self.game_id}
        await self._broadcast(self.deal_msg)
        self._changed()

    async def _seed_phase(self) -> str:
        """Wait for every remote seat's nonce, at most :attr:`seed_timeout` seconds. Returns
        "" once all are in, else why the lobby must reopen: a seat joined again with other
        commitments, or some seats sent no nonce in time (those seats are freed and their
        peers told why)."""
        done = asyncio.ensure_future(self._nonces_in.wait())
        again = asyncio.ensure_future(self._reopen_ev.wait())
        try:
            await asyncio.wait({done, again}, timeout=self.seed_timeout,
                               return_when=asyncio.FIRST_COMPLETED)
        finally:
            done.cancel()
            again.cancel()
        if self._nonces_in.is_set():
            return ""
        if self._reopen_ev.is_set():
            return self._reopen_reason
        late = [s for s in self.seats if s.kind == "remote" and not s.nonce]
        who = ", ".join(s.seat for s in late)
        for s in late:
            conn, s.conn = s.conn, None
            s.token = s.name = s.nonce_commit = s.chain_tip = ""
            if conn is not None:
                await conn.send({"type": "bye", "reason": (
                    f"your seat {s.seat} sent no seed nonce within {self.seed_timeout:g} s "
                    "of the deal: it is free again")})
                await conn.close()
        return (f"{who} sent no seed nonce within {self.seed_timeout:g} s of the deal: "
                f"{'that seat is' if len(late) == 1 else 'those seats are'} free again")

    async def _reopen(self, reason: str) -> None:
        """Reopen the lobby: the deal is void (its id is kept, so its players' rejoins are
        known), every seat whose nonce the host saw owes a fresh commitment (``recommit``:
        a nonce once shown is never used again, so nobody can choose the next seed knowing
        it), and everyone is told why (``reopen``)."""
        self.log(f"the lobby reopened: {reason}")
        if self.game_id:
            self.past_games.append(self.game_id)
        self.game_id = ""
        self.deal_msg = {}
        self._all_joined.clear()
        self._nonces_in.clear()
        self._reopen_ev.clear()
        for s in self.seats:
            if s.kind == "remote" and s.nonce:
                s.nonce, s.recommit = "", True
        await self._broadcast({"type": "reopen", "reason": reason})
        self._changed()
        self._check_joined()

    @property
    def over(self) -> bool:
        """True once the game has ended (its outcome is over)."""
        return self.state is not None and self.ruleset.result(self.state).over

    def dice_waiting(self) -> list[str]:
        """The seats whose dice reveal the action being sequenced still waits for."""
        if not self.roll_msg:
            return []
        return [s.seat for s in self.seats if s.seat not in self.reveals_in]

    def _host_chain_secret(self, seat: str) -> bytes:
        """The secret of the dice chain of a seat the host plays: fresh, or from
        :attr:`seed`."""
        if self.seed is None:
            return secrets.token_bytes(32)
        return blake2b(f"wizwar-chain:{self.seed}:{seat}".encode(), digest_size=32).digest()

    async def _host_choice(self, seat: Seat) -> Any:
        """The action of a seat the host plays (its bot, or the host's player)."""
        st, rs = self.state, self.ruleset
        if seat.bot:
            await asyncio.sleep(0)
            return rs.bot_act(st, seat.seat, self.bot_level)
        assert self.local_actions is not None
        return await self.local_actions.get()

    async def _sealed_round(self, stage: Any) -> None:
        """A simultaneous sealed stage (docs/protocol.md, Sealed stages): every listed seat
        commits to its action (``sealed``: a salted hash), the host sends every commitment
        (``sealed_in``), then every seat opens its own (``open``); once all are open and legal
        the host sends them all (``opened``) and commits the actions in seat order, so the
        result never depends on the order in which they arrived."""
        st, rs = self.state, self.ruleset
        w, players = stage.window, list(stage.players)
        commits: dict[str, str] = {}
        openings: dict[str, list[Any]] = {}
        whole: dict[str, Any] = {}  # the host's own seats' whole actions, sealed by owner
        owned: dict[str, str] = {}  # a remote owner's commitment to its whole action
        order: list[str] = []
        self.sealed_order.append(order)
        for s in players:
            seat = self.seat(s)
            if seat.kind != "remote":
                while True:
                    action = await self._host_choice(seat)
                    reason = beacon.why_illegal(rs, st, action) if action.actor == s else \
                        f"you play {s}, not {action.actor}"
                    if not reason:
                        break
                    self.last_reject = reason
                    self.log(f"refused: {reason}")
                salt = secrets.token_hex(16)
                sealed = rs.seal(st, action)
                if sealed is not None and sealed.by == "owner":  # only its public part goes
                    whole[s], action = action, sealed.public
                openings[s] = [action.to_wire(), salt]
                commits[s] = action_commitment(action.to_wire(), salt)
                order.append(s)

        async def announce() -> None:
            self.sealed_in = {"type": "sealed_in", "window": w, "commits": dict(commits)}
            await self._broadcast(self.sealed_in)

        while len(openings) < len(players):
            if len(commits) == len(players) and self.sealed_in.get("commits") != commits:
                await announce()
            who, msg = await self._sealed_box.get()
            if self.desync:
                return
            if who not in players or msg["window"] != w:
                continue
            conn = self.seat(who).conn
            if msg["type"] == "sealed":
                if who in openings:
                    continue  # opened already: its commitment stands
                commits[who] = str(msg["commit"])[:64]
                if who not in order:
                    order.append(who)
                continue
            if who not in commits or len(commits) < len(players):
                continue  # an opening before every commitment is in: ignored
            reason = ""
            try:
                action = rs.action_from_wire(msg["action"])
            except ValueError as exc:
                action, reason = None, str(exc)
            if action is not None:
                if action.actor != who:
                    reason = f"you play {who}, not {action.actor}"
                elif action_commitment(msg["action"], msg["salt"]) != commits[who]:
                    reason = "your opening does not match your sealed commitment"
                else:
                    reason = beacon.why_illegal(rs, st, action)
            if reason:
                commits.pop(who)  # it must seal again
                if conn is not None:
                    await conn.send({"type": "reject", "reason": reason,
                                     "action": msg["action"]})
                continue
            openings[who] = [msg["action"], msg["salt"]]
            com = msg.get("sealed")  # the public part of an action its owner sealed
            if isinstance(com, str) and len(com) == 32:
                owned[who] = com
            else:
                owned.pop(who, None)
        if self.sealed_in.get("commits") != commits:  # every seat was the host's
            await announce()
        self.sealed_in = {}
        await self._broadcast({"type": "opened", "window": w, "openings": openings})
        for s in players:  # seat order, whatever the arrival order
            action = whole.get(s) or rs.action_from_wire(openings[s][0])
            reason = beacon.why_illegal(rs, self.state, action)
            if reason:  # an earlier one of the same window changed what is legal
                self.log(f"{s}'s sealed action is no longer legal: {reason}")
                continue
            if s in owned:  # commit() keeps the owner's commitment to its whole action
                self.seat(s).sealed = (openings[s][0], owned[s])
            reason = await self._sequence(action)
            if reason:  # (judged above on the same state: only a host fault gets here)
                self.log(f"{s}'s sealed action is refused: {reason}")

    def _host_nonce(self, seat: str) -> str:
        """The seed nonce of a seat the host plays: fresh, or from :attr:`seed`."""
        if self.seed is None:
            return secrets.token_hex(32)
        return blake2b(f"wizwar-nonce:{self.seed}:{seat}".encode(), digest_size=32).hexdigest()

    def _spend(self, budget: Any, since: float) -> float:
        """Take the time since ``since`` (the loop's clock) off ``budget``
        (``Ruleset.budget``); the seconds it has left (0 or more)."""
        left = self.budget_left.get(budget.key, float(budget.seconds))
        left = max(0.0, left - (asyncio.get_running_loop().time() - since))
        self.budget_left.pop(budget.key, None)  # the latest last: the oldest are dropped
        self.budget_left[budget.key] = left
        for old in list(self.budget_left)[:-64]:  # a response budget is one decision's
            del self.budget_left[old]
        return left

    def _ran_out(self, seat: str, action: Any) -> Any:
        """Say that ``seat``'s time ran out into ``action`` (logged as an ordinary one)."""
        what = str(action).removeprefix(f"{seat} ")  # the notation names the actor
        self.log(f"{seat} ran out of time: {what}")
        return action

    async def _local_next(self, seat: Seat) -> Any:
        """The host's own player's next action; with the rules' clock
        (``Ruleset.budget``), at the budget's end the action it runs out into."""
        assert self.local_actions is not None and self.state is not None
        budget = self.ruleset.budget(self.state, seat.seat)
        if budget is None:
            return await self.local_actions.get()
        since = asyncio.get_running_loop().time()
        left = self.budget_left.get(budget.key, float(budget.seconds))
        try:
            async with asyncio.timeout(left):
                action = await self.local_actions.get()
        except TimeoutError:
            self._spend(budget, since)
            return self._ran_out(seat.seat, budget.runs_out)
        self._spend(budget, since)
        return action

    async def _next_from(self, seat: Seat) -> Any:
        """The next proposal of ``seat`` (waiting through disconnections). With the rules'
        clock (``Ruleset.budget``: ArcoMage's turn and response budgets, R111) the time of
        this decision comes off its budget, and an empty budget becomes the action it runs
        out into, logged; else with the host's ``clock`` a timed-out answer in an answer
        window becomes the ruleset's logged default answer (Wiz-War: a pass). No clock runs
        for a disconnected seat."""
        st = self.state
        assert st is not None
        rs = self.ruleset
        while True:
            # the clock runs only for a connected seat: a dropped peer's decision is paused
            # until it rejoins
            budget = rs.budget(st, seat.seat)
            if budget is not None:
                default = budget.runs_out
                timeout = self.budget_left.get(budget.key, float(budget.seconds)) \
                    if seat.connected else None
            else:
                default = rs.default_answer(st, seat.seat) if self.clock else None
                timeout = self.clock if (default is not None and rs.stage(st).kind == "answer"
                                         and seat.connected) else None
            since = asyncio.get_running_loop().time()
            try:
                # asyncio.timeout, not wait_for: on Python 3.11 wait_for can swallow a
                # cancel that comes as the inbox answers, and run() then never ends
                async with asyncio.timeout(timeout):
                    who, action, seq, window = await self._inbox.get()
            except TimeoutError:
                if not seat.connected:
                    continue
                if budget is not None:
                    self._spend(budget, since)
                return self._ran_out(seat.seat, default)
            if budget is not None and timeout is not None:
                self._spend(budget, since)
            if self.desync:
                return None
            if action is None:
                continue
            now, window_now = rs.seq(st), rs.stage(st).window
            if who == seat.seat and (seq, window) == (now, window_now):
                return action
            if who != seat.seat:
                why = f"it is not your turn ({seat.seat} must act)"
            else:  # made for an earlier state: the client decides again on this one
                why = (f"too late: made after action {seq} (window {window}); the game is "
                       f"at action {now} (window {window_now}): decide again")
            s = self.seat(who)
            if s.conn is not None:
                await s.conn.send({"type": "reject", "action": action.to_wire(),
                                   "reason": why})

    async def _sequence(self, action: Any) -> str:
        """Commit an action; one that rolls gets its dice first (:meth:`_roll`). Returns why
        the action is refused ("" when it was committed, or nothing was: a desync stopped
        the game meanwhile). In a beaconed game the action is applied once, to a copy of the
        state made while the host waited (:meth:`_make_spare`), on a generator that refuses
        every draw: that apply is also its check (``Ruleset.apply`` refuses an illegal action
        with its reason, the copy untouched); when it drew nothing that copy is committed as
        the host's state (:meth:`_probe`); when it rolls, the action is judged by
        ``beacon.why_illegal`` (a ruleset may judge by trying, and meet the roll first), the
        dice are taken and the action is applied to the state itself. In a game without
        beaconed dice the caller judged the action already."""
        await self._settle()
        if self.desync:
            return ""
        reveals = None
        if beacon.is_beaconed(self.ruleset, self.state):
            probed = self._probe(action)
            if probed:
                return probed
            if probed is None:
                assert self.state is not None
                reason = beacon.why_illegal(self.ruleset, self.state, action)
                if reason:
                    return reason
                reveals = await self._roll(action)
                if reveals is None:
                    return ""
        await self.commit(action, reveals)
        return ""

    def _probe(self, action: Any) -> str | None:
        """Apply ``action`` to the spare copy of the state (made now if there is none) with
        every draw refused (``beacon.apply_unless_rolling``), the dealer attached to it.
        ``""``: it drew nothing, and :meth:`commit` takes the copy as the host's state; the
        reason when it is illegal (nothing changed; the copy is dropped); None when it rolls.
        Raises ``RuntimeError`` for a ruleset that re-dealt secret values before its first
        draw (the dealer's values would have moved under a discarded copy)."""
        rs, st, dealer = self.ruleset, self.state, self.dealer
        assert st is not None and dealer is not None
        self._probed = None
        spare = self._take_spare()
        if spare is None:
            spare = rs.clone(st)
        before = dealer.begin(st, action)
        deals = len(dealer.history)
        dealer.attach(spare)
        try:
            events = beacon.apply_unless_rolling(rs, spare, action)
        except IllegalAction as exc:
            return exc.reason or "illegal"
        if events is None:
            if len(dealer.history) != deals:
                raise RuntimeError(f"{rs.title}: an action re-dealt secret values before it "
                                   "rolled; the LAN host cannot probe it")
            return None
        self._probed = (st, action, spare, events, before)
        return ""

    def _take_spare(self) -> Any:
        """The copy of the current state made while the host waited (:meth:`_make_spare`),
        or None when there is none for this very state (the probe then makes one)."""
        spare, self._spare = self._spare, None
        st = self.state
        if spare is None or st is None or spare[0] is not st or spare[1] != self.ruleset.seq(st):
            return None
        return spare[2]

    def _make_spare(self) -> None:
        """Copy the current state for the next action's dice probe (``beacon.needs_chance``)
        now, after the commit went out, while the peers apply it and the next action is
        awaited, instead of on the way from a proposal to its commit (docs/performance.md,
        LAN latency). Only a game whose dice are beaconed probes."""
        st = self.state
        if st is None or self.desync or not beacon.is_beaconed(self.ruleset, st) or \
                self.ruleset.result(st).over:
            return
        self._spare = (st, self.ruleset.seq(st), self.ruleset.clone(st))

    async def _roll(self, action: Any) -> list[list[str]] | None:
        """The dice of ``action``, which rolls: announce it (it is fixed now), take every
        seat's next chain value (the host's own and bot seats from the chains it holds),
        wait for the others, saying for whom; ``[[seat, hex], ...]`` in seat order, checked
        and taken by the tracker. None if the game stopped meanwhile (a desync)."""
        st, rs = self.state, self.ruleset
        assert st is not None
        index = beacon.roll_index(rs, st)
        self.reveals_in = {}
        self._reveals_done.clear()
        for s in self.seats:
            if s.chain is not None:
                self.reveals_in[s.seat] = s.chain.reveal(self.tracker.used[s.seat]).hex()
        waiting = [s.seat for s in self.seats if s.seat not in self.reveals_in]
        sealed = rs.seal(st, action)  # a sealed action is announced by its public form
        shown = sealed.public if sealed is not None else action
        self.roll_msg = {"type": "roll", "seq": rs.seq(st) + 1, "action": shown.to_wire(),
                         "index": index, "waiting": waiting}
        await self._broadcast(self.roll_msg)
        if waiting:
            self.log(f"waiting for {' and '.join(w + chr(39) + 's' for w in waiting)} dice "
                     "(every roll needs each player's share)")
            self._changed()
        while not all(s.seat in self.reveals_in for s in self.seats):
            await self._reveals_done.wait()
            self._reveals_done.clear()
            if self.desync:
                return None
        reveals = [[s.seat, self.reveals_in[s.seat]] for s in self.seats]
        self.tracker.accept_all(reveals)
        self.roll_msg = {}
        self.reveals_in = {}
        return reveals

    async def _recommit(self, seat: Seat, tell_it: bool = True) -> None:
        """Take a rejoining seat's new dice chain (sequenced like a commit, so every peer's
        tracker changes at the same point); ``tell_it``: send it to that seat too (False
        while its catch-up, which holds it, is still to come)."""
        tip, seat.new_tip = seat.new_tip, ""
        self.tracker.recommit(seat.seat, tip)
        seat.chain_tip = tip
        msg = {"type": "chain", "seat": seat.seat, "tip": tip}
        self.sent.append(msg)
        for s in self.seats:
            if s.kind == "remote" and s.conn is not None and (tell_it or s is not seat):
                await s.conn.send(msg)
        for w in list(self.watchers):
            await w.send(msg)

    async def commit(self, action: Any, reveals: list[list[str]] | None = None) -> None:
        """Apply a checked action on the host's full state and send it, with the reveals
        each peer may have (and the dice reveals of an action that rolls), to everyone.
        An action :meth:`_probe` applied already to the spare copy is not applied again:
        the copy becomes the host's state. Only what the ``commit`` frame needs is done
        before it is sent; the host's state hash, its log record and the next spare follow
        (:meth:`_settle`: at the first ack, or before anything else needs them)."""
        st, dealer, rs = self.state, self.dealer, self.ruleset
        assert st is not None and dealer is not None
        await self._settle()
        probed, self._probed = self._probed, None
        sealed = rs.seal(st, action)  # fields secret to all but ``sealed.knows``
        replaced = None
        if probed is not None and probed[0] is st and probed[1] is action and not reveals \
                and swap_contents(st, probed[2]):
            _st, _action, replaced, events, before = probed  # the old contents, now
            self.events.extend(events)
        else:
            before = dealer.begin(st, action)
            self.events.extend(beacon.apply_with(rs, st, action, reveals))
        rev = dealer.finish(st, before)
        seq = rs.seq(st)
        msg = {"type": "commit", "seq": seq, "action": action.to_wire(), "pre": rev["pre"],
               "reblind": rev["reblind"], "private": rev["private"],
               "beacon": reveals or []}
        kept: list[str] = []
        owner = next((x for x in self.seats if x.seat == action.actor), None)
        if sealed is None and owner is not None and owner.sealed is not None and \
                owner.sealed[0] == action.to_wire():  # sealed by its owner's process
            com = owner.sealed[1]
            msg["_sealed"] = {"knows": [action.actor], "public": action.to_wire(),
                              "commit": com, "salt": ""}
            self._owner_seals.setdefault(action.actor, {})[seq] = com
            kept = [com]
        if owner is not None:
            owner.sealed = None
        if sealed is not None:
            salt = secrets.token_hex(16)
            com = action_commitment(action.to_wire(), salt)
            msg["_sealed"] = {"knows": list(sealed.knows), "public": sealed.public.to_wire(),
                              "commit": com, "salt": salt}
            self.openings.append([seq, action.to_wire(), salt])
            kept = [com, salt]
        self.sent.append(msg)
        self.actions.append(str(action))  # the app's list of actions: at once, as before
        self._unsettled = (msg, action, rev, kept, replaced)
        await self._broadcast(msg)
        for s in self.seats:
            if s.new_tip:
                await self._recommit(s)
        # right after this task yields: the peers wait for the hash to ack
        asyncio.get_running_loop().call_soon(self._settle_soon)

    def _settle_soon(self) -> None:
        """:meth:`_settle` from a callback (nothing else waits for it)."""
        if self._unsettled is not None:
            task = asyncio.ensure_future(self._settle())
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _settle(self) -> None:
        """The last commit's work that its frame did not need, done as soon as the commit
        is out (a callback :meth:`commit` schedules), or sooner when anything needs it (the
        next action, a judgement, a rejoin's catch-up, the end, closing): the host's state
        hash (kept in :attr:`hashes`, put in the kept commit for catch-ups and sent to every
        peer in a ``hash`` frame), the log record, the host's screen
        (``on_change``) and the next spare copy of the state. A state object the commit replaced (:meth:`_probe`) must still hash to
        what the host sent for it: if it changed outside the rules since, that is a host
        fault, and the game stops for everyone with a report (as :meth:`_judge`)."""
        work, self._unsettled = self._unsettled, None
        if work is None:
            return
        msg, action, rev, kept, replaced = work
        rs, st, dealer = self.ruleset, self.state, self.dealer
        assert st is not None and dealer is not None
        seq = msg["seq"]
        h = rs.state_hash(st)
        self.hashes[seq] = h
        msg["hash"] = h
        # the host's own log: every value is known; re-deals carry their new values
        rec = log.record(rs, seq, action, st, force_hash=self.over,
                         reveals={**dealer.log_reveals(rev), "beacon": msg["beacon"]},
                         sealed=kept)
        self._record.append(rec)
        if self.writer is not None:
            self.writer(log.encode(rec))
        await self._broadcast({"type": "hash", "seq": seq, "hash": h})
        self._changed()  # the seats' lists and the host's screen
        if replaced is not None and rs.state_hash(replaced) != self.hashes.get(seq - 1):
            fault = (f"the host's state changed outside the rules before action {seq} "
                     "(it no longer has the hash the host sent for it)")
            self.desync = write_desync_report(seq - 1, self.hashes.get(seq - 1, ""), "",
                                              self.actions, self.report_dir, rs,
                                              note=f"a host fault: {fault}")
            self.log(f"DESYNC at {seq - 1}: {fault}; report {self.desync}")
            await self._stop_all(seq - 1, fault)
            return
        self._make_spare()

    async def _stop_answer(self, who: str, seq: int, reason: str) -> None:
        """``who``'s process answered a reveal stage with what the rules refuse: it did not
        answer by the rules from its secret. The game stops for everyone (a report naming
        the seat; :attr:`audit` says it)."""
        why = f"{who}'s answer after action {seq} is refused by the rules: {reason}"
        self.audit = why
        self.log(f"the game stops: {why}")
        self.desync = write_desync_report(seq, self.ruleset.state_hash(self.state), "",
                                          self.actions, self.report_dir, self.ruleset,
                                          note=why)
        await self._stop_all(seq, why, host_fault=False)

    async def _stop_all(self, seq: int, fault: str, host_fault: bool = True) -> None:
        """A host fault (or, ``host_fault`` False, a seat's proven lie): tell every seat and
        watcher the game stopped, and wake the sequencer wherever it waits."""
        stop = {"type": "desync", "seq": seq,
                "reason": f"the host is at fault: {fault}" if host_fault else fault}
        for s in self.seats:
            if s.conn is not None:
                await s.conn.send(stop)
        for w in list(self.watchers):
            await w.send(stop)
        await self._inbox.put(("", None, 0, 0))
        await self._sealed_box.put(("", {}))
        self._reveals_done.set()

    def view(self, seat: str = "P1") -> Any:
        """The host player's view (for the app)."""
        return None if self.state is None else self.ruleset.view(self.state, seat)


class JoinRefused(RuntimeError):
    """The host refused us (version mismatch, game full); the message says why."""


class HostClosed(JoinRefused):
    """The host closed the game (no point in rejoining)."""


class OtherGame(JoinRefused):
    """The host refused us for it plays another game: ``ruleset`` names it (registry name,
    as the host sent it)."""

    def __init__(self, reason: str, ruleset: str) -> None:
        super().__init__(reason)
        self.ruleset = ruleset


class Dropped(ConnectionError):
    """The host dropped this seat: its state was found at odd with the host's and the
    others' (``drop``). Joining again catches up from the host's record."""


@dataclass
class PeerGame:
    """A joining peer: it holds only the faces revealed to it and checks every action.

    With ``watch`` it is a watcher: no seat, no hand, nothing to propose; it follows the
    game from the public reveals only (its core never holds a face from anyone's hand).
    ``ruleset`` is the game it asks to join (the host refuses another in words); with
    ``follow_host`` it is only a first guess: a host of another game (its refusal names the
    game) is joined again as that game, if this wizwar knows it (``wizwar join ADDR`` with
    no ``--game``);
    ``options`` and ``names`` are the host's, from its ``deal`` message. ``game_id`` is
    the id of the deal it is in (``net.protocol.game_id``), named in a rejoin's hello;
    ``notices`` what the host told everyone (a lobby reopened, a peer's report).
    """

    host: str
    port: int
    name: str = "peer"
    bot_play: bool = True
    watch: bool = False
    token: str = ""
    log: Log = _quiet
    report_dir: str | None = None
    seat: str = ""
    ruleset: Ruleset = field(default_factory=registry.get)
    follow_host: bool = False
    bot_level: str = ""
    state: Any = None
    dealer: PeerDealer = field(default_factory=PeerDealer)
    commits: list[str] = field(default_factory=list)
    options: dict[str, Any] = field(default_factory=dict)
    names: list[str] = field(default_factory=list)
    nonce_commits: dict[str, str] = field(default_factory=dict)
    actions: list[str] = field(default_factory=list)
    desync: str = ""
    audited: bool = False
    conn: Conn | None = None
    local_actions: asyncio.Queue | None = None
    on_change: Callable[[], None] | None = None
    players: int = 0
    game: str = ""
    events: list[Event] = field(default_factory=list)
    peer_status: dict[str, str] = field(default_factory=dict)
    peer_names: dict[str, str] = field(default_factory=dict)
    last_reject: str = ""
    writer: Callable[[bytes], None] | None = None
    started: str = ""
    _written: int = -1
    _host_last: int = 0
    tracker: Tracker = field(default_factory=Tracker)  # every seat's dice chain so far
    chain: Chain | None = None  # this seat's own dice chain (never sent: only its tip)
    rolling: list[str] = field(default_factory=list)  # a roll announced: the seats awaited
    _sealing: tuple[int, Any, str] | None = None  # a sealed window's (window, action, salt)
    _sealing_own: str = ""  # its owner commitment to the whole action (of a public part)
    _sealed_in: dict[str, str] = field(default_factory=dict)
    _opened: dict[str, Any] = field(default_factory=dict)  # seat -> opened action wire
    _sealed_done: int | None = None  # the last sealed window opened
    #: actions with sealed fields this peer was sent: [seq, commitment, actor, whole action
    #: wire or None (the public form was sent)], checked against the end's openings
    sealed_seen: list[list[Any]] = field(default_factory=list)
    audit: str = ""  # the end's audit of the secrets: "" passed, else the first problem
    _own: dict[str, tuple[Any, str]] = field(default_factory=dict)  # commitment -> (wire, salt)
    _salts: dict[str, str] = field(default_factory=dict)  # commitment -> salt, of our own
    _opened_own: bool = False
    _record: list[dict[str, Any]] = field(default_factory=list)
    game_id: str = ""
    notices: list[str] = field(default_factory=list)
    _nonce: str = ""  # this seat's seed nonce: kept across reconnects while it is unshown
    _nonce_sent_for: str = ""  # the deal it was shown in ("" not yet)
    _started_game: str = ""  # the game this peer saw start (a rejoin must be that one)
    #: id of a decided action -> (the action, the (seq, window) it was decided on); the action
    #: is kept so an id reused by a later object never takes an old stamp
    _stamps: dict[int, tuple[Any, tuple[int, int]]] = field(default_factory=dict)
    _told: bool = False  # the host was told of this peer's desync or cheat report
    #: the last action applied and this peer's state hash after it, until the host's
    #: ``hash`` of it comes (docs/protocol.md, Lockstep); the ack names it too
    _mine: tuple[int, str] | None = None
    #: where this seat's owner-held secrets are kept (``wizwar join``: the user data
    #: folder's ``owner-secrets/``), so a rejoin from a new process still holds them
    secrets_dir: str | None = None
    _entropy: bytes = b""  # the private randomness handed to ``Ruleset.keep_private``
    _kept_game: str = ""  # the game (its joint seed) the kept secrets belong to

    async def connect(self) -> None:
        """Open the connection and say hello: the seed nonce's commitment (kept on a
        reconnect, so a seat dropped in the seed phase can still answer the deal; fresh in a
        new process, and once the nonce was shown in a deal that never started), for a
        player the tip of its dice chain (fresh in a new process, kept on a reconnect), and
        for a rejoin after a deal the game's id."""
        if not self._nonce or (self._nonce_sent_for
                               and self._nonce_sent_for != self._started_game):
            self._nonce, self._nonce_sent_for = secrets.token_hex(32), ""
        if not self.watch and self.chain is None:
            self.chain = Chain(secrets.token_bytes(32))
        reader, writer = await asyncio.open_connection(self.host, self.port)
        self.conn = Conn(reader, writer)
        self._told = False
        tip = "" if self.chain is None or self.watch else self.chain.tip.hex()
        msg = hello(self.ruleset, self.name, "" if self.watch else self.token,
                    nonce_commit(self._nonce), tip, "" if self.watch else self.game_id)
        if self.watch:
            msg["watch"] = True
        await self.conn.send(msg)
        self.local_actions = asyncio.Queue()

    async def run(self) -> str:
        """Play until the end; returns the final state hash (raises ``JoinRefused``,
        ``DealError`` or ``ConnectionError``). With :attr:`follow_host`, a host of another
        game is joined again as that game (once; ``JoinRefused`` in words for a game this
        wizwar does not know)."""
        while True:
            try:
                return await self._run()
            except OtherGame as exc:
                if not self.follow_host or exc.ruleset == self.ruleset.name:
                    raise
                self.follow_host = False  # once: the host's game is known now
                try:
                    self.ruleset = registry.get(exc.ruleset)
                except UnknownRuleset:
                    raise JoinRefused(
                        f"the host plays {safe_text(exc.ruleset, 40)!r}, a game this wizwar "
                        "does not know: install the host's wizwar version") from None
                if self.bot_play and not self.watch and not self.ruleset.bot_levels:
                    raise JoinRefused(f"the host plays {self.ruleset.title}, which has no "
                                      "bots yet: a bot cannot play your seat") from None
                self.log(f"the host plays {self.ruleset.title}: joining that game")
                if self.conn is not None:
                    await self.conn.close()
                self.conn = None

    async def _run(self) -> str:
        if self.conn is None:
            await self.connect()
        assert self.conn is not None
        self.state = None
        self.dealer = PeerDealer(self.ruleset.dealing())
        self.events = []  # the host replays every commit to a rejoining peer
        proposer = asyncio.create_task(self._propose_loop())
        try:
            while True:
                msg = await self.conn.frames.read()
                if msg is None:
                    raise ConnectionError("the host closed the connection")
                try:
                    done = await self._handle(msg)
                except DealError as exc:  # a cheat found: report it, tell the host, stop
                    await self._cheat_found(exc)
                    raise
                if self.desync and not self._told:  # our own check found a desync
                    await self._tell_host("this peer computed another state (desync)")
                if done is not None:
                    return done
        finally:
            proposer.cancel()

    def _seq_now(self) -> int:
        return 0 if self.state is None else self.ruleset.seq(self.state)

    async def _tell_host(self, reason: str) -> None:
        """Tell the host this peer found a desync or a cheat (``report``, with its own
        state hash), so it can tell everyone instead of seeing a silent disconnection."""
        self._told = True
        if self.watch or self.conn is None:
            return
        msg: dict[str, Any] = {"type": "report", "seq": self._seq_now(),
                               "reason": clean_name(reason, 300)}
        if self.state is not None:
            msg["hash"] = self.ruleset.state_hash(self.state)
        await self.conn.send(msg)

    async def _cheat_found(self, exc: DealError) -> None:
        """A reveal, a sealed opening, the dice or the end audit did not check out: write
        the report, say where it is, and tell the host. Never raises."""
        what = f"cheating or a corrupted stream found: {exc}"
        mine = "" if self.state is None else self.ruleset.state_hash(self.state)
        try:
            self.desync = write_desync_report(self._seq_now(), mine, "", self.actions,
                                              self.report_dir, self.ruleset, note=what)
        except OSError as err:
            self.desync = f"no report written ({err})"
        self.log(f"{what}; report {self.desync}")
        await self._tell_host(what)

    def stamp(self, action: Any) -> None:
        """Note that ``action`` was decided now, on the current state: its ``propose``
        names this state's sequence number and answer window (the host refuses a stale
        one). The app calls this when the player submits."""
        st = self.state
        if st is not None:
            self._stamps[id(action)] = (action, (self.ruleset.seq(st),
                                                 self.ruleset.stage(st).window))

    async def run_saving_token(self, save: Callable[[str, int, str], None]) -> str:
        """:meth:`run`, saving the seat token with ``save(host, port, token)`` once welcomed
        (so a restarted ``wizwar join`` can take the seat back)."""
        self._save = save
        return await self.run()

    async def _handle(self, msg: dict[str, Any]) -> str | None:
        t = msg["type"]
        assert self.conn is not None
        if t == "refuse":
            reason = safe_text(msg["reason"], REASON_LIMIT) or "(no reason given)"
            other = msg.get("ruleset")
            if isinstance(other, str) and other and other != self.ruleset.name:
                raise OtherGame(reason, other)
            raise JoinRefused(reason)
        if t == "welcome":
            if msg["ruleset"] != self.ruleset.name:
                raise JoinRefused(f"the host plays {safe_text(msg['ruleset'])!r}, not "
                                  f"{self.ruleset.name}")
            if self.watch and msg["seat"]:  # a host that does not know watchers seated us
                raise JoinRefused("this host cannot be watched (an older wizwar)")
            if self.watch:
                self.players, self.game = msg["players"], safe_text(msg["game"], 80)
                self.log("watching the game")
                self._changed()
                return None
            self.seat, self.token = msg["seat"], msg["token"]
            self.players, self.game = msg["players"], safe_text(msg["game"], 80)
            save = getattr(self, "_save", None)
            if save is not None:
                save(self.host, self.port, self.token)
            self.log(f"joined as {self.seat}")
        elif t == "deal":
            self.commits = [str(c) for c in msg["commits"]]
            try:
                self.options = self.ruleset.options.from_wire(msg["options"])
            except OptionError as exc:
                raise ProtocolError(f"the host's options are refused: {exc}") from exc
            self.names = [clean_name(str(n)) for n in msg["names"]][:len(
                self.ruleset.seats(self.options))]
            self.nonce_commits = {str(k): str(v) for k, v in msg["nonce_commits"].items()}
            chains = msg.get("chains")
            if not isinstance(chains, dict):
                raise ProtocolError("the deal holds no dice chains")
            try:
                self.tracker = Tracker.from_tips({str(k): str(v) for k, v in chains.items()})
            except BeaconError as exc:
                raise ProtocolError(str(exc)) from exc
            try:
                gid = game_id(self.ruleset.seats(self.options), self.nonce_commits,
                              {str(k): str(v) for k, v in chains.items()}, self.commits)
            except KeyError as exc:
                raise ProtocolError(f"the deal leaves out seat {exc}") from exc
            if msg["game"] != gid:
                raise ProtocolError("the deal's game id is not the one its commitments give")
            if self._started_game and gid != self._started_game:
                raise JoinRefused(f"the host deals another game ({gid[:8]}) than the one this "
                                  f"seat played ({self._started_game[:8]}): a restarted host")
            self.game_id = gid
            # our nonce answers the deal; a deal with another commitment of ours is one this
            # process did not commit to (a catch-up after the start: the nonce is not needed;
            # in the seed phase the host deals again on seeing our new commitment)
            if not self.watch and self.nonce_commits.get(self.seat) == nonce_commit(self._nonce):
                await self.conn.send({"type": "nonce", "nonce": self._nonce})
                self._nonce_sent_for = gid
        elif t == "start":
            self._host_last = msg["last"]
            self._started_game = self.game_id
            self._start(msg)
        elif t == "reopen":
            if self.state is not None:
                raise ProtocolError("the lobby cannot reopen once the game has started")
            reason = clean_name(msg["reason"], 300)
            self.notices.append(f"the lobby reopened: {reason}")
            self.log(self.notices[-1])
            self.game_id, self.commits, self.nonce_commits = "", [], {}
            if self._nonce_sent_for and not self.watch:  # shown: never use it again
                self._nonce, self._nonce_sent_for = secrets.token_hex(32), ""
                await self.conn.send({"type": "recommit",
                                      "nonce_commit": nonce_commit(self._nonce)})
        elif t == "report":
            who = clean_name(str(msg.get("seat", "")), 3)
            self.notices.append(f"{who or 'a peer'} at action {msg['seq']}: "
                                f"{clean_name(msg['reason'], 300)}")
            self.log(self.notices[-1])
        elif t == "drop":
            reason = clean_name(msg["reason"], 300)
            self.notices.append(f"the host dropped this seat: {reason}")
            self.log(self.notices[-1])
            raise Dropped(f"the host dropped this seat: {reason}")
        elif t == "commit":
            self._host_last = max(self._host_last, msg["last"])
            self.rolling = []
            self._commit(msg)
            if self.desync:
                return ""
            assert self.state is not None
            if self._mine is None:  # checked already: a catch-up's commit held its hash
                await self._ack(msg["seq"])
        elif t == "hash":  # the host's hash of the action just applied, after its commit
            seq, theirs = msg["seq"], msg["hash"]
            if self._mine is not None and self._mine[0] == seq:
                own, self._mine = self._mine[1], None
                if own != theirs:
                    self._desync(seq, theirs)
                    return ""
                self._checked(seq)
                await self._ack(seq)
            # else: an action checked already (a catch-up's commit carries its hash)
        elif t == "roll":
            self.rolling = [str(x) for x in msg["waiting"]][:8]
            await self._reveal(msg)
        elif t == "chain":
            try:
                self.tracker.recommit(msg["seat"], msg["tip"])
            except BeaconError as exc:
                raise ProtocolError(str(exc)) from exc
        elif t == "reject":
            reason = safe_text(msg["reason"], REASON_LIMIT) or "(no reason given)"
            self.log(f"refused: {reason}")
            self.last_reject = reason
            self._sealing = None  # a refused sealed action: choose and seal again
            self._wake()
        elif t == "sealed_in":
            self._sealed_in = {str(k): str(v) for k, v in msg["commits"].items()}
            mine = self._sealing
            if mine is not None and mine[0] == msg["window"] and not self.watch:
                w, action, salt = mine
                commit = action_commitment(action.to_wire(), salt)
                if self._sealed_in.get(self.seat) == commit:
                    out = {"type": "open", "window": w, "action": action.to_wire(),
                           "salt": salt}
                    if self._sealing_own:  # the public part of our own secret
                        out["sealed"] = self._sealing_own
                    await self.conn.send(out)
                else:  # the host holds no (or a stale) commitment of ours
                    await self.conn.send({"type": "sealed", "window": w, "commit": commit})
        elif t == "opened":
            for s, got in msg["openings"].items():
                ok = isinstance(got, list) and len(got) == 2 and isinstance(got[1], str) \
                    and action_commitment(got[0], got[1]) == self._sealed_in.get(str(s))
                if not ok:
                    who = safe_text(s, 8)
                    self.log(f"AUDIT FAILED: {who}'s sealed action does not open its "
                             "commitment")
                    raise DealError(f"{who}'s sealed action does not open its commitment")
                self._opened[str(s)] = got[0]
            self._sealing = None
            self._sealed_done = msg["window"]
        elif t == "peers":
            self.peer_status = {safe_text(k, 3): safe_text(v, 12) for k, v in
                                list(msg["seats"].items())[:6]}
            names = msg.get("names")  # optional: a host before names were sent has none
            if isinstance(names, dict):
                self.peer_names = {safe_text(k, 3): clean_name(v) for k, v in
                                   list(names.items())[:6] if isinstance(v, str)}
        elif t == "bye":
            raise HostClosed(safe_text(msg["reason"], REASON_LIMIT) or "the host left")
        elif t == "desync":
            reason = safe_text(msg["reason"], REASON_LIMIT)
            self._told = True  # the host knows: it stopped the game
            if not self.desync:
                try:
                    self.desync = write_desync_report(
                        msg["seq"], "" if self.state is None else
                        self.ruleset.state_hash(self.state), "", self.actions,
                        self.report_dir, self.ruleset,
                        note=f"the host stopped the game: {reason}")
                except OSError as err:
                    self.desync = f"host reported a desync ({err})"
            self.log(f"the host stopped the game: {reason}; report {self.desync}")
            return ""
        elif t == "end":
            assert self.state is not None
            try:
                self.dealer.audit(msg["history"], self.options)
                self.audit_sealed(msg.get("openings", []))
                self.audit = _audit_record(self._record, log.end_record(
                    self.ruleset, self.state, msg["history"],
                    openings=msg.get("openings", [])))
                if self.audit:
                    raise DealError(self.audit)
                self.audited = True
                if self.writer is not None and self._written >= 0:
                    self.writer(log.encode(log.end_record(
                        self.ruleset, self.state, msg["history"],
                        openings=msg.get("openings", []))))
                    self._written = -2
            except DealError as exc:
                self.log(f"AUDIT FAILED: {exc}")
                raise
            return self.ruleset.state_hash(self.state)
        self._changed()
        return None

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change()

    def _start(self, msg: dict[str, Any]) -> None:
        rs = self.ruleset
        seats = rs.seats(self.options)
        nonces = {str(k): str(v) for k, v in msg["nonces"].items()}
        for s in seats:
            try:
                good = nonce_commit(nonces[s]) == self.nonce_commits.get(s)
            except (KeyError, ValueError):
                good = False
            if not good:
                raise DealError(f"{s}'s nonce does not match its commitment")
        deal = self.dealer.start_deal(self.commits, list(msg["pre"]) + list(msg["private"]))
        seed = joint_seed(nonces, seats)
        st = rs.new_game(self.options, seed, names=self.names, deal=deal)
        if not self.watch and self.seat:  # the owner-held secrets of this seat
            self._kept_game = blake2b(seed, digest_size=16).hexdigest()
            self._load_kept()  # a rejoin from a new process: what the old one kept
            if not self._entropy:
                self._entropy = secrets.token_bytes(16)
            rs.keep_private(st, self.seat, self._entropy)
            self._keep()
        beacon.beaconize(rs, st)
        tips = {s: b.hex() for s, b in self.tracker.last.items()}
        head = log.header(rs, self.options, seed, kind="peer", viewer=self.seat,
                          names=self.names, deal=deal, started=self.started,
                          extra={"nonces": nonces, "beacon": {"chains": tips},
                                 "dealer": "host"})
        self._record = [head]  # this peer's log in memory, for the end's audit
        if self.writer is not None and self._written < 0:
            self.writer(log.encode(head))
            self._written = 0
        self.dealer.attach(st)
        self.state = st
        self.actions = []
        if rs.state_hash(st) != msg["hash"]:
            self._desync(0, msg["hash"])
        self._wake()

    def _commit(self, msg: dict[str, Any]) -> None:
        st, rs = self.state, self.ruleset
        if st is None:
            raise ProtocolError("a commit before the start")
        if msg["seq"] != rs.seq(st) + 1:
            raise ProtocolError(f"expected action {rs.seq(st) + 1}, got {msg['seq']}")
        try:
            action = rs.action_from_wire(msg["action"])
        except ValueError as exc:
            raise ProtocolError(str(exc)) from exc
        opened = self._opened.pop(action.actor, None)
        if opened is not None and opened != msg["action"]:
            self.log(f"the host committed {action}, not {action.actor}'s sealed action")
            self._desync(msg["seq"], str(msg.get("hash", "")))
            return
        reveals = msg.get("beacon") or []
        if reveals:  # an action that rolls: every seat's next chain value, seat order
            if not isinstance(reveals, list) or \
                    [r[0] if isinstance(r, list) and len(r) == 2 else None
                     for r in reveals] != rs.seats(self.options):
                raise DealError("the dice reveals of an action are not one per seat")
            try:
                self.tracker.accept_all(reveals)
            except BeaconError as exc:
                raise DealError(str(exc)) from exc
        action, kept = self._sealed_of(msg, action)
        self.dealer.before(st, msg)
        try:
            self.events.extend(beacon.apply_with(rs, st, action, reveals))
        except IllegalAction as exc:
            self.log(f"the host sent an illegal action {action}: {exc.reason}")
            self._desync(msg["seq"], str(msg.get("hash", "")))
            return
        except ChanceNeeded:
            self.log(f"the host sent {action}, which rolls, without its dice reveals")
            self._desync(msg["seq"], str(msg.get("hash", "")))
            return
        self.dealer.after(st, msg)
        self._applied(msg["seq"])
        self.actions.append(str(action))
        rec = log.record(rs, msg["seq"], action, st, force_hash=rs.result(st).over,
                         reveals={**{k: msg[k] for k in REVEAL_KEYS}, "beacon": reveals},
                         sealed=kept)
        if len(self._record) == msg["seq"]:
            self._record.append(rec)
        if self.writer is not None and msg["seq"] > self._written >= 0:
            self.writer(log.encode(rec))
            self._written = msg["seq"]
        mine = rs.state_hash(st)
        theirs = msg.get("hash")  # a catch-up's commit carries it; a live one is followed
        # by its ``hash`` frame (protocol 5), and acked once that matched
        if isinstance(theirs, str):
            self._mine = None
            if mine != theirs:
                self._desync(msg["seq"], theirs)
            else:
                self._checked(msg["seq"])
        else:
            self._mine = (msg["seq"], mine)
        self._wake()

    def _kept_path(self) -> str | None:
        """The file of this seat's owner-held secrets for this game (None: none kept)."""
        if self.secrets_dir is None or not self._kept_game or not self.seat or self.watch \
                or not any(s.holder == "owner" for s in self.ruleset.secrets):
            return None
        return os.path.join(self.secrets_dir, f"{self.ruleset.name}-{self._kept_game}-"
                                              f"{self.seat}.json")

    def _keep(self) -> None:
        """Write this seat's owner-held secrets (the private randomness the ruleset's
        ``keep_private`` got, and every action it sealed as their owner with its salt) to
        :attr:`secrets_dir`, readable by its user only; a new process that rejoins this
        game's seat loads them (:meth:`_load_kept`)."""
        path = self._kept_path()
        if path is None:
            return
        import json

        os.makedirs(os.path.dirname(path), exist_ok=True)
        tmp = path + ".tmp"
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump({"game": self._kept_game, "seat": self.seat,
                       "entropy": self._entropy.hex(),
                       "own": {k: [w, s] for k, (w, s) in self._own.items()},
                       "salts": dict(self._salts)}, f)
        os.replace(tmp, path)

    def _load_kept(self) -> None:
        """The secrets a former process of this seat kept for this game (:meth:`_keep`),
        if any: its private randomness and its own sealed actions, so it applies its own
        whole actions again in the catch-up and can answer what the rules ask of them."""
        path = self._kept_path()
        if path is None or not os.path.exists(path):
            return
        import json

        try:
            with open(path, encoding="utf-8") as f:
                kept = json.load(f)
            if kept.get("game") != self._kept_game or kept.get("seat") != self.seat:
                return
            entropy = bytes.fromhex(str(kept["entropy"]))
            own = {str(k): (v[0], str(v[1])) for k, v in dict(kept["own"]).items()}
            salts = {str(k): str(v) for k, v in dict(kept["salts"]).items()}
        except (OSError, ValueError, KeyError, TypeError, IndexError) as exc:
            self.log(f"the secrets kept in {path} are unreadable ({exc}): not used")
            return
        if not self._entropy:
            self._entropy = entropy
        for k, v in own.items():
            self._own.setdefault(k, v)
        for k, s in salts.items():
            self._salts.setdefault(k, s)

    def _sealed_of(self, msg: dict[str, Any], action: Any) -> tuple[Any, list[str]]:
        """The action to apply and what to keep of a commit's ``sealed``: ``[commitment]``
        (this seat was sent the public form of an action whose fields are secret to it; or
        it sealed the action itself, as the owner of the secret, and applies its own whole
        action, which it holds) or ``[commitment, salt]`` (it may know the whole action,
        which must open the commitment); ``[]`` for a public action. Kept for the end's
        audit and the log. Raises ``DealError`` on a bad one."""
        got = msg.get("sealed")
        if got is None:
            return action, []
        own = self._own.get(got[0]) if isinstance(got, list) and got and \
            isinstance(got[0], str) else None
        if own is not None and len(got) == 1:  # our own secret: apply the whole action
            whole, salt = own
            action = self.ruleset.action_from_wire(whole)
            self.sealed_seen.append([msg["seq"], got[0], action.actor, whole])
            return action, [got[0], salt]
        if not (isinstance(got, list) and len(got) in (1, 2)
                and all(isinstance(x, str) and len(x) <= 64 for x in got)):
            raise DealError("a commit's sealed field is malformed")
        whole = None
        if len(got) == 2:
            if action_commitment(msg["action"], got[1]) != got[0]:
                raise DealError(f"the host's {action} does not open its sealed commitment")
            whole = msg["action"]
        self.sealed_seen.append([msg["seq"], got[0], action.actor, whole])
        return action, list(got)

    async def _open_own(self) -> None:
        """Once the game is over, open every action this seat sealed as the owner of its
        secret (``openings``: ``[seq, whole action wire, salt]``) for the end's audit."""
        st = self.state
        if st is None or self.conn is None or not self.ruleset.result(st).over or \
                self._opened_own:
            return
        mine = [[seq, whole, salt] for seq, com, actor, whole in self.sealed_seen
                if actor == self.seat and whole is not None
                for salt in [self._salts.get(com, "")] if salt]
        self._opened_own = True
        if mine:
            await self.conn.send({"type": "openings", "openings": mine})

    def answer_for(self, st: Any) -> Any:
        """In a reveal stage awaiting this seat: the answer the rules give from this seat's
        own secret (``Ruleset.answer``)."""
        return self.ruleset.answer(st, self.seat)

    def audit_sealed(self, openings: Any) -> None:
        """The end's audit of the actions with sealed fields: each one this peer was sent
        is opened (``[seq, whole action wire, salt]``), the opening matches the commitment
        it kept, is an action of the same seat, and equals the whole action it was sent if
        it was. Raises ``DealError`` naming the action."""
        if not isinstance(openings, list):
            raise DealError("the end's openings are not a list")
        by_seq: dict[int, list[Any]] = {}
        for o in openings:
            if not (isinstance(o, list) and len(o) == 3 and isinstance(o[0], int)
                    and isinstance(o[2], str)):
                raise DealError("malformed opening of a sealed action")
            by_seq[o[0]] = o
        for seq, com, actor, whole in self.sealed_seen:
            o = by_seq.get(seq)
            if o is None:
                raise DealError(f"the host did not open sealed action {seq}")
            if action_commitment(o[1], o[2]) != com:
                raise DealError(f"sealed action {seq} does not open its commitment")
            try:
                opened = self.ruleset.action_from_wire(o[1])
            except ValueError as exc:
                raise DealError(f"sealed action {seq} opens to no action: {exc}") from None
            if opened.actor != actor or (whole is not None and o[1] != whole):
                raise DealError(f"sealed action {seq} opens to another action ({opened})")

    def _applied(self, seq: int) -> None:
        """Action ``seq`` is in this peer's state (its hash check follows): a hook for
        measurements (``net.bench``); nothing here."""

    def _checked(self, seq: int) -> None:
        """This peer's state hash after action ``seq`` matched the host's: a hook for
        measurements (``net.bench``); nothing here."""

    async def _ack(self, seq: int) -> None:
        """Ack action ``seq`` (applied, its hash the host's) with the hash of this peer's
        state as it is now (computed again: a state changed since the check is caught at
        this very action); then, once the game is over, open our own sealed actions. A
        watcher acks nothing."""
        if self.watch or self.conn is None:
            return
        await self.conn.send({"type": "ack", "seq": seq,
                              "hash": self.ruleset.state_hash(self.state)})
        await self._open_own()

    def dice_waiting(self) -> list[str]:
        """The seats whose dice reveal the host was waiting for when it announced the roll
        now pending (empty when none is)."""
        return list(self.rolling)

    async def _reveal(self, msg: dict[str, Any]) -> None:
        """The host announced an action that rolls: send this seat's next chain value (the
        one that hashes to the last value every peer has of it). A watcher sends nothing.
        Raises ``DealError`` if the host's record of this seat's chain is not ours."""
        if self.watch or not self.seat or self.chain is None or self.conn is None:
            return
        value = self.chain.reveal(self.tracker.used.get(self.seat, 0))
        if not beacon.step_ok(self.tracker.last.get(self.seat, b""), value):
            raise DealError("the host's record of this seat's dice chain is not ours")
        await self.conn.send({"type": "beacon", "index": msg["index"], "value": value.hex()})

    def _desync(self, seq: int, theirs: str) -> None:
        assert self.state is not None
        self.desync = write_desync_report(seq, self.ruleset.state_hash(self.state), theirs,
                                          self.actions, self.report_dir, self.ruleset)
        self.log(f"DESYNC at {seq}: report {self.desync}")

    def _caught_up(self) -> bool:
        """True once this peer has applied everything the host had sequenced when it last
        wrote to us (a rejoining peer must not act on a state still catching up)."""
        st = self.state
        return st is not None and self.ruleset.seq(st) >= self._host_last

    def _wake(self) -> None:
        ev = getattr(self, "_turn", None)
        if ev is None:
            self._turn = asyncio.Event()
            ev = self._turn
        ev.set()

    async def _propose_loop(self) -> None:
        """Propose an action whenever it is this seat's turn to act."""
        self._wake()
        while True:
            await self._turn.wait()
            self._turn.clear()
            st = self.state
            rs = self.ruleset
            if st is None or rs.result(st).over or self.desync or not self._caught_up():
                continue
            stage = rs.stage(st)
            answering = stage.kind == "reveal" and stage.holder == self.seat and \
                not self.watch
            if self.seat not in rs.to_move(st) and not answering:
                continue
            if stage.kind == "sealed" and (self._sealed_done == stage.window or (
                    self._sealing is not None and self._sealing[0] == stage.window)):
                continue  # sealed already in this window: wait for the others
            before = (rs.seq(st), stage.window)  # what the decision is made on
            if answering:  # the rules ask about our secret: answer on our own
                action = self.answer_for(st)
                self._stamps[id(action)] = (action, before)
            else:
                action = await self.choose(st)
            if action is None:
                continue
            st = self.state
            if st is None:
                continue
            now = (rs.seq(st), rs.stage(st).window)
            # the state it was decided on: the player's submit stamps it; else (a bot) the
            # state choose() began on
            held, made = self._stamps.pop(id(action), (action, before))
            if held is not action:  # an id reused by another object: not this action's stamp
                made = before
            if made != now:  # decided on an earlier state
                self.last_reject = "the game moved on before this action was sent: decide again"
                self.log(self.last_reject)
                self._wake()
                continue
            assert self.conn is not None
            if stage.kind == "sealed":
                salt = secrets.token_hex(16)
                self._sealing_own = ""
                sealed = rs.seal(st, action)
                if sealed is not None and sealed.by == "owner":  # our secret: only we hold it
                    own_salt = secrets.token_hex(16)
                    com = action_commitment(action.to_wire(), own_salt)
                    self._own[com] = (action.to_wire(), own_salt)
                    self._salts[com] = own_salt
                    self._keep()
                    self._sealing_own, action = com, sealed.public
                self._sealing = (stage.window, action, salt)
                await self.conn.send({"type": "sealed", "window": stage.window,
                                      "commit": action_commitment(action.to_wire(), salt)})
                continue
            msg: dict[str, Any] = {"type": "propose", "action": action.to_wire(),
                                   "seq": now[0], "window": now[1]}
            sealed = rs.seal(st, action)
            if sealed is not None and sealed.by == "owner":  # our secret: only we hold it
                salt = secrets.token_hex(16)
                com = action_commitment(action.to_wire(), salt)
                self._own[com] = (action.to_wire(), salt)
                self._salts[com] = salt
                self._keep()
                msg.update(action=sealed.public.to_wire(), sealed=com)
            await self.conn.send(msg)

    async def choose(self, st: Any) -> Any:
        """This seat's next action: the bot's choice, or the player's from the app."""
        rs = self.ruleset
        if self.bot_play:
            return rs.bot_act(st, self.seat, self.bot_level)
        assert self.local_actions is not None
        return await self.local_actions.get()

    @property
    def over(self) -> bool:
        """True once the game has ended (its outcome is over)."""
        return self.state is not None and self.ruleset.result(self.state).over

    def view(self) -> Any:
        """This peer's view (for the app)."""
        return None if self.state is None else self.ruleset.view(self.state, self.seat)

