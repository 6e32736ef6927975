"""Pijanowski board mechanics checked on small hand-drawn boards (R-PIJ-01, 03, 04, 06).

Boards are drawn as text: one line per row, one character per cell, ``.`` empty, a digit the
pips shown by the tile half on that cell. Expected answers are worked out by hand in comments.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dominokit.reference.board import new_lakes, placements
from dominokit.reference.board_plain import (
    Cell,
    Grid,
    colour,
    contact_violation,
    empty_grid,
    place,
    regions,
    same_field,
)


def board(text: str) -> Grid:
    """A grid from a drawing: ``.`` is empty, a digit is the pips on that cell."""
    rows = [line.strip() for line in text.strip().splitlines()]
    return tuple(tuple(None if ch == "." else int(ch) for ch in row) for row in rows)


def lakes_of(before: Grid, cells: tuple[Cell, Cell], pips: tuple[int, int], mode: str
             ) -> list[tuple[Cell, ...]]:
    return new_lakes(before, place(before, cells, pips), cells, 4, mode)


BOTH_MODES = ("new_region", "newly_enclosed")

# --- colours and fields (R-PIJ-01, R-PIJ-05) ---------------------------------------------


@pytest.mark.rule("R-PIJ-01", "R-PIJ-11")
def test_colours_follow_fields_like_a_chessboard() -> None:
    # colour = (r + c // 2) % 2
    assert colour((0, 0)) == 0  # 0 + 0
    assert colour((0, 1)) == 0  # 0 + 0: same field as (0, 0)
    assert colour((0, 2)) == 1  # 0 + 1
    assert colour((1, 0)) == 1  # 1 + 0
    assert colour((1, 3)) == 0  # 1 + 1
    assert colour((5, 11)) == 0  # 5 + 5 = 10
    assert colour((11, 11)) == 0  # 11 + 5 = 16 (12x12 board, same formula, R-PIJ-11)
    assert colour((11, 0)) == 1  # 11 + 0


@pytest.mark.rule("R-PIJ-01", "R-PIJ-05")
def test_horizontal_tile_on_one_field_or_across_two() -> None:
    # row 0:  [f0: c0 c1][f1: c2 c3][f2: c4 c5] ...
    assert same_field((0, 4), (0, 5))  # the seed's 5-6 on field (0, 2)
    assert colour((0, 4)) == colour((0, 5))
    assert not same_field((0, 5), (0, 6))  # straddles fields (0, 2) and (0, 3)
    assert colour((0, 5)) != colour((0, 6))  # 0+2=2 -> 0 ; 0+3=3 -> 1


@pytest.mark.rule("R-PIJ-05")
def test_vertical_tile_is_never_on_one_field() -> None:
    # (0,4): 0+2 -> 0 ; (1,4): 1+2 -> 1 -- rows differ so fields differ, and colours too
    assert not same_field((0, 4), (1, 4))
    assert colour((0, 4)) != colour((1, 4))
    assert not same_field((2, 7), (3, 7))


# --- placements and contacts (R-PIJ-03, R-PIJ-04) ------------------------------------------


@pytest.mark.rule("R-PIJ-01")
def test_empty_grid_shape() -> None:
    grid = empty_grid(6, 12)
    assert len(grid) == 6 and all(len(row) == 12 for row in grid)
    assert all(cell is None for row in grid for cell in row)


def test_place_returns_a_new_grid() -> None:
    grid = empty_grid(2, 3)
    after = place(grid, ((0, 1), (1, 1)), (2, 5))
    assert after == board("""
        .2.
        .5.
    """)
    assert grid == empty_grid(2, 3)


@pytest.mark.rule("R-PIJ-03", "R-PIJ-11")
def test_first_tile_goes_anywhere_on_an_empty_board() -> None:
    # 6x12: horizontal pairs 6 * 11 = 66, vertical pairs 5 * 12 = 60 -> 126 pairs of cells;
    # a non-double fits each pair in both orders (252), a double once (126).
    grid = empty_grid(6, 12)
    assert len(placements(grid, 1, 2, first=True)) == 252
    assert len(placements(grid, 3, 3, first=True)) == 126
    # 12x12: 12 * 11 + 11 * 12 = 264 pairs
    assert len(placements(empty_grid(12, 12), 0, 6, first=True)) == 528
    assert placements(grid, 1, 2, first=False) == []


@pytest.mark.rule("R-PIJ-03")
def test_double_is_one_placement_in_row_major_order() -> None:
    # 2x2 board: pairs (0,0)-(0,1), (0,0)-(1,0), (0,1)-(1,1), (1,0)-(1,1)
    grid = empty_grid(2, 2)
    assert placements(grid, 4, 4, first=True) == [
        ((0, 0), (0, 1)), ((0, 0), (1, 0)), ((0, 1), (1, 1)), ((1, 0), (1, 1)),
    ]
    assert len(placements(grid, 3, 4, first=True)) == 8


SINGLE = board("""
    ....
    .56.
    ....
""")


@pytest.mark.rule("R-PIJ-03", "R-PIJ-04")
def test_single_contact_placements() -> None:
    # Tile 1-5 next to the lone 5-6. The 5-half must touch the 5 (cells (0,1), (2,1), (1,0))
    # and touch nothing else; the 1-half must touch nothing (no 1 on the board).
    #   5 on (0,1): 1 on (0,0) ok; (0,2) touches the 6 -> no
    #   5 on (2,1): 1 on (2,0) ok; (2,2) touches the 6 -> no
    #   5 on (1,0): 1 on (0,0) or (2,0), both touch only empty cells (diagonals do not count)
    assert placements(SINGLE, 1, 5, first=False) == [
        ((0, 0), (0, 1)), ((0, 0), (1, 0)), ((2, 0), (1, 0)), ((2, 0), (2, 1)),
    ]


@pytest.mark.rule("R-PIJ-04")
def test_double_next_to_a_tile() -> None:
    # 6-6 touching the 6 at (1,2): cells next to it are (0,2), (2,2), (1,3); partners must not
    # touch the 5 at (1,1). (0,2)+(0,3): (0,3) touches nothing -> ok; (0,1)+(0,2): (0,1) touches
    # the 5 -> no; (0,2)+(1,2) occupied. Likewise (2,2)+(2,3). (1,3): +(0,3), +(2,3) ok.
    assert placements(SINGLE, 6, 6, first=False) == [
        ((0, 2), (0, 3)), ((0, 3), (1, 3)), ((1, 3), (2, 3)), ((2, 2), (2, 3)),
    ]


SEVERAL = board("""
    33.
    3..
    4..
""")


@pytest.mark.rule("R-PIJ-04")
def test_several_contacts_all_matching() -> None:
    # 3-4 with its 3 on (1,1) touching the 3s above and left, its 4 on (2,1) touching the 4
    assert contact_violation(SEVERAL, ((1, 1), (2, 1)), (3, 4), first=False) is None


@pytest.mark.rule("R-PIJ-04")
def test_one_mismatching_contact_among_several() -> None:
    # 3-5: the 3 matches twice, but the 5 on (2,1) touches the 4 on (2,0)
    assert contact_violation(SEVERAL, ((1, 1), (2, 1)), (3, 5), first=False) == "mismatch"
    # the same tile turned round: its 3 on (2,1) touches the 4
    assert contact_violation(SEVERAL, ((2, 1), (1, 1)), (3, 4), first=False) == "mismatch"
    assert ((1, 1), (2, 1)) not in placements(SEVERAL, 3, 5, first=False)
    assert ((1, 1), (2, 1)) in placements(SEVERAL, 3, 4, first=False)


@pytest.mark.rule("R-PIJ-03", "R-PIJ-04")
def test_diagonal_contact_does_not_count() -> None:
    grid = board("""
        ......
        .56...
        ......
    """)
    # (0,3) is diagonal to the 6 on (1,2); (0,3) and (0,4) share no edge with any tile
    assert contact_violation(grid, ((0, 3), (0, 4)), (6, 6), first=False) == "no_contact"
    assert contact_violation(grid, ((0, 3), (0, 4)), (6, 6), first=True) is None
    assert contact_violation(grid, ((0, 2), (0, 3)), (6, 6), first=False) is None


@pytest.mark.rule("R-PIJ-03")
def test_cells_off_board_occupied_or_apart() -> None:
    assert contact_violation(SEVERAL, ((0, 2), (0, 3)), (3, 3), first=False) == "off_board"
    assert contact_violation(SEVERAL, ((-1, 2), (0, 2)), (3, 3), first=False) == "off_board"
    assert contact_violation(SEVERAL, ((0, 1), (0, 2)), (3, 3), first=False) == "occupied"
    assert contact_violation(SEVERAL, ((1, 1), (2, 2)), (3, 4), first=False) == (
        "not_adjacent_cells")
    assert contact_violation(SEVERAL, ((1, 1), (1, 1)), (3, 3), first=False) == (
        "not_adjacent_cells")
    assert contact_violation(SEVERAL, ((1, 1), (1, 2)), (3, 0), first=False) is None


def _legal_by_definition(grid: Grid, cells: tuple[Cell, Cell], pips: tuple[int, int],
                         first: bool) -> bool:
    """R-PIJ-03/04 spelled out directly, independent of the module's search."""
    rows, cols = len(grid), len(grid[0])
    (r1, c1), (r2, c2) = cells
    if not (0 <= r1 < rows and 0 <= c1 < cols and 0 <= r2 < rows and 0 <= c2 < cols):
        return False
    if grid[r1][c1] is not None or grid[r2][c2] is not None:
        return False
    if abs(r1 - r2) + abs(c1 - c2) != 1:
        return False
    contacts = 0
    for (r, c), pip in zip(cells, pips, strict=True):
        for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if 0 <= rr < rows and 0 <= cc < cols and grid[rr][cc] is not None:
                contacts += 1
                if grid[rr][cc] != pip:
                    return False
    return first or contacts > 0


def _random_board(rng: random.Random, rows: int, cols: int, tiles: int) -> Grid:
    grid = empty_grid(rows, cols)
    for i in range(tiles):
        low, high = sorted((rng.randint(0, 6), rng.randint(0, 6)))
        options = placements(grid, low, high, first=(i == 0))
        if not options:
            continue
        cells = rng.choice(options)
        grid = place(grid, cells, (low, high))
    return grid


@pytest.mark.rule("R-PIJ-03", "R-PIJ-04")
@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**9), st.integers(0, 30))
def test_placements_match_the_definition(seed: int, tiles: int) -> None:
    rng = random.Random(seed)
    grid = _random_board(rng, 6, 12, tiles)
    first = all(cell is None for row in grid for cell in row)
    cells_all = [(r, c) for r in range(6) for c in range(12)]
    for low, high in ((0, 0), (1, 4), (6, 6), (2, 3)):
        expected = set()
        for a in cells_all:
            for b in cells_all:
                if _legal_by_definition(grid, (a, b), (low, high), first):
                    expected.add((min(a, b), max(a, b)) if low == high else (a, b))
        got = placements(grid, low, high, first)
        assert got == sorted(expected)
        for cells in got:
            assert contact_violation(grid, cells, (low, high), first) is None


# --- regions and lakes (R-PIJ-06) ----------------------------------------------------------


@pytest.mark.rule("R-PIJ-06")
def test_regions_are_four_connected() -> None:
    grid = board("""
        .0.
        0.0
        .0.
    """)
    # the four corners only touch diagonally-adjacent empty cells of each other: 5 regions
    assert regions(grid) == [
        frozenset({(0, 0)}), frozenset({(0, 2)}), frozenset({(1, 1)}),
        frozenset({(2, 0)}), frozenset({(2, 2)}),
    ]
    assert regions(empty_grid(2, 2)) == [frozenset({(0, 0), (0, 1), (1, 0), (1, 1)})]


@pytest.mark.rule("R-PIJ-06")
def test_one_cell_lake_in_the_corner() -> None:
    before = board("""
        ....
        00..
        ....
    """)
    # 0-0 on (0,1)+(0,2):   .00.     (0,0) is cut off: 1 cell; the rest is 7 cells
    #                       00..
    #                       ....
    for mode in BOTH_MODES:
        assert lakes_of(before, ((0, 1), (0, 2)), (0, 0), mode) == [((0, 0),)]


@pytest.mark.rule("R-PIJ-06")
def test_two_cell_lake_at_the_edge() -> None:
    before = board("""
        0..0.
        00...
        .....
    """)
    # 0-0 on (1,2)+(1,3):   0..0.    (0,1),(0,2) closed against the top edge: 2 cells
    #                       0000.    right column and bottom row: 2 + 5 = 7 cells
    #                       .....
    for mode in BOTH_MODES:
        assert lakes_of(before, ((1, 2), (1, 3)), (0, 0), mode) == [((0, 1), (0, 2))]


@pytest.mark.rule("R-PIJ-06")
def test_three_and_two_cell_lakes_from_one_tile() -> None:
    before = board("""
        ...
        0..
        0..
    """)
    # 0-0 on (1,1)+(1,2):   ...    top row 3 cells and (2,1),(2,2) 2 cells, both new;
    #                       000    before, all 7 empty cells were one region (> 4)
    #                       0..
    for mode in BOTH_MODES:
        assert lakes_of(before, ((1, 1), (1, 2)), (0, 0), mode) == [
            ((0, 0), (0, 1), (0, 2)), ((2, 1), (2, 2)),
        ]


@pytest.mark.rule("R-PIJ-06")
def test_two_four_cell_lakes_from_the_first_tile() -> None:
    # 2x5 board, first tile upright in the middle column:  ..0..
    #                                                      ..0..   4 cells each side
    before = empty_grid(2, 5)
    for mode in BOTH_MODES:
        assert lakes_of(before, ((0, 2), (1, 2)), (1, 1), mode) == [
            ((0, 0), (0, 1), (1, 0), (1, 1)), ((0, 3), (0, 4), (1, 3), (1, 4)),
        ]


@pytest.mark.rule("R-PIJ-06")
def test_five_cells_are_not_a_lake() -> None:
    before = board("""
        ..0
        ..0
        ...
    """)
    # 0-0 on (2,1)+(2,2):   ..0    the 5 cells (0,0),(0,1),(1,0),(1,1),(2,0) are one region
    #                       ..0
    #                       .00
    for mode in BOTH_MODES:
        assert lakes_of(before, ((2, 1), (2, 2)), (0, 0), mode) == []
    # one row of 8: a tile on cells 5 and 6 leaves 5 cells on the left (no lake) and 1 on the
    # right (a lake)
    for mode in BOTH_MODES:
        assert lakes_of(empty_grid(1, 8), ((0, 5), (0, 6)), (2, 3), mode) == [((0, 7),)]


@pytest.mark.rule("R-PIJ-06")
def test_tile_inside_an_old_four_cell_lake() -> None:
    before = board("""
        ..0..
        ..0..
    """)
    # The left 4 cells were already a lake. 0-0 on (0,0)+(0,1):  000..
    #                                                            ..0..
    # leaves (1,0),(1,1). new_region: a region that was not one before -> 2 cells score.
    # newly_enclosed: before, those cells lay in a region of 4 (not > 4) -> nothing.
    assert lakes_of(before, ((0, 0), (0, 1)), (0, 0), "new_region") == [((1, 0), (1, 1))]
    assert lakes_of(before, ((0, 0), (0, 1)), (0, 0), "newly_enclosed") == []
    # the untouched right lake is never counted again; filling a lake fully leaves no lake
    after = place(before, ((0, 0), (0, 1)), (0, 0))
    for mode in BOTH_MODES:
        assert lakes_of(after, ((1, 0), (1, 1)), (0, 0), mode) == []


@pytest.mark.rule("R-PIJ-06", "R-PIJ-11")
def test_a_twelve_by_twelve_board() -> None:
    # A ring of 1-1 tiles, each touching the one before, round the 2x2 hole
    # (5,5),(5,6),(6,5),(6,6):      row 4:  . . . . 1 1 1 1 . .
    #                               row 5:  . . . . 1 . . 1 . .
    #                               row 6:  . . . . 1 . . 1 . .
    #                               row 7:  . . . . 1 1 1 1 . .
    # The last tile, (7,6)+(7,7), closes it: a 4-cell lake (16 points at 4 a cell).
    # Outside: 144 - 12 tile cells - 4 = 128 cells, no lake.
    grid = empty_grid(12, 12)
    ring = [((4, 4), (4, 5)), ((4, 6), (4, 7)), ((5, 4), (6, 4)), ((5, 7), (6, 7)),
            ((7, 4), (7, 5))]
    for cells in ring:
        assert contact_violation(grid, cells, (1, 1), first=cells == ring[0]) is None
        grid = place(grid, cells, (1, 1))
    last = ((7, 6), (7, 7))
    assert contact_violation(grid, last, (1, 1), first=False) is None
    for mode in BOTH_MODES:
        assert lakes_of(grid, last, (1, 1), mode) == [((5, 5), (5, 6), (6, 5), (6, 6))]
    assert sorted(len(r) for r in regions(place(grid, last, (1, 1)))) == [4, 128]


def _lakes_by_definition(before: Grid, after: Grid, mode: str) -> list[tuple[Cell, ...]]:
    """R-PIJ-06 from the whole-board regions: a region of 1..4 cells that was not a region."""
    old = regions(before)
    out = []
    for region in regions(after):
        if not 1 <= len(region) <= 4 or region in old:
            continue
        if mode == "newly_enclosed":
            home = next(r for r in old if region <= r)
            if len(home) <= 4:
                continue
        out.append(tuple(sorted(region)))
    return sorted(out)


@pytest.mark.rule("R-PIJ-06")
@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**9), st.sampled_from([(6, 12), (12, 12)]))
def test_lakes_match_the_whole_board_definition(seed: int, shape: tuple[int, int]) -> None:
    # Fill a board by random legal placements; at each step the bounded search around the new
    # tile must agree with comparing every region before and after.
    rng = random.Random(seed)
    grid = empty_grid(*shape)
    for i in range(80):
        low, high = sorted((rng.randint(0, 6), rng.randint(0, 6)))
        options = placements(grid, low, high, first=(i == 0))
        if not options:
            continue
        cells = rng.choice(options)
        after = place(grid, cells, (low, high))
        for mode in BOTH_MODES:
            assert new_lakes(grid, after, cells, 4, mode) == _lakes_by_definition(
                grid, after, mode)
        grid = after
