"""Engines that answer bad requests wrongly: the error paths the suite must catch.

Each is the reference with one mistake in how it refuses: a deal it should refuse is played, an
unknown variant gets the wrong code, a refusal cites the wrong rule, a refused request
disturbs the hand in progress, or nothing is validated at all. Like every engine under
``tests/conformance/broken/``, each names its variant, the rule it breaks and the cases that kill
it.
Engines that break the protocol alone (no rule of the book decides the answer) name
R-ALL-03, the rule the suite's protocol-only cases list.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dominokit.conformance.wire.errors import EngineRejected
from dominokit.reference import Deal, HandState, Rules, load_rules, load_variant, variant_ids
from dominokit.reference import engine as reference_engine
from dominokit.reference.board_table import BoardTable
from dominokit.reference.chain import ChainTable, start_from_widow
from tests.conformance.broken.engines import Broken

JsonObject = dict[str, Any]


def _unchecked_hand(rules: Rules, deal: Deal, starter: int | None) -> HandState:
    """The start of a hand dealt by ``deal`` without validating the deal (what an engine that
    trusts its input builds)."""
    table: ChainTable | BoardTable
    if rules.is_board:
        table = BoardTable(rules.table.rows, rules.table.cols)
    elif rules.opening.policy == "widow" and deal.widow is not None:
        table, starter = start_from_widow(deal.widow)
    else:
        table = ChainTable()
    starter = 0 if starter is None else starter
    state = HandState(rules=rules, hands=deal.hands, stock=deal.stock,
                      out_of_play=deal.out_of_play, table=table, starter=starter,
                      to_move=starter, widow=deal.widow)
    return reference_engine._settle(state, [])[0]


class AcceptsAnyDeal(Broken):
    """Any deal it can read is dealt as given: wrong sizes, duplicate, missing or foreign
    tiles, a tile in both hands, a starter given or missing."""

    variant, rule = "poldomino", "R-ALL-01"
    only = ("requests/poldomino/bad-deal-*",)

    def new_hand(self, variant: str, options: Mapping[str, Any],
                 deal: Mapping[str, Any]) -> JsonObject:
        try:
            return super().new_hand(variant, options, deal)
        except EngineRejected:
            if variant != self.variant:
                raise
            parsed = _readable(deal)
            if parsed is None:
                raise
            self._match = None
            self._hand = _unchecked_hand(load_rules(variant, dict(options)), parsed,
                                         parsed.starter)
            return self._hand.to_json()

    def next_hand(self, deal: Mapping[str, Any]) -> JsonObject:
        try:
            return super().next_hand(deal)
        except EngineRejected as refusal:
            match, parsed = self._match, _readable(deal)
            plan = match.plan() if match is not None else None
            if refusal.code != "bad_request" or plan is None or parsed is None or (
                    self._hand is not None and not self._hand.over):
                raise
            assert match is not None
            self._hand = _unchecked_hand(match.rules, parsed, plan.starter)
            self._fold_result()
            return self._hand.to_json()


def _readable(deal: Mapping[str, Any]) -> Deal | None:
    try:
        return Deal.from_json(deal)
    except ValueError:
        return None


class UnknownVariantIsBadRequest(Broken):
    """A variant it does not know is refused as a malformed request (``bad_request``), not as
    ``unsupported``."""

    variant, rule = "poldomino", "R-ALL-03"
    only = ("requests/poldomino/unsupported-variant",)

    def new_hand(self, variant: str, options: Mapping[str, Any],
                 deal: Mapping[str, Any]) -> JsonObject:
        if variant not in variant_ids():
            raise EngineRejected("bad_request", f"bad variant {variant!r}")
        return super().new_hand(variant, options, deal)

    def new_match(self, variant: str, options: Mapping[str, Any],
                  first_starter: int) -> JsonObject:
        if variant not in variant_ids():
            raise EngineRejected("bad_request", f"bad variant {variant!r}")
        return super().new_match(variant, options, first_starter)


class CitesHandOverOnEveryRefusal(Broken):
    """Every illegal action is refused citing R-ALL-14 (the hand is over), whatever rule it
    breaks."""

    variant, rule = "poldomino", "R-POL-04"
    only = ("rejection/poldomino/mismatch", "rejection/poldomino/wrong-end")

    def apply(self, action: str) -> list[JsonObject]:
        try:
            return super().apply(action)
        except EngineRejected as refusal:
            if refusal.code != "illegal_action":
                raise
            raise EngineRejected("illegal_action", refusal.message, "R-ALL-14") from None


class RefusedNewHandDropsTheHand(Broken):
    """A refused ``new_hand`` has already abandoned the hand (and match) in progress."""

    variant, rule = "szczerbak", "R-SZC-01"
    only = ("requests/szczerbak/bad-deal-duplicate-tile",)

    def new_hand(self, variant: str, options: Mapping[str, Any],
                 deal: Mapping[str, Any]) -> JsonObject:
        self._hand, self._match = None, None
        return super().new_hand(variant, options, deal)


class ValidatesNothing(AcceptsAnyDeal):
    """Trusts every request: unknown variants play this one, unknown options and values are
    ignored, any deal is dealt, ``next_hand`` starts a hand whenever asked, and an action is
    read in any spelling (``6-1``, ``1-6@l1``, ``DRAW``)."""

    variant, rule = "szczerbak", "R-ALL-09"
    only = ("requests/szczerbak/*",)

    def _options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        known = load_variant(self.variant).options
        return {name: value for name, value in options.items()
                if name in known and value in known[name].values}

    def new_hand(self, variant: str, options: Mapping[str, Any],
                 deal: Mapping[str, Any]) -> JsonObject:
        return super().new_hand(self.variant, self._options(options), deal)

    def new_match(self, variant: str, options: Mapping[str, Any],
                  first_starter: int) -> JsonObject:
        return super().new_match(self.variant, self._options(options), first_starter)

    def next_hand(self, deal: Mapping[str, Any]) -> JsonObject:
        match, parsed = self._match, _readable(deal)
        if match is None or parsed is None:
            return super().next_hand(deal)
        plan = match.plan()
        self._hand = _unchecked_hand(match.rules, parsed, plan.starter if plan else 0)
        if plan is not None:
            self._fold_result()
        return self._hand.to_json()

    def apply(self, action: str) -> list[JsonObject]:
        return super().apply(_respelled(action))


def _respelled(text: str) -> str:
    """``text`` read leniently: trimmed, words in lower case, ends in upper case, halves
    sorted."""
    text = text.strip()
    if text.lower() in ("draw", "pass", "stop"):
        return text.lower()
    tile, at, where = text.partition("@")
    halves = tile.split("-")
    if len(halves) == 2 and all(h.isdigit() for h in halves):
        tile = "-".join(sorted(halves))
    if where[:1] in ("l", "r"):
        where = where[0].upper() + where[1:]
    return f"{tile}{at}{where}"

