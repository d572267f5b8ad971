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

PROTOCOL_VERSION = 4  # 2: any ruleset (hello's content digest, welcome's ruleset, deal's
# options and names from the ruleset's schema instead of Wiz-War's config); 3: the dice
# beacon (hello's chain, deal's chains, roll/beacon/chain, commit's beacon); 4: a hostile
# peer cannot stall or trick the lockstep (deal's game id and hello's ``game``, propose's
# seq and window, reopen/recommit, report, drop)
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
    "commit": {"seq": int, "action": list, "pre": list, "reblind": list, "private": list,
               "hash": str, "last": int},
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


class FrameReader:
    """Reads messages from a stream with a per-frame cap (``MAX_FRAME`` bytes)."""

    def __init__(self, reader: asyncio.StreamReader, max_frame: int = MAX_FRAME) -> None:
        self.reader = reader
        self.unpacker = msgpack.Unpacker(
            raw=False, strict_map_key=True, max_buffer_size=max_frame,
            max_str_len=max_frame, max_bin_len=max_frame, max_array_len=100_000,
            max_map_len=10_000)

    async def read(self) -> dict[str, Any] | None:
        """The next valid message, or None at a clean end of stream.

        Raises ``ProtocolError`` on malformed, oversized or wrongly shaped data.
        """
        while True:
            try:
                msg = next(self.unpacker)
            except StopIteration:
                pass
            except (ValueError, msgpack.ExtraData, msgpack.FormatError,
                    msgpack.StackError, msgpack.OutOfData) as exc:
                raise ProtocolError(f"malformed frame: {exc}") from exc
            else:
                return check(msg)
            data = await self.reader.read(65536)
            if not data:
                return None
            try:
                self.unpacker.feed(data)
            except msgpack.BufferFull as exc:
                raise ProtocolError("frame larger than the limit") from exc


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
    theirs = "".join(ch for ch in msg["ruleset"] if ch.isprintable())[:40]
    try:
        known = registry.get(msg["ruleset"])
    except UnknownRuleset:
        return (f"this host plays {ruleset.title} ({ruleset.name}); the joining wizwar asked "
                f"for {theirs!r}, a game the host does not know")
    if known.name != ruleset.name:
        return (f"this host plays {ruleset.title} ({ruleset.name}), not {known.title} "
                f"({known.name}): join with `wizwar join` of {ruleset.name}")
    if msg["rules_version"] != ruleset.version:
        return (f"rules {theirs}/{msg['rules_version']} do not match the host's "
                f"{ruleset.name}/{ruleset.version}: install the same wizwar version")
    if msg["content"] != ruleset.content_digest():
        return (f"this wizwar has other game content than the host's ({ruleset.title} of "
                "another build): install the same wizwar version")
    return ""
