"""Every value with a JSON form reads back equal from it, and the JSON fits its schema.

Values: Tile, Action (every notation form), Deal, HandState (chain and board tables, mid-turn
draws, the extra-tile phase, ended hands), Event, HandResult and MatchState.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from dominokit.reference import (
    Action,
    Deal,
    Event,
    HandResult,
    HandState,
    MatchState,
    Tile,
    apply_action,
    finish_hand,
    legal_actions,
    load_rules,
    new_hand,
    new_match,
    random_deal,
)
from dominokit.spec.spec import validator
from tests.positions import FULL_SET, board_deal, chain_deal, widow_deal


def valid(schema: str, data: Any) -> None:
    """Fail with every schema error listed."""
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in validator(schema).iter_errors(data)]
    assert not errors, errors


# --- Tile and Action -------------------------------------------------------------------------


@pytest.mark.rule("R-ALL-01")
def test_every_tile_round_trips() -> None:
    for text in FULL_SET:
        tile = Tile.parse(text)
        assert str(tile) == text
        assert eval(repr(tile)) == tile
        assert Tile.of(tile.high, tile.low) == tile
        assert tile.pips == int(text[0]) + int(text[2])


ACTIONS = [
    "0-0", "1-5", "6-6",  # openings
    "1-3@L1", "1-3@L3", "3-5@R3", "0-4@R4", "0-4@R0", "4-4@R4", "4-4@L4",  # chain plays
    "5-6@0.4+0.5", "4-6@0.5+0.4", "4-4@2.0+2.1", "0-0@3.3+4.3", "1-5@2.0+1.0",  # board plays
    "2-3@10.11+11.11", "0-6@11.0+11.1", "1-1@0.10+0.11",  # two-digit cells
    "draw", "pass", "stop",
]


@pytest.mark.parametrize("text", ACTIONS)
@pytest.mark.rule("R-ALL-09")
def test_every_action_form_round_trips(text: str) -> None:
    action = Action.parse(text)
    assert str(action) == text
    assert eval(repr(action)) == action
    assert Action.parse(str(action)) == action
    valid("action", text)


def test_action_constructors_give_the_canonical_spelling() -> None:
    assert str(Action.opening(Tile(1, 5))) == "1-5"
    assert str(Action.chain(Tile(0, 4), "R", 0)) == "0-4@R0"
    assert str(Action.board(Tile(5, 6), (0, 4), (0, 5))) == "5-6@0.4+0.5"
    # A double's cells are put in row-major order: one spelling per placement.
    assert str(Action.board(Tile(4, 4), (2, 1), (2, 0))) == "4-4@2.0+2.1"
    assert [str(a) for a in (Action.DRAW, Action.PASS, Action.STOP)] == ["draw", "pass", "stop"]


# --- Deal -------------------------------------------------------------------------------------

DEAL_OPTIONS: list[tuple[str, dict[str, object], tuple[int, int] | None]] = [
    ("poldomino", {}, None),
    ("szczerbak", {}, None),
    ("progressive", {}, (9, 9)),
    ("progressive", {}, (5, 14)),
    ("pijanowski", {}, None),
    ("pijanowski", {"hand_size": 14}, None),
    ("pijanowski", {"double_set": True}, None),
]


@pytest.mark.parametrize(("variant", "options", "sizes"), DEAL_OPTIONS)
@pytest.mark.rule("R-ALL-03")
def test_deal_round_trips(variant: str, options: dict[str, object],
                          sizes: tuple[int, int] | None) -> None:
    rules = load_rules(variant, options)
    for seed in range(3):
        deal = random_deal(rules, random.Random(seed), hand_sizes=sizes)
        data = deal.to_json()
        valid("deal", data)
        again = Deal.from_json(data)
        assert again == deal
        assert again.to_json() == data
        # The stock keeps its order; hands and unseen tiles are sorted.
        assert [str(t) for t in deal.stock] == data["stock"]
        assert data["hands"] == [sorted(h, key=Tile.parse) for h in data["hands"]]


# --- HandState, Event, HandResult -----------------------------------------------------------


def scripted(variant: str, deal: Deal, actions: Sequence[str],
             options: dict[str, object] | None = None) -> list[tuple[HandState, list[Event]]]:
    """Every state of a scripted hand (the first with no events) and the events leading to it."""
    state = new_hand(variant, deal, options)
    out: list[tuple[HandState, list[Event]]] = [(state, [])]
    for action in actions:
        state, events = apply_action(state, action)
        out.append((state, events))
    return out


POL_DEAL = chain_deal(["1-2", "3-3", "4-4", "5-5", "6-6"], ["0-0", "0-3", "0-4", "0-5", "0-6"],
                      ["0-1", "1-1"])
SZC_DEAL = widow_deal(["0-1", "0-2", "0-3", "0-4", "0-5", "0-6", "1-2", "1-3", "1-4", "3-6"],
                      (3, 2))
PIJ_DEAL = board_deal(FULL_SET[:12], FULL_SET[12:24])

HANDS: dict[str, list[tuple[HandState, list[Event]]]] = {}


def hands() -> dict[str, list[tuple[HandState, list[Event]]]]:
    """Scripted hands covering each table kind, phase and end (built once)."""
    if not HANDS:
        HANDS["poldomino"] = scripted(  # draws mid-turn, a pass, then a mutual pass
            "poldomino", POL_DEAL, ["1-2", "draw", "0-1@L1", "draw", "pass", "pass"])
        HANDS["poldomino-catch"] = scripted(  # catch to the loser: a negative delta
            "poldomino", POL_DEAL, ["1-2", "pass", "pass"], {"catch_penalty_to": "loser"})
        HANDS["szczerbak"] = scripted("szczerbak", SZC_DEAL, ["3-6@R3", "1-6@R6", "0-1@R1"])
        HANDS["progressive"] = scripted(
            "progressive", chain_deal(["1-2", "1-3", "2-2", "3-3", "1-1"],
                                      ["2-6", "4-4", "4-5", "5-5", "6-6"], ["0-4", "0-2"]),
            ["1-2", "2-6@R2", "1-3@L1", "6-6@R6", "3-3@L3", "draw", "draw"])
        HANDS["pijanowski"] = scripted(  # [0|0], stop, a stuck pass, then two placements
            "pijanowski", PIJ_DEAL, ["0-0@2.2+2.3", "stop", "pass", "0-1@2.4+2.5",
                                     "1-6@2.6+2.7"], {"lake_rule": "newly_enclosed"})
    return HANDS


@pytest.mark.parametrize("name", ["poldomino", "poldomino-catch", "szczerbak", "progressive",
                                  "pijanowski"])
def test_hand_states_events_and_results_round_trip(name: str) -> None:
    for state, events in hands()[name]:
        data = state.to_json()
        valid("state", data)
        again = HandState.from_json(data)
        assert again == state
        assert again.to_json() == data
        assert [str(a) for a in legal_actions(again)] == [str(a) for a in legal_actions(state)]
        for event in events:
            event_json = event.to_json()
            valid("event", event_json)
            assert Event.from_json(event_json) == event
            assert Event.from_json(event_json).to_json() == event_json
        if state.result is not None:
            result_json = state.result.to_json()
            valid("hand_result", result_json)
            assert HandResult.from_json(result_json) == state.result
            assert HandResult.from_json(result_json).to_json() == result_json


def test_scripted_hands_reach_the_phases_they_are_meant_to() -> None:
    pol = [s.to_json() for s, _ in hands()["poldomino"]]
    assert pol[2]["turn"]["draws"] == 1 and pol[2]["to_move"] == 1
    assert pol[-1]["result"]["reason"] == "mutual_pass"
    catch = hands()["poldomino-catch"][-1][0].to_json()
    assert catch["options"] == {"catch_penalty_to": "loser"}
    pij = [s.to_json() for s, _ in hands()["pijanowski"]]
    assert pij[1]["turn"]["extra"] is True
    assert pij[2]["turn"]["extra"] is False and pij[2]["to_move"] == 1
    assert pij[-1]["table"]["kind"] == "board" and len(pij[-1]["table"]["placements"]) == 3
    szc = hands()["szczerbak"][-1][0].to_json()
    assert szc["widow"] == [3, 2] and szc["table"]["tiles"][0] == [2, 3]


# --- MatchState -----------------------------------------------------------------------------


def won(player: int, points: int) -> HandResult:
    return HandResult(player, "domino", (points, 0) if player == 0 else (0, points), (0, 0))


MATCHES: list[tuple[str, dict[str, object], list[HandResult]]] = [
    ("poldomino", {}, [won(0, 100), won(0, 30), won(1, 60)]),  # set 1 won, set 2 begun
    ("poldomino", {"catch_penalty_to": "loser"}, []),
    ("szczerbak", {}, [won(1, 40), won(0, 99)]),
    ("pijanowski", {"hand_size": 14}, [HandResult(None, "block", (70, 70), (3, 3))]),
    ("progressive", {}, [won(0, 10)] * 10 + [won(1, 5)] * 3),  # round 1 over, round 2 begun
    ("poldomino", {}, [won(0, 130), won(0, 130)]),  # a finished match
]


@pytest.mark.parametrize(("variant", "options", "results"), MATCHES)
@pytest.mark.rule("R-ALL-04")
def test_match_state_round_trips(variant: str, options: dict[str, object],
                                 results: list[HandResult]) -> None:
    match = new_match(variant, options, first_starter=1)
    seen = [match]
    for result in results:
        match, _ = finish_hand(match, result)
        seen.append(match)
    for state in seen:
        data = state.to_json()
        valid("match_state", data)
        again = MatchState.from_json(data)
        assert again.to_json() == data
        assert again.plan() == state.plan()
    assert seen[-1].to_json()["hands_played"] == len(results)
