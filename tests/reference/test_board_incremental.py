"""Pijanowski's legal placements are kept per board and brought up around each new tile.

A board made by a placement takes what the board before it knew (each tile's placements) and
brings it up to date around the new tile instead of scanning every cell. Here the kept answer
is compared with the answer of the same board rebuilt from its placements alone (no history,
so everything is found by a scan) at every step of random hands, with play that sometimes goes
back to an earlier position and asks about either player's tiles at random, so that what a
board inherits differs from step to step. A small board worked by hand checks the update
itself, and a scan that is not allowed shows that play after the opening rescans nothing.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

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
)
from dominokit.reference import board as board_module
from dominokit.reference.board import Cell, brought_up, frontier_around, pairs_of, scan_frontier
from dominokit.reference.board_table import BoardPlacement, BoardTable
from dominokit.reference.state import evolve

SMALL: list[dict[str, object]] = [{}, {"lake_rule": "newly_enclosed"}, {"hand_size": 14}]
EXAMPLES = settings().max_examples


def rebuilt(state: HandState) -> HandState:
    """The same position with its board made from its placements alone: nothing kept."""
    table = state.table
    assert isinstance(table, BoardTable)
    return evolve(state, table=BoardTable(table.rows, table.cols, table.placements))


def tiles_of(state: HandState) -> Iterator[Tile]:
    yield from sorted(set(state.hands[0]) | set(state.hands[1]))


@pytest.mark.parametrize("options", SMALL, ids=["default", "newly_enclosed", "hand_size_14"])
@pytest.mark.rule("R-PIJ-03", "R-PIJ-04", "R-PIJ-08")
@settings(max_examples=max(1, EXAMPLES // 5))
@given(data=st.data())
def test_kept_placements_equal_a_rescan_at_every_step(options: dict[str, object],
                                                       data: st.DataObject) -> None:
    play_and_compare(options, data)


@pytest.mark.rule("R-PIJ-03", "R-PIJ-04", "R-PIJ-08", "R-PIJ-11")
@settings(max_examples=max(1, EXAMPLES // 10))  # 56-tile hands on a 12 x 12 board are long
@given(data=st.data())
def test_kept_placements_equal_a_rescan_on_the_double_set(data: st.DataObject) -> None:
    play_and_compare({"double_set": True}, data)


def play_and_compare(options: dict[str, object], data: st.DataObject) -> None:
    """Random play from a random deal; at every step the kept answers equal a rescan's."""
    rules = load_rules("pijanowski", options)
    seed = data.draw(st.integers(0, 2**32 - 1), label="seed")
    state = new_hand(rules, random_deal(rules, random.Random(seed)))
    seen = [state]
    for _ in range(3 * len(rules.tiles.tiles)):
        if state.result is not None:
            break
        fresh = rebuilt(state)
        if data.draw(st.booleans(), label="ask every tile first"):
            table, alone = state.table, fresh.table
            assert isinstance(table, BoardTable) and isinstance(alone, BoardTable)
            for tile in tiles_of(state):
                assert table.can_place(tile) == alone.can_place(tile), tile
            for player in (0, 1):
                hand = state.hands[player]
                assert table.listing(player, hand) == alone.listing(player, hand), player
        legal = legal_actions(state)
        assert legal == legal_actions(fresh)
        action = data.draw(st.sampled_from(legal), label="action")
        after, events = apply_action(state, action)
        again, events_again = apply_action(fresh, action)  # the block check asks both hands
        assert after.to_json() == again.to_json() and events == events_again
        seen.append(after)
        if data.draw(st.integers(0, 7), label="go back") == 0:
            after = seen[data.draw(st.integers(0, len(seen) - 1), label="to")]
        state = after


def test_tiles_listed_on_an_earlier_board_are_listed_afresh_on_a_branch() -> None:
    # one board, two different next placements: each child brings its own answer up
    rules = load_rules("pijanowski")
    state = new_hand(rules, random_deal(rules, random.Random(5)))
    for _ in range(6):
        state = apply_action(state, legal_actions(state)[0])[0]
    legal = legal_actions(state)
    for action in (legal[0], legal[-1], legal[len(legal) // 2]):
        child = apply_action(state, action)[0]
        assert legal_actions(child) == legal_actions(rebuilt(child))


# A 3x3 board worked by hand. Board A holds 1-2 (the 1 on (1,0), the 2 on (1,1)):
#     . . .        empty cells and what they need: (0,0) under the 1 -> 1; (0,1) and (1,2)
#     1 2 .        and (2,1) next to the 2 -> 2; (2,0) -> 1; (0,2) and (2,2) touch nothing.
#     . . .
# Tile 1-2 (low 1, high 2) on A, pair by pair (low cell first):
#   (0,0)-(0,1): 1 on a 1-cell, 2 on a 2-cell            -> ((0,0),(0,1))
#   (0,1)-(0,2): the 1 cannot go on (0,1); 1 on (0,2)     -> ((0,2),(0,1))
#   (0,2)-(1,2): 1 on (0,2), 2 on (1,2)                   -> ((0,2),(1,2))
#   (1,2)-(2,2): 1 on (2,2), 2 on (1,2)                   -> ((2,2),(1,2))
#   (2,0)-(2,1): 1 on (2,0), 2 on (2,1)                   -> ((2,0),(2,1))
#   (2,1)-(2,2): 1 on (2,2), 2 on (2,1)                   -> ((2,2),(2,1))
A_ONE_TWO = [((0, 0), (0, 1)), ((0, 2), (0, 1)), ((0, 2), (1, 2)), ((2, 0), (2, 1)),
             ((2, 2), (1, 2)), ((2, 2), (2, 1))]
# Board B adds 2-3, the 2 on (1,2) (it needs 2) and the 3 on (0,2):
#     . . 3        (0,1) now touches the 2 below and the 3 beside it: nothing fits there;
#     1 2 2        (2,2) now needs 2; (0,0), (2,0), (2,1) are as before.
#     . . .
# Tile 1-2 on B: (0,0)-(0,1) clashes; (2,0)-(2,1) stays; (2,1)-(2,2) needs 2 and 2 -> no 1.
B_ONE_TWO = [((2, 0), (2, 1))]
# Tile 2-2 on B: only (2,1)-(2,2), both cells needing 2 (a double is listed row-major).
B_TWO_TWO = [((2, 1), (2, 2))]


def hand_worked() -> tuple[BoardTable, BoardTable]:
    a = BoardTable(3, 3, (BoardPlacement(0, ((1, 0), (1, 1)), (1, 2)),))
    return a, a.with_placement(BoardPlacement(1, ((1, 2), (0, 2)), (2, 3)))


@pytest.mark.rule("R-PIJ-03", "R-PIJ-04")
def test_a_placement_replaces_only_the_pairs_around_it() -> None:
    a, b = hand_worked()
    before = brought_up((), scan_frontier(a.grid, False), 1, 2)
    assert pairs_of(before, 3, 3) == A_ONE_TWO
    front = frontier_around(b.grid, [(1, 2), (0, 2)])
    # replaced: every pair with a cell among the new cells and their empty neighbours, and
    # nothing farther than a neighbour of a new cell (here the tiled (1,1))
    replaced = pairs_of(sorted(front.replaces or ()), 3, 3)
    near: set[Cell] = {(1, 2), (0, 2), (0, 1), (2, 2)}
    assert {cell for pair in replaced for cell in pair} >= near
    assert all(set(pair) & (near | {(1, 1)}) for pair in replaced)
    assert pairs_of(brought_up(before, front, 1, 2), 3, 3) == B_ONE_TWO
    assert pairs_of(brought_up((), scan_frontier(b.grid, False), 1, 2), 3, 3) == B_ONE_TWO


@pytest.mark.rule("R-PIJ-03", "R-PIJ-04")
def test_a_board_made_from_one_that_knew_rescans_nothing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    a, b = hand_worked()
    one_two, two_two = Tile(1, 2), Tile(2, 2)
    assert [x.cells for x in a.listing(0, (one_two,))] == A_ONE_TWO
    assert a.can_place(two_two)  # e.g. (0,1)-(0,2): 2 next to the 2, the other cell free

    def no_scan(*_: object) -> None:
        raise AssertionError("the board was scanned")

    monkeypatch.setattr(board_module, "scan_frontier", no_scan)
    assert [x.cells for x in b.listing(0, (one_two,))] == B_ONE_TWO
    assert b.can_place(two_two)  # asked on board A: brought up, not scanned
    assert [x.cells for x in b.listing(1, (two_two,))] == B_TWO_TWO
    with pytest.raises(AssertionError, match="scanned"):
        b.can_place(Tile(0, 0))  # asked on no board before: only a scan can answer


@pytest.mark.parametrize("options", [{}, {"double_set": True}], ids=["6x12", "12x12"])
def test_play_after_the_second_placement_rescans_nothing(
        options: dict[str, object], monkeypatch: pytest.MonkeyPatch) -> None:
    # one scan serves every tile of a board; a tile first asked on the empty board (where any
    # pair qualified, R-PIJ-03) or not asked on the first tiled board is found by a scan on
    # the first or second tiled board, and from then on only brought up
    rules = load_rules("pijanowski", options)
    rng = random.Random(11)
    scanned: list[int] = []
    scan = board_module.scan_frontier

    def counted(grid: board_module.Grid, first: bool) -> board_module.Frontier:
        scanned.append(sum(cell is not None for row in grid for cell in row) // 2)
        return scan(grid, first)

    monkeypatch.setattr(board_module, "scan_frontier", counted)
    state = new_hand(rules, random_deal(rules, rng))
    placed = 0
    while state.result is None:
        legal = legal_actions(state)
        action = legal[rng.randrange(len(legal))]
        placed += action.cells is not None
        state = apply_action(state, action)[0]
    assert placed > 10
    assert scanned[:2] == [0, 1] and set(scanned) <= {0, 1, 2}
    assert len(scanned) == len(set(scanned))  # at most one scan per board
