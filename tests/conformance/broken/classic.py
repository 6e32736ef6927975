"""Broken engines for classic block, the fifth game: one realistic mistake per engine.

Classic block is the plainest chain game (R-CLB-01..09): 7 tiles each from a double-six set,
no stock, compulsory play, a hand that ends by domino or as soon as nobody can place, the
lighter hand winning the loser's pips, and a match to 100. The mistakes an engine author makes
here are mostly borrowed habits from the other block and draw games: dealing the wrong hand
size, letting players draw or pass at will, requiring a double to open, waiting for two passes
before calling a block, paying the primary source's "loser's pips minus mine", paying a tied
block, reading ``blocked_payout`` the wrong way round, comparing the target with ``>``. Each
class names the cases that must catch it (``only``).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from dominokit.reference import HandState
from dominokit.reference.state import Event, HandResult
from dominokit.spec.spec import OptionSpec
from tests.conformance.broken.engines import (
    JsonObject,
    ListingPatch,
    Mutant,
    TiedBlockGoesToPlayer0,
    passes_turn,
    term_of,
    with_hand,
    won_by,
)
from tests.conformance.broken.matches import PijanowskiSameStarterEveryHand
from tests.conformance.broken.rare import ResultPatch

VARIANT = "classic_block"

# ---------------------------------------------------------------------------- R-CLB-01 deal


class ClassicBlockHandSizeSix(Mutant):
    """Each player is dealt 6 tiles, not 7 (the three-or-four-player count misread), so a
    seven-tile deal is refused."""

    variant, rule = VARIANT, "R-CLB-01"
    only = ("match/classic_block/default",)

    @classmethod
    def mutate(cls, data: dict[str, Any]) -> None:
        data["setup"]["hand_size"] = 6


class ClassicBlockDrawsOutOfPlay(ListingPatch):
    """A player may draw one of the 14 tiles left out of play, as in the draw game; nobody
    draws in classic block."""

    variant, rule = VARIANT, "R-CLB-01"
    only = ("rejection/classic_block/draw-not-allowed",)

    def changes(self, hand: HandState, legal: list[str]) -> tuple[set[str], set[str]]:
        drawable = hand.result is None and hand.to_move is not None and bool(hand.out_of_play)
        return ({"draw"} if drawable else set()), set()

    def play_added(self, hand: HandState, action: str) -> list[JsonObject]:
        mover = hand.to_move
        assert mover is not None
        tile, *rest = hand.out_of_play
        drawn = with_hand(hand, mover, (*hand.hands[mover], tile))
        self._hand = dataclasses.replace(drawn, out_of_play=tuple(rest))
        return [Event("draw", player=mover, tile=str(tile)).to_json()]


# ---------------------------------------------------------------------------- R-CLB-02 opening


class ClassicBlockOpeningNeedsDouble(ListingPatch):
    """The starter must open with a double when holding one (the draw game's habit); any tile
    may open."""

    variant, rule = VARIANT, "R-CLB-02"
    only = ("perft/classic_block/start-d1",)

    def changes(self, hand: HandState, legal: list[str]) -> tuple[set[str], set[str]]:
        mover = hand.to_move
        if not hand.table.empty or hand.result is not None or mover is None:
            return set(), set()
        doubles = {str(tile) for tile in hand.hands[mover] if tile.low == tile.high}
        return set(), ({a for a in legal if a not in doubles} if doubles else set())


class ClassicBlockOpeningMayPass(ListingPatch):
    """The starter may pass instead of opening the hand (the kit cites the opening rule for
    that pass)."""

    variant, rule = VARIANT, "R-CLB-02"
    only = ("rejection/classic_block/pass-not-allowed",)

    def changes(self, hand: HandState, legal: list[str]) -> tuple[set[str], set[str]]:
        return ({"pass"} if hand.table.empty and hand.result is None else set()), set()

    def play_added(self, hand: HandState, action: str) -> list[JsonObject]:
        return passes_turn(self, hand, "pass")


class ClassicBlockSameStarterEveryHand(PijanowskiSameStarterEveryHand):
    """Every hand of a match is started by the match's first starter; the starter should
    alternate hand by hand (R-CLB-02 restates R-ALL-04, which the match case cites)."""

    variant, rule = VARIANT, "R-ALL-04"
    only = ("match/classic_block/default",)


# ---------------------------------------------------------------------------- R-CLB-03 chain


class ClassicBlockParity(Mutant):
    """The far half must differ in parity from the end, as in Szczerbak: a matching half alone
    should be enough."""

    variant, rule = VARIANT, "R-CLB-03"
    only = ("perft/classic_block/*",)

    @classmethod
    def mutate(cls, data: dict[str, Any]) -> None:
        # A parity policy names the rule its blank exception rests on (the schema asks it).
        data["turn"]["parity"].update(policy="opposite_or_blank", blank_rule="R-CLB-03")


class ClassicBlockBothEndsFolded(ListingPatch):
    """A tile that fits both ends with the same half is listed only at the left end."""

    variant, rule = VARIANT, "R-CLB-03"
    only = ("perft/classic_block/*",)

    def changes(self, hand: HandState, legal: list[str]) -> tuple[set[str], set[str]]:
        return set(), {a for a in legal if "@R" in a and a.replace("@R", "@L") in legal}


# ---------------------------------------------------------------------------- R-CLB-04 passing


class ClassicBlockPassAnytime(Mutant):
    """A player may pass while holding a tile that can be placed."""

    variant, rule = VARIANT, "R-CLB-04"
    only = ("rejection/classic_block/pass-not-allowed", "perft/classic_block/pass-and-block-*")

    @classmethod
    def mutate(cls, data: dict[str, Any]) -> None:
        data["turn"]["pass"]["policy"] = "always"


# ---------------------------------------------------------------------------- R-CLB-05 end


class ClassicBlockWaitsForTwoPasses(Mutant):
    """A blocked hand ends only after both players have passed in turn, not as soon as nobody
    can place."""

    variant, rule = VARIANT, "R-CLB-05"
    only = ("perft/classic_block/near-block-*", "golden/classic_block/blocked-*")

    @classmethod
    def mutate(cls, data: dict[str, Any]) -> None:
        block = next(e for e in data["end"] if e["condition"] == "block")
        block.update(condition="mutual_pass", turns=2)


class ClassicBlockNoDominoEnd(Mutant):
    """Placing the last tile does not end the hand; the player with an empty hand passes until
    the table blocks."""

    variant, rule = VARIANT, "R-CLB-05"
    only = ("golden/classic_block/domino",)

    @classmethod
    def mutate(cls, data: dict[str, Any]) -> None:
        data["end"] = [e for e in data["end"] if e["condition"] != "domino"]


# ---------------------------------------------------------------------------- R-CLB-06 winner


class ClassicBlockHeavierHandWins(ResultPatch):
    """A blocked hand is won by the player with the higher pip total (the comparison reversed)."""

    variant, rule = VARIANT, "R-CLB-06"
    only = ("golden/classic_block/blocked-loser-pips", "golden/classic_block/blocked-both-totals")

    def patch(self, hand: HandState, result: HandResult) -> HandResult:
        if result.reason != "block" or result.winner is None:
            return result
        return won_by(hand, result, 1 - result.winner)


class ClassicBlockTieGoesToPlayer0(TiedBlockGoesToPlayer0):
    """A blocked hand with equal pip totals is won by player 0 instead of nobody."""

    variant, rule = VARIANT, "R-CLB-06"
    only = ("differential/classic_block/default",)


# ---------------------------------------------------------------------------- R-CLB-07 score


class ClassicBlockWinnerLosesOwnPips(Mutant):
    """The winner scores the loser's pips minus their own (the primary source's reading, the
    ruling's rejected alternative)."""

    variant, rule = VARIANT, "R-CLB-07"
    only = ("golden/classic_block/blocked-loser-pips",)

    @classmethod
    def mutate(cls, data: dict[str, Any]) -> None:
        data["scoring"]["terms"].append(
            {"term": "own_pips", "to": "winner", "sign": -1, "rule": "R-CLB-07"})


class ClassicBlockLoserScores(Mutant):
    """The loser's pips are added to the loser's own total instead of the winner's."""

    variant, rule = VARIANT, "R-CLB-07"
    only = ("golden/classic_block/domino",)

    @classmethod
    def mutate(cls, data: dict[str, Any]) -> None:
        term_of(data, "opponent_pips")["to"] = "loser"


# ---------------------------------------------------------------------------- R-CLB-08 option


def _overrides(options: dict[str, OptionSpec],
               overrides: dict[object, dict[str, object]]) -> None:
    spec = options["blocked_payout"]
    options["blocked_payout"] = dataclasses.replace(spec, overrides=overrides)


class ClassicBlockBothTotalsIgnored(Mutant):
    """``blocked_payout: both_totals`` is accepted and ignored: a blocked hand pays the loser's
    pips only."""

    variant, rule = VARIANT, "R-CLB-08"
    only = ("golden/classic_block/blocked-both-totals",)

    @classmethod
    def mutate(cls, data: dict[str, Any]) -> None:
        pass

    @classmethod
    def mutate_options(cls, options: dict[str, OptionSpec]) -> None:
        _overrides(options, {})


class ClassicBlockPayoutSwapped(Mutant):
    """The two ``blocked_payout`` values are read the wrong way round: the default pays both
    hands, ``both_totals`` the loser's only."""

    variant, rule = VARIANT, "R-CLB-08"
    only = ("golden/classic_block/blocked-loser-pips", "golden/classic_block/blocked-both-totals")

    @classmethod
    def mutate(cls, data: dict[str, Any]) -> None:
        data["scoring"]["terms"].append({"term": "own_pips", "to": "winner", "rule": "R-CLB-08"})

    @classmethod
    def mutate_options(cls, options: dict[str, OptionSpec]) -> None:
        kept = [{"term": "opponent_pips", "to": "winner", "rule": "R-CLB-07"}]
        _overrides(options, {"both_totals": {"scoring.terms": kept}})


# ---------------------------------------------------------------------------- R-CLB-09 match


class ClassicBlockTargetExceeds(Mutant):
    """The match is won only by passing 100, not by reaching it."""

    variant, rule = VARIANT, "R-CLB-09"
    only = ("match/classic_block/exact-target",)

    @classmethod
    def mutate(cls, data: dict[str, Any]) -> None:
        data["match"]["compare"] = "exceeds"


class ClassicBlockTarget150(Mutant):
    """The match is played to 150 (a common house target), not 100."""

    variant, rule = VARIANT, "R-CLB-09"
    only = ("match/classic_block/default",)

    @classmethod
    def mutate(cls, data: dict[str, Any]) -> None:
        data["match"]["target"] = 150
