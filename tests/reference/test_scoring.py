"""Hand scoring, case by case, with every expected number worked out by hand from the rulings.

Positions come from explicit deals (R-ALL-03) and explicit actions; each action is first
checked to be in the engine's legal list. The comments give the arithmetic.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from dominokit.reference import Event, HandState, legal_actions, new_hand
from tests.positions import (
    FULL_SET,
    NO_DOUBLES,
    board_deal,
    chain_deal,
    legal,
    play,
    play_events,
    rest,
    widow_deal,
)


def result(state: HandState) -> dict[str, Any]:
    """The hand result's JSON (the hand must be over)."""
    data = state.to_json()["result"]
    assert data is not None, "the hand is not over"
    assert isinstance(data, dict)
    return data


def terms(state: HandState) -> list[tuple[str, int, int, str]]:
    """The result's scoring terms as (term, player, points, rule)."""
    return [(t["term"], t["player"], t["points"], t["rule"]) for t in result(state)["terms"]]


# --- Poldomino: domino, bonuses, catches ------------------------------------------------------

def solo_run(opening: str, plays: Sequence[str]) -> list[str]:
    """Player 0 opens and plays ``plays`` while player 1 passes in between: passing is always
    legal in Poldomino (R-POL-03), and each placement resets the pass count (R-POL-05)."""
    actions = [opening]
    for action in plays:
        actions += ["pass", action]
    return actions


@pytest.mark.rule("R-POL-06", "R-POL-07", "R-POL-08")
def test_poldomino_domino_base_score_without_bonus() -> None:
    # [6|6] is played first, not last, so it earns nothing (R-POL-08 counts the last tile).
    p0 = ["2-3", "3-4", "4-5", "5-6", "6-6"]
    p1 = ["0-0", "0-1", "0-2", "1-1", "1-2"]
    state = new_hand("poldomino", chain_deal(p0, p1))
    state = play(state, solo_run("6-6", ["5-6@R6", "4-5@R5", "3-4@R4", "2-3@R3"]))
    # Player 1 keeps 0 + 1 + 2 + 2 + 3 = 8 pips; player 0 none: 8 - 0 = 8.
    assert result(state)["winner"] == 0
    assert result(state)["reason"] == "domino"
    assert result(state)["pips"] == [0, 8]
    assert result(state)["points"] == [8, 0]
    assert terms(state) == [("opponent_pips", 0, 8, "R-POL-07")]


@pytest.mark.rule("R-POL-07", "R-POL-08")
def test_poldomino_going_out_with_double_blank_adds_60() -> None:
    p0 = ["0-0", "0-4", "1-2", "2-3", "3-4"]
    p1 = ["1-1", "4-5", "5-5", "5-6", "6-6"]
    state = new_hand("poldomino", chain_deal(p0, p1))
    state = play(state, solo_run("1-2", ["2-3@R2", "3-4@R3", "0-4@R4", "0-0@R0"]))
    # Player 1 keeps 2 + 9 + 10 + 11 + 12 = 44; five tiles, so no catch. 44 + 60 = 104.
    assert result(state)["pips"] == [0, 44]
    assert result(state)["points"] == [104, 0]
    assert terms(state) == [("opponent_pips", 0, 44, "R-POL-07"),
                            ("last_tile_bonus", 0, 60, "R-POL-08")]


@pytest.mark.rule("R-POL-07", "R-POL-08")
def test_poldomino_going_out_with_double_six_adds_120() -> None:
    p0 = ["1-2", "2-3", "3-4", "4-6", "6-6"]
    p1 = ["0-0", "0-1", "0-5", "1-5", "5-5"]
    state = new_hand("poldomino", chain_deal(p0, p1))
    state = play(state, solo_run("1-2", ["2-3@R2", "3-4@R3", "4-6@R4", "6-6@R6"]))
    # Player 1 keeps 0 + 1 + 5 + 6 + 10 = 22 (five tiles: no catch of the [0|0]). 22 + 120.
    assert result(state)["points"] == [142, 0]
    assert terms(state) == [("opponent_pips", 0, 22, "R-POL-07"),
                            ("last_tile_bonus", 0, 120, "R-POL-08")]


# Both players place in turn; player 0 goes out on the 9th action, player 1 keeps one tile.
ALTERNATE_P0 = ["1-2", "1-3", "2-5", "3-4", "5-6"]
ALTERNATE_P1 = ["1-6", "2-3", "3-5", "4-5"]
ALTERNATE = ["1-2", "2-3@R2", "3-4@R3", "4-5@R4", "5-6@R5", "1-6@R6", "1-3@R1", "3-5@R3",
             "2-5@R5"]


@pytest.mark.parametrize(("lone", "catch_to", "points", "catch_term"), [
    # Lone [0|0]: no pips left on either side, base 0 - 0 = 0; the catch is 30.
    ("0-0", "winner", [30, 0], ("catch", 0, 30, "R-POL-09")),
    ("0-0", "loser", [0, -30], ("catch", 1, -30, "R-POL-09")),
    # Lone [6|6]: base 12 - 0 = 12; the catch is 60.
    ("6-6", "winner", [72, 0], ("catch", 0, 60, "R-POL-09")),
    ("6-6", "loser", [12, -60], ("catch", 1, -60, "R-POL-09")),
])
@pytest.mark.rule("R-POL-07", "R-POL-09")
def test_poldomino_catch_of_a_lone_double(lone: str, catch_to: str, points: list[int],
                                          catch_term: tuple[str, int, int, str]) -> None:
    state = new_hand("poldomino", chain_deal(ALTERNATE_P0, [*ALTERNATE_P1, lone]),
                     {"catch_penalty_to": catch_to})
    state = play(state, ALTERNATE)
    assert state.to_json()["hands"] == [[], [lone]]
    assert result(state)["winner"] == 0
    assert result(state)["points"] == points
    assert catch_term in terms(state)
    # The last tile was [2|5]: no bonus.
    assert not [t for t in terms(state) if t[0] == "last_tile_bonus"]


@pytest.mark.parametrize(("catch_to", "points"), [
    ("winner", [150, 0]),  # base 0 + bonus 120 for [6|6] last + catch 30 of the lone [0|0]
    ("loser", [120, -30]),  # the catch is taken from the loser instead
])
@pytest.mark.rule("R-POL-08", "R-POL-09")
def test_poldomino_bonus_and_catch_in_one_hand(catch_to: str, points: list[int]) -> None:
    p0 = ["1-2", "1-5", "3-4", "3-6", "6-6"]
    p1 = ["0-0", "1-3", "1-4", "2-3", "4-5"]
    state = new_hand("poldomino", chain_deal(p0, p1), {"catch_penalty_to": catch_to})
    state = play(state, ["1-2", "2-3@R2", "3-4@R3", "4-5@R4", "1-5@R5", "1-3@R1",
                        "3-6@R3", "1-4@L1", "6-6@R6"])
    assert state.to_json()["hands"] == [[], ["0-0"]]
    assert result(state)["points"] == points
    rules_cited = {t[3] for t in terms(state)}
    assert rules_cited == {"R-POL-08", "R-POL-09"}


@pytest.mark.parametrize(("catch_to", "points"), [
    ("winner", [71, 0]),  # base 12 - 1 = 11, plus the catch of the lone [6|6]: 60
    ("loser", [11, -60]),
])
@pytest.mark.rule("R-POL-05", "R-POL-06", "R-POL-07", "R-POL-09")
def test_poldomino_catch_after_a_mutual_pass(catch_to: str, points: list[int]) -> None:
    # A catch applies whatever the reason of the win (R-POL-09): here two passes end the hand.
    p0 = ["0-1", "1-5", "2-3", "2-4", "4-5"]
    p1 = ["1-4", "2-5", "3-4", "3-5", "6-6"]
    state = new_hand("poldomino", chain_deal(p0, p1), {"catch_penalty_to": catch_to})
    state = play(state, ["2-3", "3-4@R3", "4-5@R4", "2-5@L2", "1-5@L5", "1-4@L1", "2-4@L4",
                        "3-5@R5", "pass", "pass"])
    # Ends 2 and 3; player 0 holds [0|1] (1 pip), player 1 [6|6] (12): fewer pips win.
    assert result(state)["reason"] == "mutual_pass"
    assert result(state)["winner"] == 0
    assert result(state)["pips"] == [1, 12]
    assert result(state)["points"] == points


# --- Poldomino: blocks ---------------------------------------------------------------------

# All seven blanks end up in the chain [0|1][1|2][2|0][0|0][0|3][3|4][4|0][0|5][5|6][6|0], so
# once the stock is empty nobody can place on either blank end (R-ALL-05).
BLOCK_P0 = ["0-0", "0-5", "0-6", "1-1", "3-4"]
BLOCK_P1 = ["0-2", "0-3", "0-4", "2-2", "5-6"]
BLOCK_CHAIN = ["0-0", "0-3@R0", "3-4@R3", "0-4@R4", "0-5@R0", "5-6@R5", "0-6@R6", "0-2@L0",
               "draw", "1-2@L2", "draw", "0-1@L1"]
# The 16 tiles left in the stock after [1|2] and [0|1] have been drawn: every tile without a
# blank except [1|1], [2|2] and the three in the chain, 126 - 2 - 4 = 120 pips in all
# (the 21 blank-free tiles hold 7 x (1 + ... + 6) = 147 pips; the chain has 3 + 7 + 11 of them).
BLOCK_STOCK_TAIL = ["1-3", "1-4", "1-5", "1-6", "2-3", "2-4", "2-5", "2-6", "3-3", "3-5",
                    "3-6", "4-4", "4-5", "4-6", "5-5", "6-6"]


@pytest.mark.rule("R-ALL-05", "R-ALL-10", "R-POL-06", "R-POL-07", "R-POL-03")
def test_poldomino_block_found_right_after_the_last_draw() -> None:
    deal = chain_deal(BLOCK_P0, BLOCK_P1, ["1-2", "0-1", *BLOCK_STOCK_TAIL])
    state = new_hand("poldomino", deal)
    state = play(state, BLOCK_CHAIN)
    assert state.to_json()["table"]["left"] == 0
    assert state.to_json()["table"]["right"] == 0
    # The stock still holds 16 tiles: no block yet. Player 0 draws them all; the block is
    # checked after every draw (R-ALL-10) and holds as soon as the stock is empty.
    state = play(state, ["draw"] * 15)
    assert state.result is None
    state, events = play_events(state, ["draw"])
    assert events[-1].type == "end"
    # Player 0: [1|1] + 120 = 122 pips; player 1: [2|2] = 4. Player 1 wins 122 - 4 = 118.
    assert result(state)["reason"] == "block"
    assert result(state)["winner"] == 1
    assert result(state)["pips"] == [122, 4]
    assert result(state)["points"] == [0, 118]
    assert terms(state) == [("opponent_pips", 1, 122, "R-POL-07"),
                            ("own_pips", 1, -4, "R-POL-07")]
    assert legal_actions(state) == []


@pytest.mark.rule("R-ALL-05", "R-ALL-06", "R-POL-06")
def test_poldomino_tied_block_scores_nothing() -> None:
    # Player 0 draws 61 pips (12+10+10+9+9+6+5) and passes; player 1 draws the last 59.
    to_p0 = ["6-6", "5-5", "4-6", "4-5", "3-6", "1-5", "1-4"]
    to_p1 = rest(BLOCK_STOCK_TAIL, to_p0)
    deal = chain_deal(BLOCK_P0, BLOCK_P1, ["1-2", "0-1", *to_p0, *to_p1])
    state = new_hand("poldomino", deal)
    state = play(state, [*BLOCK_CHAIN, *["draw"] * 7, "pass", *["draw"] * 9])
    # 2 + 61 = 63 against 4 + 59 = 63: nobody wins, nobody scores (R-ALL-06).
    assert result(state)["reason"] == "block"
    assert result(state)["pips"] == [63, 63]
    assert result(state)["winner"] is None
    assert result(state)["points"] == [0, 0]
    assert result(state)["terms"] == []


@pytest.mark.rule("R-POL-05", "R-POL-06", "R-POL-07", "R-ALL-03")
def test_poldomino_mutual_pass_whatever_was_drawn() -> None:
    p0 = ["0-0", "0-1", "1-2", "3-3", "4-4"]
    p1 = ["2-6", "3-6", "5-5", "5-6", "6-6"]
    state = new_hand("poldomino", chain_deal(p0, p1, ["0-2", "0-3"]))
    state, events = play_events(state, ["1-2", "draw", "pass", "draw"])
    # Each draw takes the front of the stock (R-ALL-03).
    assert [e.to_json() for e in events if e.type == "draw"] == [
        {"type": "draw", "player": 1, "tile": "0-2"}, {"type": "draw", "player": 0, "tile": "0-3"}]
    assert state.result is None
    state = play(state, ["pass"])
    # Player 0: 0 + 1 + 6 + 8 + [0|3] 3 = 18; player 1: 8 + 9 + 10 + 11 + 12 + [0|2] 2 = 52.
    assert result(state)["reason"] == "mutual_pass"
    assert result(state)["pips"] == [18, 52]
    assert result(state)["winner"] == 0
    assert result(state)["points"] == [34, 0]


# --- Szczerbak ------------------------------------------------------------------------------

# Widow [1, 2]: its 2 faces player 1, who starts. The chain 2 -> 5 -> 0 -> 1 -> 6 -> 0 -> 1
# leaves end 1, and all four tiles that fit a 1 ([0|1], [1|2], [1|4], [1|6]) are on the table.
SZC_CHAIN = ["2-5@R2", "0-5@R5", "1-4@R4", "1-6@R1", "0-6@R6", "0-1@R0"]
SZC_PLACED_P1 = ["0-6", "1-4", "2-5"]
SZC_PLACED_P0 = ["0-1", "0-5", "1-6"]


@pytest.mark.parametrize(("p0_left", "p1_left", "winner", "points"), [
    # 2+3+4+4+6+5+6 = 30 against 8+7+8+9+9+10+11 = 62: player 0 scores 62 - 30 = 32.
    (["0-2", "0-3", "0-4", "1-3", "1-5", "2-3", "2-4"],
     ["2-6", "3-4", "3-5", "3-6", "4-5", "4-6", "5-6"], 0, [32, 0]),
    # 2+3+4+7+9+10+11 = 46 against 4+6+5+6+8+8+9 = 46: a tied block (R-ALL-06).
    (["0-2", "0-3", "0-4", "3-4", "4-5", "4-6", "5-6"],
     ["1-3", "1-5", "2-3", "2-4", "2-6", "3-5", "3-6"], None, [0, 0]),
])
@pytest.mark.rule("R-SZC-06", "R-SZC-07", "R-ALL-05", "R-ALL-06")
def test_szczerbak_block_scores_pip_difference(p0_left: list[str], p1_left: list[str],
                                               winner: int | None, points: list[int]) -> None:
    p0, p1 = [*SZC_PLACED_P0, *p0_left], [*SZC_PLACED_P1, *p1_left]
    assert sorted([*p0, *p1, "1-2"]) == sorted(NO_DOUBLES)
    state = new_hand("szczerbak", widow_deal(p0, (1, 2), p1))
    state = play(state, SZC_CHAIN)
    # [1|3] and [1|5] would touch the 1 with an odd half: they do not fit (R-SZC-04).
    assert result(state)["reason"] == "block"
    assert result(state)["winner"] == winner
    assert result(state)["points"] == points


# Widow [3, 2]: the 3 faces player 0, who starts. Player 0 places ten tiles, player 1 eight
# and passes once; each step's parity is in the comment (R-SZC-04, R-SZC-05).
SZC_DOMINO = [
    "0-3@R3",  # 3 -> 0 (blank other half)
    "0-1@R0",  # blank end: 0 touches, 1 open
    "1-2@R1",  # 1 -> 2 (odd -> even)
    "0-2@R2",  # 2 -> 0
    "1-3@R1",  # blank end: 1 touches, 3 open
    "pass",  # player 1 holds no [3|x] with x blank or even: [0|3], [3|4], [3|6] are elsewhere
    "3-4@R3",  # player 0 again: 3 -> 4
    "0-4@R4",  # 4 -> 0
    "1-5@R1",  # blank end: 1 touches, 5 open
    "0-5@R5",  # 5 -> 0
    "2-4@R4",  # blank end: 4 touches, 2 open
    "2-5@R2",  # 2 -> 5
    "4-5@R5",  # 5 -> 4
    "1-4@R4",  # 4 -> 1
    "1-6@R1",  # 1 -> 6
    "0-6@R6",  # 6 -> 0
    "3-5@R3",  # blank end: 3 touches, 5 open
    "5-6@R5",  # 5 -> 6
    "3-6@R6",  # 6 -> 3: player 0's tenth tile
]
SZC_DOMINO_P0 = ["0-3", "1-2", "1-3", "1-5", "1-6", "2-4", "3-4", "3-5", "3-6", "4-5"]
SZC_DOMINO_P1 = ["0-1", "0-2", "0-4", "0-5", "0-6", "1-4", "2-5", "2-6", "4-6", "5-6"]


@pytest.mark.rule("R-SZC-02", "R-SZC-06", "R-SZC-07")
def test_szczerbak_domino_scores_the_loser_pips() -> None:
    assert sorted([*SZC_DOMINO_P0, *SZC_DOMINO_P1, "2-3"]) == sorted(NO_DOUBLES)
    state = new_hand("szczerbak", widow_deal(SZC_DOMINO_P0, (3, 2), SZC_DOMINO_P1))
    state = play(state, SZC_DOMINO[:5])
    assert legal(state) == {"pass"}
    state = play(state, SZC_DOMINO[5:])
    # Player 1 keeps [2|6] and [4|6]: 8 + 10 = 18; player 0 none: 18 - 0 = 18.
    assert result(state)["reason"] == "domino"
    assert result(state)["winner"] == 0
    assert result(state)["pips"] == [0, 18]
    assert result(state)["points"] == [18, 0]
    assert terms(state) == [("opponent_pips", 0, 18, "R-SZC-07")]


# --- Progressive: the winner scores the loser's pips only -------------------------------------


@pytest.mark.rule("R-PRO-03", "R-PRO-04", "R-ALL-03", "R-ALL-07")
def test_progressive_domino_after_drawing_until_a_tile_fits() -> None:
    p0 = ["1-1", "1-2", "2-2", "2-3", "3-3"]
    p1 = ["4-4", "4-5", "5-5", "5-6", "6-6"]
    state = new_hand("progressive", chain_deal(p0, p1, ["4-6", "0-5", "0-1"]))
    state = play(state, ["1-1"])
    # Ends 1 and 1; player 1 has no 1, so the only action is to draw (R-PRO-03).
    assert legal(state) == {"draw"}
    state = play(state, ["draw"])  # [4|6] does not fit
    assert legal(state) == {"draw"}
    state = play(state, ["draw"])  # [0|5] does not fit
    assert legal(state) == {"draw"}
    state = play(state, ["draw"])  # [0|1] fits either end and must be placed
    assert legal(state) == {"0-1@L1", "0-1@R1"}
    state = play(state, ["0-1@R1", "1-2@L1", "0-5@R0", "2-2@L2", "5-5@R5", "2-3@L2",
                        "4-5@R5", "3-3@L3"])
    # Player 1 keeps [4|4] 8, [5|6] 11, [6|6] 12, [4|6] 10 = 41; player 0 scores 41.
    assert result(state)["reason"] == "domino"
    assert result(state)["pips"] == [0, 41]
    assert result(state)["points"] == [41, 0]
    assert terms(state) == [("opponent_pips", 0, 41, "R-PRO-04")]


@pytest.mark.rule("R-PRO-04", "R-ALL-05", "R-PRO-01")
def test_progressive_block_scores_loser_pips_without_subtracting() -> None:
    # Round 1 deal 10 gives 14 tiles each and no stock (R-PRO-01). The ten-tile blank chain of
    # the Poldomino block ends both ends on 0 with all seven blanks used.
    p0_left = ["1-1", "1-3", "1-4", "1-5", "1-6", "2-2", "2-3", "2-4", "2-5"]
    p1_left = ["2-6", "3-3", "3-5", "3-6", "4-4", "4-5", "4-6", "5-5", "6-6"]
    p0 = ["0-0", "0-5", "0-6", "1-2", "3-4", *p0_left]
    p1 = ["0-1", "0-2", "0-3", "0-4", "5-6", *p1_left]
    state = new_hand("progressive", chain_deal(p0, p1))
    state = play(state, ["0-0", "0-3@R0", "3-4@R3", "0-4@R4", "0-5@R0", "5-6@R5", "0-6@R6",
                        "0-2@L0", "1-2@L2", "0-1@L1"])
    # Player 0: 2+4+5+6+7+4+5+6+7 = 46; player 1: 8+6+8+9+8+9+10+10+12 = 80.
    # Player 0 wins and scores 80, not 80 - 46 (R-PRO-04).
    assert result(state)["reason"] == "block"
    assert result(state)["pips"] == [46, 80]
    assert result(state)["winner"] == 0
    assert result(state)["points"] == [80, 0]
    assert terms(state) == [("opponent_pips", 0, 80, "R-PRO-04")]


# --- Pijanowski: placement points -------------------------------------------------------------

def pij_state(options: dict[str, object] | None = None, p0: Sequence[str] = (),
              p1: Sequence[str] = ()) -> HandState:
    """A 12-tile Pijanowski hand holding ``p0`` and ``p1``, each topped up to 12 tiles with
    the lowest unused tiles; the 4 tiles left over are out of play."""
    free = rest(FULL_SET, p0, p1)
    hand0 = [*p0, *free[:12 - len(p0)]]
    free = free[12 - len(p0):]
    hand1 = [*p1, *free[:12 - len(p1)]]
    return new_hand("pijanowski", board_deal(hand0, hand1, free[12 - len(p1):]), options)


@pytest.mark.parametrize(("action", "points"), [
    ("1-5@0.0+0.1", 12),  # (0,0),(0,1): one field, one colour: 2 x 6
    ("1-5@0.1+0.0", 12),  # the other way round on the same field
    ("1-5@0.1+0.2", 6),  # (0,1) field (0,0), (0,2) field (0,1): colours 0 and 1: 6
    ("1-5@0.0+1.0", 6),  # vertical: rows differ, colours (0+0)%2 and (1+0)%2 differ: 6
    ("1-5@3.7+4.7", 6),  # vertical anywhere
    ("1-5@5.10+5.11", 12),  # field (5,5) on the bottom edge
    ("1-5@2.9+2.10", 6),  # fields (2,4) and (2,5)
])
@pytest.mark.rule("R-PIJ-01", "R-PIJ-03", "R-PIJ-05")
def test_pijanowski_placement_points(action: str, points: int) -> None:
    state, events = play_events(pij_state(p0=["1-5"]), [action])
    assert [e.to_json() for e in events] == [
        {"type": "place", "player": 0, "action": action, "points": points, "rule": "R-PIJ-05"}]
    assert state.to_json()["points"] == [points, 0]


# --- Pijanowski: lakes ----------------------------------------------------------------------


def lakes_of(events: Sequence[Event]) -> list[tuple[list[list[int]], int]]:
    """(cells, points) of each lake event, sorted by cells."""
    found = [(e.to_json()["cells"], e.to_json()["points"]) for e in events if e.type == "lake"]
    return sorted(found)


def place_points(events: Sequence[Event]) -> list[int]:
    return [e.to_json()["points"] for e in events if e.type == "place"]


@pytest.mark.parametrize("lake_rule", ["new_region", "newly_enclosed"])
@pytest.mark.rule("R-PIJ-06")
def test_pijanowski_lake_of_one_cell_in_the_corner(lake_rule: str) -> None:
    state = pij_state({"lake_rule": lake_rule}, ["1-2"], ["2-3"])
    state, events = play_events(state, ["1-2@0.1+1.1"])  # vertical: 3; (0,0) still reaches (1,0)
    assert lakes_of(events) == []
    state, events = play_events(state, ["2-3@1.0+2.0"])  # its 2 on (1,0) beside the 2 on (1,1)
    # (0,0) now has (0,1) and (1,0) filled and the edges: a 1-cell lake, 4 points.
    assert [e.to_json() for e in events] == [
        {"type": "place", "player": 1, "action": "2-3@1.0+2.0", "points": 5, "rule": "R-PIJ-05"},
        {"type": "lake", "player": 1, "cells": [[0, 0]], "points": 4, "rule": "R-PIJ-06"}]
    assert state.to_json()["points"] == [3, 5 + 4]


@pytest.mark.parametrize("lake_rule", ["new_region", "newly_enclosed"])
@pytest.mark.rule("R-PIJ-06")
def test_pijanowski_lake_of_two_cells(lake_rule: str) -> None:
    state = pij_state({"lake_rule": lake_rule}, ["1-2"], ["2-4"])
    state = play(state, ["1-2@1.0+1.1"])  # field (1,0): 2 x 3 = 6
    state, events = play_events(state, ["2-4@1.2+0.2"])  # vertical 6; closes (0,0),(0,1)
    assert place_points(events) == [6]
    assert lakes_of(events) == [([[0, 0], [0, 1]], 8)]
    assert state.to_json()["points"] == [6, 14]


LAKE_ROW = ["1-2@1.0+1.1", "2-3@1.2+1.3"]  # 2 x 3 = 6 for player 0, 2 x 5 = 10 for player 1


@pytest.mark.parametrize("lake_rule", ["new_region", "newly_enclosed"])
@pytest.mark.rule("R-PIJ-06")
def test_pijanowski_lake_of_three_cells(lake_rule: str) -> None:
    state = play(pij_state({"lake_rule": lake_rule}, ["1-2", "3-5"], ["2-3"]), LAKE_ROW)
    # 3 above the 3 on (1,3); fields (0,1),(0,2)
    state, events = play_events(state, ["3-5@0.3+0.4"])
    # 8 for the tile, and (0,0),(0,1),(0,2) are closed: 3 x 4 = 12.
    assert place_points(events) == [8]
    assert lakes_of(events) == [([[0, 0], [0, 1], [0, 2]], 12)]
    assert state.to_json()["points"] == [6 + 8 + 12, 10]


@pytest.mark.parametrize(("lake_rule", "inner_lakes"), [
    # new_region: (0,0) and (0,3) were not regions before; each scores 4 (R-PIJ-06).
    ("new_region", [([[0, 0]], 4), ([[0, 3]], 4)]),
    # newly_enclosed: both lay in the old 4-cell lake, not in a region of more than 4.
    ("newly_enclosed", []),
])
@pytest.mark.rule("R-PIJ-06")
def test_pijanowski_lake_of_four_cells_then_a_tile_inside_it(
        lake_rule: str, inner_lakes: list[tuple[list[list[int]], int]]) -> None:
    state = play(pij_state({"lake_rule": lake_rule}, ["1-2", "3-4"], ["2-3", "2-2"]),
                 LAKE_ROW)
    state, events = play_events(state, ["3-4@1.4+0.4"])  # vertical 7; closes (0,0)..(0,3)
    assert place_points(events) == [7]
    assert lakes_of(events) == [([[0, 0], [0, 1], [0, 2], [0, 3]], 16)]
    # [2|2] inside the lake, on the 2s of (1,1) and (1,2); fields (0,0),(0,1): 4 points.
    state, events = play_events(state, ["2-2@0.1+0.2"])
    assert place_points(events) == [4]
    assert lakes_of(events) == inner_lakes
    assert state.to_json()["points"] == [6 + 7 + 16, 10 + 4 + sum(p for _, p in inner_lakes)]


@pytest.mark.parametrize("lake_rule", ["new_region", "newly_enclosed"])
@pytest.mark.rule("R-PIJ-05", "R-PIJ-06")
def test_pijanowski_two_lakes_from_one_tile(lake_rule: str) -> None:
    state = play(pij_state({"lake_rule": lake_rule}, ["1-2", "3-4", "2-2"], ["2-3", "4-5"]),
                 LAKE_ROW)
    state, events = play_events(state, ["3-4@1.4+1.5", "4-5@1.6+0.6"])
    # [3|4] on field (1,2): 14; [4|5] vertical: 9. Row 0 columns 0..5 are one region of 6
    # cells, closed by row 1 below and the 5 on (0,6): not a lake.
    assert place_points(events) == [14, 9]
    assert lakes_of(events) == []
    state, events = play_events(state, ["2-2@0.1+0.2"])
    # It splits the 6 cells into (0,0) and (0,3),(0,4),(0,5): 4 + 12, plus 4 for the tile.
    assert place_points(events) == [4]
    assert lakes_of(events) == [([[0, 0]], 4), ([[0, 3], [0, 4], [0, 5]], 12)]
    assert state.to_json()["points"] == [6 + 14 + 4 + 16, 10 + 9]


# --- Pijanowski: whole hands ----------------------------------------------------------------

# Twenty placements along rows 1, 3 and 5, joined at the board's sides. Each row-1 and row-5
# tile lies on one field (2 x pips), each row-3 tile straddles two fields, the joints are
# vertical (pips). Rows 0, 2 and 4 stay empty: every empty region has 5 or more cells (row 0
# is split into 5 + 5 by [4|4] at the end), so no lake is made.
SNAKE: list[tuple[int, str, int]] = [
    (0, "0-6@1.1+1.0", 12), (1, "0-2@1.2+1.3", 4), (0, "2-4@1.4+1.5", 12),
    (1, "4-6@1.6+1.7", 20), (0, "1-6@1.9+1.8", 14), (1, "1-3@1.10+1.11", 8),
    (0, "3-5@2.11+3.11", 8),  # vertical joint from row 1 to row 3
    (1, "0-5@3.9+3.10", 5), (0, "0-3@3.8+3.7", 3), (1, "3-6@3.6+3.5", 9),
    (0, "2-6@3.3+3.4", 8), (1, "2-5@3.2+3.1", 7),
    (0, "1-5@4.0+3.0", 6),  # vertical joint from row 3 to row 5
    (1, "1-4@5.0+5.1", 10), (0, "0-4@5.3+5.2", 8), (1, "0-1@5.4+5.5", 2),
    (0, "1-2@5.6+5.7", 6), (1, "2-3@5.8+5.9", 10), (0, "3-4@5.10+5.11", 14),
    (1, "4-4@0.5+0.6", 8),  # on the two 4s of (1,5), (1,6); fields (0,2),(0,3)
]
SNAKE_P0 = [a.split("@")[0] for p, a, _ in SNAKE if p == 0]
SNAKE_P1 = [a.split("@")[0] for p, a, _ in SNAKE if p == 1]
SNAKE_POINTS = [12 + 12 + 14 + 8 + 3 + 8 + 6 + 8 + 6 + 14, 4 + 20 + 8 + 5 + 9 + 7 + 10 + 2 + 10 + 8]
# After the snake only two placements exist anywhere: row 2 and row 4 cells each touch two
# different pips above and below; in row 0 the free pairs over (1,c),(1,c+1) need the tiles
# [6|0], [0|0], [0|2], [6|1], [1|1], [1|3], and all but [0|0] and [1|1] are on the board.
DOUBLE_BLANK = "0-0@0.1+0.2"  # 0; closes (0,0): 4 and (0,3),(0,4): 8
DOUBLE_ONE = "1-1@0.9+0.10"  # fields (0,4),(0,5): 2; closes (0,7),(0,8): 8 and (0,11): 4


def snake_hand(p0_extra: Sequence[str], p1_extra: Sequence[str]) -> HandState:
    assert SNAKE_POINTS == [91, 83]
    p0, p1 = [*SNAKE_P0, *p0_extra], [*SNAKE_P1, *p1_extra]
    assert len(p0) == len(p1) == 12  # nothing topped up: the leftovers are exactly these
    state = pij_state(None, p0, p1)
    for player, action, points in SNAKE:
        assert state.to_move == player
        state, events = play_events(state, [action])
        assert place_points(events) == [points]
        assert lakes_of(events) == []
    assert state.to_json()["points"] == SNAKE_POINTS
    return state


@pytest.mark.rule("R-PIJ-07", "R-PIJ-08", "R-PIJ-09", "R-PIJ-06", "R-ALL-08")
def test_pijanowski_domino_with_the_extra_tile() -> None:
    state = snake_hand(["0-0", "1-1"], ["5-5", "6-6"])
    assert state.result is None
    state, events = play_events(state, [DOUBLE_BLANK])
    assert place_points(events) == [0]
    assert lakes_of(events) == [([[0, 0]], 4), ([[0, 3], [0, 4]], 8)]
    # Player 0 keeps the turn and may place [1|1] (its only placement) or stop.
    assert state.to_move == 0
    assert legal(state) == {DOUBLE_ONE, "stop"}
    state, events = play_events(state, [DOUBLE_ONE])
    assert place_points(events) == [2]
    assert lakes_of(events) == [([[0, 7], [0, 8]], 8), ([[0, 11]], 4)]
    # Player 0: 91 + 12 + 14 = 117, nothing left. Player 1: 83 - (10 + 12) = 61.
    assert result(state)["reason"] == "domino"
    assert result(state)["winner"] == 0
    assert result(state)["pips"] == [0, 22]
    assert result(state)["points"] == [117, 61]
    assert terms(state) == [("placement_points", 0, 117, "R-PIJ-09"),
                            ("placement_points", 1, 83, "R-PIJ-09"),
                            ("own_pips", 1, -22, "R-PIJ-09")]


@pytest.mark.rule("R-PIJ-07", "R-PIJ-08", "R-PIJ-09", "R-ALL-07")
def test_pijanowski_double_blank_as_last_tile_ends_the_hand() -> None:
    state = snake_hand(["0-0", "1-1"], ["5-5", "6-6"])
    state = play(state, [DOUBLE_ONE])  # 2 + 12 = 14; not [0|0]: the turn ends
    assert state.to_move == 1
    # Player 1 holds [5|5], [6|6]: no placement exists, so pass is the only action.
    assert legal(state) == {"pass"}
    state, events = play_events(state, ["pass", DOUBLE_BLANK])
    # [0|0] was player 0's last tile: the hand ends at once, no extra tile, no stop.
    assert events[-1].type == "end"
    assert legal_actions(state) == []
    assert result(state)["reason"] == "domino"
    assert result(state)["points"] == [117, 61]


@pytest.mark.parametrize(("p0_extra", "p1_extra", "pips", "winner", "points"), [
    # Equal pips left (2-2 + 5-6 = 15 = 3-3 + 4-5); scores 91 - 15 = 76 and 83 - 15 = 68: the
    # higher hand score wins even though the pips are equal (R-PIJ-14, not R-ALL-06).
    (["2-2", "5-6"], ["3-3", "4-5"], [15, 15], 0, [76, 68]),
    # 91 - (10 + 11) = 70 and 83 - (4 + 9) = 70: no winner, both scores still count.
    (["5-5", "5-6"], ["2-2", "4-5"], [21, 13], None, [70, 70]),
])
@pytest.mark.rule("R-PIJ-08", "R-PIJ-09", "R-PIJ-14")
def test_pijanowski_block_scored_by_hand_score(p0_extra: list[str], p1_extra: list[str],
                                               pips: list[int], winner: int | None,
                                               points: list[int]) -> None:
    # [0|0] and [1|1] are out of play, so after the snake nobody can place: block at once.
    state = snake_hand(p0_extra, p1_extra)
    assert result(state)["reason"] == "block"
    assert result(state)["pips"] == pips
    assert result(state)["winner"] == winner
    assert result(state)["points"] == points


@pytest.mark.rule("R-PIJ-07", "R-PIJ-13", "R-PIJ-09")
def test_pijanowski_block_right_after_the_double_blank() -> None:
    state = snake_hand(["0-0", "2-2"], ["5-5", "6-6"])  # [1|1] is out of play
    state, events = play_events(state, [DOUBLE_BLANK])
    # Nobody can place now: the hand ends at once as a block, without a stop (R-PIJ-13).
    assert lakes_of(events) == [([[0, 0]], 4), ([[0, 3], [0, 4]], 8)]
    assert result(state)["reason"] == "block"
    # Player 0: 91 + 12 - 4 = 99; player 1: 83 - 22 = 61.
    assert result(state)["points"] == [99, 61]
    assert result(state)["winner"] == 0


@pytest.mark.rule("R-PIJ-07", "R-PIJ-08", "R-PIJ-09", "R-ALL-13")
def test_pijanowski_stop_is_the_only_action_when_the_extra_tile_cannot_go() -> None:
    state = snake_hand(["0-0", "2-2"], ["1-1", "5-5"])
    state = play(state, [DOUBLE_BLANK])
    # Player 0 holds only [2|2], which fits nowhere, but player 1's [1|1] still fits: no block.
    assert state.result is None
    assert legal(state) == {"stop"}
    state, events = play_events(state, ["stop"])
    assert [e.to_json() for e in events] == [{"type": "stop", "player": 0}]
    assert state.to_move == 1
    assert legal(state) == {DOUBLE_ONE}
    state = play(state, [DOUBLE_ONE])
    # Now nobody can place. Player 0: 91 + 12 - 4 = 99; player 1: 83 + 14 - 10 = 87.
    assert result(state)["reason"] == "block"
    assert result(state)["points"] == [99, 87]


# --- Pijanowski: hand_size and the double set -------------------------------------------------


@pytest.mark.rule("R-PIJ-02", "R-PIJ-05")
def test_pijanowski_hand_size_14_deals_the_whole_set() -> None:
    p0 = list(FULL_SET[:14])
    p1 = list(FULL_SET[14:])
    state = new_hand("pijanowski", board_deal(p0, p1), {"hand_size": 14})
    assert state.to_json()["out_of_play"] == []
    state, events = play_events(state, ["2-2@0.0+0.1", "2-3@0.2+0.3"])
    # [2|2] on field (0,0): 8; [2|3] on field (0,1), its 2 beside the 2 on (0,1): 10.
    assert place_points(events) == [8, 10]
    assert state.to_json()["points"] == [8, 10]


@pytest.mark.rule("R-PIJ-11", "R-PIJ-01", "R-PIJ-05", "R-PIJ-06")
def test_pijanowski_double_set_board_is_12_by_12() -> None:
    state = new_hand("pijanowski", board_deal(FULL_SET, FULL_SET), {"double_set": True})
    table = state.to_json()["table"]
    assert (table["rows"], table["cols"]) == (12, 12)
    # Bottom-right corner: [1|2] vertical on (10,10),(11,10): 3; then [1|3] with its 1 on
    # (10,11) beside the 1 on (10,10): vertical 4, and it closes (11,11): a 1-cell lake, 4.
    state, events = play_events(state, ["1-2@10.10+11.10"])
    assert place_points(events) == [3]
    state, events = play_events(state, ["1-3@10.11+9.11"])
    assert place_points(events) == [4]
    assert lakes_of(events) == [([[11, 11]], 4)]
    # Both players hold a full set of their own: player 1 also still holds a [1|2].
    assert state.to_json()["hands"][1].count("1-2") == 1
    assert state.to_json()["hands"][0].count("1-3") == 1


@pytest.mark.parametrize(("action", "points"), [
    ("2-3@6.0+6.1", 10),  # row 6 exists only on the 12-row board; field (6,0): 2 x 5
    ("2-3@11.3+11.2", 10),  # field (11,1) on the bottom edge: 2 x 5
    ("2-3@10.5+11.5", 5),  # vertical: 5
])
@pytest.mark.rule("R-PIJ-11", "R-PIJ-01", "R-PIJ-05")
def test_pijanowski_double_set_placement_points(action: str, points: int) -> None:
    state = new_hand("pijanowski", board_deal(FULL_SET, FULL_SET), {"double_set": True})
    state, events = play_events(state, [action])
    assert place_points(events) == [points]
