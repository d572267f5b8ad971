"""The game outlives its host: the sequencer hand-over of a poker game (issue 15;
docs/protocol.md, "Hand-over: the game outlives its host").

Sequencing is a role, not a machine. Every process of a poker game listens on its own
address from the start (announced, signed, in its ``hello``; the table sends every process
the list). When the relay's link drops, every process reaches the **lowest process still
there** (the host's process is 0; it is skipped while it is the one gone): that process
becomes the sequencer, rebuilds the relay and goes on. Nothing is lost or taken twice:

- every frame a process sends is numbered and stamped with what it had seen
  (``_c``, :meth:`net.poker.Player._send`) and kept (:attr:`~net.poker.Player.outbox`);
  every frame the relay makes is numbered (``_g``);
- the new sequencer starts a relay from the table (``mp_table``) with no frame taken; each
  process that reaches it (``mp_resume``: its number and its signature over the game id)
  is sent every frame made for it so far, then sends its whole outbox again; the relay takes
  each origin's frames in their order, each only once every frame its sender had seen was
  taken (:meth:`net.poker.PokerHost._ready`), so it runs the game's relay again from its
  start, on the same frames, to the same frames;
- each process takes each frame once (:meth:`net.poker.Player.fresh`): the ones it had
  already it drops.

The host's process holds its seats' keys: until it is back (restarted with the keys kept
in its data folder: :func:`come_back`) the game waits for it and says so, as for any
process away.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections.abc import Callable
from typing import Any

from nacl.exceptions import BadSignatureError
from nacl.signing import VerifyKey

from net.poker import Msg, Player, PokerHost, Proc, Stopped, resume_body, resumed_body
from net.protocol import FrameReader, ProtocolError, encode, hello

#: how many times (and how many seconds apart) a process tries each candidate sequencer
RETRIES = 20
PAUSE = 0.25
#: how long (seconds) a candidate waits to be answered
ANSWER = 10.0
#: how long (seconds) a process back browses the LAN for its game when no kept address
#: answers
FIND = 3.0


class Link:
    """A process's link to the relay that survives the relay: ``send``/``recv`` for its
    :class:`~net.poker.Player`; when the relay's link drops mid-game it reaches the new
    sequencer (or becomes it) and goes on (:meth:`hand_over`). ``bind``: the interface it
    listens on for a hand-over (127.0.0.1 in tests)."""

    def __init__(self, player: Player, bind: str = "127.0.0.1",
                 log: Callable[[str], None] | None = None) -> None:
        self.player = player
        self.bind = bind
        self.log = log or player.log
        self.relay_proc = 0  # the process the relay runs in
        self.seq: PokerHost | None = None  # the relay, once this process is the sequencer
        self.seq_task: asyncio.Future[None] | None = None
        self._ready = asyncio.Event()  # this process is the sequencer
        self._reader: FrameReader | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._server: asyncio.base_events.Server | None = None
        self.handovers = 0
        self.closed = False
        self.relay_addr = ""  # the relay's address ("host:port"), while it is not this one
        #: the frames read, in order (None: the link is over): read as they come, so a
        #: dropped relay is handed over at once, even while a person thinks
        self._in: asyncio.Queue[Msg | None] = asyncio.Queue()
        self._pump_task: asyncio.Future[None] | None = None
        #: the game announced on the LAN again by this process, once it sequences
        #: (a ``net.discovery.Advertiser``; None: not announced)
        self.advertiser: Any = None
        self._answered = -1  # the process whose mp_resumed was taken last

    # -- listening ------------------------------------------------------------------
    async def listen(self) -> str:
        """Listen for processes reaching this one as the sequencer; sets the player's
        ``addr`` ("host:port") and returns it."""
        self._server = await asyncio.start_server(self._serve, self.bind, 0)
        port = self._server.sockets[0].getsockname()[1]
        p = self.player
        p.addr = f"{self.bind}:{port}"
        if p.proc >= 0:  # (a joiner's own entry comes with the table)
            p.addrs[p.proc], p.addr_sigs[p.proc] = p.addr, p.addr_sig()
        return p.addr

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        frames = FrameReader(reader)
        try:
            async with asyncio.timeout(ANSWER):
                msg = await frames.read()
            if msg is None or msg.get("type") != "mp_resume":
                raise ProtocolError("the first message must be mp_resume")
            if msg.get("back") is True and not self._ready.is_set() and \
                    self._reader is not None:
                # a process back after it died looks for the sequencer: not this one
                raise ProtocolError(f"this process is not the sequencer (it is on "
                                    f"{self.relay_addr or 'the relay'})")
            async with asyncio.timeout(ANSWER):
                await self._ready.wait()  # until this process's own link to the relay drops
            assert self.seq is not None
            await serve_resume(self.seq, msg, frames, writer)
        except (ProtocolError, TimeoutError, ConnectionError, ValueError) as exc:
            with contextlib.suppress(Exception):
                writer.write(encode({"type": "refuse", "reason": f"not the sequencer: {exc}"}))
            writer.close()

    # -- the player's side ----------------------------------------------------------
    async def connect(self, host: str, port: int) -> None:
        """The first link: to the hosting process."""
        reader, self._writer = await asyncio.open_connection(host, port)
        self._reader = FrameReader(reader)
        self.relay_addr = f"{host}:{port}"

    async def send(self, msg: Msg) -> None:
        """Send to the relay; a frame lost with a dying link is sent again after the
        hand-over (it is in the player's outbox)."""
        if self.seq is not None:
            await self.seq.inbox.put((self.player.proc, msg))
            return
        if self._writer is None or self._writer.is_closing():
            return
        with contextlib.suppress(ConnectionError):
            self._writer.write(encode(msg))
            await self._writer.drain()

    async def recv(self) -> Msg | None:
        """The next frame from the relay; when the relay's link drops mid-game, the
        hand-over first (None: it failed, or the game is over). The link is read as frames
        come (:meth:`_pump`), not only when the player asks: a process whose person is
        thinking notices at once that the relay is gone."""
        if self._pump_task is None:
            self._pump_task = asyncio.ensure_future(self._pump())
        return await self._in.get()

    async def _pump(self) -> None:
        """Read the relay's frames into ``_in`` as they come; when its link drops, hand
        over (once the frames before the drop are taken, if the table is not known yet)
        and read on from the new relay (this process's own when it is the sequencer)."""
        while True:
            if self.seq is not None:
                got = await self.seq._to_local.get()
                await self._in.put(got)
                if got is None:
                    return
                continue
            msg: Msg | None = None
            if self._reader is not None:
                try:
                    msg = await self._reader.read()
                except (ProtocolError, ConnectionError):
                    msg = None
            if msg is not None and msg.get("type") == "mp_presence":
                self.player.take_presence(msg)  # at once, even while a person thinks
                continue
            if msg is not None and msg.get("type") == "mp_addrs":
                self.player.take_addrs(dict(msg.get("addrs") or {}))
                continue
            if msg is not None:
                await self._in.put(msg)
                continue
            while not self.player.plays and not self._in.empty() and not self.closed:
                await asyncio.sleep(0.01)  # the table may be among the frames not taken
            if self.closed or not self.player.plays or not await self.hand_over():
                await self._in.put(None)
                return

    async def hand_over(self, returning: bool = False) -> bool:
        """The relay is gone: reach the lowest process still there (skipping the one the
        relay ran in), or become the sequencer when that is this one (never when
        ``returning``: a process back after it died reaches the others). False when none
        answers (the game cannot go on)."""
        p = self.player
        dead = self.relay_proc
        self.handovers += 1
        if self._writer is not None:
            self._writer.close()
        self._reader = self._writer = None
        gone = ", ".join(p.plays.get(dead, [])) or "the relay"
        if dead != p.proc and p.plays:  # the relay's process is away (until told otherwise)
            p.take_presence({"away": sorted(p.away | {dead})})
        if self.relay_addr and not returning:
            # only this link dropped? the relay takes it back (a dead one refuses at once)
            self.log(f"the link to the relay ({gone}'s process) dropped: reaching it again")
            if await self._reach(dead, self.relay_addr, tries=2):
                self.log(f"back on {gone}'s process, the relay")
                return True
        if returning:
            return await self._find(dead)
        for c in sorted(q for q in p.plays if q != dead):
            if not p.addrs.get(c):
                continue  # a process that announced no address is never the sequencer
            if c == p.proc:
                self.log(f"{gone}'s process (the relay) is gone: this process is the "
                         "sequencer now")
                self._say_host_gone(dead, "this process")
                self.become_sequencer()
                return True
            addr = p.addrs[c]
            whom = ", ".join(p.plays[c]) or f"process {c}"
            self.log(f"{gone}'s process (the relay) is gone: reaching {whom}'s process "
                     f"at {addr}")
            if await self._reach(c, addr):
                self.relay_proc, self.relay_addr = c, addr
                self.log(f"{whom} sequences the game now")
                self._say_host_gone(dead, whom)
                return True
        self.log("no process of the game answers: it cannot go on")
        return False

    async def _find(self, dead: int) -> bool:
        """A process back after it died looks for the sequencer: each other process with
        an address, in process order, once a round (``RETRIES`` rounds, ``PAUSE`` s apart);
        a process that is not the sequencer says so at once (``mp_resume.back``), so the
        next is tried."""
        p = self.player
        cands = [c for c in sorted(p.addrs) if c != dead and p.addrs.get(c)]
        for c in cands:
            self.log(f"back: reaching the game's processes, {self._whom(c)} at "
                     f"{p.addrs[c]}")
        for _ in range(RETRIES if cands else 0):
            for c in cands:
                if await self._reach(c, p.addrs[c], tries=1, back=True):
                    self.relay_proc, self.relay_addr = c, p.addrs[c]
                    self.log(f"{self._whom(c)} sequences the game now")
                    return True
            await asyncio.sleep(PAUSE)
        name = str(p._kept.get("ad") or "")
        if name and await self._find_announced(name):
            return True
        self.log("no process of the game answers: it cannot go on")
        return False

    async def _find_announced(self, name: str) -> bool:
        """The kept addresses failed: look for the game announced on the LAN under
        ``name`` (its sequencer announces it again) and reach what answers there, if it is
        a process of the game (its ``mp_resumed`` signed by the table's keys)."""
        from net.discovery import find_games

        self.log(f"looking for the game {name!r} on the LAN")
        try:
            ads = await find_games(FIND)
        except Exception as exc:  # noqa: BLE001 - discovery is a convenience only
            self.log(f"cannot look on the LAN ({exc})")
            return False
        for ad in ads:
            if ad.name != name or ad.dealer != "poker":
                continue
            for h in ad.hosts or (ad.host,):
                addr = f"{h}:{ad.port}"
                self.log(f"found {name!r} on the LAN at {addr}: reaching it")
                if await self._reach(-1, addr, tries=2, back=True):
                    self.relay_proc, self.relay_addr = self._answered, addr
                    self.log(f"{self._whom(self._answered)} sequences the game now")
                    return True
        return False

    def _say_host_gone(self, dead: int, relays: str) -> None:
        """Say in a person's words that the host's process is gone, who relays the game now
        and that the game waits for the host's keys (its process coming back)."""
        if dead != 0:
            return
        host = ", ".join(self.player.plays.get(0, [])) or "the host"
        self.log(f"the host {host} is gone; {relays} relays the game now")
        self.log(f"waiting for {host}'s keys: the game goes on when {host}'s process is "
                 "back (wizwar join --back KEYS on its machine)")

    def _whom(self, c: int) -> str:
        return ", ".join(self.player.plays.get(c, [])) or f"process {c}"

    async def _reach(self, c: int, addr: str, tries: int = 0, back: bool = False) -> bool:
        """Reach process ``c`` at ``addr`` as the relay (``mp_resume``), up to ``tries``
        times (default :data:`RETRIES`); True once it answered ``mp_resumed`` signed by
        ``c``'s keys over this attempt's challenge (its outbox is then sent again). A
        reply not so signed is refused at once (False: the next process is tried)."""
        p = self.player
        host, _, port = addr.rpartition(":")
        for _ in range(tries or RETRIES):
            try:
                reader, writer = await asyncio.open_connection(host, int(port))
            except OSError:
                await asyncio.sleep(PAUSE)
                continue
            frames = FrameReader(reader)
            challenge = secrets.token_hex(16)
            bad = ""
            try:
                writer.write(encode({"type": "mp_resume", "game": p.game, "proc": p.proc,
                                     "proof": p.resume_proof(challenge),
                                     "challenge": challenge, "back": back}))
                async with asyncio.timeout(ANSWER):
                    got = await frames.read()
            except ProtocolError as exc:  # something answered, not in this protocol
                got, bad = None, f"a frame that is no mp_resumed ({exc})"
            except (ConnectionError, TimeoutError):
                got = None
            if got is not None and got.get("type") == "mp_resumed":
                bad = check_resumed(p, c, got, challenge)
                self._answered = int(got["proc"])
            if bad:  # not the process its address was signed by: never this relay
                writer.close()
                self.log(f"refused what answers at {addr} for {self._whom(c)}: {bad}; "
                         "trying the next process")
                return False
            if got is None or got.get("type") != "mp_resumed":
                writer.close()
                await asyncio.sleep(PAUSE)
                continue
            self._reader, self._writer = frames, writer
            for m in p.outbox:  # the new relay takes each once
                writer.write(encode(m))
            with contextlib.suppress(ConnectionError):
                await writer.drain()
            return True
        return False

    def become_sequencer(self) -> None:
        """This process relays the game now: a relay rebuilt from the table, its own
        player's outbox taken again first."""
        p = self.player
        self.seq = sequencer(p, self.log)
        self.relay_proc, self.relay_addr = p.proc, ""
        for m in p.outbox:
            self.seq.inbox.put_nowait((p.proc, m))
        self.seq_task = asyncio.ensure_future(relay(self.seq))
        self._ready.set()
        if p.table.get("ad") and not self.bind.startswith("127."):
            asyncio.ensure_future(self._announce(str(p.table["ad"])))

    async def _announce(self, name: str) -> None:
        """This process sequences a game that was announced on the LAN: announce it again
        under the same ``name``, at this process's address, every seat taken (a game under
        way). A failure is said and nothing more: discovery is a convenience only."""
        from net.discovery import Advertiser, txt_fields
        from net.protocol import PROTOCOL_VERSION

        p = self.player
        adv = Advertiser()
        try:
            rules, opts = txt_fields(p.ruleset, p.options)
            await adv.start(name, int(p.addr.rpartition(":")[2]), proto=PROTOCOL_VERSION,
                            ruleset=rules, options=opts, seats_taken=len(p.seats),
                            seats_free=0, dealer="poker",
                            interfaces=None if self.bind in ("0.0.0.0", "") else [self.bind])
        except Exception as exc:  # noqa: BLE001 - discovery is a convenience only
            self.log(f"could not announce the game on the LAN again ({exc})")
            return
        if self.closed:
            await adv.stop()
            return
        self.advertiser = adv
        self.log(f"the game is announced on the LAN again as {adv.name!r} at {p.addr}")

    def abort(self) -> None:
        """This process leaves the game now (its person closed it): stop reading, stop the
        relay it runs (the others hand over to the next process), close every link, waiting
        for nothing."""
        self.closed = True
        if self.advertiser is not None:
            asyncio.ensure_future(self.advertiser.stop())
        for task in (self._pump_task, self.seq_task):
            if task is not None and not task.done():
                task.cancel()
        if self.seq is not None:
            for q in self.seq.procs:
                if q.close is not None:
                    asyncio.ensure_future(q.close())
        if self._server is not None:
            self._server.close()
        if self._writer is not None:
            self._writer.close()

    async def close(self) -> None:
        """Wait for the relay this process runs (if any) to end, then close everything."""
        self.closed = True
        if self._pump_task is not None:
            self._pump_task.cancel()
            with contextlib.suppress(BaseException):
                await self._pump_task
        if self.seq_task is not None:
            with contextlib.suppress(Exception):
                async with asyncio.timeout(30):
                    await self.seq_task
        if self.seq is not None:
            for q in self.seq.procs:
                if q.close is not None:
                    await q.close()
        if self._server is not None:
            self._server.close()
        if self._writer is not None:
            self._writer.close()
        if self.advertiser is not None:
            with contextlib.suppress(Exception):
                await self.advertiser.stop()


def check_resumed(player: Player, c: int, got: Msg, challenge: str) -> str:
    """Why the ``mp_resumed`` ``got`` is not process ``c``'s answer to ``challenge`` ("" it
    is; ``c`` -1: any process of the game's): it must name ``c`` and carry ``c``'s signature (its keys from the table or the
    kept keys) over the game, ``c``, this process, the challenge and the frame counts."""
    if c < 0 and isinstance(got.get("proc"), int):  # any process of the game (zeroconf)
        c = int(got["proc"])
    if got.get("proc") != c or got.get("challenge") != challenge:
        return "a reply for another process or another attempt"
    keys = player.proc_keys.get(c, "")
    if len(keys) != 128:
        return f"no keys of process {c} are known here to check its reply"
    try:
        VerifyKey(bytes.fromhex(keys)[32:]).verify(
            resumed_body(player.game, c, player.proc, challenge, int(got["g"]),
                         int(got["sent"])), bytes.fromhex(str(got["sig"])))
    except (BadSignatureError, ValueError, TypeError, KeyError):
        return "its mp_resumed is not signed by that process's keys"
    return ""


def sequencer(player: Player, log: Callable[[str], None]) -> PokerHost:
    """A relay for ``player``'s game rebuilt from the table it was sent: every process
    away until it reaches it (``mp_resume``); its own link is local."""
    t = player.table
    rs = player.ruleset
    host = PokerHost(rs, players=len(t["seats"]), options=dict(player.options),
                     seed="sequencer", log=log)
    host.player = player
    host.local = player.proc
    host.resumed = True
    host.game = str(t["game"])
    # every address the player knows (a process back after it died announced a new one)
    addrs = {str(q): [a, player.addr_sigs.get(q, "")] for q, a in player.addrs.items()}
    for q, got in dict(t.get("addrs") or {}).items():
        addrs.setdefault(str(q), list(got))
    if player.addr:
        addrs[str(player.proc)] = [player.addr, player.addr_sig()]
    names = list(t["names"])

    def noop(_m: Msg) -> None:
        pass

    host.procs = []
    for p, ss in sorted((int(k), list(v)) for k, v in t["plays"].items()):
        got = addrs.get(str(p)) or ["", ""]
        host.procs.append(Proc(p, ss, names[t["seats"].index(ss[0])], str(t["keys"][ss[0]]),
                               str(t["nonce_commits"][ss[0]]),
                               [str(t["chains"][s]) for s in ss], noop, None, gone=True,
                               addr=str(got[0]), addr_sig=str(got[1])))
    me = host.procs[player.proc]
    me.put, me.gone = host._to_local.put_nowait, False
    away = [", ".join(q.seats) for q in host.procs if q.gone]
    log(f"sequencing the game; waiting for {'; '.join(away)} to reach it")
    return host


async def relay(host: PokerHost) -> None:
    """Run a rebuilt relay to the game's end (or its stop)."""
    try:
        await host._relay()
    except (TimeoutError, ProtocolError, KeyError, TypeError, ValueError) as exc:
        host._stop(f"the sequencer could not go on: {exc!r:.200}")


async def serve_resume(host: PokerHost, msg: Msg, frames: FrameReader,
                       writer: asyncio.StreamWriter) -> None:
    """A process reaching the sequencer (``mp_resume``: its number, a fresh challenge and
    its signature over the game id, the number and the challenge with its seat's signature
    key): its link takes its place, it is answered (``mp_resumed``, signed by this
    process's keys over the challenge and its frame counts: :func:`check_resumed`) and sent
    every frame made for it so far, then its frames are taken."""
    proc = msg.get("proc")
    if not isinstance(proc, int) or not 0 <= proc < len(host.procs) or \
            msg.get("game") != getattr(host, "game", None):
        raise ProtocolError("no process of this game")
    p = host.procs[proc]
    challenge = str(msg.get("challenge", ""))[:64]
    try:
        VerifyKey(bytes.fromhex(p.keys)[32:]).verify(
            resume_body(host.game, proc, challenge), bytes.fromhex(str(msg["proof"])))
    except (BadSignatureError, ValueError, TypeError) as exc:
        raise ProtocolError("the proof of the seat's keys is wrong") from exc
    if not p.gone:
        raise ProtocolError(f"{', '.join(p.seats)} is here already")

    def put(m: Msg) -> None:
        if not writer.is_closing():
            writer.write(encode(m))

    async def close() -> None:
        writer.close()
        with contextlib.suppress(Exception):
            await writer.wait_closed()

    p.put, p.close, p.gone = put, close, False
    mine = [m for to, m in host.frames if to == proc]
    g, sent = host._g, len(mine)
    put({"type": "mp_resumed", "proc": host.local, "challenge": challenge, "g": g,
         "sent": sent, "sig": host.player.resumed_sig(proc, challenge, g, sent)})
    for m in mine:
        put(m)
    host._presence()
    put(host.addrs_msg())
    host.log(f"{', '.join(p.seats)} reached the sequencer")
    try:
        while True:
            got = await frames.read()
            await host.inbox.put((proc, got))
            if got is None:
                return
    except (ProtocolError, ConnectionError):
        await host.inbox.put((proc, None))


async def play(player: Player, host: str, port: int, name: str = "guest",
               bind: str = "") -> str:
    """Join a poker game at ``host:port`` as ``player`` (like :func:`net.poker.join`) over
    a :class:`Link` that outlives the relay, listening for a hand-over on ``bind`` (""
    the interface the link to the host leaves from); returns the final state hash. Raises
    :class:`~net.poker.Stopped`, ``OSError`` when the host cannot be reached."""
    link = Link(player, bind)
    player.link = link  # type: ignore[attr-defined]
    await link.connect(host, port)
    if not link.bind:
        assert link._writer is not None
        link.bind = str(link._writer.get_extra_info("sockname")[0])
    await link.listen()
    player.send = player._real_send = link.send
    player.recv = link.recv
    h = hello(player.ruleset, name, "", player.nonce_commit)
    h.update(player.hello_extra(), keys=player.announce_keys())
    await link.send(h)
    try:
        return await player.run()
    finally:
        await link.close()


async def come_back(player: Player) -> str:
    """A process back after its process died (``player.rejoin_from``: its kept keys, its
    process number and the table's addresses): it reaches the sequencer as after any
    hand-over and replays the game from the frames it is sent. It listens again on a new
    address and announces it, signed (``mp_addr``; the relay tells every process:
    ``mp_addrs``), so it may sequence the game again when the relay dies later. Raises
    :class:`~net.poker.Stopped` when no process answers."""
    if not player.rejoin_from or player.proc < 0:
        raise ValueError("come_back needs the keys a process kept (rejoin_from)")
    link = Link(player)
    player.link = link  # type: ignore[attr-defined]
    none: list[str] = []
    player.plays = {int(k): none for k in player.addrs} | {player.proc: none}
    link.relay_proc = player.proc  # its own relay (if it was the host) is the one gone
    player.send = player._real_send = link.send
    player.recv = link.recv
    if not await link.hand_over(returning=True):
        raise Stopped("no process of the game answers")
    player.plays = {}
    # listen again, on the interface that reaches the sequencer, and say where (signed):
    # this process may sequence the game again (the lowest process still there)
    assert link._writer is not None
    link.bind = str(link._writer.get_extra_info("sockname")[0])
    addr = await link.listen()
    link._writer.write(encode({"type": "mp_addr", "addr": addr, "sig": player.addr_sig()}))
    with contextlib.suppress(ConnectionError):
        await link._writer.drain()
    link.log(f"listening at {addr} again: this process may sequence the game again")
    try:
        return await player.run()
    finally:
        await link.close()
