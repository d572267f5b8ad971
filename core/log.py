"""Game logs: the format, reading with damage tolerance, replay and export (docs/log-format.md).

A log is a msgpack stream: one header map, then one record per action, then (when the game
ended) an end record. Everything here is pure: bytes in, values out; the caller opens files
(the app autosaves under the user data folder, flushing after every record).
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import msgpack

from core import beacon as B
from core import registry
from core.codec import pack
from core.engine import (
    Event,
    IllegalAction,
    OptionError,
    Outcome,
    Ruleset,
    UnknownRuleset,
)
from core.rng import ChanceNeeded

FORMAT = "wizwar-log"
FORMAT_VERSION = 3  # 3: a record's ``sealed`` and the end's ``openings`` (actions with
# fields secret to all but some seats: Ruleset.seal); 2: the header's ``options`` (from the
# ruleset's schema), ``names`` and ``deal``; a record's ``reveals`` map. Formats 2 and 1
# (``config``, top-level faces/commits and pre/reblind/private) are still read.
HASH_EVERY = 10  # a record carries the state hash every HASH_EVERY actions (and the last)
EXPORT = "wizwar-export"
EXPORT_VERSION = 2  # 2: ``option NAME VALUE`` lines; 1 (Wiz-War's players/crossed/...) read

#: the reveal lists a format-1 record carried at its top level (format 2: under ``reveals``)
_V1_REVEALS = ("pre", "reblind", "private")


class LogError(ValueError):
    """A log that cannot be used (newer format, other rules) or a replay that disagrees."""


class ResultMismatch(LogError):
    """An end record whose result is not the game's: ``outcome`` is the one the rules give
    for the replayed final state (:func:`check_result`)."""

    def __init__(self, message: str, outcome: Outcome) -> None:
        super().__init__(message)
        self.outcome = outcome


# ---- writing ---------------------------------------------------------------------------
def header(ruleset: Ruleset, options: Mapping[str, Any], seed: int | bytes, *,
           kind: str = "local", viewer: str = "", names: tuple[str, ...] | list[str] = (),
           started: str = "", deal: Any = None,
           extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """The header map: the ruleset's name and version, its options in wire form
    (``ruleset.options.to_wire``), the seats' names, the seed; ``deal`` (networked games)
    is the dealer's public deal data as the ruleset reads it back (Wiz-War: the faces this
    writer knew, ``""`` for the others, and the commitments); ``started`` is metadata only
    (never replayed). Raises ``OptionError`` for options the ruleset refuses."""
    h: dict[str, Any] = {
        "format": FORMAT, "version": FORMAT_VERSION, "ruleset": ruleset.name,
        "rules_version": ruleset.version, "options": ruleset.options.to_wire(options),
        "names": [str(n) for n in names], "seed": seed, "kind": kind, "viewer": viewer,
        "started": started,
    }
    if deal is not None:
        h["deal"] = deal
    if extra:
        h["extra"] = extra
    return h


def record(ruleset: Ruleset, seq: int, action: Any, state: Any = None, *,
           force_hash: bool = False, reveals: Mapping[str, Any] | None = None,
           sealed: list[str] | None = None) -> dict[str, Any]:
    """One action record; with ``state`` (after the action) the hash is stored every
    :data:`HASH_EVERY` actions or when ``force_hash``. ``reveals`` (networked games): what
    the dealer revealed with the action, in the ruleset's form (empty lists left out); the
    replay hands it back to ``ruleset.replay_dealer``; its ``beacon`` (an action that rolls
    in a networked game) is every seat's dice reveal ``[[seat, hex], ...]``, which the
    replay feeds the generator (core/beacon.py). ``sealed`` (networked games, an action
    whose fields are secret to all but some seats: ``Ruleset.seal``): ``[commitment]`` when
    ``action`` is the public form this writer was sent, ``[commitment, salt]`` when it is the
    whole action; the end record's ``openings`` open them all."""
    r: dict[str, Any] = {"seq": seq, "seat": action.actor, "action": action.to_wire()}
    if sealed:
        r["sealed"] = list(sealed)
    if state is not None and (force_hash or seq % HASH_EVERY == 0):
        r["hash"] = ruleset.state_hash(state)
    if reveals:
        kept = {k: v for k, v in reveals.items() if v}
        if kept:
            r["reveals"] = kept
    return r


def end_record(ruleset: Ruleset, state: Any, history: list[Any] | None = None, *,
               openings: list[Any] | None = None) -> dict[str, Any]:
    """The last record: the final hash and ``result`` (``ruleset.result(state).to_wire()``),
    ``winner`` (the winning seats joined by ``+``, ``-`` on a draw) for older readers, and a
    networked game's audit: the dealer's ``history`` and the ``openings`` ``[seq, whole
    action wire, salt]`` of the actions with sealed fields."""
    res = ruleset.result(state)
    r: dict[str, Any] = {"end": True, "seq": ruleset.seq(state),
                         "hash": ruleset.state_hash(state), "result": res.to_wire(),
                         "winner": "+".join(res.winners) or ("-" if res.draw else "")}
    if history:
        r["history"] = history
    if openings:
        r["openings"] = [list(o) for o in openings]
    return r


def encode(obj: dict[str, Any]) -> bytes:
    """One header or record as canonical msgpack bytes."""
    return pack(obj)


# ---- reading ---------------------------------------------------------------------------
@dataclass
class Loaded:
    """A log as read: the header, the good records, and where/why reading stopped early.

    ``ruleset`` is the Ruleset the header names (found through :mod:`core.registry`);
    ``options`` the validated options, ``names`` the seats' names, ``deal`` the dealer's
    public deal data (None for a local game): a format-1 header's ``config``, ``faces`` and
    ``commits`` are read into them."""

    header: dict[str, Any]
    ruleset: Ruleset
    options: dict[str, Any] = field(default_factory=dict)
    records: list[dict[str, Any]] = field(default_factory=list)
    end: dict[str, Any] | None = None
    damage: str = ""  # "" when the whole file was read

    @property
    def names(self) -> tuple[str, ...]:
        """The seats' display names (may be empty)."""
        h = self.header
        names = h.get("names")
        if names is None:  # format 1
            names = (h.get("config") or {}).get("names", [])
        return tuple(str(n) for n in names)

    @property
    def seed(self) -> int | bytes:
        """The game seed."""
        seed: int | bytes = self.header["seed"]
        return seed

    @property
    def deal(self) -> Any:
        """The deal data (format 1: ``{"faces", "commits"}`` from the header's keys)."""
        h = self.header
        if "deal" in h:
            return h["deal"]
        if h.get("commits"):  # format 1, a networked game
            return {"faces": list(h.get("faces") or []), "commits": list(h["commits"])}
        return None

    @property
    def actions(self) -> list[Any]:
        """The actions in order."""
        return [_action_of(self.ruleset, r["action"]) for r in self.records]

    def result(self) -> Outcome | None:
        """The recorded :class:`~core.engine.Outcome` of a finished game (None if the log
        has no end record); a format-1 end record's ``winner`` is read as one."""
        if self.end is None:
            return None
        if isinstance(self.end.get("result"), dict):
            return Outcome.from_wire(self.end["result"])
        w = str(self.end.get("winner") or "")
        if w == "-":
            return Outcome(True, (), True, "no-one-left", "")
        return Outcome(bool(w), tuple(w.split("+")) if w else (), False, "win" if w else "", "")


def reveals_of(r: Mapping[str, Any]) -> dict[str, Any]:
    """A record's reveals (format 1 kept them at the record's top level)."""
    got = r.get("reveals")
    if isinstance(got, dict):
        return got
    return {k: r[k] for k in _V1_REVEALS if r.get(k)}


def _ruleset_of(h: Mapping[str, Any]) -> Ruleset:
    """The header's ruleset at the header's rules version. Raises ``LogError`` in words."""
    name = h.get("ruleset")
    if name is None:
        raise LogError("the header names no ruleset (no `ruleset` key): not a log this "
                       "wizwar wrote, or a damaged one")
    try:
        rs = registry.get(str(name))
    except UnknownRuleset as exc:
        raise LogError(f"this log is of ruleset {name!r}, which this wizwar does not know "
                       f"({exc})") from None
    rv = h.get("rules_version")
    if rv != rs.version:
        raise LogError(f"this log was played with {rs.name} rules version {rv}; this wizwar "
                       f"has rules version {rs.version} and will not replay it with "
                       "other rules")
    return rs


def _check_header(h: Any) -> tuple[dict[str, Any], Ruleset, dict[str, Any]]:
    if not isinstance(h, dict) or h.get("format") != FORMAT:
        raise LogError("not a wizwar log (no wizwar-log header)")
    v = h.get("version")
    if not isinstance(v, int):
        raise LogError("the header has no format version")
    if v > FORMAT_VERSION:
        raise LogError(f"this log uses format version {v}, newer than this wizwar reads "
                       f"({FORMAT_VERSION}): update wizwar to read it")
    rs = _ruleset_of(h)
    key = "options" if v >= 2 else "config"
    for k in (key, "seed"):
        if k not in h:
            raise LogError(f"the header has no {k}")
    why = _bad_keys(h, _HEADER_KEYS[2 if v >= 2 else 1], (), "the header")
    if why:  # a flipped bit in a key or a type byte (a seed that is a float) must not pass
        raise LogError(why)
    try:
        if v >= 2:
            opts = rs.options.from_wire(h["options"])
        elif isinstance(h["config"], dict):
            opts = rs.options_from_legacy(h["config"])
        else:
            raise OptionError("the config is not a map")
    except OptionError as exc:
        raise LogError(f"the header's options are refused: {exc}") from None
    return h, rs, opts


#: The keys a header may carry, by format (1: before the seam; 2 and 3 alike), and their
#: types: the header is checked like every record (``_bad_keys``).
_HEADER_KEYS: dict[int, dict[str, type | tuple[type, ...]]] = {
    1: {"format": str, "version": int, "ruleset": str, "rules_version": int, "config": dict,
        "seed": (int, bytes, str), "kind": str, "viewer": str, "started": str,
        "extra": dict, "faces": list, "commits": list, "names": list},
    2: {"format": str, "version": int, "ruleset": str, "rules_version": int, "options": dict,
        "names": list, "seed": (int, bytes, str), "kind": str, "viewer": str, "started": str,
        "deal": object, "extra": dict},
}

#: The keys an action record may carry (format 1 also kept its reveals at the top level)
#: and the type each value must have; ``seq``, ``seat`` and ``action`` are always there.
_RECORD_KEYS: dict[str, type | tuple[type, ...]] = {
    "seq": int, "seat": str, "action": list, "hash": str, "reveals": dict,
    "pre": list, "reblind": list, "private": list, "sealed": list,
}
#: The keys of the end record and their types; ``end``, ``seq`` and ``hash`` are always there.
_END_KEYS: dict[str, type | tuple[type, ...]] = {
    "end": bool, "seq": int, "hash": str, "result": dict, "winner": str, "history": list,
    "openings": list,
}


def _bad_keys(r: dict[Any, Any], known: Mapping[str, type | tuple[type, ...]],
              needed: tuple[str, ...], what: str) -> str:
    """Why a record's keys or value types are not exactly the known ones ("" when they are):
    a flipped bit in a key leaves a key that no reader knows, which must not pass."""
    if not r.keys() <= known.keys():  # (one C-speed test for the usual case: every key known)
        unknown = sorted(repr(k) for k in r if k not in known)
        return f"{what} has unknown key(s) {', '.join(unknown)}"
    if not r.keys() >= set(needed):
        missing = [k for k in needed if k not in r]
        return f"{what} has no {', '.join(missing)}"
    for k, v in r.items():
        want = known[k]
        if not isinstance(v, want) or (v.__class__ is bool and want is not bool):
            return f"{what} has a {k} of the wrong type ({type(v).__name__})"  # (True: no int)
    return ""


def _good_record(rs: Ruleset, r: Any, seq: int) -> str:
    """Why record ``seq`` is not a good record ("" when it is): not a map, keys other than
    the known ones or values of the wrong type, out of sequence, a malformed action."""
    if not isinstance(r, dict):
        return "a record is not a map"
    if r.get("end") is True:
        return _bad_keys(r, _END_KEYS, ("end", "seq", "hash"), "the end record")
    if "end" in r:
        return f"record {seq} has an end key that is not true ({r['end']!r})"
    why = _bad_keys(r, _RECORD_KEYS, ("seq", "seat", "action"), f"action {seq}")
    if why:
        return why
    if r["seq"] != seq:
        return f"expected action {seq}, found {r['seq']!r}"
    try:
        a = _action_of(rs, r.get("action"))
    except ValueError as exc:
        return f"action {seq} is malformed: {exc}"
    actor = getattr(a, "actor", None)
    if actor is not None and actor != r["seat"]:
        return f"action {seq} is by {actor}, but its record says seat {r['seat']}"
    return ""


#: actions already decoded, by ruleset and the exact text of their wire form (a log decodes
#: each action twice, when it is read and when it is replayed; games repeat many actions).
#: Bounded.
_ACTIONS: dict[tuple[str, str], Any] = {}


def _action_of(rs: Ruleset, wire: Any) -> Any:
    """``rs.action_from_wire(wire)``, remembered. Raises ``ValueError`` like it."""
    key = (rs.name, repr(wire))
    got = _ACTIONS.get(key)
    if got is None:
        got = rs.action_from_wire(wire)
        if len(_ACTIONS) < 4096:
            _ACTIONS[key] = got
    return got


def _undecodable(exc: Exception, data: bytes, pos: int) -> str:
    """What is wrong with the bytes from ``pos`` that msgpack could not decode, in words and
    with the byte where it is (never Python's exception text: "'utf-8' codec can't decode
    byte 0xff in position 3: invalid start byte")."""
    if isinstance(exc, UnicodeDecodeError):
        at = data.find(bytes(exc.object), pos)
        where = f" at byte {at + exc.start}" if at >= 0 else ""
        return (f"a text in it is not valid UTF-8 (byte 0x{exc.object[exc.start]:02x}"
                f"{where}): the file is damaged there")
    if isinstance(exc, msgpack.ExtraData):
        return "it has bytes after its end"
    if isinstance(exc, ValueError) and "key" in str(exc).lower():
        return "a map in it has a key that is not a text: the file is damaged there"
    return f"the file is damaged at byte {pos} (no log holds what is there)"


def read(data: bytes) -> Loaded:
    """Read a log. A damaged tail (truncated, corrupt, out of order) is cut off: the log loads
    up to its last good record and ``damage`` says where and why it stopped.

    Raises ``LogError`` when the header itself is unusable (not a log, a newer format, other
    rules).
    """
    if not data:
        raise LogError("the file is empty")
    up = msgpack.Unpacker(raw=False, strict_map_key=True, max_buffer_size=max(len(data), 1))
    up.feed(data)
    try:
        h = up.unpack()
    except Exception as exc:  # noqa: BLE001 - any decoding failure means "no header"
        raise LogError(f"unreadable header at byte 0: {_undecodable(exc, data, 0)}") from None
    hdr, rs, opts = _check_header(h)
    out = Loaded(hdr, rs, opts)
    seq = 1
    while True:
        pos = up.tell()
        try:
            r = up.unpack()
        except msgpack.OutOfData:
            if pos < len(data):
                out.damage = (f"truncated record {seq} at byte {pos} "
                              f"({len(data) - pos} bytes of an incomplete record)")
            return out
        except Exception as exc:  # noqa: BLE001
            out.damage = f"corrupt record {seq} at byte {pos}: {_undecodable(exc, data, pos)}"
            return out
        why = _good_record(rs, r, seq)
        if why:
            out.damage = f"record {seq} at byte {pos}: {why}"
            return out
        if r.get("end") is True:
            out.end = r
            rest = len(data) - up.tell()
            if rest:
                out.damage = f"{rest} bytes after the end record at byte {up.tell()}"
            return out
        out.records.append(r)
        seq += 1


# ---- replay ----------------------------------------------------------------------------
@dataclass
class Replay:
    """A replay in progress: the ruleset, the state and the ruleset's replay dealer (None
    for a local game's log). :meth:`step` applies one record."""

    ruleset: Ruleset
    state: Any
    dealer: Any = None

    def step(self, r: Mapping[str, Any]) -> list[Event]:
        """Apply one record (its recorded reveals through the replay dealer) and check its
        stored hash; returns the action's events. Raises ``LogError``."""
        rs = self.ruleset
        action = _action_of(rs, r["action"])
        rev = reveals_of(r)
        try:
            if self.dealer is not None:
                self.dealer.before(self.state, rev)
            events = B.apply_with(rs, self.state, action, rev.get("beacon") or None)
            if self.dealer is not None:
                self.dealer.after(self.state, rev)
        except IllegalAction as exc:
            raise LogError(f"action {r['seq']} ({action}) is illegal here: "
                           f"{exc.reason}") from None
        except ChanceNeeded:
            raise LogError(f"action {r['seq']} ({action}) rolls, and the log holds no dice "
                           "reveals for it") from None
        except ValueError as exc:
            raise LogError(f"action {r['seq']} ({action}): {exc}") from None
        if "hash" in r and rs.state_hash(self.state) != r["hash"]:
            raise LogError(f"action {r['seq']} ({action}): the state hash is "
                           f"{rs.state_hash(self.state)}, the log says {r['hash']}")
        return events


def begin(loaded: Loaded, deal: Any = ..., state_wire: Any = None) -> Replay:
    """A replay from the log's start (its header), or from ``state_wire`` (a checkpoint's
    ``ruleset.state_to_wire``), with the ruleset's replay dealer for the header's deal (or
    ``deal``: an export's revealed deal). Raises ``LogError``."""
    deal = loaded.deal if deal is ... else deal
    rs = loaded.ruleset
    try:
        if state_wire is not None:
            st = rs.state_from_wire(state_wire)
        else:
            st = rs.new_game(loaded.options, loaded.seed, names=loaded.names, deal=deal)
            if _beaconed(loaded.header):
                B.beaconize(rs, st)  # a networked game's dice: each roll's reveals are logged
    except ValueError as exc:
        raise LogError(f"the game cannot start from this header: {exc}") from None
    rd = rs.replay_dealer(deal)
    if rd is not None:
        rd.attach(st)
    return Replay(rs, st, rd)


def _beaconed(h: Mapping[str, Any]) -> bool:
    """A networked game's header: its dice take logged beacon reveals (``extra.beacon``,
    the dice chains committed in the lobby)."""
    extra = h.get("extra")
    return isinstance(extra, dict) and bool(extra.get("beacon"))


def dice_of(r: Mapping[str, Any]) -> list[list[str]] | None:
    """A record's dice reveals (None when the action did not roll)."""
    got = reveals_of(r).get("beacon")
    return [[str(s), str(v)] for s, v in got] if got else None


def start_state(loaded: Loaded) -> Any:
    """The state a log starts from (:func:`begin`'s state)."""
    return begin(loaded).state


def replay(loaded: Loaded, upto: int | None = None) -> Any:
    """Replay the first ``upto`` actions (all by default), checking every stored hash and the
    end record; returns the state. Raises ``LogError`` at the first disagreement."""
    rp = begin(loaded)
    for r in loaded.records[:upto]:
        rp.step(r)
    h = loaded.ruleset.state_hash(rp.state)
    if upto is None and loaded.end is not None and h != loaded.end["hash"]:
        raise LogError(f"the final hash is {h}, the log's end record says "
                       f"{loaded.end['hash']}")
    if upto is None:
        check_result(loaded, rp.state)
        audit_sealed(loaded)
        if loaded.end is not None:
            audit_answers(loaded)
    return rp.state


def result_text(outcome: Outcome | None) -> str:
    """An outcome in words for a list or a header: ``P1 won`` (``P1+P3 won``, a team),
    ``a draw`` (the game's own word for it), ``no winner`` (over, no winner and no draw),
    ``unfinished`` (None, or a game not over)."""
    if outcome is None or not outcome.over:
        return "unfinished"
    if outcome.winners:
        return f"{'+'.join(outcome.winners)} won"
    return "a draw" if outcome.draw else "no winner"


def check_result(loaded: Loaded, state: Any) -> None:
    """The end record's ``result`` and ``winner`` against the outcome the rules give for
    ``state`` (the replayed final state): a log's result is never trusted, it is
    recomputed. A log with no end record passes. Raises :class:`ResultMismatch` (a
    ``LogError``) in words ("the end record says P3 won, but the game, replayed, ends with
    P1 won"), or ``LogError`` for a malformed result."""
    end = loaded.end
    if end is None:
        return
    res = loaded.ruleset.result(state)
    said: Outcome | None = None
    if isinstance(end.get("result"), dict):
        try:
            said = Outcome.from_wire(end["result"])
        except (KeyError, TypeError, ValueError):
            raise LogError("the end record's result is malformed") from None
        # (the ``text`` sentence is wording, not the result: it may be worded anew)
        if (said.over, said.winners, said.draw, said.how) != (res.over, res.winners,
                                                              res.draw, res.how):
            raise ResultMismatch(f"the end record says {result_text(said)}, but the "
                                 f"game, replayed, ends with {result_text(res)}", res)
    winner = "+".join(res.winners) or ("-" if res.draw else "")
    if "winner" in end and str(end["winner"]) != winner:
        w = str(end["winner"])
        said = Outcome(bool(w), tuple(w.split("+")) if w not in ("", "-") else (), w == "-")
        raise ResultMismatch(f"the end record says {result_text(said)}, but the game, "
                             f"replayed, ends with {result_text(res)}", res)


def _commit_of(wire: Any, salt: str) -> str:
    """The commitment to a whole action (``net.protocol.action_commitment``'s value)."""
    from core.engine import commitment

    return commitment(pack(wire).hex(), salt)


def openings(loaded: Loaded) -> dict[int, list[Any]]:
    """The end record's openings of the actions with sealed fields, by action number
    (``{}`` before the end or when none was sealed)."""
    got = (loaded.end or {}).get("openings") or []
    return {o[0]: o for o in got
            if isinstance(o, list) and len(o) == 3 and isinstance(o[0], int)}


def opened_action(loaded: Loaded, r: Mapping[str, Any]) -> Any:
    """The whole action of record ``r``: its own ``action``, or, for the public form of an
    action whose fields were sealed to this log's writer (``sealed`` holds the commitment
    only), the end record's opening of it once it opens that commitment."""
    sealed = r.get("sealed") or []
    if len(sealed) == 1:
        o = openings(loaded).get(r["seq"])
        if o is not None and isinstance(o[2], str) and _commit_of(o[1], o[2]) == sealed[0]:
            return o[1]
    return r["action"]


def audit_answers(loaded: Loaded) -> None:
    """The end's audit of the answers owners gave about their secrets: replay the game with
    every sealed action opened (:func:`opened_action`), and at each ``reveal`` stage ask the
    rules for the holder's answer (``Ruleset.answer``, from the secrets now known) and
    compare it with the action logged. A game whose ruleset has no owner-held secret passes.
    Raises ``LogError`` naming the seat and the action of the first lie (or of an answer the
    opened secrets cannot give: a secret not opened)."""
    rs = loaded.ruleset
    if not any(s.holder == "owner" for s in rs.secrets):
        return
    rp = begin(loaded)
    for r in loaded.records:
        wire = opened_action(loaded, r)
        stage = rs.stage(rp.state)
        if stage.kind == "reveal" and stage.holder:
            try:
                due = rs.audit_answer(rp.state, stage.holder, wire)
            except ValueError as exc:
                raise LogError(f"action {r['seq']}: {stage.holder}'s answer cannot be "
                               f"checked: {exc}") from None
            if due.to_wire() != wire:
                raise LogError(
                    f"{stage.holder} lied at action {r['seq']}: it answered "
                    f"'{_action_of(rs, wire)}', but its secret, opened at the end, gives "
                    f"'{due}'")
        rp.step({**r, "action": wire})


def audit_sealed(loaded: Loaded) -> None:
    """The end's audit of a finished networked log's sealed actions (``Ruleset.seal``):
    every record's ``sealed`` commitment is opened by the end record's ``openings`` with an
    action of the same seat (the whole action the writer held, when it held it). A game
    not finished, or without sealed actions, passes. Raises ``LogError`` naming the action.
    """
    if loaded.end is None:
        return
    rs, opened = loaded.ruleset, openings(loaded)
    for r in loaded.records:
        sealed = r.get("sealed") or []
        if not sealed:
            continue
        o = opened.get(r["seq"])
        if o is None or not isinstance(o[2], str):
            raise LogError(f"action {r['seq']} was sealed and the end record does not open it")
        if _commit_of(o[1], o[2]) != sealed[0] or (len(sealed) == 2 and o[1] != r["action"]):
            raise LogError(f"action {r['seq']}'s opening does not match its commitment")
        try:
            actor = getattr(_action_of(rs, o[1]), "actor", r["seat"])
        except ValueError as exc:
            raise LogError(f"action {r['seq']} opens to no action: {exc}") from None
        if actor != r["seat"]:
            raise LogError(f"action {r['seq']} opens to an action of {actor}, not "
                           f"{r['seat']}")


@dataclass
class Checkpoints:
    """States every ``every`` actions, so seeking in a long game is instant (the replay
    screen). ``at(n)`` replays at most ``every - 1`` actions from the nearest checkpoint."""

    loaded: Loaded
    every: int = 50
    saved: dict[int, Any] = field(default_factory=dict)

    def build(self) -> None:
        """Replay the whole log once, keeping a checkpoint every ``every`` actions."""
        rp = begin(self.loaded)
        rs = self.loaded.ruleset
        self.saved[0] = rs.state_to_wire(rp.state)
        for i, r in enumerate(self.loaded.records, 1):
            rp.step(r)
            if i % self.every == 0:
                self.saved[i] = rs.state_to_wire(rp.state)

    def replay_at(self, n: int) -> Replay:
        """A replay standing after ``n`` actions (0 = the start), to step on from."""
        if not self.saved:
            self.build()
        n = max(0, min(n, len(self.loaded.records)))
        base = max(k for k in self.saved if k <= n)
        rp = begin(self.loaded, state_wire=self.saved[base])
        for r in self.loaded.records[base:n]:
            rp.step(r)
        return rp

    def at(self, n: int) -> Any:
        """The state after ``n`` actions (0 = the start)."""
        return self.replay_at(n).state


# ---- export ----------------------------------------------------------------------------
def _opt_text(v: Any) -> str:
    return str(int(v)) if isinstance(v, bool) else str(v)


def export_text(loaded: Loaded, seen_as: str | None = None) -> str:
    """The game as plain text: a header of ``key value`` lines (the ruleset and its version,
    one ``option NAME VALUE`` line per option, the seats' names, the seed; for a networked
    game the ruleset's lines of the revealed deal), then one action per line in the notation,
    with the ruleset's turn markers as ``#`` comments. :func:`parse_text` reads it back; it
    replays alone. Raises ``LogError`` for a networked game whose deal is not revealed yet
    (before its end).

    ``seen_as`` (a seat, or ``""`` for a watcher): every action the ruleset seals
    (:meth:`~core.engine.Ruleset.seal`: a target its owner keeps hidden) that this seat did
    not know whole is written in its public form (the ruleset's ``public``), with a comment
    saying so: the export of a game still in progress then tells no more than the player
    knows (as the replay "seen as" does). Such a text replays only up to its first hidden
    action. None: everything (a finished game, or ``wizwar export --all``)."""
    rs, h = loaded.ruleset, loaded.header
    lines = [f"{EXPORT} {EXPORT_VERSION}", f"ruleset {rs.name} {rs.version}"]
    lines += [f"option {k} {_opt_text(v)}" for k, v in loaded.options.items()]
    if loaded.names:
        lines.append("names " + " ".join(
            f"P{i + 1}={n.replace(' ', '_')}" for i, n in enumerate(loaded.names)))
    seed = loaded.seed
    lines.append(f"seed int {seed}" if isinstance(seed, int) else f"seed hex {seed.hex()}")
    records = [dict(r, reveals=reveals_of(r)) for r in loaded.records]
    try:
        deal_lines, deal = rs.export_deal(loaded.deal, records, loaded.end)
    except ValueError as exc:
        raise LogError(str(exc)) from None
    lines += deal_lines
    if _beaconed(h):  # networked dice: every roll's reveals (core/beacon.py)
        lines.append("dice beacon")
        for r in loaded.records:
            dice = dice_of(r)
            if dice:
                lines.append(f"dice {r['seq']} " + " ".join(f"{s}={v}" for s, v in dice))
    opened = openings(loaded)
    for r in loaded.records:  # sealed actions: the commitment, and the salt when known
        sealed = r.get("sealed") or []
        if sealed:
            o = opened.get(r["seq"])
            salt = sealed[1] if len(sealed) == 2 else (
                o[2] if o is not None and opened_action(loaded, r) is o[1] else "")
            lines.append(f"sealed {r['seq']} {sealed[0]}" + (f" {salt}" if salt else ""))
    if h.get("started"):
        lines.append(f"# started {h['started']}")
    rp = begin(loaded, deal=deal)
    st = rp.state
    turn = rs.describe_turn(st)
    if turn:
        lines.append(f"# {turn} begins")
    if seen_as is not None:
        lines.append(f"# seen as {seen_as or 'a watcher'}: the game is not over, what "
                     f"{seen_as or 'a watcher'} did not know is hidden (`wizwar export --all` "
                     "shows it)")
    for r in loaded.records:
        a = _action_of(rs, opened_action(loaded, r))  # a sealed action, opened at the end
        shown: Any = a
        if seen_as is not None:
            try:
                got = rs.seen_by_others(st, a)
            except ValueError:
                got = None
            if got is not None and seen_as not in got.knows:
                shown = got.public
                lines.append(f"# hidden from {seen_as or 'a watcher'}: action {r['seq']} "
                             "in its public form")
        try:
            B.apply_with(rs, st, a, dice_of(r))
        except IllegalAction as exc:
            raise LogError(f"action {r['seq']} does not replay: {exc.reason}") from None
        except ChanceNeeded:
            raise LogError(f"action {r['seq']} rolls, and the log holds no dice reveals "
                           "for it") from None
        except ValueError as exc:
            raise LogError(f"action {r['seq']} does not replay: {exc}") from None
        lines.append(str(shown))
        now = rs.describe_turn(st)
        if now != turn and not rs.result(st).over and rs.to_move(st):
            lines.append(f"# {now}")
        turn = now
    res = rs.result(st)
    if res.over:
        lines.append(f"# {res.text or 'game over'}")
    return "\n".join(lines) + "\n"


@dataclass
class TextGame:
    """A game read from export text: its ruleset, how to start it and its actions.

    ``dice`` (a networked game's, ``None`` for a local one): per action number, the dice
    reveals ``[[seat, hex], ...]`` of an action that rolls (core/beacon.py); apply the
    actions with :meth:`step`, which feeds them."""

    ruleset: Ruleset
    options: dict[str, Any]
    seed: int | bytes
    names: tuple[str, ...]
    deal: Any
    actions: list[Any]
    dice: dict[int, list[list[str]]] | None = None
    damage: str = ""  # where and why reading the action lines stopped ("" when all read)
    sealed: dict[int, tuple[str, str]] = field(default_factory=dict)  # seq -> (commit, salt)

    def step(self, state: Any, i: int) -> list[Event]:
        """Apply action ``i`` (0-based) to ``state``, with its dice reveals if it rolls.
        A sealed action whose ``sealed`` line gives the salt must open its commitment (the
        whole action); one without the salt is the public form, applied as it is. Raises
        ``IllegalAction``, or ``LogError`` when it rolls and the text has no dice line for
        it, or when the action does not open its commitment."""
        seal = self.sealed.get(i + 1)
        if seal is not None and seal[1] and \
                _commit_of(self.actions[i].to_wire(), seal[1]) != seal[0]:
            raise LogError(f"action {i + 1} ({self.actions[i]}) does not open its "
                           f"commitment {seal[0]} with the salt given")
        try:
            return B.apply_with(self.ruleset, state, self.actions[i],
                                (self.dice or {}).get(i + 1))
        except ChanceNeeded:
            raise LogError(f"action {i + 1} ({self.actions[i]}) rolls, and the text holds no "
                           "dice line for it") from None

    def begin(self) -> Replay:
        """A replay at the start (the ruleset's replay dealer for the text's deal)."""
        import copy

        deal = copy.deepcopy(self.deal)  # the game mutates what it is handed
        st = self.ruleset.new_game(self.options, self.seed, names=self.names, deal=deal)
        if self.dice is not None:
            B.beaconize(self.ruleset, st)
        rd = self.ruleset.replay_dealer(deal)
        if rd is not None:
            rd.attach(st)
        return Replay(self.ruleset, st, rd)

    def start(self) -> Any:
        """The starting state."""
        return self.begin().state


def parse_text(text: str) -> TextGame:
    """Read export text (see :func:`export_text`; the Wiz-War text of export version 1 too).
    A damaged action part (a line no game writes, an action that does not parse) is cut
    there, as a log's damaged tail is: ``TextGame.damage`` says the line and why, the
    actions before it are kept. Raises ``LogError`` with the line number for a bad header
    line (before the first action)."""
    lines = text.splitlines()
    first = lines[0].strip() if lines else ""
    fmt, _, ver = first.partition(" ")
    if fmt != EXPORT or ver not in ("1", str(EXPORT_VERSION)):
        raise LogError(f"not a wizwar export (first line should be "
                       f"'{EXPORT} {EXPORT_VERSION}')")
    kv: dict[str, str] = {}
    opts: dict[str, str] = {}
    legacy: dict[str, str] = {}
    deal_lines: list[tuple[int, str, str]] = []
    acts: list[tuple[int, str]] = []
    dice: dict[int, list[list[str]]] | None = None
    sealed: dict[int, tuple[str, str]] = {}
    rs: Ruleset | None = None
    damage = ""
    for n, raw in enumerate(lines[1:], 2):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        word, _, rest = line.partition(" ")
        if word == "ruleset":
            kv[word] = rest
            with contextlib.suppress(UnknownRuleset):
                rs = registry.get(rest.partition(" ")[0])
        elif word in ("names", "seed"):
            kv[word] = rest
        elif word == "dice":
            dice = {} if dice is None else dice
            parts = rest.split()
            if parts != ["beacon"]:
                try:
                    dice[int(parts[0])] = [p.split("=", 1) for p in parts[1:]]
                except (IndexError, ValueError):
                    raise LogError(f"line {n}: a dice line is 'dice SEQ P1=hex ...'") from None
                if not all(len(x) == 2 for x in dice[int(parts[0])]):
                    raise LogError(f"line {n}: a dice line is 'dice SEQ P1=hex ...'")
        elif word == "option":
            k, _, v = rest.partition(" ")
            opts[k] = v
        elif word == "sealed":
            parts = rest.split()
            if not (len(parts) in (2, 3) and parts[0].isdigit()):
                raise LogError(f"line {n}: a sealed line is 'sealed SEQ COMMITMENT [SALT]'")
            sealed[int(parts[0])] = (parts[1], parts[2] if len(parts) == 3 else "")
        elif word in ("players", "deck", "crossed", "doors", "team") and ver == "1":
            legacy[word] = rest
        elif rs is not None and word in rs.deal_words():
            deal_lines.append((n, word, rest))
        elif word[:1].isupper() and word[1:].isdigit():
            acts.append((n, line))
        elif acts:  # a damaged action part: the actions before it still replay
            damage = f"line {n}: unknown line {word!r}"
            break
        else:
            raise LogError(f"line {n}: unknown line {word!r}")
    if "ruleset" not in kv:
        raise LogError("the header lines are incomplete: no ruleset line")
    name, _, rv = kv["ruleset"].partition(" ")
    if rs is None:
        raise LogError(f"the text is for {name!r}, a game this wizwar does not know "
                       f"(it plays {', '.join(registry.names())})")
    if rv.strip() != str(rs.version):
        raise LogError(f"the text is for {name} rules {rv}, this wizwar has "
                       f"{rs.name} {rs.version}")
    try:
        if ver == "1":
            options = rs.options_from_legacy(legacy)
        else:
            options = rs.options.validate(opts)
    except OptionError as exc:
        raise LogError(f"the options are refused: {exc}") from None
    try:
        names = tuple(p.split("=", 1)[1].replace("_", " ")
                      for p in kv.get("names", "").split() if "=" in p)
        kind, _, val = kv["seed"].partition(" ")
        seed: int | bytes = int(val) if kind == "int" else bytes.fromhex(val)
    except (KeyError, ValueError) as exc:
        raise LogError(f"the header lines are incomplete: {exc}") from None
    actions = []
    for n, line in acts:
        try:
            actions.append(rs.parse_action(line))
        except ValueError as exc:  # the actions before it still replay, as a log's do
            damage = f"line {n}: {exc}"
            break
    try:
        deal = rs.parse_deal(deal_lines)
    except ValueError as exc:
        raise LogError(str(exc)) from None
    return TextGame(rs, options, seed, names, deal, actions, dice, damage, sealed)
