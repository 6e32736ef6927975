"""Turn structure of the chain games (Poldomino, Progressive, Szczerbak), position by position.

Every legal set asserted here is worked out by hand from the rulings; the comments say how.
"""

from __future__ import annotations

import pytest

from dominokit.reference import (
    Deal,
    DealError,
    HandState,
    apply_action,
    legal_actions,
    new_hand,
)
from tests.positions import FULL_SET, NO_DOUBLES, chain_deal, legal, play, rest, widow_deal


def turn(state: HandState) -> tuple[int | None, int, int]:
    """(player to move, draws this turn, consecutive passes) from the state's JSON."""
    data = state.to_json()
    return data["to_move"], data["turn"]["draws"], data["passes"]


def ends(state: HandState) -> tuple[int | None, int | None]:
    table = state.to_json()["table"]
    return table["left"], table["right"]


# --- Poldomino ------------------------------------------------------------------------------

POL_P0 = ["1-2", "3-3", "4-4", "5-5", "6-6"]
POL_P1 = ["0-0", "0-3", "0-4", "0-5", "0-6"]


@pytest.mark.parametrize("starter", [0, 1])
@pytest.mark.rule("R-POL-02", "R-ALL-09", "R-ALL-13")
def test_poldomino_opening_must_place_any_tile(starter: int) -> None:
    state = new_hand("poldomino", chain_deal(POL_P0, POL_P1, starter=starter))
    # The starter's first action is one of their five tiles, one action each; no draw, no pass.
    assert turn(state) == (starter, 0, 0)
    assert legal(state) == set([POL_P0, POL_P1][starter])


@pytest.mark.rule("R-POL-03", "R-ALL-13", "R-ALL-03")
def test_poldomino_free_draw_does_not_end_the_turn() -> None:
    state = new_hand("poldomino", chain_deal(POL_P0, POL_P1, ["0-1", "1-1"]))
    state = play(state, ["1-2"])
    # Ends 1 and 2; player 1 holds no 1 or 2, yet may draw or pass (placing is optional).
    assert legal(state) == {"draw", "pass"}
    state = play(state, ["draw"])
    # Still player 1's turn, one draw made; [0|1] (the stock's first tile) now fits L1.
    assert turn(state) == (1, 1, 0)
    assert state.to_json()["hands"][1] == ["0-0", "0-1", "0-3", "0-4", "0-5", "0-6"]
    assert legal(state) == {"0-1@L1", "draw", "pass"}
    state = play(state, ["draw"])
    assert turn(state) == (1, 2, 0)
    assert legal(state) == {"0-1@L1", "1-1@L1", "draw", "pass"}
    # A placement after drawing ends the turn (one tile a turn).
    state = play(state, ["1-1@L1"])
    assert turn(state) == (0, 0, 0)
    assert ends(state) == (1, 2)


@pytest.mark.rule("R-POL-03")
def test_poldomino_draw_needs_a_stock_but_pass_is_always_legal() -> None:
    state = new_hand("poldomino", chain_deal(POL_P0, POL_P1))
    state = play(state, ["1-2", *["draw"] * 18])
    # Player 1 has taken the whole stock: no draw any more, pass still legal.
    assert state.to_json()["stock"] == []
    actions = legal(state)
    assert "draw" not in actions
    assert "pass" in actions
    # Player 1 now holds every tile except player 0's four and the [1|2] on the table, so
    # [0|1], [1|1], [1|3]..[1|6] fit L1 and [0|2], [2|2]..[2|6] fit R2: 6 + 6 placements.
    placements = {a for a in actions if "@" in a}
    assert placements == {f"{t}@L1" for t in ["0-1", "1-1", "1-3", "1-4", "1-5", "1-6"]} | {
        f"{t}@R2" for t in ["0-2", "2-2", "2-3", "2-4", "2-5", "2-6"]}


@pytest.mark.rule("R-POL-05")
def test_poldomino_a_placement_resets_the_pass_count() -> None:
    p0 = ["1-2", "2-3", "3-3", "4-4", "5-5"]
    state = new_hand("poldomino", chain_deal(p0, POL_P1))
    state = play(state, ["1-2", "pass"])
    assert turn(state) == (0, 0, 1)
    state = play(state, ["2-3@R2"])
    assert turn(state) == (1, 0, 0)
    state = play(state, ["pass"])
    assert state.result is None  # one pass since the placement
    state = play(state, ["draw", "draw", "pass"])
    # Two consecutive turns ended in a pass (draws in between do not matter): the hand ends.
    assert state.result is not None
    assert state.result.reason == "mutual_pass"


@pytest.mark.rule("R-ALL-09", "R-POL-04")
def test_left_and_right_are_distinct_even_on_equal_ends() -> None:
    p0 = ["3-3", "0-1", "0-2", "1-1", "1-2"]
    p1 = ["3-5", "4-4", "4-5", "4-6", "5-5"]
    state = new_hand("poldomino", chain_deal(p0, p1))
    state = play(state, ["3-3"])
    assert ends(state) == (3, 3)
    # [3|5] touches a 3 at either end: two actions, two different chains.
    assert {a for a in legal(state) if "@" in a} == {"3-5@L3", "3-5@R3"}
    left, _ = apply_action(state, "3-5@L3")
    right, _ = apply_action(state, "3-5@R3")
    assert left.to_json()["table"]["tiles"] == [[5, 3], [3, 3]]
    assert right.to_json()["table"]["tiles"] == [[3, 3], [3, 5]]


@pytest.mark.rule("R-ALL-09", "R-POL-04")
def test_a_double_is_one_action_per_end() -> None:
    p0 = ["0-5", "3-5", "1-1", "1-2", "1-3"]
    p1 = ["0-3", "5-5", "2-5", "6-6", "4-6"]
    state = new_hand("poldomino", chain_deal(p0, p1))
    state = play(state, ["0-5", "0-3@L0", "3-5@L3"])
    assert ends(state) == (5, 5)
    # [5|5] shows a 5 whichever way: one action at L, one at R. [2|5] touches with its 5.
    assert {a for a in legal(state) if "@" in a} == {"5-5@L5", "5-5@R5", "2-5@L5", "2-5@R5"}
    state = play(state, ["5-5@R5"])
    assert state.to_json()["table"]["tiles"] == [[5, 3], [3, 0], [0, 5], [5, 5]]
    assert ends(state) == (5, 5)


@pytest.mark.rule("R-POL-01", "R-ALL-01", "R-ALL-02", "R-ALL-03")
def test_poldomino_deal_is_checked() -> None:
    good = chain_deal(POL_P0, POL_P1).to_json()
    new_hand("poldomino", Deal.from_json(good))
    six = {**good, "hands": [[*POL_P0, good["stock"][0]], POL_P1], "stock": good["stock"][1:]}
    with pytest.raises(DealError, match="R-POL-01"):  # 5 tiles each
        new_hand("poldomino", Deal.from_json(six))
    twice = {**good, "stock": [*good["stock"][:-1], "1-2"]}
    with pytest.raises(DealError, match="R-ALL-01"):  # [1|2] twice, one tile missing
        new_hand("poldomino", Deal.from_json(twice))
    with pytest.raises(DealError):  # players are 0 and 1
        new_hand("poldomino", Deal.from_json({**good, "starter": 2}))


# --- Progressive ------------------------------------------------------------------------------


@pytest.mark.rule("R-PRO-02", "R-PRO-03", "R-ALL-07", "R-ALL-13")
def test_progressive_draw_only_when_stuck_and_place_the_fitting_tile() -> None:
    p0 = ["1-2", "1-3", "2-2", "3-3", "1-1"]
    p1 = ["4-4", "4-5", "5-5", "2-6", "6-6"]
    state = new_hand("progressive", chain_deal(p0, p1, ["0-4", "0-2", "0-0"]))
    # The opening is compulsory, any tile: no draw or pass first.
    assert legal(state) == set(p0)
    state = play(state, ["1-2"])
    # Ends 1 and 2; player 1's [2|6] fits R2, so player 1 must place it: no draw, no pass.
    assert legal(state) == {"2-6@R2"}
    state = play(state, ["2-6@R2"])
    # Ends 1 and 6; player 0 holds [1|3], [1|1] for L1: must place.
    assert legal(state) == {"1-1@L1", "1-3@L1"}
    state = play(state, ["1-3@L1"])
    # Ends 3 and 6: player 1 has [6|6] for R6.
    assert legal(state) == {"6-6@R6"}
    state = play(state, ["6-6@R6"])
    # Ends 3 and 6: player 0 holds [2|2], [3|3], [1|1]: [3|3] fits L3.
    assert legal(state) == {"3-3@L3"}
    state = play(state, ["3-3@L3"])
    # Ends 3 and 6: player 1 holds [4|4], [4|5], [5|5]: nothing fits, so draw one at a time.
    assert legal(state) == {"draw"}
    state = play(state, ["draw"])  # [0|4]: no 3 or 6
    assert turn(state) == (1, 1, 0)
    assert legal(state) == {"draw"}
    state = play(state, ["draw"])  # [0|2]: no
    state = play(state, ["draw"])  # [0|0]: no
    assert turn(state) == (1, 3, 0)
    assert legal(state) == {"draw"}


@pytest.mark.rule("R-PRO-03", "R-ALL-07")
def test_progressive_pass_only_with_empty_stock_and_no_placement() -> None:
    # Round 1 deal 10: 14 tiles each, no stock. Player 1 holds no blank at all.
    p0 = [*(t for t in FULL_SET if t.startswith("0-")), "1-1", "1-2", "1-3", "1-4", "1-5",
          "1-6", "2-2"]
    p1 = rest(FULL_SET, p0)
    assert len(p0) == len(p1) == 14
    state = new_hand("progressive", chain_deal(p0, p1))
    state = play(state, ["0-0"])
    assert legal(state) == {"pass"}
    state = play(state, ["pass"])
    # Player 0 holds six blanks for either end, and must place one: 12 actions, no pass.
    assert legal(state) == {f"0-{k}@{e}0" for k in range(1, 7) for e in "LR"}


@pytest.mark.parametrize(("sizes", "ok"), [
    ((5, 5), True),  # round 1 deal 1
    ((14, 14), True),  # round 1 deal 10, round 2 deal 1: no stock
    ((5, 14), True),  # tiebreak deal 1, player 0 as player A
    ((14, 5), True),  # the same deal with roles swapped (R-PRO-06)
    ((9, 10), True),  # tiebreak deal 5
    ((4, 4), False),  # 4 + k with k >= 1: never 4
    ((15, 15), False),  # 15 - k with k >= 1: never 15
    ((5, 6), False),  # unequal hands occur only in a tiebreak, where they sum to 19
])
@pytest.mark.rule("R-PRO-01", "R-PRO-06")
def test_progressive_hand_sizes_come_from_the_schedule(sizes: tuple[int, int],
                                                       ok: bool) -> None:
    a, b = sizes
    deal = chain_deal(FULL_SET[:a], FULL_SET[a:a + b])
    if ok:
        assert new_hand("progressive", deal).result is None
    else:
        with pytest.raises(DealError, match="R-PRO-01"):
            new_hand("progressive", deal)


# --- Szczerbak ------------------------------------------------------------------------------

SZC_P0 = ["0-1", "0-2", "0-3", "0-4", "0-5", "0-6", "1-2", "1-3", "1-4", "3-6"]
SZC_P1 = ["1-5", "1-6", "2-4", "2-5", "2-6", "3-4", "3-5", "4-5", "4-6", "5-6"]


@pytest.mark.parametrize(("widow", "starter", "end"), [
    ([3, 2], 0, 3),  # the 3 faces player 0 and is the higher half
    ([2, 3], 1, 3),  # the 3 faces player 1
    ([5, 4], 0, 5),
    ([0, 1], 1, 1),  # even a blank against a 1: the 1 is higher
])
@pytest.mark.rule("R-SZC-02", "R-SZC-03")
def test_szczerbak_player_facing_the_higher_widow_half_starts(
        widow: list[int], starter: int, end: int) -> None:
    tile = f"{min(widow)}-{max(widow)}"
    others = rest(NO_DOUBLES, [tile])
    state = new_hand("szczerbak", widow_deal(others[:10], widow, others[10:]))
    assert state.to_move == starter
    assert state.starter == starter
    # The widow lies dead half first; only its higher half is open, so every play is "@R".
    assert state.to_json()["table"] == {"kind": "chain", "tiles": [[min(widow), end]],
                                        "left": None, "right": end}
    assert not [a for a in legal(state) if "@L" in a]


@pytest.mark.rule("R-SZC-06", "R-ALL-07", "R-SZC-04")
def test_szczerbak_pass_only_when_stuck() -> None:
    state = new_hand("szczerbak", widow_deal(SZC_P0, (3, 2), SZC_P1))
    # Player 0 can place on 3: no pass.
    assert legal(state) == {"0-3@R3", "3-6@R3"}
    state = play(state, ["3-6@R3", "5-6@R6"])
    # End 5 (odd): player 0's 5 is [0|5] (blank): fits.
    assert legal(state) == {"0-5@R5"}
    state = play(state, ["0-5@R5"])
    # Blank end: player 1 may play any of their 9 tiles either way round: 18 actions.
    assert len(legal(state)) == 18 and "pass" not in legal(state)
    state = play(state, ["1-5@R1"])  # 1 touches, 5 open
    # End 5: player 0 holds no 5 any more ([0|5] is placed): the only action is pass.
    assert legal(state) == {"pass"}
    state = play(state, ["pass"])
    # End 5 for player 1: [2|5] (2 even), [4|5] (4 even); [3|5] is odd-odd.
    assert legal(state) == {"2-5@R5", "4-5@R5"}


@pytest.mark.parametrize("widow", [[a, b] for a in range(7) for b in range(7) if a != b])
@pytest.mark.rule("R-ALL-10", "R-SZC-02", "R-SZC-04")
def test_szczerbak_no_deal_is_blocked_at_the_start(widow: list[int]) -> None:
    # The end checks run at the start of a hand (R-ALL-10), but no Szczerbak deal can end
    # there: on the open end e = max(widow) >= 1 the tiles [0|e] and [e|o] for the three o of
    # the other parity fit (R-SZC-04); at most one of these four is the widow, so at least
    # three are in the hands. (No other variant deals an empty hand either.)
    e = max(widow)
    fitting = [f"{min(e, o)}-{max(e, o)}" for o in range(7)
               if o != e and (o == 0 or o % 2 != e % 2)]
    assert len(fitting) == 4
    widow_tile = f"{min(widow)}-{e}"
    others = rest(NO_DOUBLES, [widow_tile])
    for split in (others[:10], others[10:], others[::2]):
        other_hand = rest(others, split)
        state = new_hand("szczerbak", widow_deal(split, widow, other_hand))
        assert state.result is None
        in_hands = [t for t in fitting if t != widow_tile]
        assert len(in_hands) >= 3
        # The player facing the higher half moves: x faces player 0 (R-SZC-02).
        holder = 0 if widow[0] > widow[1] else 1
        assert state.to_move == holder
        hand = [split, other_hand][holder]
        expected = {f"{t}@R{e}" for t in in_hands if t in hand} or {"pass"}
        assert legal(state) == expected


@pytest.mark.rule("R-SZC-01")
def test_szczerbak_deal_is_checked() -> None:
    good = {"hands": [SZC_P0, SZC_P1], "widow": [3, 2], "starter": None}
    new_hand("szczerbak", Deal.from_json(good))
    with pytest.raises(DealError):  # a double is not in the Szczerbak set
        new_hand("szczerbak", Deal.from_json({**good, "hands": [[*SZC_P0[:-1], "3-3"], SZC_P1]}))
    with pytest.raises(DealError):  # 10 tiles each
        new_hand("szczerbak", Deal.from_json(
            {**good, "hands": [SZC_P0[:-1], [*SZC_P1, SZC_P0[-1]]]}))
    with pytest.raises(DealError):  # the widow decides the starter
        new_hand("szczerbak", Deal.from_json({**good, "starter": 0}))
    with pytest.raises(DealError):  # there must be a widow
        new_hand("szczerbak", Deal.from_json({**good, "widow": None}))


# --- perft (R-ALL-11) -------------------------------------------------------------------------


def perft(state: HandState, depth: int) -> int:
    """Sequences of ``depth`` legal actions; one that ends the hand counts but stops there."""
    if depth == 0:
        return 1
    total = 0
    for action in legal_actions(state):
        after, _ = apply_action(state, action)
        total += 1 if after.result is not None else perft(after, depth - 1)
    return total


@pytest.mark.rule("R-ALL-11", "R-SZC-04", "R-SZC-05")
def test_perft_of_the_szczerbak_seed_position() -> None:
    state = new_hand("szczerbak", widow_deal(SZC_P0, (3, 2), SZC_P1))
    # Depth 1: [0|3], [3|6] on the 3. Depth 2: after [0|3] the end is blank and player 1's ten
    # tiles give 20 actions; after [3|6] the end is 6 and player 1 has [1|6], [5|6]: 22.
    assert [perft(state, d) for d in (0, 1, 2)] == [1, 2, 22]


@pytest.mark.rule("R-ALL-11", "R-POL-05", "R-POL-03")
def test_perft_counts_draws_and_a_hand_ending_pass_once() -> None:
    state = new_hand("poldomino", chain_deal(POL_P0, POL_P1, ["0-1", "1-1"]))
    state = play(state, ["1-2", "pass"])
    # Player 0 ([3|3] [4|4] [5|5] [6|6]) cannot place on 1 or 2: draw or pass.
    # Depth 2: pass ends the hand (second pass in a row): 1. Draw gives [0|1]: then
    # [0|1]@L1, draw, pass: 3. Total 4.
    # Depth 3: pass: 1. Draw, then [0|1]@L1 hands the turn to player 1, whose five blanks fit
    # L0, plus draw and pass: 7; draw again ([1|1]): [0|1]@L1, [1|1]@L1, draw, pass: 4; pass
    # ends the hand: 1. Total 1 + 7 + 4 + 1 = 13.
    assert [perft(state, d) for d in (1, 2, 3)] == [2, 4, 13]
