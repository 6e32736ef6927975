"""A board table is a plain immutable value; what is known about it lives in a memo beside it.

Equal placements make equal boards whatever their history; no state, table or event can be
written once built; and the memo of worked-out placements holds boards weakly, so a board
nobody keeps is forgotten there too.
"""

from __future__ import annotations

import dataclasses
import gc
import random

import pytest

from dominokit.reference import apply_action, legal_actions, load_rules, new_hand, random_deal
from dominokit.reference.board_table import MEMO, BoardPlacement, BoardTable
from dominokit.reference.chain import ChainTable
from dominokit.reference.state import Event, HandState


def played(seed: int, actions: int) -> HandState:
    rules = load_rules("pijanowski")
    rng = random.Random(seed)
    state = new_hand(rules, random_deal(rules, rng))
    for _ in range(actions):
        legal = legal_actions(state)
        state = apply_action(state, legal[rng.randrange(len(legal))])[0]
    return state


def test_a_board_is_its_placements_whatever_its_history() -> None:
    table = played(3, 12).table
    assert isinstance(table, BoardTable)
    alone = BoardTable(table.rows, table.cols, table.placements)
    assert alone == table and hash(alone) == hash(table) and alone.grid == table.grid


def test_no_value_can_be_written_once_built() -> None:
    state = played(4, 3)
    with pytest.raises(dataclasses.FrozenInstanceError):
        state.passes = 5  # type: ignore[misc]
    board = BoardTable(2, 2).with_placement(BoardPlacement(0, ((0, 0), (0, 1)), (1, 2)))
    with pytest.raises(dataclasses.FrozenInstanceError):
        board.placements = ()  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        ChainTable().left = 3  # type: ignore[misc]
    with pytest.raises(AttributeError):
        Event("pass", player=0).player = 1  # type: ignore[misc]
    assert not hasattr(state, "__dict__") and not hasattr(board, "_kept")


def test_the_memo_forgets_a_board_nobody_keeps() -> None:
    gc.collect()
    before = len(MEMO)
    state = played(5, 20)
    assert len(MEMO) > before  # the boards played on were worked out and remembered
    del state
    gc.collect()
    assert len(MEMO) == before
