"""Every registered ruleset passes the engine's conformance suite (``conformance_suite.py``).

Parametrized over :func:`core.registry.names`: a ruleset registered there is checked with no
change here. The games are played once per ruleset (a few seeds over option sets covering
the schema) and their sampled positions shared by the checks.
"""

from __future__ import annotations

import functools
import sys
from pathlib import Path
from typing import Any

import conformance_suite as suite
import pytest

from core import registry
from core.engine import Ruleset

NAMES = [*registry.names(), *registry.BUILDING]  # rulesets being built are checked too

#: the seeds played with the default options and with each other option set, the step cap
#: of a game, and a position kept every N steps (about 60 positions for Wiz-War)
SEEDS = (1, 2)
OTHER_SEEDS = (1,)
CAP = 1200
EVERY = 30


@functools.cache
def games(name: str) -> tuple[suite.Game, ...]:
    """The suite's games of ruleset ``name`` (played once, checked while played)."""
    rs = registry.get(name)
    out = []
    for i, options in enumerate(suite.option_sets(rs)):
        for seed in SEEDS if i == 0 else OTHER_SEEDS:
            out.append(suite.playout(rs, options, seed * 100 + i, cap=CAP, every=EVERY))
    return tuple(out)


def positions(name: str) -> list[tuple[str, list[str], Any]]:
    """(where, the game's seats, state) for every sampled position of the suite's games."""
    rs = registry.get(name)
    out = []
    for g in games(name):
        for k, wire in enumerate(g.positions):
            out.append((f"{name} {g.options} seed {g.seed} position {k}", rs.seats(g.options),
                        rs.state_from_wire(wire)))
    return out


#: The test-only ruleset of tests/pick_ruleset.py (a simultaneous sealed stage), checked
#: too: registered for each test only, never in the real registry.
TEST_ONLY = "pick-a-number"


@pytest.fixture(params=[*NAMES, TEST_ONLY])
def rs(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Ruleset:
    """Each registered ruleset, and the test-only one."""
    if request.param == TEST_ONLY:
        sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
        import pick_ruleset

        return pick_ruleset.register(monkeypatch)
    return registry.get(request.param)


def test_the_registry_names_rulesets_that_say_who_they_are(rs: Ruleset) -> None:
    """The registry's name is the ruleset's; it has a title, a version and valid defaults."""
    assert rs.name in [*NAMES, TEST_ONLY] and registry.get(rs.name) is rs
    assert rs.title and isinstance(rs.version, int) and rs.version >= 1
    opts = rs.validate_options({})
    assert rs.options.from_wire(rs.options.to_wire(opts)) == opts
    assert rs.seats(opts) and len(set(rs.seats(opts))) == len(rs.seats(opts))


def test_option_sets_cover_every_option(rs: Ruleset) -> None:
    """The option sets played show every value of every option that a valid options map
    can hold, and each is valid."""
    sets = suite.option_sets(rs)
    valid = suite.valid_combinations(rs)
    for o in rs.options:
        for v in suite.option_values(o):
            if any(c[o.name] == v for c in valid):
                assert any(s[o.name] == v for s in sets), f"{o.name}={v!r} is never played"
    assert all(rs.validate_options(s) == s for s in sets)


def test_random_playouts_apply_every_listed_action(rs: Ruleset) -> None:
    """Seeded playouts (random and bot choices): every listed action applies; refused
    candidates leave the state byte-identical; most games reach their end."""
    gs = games(rs.name)
    assert gs
    assert sum(g.over for g in gs) * 2 >= len(gs), \
        f"only {sum(g.over for g in gs)} of {len(gs)} games ended within {CAP} steps"
    if rs.probe_actions(rs.new_game(rs.validate_options({}), 1), rs.seats(
            rs.validate_options({}))[0]):
        assert all(g.refused > 0 for g in gs), "no refused candidate was tried"
    assert all(len(g.hashes) == len(g.actions) + 1 for g in gs)


def test_listed_equals_accepted(rs: Ruleset) -> None:
    """On sampled positions, for every seat: what is listed (or in a listed family) is
    exactly what is accepted among the probed actions."""
    findings: list[str] = []
    for where, seats, st in positions(rs.name):
        for seat in seats:
            findings += suite.check_exact(rs, st, seat, where)
    assert not findings, f"{len(findings)} findings:\n" + "\n".join(findings[:40])


def test_round_trips(rs: Ruleset) -> None:
    """Notation and wire round trips for every listed action (and family member) of every
    seat on sampled positions, and for every action the games applied; the state's own."""
    for where, _seats, st in positions(rs.name):
        for seat in rs.to_move(st):
            suite.check_action_round_trips(rs, rs.legal_actions(st, seat), where)
            for fam in rs.families(st, seat):
                suite.check_action_round_trips(rs, rs.expand(st, seat, fam)[:200], where)
        suite.check_state_round_trip(rs, st, where)
    for g in games(rs.name):
        suite.check_action_round_trips(rs, [rs.parse_action(t) for t in g.actions],
                                       f"{rs.name} seed {g.seed}")


def test_no_view_shows_a_secret(rs: Ruleset) -> None:
    """Every seat's and a spectator's view is the same in a world re-dealt consistently
    with what that viewer may know."""
    for k, (where, seats, st) in enumerate(positions(rs.name)):
        suite.check_views(rs, st, seats, k, where)


def test_replay_gives_the_same_hashes(rs: Ruleset) -> None:
    """Each game's actions, read back from their wire form and replayed on a fresh game,
    give the same hash after every step."""
    for g in games(rs.name):
        assert suite.replay_hashes(rs, g.options, g.seed, g.actions) == g.hashes, \
            f"{rs.name} {g.options} seed {g.seed}"


def test_log_replay_gives_the_same_final_hash(rs: Ruleset) -> None:
    """Log, read, replay (and checkpoints, export text): the same hashes, through core.log."""
    for g in games(rs.name)[:4]:
        suite.check_log(rs, g)


def test_same_hashes_in_three_processes(rs: Ruleset, tmp_path: Path) -> None:
    """The same log gives the same hashes in three fresh interpreters under different
    PYTHONHASHSEED values, and the same as while the games were played."""
    gs = list(games(rs.name))[:3]
    for hashseed in ("0", "1", "4242"):
        got = suite.hashes_in_fresh_process(rs, gs, hashseed, tmp_path)
        for g, hashes in zip(gs, got, strict=True):
            assert hashes == g.hashes, f"{rs.name} seed {g.seed} under PYTHONHASHSEED={hashseed}"


def test_scenario_files_pass(rs: Ruleset) -> None:
    """Every scenario file naming this ruleset passes through ``ruleset.run_scenario``."""
    files = suite.scenario_files(rs.name)
    failed = []
    for p in files:
        ok, why = suite.run_scenario_file(rs, p)
        if not ok:
            failed.append(f"{p.name}: {why}")
    assert not failed, "\n".join(failed)
