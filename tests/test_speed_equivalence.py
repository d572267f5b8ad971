"""Speed work must not move behaviour: the legal-action lists of the golden games are unchanged.

``tests/data/legal_digests.json`` was recorded by ``scripts/legal_digests.py`` from main at the
start of issue 14 (before any speed change): for each of the 18 golden games (12 bot games and
6 random ones over every option), a running digest of every player to move's ``legal_actions``
(in order) and family names before each step, checkpointed every 100 steps.
``tests/test_golden_games.py`` checks the events and state hashes of the same games; together
they are the issue's "same legal-action lists, events and hashes on at least 16 seeded games".
"""

from __future__ import annotations

import json
import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

from legal_digests import game_digests  # noqa: E402

from core import registry  # noqa: E402

GAMES = json.loads((ROOT / "tests" / "data" / "golden_games.json").read_text())
RECORDED = json.loads((ROOT / "tests" / "data" / "legal_digests.json").read_text())


def test_every_golden_game_has_a_recording() -> None:
    assert len(RECORDED) == len(GAMES) >= 16
    assert [(r["seed"], r["chooser"]) for r in RECORDED] == [
        (g["seed"], g["chooser"]) for g in GAMES]


@pytest.mark.parametrize("index", range(len(GAMES)),
                         ids=[f"{g['chooser']}-{g['seed']}" for g in GAMES])
def test_legal_action_lists_unchanged(index: int) -> None:
    rs = registry.get("wizwar")
    got = game_digests(rs, GAMES[index])
    want = RECORDED[index]["checkpoints"]
    assert len(got) == len(want)
    for k, (a, b) in enumerate(zip(got, want, strict=True)):
        assert a == b, f"legal actions differ before step {k * RECORDED[index]['every']}"
