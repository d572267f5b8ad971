"""Coverage of the deck and of the FAQ rulings by conformance scenarios.

(a) Every card of ``core/wizwar/cards.py`` is used in at least one scenario: played in a step
    that is not refused; a magic stone may instead be displayed at the start, a number card
    used as ``+N`` or a boost, Trap! put in a draw pile.
(b) Every row of ``docs/faq-coverage.md`` that says ``covered`` or ``partly`` names scenario
    files that exist and pass, and every ruling bullet of the FAQ summary (seeds/001 §4) and
    of the digest's gotchas (seeds/000 §12) is cited by a row.
Source: issue 4 (complete deck: every FAQ ruling and every card in a passing scenario).
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
import shared

from core.wizwar import cards as C
from core.wizwar.actions import NotationError, parse
from core.wizwar.scenario import collect, run_doc, run_file

ROOT = Path(__file__).resolve().parents[1]
SHARED = shared.path("scenarios")
SEEDS = shared.path("seeds")
OURS = ROOT / "tests" / "scenarios"
DOC = ROOT / "docs" / "faq-coverage.md"
STATUSES = ("covered", "partly", "n/a")


def _docs() -> dict[str, dict]:
    out = {}
    for path in collect([str(OURS), *shared.existing("scenarios")]):
        with open(path, "rb") as f:
            out[path] = tomllib.load(f)
    return out


def cards_used(doc: dict) -> set[str]:
    """The card slugs a scenario document uses (see the module docstring)."""
    used: set[str] = set()
    for raw in doc.get("steps", []):
        text = str(raw).strip()
        if text.startswith("!"):
            continue  # a refused step uses nothing
        try:
            a = parse(text)
        except NotationError:
            continue
        if a.verb == "play":
            used.add(a.card)
        if a.verb in ("play", "boost") and a.number is not None:
            used.add(str(a.number))
    for p in doc.get("players", []):
        used.update(s for s in p.get("displayed", []) if C.card(s).kind == C.STONE)
    used.update(s for s in doc.get("deck", []) if s == "trap")
    return used


def test_every_card_is_used_in_a_scenario() -> None:
    """(a): no card of the deck goes without a scenario that uses it (the shared scenarios
    count too, so this needs them)."""
    shared.need("scenarios")
    used: set[str] = set()
    for doc in _docs().values():
        used |= cards_used(doc)
    missing = [c.slug for c in C.CARDS if c.slug not in used]
    assert not missing, f"cards used in no scenario: {missing}"


def test_cards_used_counts_only_real_uses() -> None:
    """A refused play, a card only held, or a stone only in the hand is no use."""
    doc = {"steps": ["!P1 play fireball @P2 +4", "P1 play teleport @c3", "P1 boost 6",
                     "P1 end draw 1"],
           "players": [{"hand": ["blunt", "bloodstone"], "displayed": ["shieldstone"]}],
           "deck": ["trap", "2"]}
    assert cards_used(doc) == {"teleport", "6", "shieldstone", "trap"}


def rows(text: str) -> list[dict[str, object]]:
    """The ruling rows of faq-coverage.md: number, sources, scenario files, status."""
    out = []
    for line in text.splitlines():
        m = re.match(r"^\|\s*(\d+)\s*\|(.*)\|(.*)\|(.*)\|(.*)\|\s*$", line)
        if not m:
            continue
        out.append({
            "n": int(m.group(1)),
            "sources": re.findall(r"\b(00[01]):(\d+)\b", m.group(3)),
            "files": re.findall(r"`([^`]+\.toml)`", m.group(4)),
            "status": m.group(5).strip(),
        })
    return out


def _find(name: str) -> Path | None:
    for folder in (OURS, SHARED):
        if (folder / name).is_file():
            return folder / name
    return None


def _bullets(seed: str, start: str, stop: str) -> list[int]:
    """Line numbers (1-based) of the bullet lines of a seed file's section."""
    files = sorted(shared.need("seeds").glob(f"{seed}_*.txt"))
    assert files, f"missing seed {seed} in {SEEDS}"
    lines = files[0].read_text(encoding="utf-8").splitlines()
    first = next(i for i, t in enumerate(lines) if t.startswith(start))
    last = next(i for i in range(first + 1, len(lines)) if lines[i].startswith(stop))
    return [i + 1 for i in range(first, last) if lines[i].lstrip().startswith("•")]


def test_faq_coverage_rows_are_well_formed() -> None:
    """Numbered 1..N, a known status, a source each; covered rows name scenarios."""
    table = rows(DOC.read_text(encoding="utf-8"))
    assert [r["n"] for r in table] == list(range(1, len(table) + 1))
    assert len(table) >= 40
    for r in table:
        assert r["status"] in STATUSES, r
        assert r["sources"], r
        if r["status"] in ("covered", "partly"):
            assert r["files"], f"row {r['n']} is {r['status']} but names no scenario"
        else:
            assert not r["files"], f"row {r['n']} is n/a but names a scenario"


def test_every_faq_ruling_and_gotcha_is_cited() -> None:
    """Each bullet of seeds/001 §4 and seeds/000 §12 is the source of at least one row."""
    cited = {(s, int(n)) for r in rows(DOC.read_text(encoding="utf-8"))
             for s, n in r["sources"]}  # type: ignore[union-attr]
    faq = _bullets("001", "4. Official FAQ rulings", "The FAQ also contains")
    gotchas = _bullets("000", "12. Notable per-card engine gotchas", "---")
    assert len(faq) >= 20 and len(gotchas) >= 9
    missing = [f"001:{n}" for n in faq if ("001", n) not in cited]
    missing += [f"000:{n}" for n in gotchas if ("000", n) not in cited]
    assert not missing, f"rulings not in docs/faq-coverage.md: {missing}"


def _named() -> list[tuple[int, str]]:
    table = rows(DOC.read_text(encoding="utf-8"))
    return [(r["n"], f) for r in table if r["status"] != "n/a"  # type: ignore[misc]
            for f in r["files"]]  # type: ignore[union-attr]


@pytest.mark.parametrize("row,name", _named(), ids=lambda x: str(x))
def test_faq_row_scenario_exists_and_passes(row: int, name: str) -> None:
    """(b): a scenario a ruling row names exists and passes."""
    path = _find(name)
    if path is None and not (OURS / name).is_file():
        shared.need("scenarios")  # a shared scenario: skipped when the folder is absent
    assert path is not None, f"row {row}: no scenario file {name}"
    r = run_file(str(path))
    assert r.ok, f"row {row}: {r.line()}"


def test_reason_check_fails_on_a_wrong_reason() -> None:
    """A `reason` check fails when the refusal says something else, or the step passed."""
    base = {"title": "t", "board": {"size": "5x5"},
            "players": [{"at": "a1", "hand": ["fireball", "2"]}, {"at": "c1"}],
            "steps": ["!P1 play fireball @P1 +2"],
            "check": [{"after": 1, "reason": "attack yourself"}]}
    assert run_doc(base).ok, run_doc(base).detail
    wrong = {**base, "check": [{"after": 1, "reason": "first round"}]}
    assert "reason 'first round' expected" in run_doc(wrong).detail
    passed = {**base, "steps": ["P1 play fireball @P2 +2"]}
    assert "was accepted" in run_doc(passed).detail


def test_sectors_board_loads_and_rejects_mixing() -> None:
    """`[board] sectors` builds the real board; it cannot be mixed with an open board's keys."""
    doc = {"title": "t", "board": {"sectors": ["A", "B", "C", "D"]},
           "players": [{"at": "j10"}, {"at": "a1"}], "steps": [], "expect": {"P1.at": "j10"}}
    assert run_doc(doc).ok, run_doc(doc).detail
    bad = {**doc, "board": {"sectors": ["A", "B"], "size": "5x5"}}
    assert "cannot be mixed" in run_doc(bad).detail
    unknown = {**doc, "board": {"sectors": ["A", "Z"]}}
    assert run_doc(unknown).detail.startswith("cannot load")
