"""Engines that break exactly one rule each, built on the reference engine.

A conformance suite is only worth its failures: every engine here is the reference with one
deliberate mistake, and ``tests/conformance/test_broken_engines.py`` requires the suite to fail
each of
them with a failure that names the broken rule. Each class says which variant it plays wrong
(``variant``), which rule it breaks (``rule``) and which case ids should catch it (``only``,
globs), so the test can run a small relevant part of the suite.

Two ways of breaking are used. *Mutants* play a variant whose spec data is changed (a bonus
value, a missing term or end condition, a target): the rules are data, so most mistakes an
engine can make are mistakes in reading that data. *Patched* engines change what the
reference answers (a legal list, a result, a starter) for mistakes no data change can express.
Both reach into ``ReferenceEngine``'s current hand and match (``_hand``, ``_match``), which is
acceptable for test doubles and keeps each one a few lines.

Load one with ``python:tests.conformance.broken.<module>:<ClassName>`` or
``InProcessEngine(Class())``.
The other modules of ``tests/conformance/broken/`` hold the rest of the corpus, by area;
``tests.conformance.broken.registry.BROKEN`` collects them all.
"""

from __future__ import annotations

import copy
import dataclasses
import json
from collections.abc import Mapping
from typing import Any, ClassVar

from dominokit.conformance.serve.refengine import ReferenceEngine
from dominokit.conformance.serve.refengine import _parse_deal as parse_deal
from dominokit.conformance.serve.refengine import _refusals as refusals
from dominokit.conformance.wire.errors import EngineRejected
from dominokit.reference import (
    Action,
    Deal,
    HandResult,
    HandState,
    MatchState,
    Rules,
    Variant,
    load_rules,
    load_variant,
    new_hand,
    new_match,
    scoring,
)
from dominokit.reference import engine as reference_engine
from dominokit.reference.chain import ChainTable
from dominokit.reference.state import Event, ScoreTerm, Turn
from dominokit.spec.spec import OptionSpec

JsonObject = dict[str, Any]


class Broken(ReferenceEngine):
    """The reference with one mistake; subclasses say which."""

    variant: ClassVar[str]
    rule: ClassVar[str]
    only: ClassVar[tuple[str, ...]]

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"

    def hello(self) -> JsonObject:
        """The reference's hello without ``undo``: many engines here set the hand without the
        reference's ``apply``, so an undo would be a second bug. The kit walks them by replay;
        the undo engines (``tests/conformance/broken/undo.py``) declare it."""
        return {k: v for k, v in super().hello().items() if k != "capabilities"}

    def _set_hand(self, hand: HandState, match_before: MatchState | None) -> None:
        """Make ``hand`` current; a match takes its result instead of the one it folded."""
        self._hand = hand
        if match_before is not None:
            self._match = match_before
            self._fold_result()

    def _rescore(self, hand: HandState) -> HandState:
        """``hand`` with its result computed again (after a patch changed what it scores)."""
        if hand.result is None:
            return hand
        return dataclasses.replace(hand, result=scoring.score_hand(hand, hand.result.reason))


def end_event(events: list[JsonObject], hand: HandState) -> list[JsonObject]:
    """``events`` with the end event carrying ``hand``'s result."""
    if hand.result is None:
        return events
    return [{**e, "result": hand.result.to_json()} if e.get("type") == "end" else e
            for e in events]


# ---------------------------------------------------------------------------- mutants


class Mutant(Broken):
    """Plays ``variant`` from spec data changed by ``mutate``."""

    _cache: ClassVar[dict[type, Variant]] = {}
    _rules_cache: ClassVar[dict[tuple[type, str], Rules]] = {}

    @classmethod
    def mutate(cls, data: dict[str, Any]) -> None:
        raise NotImplementedError

    @classmethod
    def mutate_options(cls, options: dict[str, OptionSpec]) -> None:
        """Change the parsed options (their per-value overrides live there, not in ``data``)."""

    @classmethod
    def changed(cls) -> Variant:
        if cls not in Mutant._cache:
            original = load_variant(cls.variant)
            data = copy.deepcopy(original.data)
            cls.mutate(data)
            options = dict(original.options)
            cls.mutate_options(options)
            Mutant._cache[cls] = dataclasses.replace(original, data=data, options=options)
        return Mutant._cache[cls]

    def new_hand(self, variant: str, options: Mapping[str, Any],
                 deal: Mapping[str, Any]) -> JsonObject:
        if variant != self.variant:
            return super().new_hand(variant, options, deal)
        with refusals():
            hand = new_hand(self._rules(options), parse_deal(deal))
        self._match, self._hand = None, hand
        return hand.to_json()

    @classmethod
    def _rules(cls, options: Mapping[str, Any]) -> Rules:
        """The changed variant's rules under ``options`` (built once: perft starts many hands)."""
        key = (cls, json.dumps(dict(options), sort_keys=True))
        if key not in Mutant._rules_cache:
            Mutant._rules_cache[key] = load_rules(cls.changed(), dict(options))
        return Mutant._rules_cache[key]

    def new_match(self, variant: str, options: Mapping[str, Any],
                  first_starter: int) -> JsonObject:
        match = super().new_match(variant, options, first_starter)
        if variant != self.variant:
            return match
        self._match = new_match(self.changed(), dict(options), first_starter)
        return self._match.to_json()


def term_of(data: dict[str, Any], name: str) -> dict[str, Any]:
    term: dict[str, Any] = next(t for t in data["scoring"]["terms"] if t["term"] == name)
    return term


class PoldominoBonus66Is60(Mutant):
    """Going out on [6|6] earns 60, not 120."""

    variant, rule, only = "poldomino", "R-POL-08", ("differential/poldomino/default",)

    @classmethod
    def mutate(cls, data: dict[str, Any]) -> None:
        term_of(data, "last_tile_bonus")["tiles"]["6-6"] = 60


class PoldominoNoCatch(Mutant):
    """A lone [0|0] or [6|6] left in the loser's hand costs nothing."""

    variant, rule, only = "poldomino", "R-POL-09", ("differential/poldomino/default",)

    @classmethod
    def mutate(cls, data: dict[str, Any]) -> None:
        data["scoring"]["terms"].remove(term_of(data, "catch"))


class PoldominoCatchPenaltyIgnored(Mutant):
    """The catch always goes to the winner, whatever ``catch_penalty_to`` says."""

    variant, rule = "poldomino", "R-POL-09"
    only = ("differential/poldomino/catch_penalty_to-loser",)

    @classmethod
    def mutate(cls, data: dict[str, Any]) -> None:
        term_of(data, "catch")["to"] = "winner"


class PoldominoMutualPassNeverEnds(Mutant):
    """Two turns in a row ending in a pass do not end the hand."""

    variant, rule, only = "poldomino", "R-POL-05", ("differential/poldomino/default",)

    @classmethod
    def mutate(cls, data: dict[str, Any]) -> None:
        data["end"] = [e for e in data["end"] if e["condition"] != "mutual_pass"]


class ProgressiveDrawWithPlayableTile(Mutant):
    """A player who could place may draw anyway."""

    variant, rule, only = "progressive", "R-PRO-03", ("differential/progressive/default",)

    @classmethod
    def mutate(cls, data: dict[str, Any]) -> None:
        data["turn"]["draw"]["policy"] = "free"


class PijanowskiLakesOfFive(Mutant):
    """Enclosed regions of 5 cells score as lakes."""

    variant, rule, only = "pijanowski", "R-PIJ-06", ("differential/pijanowski/default",)

    @classmethod
    def mutate(cls, data: dict[str, Any]) -> None:
        data["scoring"]["lakes"]["max_cells"] = 5


class PijanowskiNewlyEnclosedIgnored(Mutant):
    """Lakes are always judged as new regions, whatever ``lake_rule`` says."""

    variant, rule = "pijanowski", "R-PIJ-06"
    only = ("differential/pijanowski/lake_rule-newly_enclosed",)

    @classmethod
    def mutate(cls, data: dict[str, Any]) -> None:
        data["scoring"]["lakes"]["mode"] = "new_region"


class PijanowskiNoExtraTile(Mutant):
    """Placing [0|0] ends the turn like any tile."""

    variant, rule, only = "pijanowski", "R-PIJ-07", ("differential/pijanowski/default",)

    @classmethod
    def mutate(cls, data: dict[str, Any]) -> None:
        del data["turn"]["extra_tile"]


class PijanowskiHandScoreKeepsPips(Mutant):
    """The hand score does not subtract the pips left in hand."""

    variant, rule, only = "pijanowski", "R-PIJ-09", ("invariants/pijanowski/*-consistency",
                                                     "differential/pijanowski/default")

    @classmethod
    def mutate(cls, data: dict[str, Any]) -> None:
        data["scoring"]["terms"].remove(term_of(data, "own_pips"))


class PoldominoSetTarget100(Mutant):
    """A set is won at 100 points instead of 125."""

    variant, rule, only = "poldomino", "R-POL-10", ("match/poldomino/default",)

    @classmethod
    def mutate(cls, data: dict[str, Any]) -> None:
        data["match"]["set_target"] = 100


class ProgressiveTiebreakKeepsRoles(Mutant):
    """A second tiebreak deals the hand sizes as the first did (no role swap)."""

    variant, rule, only = "progressive", "R-PRO-06", ("match/progressive/second-tiebreak",)

    @classmethod
    def mutate(cls, data: dict[str, Any]) -> None:
        data["match"]["tiebreak"]["swap_roles"] = False


class SzczerbakTargetExceeds(Mutant):
    """The match is won only by passing 100, not by reaching it."""

    variant, rule, only = "szczerbak", "R-SZC-07", ("match/szczerbak/exact-target",)

    @classmethod
    def mutate(cls, data: dict[str, Any]) -> None:
        data["match"]["compare"] = "exceeds"


# ---------------------------------------------------------------------------- patched


class ListingPatch(Broken):
    """Lists (and accepts) a different set of actions than the reference."""

    def __init__(self) -> None:
        super().__init__()
        self._seen: dict[str, tuple[set[str], set[str]]] = {}

    def changes(self, hand: HandState, legal: list[str]) -> tuple[set[str], set[str]]:
        """(actions to add, actions to drop) in ``hand``."""
        raise NotImplementedError

    def _changes(self, hand: HandState) -> tuple[set[str], set[str]]:
        """``changes`` of ``hand``, remembered for the last positions seen: perft re-reaches
        the same position once per action, and a board's legal list is long."""
        key = json.dumps(hand.to_json(), sort_keys=True)
        if key not in self._seen:
            if len(self._seen) > 64:
                self._seen.clear()
            self._seen[key] = self.changes(hand, super().legal())
        return self._seen[key]

    def legal(self) -> list[str]:
        legal = super().legal()
        if self._hand is None or self._hand.rules.variant_id != self.variant:
            return legal
        added, dropped = self._changes(self._hand)
        return sorted((set(legal) | added) - dropped)

    def apply(self, action: str) -> list[JsonObject]:
        hand = self._hand
        if hand is not None and hand.rules.variant_id == self.variant:
            added, dropped = self._changes(hand)
            if action in dropped:
                raise EngineRejected("illegal_action", f"{action} is not legal here", self.rule)
            if action in added:
                return self.play_added(hand, action)
        return super().apply(action)

    def play_added(self, hand: HandState, action: str) -> list[JsonObject]:
        """Play an action the reference would refuse."""
        raise NotImplementedError


class StatePatch(Broken):
    """Plays each action as the reference does, then changes the hand (and events) it left."""

    def patch(self, before: HandState, action: Action, after: HandState,
              events: list[JsonObject]) -> tuple[HandState, list[JsonObject]] | None:
        """The changed (hand, events) after ``action``, or None to keep the reference's."""
        raise NotImplementedError

    def apply(self, action: str) -> list[JsonObject]:
        before, match_before = self._hand, self._match
        events = super().apply(action)
        after = self._hand
        if before is None or after is None or before.rules.variant_id != self.variant:
            return events
        patched = self.patch(before, Action.parse(action), after, events)
        if patched is None:
            return events
        self._hand, events = patched
        self._match = match_before
        self._fold_result()
        return events


def with_hand(hand: HandState, player: int, tiles: tuple[Any, ...]) -> HandState:
    """``hand`` with ``player`` holding ``tiles`` (sorted)."""
    hands = list(hand.hands)
    hands[player] = tuple(sorted(tiles))
    return dataclasses.replace(hand, hands=(hands[0], hands[1]))


def passes_turn(engine: Broken, hand: HandState, kind: str) -> list[JsonObject]:
    """End the mover's turn without placing (a pass or stop the rules do not allow)."""
    mover = hand.to_move
    assert mover is not None
    passes = hand.passes + (kind == "pass")
    engine._hand = dataclasses.replace(hand, to_move=1 - mover, turn=Turn(), passes=passes)
    return [Event(kind, player=mover).to_json()]


class PoldominoOpeningAllowsPass(ListingPatch):
    """The starter may pass instead of opening."""

    variant, rule, only = "poldomino", "R-POL-02", ("perft/poldomino/start-d1",)

    def changes(self, hand: HandState, legal: list[str]) -> tuple[set[str], set[str]]:
        return ({"pass"} if hand.table.empty and hand.result is None else set()), set()

    def play_added(self, hand: HandState, action: str) -> list[JsonObject]:
        return passes_turn(self, hand, "pass")


class PijanowskiStopAnytime(ListingPatch):
    """``stop`` is offered (and ends the turn) even when no [0|0] was just placed."""

    variant, rule, only = "pijanowski", "R-PIJ-07", ("differential/pijanowski/default",)

    def changes(self, hand: HandState, legal: list[str]) -> tuple[set[str], set[str]]:
        allowed = hand.result is None and not hand.turn.extra
        return ({"stop"} if allowed else set()), set()

    def play_added(self, hand: HandState, action: str) -> list[JsonObject]:
        return passes_turn(self, hand, "stop")


def chain_plays(legal: list[str]) -> list[Action]:
    return [a for a in map(Action.parse, legal) if a.kind == "chain"]


def end_pip(hand: HandState, action: Action) -> int | None:
    """The pips showing on the end ``action`` plays to."""
    assert isinstance(hand.table, ChainTable) and action.end is not None
    return hand.table.end_pip(action.end)


class SzczerbakParityNoZeroException(ListingPatch):
    """A blank far half counts as even, so it does not fit an even end."""

    variant, rule, only = "szczerbak", "R-SZC-04", ("perft/szczerbak/*",)

    def changes(self, hand: HandState, legal: list[str]) -> tuple[set[str], set[str]]:
        dropped = set()
        for action in chain_plays(legal):
            assert action.tile is not None and action.touch is not None
            end = end_pip(hand, action)
            if end and end % 2 == 0 and action.tile.other(action.touch) == 0:
                dropped.add(str(action))
        return set(), dropped


class SzczerbakBlankEndOneAction(ListingPatch):
    """On a blank end a tile gives one action (low half touching), not two."""

    variant, rule, only = "szczerbak", "R-SZC-05", ("perft/szczerbak/blank-end-d1",)

    def changes(self, hand: HandState, legal: list[str]) -> tuple[set[str], set[str]]:
        dropped = set()
        for action in chain_plays(legal):
            assert action.tile is not None
            end = end_pip(hand, action)
            if end == 0 and action.touch != action.tile.low:
                dropped.add(str(action))
        return set(), dropped


class LeftRightFolded(ListingPatch):
    """A tile fitting both ends with the same half is listed once (at the left end)."""

    variant, rule, only = "poldomino", "R-ALL-09", ("perft/poldomino/double-opening-d1",)

    def changes(self, hand: HandState, legal: list[str]) -> tuple[set[str], set[str]]:
        plays = {str(a) for a in chain_plays(legal)}
        dropped = {text for text in plays
                   if text.replace("@R", "@L") != text and text.replace("@R", "@L") in plays}
        return set(), dropped


class AcceptsTileNotInHand(Broken):
    """A placement of a tile the player does not hold is played anyway (the tile is taken
    from wherever it is)."""

    variant, rule, only = "poldomino", "R-ALL-12", ("rejection/poldomino/tile-not-in-hand",)

    def apply(self, action: str) -> list[JsonObject]:
        hand = self._hand
        if hand is not None and hand.result is None and hand.rules.variant_id == self.variant:
            tile = Action.parse(action).tile
            mover = hand.to_move
            if tile is not None and mover is not None and tile not in hand.hands[mover]:
                self._hand = moved_to(hand, tile, mover)
        return super().apply(action)


def moved_to(hand: HandState, tile: Any, player: int) -> HandState:
    """``hand`` with ``tile`` taken from its place and put into ``player``'s hand."""
    hands = [list(hand.hands[0]), list(hand.hands[1])]
    stock, out = list(hand.stock), list(hand.out_of_play)
    for place in (hands[1 - player], stock, out):
        if tile in place:
            place.remove(tile)
            break
    hands[player] = sorted([*hands[player], tile])
    return dataclasses.replace(hand, hands=(tuple(hands[0]), tuple(hands[1])),
                               stock=tuple(stock), out_of_play=tuple(out))


class AcceptsBrokenContact(Broken):
    """A board placement whose touching halves differ is played anyway."""

    variant, rule, only = "pijanowski", "R-PIJ-04", ("rejection/pijanowski/broken-contact",)

    def apply(self, action: str) -> list[JsonObject]:
        hand = self._hand
        if hand is None or hand.result is not None or hand.rules.variant_id != self.variant:
            return super().apply(action)
        parsed = Action.parse(action)
        problem = reference_engine.check_action(hand, parsed)
        if parsed.kind != "board" or problem is None or problem[0] != hand.rules.matching.rule:
            return super().apply(action)
        assert hand.to_move is not None
        match_before = self._match
        events: list[Event] = []
        placed = reference_engine._place(hand, hand.to_move, parsed, events)
        after, events = reference_engine._settle(placed, events)
        self._set_hand(after, match_before)
        return [e.to_json() for e in events]


class TiedBlockGoesToPlayer0(Broken):
    """A blocked hand with equal pips is won by player 0."""

    variant, rule, only = "poldomino", "R-ALL-06", ("differential/poldomino/default",)

    def apply(self, action: str) -> list[JsonObject]:
        match_before = self._match
        events = super().apply(action)
        hand = self._hand
        if hand is None or hand.result is None or hand.rules.variant_id != self.variant \
                or hand.result.winner is not None:
            return events
        result = won_by(hand, hand.result, 0)
        hand = dataclasses.replace(hand, result=result)
        self._set_hand(hand, match_before)
        return end_event(events, hand)


def won_by(hand: HandState, result: HandResult, winner: int) -> HandResult:
    totals = [0, 0]
    terms: list[ScoreTerm] = []
    for term in hand.rules.terms:
        for player, points in scoring._deltas(term, hand, result.reason, winner, result.pips):
            if points:
                totals[player] += points
                terms.append(ScoreTerm(term.term, player, points, term.rule))
    return dataclasses.replace(result, winner=winner, points=(totals[0], totals[1]),
                               terms=tuple(terms))


class PijanowskiVerticalDoubled(Broken):
    """The same-field multiplier is applied to vertical tiles too."""

    variant, rule, only = "pijanowski", "R-PIJ-05", ("differential/pijanowski/default",)

    def apply(self, action: str) -> list[JsonObject]:
        hand = self._hand
        match_before = self._match
        events = super().apply(action)
        after = self._hand
        parsed = Action.parse(action)
        if hand is None or after is None or hand.rules.variant_id != self.variant \
                or parsed.cells is None or parsed.tile is None \
                or parsed.cells[0][0] == parsed.cells[1][0]:
            return events
        mover = hand.to_move
        assert mover is not None
        extra = parsed.tile.pips
        points = list(after.points)
        points[mover] += extra
        after = self._rescore(dataclasses.replace(after, points=(points[0], points[1])))
        self._set_hand(after, match_before)
        patched = [{**e, "points": e["points"] + extra} if e.get("type") == "place" else e
                   for e in events]
        return end_event(patched, after)


class WidowStarterLowerHalf(Broken):
    """The player facing the widow's lower half starts."""

    variant, rule, only = "szczerbak", "R-SZC-02", ("perft/szczerbak/widow-faces-1-d1",)

    def new_hand(self, variant: str, options: Mapping[str, Any],
                 deal: Mapping[str, Any]) -> JsonObject:
        state = super().new_hand(variant, options, _flipped(deal))
        return self._restore_widow(deal) or state

    def next_hand(self, deal: Mapping[str, Any]) -> JsonObject:
        state = super().next_hand(_flipped(deal))
        return self._restore_widow(deal) or state

    def _restore_widow(self, deal: Mapping[str, Any]) -> JsonObject | None:
        widow = deal.get("widow")
        if self._hand is None or not widow:
            return None
        self._hand = dataclasses.replace(self._hand, widow=(widow[0], widow[1]))
        return self._hand.to_json()


def _flipped(deal: Mapping[str, Any]) -> dict[str, Any]:
    widow = deal.get("widow")
    return {**deal, "widow": [widow[1], widow[0]]} if widow else dict(deal)


class StarterAlternationResetsEachSet(Broken):
    """Each set starts again with the match's first starter."""

    variant, rule, only = "poldomino", "R-ALL-04", ("match/poldomino/default",)

    def _starter(self) -> int | None:
        match = self._match
        if match is None or match.finished or match.rules.variant_id != self.variant:
            return None
        first = match.first_starter
        return first if match.hand_in_stage % 2 == 0 else 1 - first

    def next_hand(self, deal: Mapping[str, Any]) -> JsonObject:
        starter = self._starter()
        state = super().next_hand(deal)
        if starter is None or self._hand is None:
            return state
        self._hand = new_hand(self._hand.rules,
                              dataclasses.replace(Deal.from_json(deal), starter=starter))
        return self._hand.to_json()

    def match_state(self) -> JsonObject:
        match = super().match_state()
        starter = self._starter()
        if starter is not None and match.get("next"):
            match["next"] = {**match["next"], "starter": starter}
        return match


def __getattr__(name: str) -> Any:
    """``BROKEN`` (every broken engine of the package) is collected by
    ``tests.conformance.broken.registry``
    on first use: importing it here at load time would be circular."""
    if name == "BROKEN":
        from tests.conformance.broken.registry import BROKEN

        return BROKEN
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
