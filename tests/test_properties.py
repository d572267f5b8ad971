"""Property tests (hypothesis): notation and msgpack round trips, LOS symmetry, walls stop
movement (issue 6)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.codec import pack, unpack
from core.engine import IllegalAction
from core.wizwar import cards as C
from core.wizwar.actions import Action, parse
from core.wizwar.board import edge_name, parse_edge, square_name
from core.wizwar.game import GameConfig, new_game
from core.wizwar.rules import apply, has_los, legal_actions, to_move
from core.wizwar.scenario import build_state
from core.wizwar.state import State, state_hash

SLOW = settings(max_examples=12, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

seats = st.sampled_from([f"P{i}" for i in range(1, 7)])
cols = st.integers(0, 11)
rows = st.integers(0, 11)
squares = st.builds(lambda c, r: square_name((c, r)), cols, rows)
# any spelling of a side: the parser makes it canonical
sides = st.builds(lambda c, r, s: f"{square_name((c, r))}:{s}", cols, rows,
                  st.sampled_from("nesw"))
slugs = st.sampled_from(sorted(s for s in C.BY_SLUG if not C.is_number(s)))
players = st.builds(lambda i: f"P{i}", st.integers(1, 6))
treasures = st.builds(lambda i, k: f"P{i}.t{k}", st.integers(1, 6), st.integers(1, 2))
targets = st.one_of(players, treasures, squares, sides)
numbers = st.integers(2, 6)


@st.composite
def action_texts(draw: st.DrawFn) -> str:
    """Text of a well-formed action of any verb, parts in any order."""
    actor = draw(seats)
    verb = draw(st.sampled_from(["move", "boost", "punch", "play", "pass", "pickup", "drop",
                                 "discard", "end", "choose"]))
    if verb == "pass":
        return f"{actor} pass"
    if verb == "move":
        return f"{actor} move " + "-".join(draw(st.lists(squares, min_size=1, max_size=5)))
    if verb == "boost":
        return f"{actor} boost {draw(numbers)}"
    if verb == "end":
        n = draw(st.sampled_from([None, 0, 1, 2]))
        return f"{actor} end" + ("" if n is None else f" draw {n}")
    if verb in ("punch", "pickup", "drop"):
        return f"{actor} {verb} {draw(st.one_of(targets, slugs))}"
    if verb in ("discard", "choose"):
        return f"{actor} {verb} {draw(st.one_of(slugs, numbers.map(str)))}"
    parts = [f"@{','.join(draw(st.lists(targets, min_size=1, max_size=3)))}"] \
        if draw(st.booleans()) else []
    if draw(st.booleans()):
        parts.append(f"+{draw(numbers)}")
    keys = draw(st.lists(st.sampled_from(["name", "to", "path", "mode", "dir", "turn", "spell",
                                          "drop"]), unique=True, max_size=3))
    for k in keys:
        if k == "path":
            v = "-".join(draw(st.lists(squares, min_size=1, max_size=3)))
        elif k in ("to", "drop"):
            v = ",".join(draw(st.lists(st.one_of(squares, treasures, slugs), min_size=1,
                                       max_size=2)))
        elif k == "dir":
            v = draw(st.sampled_from("nesw"))
        elif k == "turn":
            v = draw(st.sampled_from(["90", "180", "270"]))
        else:
            v = draw(slugs)
        parts.append(f"{k}={v}")
    parts = draw(st.permutations(parts))
    return " ".join([actor, "play", draw(slugs), *parts])


@given(action_texts())
@settings(max_examples=400)
def test_notation_round_trip(text: str) -> None:
    """parse(str(a)) == a for every action, whatever spelling it was read from."""
    a = parse(text)
    assert parse(str(a)) == a
    assert str(parse(str(a))) == str(a)


@given(action_texts())
@settings(max_examples=400)
def test_action_msgpack_round_trip(text: str) -> None:
    """An action survives its canonical msgpack form, byte for byte."""
    a = parse(text)
    data = pack(a.to_wire())
    back = Action.from_wire(unpack(data))
    assert back == a
    assert pack(back.to_wire()) == data


@given(seed=st.integers(0, 10**6), players=st.integers(2, 4), data=st.data())
@SLOW
def test_state_msgpack_round_trip(seed: int, players: int, data: st.DataObject) -> None:
    """A state reached by random legal actions survives its msgpack form: the same form, the
    same hash, the same legal actions; and so does every action applied on the way."""
    s = new_game(GameConfig(players=players), seed)
    steps = data.draw(st.integers(0, 20), label="steps")
    for _ in range(steps):
        if s.winner:
            break
        seat = to_move(s)[0]
        legal = legal_actions(s, seat)
        a = legal[data.draw(st.integers(0, len(legal) - 1), label="action")]
        assert Action.from_wire(unpack(pack(a.to_wire()))) == a
        apply(s, a)
    wire = s.to_wire()
    back = State.from_wire(unpack(pack(wire)))
    assert back.to_wire() == wire
    assert state_hash(back) == state_hash(s)
    if not s.winner:
        seat = to_move(s)[0]
        # the same actions; their order may differ (it follows the edges' insertion order,
        # which the msgpack form sorts)
        assert sorted(map(str, legal_actions(back, seat))) == \
            sorted(map(str, legal_actions(s, seat)))


def _board(draw: st.DrawFn) -> State:
    w, h = draw(st.integers(2, 7)), draw(st.integers(2, 7))
    inner = [f"{square_name((x, y))}:{s}" for x in range(w) for y in range(h) for s in "es"
             if (s == "e" and x < w - 1) or (s == "s" and y < h - 1)]
    chosen = draw(st.lists(st.sampled_from(inner), unique=True, max_size=len(inner) // 2))
    cut = draw(st.integers(0, len(chosen)))
    sqs = [square_name((x, y)) for x in range(w) for y in range(h)]
    bushes = draw(st.lists(st.sampled_from(sqs), unique=True, max_size=3))
    state = build_state({"board": {"size": f"{w}x{h}", "walls": chosen[:cut],
                                   "doors": chosen[cut:], "bushes": bushes},
                         "players": [{"at": draw(st.sampled_from(sqs))}]})
    stones = draw(st.lists(st.sampled_from(sqs), unique=True, max_size=2))
    state.stones = sorted({_sq(s) for s in stones} - set(state.bushes))
    return state


def _sq(text: str) -> tuple[int, int]:
    from core.wizwar.board import parse_square

    return parse_square(text)


@given(data=st.data())
@settings(max_examples=150, deadline=None)
def test_los_is_symmetric_on_test_boards(data: st.DataObject) -> None:
    """Line of sight between two square centres is the same both ways (walls, doors,
    thornbushes and stone blocks on a test board)."""
    state = _board(data.draw)
    sqs = state.layout.squares()
    a = data.draw(st.sampled_from(sqs), label="a")
    b = data.draw(st.sampled_from(sqs), label="b")
    assert has_los(state, a, b) == has_los(state, b, a)


@given(players=st.integers(2, 4), seed=st.integers(0, 1000), data=st.data())
@settings(max_examples=60, deadline=None)
def test_los_is_symmetric_on_the_real_boards(players: int, seed: int,
                                             data: st.DataObject) -> None:
    """The same on the assembled sector boards, rim links and AUTO WARP included, with some
    created walls and doors opened."""
    state = new_game(GameConfig(players=players), seed)
    sqs = state.layout.squares()
    from core.wizwar.state import EdgeState

    for _ in range(data.draw(st.integers(0, 4), label="walls")):
        sq = data.draw(st.sampled_from(sqs))
        side = data.draw(st.sampled_from("nesw"))
        if state.layout.neighbor(sq, side) is not None:
            state.edges[state.layout.edge_key(sq, side)] = EdgeState("wall", 20, created=True)
    doors = [e for e, es in state.edges.items() if es.kind == "door"]
    if doors and data.draw(st.booleans()):
        state.turn.open_doors.append(data.draw(st.sampled_from(doors)))
    a = data.draw(st.sampled_from(sqs), label="a")
    b = data.draw(st.sampled_from(sqs), label="b")
    assert has_los(state, a, b) == has_los(state, b, a)


@given(data=st.data())
@settings(max_examples=150, deadline=None)
def test_movement_never_passes_a_wall(data: st.DataObject) -> None:
    """Every legal step crosses no wall or closed door and enters no stone block; every step
    across one is refused with a reason and leaves the state as it was."""
    state = _board(data.draw)
    state.round = 2
    w = state.wizards[0]
    for _ in range(data.draw(st.integers(1, 6), label="walk")):
        if w.at is None or state.turn.stopped or state.windows:
            break
        legal = {str(a) for a in legal_actions(state, "P1")}
        for side in "nesw":
            nb = state.layout.neighbor(w.at, side)
            if nb is None:
                continue
            sq, e = nb
            step = f"P1 move {square_name(sq)}"
            blocked = e in state.edges or sq in state.stones
            if blocked:
                assert step not in legal
                before = state_hash(state)
                with pytest.raises(IllegalAction) as exc:
                    apply(state, step)
                assert exc.value.reason
                assert state_hash(state) == before
        moves = sorted(a for a in legal if a.startswith("P1 move "))
        if not moves:
            break
        frm = w.at
        step = data.draw(st.sampled_from(moves), label="step")
        apply(state, step)
        crossed = [nb[1] for side in "nesw"
                   if (nb := state.layout.neighbor(frm, side)) is not None and nb[0] == w.at]
        assert crossed and all(e not in state.edges for e in crossed)
        assert w.at not in state.stones


def test_side_names_are_canonical_both_ways() -> None:
    """The two spellings of one side read as the same edge (the targets above use either)."""
    assert edge_name(parse_edge("b2:n")) == edge_name(parse_edge("b1:s")) == "b1:s"
