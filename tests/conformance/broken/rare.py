"""Broken engines whose mistake shows only in a rare position.

Each is a realistic single bug that random play almost never exposes: a catch paid only after a
domino, a catch read from the last two tiles, the player who goes out always winning, a match
that always plays three sets, a target compared with ``>`` for ``>=`` or the reverse. The suite
must reach the position that tells each apart from the reference (a searched or constructed
hand, a steered match); ``only`` names the cases that do.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from dominokit.reference import HandState, MatchState
from dominokit.reference.state import HandResult, ScoreTerm
from tests.conformance.broken.engines import Broken, Mutant, end_event

JsonObject = dict[str, Any]


class ResultPatch(Broken):
    """Scores a finished hand of ``variant`` differently from the reference (``patch``)."""

    def patch(self, hand: HandState, result: HandResult) -> HandResult:
        """The result this engine gives instead of the reference's ``result``."""
        raise NotImplementedError

    def apply(self, action: str) -> list[JsonObject]:
        match_before = self._match
        events = super().apply(action)
        hand = self._hand
        if hand is None or hand.result is None or hand.rules.variant_id != self.variant:
            return events
        hand = dataclasses.replace(hand, result=self.patch(hand, hand.result))
        self._set_hand(hand, match_before)
        return end_event(events, hand)


def _with_terms(result: HandResult, terms: list[ScoreTerm]) -> HandResult:
    """``result`` with ``terms`` and the points they add up to."""
    points = [0, 0]
    for term in terms:
        points[term.player] += term.points
    return dataclasses.replace(result, points=(points[0], points[1]), terms=tuple(terms))


class PoldominoCatchOnlyOnDomino(ResultPatch):
    """A catch is paid only when the hand ends by domino, never in a blocked or mutually
    passed hand."""

    variant, rule = "poldomino", "R-POL-09"
    only = ("differential/poldomino/default", "differential/poldomino/catch_penalty_to-loser")

    def patch(self, hand: HandState, result: HandResult) -> HandResult:
        if result.reason == "domino":
            return result
        return _with_terms(result, [t for t in result.terms if t.term != "catch"])


class PoldominoCatchOfLastTwo(ResultPatch):
    """A catch is paid when the loser holds two tiles or fewer and one of them is listed (the
    last two tiles are read, not the last one)."""

    variant, rule = "poldomino", "R-POL-09"
    only = ("differential/poldomino/default",)

    def patch(self, hand: HandState, result: HandResult) -> HandResult:
        winner = result.winner
        if winner is None or len(hand.hands[1 - winner]) != 2:
            return result
        terms = list(result.terms)
        for term in hand.rules.terms:
            if term.term != "catch":
                continue
            amount = sum(term.value_of(tile) for tile in hand.hands[1 - winner])
            if amount:
                player, points = (winner, amount) if term.to == "winner" else (1 - winner,
                                                                               -amount)
                terms.append(ScoreTerm(term.term, player, points, term.rule))
        return _with_terms(result, terms)


class PijanowskiOutAlwaysWins(ResultPatch):
    """The player who places their last tile wins the hand, whatever the hand scores say."""

    variant, rule = "pijanowski", "R-PIJ-09"
    only = ("differential/pijanowski/default",)

    def patch(self, hand: HandState, result: HandResult) -> HandResult:
        if result.reason != "domino":
            return result
        out = next(p for p in (0, 1) if not hand.hands[p])
        return dataclasses.replace(result, winner=out)


class PoldominoAlwaysThreeSets(Broken):
    """A match always plays three sets and goes to whoever won more of them (a 2-0 match is
    not over after its second set)."""

    variant, rule, only = "poldomino", "R-POL-10", ("match/poldomino/two-nil",)

    def _fold_result(self) -> None:
        super()._fold_result()
        match = self._match
        if match is None or match.rules.variant_id != self.variant:
            return
        played = sum(match.sets_won)
        if match.finished and played < 3:
            self._match = dataclasses.replace(match, finished=False, winner=None, totals=(0, 0),
                                              hand_in_stage=0)
        elif not match.finished and played == 3:
            self._match = _over(match, 0 if match.sets_won[0] > match.sets_won[1] else 1)


def _over(match: MatchState, winner: int) -> MatchState:
    return dataclasses.replace(match, finished=True, winner=winner, hand_in_stage=0)


class PoldominoSetTargetExceeds(Mutant):
    """A set is won only by passing 125 (compared with ``>``, not ``>=``): 125 exactly plays
    on. Integer totals make this the set target 126."""

    variant, rule, only = "poldomino", "R-POL-10", ("match/poldomino/exact-target",)

    @classmethod
    def mutate(cls, data: dict[str, Any]) -> None:
        data["match"]["set_target"] = data["match"]["set_target"] + 1


class PijanowskiTargetAtLeast(Mutant):
    """The match is won by reaching 500 (``>=``), not only by passing it."""

    variant, rule, only = "pijanowski", "R-PIJ-10", ("match/pijanowski/exact-target",)

    @classmethod
    def mutate(cls, data: dict[str, Any]) -> None:
        data["match"]["compare"] = "at_least"


RARE: tuple[type[Broken], ...] = (
    PoldominoCatchOnlyOnDomino,
    PoldominoCatchOfLastTwo,
    PijanowskiOutAlwaysWins,
    PoldominoAlwaysThreeSets,
    PoldominoSetTargetExceeds,
    PijanowskiTargetAtLeast,
)
"""The broken engines of this module, each killed only by a rare-position case."""
