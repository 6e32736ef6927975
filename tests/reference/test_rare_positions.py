"""The suite reaches the rare positions that realistic rule bugs hide behind, for every seed.

Each engine in ``tests/conformance/broken/rare.py`` is the reference with one mistake that only a
rare
position shows (a catch in a blocked or mutually passed hand, a listed tile among the loser's
last two, a Pijanowski hand the player going out loses, a 2-0 match, a total exactly on the
target). The cases its ``only`` globs name must fail it, naming the broken rule, and pass the
reference. The searches that find those positions must find them whatever ``--seed`` says;
the steered matches are checked through ``build`` and the searched hands through the search's
last resorts, which is where a seed could make them miss.
"""

from __future__ import annotations

import io
from fnmatch import fnmatchcase
from functools import cache
from pathlib import Path

import pytest

from dominokit.conformance.cases import Params, collect_cases, constructed, differential, oracle
from dominokit.conformance.cases import match as match_cases
from dominokit.conformance.cases.compare import Blame
from dominokit.conformance.cases.drive import scripted, standalone
from dominokit.conformance.cases.model import Case
from dominokit.conformance.kit.inprocess import InProcessEngine
from dominokit.conformance.run.runner import run_suite
from dominokit.conformance.serve.refengine import ReferenceEngine
from dominokit.reference import (
    Deal,
    MatchState,
    Tile,
    apply_action,
    finish_hand,
    new_match,
    start_hand,
    variant_ids,
)
from tests.conformance.broken.engines import Broken
from tests.conformance.broken.rare import RARE, PoldominoCatchOnlyOnDomino

Pair = tuple[int, int]
SEEDS = range(10)


@cache
def _cases(variant: str) -> tuple[Case, ...]:
    return tuple(collect_cases(variant, examples=3, seed=0))


def _subset(engine: type[Broken]) -> list[Case]:
    return [case for case in _cases(engine.variant)
            if any(fnmatchcase(case.id, glob) for glob in engine.only)]


@pytest.mark.parametrize("engine", RARE, ids=lambda e: e.__name__)
def test_the_rare_position_fails_the_broken_engine(engine: type[Broken], tmp_path: Path) -> None:
    cases = _subset(engine)
    assert cases, f"{engine.__name__}: its globs {engine.only} select no case"
    report = run_suite(InProcessEngine(engine(), engine), cases=cases, report_dir=tmp_path,
                       out=io.StringIO())
    failed = [r for r in report.records if r.outcome.status == "failed"]
    assert len(failed) == len(cases), report.summary_line()
    assert all(engine.rule in r.outcome.rules for r in failed), [
        (r.case_id, r.outcome.rules) for r in failed]


def test_the_reference_passes_the_rare_cases(tmp_path: Path) -> None:
    chosen = {case.id: case for engine in RARE for case in _subset(engine)}
    report = run_suite(InProcessEngine(ReferenceEngine(), ReferenceEngine),
                       cases=list(chosen.values()), report_dir=tmp_path, out=io.StringIO())
    assert report.counts()["passed"] == len(chosen), [
        (r.case_id, r.outcome.message) for r in report.records if r.outcome.status != "passed"]


SCENARIOS = [(variant, name) for variant in sorted(variant_ids())
             for name in match_cases.scenarios(variant)]


@pytest.mark.rule("R-POL-10", "R-SZC-07", "R-PIJ-10", "R-PRO-05", "R-PRO-06")
@pytest.mark.parametrize(("variant", "name"), SCENARIOS, ids=[f"{v}-{n}" for v, n in SCENARIOS])
def test_every_match_scenario_is_reached_for_every_seed(variant: str, name: str) -> None:
    missed = [seed for seed in SEEDS if not match_cases.build(variant, (), name, seed, 0).reached]
    assert not missed, f"{variant} {name}: missed with seeds {missed}"


def test_the_new_scenarios_are_offered_where_the_match_has_them() -> None:
    assert set(match_cases.scenarios("poldomino")) == {"third-set", "two-nil", "exact-target"}
    assert set(match_cases.scenarios("szczerbak")) == {"exact-target"}
    assert set(match_cases.scenarios("pijanowski")) == {"exact-target"}
    assert set(match_cases.scenarios("progressive")) == {"tiebreak", "second-tiebreak"}


def _replayed(variant: str, name: str) -> list[tuple[MatchState, Pair, MatchState]]:
    """The seed-0 scenario's hands replayed on the reference: (before, points, after)."""
    scenario = match_cases.build(variant, (), name, 0, 0)
    match = new_match(variant, {}, 0)
    steps = []
    for deal, actions in scenario.hands:
        state = start_hand(match, Deal.from_json(deal))
        for action in actions:
            state, _ = apply_action(state, action)
        assert state.result is not None
        after, _ = finish_hand(match, state.result)
        steps.append((match, state.result.points, after))
        match = after
    assert match.finished
    return steps


@pytest.mark.rule("R-POL-10", "R-SZC-07", "R-PIJ-10")
@pytest.mark.parametrize(("variant", "decides"), [("poldomino", True), ("szczerbak", True),
                                                  ("pijanowski", False)])
def test_exact_target_lands_one_total_on_the_target_and_the_other_below(
    variant: str, decides: bool,
) -> None:
    """Only then do "reaches" (>=) and "passes" (>) decide differently: Poldomino's set and
    Szczerbak's match are won at 125 and 100 exactly, Pijanowski's match plays on at 500."""
    steps = _replayed(variant, "exact-target")
    target = {"poldomino": 125, "szczerbak": 100, "pijanowski": 500}[variant]
    landed = []
    for before, points, after in steps:
        totals = (before.totals[0] + points[0], before.totals[1] + points[1])
        if max(totals) == target and min(totals) < target:
            landed.append((before, after))
    assert landed
    before, after = landed[0]
    decided = after.finished or sum(after.sets_won) > sum(before.sets_won)
    assert decided is decides


@pytest.mark.rule("R-POL-10")
def test_two_nil_is_a_match_won_without_losing_a_set() -> None:
    steps = _replayed("poldomino", "two-nil")
    final = steps[-1][2]
    # Player 0 is steered to take every set: two sets, then the match is over.
    assert (final.sets_won, final.winner) == ((2, 0), 0)
    assert max(final.totals) >= 125


def test_a_missed_scenario_says_which(monkeypatch: pytest.MonkeyPatch) -> None:
    missed = match_cases.Scenario("two-nil", 0, (), reached=False)
    monkeypatch.setattr(match_cases, "build", lambda *args: missed)
    case = next(c for c in match_cases.cases("poldomino", Params(seed=7))
                if c.id == "match/poldomino/two-nil")
    engine = InProcessEngine(ReferenceEngine(), ReferenceEngine)
    outcome = case.body(engine, None)  # type: ignore[arg-type]
    assert outcome.status == "errored" and outcome.failure_kind == "kit"
    assert outcome.message.startswith("missed: two-nil:")
    assert "seed 7" in outcome.message


def _target(variant: str, options: dict[str, object], name: str) -> differential.Target:
    return next(t for t in differential.targets(variant, options) if t.name == name)


CATCH_HANDS = [
    # Player 0 keeps [6|6], player 1 the lowest other double [0|0]; all else is laid.
    # R-POL-07: 12 - 0 = 12 to player 1; R-POL-09: a lone [6|6] is worth 60.
    ("catch-block", {}, "block", (0, 12 + 60), (12, 0)),
    ("catch-block", {"catch_penalty_to": "loser"}, "block", (-60, 12), (12, 0)),
    # Player 1 keeps [0|0] and [1|1] (2 pips): 12 - 2 = 10, and the catch of 60.
    ("catch-mutual-pass", {}, "mutual_pass", (0, 10 + 60), (12, 2)),
    ("catch-mutual-pass", {"catch_penalty_to": "loser"}, "mutual_pass", (-60, 10), (12, 2)),
    # Player 1 goes out; player 0 holds [6|6] and [0|0]: two tiles, so no catch, 12 points.
    ("catch-6-6-of-two", {}, "domino", (0, 12), (12, 0)),
    # Player 0 holds [0|0] and [1|1]: 2 pips, no catch.
    ("catch-0-0-of-two", {}, "domino", (0, 2), (2, 0)),
]


@pytest.mark.rule("R-POL-09", "R-POL-05", "R-ALL-05", "R-POL-07")
@pytest.mark.parametrize(("name", "options", "reason", "points", "pips"), CATCH_HANDS)
def test_constructed_catch_hands_reach_their_position(
    name: str, options: dict[str, object], reason: str, points: tuple[int, int],
    pips: tuple[int, int],
) -> None:
    target = _target("poldomino", options, name)
    assert target.built is not None
    made = target.built(oracle.rules_of("poldomino", options))
    assert made is not None
    played = oracle.play_script("poldomino", options, *made)
    assert target.hit(played)
    result = played.result
    assert (result.reason, result.winner, result.points, result.pips) == (
        reason, 1, points, pips)


def test_no_construction_where_the_rules_allow_none() -> None:
    """A lone [0|0] (0 pips) can never lose a block or a mutual pass: nobody holds fewer."""
    rules = oracle.rules_of("poldomino", {})
    for build in constructed.CAUGHT.values():
        made = build(rules, Tile(0, 0))
        if made is not None:
            played = oracle.play_script("poldomino", {}, *made)
            assert not any(t.term == "catch" for t in played.result.terms)
    assert constructed.caught_in_block(oracle.rules_of("szczerbak", {}), Tile(0, 1)) is None


@pytest.mark.rule("R-PIJ-09", "R-PIJ-08")
def test_a_lost_domino_is_found_for_every_seed() -> None:
    missed = {}
    for seed in SEEDS:
        found = differential.search("pijanowski", (), seed)
        if {"end-domino", "domino-lost"} & set(found.missed):
            missed[seed] = found.missed
    assert not missed
    played = next(hand for hand, names in differential.search("pijanowski", (), 0).hands
                  if "domino-lost" in names)
    out = next(p for p in (0, 1) if not played.final.hands[p])
    # R-PIJ-09: the higher hand score wins, and the player who went out has the lower one.
    assert played.result.reason == "domino" and played.result.winner == 1 - out


@pytest.mark.parametrize("options", [{}, {"catch_penalty_to": "loser"}])
def test_poldomino_search_reaches_every_catch_target(options: dict[str, object]) -> None:
    found = differential.search("poldomino", tuple(sorted(options.items())), 0)
    names = {name for _, names in found.hands for name in names}
    assert {"catch-block", "catch-mutual-pass", "catch-0-0-of-two",
            "catch-6-6-of-two"} <= names
    assert not found.missed


def test_trail_lays_every_tile_end_to_end_or_says_it_cannot() -> None:
    tiles = [Tile(0, 1), Tile(1, 2), Tile(0, 2), Tile(2, 2)]
    laid = constructed.trail(tiles, 0)
    assert laid is not None and sorted(laid) == sorted(tiles)
    pip = 0
    for tile in laid:
        assert pip in (tile.low, tile.high)
        pip = tile.other(pip)
    assert pip == 0
    # [0|1] and [1|2] leave 0 and 2 as odd ends: no circuit.
    assert constructed.trail([Tile(0, 1), Tile(1, 2)], 0) is None


@pytest.mark.rule("R-POL-09", "R-ALL-05", "R-POL-05")
@pytest.mark.parametrize("options", [{}, {"catch_penalty_to": "loser"}])
@pytest.mark.parametrize("name", ["catch-block", "catch-mutual-pass"])
def test_each_catch_without_a_domino_alone_catches_a_catch_paid_only_on_domino(
    name: str, options: dict[str, object],
) -> None:
    found = differential.search("poldomino", tuple(sorted(options.items())), 0)
    played = next(hand for hand, names in found.hands if name in names)
    blame = Blame(oracle.rules_of("poldomino", options))
    for engine, diverges in ((PoldominoCatchOnlyOnDomino, True), (ReferenceEngine, False)):
        run = standalone(InProcessEngine(engine(), engine), "poldomino", options, played.deal,
                         scripted(played.actions), blame)
        assert (run.divergence is not None) is diverges
        if diverges:
            assert run.divergence is not None and "R-POL-09" in run.divergence.rules
