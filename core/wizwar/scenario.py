"""Rules-conformance scenarios (notation.md, "Scenario files").

A scenario is a TOML file: a board, the players, hands, forced dice/picks/reshuffles, a list
of steps in action notation (``!`` = must be refused, state unchanged) and expected values.
:func:`run_file` never raises: a scenario that cannot be loaded is a FAIL that says why.
"""

from __future__ import annotations

import os
import re
import tomllib
from dataclasses import dataclass
from typing import Any

from core.engine import IllegalAction
from core.rng import Rng
from core.scenario import collect  # the one folder walk, shared by every game (core/scenario.py)
from core.wizwar import cards as C
from core.wizwar import rules
from core.wizwar.actions import NotationError, parse
from core.wizwar.board import parse_edge, parse_square, square_name
from core.wizwar.state import (
    DOOR_HP,
    WALL_HP,
    Condition,
    EdgeState,
    Script,
    ScriptExhausted,
    State,
    Turn,
    Wizard,
    build_layout,
    state_hash,
)

TOP_KEYS = {"title", "source", "deck", "dice", "reshuffles", "picks", "seed", "steps", "board",
            "players", "objects", "turn", "check", "expect", "options"}
OPTION_KEYS = {"team", "doors"}
PLAYER_KEYS = {"at", "life", "home", "treasures", "hand", "carrying", "lost_turns",
               "conditions", "displayed"}
BOARD_KEYS = {"size", "walls", "doors", "exits", "door_hp", "wall_hp", "bushes", "sectors",
              "rotations"}
TURN_KEYS = {"active", "first", "round", "moves_used", "attacked"}


class ScenarioError(ValueError):
    """A scenario file that cannot be loaded."""


@dataclass
class Outcome:
    """The result of one scenario: ``ok``, its title and what differed."""

    path: str
    title: str
    ok: bool
    detail: str = ""

    def line(self) -> str:
        """``PASS title`` or ``FAIL title: what differed``."""
        return f"PASS {self.title}" if self.ok else f"FAIL {self.title}: {self.detail}"


def _need(cond: bool, msg: str) -> None:
    if not cond:
        raise ScenarioError(msg)


def _int(value: Any, what: str, low: int = 0) -> int:
    """An integer setup value >= ``low``, or a ScenarioError naming it."""
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise ScenarioError(f"{what} must be an integer >= {low}, got {value!r}")
    return value


def _bool(value: Any, what: str) -> bool:
    if not isinstance(value, bool):
        raise ScenarioError(f"{what} must be true or false, got {value!r}")
    return value


def build_state(doc: dict[str, Any]) -> State:
    """Build the starting state of a scenario document. Raises ``ScenarioError``."""
    unknown = set(doc) - TOP_KEYS
    _need(not unknown, f"unknown key(s) {sorted(unknown)}")
    board = doc.get("board", {})
    _need(isinstance(board, dict), "[board] must be a table")
    unknown = set(board) - BOARD_KEYS
    _need(not unknown, f"unknown [board] key(s) {sorted(unknown)}")
    spec: dict[str, Any] = {"kind": "open", "size": board.get("size", "9x9"),
                            "walls": list(board.get("walls", [])),
                            "doors": list(board.get("doors", [])),
                            "exits": [list(p) for p in board.get("exits", [])]}
    if "sectors" in board:  # the real board from sector designs (docs/scenarios.md)
        _need(not set(board) & {"size", "walls", "doors", "exits"},
              "[board] sectors cannot be mixed with size, walls, doors or exits")
        ids = [str(x) for x in board["sectors"]]
        spec = {"kind": "sectors", "players": len(ids), "sectors": ids, "crossed": 0,
                "rotations": [_int(r, "a rotation") % 4
                              for r in board.get("rotations", [0] * len(ids))]}
    try:
        layout = build_layout(spec)
    except (ValueError, KeyError) as exc:
        raise ScenarioError(f"bad board: {exc}") from exc
    faces: list[str] = []

    def new_card(slug: str) -> int:
        slug = str(slug)
        if slug not in C.BY_SLUG:
            raise ScenarioError(f"unknown card {slug!r}")
        faces.append(slug)
        return len(faces) - 1

    players = doc.get("players", [])
    _need(isinstance(players, list) and 1 <= len(players) <= 6, "1 to 6 [[players]] needed")
    wizards: list[Wizard] = []
    treasures: dict[str, Any] = {}
    for i, p in enumerate(players):
        seat = f"P{i + 1}"
        unknown = set(p) - PLAYER_KEYS
        _need(not unknown, f"unknown {seat} key(s) {sorted(unknown)}")
        try:
            at = parse_square(p["at"]) if p.get("at", "") else None
            home = parse_square(p["home"]) if p.get("home", "") else None
        except ValueError as exc:
            raise ScenarioError(f"{seat}: {exc}") from exc
        _need(at is None or layout.has_square(at), f"{seat} stands off the board")
        w = Wizard(seat, seat, at, home, life=_int(p.get("life", 15), f"{seat}.life", 1),
                   lost_turns=_int(p.get("lost_turns", 0), f"{seat}.lost_turns"),
                   carrying=str(p.get("carrying", "")))
        for slug in p.get("hand", []):
            w.hand.append(new_card(slug))
        for slug in p.get("displayed", []):
            cid = new_card(slug)
            w.hand.append(cid)
            w.displayed.append(cid)
        for cond in p.get("conditions", []):
            _need(isinstance(cond, dict) and "slug" in cond,
                  "conditions are tables {slug, caster, duration}")
            slug, caster = str(cond["slug"]), str(cond.get("caster", seat))
            _need(slug in C.BY_SLUG, f"{seat}: unknown condition {slug!r}")
            _need(caster in [f"P{k + 1}" for k in range(len(players))],
                  f"{seat}: unknown caster {caster!r}")
            w.conditions.append(Condition(slug, caster,
                                          _int(cond.get("duration", 0), "duration")))
        tr = p.get("treasures", None)
        if tr is not None:
            _need(isinstance(tr, list) and len(tr) == 2, f"{seat}.treasures needs two entries")
            for k, sq in enumerate(tr):
                try:
                    treasures[f"{seat}.t{k + 1}"] = parse_square(sq) if sq else None
                except ValueError as exc:
                    raise ScenarioError(f"{seat}: {exc}") from exc
        wizards.append(w)
    for w in wizards:
        if w.carrying:
            treasures.setdefault(w.carrying, None)
            treasures[w.carrying] = None
    deck = [new_card(s) for s in doc.get("deck", [])]
    floor = []
    for obj in doc.get("objects", []):
        _need(set(obj) <= {"kind", "at"}, "[[objects]] takes kind and at")
        try:
            floor.append((parse_square(obj["at"]), new_card(obj["kind"])))
        except (ValueError, KeyError) as exc:
            raise ScenarioError(f"bad object: {exc}") from exc
    edges = {}
    for e, kind in sorted(layout.printed.items()):
        edges[e] = EdgeState(kind, WALL_HP if kind == "wall" else DOOR_HP)
    bushes = {}
    for sq in board.get("bushes", []):
        bushes[parse_square(sq)] = 5
    turn = doc.get("turn", {})
    unknown = set(turn) - TURN_KEYS
    _need(not unknown, f"unknown [turn] key(s) {sorted(unknown)}")
    active = turn.get("active", "P1")
    _need(active in [w.seat for w in wizards], f"unknown active player {active}")
    t = Turn(active, moves_used=_int(turn.get("moves_used", 0), "moves_used"),
             attacked=_bool(turn.get("attacked", False), "attacked"))
    opts = doc.get("options", {})
    _need(isinstance(opts, dict) and set(opts) <= OPTION_KEYS,
          f"[options] takes {sorted(OPTION_KEYS)}")
    options = {k: int(_bool(opts[k], k)) for k in sorted(opts)}
    _need(not options.get("team") or len(wizards) == 4, "team play needs four players")
    dice = [_int(d, "a die", 1) for d in doc.get("dice", [])]
    _need(all(d <= 4 for d in dice), "dice are 1-4")
    reshuffles = [[str(s) for s in r] for r in doc.get("reshuffles", [])]
    picks = [str(s) for s in doc.get("picks", [])]
    state = State(layout=layout, layout_spec=spec, wizards=wizards, faces=faces, deck=deck,
                  discard=[], edges=edges, bushes=bushes, stones=[], floor=floor,
                  treasures=treasures, turn=t, round=_int(turn.get("round", 2), "round", 1),
                  first=str(turn.get("first", "P1")),
                  rng=Rng.from_seed(_int(doc.get("seed", 0), "seed")),
                  script=Script(dice, reshuffles, picks), options=options, deck_kind="scenario")
    return state


def observe(state: State, key: str) -> Any:
    """The value of an ``[expect]`` key in ``state`` (notation.md key table).

    Raises ``ScenarioError`` for a key it does not understand.
    """
    if key in ("active",):
        return state.turn.active
    if key == "round":
        return state.round
    if key == "winner":
        return "" if state.winner in ("", "-") else state.winner
    if key == "to_move":
        return sorted(rules.to_move(state))
    if key == "eliminated":
        return list(state.eliminated)
    if key == "discard":
        return sorted(state.face(c) for c in state.discard)
    if key == "deck_size":
        return len(state.deck)
    if key.startswith("P") and "." in key and not key.split(".")[1].startswith("t"):
        seat, attr = key.split(".", 1)
        try:
            w = state.wizard(seat)
        except KeyError:
            raise ScenarioError(f"unknown player in {key}") from None
        if attr == "life":
            return w.life
        if attr == "hand_size":
            return len(w.hand)
        if attr == "lost_turns":
            return w.lost_turns
        if attr == "at":
            return "" if w.at is None else square_name(w.at)
        if attr == "hand":
            return sorted(state.face(c) for c in w.hand)
        if attr == "carrying":
            return w.carrying
        if attr == "alive":
            return w.alive
        if attr == "conditions":
            return sorted(c.slug for c in w.conditions)
        if attr == "displayed":  # the cards he displays (magic stones), as faces
            return sorted(state.face(c) for c in w.displayed)
        raise ScenarioError(f"unknown key {key}")
    if ":" in key:
        text, _, hp = key.partition(".")
        try:
            e0 = parse_edge(text)
        except ValueError as exc:
            raise ScenarioError(str(exc)) from exc
        e = state.layout.edge_key((e0[0], e0[1]), e0[2])
        es = state.edges.get(e)
        if hp == "hp":
            return 0 if es is None else es.hp
        if hp:
            raise ScenarioError(f"unknown key {key}")
        if es is None:
            return "open"
        if e in state.turn.open_doors:
            return "door-open"
        return es.kind
    try:
        sq = parse_square(key)
    except ValueError:
        raise ScenarioError(f"unknown key {key!r}") from None
    return sorted(state.tokens_at(sq))


def _is_multiset(key: str) -> bool:
    """Keys compared as multisets (notation.md): hands, discard, conditions, to_move and a
    square's token list. Everything else, ``eliminated`` included, is compared as is."""
    return key in ("discard", "to_move") or key.endswith((".hand", ".conditions")) or bool(
        re.fullmatch(r"[a-z]+[0-9]+", key))


def _normal(key: str, value: Any) -> Any:
    if _is_multiset(key) and isinstance(value, list):
        return sorted(str(v) for v in value)
    if key.endswith(".at") and isinstance(value, str) and value:
        return square_name(parse_square(value))
    return value


def _compare(state: State, table: dict[str, Any], where: str) -> str:
    diffs = []
    for key, want in table.items():
        if key in ("after", "reason"):
            continue
        want = _normal(key, want)
        got = _normal(key, observe(state, key))
        if got != want or isinstance(got, bool) != isinstance(want, bool):
            diffs.append(f"{where} {key}: expected {want!r}, got {got!r}")
    return "; ".join(diffs)


def run_doc(doc: dict[str, Any], path: str = "") -> Outcome:
    """Run one parsed scenario document."""
    title = str(doc.get("title", os.path.basename(path)))
    try:
        state = build_state(doc)
        checks = doc.get("check", [])
        for c in checks:
            if "after" not in c:
                raise ScenarioError("[[check]] needs after =")
            _need("reason" not in c or isinstance(c["reason"], str),
                  "[[check]] reason must be a string")
        steps = doc.get("steps", [])
        _need(isinstance(steps, list), "steps must be a list")
        for c in checks:  # a check that could never run is an authoring error, not a PASS
            after = c["after"]
            _need(isinstance(after, int) and not isinstance(after, bool)
                  and 1 <= after <= len(steps),
                  f"[[check]] after = {after!r}: must be a step number, 1 to {len(steps)}")
        # validate keys early so a typo is a clear FAIL
        for table in [*checks, doc.get("expect", {})]:
            for key in table:
                if key not in ("after", "reason"):
                    observe(state, key)
        for i, raw in enumerate(steps, start=1):
            text = str(raw).strip()
            refuse = text.startswith("!")
            if refuse:
                text = text[1:].strip()
            before = state_hash(state)
            try:
                action = parse(text)
                rules.apply(state, action)
                applied = True
                reason = ""
            except (NotationError, IllegalAction) as exc:
                applied = False
                reason = str(exc)
            if refuse and applied:
                return Outcome(path, title, False, f"step {i} '{text}' should be refused "
                                                   "but was accepted")
            if not refuse and not applied:
                return Outcome(path, title, False, f"step {i} '{text}' refused: {reason}")
            if not applied and state_hash(state) != before:
                return Outcome(path, title, False, f"step {i} was refused but changed state")
            for c in checks:
                if int(c["after"]) == i and "reason" in c:
                    if applied:
                        return Outcome(path, title, False, f"after step {i}: a reason is "
                                       "expected, but the step was accepted")
                    if c["reason"].lower() not in reason.lower():
                        return Outcome(path, title, False, f"after step {i}: reason "
                                       f"{c['reason']!r} expected, got {reason!r}")
                if int(c["after"]) == i:
                    diff = _compare(state, c, f"after step {i}:")
                    if diff:
                        return Outcome(path, title, False, diff)
        diff = _compare(state, doc.get("expect", {}), "at the end:")
        if diff:
            return Outcome(path, title, False, diff)
        return Outcome(path, title, True)
    except ScriptExhausted as exc:
        return Outcome(path, title, False, str(exc))
    except ScenarioError as exc:
        return Outcome(path, title, False, f"cannot load: {exc}")
    except Exception as exc:  # a crash in the engine is a FAIL that names it
        return Outcome(path, title, False, f"engine error {type(exc).__name__}: {exc}")


def run_file(path: str) -> Outcome:
    """Load and run one scenario file; never raises."""
    try:
        with open(path, "rb") as f:
            doc = tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        return Outcome(path, os.path.basename(path), False, f"cannot load: {exc}")
    return run_doc(doc, path)


__all__ = ["run_file", "run_doc", "build_state", "observe", "Outcome", "collect"]
