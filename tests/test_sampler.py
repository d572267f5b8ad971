"""``rules.sample_legal_action`` draws from exactly the legal actions (issue 6).

The sampler puts the candidates of ``legal_actions`` in random order and returns the first
that passes the check. Checked: what it returns is always in ``legal_actions`` (uniform and
weighted, along seeded games of 2, 3 and 4 players), it changes nothing, it is deterministic
for a seeded generator, over many draws every legal action comes out at about its share
(uniform) or in proportion to its weight, and it gives None when the seat may not act.
"""

from __future__ import annotations

from collections import Counter

import pytest

from core.rng import Rng
from core.wizwar.actions import Action
from core.wizwar.game import GameConfig, new_game
from core.wizwar.rules import (
    _candidates,
    apply,
    is_legal,
    legal_actions,
    sample_legal_action,
    to_move,
)
from core.wizwar.state import State, state_hash

WEIGHTS = {"discard": 1, "end": 1, "boost": 2}


def _weight(a: Action) -> int:
    return WEIGHTS.get(a.verb, 4)


def _positions(players: int, seed: int, every: int, cap: int = 2000) -> list[State]:
    """Copies of the positions every ``every`` actions of a seeded random game."""
    st = new_game(GameConfig(players=players), seed)
    rng = Rng.from_seed(f"sampler-{seed}")
    out = []
    n = 0
    while not st.winner and n < cap:
        if n % every == 0:
            out.append(State.from_wire(st.to_wire()))
        seat = to_move(st)[0]
        a = sample_legal_action(st, seat, rng.below)
        assert a is not None
        apply(st, a)
        n += 1
    return out


@pytest.mark.parametrize("players,seed", [(2, 1), (3, 2), (4, 3)])
def test_sampled_action_is_always_legal(players: int, seed: int) -> None:
    """Along a whole game: uniform and weighted draws are in legal_actions, and drawing
    changes nothing (same hash, same list afterwards)."""
    st = new_game(GameConfig(players=players), seed)
    rng = Rng.from_seed(f"legal-{seed}")
    n = 0
    while not st.winner and n < 1500:
        seat = to_move(st)[0]
        legal = legal_actions(st, seat)
        before = state_hash(st)
        w = sample_legal_action(st, seat, rng.below, _weight)
        a = sample_legal_action(st, seat, rng.below)
        assert state_hash(st) == before
        assert a in legal and w in legal, (str(a), str(w))
        assert legal_actions(st, seat) == legal
        apply(st, a)
        n += 1
    assert n > 200


def test_every_legal_action_is_drawn_about_equally() -> None:
    """At positions with many candidates, 60 draws per legal action: every legal action
    comes out, none is far from its share, nothing illegal ever does."""
    positions = [p for p in _positions(4, 7, every=37) + _positions(2, 8, every=23)
                 if not p.winner]
    checked = 0
    for st in positions:
        seat = to_move(st)[0]
        legal = legal_actions(st, seat)
        if len(legal) < 4:
            continue
        assert len(_candidates(st, seat)) >= len(legal)
        rng = Rng.from_seed(f"uniform-{st.seq}")
        draws = 60 * len(legal)
        got = Counter(str(sample_legal_action(st, seat, rng.below)) for _ in range(draws))
        assert set(got) == {str(a) for a in legal}
        assert min(got.values()) >= 25 and max(got.values()) <= 110, got.most_common(3)
        checked += 1
    assert checked >= 10


def test_weighted_draws_follow_the_weights() -> None:
    """Weighted: every legal action is reachable and, summed over positions, an action of
    weight 4 comes out about four times as often as one of weight 1."""
    share: dict[int, list[float]] = {1: [], 4: []}
    for st in _positions(4, 9, every=41):
        if st.winner:
            continue
        seat = to_move(st)[0]
        legal = legal_actions(st, seat)
        if len(legal) < 3:
            continue
        rng = Rng.from_seed(f"weighted-{st.seq}")
        total = sum(_weight(a) for a in legal)
        draws = 40 * len(legal)
        got = Counter(sample_legal_action(st, seat, rng.below, _weight) for _ in range(draws))
        assert set(got) == set(legal)
        for a in legal:
            if _weight(a) in share:
                share[_weight(a)].append(got[a] / draws * total)  # about its weight
    mean1 = sum(share[1]) / len(share[1])
    mean4 = sum(share[4]) / len(share[4])
    assert 0.7 < mean1 < 1.3 and 3.4 < mean4 < 4.6, (mean1, mean4)


def test_deterministic_and_none_when_not_to_move() -> None:
    """The same seed draws the same actions; a seat that may not act gets None, as
    legal_actions gives it nothing."""
    st = new_game(GameConfig(players=3), 5)
    seat = to_move(st)[0]
    r1, r2 = Rng.from_seed("same"), Rng.from_seed("same")
    assert [sample_legal_action(st, seat, r1.below) for _ in range(20)] == \
        [sample_legal_action(st, seat, r2.below) for _ in range(20)]
    other = next(s for s in st.seats if s != seat)
    assert legal_actions(st, other) == []
    assert sample_legal_action(st, other, r1.below) is None
    with pytest.raises(ValueError):
        sample_legal_action(st, seat, r1.below, lambda a: 0)


def test_candidates_unchanged_by_rows() -> None:
    """legal_actions is the candidates that pass the check, in order, no duplicates."""
    for st in _positions(3, 4, every=53):
        if st.winner:
            continue
        seat = to_move(st)[0]
        cands = _candidates(st, seat)
        assert len({str(a) for a in cands}) == len(cands)
        assert legal_actions(st, seat) == [a for a in cands if is_legal(st, a)]
