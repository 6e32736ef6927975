"""The reference engine as a protocol object: the verbs of protocol 2 over dominokit.reference.

This is the object the server serves (``dominokit engine``) and the oracle the runner compares
other engines with, so it holds no rules of its own: it keeps the current hand (and match),
calls the reference API, and turns the reference's refusals into ``EngineRejected`` with the
protocol's error codes.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import replace
from importlib import metadata
from typing import Any

from dominokit.conformance.wire.errors import EngineRejected
from dominokit.conformance.wire.protocol import PROTOCOL_VERSION, JsonObject
from dominokit.conformance.wire.validation import same_json
from dominokit.reference import (
    Action,
    Deal,
    HandState,
    MatchState,
    apply_action,
    finish_hand,
    hand_result,
    legal_actions,
    load_variant,
    new_hand,
    new_match,
    start_hand,
    variant_ids,
)
from dominokit.reference.deal import validate_deal
from dominokit.reference.errors import (
    DealError,
    IllegalActionError,
    NotationError,
    OptionError,
)

ENGINE_NAME = "dominokit-reference"

NOTHING_TO_UNDO = "nothing to undo"
"""How the reference's refusal of an ``undo`` with nothing to take back begins."""

class ReferenceEngine:
    """One engine session: either a standalone hand, or a match and its current hand.

    ``new_hand`` and ``new_match`` each abandon whatever was in progress. During a match,
    ``apply`` plays the match's current hand, and the action that ends it folds the result
    into the match at once, so ``match_state`` right after shows the new totals.

    Each verb checks its request in the contract's order (spec/protocol.md, "The order of the
    checks"): the deal's form, the variant, the options, the state, the deal's rules, then the
    action; a refusal changes nothing.

    ``undo`` (protocol 2) takes back the current hand's applies one by one. States are
    immutable values, so each accepted ``apply`` keeps the hand and match it replaced: undoing
    is putting them back, match totals included, and costs nothing to record.
    """

    def __init__(self) -> None:
        self._hand: HandState | None = None
        self._match: MatchState | None = None
        self._undo: list[tuple[HandState, MatchState | None]] = []

    def __repr__(self) -> str:
        return "ReferenceEngine()"

    def current_hand(self) -> HandState | None:
        """The hand in progress (None before any): the kit's shadow reads the position at
        which an engine's answer first differs, to name the rule there."""
        return self._hand

    def hello(self) -> JsonObject:
        """Name, version, protocol, and every bundled variant with all its option values."""
        variants = {}
        for vid in variant_ids():
            options = load_variant(vid).options
            variants[vid] = {
                "options": {name: list(spec.values) for name, spec in options.items()}
            }
        return {
            "name": ENGINE_NAME,
            "version": _version(),
            "protocol": PROTOCOL_VERSION,
            "capabilities": ["undo"],
            "variants": variants,
        }

    def new_hand(
        self, variant: str, options: Mapping[str, Any], deal: Mapping[str, Any]
    ) -> JsonObject:
        """Start a standalone hand from ``deal``; returns its state."""
        parsed = _parse_deal(deal)
        _check_variant(variant)
        _check_options(variant, options)
        with _refusals():
            hand = new_hand(variant, parsed, dict(options))
        self._match = None
        self._hand = hand
        self._undo.clear()
        return hand.to_json()

    def legal(self) -> list[str]:
        """Every legal action of the current hand, sorted and canonical."""
        return [str(action) for action in legal_actions(self._current())]

    def apply(self, action: str) -> list[JsonObject]:
        """Play ``action``; returns its events. A match absorbs the result of its last hand."""
        hand = self._current()
        with _refusals():
            parsed = Action.parse(action)
            after, events = apply_action(hand, parsed)
        self._undo.append((hand, self._match))
        self._hand = after
        self._fold_result()
        return [event.to_json() for event in events]

    def state(self) -> JsonObject:
        """The current hand's canonical state."""
        return self._current().to_json()

    def undo(self) -> JsonObject:
        """Take back the last accepted ``apply`` of the current hand, and with it what that
        apply did to the match; returns the state before it. Nothing to take back (no hand,
        or the hand at its first position) is ``bad_request``."""
        if self._hand is None:
            raise EngineRejected("bad_request", f"{NOTHING_TO_UNDO}: no hand in progress")
        if not self._undo:
            raise EngineRejected("bad_request", f"{NOTHING_TO_UNDO}: the current hand is at "
                                 "its first position")
        self._hand, self._match = self._undo.pop()
        return self._hand.to_json()

    def new_match(
        self, variant: str, options: Mapping[str, Any], first_starter: int
    ) -> JsonObject:
        """Start a match; its ``next`` field is the first hand's plan."""
        _check_variant(variant)
        _check_options(variant, options)
        with _refusals():
            match = new_match(variant, dict(options), first_starter)
        self._hand = None
        self._match = match
        self._undo.clear()
        return match.to_json()

    def next_hand(self, deal: Mapping[str, Any]) -> JsonObject:
        """Start the match's next hand from ``deal``; the match decides the starter, so the
        deal's starter must be null (R-ALL-04), checked after every other rule of the deal."""
        parsed = _parse_deal(deal)
        match = self._match
        if match is None:
            raise EngineRejected("no_match", "no match in progress (send new_match first)")
        plan = match.plan()
        if plan is None:
            raise EngineRejected("bad_request", "the match is over; it has no next hand")
        if self._hand is not None and not self._hand.over:
            raise EngineRejected("bad_request", "the match's current hand has not ended")
        with _refusals():
            validate_deal(match.rules, replace(parsed, starter=plan.starter), plan.hand_sizes,
                          plan.label)
        if parsed.starter is not None:
            raise EngineRejected(
                "bad_request",
                f"the match names the starter of {plan.label}; deal.starter must be null, "
                f"got {parsed.starter}", match.rules.structural.starters)
        with _refusals():
            hand = start_hand(match, parsed)
        self._hand = hand
        self._undo.clear()
        self._fold_result()
        return hand.to_json()

    def match_state(self) -> JsonObject:
        """The match's state, including every finished hand."""
        if self._match is None:
            raise EngineRejected("no_match", "no match in progress (send new_match first)")
        return self._match.to_json()

    def _current(self) -> HandState:
        if self._hand is None:
            raise EngineRejected("no_hand", "no hand in progress (send new_hand or next_hand)")
        return self._hand

    def _fold_result(self) -> None:
        """Add the current hand's result to the match the moment the hand ends (a hand can end
        as it starts, R-ALL-10, so ``next_hand`` calls this too)."""
        if self._match is None or self._hand is None:
            return
        result = hand_result(self._hand)
        if result is not None:
            self._match, _ = finish_hand(self._match, result)


def _version() -> str:
    try:
        return metadata.version("dominokit")
    except metadata.PackageNotFoundError:
        return "0+unknown"


def _check_variant(variant: str) -> None:
    if variant not in variant_ids():
        raise EngineRejected("unsupported", f"unknown variant {variant!r}")


def _check_options(variant: str, options: Mapping[str, Any]) -> None:
    """Refuse with ``unsupported`` an option the variant lacks, or a value that is not exactly
    one of the JSON values ``hello`` lists for it (type-strict: 12 is not "12" nor 12.0, true is
    not 1 nor "true"); the library's lenient reading of strings is for command lines only."""
    known = load_variant(variant).options
    for name, value in options.items():
        spec = known.get(name)
        if spec is None:
            listed = ", ".join(known) or "none"
            raise EngineRejected("unsupported", f"variant {variant!r} has no option "
                                 f"{_json(name)}; its options: {listed}")
        if not any(same_json(value, allowed) for allowed in spec.values):
            allowed_text = ", ".join(_json(v) for v in spec.values)
            raise EngineRejected("unsupported", f"variant {variant!r}: option {name!r} does "
                                 f"not allow {_json(value)}; allowed values: {allowed_text}")


def _json(value: object) -> str:
    """A value as the JSON it came as (so "12" and 12 read differently), cut short."""
    try:
        text = json.dumps(value)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 60 else f"{text[:60]}..."


def _parse_deal(deal: Mapping[str, Any]) -> Deal:
    try:
        return Deal.from_json(deal)
    except DealError as error:
        raise EngineRejected("bad_request", f"malformed deal: {error.reason}", error.rule) from None
    except (ValueError, KeyError, TypeError) as error:
        raise EngineRejected("bad_request", f"malformed deal: {error!r}") from None


@contextmanager
def _refusals() -> Iterator[None]:
    """Translate the reference's refusals into protocol error codes; anything else is a bug
    and propagates (the server reports it as ``internal``)."""
    try:
        yield
    except IllegalActionError as error:
        raise EngineRejected("illegal_action", error.reason, error.rule) from None
    except NotationError as error:
        raise EngineRejected("bad_request", str(error)) from None
    except DealError as error:
        raise EngineRejected("bad_request", error.reason, error.rule) from None
    except OptionError as error:
        raise EngineRejected("unsupported", str(error)) from None
