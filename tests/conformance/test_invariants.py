"""``conformance/cases/invariants.py``: each check finds the property it names broken, and only
that one, in a hand written out here; correct hands (this one and the reference's) pass all.

The hand (classic block, R-CLB-*): player 0 holds 0-1 2-3, player 1 holds 1-1 1-2, player 0
starts. 0-1 opens, 1-1 goes on the 1 end, player 0 has no 0 or 1 and passes, 1-2 goes on the
1 end and player 1 is out: a domino for player 1, who scores player 0's pips, 2 + 3 = 5.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any

import pytest

from dominokit.conformance.cases import oracle
from dominokit.conformance.cases.invariants import (
    INVARIANTS,
    Playout,
    Problem,
    result_consistency,
    termination,
    tile_conservation,
    turn_order,
)
from dominokit.conformance.serve.refengine import ReferenceEngine
from dominokit.reference import Rules, variant_ids

VARIANT = "classic_block"
JsonObject = dict[str, Any]


def _rules() -> Rules:
    return oracle.rules_of(VARIANT)


def _state(hands: list[list[str]], tiles: list[list[int]], to_move: int | None,
           result: JsonObject | None = None) -> JsonObject:
    ends = (tiles[0][0], tiles[-1][1]) if tiles else (None, None)
    return {"variant": VARIANT, "hands": hands, "stock": [], "out_of_play": [],
            "table": {"kind": "chain", "tiles": tiles, "left": ends[0], "right": ends[1]},
            "starter": 0, "to_move": to_move, "turn": {"draws": 0, "extra": False},
            "result": result}


def _result() -> JsonObject:
    return {"winner": 1, "reason": "domino", "points": [0, 5], "pips": [5, 0],
            "terms": [{"term": "opponent_pips", "player": 1, "points": 5, "rule": "R-CLB-07"}]}


def good_hand() -> Playout:
    """The hand of the module docstring, correct in every respect."""
    result = _result()
    return Playout(
        deal={"hands": [["0-1", "2-3"], ["1-1", "1-2"]], "stock": [], "out_of_play": [],
              "starter": 0, "widow": None},
        actions=["0-1", "1-1@R1", "pass", "1-2@R1"],
        states=[
            _state([["0-1", "2-3"], ["1-1", "1-2"]], [], 0),
            _state([["2-3"], ["1-1", "1-2"]], [[0, 1]], 1),
            _state([["2-3"], ["1-2"]], [[0, 1], [1, 1]], 0),
            _state([["2-3"], ["1-2"]], [[0, 1], [1, 1]], 1),
            _state([["2-3"], []], [[0, 1], [1, 1], [1, 2]], None, result),
        ],
        events=[
            [{"type": "place", "player": 0, "action": "0-1"}],
            [{"type": "place", "player": 1, "action": "1-1@R1"}],
            [{"type": "pass", "player": 0}],
            [{"type": "place", "player": 1, "action": "1-2@R1"},
             {"type": "end", "result": copy.deepcopy(result)}],
        ],
    )


def _failing(play: Playout) -> dict[str, Problem]:
    found = {name: check(_rules(), play) for name, check in INVARIANTS.items()}
    return {name: problem for name, problem in found.items() if problem is not None}


def test_the_hand_written_hand_holds_every_invariant() -> None:
    assert _failing(good_hand()) == {}


# --- tile conservation -----------------------------------------------------------------------

def test_a_tile_that_vanishes_is_missing_from_that_step_on() -> None:
    play = good_hand()
    play.states[2]["table"]["tiles"] = [[0, 1]]  # 1-1 left the hand but never reached the table
    problem = tile_conservation(_rules(), play)
    assert problem is not None
    assert problem.step == 2
    assert "missing ['1-1'], extra []" in problem.message
    assert problem.rules == (_rules().structural.own_tiles, _rules().tiles.rule)
    assert set(_failing(play)) == {"tile-conservation"}


def test_a_tile_in_two_places_is_extra() -> None:
    play = good_hand()
    play.states[1]["hands"][0] = ["0-1", "2-3"]  # 0-1 on the table and still in the hand
    problem = tile_conservation(_rules(), play)
    assert problem is not None and problem.step == 1
    assert "missing [], extra ['0-1']" in problem.message
    assert problem.expected == ["0-1", "1-1", "1-2", "2-3"]
    assert problem.got == ["0-1", "0-1", "1-1", "1-2", "2-3"]


def test_a_tile_placed_the_other_way_round_is_still_the_same_tile() -> None:
    play = good_hand()
    for state in play.states[2:]:
        state["table"]["tiles"][1] = [1, 1]
    for state in play.states[4:]:
        state["table"]["tiles"][2] = [2, 1]  # oriented high first on the table: still 1-2
    assert tile_conservation(_rules(), play) is None


# --- termination ----------------------------------------------------------------------------

def test_a_hand_that_stops_before_its_end_has_not_terminated() -> None:
    play = good_hand()
    del play.actions[3:], play.states[4:], play.events[3:]
    problem = termination(_rules(), play)
    assert problem is not None
    assert problem.step == 3
    # 4 tiles in the deal: bound 4 * 4 + 10 = 26
    assert "has not ended after 3 actions (bound 26)" in problem.message
    assert problem.rules == tuple(end.rule for end in _rules().end)
    assert set(_failing(play)) == {"termination"}


# --- turn order -----------------------------------------------------------------------------

def test_the_starter_must_move_first() -> None:
    play = good_hand()
    play.states[0]["to_move"] = 1
    problem = turn_order(_rules(), play)
    assert problem is not None
    assert (problem.step, problem.expected, problem.got) == (0, 0, 1)
    assert problem.rules == (_rules().structural.turn_order,)
    assert set(_failing(play)) == {"turn-order"}


def test_a_pass_gives_the_turn_away() -> None:
    play = good_hand()
    play.states[3]["to_move"] = 0  # player 0 passed, yet is to move again
    problem = turn_order(_rules(), play)
    assert problem is not None
    assert (problem.step, problem.expected, problem.got) == (3, 1, 0)
    assert "after action 3 (pass)" in problem.message
    assert set(_failing(play)) == {"turn-order"}


def test_an_event_must_be_the_movers() -> None:
    play = good_hand()
    play.events[1][0]["player"] = 0  # player 1 played 1-1
    problem = turn_order(_rules(), play)
    assert problem is not None
    assert (problem.step, problem.expected, problem.got) == (2, 1, 0)
    assert set(_failing(play)) == {"turn-order"}


def test_a_draw_keeps_the_turn() -> None:
    play = good_hand()
    # the same hand with player 0 drawing 2-3 from the stock first and keeping the turn
    play.deal["hands"][0] = ["0-1"]
    play.deal["stock"] = ["2-3"]
    play.actions.insert(0, "draw")
    play.events.insert(0, [{"type": "draw", "player": 0}])
    start = _state([["0-1"], ["1-1", "1-2"]], [], 0)
    start["stock"] = ["2-3"]
    play.states.insert(0, start)
    assert _failing(play) == {}
    play.states[1]["to_move"] = 1  # passed on after the draw
    problem = turn_order(_rules(), play)
    assert problem is not None and (problem.step, problem.expected, problem.got) == (1, 0, 1)


# --- result consistency ---------------------------------------------------------------------

def _with_result(**changes: Any) -> Playout:
    """The good hand with the state's and the end event's result both changed alike."""
    play = good_hand()
    play.states[-1]["result"].update(changes)
    play.events[-1][-1]["result"].update(copy.deepcopy(changes))
    return play


def test_the_end_event_must_come_last() -> None:
    play = good_hand()
    play.events[-1].reverse()  # end, then the placement
    problem = result_consistency(_rules(), play)
    assert problem is not None and "only end event must be the last" in problem.message
    assert (problem.expected, problem.got) == (1, 1)
    assert set(_failing(play)) == {"result-consistency"}


def test_there_is_exactly_one_end_event() -> None:
    play = good_hand()
    play.events[2].append(copy.deepcopy(play.events[-1][-1]))
    problem = result_consistency(_rules(), play)
    assert problem is not None and (problem.expected, problem.got) == (1, 2)


def test_the_end_event_carries_the_states_result() -> None:
    play = good_hand()
    play.events[-1][-1]["result"]["reason"] = "blocked"
    problem = result_consistency(_rules(), play)
    assert problem is not None
    assert problem.message == "the end event's result is not the state's result"
    assert problem.rules == (_rules().winner.rule,)


def test_the_pips_are_those_left_in_the_final_hands() -> None:
    play = _with_result(pips=[4, 0])  # 2-3 is 5 pips
    problem = result_consistency(_rules(), play)
    assert problem is not None
    assert (problem.expected, problem.got) == ([5, 0], [4, 0])
    assert problem.rules == (_rules().structural.own_tiles,)
    assert set(_failing(play)) == {"result-consistency"}


def test_the_points_are_the_sums_of_the_terms() -> None:
    play = _with_result(points=[5, 0])  # the one term is player 1's
    problem = result_consistency(_rules(), play)
    assert problem is not None
    assert (problem.expected, problem.got) == ([0, 5], [5, 0])


def test_a_term_must_be_what_the_hand_gives() -> None:
    terms = [{"term": "opponent_pips", "player": 1, "points": 7, "rule": "R-CLB-07"}]
    play = _with_result(points=[0, 7], terms=terms)  # player 0 holds 5 pips, not 7
    problem = result_consistency(_rules(), play)
    assert problem is not None
    assert (problem.expected, problem.got) == (5, 7)
    assert problem.rules == ("R-CLB-07",)


def test_the_winner_of_a_domino_is_the_player_who_went_out() -> None:
    # winner 0 with a consistent term: player 1 holds nothing, so 0 points for player 0
    terms = [{"term": "opponent_pips", "player": 0, "points": 0, "rule": "R-CLB-07"}]
    play = _with_result(winner=0, points=[0, 0], terms=terms)
    problem = result_consistency(_rules(), play)
    assert problem is not None
    assert (problem.expected, problem.got) == (1, 0)
    assert problem.rules == (_rules().winner.rule,)
    assert set(_failing(play)) == {"result-consistency"}


def test_a_hand_without_a_result_has_no_result_to_check() -> None:
    play = good_hand()
    del play.actions[3:], play.states[4:], play.events[3:]
    assert result_consistency(_rules(), play) is None


# --- the reference's own hands --------------------------------------------------------------

def _reference_playout(variant: str, seed: int) -> tuple[Rules, Playout]:
    """A seeded hand the reference plays against itself, recorded as a Playout."""
    rules = oracle.rules_of(variant)
    deal = oracle.deal_json(rules, seed, oracle.hand_sizes(rules)[0])
    engine = ReferenceEngine()
    play = Playout(deal, states=[engine.new_hand(variant, {}, deal)])
    rng = random.Random(seed)
    while legal := sorted(engine.legal()):
        action = rng.choice(legal)
        play.actions.append(action)
        play.events.append(engine.apply(action))
        play.states.append(engine.state())
    return rules, play


@pytest.mark.parametrize("variant", variant_ids())
def test_a_reference_hand_holds_every_invariant(variant: str) -> None:
    rules, play = _reference_playout(variant, seed=7)
    assert play.states[-1]["result"] is not None and play.actions
    checks: list[Callable[[Rules, Playout], Problem | None]] = list(INVARIANTS.values())
    assert [check(rules, play) for check in checks] == [None] * len(checks)
