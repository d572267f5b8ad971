"""The engine's conformance suite: checks every ruleset must pass, through its contract only.

Of OpenSpiel's ``basic_tests`` kind. Everything here talks to a game through
:class:`core.engine.Ruleset` (and its two optional test hooks, ``probe_actions`` and
``redeal_hidden``) and the values it hands out; nothing names a game's internals, so a
ruleset added to :mod:`core.registry` is checked by ``test_conformance.py`` as they stand.

What is checked (each function raises ``AssertionError`` saying what broke, where):

* :func:`playout`: a seeded game played to its end (or a step cap) by random and bot choices;
  at every step the stage, ``to_move`` and the listing agree, every chosen listed action
  applies, and refused candidates are refused with a reason and leave the state's wire form
  byte-identical. It keeps sampled positions (wire forms) for the other checks.
* :func:`check_exact`: on a position, every probed action that ``why_illegal`` accepts is
  listed (or is a member of a listed family) and every listed one is accepted.
* :func:`check_round_trips`: notation and wire round trips for listed actions; the state's
  wire round trip (equal hash, equal bytes, sharing nothing with the data it came from).
* :func:`check_views`: no view shows a secret: the view is the same in a world re-dealt
  consistently with what the viewer may know.
* :func:`hashes_in_fresh_process`: the same log gives the same hashes in a fresh
  interpreter (run under several ``PYTHONHASHSEED`` values by the test).
* :func:`replay_hashes`: a recorded action list replays to the same hashes.
* :func:`check_log`: the game's log through :mod:`core.log` (read, replay, checkpoints,
  export text) gives the same hashes.
* :func:`scenario_files`: the scenario files that name a ruleset (``ruleset`` key; none means
  Wiz-War, notation.md).
"""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.codec import pack, unpack
from core.engine import IllegalAction, OptionError, Ruleset
from core.registry import canonical
from core.rng import Rng

ROOT = Path(__file__).resolve().parents[2]
SCENARIO_DIRS = (Path(os.environ.get("WIZWAR_SHARED") or ROOT.parent / "shared") / "scenarios",
                 ROOT / "tests" / "scenarios")  # the shared folder as tests/shared.py finds it


# ---- option sets -----------------------------------------------------------------------
def option_values(opt: Any) -> list[Any]:
    """The values worth trying for one option: the default first, then the others."""
    if opt.kind == "bool":
        vals = [opt.default, not opt.default]
    elif opt.choices:
        vals = [opt.default, *[c for c in opt.choices if c != opt.default]]
    elif opt.kind == "int":
        vals = [opt.default, *[v for v in (opt.lo, opt.hi) if v is not None]]
    else:
        vals = [opt.default]
    return list(dict.fromkeys(vals))


def valid_combinations(rs: Ruleset, cap: int = 4096) -> list[dict[str, Any]]:
    """Every valid options map over the values :func:`option_values` tries (the first ``cap``
    combinations of them)."""
    opts = list(rs.options)
    names = [o.name for o in opts]
    out: list[dict[str, Any]] = []
    for vals in itertools.islice(itertools.product(*[option_values(o) for o in opts]), cap):
        try:
            out.append(rs.validate_options(dict(zip(names, vals, strict=True))))
        except OptionError:
            continue
    return out


def option_sets(rs: Ruleset) -> list[dict[str, Any]]:
    """Valid options maps that together show every value of every option that some valid
    map shows: the defaults first, then a greedy cover of :func:`valid_combinations`."""
    def shows(c: dict[str, Any]) -> set[tuple[str, str]]:
        return {(k, repr(v)) for k, v in c.items()}

    combos = valid_combinations(rs)
    out = [rs.validate_options({})]
    seen = shows(out[0])
    while combos:
        best = max(combos, key=lambda c: len(shows(c) - seen))
        if not shows(best) - seen:
            break
        out.append(best)
        seen |= shows(best)
    return out


# ---- playouts --------------------------------------------------------------------------
def wire_bytes(rs: Ruleset, state: Any) -> bytes:
    """The state's canonical bytes (what a refused action must leave unchanged)."""
    return pack(rs.state_to_wire(state))


@dataclass
class Game:
    """One played game: what it was, the actions applied, the hash after each, and sampled
    positions (wire forms, with the seq they were taken at)."""

    options: dict[str, Any]
    seed: int
    actions: list[str] = field(default_factory=list)
    hashes: list[str] = field(default_factory=list)
    positions: list[Any] = field(default_factory=list)
    over: bool = False
    refused: int = 0


def _choose(rs: Ruleset, state: Any, seat: str, legal: list[Any], pick: Rng,
            bot_share: int) -> Any:
    """A bot's choice ``bot_share`` times in four (when the ruleset has bots), else a
    uniformly random listed action."""
    if rs.bot_levels and pick.below(4) < bot_share:
        a = rs.bot_choose(rs.view(state, seat), seat, legal, rs.bot_levels[0])
        assert a in legal, f"the bot chose {a}, which is not listed"
        return a
    return legal[pick.below(len(legal))]


def check_refused(rs: Ruleset, state: Any, action: Any, where: str) -> None:
    """``action`` is refused: ``why_illegal`` gives a reason, ``apply`` raises
    :class:`IllegalAction` with one, and the state's bytes do not move."""
    before = wire_bytes(rs, state)
    why = rs.why_illegal(state, action)
    assert why, f"{where}: {action} was expected to be refused"
    assert wire_bytes(rs, state) == before, f"{where}: why_illegal({action}) changed the state"
    try:
        rs.apply(state, action)
    except IllegalAction as exc:
        assert exc.reason, f"{where}: {action} refused without a reason"
    else:
        raise AssertionError(f"{where}: why_illegal refused {action} ({why}) but apply "
                             "accepted it")
    assert wire_bytes(rs, state) == before, \
        f"{where}: the refused {action} changed the state"


def playout(rs: Ruleset, options: dict[str, Any], seed: int, *, cap: int = 1500,
            every: int = 0, bot_share: int = 3, refuse_every: int = 5,
            refusals: int = 3) -> Game:
    """Play one seeded game (see the module docstring). ``every``: keep a position each
    ``every`` steps (0: none). ``refusals``: refused candidates tried every
    ``refuse_every`` steps (0: never), drawn from the ruleset's ``probe_actions``."""
    g = Game(dict(options), seed)
    state = rs.new_game(options, seed)
    seats = rs.seats(options)
    pick = Rng.from_seed(f"conformance {rs.name} {seed}")
    g.hashes.append(rs.state_hash(state))
    for step in range(cap):
        where = f"{rs.name} {options} seed {seed} step {step}"
        stage = rs.stage(state)
        result = rs.result(state)
        assert (stage.kind == "over") == result.over, \
            f"{where}: stage {stage.kind} but result {result}"
        assert rs.to_move(state) == list(stage.players), f"{where}: to_move != stage.players"
        assert list(stage.players) == [s for s in seats if s in stage.players], \
            f"{where}: stage players not in seat order"
        assert rs.seq(state) == len(g.actions), f"{where}: seq {rs.seq(state)}"
        if result.over:
            assert set(result.winners) <= set(seats), f"{where}: winners {result.winners}"
            assert result.draw == (not result.winners), f"{where}: {result}"
            assert all(rs.legal_actions(state, s) == [] for s in seats), \
                f"{where}: actions listed after the end"
            g.over = True
            break
        assert stage.kind != "reveal", f"{where}: a reveal pause in a local game"
        assert stage.players, f"{where}: nobody to move in stage {stage.kind}"
        if every and step % every == 0:
            g.positions.append(rs.state_to_wire(state))
        listed = {s: rs.legal_actions(state, s) for s in seats}
        for s in seats:
            if s not in stage.players:
                assert listed[s] == [], f"{where}: {s} is not to move but has actions listed"
            else:
                assert listed[s], f"{where}: {s} is to move but has no action listed"
                assert all(a.actor == s for a in listed[s]), f"{where}: another's action"
        # refused candidates, every ``refuse_every`` steps, from one seat in turn (the mover
        # or a seat not to move, all of whose actions are refused): probed actions the
        # listing leaves out, when the rules refuse them (one accepted is check_exact's)
        if refuse_every and step % refuse_every == 0:
            s = seats[(step // refuse_every) % len(seats)]
            probes = rs.probe_actions(state, s)
            keys = {str(a) for a in listed[s]}
            for _ in range(refusals if probes else 0):
                a = probes[pick.below(len(probes))]
                if str(a) in keys or (s in stage.players and rs.why_illegal(state, a) == ""):
                    continue
                check_refused(rs, state, a, where)
                g.refused += 1
        if stage.kind == "sealed":
            chosen = [_choose(rs, state, s, listed[s], pick, bot_share) for s in stage.players]
        else:
            chosen = [_choose(rs, state, stage.players[0], listed[stage.players[0]], pick,
                              bot_share)]
        for a in chosen:  # a sealed stage's actions apply in seat order (core.engine.Stage)
            assert rs.why_illegal(state, a) == "", f"{where}: listed {a} refused: " \
                f"{rs.why_illegal(state, a)}"
            events = rs.apply(state, a)
            assert isinstance(events, list), f"{where}: apply returned {events!r}"
            g.actions.append(str(a))
            g.hashes.append(rs.state_hash(state))
    return g


# ---- exactness -------------------------------------------------------------------------
def check_exact(rs: Ruleset, state: Any, seat: str, where: str) -> list[str]:
    """Listed == accepted for ``seat`` on ``state``: every listed action is accepted and
    listed once; every probed action that is accepted is listed or a member of a family of
    ``families``; the members of each family expanded are accepted, listed nowhere else.
    Families are expanded in their order, the first always and the others only while an
    accepted probed action is still unaccounted for (a family may be large). Returns the
    findings, one line each (empty: exact). The state's bytes must not move."""
    before = wire_bytes(rs, state)
    findings: list[str] = []
    listed = rs.legal_actions(state, seat)
    keys = [str(a) for a in listed]
    if len(set(keys)) != len(keys):
        findings.append(f"{where}: {seat}'s listing holds duplicates")
    for a in listed:
        why = rs.why_illegal(state, a)
        if why:
            findings.append(f"{where}: listed {a} is refused: {why}")
    known = set(keys)
    unaccounted = [a for a in rs.probe_actions(state, seat)
                   if str(a) not in known and rs.why_illegal(state, a) == ""]
    for k, fam in enumerate(rs.families(state, seat)):
        if k and not unaccounted:
            break
        members = rs.expand(state, seat, fam)
        got = {str(a) for a in members}
        for a in members[:200]:
            why = rs.why_illegal(state, a)
            if why:
                findings.append(f"{where}: {a} of family {fam} is refused: {why}")
            if a.actor != seat:
                findings.append(f"{where}: {a} of family {fam} is another seat's")
        if known & got:
            findings.append(f"{where}: family {fam} repeats listed actions "
                            f"({sorted(known & got)[0]})")
        known |= got
        unaccounted = [a for a in unaccounted if str(a) not in got]
    findings += [f"{where}: {a} is accepted but not listed" for a in unaccounted]
    assert wire_bytes(rs, state) == before, f"{where}: listing or checking changed the state"
    return findings


# ---- round trips -----------------------------------------------------------------------
def check_action_round_trips(rs: Ruleset, actions: Iterable[Any], where: str) -> None:
    """``parse_action(str(a)) == a``; ``action_from_wire(a.to_wire()) == a``, also through
    the canonical codec, byte for byte."""
    for a in actions:
        assert rs.parse_action(str(a)) == a, f"{where}: notation round trip of {a}"
        assert str(rs.parse_action(str(a))) == str(a), f"{where}: notation of {a} moves"
        assert rs.action_from_wire(a.to_wire()) == a, f"{where}: wire round trip of {a}"
        data = pack(a.to_wire())
        back = rs.action_from_wire(unpack(data))
        assert back == a and pack(back.to_wire()) == data, f"{where}: msgpack trip of {a}"


def _scramble(data: Any) -> None:
    """Empty every list and dict inside ``data`` in place."""
    if isinstance(data, list):
        for x in data:
            _scramble(x)
        data.clear()
    elif isinstance(data, dict):
        for x in data.values():
            _scramble(x)
        data.clear()


def check_state_round_trip(rs: Ruleset, state: Any, where: str) -> None:
    """The state's wire form survives msgpack with the same bytes and hash; the state rebuilt
    shares nothing with the data it was rebuilt from, nor with the original."""
    wire = rs.state_to_wire(state)
    data = pack(wire)
    back = rs.state_from_wire(unpack(data))
    assert pack(rs.state_to_wire(back)) == data, f"{where}: the state's wire form moves"
    assert rs.state_hash(back) == rs.state_hash(state), f"{where}: the hash moves"
    raw = unpack(data)
    other = rs.state_from_wire(raw)
    _scramble(raw)
    assert pack(rs.state_to_wire(other)) == data, \
        f"{where}: state_from_wire shares containers with its input"
    _scramble(wire)
    assert wire_bytes(rs, state) == data, f"{where}: state_to_wire shares the state's containers"
    clone = rs.clone(state)
    for seat in rs.to_move(clone):
        legal = rs.legal_actions(clone, seat)
        if legal:
            rs.apply(clone, legal[0])
            assert wire_bytes(rs, state) == data, f"{where}: a clone shares the state"
            break


def check_views(rs: Ruleset, state: Any, seats: list[str], seed: int, where: str) -> None:
    """No view shows a secret: for each seat and a spectator, the view is the same in a
    world re-dealt consistently with what that viewer may know. A ruleset that declares
    secrets must provide the ``redeal_hidden`` hook."""
    before = wire_bytes(rs, state)
    for viewer in [*seats, ""]:
        other = rs.redeal_hidden(state, viewer, seed)
        if other is None:
            assert not rs.secrets, f"{rs.name} declares secrets but cannot re-deal them"
            return
        assert wire_bytes(rs, state) == before, f"{where}: redeal_hidden changed the state"
        v = rs.view(state, viewer)
        assert v == rs.view(rs.clone(state), viewer), f"{where}: the view of {viewer!r} " \
            "is not a function of the state"
        assert v == rs.view(other, viewer), \
            f"{where}: the view of {viewer or 'a spectator'} shows a hidden value " \
            "(it changes when the hidden values are dealt anew)"
    assert wire_bytes(rs, state) == before, f"{where}: a view changed the state"


# ---- replay, other processes -----------------------------------------------------------
def replay_hashes(rs: Ruleset, options: dict[str, Any], seed: int,
                  actions: list[str]) -> list[str]:
    """The hashes of a fresh game replayed from its notation: the start, then after each
    action (each action read back from its wire form)."""
    state = rs.new_game(rs.options.from_wire(rs.options.to_wire(options)), seed)
    out = [rs.state_hash(state)]
    for t in actions:
        a = rs.action_from_wire(unpack(pack(rs.parse_action(t).to_wire())))
        rs.apply(state, a)
        out.append(rs.state_hash(state))
    return out


def log_bytes(rs: Ruleset, g: Game) -> bytes:
    """The game's log as :mod:`core.log` writes it: the header, every action with the hash
    after it, and the end record when the game is over."""
    from core import log

    state = rs.new_game(g.options, g.seed)
    out = [log.encode(log.header(rs, g.options, g.seed, kind="local"))]
    for i, t in enumerate(g.actions, 1):
        a = rs.parse_action(t)
        rs.apply(state, a)
        out.append(log.encode(log.record(rs, i, a, state, force_hash=True)))
    if rs.result(state).over:
        out.append(log.encode(log.end_record(rs, state)))
    return b"".join(out)


def check_log(rs: Ruleset, g: Game) -> None:
    """Through :mod:`core.log`, knowing no game: the game's log (header, every action with
    its hash, the end record) reads back naming this ruleset and its options, replays to the
    same final hash (the replay checks every stored hash), seeks through checkpoints to the
    hash after any action, and its export text reads back to the same actions and hashes."""
    from core import log

    where = f"{rs.name} {g.options} seed {g.seed}"
    loaded = log.read(log_bytes(rs, g))
    assert not getattr(loaded, "damage", ""), f"{where}: the log reads damaged"
    assert loaded.ruleset is rs, f"{where}: the log names {loaded.ruleset.name}"
    assert loaded.options == rs.validate_options(g.options), f"{where}: options {loaded.options}"
    assert [str(a) for a in loaded.actions] == g.actions, f"{where}: the log's actions"
    assert rs.state_hash(log.replay(loaded)) == g.hashes[-1], f"{where}: replayed hash"
    cp = log.Checkpoints(loaded, every=max(1, len(g.actions) // 4 or 1))
    for n in sorted({0, len(g.actions) // 3, len(g.actions) // 2 + 1, len(g.actions)}):
        n = min(n, len(g.actions))
        assert rs.state_hash(cp.at(n)) == g.hashes[n], f"{where}: checkpoint at {n}"
    text = log.parse_text(log.export_text(loaded))
    assert text.ruleset is rs and [str(a) for a in text.actions] == g.actions, \
        f"{where}: the export text's actions"
    rp = text.begin()
    for k, a in enumerate(text.actions, 1):
        rs.apply(rp.state, a)
        assert rs.state_hash(rp.state) == g.hashes[k], f"{where}: export replay at {k}"


_CHILD = r"""
import json, sys
from core import log, registry
job = json.loads(sys.stdin.read())
sys.path[:0] = job["path"]
registry.RULESETS.update(job["rulesets"])
out = []
for path in job["logs"]:
    loaded = log.read(open(path, "rb").read())
    rs = loaded.ruleset
    rp = log.begin(loaded)
    hashes = [rs.state_hash(rp.state)]
    for r in loaded.records:
        rp.step(r)
        hashes.append(rs.state_hash(rp.state))
    out.append(hashes)
print(json.dumps(out))
"""


def hashes_in_fresh_process(rs: Ruleset, games: list[Game], hashseed: str,
                            folder: Path) -> list[list[str]]:
    """The hash at the start and after every action of each game's log (written into
    ``folder`` by :func:`log_bytes`), replayed through :mod:`core.log` in a fresh interpreter
    run with ``PYTHONHASHSEED=hashseed``."""
    paths = []
    for k, g in enumerate(games):
        p = folder / f"{rs.name}-{k}.log"
        if not p.exists():
            p.write_bytes(log_bytes(rs, g))
        paths.append(str(p))
    # a ruleset registered for a test only is registered in the child too
    from core import registry

    job = {"logs": paths, "path": [p for p in sys.path if p], "rulesets": {**registry.RULESETS, **registry.BUILDING}}
    env = dict(os.environ, PYTHONHASHSEED=hashseed)
    res = subprocess.run([sys.executable, "-c", _CHILD], input=json.dumps(job), cwd=ROOT,
                         env=env, capture_output=True, text=True, timeout=600, check=False)
    assert res.returncode == 0, res.stderr[-2000:]
    out: list[list[str]] = json.loads(res.stdout)
    return out


# ---- scenario files --------------------------------------------------------------------
def scenario_files(name: str) -> list[Path]:
    """The scenario files (``*.toml`` under ``../shared/scenarios`` and ``tests/scenarios``)
    whose ``ruleset`` key names ``name`` (no key: Wiz-War, notation.md). A file that cannot be
    read is counted as Wiz-War's, where its runner reports it."""
    out = []
    for d in SCENARIO_DIRS:
        for p in sorted(d.rglob("*.toml")) if d.is_dir() else []:
            try:
                key = tomllib.loads(p.read_text()).get("ruleset", "wizwar")
                owner = canonical(str(key))
            except (OSError, ValueError, LookupError, tomllib.TOMLDecodeError):
                owner = "wizwar"
            if owner == name:
                out.append(p)
    return out


def run_scenario_file(rs: Ruleset, path: Path) -> tuple[bool, str]:
    """Run one scenario file through ``rs.run_scenario`` (the ``ruleset`` key taken off)."""
    try:
        doc = tomllib.loads(path.read_text())
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        return False, f"cannot load: {exc}"
    doc.pop("ruleset", None)
    return rs.run_scenario(doc, str(path))
