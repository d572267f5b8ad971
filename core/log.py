"""Game logs: the format, reading with damage tolerance, replay and export (docs/log-format.md).

A log is a msgpack stream: one header map, then one record per action, then (when the game
ended) an end record. Everything here is pure: bytes in, values out; the caller opens files
(the app autosaves under the user data folder, flushing after every record).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import msgpack

from core.codec import pack
from core.engine import Event, IllegalAction, Ruleset
from core.wizwar.actions import Action, NotationError
from core.wizwar.game import RULES_VERSION, RULESET, GameConfig, new_game
from core.wizwar.rules import apply, to_move
from core.wizwar.state import State, commitment, state_hash

FORMAT = "wizwar-log"
FORMAT_VERSION = 1
HASH_EVERY = 10  # a record carries the state hash every HASH_EVERY actions (and the last)


class LogError(ValueError):
    """A log that cannot be used (newer format, other rules) or a replay that disagrees."""


# ---- writing ---------------------------------------------------------------------------
def header(config: Any, seed: Any, *rest: Any, kind: str = "local", viewer: str = "",
           faces: list[str] | None = None, commits: list[str] | None = None,
           started: str = "", extra: dict[str, Any] | None = None,
           names: tuple[str, ...] | list[str] = ()) -> dict[str, Any]:
    """The header map. ``faces``/``commits`` for networked games (``""`` for faces the
    writer did not know at the start); ``started`` is metadata only (never replayed).

    Also takes the agreed game-agnostic form ``header(ruleset, options, seed, ...)``
    (``core.session.LocalSession`` writes it; a bridge until this module is generic)."""
    if isinstance(config, Ruleset):
        config, seed = config.config(seed, names), rest[0]  # type: ignore[attr-defined]
    h: dict[str, Any] = {
        "format": FORMAT, "version": FORMAT_VERSION, "ruleset": RULESET,
        "rules_version": RULES_VERSION, "config": config.to_wire(), "seed": seed,
        "kind": kind, "viewer": viewer, "started": started,
    }
    if faces is not None:
        h["faces"] = list(faces)
    if commits:
        h["commits"] = list(commits)
    if extra:
        h["extra"] = extra
    return h


def record(seq: Any, action: Any, state: Any = None, *rest: Any, force_hash: bool = False,
           reveals: dict[str, Any] | None = None) -> dict[str, Any]:
    """One action record; with ``state`` (after the action) the hash is stored every
    :data:`HASH_EVERY` actions or when ``force_hash``. ``reveals`` (networked games): the
    ``pre``/``reblind``/``private`` lists that came with the action. Also takes the agreed
    form ``record(ruleset, seq, action, state)``."""
    if isinstance(seq, Ruleset):
        seq, action, state = action, state, (rest[0] if rest else None)
    r: dict[str, Any] = {"seq": seq, "seat": action.actor, "action": action.to_wire()}
    if state is not None and (force_hash or seq % HASH_EVERY == 0):
        r["hash"] = state_hash(state)
    if reveals:
        for k in ("pre", "reblind", "private"):
            if reveals.get(k):
                r[k] = reveals[k]
    return r


def end_record(state: Any, history: Any = None, *rest: Any) -> dict[str, Any]:
    """The last record: the final hash and result (and a networked game's audit history).
    Also takes the agreed form ``end_record(ruleset, state, history)``."""
    if isinstance(state, Ruleset):
        state, history = history, (rest[0] if rest else None)
    r: dict[str, Any] = {"end": True, "seq": state.seq, "hash": state_hash(state),
                         "winner": state.winner}
    if history:
        r["history"] = history
    return r


def encode(obj: dict[str, Any]) -> bytes:
    """One header or record as canonical msgpack bytes."""
    return pack(obj)


# ---- reading ---------------------------------------------------------------------------
@dataclass
class Loaded:
    """A log as read: the header, the good records, and where/why reading stopped early."""

    header: dict[str, Any]
    records: list[dict[str, Any]] = field(default_factory=list)
    end: dict[str, Any] | None = None
    damage: str = ""  # "" when the whole file was read

    @property
    def actions(self) -> list[Action]:
        """The actions in order."""
        return [Action.from_wire(r["action"]) for r in self.records]


def _check_header(h: Any) -> dict[str, Any]:
    if not isinstance(h, dict) or h.get("format") != FORMAT:
        raise LogError("not a wizwar log (no wizwar-log header)")
    v = h.get("version")
    if not isinstance(v, int):
        raise LogError("the header has no format version")
    if v > FORMAT_VERSION:
        raise LogError(f"this log uses format version {v}, newer than this wizwar reads "
                       f"({FORMAT_VERSION}): update wizwar to read it")
    if h.get("ruleset") != RULESET:
        raise LogError(f"this log is of ruleset {h.get('ruleset')!r}, not {RULESET}")
    rv = h.get("rules_version")
    if rv != RULES_VERSION:
        raise LogError(f"this log was played with {RULESET} rules version {rv}; this wizwar "
                       f"has rules version {RULES_VERSION} and will not replay it with "
                       "other rules")
    for k in ("config", "seed"):
        if k not in h:
            raise LogError(f"the header has no {k}")
    return h


def _good_record(r: Any, seq: int) -> str:
    if not isinstance(r, dict):
        return "a record is not a map"
    if r.get("end") is True:
        return "" if isinstance(r.get("hash"), str) else "the end record has no hash"
    if r.get("seq") != seq:
        return f"expected action {seq}, found {r.get('seq')!r}"
    try:
        _action_of(r.get("action"))
    except NotationError as exc:
        return f"action {seq} is malformed: {exc}"
    if "hash" in r and not isinstance(r["hash"], str):
        return f"action {seq} has a malformed hash"
    return ""


#: actions already decoded, by the exact text of their wire form (a log decodes each action
#: twice, when it is read and when it is replayed; games repeat many actions). Bounded.
_ACTIONS: dict[str, Action] = {}


def _action_of(wire: Any) -> Action:
    """``Action.from_wire(wire)``, remembered. Raises ``NotationError`` like it."""
    key = repr(wire)
    got = _ACTIONS.get(key)
    if got is None:
        got = Action.from_wire(wire)
        if len(_ACTIONS) < 4096:
            _ACTIONS[key] = got
    return got


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
        raise LogError(f"unreadable header: {exc}") from None
    out = Loaded(_check_header(h))
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
            out.damage = f"corrupt record {seq} at byte {pos}: {type(exc).__name__} {exc}"
            return out
        why = _good_record(r, seq)
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
class ReplayDealer:
    """Re-blinds reshuffled cards from a networked log's recorded commitments."""

    def __init__(self) -> None:
        self.pending: list[dict[str, Any]] = []

    def reblind(self, state: State, cids: list[int]) -> None:
        """Take the recorded new commitments (and any faces revealed with them)."""
        if not self.pending or self.pending[0].get("cids") != cids:
            raise LogError("the log's reshuffle record does not match the replay")
        rec = self.pending.pop(0)
        for c, com in zip(cids, rec["commits"], strict=True):
            state.faces[c] = ""
            state.commits[c] = com
        for c, f in zip(cids, rec.get("faces", []), strict=False):
            if f:
                state.faces[c] = f
        reveal_all(state, rec.get("public", []))


def reveal_all(state: State, reveals: list[Any]) -> None:
    """Apply ``[cid, face, salt]`` reveals (checked against the commitments)."""
    for cid, face, salt in reveals:
        if state.commits and commitment(face, salt) != state.commits[cid]:
            raise LogError(f"a recorded reveal of card {cid} does not open its commitment")
        state.faces[cid] = face


def start_state(h: dict[str, Any]) -> State:
    """The state a log starts from (its header)."""
    c = h["config"]
    cfg = GameConfig(players=int(c["players"]), names=tuple(c.get("names", ())),
                     deck=str(c.get("deck", "full")), crossed=bool(c.get("crossed", 0)),
                     doors=bool(c.get("doors", 0)), team=bool(c.get("team", 0)))
    faces = h.get("faces")
    st = new_game(cfg, h["seed"], faces=list(faces) if faces is not None else None,
                  commits=h.get("commits"))
    if h.get("commits"):
        st.dealer = ReplayDealer()
    return st


def step(state: State, r: dict[str, Any]) -> list[Event]:
    """Apply one record to ``state`` and check its stored hash; returns the action's events.
    Raises ``LogError``."""
    action = _action_of(r["action"])
    if state.dealer is not None:
        reveal_all(state, r.get("pre", []))
        state.dealer.pending = list(r.get("reblind", []))
    try:
        events = apply(state, action)
    except IllegalAction as exc:
        raise LogError(f"action {r['seq']} ({action}) is illegal here: {exc.reason}") from None
    if state.dealer is not None:
        reveal_all(state, r.get("private", []))
    if "hash" in r and state_hash(state) != r["hash"]:
        raise LogError(f"action {r['seq']} ({action}): the state hash is "
                       f"{state_hash(state)}, the log says {r['hash']}")
    return events


def replay(loaded: Loaded, upto: int | None = None) -> State:
    """Replay the first ``upto`` actions (all by default), checking every stored hash and the
    end record. Raises ``LogError`` at the first disagreement."""
    st = start_state(loaded.header)
    for r in loaded.records[:upto]:
        step(st, r)
    if upto is None and loaded.end is not None and state_hash(st) != loaded.end["hash"]:
        raise LogError(f"the final hash is {state_hash(st)}, the log's end record says "
                       f"{loaded.end['hash']}")
    return st


@dataclass
class Checkpoints:
    """States every ``every`` actions, so seeking in a long game is instant (the replay
    screen). ``at(n)`` replays at most ``every - 1`` actions from the nearest checkpoint."""

    loaded: Loaded
    every: int = 50
    saved: dict[int, dict[str, Any]] = field(default_factory=dict)

    def build(self) -> None:
        """Replay the whole log once, keeping a checkpoint every ``every`` actions."""
        st = start_state(self.loaded.header)
        self.saved[0] = st.to_wire()
        for i, r in enumerate(self.loaded.records, 1):
            step(st, r)
            if i % self.every == 0:
                self.saved[i] = st.to_wire()

    def at(self, n: int) -> State:
        """The state after ``n`` actions (0 = the start)."""
        if not self.saved:
            self.build()
        n = max(0, min(n, len(self.loaded.records)))
        base = max(k for k in self.saved if k <= n)
        st = State.from_wire(self.saved[base])
        if self.loaded.header.get("commits"):
            st.dealer = ReplayDealer()
        for r in self.loaded.records[base:n]:
            step(st, r)
        return st


# ---- export ----------------------------------------------------------------------------
def export_text(loaded: Loaded) -> str:
    """The game as plain text: a header of ``key value`` lines (ruleset, options, seats, seed;
    for a networked game the revealed deal), then one action per line in the notation, with
    turn markers as ``#`` comments. :func:`parse_text` reads it back; it replays alone.
    Raises ``LogError`` for a networked game whose deal is not revealed yet (before its end).
    """
    h = loaded.header
    c = h["config"]
    lines = ["wizwar-export 1", f"ruleset {h['ruleset']} {h['rules_version']}",
             f"players {c['players']}", f"deck {c.get('deck', 'full')}",
             f"crossed {int(c.get('crossed', 0))}", f"doors {int(c.get('doors', 0))}",
             f"team {int(c.get('team', 0))}"]
    names = c.get("names", [])
    if names:
        lines.append("names " + " ".join(
            f"P{i + 1}={n.replace(' ', '_')}" for i, n in enumerate(names)))
    seed = h["seed"]
    lines.append(f"seed int {seed}" if isinstance(seed, int) else f"seed hex {seed.hex()}")
    if h.get("commits"):
        faces = _deal_faces(loaded)
        if faces is None:
            raise LogError("a joined game's deal is revealed only at its end (the host's own "
                           "log can be exported at any time)")
        lines.append("deal " + " ".join(faces))
        k = 0
        reblinds = _reblinds_from(loaded)
        for r in loaded.records:
            for rb in r.get("reblind", []):
                got = reblinds[k]
                k += 1
                lines.append(f"reblind {r['seq']} " + " ".join(
                    f"{cid}={got.get(cid, '?')}" for cid in rb["cids"]))
    if h.get("started"):
        lines.append(f"# started {h['started']}")
    st = start_state({**h, "commits": None, "faces": _deal_faces(loaded)})
    st.dealer = _TextDealer(_reblinds_from(loaded)) if h.get("commits") else None
    lines.append(f"# round {st.round}, {st.turn.active} begins")
    for r in loaded.records:
        a = Action.from_wire(r["action"])
        before = (st.round, st.turn.active)
        try:
            apply(st, a)
        except IllegalAction as exc:
            raise LogError(f"action {r['seq']} does not replay: {exc.reason}") from None
        lines.append(str(a))
        after = (st.round, st.turn.active)
        if after != before and not st.winner and to_move(st):
            lines.append(f"# round {st.round}, {st.turn.active}'s turn")
    if st.winner:
        lines.append(f"# {st.winner} wins")
    return "\n".join(lines) + "\n"


def _deal_faces(loaded: Loaded) -> list[str] | None:
    """Every instance's face at the deal: the header's (local games, and the host, who knows
    them all), else the audit history of a finished networked game; None if unknown."""
    faces = loaded.header.get("faces")
    if not loaded.header.get("commits") or (faces and all(faces)):
        return faces
    hist = (loaded.end or {}).get("history") or []
    if not hist:
        return None
    first = sorted((x for x in hist if x[3] == 0), key=lambda x: x[0])
    return [x[1] for x in first]


def _reblinds_from(loaded: Loaded) -> list[dict[int, str]]:
    hist = (loaded.end or {}).get("history") or []
    out = []
    for r in loaded.records:
        for rb in r.get("reblind", []):
            if rb.get("faces"):  # the host's log carries them
                out.append(dict(zip(rb["cids"], rb["faces"], strict=False)))
                continue
            faces = {x[0]: x[1] for x in hist
                     if x[0] in rb["cids"] and commitment(x[1], x[2]) in rb["commits"]}
            out.append(faces)
    return out


class _TextDealer:
    """Replays a revealed deal's reshuffles: the faces each reshuffled card was dealt."""

    def __init__(self, reblinds: list[dict[int, str]]) -> None:
        self.reblinds = list(reblinds)

    def reblind(self, state: State, cids: list[int]) -> None:
        if not self.reblinds:
            raise LogError("the text has fewer reshuffles than the game")
        faces = self.reblinds.pop(0)
        if sorted(faces) != sorted(cids):
            raise LogError("a reshuffle in the text does not match the game")
        for c in cids:
            state.faces[c] = faces[c]


@dataclass
class TextGame:
    """A game read from export text: how to start it and its actions."""

    config: GameConfig
    seed: int | bytes
    faces: list[str] | None
    reblinds: list[dict[int, str]]
    actions: list[Action]

    def start(self) -> State:
        """The starting state."""
        faces = None if self.faces is None else list(self.faces)  # the game mutates its own
        st = new_game(self.config, self.seed, faces=faces)
        if self.reblinds:
            st.dealer = _TextDealer([dict(r) for r in self.reblinds])
        return st


def parse_text(text: str) -> TextGame:
    """Read export text (see :func:`export_text`). Raises ``LogError`` with the line number."""
    from core.wizwar.actions import parse

    kv: dict[str, str] = {}
    reblinds: list[dict[int, str]] = []
    actions: list[Action] = []
    lines = text.splitlines()
    if not lines or lines[0].strip() != "wizwar-export 1":
        raise LogError("not a wizwar export (first line should be 'wizwar-export 1')")
    for n, raw in enumerate(lines[1:], 2):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        word, _, rest = line.partition(" ")
        if word.startswith("P") and word[1:].isdigit():
            try:
                actions.append(parse(line))
            except NotationError as exc:
                raise LogError(f"line {n}: {exc}") from None
        elif word == "reblind":
            parts = rest.split()
            reblinds.append({int(p.split("=")[0]): p.split("=")[1] for p in parts[1:]})
        elif word in ("ruleset", "players", "deck", "crossed", "doors", "team", "names", "seed",
                      "deal"):
            kv[word] = rest
        else:
            raise LogError(f"line {n}: unknown line {word!r}")
    try:
        rs, rv = kv["ruleset"].split()
        if rs != RULESET or int(rv) != RULES_VERSION:
            raise LogError(f"the text is for {rs} rules {rv}, this wizwar has "
                           f"{RULESET} {RULES_VERSION}")
        names = tuple(p.split("=", 1)[1].replace("_", " ")
                      for p in kv.get("names", "").split() if "=" in p)
        cfg = GameConfig(players=int(kv["players"]), names=names, deck=kv.get("deck", "full"),
                         crossed=kv.get("crossed", "0") == "1", doors=kv.get("doors", "0") == "1",
                         team=kv.get("team", "0") == "1")
        kind, _, val = kv["seed"].partition(" ")
        seed: int | bytes = int(val) if kind == "int" else bytes.fromhex(val)
    except (KeyError, ValueError) as exc:
        raise LogError(f"the header lines are incomplete: {exc}") from None
    faces = kv["deal"].split() if "deal" in kv else None
    return TextGame(cfg, seed, faces, reblinds, actions)
