"""Random playouts of ArcoMage from rich positions (every spell of the pool in one of the
books, a high cast ceiling, creatures on the field), checked with the conformance suite's
own functions: listed == accepted against wide probes, refused probes leave the state
byte-identical, views show no trap target, and every spell gets resolved somewhere.
Source: rules.md R119, R122; the engine contract (core/engine.py)."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "conformance"))
import conformance_suite as suite  # noqa: E402

from core.arcomage.data import ALTERNATE_WINS, RITES, SPELLS  # noqa: E402
from core.arcomage.ruleset import RULESET as R  # noqa: E402
from core.arcomage.scenario import load  # noqa: E402
from core.rng import Rng  # noqa: E402

POOL = [s for s in SPELLS if s not in RITES]


def _books(seed: int) -> tuple[list[str], list[str], list[str]]:
    """The 62 spells of the pool dealt into three books of about 20 (the scenario format is
    not held to R25's limits), shuffled by ``seed``."""
    r = Rng.from_seed(f"arcomage books {seed}")
    xs = list(POOL)
    for i in range(len(xs) - 1, 0, -1):
        j = r.below(i + 1)
        xs[i], xs[j] = xs[j], xs[i]
    return xs[:21], xs[21:42], xs[42:]


def _position(seed: int, third: int) -> object:
    books = _books(seed)
    return load({
        "players": [{"book": books[third], "int": 8, "mana": 40, "corpses": 3},
                    {"book": books[(third + 1) % 3], "int": 7, "mana": 40, "corpses": 2}],
        "creatures": [{"kind": "skeleton", "owner": "P1", "at": "b1"},
                      {"kind": "ghost", "owner": "P2", "at": "d5"},
                      {"kind": "samurai", "owner": "P1", "at": "d2"},
                      {"kind": "tengu", "owner": "P2", "at": "b4"},
                      {"kind": "ninja", "owner": "P2", "at": "c5"}],
        "clock": 60 if seed % 2 else 0, "turn_limit": 24})


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_rich_playouts_are_exact(seed: int) -> None:
    """Every listed action applies; every probed action accepted is listed; refusals change
    nothing; views are unchanged by a re-deal of the hidden traps."""
    st = _position(seed, seed % 3)
    pick = Rng.from_seed(f"arcomage playout {seed}")
    resolved: Counter[str] = Counter()
    for step in range(1500):
        if R.result(st).over:
            break
        where = f"seed {seed} step {step}"
        who = R.to_move(st)[0]
        legal = R.legal_actions(st, who)
        assert legal, where
        if step % 10 == 0:
            findings = []
            for seat in ("P1", "P2"):
                findings += suite.check_exact(R, st, seat, where)
            assert not findings, "\n".join(findings[:10])
            suite.check_views(R, st, ["P1", "P2"], seed + step, where)
            probes = R.probe_actions(st, who)
            keys = {str(a) for a in legal}
            for _ in range(4):
                a = probes[pick.below(len(probes))]
                if str(a) not in keys:
                    suite.check_refused(R, st, a, where)
        a = legal[pick.below(len(legal))]
        for e in R.apply(st, a):
            if e.kind == "resolve":
                resolved[e.data["slug"]] += 1
    assert R.result(st).over, "a game from a rich position did not end within 1500 steps"
    assert sum(resolved.values()) >= 10


def test_alternate_wins_are_in_the_pool() -> None:
    """The two alternate-win spells of R114 exist."""
    assert all(s in SPELLS for s in ALTERNATE_WINS)
