"""The shortcuts of reply checking give the generic validator's verdicts, only sooner.

A reply equal to the reference's own answer is valid because the reference's answers are (shown
here on every kind of answer of every variant); any other reply is checked in full, so a
schema-invalid one is still a protocol violation naming the field. A message found valid once
is valid again with any other seq; an invalid one is worded afresh every time. Whole cases end
the same with and without the shortcuts, for the reference, for an engine whose answers are
wrong but well formed, and for one whose answers are subtly malformed.
"""

from __future__ import annotations

import copy
import io
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dominokit.conformance.cases import collect_cases, oracle
from dominokit.conformance.cases.model import Case
from dominokit.conformance.kit.driver import checked_result as _result
from dominokit.conformance.kit.inprocess import InProcessEngine
from dominokit.conformance.run.runner import run_suite
from dominokit.conformance.serve.refengine import ReferenceEngine
from dominokit.conformance.wire import protocol, validation
from dominokit.conformance.wire.errors import MalformedReply, ProtocolViolation
from dominokit.reference import finish_hand, new_match, random_deal, start_hand
from tests.conformance.broken.engines import PoldominoBonus66Is60

JsonObject = dict[str, Any]


@pytest.fixture
def validations(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The definitions the generic validator is run on, in order (the memo starts empty)."""
    seen: list[str] = []
    generic = validation.problem

    def counting(instance: object, definition: str) -> str | None:
        seen.append(definition)
        return generic(instance, definition)

    monkeypatch.setattr(validation, "problem", counting)
    monkeypatch.setattr(validation, "_VALID", validation._ValidMemo(validation.VALID_MEMO_SIZE))
    yield seen


def _hand_answers(variant: str, options: JsonObject, seed: int) -> Iterator[tuple[str, Any]]:
    """(command, reference answer) for every state and event list of one seeded hand."""
    rules = oracle.rules_of(variant, options)
    sizes = oracle.hand_sizes(rules)
    deal = oracle.deal_json(rules, seed, sizes[seed % len(sizes)])
    policies = (oracle.uniform, oracle.eager, oracle.by_kind)
    played = oracle.play_deal(variant, options, deal, policies[seed % 3], random.Random(seed))
    yield "new_hand", played.states[0].to_json()
    yield "undo", played.states[0].to_json()  # an undo answers with a state, as state does
    for state, events in zip(played.states[1:], played.events, strict=True):
        yield "apply", [e.to_json() for e in events]
        yield "state", state.to_json()


def _match_answers(variant: str, seed: int) -> Iterator[tuple[str, Any]]:
    """(command, reference answer) for the match states and hand starts of a seeded match."""
    rules = oracle.rules_of(variant, {})
    rng = random.Random(seed)
    match = new_match(variant, {}, seed % 2)
    yield "new_match", match.to_json()
    while (plan := match.plan()) is not None:
        deal = random_deal(rules, rng, hand_sizes=plan.hand_sizes, starter=plan.starter)
        state = start_hand(match, deal)
        yield "next_hand", state.to_json()
        played = oracle.play(rules, state, oracle.uniform, rng, variant, {}, deal.to_json())
        match, _ = finish_hand(match, played.result)
        yield "match_state", match.to_json()


def _reference_answers() -> Iterator[tuple[str, str, Any]]:
    for variant in ("poldomino", "pijanowski", "szczerbak", "progressive"):
        for options in oracle.option_sets(variant):
            for seed in range(3):
                for cmd, answer in _hand_answers(variant, options, seed):
                    yield variant, cmd, answer
        for cmd, answer in _match_answers(variant, 1):
            yield variant, cmd, answer


def test_every_reference_answer_fits_its_reply_form() -> None:
    # The premise of the equality shortcut, checked by the generic validator alone.
    kinds: set[tuple[str, str]] = set()
    with validation.full_validation():
        for variant, cmd, answer in _reference_answers():
            key = protocol.COMMANDS[cmd].result_key
            assert key is not None
            reply = {"seq": 1, "result": {key: answer}}
            assert validation.problem(reply, f"{cmd}_reply") is None, (variant, cmd, answer)
            kinds.add((variant, cmd))
    commands = {"new_hand", "apply", "state", "undo", "new_match", "next_hand", "match_state"}
    assert {cmd for _, cmd in kinds} == commands
    assert len(kinds) == 4 * len(commands)


def _state_reply(seq: int = 7) -> tuple[JsonObject, JsonObject]:
    state = next(a for c, a in _hand_answers("pijanowski", {}, 0) if c == "state")
    return {"seq": seq, "result": {"state": copy.deepcopy(state)}}, state


def test_a_reply_equal_to_the_reference_is_not_validated(validations: list[str]) -> None:
    reply, state = _state_reply()
    assert protocol.check_reply(reply, "state", 7, expect=state) == {"state": state}
    assert validations == []


def test_a_reply_that_differs_from_the_reference_is_validated(validations: list[str]) -> None:
    reply, state = _state_reply()
    reply["result"]["state"]["passes"] = 3  # still schema-valid, but not the reference's
    assert protocol.check_reply(reply, "state", 7, expect=state)["state"]["passes"] == 3
    assert validations == ["state_reply"]


@pytest.mark.parametrize(
    ("path", "value", "field"),
    [
        (("turn", "extra"), 0, "$.result.state.turn.extra"),  # 0 == False in Python
        (("passes",), 0.0, "$.result.state.passes"),  # 0.0 == 0 in Python; no JSON integer
        (("points",), [0, 0, 0], "$.result.state.points"),
        (("hands", 0, 0), "6-5", "$.result.state.hands[0][0]"),
        (("table", "placements", 0, "player"), True, "$.result.state.table"),
    ],
)
def test_subtly_malformed_state_is_a_violation_naming_the_field(
    path: tuple[str | int, ...], value: object, field: str | None, validations: list[str]
) -> None:
    reply, state = _state_reply()
    target: Any = reply["result"]["state"]
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    assert not protocol.answers_as_expected(reply, "state", state)
    if field is None:
        protocol.check_reply(reply, "state", 7, expect=state)
    else:
        with pytest.raises(ProtocolViolation) as caught:
            protocol.check_reply(reply, "state", 7, expect=state)
        assert field in caught.value.detail, caught.value.detail
    assert validations == ["state_reply"]


@pytest.mark.parametrize(
    "reply",
    [
        {"seq": True, "result": {"state": "S"}},
        {"seq": -1, "result": {"state": "S"}},
        {"seq": 1.0, "result": {"state": "S"}},
        {"seq": 1, "result": {"state": "S", "log": "x"}},
        {"seq": 1, "result": {"state": "S"}, "log": "x"},
        {"seq": 1, "error": {"code": "internal", "message": "S"}},
        {"seq": 1, "result": ["S"]},
        ["S"],
    ],
)
def test_equality_needs_a_plain_envelope(reply: object) -> None:
    assert not protocol.answers_as_expected(reply, "state", "S")


def test_equality_is_json_equality() -> None:
    assert protocol.answers_as_expected({"seq": 1, "result": {"events": [{"a": 1, "b": [2]}]}},
                                        "apply", [{"b": [2], "a": 1}])
    for other in ([{"a": True, "b": [2]}], [{"a": 1.0, "b": [2]}], [{"a": 1, "b": (2, 3)}]):
        assert not protocol.answers_as_expected(
            {"seq": 1, "result": {"events": [{"a": 1, "b": [2]}]}}, "apply", other)
    assert not protocol.answers_as_expected({"seq": 1, "result": {}}, "quit", {})


def test_a_valid_message_is_validated_once_whatever_its_seq(validations: list[str]) -> None:
    reply, _ = _state_reply()
    for seq in (7, 8, 123456):
        reply["seq"] = seq
        assert protocol.check_reply(reply, "state", seq) == reply["result"]
    assert validations == ["state_reply"]
    request = protocol.new_hand_request(1, "poldomino", {}, {
        "hands": [["0-1"], ["2-2"]], "stock": [], "out_of_play": [], "starter": 0})
    for seq in (1, 2):
        assert validation.request_problem({**request, "seq": seq}) is None
    assert validations == ["state_reply", "request"]


def test_an_invalid_message_is_reported_every_time(validations: list[str]) -> None:
    reply, _ = _state_reply()
    reply["result"]["state"]["passes"] = -1
    for seq in (7, 8):
        reply["seq"] = seq
        with pytest.raises(ProtocolViolation, match=r"\$\.result\.state\.passes"):
            protocol.check_reply(reply, "state", seq)
    assert validations == ["state_reply", "state_reply"]


def _seq_forms(node: object) -> Iterator[object]:
    """Every subschema that a ``seq`` property of a protocol form must fit."""
    if isinstance(node, dict):
        properties = node.get("properties")
        if isinstance(properties, dict) and "seq" in properties:
            yield properties["seq"]
        for value in node.values():
            yield from _seq_forms(value)
    elif isinstance(node, list):
        for value in node:
            yield from _seq_forms(value)


def _bare(node: object) -> object:
    if isinstance(node, dict):
        return {k: _bare(v) for k, v in node.items() if k != "description"}
    return [_bare(v) for v in node] if isinstance(node, list) else node


def test_every_form_takes_any_plain_seq_alike() -> None:
    # The premise of the memo: a seq constrains nothing but "a non-negative integer" (or
    # null in an error reply), so a message valid with one plain seq is valid with any.
    schema = validation.protocol_schema()
    assert _bare(schema["$defs"]["seq"]) == {"type": "integer", "minimum": 0}
    allowed = [{"$ref": "#/$defs/seq"},
               {"anyOf": [{"$ref": "#/$defs/seq"}, {"type": "null"}]}]
    forms = [_bare(form) for form in _seq_forms(schema)]
    assert len(forms) >= 2 * len(protocol.COMMANDS)
    assert all(form in allowed for form in forms), forms


def test_only_a_plain_seq_is_remembered(validations: list[str]) -> None:
    # 3.0 is no integer on the wire (one rule for both sides), and never remembered
    for seq in (3.0, 3.0):
        assert "integer" in (validation.request_problem({"seq": seq, "cmd": "legal"}) or "")
    assert validation.request_problem({"seq": True, "cmd": "legal"}) is not None
    assert validation.request_problem({"seq": True, "cmd": "legal"}) is not None
    assert validations == ["request"] * 4


def test_full_validation_turns_every_shortcut_off(validations: list[str]) -> None:
    reply, state = _state_reply()
    legal = {"seq": 7, "result": {"actions": ["draw"]}}
    with validation.full_validation():
        protocol.check_reply(reply, "state", 7, expect=state)
        protocol.check_reply(reply, "state", 7, expect=state)
        protocol.check_reply(legal, "legal", 7)
    assert validations == ["state_reply", "state_reply", "legal_reply"]
    protocol.check_reply(reply, "state", 7, expect=state)
    protocol.check_reply(legal, "legal", 7)
    assert validations == ["state_reply", "state_reply", "legal_reply"]


class _TurnAsNumbers(ReferenceEngine):
    """The reference, but ``turn.extra`` goes out as 0/1: equal in Python, not in JSON."""

    def state(self) -> JsonObject:
        state = super().state()
        state["turn"]["extra"] = int(state["turn"]["extra"])
        return state


def _outcomes(engine: type[ReferenceEngine], cases: list[Case], full: bool, tmp: Path
              ) -> list[tuple[str, str, str, tuple[str, ...], str, str | None]]:
    def run() -> list[tuple[str, str, str, tuple[str, ...], str, str | None]]:
        report = run_suite(InProcessEngine(engine(), engine), cases=cases, report_dir=tmp,
                           out=io.StringIO())
        return [(r.case_id, r.outcome.status, r.outcome.message, r.outcome.rules,
                 r.outcome.diff, r.outcome.failure_kind) for r in report.records]

    if full:
        with validation.full_validation():
            return run()
    return run()


@pytest.mark.parametrize(
    ("engine", "variant", "globs", "status"),
    [
        # the reference's cases in three runs, one test each (together they are long)
        (ReferenceEngine, "poldomino", ("differential/",), "passed"),
        (ReferenceEngine, "poldomino", ("match/poldomino/default",), "passed"),
        (ReferenceEngine, "poldomino", ("perft/poldomino/start-d2", "rejection/"), "passed"),
        (PoldominoBonus66Is60, "poldomino", ("differential/",), "failed"),
        (_TurnAsNumbers, "poldomino", ("differential/", "invariants/", "golden/"), "errored"),
    ],
    ids=["reference-differential", "reference-match", "reference-perft-rejection",
         "wrong-but-well-formed", "malformed"],
)
def test_cases_end_the_same_with_and_without_shortcuts(
    engine: type[ReferenceEngine], variant: str, globs: tuple[str, ...], status: str,
    tmp_path: Path
) -> None:
    cases = [c for c in collect_cases(variant, examples=2)
             if c.id.startswith(globs) and "catch_penalty" not in c.id]
    assert cases
    fast = _outcomes(engine, cases, False, tmp_path / "fast")
    full = _outcomes(engine, cases, True, tmp_path / "full")
    assert fast == full
    assert status in {outcome[1] for outcome in fast}
    if status == "errored":
        assert all(o[1] == "errored" and o[5] == "protocol" and "$.result.state.turn.extra"
                   in o[2] for o in fast), fast


# ----------------------------------------------- the line the expected answer makes


@pytest.fixture
def parsed(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[bytes]]:
    """The lines ``parse_message`` (the guarded reader) is run on, in order."""
    seen: list[bytes] = []
    guarded = protocol.parse_message

    def counting(line: str | bytes, max_bytes: int) -> JsonObject:
        seen.append(line if isinstance(line, bytes) else line.encode())
        return guarded(line, max_bytes)

    monkeypatch.setattr(protocol, "parse_message", counting)
    yield seen


def test_the_very_line_of_the_expected_answer_is_neither_guarded_nor_checked(
        validations: list[str], parsed: list[bytes]) -> None:
    reply, state = _state_reply()
    line = protocol.encode(reply).encode("ascii")
    assert line == protocol.expected_line("state", 7, state)
    result = _result(line, "state", 7, state)
    assert result == {"state": state} and result["state"] is not state  # a copy, not the same
    assert parsed == [] and validations == []


def test_the_same_json_in_other_words_is_read_the_usual_way(
        validations: list[str], parsed: list[bytes]) -> None:
    reply, state = _state_reply()
    reordered = {"result": {"state": dict(reversed(list(state.items())))}, "seq": 7}
    line = protocol.encode(reordered).encode("ascii")
    assert _result(line, "state", 7, state) == {"state": state}
    assert parsed == [line] and validations == []  # guarded; valid by JSON equality


@pytest.mark.parametrize(("edit", "problem"), [
    (lambda text: text.replace(b'"extra":false', b'"extra":0'), r"\$\.result\.state\.turn"),
    (lambda text: text.replace(b'{"seq":7,', b'{"seq":7,"seq":7,'), "duplicate key"),
    (lambda text: text.replace(b'"seq":7', b'"seq":6'), "seq 6 arrived while waiting for "
                                                         "seq 7"),
])
def test_any_other_line_is_judged_as_before(edit: Any, problem: str) -> None:
    reply, state = _state_reply()
    line = edit(protocol.encode(reply).encode("ascii"))
    assert line != protocol.encode(reply).encode("ascii")
    with pytest.raises((ProtocolViolation, MalformedReply), match=problem):
        _result(line, "state", 7, state)


def test_no_expected_line_without_an_answer_or_under_full_validation() -> None:
    _, state = _state_reply()
    assert protocol.expected_line("hello", 1, {"name": "x"}) is None  # no single result field
    assert protocol.expected_line("state", 1, None) is None
    with validation.full_validation():
        assert protocol.expected_line("state", 1, state) is None
