"""The match level: sets, target totals, rounds and tiebreaks, and starter alternation.

Most tests feed made-up hand results to ``finish_hand`` (the match only reads their points),
so each scenario's arithmetic is in plain sight; the last tests play whole matches.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from dominokit.reference import (
    Action,
    Deal,
    DealError,
    HandPlan,
    HandResult,
    HandState,
    MatchEvent,
    MatchState,
    finish_hand,
    new_match,
    play_match,
    random_deal,
    start_hand,
    variant_ids,
)
from dominokit.spec.spec import validator


def won(player: int, points: int) -> HandResult:
    """A hand that ``player`` won for ``points`` (the loser scores nothing)."""
    pair = (points, 0) if player == 0 else (0, points)
    return HandResult(player, "domino", pair, (0, 0))


def scored(a: int, b: int) -> HandResult:
    """A hand that changes the running totals by (a, b); the winner is the higher."""
    winner = None if a == b else (0 if a > b else 1)
    return HandResult(winner, "block", (a, b), (0, 0))


def feed(match: MatchState, *results: HandResult) -> tuple[MatchState, list[list[MatchEvent]]]:
    """Finish one hand per result; the match events of each hand, in order."""
    events = []
    for result in results:
        match, new = finish_hand(match, result)
        events.append(new)
    return match, events


def starters(match: MatchState, results: list[HandResult]) -> list[int | None]:
    """The planned starter of each hand while ``results`` are fed one by one."""
    seen = []
    for result in results:
        plan = match.plan()
        assert plan is not None
        seen.append(plan.starter)
        match, _ = finish_hand(match, result)
    return seen


def roundtrip(match: MatchState) -> None:
    """The JSON form is schema-valid and reads back to an equal match."""
    validator("match_state").validate(match.to_json())
    again = MatchState.from_json(match.to_json())
    assert again == match
    assert again.to_json() == match.to_json()


# --- Poldomino: sets (R-POL-10) -----------------------------------------------------------


@pytest.mark.rule("R-POL-10", "R-ALL-04")
def test_poldomino_match_needs_a_third_set() -> None:
    match = new_match("poldomino")
    hands = [
        won(0, 60), won(1, 70), won(0, 65),  # set 1: 60, 70, 125 -> P0 reaches 125 exactly
        won(1, 130),                         # set 2: P1 130 at once
        won(0, 100), won(1, 124), won(0, 30),  # set 3: 100:124, then 130:124 -> P0
    ]
    labels = []
    for result in hands:
        plan = match.plan()
        assert plan is not None and plan.hand_sizes == (5, 5)
        labels.append(plan.label)
        match, _ = finish_hand(match, result)
    assert labels == ["set 1 hand 1", "set 1 hand 2", "set 1 hand 3", "set 2 hand 1",
                      "set 3 hand 1", "set 3 hand 2", "set 3 hand 3"]
    assert match.finished and match.winner == 0 and match.plan() is None
    assert match.sets_won == (2, 1)
    assert match.to_json()["phase"] == "over" and match.to_json()["next"] is None

    _, events = feed(new_match("poldomino"), *hands)
    assert [e.to_json() for e in events[2]] == [
        {"type": "set_won", "name": "set 1", "winner": 0, "totals": [125, 70],
         "sets_won": [1, 0]}]
    assert [e.to_json() for e in events[3]] == [
        {"type": "set_won", "name": "set 2", "winner": 1, "totals": [0, 130],
         "sets_won": [1, 1]}]
    assert events[5] == []  # 100:124, nobody at 125
    assert [e.to_json() for e in events[6]] == [
        {"type": "set_won", "name": "set 3", "winner": 0, "totals": [130, 124],
         "sets_won": [2, 1]},
        {"type": "match_won", "winner": 0}]


@pytest.mark.rule("R-POL-10")
def test_set_totals_reset_after_a_set() -> None:
    match, _ = feed(new_match("poldomino"), won(0, 125), won(1, 20))
    # set 1 ended 125:0 and reset; set 2 stands 0:20
    assert match.totals == (0, 20) and match.sets_won == (1, 0)
    json = match.to_json()
    assert json["phase"] == "set 2 hand 2"
    assert json["next"] == {"starter": 0, "hand_sizes": [5, 5]}  # 3rd hand: index 2, even
    roundtrip(match)


@pytest.mark.rule("R-POL-09", "R-POL-10")
def test_catch_penalty_to_loser_makes_a_negative_set_total() -> None:
    match = new_match("poldomino", {"catch_penalty_to": "loser"})
    assert match.to_json()["options"] == {"catch_penalty_to": "loser"}
    # P0 wins by domino catching P1's lone 0-0: P0 +0 (P1's 0-0 has no pips), P1 -30
    match, events = feed(match, HandResult(0, "domino", (0, -30), (0, 0)))
    assert match.totals == (0, -30) and events == [[]]
    match, _ = feed(match, won(1, 40))                      # -30 + 40 = 10
    assert match.totals == (0, 10)
    match, events = feed(match, won(0, 124), won(0, 1))     # 124, then 125 -> set 1 to P0
    assert events[-1][0].to_json()["totals"] == [125, 10]
    roundtrip(match)


# --- target matches (R-SZC-07, R-PIJ-10) -----------------------------------------------------


@pytest.mark.rule("R-SZC-07", "R-SZC-02")
def test_szczerbak_exactly_100_wins() -> None:
    match = new_match("szczerbak")
    match, events = feed(match, won(0, 60), won(1, 99))    # 60:99, nobody at 100
    assert events == [[], []] and not match.finished
    plan = match.plan()
    assert plan is not None
    assert (plan.starter, plan.hand_sizes, plan.label) == (None, (10, 10), "hand 3")
    match, events = feed(match, won(0, 40))                # 100:99 -> at least 100
    assert match.finished and match.winner == 0
    assert [e.to_json() for e in events[0]] == [{"type": "match_won", "winner": 0}]
    roundtrip(match)


@pytest.mark.rule("R-SZC-07")
def test_at_least_target_reached_by_both_with_equal_totals_plays_on() -> None:
    # Not reachable when only the winner scores, but the comparison is generic:
    # 90:95 then +10:+5 -> 100:100, both there and equal -> another hand; +0:+3 -> P1
    match, _ = feed(new_match("szczerbak"), scored(90, 95), scored(10, 5))
    assert match.totals == (100, 100) and not match.finished
    match, _ = feed(match, scored(0, 3))
    assert match.winner == 1


@pytest.mark.rule("R-PIJ-10", "R-ALL-04")
def test_pijanowski_must_exceed_500_and_equal_totals_play_on() -> None:
    match = new_match("pijanowski", first_starter=1)
    results = [scored(300, 250), scored(200, 250), scored(30, 30), scored(-5, 10)]
    assert starters(match, results) == [1, 0, 1, 0]
    match, events = feed(match, *results[:2])
    assert match.totals == (500, 500) and not match.finished  # 500 does not exceed 500
    match, events = feed(match, results[2])
    assert match.totals == (530, 530) and not match.finished  # both over, equal: play on
    match, events = feed(match, results[3])
    assert match.totals == (525, 540) and match.winner == 1   # 530-5, 530+10
    assert [e.to_json() for e in events[0]] == [{"type": "match_won", "winner": 1}]


@pytest.mark.rule("R-PIJ-02", "R-PIJ-11")
def test_pijanowski_hand_sizes_follow_the_options() -> None:
    for options, size in (({}, 12), ({"hand_size": 14}, 14), ({"double_set": True}, 28)):
        plan = new_match("pijanowski", options).plan()
        assert plan is not None and plan.hand_sizes == (size, size)


# --- Progressive: rounds and tiebreaks (R-PRO-05, R-PRO-06) ------------------------------------


def ten(result: HandResult) -> list[HandResult]:
    return [result] * 10


@pytest.mark.rule("R-PRO-01", "R-PRO-05")
def test_progressive_schedule_of_hand_sizes() -> None:
    match = new_match("progressive")
    names = [r.name for r in match.spec.rounds]
    sizes = []
    labels = []
    for _ in range(20):
        plan = match.plan()
        assert plan is not None
        sizes.append(plan.hand_sizes)
        labels.append(plan.label)
        match, _ = finish_hand(match, won(0, 1))
    # round 1 deal k: 4 + k each; round 2 deal k: 15 - k each
    assert sizes == [(4 + k, 4 + k) for k in range(1, 11)] + [(15 - k, 15 - k)
                                                              for k in range(1, 11)]
    assert labels[0] == f"{names[0]} deal 1" and labels[19] == f"{names[1]} deal 10"


@pytest.mark.rule("R-PRO-05")
def test_progressive_won_on_both_rounds() -> None:
    match = new_match("progressive")
    names = [r.name for r in match.spec.rounds]
    # round 1: ten hands of 3:1 -> 30:10 P0; round 2: ten of 2:1 -> 20:10 P0
    match, events = feed(match, *ten(scored(3, 1)), *ten(scored(2, 1)))
    assert [e.to_json() for e in events[9]] == [
        {"type": "round_end", "name": names[0], "winner": 0, "totals": [30, 10]}]
    assert all(e == [] for e in events[:9] + events[10:19])
    assert [e.to_json() for e in events[19]] == [
        {"type": "round_end", "name": names[1], "winner": 0, "totals": [20, 10]},
        {"type": "match_won", "winner": 0}]
    assert match.finished and match.winner == 0 and match.hands_played == 20
    assert match.to_json()["rounds"] == [
        {"name": names[0], "totals": [30, 10], "winner": 0},
        {"name": names[1], "totals": [20, 10], "winner": 0}]
    roundtrip(match)


@pytest.mark.rule("R-PRO-05")
def test_progressive_one_round_won_and_one_drawn_wins() -> None:
    match = new_match("progressive")
    # round 1: 1:4 ten times -> 10:40 P1; round 2: 5:5 -> 50:50 drawn; P1 has 1 win to 0
    match, events = feed(match, *ten(scored(1, 4)), *ten(scored(5, 5)))
    assert [e.to_json()["winner"] for e in events[19]] == [None, 1]
    assert events[19][0].to_json()["totals"] == [50, 50]
    assert match.winner == 1


@pytest.mark.rule("R-PRO-05")
def test_rounds_are_both_played_even_when_the_first_decides_nothing_yet() -> None:
    # a huge first round does not end the match: round 2 is always played
    match, _ = feed(new_match("progressive"), *ten(scored(100, 0)))
    assert not match.finished and match.hands_played == 10
    plan = match.plan()
    assert plan is not None and plan.hand_sizes == (14, 14)  # round 2 deal 1: 15 - 1


@pytest.mark.rule("R-PRO-06", "R-ALL-04")
def test_progressive_tiebreak_then_swapped_tiebreak() -> None:
    # A is the first starter, here player 1.
    match = new_match("progressive", first_starter=1)
    match, events = feed(match, *ten(scored(2, 1)), *ten(scored(1, 2)))  # 1 round each
    assert [e.to_json() for e in events[19]][1:] == [
        {"type": "tiebreak_start", "name": "tiebreak 1", "player_a": 1}]
    assert not match.finished and match.totals == (0, 0)
    sizes = []
    for _ in range(10):
        plan = match.plan()
        assert plan is not None
        sizes.append(plan.hand_sizes)
        match, last = finish_hand(match, scored(1, 1))
    # tiebreak 1 deal k: A (player 1) holds 4 + k, B (player 0) holds 15 - k
    assert sizes == [(15 - k, 4 + k) for k in range(1, 11)]
    # 10:10 -> tied: a second tiebreak with roles swapped, A = player 0
    assert [e.to_json() for e in last] == [
        {"type": "round_end", "name": "tiebreak 1", "winner": None, "totals": [10, 10]},
        {"type": "tiebreak_start", "name": "tiebreak 2", "player_a": 0}]
    plan = match.plan()
    assert plan is not None and plan.hand_sizes == (5, 14) and plan.label == "tiebreak 2 deal 1"
    assert plan.starter == 1  # hand index 30 is even: the first starter, never reset
    roundtrip(match)
    match, events = feed(match, *[scored(0, 1)] * 9, scored(20, 0))  # 20:9 -> P0
    assert [e.to_json() for e in events[9]] == [
        {"type": "round_end", "name": "tiebreak 2", "winner": 0, "totals": [20, 9]},
        {"type": "match_won", "winner": 0}]
    assert match.winner == 0 and match.hands_played == 40
    assert [r["name"] for r in match.to_json()["rounds"]][2:] == ["tiebreak 1", "tiebreak 2"]
    roundtrip(match)


@pytest.mark.rule("R-PRO-06")
def test_two_drawn_rounds_go_to_a_tiebreak() -> None:
    match, events = feed(new_match("progressive"), *ten(scored(1, 1)), *ten(scored(2, 2)))
    assert [e.type for e in events[19]] == ["round_end", "tiebreak_start"]
    assert not match.finished


# --- starters (R-ALL-04, R-SZC-02) --------------------------------------------------------


@pytest.mark.rule("R-ALL-04")
def test_starters_alternate_across_sets_without_reset() -> None:
    # set 1 is won in 3 hands (P0 P1 P0 start); set 2's first hand is hand 4: P1 starts
    results = [won(0, 50), won(0, 50), won(0, 50), won(1, 125), won(0, 125)]
    assert starters(new_match("poldomino"), results) == [0, 1, 0, 1, 0]
    assert starters(new_match("poldomino", first_starter=1), results) == [1, 0, 1, 0, 1]


@pytest.mark.rule("R-ALL-04")
def test_starters_alternate_across_rounds() -> None:
    results = ten(scored(2, 1)) + ten(scored(2, 1))
    assert starters(new_match("progressive", first_starter=1), results) == [1, 0] * 10


def _deal(match: MatchState, seed: int) -> Deal:
    plan = match.plan()
    assert plan is not None
    return random_deal(match.rules, random.Random(seed), hand_sizes=plan.hand_sizes)


@pytest.mark.rule("R-ALL-04")
def test_start_hand_gives_the_match_starter_not_the_deal_one() -> None:
    match = new_match("poldomino", first_starter=1)
    deal = dataclasses.replace(_deal(match, 7), starter=0)
    state = start_hand(match, deal)
    assert state.starter == 1 and state.to_move == 1
    match, _ = finish_hand(match, won(1, 10))
    assert start_hand(match, dataclasses.replace(deal, starter=1)).starter == 0


@pytest.mark.rule("R-SZC-02")
def test_widow_decides_every_starter() -> None:
    match = new_match("szczerbak", first_starter=1)
    assert starters(match, [won(0, 5)] * 4) == [None] * 4
    deal = _deal(match, 3)
    assert deal.widow is not None
    low, high = sorted(deal.widow)
    # x faces player 0, y player 1; the player facing the higher half starts
    assert start_hand(match, dataclasses.replace(deal, widow=(high, low))).starter == 0
    assert start_hand(match, dataclasses.replace(deal, widow=(low, high))).starter == 1


def test_start_hand_refuses_the_wrong_hand_sizes() -> None:
    match = new_match("progressive")                     # round 1 deal 1: 5 tiles each
    rng = random.Random(1)
    with pytest.raises(DealError, match=r"\(5, 5\)"):
        start_hand(match, random_deal(match.rules, rng, hand_sizes=(6, 6)))


def test_finish_hand_after_the_end_is_refused() -> None:
    match, _ = feed(new_match("szczerbak"), won(1, 100))
    with pytest.raises(ValueError, match="over"):
        finish_hand(match, won(0, 1))


def test_json_form_and_its_checks() -> None:
    match, _ = feed(new_match("poldomino"), won(0, 60))
    assert match.to_json() == {
        "variant": "poldomino", "options": {"catch_penalty_to": "winner"},
        "first_starter": 0, "hands_played": 1, "totals": [60, 0], "sets_won": [0, 0],
        "phase": "set 1 hand 2", "next": {"starter": 1, "hand_sizes": [5, 5]},
        "winner": None, "finished": False}
    broken = {**match.to_json(), "phase": "set 2 hand 2"}
    with pytest.raises(ValueError, match="phase"):
        MatchState.from_json(broken)
    event = MatchEvent("round_end", name="r", winner=None, totals=(3, 3))
    assert MatchEvent.from_json(event.to_json()) == event


# --- whole matches ------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["poldomino", "pijanowski", "szczerbak", "progressive"])
def test_a_whole_random_match_ends_with_a_winner(variant: str) -> None:
    assert variant in variant_ids()
    rng = random.Random(f"match-{variant}")
    rules = new_match(variant).rules

    def deal_for(plan: HandPlan) -> Deal:
        return random_deal(rules, rng, hand_sizes=plan.hand_sizes)

    def policy(state: HandState, legal: list[Action]) -> Action:
        assert legal, "a hand without a result must offer an action"
        return rng.choice(legal)

    record = play_match(variant, deal_for, policy, first_starter=1)
    final = record.final
    assert final.finished and record.winner in (0, 1)
    assert len(record.hands) == final.hands_played
    # what each kind of match needs for its winner, recomputed from the hand results
    sums = [0, 0]
    for hand in record.hands:
        sums[0] += hand.result.points[0]
        sums[1] += hand.result.points[1]
    kind = final.spec.kind
    if kind == "sets":
        assert final.sets_won[record.winner] == final.spec.sets_to_win
    elif kind == "target":
        assert tuple(sums) == final.totals
        assert sums[record.winner] > sums[1 - record.winner]
        assert sums[record.winner] >= final.spec.target
    else:
        assert len(record.hands) >= 20 and len(record.hands) % 10 == 0
    starts = [h.plan.starter for h in record.hands]
    if final.rules.setup.starter == "alternate":
        assert starts == [1 - i % 2 for i in range(len(starts))]
    else:
        assert set(starts) == {None}
    roundtrip(final)
