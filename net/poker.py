"""LAN games dealt by mental poker: no process, the host's included, holds a card it may
not see (issue 15; docs/protocol.md, "Mental-poker dealing on the LAN").

Generic over rulesets with dealer-held secrets (:class:`~core.engine.Dealing`); the cards
are the ruleset's slots. Every process (the host's and each joiner's) is a :class:`Player`:
it plays its seats (a person's and the bots seated with it, whose keys stay in that
process), keeps its own partial state (only the faces it may know) and its
:class:`~net.mental.MentalDealer`. The host adds a :class:`PokerHost`: it seats the
processes, relays their frames and numbers the actions, but computes nothing the others
must trust: every frame a process sends is signed by it, every partial unmasking sent to one
seat is boxed for that seat's process (the host routes it to that process only, and could
not read it anyway), and every process decides for itself, from everyone's claims, what an
action opens (:func:`net.mental.next_steps`).

One game, in frames (``mp_`` types, and mental.py's ``mask``/``unmask``):

1. ``hello`` (with ``dealer: "poker"``, the process's public ``keys`` and how many
   ``bots`` it seats) -> ``mp_table`` (every seat's keys, which process plays which seat,
   every seed-nonce commitment) -> ``mp_nonce`` each -> ``mp_seed`` (all nonces: the joint
   seed, :func:`net.lan.joint_seed`).
2. The deal: every seat's shuffle pass then every seat's lock pass (``mask``), seat order.
3. The opening rounds (the set-up, then each action): every process sends its ``mp_claim``
   (what the action shows or deals as far as its faces tell: :func:`net.mental.trial`);
   the host sends all of them back (``mp_claims``); every process works out the same next
   steps: partial unmaskings (``unmask``) to whom the rules show a card, a reshuffle of the
   discard (a new deal of those slots), or ``apply``. Then each applies the action and
   acknowledges its state hash (``mp_ack``); the host compares them.
4. The end: every process reveals its keys (``mp_keys``), the host sends them all
   (``mp_allkeys``), every process audits the whole deal (:meth:`Ledger.audit`) and says
   its verdict (``mp_verdict``); the host sends them all (``mp_end``).

A wrong partial unmasking (or any step that fails its check) is named by the process that
finds it (``mp_cheat``): the host writes a desync report naming the cheater
(:func:`net.lan.write_desync_report`), tells everyone (``mp_stop``) and drops it.

Every frame has an identity (``_c``: its sender, its number, what the sender had seen;
``_g``: a frame the relay made) and each process keeps what it sent, so the relay's role can
move to another process mid-game (net/handover.py: the game outlives its host).

Each process keeps its keys in its data folder (``keys_dir``, a file per game id) after
every deal, and at the end writes its game's log (the whole deal, opened by the audit), which
:func:`core.log.replay` verifies.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import json
import os
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from hashlib import blake2b
from typing import Any

from nacl.exceptions import BadSignatureError, CryptoError
from nacl.public import Box, PrivateKey, PublicKey
from nacl.signing import SigningKey, VerifyKey

from core import beacon, log, registry
from core.beacon import BeaconError, Chain, Tracker
from core.codec import pack
from core.engine import Ruleset
from net.lan import joint_seed, nonce_commit, write_desync_report
from net.logfiles import log_name, now_text
from net.mental import (
    MentalDealer,
    MentalError,
    Next,
    Prepared,
    Trial,
    TrialDealer,
    next_steps,
    trial,
)
from net.protocol import FrameReader, ProtocolError, encode, hello, version_problem

Msg = dict[str, Any]
Log = Callable[[str], None]

#: how long (seconds) any one wait for a peer's frame may last before the game gives up
WAIT = 120.0
#: how long (seconds) the game waits for a person: the lobby to fill, a seat's next action
THINK = 3600.0


def _quiet(_msg: str) -> None:
    pass


def commit_of(points: list[bytes], j: int) -> str:
    """The public commitment of position ``j`` of a mental-poker deal (its final point,
    BLAKE2b-128): what the ruleset's state holds for the card, so every process's state
    hash agrees without any of them knowing the face."""
    return blake2b(points[j], digest_size=16).hexdigest()


def claim_wire(t: Trial, known: list[int]) -> Msg:
    """A :class:`~net.mental.Trial` (and the slots the process knows) as a frame's map."""
    return {"ok": t.ok, "to_all": list(t.to_all),
            "to_seat": {s: list(v) for s, v in t.to_seat.items()},
            "entering": {s: list(v) for s, v in t.entering.items()},
            "reshuffle": list(t.reshuffle) if t.reshuffle is not None else None,
            "rolls": t.rolls, "knows": sorted(known)}


def _ints(v: Any, what: str) -> list[int]:
    if not isinstance(v, list) or not all(isinstance(c, int) and not isinstance(c, bool)
                                          for c in v):
        raise MentalError(f"a malformed claim ({what})")
    return list(v)


def claim_from(d: Any) -> tuple[Trial, list[int]]:
    """A claim map back to a :class:`~net.mental.Trial` and the known slots. Raises
    :class:`MentalError` for a malformed one."""
    if not isinstance(d, dict) or not isinstance(d.get("ok"), bool):
        raise MentalError("a malformed claim")
    seats = {}
    for k in ("to_seat", "entering"):
        got = d.get(k)
        if not isinstance(got, dict):
            raise MentalError(f"a malformed claim ({k})")
        seats[k] = {str(s): _ints(v, k) for s, v in got.items()}
    re = d.get("reshuffle")
    t = Trial(d["ok"], _ints(d.get("to_all"), "to_all"), seats["to_seat"], seats["entering"],
              None if re is None else _ints(re, "reshuffle"), rolls=d.get("rolls") is True)
    return t, _ints(d.get("knows"), "knows")


class Stopped(RuntimeError):
    """The game stopped before its end: ``seat`` the cheater named ("" none), ``reason``;
    ``audit``: a check failed that names nobody yet, so every process reveals its keys now
    and the audit names who tampered."""

    def __init__(self, reason: str, seat: str = "", audit: bool = False) -> None:
        super().__init__(reason)
        self.seat = seat
        self.audit = audit


def resume_body(game: str, proc: int, challenge: str) -> bytes:
    """What a process's ``mp_resume`` proof signs (docs/protocol.md, "Hand-over")."""
    return pack(["wizwar-poker-resume", game, proc, challenge])


def resumed_body(game: str, seq: int, to: int, challenge: str, g: int, sent: int) -> bytes:
    """What a sequencer's ``mp_resumed`` signs: the game, the sequencer's process, the
    process it answers, that process's challenge, and its frame counts (the relay frames
    made so far, the frames that follow for that process)."""
    return pack(["wizwar-poker-resumed", game, seq, to, challenge, g, sent])


# ---- one process --------------------------------------------------------------------
#: ``choose(state, seat)``: an action, or an awaitable of one (a person's screen)
Chooser = Callable[[Any, str], Any]


@dataclass
class Player:
    """One process's side of a poker game: the seats it plays, its mental dealer, its
    partial state, the frames it received (``received``, every one in order: the frames
    test decodes them with this process's keys only).

    ``send``/``recv``: its link to the host (``recv`` returns None when it closed).
    ``choose(state, seat)``: the action of a seat it plays that is not a bot (a person's
    screen, a test's script); the ``bots`` seats it holds after its first (or all of them
    with no ``choose``) play by ``ruleset.bot_act``, their keys in this process. ``keys_dir``: where
    it keeps its keys (its data folder; None: nowhere). ``log_dir``: where it writes the
    game's log at the end. ``seed``: keys from a generator (tests only)."""

    ruleset: Ruleset
    send: Callable[[Msg], Awaitable[None]]
    recv: Callable[[], Awaitable[Msg | None]]
    choose: Chooser | None = None
    bots: int = 0
    bot_level: str = ""
    keys_dir: str | None = None
    log_dir: str | None = None
    seed: str | None = None
    log: Log = _quiet
    received: list[Msg] = field(default_factory=list)
    # set once the table is known
    proc: int = -1
    mine: list[str] = field(default_factory=list)
    seats: list[str] = field(default_factory=list)
    plays: dict[int, list[str]] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)
    names: list[str] = field(default_factory=list)
    game: str = ""
    dealer: MentalDealer | None = None
    state: Any = None
    seq: int = 0
    verdict: str = ""  # the end's audit: "" passed, else the cheat found
    log_path: str = ""
    records: list[Msg] = field(default_factory=list)
    #: wall seconds of this process's part of each ``deal`` (the first), ``reshuffle``,
    #: ``draw`` (a card opened to a seat it plays, until its face is known) and ``show`` (a
    #: card opened to everyone): measured for ``wizwar bench``, deciding nothing
    timings: dict[str, list[float]] = field(default_factory=dict)
    #: a rejoin: the path of the keys this process kept for the game (its data folder)
    rejoin_from: str = ""
    #: called after every change the app may show (the set-up, each action, the end)
    on_change: Callable[[], None] | None = None
    #: every event of the game as this process applied it (what an app's log shows)
    events: list[Any] = field(default_factory=list)
    #: the last action of this process's person its own core refused after all ("" none)
    last_reject: str = ""
    #: where this process listens for a sequencer hand-over ("host:port", "" nowhere):
    #: announced, signed, in its ``hello`` (net/handover.py)
    addr: str = ""
    #: every frame this process sent, stamped (``_c``): a new sequencer gets them again
    outbox: list[Msg] = field(default_factory=list)
    #: the processes' hand-over addresses (process -> "host:port"), from ``mp_table``
    addrs: dict[int, str] = field(default_factory=dict)
    #: each address's signature by its process (process -> hex), as announced
    addr_sigs: dict[int, str] = field(default_factory=dict)
    #: the ``mp_table`` this process was sent (a new sequencer rebuilds the table from it)
    table: Msg = field(default_factory=dict)
    #: every process's public keys (process -> hex: box key, signature key), from the table
    #: (or kept keys): a sequencer's ``mp_resumed`` is checked against them
    proc_keys: dict[int, str] = field(default_factory=dict)
    #: the processes the relay says are away now (``mp_presence``; the relay's own
    #: process while this one hands over): their seats show ``disconnected``
    away: set[int] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.hooks = self.ruleset.dealing()
        self._nonce = secrets.token_hex(16) if self.seed is None else \
            blake2b(f"wizwar-nonce:{self.seed}".encode(), digest_size=16).hexdigest()
        self._stepping = False
        self._applied = 0  # how many epochs the state has taken
        self._synced: dict[int, tuple[int, str]] = {}
        self._whole: Any = None  # the whole form of this process's sealed proposal
        self._kept: Msg = {}
        self._chosen: Msg = {}  # the person's last choice (seq, seat, action), kept
        #: a returning process: its seats' past actions (seq -> record) from the log it
        #: wrote as the game went, made again instead of asking (:meth:`_one_action`)
        self._past: dict[int, Msg] = {}
        self._suppress = 0  # a rejoin: sends its former process made already
        self._real_send = self.send
        self._k = 0  # frames this process sent (their numbers, ``_c``)
        self._hw: dict[int, int] = {}  # per origin: the highest frame number received
        self._g = 0  # the highest relay frame number (``_g``) received
        if self.rejoin_from:
            with open(self.rejoin_from, encoding="utf-8") as f:
                self._kept = json.load(f)
            d = self._kept["dealer"]
            self._box = PrivateKey(bytes.fromhex(d["box"]))
            self._signer = SigningKey(bytes.fromhex(d["sign"]))
            self._nonce = str(self._kept["nonce"])
            self.game = str(self._kept["game"])
            self.proc = int(self._kept.get("proc", -1))
            self.addrs = {int(k): str(v) for k, v in self._kept.get("addrs", {}).items()}
            self.proc_keys = {int(k): str(v)
                              for k, v in self._kept.get("proc_keys", {}).items()}
            self.addr_sigs = {int(k): str(v)
                              for k, v in self._kept.get("addr_sigs", {}).items()}
            self._chain_secrets = [bytes.fromhex(x) for x in self._kept["chains"]]
            self._past = self._past_choices(str(self._kept.get("log") or ""))
            chosen = self._kept.get("chosen")
            if isinstance(chosen, dict) and isinstance(chosen.get("seq"), int):
                self._past.setdefault(int(chosen["seq"]), chosen)
        elif self.seed is None:
            self._box, self._signer = PrivateKey.generate(), SigningKey.generate()
            self._chain_secrets = [secrets.token_bytes(32) for _ in range(1 + self.bots)]
        else:
            self._box = PrivateKey(blake2b(f"wizwar-mental-box:{self.seed}".encode(),
                                           digest_size=32).digest())
            self._signer = SigningKey(blake2b(f"wizwar-mental-sign:{self.seed}".encode(),
                                              digest_size=32).digest())
            self._chain_secrets = [
                blake2b(f"wizwar-poker-chain:{self.seed}:{i}".encode(), digest_size=32).digest()
                for i in range(1 + self.bots)]
        self._chain_list: list[Chain] = []
        self._chains: dict[str, Chain] = {}
        self.tracker = Tracker()
        self._dice: list[list[str]] | None = None  # the action's dice reveals, once out
        #: how many past actions this process made again from its log
        self.replayed = 0

    def _past_choices(self, path: str) -> dict[int, Msg]:
        """The actions of this process's seats in the log its former process wrote as the
        game went (``path``, named in its kept keys): seq -> record. A missing or damaged
        log gives what it holds (nothing: every choice is made again)."""
        if not path:
            return {}
        try:
            with open(path, "rb") as f:
                loaded = log.read(f.read())
        except (OSError, ValueError) as exc:  # (log.LogError is a ValueError)
            self.log(f"the log of the game before cannot be read ({exc}): every choice "
                     "is made again")
            return {}
        mine = set(self._kept.get("seats") or [])
        return {int(r["seq"]): r for r in loaded.records if r.get("seat") in mine}

    async def _send(self, msg: Msg) -> None:
        """Send ``msg`` to the host; a rejoined process's first sends are the ones its
        former process made already (the host said how many): dropped. Every frame is
        stamped (``_c``: this process, its number, the highest frame number received per
        origin and the highest relay frame number: what it had seen) and kept in
        :attr:`outbox` (a new sequencer is sent them again: docs/protocol.md, "Hand-over")."""
        self._k += 1
        msg = {**msg, "_c": [self.proc, self._k, [[o, k] for o, k in sorted(self._hw.items())],
                            self._g]}
        self.outbox.append(msg)
        if self._suppress > 0:
            self._suppress -= 1
            return
        await self._real_send(msg)

    def rejoin_proof(self) -> str:
        """A rejoin's proof that this process holds the seat's signature key: its signature
        over the game id (hex)."""
        return bytes(self._signer.sign(pack(["wizwar-poker-rejoin", self.game]))
                     .signature).hex()

    def addr_sig(self) -> str:
        """This process's signature over its hand-over address (hex)."""
        return bytes(self._signer.sign(pack(["wizwar-poker-addr", self.addr]))
                     .signature).hex()

    def resume_proof(self, challenge: str = "") -> str:
        """A hand-over's proof that this process plays its seats: its signature over the
        game id, its process number and the ``challenge`` its ``mp_resume`` carries (hex)."""
        return bytes(self._signer.sign(resume_body(self.game, self.proc, challenge))
                     .signature).hex()

    def resumed_sig(self, to: int, challenge: str, g: int, sent: int) -> str:
        """The sequencer's signature over its ``mp_resumed`` to process ``to`` (hex): the
        game, this process, ``to``, the challenge ``to`` sent, the relay frames made so far
        (``g``) and how many frames follow for ``to`` (``sent``)."""
        return bytes(self._signer.sign(resumed_body(self.game, self.proc, to, challenge, g,
                                                    sent)).signature).hex()

    def fresh(self, msg: Msg | None) -> Msg | None:
        """``msg`` without its stamp (``_c``/``_g``), or None when this process has it
        already (a new sequencer sends every frame again: each is taken once)."""
        if msg is None:
            return None
        if msg.get("type") == "mp_presence":  # who is away: no frame of the game
            self.take_presence(msg)
            return {}
        if msg.get("type") == "mp_addrs":  # where the processes listen: neither
            self.take_addrs(dict(msg.get("addrs") or {}))
            return {}
        g = msg.get("_g")
        c = msg.get("_c")
        if isinstance(g, int):
            if g <= self._g:
                return {}
            self._g = g
        elif isinstance(c, list) and len(c) == 4 and isinstance(c[0], int) and \
                isinstance(c[1], int):
            if c[1] <= self._hw.get(c[0], 0):
                return {}
            self._hw[c[0]] = c[1]
        else:
            return msg
        return {k: v for k, v in msg.items() if k not in ("_c", "_g")}

    def take_addrs(self, addrs: dict[Any, Any], keep: bool = True) -> None:
        """Take the hand-over addresses in ``addrs`` (process -> [address, its signature])
        that their own process signed (checked against :attr:`proc_keys`); any other is
        never reached. Kept in the keys file (``keep``), so a process back after it died
        reaches a process that came back before it."""
        changed = False
        for k, got in addrs.items():
            try:
                p, addr, sig = int(k), str(got[0]), str(got[1])
                VerifyKey(bytes.fromhex(self.proc_keys[p])[32:]).verify(
                    pack(["wizwar-poker-addr", addr]), bytes.fromhex(sig))
            except (BadSignatureError, KeyError, ValueError, TypeError, IndexError):
                continue  # an address its process did not sign: never reached
            if addr and self.addrs.get(p) != addr:
                self.addrs[p], self.addr_sigs[p] = addr, sig
                changed = True
        if changed and keep:
            self._keep()

    def take_presence(self, msg: Msg) -> None:
        """The relay's ``mp_presence``: which processes are away now (a snapshot)."""
        away = msg.get("away")
        got = {x for x in away if isinstance(x, int) and x != self.proc} \
            if isinstance(away, list) else set()
        if got != self.away:
            self.away = got
            self._changed()

    def announce_keys(self) -> str:
        """This process's public keys for its ``hello`` (hex: box key, signature key)."""
        return (bytes(self._box.public_key) + bytes(self._signer.verify_key)).hex()

    # -- frames -----------------------------------------------------------------------
    def chain_tips(self) -> list[str]:
        """The tips of this process's dice chains (core/beacon.py), one per seat it takes
        (its own first, then its bots'), hex: committed in its ``hello``."""
        if not self._chain_list:
            self._chain_list = [Chain(x) for x in self._chain_secrets]
        return [c.tip.hex() for c in self._chain_list]

    def hello_extra(self) -> Msg:
        """What a joiner's ``hello`` adds for a poker game (its nonce's commitment is the
        hello's own): the dealer, its bots and its dice chains' tips."""
        out: Msg = {"dealer": "poker", "bots": self.bots, "chains": self.chain_tips()}
        if self.addr:
            out.update(addr=self.addr, addr_sig=self.addr_sig())
        return out

    @property
    def nonce_commit(self) -> str:
        """This process's seed nonce's commitment."""
        return nonce_commit(self._nonce)

    async def _pump(self, wait: float | None = None) -> Msg:
        """The next frame that is not a deal step or a partial unmasking (those are taken
        as they come), within ``wait`` seconds of each other (default :data:`WAIT`). Raises
        :class:`Stopped` (``mp_stop``, the link closed, nothing in time)."""
        while True:
            msg = await self._one(wait)
            if msg is not None:
                return msg

    async def _until(self, done: Callable[[], bool], what: str) -> None:
        """Take deal steps and partial unmaskings until ``done()``; any other frame then is
        out of place (:class:`Stopped`)."""
        while not done():
            msg = await self._one()
            if msg is not None:
                raise Stopped(f"the host sent {msg.get('type')!r} {what}")

    async def _one(self, wait: float | None = None) -> Msg | None:
        """One frame: a deal step or partial unmasking is taken (None), another returned."""
        wait = WAIT if wait is None else wait
        try:
            async with asyncio.timeout(wait):
                msg = await self.recv()
        except TimeoutError:
            raise Stopped(f"no frame from the host within {wait:g} s") from None
        if msg is None:
            raise Stopped("the host closed the game")
        msg = self.fresh(msg)
        if not msg:  # had it already
            return None
        self.received.append(msg)
        t = msg.get("type")
        if t == "refuse":
            raise Stopped(f"refused: {msg.get('reason', '')}")
        if t == "mp_stop":
            raise Stopped(str(msg.get("reason", "")), str(msg.get("seat", "")),
                          msg.get("audit") is True)
        if t not in ("mask", "unmask"):
            return msg
        assert self.dealer is not None
        try:
            if t == "mask":
                self.dealer.take_step(msg)
                if msg.get("seat") in self.mine:
                    self._stepping = False
            else:
                self.dealer.take_shares(msg)
        except MentalError as exc:
            await self._cheat(exc)
        return None

    async def _cheat(self, exc: MentalError) -> None:
        """Tell the host who cheated (or that a check failed), then stop."""
        self.log(f"cheat found: {exc}")
        await self._send({"type": "mp_cheat", "seat": exc.seat, "reason": str(exc)})
        raise Stopped(str(exc), exc.seat, audit=not exc.seat)

    async def _expect(self, kind: str, wait: float | None = None) -> Msg:
        msg = await self._pump(wait)
        if msg.get("type") != kind:
            raise Stopped(f"the host sent {msg.get('type')!r} where {kind!r} was due")
        return msg

    # -- the game ---------------------------------------------------------------------
    async def run(self) -> str:
        """Play the game to its end; returns the final state hash. Raises
        :class:`Stopped` when it stops (a cheat named, the host gone); a check that named
        nobody is followed by every process's key reveal and audit, which names the
        tamperer (the :class:`Stopped` raised then carries its seat)."""
        try:
            return await self._run()
        except Stopped as stop:
            if not stop.audit:
                raise
            verdict, seat, _faces = await self._audit_exchange()
            raise Stopped(f"{stop}; the audit found: {verdict or 'nothing wrong'}",
                          seat) from None

    async def _run(self) -> str:
        rs = self.ruleset
        first = await self._pump()
        if first.get("type") == "mp_rejoined":
            self._suppress = int(first.get("sent", 0))
            self.log(f"rejoined: catching up ({self._suppress} frames sent before)")
            first = await self._pump()
        if first.get("type") != "mp_table":
            raise Stopped(f"the host sent {first.get('type')!r} where 'mp_table' was due")
        t = first
        self.proc = int(t["proc"])
        self.seats = list(t["seats"])
        self.plays = {int(p): list(ss) for p, ss in t["plays"].items()}
        self.mine = self.plays[self.proc]
        self.chain_tips()
        self._chains = dict(zip(self.mine, self._chain_list, strict=True))
        self.tips = {str(k): str(v) for k, v in t["chains"].items()}
        self.tracker = Tracker.from_tips(self.tips)
        self.options = rs.validate_options(rs.options.from_wire(t["options"]))
        self.names = list(t["names"])
        self.game = str(t["game"])
        self.table = dict(t)
        self.proc_keys = {p: str(t["keys"][ss[0]]) for p, ss in self.plays.items() if ss}
        # (a newer address, from the kept keys or the relay's mp_addrs, is kept)
        self.take_addrs({p: got for p, got in dict(t.get("addrs") or {}).items()
                         if int(p) not in self.addrs}, keep=False)
        self.dealer = MentalDealer(self.seats, self.mine, seed=self.seed)
        self.dealer.adopt(self._box, self._signer)
        if self._kept:  # a rejoin: the keys of every deal so far, from the data folder
            self.dealer.restore(self._kept["dealer"])
        self.dealer.learn_boxes(t["keys"])
        commits = dict(t["nonce_commits"])
        await self._send({"type": "mp_nonce", "nonce": self._nonce})
        s = await self._expect("mp_seed")
        nonces = dict(s["nonces"])
        for seat in self.seats:
            if nonce_commit(str(nonces.get(seat, ""))) != commits.get(seat):
                raise Stopped(f"{seat}'s seed nonce does not match its commitment", seat)
        self.seed_bytes = joint_seed(nonces, self.seats)
        faces = self.hooks.values(self.options)
        t0 = time.perf_counter()
        self.dealer.begin(list(range(len(faces))), faces)
        await self._run_deal()
        self.timings["deal"] = [time.perf_counter() - t0]
        await self._settle(None)
        self.state = rs.new_game(self.options, self.seed_bytes, names=self.names,
                                 deal=self.hooks.deal(self._faces(), self._commits()))
        beacon.beaconize(rs, self.state)  # every roll from now on: the seats' chains
        self._applied = 1
        self._sync()
        self._log_start()
        await self._send({"type": "mp_ack", "n": 0, "hash": rs.state_hash(self.state)})
        self._changed()
        while not rs.result(self.state).over:
            await self._one_action()
        return await self._end()

    def _faces(self) -> list[str]:
        assert self.dealer is not None
        n = len(self.dealer.ledger.epochs[0].slots)
        return [self.dealer.known.get(c, "") for c in range(n)]

    def _commits(self) -> list[str]:
        assert self.dealer is not None
        e = self.dealer.ledger.epochs[0]
        pts = e.points()
        return [commit_of(pts, j) for j in range(len(e.slots))]

    async def _run_deal(self) -> None:
        """Take part in the deal under way until every seat shuffled and locked it."""
        assert self.dealer is not None
        led = self.dealer.ledger
        e = led.epochs[-1]
        while not led.done(e):
            want = led.next_step()
            if want is not None and want[0] in self.mine and not self._stepping:
                step = self.dealer.step()
                assert step is not None
                self._keep()  # its keys kept before the step is on the wire
                self._stepping = True
                await self._send(step)
                continue
            n = len(e.steps)
            await self._until(lambda n=n: len(e.steps) > n, "during a deal")  # type: ignore[misc]
        self._keep()

    async def _wait_known(self, slots: list[int]) -> None:
        assert self.dealer is not None
        known = self.dealer.known
        await self._until(lambda: all(c in known for c in slots), "while cards were opening")

    def _prepared(self, pending: list[int]) -> list[Prepared]:
        assert self.dealer is not None
        out = []
        for n in pending:
            e = self.dealer.ledger.epochs[n]
            pts = e.points()
            out.append(Prepared(list(e.slots), [self.dealer.known.get(c, "") for c in e.slots],
                                [commit_of(pts, j) for j in range(len(e.slots))]))
        return out

    def _sync(self) -> None:
        """The state takes the faces learnt for slots it already holds in that deal."""
        assert self.dealer is not None
        led = self.dealer.ledger
        for c, f in sorted(self.dealer.known.items()):
            n, j = led.where[c]
            if n < self._applied and self._synced.get(c) != (n, f):
                self.hooks.set_slot(self.state, c, f, commit_of(led.epochs[n].points(), j))
                self._synced[c] = (n, f)

    def _start_trial(self) -> Trial:
        rs = self.ruleset
        st = rs.new_game(self.options, self.seed_bytes, names=self.names,
                         deal=self.hooks.deal(self._faces(), self._commits()))
        return Trial(True, sorted(self.hooks.public(st)), {},
                     {s: sorted(cs) for s, cs in self.hooks.holders(st).items()})

    async def _settle(self, form: Any, actor_proc: int = -1) -> tuple[bool, list[int]]:
        """The opening rounds of the set-up (``form`` None) or of an action: returns
        whether the actor's trial found it legal and the re-deals dealt for it (epochs)."""
        assert self.dealer is not None
        rs, d = self.ruleset, self.dealer
        pending: list[int] = []
        self._dice = None
        if form is None:
            blind = rs.new_game(self.options, self.seed_bytes, names=self.names,
                                deal=self.hooks.deal([""] * len(self._faces()),
                                                     self._commits()))
            pos = {c: k for k, c in enumerate(self.hooks.draw_order(blind, start=True))}
            held: dict[int, str] = {}

            def order(c: int) -> Any:
                return pos.get(c, len(pos) + c)
        else:
            pile = {c: k for k, c in enumerate(self.hooks.draw_order(self.state))}
            held = {c: s for s, cs in self.hooks.holders(self.state).items() for c in cs}

            def order(c: int) -> Any:
                n = d.ledger.where[c][0]
                if n in pending:
                    return 1 + pending.index(n), d.ledger.epochs[n].slots.index(c)
                return (0, pile[c]) if c in pile else (99, c)
        for rnd in range(400):
            t = self._start_trial() if form is None else \
                trial(rs, self.state, form, self._prepared(pending), self._dice)
            await self._send({"type": "mp_claim", "round": rnd,
                             "claim": claim_wire(t, list(d.known))})
            got = await self._expect("mp_claims")
            trials: dict[int, Trial] = {}
            knows: dict[int, list[int]] = {}
            try:
                for p in self.plays:
                    trials[p], knows[p] = claim_from(got["claims"].get(str(p)))
            except MentalError as exc:
                raise Stopped(f"a claim of the opening round is malformed: {exc}") from None
            if form is not None and not trials[actor_proc].ok:
                return False, pending
            try:
                steps = next_steps(trials, self.plays, knows, held, order)
            except MentalError as exc:
                await self._cheat(exc)
            for step in steps:
                await self._do(step, pending)
            if steps[-1].kind == "apply":
                return True, pending
        raise Stopped("the openings never settled")

    async def _do(self, step: Next, pending: list[int]) -> None:
        assert self.dealer is not None
        d = self.dealer
        slots = list(step.slots)
        t0 = time.perf_counter()
        if step.kind == "open":
            msg = d.shares(slots, step.to)
            if msg["shares"]:
                await self._send(msg)
            if step.to in self.mine:
                try:
                    d.open_own(slots)
                except MentalError as exc:
                    await self._cheat(exc)
            if not step.to or step.to in self.mine:
                await self._wait_known(slots)
                kind = "show" if not step.to else "draw"
                self.timings.setdefault(kind, []).append(time.perf_counter() - t0)
            self._sync()
        elif step.kind == "dice":
            await self._roll()
        elif step.kind == "redeal":
            faces = [d.known[c] for c in slots]
            d.begin(slots, faces)
            await self._run_deal()
            pending.append(len(d.ledger.epochs) - 1)
            self.timings.setdefault("reshuffle", []).append(time.perf_counter() - t0)

    async def _roll(self) -> None:
        """The action rolls: every process reveals the next value of each of its seats'
        dice chains (``mp_dice``); the host sends them all (``mp_rolled``); each is checked
        against its chain (a wrong one names its seat). Source: core/beacon.py."""
        mine = [[s, self._chains[s].reveal(self.tracker.used.get(s, 0)).hex()]
                for s in self.mine]
        await self._send({"type": "mp_dice", "values": mine})
        got = await self._expect("mp_rolled")
        reveals = got.get("reveals")
        if not isinstance(reveals, list) or sorted(str(r[0]) for r in reveals
                                                   if isinstance(r, list) and r) != \
                sorted(self.seats):
            raise Stopped("the host sent a roll without every seat's dice reveal")
        for seat, value in reveals:
            try:
                self.tracker.check(str(seat), str(value))
            except BeaconError as exc:
                await self._cheat(MentalError(str(exc), str(seat)))
        self.tracker.accept_all(reveals)
        order = {s: i for i, s in enumerate(self.seats)}
        self._dice = sorted(([str(a), str(b)] for a, b in reveals), key=lambda r: order[r[0]])

    async def _one_action(self) -> None:
        rs = self.ruleset
        assert self.dealer is not None
        actor = rs.to_move(self.state)[0]
        if actor in self.mine:
            past = self._past.pop(self.seq + 1, None)
            again = self._again(past, actor)
            if again is not None:  # a returning process makes its past choice again
                action = again
            elif actor != self.mine[0] or self.choose is None:
                action = rs.bot_act(self.state, actor, self.bot_level)
            else:
                action = self.choose(self.state, actor)
                if inspect.isawaitable(action):  # a person's screen: his move when he makes it
                    action = await action
                # kept before it is on the wire: a process back after it died proposes
                # this one again (it may have reached the others), not a new choice
                self._chosen = {"seq": self.seq + 1, "seat": actor, "action": action.to_wire()}
                self._keep()
            await self._send(self._proposal(action))
        msg = await self._expect("mp_action", THINK)  # a person may think
        n = int(msg["n"])
        actor_proc = next(p for p, ss in self.plays.items() if actor in ss)
        if msg.get("from") != actor_proc:
            raise Stopped(f"an action for {actor} came from another process")
        form = self._form(msg, actor_proc)
        if form.actor != actor:
            raise Stopped(f"{actor}'s process sent an action of {form.actor}", actor)
        ok, pending = await self._settle(form, actor_proc)
        if not ok:
            if actor == self.mine[0] and self.choose is not None:
                self.last_reject = f"{form} was refused by the rules"
                self._changed()
            await self._send({"type": "mp_ack", "n": n, "hash": rs.state_hash(self.state),
                             "refused": True})
            return
        dealer = TrialDealer(self.hooks, self._prepared(pending))
        self.hooks.attach(self.state, dealer)
        known_before = self._known_new()
        self.events.extend(beacon.apply_with(rs, self.state, form, self._dice))
        self._applied += len(pending)
        self._sync()
        self.seq += 1
        reblind = []
        for e in (self.dealer.ledger.epochs[k] for k in pending):
            pts = e.points()
            reblind.append({"cids": list(e.slots),
                            "commits": [commit_of(pts, j) for j in range(len(e.slots))]})
        self.records.append({"seq": self.seq, "action": form, "reblind": reblind,
                             "epochs": list(pending), "hash": rs.state_hash(self.state),
                             "dice": self._dice})
        self._log_as_we_go(known_before)
        await self._send({"type": "mp_ack", "n": n, "hash": rs.state_hash(self.state)})
        self._changed()

    def _again(self, past: Msg | None, actor: str) -> Any:
        """The action ``actor`` made at this point before this process died (``past``:
        its record in the log it wrote), when it is still legal here; else None (asked
        anew). Source: docs/protocol.md, "Hand-over" (a returning process replays the
        game and must make the same choices)."""
        if past is None or past.get("seat") != actor:
            return None
        try:
            action = self.ruleset.action_from_wire(past["action"])
        except (KeyError, ValueError, TypeError):
            return None
        if getattr(action, "actor", "") != actor or \
                beacon.why_illegal(self.ruleset, self.state, action):
            return None
        self.replayed += 1
        return action

    def _proposal(self, action: Any) -> Msg:
        """An action of a seat this process plays: its public form for everyone and, when
        the rules seal it, the whole action boxed for each process that may know it."""
        assert self.dealer is not None
        sealed = self.ruleset.seal(self.state, action)
        if sealed is None:
            return {"type": "mp_propose", "action": action.to_wire(), "whole": {}}
        whole: dict[str, str] = {}
        for p, ss in self.plays.items():
            if p != self.proc and set(ss) & set(sealed.knows):
                box = Box(self.dealer.box, PublicKey(self.dealer.boxes[ss[0]]))
                whole[str(p)] = bytes(box.encrypt(encode_wire(action.to_wire()))).hex()
        self._whole = action
        return {"type": "mp_propose", "action": sealed.public.to_wire(), "whole": whole}

    def _form(self, msg: Msg, actor_proc: int) -> Any:
        """The form of the action this process applies: the whole one when it may know it
        (its own, or boxed for it by the actor's process), else the public form."""
        rs = self.ruleset
        assert self.dealer is not None
        if actor_proc == self.proc and self._whole is not None:
            whole, self._whole = self._whole, None
            return whole
        boxed = msg.get("whole")
        if isinstance(boxed, str) and boxed:
            actor_seat = self.plays[actor_proc][0]
            try:
                plain = Box(self.dealer.box, PublicKey(self.dealer.boxes[actor_seat])).decrypt(
                    bytes.fromhex(boxed))
            except (CryptoError, ValueError):
                raise Stopped("a sealed action was not boxed by its actor's process") from None
            return rs.action_from_wire(json.loads(plain))
        return rs.action_from_wire(msg["action"])

    # -- keys kept ----------------------------------------------------------------------
    def _keys_path(self) -> str | None:
        if self.keys_dir is None or not self.game:
            return None
        return os.path.join(self.keys_dir, f"poker-{self.game}-{'-'.join(self.mine)}.json")

    @property
    def keys_path(self) -> str | None:
        """Where this process keeps its keys for the game (None: nowhere)."""
        return self._keys_path()

    def _keep(self) -> None:
        """Write this process's keys (its box and signature keys, every key of every seat
        it plays, its seed nonce) to its data folder, readable by its user only: before each
        step of a deal goes on the wire, and after each deal. A restarted process rejoins
        with them (``rejoin_from``)."""
        path = self._keys_path()
        if path is None or self.dealer is None:
            return
        os.makedirs(self.keys_dir or ".", exist_ok=True)
        tmp = path + ".tmp"
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump({"dealer": self.dealer.secrets_wire(), "nonce": self._nonce,
                       "chains": [x.hex() for x in self._chain_secrets],
                       "game": self.game, "seats": self.mine, "proc": self.proc,
                       "ruleset": self.ruleset.name, "log": self.log_path,
                       "chosen": self._chosen,
                       "addrs": {str(k): v for k, v in self.addrs.items()},
                       "addr_sigs": {str(k): v for k, v in self.addr_sigs.items()},
                       "ad": str(self.table.get("ad") or self._kept.get("ad") or ""),
                       "proc_keys": {str(k): v for k, v in self.proc_keys.items()}}, f)
        os.replace(tmp, path)

    # -- the end ------------------------------------------------------------------------
    async def _end(self) -> str:
        verdict, _seat, faces_by_epoch = await self._audit_exchange()
        if not verdict and self.log_dir is not None:
            self.log_path = self._write_log(faces_by_epoch)
        self._changed()
        return self.ruleset.state_hash(self.state)

    async def _audit_exchange(self) -> tuple[str, str, list[dict[int, str]]]:
        """Reveal this process's keys, take everyone's, audit the whole deal, say the
        verdict: returns it ("" passed), the seat it names and every deal's faces."""
        assert self.dealer is not None
        await self._send(self.dealer.sign({**self.dealer.reveal(), "type": "mp_keys"}))
        got: Msg = {}
        while got.get("type") != "mp_allkeys":  # a stop or late shares may come first
            async with asyncio.timeout(WAIT):
                m = await self.recv()
            if m is None:
                raise Stopped("the host closed the game before the audit")
            m = self.fresh(m)
            if not m:
                continue
            self.received.append(m)
            got = m
        revealed: dict[str, Any] = {}
        faces_by_epoch: list[dict[int, str]] = []
        blamed = ""
        try:
            for p, msg in sorted((int(k), v) for k, v in got["keys"].items()):
                seat = self.plays[p][0]
                self.dealer._check_signed(msg, seat, "a key reveal")
                for s in self.plays[p]:
                    revealed[s] = msg["keys"][s]
            self.dealer.audit(revealed)
            faces_by_epoch = epoch_faces(self.dealer, revealed)
        except (MentalError, KeyError, TypeError) as exc:
            self.verdict = str(exc) or "the keys revealed are malformed"
            blamed = exc.seat if isinstance(exc, MentalError) else ""
            self.log(f"AUDIT FAILED: {self.verdict}")
        await self._send({"type": "mp_verdict", "ok": not self.verdict,
                         "reason": self.verdict, "seat": blamed})
        end: Msg = {}
        while end.get("type") != "mp_end":
            async with asyncio.timeout(WAIT):
                m = await self.recv()
            if m is None:
                raise Stopped("the host closed the game during the audit")
            m = self.fresh(m)
            if not m:
                continue
            self.received.append(m)
            end = m
        return self.verdict, blamed, faces_by_epoch

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change()

    # -- the log as the game goes ------------------------------------------------------
    def _log_start(self) -> None:
        """Begin the game's log in ``log_dir`` as the game goes (the public record and what
        this process may know): the header with the faces known at the set-up and the
        commitments, ``extra.audit: "unfinished"``. The end replaces it with the whole
        audited log (:meth:`_write_log`); a process killed before leaves this one, which
        replays up to where it stopped."""
        self._written: dict[int, tuple[int, str]] = dict(self._synced)
        if self.log_dir is None:
            return
        rs = self.ruleset
        self._started = now_text()  # metadata for the saved games list, never replayed
        head = log.header(rs, self.options, self.seed_bytes, kind="host",
                          viewer=self.mine[0], names=self.names, started=self._started,
                          deal=self.hooks.deal(self._faces(), self._commits()),
                          extra={"dealer": "poker", "audit": "unfinished", "game": self.game,
                                 "beacon": {"chains": self.tips}})
        try:
            os.makedirs(self.log_dir, exist_ok=True)
            self.log_path = self.log_path or os.path.join(
                self.log_dir, log_name("poker", self.mine[0], self.game[:12]))
            with open(self.log_path, "wb") as f:
                f.write(log.encode(head))
        except OSError as exc:
            self.log(f"the game's log cannot be written: {exc}")
            self.log_dir = None
            return
        self._keep()  # the kept keys name the log: a returning process replays its choices

    def _known_new(self) -> list[list[Any]]:
        """The faces the state took since the last record (slot, face): a record's
        ``known`` reveals, taken before its action is applied."""
        out = [[c, f] for c, (n, f) in sorted(self._synced.items())
               if self._written.get(c) != (n, f)]
        self._written.update(self._synced)
        return out

    def _log_as_we_go(self, known: list[list[Any]]) -> None:
        """Append the last action's record to the log as the game goes: its ``known``
        faces (taken before it), its reshuffles with the faces this process knows, its
        dice reveals and the state hash after it."""
        if self.log_dir is None or not self.log_path or self.dealer is None:
            return
        r = self.records[-1]
        reblind = []
        for rb in r["reblind"]:
            reblind.append(dict(rb, faces=[self.dealer.known.get(c, "") for c in rb["cids"]]))
        self._written.update(self._synced)
        rec = log.record(self.ruleset, r["seq"], r["action"], None,
                         reveals={"known": known, "reblind": reblind,
                                  "beacon": r["dice"] or []})
        rec["hash"] = r["hash"]
        try:
            with open(self.log_path, "ab") as f:
                f.write(log.encode(rec))
        except OSError as exc:
            self.log(f"the game's log cannot be written: {exc}")

    def _write_log(self, faces: list[dict[int, str]]) -> str:
        """The game's log with the whole deal (opened by the audit): the header's deal is
        the first deal's faces, each reshuffle record carries its new faces; the verdict
        and the dealer in the header. Replays with :func:`core.log.replay`."""
        rs = self.ruleset
        n = len(faces[0])
        head = log.header(rs, self.options, self.seed_bytes, kind="host",
                          viewer=self.mine[0], names=self.names,
                          started=getattr(self, "_started", ""),
                          deal=self.hooks.deal([faces[0][c] for c in range(n)],
                                               self._commits()),
                          extra={"dealer": "poker", "audit": "passed", "game": self.game,
                                 "beacon": {"chains": self.tips}})
        out = [log.encode(head)]
        st = rs.new_game(self.options, self.seed_bytes, names=self.names,
                         deal=self.hooks.deal([faces[0][c] for c in range(n)],
                                              self._commits()))
        for r in self.records:
            reblind = [dict(rb, faces=[faces[k][c] for c in rb["cids"]])
                       for rb, k in zip(r["reblind"], r["epochs"], strict=True)]
            rec = log.record(rs, r["seq"], r["action"], None,
                             reveals={"reblind": reblind, "beacon": r["dice"] or []})
            rec["hash"] = r["hash"]
            out.append(log.encode(rec))
        del st
        end = log.end_record(rs, self.state)
        out.append(log.encode(end))
        os.makedirs(self.log_dir or ".", exist_ok=True)
        # named as every saved game (net.logfiles.log_name); old ``poker-GAME-SEAT.wwlog``
        # files stay loadable: the saved games list and verify read any ``.wwlog``
        path = self.log_path or os.path.join(self.log_dir or ".",
                                             log_name("poker", self.mine[0], self.game[:12]))
        tmp = path + ".tmp"  # the log as the game went is replaced in one step
        with open(tmp, "wb") as f:
            f.write(b"".join(out))
        os.replace(tmp, path)
        return path


def encode_wire(wire: Any) -> bytes:
    """An action's wire form as bytes to box (JSON: lists, text and numbers only)."""
    return json.dumps(wire, separators=(",", ":")).encode()


def epoch_faces(dealer: MentalDealer, revealed: dict[str, Any]) -> list[dict[int, str]]:
    """Every deal's faces (slot -> face), each deal opened with the revealed keys (the
    audit checked them)."""
    led = dealer.ledger
    out = []
    from net.mental import invert, mul, times

    for e in led.epochs:
        pts = e.points()
        table = e.table()
        got: dict[int, str] = {}
        for j, c in enumerate(e.slots):
            total = b""
            for s in led.seats:
                k = bytes.fromhex(revealed[s]["cards"][e.number][j])
                total = k if not total else times(total, k)
            got[c] = table[mul(invert(total), pts[j])]
        out.append(got)
    return out


# ---- the host -------------------------------------------------------------------------
@dataclass
class Proc:
    """A process at the host's table: its number, seats, name, public keys, link."""

    proc: int
    seats: list[str]
    name: str
    keys: str
    nonce_commit: str
    chains: list[str]  # its seats' dice chain tips, seat by seat
    put: Callable[[Msg], None]  # queue a frame to it
    close: Callable[[], Awaitable[None]] | None = None
    nonce: str = ""
    gone: bool = False
    addr: str = ""  # where it listens for a hand-over, and its signature over that
    addr_sig: str = ""


@dataclass
class PokerHost:
    """The hosting process of a poker game: seats the processes (its own :class:`Player`
    first, with the host's bots), relays and routes their frames, numbers the actions and
    compares the acknowledged hashes. It holds no key but its own seats'.

    ``players``: the table's size; ``bots``: how many of the last seats the host's process
    plays by bot. ``report_dir``: where a cheat's report is written (None: the data
    folder). ``frames``: every frame the host routed, to whom (the frames test);
    ``inbound``: every frame any process sent it, in order."""

    ruleset: Ruleset = field(default_factory=registry.get)
    players: int = 2
    bots: int = 0
    options: dict[str, Any] = field(default_factory=dict)
    bind: str = "127.0.0.1"
    port: int = 0
    name: str = "host"
    choose: Chooser | None = None
    keys_dir: str | None = None
    log_dir: str | None = None
    report_dir: str | None = None
    seed: str | None = None
    log: Log = _quiet
    frames: list[tuple[int, Msg]] = field(default_factory=list)
    inbound: list[tuple[int, Msg | None]] = field(default_factory=list)
    report: str = ""
    stopped: str = ""
    cheater: str = ""
    verdicts: dict[int, Msg] = field(default_factory=dict)
    #: the name the game is announced under on the LAN ("" not announced): the table
    #: says it, so a new sequencer announces the game again under it (net/handover.py)
    ad_name: str = ""

    def __post_init__(self) -> None:
        opts = dict(self.options)
        if "players" in self.ruleset.options.names():
            opts["players"] = self.players
        self.options = self.ruleset.validate_options(opts)
        self.seat_ids = self.ruleset.seats(self.options)
        if not 0 <= self.bots < len(self.seat_ids):
            raise ValueError("bots must leave the host's own seat")
        self.inbox: asyncio.Queue[tuple[int, Msg | None]] = asyncio.Queue()
        self.procs: list[Proc] = []
        self._to_local: asyncio.Queue[Msg | None] = asyncio.Queue()
        host_seats = [self.seat_ids[0]] + self.seat_ids[len(self.seat_ids) - self.bots:]
        self.player = Player(self.ruleset, self._local_send, self._to_local.get,
                             choose=self.choose, bots=self.bots, keys_dir=self.keys_dir,
                             log_dir=self.log_dir,
                             seed=None if self.seed is None else f"{self.seed}:host",
                             log=self.log)
        self.procs.append(Proc(0, host_seats, self.name, self.player.announce_keys(),
                               self.player.nonce_commit, self.player.chain_tips(),
                               self._to_local.put_nowait))
        self._joined = asyncio.Event()
        #: the process the relay runs in (its player's number); True once a new sequencer
        #: rebuilt the relay from the processes' frames (net/handover.py)
        self.local = 0
        self.resumed = False
        self._g = 0  # relay frames numbered so far (``_g``)
        self._done: dict[int, int] = {}  # per origin: the frames taken, in its order
        self._held: dict[int, dict[int, Msg]] = {}  # frames that came before their turn
        self._server: asyncio.base_events.Server | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        #: the host's own process's game (its Player's run), once :meth:`run` started it
        self.player_task: asyncio.Future[str] | None = None

    async def _local_send(self, msg: Msg) -> None:
        await self.inbox.put((self.local, msg))

    def _stamp(self, msg: Msg) -> Msg:
        """A frame the relay makes (not one it passes on): numbered (``_g``), so a process
        sent it again by a new sequencer takes it once."""
        self._g += 1
        return {**msg, "_g": self._g}

    def _ready(self) -> tuple[int, Msg] | None:
        """The next frame the relay may take: an origin's frames in their order, each only
        once every frame its sender had seen (its stamp) was taken or made here, so a new
        sequencer taking every process's frames again orders them as causally as the live
        relay did (docs/protocol.md, "Hand-over"). Frames taken already are dropped."""
        for who in sorted(self._held):
            held = self._held[who]
            done = self._done.get(who, 0)
            msg = held.get(done + 1)
            if msg is None:
                continue
            _o, _k, hw, g = msg["_c"]
            if int(g) > self._g or any(int(k) > self._done.get(int(o), 0) for o, k in hw):
                continue
            del held[done + 1]
            self._done[who] = done + 1
            return who, msg
        return None

    async def _next_in(self) -> tuple[int, Msg | None]:
        """The next frame of any process the relay may take (see :meth:`_ready`), or a
        link's end (None)."""
        while True:
            got = self._ready()
            if got is not None:
                return got
            who, msg = await self.inbox.get()
            c = msg.get("_c") if msg is not None else None
            if msg is None or not (isinstance(c, list) and len(c) == 4 and isinstance(
                    c[1], int) and isinstance(c[2], list) and isinstance(c[3], int) and all(
                    isinstance(x, list) and len(x) == 2 for x in c[2])):
                return who, msg
            if c[1] > self._done.get(who, 0):  # else taken already: dropped
                self._held.setdefault(who, {})[c[1]] = msg

    def free(self) -> list[str]:
        """The seats no process plays yet."""
        taken = {s for p in self.procs for s in p.seats}
        return [s for s in self.seat_ids if s not in taken]

    def lobby_line(self) -> str:
        """The lobby's dealer line: which dealer, and whose machine holds each bot's cards."""
        bots = []
        for p in self.procs:
            for s in p.seats[1:]:
                bots.append(f"{s} (bot) on {p.seats[0]}'s machine")
        held = ("; " + ", ".join(bots)) if bots else ""
        return ("dealer: mental poker (each hand readable only on its owner's machine)"
                + held)

    async def start(self) -> int:
        """Listen (127.0.0.1 by default); returns the port."""
        self._server = await asyncio.start_server(self._serve, self.bind, self.port)
        self.port = self._server.sockets[0].getsockname()[1]
        return self.port

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        frames = FrameReader(reader)
        proc: Proc | None = None

        def put(msg: Msg) -> None:
            if not writer.is_closing():
                writer.write(encode(msg))

        async def close() -> None:
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()

        try:
            async with asyncio.timeout(10):
                msg = await frames.read()
            if msg is None:
                return
            if msg.get("type") == "mp_resume":  # a process whose link dropped, back on it
                from net.handover import serve_resume

                try:
                    await serve_resume(self, msg, frames, writer)
                except ProtocolError as exc:
                    writer.write(encode({"type": "refuse", "reason": str(exc)}))
                    await close()
                return
            problem = "" if msg.get("type") == "hello" else "the first message must be hello"
            problem = problem or version_problem(self.ruleset, msg)
            if not problem and msg.get("dealer") != "poker":
                problem = "this game is dealt by mental poker: join with a wizwar that deals it"
            if not problem and msg.get("rejoin"):
                proc = self._rejoin(msg, put, close)
                if proc is None:
                    problem = ("no seat of this game is away with those keys (or the proof "
                               "of them is wrong)")
                else:
                    while True:
                        msg = await frames.read()
                        await self.inbox.put((proc.proc, msg))
                        if msg is None:
                            return
            want = 1 + int(msg.get("bots", 0)) if isinstance(msg.get("bots", 0), int) else 0
            free = self.free()
            if not problem and not 1 <= want <= len(free):  # (the host's bots are seated)
                problem = "the game is full"
            keys = msg.get("keys")
            if not problem and not (isinstance(keys, str) and len(keys) == 128):
                problem = "a poker hello must carry its process's public keys"
            tips = msg.get("chains")
            if not problem and not (isinstance(tips, list) and len(tips) == want and all(
                    isinstance(x, str) and len(x) == 64 for x in tips)):
                problem = "a poker hello must commit a dice chain per seat it takes"
            if problem:
                writer.write(encode({"type": "refuse", "reason": problem}))
                await close()
                return
            proc = Proc(len(self.procs), free[:want], str(msg.get("name", ""))[:40],
                        str(keys), str(msg["nonce_commit"]), [str(x) for x in tips or []],
                        put, close, addr=str(msg.get("addr", ""))[:100],
                        addr_sig=str(msg.get("addr_sig", ""))[:200])
            self.procs.append(proc)
            self.log(f"{', '.join(proc.seats)} joined ({proc.name})")
            if not self.free():
                self._joined.set()
            while True:
                msg = await frames.read()
                await self.inbox.put((proc.proc, msg))
                if msg is None:
                    return
        except (ProtocolError, TimeoutError, ConnectionError, ValueError) as exc:
            if proc is not None:
                await self.inbox.put((proc.proc, None))
            self.log(f"a connection ended: {exc}")
        finally:
            if proc is None:
                await close()

    def _rejoin(self, msg: Msg, put: Callable[[Msg], None],
                close: Callable[[], Awaitable[None]]) -> Proc | None:
        """A process back after its link dropped (``hello.rejoin``: the game id, ``proof``:
        its signature over it with the seat's signature key): its new link takes the seat's
        place, then it is told how many frames its former process sent (``mp_rejoined``)
        and sent again every frame the seat was sent, in order, so it catches up with its
        kept keys; nothing waits in between, so no live frame comes before them. None when
        no away process has those keys or the proof fails."""
        from nacl.exceptions import BadSignatureError

        for p in self.procs[1:]:
            if p.keys != msg.get("keys") or not p.gone or msg.get("rejoin") != \
                    getattr(self, "game", None):
                continue
            try:
                VerifyKey(bytes.fromhex(p.keys)[32:]).verify(
                    pack(["wizwar-poker-rejoin", self.game]),
                    bytes.fromhex(str(msg.get("proof", ""))))
            except (BadSignatureError, ValueError, TypeError):
                return None
            p.put, p.close, p.gone = put, close, False
            self._presence()
            sent = sum(1 for who, m in self.inbound if who == p.proc and m is not None)
            put({"type": "mp_rejoined", "sent": sent})
            for to, m in self.frames:
                if to == p.proc:
                    put(m)
            self.log(f"{', '.join(p.seats)} rejoined: catching up")
            return p
        return None

    def addrs_msg(self) -> Msg:
        """``mp_addrs``: every process's hand-over address as its process signed it (an
        address announced by a process back after it died included)."""
        return {"type": "mp_addrs", "addrs": {str(p.proc): [p.addr, p.addr_sig]
                                              for p in self.procs if p.addr}}

    def _take_addr(self, src: Proc, msg: Msg) -> None:
        """``mp_addr`` from ``src``: the address it listens on now (a process back after it
        died), signed by its keys: kept, then every process is told (``mp_addrs``), this
        one's player too. An address not so signed is ignored."""
        addr, sig = str(msg.get("addr", ""))[:100], str(msg.get("sig", ""))[:200]
        try:
            VerifyKey(bytes.fromhex(src.keys)[32:]).verify(
                pack(["wizwar-poker-addr", addr]), bytes.fromhex(sig))
        except (BadSignatureError, ValueError, TypeError):
            self.log(f"{', '.join(src.seats)} announced an address it did not sign: ignored")
            return
        src.addr, src.addr_sig = addr, sig
        self.log(f"{', '.join(src.seats)} listens at {addr} now")
        out = self.addrs_msg()
        self.player.take_addrs(out["addrs"])
        for p in self.procs:
            if not p.gone and p.proc != self.local:
                p.put(out)

    def _presence(self) -> None:
        """Tell every process here but this one (it knows) which processes are away now
        (``mp_presence``, a snapshot): their seats show ``disconnected`` on every screen. No
        frame of the game: not numbered, not kept, never sent again."""
        msg: Msg = {"type": "mp_presence",
                    "away": sorted(p.proc for p in self.procs if p.gone)}
        for p in self.procs:
            if not p.gone and p.proc != self.local:
                p.put(msg)

    def _send(self, p: Proc, msg: Msg) -> None:
        """Route ``msg`` to ``p`` (kept for it while it is away: a rejoin gets it)."""
        self.frames.append((p.proc, msg))
        if not p.gone:
            p.put(msg)

    def _all(self, msg: Msg, but: int = -1) -> None:
        for p in self.procs:
            if p.proc != but:
                self._send(p, msg)

    async def run(self) -> str:
        """Seat every process, then relay the game to its end. Returns the host process's
        final state hash ("" when the game stopped: :attr:`stopped` says why, and
        :attr:`cheater` names a cheat)."""
        if self._server is None:
            await self.start()
        task = self.player_task = asyncio.ensure_future(self._player())
        try:
            if len(self.seat_ids) - self.bots > 1:
                async with asyncio.timeout(THINK):
                    await self._joined.wait()
            for p in self.procs[1:]:
                p.seats = list(p.seats)
            await self._relay()
        except (TimeoutError, ProtocolError, KeyError, TypeError, ValueError) as exc:
            self._stop(f"the host could not go on: {exc!r:.200}")
        finally:
            if self._server is not None:
                self._server.close()
        try:
            async with asyncio.timeout(WAIT):
                return await task
        except Stopped as exc:
            self.stopped = self.stopped or str(exc)
            return ""

    async def _player(self) -> str:
        return await self.player.run()

    async def close(self) -> None:
        """Stop listening and close every link."""
        if self._server is not None:
            self._server.close()
        for p in self.procs[1:]:
            if p.close is not None:
                await p.close()

    def _stop(self, reason: str, seat: str = "") -> None:
        self.stopped, self.cheater = reason, seat
        self.log(f"the game stopped: {reason}")
        self._all(self._stamp({"type": "mp_stop", "reason": reason, "seat": seat}))

    async def _relay(self) -> None:
        """Route every frame until the end (``mp_end``) or a stop."""
        rs = self.ruleset
        keys = {s: p.keys for p in self.procs for s in p.seats}
        commits = {s: p.nonce_commit for p in self.procs for s in p.seats}
        self.game = blake2b(pack(["wizwar-poker-game", keys, commits]),
                            digest_size=16).hexdigest()
        plays = {str(p.proc): p.seats for p in self.procs}
        addrs = {str(p.proc): [p.addr, p.addr_sig] for p in self.procs if p.addr}
        g = self._stamp({})["_g"]
        for p in self.procs:
            self._send(p, {"type": "mp_table", "_g": g, "addrs": addrs, "ad": self.ad_name,
                           "proc": p.proc, "seats": self.seat_ids,
                           "plays": plays, "keys": keys, "nonce_commits": commits,
                           "options": rs.options.to_wire(self.options),
                           "names": [self._name(s) for s in self.seat_ids],
                           "game": self.game, "dealer": "poker", "chains": {
                               s: tip for q in self.procs
                               for s, tip in zip(q.seats, q.chains, strict=True)}})
        nonces: dict[int, str] = {}
        claims: dict[int, Msg] = {}
        dice: dict[int, list[Any]] = {}
        acks: dict[int, str] = {}
        acked_n = -1
        proposals: list[tuple[int, Msg]] = []
        n = 0
        revealed: dict[int, Msg] = {}
        actions: list[str] = []
        auditing = False
        while True:
            # a proposal is a person's move: it may take long; every other frame may not
            thinking = acked_n == n and not proposals and not auditing and \
                not claims and not dice and len(nonces) == len(self.procs)
            try:
                async with asyncio.timeout(THINK if thinking else WAIT):
                    who, msg = await self._next_in()
            except TimeoutError:
                waits = [d for d in (nonces, claims, dice, acks, revealed, self.verdicts)
                         if d and len(d) < len(self.procs)]
                late = [p for p in self.procs
                        if p.gone or (waits and p.proc not in waits[0])]
                whom = ", ".join(s for p in late for s in p.seats) or "a process"
                self._stop(f"waited {WAIT:g} s for {whom}: the game cannot go on without "
                           "its keys")
                return
            src = self.procs[who]
            self.inbound.append((who, msg if msg is None else {
                k: v for k, v in msg.items() if k != "_c"}))
            if msg is None:
                if src.gone:
                    continue
                src.gone = True
                self.log(f"{', '.join(src.seats)} is away: the game waits for it (its keys "
                         f"are needed to go on) at most {WAIT:g} s")
                self._presence()
                continue
            t = msg.get("type")
            if t == "mp_addr":  # no frame of the game: a returned process's address
                self._take_addr(src, msg)
                continue
            if t in ("mask", "unmask") and not auditing:
                authors = {str(msg.get("seat", ""))} if t == "mask" else {
                    str(x[1]) for x in msg.get("shares", []) if isinstance(x, list)
                    and len(x) == 3}
                if not authors <= set(src.seats):
                    # a step or a share in another process's seat's name: never honest
                    await self._drop_cheat(src, f"{src.seats[0]}'s process sent a {t} in "
                                           f"the name of {', '.join(sorted(authors))}",
                                           n, actions)
                    return
            if t == "mask":
                self._all(msg)
            elif t == "unmask":
                to = str(msg.get("to", ""))
                if not to:
                    self._all(msg, but=who)
                else:  # only the process that plays the seat the cards are opened to
                    for p in self.procs:
                        if to in p.seats:
                            self._send(p, msg)
            elif t == "mp_nonce":
                nonces[who] = str(msg.get("nonce", ""))
                if len(nonces) == len(self.procs):
                    self._all(self._stamp({"type": "mp_seed", "nonces": {
                        s: nonces[p.proc] for p in self.procs for s in p.seats}}))
            elif t == "mp_dice":
                vals = msg.get("values")
                if not isinstance(vals, list) or {str(v[0]) for v in vals if isinstance(
                        v, list) and len(v) == 2} != set(src.seats) or len(vals) != len(
                        src.seats):
                    await self._drop_cheat(src, f"{src.seats[0]}'s process sent dice reveals "
                                           "not of its own seats", n, actions)
                    return
                dice[who] = vals
                if len(dice) == len(self.procs):
                    order = {s: i for i, s in enumerate(self.seat_ids)}
                    out = sorted((list(v) for vs in dice.values() for v in vs),
                                 key=lambda v: order.get(str(v[0]), 99))
                    self._all(self._stamp({"type": "mp_rolled", "reveals": out}))
                    dice = {}
            elif t == "mp_claim":
                claims[who] = msg.get("claim", {})
                if len(claims) == len(self.procs):
                    self._all(self._stamp({"type": "mp_claims", "claims": {
                        str(p): c for p, c in sorted(claims.items())}}))
                    claims = {}
            elif t == "mp_propose":
                st = self.player.state
                if not self.resumed and st is not None and rs.to_move(st) and \
                        rs.to_move(st)[0] not in src.seats and acked_n == n:
                    self.log(f"{', '.join(src.seats)} proposed out of turn: ignored")
                else:
                    proposals.append((who, msg))
            elif t == "mp_ack":
                acks[who] = str(msg.get("hash", ""))
                if len(acks) == len(self.procs):
                    if len(set(acks.values())) != 1:
                        self.report = write_desync_report(
                            n, acks[0], next(h for h in acks.values() if h != acks[0]),
                            actions, self.report_dir, rs,
                            note=f"the processes' hashes differ: {acks}")
                        self._stop(f"the processes' states differ at action {n}")
                        return
                    acks, acked_n = {}, n
            elif auditing and t not in ("mp_keys", "mp_verdict"):
                continue  # the game stopped: only the keys and the verdicts count now
            elif t == "mp_cheat" and not str(msg.get("seat", "")):
                # a check that names nobody (a card opened to no face): every process
                # reveals its keys now, and the audit names who tampered
                auditing = True
                reason = str(msg.get("reason", ""))[:500]
                self.stopped = f"{reason} (found by {', '.join(src.seats)})"
                self.log(f"the game stopped for an audit: {self.stopped}")
                self._all(self._stamp({"type": "mp_stop", "reason": self.stopped, "seat": "",
                                       "audit": True}))
            elif t == "mp_cheat":
                seat = str(msg.get("seat", ""))[:8]
                reason = str(msg.get("reason", ""))[:500]
                blamed = f"{seat} cheated" if seat else "a check of the deal failed"
                self.report = write_desync_report(
                    n, "", "", actions, self.report_dir, rs,
                    note=f"{blamed}: {reason} (found by {', '.join(src.seats)})")
                self._stop(f"{reason} (found by {', '.join(src.seats)})", seat)
                for p in self.procs:
                    if seat and seat in p.seats and p.close is not None:
                        p.gone = True
                        await p.close()
                return
            elif t == "mp_keys":
                revealed[who] = {k: v for k, v in msg.items() if k != "_c"}
                if len(revealed) == len(self.procs):
                    self._all(self._stamp({"type": "mp_allkeys", "keys": {
                        str(p): m for p, m in sorted(revealed.items())}}))
            elif t == "mp_verdict":
                self.verdicts[who] = msg
                if len(self.verdicts) == len(self.procs):
                    named = sorted({str(v.get("seat", ""))[:8] for v in self.verdicts.values()
                                    if not v.get("ok")})
                    if named:
                        why = "; ".join(sorted({str(v.get("reason", ""))[:300]
                                                for v in self.verdicts.values()
                                                if not v.get("ok")}))
                        self.cheater = next((s for s in named if s), "")
                        self.stopped = self.stopped or f"the audit failed: {why}"
                        self.report = write_desync_report(
                            n, "", "", actions, self.report_dir, rs,
                            note=f"the end's audit: {why}"
                                 + (f" ({self.cheater} cheated)" if self.cheater else ""))
                        self.log(f"AUDIT FAILED: {why}")
                    self._all(self._stamp({"type": "mp_end", "verdicts": {
                        str(p): m for p, m in sorted(self.verdicts.items())}}))
                    return
            else:
                self._stop(f"{', '.join(src.seats)} sent an unknown frame {t!r:.30}")
                return
            if proposals and acked_n == n and not auditing:  # the last action applied everywhere
                who_p, prop = proposals.pop(0)
                n += 1
                actions.append(str(prop.get("action")))
                raw = prop.get("whole")
                whole: dict[str, Any] = raw if isinstance(raw, dict) else {}
                g = self._stamp({})["_g"]
                for p in self.procs:
                    self._send(p, {"type": "mp_action", "_g": g, "n": n, "from": who_p,
                                   "action": prop.get("action"),
                                   "whole": whole.get(str(p.proc), "")})

    async def _drop_cheat(self, p: Proc, reason: str, n: int, actions: list[str]) -> None:
        """Stop the game for ``p``'s cheat: the report names it, everyone is told, its link
        is dropped."""
        seat = p.seats[0]
        self.report = write_desync_report(n, "", "", actions, self.report_dir, self.ruleset,
                                          note=f"{seat} cheated: {reason} (found by the host)")
        self._stop(f"{reason} (found by the host)", seat)
        p.gone = True
        if p.close is not None:
            await p.close()

    def _name(self, seat: str) -> str:
        for p in self.procs:
            if seat in p.seats:
                return p.name if p.seats[0] == seat else f"bot {seat}"
        return seat


# ---- a joiner --------------------------------------------------------------------------
async def join(player: Player, host: str, port: int, name: str = "guest") -> str:
    """Join a poker game at ``host:port`` as ``player`` and play it to its end; returns the
    final state hash. Raises :class:`Stopped`, or ``ConnectionError`` for a refusal."""
    reader, writer = await asyncio.open_connection(host, port)
    frames = FrameReader(reader)
    assert player.dealer is None

    async def send(msg: Msg) -> None:
        writer.write(encode(msg))
        await writer.drain()

    async def recv() -> Msg | None:
        try:
            return await frames.read()
        except (ProtocolError, ConnectionError):
            return None

    player.send, player.recv = send, recv
    player._real_send = send
    keys = player.announce_keys()
    h = hello(player.ruleset, name, "", player.nonce_commit)
    h.update(player.hello_extra(), keys=keys)
    if player.rejoin_from:
        h.update(rejoin=player.game, proof=player.rejoin_proof())
    await send(h)
    try:
        return await player.run()
    finally:
        writer.close()
        with contextlib.suppress(Exception):
            await writer.wait_closed()


# ---- the bench ---------------------------------------------------------------------------
async def loopback_game(rs: Ruleset, players: int, seed: str | None,
                        log_dir: str | None = None) -> tuple[PokerHost, list[Player]]:
    """One whole game over 127.0.0.1, the host's process and ``players - 1`` joiners in
    this one event loop, every seat played by its bot (``seed``: every process's keys and
    nonce from it, so the game is the same each time; None: fresh); returns the host and
    every process's player. Raises ``RuntimeError`` when it does not end on one hash."""
    host = PokerHost(rs, players=players, seed=seed, log_dir=log_dir)
    port = await host.start()
    joiners = []
    for i in range(players - 1):
        joiners.append(Player(rs, host._local_send, host._to_local.get, log_dir=log_dir,
                              seed=None if seed is None else f"{seed}:{i}"))
    try:
        async with asyncio.timeout(600):
            run = asyncio.ensure_future(host.run())
            tasks = []
            for i, p in enumerate(joiners):
                tasks.append(asyncio.ensure_future(join(p, "127.0.0.1", port, f"bench {i}")))
                while len(host.procs) < 2 + i:
                    await asyncio.sleep(0.005)
            hashes = await asyncio.gather(run, *tasks)
    finally:
        await host.close()
    if not hashes[0] or len(set(hashes)) != 1:
        raise RuntimeError(f"the bench's poker game did not end on one hash: {host.stopped}")
    return host, [host.player, *joiners]


def loopback_costs(runs: int = 1, players: int = 4, game: str = "wizwar",
                   seeds: list[str] | None = None) -> dict[str, list[float]]:
    """Mental poker over real sockets (127.0.0.1, one event loop on one core: every
    process's work adds up): per run one whole game, every seat its bot's; wall seconds of
    the ``deal`` (the slowest process's), the median ``draw`` (a card opened to its seat, at
    the receiver), ``show`` (a card opened to everyone) and ``reshuffle`` (a discard pile
    dealt again; 0 when the game had none); ``cards``: the deck's size. ``seeds``: one
    game per seed (the games are the same each time), else ``runs`` games."""
    rs = registry.get(game)
    keys = ("deal", "draw", "show", "reshuffle", "cards", "reshuffles")
    res: dict[str, list[float]] = {k: [] for k in keys}

    def median(xs: list[float]) -> float:
        xs = sorted(xs)
        return xs[len(xs) // 2] if xs else 0.0

    for seed in seeds or [f"bench-poker:{run}" for run in range(runs)]:
        _host, procs = asyncio.run(loopback_game(rs, players, seed))
        res["deal"].append(max(p.timings["deal"][0] for p in procs))
        for k in ("draw", "show", "reshuffle"):
            res[k].append(median([t for p in procs for t in p.timings.get(k, [])]))
        res["reshuffles"].append(float(len(procs[0].timings.get("reshuffle", []))))
        assert procs[0].dealer is not None
        res["cards"].append(float(len(procs[0].dealer.ledger.epochs[0].slots)))
    return res
