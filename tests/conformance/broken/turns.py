"""Engines that get a turn wrong: what may be played, where a tile goes, who moves next.

Listing patches offer (and accept) a different set of actions than the rules allow; state
patches play the action as the reference does and then leave the hand slightly wrong (the wrong
end open, the wrong player to move, a count not reset, a tile in the wrong place).
"""

from __future__ import annotations

import bisect
import dataclasses
from collections.abc import Mapping
from typing import Any

from dominokit.reference import Action, HandState
from dominokit.reference.chain import ChainTable
from dominokit.reference.state import Event, Turn
from tests.conformance.broken.engines import (
    Broken,
    JsonObject,
    ListingPatch,
    StatePatch,
    chain_plays,
    end_pip,
    passes_turn,
    with_hand,
)


def _draw(engine: Broken, hand: HandState, source: str) -> list[JsonObject]:
    """The mover takes the first tile of ``source`` ("stock" or "out_of_play") and stays."""
    mover = hand.to_move
    assert mover is not None
    pool = hand.stock if source == "stock" else hand.out_of_play
    tile, rest = pool[0], pool[1:]
    tiles = list(hand.hands[mover])
    bisect.insort(tiles, tile)
    drawn = with_hand(hand, mover, tuple(tiles))
    drawn = (dataclasses.replace(drawn, stock=rest) if source == "stock"
             else dataclasses.replace(drawn, out_of_play=rest))
    engine._hand = dataclasses.replace(drawn, turn=Turn(hand.turn.draws + 1, False))
    return [Event("draw", player=mover, tile=str(tile)).to_json()]


def _board_plays(legal: list[str]) -> list[Action]:
    return [a for a in map(Action.parse, legal) if a.kind == "board"]


# ---------------------------------------------------------------------------- what is legal


class PoldominoOpeningAllowsDraw(ListingPatch):
    """The starter may draw before opening."""

    variant, rule, only = "poldomino", "R-POL-02", ("perft/poldomino/start-d1",)

    def changes(self, hand: HandState, legal: list[str]) -> tuple[set[str], set[str]]:
        opening = hand.table.empty and hand.result is None and bool(hand.stock)
        return ({"draw"} if opening else set()), set()

    def play_added(self, hand: HandState, action: str) -> list[JsonObject]:
        return _draw(self, hand, "stock")


class ProgressiveOpeningAllowsPass(ListingPatch):
    """The starter may pass instead of opening."""

    variant, rule, only = "progressive", "R-PRO-02", ("perft/progressive/start-5-d1",)

    def changes(self, hand: HandState, legal: list[str]) -> tuple[set[str], set[str]]:
        return ({"pass"} if hand.table.empty and hand.result is None else set()), set()

    def play_added(self, hand: HandState, action: str) -> list[JsonObject]:
        return passes_turn(self, hand, "pass")


class PoldominoRightEndOnly(ListingPatch):
    """Only the right end of the chain takes tiles (the left end is never offered)."""

    variant, rule, only = "poldomino", "R-POL-04", ("perft/poldomino/start-d2",)

    def changes(self, hand: HandState, legal: list[str]) -> tuple[set[str], set[str]]:
        return set(), {str(a) for a in chain_plays(legal) if a.end == "L"}


class ProgressiveNoDoublesOnTheChain(ListingPatch):
    """After the opening a double is never offered (a crosswise double is taken for a spinner
    the engine does not support)."""

    variant, rule, only = "progressive", "R-PRO-07", ("differential/progressive/default",)

    def changes(self, hand: HandState, legal: list[str]) -> tuple[set[str], set[str]]:
        return set(), {str(a) for a in chain_plays(legal)
                       if a.tile is not None and a.tile.is_double}


class SzczerbakBlankEndNeedsBlank(ListingPatch):
    """On a blank end only a tile with a blank half fits."""

    variant, rule, only = "szczerbak", "R-SZC-05", ("perft/szczerbak/blank-end-d1",)

    def changes(self, hand: HandState, legal: list[str]) -> tuple[set[str], set[str]]:
        return set(), {str(a) for a in chain_plays(legal)
                       if end_pip(hand, a) == 0 and a.tile is not None and a.tile.low != 0}


class PijanowskiHorizontalOnly(ListingPatch):
    """Tiles are only ever laid horizontally (two cells of one row)."""

    variant, rule, only = "pijanowski", "R-PIJ-03", ("perft/pijanowski/start-d1",)

    def changes(self, hand: HandState, legal: list[str]) -> tuple[set[str], set[str]]:
        return set(), {str(a) for a in _board_plays(legal)
                       if a.cells is not None and a.cells[0][0] != a.cells[1][0]}


class PijanowskiLowHalfFirstOnly(ListingPatch):
    """A tile's low half always goes left of or above its high half (never the other way)."""

    variant, rule, only = "pijanowski", "R-PIJ-03", ("perft/pijanowski/second-tile-d1",)

    def changes(self, hand: HandState, legal: list[str]) -> tuple[set[str], set[str]]:
        return set(), {str(a) for a in _board_plays(legal)
                       if a.cells is not None and a.cells[0] > a.cells[1]}


class PijanowskiDrawsOutOfPlay(ListingPatch):
    """The tiles out of play are a stock: a player may draw from them."""

    variant, rule, only = "pijanowski", "R-PIJ-02", ("rejection/pijanowski/draw-not-allowed",)

    def changes(self, hand: HandState, legal: list[str]) -> tuple[set[str], set[str]]:
        allowed = hand.result is None and not hand.turn.extra and bool(hand.out_of_play)
        return ({"draw"} if allowed else set()), set()

    def play_added(self, hand: HandState, action: str) -> list[JsonObject]:
        return _draw(self, hand, "out_of_play")


class PijanowskiMustPlaceExtraTile(ListingPatch):
    """After [0|0] the player must place the extra tile when they can (stop only when stuck)."""

    variant, rule, only = "pijanowski", "R-PIJ-07", ("perft/pijanowski/double-blank-corner-d1",)

    def changes(self, hand: HandState, legal: list[str]) -> tuple[set[str], set[str]]:
        stuck = legal == ["stop"]
        return set(), (set() if stuck or not hand.turn.extra else {"stop"})


# ---------------------------------------------------------------------------- the table


class SzczerbakTouchingHalfStaysOpen(StatePatch):
    """After a placement the touching half, not the far half, is the open end."""

    variant, rule, only = "szczerbak", "R-SZC-03", ("differential/szczerbak/default",)

    def patch(self, before: HandState, action: Action, after: HandState,
              events: list[JsonObject]) -> tuple[HandState, list[JsonObject]] | None:
        table = after.table
        if action.kind != "chain" or not isinstance(table, ChainTable) or after.result:
            return None
        assert action.touch is not None
        return dataclasses.replace(after, table=dataclasses.replace(
            table, right=action.touch)), events


class ProgressiveOpeningHighHalfLeft(StatePatch):
    """The opening tile's high half becomes the left end and its low half the right end."""

    variant, rule, only = "progressive", "R-PRO-02", ("differential/progressive/default",)

    def patch(self, before: HandState, action: Action, after: HandState,
              events: list[JsonObject]) -> tuple[HandState, list[JsonObject]] | None:
        if action.kind != "opening" or action.tile is None or after.result:
            return None
        tile = action.tile
        table = ChainTable(((tile.high, tile.low),), tile.high, tile.low)
        return dataclasses.replace(after, table=table), events


class SzczerbakWidowLowerHalfOpen(Broken):
    """The chain grows from the widow's lower half; the higher half is taken as the dead one."""

    variant, rule, only = "szczerbak", "R-SZC-02", ("differential/szczerbak/default",)

    def new_hand(self, variant: str, options: Mapping[str, Any],
                 deal: Mapping[str, Any]) -> JsonObject:
        state = super().new_hand(variant, options, deal)
        return self._lower_open() or state

    def next_hand(self, deal: Mapping[str, Any]) -> JsonObject:
        state = super().next_hand(deal)
        return self._lower_open() or state

    def _lower_open(self) -> JsonObject | None:
        hand = self._hand
        if hand is None or hand.rules.variant_id != self.variant or hand.widow is None \
                or hand.result is not None:
            return None
        assert isinstance(hand.table, ChainTable)
        low, high = sorted(hand.widow)
        self._hand = dataclasses.replace(hand, table=ChainTable(((high, low),), None, low))
        return self._hand.to_json()


# ---------------------------------------------------------------------------- whose turn


class PoldominoDrawEndsTurn(StatePatch):
    """A draw ends the turn: the other player moves next."""

    variant, rule, only = "poldomino", "R-ALL-13", ("differential/poldomino/default",)

    def patch(self, before: HandState, action: Action, after: HandState,
              events: list[JsonObject]) -> tuple[HandState, list[JsonObject]] | None:
        if action.kind != "draw" or after.result is not None or after.to_move is None:
            return None
        return dataclasses.replace(after, to_move=1 - after.to_move, turn=Turn()), events


class ProgressivePassKeepsTurn(StatePatch):
    """After a pass the same player is still to move."""

    variant, rule, only = "progressive", "R-ALL-13", ("differential/progressive/default",)

    def patch(self, before: HandState, action: Action, after: HandState,
              events: list[JsonObject]) -> tuple[HandState, list[JsonObject]] | None:
        if action.kind != "pass" or after.result is not None:
            return None
        return dataclasses.replace(after, to_move=before.to_move), events


class PoldominoDoubleGivesAnotherTurn(StatePatch):
    """A player who places a double plays again (a common house rule, not this game's)."""

    variant, rule, only = "poldomino", "R-ALL-08", ("differential/poldomino/default",)

    def patch(self, before: HandState, action: Action, after: HandState,
              events: list[JsonObject]) -> tuple[HandState, list[JsonObject]] | None:
        if action.tile is None or not action.tile.is_double or after.result is not None:
            return None
        return dataclasses.replace(after, to_move=before.to_move), events


class PoldominoPlacementKeepsPassCount(StatePatch):
    """A placement does not reset the count of passes in a row."""

    variant, rule, only = "poldomino", "R-POL-05", ("differential/poldomino/default",)

    def patch(self, before: HandState, action: Action, after: HandState,
              events: list[JsonObject]) -> tuple[HandState, list[JsonObject]] | None:
        if action.tile is None or after.result is not None or not before.passes:
            return None
        return dataclasses.replace(after, passes=before.passes), events


class AcceptsPassAfterEnd(Broken):
    """Once the hand is over, any action is accepted as a pass that changes nothing."""

    variant, rule, only = "szczerbak", "R-ALL-14", ("rejection/szczerbak/play-after-end",)

    def apply(self, action: str) -> list[JsonObject]:
        hand = self._hand
        if hand is not None and hand.result is not None and hand.rules.variant_id == self.variant:
            return [Event("pass", player=hand.starter).to_json()]
        return super().apply(action)


# ---------------------------------------------------------------------------- where tiles are


class PoldominoDrawTakesLastTile(StatePatch):
    """A draw takes the last tile of the stock instead of the first."""

    variant, rule, only = "poldomino", "R-ALL-03", ("differential/poldomino/default",)

    def patch(self, before: HandState, action: Action, after: HandState,
              events: list[JsonObject]) -> tuple[HandState, list[JsonObject]] | None:
        mover = before.to_move
        if action.kind != "draw" or mover is None or len(before.stock) < 2:
            return None
        tile = before.stock[-1]
        hand = with_hand(before, mover, (*before.hands[mover], tile))
        hand = dataclasses.replace(hand, stock=before.stock[:-1], turn=after.turn)
        event = Event("draw", player=mover, tile=str(tile)).to_json()
        return hand, [event if e.get("type") == "draw" else e for e in events]


class ProgressivePlacedTileStaysInHand(StatePatch):
    """The hand's first tile is put on the table but not taken out of the hand (only the
    first: a tile that never left would fill the table past any real set, which the protocol's
    size limits refuse before any rule could be blamed)."""

    variant, rule = "progressive", "R-ALL-12"
    only = ("invariants/progressive/tile-conservation",)

    def patch(self, before: HandState, action: Action, after: HandState,
              events: list[JsonObject]) -> tuple[HandState, list[JsonObject]] | None:
        mover = before.to_move
        if action.tile is None or mover is None or after.result is not None:
            return None
        if getattr(before.table, "tiles", None):  # not the hand's first tile
            return None
        return with_hand(after, mover, (*after.hands[mover], action.tile)), events


class PijanowskiDoubleSetTwinsAreOneTile(StatePatch):
    """With two sets, placing a tile also takes its twin out of the opponent's hand (the two
    copies are treated as one tile)."""

    variant, rule = "pijanowski", "R-ALL-01"
    only = ("invariants/pijanowski/tile-conservation-double_set-true",)

    def patch(self, before: HandState, action: Action, after: HandState,
              events: list[JsonObject]) -> tuple[HandState, list[JsonObject]] | None:
        mover = before.to_move
        tile = action.tile
        if tile is None or mover is None or after.result is not None \
                or tile not in after.hands[1 - mover]:
            return None
        tiles = list(after.hands[1 - mover])
        tiles.remove(tile)
        return with_hand(after, 1 - mover, tuple(tiles)), events


class PijanowskiStopBeforeBlock(StatePatch):
    """When [0|0] leaves nobody able to place, the hand waits for the player to stop instead
    of ending at once as a block."""

    variant, rule = "pijanowski", "R-PIJ-13"
    only = ("golden/pijanowski/block-after-double-blank",)

    def patch(self, before: HandState, action: Action, after: HandState,
              events: list[JsonObject]) -> tuple[HandState, list[JsonObject]] | None:
        mover = before.to_move
        extra = before.rules.extra_tile
        result = after.result
        if extra is None or action.tile is None or action.tile != extra.after \
                or before.turn.extra or result is None or result.reason != "block" \
                or mover is None or not after.hands[mover]:
            return None
        waiting = dataclasses.replace(after, result=None, to_move=mover, turn=Turn(0, True))
        return waiting, [e for e in events if e.get("type") != "end"]
