"""Domino tiles as small values: identity is the unordered pair, written low-first (R-ALL-01).

Keeping the low half first in the value itself means two spellings of one tile can never
compare unequal, and sorting tiles gives the canonical order used in hands and JSON.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from operator import attrgetter

from dominokit.reference.errors import NotationError

MAX_NOTATION_PIP = 6
"""The notation's pip grammar is one digit 0..6 (spec/common.yaml)."""

_TILE_RE = re.compile(r"([0-6])-([0-6])")


@dataclass(frozen=True, order=True, slots=True)
class Tile:
    """One domino, ``low <= high``; on the table it is oriented, in a hand it is not."""

    low: int
    high: int

    def __post_init__(self) -> None:
        if not (isinstance(self.low, int) and isinstance(self.high, int)):
            raise TypeError(f"tile halves must be ints, got {self.low!r}, {self.high!r}")
        if not 0 <= self.low <= self.high:
            raise ValueError(f"a tile is written low half first, got ({self.low}, {self.high})")

    @classmethod
    def parse(cls, text: str) -> Tile:
        """Read the canonical spelling ``"2-5"``; any other spelling raises NotationError."""
        match = _TILE_RE.fullmatch(text) if isinstance(text, str) else None
        if match is None:
            raise NotationError(f"not a tile: {text!r} (expected low-high, e.g. '2-5')")
        low, high = int(match.group(1)), int(match.group(2))
        if low > high:
            raise NotationError(f"not a canonical tile: {text!r} (write the low half first)")
        return cls.of(low, high)

    @classmethod
    def of(cls, a: int, b: int) -> Tile:
        """The tile showing halves ``a`` and ``b`` in either order (e.g. from an oriented pair).

        The same value comes back for the same pair, so tiles from one set compare by identity
        first: the engine's membership tests and table lookups then rarely compare fields.
        """
        key = (a, b) if a <= b else (b, a)
        tile = _SHARED.get(key)
        if tile is None:
            tile = _SHARED.setdefault(key, cls(*key))
        return tile

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if other.__class__ is not Tile:
            return NotImplemented
        assert isinstance(other, Tile)
        return self.low == other.low and self.high == other.high

    def __hash__(self) -> int:
        # Cheaper than hashing a (low, high) tuple; tiles are looked up on every action.
        return self.low * 4099 + self.high

    @property
    def pips(self) -> int:
        """Total pips, the unit of every score."""
        return self.low + self.high

    @property
    def is_double(self) -> bool:
        """Doubles are one action on an end and are excluded from some sets (Szczerbak)."""
        return self.low == self.high

    def other(self, half: int) -> int:
        """The half opposite ``half``; raises ValueError if the tile does not show ``half``."""
        if half == self.low:
            return self.high
        if half == self.high:
            return self.low
        raise ValueError(f"tile {self} has no half {half}")

    def __str__(self) -> str:
        return f"{self.low}-{self.high}"

    def __repr__(self) -> str:
        return f"Tile({self.low}, {self.high})"


TILE_ORDER = attrgetter("low", "high")
"""Sort key giving tiles' own order (low half, then high), computed in C: ``sorted(tiles,
key=TILE_ORDER)`` lists what ``sorted(tiles)`` lists without a Python call per comparison."""

_SHARED: dict[tuple[int, int], Tile] = {}
"""One Tile value per pair, handed out by ``Tile.of`` (and so by ``parse`` and ``tile_set``)."""


def tile_set(max_pip: int, doubles: bool, copies: int) -> tuple[Tile, ...]:
    """The sorted multiset of tiles a variant plays with (R-ALL-01, R-SZC-01, R-PIJ-11)."""
    if max_pip < 0 or copies < 1:
        raise ValueError(f"bad tile set: max_pip={max_pip}, copies={copies}")
    one = [
        Tile.of(a, b)
        for a in range(max_pip + 1)
        for b in range(a, max_pip + 1)
        if doubles or a != b
    ]
    return tuple(tile for tile in one for _ in range(copies))
