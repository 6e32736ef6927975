"""Sentences about a position or a published text, derived from them rather than fixed.

Readers caught two fixed phrases saying what the data did not: a lake "fenced in by tiles and
the board's edge" whose cells touch no edge, and an English rendering of the published
opening that dropped its "6+16=" and turned [6|4] into [4|6]. So the fence of a lake is read
off the board, and the published turns are rendered from the quote itself, tile by tile as
written, and checked against the turns the search tool reconstructs.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any, Final

from dominokit.rulebook.i18n import EN, Lang
from dominokit.rulebook.text import md

_TURN: Final = re.compile(r"(?P<tiles>\[\d\|\d\](?:\s+i\s+\[\d\|\d\])*)\s*\((?P<points>[^)]*)\)")
_TILE: Final = re.compile(r"\[(\d)\|(\d)\]")
_SIDES: Final = (("top", -1, 0), ("bottom", 1, 0), ("left", 0, -1), ("right", 0, 1))
_FENCES: Final = {
    "en": {"none": "tiles on every side", "and": " and ",
           "one": "tiles and the board's {sides} edge", "many": "tiles and the board's {sides} "
                                                                "edges",
           "top": "top", "bottom": "bottom", "left": "left", "right": "right"},
    "pl": {"none": "kamieniami ze wszystkich stron", "and": " i ",
           "one": "kamieniami i {sides} brzegiem planszy",
           "many": "kamieniami oraz {sides} brzegiem planszy",
           "top": "górnym", "bottom": "dolnym", "left": "lewym", "right": "prawym"},
}
"""What fences a lake in, per language (Polish in the instrumental: "otoczone kamieniami...")."""


def fence_words(cells: Iterable[Sequence[int]], rows: int, cols: int, lang: Lang = EN) -> str:
    """What closes a lake in: "tiles", or "tiles and the board's top and left edges", read
    from which of its cells' neighbours lie off the board; in ``lang``."""
    words = _FENCES[lang.code]
    lake = {(int(r), int(c)) for r, c in cells}
    edges = [words[name] for name, dr, dc in _SIDES
             if any(not (0 <= r + dr < rows and 0 <= c + dc < cols) for r, c in lake)]
    if not edges:
        return words["none"]
    sides = edges[0] if len(edges) == 1 else ", ".join(edges[:-1]) + words["and"] + edges[-1]
    return words["one" if len(edges) == 1 else "many"].format(sides=sides)


def published_turns(quote: str) -> list[tuple[list[tuple[int, int]], str]]:
    """The turns of a published opening as written: each turn's tiles, halves in the order
    the text gives them, and its points exactly as printed (``"6+16=22"``)."""
    text = " ".join(quote.split())
    return [([(int(a), int(b)) for a, b in _TILE.findall(m["tiles"])], m["points"])
            for m in _TURN.finditer(text)]


def total(points: str) -> int:
    """The points a turn scored, from their printed form (``"22"``, ``"6+16=22"``)."""
    return int(points.rsplit("=", 1)[-1])


def published_english(quote: str, turns: Sequence[Any]) -> str:
    """The published opening in English, from the Polish quote: tiles as written, "i" as
    "and", points as printed. ``turns`` (the search tool's ``PUBLISHED``) must be the same
    turns: a mismatch means the quote or the tool changed, and the build stops."""
    written = published_turns(quote)
    got = [(sorted(tuple(sorted(t)) for t in tiles), total(points)) for tiles, points in written]
    want = [(sorted(tuple(sorted(t)) for t in turn.tiles), turn.points) for turn in turns]
    if got != want:
        raise ValueError(f"the published quote {quote!r} does not match the turns {want}")
    items = [" and ".join(md(f"[{a}|{b}]") for a, b in tiles) + f" ({points})"
             for tiles, points in written]
    return ", ".join(items) + "."
