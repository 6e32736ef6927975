"""A long chain drawn as several short pictures that wrap into rows on a narrow screen.

One picture of a 20-tile chain is 1,200 px wide; a phone shrinks it to about 32 px a tile,
and the move numbers under the tiles become unreadable. So a chain longer than one phone
width is cut into pieces of at most ``ROW_WIDTH`` px, each drawn at full size by
``diagrams.chain_svg`` and laid side by side in a wrapping row (``.dk-chainrows`` in
``rulebook.css``): on a wide screen they read as one line, on a phone as rows, left to right
and top to bottom. Only the first piece can hold the widow, and the offset rows keep their
parity from the opening tile across pieces.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any, Final

from dominokit.conformance.run import diagrams
from dominokit.rulebook.captions import say
from dominokit.rulebook.i18n import EN, Lang

ROW_WIDTH: Final = 300
"""Widest piece, in px at scale 1: fits a 390 px phone with the page's margins."""


def _tile_width(pair: tuple[int, int], style: diagrams.ChainStyle) -> int:
    if style.layout == "offset_rows":
        return diagrams.HALF
    upright = style.doubles == "crosswise" and pair[0] == pair[1]
    return diagrams.HALF if upright else 2 * diagrams.HALF


def pieces(tiles: Sequence[tuple[int, int]], style: diagrams.ChainStyle) -> list[range]:
    """The index ranges of the pieces: consecutive tiles, each piece at most ROW_WIDTH wide."""
    out: list[range] = []
    start, width = 0, 0
    for index, pair in enumerate(tiles):
        w = _tile_width(pair, style)
        if index > start and width + w > ROW_WIDTH:
            out.append(range(start, index))
            start, width = index, 0
        width += w
    if tiles:
        out.append(range(start, len(tiles)))
    return out


def chain_rows(state: Mapping[str, Any], table_spec: Mapping[str, Any], *, title: str,
               anchor: int, caption: str, labels: Sequence[str] | None = None,
               highlight: Iterable[int] = (), lang: Lang = EN) -> str:
    """The chain of ``state`` as a figure of pieces that wrap (one piece when it is short);
    ``labels`` and ``highlight`` as for ``diagrams.state_svg``; the words added to the
    caption and to each piece's title in ``lang``."""
    marked = set(highlight)
    tiles = [(int(a), int(b)) for a, b in state["table"]["tiles"]]
    style = diagrams.chain_style(table_spec, state)
    parts = pieces(tiles, style)
    if len(parts) <= 1:
        svg = diagrams.state_svg(state, table_spec, title=title, anchor=anchor, labels=labels,
                                 highlight=marked)
        return f'<figure class="dk-figure">{svg}<figcaption>{caption}</figcaption></figure>'
    svgs = []
    for number, part in enumerate(parts, start=1):
        piece_style = style if part.start == 0 else replace(style, widow=False)
        svgs.append(diagrams.chain_svg(
            [tiles[i] for i in part], piece_style,
            title=say(lang, "part", title=title, part=number, parts=len(parts),
                      first=part.start + 1, last=part.stop),
            anchor=anchor - part.start,
            labels=None if labels is None else [labels[i] for i in part],
            highlight=[i - part.start for i in part if i in marked], ends=False))
    return (f'<figure class="dk-figure dk-chainrows"><div class="dk-rows">{"".join(svgs)}'
            f"</div><figcaption>{caption} {say(lang, 'rows')}</figcaption></figure>")
