"""Properties of every hand, on random deals and random legal play, for every variant and option.

Hypothesis draws a seed for ``random_deal`` and then each action with
``sampled_from(sorted(legal))``, so a failing hand shrinks to a short, replayable one. After
every step the checks below must hold; they are written from the rulings, not from the engine.

Termination bound. Let N be the tiles in both hands plus the stock at the start and S the stock.
Every placement takes a tile from a hand, so there are at most N placements; at most S draws;
at most 2 stops (one per [0|0]); and no two consecutive turns end in a pass (Poldomino ends the
hand, R-POL-05; elsewhere a pass means the passer is stuck, so the other player can place or
the hand is blocked, R-ALL-05, R-PIJ-08), so passes are at most placements + 1. A hand therefore
ends within S + 2N + 3 actions.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dominokit.reference import (
    Action,
    Deal,
    Event,
    HandResult,
    HandState,
    Rules,
    apply_action,
    legal_actions,
    load_rules,
    new_hand,
    random_deal,
)
from dominokit.spec.spec import validator
from tests.positions import FULL_SET, NO_DOUBLES

PLACING = ("opening", "chain", "board")


@dataclass(frozen=True)
class Config:
    """One variant under one choice of options, with what the rulings say about it."""

    variant: str
    options: dict[str, object] = field(default_factory=dict)
    tiles: tuple[str, ...] = FULL_SET
    optional_play: bool = False
    """Poldomino (R-POL-03): pass always legal after the opening, draw whenever stock is left."""
    draw_until_fit: bool = False
    """Progressive (R-PRO-03): draw only when stuck; pass only when stuck with no stock."""

    @property
    def id(self) -> str:
        return "-".join([self.variant, *(f"{k}={v}" for k, v in self.options.items())])


CONFIGS = [
    Config("poldomino", {"catch_penalty_to": "winner"}, optional_play=True),
    Config("poldomino", {"catch_penalty_to": "loser"}, optional_play=True),
    Config("szczerbak", tiles=NO_DOUBLES),
    Config("progressive", draw_until_fit=True),
    Config("pijanowski", {"lake_rule": "new_region", "hand_size": 12}),
    Config("pijanowski", {"lake_rule": "newly_enclosed", "hand_size": 12}),
    Config("pijanowski", {"lake_rule": "new_region", "hand_size": 14}),
    Config("pijanowski", {"lake_rule": "newly_enclosed", "hand_size": 14}),
    Config("pijanowski", {"double_set": True}, tiles=FULL_SET * 2),
    Config("pijanowski", {"double_set": True, "lake_rule": "newly_enclosed"},
           tiles=FULL_SET * 2),
]


def valid(schema: str, data: Any) -> None:
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in validator(schema).iter_errors(data)]
    assert not errors, errors


def table_tiles(table: dict[str, Any]) -> list[str]:
    """The tiles on the table, from its JSON (a chain's first tile is the widow, if any)."""
    pairs = table["tiles"] if table["kind"] == "chain" else [p["pips"] for p in table["placements"]]
    return [f"{min(a, b)}-{max(a, b)}" for a, b in pairs]


def spread(items: list[Action], count: int) -> list[Action]:
    """Up to ``count`` items, evenly spaced and including the first and last."""
    if len(items) <= count:
        return items
    step = (len(items) - 1) / (count - 1)
    return [items[round(i * step)] for i in range(count)]


def spread_texts(items: list[str], count: int) -> list[str]:
    """Up to ``count`` strings, evenly spaced."""
    step = max(1, len(items) // count)
    return items[::step]


def check_conservation(config: Config, data: dict[str, Any]) -> None:
    """R-ALL-01, R-ALL-03: every tile of the set is in exactly one place."""
    where = [*data["hands"][0], *data["hands"][1], *data["stock"], *data["out_of_play"],
             *table_tiles(data["table"])]
    assert Counter(where) == Counter(config.tiles)


def check_table(config: Config, rules: Rules, data: dict[str, Any]) -> None:
    """The table obeys the placement rules, checked independently of the engine's bookkeeping."""
    table = data["table"]
    if table["kind"] == "chain":
        tiles = table["tiles"]
        parity = rules.parity.policy == "opposite_or_blank"
        for (_, end), (touch, far) in zip(tiles, tiles[1:], strict=False):
            if parity and end == 0:
                continue  # R-SZC-05: anything fits a blank end, either half touching
            assert touch == end, tiles  # R-POL-04, R-PRO-07, R-SZC-04
            if parity:
                assert far == 0 or far % 2 != end % 2, tiles  # R-SZC-04
        if tiles:
            assert table["right"] == tiles[-1][1]
            assert table["left"] == (None if rules.table.ends == 1 else tiles[0][0])
        return
    cells: dict[tuple[int, int], tuple[int, int]] = {}
    for index, placement in enumerate(table["placements"]):
        (r1, c1), (r2, c2) = placement["cells"]
        assert abs(r1 - r2) + abs(c1 - c2) == 1  # R-PIJ-03
        for (r, c), pip in zip(placement["cells"], placement["pips"], strict=True):
            assert 0 <= r < table["rows"] and 0 <= c < table["cols"]
            assert (r, c) not in cells
            cells[(r, c)] = (pip, index)
    for (r, c), (pip, index) in cells.items():
        for near in ((r + 1, c), (r, c + 1)):
            if near in cells and cells[near][1] != index:
                assert cells[near][0] == pip, (r, c, near)  # R-PIJ-04


def check_legal(config: Config, state: HandState, actions: list[Action]) -> None:
    """Sorted, unique, canonical; and the compulsory-play rules (R-ALL-07, R-POL-03, R-PRO-03)."""
    texts = [str(a) for a in actions]
    assert actions, "a hand in progress always has an action"
    assert len(set(texts)) == len(texts)
    assert actions == sorted(actions, key=Action.sort_key)
    assert all(str(Action.parse(t)) == t for t in spread_texts(texts, 200))
    data = state.to_json()
    places = [a for a in actions if a.kind in PLACING]
    kinds = {a.kind for a in actions}
    if data["turn"]["extra"]:
        assert kinds - set(PLACING) == {"stop"}  # R-PIJ-07: place or stop
        return
    empty_table = not table_tiles(data["table"])
    if empty_table:
        assert kinds == {"opening"} or kinds == {"board"}  # R-POL-02, R-PRO-02, R-PIJ-03
        return
    assert "stop" not in kinds
    stock = bool(data["stock"])
    if config.optional_play:
        assert "pass" in kinds
        assert ("draw" in kinds) == stock
    elif config.draw_until_fit:
        assert ("draw" in kinds) == (not places and stock)
        assert ("pass" in kinds) == (not places and not stock)
    else:
        assert "draw" not in kinds
        assert ("pass" in kinds) == (not places)


def check_round_trip(state: HandState, events: Iterable[Event], schema: bool) -> None:
    """JSON round trip of the state, its events and result; schema checks when ``schema``
    (validating every large board state would dominate the run time)."""
    data = state.to_json()
    if schema:
        valid("state", data)
    assert json.loads(json.dumps(data)) == data
    again = HandState.from_json(data)
    assert again == state
    assert again.to_json() == data
    for event in events:
        event_json = event.to_json()
        if schema:
            valid("event", event_json)
        assert Event.from_json(event_json) == event
    if state.result is not None:
        result_json = state.result.to_json()
        valid("hand_result", result_json)
        assert HandResult.from_json(result_json) == state.result


def check_result(rules: Rules, state: HandState) -> None:
    """The result agrees with the final hands and its own terms."""
    data = state.to_json()
    result = data["result"]
    pips = [sum(int(t[0]) + int(t[2]) for t in hand) for hand in data["hands"]]
    assert result["pips"] == pips
    totals = [0, 0]
    for term in result["terms"]:
        assert term["points"] != 0
        totals[term["player"]] += term["points"]
    assert result["points"] == totals
    if result["reason"] == "domino":
        assert [] in data["hands"]
    if rules.winner.policy == "higher_hand_score":
        # R-PIJ-09: each player's hand score is placement points minus pips left.
        assert result["points"] == [data["points"][p] - pips[p] for p in (0, 1)]
        scores = result["points"]
    else:
        assert data["points"] == [0, 0]
        scores = [-pips[0], -pips[1]] if result["reason"] != "domino" else [
            0 if not data["hands"][p] else -1 for p in (0, 1)]
    expected = None if scores[0] == scores[1] else (0 if scores[0] > scores[1] else 1)
    assert result["winner"] == expected


CHAIN = [c for c in CONFIGS if c.variant != "pijanowski"]
BOARD = [c for c in CONFIGS if c.variant == "pijanowski" and not c.options.get("double_set")]
DOUBLE_SET = [c for c in CONFIGS if c.options.get("double_set")]
EXAMPLES = settings().max_examples


@pytest.mark.parametrize("config", CHAIN, ids=[c.id for c in CHAIN])
@pytest.mark.rule("R-ALL-01", "R-ALL-03", "R-ALL-05", "R-ALL-07", "R-ALL-08", "R-ALL-09",
                  "R-ALL-10", "R-ALL-13", "R-ALL-14", "R-POL-03", "R-POL-05", "R-PRO-03",
                  "R-SZC-04", "R-SZC-05", "R-SZC-06")
@given(data=st.data())
def test_random_chain_hands_keep_every_invariant(config: Config, data: st.DataObject) -> None:
    play_random_hand(config, data)


@pytest.mark.parametrize("config", BOARD, ids=[c.id for c in BOARD])
@pytest.mark.rule("R-ALL-01", "R-ALL-07", "R-ALL-08", "R-ALL-10", "R-ALL-13", "R-ALL-14",
                  "R-PIJ-02", "R-PIJ-03", "R-PIJ-04", "R-PIJ-06", "R-PIJ-07", "R-PIJ-08",
                  "R-PIJ-09")
@settings(max_examples=max(1, EXAMPLES // 3))  # a board hand costs several chain hands
@given(data=st.data())
def test_random_board_hands_keep_every_invariant(config: Config, data: st.DataObject) -> None:
    play_random_hand(config, data)


@pytest.mark.parametrize("config", DOUBLE_SET, ids=[c.id for c in DOUBLE_SET])
@pytest.mark.rule("R-PIJ-11", "R-ALL-01", "R-ALL-07", "R-ALL-08", "R-PIJ-03", "R-PIJ-04",
                  "R-PIJ-07", "R-PIJ-09")
@settings(max_examples=max(1, EXAMPLES // 6))  # 56-tile hands on a 12 x 12 board are long
@given(data=st.data())
def test_random_double_set_hands_keep_every_invariant(config: Config,
                                                      data: st.DataObject) -> None:
    play_random_hand(config, data)


def play_random_hand(config: Config, data: st.DataObject) -> None:
    """Deal at random, then play random legal actions to the end, checking after every step."""
    rules = load_rules(config.variant, config.options)
    sizes = None
    if rules.setup.hand_size is None:
        sizes = data.draw(st.sampled_from(sorted(rules.match.schedule_sizes())), label="sizes")
    seed = data.draw(st.integers(0, 2**32 - 1), label="seed")
    deal = random_deal(rules, random.Random(seed), hand_sizes=sizes)
    deal_json = deal.to_json()
    valid("deal", deal_json)
    assert Deal.from_json(deal_json) == deal
    state = new_hand(rules, deal)
    start = state.to_json()
    n_tiles = len(start["hands"][0]) + len(start["hands"][1]) + len(start["stock"])
    bound = len(start["stock"]) + 2 * n_tiles + 3
    check_round_trip(state, [], schema=True)
    placements_this_turn = 0
    steps = 0
    while state.result is None:
        data_before = state.to_json()
        check_conservation(config, data_before)
        check_table(config, rules, data_before)
        actions = legal_actions(state)
        check_legal(config, state, actions)
        # Every listed action applies, without mutating the state; on a board, where there
        # can be thousands, an evenly spaced sample.
        for other in spread(actions, 3) if rules.is_board else actions:
            apply_action(state, other)
        assert state.to_json() == data_before
        choice = data.draw(st.sampled_from(sorted(str(a) for a in actions)), label="action")
        after, events = apply_action(state, choice)
        assert state.to_json() == data_before  # apply never mutates its input
        check_round_trip(after, events, schema=steps % 16 == 0 or after.result is not None)
        kind = Action.parse(choice).kind
        after_json = after.to_json()
        assert (events[-1].type == "end") == (after.result is not None)  # R-ALL-10
        if after.result is None:
            if kind == "draw":  # draws do not end the turn (R-ALL-13)
                assert after.to_move == state.to_move
                assert after_json["stock"] == data_before["stock"][1:]
            elif kind in ("pass", "stop") or not after_json["turn"]["extra"]:
                assert after.to_move == 1 - data_before["to_move"]
            else:  # the extra tile after [0|0] (R-PIJ-07)
                assert after.to_move == state.to_move
        if kind in PLACING:
            placements_this_turn += 1
            assert placements_this_turn <= (2 if data_before["turn"]["extra"] else 1)
        if after.result is not None or after.to_move != state.to_move:
            placements_this_turn = 0
        if rules.is_board and kind in PLACING:
            gained = sum(e.points or 0 for e in events if e.type in ("place", "lake"))
            mover = data_before["to_move"]
            assert after_json["points"][mover] == data_before["points"][mover] + gained
        state = after
        steps += 1
        assert steps <= bound, f"no end after {steps} actions (bound {bound})"
    check_conservation(config, state.to_json())
    check_table(config, rules, state.to_json())
    check_result(rules, state)
    assert legal_actions(state) == []  # R-ALL-14
