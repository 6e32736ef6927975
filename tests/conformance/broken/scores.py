"""Engines that score a hand wrong: the wrong winner, the wrong player paid, a term misapplied.

Each plays the hand as the reference does and changes what it scores: a placement's points or
a lake's owner as they happen, or the result once the hand has ended.
"""

from __future__ import annotations

import dataclasses
from typing import ClassVar

from dominokit.reference import Action, HandResult, HandState
from dominokit.reference.board_plain import same_field
from dominokit.reference.state import ScoreTerm
from tests.conformance.broken.engines import JsonObject, StatePatch, end_event, won_by


class ResultPatch(StatePatch):
    """Changes the result of a hand when it ends."""

    def result(self, hand: HandState, result: HandResult) -> HandResult | None:
        """The wrong result, or None to keep the reference's."""
        raise NotImplementedError

    def patch(self, before: HandState, action: Action, after: HandState,
              events: list[JsonObject]) -> tuple[HandState, list[JsonObject]] | None:
        if after.result is None:
            return None
        wrong = self.result(after, after.result)
        if wrong is None:
            return None
        hand = dataclasses.replace(after, result=wrong)
        return hand, end_event(events, hand)


class BlockWonByMorePips(ResultPatch):
    """A blocked hand is won by the player with more pips left (the comparison reversed)."""

    variant, rule = "poldomino", "R-POL-06"
    only: ClassVar[tuple[str, ...]] = ("golden/poldomino/tied-block",
                                       "differential/poldomino/default")

    def result(self, hand: HandState, result: HandResult) -> HandResult | None:
        if result.reason == "domino" or result.winner is None:
            return None
        return won_by(hand, result, 1 - result.winner)


class ProgressiveBlockWonByMorePips(BlockWonByMorePips):
    """A blocked hand is won by the player with more pips left (the comparison reversed)."""

    variant, rule, only = "progressive", "R-PRO-04", ("golden/progressive/pass-and-block",)


class SzczerbakBlockWonByMorePips(BlockWonByMorePips):
    """A blocked hand is won by the player with more pips left (the comparison reversed)."""

    variant, rule, only = "szczerbak", "R-SZC-06", ("differential/szczerbak/default",)


class SzczerbakPipsListedReversed(ResultPatch):
    """The result lists the pips left in hand as [player 1, player 0]."""

    variant, rule, only = "szczerbak", "R-ALL-02", ("differential/szczerbak/default",)

    def result(self, hand: HandState, result: HandResult) -> HandResult | None:
        first, second = result.pips
        return dataclasses.replace(result, pips=(second, first)) if first != second else None


class TiedBlockGoesToStarter(ResultPatch):
    """A blocked hand with equal pips is won by the hand's starter."""

    variant, rule, only = "progressive", "R-ALL-06", ("differential/progressive/default",)

    def result(self, hand: HandState, result: HandResult) -> HandResult | None:
        if result.winner is not None or result.reason == "domino":
            return None
        return won_by(hand, result, hand.starter)


class PoldominoBonusOnBlock(ResultPatch):
    """The last-tile bonus is paid for a blocked hand too, when the winner's last placed tile
    is [0|0] or [6|6]."""

    variant, rule, only = "poldomino", "R-POL-08", ("match/poldomino/default",)

    def result(self, hand: HandState, result: HandResult) -> HandResult | None:
        winner = result.winner
        if result.reason == "domino" or winner is None:
            return None
        term = next(t for t in hand.rules.terms if t.term == "last_tile_bonus")
        bonus = term.value_of(hand.last_placed[winner])
        if not bonus:
            return None
        points = list(result.points)
        points[winner] += bonus
        terms = (*result.terms, ScoreTerm(term.term, winner, bonus, term.rule))
        return dataclasses.replace(result, points=(points[0], points[1]), terms=terms)


class PijanowskiLoserScoresNothing(ResultPatch):
    """Only the hand's winner adds their hand score; the loser's is dropped."""

    variant, rule, only = "pijanowski", "R-PIJ-09", ("differential/pijanowski/default",)

    def result(self, hand: HandState, result: HandResult) -> HandResult | None:
        if result.winner is None:
            return None
        loser = 1 - result.winner
        points = list(result.points)
        points[loser] = 0
        terms = tuple(t for t in result.terms if t.player != loser)
        return dataclasses.replace(result, points=(points[0], points[1]), terms=terms)


class PijanowskiEqualPipsBlockScoresNothing(ResultPatch):
    """A blocked hand with equal pips left scores nothing, as in the chain games (R-ALL-06
    applied where R-PIJ-14 says it does not)."""

    variant, rule = "pijanowski", "R-PIJ-14"
    only = ("golden/pijanowski/block-after-double-blank",)

    def result(self, hand: HandState, result: HandResult) -> HandResult | None:
        if result.reason != "block" or result.pips[0] != result.pips[1]:
            return None
        return dataclasses.replace(result, winner=None, points=(0, 0), terms=())


class BoardPointsPatch(StatePatch):
    """Changes the points of a board placement as it happens."""

    def extra_points(self, action: Action) -> int:
        """Points to add to the placing player's tile points."""
        raise NotImplementedError

    def patch(self, before: HandState, action: Action, after: HandState,
              events: list[JsonObject]) -> tuple[HandState, list[JsonObject]] | None:
        mover = before.to_move
        extra = self.extra_points(action) if action.kind == "board" else 0
        if not extra or mover is None:
            return None
        points = list(after.points)
        points[mover] += extra
        hand = self._rescore(dataclasses.replace(after, points=(points[0], points[1])))
        patched = [{**e, "points": e["points"] + extra} if e.get("type") == "place" else e
                   for e in events]
        return hand, end_event(patched, hand)


class PijanowskiHalfFieldsDoubled(BoardPointsPatch):
    """A horizontal tile counts as lying on one field even when it straddles two (fields taken
    as any two neighbouring cells of a row)."""

    variant, rule, only = "pijanowski", "R-PIJ-05", ("differential/pijanowski/default",)

    def extra_points(self, action: Action) -> int:
        assert action.cells is not None and action.tile is not None
        first, second = action.cells
        horizontal = first[0] == second[0]
        return action.tile.pips if horizontal and not same_field(first, second) else 0


class PijanowskiLakesToOpponent(StatePatch):
    """A new lake scores for the opponent of the player who enclosed it."""

    variant, rule, only = "pijanowski", "R-PIJ-06", ("golden/pijanowski/published-opening",)

    def patch(self, before: HandState, action: Action, after: HandState,
              events: list[JsonObject]) -> tuple[HandState, list[JsonObject]] | None:
        mover = before.to_move
        lakes = [e for e in events if e.get("type") == "lake"]
        if mover is None or not lakes:
            return None
        moved = sum(e["points"] for e in lakes)
        points = list(after.points)
        points[mover] -= moved
        points[1 - mover] += moved
        hand = self._rescore(dataclasses.replace(after, points=(points[0], points[1])))
        patched = [{**e, "player": 1 - mover} if e.get("type") == "lake" else e for e in events]
        return hand, end_event(patched, hand)


class PijanowskiLakesByPlacedHalf(StatePatch):
    """Several lakes from one placement come in the order a flood from the placed tile finds
    them: the lakes touching its low half first, then the others, instead of ordered by their
    cells (spec/protocol.md, several lakes from one placement)."""

    variant, rule = "pijanowski", "R-PIJ-06"
    only: ClassVar[tuple[str, ...]] = ("golden/pijanowski/*",)

    def patch(self, before: HandState, action: Action, after: HandState,
              events: list[JsonObject]) -> tuple[HandState, list[JsonObject]] | None:
        lakes = [e for e in events if e.get("type") == "lake"]
        if len(lakes) < 2 or action.cells is None:
            return None
        low = action.cells[0]

        def touches_low(lake: JsonObject) -> bool:
            return any(abs(r - low[0]) + abs(c - low[1]) == 1 for r, c in lake["cells"])

        ordered = iter(sorted(lakes, key=lambda lake: not touches_low(lake)))
        return after, [next(ordered) if e.get("type") == "lake" else e for e in events]
