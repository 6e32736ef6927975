"""``conformance/cases/shadow.py``: ``Shadowed`` hands each verb's reference answer to the
engine as ``expect``, never in place of the case's own, and a shadow that refuses or breaks
only costs the shortcut, never the call or its answer.

The engine here is a fake that records what it was asked and with which ``expect``; the
answers it is expected to be handed come from a second, separate reference engine driven
through the same requests.
"""

from __future__ import annotations

from typing import Any

import pytest

from dominokit.conformance.cases import oracle
from dominokit.conformance.cases.shadow import Shadowed
from dominokit.conformance.kit.driver import Hello
from dominokit.conformance.serve.refengine import ReferenceEngine

VARIANT = "classic_block"
JsonObject = dict[str, Any]
ANSWER: JsonObject = {"from": "the engine"}
"""What the fake answers every verb: not the reference's answer, so a test can tell them apart."""


class Recording:
    """An engine that answers ``ANSWER`` (``[ANSWER]`` for apply) and records every call as
    (verb, arguments, expect)."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, tuple[Any, ...], Any]] = []

    def _call(self, verb: str, args: tuple[Any, ...], expect: Any) -> Any:
        self.calls.append((verb, args, expect))
        return [ANSWER] if verb == "apply" else ANSWER

    def hello(self) -> Hello:
        self.calls.append(("hello", (), None))
        return Hello("fake", "0", 2, {})

    def new_hand(self, variant: str, options: dict[str, Any], deal: dict[str, Any], *,
                 expect: JsonObject | None = None) -> JsonObject:
        answer: JsonObject = self._call("new_hand", (variant, options, deal), expect)
        return answer

    def legal(self) -> list[str]:
        self.calls.append(("legal", (), None))
        return ["engine-action"]

    def apply(self, action: str, *, expect: list[JsonObject] | None = None
              ) -> list[JsonObject]:
        answer: list[JsonObject] = self._call("apply", (action,), expect)
        return answer

    def state(self, *, expect: JsonObject | None = None) -> JsonObject:
        answer: JsonObject = self._call("state", (), expect)
        return answer

    def new_match(self, variant: str, options: dict[str, Any], first_starter: int, *,
                  expect: JsonObject | None = None) -> JsonObject:
        answer: JsonObject = self._call("new_match", (variant, options, first_starter), expect)
        return answer

    def next_hand(self, deal: dict[str, Any], *, expect: JsonObject | None = None
                  ) -> JsonObject:
        answer: JsonObject = self._call("next_hand", (deal,), expect)
        return answer

    def match_state(self, *, expect: JsonObject | None = None) -> JsonObject:
        answer: JsonObject = self._call("match_state", (), expect)
        return answer

    def undo(self, *, expect: JsonObject | None = None) -> JsonObject:
        answer: JsonObject = self._call("undo", (), expect)
        return answer

    def restart(self) -> None:
        self.calls.append(("restart", (), None))

    def close(self) -> None:
        self.calls.append(("close", (), None))


def _deal(seed: int = 3) -> JsonObject:
    return oracle.deal_json(oracle.rules_of(VARIANT), seed)


def _expects(engine: Recording) -> list[tuple[str, Any]]:
    return [(verb, expect) for verb, _, expect in engine.calls]


def test_each_hand_verb_gets_the_references_answer_and_returns_the_engines() -> None:
    fake, twin = Recording(), ReferenceEngine()
    shadowed = Shadowed(fake)
    deal = _deal()
    assert shadowed.new_hand(VARIANT, {}, deal) == ANSWER
    started = twin.new_hand(VARIANT, {}, deal)
    assert started["hands"] == deal["hands"] and started["to_move"] == deal["starter"]
    action = twin.legal()[0]
    assert shadowed.legal() == ["engine-action"]
    assert shadowed.apply(action) == [ANSWER]
    events = twin.apply(action)
    assert events[0]["type"] == "place" and events[0]["action"] == action
    assert shadowed.state() == ANSWER
    after = twin.state()
    assert shadowed.undo() == ANSWER
    assert _expects(fake) == [("new_hand", started), ("legal", None), ("apply", events),
                              ("state", after), ("undo", twin.undo())]
    assert fake.calls[0][1] == (VARIANT, {}, deal) and fake.calls[2][1] == (action,)


def test_the_match_verbs_get_the_references_answers() -> None:
    fake, twin = Recording(), ReferenceEngine()
    shadowed = Shadowed(fake)
    shadowed.new_match(VARIANT, {}, 1)
    match = twin.new_match(VARIANT, {}, 1)
    deal = dict(_deal(), starter=None)  # the match names the starter (R-ALL-04)
    shadowed.next_hand(deal)
    hand = twin.next_hand(deal)
    assert hand["to_move"] == 1
    shadowed.match_state()
    assert _expects(fake) == [("new_match", match), ("next_hand", hand),
                              ("match_state", twin.match_state())]


def test_the_cases_own_expect_wins_over_the_shadows() -> None:
    fake = Recording()
    shadowed = Shadowed(fake)
    mine: JsonObject = {"the case's": "answer"}
    shadowed.new_hand(VARIANT, {}, _deal(), expect=mine)
    action = ReferenceEngine()
    action.new_hand(VARIANT, {}, _deal())
    shadowed.apply(action.legal()[0], expect=[mine])
    shadowed.state(expect=mine)
    assert _expects(fake) == [("new_hand", mine), ("apply", [mine]), ("state", mine)]


def test_a_refusal_of_the_shadow_leaves_the_engine_without_expect() -> None:
    fake = Recording()
    shadowed = Shadowed(fake)
    shadowed.state()  # no hand yet: the reference refuses (no_hand)
    shadowed.new_hand("no_such_game", {}, _deal())  # the reference refuses the variant
    shadowed.match_state()  # no match: refused
    assert _expects(fake) == [("state", None), ("new_hand", None), ("match_state", None)]


def test_a_refused_action_costs_only_that_shortcut() -> None:
    fake, twin = Recording(), ReferenceEngine()
    shadowed = Shadowed(fake)
    deal = _deal()
    shadowed.new_hand(VARIANT, {}, deal)
    twin.new_hand(VARIANT, {}, deal)
    assert shadowed.apply("9-9") == [ANSWER]  # not a tile: the reference refuses it
    shadowed.state()  # the shadow's hand is unchanged, so it still answers
    assert _expects(fake)[1:] == [("apply", None), ("state", twin.state())]


def test_a_shadow_that_raises_is_replaced_and_loses_only_its_shortcut(
        monkeypatch: pytest.MonkeyPatch) -> None:
    fake = Recording()
    shadowed = Shadowed(fake)
    deal = _deal()
    shadowed.new_hand(VARIANT, {}, deal)
    broken = shadowed._shadow

    def explode(*_: Any) -> Any:
        raise RuntimeError("the shadow broke")

    monkeypatch.setattr(broken, "state", explode)
    assert shadowed.state() == ANSWER  # the engine is still asked, its answer returned
    assert fake.calls[-1] == ("state", (), None)
    assert shadowed._shadow is not broken and isinstance(shadowed._shadow, ReferenceEngine)
    shadowed.state()  # the fresh shadow has no hand: refused, still no expect
    assert fake.calls[-1][2] is None
    shadowed.new_hand(VARIANT, {}, deal)  # and gives the shortcut again from the next hand
    twin = ReferenceEngine()
    assert fake.calls[-1][2] == twin.new_hand(VARIANT, {}, deal)


def test_restart_restarts_the_engine_and_resets_the_shadow() -> None:
    fake = Recording()
    shadowed = Shadowed(fake)
    shadowed.new_hand(VARIANT, {}, _deal())
    shadowed.state()
    assert fake.calls[-1][2] is not None
    shadowed.restart()
    assert fake.calls[-1] == ("restart", (), None)
    shadowed.state()  # the shadow's hand went with the restart
    assert fake.calls[-1] == ("state", (), None)


def test_hello_and_close_go_to_the_engine() -> None:
    fake = Recording()
    shadowed = Shadowed(fake)
    assert shadowed.hello().name == "fake"
    shadowed.close()
    assert [verb for verb, _, _ in fake.calls] == ["hello", "close"]
    assert repr(shadowed).startswith("Shadowed(")
