"""Pijanowski's board table as a value, and the memo of what is known about its placements.

A BoardTable is the placements in order and the grid they make; its legal placements are
answered by the fast layer (``board``) and remembered, board by board, in a memo kept beside
the boards (``BoardMemo``), so that a value never changes once built.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field
from typing import Any

from dominokit.reference import board, board_plain
from dominokit.reference.notation import Action, board_actions
from dominokit.reference.tiles import TILE_ORDER, Tile

Cell = tuple[int, int]
Pair = tuple[int, int]


@dataclass(frozen=True)
class BoardPlacement:
    """One tile on the board: who placed it, its (low, high) cells and the pips on them."""

    player: int
    cells: tuple[Cell, Cell]
    pips: Pair

    def to_json(self) -> dict[str, Any]:
        """The placement object of the board table JSON."""
        return {"player": self.player, "cells": [list(c) for c in self.cells],
                "pips": list(self.pips)}


Kept = tuple[int, tuple[board.Code, ...]]
"""A tile's legal placements on some board: (placements on that board, their codes)."""


Listing = tuple[int, frozenset[Tile], tuple[int, ...], tuple[Action, ...]]
"""A hand's legal placements on some board: (placements on that board, the hand's tiles,
``tile_key(tile) << bits | code`` of each placement, sorted, and their actions)."""


class _Kept:
    """What a board has worked out about its tiles' placements: derived, never compared."""

    __slots__ = ("tiles", "hands", "fronts", "_shared")

    def __init__(self, tiles: dict[Tile, Kept], hands: dict[int, Listing],
                 shared: bool) -> None:
        self.tiles = tiles
        """Each tile asked about, on this board or (not yet brought up) an earlier one."""
        self.hands = hands
        """Each player's hand listed, on this board or an earlier one."""
        self.fronts: dict[int | None, board.Frontier] = {}
        """This board's frontier around the tiles placed since the board with that many
        placements; under None, the whole board's."""
        self._shared = shared
        """``tiles`` is still the board before's dict: copied on the first write only."""

    def handed_on(self) -> _Kept:
        """What a board made from this one by a placement starts from."""
        return _Kept(self.tiles, dict(self.hands), True)

    def keep(self, tile: Tile, entry: Kept) -> None:
        """Record the tile's placements on this board."""
        if self._shared:
            self.tiles = dict(self.tiles)
            self._shared = False
        self.tiles[tile] = entry


def tile_key(tile: Tile) -> int:
    """An int that sorts as tiles do (low half, then high); notation tiles stay below 64."""
    return tile.low << 6 | tile.high


class _ListedActions(dict[int, Action]):
    """Board actions by ``tile_key(tile) << bits | code`` on one board size, made when asked."""

    __slots__ = ("rows", "cols", "bits")

    def __init__(self, rows: int, cols: int) -> None:
        super().__init__()
        self.rows, self.cols = rows, cols
        self.bits = board.geometry(rows, cols).bits

    def __missing__(self, key: int) -> Action:
        tile = Tile.of(key >> self.bits >> 6, key >> self.bits & 63)
        code = key & ((1 << self.bits) - 1)
        action = self[key] = board_actions(tile, board.pairs_of((code,), self.rows,
                                                                self.cols))[0]
        return action


_LISTED: dict[tuple[int, int], _ListedActions] = {}
"""One table per board size played; each holds at most every placement of every tile."""


class BoardMemo:
    """What has been worked out about boards' legal placements, by board: a memo, owned here.

    A BoardTable is a plain immutable value; finding a board's placements from nothing scans
    every cell, while a board made from another by one placement can bring the other's answers
    up to date around the new tile. So this memo, not the board, holds per board object what
    was found on it (``_Kept``) and, for a board made by ``with_placement``, the board it was
    made from, until the new board is first asked (then what that board knew is handed on and
    the link dropped). Each entry holds its board weakly and goes when the board does. An
    answer is the same whichever way it was found (tests/reference/test_board_plain.py compares
    every one with the plain rules), so the memo changes how fast a board answers, never what.
    """

    __slots__ = ("_entries",)

    def __init__(self) -> None:
        self._entries: dict[int, _Entry] = {}

    def made_from(self, board_: BoardTable, parent: BoardTable) -> None:
        """Record that ``board_`` was made from ``parent`` by one placement."""
        self._entry(board_).parent = parent

    def kept(self, board_: BoardTable) -> _Kept:
        """What has been worked out on ``board_`` (started, the first time, from what the
        board it was made from knew, or from nothing)."""
        entry = self._entry(board_)
        kept = entry.kept
        if kept is None:
            parent = entry.parent
            known = None if parent is None else self._entries.get(id(parent))
            handed = None if known is None or known.ref() is not parent else known.kept
            kept = entry.kept = _Kept({}, {}, False) if handed is None else handed.handed_on()
            entry.parent = None
        return kept

    def _entry(self, board_: BoardTable) -> _Entry:
        key = id(board_)
        entry = self._entries.get(key)
        if entry is None or entry.ref() is not board_:
            entries = self._entries

            def forget(ref: weakref.ref[BoardTable]) -> None:
                if (gone := entries.get(key)) is not None and gone.ref is ref:
                    del entries[key]

            entry = entries[key] = _Entry(weakref.ref(board_, forget))
        return entry

    def __len__(self) -> int:
        return len(self._entries)


class _Entry:
    """One board's memo entry: the board (weakly), what was found on it, and the board it was
    made from while that is still to be handed on."""

    __slots__ = ("ref", "kept", "parent")

    def __init__(self, ref: weakref.ref[BoardTable]) -> None:
        self.ref = ref
        self.kept: _Kept | None = None
        self.parent: BoardTable | None = None


MEMO = BoardMemo()
"""The one memo of every board of this process (see ``BoardMemo``)."""


@dataclass(frozen=True)
class BoardTable:
    """The board: placements in order, plus the grid they make (derived, not serialised).

    An immutable value: equal placements make equal boards, whatever their history. Legal
    placements are derived from it: each player's hand as sorted ints (``listing``) and each
    tile asked about on its own (``can_place``, for the block check). What has been worked out
    is kept in ``MEMO``, beside the board, not in it: a board made by ``with_placement`` takes
    what the board before it knew and brings it up to date around the tiles placed since each
    answer was found (``board.frontier_around``) instead of scanning every cell; a board with
    nothing to take from (the first boards of a hand, one read from JSON) scans once, and that
    scan serves every tile.
    """

    rows: int
    cols: int
    placements: tuple[BoardPlacement, ...] = ()
    grid: board_plain.Grid = field(default=(), compare=False, repr=False)
    """Derived from the placements: given by ``with_placement`` (the grid before, one tile
    more), else made from the placements when the value is built."""

    def __post_init__(self) -> None:
        # the one write of a frozen field, while the value is being built: nobody holds it yet
        if not self.grid:
            grid = board_plain.empty_grid(self.rows, self.cols)
            for p in self.placements:
                grid = board_plain.place(grid, p.cells, p.pips)
            object.__setattr__(self, "grid", grid)

    @property
    def empty(self) -> bool:
        """No tile on the board yet: the next placement is the opening."""
        return not self.placements

    def can_place(self, tile: Tile) -> bool:
        """True when ``tile`` has some legal placement on this board (R-PIJ-03/04)."""
        return bool(self._entry(tile)[1])

    def _known(self) -> _Kept:
        return MEMO.kept(self)

    def listing(self, player: int, hand: tuple[Tile, ...]) -> list[Action]:
        """Every legal placement of ``player``'s ``hand`` on this board, sorted (R-PIJ-03/04).

        Kept per player: a hand listed on an earlier board of the hand, holding every tile it
        holds now, loses the tiles played since and the pairs around the tiles placed since,
        and gains what fits there now; otherwise each tile's own placements are joined.
        """
        kept = self._known()
        tiles = frozenset(hand)
        count = len(self.placements)
        geo = board.geometry(self.rows, self.cols)
        bits = geo.bits
        entry = kept.hands.get(player)
        if entry is not None and entry[0] == count and entry[1] == tiles:
            return list(entry[3])
        keys: list[int]
        if entry is not None and entry[0] > 0 and tiles <= entry[1]:
            since, had, old, _ = entry
            gone = {tile_key(tile) for tile in had - tiles}
            keys = [key for key in old if key >> bits not in gone] if gone else list(old)
            if since < count:
                front = self._front(kept, since)
                replaces = front.replaces
                assert replaces is not None
                mask = (1 << bits) - 1
                keys = [key for key in keys if key & mask not in replaces]
                groups = front.groups
                for tile in tiles:  # board.fitting, inlined: it runs per tile per position
                    low, high = tile.low, tile.high
                    base = (low << 6 | high) << bits
                    for need in ((None, high), (low, None), (low, high)):
                        group = groups.get(need)
                        if group:  # a double is placed low half on the first cell only
                            keys += ([base | code for code in group] if low != high
                                     else [base | code for code in group if code & 2])
                keys.sort()
        else:
            keys = []
            for tile in sorted(tiles, key=TILE_ORDER):
                base = tile_key(tile) << bits
                keys += [base | code for code in self._entry(tile)[1]]
        made = _LISTED.get((self.rows, self.cols))
        if made is None:
            made = _LISTED.setdefault((self.rows, self.cols),
                                      _ListedActions(self.rows, self.cols))
        actions = tuple(map(made.__getitem__, keys))
        kept.hands[player] = (count, tiles, tuple(keys), actions)
        return list(actions)

    def _front(self, kept: _Kept, since: int | None) -> board.Frontier:
        """This board's frontier: whole (``since`` None) or around the tiles placed since the
        board with ``since`` placements; worked out once per board."""
        front = kept.fronts.get(since)
        if front is None:
            if since is None:
                front = board.scan_frontier(self.grid, self.empty)
            else:
                front = board.frontier_around(
                    self.grid, [cell for p in self.placements[since:] for cell in p.cells])
            kept.fronts[since] = front
        return front

    def _entry(self, tile: Tile) -> Kept:
        """The tile's placements on this board: kept, brought up, or found by a scan."""
        kept = self._known()
        count = len(self.placements)
        entry = kept.tiles.get(tile)
        if entry is not None and entry[0] == count:
            return entry
        # On the empty board any pair qualified (R-PIJ-03): nothing of it carries over.
        since = None if entry is None or entry[0] == 0 else entry[0]
        front = self._front(kept, since)
        entry = (count, board.brought_up(() if since is None or entry is None else entry[1],
                                         front, tile.low, tile.high))
        kept.keep(tile, entry)
        return entry

    def with_placement(self, placement: BoardPlacement) -> BoardTable:
        """The board with one more tile (the grid is updated, not rebuilt); the memo learns
        that it was made from this board, so that it can bring this board's answers up."""
        grid = board_plain.place(self.grid, placement.cells, placement.pips)
        made = BoardTable(self.rows, self.cols, (*self.placements, placement), grid)
        MEMO.made_from(made, self)
        return made

    def to_json(self) -> dict[str, Any]:
        """The ``table`` object of HandState JSON."""
        return {"kind": "board", "rows": self.rows, "cols": self.cols,
                "placements": [p.to_json() for p in self.placements]}
