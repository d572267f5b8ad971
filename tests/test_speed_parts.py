"""Parts made faster by issue 14 give what the plain way gives: the one-pass token listing of
``view``, the copy of the edges in ``clone``."""

from __future__ import annotations

import pytest

from core.rng import Rng
from core.wizwar.game import GameConfig, new_game
from core.wizwar.rules import apply, legal_actions, to_move
from core.wizwar.state import State


def _per_square(state: State) -> dict:
    out = {}
    for sq in state.layout.squares():
        tk = state.tokens_at(sq)
        if tk:
            out[sq] = tuple(tk)
    return out


@pytest.mark.parametrize("players,seed", [(2, 3), (3, 4), (4, 5)])
def test_tokens_by_square_same_as_asking_every_square(players: int, seed: int) -> None:
    st = new_game(GameConfig(players=players), seed)
    rng = Rng.from_seed(f"tokens-{seed}")
    seen_objects = 0
    for _ in range(400):
        if st.winner:
            break
        got = st.tokens_by_square()
        want = _per_square(st)
        assert got == want and list(got) == list(want)
        seen_objects += bool(st.floor) + bool(st.bushes) + bool(st.stones)
        seat = to_move(st)[0]
        legal = legal_actions(st, seat)
        apply(st, legal[rng.below(len(legal))])
    # made-up extra tokens: two objects and a treasure on one square, a bush and a stone
    sq = st.layout.squares()[5]
    st.floor.append((sq, 0))
    st.floor.append((sq, 1))
    st.treasures["P1.t1"] = sq
    st.bushes[sq] = 3
    st.stones.append(sq)
    assert st.tokens_by_square() == _per_square(st)
    assert list(st.tokens_by_square()) == list(_per_square(st))


@pytest.mark.parametrize("fallback", [False, True])
def test_clone_copies_every_edge_on_its_own(fallback: bool, monkeypatch: pytest.MonkeyPatch
                                            ) -> None:
    from core.wizwar import determinize as D
    from core.wizwar.state import EdgeState, state_hash

    if fallback:  # as if EdgeState had gained a field: every field copied from the instance
        monkeypatch.setattr(D, "_EDGE_FIELDS", ("kind",))
    st = new_game(GameConfig(players=4), 3)
    e0 = next(iter(st.edges))
    st.edges[e0] = EdgeState("illusion-wall", 20, True, "P1", ["P1"], ["P2"])
    c = D.clone(st)
    assert c.edges == st.edges and list(c.edges) == list(st.edges)
    assert state_hash(c) == state_hash(st)
    for e, s in st.edges.items():
        assert c.edges[e] is not s
        assert c.edges[e].rolled is not s.rolled and c.edges[e].believe is not s.believe
    c.edges[e0].rolled.append("P3")
    c.edges[e0].hp -= 5
    assert st.edges[e0].rolled == ["P1"] and st.edges[e0].hp == 20


def test_bench_long_game_lasts_and_replays() -> None:
    """The bench's long game (the replay figures' log) has the length asked, nobody hurt,
    and its log replays to its last state."""
    from core import log
    from core.wizwar.state import state_hash
    from wizwar_tui.wizwar import bench

    g = bench.long_game(300, seed=2)
    assert len(g.actions) == 300 and not g.ended
    st = log.replay(log.read(bench.game_log(g)))
    assert all(w.life == st.wizards[0].life for w in st.wizards) and not st.winner
    again = new_game(GameConfig(players=4), 2)
    for a in g.actions:
        apply(again, a)
    assert state_hash(again) == state_hash(st)


def test_boards_of_one_geometry_share_their_tables_and_trace_the_same_lines() -> None:
    """Two 4-player boards of other sectors and turns share one set of line-of-sight tables
    (issue 14), and every line read from it is the line a board with its own empty tables
    traces; another geometry (3 players) has its own."""
    import dataclasses

    from core.wizwar.board import assemble, load_sectors, sightlines

    ids = sorted(load_sectors())
    a = assemble(4, ids[:4])
    b = assemble(4, list(reversed(ids[:4])), rotations=[1, 2, 3, 0])
    c = assemble(3, ids[:3])
    assert a._cache is b._cache and a._cache is not c._cache
    assert a.printed != b.printed
    squares = a.squares()
    for s in squares[::7]:
        for t in squares[::11]:
            sightlines(a, s, t)
    fresh = dataclasses.replace(b, _cache={})
    for s in squares[::7]:
        for t in squares[::11]:
            assert sightlines(b, s, t) == sightlines(fresh, s, t)


def test_fixed_sight_gives_the_answers_of_asking_afresh() -> None:
    """``has_los`` inside ``fixed_sight`` (answers kept by what blocks) answers as the plain
    check does, on a board with created walls and a thornbush; a wall put up after the block
    is seen by the next question."""
    from core.wizwar.rules.sight import _has_los, fixed_sight, has_los
    from core.wizwar.state import EdgeState

    st = new_game(GameConfig(players=4), 4)
    squares = st.layout.squares()
    for sq in squares[3:40:6]:
        e = st.layout.edge_key(sq, "e")
        st.edges[e] = EdgeState("wall", 20, created=True)
    st.bushes[squares[len(squares) // 2]] = 3
    pairs = [(a, b) for a in squares[::9] for b in squares[::5]]
    with fixed_sight(st):
        got = [has_los(st, a, b) for a, b in pairs]
    assert got == [_has_los(st, a, b, 0) for a, b in pairs]
    assert any(got) and not all(got)
    a, b = next((a, b) for (a, b), ok in zip(pairs, got, strict=True) if ok and a != b)
    for side in "nesw":  # wall a in: the memo must not answer from before
        st.edges[st.layout.edge_key(a, side)] = EdgeState("wall", 20, created=True)
    assert has_los(st, a, b) == _has_los(st, a, b, 0)


@pytest.mark.parametrize("seed", [5, 6])
def test_quiet_illusion_scans_skipped_roll_as_every_scan_would(seed: int,
                                                               monkeypatch: pytest.MonkeyPatch
                                                               ) -> None:
    """Seventh round, the incremental settle: the first-sight scan of illusion walls is
    skipped when all it reads equals what the last scan that rolled nothing read. Two copies
    of a seeded 4-player random game in lockstep, one with the skip, one whose memory of the
    last quiet scan is forgotten before every action (every scan made): the same events
    (the belief rolls among them) after every action and the same state hash; the skip was
    taken and rolls were made."""
    from core.wizwar.rules import sample_legal_action
    from core.wizwar.rules.cards import creations as CR
    from core.wizwar.state import state_hash

    skipped = []
    inputs = CR._sight_inputs

    def counted(state: State, walls: list) -> tuple:
        got = inputs(state, walls)
        if getattr(CR._QUIET, "layout", None) is state.layout and CR._QUIET.inputs == got:
            skipped.append(state.seq)
        return got

    monkeypatch.setattr(CR, "_sight_inputs", counted)
    fast, full = new_game(GameConfig(players=4), seed), new_game(GameConfig(players=4), seed)
    rng = Rng.from_seed(f"t{seed}")
    rolls = 0
    while not fast.winner and fast.seq < 3000:
        a = sample_legal_action(fast, to_move(fast)[0], rng.below)
        assert a is not None
        got = apply(fast, a)
        kept = getattr(CR._QUIET, "layout", None), getattr(CR._QUIET, "inputs", None)
        CR._QUIET.layout = CR._QUIET.inputs = None  # forgotten: the full copy's scan is made
        want = apply(full, a)
        CR._QUIET.layout, CR._QUIET.inputs = kept  # the fast copy's memory
        assert got == want, (fast.seq, a)
        rolls += sum(1 for e in got if e.kind == "illusion")
        if fast.seq % 50 == 0:
            assert state_hash(fast) == state_hash(full), fast.seq
    assert state_hash(fast) == state_hash(full)
    assert rolls >= 3, rolls
    assert len(skipped) > 500, len(skipped)  # the skip was taken (quiet scans abound)


def test_a_wall_taken_down_between_quiet_scans_lets_the_roll_happen() -> None:
    """The quiet-scan skip compares what blocks sight too: P2 cannot see the illusion wall,
    a scan rolls nothing (and is remembered); with every other wall taken down in place, the
    next scan sees him roll."""
    from core.wizwar.rules import has_los
    from core.wizwar.rules._common import Out
    from core.wizwar.rules.cards import creations as CR

    st = new_game(GameConfig(players=2), 44)
    p2 = st.wizard("P2")
    assert p2.at is not None
    e = next(k for k, es in sorted(st.edges.items()) if es.kind == "wall"
             and not has_los(st, p2.at, k))
    es = st.edges[e]
    es.kind, es.caster, es.created, es.rolled = "illusion-wall", "P1", True, ["P1"]
    quiet = Out()
    CR._illusion_rolls(st, quiet)
    assert not quiet.events and st.edges[e].rolled == ["P1"]
    CR._illusion_rolls(st, quiet)  # the same inputs: skipped, still nothing
    assert not quiet.events
    for k in [k for k in st.edges if k != e]:
        del st.edges[k]
    assert has_los(st, p2.at, e)
    seen = Out()
    CR._illusion_rolls(st, seen)
    assert [ev.kind for ev in seen.events] == ["illusion"] and st.edges[e].rolled == ["P1", "P2"]


@pytest.mark.parametrize("players,seed", [(2, 7), (4, 8)])
def test_ruleset_clone_is_the_wire_round_trip(players: int, seed: int) -> None:
    """``WizWar.clone`` (the field-by-field copy) gives what the wire form and back gives,
    field by field (the dealer left out, as the wire leaves it), and shares no list with
    the original: along a seeded game, networked (a dealer attached, beaconed dice)."""
    from core import beacon, registry
    from core.wizwar.rules import sample_legal_action

    rs = registry.get("wizwar")
    st = new_game(GameConfig(players=players), seed)
    beacon.beaconize(rs, st)
    st.dealer = object()  # what a networked game holds: never copied
    rng = Rng.from_seed(f"clone-{seed}")
    compared = 0
    for step in range(300):
        if st.winner:
            break
        if step % 7 == 0:
            c = rs.clone(st)
            w = rs.state_from_wire(rs.state_to_wire(st))
            assert c.dealer is None and w.dealer is None
            for name in vars(w):
                assert getattr(c, name) == getattr(w, name), name
            assert vars(c.rng) == vars(w.rng)
            assert rs.state_hash(c) == rs.state_hash(w) == rs.state_hash(st)
            for name, v in vars(st).items():
                if isinstance(v, (list, dict)) and v:
                    assert getattr(c, name) is not v, name
            for a, b in zip(c.wizards, st.wizards, strict=True):
                assert a is not b and a.hand is not b.hand
            compared += 1
        a = sample_legal_action(st, to_move(st)[0], rng.below)
        assert a is not None
        rng2 = rs.chance(st)
        rng2.beaconed = False  # rolls drawn locally in this test
        apply(st, a)
        rng2.beaconed = True
    assert compared >= 10


def test_apply_checked_gives_what_apply_gives() -> None:
    """``apply(..., checked=True)`` (no second dry run for an action just found legal) gives
    the same events and states as ``apply`` along seeded random games; ``apply`` still
    refuses an illegal action with the state untouched."""
    from core.engine import IllegalAction
    from core.wizwar.determinize import clone
    from core.wizwar.rules import sample_legal_action
    from core.wizwar.state import state_hash

    for players, seed in ((2, 11), (4, 12)):
        a_st = new_game(GameConfig(players=players), seed)
        b_st = new_game(GameConfig(players=players), seed)
        rng = Rng.from_seed(f"checked-{seed}")
        for _ in range(400):
            if a_st.winner:
                break
            a = sample_legal_action(a_st, to_move(a_st)[0], rng.below)
            assert a is not None
            assert apply(a_st, a) == apply(b_st, a, checked=True)
            assert a_st.to_wire() == b_st.to_wire()
        seat = to_move(a_st)[0]
        other = next(s for s in a_st.seats if s != seat)
        before = clone(a_st)
        with pytest.raises(IllegalAction):
            apply(a_st, f"{other} end")
        assert state_hash(a_st) == state_hash(before) and a_st.to_wire() == before.to_wire()


def test_action_from_wire_remembered_is_the_parse() -> None:
    """``Action.from_wire`` remembers its re-parse: a repeated wire form gives an equal
    action (canonical, as the parse gives it), and a malformed one is still refused."""
    from core.wizwar import actions as A

    A._FROM_WIRE.clear()
    w = ["P1", "play", "fireball", ["P2"], 3, []]
    first = A.Action.from_wire(w)
    assert A.Action.from_wire(list(w)) is first and first == A.parse("P1 play fireball @P2 +3")
    odd = ["P1", "move", "", ["C4", "c5"], None, []]  # spelled otherwise: canonical after
    assert A.Action.from_wire(odd) == A.Action.from_wire(odd) == A.parse("P1 move c4-c5")
    for bad in (["P1", "fly", "", [], None, []], ["P1", "move", "", [], None, [["a"]]]):
        for _ in range(2):
            with pytest.raises(A.NotationError):
                A.Action.from_wire(bad)
