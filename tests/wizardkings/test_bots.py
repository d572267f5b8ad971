"""Wizard Kings' bots and self-play (issue 18): each level beats random play, reads
nothing but its view, is deterministic; a self-play game runs every check, its counts name
what was used, and its log replays."""

from __future__ import annotations

from collections import Counter

import pytest

from core import log
from core.rng import Rng
from core.wizardkings import selfplay
from core.wizardkings.ruleset import RULESET as R

#: cities games with a short turn limit (a draw after turn 10)
OPTS = {"turn_limit": 10}


def _game(seed: int, levels: dict[str, str]) -> str:
    """One game from ``seed``; ``levels`` per seat (``random``: a seeded random player
    among the listed actions). Returns the winning seat, ``-`` for a draw."""
    st = R.new_game(R.validate_options({}), seed)
    rng = Rng.from_seed(f"test-bots:{seed}")
    for _ in range(4000):
        out = R.result(st)
        if out.over:
            return "-" if out.draw else out.winners[0]
        p = R.to_move(st)[0]
        if levels[p] == "random":
            legal = R.legal_actions(st, p)
            R.apply(st, legal[rng.below(len(legal))])
        else:
            R.apply(st, R.bot_act(st, p, levels[p]))
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("level", ["captain", "warlord"])
def test_each_bot_beats_random_play(level: str) -> None:
    """Two seeded games against a random player, the bot on each seat in turn (Elves as
    P1, Orcs as P2): the bot takes enough cities to win both (R101) before the turn limit
    of 30 (a random player, who never wins, would draw or lose)."""
    assert _game(1, {"P1": level, "P2": "random"}) == "P1"
    assert _game(2, {"P1": "random", "P2": level}) == "P2"


def _states(seed: int, n: int) -> list[object]:
    """The states of the first ``n`` actions of a captain-vs-captain game."""
    st = R.new_game(R.validate_options(OPTS), seed)
    out = []
    for _ in range(n):
        p = R.to_move(st)[0]
        R.apply(st, R.bot_act(st, p, "captain"))
        out.append(R.clone(st))
    return out


@pytest.mark.parametrize("level", ["captain", "warlord"])
def test_a_bot_reads_only_its_view(level: str) -> None:
    """At every step of a game's first 80 actions the bot acting chooses the same action
    when every block it may not see is given another strength (``redeal_hidden``: its view
    and listing are the same), and the same again when asked twice (deterministic)."""
    moved = 0
    for k, st in enumerate(_states(3, 80)):
        who = R.to_move(st)
        if not who:
            continue
        p = who[0]
        a = R.bot_act(st, p, level)
        other = R.redeal_hidden(st, p, k)
        assert R.view(other, p) == R.view(st, p)
        assert R.bot_act(other, p, level) == a, (k, str(a))
        assert R.bot_act(st, p, level) == a
        moved += a.verb == "move"
    assert moved > 10


def test_unknown_level_is_refused_in_words() -> None:
    """A level that does not exist: ValueError naming the levels."""
    st = R.new_game(R.validate_options({}), 1)
    with pytest.raises(ValueError, match="captain, warlord"):
        R.bot_act(st, "P1", "grandmaster")


def test_selfplay_game_checks_everything_and_its_log_replays() -> None:
    """One self-play game (captain against warlord): no crash, no invariant failure, it
    ends; the counts name unit types and spells of both armies; its log replays to the
    end with the same hash; the report names the never-used ones."""
    units: Counter = Counter()
    casts: Counter = Counter()
    res = selfplay.play_game(5, ("captain", "warlord"), options=OPTS, units=units,
                             casts=casts, sample=2)
    assert res.failure == "", (res.failure, res.bad_action)
    assert res.winner and res.actions > 100
    assert units["elves:glader"] and units["orcs:goblin"] and sum(casts.values())
    data = selfplay.game_log(2, res.seed, res.levels, res.moves, options=OPTS)
    loaded = log.read(data)
    assert loaded.end is not None and not loaded.damage
    st = log.replay(loaded)
    assert R.result(st).over
    rep = selfplay.RunReport(2, ("captain", "warlord"), [res], units, casts)
    text = selfplay.format_report(rep)
    assert "crashes: 0, invariant failures: 0" in text
    assert "unit types used (18 types" in text and "spells cast (12 spells" in text


def test_selfplay_checks_catch_what_they_are_for() -> None:
    """The invariants fail in words on a state that breaks them: an overstack with no
    settlement pending, a ground unit at sea, a treasury that is not the cities' GP."""
    st = _states(4, 4)[-1]
    g = st.d  # type: ignore[attr-defined]
    assert selfplay.check_state(g) == ""
    mine = sorted(b for b, x in g["blocks"].items() if x["owner"] == "P1")
    bad = R.clone(st).d  # type: ignore[attr-defined]
    for b in mine[:7]:
        if bad["blocks"][b]["type"] != "wicana":
            bad["blocks"][b]["at"] = "1d5"
    assert "overstacked" in selfplay.check_state(bad)
    bad = R.clone(st).d  # type: ignore[attr-defined]
    glader = next(b for b in mine if bad["blocks"][b]["type"] == "glader")
    bad["blocks"][glader]["at"] = "1a9"
    assert "water hex 1a9" in selfplay.check_state(bad)
    bad = R.clone(st).d  # type: ignore[attr-defined]
    bad["phase"], bad["treasury"] = "build", {"P1": 99, "P2": 0}
    assert "treasury is 99" in selfplay.check_state(bad)
