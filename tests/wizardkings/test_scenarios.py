"""Wizard Kings' scenarios: the shared ones (``../shared/wizard-kings/scenarios``, 18 files) and
the project's own (``tests/wizardkings/scenarios``), each through the generic runner
(``core.scenario``, which dispatches on the file's ``ruleset`` key).

Source: ../shared/wizard-kings/notation.md §5.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import shared

from core.scenario import collect, run_doc, run_file

OURS = Path(__file__).resolve().parent / "scenarios"


def _files() -> list[str]:
    return collect([*shared.existing("wizard-kings/scenarios"), str(OURS)])


def test_shared_wizard_kings_scenarios_present() -> None:
    """The 18 shared Wizard Kings scenarios are there to be run (never silently skipped)."""
    shared.need("wizard-kings/scenarios")
    assert len(collect([str(shared.path("wizard-kings/scenarios"))])) >= 18


@pytest.mark.parametrize("path", _files(), ids=lambda p: Path(p).stem)
def test_scenario(path: str) -> None:
    """One scenario file passes, and it names the Wizard Kings ruleset."""
    r = run_file(path)
    assert r.ruleset == "wizard-kings", r.line()
    assert r.ok, r.line()


def _doc(**extra: object) -> dict[str, object]:
    doc: dict[str, object] = {"ruleset": "wizard-kings", "title": "t", "steps": [],
                              "game": {"order": ["P1", "P2"], "active": "P1"},
                              "block": [{"id": "P1.1", "type": "glader", "at": "1b4"}]}
    doc.update(extra)
    return doc


def test_a_refused_step_that_is_accepted_fails() -> None:
    """A ``!`` step the rules accept makes the scenario fail (the runner can fail)."""
    r = run_doc(_doc(steps=["!P1 move 1 1c4"]))
    assert not r.ok and "must be refused" in r.detail


def test_a_wrong_expectation_fails() -> None:
    """An expectation that does not hold is reported with what differed."""
    r = run_doc(_doc(steps=["P1 move 1 1c4"], expect={"P1.1.at": "1d4"}))
    assert not r.ok and "P1.1.at is '1c4'" in r.detail


def test_a_bad_file_is_a_failure_not_a_crash() -> None:
    """An unknown unit or key is a FAIL that says why."""
    r = run_doc(_doc(block=[{"id": "P1.1", "type": "dragon", "at": "1b4"}]))
    assert not r.ok and "no unit 'dragon'" in r.detail
    r = run_doc(_doc(colour="green"))
    assert not r.ok and "unknown key" in r.detail


def test_running_out_of_dice_fails() -> None:
    """A forced dice list that runs out is a FAIL (notation.md §5)."""
    r = run_doc({"ruleset": "wizard-kings", "title": "t", "steps": ["P1 build", "P2 build"],
                 "game": {"phase": "build"}, "dice": [6],
                 "block": [{"id": "P1.1", "type": "glader", "at": "1c2"},
                           {"id": "P2.1", "type": "orc", "at": "2f2"}]})
    assert not r.ok and "dice ran out" in r.detail
