"""The worked examples printed in the four seed texts, replayed on the reference engine.

Each example is built from an explicit deal (R-ALL-03) and played one legal action at a time.
Every expected value (chain, open end, legal set, points) is derived by hand from the rulings in
the comments next to it; none was read back from the engine.
"""

from __future__ import annotations

from importlib import resources
from typing import Any

import pytest
import yaml

from dominokit.reference import Deal, HandState, new_hand
from tests.positions import (
    NO_DOUBLES,
    board_deal,
    chain_deal,
    legal,
    play,
    play_events,
    rest,
    widow_deal,
)


def chain(state: HandState) -> tuple[list[list[int]], int | None, int | None]:
    """(oriented tiles, left end, right end) of a chain table, from the state's JSON."""
    table = state.to_json()["table"]
    return table["tiles"], table["left"], table["right"]


# --- Poldomino and Progressive: "[5|1][1|3][3|2]" --------------------------------------------

P0_CHAIN = ["1-3", "2-3", "4-4", "5-5", "6-6"]
P1_CHAIN = ["1-5", "0-0", "0-6", "4-6", "2-6"]


@pytest.mark.rule("R-POL-02", "R-POL-04", "R-ALL-08", "R-ALL-09", "R-ALL-13", "R-ALL-03")
def test_poldomino_seed_chain_5_1_1_3_3_2() -> None:
    state = new_hand("poldomino", chain_deal(P0_CHAIN, P1_CHAIN))
    # Opening [1|3]: low half 1 is the left end, 3 the right end (R-ALL-09).
    state, events = play_events(state, ["1-3"])
    assert chain(state) == ([[1, 3]], 1, 3)
    # A chain placement scores nothing by itself: the event has no points.
    assert [e.to_json() for e in events] == [{"type": "place", "player": 0, "action": "1-3"}]
    assert state.to_move == 1  # one tile a turn, then the other player (R-ALL-08, R-ALL-13)
    # [5|1] on the left end: its 1 touches the 1, its 5 becomes the left end.
    state = play(state, ["1-5@L1"])
    assert chain(state) == ([[5, 1], [1, 3]], 5, 3)
    assert state.to_move == 0
    # [3|2] on the right end: its 3 touches the 3, its 2 becomes the right end.
    state = play(state, ["2-3@R3"])
    assert chain(state) == ([[5, 1], [1, 3], [3, 2]], 5, 2)
    assert state.to_move == 1
    assert state.result is None
    assert state.to_json()["last_placed"] == ["2-3", "1-5"]
    assert state.to_json()["hands"] == [["4-4", "5-5", "6-6"], ["0-0", "0-6", "2-6", "4-6"]]


@pytest.mark.rule("R-PRO-02", "R-PRO-03", "R-PRO-07", "R-ALL-07", "R-ALL-08", "R-ALL-09")
def test_progressive_seed_chain_5_1_1_3_3_2() -> None:
    state = new_hand("progressive", chain_deal(P0_CHAIN, P1_CHAIN))
    # The opening is any tile of the starter's hand: five tiles, five actions.
    assert legal(state) == set(P0_CHAIN)
    state = play(state, ["1-3"])
    # Ends 1 and 3; player 1 holds [1|5] (fits L1) and nothing with a 3, so placing it is
    # compulsory: no draw, no pass (R-ALL-07, R-PRO-03).
    assert legal(state) == {"1-5@L1"}
    state = play(state, ["1-5@L1"])
    # Ends 5 and 3; player 0 holds [2|3] (R3), [5|5] (L5), [1|3] is gone.
    assert legal(state) == {"2-3@R3", "5-5@L5"}
    state = play(state, ["2-3@R3"])
    assert chain(state) == ([[5, 1], [1, 3], [3, 2]], 5, 2)
    assert state.to_move == 1


# --- Szczerbak: "[2|3][3|6][6|1][1|0][2|4]" with [2|3] as widow ------------------------------

SZC_P0 = ["0-1", "0-2", "0-3", "0-4", "0-5", "0-6", "1-2", "1-3", "1-4", "3-6"]
SZC_P1 = ["1-5", "1-6", "2-4", "2-5", "2-6", "3-4", "3-5", "4-5", "4-6", "5-6"]


@pytest.mark.rule("R-SZC-01", "R-SZC-02", "R-SZC-03", "R-SZC-04", "R-SZC-05", "R-ALL-13")
def test_szczerbak_seed_chain_with_widow_2_3() -> None:
    # 10 + 10 tiles and the widow [2|3] make the 21 non-doubles (R-SZC-01).
    assert sorted([*SZC_P0, *SZC_P1, "2-3"]) == sorted(NO_DOUBLES)
    # Widow [3, 2]: its 3 faces player 0; 3 is the higher half, so player 0 starts and the
    # chain grows from the 3 only; the 2 is dead (R-SZC-02).
    state = new_hand("szczerbak", widow_deal(SZC_P0, (3, 2), SZC_P1))
    assert state.to_move == 0
    assert chain(state) == ([[2, 3]], None, 3)
    # On end 3 (odd) a tile fits with a 3 and a blank or even other half: [0|3], [3|6]; [1|3]
    # has an odd other half (R-SZC-04). One end only, so every play is "@R" (R-SZC-03).
    assert legal(state) == {"0-3@R3", "3-6@R3"}
    state = play(state, ["3-6@R3"])
    assert chain(state) == ([[2, 3], [3, 6]], None, 6)
    # "[2|3][3|6][6|1]": on end 6 (even) the other half must be odd or blank; player 1 holds
    # [1|6] and [5|6] ([2|6], [4|6] are even-even).
    assert legal(state) == {"1-6@R6", "5-6@R6"}
    state = play(state, ["1-6@R6"])
    assert chain(state) == ([[2, 3], [3, 6], [6, 1]], None, 1)
    # "[6|1][1|0]": a blank counts as both parities, so [0|1] fits on 1, as do [1|2], [1|4];
    # [1|3] does not (odd-odd).
    assert legal(state) == {"0-1@R1", "1-2@R1", "1-4@R1"}
    state = play(state, ["0-1@R1"])
    assert chain(state) == ([[2, 3], [3, 6], [6, 1], [1, 0]], None, 0)
    # "[1|0][2|4]": anything fits on a blank, either half touching (R-SZC-05): player 1's nine
    # tiles give 18 actions.
    left_in_hand = rest(SZC_P1, ["1-6"])
    expected = {f"{t}@R{t[0]}" for t in left_in_hand} | {f"{t}@R{t[2]}" for t in left_in_hand}
    assert len(expected) == 18
    assert legal(state) == expected
    state = play(state, ["2-4@R2"])
    assert chain(state) == ([[2, 3], [3, 6], [6, 1], [1, 0], [2, 4]], None, 4)
    assert state.to_move == 0


HARD = ["1-3", "1-5", "2-4", "2-6", "3-5", "4-6"]
"""The six tiles the Szczerbak text calls hard to play: both halves of one parity."""

# Player 0 holds the six hard tiles and four odd-even tiles; player 1 the rest except the widow.
HARD_P0 = [*HARD, "1-2", "1-4", "1-6", "2-3"]
# On end e (widow [e|0], e facing player 0) player 0 may play exactly these, worked out from
# R-SZC-04: a tile with an e and a blank or other-parity half.
HARD_END_LEGAL = {
    1: {"1-2@R1", "1-4@R1", "1-6@R1"},  # 2, 4, 6 are even; [1|3], [1|5] odd-odd
    2: {"1-2@R2", "2-3@R2"},  # 1, 3 odd; [2|4], [2|6] even-even
    3: {"2-3@R3"},  # [1|3], [3|5] odd-odd
    4: {"1-4@R4"},  # [2|4], [4|6] even-even
    5: {"pass"},  # player 0's 5s are [1|5], [3|5]: odd-odd, so nothing fits (R-SZC-06)
    6: {"1-6@R6"},  # [2|6], [4|6] even-even
}


@pytest.mark.parametrize("end", [1, 2, 3, 4, 5, 6])
@pytest.mark.rule("R-SZC-02", "R-SZC-04", "R-SZC-06", "R-ALL-07")
def test_szczerbak_hard_tiles_never_fit_a_non_blank_end(end: int) -> None:
    widow = f"0-{end}"
    p1 = rest(NO_DOUBLES, HARD_P0, [widow])
    assert len(p1) == 10
    # Widow [end, 0]: the higher half `end` faces player 0, who starts on end `end`.
    state = new_hand("szczerbak", widow_deal(HARD_P0, (end, 0), p1))
    assert state.to_move == 0
    assert chain(state)[2] == end
    actions = legal(state)
    # A hard tile [a|b] has a and b of one parity: on an end e it would touch with e, and its
    # other half is then non-blank and of e's parity, so R-SZC-04 refuses it.
    assert not {a for a in actions if a.split("@")[0] in HARD}
    assert actions == HARD_END_LEGAL[end]


@pytest.mark.rule("R-SZC-02", "R-SZC-05", "R-ALL-09")
def test_szczerbak_hard_tiles_fit_a_blank_end_either_way() -> None:
    p0 = [*HARD, "1-4", "1-6", "2-3", "2-5"]
    p1 = ["0-1", "0-2", "0-3", "0-4", "0-5", "0-6", "3-4", "3-6", "4-5", "5-6"]
    assert sorted([*p0, *p1, "1-2"]) == sorted(NO_DOUBLES)
    # Widow [1, 2]: the higher half 2 faces player 1, who starts on end 2 and can only play
    # [0|2] (no other 2 in hand; [1|2] is the widow).
    state = new_hand("szczerbak", widow_deal(p0, (1, 2), p1))
    assert state.to_move == 1
    assert legal(state) == {"0-2@R2"}
    state = play(state, ["0-2@R2"])
    assert chain(state)[2] == 0
    # On the blank every tile fits with either half touching: 10 tiles, 20 actions.
    expected = {f"{t}@R{t[0]}" for t in p0} | {f"{t}@R{t[2]}" for t in p0}
    assert len(expected) == 20
    assert legal(state) == expected
    for tile in HARD:
        assert {f"{tile}@R{tile[0]}", f"{tile}@R{tile[2]}"} <= legal(state)


# --- Pijanowski: the published opening ---------------------------------------------------------

# Player 0 places [5|6], [5|5], [5|1], [4|3]; player 1 [6|4], [4|4], [6|0], [0|0], [0|3].
PIJ_P0 = ["0-1", "0-2", "0-4", "0-5", "1-1", "1-2", "1-3", "1-4", "1-5", "3-4", "5-5", "5-6"]
PIJ_P1 = ["0-0", "0-3", "0-6", "1-6", "2-2", "2-3", "2-4", "2-5", "2-6", "3-3", "4-4", "4-6"]
PIJ_OUT = ["3-5", "3-6", "4-5", "6-6"]

PUBLISHED_TURN_POINTS = [22, 20, 20, 16, 6, 6, 7, 6 + 16]

# The reconstruction carried by the spec (R-PIJ-12). Cells (r, 2k) and (r, 2k+1) form field
# (r, k); a tile on one field scores 2 x pips, any other (across two fields, or vertical) its
# pips (R-PIJ-05). Per action: (player, action, placement points, lake cells).
SPEC_RECONSTRUCTION: list[tuple[int, str, int, list[list[list[int]]]]] = [
    (0, "5-6@0.2+0.3", 22, []),  # (0,2),(0,3): field (0,1); 2 x 11
    (1, "4-6@0.5+0.4", 20, []),  # 6 on (0,4) touches the 6 on (0,3); field (0,2); 2 x 10
    (0, "5-5@0.0+0.1", 20, []),  # 5 on (0,1) touches the 5 on (0,2); field (0,0); 2 x 10
    (1, "4-4@0.6+0.7", 16, []),  # 4 on (0,6) touches the 4 on (0,5); field (0,3); 2 x 8
    (0, "1-5@2.0+1.0", 6, []),  # vertical under the 5 on (0,0); 1 x 6
    (1, "0-6@2.3+1.3", 6, []),  # vertical under the 6 on (0,3); 1 x 6
    (0, "3-4@1.8+0.8", 7, []),  # vertical, its 4 on (0,8) beside the 4 on (0,7); 1 x 7
    (1, "0-0@2.4+2.5", 0, []),  # 0 on (2,4) beside the 0 on (2,3); field (2,2); 2 x 0; the
    # cells (1,4)..(1,7) still reach row 2 through (2,6), (2,7): no lake yet
    (1, "0-3@2.6+2.7", 6, [[[1, 4], [1, 5], [1, 6], [1, 7]]]),  # field (2,3): 2 x 3; the
    # region (1,4)..(1,7) is now closed by row 0 above, (1,3) and (1,8) at the sides and
    # (2,4)..(2,7) below: 4 cells, 4 x 4 = 16
]

# An independent board found for this suite (not the spec's): the same tiles, with the lake
# under [6|4][4|4] closed by [0|3] on the right of [0|0].
OWN_RECONSTRUCTION: list[tuple[int, str, int, list[list[list[int]]]]] = [
    (0, "5-6@0.4+0.5", 22, []),  # field (0,2); 2 x 11
    (1, "4-6@0.7+0.6", 20, []),  # 6 on (0,6) beside the 6 on (0,5); field (0,3); 2 x 10
    (0, "5-5@0.2+0.3", 20, []),  # 5 on (0,3) beside the 5 on (0,4); field (0,1); 2 x 10
    (1, "4-4@0.8+0.9", 16, []),  # 4 on (0,8) beside the 4 on (0,7); field (0,4); 2 x 8
    (0, "1-5@1.1+0.1", 6, []),  # vertical: 5 on (0,1) beside the 5 on (0,2); 1 x 6
    (1, "0-6@2.5+1.5", 6, []),  # vertical: 6 on (1,5) under the 6 on (0,5); 1 x 6
    (0, "3-4@1.10+0.10", 7, []),  # vertical: 4 on (0,10) beside the 4 on (0,9); 1 x 7
    (1, "0-0@2.6+2.7", 0, []),  # 0 on (2,6) beside the 0 on (2,5); (1,6)..(1,9) still open
    # below through (2,8), (2,9)
    (1, "0-3@2.8+2.9", 6, [[[1, 6], [1, 7], [1, 8], [1, 9]]]),  # field (2,4): 2 x 3; lake
    # (1,6)..(1,9): row 0 above, (1,5) and (1,10) beside, (2,6)..(2,9) below; 16
]


def _replay_opening(moves: list[tuple[int, str, int, list[list[list[int]]]]],
                    lake_rule: str) -> list[int]:
    state = new_hand("pijanowski", board_deal(PIJ_P0, PIJ_P1, PIJ_OUT), {"lake_rule": lake_rule})
    turn_points: list[int] = []
    previous_mover = None
    for player, action, points, lakes in moves:
        assert state.to_move == player
        state, events = play_events(state, [action])
        place = [e.to_json() for e in events if e.type == "place"]
        assert [(e["player"], e["action"], e["points"]) for e in place] == [
            (player, action, points)]
        lake_events = [e.to_json() for e in events if e.type == "lake"]
        assert sorted(e["cells"] for e in lake_events) == lakes
        assert all(e["points"] == 4 * len(e["cells"]) for e in lake_events)
        gained = points + sum(e["points"] for e in lake_events)
        if player == previous_mover:
            turn_points[-1] += gained  # the [0|0] turn: one turn, two placements (R-PIJ-07)
        else:
            turn_points.append(gained)
        previous_mover = player
    # Running in-hand points: player 0 22+20+6+7 = 55, player 1 20+16+6+0+22 = 64.
    assert state.to_json()["points"] == [55, 64]
    assert state.result is None
    return turn_points


@pytest.mark.parametrize("lake_rule", ["new_region", "newly_enclosed"])
@pytest.mark.rule("R-PIJ-12", "R-PIJ-01", "R-PIJ-03", "R-PIJ-04", "R-PIJ-05", "R-PIJ-06",
                  "R-PIJ-07", "R-ALL-13")
def test_pijanowski_published_opening_spec_reconstruction(lake_rule: str) -> None:
    # Before the [0|3] the lake cells lay in a region of more than 4 cells, so the lake is
    # newly enclosed as well as new: both readings of R-PIJ-06 give 16.
    assert _replay_opening(SPEC_RECONSTRUCTION, lake_rule) == PUBLISHED_TURN_POINTS


@pytest.mark.parametrize("lake_rule", ["new_region", "newly_enclosed"])
@pytest.mark.rule("R-PIJ-12", "R-PIJ-05", "R-PIJ-06", "R-PIJ-07")
def test_pijanowski_published_opening_independent_board(lake_rule: str) -> None:
    assert _replay_opening(OWN_RECONSTRUCTION, lake_rule) == PUBLISHED_TURN_POINTS


@pytest.mark.rule("R-PIJ-07", "R-ALL-08", "R-ALL-13")
def test_pijanowski_published_opening_double_blank_keeps_the_turn() -> None:
    state = new_hand("pijanowski", board_deal(PIJ_P0, PIJ_P1, PIJ_OUT))
    state = play(state, [m[1] for m in SPEC_RECONSTRUCTION[:8]])
    # After [0|0] player 1 is still to move, may stop, and may not draw or pass.
    assert state.to_move == 1
    assert state.to_json()["turn"] == {"draws": 0, "extra": True}
    actions = legal(state)
    assert "stop" in actions
    assert "0-3@2.6+2.7" in actions
    assert not {"draw", "pass"} & actions
    state = play(state, ["0-3@2.6+2.7"])
    # The extra placement ends the turn.
    assert state.to_move == 0
    assert state.to_json()["turn"] == {"draws": 0, "extra": False}


def _published_trace() -> dict[str, Any]:
    source = resources.files("dominokit.conformance").joinpath(
        "traces", "pijanowski", "published-opening.yaml")
    data = yaml.safe_load(source.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


@pytest.mark.rule("R-PIJ-12", "R-PIJ-05", "R-PIJ-06", "R-PIJ-07")
def test_pijanowski_published_opening_trace_gives_the_published_points() -> None:
    trace = _published_trace()
    # The bundled trace plays the board checked by hand above, move for move.
    assert [(s["player"], s["action"]) for s in trace["steps"]] == [
        (player, action) for player, action, _, _ in SPEC_RECONSTRUCTION]
    state = new_hand("pijanowski", Deal.from_json(trace["deal"]), trace.get("options") or {})
    turns: list[tuple[int, int]] = []
    for step in trace["steps"]:
        state, events = play_events(state, [step["action"]])
        gained = sum(e.points or 0 for e in events if e.type in ("place", "lake"))
        if turns and turns[-1][0] == step["player"]:
            turns[-1] = (step["player"], turns[-1][1] + gained)
        else:
            turns.append((step["player"], gained))
    assert [points for _, points in turns] == PUBLISHED_TURN_POINTS
    assert [player for player, _ in turns] == [0, 1, 0, 1, 0, 1, 0, 1]
