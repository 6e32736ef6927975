"""Quick checks that the engine's verbs work end to end for every bundled variant.

Each variant gets one hand from an explicit deal, played to the end by always taking the first
legal action; every state, event and result on the way must fit its JSON Schema and round-trip.
The notation tests pin the one-spelling-per-action rule. The full suite lives elsewhere.
"""

from __future__ import annotations

from typing import Any

import pytest

from dominokit.reference import (
    Action,
    Deal,
    HandState,
    IllegalActionError,
    NotationError,
    Tile,
    apply_action,
    legal_actions,
    load_variant,
    new_hand,
    tile_set,
    variant_ids,
)
from dominokit.spec.spec import validator

# --- tiles and notation ------------------------------------------------------------------


@pytest.mark.rule("R-ALL-01")
def test_tile_sets_have_the_documented_sizes() -> None:
    assert len(tile_set(6, True, 1)) == 28  # 7 * 8 / 2 pairs a <= b
    assert len(tile_set(6, False, 1)) == 21  # 28 minus the 7 doubles
    assert len(tile_set(6, True, 2)) == 56  # two full sets


def test_tile_spelling_and_repr_round_trip() -> None:
    tile = Tile.parse("2-5")
    assert (tile.low, tile.high, tile.pips, tile.is_double) == (2, 5, 7, False)
    assert str(tile) == "2-5"
    assert eval(repr(tile)) == tile  # repr is valid Python
    with pytest.raises(NotationError, match="'5-2'"):
        Tile.parse("5-2")
    with pytest.raises(ValueError):
        Tile(5, 2)


CANONICAL = ["1-5", "6-6", "1-3@L1", "3-5@R3", "0-4@R4", "0-4@R0", "4-4@R4",
             "5-6@0.4+0.5", "4-6@0.5+0.4", "4-4@2.0+2.1", "0-0@3.3+4.3", "1-5@10.0+11.0",
             "draw", "pass", "stop"]


@pytest.mark.parametrize("text", CANONICAL)
def test_canonical_actions_round_trip(text: str) -> None:
    action = Action.parse(text)
    assert str(action) == text
    assert eval(repr(action)) == action


NOT_CANONICAL = ["5-2", " 2-5", "2-5 ", "2-5@L3", "2-5@l2", "2-5@X2", "2-7", "02-5",
                 "2-5@01.0+1.1", "4-4@2.1+2.0", "2-5@1.0+1.1+1.2", "Draw", "draw\n", "",
                 "2-5@L", "2-5@R25", "pass ", "7-7"]


@pytest.mark.parametrize("text", NOT_CANONICAL)
def test_non_canonical_spellings_are_refused_and_quoted(text: str) -> None:
    with pytest.raises(NotationError) as caught:
        Action.parse(text)
    assert repr(text) in str(caught.value)


def test_action_sort_key_follows_the_documented_order() -> None:
    spelled = ["stop", "pass", "draw", "0-1@0.0+0.1", "1-2@R1", "1-2@L2", "1-2@L1", "0-6@R0",
               "3-4", "0-1"]
    ordered = sorted((Action.parse(t) for t in spelled), key=Action.sort_key)
    # opening < chain < board < draw < pass < stop; then tile, then L < R, then touching pip
    assert [str(a) for a in ordered] == ["0-1", "3-4", "0-6@R0", "1-2@L1", "1-2@L2", "1-2@R1",
                                         "0-1@0.0+0.1", "draw", "pass", "stop"]


def test_board_constructor_puts_a_double_in_row_major_order() -> None:
    double = Tile(4, 4)
    assert str(Action.board(double, (2, 1), (2, 0))) == "4-4@2.0+2.1"
    assert str(Action.board(Tile(4, 6), (0, 5), (0, 4))) == "4-6@0.5+0.4"


# --- one hand of every variant -----------------------------------------------------------


def explicit_deal(variant_id: str) -> Deal:
    """A fixed deal: hands take alternate tiles of the sorted set; the rest in sorted order."""
    rules_data = load_variant(variant_id).resolve(None).config
    tiles_spec = rules_data["components"]["tiles"]
    tiles = list(tile_set(tiles_spec["max_pip"], tiles_spec["doubles"], tiles_spec["copies"]))
    setup = rules_data["setup"]
    if setup["hand_size"] == "schedule":
        size = rules_data["match"]["rounds"][0]["deals"][0][0]
    else:
        size = setup["hand_size"]
    hands = (tuple(tiles[0:2 * size:2]), tuple(tiles[1:2 * size:2]))
    rest = tiles[2 * size:]
    widow = None
    stock: list[Tile] = []
    out: list[Tile] = []
    if setup["remainder"] == "widow":
        last = rest.pop()
        widow = (last.high, last.low)
    elif setup["remainder"] == "stock":
        stock = rest
    elif setup["remainder"] == "out_of_play":
        out = rest
    starter = None if setup["starter"] == "widow" else 1
    return Deal(hands, tuple(stock), tuple(out), starter, widow)


def check(schema: str, value: Any) -> None:
    errors = list(validator(schema).iter_errors(value))
    assert not errors, f"{schema}: {errors[0].message} at {list(errors[0].absolute_path)}"


@pytest.mark.parametrize("variant_id", variant_ids())
def test_a_hand_plays_to_the_end_by_first_legal_action(variant_id: str) -> None:
    deal = explicit_deal(variant_id)
    check("deal", deal.to_json())
    assert Deal.from_json(deal.to_json()) == deal
    state = new_hand(variant_id, deal)
    steps = 0
    while state.result is None:
        check("state", state.to_json())
        assert HandState.from_json(state.to_json()) == state
        legal = legal_actions(state)
        assert legal, "a hand in progress always has a legal action"
        assert legal == sorted(set(legal), key=Action.sort_key)
        before, before_json = state, state.to_json()
        state, events = apply_action(state, legal[0])
        assert before.to_json() == before_json  # the input state was not changed
        for event in events:
            check("event", event.to_json())
        steps += 1
        assert steps < 500, "the hand should have ended"
    check("state", state.to_json())
    check("hand_result", state.result.to_json())
    assert events[-1].type == "end"
    assert legal_actions(state) == []
    with pytest.raises(IllegalActionError) as caught:
        apply_action(state, "pass")
    assert caught.value.rule == "R-ALL-14"
    assert list(state.result.pips) == [sum(t.pips for t in hand) for hand in state.hands]


# --- a hand-checked Poldomino finish and two illegal actions -----------------------------


def poldomino_state(hands: list[list[str]], chain: list[list[int]], to_move: int) -> HandState:
    """A mid-hand Poldomino state; every tile not in a hand or the chain is in the stock."""
    used = {Tile.parse(t) for hand in hands for t in hand} | {Tile.of(*t) for t in chain}
    stock = [str(t) for t in tile_set(6, True, 1) if t not in used]
    return HandState.from_json({
        "variant": "poldomino", "options": {"catch_penalty_to": "winner"},
        "hands": hands, "stock": stock, "out_of_play": [],
        "table": {"kind": "chain", "tiles": chain, "left": chain[0][0], "right": chain[-1][1]},
        "starter": 0, "to_move": to_move, "turn": {"draws": 0, "extra": False}, "passes": 0,
        "points": [0, 0], "last_placed": [None, None], "widow": None, "result": None,
    })


@pytest.mark.rule("R-POL-06", "R-POL-07", "R-POL-08")
def test_poldomino_domino_with_double_six_earns_the_bonus() -> None:
    state = poldomino_state([["6-6"], ["0-0", "2-3"]], [[1, 6]], to_move=0)
    state, events = apply_action(state, "6-6@R6")
    result = state.result
    assert result is not None and result.reason == "domino" and result.winner == 0
    # opponent pips 0+0+2+3 = 5, minus own 0, plus 120 for going out on 6-6; no catch (2 tiles)
    assert result.points == (125, 0)
    assert [(t.term, t.points, t.rule) for t in result.terms] == [
        ("opponent_pips", 5, "R-POL-07"), ("last_tile_bonus", 120, "R-POL-08")]
    assert [e.type for e in events] == ["place", "end"]


def test_illegal_actions_name_the_rule_from_the_spec() -> None:
    data = load_variant("poldomino").data
    state = poldomino_state([["2-4"], ["0-0", "2-3"]], [[1, 6]], to_move=0)
    with pytest.raises(IllegalActionError) as caught:
        apply_action(state, "2-4@R2")  # the right end shows 6
    assert caught.value.rule == data["turn"]["matching"]["rule"]
    with pytest.raises(IllegalActionError) as caught:
        apply_action(state, "2-3@L2")  # 2-3 is player 1's tile
    assert caught.value.rule == "R-ALL-12"


@pytest.mark.rule("R-PIJ-05", "R-PIJ-06", "R-PIJ-07", "R-PIJ-12")
def test_pijanowski_published_opening_scores_as_printed() -> None:
    # The seed prints each turn's points: 22, 20, 20, 16, 6, 6, 7, then [0|0] and [0|3] in one
    # turn for 6+16 = 22. The cells are the spec's reconstruction (R-PIJ-12).
    plays = [("5-6@0.2+0.3", 22), ("4-6@0.5+0.4", 20), ("5-5@0.0+0.1", 20), ("4-4@0.6+0.7", 16),
             ("1-5@2.0+1.0", 6), ("0-6@2.3+1.3", 6), ("3-4@1.8+0.8", 7), ("0-0@2.4+2.5", 0),
             ("0-3@2.6+2.7", 22)]
    movers = [0, 1, 0, 1, 0, 1, 0, 1, 1]  # alternating; [0|0] keeps the turn
    first = {"5-6", "5-5", "1-5", "3-4"}
    second = {"4-6", "4-4", "0-6", "0-0", "0-3"}
    rest = [t for t in tile_set(6, True, 1) if str(t) not in first | second]
    hand0 = tuple(sorted([*map(Tile.parse, first), *rest[:8]]))
    hand1 = tuple(sorted([*map(Tile.parse, second), *rest[8:15]]))
    state = new_hand("pijanowski", Deal((hand0, hand1), (), tuple(rest[15:]), 0))
    for (action, points), mover in zip(plays, movers, strict=True):
        assert state.to_move == mover
        state, events = apply_action(state, action)
        assert sum(e.points or 0 for e in events) == points, action
    assert [e.type for e in events] == ["place", "lake"]
    assert events[1].cells == ((1, 4), (1, 5), (1, 6), (1, 7))
    assert state.points == (22 + 20 + 6 + 7, 20 + 16 + 6 + 0 + 22)
