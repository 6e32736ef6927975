"""Reconstruct the lost picture of the opening published with Pijanowski's board domino.

The seed text (``pijanowski.pl.txt``) lists the first moves of a game with the points each
earned -- ``[5|6]`` 22, ``[6|4]`` 20, ``[5|5]`` 20, ``[4|4]`` 16, ``[5|1]`` 6, ``[6|0]`` 6,
``[4|3]`` 7, then ``[0|0]`` and ``[0|3]`` in one turn for 6+16 = 22 -- but the picture of the
board is lost. Ruling R-PIJ-12 asks the spec to carry a board that gives exactly these points
under rulings R-PIJ-01..07, and to say how it was found. This module is that search.

It is deliberately independent of ``dominokit.reference``: it has its own tiny board, written
from the rulings alone, so that when the reference engine replays the chosen reconstruction and
scores it the same way, two separate computations agree.

Method
------
* Board (R-PIJ-01): 6 x 12 cells; cells ``(r, 2k)`` and ``(r, 2k+1)`` form field ``(r, k)``,
  coloured ``(r + c // 2) % 2``. Two edge-adjacent cells have the same colour exactly when they
  are one field: a vertical pair changes ``r`` by one, a horizontal pair across two fields
  changes ``c // 2`` by one. So "laid on fields of one colour" means "laid exactly on a field".
* A placement (R-PIJ-03/04) puts the tile's halves on two edge-adjacent empty cells; every
  edge neighbour that holds a tile half shows the same pips as the half it touches, and after
  the first tile at least one such neighbour exists.
* Points (R-PIJ-05/06): the tile's pips, doubled when it lies on one field, plus 4 per cell of
  every new lake. A lake is a 4-connected region of empty cells of 1 to 4 cells that touches
  the new tile (only those regions can differ from the regions before it). Under
  ``lake_rule: newly_enclosed`` such a region counts only if, before the placement, it was part
  of one empty region of more than 4 cells.
* Moves alternate between the players; the ``[0|0]`` turn (R-PIJ-07) is two placements whose
  points are summed, each judged against the board just before it.
* Search: depth-first over the published tiles in order, trying every legal placement of each
  tile and keeping only those whose points can still give the published figure. Points fix a
  lot: 22, 20, 20 are twice the pips (so on one field, no lake); 6, 6, 7 equal the pips (so not
  on one field, no lake); 16 for ``[4|4]`` is either 2 x 8 or 8 plus a two-cell lake; and the
  last turn needs ``[0|3]`` on one field (6) plus four lake cells in all, since 22 - 3 is not a
  multiple of 4. A placement whose points overshoot what is left of its turn is cut at once, so
  the whole tree is searched in a few seconds.
* Symmetry: the left-right mirror, the top-bottom mirror and the half turn map the board to
  itself, keep edge-adjacency and keep the "same field" relation (checked, not assumed, by
  ``check_symmetries``), so they map solutions to solutions. Solutions are also counted up to
  this group of four.
* Choice: the reconstruction shown is the solution, among all, whose key (bounding box of the
  18 covered cells, then the row-major cell sequence) is smallest: a compact board, as a
  published diagram would show, put near the top-left.

Result
------
Under ``lake_rule: new_region`` the search finds 2660 boards, 665 up to symmetry; under
``newly_enclosed`` exactly the same 2660 boards: the readings differ only for a tile put into
an old lake, and no earlier move makes a lake while ``[0|3]`` never goes into one that
``[0|0]`` has just made. No board is its own mirror image, so every class
has four members. In every board ``[5|5][5|6][6|4][4|4]`` lie end to end on four fields of
one row (the 16 of ``[4|4]`` is never 8 plus a two-cell lake), and the ``[0|0]`` turn is
``[0|3]`` on one field plus four lake cells. The shown board::

    55|56|64|44|4.|..        5-6@0.2+0.3 22   4-6@0.5+0.4 20   5-5@0.0+0.1 20
    5.|.6|~~|~~|3.|..        4-4@0.6+0.7 16   1-5@2.0+1.0  6   0-6@2.3+1.3  6
    1.|.0|00|03|..|..        3-4@1.8+0.8  7   0-0@2.4+2.5  0   0-3@2.6+2.7 6 + 16

(``~`` marks the lake the last tile closes.) The tests recount the boards with the reference
engine's own board functions and check that these figures still hold.

Run ``python -m dominokit.rulebook.pijanowski_opening`` (``--json`` for JSON,
``--lake-rule newly_enclosed`` for the other reading of R-PIJ-06).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

ROWS = 6
COLS = 12
LAKE_MAX_CELLS = 4
LAKE_POINTS_PER_CELL = 4
LAKE_RULES = ("new_region", "newly_enclosed")

Cell = tuple[int, int]
Tile = tuple[int, int]


@dataclass(frozen=True)
class Turn:
    """One published turn: the tiles placed, in order, and the points the turn earned."""

    tiles: tuple[Tile, ...]
    points: int


PUBLISHED: tuple[Turn, ...] = (
    Turn(((5, 6),), 22),
    Turn(((4, 6),), 20),
    Turn(((5, 5),), 20),
    Turn(((4, 4),), 16),
    Turn(((1, 5),), 6),
    Turn(((0, 6),), 6),
    Turn(((3, 4),), 7),
    Turn(((0, 0), (0, 3)), 22),
)
"""The seed's opening, tiles low-first (the seed writes ``[6|4]``, ``[5|1]``, ...)."""


@dataclass(frozen=True)
class Move:
    """A tile on the board: ``cells[0]`` holds the low half, ``cells[1]`` the high half."""

    tile: Tile
    cells: tuple[Cell, Cell]

    def notation(self) -> str:
        """The board-play notation of DESIGN.md: ``low-high@r.c+r.c`` (doubles row-major)."""
        (r1, c1), (r2, c2) = self.cells
        return f"{self.tile[0]}-{self.tile[1]}@{r1}.{c1}+{r2}.{c2}"


@dataclass(frozen=True)
class ScoredMove:
    """A move with what it earned: placement points and the lakes it made (sorted cells)."""

    move: Move
    player: int
    placement_points: int
    lakes: tuple[tuple[Cell, ...], ...]

    @property
    def lake_points(self) -> int:
        """4 points per lake cell (R-PIJ-06)."""
        return LAKE_POINTS_PER_CELL * sum(len(lake) for lake in self.lakes)

    @property
    def points(self) -> int:
        """Placement plus lake points."""
        return self.placement_points + self.lake_points


Solution = tuple[ScoredMove, ...]


def same_field(a: Cell, b: Cell) -> bool:
    """True when two cells form one field: same row, columns 2k and 2k+1 (R-PIJ-01)."""
    return a[0] == b[0] and a[1] // 2 == b[1] // 2


def field_colour(cell: Cell) -> int:
    """The colour of a cell's field, chessboard-wise (R-PIJ-01)."""
    return (cell[0] + cell[1] // 2) % 2


class _Board:
    """A mutable 6 x 12 grid with undo, flat-indexed for speed; -1 marks an empty cell."""

    def __init__(self, rows: int = ROWS, cols: int = COLS) -> None:
        self.rows = rows
        self.cols = cols
        self.pips = [-1] * (rows * cols)
        self.neigh: list[tuple[int, ...]] = []
        for i in range(rows * cols):
            r, c = divmod(i, cols)
            steps = ((r - 1, c), (r, c - 1), (r, c + 1), (r + 1, c))
            self.neigh.append(
                tuple(nr * cols + nc for nr, nc in steps if 0 <= nr < rows and 0 <= nc < cols)
            )
        self.placed = 0

    def cell(self, i: int) -> Cell:
        r, c = divmod(i, self.cols)
        return r, c

    def index(self, cell: Cell) -> int:
        return cell[0] * self.cols + cell[1]

    def fits(self, i: int, pip: int) -> tuple[bool, bool]:
        """(every occupied neighbour of ``i`` shows ``pip``, some neighbour is occupied)."""
        touches = False
        for n in self.neigh[i]:
            shown = self.pips[n]
            if shown < 0:
                continue
            touches = True
            if shown != pip:
                return False, True
        return True, touches

    def placements(self, tile: Tile) -> Iterator[tuple[int, int]]:
        """Every legal (low index, high index) for ``tile`` (R-PIJ-03/04), each once.

        After the first tile one of the two cells must touch a tile, so the pairs are grown
        from the empty cells next to a tile instead of from every empty cell.
        """
        low, high = tile
        if self.placed:
            starts = sorted({n for i, p in enumerate(self.pips) if p >= 0
                             for n in self.neigh[i] if self.pips[n] < 0})
        else:
            starts = [i for i, p in enumerate(self.pips) if p < 0]
        seen: set[tuple[int, int]] = set()
        for a in starts:
            for b in self.neigh[a]:
                if self.pips[b] >= 0:
                    continue
                for x, y in ((a, b), (b, a)):
                    key = (min(x, y), max(x, y)) if low == high else (x, y)
                    if key in seen:
                        continue
                    seen.add(key)
                    fit_x, touch_x = self.fits(x, low)
                    fit_y, touch_y = self.fits(y, high)
                    if fit_x and fit_y and (touch_x or touch_y or not self.placed):
                        yield key

    def region(self, start: int, limit: int) -> list[int] | None:
        """The empty region holding ``start``, or None once it has more than ``limit`` cells."""
        region = [start]
        seen = {start}
        k = 0
        while k < len(region):
            for n in self.neigh[region[k]]:
                if n not in seen and self.pips[n] < 0:
                    if len(region) == limit:
                        return None
                    seen.add(n)
                    region.append(n)
            k += 1
        return region

    def put(self, a: int, b: int, tile: Tile, lake_rule: str) -> tuple[tuple[Cell, ...], ...]:
        """Place ``tile`` (low on ``a``) and return the new lakes it makes (R-PIJ-06)."""
        found: set[int] = set()
        lakes: list[tuple[Cell, ...]] = []
        self.pips[a], self.pips[b] = tile
        self.placed += 1
        for new in (a, b):
            for start in self.neigh[new]:
                if self.pips[start] >= 0 or start in found:
                    continue
                region = self.region(start, LAKE_MAX_CELLS)
                if region is None:
                    continue
                found.update(region)
                if lake_rule == "newly_enclosed" and not self._was_open(a, b, start):
                    continue
                lakes.append(tuple(sorted(self.cell(i) for i in region)))
        return tuple(sorted(lakes))

    def _was_open(self, a: int, b: int, start: int) -> bool:
        """True when, before the tile on ``a``+``b``, ``start`` lay in a region of > 4 cells."""
        saved = self.pips[a], self.pips[b]
        self.pips[a] = self.pips[b] = -1
        before = self.region(start, LAKE_MAX_CELLS)
        self.pips[a], self.pips[b] = saved
        return before is None

    def take(self, a: int, b: int) -> None:
        """Undo ``put``."""
        self.pips[a] = self.pips[b] = -1
        self.placed -= 1


def _check_lake_rule(lake_rule: str) -> None:
    if lake_rule not in LAKE_RULES:
        raise ValueError(f"unknown lake_rule {lake_rule!r}; expected one of {LAKE_RULES}")


def search(
    turns: Sequence[Turn] = PUBLISHED, lake_rule: str = "new_region"
) -> list[Solution]:
    """Every placement sequence of ``turns``' tiles that earns exactly each turn's points.

    Players alternate turn by turn, player 0 first. Solutions come in the order the
    depth-first search meets them (row-major placements at every level).
    """
    _check_lake_rule(lake_rule)
    board = _Board()
    steps = [(t, tile, j == len(turn.tiles) - 1) for t, turn in enumerate(turns)
             for j, tile in enumerate(turn.tiles)]
    out: list[Solution] = []
    path: list[ScoredMove] = []

    def visit(depth: int, left: int) -> None:
        if depth == len(steps):
            out.append(tuple(path))
            return
        t, tile, closes_turn = steps[depth]
        if left < 0:
            left = turns[t].points
        pips = tile[0] + tile[1]
        for a, b in list(board.placements(tile)):
            placement = 2 * pips if same_field(board.cell(a), board.cell(b)) else pips
            rest = left - placement
            if rest < 0 or (closes_turn and rest % LAKE_POINTS_PER_CELL):
                continue
            lakes = board.put(a, b, tile, lake_rule)
            lake_points = LAKE_POINTS_PER_CELL * sum(len(lake) for lake in lakes)
            rest -= lake_points
            if rest == 0 or (rest > 0 and not closes_turn):
                move = Move(tile, (board.cell(a), board.cell(b)))
                path.append(ScoredMove(move, t % 2, placement, lakes))
                visit(depth + 1, -1 if closes_turn else rest)
                path.pop()
            board.take(a, b)

    visit(0, -1)
    return out


def score(
    moves: Sequence[Move],
    lake_rule: str = "new_region",
    rows: int = ROWS,
    cols: int = COLS,
) -> list[ScoredMove] | None:
    """Replay ``moves`` on an empty ``rows`` x ``cols`` board; their scores, or None if one
    is illegal (the double-set board of R-PIJ-11 is 12 x 12).

    Player 0 moves first; the turn passes after each placement except that a placement
    right after a ``[0|0]`` is taken as that player's extra tile (R-PIJ-07).
    """
    _check_lake_rule(lake_rule)
    board = _Board(rows, cols)
    scored: list[ScoredMove] = []
    player = 0
    for k, move in enumerate(moves):
        if k and not (moves[k - 1].tile == (0, 0) and (k < 2 or moves[k - 2].tile != (0, 0))):
            player = 1 - player
        a, b = (board.index(cell) for cell in move.cells)
        legal = set(board.placements(move.tile))
        key = (min(a, b), max(a, b)) if move.tile[0] == move.tile[1] else (a, b)
        if key not in legal:
            return None
        pips = move.tile[0] + move.tile[1]
        placement = 2 * pips if same_field(*move.cells) else pips
        lakes = board.put(a, b, move.tile, lake_rule)
        scored.append(ScoredMove(move, player, placement, lakes))
    return scored


def turn_points(solution: Sequence[ScoredMove], turns: Sequence[Turn] = PUBLISHED) -> list[int]:
    """The points of each turn (the ``[0|0]`` turn sums its two placements)."""
    out: list[int] = []
    k = 0
    for turn in turns:
        out.append(sum(m.points for m in solution[k:k + len(turn.tiles)]))
        k += len(turn.tiles)
    return out


Symmetry = Callable[[Cell], Cell]

SYMMETRIES: dict[str, Symmetry] = {
    "identity": lambda cell: cell,
    "mirror_left_right": lambda cell: (cell[0], COLS - 1 - cell[1]),
    "mirror_top_bottom": lambda cell: (ROWS - 1 - cell[0], cell[1]),
    "half_turn": lambda cell: (ROWS - 1 - cell[0], COLS - 1 - cell[1]),
}
"""The board's isometries that map fields onto fields (see ``check_symmetries``)."""


def check_symmetries() -> dict[str, bool]:
    """For each symmetry, whether it keeps edge-adjacency and the same-field relation.

    Both are needed for a symmetry to map solutions to solutions: contacts and lakes depend
    on adjacency only, placement points on same-field-ness only.
    """
    cells = [(r, c) for r in range(ROWS) for c in range(COLS)]
    pairs = [(a, b) for a in cells for b in cells
             if abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1]
    result: dict[str, bool] = {}
    for name, f in SYMMETRIES.items():
        on_board = all(0 <= f(c)[0] < ROWS and 0 <= f(c)[1] < COLS for c in cells)
        bijective = len({f(c) for c in cells}) == len(cells)
        keeps = all(
            abs(f(a)[0] - f(b)[0]) + abs(f(a)[1] - f(b)[1]) == 1
            and same_field(f(a), f(b)) == same_field(a, b)
            for a, b in pairs
        )
        result[name] = on_board and bijective and keeps
    return result


def transform(moves: Sequence[Move], f: Symmetry) -> tuple[Move, ...]:
    """``moves`` mapped by ``f``; a double's cells are put back in row-major order."""
    out: list[Move] = []
    for m in moves:
        c1, c2 = f(m.cells[0]), f(m.cells[1])
        if m.tile[0] == m.tile[1]:
            c1, c2 = min(c1, c2), max(c1, c2)
        out.append(Move(m.tile, (c1, c2)))
    return tuple(out)


def _cells_key(moves: Sequence[Move]) -> tuple[Cell, ...]:
    return tuple(cell for m in moves for cell in m.cells)


def class_key(moves: Sequence[Move]) -> tuple[Cell, ...]:
    """The smallest cell sequence among ``moves``' symmetric images: names its class."""
    return min(_cells_key(transform(moves, f)) for f in SYMMETRIES.values())


def moves_of(solution: Sequence[ScoredMove]) -> tuple[Move, ...]:
    """The bare moves of a scored solution."""
    return tuple(m.move for m in solution)


def chain_in_one_row(moves: Sequence[Move]) -> bool:
    """R-PIJ-12's claim: ``[5|5][5|6][6|4][4|4]`` lie end to end on four fields of one row.

    Each of the four tiles covers one whole field, the fields are consecutive in one row, and
    they run in that order (from the left or from the right), so the row reads 5 5 5 6 6 4 4 4.
    """
    by_tile = {m.tile: m for m in moves}
    wanted = ((5, 5), (5, 6), (4, 6), (4, 4))
    if any(t not in by_tile for t in wanted):
        return False
    chain = [by_tile[t] for t in wanted]
    if not all(same_field(*m.cells) for m in chain):
        return False
    fields = [(m.cells[0][0], m.cells[0][1] // 2) for m in chain]
    rows = {r for r, _ in fields}
    ks = [k for _, k in fields]
    steps = {b - a for a, b in zip(ks, ks[1:], strict=False)}
    if len(rows) != 1 or steps not in ({1}, {-1}):
        return False
    row = fields[0][0]
    lo = min(ks)
    pips = {c: p for m in chain for c, p in zip(m.cells, m.tile, strict=True)}
    line = [pips[(row, c)] for c in range(2 * lo, 2 * lo + 8)]
    return line in ([5, 5, 5, 6, 6, 4, 4, 4], [4, 4, 4, 6, 6, 5, 5, 5])


def choice_key(moves: Sequence[Move]) -> tuple[int, tuple[Cell, ...]]:
    """Orders solutions for the shown reconstruction: compact first, then top-left first."""
    cells = _cells_key(moves)
    rows = [r for r, _ in cells]
    cols = [c for _, c in cells]
    area = (max(rows) - min(rows) + 1) * (max(cols) - min(cols) + 1)
    return area, cells


@dataclass(frozen=True)
class Report:
    """What the search found for one lake rule."""

    lake_rule: str
    solutions: tuple[Solution, ...]
    classes: int
    claim_holds: bool
    symmetries_ok: dict[str, bool]
    closed_under_symmetry: bool
    chosen: Solution


def run(lake_rule: str = "new_region") -> Report:
    """Search, count, check the claim and the symmetries, and choose the reconstruction."""
    solutions = search(PUBLISHED, lake_rule)
    if not solutions:
        raise RuntimeError(f"no board reproduces the published opening under {lake_rule}")
    keys = {_cells_key(moves_of(s)) for s in solutions}
    closed = all(
        _cells_key(transform(moves_of(s), f)) in keys
        for s in solutions for f in SYMMETRIES.values()
    )
    classes = len({class_key(moves_of(s)) for s in solutions})
    return Report(
        lake_rule=lake_rule,
        solutions=tuple(solutions),
        classes=classes,
        claim_holds=all(chain_in_one_row(moves_of(s)) for s in solutions),
        symmetries_ok=check_symmetries(),
        closed_under_symmetry=closed,
        chosen=min(solutions, key=lambda s: choice_key(moves_of(s))),
    )


def _cell_json(cell: Cell) -> list[int]:
    return [cell[0], cell[1]]


def report_json(main: Report, other: Report) -> dict[str, object]:
    """The report as plain JSON data (``--json``)."""
    return {
        "lake_rule": main.lake_rule,
        "solutions": len(main.solutions),
        "classes_up_to_symmetry": main.classes,
        "claim_chain_in_one_row": main.claim_holds,
        "symmetries_preserve_fields": main.symmetries_ok,
        "solutions_closed_under_symmetry": main.closed_under_symmetry,
        "other_lake_rule": {
            "lake_rule": other.lake_rule,
            "solutions": len(other.solutions),
            "classes_up_to_symmetry": other.classes,
            "claim_chain_in_one_row": other.claim_holds,
        },
        "chosen": [
            {
                "player": m.player,
                "action": m.move.notation(),
                "placement_points": m.placement_points,
                "lakes": [[_cell_json(c) for c in lake] for lake in m.lakes],
                "points": m.points,
            }
            for m in main.chosen
        ],
        "turn_points": turn_points(main.chosen),
    }


def picture(solution: Sequence[ScoredMove]) -> str:
    """The board as text: pips on covered cells, ``~`` on lake cells, ``.`` elsewhere."""
    grid = [["." for _ in range(COLS)] for _ in range(ROWS)]
    for m in solution:
        for lake in m.lakes:
            for r, c in lake:
                grid[r][c] = "~"
    for m in solution:
        for (r, c), p in zip(m.move.cells, m.move.tile, strict=True):
            grid[r][c] = str(p)
    lines = []
    for row in grid:
        pairs = [row[c] + row[c + 1] for c in range(0, COLS, 2)]
        lines.append("|".join(pairs))
    return "\n".join(lines)


def report_text(main: Report, other: Report) -> str:
    """The report for people."""
    lines = [
        f"lake_rule {main.lake_rule}: {len(main.solutions)} solutions, "
        f"{main.classes} up to symmetry",
        f"lake_rule {other.lake_rule}: {len(other.solutions)} solutions, "
        f"{other.classes} up to symmetry",
        "symmetries keep fields: "
        + ", ".join(f"{k}={'yes' if v else 'NO'}" for k, v in main.symmetries_ok.items()),
        f"solutions closed under symmetry: {'yes' if main.closed_under_symmetry else 'NO'}",
        "[5|5][5|6][6|4][4|4] end to end on one row in every solution: "
        f"{'yes' if main.claim_holds and other.claim_holds else 'NO'}",
        "",
        "chosen reconstruction (player, action, placement + lakes = points):",
    ]
    for m in main.chosen:
        lakes = " ".join(
            "{" + ",".join(f"{r}.{c}" for r, c in lake) + "}" for lake in m.lakes
        )
        lines.append(
            f"  P{m.player} {m.move.notation():<16} {m.placement_points:>2} + "
            f"{m.lake_points:>2} = {m.points:>2}" + (f"   lakes {lakes}" if lakes else "")
        )
    lines.append("turn points: " + ", ".join(str(p) for p in turn_points(main.chosen)))
    lines.append("")
    lines.append(picture(main.chosen))
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """CLI entry: print the counts and the chosen reconstruction."""
    parser = argparse.ArgumentParser(
        prog="python -m dominokit.rulebook.pijanowski_opening",
        description="Reconstruct the published Pijanowski opening (R-PIJ-12).",
    )
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument("--lake-rule", choices=LAKE_RULES, default="new_region")
    args = parser.parse_args(argv)
    main_report = run(args.lake_rule)
    other_rule = next(r for r in LAKE_RULES if r != args.lake_rule)
    other = run(other_rule)
    text = (json.dumps(report_json(main_report, other), indent=2) if args.json
            else report_text(main_report, other))
    with contextlib.suppress(BrokenPipeError):
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
