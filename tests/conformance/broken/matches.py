"""Engines that run a match wrong: totals not reset, starters not decided as the rules say.

Each plays every hand as the reference does and changes what the match makes of it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from dominokit.reference import hand_result
from dominokit.reference.chain import start_from_widow
from tests.conformance.broken.engines import Broken, JsonObject, StarterAlternationResetsEachSet


class TotalsKeptAfterStage(Broken):
    """Poldomino set totals are not reset when a set is won: the next set starts from them."""

    variant, rule, only = "poldomino", "R-POL-10", ("match/poldomino/default",)

    def _fold_result(self) -> None:
        before = self._match
        super()._fold_result()
        after = self._match
        if before is None or after is None or before is after or after.finished \
                or after.rules.variant_id != self.variant or after.hand_in_stage != 0:
            return
        assert self._hand is not None
        result = hand_result(self._hand)
        assert result is not None
        kept = (before.totals[0] + result.points[0], before.totals[1] + result.points[1])
        self._match = dataclasses.replace(after, totals=kept)


class ProgressiveRoundTotalsKept(TotalsKeptAfterStage):
    """Progressive round 2 starts from round 1's totals instead of 0."""

    variant, rule, only = "progressive", "R-PRO-05", ("match/progressive/default",)


class PijanowskiSameStarterEveryHand(StarterAlternationResetsEachSet):
    """The match's first starter starts every hand (no alternation)."""

    variant, rule, only = "pijanowski", "R-ALL-04", ("match/pijanowski/default",)

    def _starter(self) -> int | None:
        match = self._match
        if match is None or match.finished or match.rules.variant_id != self.variant:
            return None
        return match.first_starter


class SzczerbakStartersAlternate(Broken):
    """In a match, starters alternate hand by hand; the widow decides only the first."""

    variant, rule, only = "szczerbak", "R-SZC-02", ("match/szczerbak/default",)

    def __init__(self) -> None:
        super().__init__()
        self._first = 0
        """The starter the widow chose for the match's first hand."""

    def next_hand(self, deal: Mapping[str, Any]) -> JsonObject:
        match = self._match
        state = super().next_hand(deal)
        hand = self._hand
        widow = deal.get("widow")
        if match is None or hand is None or match.rules.variant_id != self.variant \
                or not widow or hand.result is not None:
            return state
        if match.hands_played == 0:
            self._first = start_from_widow((widow[0], widow[1]))[1]
        starter = self._first if match.hands_played % 2 == 0 else 1 - self._first
        self._hand = dataclasses.replace(hand, starter=starter, to_move=starter)
        return self._hand.to_json()
