"""The rules of Pijanowski's board, written plainly: the definition every faster reading must match.

Each function here says one rule of spec/variants/pijanowski.yaml in the most direct way a
player would check it by hand: look at every cell, every pair of cells, every region. Nothing is
cached or brought up to date from an earlier board, so each answer can be read off the rule it
cites. The engine plays with the fast layer (``board.py``: lookups by what each pair of cells
needs, bounded floods; ``state.BoardTable``: placements kept from board to board), and the
tests play random hands of every board variant and option and compare the fast answers with
these at every step.

A board is a grid of cells, each holding one tile half's pips or None; cells are
``(row, column)``, zero-based, row 0 at the top (R-PIJ-01). Grids are immutable tuples of rows.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from dominokit.spec.vocabulary import vocabulary

Cell = tuple[int, int]
Grid = tuple[tuple[int | None, ...], ...]

LAKE_MODES: tuple[str, ...] = vocabulary()["lake_mode"]
"""The readings of R-PIJ-06 (option ``lake_rule``), as the variant schema lists them."""

CONTACT_PROBLEMS = ("off_board", "occupied", "not_adjacent_cells", "no_contact", "mismatch")
"""Every answer ``contact_violation`` can give, in the order it checks them."""

_STEPS: tuple[Cell, ...] = ((-1, 0), (0, -1), (0, 1), (1, 0))
"""Up, left, right, down: the four edge neighbours (diagonals never touch, R-PIJ-04)."""


# ---------------------------------------------------------------------------- the board


def empty_grid(rows: int, cols: int) -> Grid:
    """A board with no tiles, ``rows`` x ``cols`` cells (R-PIJ-01: 6 x 12)."""
    if rows < 1 or cols < 1:
        raise ValueError(f"a board needs at least one cell, got {rows}x{cols}")
    return tuple((None,) * cols for _ in range(rows))


def size(grid: Grid) -> tuple[int, int]:
    """(rows, cols) of a grid."""
    return len(grid), len(grid[0])


def on_board(grid: Grid, cell: Cell) -> bool:
    """True when ``cell`` lies inside the board (R-PIJ-03: both halves inside)."""
    r, c = cell
    return 0 <= r < len(grid) and 0 <= c < len(grid[0])


def neighbours(grid: Grid, cell: Cell) -> Iterator[Cell]:
    """The edge-adjacent cells of ``cell`` that lie on the board, in the order up, left, right,
    down (R-PIJ-04: cells touching only at a corner are not in contact)."""
    rows, cols = len(grid), len(grid[0])
    r, c = cell
    for dr, dc in _STEPS:
        nr, nc = r + dr, c + dc
        if 0 <= nr < rows and 0 <= nc < cols:
            yield nr, nc


def adjacent(a: Cell, b: Cell) -> bool:
    """True when two cells share an edge (R-PIJ-03: a tile covers two such cells)."""
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


def place(grid: Grid, cells: tuple[Cell, Cell], pips: tuple[int, int]) -> Grid:
    """A new grid with ``pips[i]`` written on ``cells[i]``; the input grid is left unchanged.

    Only the board's own invariants are checked (cells on the board, empty, adjacent); the
    contact rules are ``contact_violation``'s.
    """
    for cell in cells:
        if not on_board(grid, cell):
            raise ValueError(f"cell {cell} is off the {len(grid)}x{len(grid[0])} board")
        if grid[cell[0]][cell[1]] is not None:
            raise ValueError(f"cell {cell} is occupied")
    if not adjacent(cells[0], cells[1]):
        raise ValueError(f"cells {cells[0]} and {cells[1]} are not edge-adjacent")
    rows = list(grid)  # rows the tile misses are shared: every row is immutable
    for (r, c), pip in zip(cells, pips, strict=True):
        rows[r] = (*rows[r][:c], pip, *rows[r][c + 1:])
    return tuple(rows)


def colour(cell: Cell) -> int:
    """The colour (0 or 1) of a cell's field: fields alternate like a chessboard (R-PIJ-01)."""
    r, c = cell
    return (r + c // 2) % 2


def field(cell: Cell) -> tuple[int, int]:
    """The field (row, k) a cell belongs to: cells (r, 2k) and (r, 2k+1) form field (r, k)
    (R-PIJ-01)."""
    return cell[0], cell[1] // 2


def same_field(a: Cell, b: Cell) -> bool:
    """True when both cells lie on one field, i.e. a tile lies exactly on it: such a tile
    scores double (R-PIJ-05)."""
    return field(a) == field(b)


# ---------------------------------------------------------------------------- placements


def contact_violation(
    grid: Grid, cells: tuple[Cell, Cell], pips: tuple[int, int], first: bool
) -> str | None:
    """Why putting ``pips`` on ``cells`` is illegal (R-PIJ-03/04), or None when it is legal.

    ``first`` is True for the first tile of the hand. The answer is one of
    ``CONTACT_PROBLEMS``, so that the engine can cite the rule each breaks. The new tile's own
    two cells are empty beforehand, so they never count as a contact of each other.
    """
    if not all(on_board(grid, cell) for cell in cells):
        return "off_board"  # R-PIJ-03: both halves inside the board
    if any(grid[r][c] is not None for r, c in cells):
        return "occupied"  # R-PIJ-03: both cells empty
    if not adjacent(cells[0], cells[1]):
        return "not_adjacent_cells"  # R-PIJ-03: two edge-adjacent cells
    contacts = [(grid[n[0]][n[1]], pip)
                for cell, pip in zip(cells, pips, strict=True)
                for n in neighbours(grid, cell) if grid[n[0]][n[1]] is not None]
    if not first and not contacts:
        return "no_contact"  # R-PIJ-03: after the first tile, touch a tile on the board
    if any(shown != pip for shown, pip in contacts):
        return "mismatch"  # R-PIJ-04: every contact shows equal pips
    return None


def touching(grid: Grid, cell: Cell) -> set[int]:
    """The pips shown by the tiled cells edge-adjacent to ``cell``: a half put on ``cell``
    touches each of them, and must show the same pips (R-PIJ-04)."""
    return {pip for r, c in neighbours(grid, cell) if (pip := grid[r][c]) is not None}


def legal_placements(grid: Grid, low: int, high: int, first: bool) -> list[tuple[Cell, Cell]]:
    """Every (low cell, high cell) the tile ``low``-``high`` may cover, sorted (R-PIJ-03/04).

    See ``placements_of_tiles``, which answers for several tiles at once.
    """
    return placements_of_tiles(grid, [(low, high)], first)[low, high]


def placements_of_tiles(grid: Grid, tiles: Iterable[tuple[int, int]], first: bool
                        ) -> dict[tuple[int, int], list[tuple[Cell, Cell]]]:
    """Each (low, high) tile's legal (low cell, high cell) placements, sorted (R-PIJ-03/04).

    A tile covers two edge-adjacent empty cells (R-PIJ-03); each half's cell may touch only
    tiled cells showing that half's pips (R-PIJ-04); after the first tile of the hand, one of
    the two cells must touch some tile (R-PIJ-03). This is ``contact_violation`` asked of every
    pair of cells at once: what each empty cell touches is the same whichever tile comes, so it
    is read once per board. A double shows the same pips either way round, so its two orders
    are one placement, given with its cells in row-major order.
    """
    rows, cols = size(grid)
    touched = {(r, c): touching(grid, (r, c))
               for r in range(rows) for c in range(cols) if grid[r][c] is None}
    pairs = [(cell, other, touched[cell], touched[other])
             for cell in touched for other in neighbours(grid, cell) if other in touched]
    out: dict[tuple[int, int], list[tuple[Cell, Cell]]] = {}
    for low, high in tiles:
        shows_low, shows_high = {low}, {high}
        out[low, high] = sorted(
            (cell, other) for cell, other, around, around_other in pairs
            if around <= shows_low and around_other <= shows_high
            and (first or around or around_other)
            and not (low == high and other < cell))  # a double's other order: the same one
    return out


# ---------------------------------------------------------------------------- lakes


def regions(grid: Grid) -> list[frozenset[Cell]]:
    """The regions of empty cells: sets of empty cells connected through shared edges
    (R-PIJ-06), ordered by their first cell in row-major order."""
    rows, cols = size(grid)
    seen: set[Cell] = set()
    out: list[frozenset[Cell]] = []
    for r in range(rows):
        for c in range(cols):
            if grid[r][c] is not None or (r, c) in seen:
                continue
            region = {(r, c)}
            todo = [(r, c)]
            while todo:
                for n in neighbours(grid, todo.pop()):
                    if grid[n[0]][n[1]] is None and n not in region:
                        region.add(n)
                        todo.append(n)
            seen |= region
            out.append(frozenset(region))
    return out


def lakes(before: Grid, after: Grid, max_cells: int, mode: str) -> list[tuple[Cell, ...]]:
    """The new lakes of one placement, ``before`` -> ``after``, each as its sorted cells;
    sorted (R-PIJ-06).

    A region of ``after`` with 1 to ``max_cells`` cells that was not a region (the same set of
    cells) of ``before`` is a new lake (``new_region``). Under ``newly_enclosed`` it is one
    only if, on ``before``, all its cells lay in one region of more than ``max_cells`` cells.
    """
    if mode not in LAKE_MODES:
        raise ValueError(f"unknown lake mode {mode!r}; expected one of {LAKE_MODES}")
    old = regions(before)
    found = []
    for region in regions(after):
        if len(region) > max_cells or region in old:
            continue
        if mode == "newly_enclosed" and not any(
                region <= bigger for bigger in old if len(bigger) > max_cells):
            continue
        found.append(tuple(sorted(region)))
    return sorted(found)
