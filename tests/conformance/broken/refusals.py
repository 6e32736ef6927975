"""Engines that refuse wrongly: the wrong error code, the wrong rule cited, a refusal that
changes the hand, or a bad deal let through.

The cases that kill the last two groups (the cited-rule check of ``rejection/...`` and the
error-path cases ``requests/...``) are listed by id; an engine whose cases do not exist yet is
reported as not killed, never skipped.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any, ClassVar

from dominokit.conformance.wire.errors import EngineRejected
from dominokit.reference import Action, Deal
from dominokit.reference import engine as reference_engine
from dominokit.reference.chain import ChainTable
from dominokit.reference.errors import DealError
from dominokit.reference.rules import Rules
from tests.conformance.broken.engines import Broken, JsonObject, with_hand


class RuleOfRefusal(Broken):
    """Refuses what the reference refuses, but answers a different code or cites another rule."""

    def refusal(self, refused: EngineRejected, action: Action) -> EngineRejected | None:
        """The wrong refusal to raise instead, or None to keep the reference's."""
        raise NotImplementedError

    def apply(self, action: str) -> list[JsonObject]:
        hand = self._hand
        try:
            return super().apply(action)
        except EngineRejected as refused:
            if hand is None or hand.rules.variant_id != self.variant:
                raise
            try:
                parsed = Action.parse(action)
            except ValueError:
                raise refused from None
            wrong = self.refusal(refused, parsed)
            if wrong is None:
                raise
            raise wrong from None


class TileNotHeldIsBadRequest(RuleOfRefusal):
    """A placement of a tile the player does not hold is refused as ``bad_request`` (a
    malformed request) instead of ``illegal_action``."""

    variant, rule = "szczerbak", "R-ALL-12"
    only = ("rejection/szczerbak/tile-not-in-hand",)

    def refusal(self, refused: EngineRejected, action: Action) -> EngineRejected | None:
        if refused.rule != self.rule:
            return None
        return EngineRejected("bad_request", f"{action} is not in the player's hand")


class PoldominoMismatchCitesOwnTiles(RuleOfRefusal):
    """A tile that does not match the end is refused citing R-ALL-12 (own tiles) instead of
    the matching rule."""

    variant, rule, only = "poldomino", "R-POL-04", ("rejection/poldomino/mismatch",)

    def refusal(self, refused: EngineRejected, action: Action) -> EngineRejected | None:
        if refused.code != "illegal_action" or refused.rule != self.rule:
            return None
        return EngineRejected("illegal_action", f"{action} does not fit", "R-ALL-12")


class PijanowskiOffBoardCitesContacts(RuleOfRefusal):
    """A tile placed partly off the board is refused citing the contact rule R-PIJ-04 instead
    of the placement rule R-PIJ-03."""

    variant, rule, only = "pijanowski", "R-PIJ-03", ("rejection/pijanowski/off-board",)

    def refusal(self, refused: EngineRejected, action: Action) -> EngineRejected | None:
        if refused.code != "illegal_action" or "board" not in refused.message:
            return None
        return EngineRejected("illegal_action", refused.message, "R-PIJ-04")


class PijanowskiDoubleOnOneCellIsBadRequest(RuleOfRefusal):
    """A double written with one cell twice (``4-4@0.0+0.0``) is refused as malformed
    notation (``bad_request``) instead of ``illegal_action`` citing the adjacency rule, or
    R-ALL-12 when the double is not held (spec/protocol.md: it is canonical notation)."""

    variant, rule = "pijanowski", "R-PIJ-03"
    only = ("rejection/pijanowski/double-on-one-cell",)

    def refusal(self, refused: EngineRejected, action: Action) -> EngineRejected | None:
        cells = action.cells
        if cells is None or cells[0] != cells[1]:
            return None
        return EngineRejected("bad_request", f"{action} covers one cell twice")


class SzczerbakWidowHandOpensWithAPass(RuleOfRefusal):
    """The first action of a hand that opens from a widow is taken as the opening: a pass
    there, by a player who can place, is refused citing the opening rule (R-SZC-02) instead of
    the pass rule (spec/protocol.md: the widow lies on the table from the deal)."""

    variant, rule = "szczerbak", "R-SZC-06"
    only = ("rejection/szczerbak/pass-not-allowed",)
    _widow_only = False

    def apply(self, action: str) -> list[JsonObject]:
        table = self._hand.table if self._hand is not None else None
        self._widow_only = isinstance(table, ChainTable) and len(table.tiles) == 1
        return super().apply(action)

    def refusal(self, refused: EngineRejected, action: Action) -> EngineRejected | None:
        if not self._widow_only or action.kind != "pass" or refused.rule != self.rule:
            return None
        return EngineRejected("illegal_action", "the hand opens with a tile, not a pass",
                              "R-SZC-02")


class SzczerbakRefusedParityLosesTile(Broken):
    """Refusing a tile that breaks parity still takes it out of the player's hand."""

    variant, rule, only = "szczerbak", "R-SZC-04", ("rejection/szczerbak/parity",)

    def apply(self, action: str) -> list[JsonObject]:
        hand = self._hand
        try:
            return super().apply(action)
        except EngineRejected as refused:
            mover = hand.to_move if hand is not None else None
            tile = Action.parse(action).tile if refused.rule == self.rule else None
            if hand is not None and mover is not None and tile in hand.hands[mover] \
                    and hand.rules.variant_id == self.variant:
                self._hand = with_hand(hand, mover,
                                       tuple(t for t in hand.hands[mover] if t != tile))
            raise


# ---------------------------------------------------------------------------- bad deals


class LenientDeal(Broken):
    """Lets through a deal that breaks one check of ``validate_deal``: the check whose message
    starts with ``skips``."""

    skips: ClassVar[str]

    def new_hand(self, variant: str, options: Mapping[str, Any],
                 deal: Mapping[str, Any]) -> JsonObject:
        if variant != self.variant:
            return super().new_hand(variant, options, deal)
        with _lenient(self.skips):
            return super().new_hand(variant, options, deal)


@contextmanager
def _lenient(skips: str) -> Iterator[None]:
    """The reference's deal check, forgiving the one problem whose message starts ``skips``."""
    namespace = vars(reference_engine)  # new_hand looks validate_deal up in its module
    strict = namespace["validate_deal"]

    def forgiving(rules: Rules, deal: Deal) -> None:
        try:
            strict(rules, deal)
        except DealError as error:
            if skips not in str(error):
                raise

    namespace["validate_deal"] = forgiving
    try:
        yield
    finally:
        namespace["validate_deal"] = strict


class PoldominoDealTilesUnchecked(LenientDeal):
    """A deal is not checked against the tile set: a duplicated or missing tile is dealt."""

    variant, rule = "poldomino", "R-ALL-01"
    only = ("requests/poldomino/bad-deal-duplicate-tile",
            "requests/poldomino/bad-deal-missing-tile")
    skips = "the deal's tiles are not the variant's tile set"


class PijanowskiHandSizeUnchecked(LenientDeal):
    """A deal with hands of the wrong size is played as given."""

    variant, rule, only = "pijanowski", "R-PIJ-02", ("requests/pijanowski/bad-deal-hand-size",)
    skips = "hands must hold"


class SzczerbakStarterGivenAccepted(LenientDeal):
    """A deal that names a starter is accepted although the widow decides who starts."""

    variant, rule = "szczerbak", "R-SZC-01"
    only = ("requests/szczerbak/bad-deal-starter-given",)
    skips = "the widow decides the starter"


class ProgressiveMissingStarterIsZero(Broken):
    """A standalone hand dealt with no starter is started by player 0 instead of refused."""

    variant, rule = "progressive", "R-PRO-01"
    only = ("requests/progressive/bad-deal-starter-missing",)

    def new_hand(self, variant: str, options: Mapping[str, Any],
                 deal: Mapping[str, Any]) -> JsonObject:
        if variant == self.variant and deal.get("starter") is None:
            deal = {**deal, "starter": 0}
        return super().new_hand(variant, options, deal)

