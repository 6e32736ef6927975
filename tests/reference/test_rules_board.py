"""Turn structure of Pijanowski's board game: where a tile may go, passing, deals and boards.

Counts and legal sets are worked out by hand from R-PIJ-01..04 and R-PIJ-11; the comments say
how. Whole-hand endings (block, domino, the extra tile) are in test_scoring.py.
"""

from __future__ import annotations

import pytest

from dominokit.reference import DealError, apply_action, legal_actions, new_hand
from tests.positions import FULL_SET, board_deal, legal, play, rest


def domino_positions(rows: int, cols: int) -> int:
    """Pairs of edge-adjacent cells on a rows x cols board: rows*(cols-1) + (rows-1)*cols."""
    return rows * (cols - 1) + (rows - 1) * cols


@pytest.mark.rule("R-PIJ-01", "R-PIJ-02", "R-PIJ-03", "R-ALL-09")
def test_first_tile_goes_anywhere_on_the_6_by_12_board() -> None:
    p0, p1 = list(FULL_SET[:12]), list(FULL_SET[12:24])
    state = new_hand("pijanowski", board_deal(p0, p1))
    assert (state.to_json()["table"]["rows"], state.to_json()["table"]["cols"]) == (6, 12)
    # 6 x 11 horizontal + 5 x 12 vertical = 126 places; a non-double goes either way round
    # (252 actions), a double once (126). Player 0 holds [0|0], [1|1] and ten non-doubles.
    assert domino_positions(6, 12) == 126
    actions = legal_actions(state)
    assert len(actions) == 10 * 252 + 2 * 126
    assert len({str(a) for a in actions}) == len(actions)
    assert "1-5@5.11+4.11" in legal(state)  # the far corner, vertical


@pytest.mark.rule("R-PIJ-02", "R-PIJ-03")
def test_first_tile_count_with_hand_size_14() -> None:
    p0 = list(FULL_SET[:14])  # 0-0..0-6, 1-1..1-6, 2-2: three doubles, eleven non-doubles
    state = new_hand("pijanowski", board_deal(p0, FULL_SET[14:]), {"hand_size": 14})
    assert len(legal_actions(state)) == 11 * 252 + 3 * 126


@pytest.mark.rule("R-PIJ-11", "R-PIJ-01", "R-PIJ-03")
def test_first_tile_count_on_the_double_set_board() -> None:
    state = new_hand("pijanowski", board_deal(FULL_SET, FULL_SET), {"double_set": True})
    table = state.to_json()["table"]
    assert (table["rows"], table["cols"]) == (12, 12)
    assert state.to_json()["out_of_play"] == []
    # 12 x 11 + 11 x 12 = 264 places; 21 non-doubles x 2 x 264 + 7 doubles x 264.
    assert domino_positions(12, 12) == 264
    assert len(legal_actions(state)) == 21 * 528 + 7 * 264
    assert "5-6@11.11+10.11" in legal(state)  # row 11 exists only on the big board


# After player 0 opens with [1|2] on (2,4),(2,5), player 1 holds [2|3], [2|2], [1|4] and nine
# tiles without a 1 or a 2, which can touch nothing on the board.
CONTACT_P1 = ["1-4", "2-2", "2-3", "0-0", "0-3", "0-4", "0-5", "0-6", "3-3", "3-4", "3-5",
              "3-6"]
CONTACT_P0 = ["0-1", "0-2", "1-1", "1-2", "1-3", "1-5", "1-6", "2-4", "2-5", "2-6", "4-4",
              "4-5"]
CONTACT_EXPECTED = {
    # [2|3]: the 2 on a free neighbour of the 2 at (2,5) -- (1,5), (3,5) or (2,6) -- and the 3
    # on a free neighbour of that cell not touching the 1 at (2,4), so not (1,4) or (3,4).
    "2-3@1.5+0.5", "2-3@1.5+1.6", "2-3@3.5+4.5", "2-3@3.5+3.6",
    "2-3@2.6+1.6", "2-3@2.6+3.6", "2-3@2.6+2.7",
    # [2|2]: the same seven cell pairs, each once, cells in row-major order.
    "2-2@0.5+1.5", "2-2@1.5+1.6", "2-2@3.5+4.5", "2-2@3.5+3.6",
    "2-2@1.6+2.6", "2-2@2.6+3.6", "2-2@2.6+2.7",
    # [1|4]: the 1 on (1,4), (3,4) or (2,3) beside the 1 at (2,4); the 4 anywhere free that
    # touches no 2, so not (1,5) or (3,5).
    "1-4@1.4+0.4", "1-4@1.4+1.3", "1-4@3.4+4.4", "1-4@3.4+3.3",
    "1-4@2.3+1.3", "1-4@2.3+3.3", "1-4@2.3+2.2",
}


@pytest.mark.rule("R-PIJ-03", "R-PIJ-04", "R-ALL-07")
def test_contacts_after_the_first_tile() -> None:
    assert sorted([*CONTACT_P0, *CONTACT_P1]) == sorted(rest(FULL_SET, ["4-6", "5-5", "5-6",
                                                                        "6-6"]))
    state = new_hand("pijanowski",
                     board_deal(CONTACT_P0, CONTACT_P1, ["4-6", "5-5", "5-6", "6-6"]))
    state = play(state, ["1-2@2.4+2.5"])
    assert len(CONTACT_EXPECTED) == 21
    # Placements exist, so no pass (R-ALL-07); no drawing in this game.
    assert legal(state) == CONTACT_EXPECTED
    for action in sorted(CONTACT_EXPECTED):
        after, events = apply_action(state, action)
        assert [e.type for e in events] == ["place"]
        assert len(after.to_json()["table"]["placements"]) == 2
        assert after.to_move == 0


@pytest.mark.rule("R-PIJ-04", "R-PIJ-03")
def test_a_tile_must_match_every_neighbour() -> None:
    p0 = ["1-2", "2-3", "0-0", "0-1", "0-2", "0-3", "0-4", "0-5", "0-6", "1-1", "1-3", "1-4"]
    p1 = ["2-4", "3-4", "1-5", "1-6", "2-2", "2-5", "2-6", "3-3", "3-5", "3-6", "4-4", "4-5"]
    state = new_hand("pijanowski", board_deal(p0, p1))
    # Player 0: [1|2] on (2,2),(2,3); player 1: [2|4] on (2,4),(2,5), its 2 beside the 2.
    state = play(state, ["1-2@2.2+2.3", "2-4@2.4+2.5"])
    # [2|3] with its 2 on (1,3) over the 2 at (2,3) and its 3 on (1,4) over the 2 at (2,4):
    # the 3 touches a 2, refused. With the 3 on (0,3), touching nothing, it is fine.
    assert "2-3@1.3+1.4" not in legal(state)
    assert "2-3@1.3+0.3" in legal(state)
    # Diagonals do not touch: a 2 on (3,3), under the 2 at (2,3), has the 1 at (2,2) only
    # diagonally, so [2|3] fits there with its 3 on (4,3).
    assert "2-3@3.3+4.3" in legal(state)
    state = play(state, ["2-3@1.3+0.3"])
    # Player 1's [3|4] with its 4 on (1,5), over the 4 at (2,5): the 3 may go on (0,5) or
    # (1,6), not on (1,4), which touches the 2s at (1,3) and (2,4).
    fours = {a for a in legal(state) if a.startswith("3-4@") and a.endswith("+1.5")}
    assert fours == {"3-4@0.5+1.5", "3-4@1.6+1.5"}
    # (1,4) touches the 2s at (1,3) and (2,4), so only a 2 goes there; its partner would lie on
    # (0,4), beside the 3 at (0,3), or on (1,5), over the 4 at (2,5): [2|3] or [2|4], both
    # already on the board. So nothing can cover (1,4).
    assert not {a for a in legal(state) if "1.4" in a}


@pytest.mark.rule("R-PIJ-08", "R-ALL-07", "R-ALL-13")
def test_a_player_who_cannot_place_passes() -> None:
    # Player 1 holds twelve tiles without a 1 or a 2; the board shows only a 1 and a 2.
    p1 = ["0-0", "0-3", "0-4", "0-5", "0-6", "3-3", "3-4", "3-5", "3-6", "4-4", "4-5", "4-6"]
    p0 = ["1-2", "0-1", "0-2", "1-1", "1-3", "1-4", "1-5", "1-6", "2-2", "2-3", "2-4", "2-5"]
    state = new_hand("pijanowski", board_deal(p0, p1))
    state = play(state, ["1-2@0.0+0.1"])
    assert legal(state) == {"pass"}
    state = play(state, ["pass"])
    assert state.result is None  # player 0 can still place: no block
    assert state.to_move == 0
    assert "pass" not in legal(state)


@pytest.mark.rule("R-PIJ-02", "R-PIJ-11")
def test_pijanowski_deals_are_checked() -> None:
    twelve = board_deal(FULL_SET[:12], FULL_SET[12:24])  # 4 tiles out of play
    fourteen = board_deal(FULL_SET[:14], FULL_SET[14:])
    new_hand("pijanowski", twelve)
    new_hand("pijanowski", fourteen, {"hand_size": 14})
    with pytest.raises(DealError, match="R-PIJ-02"):
        new_hand("pijanowski", fourteen)
    with pytest.raises(DealError, match="R-PIJ-02"):
        new_hand("pijanowski", twelve, {"hand_size": 14})
    # The double set: each player holds one full set of 28; one set each is not enough.
    double = board_deal(FULL_SET, FULL_SET)
    new_hand("pijanowski", double, {"double_set": True})
    with pytest.raises(DealError):
        new_hand("pijanowski", twelve, {"double_set": True})
    with pytest.raises(DealError):
        new_hand("pijanowski", double)
