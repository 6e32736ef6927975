"""Every case lists the rules it exercises, and only those.

A case's rule ids tell an engine author which rulings a failure concerns, and the rule book
counts them as coverage, so they must be real ids and specific: a rejection case lists the
rules its actions are refused under (as the reference cites them), an invariants case the
rules its property checks, never one blanket list for the whole kind.
"""

from __future__ import annotations

from functools import cache

import pytest

from dominokit.conformance.cases import Params, collect_cases, rejection
from dominokit.conformance.cases.compare import unique
from dominokit.conformance.cases.model import Case
from dominokit.spec.spec import all_rule_ids


@cache
def _all_cases() -> tuple[Case, ...]:
    return tuple(collect_cases(examples=3))


def test_every_case_lists_a_non_empty_set_of_real_rule_ids() -> None:
    known = set(all_rule_ids())
    cases = _all_cases()
    assert {case.kind for case in cases} >= {"golden", "perft", "differential", "invariants",
                                             "rejection", "requests", "match"}
    for case in cases:
        assert case.rules, f"{case.id} lists no rule"
        assert len(set(case.rules)) == len(case.rules), f"{case.id} repeats a rule"
        assert set(case.rules) <= known, (case.id, sorted(set(case.rules) - known))


@pytest.mark.rule("R-ALL-12", "R-ALL-14")
def test_rejection_cases_list_the_rules_their_actions_are_refused_under() -> None:
    for case in _all_cases():
        if case.kind != "rejection":
            continue
        _, variant, name = case.id.split("/")
        tries = rejection.attempts(variant, name, 0)
        assert case.rules == unique(attempt.rule for attempt in tries), case.id
        # a tile the player does not hold (R-ALL-12) and an action after the end (R-ALL-14)
        # are the concern of their own categories only
        assert ("R-ALL-12" in case.rules) == (name == "tile-not-in-hand"), case.id
        assert ("R-ALL-14" in case.rules) == (name == "play-after-end"), case.id


def test_wrong_end_lists_the_matching_rule_not_the_own_tiles_rule() -> None:
    by_id = {case.id: case.rules for case in _all_cases()}
    assert "R-POL-04" in by_id["rejection/poldomino/wrong-end"]
    assert "R-ALL-12" not in by_id["rejection/poldomino/wrong-end"]
    assert by_id["rejection/pijanowski/broken-contact"] == ("R-PIJ-04",)


@pytest.mark.rule("R-ALL-13")
def test_invariants_cases_list_the_rules_their_property_checks() -> None:
    by_id = {case.id: case.rules for case in _all_cases() if case.kind == "invariants"}
    # R-ALL-13 (turn order) is the turn-order property's alone
    assert {cid for cid, rules in by_id.items() if "R-ALL-13" in rules} == {
        cid for cid in by_id if cid.split("/")[2].startswith("turn-order")}
    assert by_id["invariants/poldomino/tile-conservation"] == ("R-ALL-12", "R-ALL-01")
    assert by_id["invariants/szczerbak/tile-conservation"] == ("R-ALL-12", "R-SZC-01")
    # Poldomino ends by domino (R-POL-06), block (R-ALL-05) or two passes (R-POL-05)
    assert by_id["invariants/poldomino/termination"] == ("R-POL-06", "R-ALL-05", "R-POL-05")
    assert by_id["invariants/pijanowski/turn-order"] == ("R-ALL-13", "R-PIJ-07")


def test_rejection_tags_follow_the_seed() -> None:
    """Tags are the rules the seeded attempts cite, so each seed's cases agree with what they
    send."""
    for seed in (0, 1):
        for case in rejection.cases("progressive", Params(examples=3, seed=seed)):
            name = case.id.rsplit("/", 1)[1]
            assert case.rules == unique(a.rule for a in rejection.attempts(
                "progressive", name, seed)), (seed, case.id)
