"""Line of sight on open test boards: exact integer geometry, table driven.

Source: rulebook, The Cards ("Line of sight is defined as the line going from the center of the
attacker's square to the center of the target's square ... If this line of sight is interrupted
by any part of a wall, the spell cannot be cast"; CREATE WALL: to the centre of the wall);
FAQ (nicking the corner of a wall breaks LOS; a corner counts as two walls for Visionstone);
cards.md §1.2.
"""

from __future__ import annotations

import pytest

from core.wizwar.board import (
    Edge,
    Layout,
    Sightline,
    Square,
    blocked_count,
    line_of_sight,
    open_board,
    parse_edge,
    parse_square,
    printed_blocking,
    sightline,
    sightlines,
)

EXIT_A5 = [("a5:w", "i5:e")]

# (walls, doors, a, b, expected, comment); 9x9 board; b is a square or an edge name ("c3:e").
# exits: the rows marked with "exit" in the comment use a5:w <-> i5:e.
CASES: list[tuple[list[str], list[str], str, str, bool, str]] = [
    ([], [], "a1", "a1", True, "same square: always LOS to your own square"),
    (["a1:e", "a1:s"], [], "a1", "a1", True, "same square, boxed in"),
    ([], [], "b2", "b5", True, "orthogonal, clear"),
    (["b3:s"], [], "b2", "b5", False, "orthogonal, wall across the line"),
    ([], ["b3:s"], "b2", "b5", False, "orthogonal, locked door across the line"),
    (["c3:s", "a3:s"], [], "b2", "b5", True, "orthogonal, walls beside the line"),
    (["b1:s", "c1:s"], [], "a1", "e1", True, "orthogonal along a row, wall parallel below"),
    (["b1:e"], [], "a1", "e1", False, "orthogonal along a row, wall across"),
    ([], [], "b2", "e5", True, "diagonal through bare corners"),
    ([], [], "a1", "i9", True, "long diagonal through eight bare corners"),
    (["b2:e"], [], "b2", "d4", False, "corner graze: wall above the touched point (b2:e)"),
    (["b3:e"], [], "b2", "d4", False, "corner graze: wall below the touched point (b3:e)"),
    (["b2:s"], [], "b2", "d4", False, "corner graze: wall left of the touched point (b2:s)"),
    (["c2:s"], [], "b2", "d4", False, "corner graze: wall right of the touched point (c2:s)"),
    (["c3:e"], [], "b2", "d4", False, "corner graze at the second grid point (c3:e)"),
    ([], ["c2:s"], "b2", "d4", False, "corner graze by a door end"),
    (["d2:s", "c2:e"], [], "b2", "d4", True, "walls near but not meeting the touched points"),
    (["e5:e"], [], "a1", "i9", False, "long diagonal nicks the end of e5:e"),
    (["e5:e"], [], "d4", "f6", False, "short diagonal through the same corner, other way"),
    ([], [], "b2", "c4", True, "knight move, clear (b2 b3 c3 c4)"),
    (["b3:e"], [], "b2", "c4", False, "knight move, wall crossed"),
    (["b2:s"], [], "b2", "c4", False, "knight move, first crossing walled"),
    (["c2:s", "b4:e"], [], "b2", "c4", True, "knight move, walls beside it"),
    ([], [], "c4", "b2", True, "knight move reversed"),
    (["b1:s"], [], "a1", "h3", True, "long shallow line misses the end of b1:s"),
    (["b1:s"], [], "a1", "g3", False, "long shallow line touches the end of b1:s exactly"),
    (["b1:e"], [], "a1", "h3", False, "long shallow line crosses b1:e"),
    (["e2:s"], [], "a1", "g3", False, "shallow line touches the end of e2:s (grid e3/f3)"),
    (["c1:s", "b1:s"], [], "a1", "i3", False, "shallow line crosses c1:s"),
    (["b1:s", "d1:s"], [], "a1", "i3", True, "shallow line threads between two wall ends"),
    ([], [], "a1", "c1:e", True, "to an edge midpoint, clear"),
    (["c1:e"], [], "a1", "c1:e", True, "target edge itself is not in the way"),
    (["b1:e"], [], "a1", "c1:e", False, "to an edge midpoint, another wall in the way"),
    (["e3:s"], [], "e1", "e3:s", True, "down to a wall target"),
    (["e2:s", "e3:s"], [], "e1", "e3:s", False, "down to a wall behind another wall"),
    (["c3:e"], [], "d3", "c3:e", True, "own square's side seen from the other side"),
    (["c2:s"], [], "a1", "c2:s", True, "diagonal to a side midpoint, target walled"),
    (["b2:e"], [], "a1", "c2:s", False, "diagonal to a side midpoint, b2:e crossed"),
    (["d5:e"], [], "b5", "h5", True, "exit: direct blocked, wrap through a5:w/i5:e is clear"),
    (["d5:e", "a5:e"], [], "b5", "h5", False, "exit: both direct and wrapped lines blocked"),
    (["d4:e"], [], "b4", "h4", False, "exit: wrap would need a4:w, which is no exit"),
    ([], [], "b4", "h4", True, "no exit needed when the direct line is clear"),
]


def _target(text: str) -> Square | Edge:
    return parse_edge(text) if ":" in text else parse_square(text)


def _board(walls: list[str], doors: list[str], comment: str) -> Layout:
    exits = EXIT_A5 if comment.startswith("exit") else []
    return open_board(9, 9, walls=walls, doors=doors, exits=exits)


def test_enough_cases() -> None:
    """The table covers at least 30 cases. Source: rulebook, The Cards (line of sight)."""
    assert len(CASES) >= 30


@pytest.mark.parametrize(("walls", "doors", "a", "b", "expected", "comment"), CASES)
def test_los_table(
    walls: list[str], doors: list[str], a: str, b: str, expected: bool, comment: str
) -> None:
    """Walls and locked doors touched by the line block it, corners included.

    Source: rulebook, The Cards (line of sight); FAQ (nicking a corner); cards.md §1.2.
    """
    layout = _board(walls, doors, comment)
    got = line_of_sight(layout, parse_square(a), _target(b), printed_blocking(layout))
    assert got is expected, comment


def test_same_square_sightline() -> None:
    """Own square: no edges, no corners. Source: cards.md §1.2 (LOS to your own square)."""
    layout = open_board(3, 3)
    assert sightline(layout, (1, 1), (1, 1)) == Sightline((), (), ((1, 1),))


def test_sightline_contents_knight() -> None:
    """The knight line b2 -> c4 crosses b2:s, b3:e, c3:s in order. Source: cards.md §1.2."""
    layout = open_board(5, 5)
    sl = sightline(layout, (1, 1), (2, 3))
    assert sl is not None
    assert sl.edges == (parse_edge("b2:s"), parse_edge("b3:e"), parse_edge("c3:s"))
    assert sl.corners == ()
    assert sl.squares == ((1, 1), (1, 2), (2, 2), (2, 3))


def test_sightline_diagonal_corner_keys() -> None:
    """A diagonal touches grid points; all four edges meeting there are listed, sorted.

    Source: FAQ (nicking the corner of a wall breaks LOS).
    """
    layout = open_board(5, 5)
    sl = sightline(layout, (1, 1), (2, 2))
    assert sl is not None
    assert sl.edges == ()
    assert sl.squares == ((1, 1), (2, 2))
    assert sl.corners == (tuple(sorted(parse_edge(n) for n in ("b2:e", "b3:e", "b2:s", "c2:s"))),)


def test_edge_target_not_listed() -> None:
    """The target side is not among the crossed edges. Source: rulebook, CREATE WALL."""
    layout = open_board(5, 5)
    sl = sightline(layout, (0, 0), parse_edge("c1:e"))
    assert sl is not None
    assert sl.edges == (parse_edge("a1:e"), parse_edge("b1:e"))
    assert sl.squares == ((0, 0), (1, 0), (2, 0))
    assert parse_edge("c1:e") not in sl.edges


def test_wrap_through_exit_contents() -> None:
    """Across an exit the line continues straight from the joined edge; the link key is listed.

    Source: rulebook, The Board (AUTO WARP: "treat it as a straight line"); cards.md §1.2.
    """
    layout = open_board(9, 9, exits=EXIT_A5)
    all_lines = sightlines(layout, (1, 4), (7, 4))
    first = all_lines[0]
    assert first.squares == ((1, 4), (0, 4), (8, 4), (7, 4))
    assert first.edges == (parse_edge("a5:e"), (0, 4, "w"), parse_edge("h5:e"))
    # the direct line is also offered, longer
    assert any(sl.squares[1] == (2, 4) for sl in all_lines[1:])


def test_rim_corner_wrap_invalid() -> None:
    """A wrap through the exact corner of a rim crossing is not a valid line (it nicks the rim).

    Source: FAQ (nicking a corner breaks LOS).
    """
    layout = open_board(9, 9, exits=EXIT_A5)
    # b5 -> h6 wrapped would pass exactly through the grid point at the end of a5:w
    for sl in sightlines(layout, (1, 4), (7, 5)):
        assert (0, 4, "w") not in sl.edges


VISION = [
    ([], "a1", "e1", 0, "nothing in the way"),
    (["b1:e"], "a1", "e1", 1, "one wall crossed counts 1"),
    (["b1:e", "c1:e"], "a1", "e1", 2, "two walls crossed count 2"),
    (["b2:e"], "b2", "d4", 2, "a nicked corner counts 2"),
    (["b2:e", "b3:e"], "b2", "d4", 2, "two walls meeting at one corner still count 2"),
    (["b2:e", "c3:e"], "b2", "d4", 4, "two nicked corners count 4"),
    (["b3:e", "c4:s"], "b2", "c4", 1, "knight: one crossed wall, c4:s beyond the target"),
]


@pytest.mark.parametrize(("walls", "a", "b", "count", "comment"), VISION)
def test_visionstone_count(walls: list[str], a: str, b: str, count: int, comment: str) -> None:
    """blocked_count: 1 per blocking edge crossed, 2 per corner touching a blocking edge.

    Source: FAQ (a corner counts as passing two walls for Visionstone).
    """
    layout = open_board(9, 9, walls=walls)
    sl = sightline(layout, parse_square(a), parse_square(b))
    assert sl is not None
    assert blocked_count(sl, printed_blocking(layout)) == count, comment


def test_open_door_does_not_block() -> None:
    """The rules layer decides what blocks: an opened door lets the line through.

    Source: rulebook, The Board ("you can cast a spell through an opened door").
    """
    layout = open_board(5, 5, doors=["b1:e"])
    assert not line_of_sight(layout, (0, 0), (4, 0), printed_blocking(layout))
    assert line_of_sight(layout, (0, 0), (4, 0), lambda e: False)


SYM_WALLS = ["b2:e", "c3:s", "d1:s", "a4:e", "e5:w", "c5:n"]
SYM_DOORS = ["b4:s", "e2:s"]


@pytest.mark.parametrize("exits", [[], [("a3:w", "f3:e")]])
def test_symmetry_all_pairs(exits: list[tuple[str, str]]) -> None:
    """LOS a -> b equals b -> a for square targets, and the lines are mirror images.

    Source: rulebook, The Cards (line from centre to centre).
    """
    layout = open_board(6, 6, walls=SYM_WALLS, doors=SYM_DOORS, exits=exits)
    blocking = printed_blocking(layout)
    squares = layout.squares()
    for a in squares:
        for b in squares:
            ab = line_of_sight(layout, a, b, blocking)
            ba = line_of_sight(layout, b, a, blocking)
            assert ab == ba, (a, b)
            sab, sba = sightline(layout, a, b), sightline(layout, b, a)
            assert sab is not None and sba is not None
            assert sab.squares == tuple(reversed(sba.squares)), (a, b)
            assert sab.edges == tuple(reversed(sba.edges)), (a, b)
            assert sab.corners == tuple(reversed(sba.corners)), (a, b)


def test_direct_line_always_exists_on_test_board() -> None:
    """A rectangle always holds the direct line. Source: rulebook, The Cards (line of sight)."""
    layout = open_board(4, 3)
    for a in layout.squares():
        for b in layout.squares():
            assert sightline(layout, a, b) is not None


def test_auto_warp_sightline() -> None:
    """Through the AUTO WARP the line runs straight as if the edges were adjacent; a direct
    line across the empty quadrant does not exist.

    Source: rulebook, The Board ("If casting a spell, or checking line of sight through the
    AUTO WARP, treat it as a straight line, and the two connected boards as though they were
    adjacent").
    """
    from core.wizwar.board import assemble

    layout = assemble(3, ["A", "B", "C"])
    sl = sightline(layout, (6, 3), (3, 6))
    assert sl is not None
    assert sl.squares == ((6, 3), (6, 4), (4, 6), (3, 6))
    assert sl.edges[1] == layout.edge_key((6, 4), "s") == layout.edge_key((4, 6), "e")
    for line in sightlines(layout, (8, 4), (4, 8)):
        assert all(layout.has_square(sq) for sq in line.squares)
        assert (7, 7) not in line.squares


def test_torus_wrap_sightline() -> None:
    """On the 4-player board a line may leave by one outer edge and come in at the opposite one.

    Source: rulebook, The Board ("you will reenter at point A on the opposite side").
    """
    from core.wizwar.board import assemble

    layout = assemble(4, ["A", "B", "C", "D"])
    sl = sightline(layout, (7, 0), (7, 9))
    assert sl is not None
    assert sl.squares == ((7, 0), (7, 9))
    assert sl.edges == (layout.edge_key((7, 0), "n"),)
    blocking = printed_blocking(layout)
    # the middle exit of ne's north edge is open, so the wrap is clear unless inner walls block
    assert blocked_count(sl, blocking) == 0
