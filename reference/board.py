"""Board-table mechanics for Pijanowski's domino: colours, contacts and lakes.

Pure functions over an immutable grid of cells (each cell holds one tile half's pips or None),
kept apart from the engine so that the geometry can be tested, and reused, on its own. Cells are
``(row, column)``, zero-based, row 0 at the top (R-PIJ-01).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

Cell = tuple[int, int]
Grid = tuple[tuple[int | None, ...], ...]

_STEPS: tuple[Cell, ...] = ((-1, 0), (0, -1), (0, 1), (1, 0))

CONTACT_PROBLEMS = ("off_board", "occupied", "not_adjacent_cells", "no_contact", "mismatch")
"""Every answer ``contact_violation`` can give, in the order it checks them."""

LAKE_MODES = ("new_region", "newly_enclosed")
"""The two readings of R-PIJ-06 (option ``lake_rule``)."""


def empty_grid(rows: int, cols: int) -> Grid:
    """A board with no tiles, ``rows`` x ``cols`` cells."""
    if rows < 1 or cols < 1:
        raise ValueError(f"a board needs at least one cell, got {rows}x{cols}")
    return tuple((None,) * cols for _ in range(rows))


def size(grid: Grid) -> tuple[int, int]:
    """(rows, cols) of a grid."""
    return len(grid), len(grid[0])


def on_board(grid: Grid, cell: Cell) -> bool:
    """True when ``cell`` lies inside the board."""
    r, c = cell
    return 0 <= r < len(grid) and 0 <= c < len(grid[0])


def neighbours(grid: Grid, cell: Cell) -> Iterator[Cell]:
    """The edge-adjacent cells of ``cell`` that lie on the board (diagonals never touch)."""
    rows, cols = len(grid), len(grid[0])
    r, c = cell
    for dr, dc in _STEPS:
        nr, nc = r + dr, c + dc
        if 0 <= nr < rows and 0 <= nc < cols:
            yield nr, nc


def adjacent(a: Cell, b: Cell) -> bool:
    """True when two cells share an edge."""
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


def place(grid: Grid, cells: tuple[Cell, Cell], pips: tuple[int, int]) -> Grid:
    """A new grid with ``pips[i]`` written on ``cells[i]``; the input grid is left unchanged.

    Only the board's own invariants are checked (cells on the board, empty, adjacent); the
    contact rules are the caller's business (see ``contact_violation``).
    """
    (r1, c1), (r2, c2) = cells
    for cell in cells:
        if not on_board(grid, cell):
            raise ValueError(f"cell {cell} is off the {len(grid)}x{len(grid[0])} board")
        if grid[cell[0]][cell[1]] is not None:
            raise ValueError(f"cell {cell} is occupied")
    if not adjacent(cells[0], cells[1]):
        raise ValueError(f"cells {cells[0]} and {cells[1]} are not edge-adjacent")
    rows = [list(row) for row in grid]
    rows[r1][c1] = pips[0]
    rows[r2][c2] = pips[1]
    return tuple(tuple(row) for row in rows)


def colour(cell: Cell) -> int:
    """The colour (0 or 1) of a cell's field: fields alternate like a chessboard (R-PIJ-01)."""
    r, c = cell
    return (r + c // 2) % 2


def field(cell: Cell) -> tuple[int, int]:
    """The field (row, k) a cell belongs to: cells (r, 2k) and (r, 2k+1) form field (r, k)."""
    return cell[0], cell[1] // 2


def same_field(a: Cell, b: Cell) -> bool:
    """True when both cells lie on one field, i.e. a tile lies exactly on it (R-PIJ-05)."""
    return field(a) == field(b)


def _cell_fits(grid: Grid, cell: Cell, pip: int) -> tuple[bool, bool]:
    """(every occupied neighbour shows ``pip``, at least one neighbour is occupied)."""
    touches = False
    for nr, nc in neighbours(grid, cell):
        shown = grid[nr][nc]
        if shown is None:
            continue
        touches = True
        if shown != pip:
            return False, True
    return True, touches


def contact_violation(
    grid: Grid, cells: tuple[Cell, Cell], pips: tuple[int, int], first: bool
) -> str | None:
    """Why putting ``pips`` on ``cells`` is illegal (R-PIJ-03/04), or None when it is legal.

    The answer is one of ``CONTACT_PROBLEMS`` so that the engine can map each to the rule it
    breaks. The new tile's own two cells are empty beforehand, so they never count as a
    contact of each other.
    """
    if not all(on_board(grid, cell) for cell in cells):
        return "off_board"
    if any(grid[r][c] is not None for r, c in cells):
        return "occupied"
    if not adjacent(cells[0], cells[1]):
        return "not_adjacent_cells"
    fits_low, touch_low = _cell_fits(grid, cells[0], pips[0])
    fits_high, touch_high = _cell_fits(grid, cells[1], pips[1])
    if not (first or touch_low or touch_high):
        return "no_contact"
    if not (fits_low and fits_high):
        return "mismatch"
    return None


_CLASH = -1
"""Required pip of a cell whose tiled neighbours show different pips: nothing fits there."""


Need = tuple[int | None, int | None]
"""What the two cells of a pair need: a pip, None (no tile touches the cell) or ``_CLASH``."""


@lru_cache(maxsize=256)
def _frontier(grid: Grid, first: bool) -> dict[Need, tuple[tuple[Cell, Cell], ...]]:
    """Pairs of empty adjacent cells a tile could cover, grouped by what their cells need.

    A cell's need is None when no tile touches it, the pip its tiled neighbours show, or
    ``_CLASH``. Unless ``first``, a pair qualifies only when one of its cells touches a tile.
    Grouping lets a tile look up the few groups it fits instead of testing every pair, and the
    cache serves every tile in a hand (and both players) from one pass over the grid.
    """
    rows, cols = len(grid), len(grid[0])
    need: dict[Cell, int | None] = {}
    for r in range(rows):
        for c in range(cols):
            if grid[r][c] is not None:
                continue
            shown = {grid[nr][nc] for nr, nc in neighbours(grid, (r, c))} - {None}
            need[(r, c)] = None if not shown else shown.pop() if len(shown) == 1 else _CLASH
    groups: dict[Need, list[tuple[Cell, Cell]]] = {}
    for (r, c), want in need.items():
        for b in ((r, c + 1), (r + 1, c)):
            if b in need and (first or want is not None or need[b] is not None):
                groups.setdefault((want, need[b]), []).append(((r, c), b))
    return {key: tuple(pairs) for key, pairs in groups.items()}


def _fitting(
    grid: Grid, tile_low: int, tile_high: int, first: bool
) -> Iterator[tuple[Cell, Cell]]:
    """The legal (low_cell, high_cell) of a tile, unsorted: a cell fits a half when it needs
    nothing or exactly that half's pips; a double is only tried one way round."""
    groups = _frontier(grid, first)
    for need_a in (None, tile_low):
        for need_b in (None, tile_high):
            yield from groups.get((need_a, need_b), ())
    if tile_low != tile_high:
        for need_a in (None, tile_high):
            for need_b in (None, tile_low):
                for a, b in groups.get((need_a, need_b), ()):
                    yield b, a


def placements(
    grid: Grid, tile_low: int, tile_high: int, first: bool
) -> list[tuple[Cell, Cell]]:
    """Every legal (low_cell, high_cell) for the tile, sorted (R-PIJ-03/04).

    A double shows the same pips either way round, so its two orders are one placement,
    given with its cells in row-major order.
    """
    return sorted(_fitting(grid, tile_low, tile_high, first))


def can_place(grid: Grid, tile_low: int, tile_high: int, first: bool) -> bool:
    """True when the tile has some legal placement (``placements`` is not empty)."""
    return next(_fitting(grid, tile_low, tile_high, first), None) is not None


def regions(grid: Grid) -> list[frozenset[Cell]]:
    """The 4-connected regions of empty cells, ordered by their first cell in row-major order."""
    seen: set[Cell] = set()
    out: list[frozenset[Cell]] = []
    rows, cols = len(grid), len(grid[0])
    for r in range(rows):
        for c in range(cols):
            if grid[r][c] is None and (r, c) not in seen:
                region = _flood(grid, (r, c), None, set())
                assert region is not None
                seen |= region
                out.append(frozenset(region))
    return out


def _flood(grid: Grid, start: Cell, limit: int | None, taken: set[Cell]) -> set[Cell] | None:
    """The empty region holding ``start``; None as soon as it is known to be too big.

    The region is too big when it has more than ``limit`` cells or reaches a cell in
    ``taken`` (cells of a region already found too big, which this one then joins).
    """
    region = {start}
    stack = [start]
    while stack:
        cell = stack.pop()
        for n in neighbours(grid, cell):
            if n in region or grid[n[0]][n[1]] is not None:
                continue
            if n in taken:
                taken |= region
                return None
            region.add(n)
            if limit is not None and len(region) > limit:
                taken |= region
                return None
            stack.append(n)
    return region


def new_lakes(
    before: Grid,
    after: Grid,
    new_cells: tuple[Cell, Cell],
    max_cells: int,
    mode: str,
) -> list[tuple[Cell, ...]]:
    """The lakes a placement makes (R-PIJ-06), each as its sorted cells; lakes sorted.

    Only regions touching the new tile can differ from the regions before it, so every empty
    region of ``after`` with 1..``max_cells`` cells that touches a new cell is new
    (``new_region``). Under ``newly_enclosed`` such a region counts only when, before the
    placement, its cells lay in one region of more than ``max_cells`` cells; a tile put inside
    an old lake then scores nothing. The fills stop once a region is too big, so the cost does
    not grow with the board.
    """
    if mode not in LAKE_MODES:
        raise ValueError(f"unknown lake mode {mode!r}; expected one of {LAKE_MODES}")
    lakes: list[tuple[Cell, ...]] = []
    too_big: set[Cell] = set()
    found: set[Cell] = set()
    for new in new_cells:
        for start in neighbours(after, new):
            if after[start[0]][start[1]] is not None or start in found or start in too_big:
                continue
            region = _flood(after, start, max_cells, too_big)
            if region is None:
                continue
            found |= region
            if mode == "newly_enclosed" and (
                _flood(before, start, max_cells, set()) is not None
            ):
                continue
            lakes.append(tuple(sorted(region)))
    return sorted(lakes)
