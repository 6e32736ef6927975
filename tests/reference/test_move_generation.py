"""The fast paths of move generation list exactly what the plain definitions list.

``board.placements`` looks placements up by what each pair of cells needs; here it is compared
with ``board_plain.legal_placements``, the scan of every pair of cells in both orders through
``contact_violation`` (the rule check the engine cites), on random boards grown by legal play.
Actions built without the shape check are the very values the checked constructors build.
"""

from __future__ import annotations

import random

import pytest

from dominokit.reference import Action, Tile
from dominokit.reference.board import can_place, placements
from dominokit.reference.board_plain import Grid, empty_grid, legal_placements, place
from dominokit.reference.notation import board_actions, chain_action


def grown(rng: random.Random, rows: int, cols: int, tiles: int) -> Grid:
    """A board after up to ``tiles`` random legal placements of random tiles."""
    grid = empty_grid(rows, cols)
    first = True
    for _ in range(tiles):
        low = rng.randrange(7)
        high = rng.randrange(low, 7)
        options = placements(grid, low, high, first)
        if options:
            grid = place(grid, rng.choice(options), (low, high))
            first = False
    return grid


@pytest.mark.rule("R-PIJ-03", "R-PIJ-04")
@pytest.mark.parametrize("seed", range(12))
def test_placements_are_the_pairs_contact_rules_allow(seed: int) -> None:
    rng = random.Random(seed)
    rows, cols = (6, 12) if seed % 3 else (12, 12)
    for tiles in (0, 3, 12, 30):
        grid = grown(rng, rows, cols, tiles)
        first = all(cell is None for row in grid for cell in row)
        for low in range(7):
            for high in range(low, 7):
                listed = placements(grid, low, high, first)
                assert listed == legal_placements(grid, low, high, first), (seed, tiles, low, high)
                assert can_place(grid, low, high, first) == bool(listed)


def test_placements_are_found_afresh_for_each_board() -> None:
    # the lookup is cached per grid: a new tile must change what a 2x3 board allows
    grid = empty_grid(2, 3)
    assert len(placements(grid, 1, 2, first=True)) == 14  # 7 pairs (4 across, 3 down) x 2
    after = place(grid, ((0, 0), (0, 1)), (1, 2))
    # Empty cells and what they need: (0,2) touches the 2 -> 2; (1,0) under the 1 -> 1;
    # (1,1) under the 2 -> 2; (1,2) touches no tile -> anything. Tile 1-2 (low 1, high 2):
    # (1,0)+(1,1): 1 on a 1-cell, 2 on a 2-cell -> fits; the other way round does not.
    # (1,1)-(1,2): the 1 cannot go on (1,1); 2 on (1,1), 1 on (1,2) -> fits.
    # (0,2)-(1,2): the 1 cannot go on (0,2); 2 on (0,2), 1 on (1,2) -> fits.
    assert placements(after, 1, 2, first=False) == [
        ((1, 0), (1, 1)), ((1, 2), (0, 2)), ((1, 2), (1, 1))]
    assert not can_place(after, 5, 5, first=False)


@pytest.mark.parametrize("tile", [Tile(2, 5), Tile(3, 3), Tile(0, 6)])
def test_unchecked_board_actions_equal_checked_ones(tile: Tile) -> None:
    pairs = [((0, 0), (0, 1)), ((1, 0), (0, 0)), ((4, 7), (5, 7)), ((5, 11), (5, 10))]
    built = board_actions(tile, pairs)
    checked = [Action.board(tile, a, b) for a, b in pairs]
    assert built == checked
    for action, other in zip(built, checked, strict=True):
        assert hash(action) == hash(other)
        assert str(action) == str(other)
        assert Action.parse(str(action)) == action
        assert action.sort_key() == other.sort_key()


def test_unchecked_chain_actions_equal_checked_ones() -> None:
    for tile in (Tile(1, 4), Tile(6, 6)):
        for end in ("L", "R"):
            for touch in {tile.low, tile.high}:
                built = chain_action(tile, end, touch)
                assert built == Action.chain(tile, end, touch)
                assert Action.parse(str(built)) == built


def test_a_tile_the_notation_cannot_write_is_refused_as_before() -> None:
    # pips go up to 6 in the notation; the checked constructors refuse more, and so do these
    with pytest.raises(ValueError, match="pips go up to 6"):
        board_actions(Tile(2, 7), [((0, 0), (0, 1))])
    with pytest.raises(ValueError, match="pips go up to 6"):
        chain_action(Tile(7, 7), "L", 7)
