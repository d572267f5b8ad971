"""Board geometry: names, edges, test boards, sectors and assembled layouts.

Source: rulebook, The Board; notation.md (Places, Sides); research/wizwar-facts.md §3.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from core.wizwar.board import (
    DIRS,
    EXIT_LOCAL,
    OPPOSITE,
    SIDES,
    Layout,
    Sector,
    Square,
    assemble,
    canonical_edge,
    edge_name,
    load_sectors,
    open_board,
    parse_edge,
    parse_sector_picture,
    parse_square,
    square_name,
)

# ------------------------------------------------------------------------------------ names


@pytest.mark.parametrize(
    ("sq", "name"),
    [
        ((0, 0), "a1"),
        ((2, 3), "c4"),
        ((25, 0), "z1"),
        ((26, 0), "aa1"),
        ((27, 9), "ab10"),
        ((51, 4), "az5"),
        ((52, 0), "ba1"),
        ((701, 0), "zz1"),
        ((702, 0), "aaa1"),
    ],
)
def test_square_names(sq: Square, name: str) -> None:
    """Columns a..z then aa, ab...; rows 1-based. Source: notation.md, Places."""
    assert square_name(sq) == name
    assert parse_square(name) == sq


def test_square_round_trip() -> None:
    """parse(name(sq)) == sq over a big range. Source: notation.md, Places."""
    for c in range(0, 800, 7):
        for r in range(0, 30, 3):
            assert parse_square(square_name((c, r))) == (c, r)


@pytest.mark.parametrize("bad", ["", "4c", "c0", "c", "c-1", "c4x", "C4", "c 4", "1", ":"])
def test_bad_square_names(bad: str) -> None:
    """Bad square text raises ValueError. Source: notation.md, Places."""
    with pytest.raises(ValueError):
        parse_square(bad)


def test_edge_canonical() -> None:
    """``c3:e`` and ``d3:w`` are one edge; canonical uses :e / :s. Source: notation.md, Sides."""
    assert parse_edge("b2:n") == parse_edge("b1:s") == (1, 0, "s")
    assert parse_edge("c3:w") == (1, 2, "e")
    assert parse_edge("d3:w") == parse_edge("c3:e")
    assert parse_edge("a1:w") == (0, 0, "w")
    assert parse_edge("a1:n") == (0, 0, "n")
    assert canonical_edge((0, 3, "w")) == (0, 3, "w")
    assert canonical_edge((3, 0, "n")) == (3, 0, "n")
    assert edge_name((2, 2, "w")) == "b3:e"
    assert edge_name((1, 1, "n")) == "b1:s"
    for text in ("c3:e", "a1:w", "a1:n", "j10:s"):
        assert edge_name(parse_edge(text)) == text


@pytest.mark.parametrize("bad", ["c3", "c3:x", "c3:e:w", "zz:e", ":e", "c0:e", "c3:E", ""])
def test_bad_edge_names(bad: str) -> None:
    """Bad side text raises ValueError. Source: notation.md, Sides."""
    with pytest.raises(ValueError):
        parse_edge(bad)


# ------------------------------------------------------------------------------ test boards


def test_open_board_basics() -> None:
    """Test board: rim is a hard boundary, not printed, not linked. Source: notation.md."""
    b = open_board(9, 9, walls=["c3:e"], doors=["e5:n"])
    assert len(b.squares()) == 81
    assert b.squares()[:2] == [(0, 0), (1, 0)]
    assert b.printed == {(2, 2, "e"): "wall", (4, 3, "s"): "door"}
    assert b.neighbor((2, 2), "e") == ((3, 2), (2, 2, "e"))
    assert b.neighbor((3, 2), "w") == ((2, 2), (2, 2, "e"))
    assert b.neighbor((0, 0), "w") is None
    assert b.neighbor((0, 0), "n") is None
    assert b.neighbor((8, 8), "e") is None
    assert b.neighbor((8, 8), "s") is None
    assert b.edge_key((0, 4), "w") == (0, 4, "w")
    assert b.edge_key((8, 0), "n") == (8, 0, "n")
    assert b.is_rim((0, 4, "w")) and not b.is_linked((0, 4, "w"))
    assert not b.is_rim((2, 2, "e"))
    assert b.homes == () and b.treasure_spots == () and b.sector_of((1, 1)) is None
    assert b.edges_of((1, 1)) == [
        ("n", (1, 0, "s")),
        ("e", (1, 1, "e")),
        ("s", (1, 1, "s")),
        ("w", (0, 1, "e")),
    ]


def test_open_board_exits() -> None:
    """Exits join two rim sides; leave by one, enter by the other, both ways.

    Source: notation.md, Scenario files.
    """
    b = open_board(9, 9, exits=[("a5:w", "i5:e")])
    key = (0, 4, "w")
    assert b.neighbor((0, 4), "w") == ((8, 4), key)
    assert b.neighbor((8, 4), "e") == ((0, 4), key)
    assert b.edge_key((8, 4), "e") == key
    assert b.is_linked(key) and b.is_linked((8, 4, "e")) and b.is_rim(key)
    assert key not in b.printed
    assert b.links[((0, 4), "w")] == ((8, 4), "e")
    assert b.neighbor((0, 3), "w") is None


def test_open_board_errors() -> None:
    """Rim walls, edges off the board and bad exits are refused. Source: notation.md."""
    with pytest.raises(ValueError):
        open_board(9, 9, walls=["a1:w"])
    with pytest.raises(ValueError):
        open_board(9, 9, walls=["z1:e"])
    with pytest.raises(ValueError):
        open_board(9, 9, exits=[("c3:e", "i5:e")])
    with pytest.raises(ValueError):
        open_board(9, 9, exits=[("a5:w", "a5:w")])
    with pytest.raises(ValueError):
        open_board(9, 9, walls=["c3:e"], doors=["d3:w"])
    with pytest.raises(ValueError):
        open_board(0, 3)


def test_wall_on_exit_link() -> None:
    """A wall can stand on a linked rim crossing (keyed once). Source: rulebook, The Board."""
    b = open_board(9, 9, walls=["i5:e"], exits=[("a5:w", "i5:e")])
    assert b.printed == {(0, 4, "w"): "wall"}


# ---------------------------------------------------------------------------------- sectors


def _reach(sec: Sector, start: Square, doors_open: bool) -> set[Square]:
    seen = {start}
    todo = [start]
    while todo:
        sq = todo.pop()
        for side in SIDES:
            kind = sec.edge(sq, side)
            if kind == "wall" or (kind == "door" and not doors_open):
                continue
            nxt = (sq[0] + DIRS[side][0], sq[1] + DIRS[side][1])
            if 0 <= nxt[0] < 5 and 0 <= nxt[1] < 5 and nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def test_packaged_sectors_valid() -> None:
    """Four designs in the classic shape. Source: research/wizwar-facts.md §3."""
    sectors = load_sectors()
    assert sorted(sectors) == ["A", "B", "C", "D"]
    pictures = set()
    for sid, sec in sectors.items():
        assert sec.id == sid and sec.name and sec.description
        assert sec.home == (2, 2)
        assert set(sec.treasures) in ({(1, 1), (3, 3)}, {(1, 3), (3, 1)})
        for side, exit_sq in EXIT_LOCAL.items():
            for k in range(5):
                sq = {"n": (k, 0), "s": (k, 4), "w": (0, k), "e": (4, k)}[side]
                assert sec.edge(sq, side) == ("open" if sq == exit_sq else "wall"), (sid, sq)
        assert len(sec.doors) >= 2
        assert _reach(sec, (2, 2), doors_open=True) == {(x, y) for x in range(5) for y in range(5)}
        pictures.add(sec.picture())
    assert len(pictures) == 4


def test_picture_round_trip() -> None:
    """picture() prints the documented format back. Source: docs/board-format.md."""
    for sec in load_sectors().values():
        walls, doors, home, treasures = parse_sector_picture(sec.picture())
        assert (walls, doors, home, tuple(treasures)) == (
            sec.walls,
            sec.doors,
            sec.home,
            sec.treasures,
        )


GOOD = """\
+---+---+   +---+---+
| .   .   . | .   . |
+   +---+-D-+   +   +
| . | T   . | .   . |
+   +   +---+-D-+---+
  .   . | H   .   .
+---+   +   +---+   +
| .   .   . D T | . |
+   +---+   +   +   +
| .   . | .   .   . |
+---+---+   +---+---+
"""


def _write(tmp_path: Path, picture: str, extra: str = "") -> str:
    p = tmp_path / "s.toml"
    p.write_text(
        f'{extra}[[sector]]\nid = "X"\nname = "x"\ndescription = "d"\n'
        + "map = '''\n"
        + picture
        + "'''\n"
    )
    return str(p)


def test_load_custom_file(tmp_path: Path) -> None:
    """A well-formed file loads (trailing spaces may be trimmed). Source: docs/board-format.md."""
    got = load_sectors(_write(tmp_path, GOOD))
    assert list(got) == ["X"]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda s: s.replace(" H ", " . "), "home"),
        (lambda s: s.replace("| . | T", "| . | ."), "treasure"),
        (lambda s: s.replace("+---+---+   +", "+---+---+---+", 1), "rim"),
        (lambda s: s.replace("-D-", "   "), "door"),
        (lambda s: s.replace("| .   . | .   .   . |", "| .   . | .   .   . |  x"), "longer"),
        (lambda s: s.replace("+   +---+   +   +   +", "+   +---+   +   *   +"), "'+'"),
        (
            lambda s: s.replace("| .   . | .   .   . |", "| .   . | . | . | . |").replace(
                "+   +---+   +   +   +", "+   +---+   +---+   +"
            ),
            "reachable",
        ),
        (lambda s: s.replace("| . | T", "| X | T"), "line"),
        (lambda s: s.rsplit("\n", 2)[0] + "\n", "lines"),
    ],
)
def test_malformed_sectors(tmp_path: Path, change: object, message: str) -> None:
    """Malformed designs raise ValueError naming the problem. Source: docs/board-format.md."""
    assert callable(change)
    with pytest.raises(ValueError) as info:
        load_sectors(_write(tmp_path, change(GOOD)))
    assert message in str(info.value)
    assert "s.toml" in str(info.value)


def test_malformed_toml(tmp_path: Path) -> None:
    """Bad TOML and unknown keys are refused. Source: docs/board-format.md."""
    p = tmp_path / "bad.toml"
    p.write_text("[[sector]\n")
    with pytest.raises(ValueError, match="bad.toml"):
        load_sectors(str(p))
    with pytest.raises(ValueError, match="unknown"):
        load_sectors(_write(tmp_path, GOOD, extra='colour = "red"\n'))


def test_picture_error_has_file_line(tmp_path: Path) -> None:
    """Picture errors give the file line. Source: docs/board-format.md."""
    with pytest.raises(ValueError, match=r"line 9\b"):
        load_sectors(_write(tmp_path, GOOD.replace("| . | T", "| X | T")))


# ------------------------------------------------------------------------ assembled boards


def _all_boards() -> list[tuple[str, Layout]]:
    return [
        ("2p", assemble(2, ["A", "B"])),
        ("2p-crossed", assemble(2, ["C", "D"], crossed=True)),
        ("3p", assemble(3, ["A", "B", "C"])),
        ("4p", assemble(4, ["A", "B", "C", "D"])),
        ("4p-rot", assemble(4, ["D", "C", "B", "A"], rotations=[1, 2, 3, 0])),
    ]


@pytest.mark.parametrize(("label", "layout"), _all_boards())
def test_links_symmetric_and_complete(label: str, layout: Layout) -> None:
    """Every outer rim edge is linked, links are symmetric and share one key.

    Source: rulebook, The Board ("you will reenter at point A on the opposite side").
    """
    for (sq, side), (dsq, dside) in layout.links.items():
        assert layout.links[(dsq, dside)] == (sq, side)
        assert layout.edge_key(sq, side) == layout.edge_key(dsq, dside)
        assert layout.is_linked(layout.edge_key(sq, side))
        assert layout.is_rim(layout.edge_key(sq, side))
        # the link really leaves the board
        assert not layout.has_square((sq[0] + DIRS[side][0], sq[1] + DIRS[side][1]))
    for sq in layout.squares():
        for side in SIDES:
            got = layout.neighbor(sq, side)
            assert got is not None, (label, sq, side)
            nxt, key = got
            assert layout.has_square(nxt)
            back = {layout.neighbor(nxt, s) for s in SIDES}
            assert (sq, key) in back


@pytest.mark.parametrize(("label", "layout"), _all_boards())
def test_reachable_from_every_home(label: str, layout: Layout) -> None:
    """All squares reachable from each home through open edges and doors.

    Source: rulebook, The Board; research/wizwar-facts.md §3.
    """
    squares = set(layout.squares())
    for home in layout.homes:
        seen = {home}
        todo = [home]
        while todo:
            sq = todo.pop()
            for _side, key in layout.edges_of(sq):
                if layout.printed.get(key) == "wall":
                    continue
                got = layout.neighbor(sq, _side)
                assert got is not None
                if got[0] not in seen:
                    seen.add(got[0])
                    todo.append(got[0])
        assert seen == squares, label


@pytest.mark.parametrize(("label", "layout"), _all_boards())
def test_printed_keys_canonical(label: str, layout: Layout) -> None:
    """Printed keys are edge keys: seams single, rim walls keyed on their links.

    Source: rulebook, The Board ("treated as a single wall").
    """
    for key, kind in layout.printed.items():
        assert kind in ("wall", "door")
        assert canonical_edge(key) == key
        sq = (key[0], key[1])
        if layout.has_square(sq):
            assert layout.edge_key(sq, key[2]) == key
        else:
            other = (sq[0] + DIRS[key[2]][0], sq[1] + DIRS[key[2]][1])
            assert layout.edge_key(other, OPPOSITE[key[2]]) == key


def test_two_player_geometry() -> None:
    """2 players: 10x5, w and e; east/west and north/south wrap. Source: rulebook, The Board."""
    b = assemble(2, ["A", "B"])
    assert (b.width, b.height, b.placements, b.sector_ids) == (10, 5, ("w", "e"), ("A", "B"))
    assert b.sector_origin == ((0, 0), (5, 0))
    assert b.homes == ((2, 2), (7, 2))
    assert b.treasure_spots[0] == ((1, 1), (3, 3))
    assert b.neighbor((9, 2), "e") == ((0, 2), (0, 2, "w"))
    assert b.neighbor((0, 2), "w") == ((9, 2), (0, 2, "w"))
    assert b.neighbor((3, 0), "n") == ((3, 4), (3, 0, "n"))
    assert b.neighbor((3, 4), "s") == ((3, 0), (3, 0, "n"))
    # exits open, rim walls on the links
    assert (0, 2, "w") not in b.printed and b.printed[(0, 1, "w")] == "wall"
    assert (2, 0, "n") not in b.printed and (7, 0, "n") not in b.printed
    # the seam: one edge, open in the middle
    for r in range(5):
        assert b.printed.get((4, r, "e")) == (None if r == 2 else "wall")
    assert b.sector_of((4, 4)) == 0 and b.sector_of((5, 0)) == 1


def test_two_player_crossed() -> None:
    """Crossed variant: north/south exits cross to the other sector. Source: FAQ."""
    b = assemble(2, ["A", "B"], crossed=True)
    assert b.neighbor((2, 0), "n")[0] == (7, 4)  # type: ignore[index]
    assert b.links[((2, 0), "n")] == ((7, 4), "s")
    assert b.neighbor((7, 4), "s")[0] == (2, 0)  # type: ignore[index]
    assert b.neighbor((7, 0), "n")[0] == (2, 4)  # type: ignore[index]
    assert b.neighbor((2, 4), "s")[0] == (7, 0)  # type: ignore[index]
    assert b.neighbor((9, 2), "e")[0] == (0, 2)  # type: ignore[index]
    # exits line up: the crossed north exit of w is open
    assert b.edge_key((2, 0), "n") not in b.printed


def test_four_player_geometry() -> None:
    """4 players: 10x10 torus, nw ne se sw clockwise. Source: rulebook, The Board; FAQ."""
    b = assemble(4, ["A", "B", "C", "D"])
    assert b.placements == ("nw", "ne", "se", "sw")
    assert b.sector_origin == ((0, 0), (5, 0), (5, 5), (0, 5))
    assert b.homes == ((2, 2), (7, 2), (7, 7), (2, 7))
    assert b.neighbor((9, 7), "e") == ((0, 7), (0, 7, "w"))
    assert b.neighbor((7, 9), "s") == ((7, 0), (7, 0, "n"))
    assert b.neighbor((7, 0), "n") == ((7, 9), (7, 0, "n"))
    assert b.sector_of((6, 6)) == 2 and b.sector_of((1, 8)) == 3
    assert len(b.squares()) == 100


def test_three_player_auto_warp() -> None:
    """3 players: L of three sectors; the AUTO WARP joins ne's south and sw's east edges.

    Source: rulebook, The Board ("treat the connected board edges as though they are
    adjacent"); our reading for ne.n <-> sw.w, docs/board-format.md.
    """
    b = assemble(3, ["A", "B", "C"])
    assert b.placements == ("nw", "ne", "sw")
    assert len(b.squares()) == 75
    assert not b.has_square((7, 7)) and b.sector_of((7, 7)) is None
    assert b.neighbor((6, 4), "s")[0] == (4, 6)  # type: ignore[index]
    assert b.links[((6, 4), "s")] == ((4, 6), "e")
    assert b.neighbor((4, 6), "e")[0] == (6, 4)  # type: ignore[index]
    # the warp's middle exits are open both ways
    assert b.edge_key((7, 4), "s") == b.edge_key((4, 7), "e")
    assert b.edge_key((7, 4), "s") not in b.printed
    assert b.links[((7, 0), "n")] == ((0, 7), "w")
    assert b.links[((2, 0), "n")] == ((2, 9), "s")
    assert b.links[((0, 2), "w")] == ((9, 2), "e")
    assert b.homes == ((2, 2), (7, 2), (2, 7))


def test_seam_merge() -> None:
    """A seam is one edge: wall if either side has a wall, else door if either has a door.

    Source: rulebook, The Board ("should be treated as a single wall").
    """
    s = load_sectors()
    west = s["A"]
    # give the east sector a door on its west rim row 0 and an open row 1
    east = dataclasses.replace(
        s["B"],
        id="Y",
        walls=s["B"].walls - {(0, 0, "w"), (0, 1, "w")},
        doors=s["B"].doors | {(0, 0, "w")},
    )
    west2 = dataclasses.replace(west, id="Z", walls=west.walls - {(4, 0, "e")})
    b = assemble(2, ["Z", "Y"], sectors={"Z": west2, "Y": east})
    assert b.printed[(4, 0, "e")] == "door"  # open + door
    assert b.printed[(4, 1, "e")] == "wall"  # wall + open
    assert (4, 2, "e") not in b.printed  # both exits


def test_rotation_keeps_shape() -> None:
    """A rotated placement keeps the home central and exits in the middle of each side.

    Source: rulebook, The Board (ROTATION card, later).
    """
    b = assemble(4, ["A", "B", "C", "D"], rotations=[1, 0, 0, 0])
    assert b.homes[0] == (2, 2)
    assert b.treasure_spots[0] == ((3, 1), (1, 3))
    assert b.edge_key((2, 0), "n") not in b.printed
    assert b.edge_key((0, 2), "w") not in b.printed


def test_assemble_errors() -> None:
    """Bad player counts, sector counts or ids are refused. Source: rulebook, The Board."""
    with pytest.raises(ValueError):
        assemble(5, ["A"] * 5)
    with pytest.raises(ValueError):
        assemble(2, ["A"])
    with pytest.raises(ValueError):
        assemble(2, ["A", "Q"])
    with pytest.raises(ValueError):
        assemble(4, ["A", "B", "C", "D"], crossed=True)


# ----------------------------------------------------------- memo tables (issue 6: speed)


def test_names_and_parses_remembered_stay_right() -> None:
    """Names and parses are remembered; a square's text is never read as a side or the
    other way round, bad text still fails every time, and lists still work as squares."""
    for _ in range(2):
        assert parse_square("c4") == (2, 3)
        assert parse_edge("c3:w") == (1, 2, "e")
        assert square_name((2, 3)) == "c4"
        assert edge_name((2, 2, "w")) == "b3:e"
    with pytest.raises(ValueError, match="bad square name"):
        parse_square("c3:w")  # remembered as a side, still no square
    with pytest.raises(ValueError, match="bad side name"):
        parse_edge("c4")  # remembered as a square, still no side
    for _ in range(2):
        with pytest.raises(ValueError):
            parse_square("c0")
        with pytest.raises(ValueError):
            square_name((-1, 0))
    assert square_name([1, 2]) == "b3"  # type: ignore[arg-type]
    assert edge_name([1, 1, "n"]) == "b1:s"  # type: ignore[arg-type]


def test_layout_tables_match_the_plain_answers() -> None:
    """The per-layout tables (edge keys, neighbours, physical edges) give what the plain
    computation gives, on every square and side of a 3-player board (holes, auto warp)."""
    b = assemble(3, sorted(load_sectors())[:3], rotations=[1, 0, 3])
    fresh = dataclasses.replace(b, _cache={})
    for sq in b.squares():
        for side in SIDES:
            assert b.edge_key(sq, side) == fresh._compute_edge_key(sq, side)
            assert b.neighbor(sq, side) == fresh._compute_neighbor(sq, side)
            key = b.edge_key(sq, side)
            assert b.physical_edges(key) == fresh._compute_physical_edges(canonical_edge(key))
    with pytest.raises(ValueError):
        b.edge_key((7, 7), "n")  # in the hole
    with pytest.raises(ValueError):
        b.neighbor((7, 7), "n")
    got = b.physical_edges(b.edge_key((0, 0), "n"))
    got.append(((9, 9), "x"))  # a caller's change does not reach the table
    assert ((9, 9), "x") not in b.physical_edges(b.edge_key((0, 0), "n"))


def test_sector_file_read_once_but_callers_get_their_own_dict() -> None:
    """load_sectors remembers the parsed file; changing the returned dict changes nothing."""
    first = load_sectors()
    first.pop(sorted(first)[0])
    again = load_sectors()
    assert len(again) == len(first) + 1


def test_boards_shared_by_spec() -> None:
    """build_layout gives the same immutable layout for the same spec (line-of-sight tables
    shared between games) and a different one for another spec."""
    from core.wizwar.state import build_layout

    spec = {"kind": "sectors", "players": 2, "sectors": ["A", "B"], "crossed": 0}
    a = build_layout(spec)
    assert build_layout(dict(spec)) is a
    assert build_layout({**spec, "crossed": 1}) is not a
    assert build_layout({**spec, "crossed": 1}) != a
    assert build_layout({"kind": "open", "size": "5x4"}) == open_board(5, 4)


def test_board_memo_is_bounded() -> None:
    """The memo of boards keeps at most its size, dropping the least recently used."""
    from core.wizwar import state as S

    first = S.build_layout({"kind": "open", "size": "3x2"})
    for i in range(S._LAYOUT_MEMO_SIZE + 5):
        S.build_layout({"kind": "open", "size": f"{4 + i}x2"})
    assert len(S._LAYOUT_MEMO) <= S._LAYOUT_MEMO_SIZE
    again = S.build_layout({"kind": "open", "size": "3x2"})
    assert again is not first and again == first
