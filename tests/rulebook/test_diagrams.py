"""SVG diagrams: snapshots of small pictures, and their structure checked against the rules.

Snapshots (``tests/rulebook/snapshots/*.svg``) catch any change in what the rule book draws; a
change
on purpose is recorded with ``DOMINOKIT_UPDATE_SNAPSHOTS=1 python -m pytest
tests/rulebook/test_diagrams.py`` and the new files are looked at before they are committed. The
structural tests do not trust the snapshots: they count dots, read field colours and tile
boxes out of the SVG and compare them with what the rules say, worked out by hand.
"""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from dominokit.conformance.run import diagrams
from dominokit.conformance.run.diagrams import BoardTile, ChainStyle
from dominokit.reference import Deal, apply_action, new_hand

SNAPSHOTS = Path(__file__).resolve().parent / "snapshots"
UPDATE = os.environ.get("DOMINOKIT_UPDATE_SNAPSHOTS") == "1"
NS = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def tag(element: ET.Element) -> str:
    return element.tag.removeprefix(NS)


def tile_groups(root: ET.Element) -> list[ET.Element]:
    return [g for g in root.iter() if tag(g) == "g" and g.get("class") == "dk-tile"]


def dots(element: ET.Element) -> int:
    return sum(1 for e in element.iter() if tag(e) == "circle")


def tile_box(group: ET.Element) -> tuple[float, float, float, float]:
    """x, y, width, height of a tile's outline (its first rect)."""
    rect = next(e for e in group if tag(e) == "rect")
    return (float(rect.get("x", "0")), float(rect.get("y", "0")),
            float(rect.get("width", "0")), float(rect.get("height", "0")))


# ---------------------------------------------------------------------------- snapshots

POLDOMINO_SEED = [(5, 1), (1, 3), (3, 2)]
"""The seed example of Poldomino and Progressive, "[5|1][1|3][3|2]", opened with [1|3]."""

SNAPSHOT_CASES = {
    "chain-offset-rows": lambda: diagrams.chain_svg(
        POLDOMINO_SEED, ChainStyle(layout="offset_rows"),
        title="Poldomino: [5|1][1|3][3|2] in two offset rows", anchor=1,
        labels=["2", "1", "3"], highlight=[2]),
    "chain-crosswise": lambda: diagrams.chain_svg(
        [(5, 1), (1, 1), (1, 3)], ChainStyle(doubles="crosswise"),
        title="Progressive: a double laid crosswise"),
    "chain-widow": lambda: diagrams.chain_svg(
        [(2, 3), (3, 6), (6, 1)], ChainStyle(widow=True),
        title="Szczerbak: widow [2|3], then [3|6] and [6|1]", labels=["widow", "1", "2"]),
    "board-small": lambda: diagrams.board_svg(
        3, 4, [BoardTile(((0, 0), (0, 1)), (5, 6)), BoardTile(((2, 1), (1, 1)), (2, 6))],
        title="A 3 x 4 board with two tiles and a lake", lakes=[(1, 0)], highlight=[1]),
}


@pytest.mark.parametrize("name", sorted(SNAPSHOT_CASES))
def test_snapshot(name: str) -> None:
    svg = SNAPSHOT_CASES[name]() + "\n"
    path = SNAPSHOTS / f"{name}.svg"
    if UPDATE:
        SNAPSHOTS.mkdir(exist_ok=True)
        path.write_text(svg, encoding="utf-8")
    assert path.is_file(), f"no snapshot {path}; record it with DOMINOKIT_UPDATE_SNAPSHOTS=1"
    assert svg == path.read_text(encoding="utf-8"), (
        f"{name} differs from {path}; if the change is meant, rerun with "
        "DOMINOKIT_UPDATE_SNAPSHOTS=1 and look at the new file")


def test_snapshots_have_no_orphans() -> None:
    stored = {p.stem for p in SNAPSHOTS.glob("*.svg")}
    assert stored == set(SNAPSHOT_CASES)


@pytest.mark.parametrize("name", sorted(SNAPSHOT_CASES))
def test_the_same_picture_twice_is_the_same_text(name: str) -> None:
    assert SNAPSHOT_CASES[name]() == SNAPSHOT_CASES[name]()


# ---------------------------------------------------------------------------- every picture


@pytest.mark.parametrize("name", sorted(SNAPSHOT_CASES))
def test_every_picture_is_an_accessible_sized_image(name: str) -> None:
    root = parse(SNAPSHOT_CASES[name]())
    assert tag(root) == "svg"
    assert root.get("role") == "img"
    first = root[0]
    assert tag(first) == "title" and first.text
    assert float(root.get("width", "0")) > 0 and float(root.get("height", "0")) > 0
    assert root.get("viewBox") == f"0 0 {root.get('width')} {root.get('height')}"
    # No ids: several pictures share a page, and ids would clash.
    assert not any(e.get("id") for e in root.iter())


def test_labels_follow_the_page_text_colour() -> None:
    root = parse(SNAPSHOT_CASES["chain-widow"]())
    texts = [e for e in root.iter() if tag(e) == "text"]
    assert texts and all(t.get("fill") == "currentColor" for t in texts)


# ---------------------------------------------------------------------------- chains


def test_a_chain_shows_every_pip_as_a_dot() -> None:
    # [5|1][1|3][3|2]: 5+1 + 1+3 + 3+2 = 15 dots.
    root = parse(diagrams.chain_svg(POLDOMINO_SEED, ChainStyle(), title="t"))
    assert dots(root) == 15
    assert [dots(g) for g in tile_groups(root)] == [6, 4, 5]


def test_straight_chain_tiles_touch_end_to_end() -> None:
    root = parse(diagrams.chain_svg(POLDOMINO_SEED, ChainStyle(), title="t"))
    boxes = [tile_box(g) for g in tile_groups(root)]
    assert all(h == diagrams.HALF and w == 2 * diagrams.HALF for _, _, w, h in boxes)
    for (x1, y1, w1, _), (x2, y2, _, _) in zip(boxes, boxes[1:], strict=False):
        assert x2 == x1 + w1 and y2 == y1


def test_offset_rows_touch_along_the_matching_half_only() -> None:
    # R-POL-04: two rows offset by half a tile; each tile's touching half lies against the
    # matching half of the previous tile, so tiles step one half to the right and change row.
    root = parse(diagrams.chain_svg(POLDOMINO_SEED, ChainStyle(layout="offset_rows"),
                                    title="t", anchor=1))
    boxes = [tile_box(g) for g in tile_groups(root)]
    half = diagrams.HALF
    for (x1, y1, _, _), (x2, y2, _, _) in zip(boxes, boxes[1:], strict=False):
        assert x2 - x1 == half
        assert abs(y2 - y1) == half
    # The opening tile (index 1, [1|3]) sits in the top row: rows count from the anchor.
    assert boxes[1][1] < boxes[0][1] and boxes[1][1] < boxes[2][1]


def test_crosswise_doubles_stand_across_the_line() -> None:
    root = parse(diagrams.chain_svg([(5, 1), (1, 1), (1, 3)], ChainStyle(doubles="crosswise"),
                                    title="t"))
    (x0, y0, w0, h0), (x1, y1, w1, h1), (x2, _, _, _) = [tile_box(g) for g in tile_groups(root)]
    assert (w0, h0) == (2 * diagrams.HALF, diagrams.HALF)
    assert (w1, h1) == (diagrams.HALF, 2 * diagrams.HALF)  # upright
    assert x1 == x0 + w0 and x2 == x1 + w1  # it takes one half of the line's length
    assert y1 + h1 / 2 == y0 + h0 / 2  # centred on the line


def test_inline_doubles_lie_along_the_line() -> None:
    root = parse(diagrams.chain_svg([(5, 1), (1, 1)], ChainStyle(doubles="inline"), title="t"))
    assert [tile_box(g)[2:] for g in tile_groups(root)] == [(60.0, 30.0), (60.0, 30.0)]


def test_the_widow_has_a_dead_half_and_one_open_end() -> None:
    root = parse(SNAPSHOT_CASES["chain-widow"]())
    groups = tile_groups(root)
    dead = [e for e in root.iter() if e.get("class") == "dk-dead"]
    assert len(dead) == 1 and dead[0] in list(groups[0])
    labels = [e.text for e in root.iter() if tag(e) == "text"]
    assert "R" in labels and "L" not in labels  # R-SZC-03: the chain grows one way only
    assert labels[:3] == ["widow", "1", "2"]


def test_highlight_marks_the_chosen_tile_only() -> None:
    root = parse(SNAPSHOT_CASES["chain-offset-rows"]())
    marked = [i for i, g in enumerate(tile_groups(root))
              if any(e.get("class") == "dk-highlight" for e in g)]
    assert marked == [2]


def test_chain_style_refuses_unknown_words() -> None:
    with pytest.raises(ValueError):
        ChainStyle(layout="spiral")
    with pytest.raises(ValueError):
        ChainStyle(doubles="sideways")
    with pytest.raises(ValueError):
        ChainStyle(layout="offset_rows", doubles="crosswise")


def test_labels_must_match_tiles() -> None:
    with pytest.raises(ValueError):
        diagrams.chain_svg(POLDOMINO_SEED, ChainStyle(), title="t", labels=["1"])


# ---------------------------------------------------------------------------- boards


def field_fills(root: ET.Element) -> dict[tuple[int, int], str]:
    group = next(g for g in root.iter() if g.get("class") == "dk-fields")
    rects = [e for e in group if tag(e) == "rect"]
    xs = sorted({float(r.get("x", "0")) for r in rects})
    ys = sorted({float(r.get("y", "0")) for r in rects})
    return {(ys.index(float(r.get("y", "0"))), xs.index(float(r.get("x", "0")))):
            r.get("fill", "") for r in rects}


def test_board_fields_are_coloured_like_a_chessboard_of_cell_pairs() -> None:
    # R-PIJ-01: colour(r, c) = (r + c // 2) mod 2. By hand: (0,0) and (0,1) form field (0,0),
    # colour 0; (0,2) is field (0,1), colour 1; (1,0) colour 1; (1,2) colour 0; (5,11) is
    # field (5,5), colour (5 + 5) mod 2 = 0.
    fills = field_fills(parse(diagrams.board_svg(6, 12, [], title="empty")))
    assert len(fills) == 72
    light, dark = fills[(0, 0)], fills[(0, 2)]
    assert light != dark
    assert fills[(0, 1)] == light
    assert fills[(1, 0)] == dark and fills[(1, 1)] == dark
    assert fills[(1, 2)] == light
    assert fills[(5, 11)] == light
    # 6 x 6 fields, half of them light: 18 fields, 36 cells of each colour.
    assert sum(1 for f in fills.values() if f == light) == 36


def test_board_tiles_show_their_pips_on_their_cells() -> None:
    root = parse(SNAPSHOT_CASES["board-small"]())
    groups = tile_groups(root)
    assert [dots(g) for g in groups] == [11, 8]  # [5|6] and [2|6]
    left, top, cell = 22, 18, diagrams.CELL
    # [5|6] covers (0,0)-(0,1): a horizontal box two cells wide at the top-left.
    x, y, w, h = tile_box(groups[0])
    assert (x - 3, y - 3, w + 6, h + 6) == (left, top, 2 * cell, cell)  # inset 3 each side
    # [2|6] covers (2,1) and (1,1): an upright box in column 1, rows 1-2.
    x, y, w, h = tile_box(groups[1])
    assert (x - 3, y - 3, w + 6, h + 6) == (left + cell, top + cell, cell, 2 * cell)


def test_lakes_and_highlights_are_marked() -> None:
    root = parse(SNAPSHOT_CASES["board-small"]())
    lakes = [e for e in root.iter() if e.get("class") == "dk-lake"]
    assert [e.get("data-cell") for e in lakes] == ["1.0"]
    highlighted = [i for i, g in enumerate(tile_groups(root))
                   if any(e.get("class") == "dk-highlight" for e in g)]
    assert highlighted == [1]


def test_board_refuses_impossible_tiles() -> None:
    with pytest.raises(ValueError):
        diagrams.board_svg(6, 12, [BoardTile(((0, 11), (0, 12)), (1, 2))], title="off board")
    with pytest.raises(ValueError):
        diagrams.board_svg(6, 12, [BoardTile(((0, 0), (1, 1)), (1, 2))], title="diagonal")
    with pytest.raises(ValueError):
        diagrams.board_svg(6, 12, [BoardTile(((0, 0), (0, 1)), (1, 7))], title="7 pips")
    with pytest.raises(ValueError):
        diagrams.board_svg(6, 12, [], title="lake off board", lakes=[(6, 0)])


# ---------------------------------------------------------------------------- from states

FULL = [f"{a}-{b}" for a in range(7) for b in range(a, 7)]
NO_DOUBLES = [t for t in FULL if t[0] != t[2]]


def test_a_szczerbak_state_draws_its_widow() -> None:
    hands = [["1-2", "1-5", "1-6", "2-4", "2-6", "3-4", "3-5", "4-5", "4-6", "5-6"],
             ["0-1", "0-2", "0-3", "0-4", "0-5", "0-6", "1-3", "1-4", "2-5", "3-6"]]
    state = new_hand("szczerbak", Deal.from_json({"hands": hands, "widow": [2, 3]}))
    state, _ = apply_action(state, "3-6@R3")
    spec = {"kind": "chain", "ends": 1, "doubles": "inline", "layout": "straight"}
    root = parse(diagrams.state_svg(state.to_json(), spec, title="t"))
    # Widow [2|3] (dead 2) then [3|6]: 5 + 9 = 14 dots, the first tile with a dead half.
    assert dots(root) == 14
    assert len(tile_groups(root)) == 2
    assert any(e.get("class") == "dk-dead" for e in tile_groups(root)[0])


def test_a_board_state_draws_its_placements() -> None:
    hands = [["0-1", "0-2", "0-4", "0-5", "1-1", "1-2", "1-3", "1-4", "1-5", "3-4", "5-5", "5-6"],
             ["0-0", "0-3", "0-6", "1-6", "2-2", "2-3", "2-4", "2-5", "2-6", "3-3", "4-4", "4-6"]]
    out = ["3-5", "3-6", "4-5", "6-6"]
    state = new_hand("pijanowski", Deal.from_json({"hands": hands, "out_of_play": out,
                                                   "starter": 0}))
    state, _ = apply_action(state, "5-6@0.2+0.3")
    state, _ = apply_action(state, "4-6@0.5+0.4")
    spec = {"kind": "board", "rows": 6, "cols": 12}
    root = parse(diagrams.state_svg(state.to_json(), spec, title="t", highlight=[1]))
    assert [dots(g) for g in tile_groups(root)] == [11, 10]
    assert float(root.get("width", "0")) == 22 + 12 * diagrams.CELL + diagrams.MARGIN
