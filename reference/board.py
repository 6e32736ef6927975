"""Pijanowski's board rules made fast: legal placements by lookup, lakes by bounded floods.

``board_plain`` states each rule directly (every pair of cells through the contact rules, every
region before and after); the engine asks the same questions once per position, so this module
answers them without scanning the board again. A pair of empty cells is filed under what its
two cells need (the pips their tiled neighbours show), and a tile looks up the few needs it
fits (``Frontier``); after a placement only the pairs around the new tile are worked out again
(``frontier_around``), and ``state.BoardTable`` keeps each tile's answer from board to board.
Lakes are found by floods from the new tile that stop once a region is too big. Every answer
is the plain one: the tests compare the two at every step of random hands.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from dominokit.reference.board_plain import LAKE_MODES, Cell, Grid, neighbours

_CLASH = -1
"""Required pip of a cell whose tiled neighbours show different pips: nothing fits there."""


Need = tuple[int | None, int | None]
"""What the two cells of a pair need: a pip, None (no tile touches the cell) or ``_CLASH``."""


Code = int
"""A tile's low half on cell ``a`` and its high half on the neighbour ``b``, as one int:
``index(a) * 4 + d`` with ``index((r, c)) = r * cols + c`` and ``d`` the direction of ``b``
from ``a`` (0 up, 1 left, 2 right, 3 down). Codes sort as their ``(a, b)`` cell pairs do, so a
tile's placements are sorted by sorting ints."""

_DIRECTIONS = 4
"""Directions a code can point; codes pointing right or down (2, 3) have ``code & 2`` set and
put the low half on the row-major first cell, the one way a double is placed."""

_UNKNOWN = -2
"""Need not yet worked out (``frontier_around`` works each cell's out once)."""


@dataclass(frozen=True)
class Geometry:
    """The cells of one board size and their neighbours, by index and by code.

    Tables of the size alone, built once per size: they say nothing about what lies on a
    board, so every board of that size shares them.
    """

    rows: int
    cols: int
    around: tuple[tuple[Cell, ...], ...]
    """The on-board neighbours of each cell index, as cells."""
    near: tuple[tuple[int, ...], ...]
    """The on-board neighbours of each cell index, as indices."""
    code: tuple[dict[int, Code], ...]
    """``code[a][b]``: the code of low half on index ``a``, high half on its neighbour ``b``."""
    ring: tuple[frozenset[Code], ...]
    """Every code with a half on the cell index or on one of its neighbours."""
    cells: tuple[tuple[Cell, Cell] | None, ...]
    """The (low cell, high cell) of each code; None where the code leaves the board."""
    bits: int
    """Bits that hold every code: ``tile_key << bits | code`` sorts by tile, then cells."""


_GEOMETRY: dict[tuple[int, int], Geometry] = {}
"""One Geometry per board size played (a table of the size, not of any board)."""


def geometry(rows: int, cols: int) -> Geometry:
    """The Geometry of a ``rows`` x ``cols`` board."""
    geo = _GEOMETRY.get((rows, cols))
    if geo is None:
        geo = _GEOMETRY.setdefault((rows, cols), _make_geometry(rows, cols))
    return geo


def _make_geometry(rows: int, cols: int) -> Geometry:
    """Build the tables of one board size (see ``Geometry``)."""
    steps = ((-1, 0), (0, -1), (0, 1), (1, 0))  # directions 0..3, in the order cells sort
    around: list[tuple[Cell, ...]] = []
    code: list[dict[int, Code]] = []
    cells: list[tuple[Cell, Cell] | None] = [None] * (rows * cols * _DIRECTIONS)
    for r in range(rows):
        for c in range(cols):
            mine: dict[int, Code] = {}
            for d, (dr, dc) in enumerate(steps):
                nr, nc = r + dr, c + dc
                if 0 <= nr < rows and 0 <= nc < cols:
                    at = (r * cols + c) * _DIRECTIONS + d
                    mine[nr * cols + nc] = at
                    cells[at] = ((r, c), (nr, nc))
            around.append(tuple((b // cols, b % cols) for b in mine))
            code.append(mine)
    incident = tuple(
        tuple(sorted([*code[a].values(), *(code[b][a] for b in code[a])]))
        for a in range(rows * cols))
    ring = tuple(frozenset(incident[a]).union(*[incident[b] for b in code[a]])
                 for a in range(rows * cols))
    return Geometry(rows, cols, tuple(around), tuple(tuple(m) for m in code), tuple(code),
                    ring, tuple(cells), len(cells).bit_length())


@dataclass(frozen=True)
class Frontier:
    """Where a tile can go: pairs of empty adjacent cells, as codes grouped by what they need.

    A cell's need is None when no tile touches it, the pip its tiled neighbours show, or
    ``_CLASH`` (nothing fits; such pairs are left out). Unless the board is empty, a pair
    qualifies only when one of its cells touches a tile. ``groups`` holds each qualifying pair
    both ways round, keyed by (need of the low-half cell, need of the high-half cell). A tile
    looks up the few keys it fits instead of testing every pair.

    A frontier is either a whole board's (``replaces`` is None) or only the part around tiles
    placed since some earlier board: then ``replaces`` holds the codes of every pair with a
    cell among those tiles or their neighbours, the only pairs whose answer can have changed,
    and the groups hold those that qualify now. A tile's placements on the earlier board, less
    ``replaces``, plus what it fits here, are its placements now (``brought_up``).
    """

    replaces: frozenset[Code] | None
    groups: dict[Need, list[Code]]


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


def _group(groups: dict[Need, list[Code]], geo: Geometry, a: int, b: int,
           need_a: int | None, need_b: int | None) -> None:
    """Put the pair of empty cells ``a``, ``b`` in its groups, both ways round."""
    key = (need_a, need_b)
    group = groups.get(key)
    if group is None:
        groups[key] = [geo.code[a][b]]
    else:
        group.append(geo.code[a][b])
    key = (need_b, need_a)
    group = groups.get(key)
    if group is None:
        groups[key] = [geo.code[b][a]]
    else:
        group.append(geo.code[b][a])


def scan_frontier(grid: Grid, first: bool) -> Frontier:
    """The frontier of a whole board, found by scanning every cell."""
    rows, cols = len(grid), len(grid[0])
    geo = geometry(rows, cols)
    front = Frontier(None, {})
    needs: list[int | None] = [
        None if grid[i // cols][i % cols] is not None else _need(grid, geo.around[i])
        for i in range(rows * cols)]
    for a in range(rows * cols):
        if grid[a // cols][a % cols] is not None or needs[a] == _CLASH:
            continue
        for b in geo.near[a]:
            if b > a and grid[b // cols][b % cols] is None:
                need_a, need_b = needs[a], needs[b]
                if need_b != _CLASH and (first or need_a is not None or need_b is not None):
                    _group(front.groups, geo, a, b, need_a, need_b)
    return front


def frontier_around(grid: Grid, new_cells: Iterable[Cell]) -> Frontier:
    """The frontier around ``new_cells`` (covered since some earlier, non-empty board).

    Only the new cells and their empty neighbours changed need, so only pairs holding one of
    them can have changed answer: those are replaced, and the ones among them that qualify on
    ``grid`` are grouped. The cost grows with the new cells, not with the board.
    """
    rows, cols = len(grid), len(grid[0])
    geo = geometry(rows, cols)
    covered = [r * cols + c for r, c in new_cells]
    # every pair with a cell among the covered ones or their neighbours (a pair with an
    # occupied cell is in no list, so replacing it changes nothing)
    replaces = frozenset().union(*[geo.ring[a] for a in covered])
    near, around = geo.near, geo.around
    touched = {b for a in covered for b in near[a] if grid[b // cols][b % cols] is None}
    groups: dict[Need, list[Code]] = {}
    needs: dict[int, int | None] = {}
    for a in touched:
        need_a = needs.get(a, _UNKNOWN)
        if need_a == _UNKNOWN:
            need_a = needs[a] = _need(grid, around[a])
        if need_a == _CLASH:
            continue  # a touched cell needs a pip (it touches a new tile) or clashes
        for b in near[a]:
            if grid[b // cols][b % cols] is not None or (b < a and b in touched):
                continue  # covered, or a pair met from its other cell
            need_b = needs.get(b, _UNKNOWN)
            if need_b == _UNKNOWN:
                need_b = needs[b] = _need(grid, around[b])
            if need_b != _CLASH:
                _group(groups, geo, a, b, need_a, need_b)
    return Frontier(replaces, groups)


def brought_up(codes: tuple[Code, ...], front: Frontier, tile_low: int,
               tile_high: int) -> tuple[Code, ...]:
    """The tile's legal placements, sorted, on the board of ``front`` (R-PIJ-03/04).

    ``codes`` are its placements on the earlier board ``front`` is taken from (ignored for a
    whole board's frontier). A cell fits a half when it needs nothing or exactly that half's
    pips; a double looks the same either way round, so it is placed low half first only.
    When nothing around the new tiles changes the tile's answer, ``codes`` itself is returned.
    """
    found = fitting(front, tile_low, tile_high)
    replaces = front.replaces
    if replaces is not None:
        if replaces.isdisjoint(codes):
            if not found:
                return codes
            found += codes
        else:
            found += [code for code in codes if code not in replaces]
    found.sort()
    return tuple(found)


def fitting(front: Frontier, tile_low: int, tile_high: int) -> list[Code]:
    """The tile's placements among the frontier's pairs, unsorted; a double's one way only."""
    groups = front.groups
    found: list[Code] = []
    for key in ((None, None), (None, tile_high), (tile_low, None), (tile_low, tile_high)):
        group = groups.get(key)
        if group:
            found += group
    if tile_low == tile_high:
        found = [code for code in found if code & 2]
    return found


def pairs_of(codes: Iterable[Code], rows: int, cols: int) -> list[tuple[Cell, Cell]]:
    """The (low cell, high cell) of each code on a ``rows`` x ``cols`` board, in order."""
    cells = geometry(rows, cols).cells
    out = []
    for code in codes:
        pair = cells[code]
        assert pair is not None, f"code {code} leaves the {rows}x{cols} board"
        out.append(pair)
    return out


@lru_cache(maxsize=256)
def _frontier(grid: Grid, first: bool) -> Frontier:
    """The frontier of a grid given on its own (cached: one scan serves every tile)."""
    return scan_frontier(grid, first)


def placements(
    grid: Grid, tile_low: int, tile_high: int, first: bool
) -> list[tuple[Cell, Cell]]:
    """Every legal (low_cell, high_cell) for the tile, sorted (R-PIJ-03/04).

    A double shows the same pips either way round, so its two orders are one placement,
    given with its cells in row-major order.
    """
    codes = brought_up((), _frontier(grid, first), tile_low, tile_high)
    return pairs_of(codes, len(grid), len(grid[0]))


def can_place(grid: Grid, tile_low: int, tile_high: int, first: bool) -> bool:
    """True when the tile has some legal placement (``placements`` is not empty)."""
    return bool(brought_up((), _frontier(grid, first), tile_low, tile_high))


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
