"""SVG pictures of chains and boards, for the rule book and for people reading traces.

Players would rather look at a chain or a board than read ``1-3@L1``, so the rule book draws
every worked example. The pictures are built with the standard library only (ElementTree),
from the same JSON the engines exchange (``HandState.to_json()["table"]``), and they are
deterministic: the same table gives the same bytes, so they can be snapshot-tested and
regenerated at every docs build without noise.

What each picture shows follows the spec's ``components.table`` entry, never a variant name:

* chain, ``layout: straight``: tiles end to end; with ``doubles: crosswise`` a double stands
  across the line (it still shows its pips to both neighbours);
* chain, ``layout: offset_rows``: two rows offset by half a tile, each tile touching the
  previous one along the matching half only;
* chain whose state has a widow: the first tile is the widow, its dead half greyed out;
* board: cells with row and column numbers, fields coloured by ``colour(r, c)`` (R-PIJ-01),
  tiles as outlined pairs of cells with their pips as dots, lake cells shaded, and chosen
  tiles (usually the last move) outlined in an accent colour.

Every picture is an ``<svg role="img">`` whose first child is a ``<title>``, so screen readers
announce what it shows.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from dominokit.reference.board_plain import colour

Cell = tuple[int, int]
Pair = tuple[int, int]

HALF: Final = 30
"""Side of one tile half in a chain picture, in SVG user units (pixels at scale 1)."""
CELL: Final = 34
"""Side of one board cell."""
MARGIN: Final = 8

INK: Final = "#222222"
TILE_FILL: Final = "#fffdf5"
DEAD_FILL: Final = "#b8b8b8"
ACCENT: Final = "#e8590c"
FIELD_FILL: Final = ("#f0d9b5", "#b58863")
"""Light and dark fields: colour 0 is drawn light, colour 1 dark."""
LAKE_FILL: Final = "#4a90d9"
LABEL_COLOUR: Final = "currentColor"
"""Labels take the page's text colour, so they read in light and dark mode alike."""

_DOTS: Final[dict[int, tuple[tuple[float, float], ...]]] = {
    0: (),
    1: ((0.5, 0.5),),
    2: ((0.25, 0.25), (0.75, 0.75)),
    3: ((0.25, 0.25), (0.5, 0.5), (0.75, 0.75)),
    4: ((0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)),
    5: ((0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)),
    6: ((0.25, 0.25), (0.75, 0.25), (0.25, 0.5), (0.75, 0.5), (0.25, 0.75), (0.75, 0.75)),
}
"""Where the dots of 0 to 6 pips sit on a square half, as fractions of its side."""


@dataclass(frozen=True)
class ChainStyle:
    """How a chain is laid out: the spec's ``doubles`` and ``layout`` words, and the widow.

    ``widow`` means the first tile is the widow, oriented dead half on the left (the form of
    ``HandState`` JSON when the state has a widow).
    """

    doubles: str = "inline"
    layout: str = "straight"
    widow: bool = False

    def __post_init__(self) -> None:
        if self.doubles not in ("inline", "crosswise"):
            raise ValueError(f"unknown doubles style {self.doubles!r}")
        if self.layout not in ("straight", "offset_rows"):
            raise ValueError(f"unknown chain layout {self.layout!r}")
        if self.layout == "offset_rows" and self.doubles == "crosswise":
            raise ValueError("offset rows have no room for crosswise doubles")


@dataclass(frozen=True)
class BoardTile:
    """A tile on the board: the cells of its two halves and the pips on them, in that order."""

    cells: tuple[Cell, Cell]
    pips: Pair


def _fmt(value: float) -> str:
    """A coordinate as short, stable text (integers without a decimal point)."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _svg(width: float, height: float, title: str, css_class: str) -> ET.Element:
    root = ET.Element("svg", {
        "xmlns": "http://www.w3.org/2000/svg",
        "class": f"dk-diagram {css_class}",
        "role": "img",
        "width": _fmt(width),
        "height": _fmt(height),
        "viewBox": f"0 0 {_fmt(width)} {_fmt(height)}",
    })
    ET.SubElement(root, "title").text = title
    return root


def _rect(parent: ET.Element, x: float, y: float, w: float, h: float, **attrs: str
          ) -> ET.Element:
    base = {"x": _fmt(x), "y": _fmt(y), "width": _fmt(w), "height": _fmt(h)}
    return ET.SubElement(parent, "rect", {**base, **attrs})


def _line(parent: ET.Element, x1: float, y1: float, x2: float, y2: float, **attrs: str) -> None:
    ET.SubElement(parent, "line", {"x1": _fmt(x1), "y1": _fmt(y1), "x2": _fmt(x2),
                                   "y2": _fmt(y2), **attrs})


def _text(parent: ET.Element, x: float, y: float, text: str, size: float = 11,
          anchor: str = "middle") -> None:
    node = ET.SubElement(parent, "text", {
        "x": _fmt(x), "y": _fmt(y), "font-size": _fmt(size), "text-anchor": anchor,
        "font-family": "sans-serif", "fill": LABEL_COLOUR,
    })
    node.text = text


def _dots(parent: ET.Element, x: float, y: float, side: float, pips: int) -> None:
    """The dots of ``pips`` on the square half whose top-left corner is (x, y)."""
    if pips not in _DOTS:
        raise ValueError(f"a half shows 0 to 6 pips, not {pips}")
    radius = side * 0.09
    for fx, fy in _DOTS[pips]:
        ET.SubElement(parent, "circle", {"cx": _fmt(x + fx * side), "cy": _fmt(y + fy * side),
                                         "r": _fmt(radius), "fill": INK})


# ---------------------------------------------------------------------------- chains


@dataclass(frozen=True)
class _Box:
    """Where one chain tile is drawn: top-left corner, and whether it stands upright."""

    x: float
    y: float
    upright: bool


def _chain_boxes(tiles: Sequence[Pair], style: ChainStyle, anchor: int) -> list[_Box]:
    boxes: list[_Box] = []
    x = 0.0
    for index, (a, b) in enumerate(tiles):
        if style.layout == "offset_rows":
            row = (index - anchor) % 2
            boxes.append(_Box(index * HALF, row * HALF, False))
            continue
        upright = style.doubles == "crosswise" and a == b
        boxes.append(_Box(x, -HALF / 2 if upright else 0.0, upright))
        x += HALF if upright else 2 * HALF
    return boxes


def chain_svg(
    tiles: Sequence[Pair],
    style: ChainStyle,
    *,
    title: str,
    anchor: int = 0,
    labels: Sequence[str] | None = None,
    highlight: Iterable[int] = (),
    ends: bool = True,
) -> str:
    """A chain of oriented tiles ``[left, right]``, left to right, as an SVG element.

    ``anchor`` is the index of the opening tile: offset rows are counted from it, so a chain
    that grows at its left end keeps its rows from picture to picture. ``labels`` (one per
    tile, may be empty strings) are written under the tiles, ``highlight`` lists indexes of
    tiles to outline in the accent colour, and ``ends`` marks the open ends L and R.
    """
    marked = set(highlight)
    if labels is not None and len(labels) != len(tiles):
        raise ValueError(f"{len(labels)} labels for {len(tiles)} tiles")
    boxes = _chain_boxes(tiles, style, anchor)
    has_upright = any(box.upright for box in boxes)
    top = HALF / 2 if has_upright else 0.0
    rows_high = 2 if style.layout == "offset_rows" else 1
    body_h = rows_high * HALF + (HALF if has_upright else 0)
    label_h = 16 if labels is not None and any(labels) else 0
    end_w = 16 if ends and tiles else 0
    if style.layout == "offset_rows":
        chain_w = (len(tiles) + 1) * HALF if tiles else 0
    else:
        chain_w = sum(HALF if box.upright else 2 * HALF for box in boxes)
    width = 2 * MARGIN + 2 * end_w + max(chain_w, HALF)
    height = 2 * MARGIN + max(body_h, HALF) + label_h
    root = _svg(width, height, title, "dk-chain")
    ox, oy = MARGIN + end_w, MARGIN + top
    if not tiles:
        _text(root, width / 2, height / 2 + 4, "empty table", 11)
    for index, ((a, b), box) in enumerate(zip(tiles, boxes, strict=True)):
        dead = style.widow and index == 0
        _chain_tile(root, ox + box.x, oy + box.y, (a, b), box.upright, dead,
                    index in marked)
    if labels is not None:
        base = MARGIN + max(body_h, HALF) + 12
        for text, box in zip(labels, boxes, strict=True):
            if text:
                w = HALF if box.upright else 2 * HALF
                _text(root, ox + box.x + w / 2, base, text, 10)
    if ends and tiles:
        first, last = boxes[0], boxes[-1]
        mid_first = oy + first.y + (HALF if first.upright else HALF / 2)
        mid_last = oy + last.y + (HALF if last.upright else HALF / 2)
        if not style.widow:
            _text(root, MARGIN + end_w / 2, mid_first + 4, "L", 11)
        right_x = ox + last.x + (HALF if last.upright else 2 * HALF)
        _text(root, right_x + end_w / 2, mid_last + 4, "R", 11)
    return ET.tostring(root, encoding="unicode")


def _chain_tile(root: ET.Element, x: float, y: float, pips: Pair, upright: bool, dead: bool,
                marked: bool) -> None:
    group = ET.SubElement(root, "g", {"class": "dk-tile"})
    w, h = (HALF, 2 * HALF) if upright else (2 * HALF, HALF)
    _rect(group, x, y, w, h, rx="4", fill=TILE_FILL, stroke=INK, **{"stroke-width": "1.5"})
    if dead:
        _rect(group, x, y, HALF, HALF, rx="4", fill=DEAD_FILL, stroke=INK,
              **{"stroke-width": "1.5", "class": "dk-dead"})
    if upright:
        _line(group, x + 4, y + HALF, x + w - 4, y + HALF, stroke=INK)
        _dots(group, x, y, HALF, pips[0])
        _dots(group, x, y + HALF, HALF, pips[1])
    else:
        _line(group, x + HALF, y + 4, x + HALF, y + h - 4, stroke=INK)
        _dots(group, x, y, HALF, pips[0])
        _dots(group, x + HALF, y, HALF, pips[1])
    if marked:
        _rect(group, x - 2, y - 2, w + 4, h + 4, rx="5", fill="none", stroke=ACCENT,
              **{"stroke-width": "3", "class": "dk-highlight"})


# ---------------------------------------------------------------------------- boards


def board_svg(
    rows: int,
    cols: int,
    tiles: Sequence[BoardTile],
    *,
    title: str,
    lakes: Iterable[Cell] = (),
    highlight: Iterable[int] = (),
) -> str:
    """A board of ``rows`` x ``cols`` cells with its fields, tiles, lakes and highlights.

    ``lakes`` are cells to shade as lake water; ``highlight`` lists indexes into ``tiles`` to
    outline in the accent colour. Row and column numbers are drawn along the edges so that the
    board-play notation (``low cell + high cell``, ``row.column``) can be read off the picture.
    """
    if rows < 1 or cols < 1:
        raise ValueError(f"a board needs at least one cell, got {rows}x{cols}")
    marked = set(highlight)
    left, top = 22, 18
    width = left + cols * CELL + MARGIN
    height = top + rows * CELL + MARGIN
    root = _svg(width, height, title, "dk-board")
    fields = ET.SubElement(root, "g", {"class": "dk-fields"})
    for r in range(rows):
        for c in range(cols):
            _rect(fields, left + c * CELL, top + r * CELL, CELL, CELL,
                  fill=FIELD_FILL[colour((r, c))])
    for c in range(cols):
        _text(root, left + c * CELL + CELL / 2, top - 5, str(c), 10)
    for r in range(rows):
        _text(root, left - 6, top + r * CELL + CELL / 2 + 4, str(r), 10, "end")
    grid = ET.SubElement(root, "g", {"class": "dk-grid", "stroke": INK, "fill": "none"})
    for c in range(1, cols):
        _line(grid, left + c * CELL, top, left + c * CELL, top + rows * CELL,
              **{"stroke-width": "1.2" if c % 2 == 0 else "0.4", "stroke-opacity": "0.6"})
    for r in range(1, rows):
        _line(grid, left, top + r * CELL, left + cols * CELL, top + r * CELL,
              **{"stroke-width": "1.2", "stroke-opacity": "0.6"})
    _rect(grid, left, top, cols * CELL, rows * CELL, **{"stroke-width": "1.5"})
    water = sorted(set(lakes))
    if water:
        group = ET.SubElement(root, "g", {"class": "dk-lakes"})
        for r, c in water:
            _check_cell((r, c), rows, cols)
            _rect(group, left + c * CELL + 2, top + r * CELL + 2, CELL - 4, CELL - 4,
                  rx="6", fill=LAKE_FILL,
                  **{"fill-opacity": "0.75", "class": "dk-lake", "data-cell": f"{r}.{c}"})
    for index, tile in enumerate(tiles):
        for cell in tile.cells:
            _check_cell(cell, rows, cols)
        _board_tile(root, left, top, tile, index in marked)
    return ET.tostring(root, encoding="unicode")


def _check_cell(cell: Cell, rows: int, cols: int) -> None:
    r, c = cell
    if not (0 <= r < rows and 0 <= c < cols):
        raise ValueError(f"cell {r}.{c} is off the {rows}x{cols} board")


def _board_tile(root: ET.Element, left: float, top: float, tile: BoardTile, marked: bool
                ) -> None:
    (r1, c1), (r2, c2) = tile.cells
    if abs(r1 - r2) + abs(c1 - c2) != 1:
        raise ValueError(f"tile cells {r1}.{c1} and {r2}.{c2} are not edge-adjacent")
    group = ET.SubElement(root, "g", {"class": "dk-tile"})
    x = left + min(c1, c2) * CELL
    y = top + min(r1, r2) * CELL
    w = CELL * (abs(c1 - c2) + 1)
    h = CELL * (abs(r1 - r2) + 1)
    inset = 3
    # Translucent, so that the field colour under each half still shows (it sets the points).
    _rect(group, x + inset, y + inset, w - 2 * inset, h - 2 * inset, rx="5", fill="#ffffff",
          stroke=INK, **{"fill-opacity": "0.55", "stroke-width": "1.5"})
    if r1 == r2:
        mid = left + max(c1, c2) * CELL
        _line(group, mid, y + inset + 3, mid, y + h - inset - 3, stroke=INK)
    else:
        mid = top + max(r1, r2) * CELL
        _line(group, x + inset + 3, mid, x + w - inset - 3, mid, stroke=INK)
    for (r, c), pips in zip(tile.cells, tile.pips, strict=True):
        _dots(group, left + c * CELL + 2, top + r * CELL + 2, CELL - 4, pips)
    if marked:
        _rect(group, x + 1, y + 1, w - 2, h - 2, rx="6", fill="none", stroke=ACCENT,
              **{"stroke-width": "3", "class": "dk-highlight"})


# ---------------------------------------------------------------------------- from JSON


def chain_style(table_spec: Mapping[str, Any], state: Mapping[str, Any]) -> ChainStyle:
    """The chain style for a variant's ``components.table`` and a HandState JSON.

    The widow is read from the state (``widow`` set), not from the variant, because that is
    what says the first chain tile is the widow.
    """
    return ChainStyle(doubles=str(table_spec.get("doubles", "inline")),
                      layout=str(table_spec.get("layout", "straight")),
                      widow=state.get("widow") is not None)


def board_tiles(table: Mapping[str, Any]) -> list[BoardTile]:
    """The tiles of a board table JSON (``{"kind": "board", "placements": [...]}``)."""
    out: list[BoardTile] = []
    for placement in table["placements"]:
        (a, b) = placement["cells"]
        low, high = placement["pips"]
        out.append(BoardTile(cells=((a[0], a[1]), (b[0], b[1])), pips=(low, high)))
    return out


def state_svg(
    state: Mapping[str, Any],
    table_spec: Mapping[str, Any],
    *,
    title: str,
    anchor: int = 0,
    labels: Sequence[str] | None = None,
    highlight: Iterable[int] = (),
    lakes: Iterable[Cell] = (),
) -> str:
    """The table of a HandState JSON, drawn as its variant's ``components.table`` says.

    ``anchor``, ``labels`` apply to chains, ``lakes`` to boards, ``highlight`` to both
    (indexes of chain tiles left to right, or of board placements in order).
    """
    table = state["table"]
    if table["kind"] == "board":
        return board_svg(table["rows"], table["cols"], board_tiles(table), title=title,
                         lakes=lakes, highlight=highlight)
    tiles = [(int(a), int(b)) for a, b in table["tiles"]]
    return chain_svg(tiles, chain_style(table_spec, state), title=title, anchor=anchor,
                     labels=labels, highlight=highlight)
