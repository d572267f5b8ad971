"""The wizwar LAN protocol: msgpack maps over TCP, one ``type`` each.

Frames are a plain msgpack stream (each message one map); the reader uses a streaming
unpacker with an explicit per-frame size cap. Anything malformed, oversized or of the wrong
shape raises :class:`ProtocolError`, and the caller drops that one connection
(docs/protocol.md).
"""

from __future__ import annotations

import asyncio
from typing import Any

import msgpack

from core import registry
from core.codec import CodecError, pack
from core.engine import Ruleset, UnknownRuleset
from net.safe import safe_text

PROTOCOL_VERSION = 6  # 2: any ruleset (hello's content digest, welcome's ruleset, deal's
# options and names from the ruleset's schema instead of Wiz-War's config); 3: the dice
# beacon (hello's chain, deal's chains, roll/beacon/chain, commit's beacon); 4: a hostile
# peer cannot stall or trick the lockstep (deal's game id and hello's ``game``, propose's
# seq and window, reopen/recommit, report, drop); 5: mental-poker dealing (hello's dealer
# and keys, the mp_* frames, mask, unmask) and the host's state hash follows its commit
# (``hash``) instead of holding it back (a commit kept for a catch-up still has it); 6: the
# poker hand-over signed both ways (mp_resume's challenge, mp_resumed's sig), mp_presence,
# mp_addr/mp_addrs (a process back announces its new address)
MAX_FRAME = 1 << 20  # bytes: no honest message is near this

#: Each message type and the keys (with types) it must carry.
SCHEMA: dict[str, dict[str, type | tuple[type, ...]]] = {
    "hello": {"proto": int, "ruleset": str, "rules_version": int, "content": str,
              "name": str, "token": str, "nonce_commit": str},
    "welcome": {"seat": str, "token": str, "players": int, "game": str, "ruleset": str},
    "refuse": {"reason": str},
    "lobby": {"seats": list},
    "deal": {"commits": list, "nonce_commits": dict, "options": dict, "names": list,
             "game": str},
    "nonce": {"nonce": str},
    "start": {"nonces": dict, "pre": list, "private": list, "hash": str, "last": int},
    "propose": {"action": list, "seq": int, "window": int},
    "sealed": {"window": int, "commit": str},
    "sealed_in": {"window": int, "commits": dict},
    "open": {"window": int, "action": list, "salt": str},
    "opened": {"window": int, "openings": dict},
    # owner-held secrets (docs/protocol.md, Owner-held secrets): at the end an owner opens
    # the actions it sealed itself, for the audit
    "openings": {"openings": list},
    "commit": {"seq": int, "action": list, "pre": list, "reblind": list, "private": list,
               "last": int},
    # the host's state hash after action ``seq``, sent once the commit is out (a commit
    # sent again in a catch-up carries it as its own ``hash``)
    "hash": {"seq": int, "hash": str},
    "reject": {"reason": str, "action": list},
    "ack": {"seq": int, "hash": str},
    "peers": {"seats": dict},
    "end": {"history": list, "hash": str},
    "desync": {"seq": int, "reason": str},
    "bye": {"reason": str},
    # dice no peer can foresee (core/beacon.py; docs/protocol.md, "Dice"): the host announces
    # an action that rolls, every seat answers with its next chain value, the commit carries
    # them all; a seat that joins again from a new process commits a new chain
    "roll": {"seq": int, "action": list, "index": int, "waiting": list},
    "beacon": {"index": int, "value": str},
    "chain": {"seat": str, "tip": str},
    # the seed phase (docs/protocol.md, "Lockstep and faults"): the host reopens the lobby
    # (a seat freed, a seat's commitment changed) and every seat commits a fresh nonce
    "reopen": {"reason": str},
    "recommit": {"nonce_commit": str},
    # a peer that finds a desync or a cheat tells the host, which tells everyone (``seat``:
    # who reported, host to peers only); the host drops a peer that alone disagrees
    "report": {"seq": int, "reason": str},
    "drop": {"seq": int, "reason": str},
    # a game dealt by mental poker (net/poker.py; docs/protocol.md, "Mental-poker dealing on
    # the LAN"): the deal's passes, the partial unmaskings (boxed for one seat, or public),
    # the opening rounds' claims, the actions, the end's key reveal and audit
    "mp_table": {"proc": int, "seats": list, "plays": dict, "keys": dict,
                 "nonce_commits": dict, "options": dict, "names": list, "game": str,
                 "chains": dict},
    "mp_nonce": {"nonce": str},
    "mp_seed": {"nonces": dict},
    "mask": {"epoch": int, "seat": str, "kind": str, "points": list, "keys": list,
             "sig": str},
    "unmask": {"to": str, "shares": list, "sig": str},
    "mp_claim": {"round": int, "claim": dict},
    "mp_claims": {"claims": dict},
    "mp_propose": {"action": list, "whole": dict},
    "mp_action": {"n": int, "from": int, "action": list, "whole": str},
    "mp_ack": {"n": int, "hash": str},
    "mp_cheat": {"seat": str, "reason": str},
    "mp_stop": {"reason": str, "seat": str},
    "mp_keys": {"keys": dict, "sig": str},
    "mp_allkeys": {"keys": dict},
    "mp_verdict": {"ok": bool, "reason": str, "seat": str},
    "mp_end": {"verdicts": dict},
    "mp_rejoined": {"sent": int},
    "mp_dice": {"values": list},
    "mp_rolled": {"reveals": list},
    # the sequencer hand-over (net/handover.py): a process reaches the new sequencer with its
    # process number, a fresh challenge and its signature over them; the sequencer answers,
    # signed over the challenge and its frame counts (docs/protocol.md, "Hand-over")
    "mp_resume": {"game": str, "proc": int, "proof": str, "challenge": str},
    "mp_resumed": {"proc": int, "challenge": str, "g": int, "sent": int, "sig": str},
    # the relay tells every process which processes are away (sent when one leaves or comes
    # back; no part of the game's frames: not numbered, not kept, not sent again)
    "mp_presence": {"away": list},
    # a process back after it died listens on a new address (signed, as hello's ``addr``):
    # it tells the relay, which tells every process every address (``mp_addrs``)
    "mp_addr": {"addr": str, "sig": str},
    "mp_addrs": {"addrs": dict},
}


def action_commitment(action_wire: Any, salt: str) -> str:
    """A sealed action's commitment: :func:`core.engine.commitment` of its canonical msgpack
    wire form (hex) under ``salt``."""
    from core.engine import commitment

    return commitment(pack(action_wire).hex(), salt)


class ProtocolError(ValueError):
    """A frame that breaks the protocol; the connection that sent it is closed."""


def encode(msg: dict[str, Any]) -> bytes:
    """One message as canonical msgpack bytes. Raises ``ProtocolError`` if it is invalid."""
    check(msg)
    try:
        return pack(msg)
    except CodecError as exc:
        raise ProtocolError(str(exc)) from exc


def check(msg: Any) -> dict[str, Any]:
    """Validate a decoded message's shape against :data:`SCHEMA`; returns it.

    Raises ``ProtocolError`` for a non-map, an unknown type or a missing/mistyped key.
    """
    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
        raise ProtocolError("a message must be a map with a 'type'")
    spec = SCHEMA.get(msg["type"])
    if spec is None:
        raise ProtocolError(f"unknown message type {msg['type'][:40]!r}")
    for key, typ in spec.items():
        v = msg.get(key)
        if not isinstance(v, typ) or isinstance(v, bool) and typ is int:
            raise ProtocolError(f"{msg['type']}: '{key}' missing or of the wrong type")
    return msg


HELLO_FRAME = 16 << 10
"""bytes: the cap on a frame before a connection has said ``hello`` (a hello is well under
1 KiB), so a crowd of connections that never finish one holds little memory."""


def _scan(buf: bytes | bytearray, limit: int) -> None:
    """Walk the msgpack headers of the incomplete frame at the start of ``buf`` and raise
    ``ProtocolError`` as soon as a declared length (a str, bin or ext) makes the frame end
    past ``limit`` bytes: a 4 GB ``str32`` prefix is refused on sight, without waiting for its
    bytes. Payloads are skipped by their length, so the cost is one step per element; an
    incomplete header or a malformed byte is left to the unpacker."""
    n = len(buf)
    pos = 0
    todo = [1]  # elements still to read at each nesting level
    while todo:
        if todo[-1] == 0:
            todo.pop()
            continue
        todo[-1] -= 1
        if pos >= n:
            return
        b = buf[pos]
        size = 0  # header bytes
        body = 0  # payload bytes
        items = 0  # elements of a container
        if b <= 0x7F or b >= 0xE0 or b in (0xC0, 0xC2, 0xC3):
            size = 1
        elif b <= 0x8F:
            size, items = 1, 2 * (b & 0x0F)
        elif b <= 0x9F:
            size, items = 1, b & 0x0F
        elif b <= 0xBF:
            size, body = 1, b & 0x1F
        elif b in _LEN:  # str8/16/32, bin8/16/32, ext8/16/32, array16/32, map16/32
            width, extra, kind = _LEN[b]
            if pos + 1 + width > n:
                return
            count = int.from_bytes(buf[pos + 1:pos + 1 + width], "big")
            size = 1 + width + extra
            if kind == "bytes":
                body = count
            else:
                items = count * (2 if kind == "map" else 1)
        elif b in _FIXED:
            size = _FIXED[b]
        else:
            return  # 0xC1 (never used): the unpacker refuses it
        end = pos + size + body
        if end > limit:
            raise ProtocolError(f"a frame declares more than the limit of {limit} bytes")
        pos = end
        if items:
            todo.append(items)


#: length-prefixed headers: byte -> (width of the length, bytes after it, what it counts)
_LEN: dict[int, tuple[int, int, str]] = {
    0xC4: (1, 0, "bytes"), 0xC5: (2, 0, "bytes"), 0xC6: (4, 0, "bytes"),
    0xC7: (1, 1, "bytes"), 0xC8: (2, 1, "bytes"), 0xC9: (4, 1, "bytes"),
    0xD9: (1, 0, "bytes"), 0xDA: (2, 0, "bytes"), 0xDB: (4, 0, "bytes"),
    0xDC: (2, 0, "array"), 0xDD: (4, 0, "array"), 0xDE: (2, 0, "map"), 0xDF: (4, 0, "map")}
#: fixed-size headers (numbers, fixext) and their whole size in bytes
_FIXED: dict[int, int] = {0xCA: 5, 0xCB: 9, 0xCC: 2, 0xCD: 3, 0xCE: 5, 0xCF: 9, 0xD0: 2,
                          0xD1: 3, 0xD2: 5, 0xD3: 9, 0xD4: 3, 0xD5: 4, 0xD6: 6, 0xD7: 10,
                          0xD8: 18}


class FrameReader:
    """Reads messages from a stream with a per-frame cap (``max_frame`` bytes, at most
    ``MAX_FRAME``; :attr:`limit` may be lowered and raised again, e.g. :data:`HELLO_FRAME`
    until a connection has said hello).

    A frame is refused (``ProtocolError``) once more than :attr:`limit` bytes of it are
    buffered, or as soon as a length prefix in it declares more (:func:`_scan`)."""

    def __init__(self, reader: asyncio.StreamReader, max_frame: int = MAX_FRAME) -> None:
        self.reader = reader
        self.limit = max_frame
        self.unpacker = msgpack.Unpacker(
            raw=False, strict_map_key=True, max_buffer_size=max(max_frame, MAX_FRAME),
            max_str_len=MAX_FRAME, max_bin_len=MAX_FRAME, max_array_len=100_000,
            max_map_len=10_000)
        self._partial = bytearray()  # the bytes of the frame not yet complete
        self._base = 0  # stream offset of _partial's first byte

    async def read(self) -> dict[str, Any] | None:
        """The next valid message, or None at a clean end of stream.

        Raises ``ProtocolError`` on malformed, oversized or wrongly shaped data.
        """
        while True:
            try:
                msg = next(self.unpacker)
            except StopIteration:
                if self._partial:
                    if len(self._partial) > self.limit:
                        raise ProtocolError(
                            f"frame larger than the limit of {self.limit} bytes") from None
                    _scan(self._partial, self.limit)
            except (ValueError, msgpack.ExtraData, msgpack.FormatError,
                    msgpack.StackError, msgpack.OutOfData) as exc:
                raise ProtocolError(f"malformed frame: {exc}") from exc
            else:
                end = self.unpacker.tell()
                size, self._base = end - self._base, end
                del self._partial[:size]
                if size > self.limit:
                    raise ProtocolError(f"frame larger than the limit of {self.limit} bytes")
                return check(msg)
            data = await self.reader.read(65536)
            if not data:
                return None
            self._partial += data
            try:
                self.unpacker.feed(data)
            except msgpack.BufferFull as exc:
                raise ProtocolError(f"frame larger than the limit of {self.limit} "
                                    "bytes") from exc


def hello(ruleset: Ruleset, name: str, token: str, nonce_commit: str,
          chain: str = "", game: str = "") -> dict[str, Any]:
    """The first message a joining peer sends: the protocol version, the ruleset it plays
    (name, rules version, content digest), its name, its seat token (a rejoin), its seed
    nonce's commitment, (``chain``, a player's; a watcher sends none) the tip of its dice
    chain (hex, :class:`core.beacon.Chain`) and (``game``, a rejoin after a deal) the id of
    the game it belongs to (:func:`game_id`)."""
    msg = {"type": "hello", "proto": PROTOCOL_VERSION, "ruleset": ruleset.name,
           "rules_version": ruleset.version, "content": ruleset.content_digest(),
           "name": name, "token": token, "nonce_commit": nonce_commit}
    if chain:
        msg["chain"] = chain
    if game:
        msg["game"] = game
    return msg


def game_id(seats: list[str], nonce_commits: dict[str, str], chains: dict[str, str],
            commits: list[str]) -> str:
    """The id of one deal of a game (32 hex): blake2b-128 over every seat's nonce
    commitment and dice chain tip in seat order and the dealer's commitments. Fixed at the
    deal and unknowable before it, so a rejoin that names it (``hello.game``) cannot be
    taken for a seat in another game, a restarted host's included. Raises ``KeyError`` for
    a seat missing from ``nonce_commits`` or ``chains``."""
    from hashlib import blake2b

    data = pack(["wizwar-game", [str(nonce_commits[s]) for s in seats],
                 [str(chains[s]) for s in seats], [str(c) for c in commits]])
    return blake2b(data, digest_size=16).hexdigest()


def chain_tip_problem(tip: Any) -> str:
    """Why a hello's dice chain tip cannot be taken ("" if it can): 32 bytes as hex."""
    if not isinstance(tip, str) or len(tip) != 64:
        return "a player's hello must commit a dice chain (64 hex digits)"
    try:
        bytes.fromhex(tip)
    except ValueError:
        return "the dice chain tip is not hex"
    return ""


def version_problem(ruleset: Ruleset, msg: dict[str, Any]) -> str:
    """Why a hello cannot be accepted by a host playing ``ruleset`` ("" if it can): another
    protocol version, an unknown or other ruleset, another rules version or content."""
    if msg["proto"] != PROTOCOL_VERSION:
        return (f"protocol version {msg['proto']} does not match the host's "
                f"{PROTOCOL_VERSION}: install the same wizwar version")
    theirs = safe_text(msg["ruleset"])
    try:
        known = registry.get(msg["ruleset"])
    except UnknownRuleset:
        return (f"this host plays {ruleset.title} ({ruleset.name}); the joining wizwar asked "
                f"for {theirs!r}, a game the host does not know")
    if known.name != ruleset.name:
        return (f"this host plays {ruleset.title} ({ruleset.name}), not {known.title} "
                f"({known.name})")
    if msg["rules_version"] != ruleset.version:
        return (f"rules {theirs}/{msg['rules_version']} do not match the host's "
                f"{ruleset.name}/{ruleset.version}: install the same wizwar version")
    if msg["content"] != ruleset.content_digest():
        return (f"this wizwar has other game content than the host's ({ruleset.title} of "
                "another build): install the same wizwar version")
    return ""
