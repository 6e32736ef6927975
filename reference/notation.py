"""The action notation of spec/common.yaml: one spelling per distinct action.

Engines, traces and the conformance protocol exchange actions as these strings, so parsing is
strict: anything but the canonical spelling (``5-2``, ``2-5@L3``, ``02-5``, stray spaces) is a
NotationError that quotes the text, and ``str(action)`` always gives the canonical spelling.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import ClassVar, Literal

from dominokit.reference.errors import NotationError
from dominokit.reference.tiles import MAX_NOTATION_PIP, Tile

Cell = tuple[int, int]
Kind = Literal["opening", "chain", "board", "draw", "pass", "stop"]
End = Literal["L", "R"]

KIND_RANK: dict[str, int] = {"opening": 0, "chain": 1, "board": 2, "draw": 3, "pass": 4, "stop": 5}
"""Rank of each kind in ``Action.sort_key`` (DESIGN.md: legal actions are listed sorted)."""

_NUM = r"(0|[1-9][0-9]*)"
_TILE = r"([0-6])-([0-6])"
_OPENING_RE = re.compile(_TILE)
_CHAIN_RE = re.compile(_TILE + r"@([LR])([0-6])")
_BOARD_RE = re.compile(_TILE + rf"@{_NUM}\.{_NUM}\+{_NUM}\.{_NUM}")
_WORDS: dict[str, Kind] = {"draw": "draw", "pass": "pass", "stop": "stop"}


@dataclass(frozen=True, slots=True)
class Action:
    """One thing a player can do; the fields a kind does not use are None.

    ``touch`` is the half of the tile that touches the chain end (R-ALL-09, R-SZC-05);
    ``cells`` are (cell of the low half, cell of the high half), row-major for a double.
    """

    kind: Kind
    tile: Tile | None = None
    end: End | None = None
    touch: int | None = None
    cells: tuple[Cell, Cell] | None = None
    _text: str = field(default="", init=False, compare=False, repr=False)
    """The canonical spelling once ``str`` has written it: events and replies spell the same
    (shared) actions again and again."""

    DRAW: ClassVar[Action]
    PASS: ClassVar[Action]
    STOP: ClassVar[Action]

    def __post_init__(self) -> None:
        problem = _shape_problem(self)
        if problem:
            raise ValueError(f"malformed {self.kind} action: {problem}")

    @classmethod
    def opening(cls, tile: Tile) -> Action:
        """The first tile of a chain game; its low half becomes the left end."""
        return cls("opening", tile)

    @classmethod
    def chain(cls, tile: Tile, end: End, touch: int) -> Action:
        """Play ``tile`` on ``end`` with half ``touch`` against the chain."""
        return cls("chain", tile, end, touch)

    @classmethod
    def board(cls, tile: Tile, low_cell: Cell, high_cell: Cell) -> Action:
        """Put ``tile``'s low half on ``low_cell`` and its high half on ``high_cell``.

        A double looks the same either way round, so its cells are put in row-major order to
        keep one spelling per placement.
        """
        if tile.is_double and high_cell < low_cell:
            low_cell, high_cell = high_cell, low_cell
        return cls("board", tile, cells=(low_cell, high_cell))

    @classmethod
    def parse(cls, text: str) -> Action:
        """Read the canonical spelling of an action; anything else raises NotationError."""
        if not isinstance(text, str):
            raise NotationError(f"not an action: {text!r} (expected a string)")
        if text in _WORDS:
            return _SIMPLE[_WORDS[text]]
        match = _OPENING_RE.fullmatch(text)
        if match:
            return cls.opening(_tile(text, match.group(1), match.group(2)))
        match = _CHAIN_RE.fullmatch(text)
        if match:
            tile = _tile(text, match.group(1), match.group(2))
            touch = int(match.group(4))
            if touch not in (tile.low, tile.high):
                raise NotationError(f"not an action: {text!r} ({touch} is not a half of {tile})")
            end: End = "L" if match.group(3) == "L" else "R"
            return cls.chain(tile, end, touch)
        match = _BOARD_RE.fullmatch(text)
        if match:
            tile = _tile(text, match.group(1), match.group(2))
            r1, c1, r2, c2 = (int(match.group(i)) for i in range(3, 7))
            if tile.is_double and (r2, c2) < (r1, c1):
                raise NotationError(
                    f"not a canonical action: {text!r} (a double's cells go in row-major order)"
                )
            return cls.board(tile, (r1, c1), (r2, c2))
        raise NotationError(f"not an action: {text!r}")

    def sort_key(self) -> tuple[int, int, int, int, int, int, int, int, int]:
        """Kind rank, tile, end (L before R), touching pip, cells: the order of legal lists."""
        tile = self.tile
        cells = self.cells or ((-1, -1), (-1, -1))
        return (
            KIND_RANK[self.kind],
            tile.low if tile else -1,
            tile.high if tile else -1,
            {"L": 0, "R": 1}.get(self.end or "", -1),
            -1 if self.touch is None else self.touch,
            cells[0][0],
            cells[0][1],
            cells[1][0],
            cells[1][1],
        )

    def __str__(self) -> str:
        text = self._text
        if not text:
            text = self._spell()
            object.__setattr__(self, "_text", text)
        return text

    def _spell(self) -> str:
        if self.kind == "opening":
            return str(self.tile)
        if self.kind == "chain":
            return f"{self.tile}@{self.end}{self.touch}"
        if self.kind == "board":
            assert self.cells is not None
            (r1, c1), (r2, c2) = self.cells
            return f"{self.tile}@{r1}.{c1}+{r2}.{c2}"
        return self.kind

    def __repr__(self) -> str:
        return f"Action.parse({str(self)!r})"


def board_actions(tile: Tile, cell_pairs: Iterable[tuple[Cell, Cell]]) -> list[Action]:
    """``Action.board(tile, low_cell, high_cell)`` for each pair, in order, built without
    re-checking each action's shape.

    A move generator lists thousands of board placements per position, and checking each one
    again cost more than finding it. The pairs must be what ``board.placements`` gives: two
    cells of non-negative ints on the board; a double's are put in row-major order here, as
    ``Action.board`` does, and a tile the notation cannot write is refused as there.
    """
    if tile.high > MAX_NOTATION_PIP:
        return [Action.board(tile, a, b) for a, b in cell_pairs]
    made = _BOARD_ACTIONS.get(tile)
    if made is None:
        made = _BOARD_ACTIONS.setdefault(tile, {})
    out = []
    double = tile.is_double
    for pair in cell_pairs:
        action = made.get(pair)
        if action is None:
            a, b = pair
            cells = (a, b) if not double or a <= b else (b, a)
            action = made[pair] = _unchecked("board", tile, None, None, cells)
        out.append(action)
    return out


_BOARD_ACTIONS: dict[Tile, dict[tuple[Cell, Cell], Action]] = {}
"""Board actions already made, by tile and cell pair: an Action is an immutable value, so a
move generator hands out the same one each time instead of building it again. Bounded by the
tiles the notation writes times the cell pairs of the boards played on."""


def chain_action(tile: Tile, end: End, touch: int) -> Action:
    """``Action.chain(tile, end, touch)`` without the shape check, for move generators whose
    ``end`` is "L" or "R" and ``touch`` a half of ``tile`` by construction."""
    if tile.high > MAX_NOTATION_PIP:
        return Action.chain(tile, end, touch)
    return _unchecked("chain", tile, end, touch, None)


def opening_action(tile: Tile) -> Action:
    """``Action.opening(tile)``, made once per tile and handed out again: every hand of a
    chain game lists the opening of each tile in the starter's hand."""
    action = _OPENINGS.get(tile)
    if action is None:
        action = Action.opening(tile)
        if tile.high <= MAX_NOTATION_PIP:
            _OPENINGS[tile] = action
    return action


_OPENINGS: dict[Tile, Action] = {}
"""Opening actions already made, by tile; bounded by the tiles the notation writes."""


def _unchecked(kind: Kind, tile: Tile | None, end: End | None, touch: int | None,
               cells: tuple[Cell, Cell] | None) -> Action:
    action = object.__new__(Action)
    _set(action, "kind", kind)
    _set(action, "tile", tile)
    _set(action, "end", end)
    _set(action, "touch", touch)
    _set(action, "cells", cells)
    _set(action, "_text", "")
    return action


_set = object.__setattr__


def _tile(text: str, low: str, high: str) -> Tile:
    if int(low) > int(high):
        raise NotationError(f"not a canonical action: {text!r} (write the tile low half first)")
    return Tile(int(low), int(high))


def _shape_problem(action: Action) -> str | None:
    """Why the fields do not make one action of its kind, or None; keeps values well formed."""
    kind, tile, end, touch, cells = (
        action.kind, action.tile, action.end, action.touch, action.cells
    )
    if kind == "board":
        if tile is None or end is not None or touch is not None or cells is None:
            return "fields do not fit the kind"
        (r1, c1), (r2, c2) = cells
        if not all(type(n) is int and n >= 0 for n in (r1, c1, r2, c2)):
            return f"cells must be non-negative (row, column) pairs, got {cells!r}"
        if tile.low == tile.high and (r2, c2) < (r1, c1):
            return "a double's cells go in row-major order"
    elif kind == "chain":
        if tile is None or cells is not None:
            return "fields do not fit the kind"
        if end not in ("L", "R"):
            return f"end must be 'L' or 'R', got {end!r}"
        if touch not in (tile.low, tile.high):
            return f"{touch!r} is not a half of {tile}"
    elif kind == "opening":
        if tile is None or end is not None or touch is not None or cells is not None:
            return "fields do not fit the kind"
    elif kind in ("draw", "pass", "stop"):
        if (tile, end, touch, cells) != (None, None, None, None):
            return "fields do not fit the kind"
    else:
        return f"unknown kind {kind!r}"
    if tile is not None and tile.high > MAX_NOTATION_PIP:
        return f"pips go up to {MAX_NOTATION_PIP} in the notation, got {tile}"
    return None


_SIMPLE: dict[Kind, Action] = {kind: Action(kind) for kind in ("draw", "pass", "stop")}
Action.DRAW = _SIMPLE["draw"]
Action.PASS = _SIMPLE["pass"]
Action.STOP = _SIMPLE["stop"]
DRAW = Action.DRAW
PASS = Action.PASS
STOP = Action.STOP


def parse_action(text: str) -> Action:
    """Function form of ``Action.parse`` for callers that map over strings."""
    return Action.parse(text)
