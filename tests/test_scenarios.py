"""Every conformance scenario: the shared ones in ../shared/scenarios and our own.

Source: notation.md (scenario files); the project must run every file in shared/scenarios.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import shared

from core.wizwar.scenario import collect, run_doc, run_file

ROOT = Path(__file__).resolve().parents[1]
SHARED = shared.path("scenarios")
OURS = ROOT / "tests" / "scenarios"


def _files() -> list[str]:
    return collect([*shared.existing("scenarios"), str(OURS)])


def test_shared_scenarios_present() -> None:
    """The shared conformance scenarios must be there to be run (never silently skipped)."""
    shared.need("scenarios")
    assert len(collect([str(SHARED)])) >= 19
    assert len(collect([str(OURS)])) >= 20


@pytest.mark.parametrize("path", _files(), ids=lambda p: Path(p).name)
def test_scenario(path: str) -> None:
    """Run one scenario file; a FAIL names what differed."""
    r = run_file(path)
    assert r.ok, r.line()


def test_runner_reports_failures() -> None:
    """A wrong expectation, an unknown key and a refused step are FAILs, not passes."""
    base = {
        "title": "t", "steps": ["P1 play fireball @P2 +4", "P2 pass"],
        "board": {"size": "5x5"},
        "players": [{"at": "a1", "hand": ["fireball", "4"]}, {"at": "d4"}],
        "expect": {"P2.life": 11},
    }
    assert run_doc(base).ok
    assert not run_doc({**base, "expect": {"P2.life": 12}}).ok
    assert "unknown key" in run_doc({**base, "bogus": 1}).detail
    assert not run_doc({**base, "steps": ["P1 play fireball @P2 +5"]}).ok
    assert not run_doc({**base, "steps": ["!P1 play fireball @P2 +4"]}).ok
    trap = {**base, "deck": ["trap"], "steps": ["P1 end"], "expect": {}}
    assert "ran out of dice" in run_doc(trap).detail
    bad_card = {**base, "players": [{"at": "a1", "hand": ["fireballz"]}, {"at": "d4"}]}
    assert "unknown card" in run_doc(bad_card).detail


def test_cli_scenario_exit_status(tmp_path: Path) -> None:
    """`wizwar scenario` prints N passed, N failed and exits 1 on any failure."""
    from wizwar_tui.cli import main

    bad = tmp_path / "bad.toml"
    bad.write_text('title = "x"\nsteps = ["P1 fly"]\n[board]\nsize = "5x5"\n'
                   '[[players]]\nat = "a1"\n')
    assert main(["scenario", str(bad)]) == 1
    assert main(["scenario", str(OURS)]) == 0
    assert main(["scenario", str(shared.need("scenarios"))]) == 0


def test_bad_setup_values_are_load_failures() -> None:
    """Bad values in a scenario's setup are 'cannot load' FAILs, never engine errors."""
    base = {"title": "t", "steps": [], "board": {"size": "5x5"},
            "players": [{"at": "a1"}, {"at": "e5"}]}
    for player in ({"at": "a1", "life": "lots"},
                   {"at": "a1", "conditions": [{"slug": "nosuch"}]},
                   {"at": "a1", "conditions": [{"slug": "invisible", "caster": "P9"}]}):
        r = run_doc({**base, "players": [player, {"at": "e5"}]})
        assert not r.ok and r.detail.startswith("cannot load"), r.detail
    r = run_doc({**base, "turn": {"attacked": "maybe"}})
    assert not r.ok and r.detail.startswith("cannot load"), r.detail


def test_eliminated_compared_in_order_and_bools_strictly() -> None:
    """`eliminated` is an ordered list (notation.md); `alive` is a bool, not 0/1."""
    doc = {"title": "t", "steps": ["P1 play destroy-wall @b2:e", "P2 pass", "P3 pass"],
           "board": {"size": "5x5", "walls": ["b2:e"]},
           "players": [{"at": "a1", "hand": ["destroy-wall"]},
                       {"at": "b2", "life": 2}, {"at": "c2", "life": 2}, {"at": "e5"}],
           "expect": {"eliminated": ["P2", "P3"], "P2.alive": False}}
    assert run_doc(doc).ok, run_doc(doc).detail
    assert not run_doc({**doc, "expect": {"eliminated": ["P3", "P2"]}}).ok
    assert not run_doc({**doc, "expect": {"P2.alive": 0}}).ok


def test_the_generic_runner_picks_the_ruleset_from_the_file(tmp_path: Path) -> None:
    """``core.scenario`` (``wizwar scenario``): a file's top-level ``ruleset`` key picks the
    game (default ``wizwar``); an unknown one is a FAIL line that says so; the count line."""
    from core import scenario

    base = SHARED if SHARED.is_dir() else OURS
    text = Path(collect([str(base)])[0]).read_text()
    (tmp_path / "a-default.toml").write_text(text)
    (tmp_path / "b-named.toml").write_text('ruleset = "wizwar"\n' + text)
    (tmp_path / "c-unknown.toml").write_text('ruleset = "chess"\n' + text)
    lines: list[str] = []
    assert scenario.run_paths([str(tmp_path)], lines.append) == (2, 1)
    assert lines[0].startswith("PASS") and lines[1].startswith("PASS")
    assert lines[2].startswith("FAIL") and "unknown game 'chess'" in lines[2]
    assert lines[3] == "2 passed, 1 failed"
    assert scenario.run_file(str(tmp_path / "b-named.toml")).ruleset == "wizwar"
