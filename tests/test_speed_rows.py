"""Candidate rows left out before the dry run (issue 14): only rows the dry run is sure to
refuse, found by its own checks on the same state.

A point attack (Fireball, Lightning Blast, Powerthrust, Sudden Death) brings a row at every
wall, door and thornbush of the board. None of them is listed while no attack is allowed
(first round, or already attacked this turn: ``_check_attack``), and ``legal_actions`` (which
dry-runs every row) leaves out those its caster may not attack or does not see (``_sees``).
Source: RB Combat (one attack a turn; none in the first round); RB The Cards (L.O.S.).
"""

from __future__ import annotations

import pytest

from core.rng import Rng
from core.wizwar.actions import Action
from core.wizwar.game import GameConfig, new_game
from core.wizwar.rules import apply, is_legal, legal_actions, to_move
from core.wizwar.rules.candidates import _candidate_rows
from core.wizwar.state import State

POINT = ("fireball", "lightning-blast", "powerthrust", "sudden-death")


def _wall_rows(rows: list[tuple]) -> list[tuple]:
    return [r for r in rows if r[1] == "play" and r[2] in POINT and r[3]
            and ":" in r[3][0]]


@pytest.mark.parametrize(("players", "seed"), [(4, 21), (3, 22), (2, 23)])
def test_listing_leaves_out_only_rows_the_dry_run_refuses(players: int, seed: int) -> None:
    """Along a seeded random game: the rows for ``legal_actions`` are the full rows with
    some left out, every one left out is refused by ``is_legal``, and ``legal_actions``
    equals checking every full row; the filter does leave rows out in these games."""
    st = new_game(GameConfig(players=players), seed)
    rng = Rng.from_seed(f"rows-{seed}")
    left_out = 0
    for _ in range(300):
        if st.winner:
            break
        seat = to_move(st)[0]
        full = _candidate_rows(st, seat)
        listed = _candidate_rows(st, seat, listing=True)
        kept = set(listed)
        assert [r for r in full if r in kept] == listed
        for r in full:
            if r not in kept:
                left_out += 1
                assert not is_legal(st, Action(*r)), r
        legal = legal_actions(st, seat)
        assert legal == [a for a in map(lambda r: Action(*r), full) if is_legal(st, a)]
        apply(st, legal[rng.below(len(legal))])
    assert left_out > 0


def _with_fireball(round_: int, attacked: bool) -> tuple[State, str]:
    st = new_game(GameConfig(players=2), 5)
    seat = st.turn.active
    w = st.wizard(seat)
    cid = next(i for i, f in enumerate(st.faces) if f == "fireball")
    for holder in st.wizards:
        if cid in holder.hand:
            holder.hand.remove(cid)
    if cid in st.deck:
        st.deck.remove(cid)
    w.hand.append(cid)
    st.round, st.turn.attacked = round_, attacked
    return st, seat


def test_no_wall_rows_while_no_attack_is_allowed() -> None:
    """A Fireball in hand brings a row at every wall only when an attack is allowed: none in
    the first round, none after this turn's attack; in round 2 before attacking, one for each
    wall and door (the sampler's rows) and only the visible ones for ``legal_actions``."""
    st, seat = _with_fireball(1, False)
    assert _wall_rows(_candidate_rows(st, seat)) == []
    st, seat = _with_fireball(2, True)
    assert _wall_rows(_candidate_rows(st, seat)) == []
    st, seat = _with_fireball(2, False)
    every = _wall_rows(_candidate_rows(st, seat))
    assert len([r for r in every if r[2] == "fireball" and r[4] is None]) == len(st.edges)
    seen = _wall_rows(_candidate_rows(st, seat, listing=True))
    assert 0 < len(seen) < len(every)
    assert all(is_legal(st, Action(*r)) for r in seen)
