"""The engine's fast board answers are the plain definitions' answers, action by action.

``board_plain`` states the board rules directly: every pair of cells through the contact rules
(R-PIJ-03/04), every region of the board before and after a placement (R-PIJ-06). Here random
hands of every board variant are played under every value of every option (lake_rule,
hand_size, double_set), sometimes going back to an earlier position so that what a board
inherits from the one before varies, and at every step:

- the placements among ``legal_actions`` are the plain legal placements of the mover's hand;
- ``BoardTable.can_place`` answers as the plain definition does for every tile of both hands
  (the block end condition asks this);
- the lake events of the action are the plain new lakes of that placement, each scoring its
  cells times the points per cell, under the rule the spec names.

The plain functions are also checked on their own: the list of placements against the rule
asked of one placement at a time (``contact_violation``), and both against boards worked by
hand.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dominokit.reference import (
    HandState,
    Tile,
    apply_action,
    legal_actions,
    load_rules,
    new_hand,
    random_deal,
    variant_ids,
)
from dominokit.reference.board_plain import (
    LAKE_MODES,
    Cell,
    Grid,
    contact_violation,
    empty_grid,
    lakes,
    legal_placements,
    neighbours,
    place,
    placements_of_tiles,
    regions,
)
from dominokit.reference.board_table import BoardTable
from dominokit.spec.spec import load_variant

EXAMPLES = settings().max_examples


def board_option_sets() -> list[tuple[str, dict[str, object]]]:
    """(variant, options) of every board variant: its defaults, then each other value of
    each option on its own."""
    out: list[tuple[str, dict[str, object]]] = []
    for variant in variant_ids():
        if not load_rules(variant).is_board:
            continue
        out.append((variant, {}))
        for name, spec in load_variant(variant).options.items():
            out += [(variant, {name: value}) for value in spec.values if value != spec.default]
    return out


OPTION_SETS = board_option_sets()


def plain_placements(state: HandState) -> dict[Tile, list[tuple[Cell, Cell]]]:
    """Each tile of either hand: its legal placements by the plain definition."""
    table = state.table
    assert isinstance(table, BoardTable)
    tiles = sorted(set(state.hands[0]) | set(state.hands[1]))
    found = placements_of_tiles(table.grid, [(t.low, t.high) for t in tiles], table.empty)
    return {tile: found[tile.low, tile.high] for tile in tiles}


def play_and_compare(variant: str, options: dict[str, object], data: st.DataObject) -> int:
    """Random play from a random deal, comparing with the plain definitions at every step;
    the number of placements compared."""
    rules = load_rules(variant, options)
    lake_rule = rules.lakes
    seed = data.draw(st.integers(0, 2**32 - 1), label="seed")
    state = new_hand(rules, random_deal(rules, random.Random(seed)))
    seen = [state]
    placed = 0
    for _ in range(3 * len(rules.tiles.tiles)):
        if state.result is not None:
            break
        table = state.table
        assert isinstance(table, BoardTable)
        assert state.to_move is not None
        plain = plain_placements(state)
        if data.draw(st.booleans(), label="ask every tile first"):
            for tile in sorted(plain):
                assert table.can_place(tile) == bool(plain[tile]), tile
        legal = legal_actions(state)
        listed: dict[Tile, list[tuple[Cell, Cell]]] = {t: [] for t in state.hands[state.to_move]}
        for action in legal:
            if action.cells is not None:
                assert action.tile is not None
                listed[action.tile].append(action.cells)
        assert listed == {tile: plain[tile] for tile in listed}
        if not data.draw(st.booleans(), label="asked"):  # the block check's own questions
            for tile in sorted(plain):
                assert table.can_place(tile) == bool(plain[tile]), tile
        action = data.draw(st.sampled_from(legal), label="action")
        after, events = apply_action(state, action)
        got = [(e.cells, e.points, e.rule) for e in events if e.type == "lake"]
        if action.cells is not None:
            placed += 1
            after_table = after.table
            assert isinstance(after_table, BoardTable)
            expected = [] if lake_rule is None else [
                (lake, len(lake) * lake_rule.points_per_cell, lake_rule.rule)
                for lake in lakes(table.grid, after_table.grid, lake_rule.max_cells,
                                  lake_rule.mode)]
            assert got == expected, action
        else:
            assert got == []
        seen.append(after)
        if data.draw(st.integers(0, 7), label="go back") == 0:
            after = seen[data.draw(st.integers(0, len(seen) - 1), label="to")]
        state = after
    return placed


@pytest.mark.rule("R-PIJ-03", "R-PIJ-04", "R-PIJ-06", "R-PIJ-08", "R-PIJ-11")
@pytest.mark.parametrize(("variant", "options"), OPTION_SETS,
                         ids=[f"{v}-{'-'.join(f'{k}={x}' for k, x in o.items()) or 'default'}"
                              for v, o in OPTION_SETS])
@settings(max_examples=max(1, EXAMPLES // 10))  # a 56-tile hand on 12 x 12 is long
@given(data=st.data())
def test_fast_answers_are_the_plain_ones_at_every_step(
        variant: str, options: dict[str, object], data: st.DataObject) -> None:
    assert play_and_compare(variant, options, data) > 0


def test_every_board_option_value_is_played() -> None:
    # the option sets above reach both lake readings, both hand sizes and the double set
    assert ("pijanowski", {}) in OPTION_SETS
    values = {(name, value) for _, options in OPTION_SETS for name, value in options.items()}
    assert {("lake_rule", "newly_enclosed"), ("hand_size", 14), ("double_set", True)} <= values
    assert set(LAKE_MODES) == {"new_region", "newly_enclosed"}


# ---------------------------------------------------------------- the plain rules by hand


def drawn(text: str) -> tuple[tuple[int | None, ...], ...]:
    """A grid from a drawing: ``.`` empty, a digit the pips on that cell."""
    return tuple(tuple(None if ch == "." else int(ch) for ch in line)
                 for line in text.split())


def one_by_one(grid: Grid, low: int, high: int, first: bool) -> list[tuple[Cell, Cell]]:
    """Every ordered pair of edge-adjacent cells that ``contact_violation`` allows (a double's
    in row-major order only): the rule asked of one placement at a time."""
    rows, cols = len(grid), len(grid[0])
    return sorted(
        ((r, c), other) for r in range(rows) for c in range(cols)
        for other in neighbours(grid, (r, c))
        if not (low == high and other < (r, c))
        and contact_violation(grid, ((r, c), other), (low, high), first) is None)


@pytest.mark.rule("R-PIJ-03", "R-PIJ-04")
@pytest.mark.parametrize("seed", range(4))
def test_the_list_of_placements_is_the_rule_asked_of_each_placement(seed: int) -> None:
    # boards grown by random legal play; every tile, at every size of board tried
    rng = random.Random(seed)
    rows, cols = (6, 12) if seed % 2 else (12, 12)
    grid, first = empty_grid(rows, cols), True
    for placed in range(40):
        if placed % 10 == 0:
            for low in range(7):
                for high in range(low, 7):
                    assert legal_placements(grid, low, high, first) == one_by_one(
                        grid, low, high, first), (seed, placed, low, high)
        low = rng.randrange(7)
        high = rng.randrange(low, 7)
        options = legal_placements(grid, low, high, first)
        if options:
            grid, first = place(grid, rng.choice(options), (low, high)), False


@pytest.mark.rule("R-PIJ-03", "R-PIJ-04")
def test_plain_placements_on_a_board_worked_by_hand() -> None:
    # . . .     one tile, 1-2: the 1 on (1,0), the 2 on (1,1). What each empty cell needs:
    # 1 2 .     (0,0) and (2,0) a 1; (0,1), (2,1) and (1,2) a 2; (0,2) and (2,2) nothing.
    # . . .     Tile 1-2 (low 1, high 2), pair by pair, low cell first:
    #   (0,0)-(0,1): 1 on a 1-cell, 2 on a 2-cell         -> ((0,0),(0,1))
    #   (0,1)-(0,2): the 1 cannot go on (0,1); 1 on (0,2)  -> ((0,2),(0,1))
    #   (0,2)-(1,2): 1 on (0,2), 2 on (1,2)                -> ((0,2),(1,2))
    #   (2,0)-(2,1): 1 on (2,0), 2 on (2,1)                -> ((2,0),(2,1))
    #   (1,2)-(2,2) and (2,1)-(2,2): the 1 on (2,2)        -> ((2,2),(1,2)), ((2,2),(2,1))
    #   (0,0)-(1,0)... every other pair holds a tiled cell or puts a half on a cell needing
    #   the other pip
    grid = drawn("... 12. ...")
    assert legal_placements(grid, 1, 2, first=False) == [
        ((0, 0), (0, 1)), ((0, 2), (0, 1)), ((0, 2), (1, 2)), ((2, 0), (2, 1)),
        ((2, 2), (1, 2)), ((2, 2), (2, 1))]
    # 5-5 would touch a 1 or a 2 wherever it touches anything
    assert legal_placements(grid, 5, 5, first=False) == []
    # the first tile goes on any two adjacent cells; a double once, cells in row-major order
    assert legal_placements(drawn(".. .."), 3, 3, first=True) == [
        ((0, 0), (0, 1)), ((0, 0), (1, 0)), ((0, 1), (1, 1)), ((1, 0), (1, 1))]


@pytest.mark.rule("R-PIJ-06")
def test_plain_lakes_under_both_readings() -> None:
    # a 1x6 strip: a tile on cells 2-3 leaves regions {0,1} and {4,5}: both new, both of at
    # most 4 cells, and both lay in the one region of 6 cells before (newly_enclosed too)
    before = empty_grid(1, 6)
    after = place(before, ((0, 2), (0, 3)), (1, 1))
    left: tuple[Cell, ...] = ((0, 0), (0, 1))
    right: tuple[Cell, ...] = ((0, 4), (0, 5))
    assert lakes(before, after, 4, "new_region") == [left, right]
    assert lakes(before, after, 4, "newly_enclosed") == [left, right]
    # a tile on cells 3-4 leaves {0,1,2} and {5}; a tile then put on 1-2, inside the old lake
    # {0,1,2}, leaves {0}: a new region (new_region scores it), but it lay in a region of 3
    # cells before, not of more than 4 (newly_enclosed does not)
    mid = place(before, ((0, 3), (0, 4)), (1, 1))
    assert regions(mid) == [frozenset({(0, 0), (0, 1), (0, 2)}), frozenset({(0, 5)})]
    assert lakes(before, mid, 4, "new_region") == [((0, 0), (0, 1), (0, 2)), ((0, 5),)]
    one = place(mid, ((0, 1), (0, 2)), (1, 1))
    assert lakes(mid, one, 4, "new_region") == [((0, 0),)]
    assert lakes(mid, one, 4, "newly_enclosed") == []
    with pytest.raises(ValueError, match="unknown lake mode"):
        lakes(before, after, 4, "enclosed")
