"""Chain-table mechanics: open ends, matching, parity, and laying a tile on an end.

The chain games (Poldomino, Szczerbak, Progressive) differ only in how many ends are open,
how the chain starts and which tiles fit an end; those choices arrive as Rules values, so the
functions here never ask which variant they serve.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, fields
from functools import cache
from typing import Any

from dominokit.reference.notation import Action, End, chain_action
from dominokit.reference.rules import Rules
from dominokit.reference.tiles import MAX_NOTATION_PIP, Tile

Oriented = tuple[int, int]


@dataclass(frozen=True, slots=True)
class ChainTable:
    """The chain, oriented left to right, and its open end pips (None: empty or dead end)."""

    tiles: tuple[Oriented, ...] = ()
    left: int | None = None
    right: int | None = None

    @property
    def empty(self) -> bool:
        """No tile on the table yet: the next placement is the opening."""
        return not self.tiles

    def end_pip(self, end: End) -> int | None:
        """The pip showing on ``end``, or None when that end is not open."""
        return self.left if end == "L" else self.right

    def open_ends(self) -> Iterator[tuple[End, int]]:
        """The open ends, left first, with their pips."""
        if self.left is not None:
            yield "L", self.left
        if self.right is not None:
            yield "R", self.right

    def to_json(self) -> dict[str, object]:
        """The ``table`` object of HandState JSON."""
        return {"kind": "chain", "tiles": [list(t) for t in self.tiles],
                "left": self.left, "right": self.right}


def start_from_widow(widow: tuple[int, int]) -> tuple[ChainTable, int]:
    """The chain a widow opening gives, and the starter (R-SZC-02).

    The widow lies dead half left; its higher half is the one open end, and the player it faces
    (x faces player 0, y player 1) starts.
    """
    x, y = widow
    dead, live = min(x, y), max(x, y)
    return ChainTable(((dead, live),), None, live), (0 if x > y else 1)


def open_with(table: ChainTable, rules: Rules, tile: Tile) -> ChainTable:
    """The chain after the opening tile: low half left (R-ALL-09); one-ended chains grow right."""
    left = tile.low if rules.table.ends == 2 else None
    return ChainTable(((tile.low, tile.high),), left, tile.high)


def fits(rules: Rules, end_pip: int, tile: Tile, touch: int) -> str | None:
    """Why ``tile`` touching with ``touch`` does not fit an end showing ``end_pip``, or None.

    Answers "matching" or "parity" so the caller can cite the right rule. Under the parity
    policy a blank end takes any tile either way round (R-SZC-05); elsewhere the touching half
    must equal the end (R-POL-04) and, under parity, the far half must be blank or of the other
    parity (R-SZC-04).
    """
    return _fits(rules.parity.policy, end_pip, tile, touch)


def _fits(parity: str, end_pip: int, tile: Tile, touch: int) -> str | None:
    other = tile.other(touch)
    if parity == "opposite_or_blank":
        if end_pip == 0:
            return None
        if touch != end_pip:
            return "matching"
        if other != 0 and other % 2 == end_pip % 2:
            return "parity"
        return None
    return None if touch == end_pip else "matching"


EndPlays = Mapping[Tile, tuple[Action, ...]]
"""The tiles that fit one open end, each with its actions there in touching-half order."""

_NOTHING: EndPlays = {}


@cache
def _end_plays(parity: str, max_pip: int) -> dict[tuple[End, int], EndPlays]:
    """For each end and each pip it can show, the tiles that fit it and their actions.

    Built once per parity policy and pip range from ``fits`` itself, so a move generator
    looks tiles up instead of testing them, and hands out the same Action values each time.
    """
    tiles = [Tile.of(a, b) for a in range(max_pip + 1) for b in range(a, max_pip + 1)]
    out: dict[tuple[End, int], EndPlays] = {}
    for end in ("L", "R"):
        for pip in range(max_pip + 1):
            fitting: dict[Tile, tuple[Action, ...]] = {}
            for tile in tiles:
                touches = (tile.low,) if tile.is_double else (tile.low, tile.high)
                here = tuple(chain_action(tile, end, touch) for touch in touches
                             if _fits(parity, pip, tile, touch) is None)
                if here:
                    fitting[tile] = here
            out[(end, pip)] = fitting
    return out


def fitting_ends(table: ChainTable, rules: Rules) -> tuple[EndPlays, EndPlays] | None:
    """What fits the left and the right end; None when the notation cannot write the tiles
    (the callers then test each tile through ``fits``, which refuses them one by one)."""
    if rules.tiles.max_pip > MAX_NOTATION_PIP:
        return None
    table_of = _end_plays(rules.parity.policy, rules.tiles.max_pip)
    left = _NOTHING if table.left is None else table_of.get(("L", table.left), _NOTHING)
    right = _NOTHING if table.right is None else table_of.get(("R", table.right), _NOTHING)
    return left, right


def plays(table: ChainTable, rules: Rules, hand: Iterable[Tile]) -> list[Action]:
    """Every chain play from ``hand`` onto the open ends (the table is not empty).

    Each end and each touching half is its own action (R-ALL-09, R-SZC-05); a double shows
    one half, so it is one action per end. ``_tested_plays`` is the plain definition, testing
    each tile with ``fits``; this looks each tile up once in what fits both ends together
    (``_both_end_plays``), then puts the few that fit in tile order.
    """
    if rules.tiles.max_pip > MAX_NOTATION_PIP:
        return _tested_plays(table, rules, hand)
    fit = _both_end_plays(rules.parity.policy, rules.tiles.max_pip).get((table.left, table.right))
    if fit is None:  # an end pip beyond the tiles' (a state read from JSON)
        return _tested_plays(table, rules, hand)
    get = fit.get
    hits = [here for tile in hand if (here := get(tile)) is not None]
    if len(hits) == 1:
        return list(hits[0][1])
    out: list[Action] = []
    for _, actions in sorted(dict(hits).items()):  # in tile order, each tile once
        out += actions
    return out


RankedPlays = Mapping[Tile, tuple[tuple[int, int], tuple[Action, ...]]]
"""The tiles that fit either end, each with its place in tile order (low, high) and its
actions there."""


@cache
def _both_end_plays(parity: str, max_pip: int) -> dict[tuple[int | None, int | None],
                                                       RankedPlays]:
    """For each (left, right) pair of end pips (None: not open), the tiles that fit either end
    with their place in tile order and their actions there, left end first: ``_end_plays`` of
    both ends, joined once."""
    table_of = _end_plays(parity, max_pip)
    pips: list[int | None] = [None, *range(max_pip + 1)]
    out: dict[tuple[int | None, int | None], RankedPlays] = {}
    for left in pips:
        on_left = _NOTHING if left is None else table_of[("L", left)]
        for right in pips:
            on_right = _NOTHING if right is None else table_of[("R", right)]
            out[(left, right)] = {
                tile: ((tile.low, tile.high), on_left.get(tile, ()) + on_right.get(tile, ()))
                for tile in {*on_left, *on_right}}
    return out


ShareRanked = Mapping[int, tuple[tuple[int, int], tuple[Action, ...]] | None]
"""``RankedPlays`` keyed by the ``id`` of each shared tile (``Tile.of``) instead of the tile,
every shared tile of the pip range a key (None when it fits neither end)."""


@cache
def plays_by_identity(parity: str, max_pip: int) -> dict[tuple[int | None, int | None],
                                                         ShareRanked]:
    """``_both_end_plays`` keyed by tile identity, for ``engine.ChainStep``'s listing.

    Hashing a tile is a Python call (``Tile.__hash__``) and a listing looks up every tile of
    a hand; ``id`` is not. The shared tiles live as long as the process (``tiles._SHARED``),
    so their ids stay theirs. A tile that is not a key is not a shared tile (one built by
    ``Tile(low, high)``): the caller then looks the hand up by value (``plays``)."""
    shared = [Tile.of(a, b) for a in range(max_pip + 1) for b in range(a, max_pip + 1)]
    return {ends: {id(tile): ranked.get(tile) for tile in shared}
            for ends, ranked in _both_end_plays(parity, max_pip).items()}


def _tested_plays(table: ChainTable, rules: Rules, hand: Iterable[Tile]) -> list[Action]:
    out: list[Action] = []
    ends = list(table.open_ends())
    for tile in sorted(set(hand)):
        for end, pip in ends:
            for touch in (tile.low,) if tile.is_double else (tile.low, tile.high):
                if fits(rules, pip, tile, touch) is None:
                    out.append(chain_action(tile, end, touch))
    return out


def can_play(table: ChainTable, rules: Rules, hand: Iterable[Tile]) -> bool:
    """True when some tile of ``hand`` fits an open end (or the chain is still empty)."""
    if table.empty:
        return any(True for _ in hand)
    ends = fitting_ends(table, rules)
    if ends is not None:
        left, right = ends
        return any(tile in left or tile in right for tile in hand)
    return any(
        fits(rules, pip, tile, touch) is None
        for tile in set(hand)
        for _, pip in table.open_ends()
        for touch in (tile.low, tile.high)
    )


def lay(table: ChainTable, end: End, tile: Tile, touch: int) -> ChainTable:
    """The chain with ``tile`` on ``end``, ``touch`` against it; the far half becomes the end."""
    other = tile.other(touch)
    if end == "L":
        return chain_of(((other, touch), *table.tiles), other, table.right)
    return chain_of((*table.tiles, (touch, other)), table.left, other)


class _Unsealed:
    """ChainTable's very slots without its frozen ``__setattr__`` (see ``chain_of``)."""

    __slots__ = ("tiles", "left", "right")


assert [f.name for f in fields(ChainTable)] == list(_Unsealed.__slots__)


def chain_of(tiles: tuple[Oriented, ...], left: int | None, right: int | None) -> ChainTable:
    """``ChainTable(tiles, left, right)``, built as ``state.make_state`` builds a state: the
    fields stored on an object of ChainTable's layout, which then becomes a ChainTable. The
    frozen constructor's ``object.__setattr__`` per field costs several times as much, at one
    chain per placement."""
    chain: Any = _Unsealed()
    chain.tiles = tiles
    chain.left = left
    chain.right = right
    chain.__class__ = ChainTable
    made: ChainTable = chain
    return made
