"""The integer line-of-sight tracer gives exactly the answers of the first (Fraction) one.

The reference below is a frozen copy of the tracer that ``core/wizwar/board.py`` used before
the performance work (issue 6): crossing parameters as ``fractions.Fraction``, every square
found from a segment midpoint. The tests compare every sightline (edges crossed, corners
touched, squares passed, length, order) for every pair of squares and every square to every
edge of several layouts (test boards with walls, doors and exits; the assembled 2-, 3- and
4-player boards, rotated sectors, the crossed variant), and the resulting line of sight
with walls, doors, created walls, thornbushes and stone blocks standing. Source: rulebook,
The Cards (line of sight); FAQ (corners); cards.md §1.2.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from core.wizwar.board import (
    DIRS,
    OPPOSITE,
    Edge,
    Layout,
    Sightline,
    Square,
    Transform,
    _apply,
    _apply_inv,
    _centre,
    _edge_midpoint,
    _link_transform,
    _side_of,
    assemble,
    canonical_edge,
    open_board,
    sightlines,
)

# ---- the reference (frozen copy of the Fraction tracer) ------------------------------------


def _ref_floor_half(v: Fraction) -> int:
    return (v.numerator // v.denominator) // 2


def _ref_corner_keys(layout: Layout, gx: int, gy: int) -> tuple[Edge, ...]:
    """Edge keys meeting at grid point (gx, gy) (grid units, not doubled)."""
    keys: set[Edge] = set()
    # each unit edge around the point: (square on one side, side towards the other)
    around = (
        ((gx - 1, gy - 1), "e"),  # vertical, above the point
        ((gx - 1, gy), "e"),  # vertical, below
        ((gx - 1, gy - 1), "s"),  # horizontal, left
        ((gx, gy - 1), "s"),  # horizontal, right
    )
    for sq, side in around:
        dx, dy = DIRS[side]
        other = (sq[0] + dx, sq[1] + dy)
        if layout.has_square(sq):
            keys.add(layout.edge_key(sq, side))
        elif layout.has_square(other):
            keys.add(layout.edge_key(other, OPPOSITE[side]))
    return tuple(sorted(keys))


def _ref_trace(
    layout: Layout, start: tuple[int, int], end: tuple[int, int], t: Transform | None
) -> Sightline | None:
    """Walk the segment start -> end (doubled, unfolded by ``t`` after a rim crossing)."""
    x0, y0 = start
    dx, dy = end[0] - x0, end[1] - y0
    events: dict[Fraction, list[str]] = {}
    for axis, p0, d in (("x", x0, dx), ("y", y0, dy)):
        if d == 0:
            continue
        lo, hi = (p0, p0 + d) if d > 0 else (p0 + d, p0)
        g = lo + 1 if lo % 2 else lo + 2
        while g < hi:
            events.setdefault(Fraction(g - p0, d), []).append(axis)
            g += 2
    times = sorted(events)
    bounds = [Fraction(0), *times, Fraction(1)]

    def point(tt: Fraction) -> tuple[Fraction, Fraction]:
        return (x0 + dx * tt, y0 + dy * tt)

    phase_wrapped = False
    squares: list[Square] = []
    phases: list[bool] = []
    for i in range(len(bounds) - 1):
        mx, my = point((bounds[i] + bounds[i + 1]) / 2)
        u = (_ref_floor_half(mx), _ref_floor_half(my))
        if not phase_wrapped and layout.has_square(u):
            squares.append(u)
            phases.append(False)
            continue
        if t is None:
            return None
        if not phase_wrapped:
            # must be the crossing of a linked rim edge whose link has this transform
            if i == 0 or len(events[times[i - 1]]) != 1:
                return None
            prev = squares[-1]
            side = _side_of((u[0] - prev[0], u[1] - prev[1]))
            link = layout.links.get((prev, side))
            if link is None or _link_transform(prev, side, *link) != t:
                return None
            phase_wrapped = True
        c = _apply_inv(t, (2 * u[0] + 1, 2 * u[1] + 1))
        r = ((c[0] - 1) // 2, (c[1] - 1) // 2)
        if not layout.has_square(r):
            return None
        squares.append(r)
        phases.append(True)
    if t is not None and not phase_wrapped:
        return None
    edges: list[Edge] = []
    corners: list[tuple[Edge, ...]] = []
    for i, tt in enumerate(times):
        a, b = squares[i], squares[i + 1]
        if len(events[tt]) == 2:
            if phases[i] != phases[i + 1]:
                return None  # a wrap exactly through a rim corner is not a valid line
            px, py = point(tt)
            gp = (int(px), int(py))
            if phases[i]:
                assert t is not None
                gp = _apply_inv(t, gp)
            corners.append(_ref_corner_keys(layout, gp[0] // 2, gp[1] // 2))
        elif phases[i] != phases[i + 1]:
            u = (
                _ref_floor_half(point((tt + bounds[i + 2]) / 2)[0]),
                _ref_floor_half(point((tt + bounds[i + 2]) / 2)[1]),
            )
            edges.append(layout.edge_key(a, _side_of((u[0] - a[0], u[1] - a[1]))))
        else:
            edges.append(layout.edge_key(a, _side_of((b[0] - a[0], b[1] - a[1]))))
    dedup: list[Square] = []
    for sq in squares:
        if not dedup or dedup[-1] != sq:
            dedup.append(sq)
    return Sightline(tuple(edges), tuple(corners), tuple(dedup), dx * dx + dy * dy)


def _ref_target_points(layout: Layout, target: Square | Edge) -> list[tuple[int, int]]:
    if len(target) == 2:
        sq = (target[0], target[1])
        if not layout.has_square(sq):
            raise ValueError(f"{sq!r} is not a square of this board")
        return [_centre(sq)]
    e = canonical_edge(target)  # type: ignore[arg-type]
    if not layout.edge_exists(e):
        raise ValueError(f"edge {e!r} is not on this board")
    key = layout.edge_key(*layout.physical_edges(e)[0])
    pts = {
        _edge_midpoint(canonical_edge((sq[0], sq[1], side)))
        for sq, side in layout.physical_edges(key)
    }
    return sorted(pts)


def _ref_sightlines(layout: Layout, a: Square, target: Square | Edge) -> list[Sightline]:
    if not layout.has_square(a):
        raise ValueError(f"{a!r} is not a square of this board")
    if len(target) == 2 and (target[0], target[1]) == a:
        return [Sightline((), (), (a,), 0)]
    start = _centre(a)
    found: list[tuple[int, int, Sightline]] = []
    order = 0
    transforms: list[Transform | None] = [None, *(t for t, _ in layout._transforms)]
    for pt in _ref_target_points(layout, target):
        for t in transforms:
            end = pt if t is None else _apply(t, pt)
            sl = _ref_trace(layout, start, end, t)
            order += 1
            if sl is not None and all(sl != f[2] for f in found):
                found.append((sl.length2, order, sl))
    found.sort(key=lambda f: (f[0], f[1]))
    return [f[2] for f in found]



# ---- the layouts compared --------------------------------------------------------------


def _layouts() -> dict[str, Layout]:
    from core.wizwar.board import load_sectors

    ids = sorted(load_sectors())
    return {
        "open 9x9, walls, doors, a straight and a turning exit": open_board(
            9, 9, walls=["b2:e", "c3:s", "e5:e", "f2:s", "d7:e"], doors=["b5:s", "g6:e"],
            exits=[("a5:w", "i5:e"), ("c1:n", "i7:e")]),
        "open 6x4, no exits": open_board(6, 4, walls=["b2:s"]),
        "2 players": assemble(2, ids[:2]),
        "2 players, crossed exits": assemble(2, [ids[3], ids[1]], crossed=True),
        "3 players (auto warp, a hole)": assemble(3, [ids[2], ids[0], ids[3]], rotations=[0, 1, 2]),
        "4 players, rotated sectors": assemble(4, ids[::-1], rotations=[1, 2, 3, 0]),
    }


LAYOUTS = _layouts()


def _all_edges(layout: Layout) -> list[Edge]:
    """Every edge key touching an existing square, once each, sorted."""
    return sorted({layout.edge_key(sq, side) for sq in layout.squares() for side in DIRS})


def _as_rows(sls: list[Sightline]) -> list[tuple[object, ...]]:
    return [(s.edges, s.corners, s.squares, s.length2) for s in sls]


_REF: dict[tuple[str, Square, Square | Edge], list[Sightline]] = {}


def _ref(label: str, a: Square, b: Square | Edge) -> list[Sightline]:
    """The reference answer, computed once per test run."""
    key = (label, a, b)
    if key not in _REF:
        _REF[key] = _ref_sightlines(LAYOUTS[label], a, b)
    return _REF[key]


def _fresh(layout: Layout) -> Layout:
    """The same geometry with empty memo tables (the new tracer computes everything)."""
    return Layout(**{f: getattr(layout, f) for f in (
        "width", "height", "holes", "printed", "links", "homes", "treasure_spots",
        "placements", "sector_ids", "sector_origin", "rotations", "sector_size")})


@pytest.mark.parametrize("label", sorted(LAYOUTS))
def test_square_to_square_identical(label: str) -> None:
    """Every ordered pair of squares: the same sightlines, in the same order."""
    layout = _fresh(LAYOUTS[label])
    squares = layout.squares()
    assert len(squares) >= 24
    wrapped = 0
    for a in squares:
        for b in squares:
            got = _as_rows(sightlines(layout, a, b))
            assert got == _as_rows(_ref(label, a, b)), (label, a, b)
            wrapped += len(got) - 1
    if layout.links:  # the comparison covered lines through linked rim edges too
        assert wrapped > 0


@pytest.mark.parametrize("label", sorted(LAYOUTS))
def test_square_to_edge_identical(label: str) -> None:
    """From every ninth square to every edge midpoint (Create Wall, Destroy Wall, ...): the
    same sightlines, in the same order."""
    layout = _fresh(LAYOUTS[label])
    edges = _all_edges(layout)
    for a in layout.squares()[::9]:
        for e in edges:
            got = _as_rows(sightlines(layout, a, e))
            assert got == _as_rows(_ref_sightlines(LAYOUTS[label], a, e)), (label, a, e)


def _ref_has_los(state: object, frm: Square, target: Square, label: str) -> bool:
    """rules.has_los (through = 0) computed from the reference sightlines."""
    from core.wizwar.board import blocked_count
    from core.wizwar.rules import _is_blocking

    if target == frm:
        return True
    for sl in _ref(label, frm, target):
        if blocked_count(sl, lambda e: _is_blocking(state, e)) > 0:  # type: ignore[arg-type]
            continue
        ends = {frm, target}
        if any(s not in ends and (s in state.bushes or s in state.stones)  # type: ignore[attr-defined]
               for s in sl.squares):
            continue
        return True
    return False


@pytest.mark.parametrize("label", ["3 players (auto warp, a hole)", "4 players, rotated sectors"])
def test_line_of_sight_with_created_things(label: str) -> None:
    """Line of sight in a game state with printed walls and doors, an open door, created
    walls, a thornbush and stone blocks: the same answer for every pair of squares."""
    from core.wizwar.game import GameConfig, new_game
    from core.wizwar.rules import has_los
    from core.wizwar.state import EdgeState

    layout = LAYOUTS[label]
    st = new_game(GameConfig(players=4 if "4" in label else 3), 11)
    st.layout = _fresh(layout)
    st.edges = {e: EdgeState(k, 20) for e, k in sorted(layout.printed.items())}
    doors = [e for e, k in sorted(layout.printed.items()) if k == "door"]
    st.turn.open_doors = doors[:1]
    squares = layout.squares()
    for sq in squares[7::13]:
        st.edges[layout.edge_key(sq, "e")] = EdgeState("wall", 20, created=True)
    st.bushes = {squares[22]: 5}
    st.stones = [squares[40], squares[61]]
    seen = blocked = 0
    for a in squares:
        for b in squares:
            want = _ref_has_los(st, a, b, label)
            assert has_los(st, a, b) == want, (label, a, b)
            seen += want
            blocked += not want
    assert seen and blocked


# ---- canonical packing: the fast paths give the bytes and errors of the first version ----


def _ref_canon(value: object) -> object:
    """Frozen copy of core.codec._canon before the fast paths (issue 6)."""
    from core.codec import CodecError

    if value is None or isinstance(value, (bool, int, str, bytes)):
        return value
    if isinstance(value, float):
        raise CodecError("floats are not allowed in canonical data")
    if isinstance(value, (list, tuple)):
        return [_ref_canon(v) for v in value]
    if isinstance(value, dict):
        out = {}
        for k in sorted(value, key=_ref_key):
            if not isinstance(k, str):
                raise CodecError(f"map keys must be str, got {type(k).__name__}")
            out[k] = _ref_canon(value[k])
        return out
    raise CodecError(f"cannot encode {type(value).__name__}")


def _ref_key(k: object) -> str:
    from core.codec import CodecError

    if not isinstance(k, str):
        raise CodecError(f"map keys must be str, got {type(k).__name__}")
    return k


def _packed_or_error(fn: object, value: object) -> tuple[str, object]:
    import msgpack

    from core.codec import CodecError

    try:
        return "ok", msgpack.packb(fn(value), use_bin_type=True)  # type: ignore[operator]
    except CodecError as exc:
        return "error", str(exc)
    except OverflowError:  # msgpack: an int beyond 64 bits
        return "overflow", None


class _Tup(tuple):  # noqa: SLOT001 - a tuple subclass goes the general way
    pass


class _Dict(dict):  # type: ignore[type-arg]
    pass


def _values():  # type: ignore[no-untyped-def]
    from hypothesis import strategies as st

    plain = (st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.text(max_size=4)
             | st.binary(max_size=4) | st.floats(allow_nan=False) | st.just(frozenset()))
    return st.recursive(
        plain,
        lambda kids: (st.lists(kids, max_size=4) | st.lists(kids, max_size=3).map(tuple)
                      | st.lists(kids, max_size=3).map(_Tup)
                      | st.dictionaries(st.text(max_size=3), kids, max_size=4)
                      | st.dictionaries(st.text(max_size=3), kids, max_size=3).map(_Dict)
                      | st.dictionaries(st.integers(0, 3) | st.text(max_size=2), kids,
                                        max_size=3)),
        max_leaves=25)


def test_canonical_packing_unchanged() -> None:
    """core.codec.pack gives the bytes of the first canonicaliser, and the same error for
    floats, sets and non-str keys, on generated nested values (subclasses included)."""
    from hypothesis import given, settings

    from core.codec import _canon

    @settings(max_examples=400, deadline=None)
    @given(_values())
    def check(value: object) -> None:
        assert _packed_or_error(_canon, value) == _packed_or_error(_ref_canon, value)

    check()
    # and on a real state, the form the state hash digests
    from core.wizwar.game import GameConfig, new_game

    wire = new_game(GameConfig(players=4), 5).to_wire(public=True)
    assert _packed_or_error(_canon, wire) == _packed_or_error(_ref_canon, wire)


# ---- legal_actions remembers lines of sight during one call: same answers as without ------


@pytest.mark.parametrize(("players", "seed"), [(4, 3), (3, 8), (2, 5)])
def test_legal_actions_same_as_checking_each_candidate(players: int, seed: int) -> None:
    """At every position of a random game (seeded), legal_actions equals checking every
    candidate on its own with is_legal (no remembered line of sight), and the state is
    untouched by the call (its hash unchanged)."""
    from core.rng import Rng
    from core.wizwar.game import GameConfig, new_game
    from core.wizwar.rules import _candidates, apply, is_legal, legal_actions, to_move
    from core.wizwar.state import state_hash

    st = new_game(GameConfig(players=players), seed)
    rng = Rng.from_seed(f"equivalence-{seed}")
    attacks = 0
    for _ in range(250):
        if st.winner:
            break
        seat = to_move(st)[0]
        before = state_hash(st)
        got = legal_actions(st, seat)
        assert state_hash(st) == before
        assert got == [a for a in _candidates(st, seat) if is_legal(st, a)]
        attacks += sum(1 for a in got if a.verb == "play" and a.targets
                       and a.targets[0].startswith("P"))
        apply(st, got[rng.below(len(got))])
    assert attacks > 0  # spells at wizards (line of sight) were among the answers


# ---- wizwar bench: its parts work (no figure is checked: timing is not pass/fail) -------


def test_bench_random_games_are_seeded_and_capped() -> None:
    """A random game is the same for the same seed, stops at the cap, and each of its
    actions replays legally from the start."""
    from core.wizwar.game import GameConfig, new_game
    from core.wizwar.rules import apply
    from wizwar_tui.wizwar.bench import LIGHT_WEIGHTS, random_game

    a = random_game(4, 9, cap=40)
    b = random_game(4, 9, cap=40)
    assert [str(x) for x in a.actions] == [str(x) for x in b.actions]
    assert len(a.actions) == 40 and not a.ended and not a.error
    w = random_game(4, 9, cap=40, weights=LIGHT_WEIGHTS)
    assert [str(x) for x in w.actions] != [str(x) for x in a.actions]
    listed = random_game(4, 9, cap=40, listed=True)  # drawn from the full list instead
    assert [str(x) for x in listed.actions] == \
        [str(x) for x in random_game(4, 9, cap=40, listed=True).actions]
    for game in (a, w, listed):
        st = new_game(GameConfig(players=4), 9)
        for x in game.actions:
            apply(st, x)
        assert st.seq == 40


def test_bench_figure_verdicts() -> None:
    """A figure's median, target verdict and printed line."""
    from wizwar_tui.wizwar.bench import Figure

    f = Figure("verify", "actions/s", [10.0, 30.0, 20.0], target=25)
    assert f.median == 20.0 and f.verdict() == "MISSES"
    assert "target >= 25.0: MISSES" in f.line() and "[10.0 .. 30.0, 3 runs]" in f.line()
    g = Figure("start-up", "x", [1.2, 1.1, 1.25], higher=False, target=1.3)
    assert g.verdict() == "meets"
    assert Figure("x", "ms").line().endswith("(not measured)")


def test_bench_first_paint_of_the_bare_app() -> None:
    """The bare Textual app started on a pseudo-terminal paints its marker; the bench
    reports wall and CPU seconds (positive) and leaves no process behind."""
    from wizwar_tui.wizwar.bench import _BARE_APP, BARE_MARKER, first_paint

    wall, cpu_used = first_paint(_BARE_APP, BARE_MARKER)
    assert wall > 0 and cpu_used >= 0


def test_bench_command_refuses_an_unknown_part(capsys: pytest.CaptureFixture[str]) -> None:
    """``wizwar bench --only nope`` is a usage error naming the parts."""
    from wizwar_tui.cli import main

    with pytest.raises(SystemExit) as exc:
        main(["bench", "--only", "nope"])
    assert exc.value.code == 2
    assert "games, apply, legal" in capsys.readouterr().err
