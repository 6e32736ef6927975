"""Board-table mechanics for Pijanowski's domino: colours, contacts and lakes.

Pure functions over an immutable grid of cells (each cell holds one tile half's pips or None),
kept apart from the engine so that the geometry can be tested, and reused, on its own. Cells are
``(row, column)``, zero-based, row 0 at the top (R-PIJ-01).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
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
    rows = list(grid)  # rows the tile misses are shared: every row is immutable
    for (r, c), pip in ((cells[0], pips[0]), (cells[1], pips[1])):
        row = rows[r]
        rows[r] = (*row[:c], pip, *row[c + 1:])
    return tuple(rows)


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


Pair = tuple[Cell, Cell]
"""Two edge-adjacent cells, the first before the second in row-major order."""


@dataclass(frozen=True)
class Frontier:
    """Pairs of empty adjacent cells a tile could cover, grouped by what their cells need.

    A cell's need is None when no tile touches it, the pip its tiled neighbours show, or
    ``_CLASH``. Unless ``first`` (the empty board), a pair qualifies only when one of its
    cells touches a tile. Grouping lets a tile look up the few groups it fits instead of
    testing every pair, and one frontier serves every tile of both hands. After a placement
    only the cells around the new tile change, so ``advance`` updates the frontier there
    instead of scanning the board again.
    """

    first: bool
    need: dict[Cell, int | None]
    """The need of every empty cell."""
    groups: dict[Need, frozenset[Pair]]
    """The qualifying pairs by (need of the first cell, need of the second)."""
    keys: dict[Pair, Need]
    """The group of every qualifying pair."""


@lru_cache(maxsize=16)
def _adjacency(rows: int, cols: int) -> dict[Cell, tuple[Cell, ...]]:
    """Every cell's on-board neighbours, for a board size (what ``neighbours`` yields)."""
    grid: Grid = ((None,) * cols,) * rows
    return {(r, c): tuple(neighbours(grid, (r, c))) for r in range(rows) for c in range(cols)}


def _need(grid: Grid, around: tuple[Cell, ...]) -> int | None:
    """What a cell with the neighbours ``around`` needs (see ``Frontier``)."""
    want = None
    for r, c in around:
        shown = grid[r][c]
        if shown is not None:
            if want is None:
                want = shown
            elif want != shown:
                return _CLASH
    return want


def scan_frontier(grid: Grid, first: bool) -> Frontier:
    """The frontier of ``grid`` found by scanning every cell."""
    rows, cols = len(grid), len(grid[0])
    adjacency = _adjacency(rows, cols)
    need = {(r, c): _need(grid, adjacency[(r, c)])
            for r in range(rows) for c in range(cols) if grid[r][c] is None}
    groups: dict[Need, set[Pair]] = {}
    keys: dict[Pair, Need] = {}
    for (r, c), want in need.items():
        for b in ((r, c + 1), (r + 1, c)):
            if b in need and (first or want is not None or need[b] is not None):
                key = (want, need[b])
                keys[((r, c), b)] = key
                groups.setdefault(key, set()).add(((r, c), b))
    return Frontier(first, need, {key: frozenset(pairs) for key, pairs in groups.items()},
                    keys)


def advance(before: Frontier, after: Grid, cells: tuple[Cell, Cell]) -> Frontier:
    """The frontier once a tile covers ``cells`` (``after`` is the grid with it).

    Only the two new cells and their empty neighbours change need, so only pairs holding one
    of them can change group; the rest is shared with ``before``. From the empty board
    (``first``) every pair changes (they must now touch a tile), so that one is rescanned.
    """
    if before.first:
        return scan_frontier(after, False)
    adjacency = _adjacency(len(after), len(after[0]))
    need = dict(before.need)
    for cell in cells:
        del need[cell]
    changed = set(cells)
    for cell in cells:
        for n in adjacency[cell]:
            if n in need:
                need[n] = _need(after, adjacency[n])
                changed.add(n)
    pairs: set[Pair] = set()
    for cell in changed:
        for n in adjacency[cell]:
            pairs.add((cell, n) if cell < n else (n, cell))
    keys = dict(before.keys)
    gone: dict[Need, set[Pair]] = {}
    added: dict[Need, set[Pair]] = {}
    for pair in pairs:
        old = keys.pop(pair, None)
        if old is not None:
            gone.setdefault(old, set()).add(pair)
        a, b = pair
        if a in need and b in need:
            key = (need[a], need[b])
            if key != (None, None):
                keys[pair] = key
                added.setdefault(key, set()).add(pair)
    groups = dict(before.groups)
    for key in gone.keys() | added.keys():
        pairs_now = (groups.get(key, frozenset()) - gone.get(key, set())) | added.get(key, set())
        if pairs_now:
            groups[key] = frozenset(pairs_now)
        else:
            groups.pop(key, None)
    return Frontier(False, need, groups, keys)


@lru_cache(maxsize=256)
def _frontier(grid: Grid, first: bool) -> Frontier:
    """The frontier of a grid given on its own (cached: one pass serves every tile)."""
    return scan_frontier(grid, first)


def fitting_in(front: Frontier, tile_low: int, tile_high: int) -> Iterator[Pair]:
    """The legal (low_cell, high_cell) of a tile, unsorted: a cell fits a half when it needs
    nothing or exactly that half's pips; a double is only tried one way round."""
    groups = front.groups
    for need_a in (None, tile_low):
        for need_b in (None, tile_high):
            yield from groups.get((need_a, need_b), ())
    if tile_low != tile_high:
        for need_a in (None, tile_high):
            for need_b in (None, tile_low):
                for a, b in groups.get((need_a, need_b), ()):
                    yield b, a


def placements_in(front: Frontier, tile_low: int, tile_high: int) -> list[Pair]:
    """Every legal (low_cell, high_cell) for the tile on the frontier's board, sorted."""
    groups = front.groups
    out: list[Pair] = []
    for key in ((None, None), (None, tile_high), (tile_low, None), (tile_low, tile_high)):
        out += groups.get(key, ())
    if tile_low != tile_high:
        for key in ((None, None), (None, tile_low), (tile_high, None), (tile_high, tile_low)):
            out += [(b, a) for a, b in groups.get(key, ())]
    out.sort()
    return out


def can_place_in(front: Frontier, tile_low: int, tile_high: int) -> bool:
    """True when the tile has some legal placement on the frontier's board."""
    return next(fitting_in(front, tile_low, tile_high), None) is not None


def placements(
    grid: Grid, tile_low: int, tile_high: int, first: bool
) -> list[tuple[Cell, Cell]]:
    """Every legal (low_cell, high_cell) for the tile, sorted (R-PIJ-03/04).

    A double shows the same pips either way round, so its two orders are one placement,
    given with its cells in row-major order.
    """
    return placements_in(_frontier(grid, first), tile_low, tile_high)


def can_place(grid: Grid, tile_low: int, tile_high: int, first: bool) -> bool:
    """True when the tile has some legal placement (``placements`` is not empty)."""
    return can_place_in(_frontier(grid, first), tile_low, tile_high)


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
