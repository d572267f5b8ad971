"""ArcoMage's scenarios: the shared ones (``../shared/arcomage/scenarios``, 18 files) and the
project's own (``tests/arcomage/scenarios``), each through the generic runner
(``core.scenario``, which dispatches on the file's ``ruleset`` key).

Source: ../shared/arcomage/notation.md §3-§4.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import shared

from core.scenario import collect, run_doc, run_file

OURS = Path(__file__).resolve().parent / "scenarios"


def _files() -> list[str]:
    return collect([*shared.existing("arcomage/scenarios"), str(OURS)])


def test_shared_arcomage_scenarios_present() -> None:
    """The 18 shared ArcoMage scenarios are there to be run (never silently skipped)."""
    shared.need("arcomage/scenarios")
    assert len(collect([str(shared.path("arcomage/scenarios"))])) >= 18


def test_our_scenarios_present() -> None:
    """The project's own scenarios cover the rules sections built."""
    assert len(collect([str(OURS)])) >= 25


@pytest.mark.parametrize("path", _files(), ids=lambda p: Path(p).stem)
def test_scenario(path: str) -> None:
    """One scenario file passes, and it names the ArcoMage ruleset."""
    r = run_file(path)
    assert r.ruleset == "arcomage", r.line()
    assert r.ok, r.line()


def _doc(**extra: object) -> dict[str, object]:
    doc: dict[str, object] = {"ruleset": "arcomage", "title": "t", "steps": []}
    doc.update(extra)
    return doc


def test_a_refused_step_that_is_accepted_fails() -> None:
    """A ``!`` step the rules accept makes the scenario fail (the runner can fail)."""
    r = run_doc(_doc(steps=["!P1 cast firebolt @P2"]))
    assert not r.ok and "must be refused" in r.detail


def test_a_wrong_expectation_fails() -> None:
    """An expectation that does not hold is reported with what differed."""
    r = run_doc(_doc(steps=["P1 cast firebolt @P2", "P2 pass"], expect={"P2.moat": 3}))
    assert not r.ok and "P2.moat is 1" in r.detail


@pytest.mark.parametrize("bad, words", [
    ({"players": [{"at": "c3"}]}, "Nexus"),
    ({"creatures": [{"kind": "ghost", "owner": "P1", "at": "c1"}]}, "two pieces"),
    ({"players": [{"book": ["fireball"], "locked": ["unlock"]}]}, "Unlock cannot be locked"),
    ({"players": [{"workers": {"altar": 9}}]}, "more than 8"),
    ({"colour": "red"}, "unknown key"),
    ({"players": [{"conditions": ["levitate"]}]}, "cannot have levitate"),
    ({"creatures": [{"kind": "wyvern", "owner": "P1", "at": "b2"}]}, "not a creature"),
])
def test_bad_files_fail_with_a_reason(bad: dict[str, object], words: str) -> None:
    """An illegal position or an unknown key is a FAIL that says why, never a crash."""
    r = run_doc(_doc(**bad))
    assert not r.ok and "cannot load" in r.detail and words in r.detail, r.detail


def test_every_spell_is_cast_in_a_scenario() -> None:
    """Each of the 64 spells is cast in a step that is not refused, in our scenarios or the
    shared ones (issue 17: at least one scenario per spell)."""
    import tomllib

    from core.arcomage.data import SPELLS

    shared.need("arcomage/scenarios")  # the count includes the shared ones: skip without
    cast: set[str] = set()
    for path in _files():
        with open(path, "rb") as f:
            doc = tomllib.load(f)
        for step in doc.get("steps", []):
            words = step.split()
            if not step.startswith("!") and len(words) > 2 and words[1] == "cast":
                cast.add(words[2])
    missing = sorted(set(SPELLS) - cast)
    assert not missing, f"never cast in a scenario: {missing}"
