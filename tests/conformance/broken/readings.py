"""Engines that play another reading of a ruling than the one decided, as authors do.

An engine written from the terse Polish texts differs from the reference exactly where a
ruling closes a gap: each engine here plays one named alternative (or one option value the
request did not ask for), so ``dominokit conform --diagnose`` must name that reading.
The patches are written against the reference's results, not from the spec's reading data,
so a reading that did not run what it says would not match them.
"""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

from dominokit.reference import HandResult, HandState
from dominokit.reference.state import ScoreTerm
from tests.conformance.broken.engines import JsonObject, Mutant
from tests.conformance.broken.scores import ResultPatch


class PoldominoCatchFromTheLoser(ResultPatch):
    """A caught lone [0|0] or [6|6] is always subtracted from the loser, whatever
    ``catch_penalty_to`` says (the other value of the option behind R-POL-09)."""

    variant, rule = "poldomino", "R-POL-09"
    only: ClassVar[tuple[str, ...]] = ("golden/poldomino/catch-double-blank",
                                       "golden/poldomino/double-blank-out-catches-double-six")

    def result(self, hand: HandState, result: HandResult) -> HandResult | None:
        if result.winner is None or hand.options.get("catch_penalty_to") == "loser":
            return None
        loser = 1 - result.winner
        terms = tuple(ScoreTerm(t.term, loser, -t.points, t.rule)
                      if t.term == "catch" and t.player == result.winner else t
                      for t in result.terms)
        if terms == result.terms:
            return None
        points = [0, 0]
        for term in terms:
            points[term.player] += term.points
        return dataclasses.replace(result, terms=terms, points=(points[0], points[1]))


class PijanowskiExactly500Ends(Mutant):
    """A match ends when a running total reaches 500, not only when it passes 500 (the
    alternative reading of R-PIJ-10)."""

    variant, rule = "pijanowski", "R-PIJ-10"
    only: ClassVar[tuple[str, ...]] = ("match/pijanowski/exact-target",)

    @classmethod
    def mutate(cls, data: dict[str, Any]) -> None:
        data["match"]["compare"] = "at_least"


class PijanowskiDeclaresOneLakeRulePlaysTheOther(Mutant):
    """The hello declares ``lake_rule: [newly_enclosed]`` only, and the engine judges every
    lake as a new region (the other value of the option behind R-PIJ-06)."""

    variant, rule = "pijanowski", "R-PIJ-06"
    only: ClassVar[tuple[str, ...]] = ("differential/pijanowski/lake_rule-newly_enclosed",)

    @classmethod
    def mutate(cls, data: dict[str, Any]) -> None:
        data["scoring"]["lakes"]["mode"] = "new_region"

    def hello(self) -> JsonObject:
        hello = super().hello()
        hello["variants"] = {"pijanowski": {"options": {
            **hello["variants"]["pijanowski"]["options"], "lake_rule": ["newly_enclosed"]}}}
        return hello
