"""Hostile requests against the engine server and the reference engine: each is refused with one
bounded error reply, quickly, and leaves the engine's hand and match exactly as they were."""

from __future__ import annotations

import io
import json
import random
import time
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dominokit.conformance.serve.refengine import ReferenceEngine
from dominokit.conformance.serve.server import MAX_ERROR_MESSAGE_CHARS, run_engine_server
from dominokit.conformance.wire import protocol, validation
from dominokit.conformance.wire.errors import EngineRejected
from dominokit.reference import Deal, load_rules, random_deal

POLDOMINO_DEAL: dict[str, Any] = {
    "hands": [["1-5", "2-2", "3-6", "4-4", "5-6"], ["0-3", "1-1", "1-6", "2-5", "5-5"]],
    "stock": [
        "0-0", "2-6", "0-4", "3-3", "1-2", "4-6", "0-6", "3-5", "1-4", "2-4", "0-1", "6-6", "3-4",
        "0-5", "1-3", "2-3", "0-2", "4-5",
    ],
    "out_of_play": [],
    "starter": 0,
}
HELLO = '{"seq": 99, "cmd": "hello", "protocol": 1}'


def _serve(lines: list[str | bytes]) -> list[dict[str, Any]]:
    data = b"".join((x if isinstance(x, bytes) else x.encode()) + b"\n" for x in lines)
    out = io.StringIO()
    assert run_engine_server(None, _BinaryIn(data), out) == 0
    return [json.loads(line) for line in out.getvalue().splitlines()]


class _BinaryIn:
    """A stdin whose ``buffer`` refuses unbounded reads, so the server must read lines bounded;
    it records the longest chunk it handed out."""

    def __init__(self, data: bytes) -> None:
        self.buffer = _BoundedReader(data)


class _BoundedReader(io.BytesIO):
    longest = 0

    def readline(self, size: int | None = -1, /) -> bytes:
        assert size is not None and size > 0, "the server read a line without a bound"
        chunk = super().readline(size)
        _BoundedReader.longest = max(_BoundedReader.longest, len(chunk))
        return chunk

    def __iter__(self) -> Any:
        raise AssertionError("the server iterated lines without a bound")


def _request(seq: int, cmd: str, **fields: Any) -> str:
    return json.dumps(protocol.request(seq, cmd, **fields))


def _refusal(reply: dict[str, Any]) -> tuple[Any, str, str | None]:
    assert "error" in reply, reply
    assert len(reply["error"]["message"]) <= MAX_ERROR_MESSAGE_CHARS
    return reply["seq"], reply["error"]["code"], reply["error"].get("rule")


# --- framing ----------------------------------------------------------------------------------

def test_deep_nesting_is_refused_with_seq_null_and_the_server_goes_on() -> None:
    replies = _serve(["[" * 1000 + "]" * 1000, '{"seq": 1, "a": ' + "[" * 40 + "]" * 40 + "}",
                      HELLO])
    assert _refusal(replies[0]) == (None, "bad_request", None)
    assert _refusal(replies[1]) == (None, "bad_request", None)
    assert "deep" in replies[0]["error"]["message"]
    assert replies[2]["result"]["name"] == "dominokit-reference"


def test_duplicate_keys_are_refused_not_resolved_last_wins() -> None:
    replies = _serve(['{"seq":14,"cmd":"legal","cmd":"quit"}', HELLO])
    assert _refusal(replies[0]) == (None, "bad_request", None)
    assert "duplicate key 'cmd'" in replies[0]["error"]["message"]
    assert replies[1]["seq"] == 99  # not quit: the server still serves


def test_an_over_long_line_is_refused_without_being_held_whole() -> None:
    limit = protocol.MAX_REQUEST_LINE_BYTES
    huge = '{"seq": 1, "cmd": "apply", "action": "' + "x" * (3 * limit) + '"}'
    _BoundedReader.longest = 0
    replies = _serve([huge, HELLO])
    assert _refusal(replies[0]) == (None, "bad_request", None)
    assert str(limit) in replies[0]["error"]["message"]
    assert replies[1]["seq"] == 99
    assert _BoundedReader.longest <= limit + 1


def test_a_line_just_under_the_limit_is_read() -> None:
    line = _request(5, "apply", action="x" * (protocol.MAX_REQUEST_LINE_BYTES - 60))
    assert len(line) + 1 <= protocol.MAX_REQUEST_LINE_BYTES
    replies = _serve([line])
    assert _refusal(replies[0]) == (5, "no_hand", None)


@pytest.mark.parametrize("line", ['{"seq": NaN, "cmd": "legal"}', '{"seq": 1, "x": Infinity}',
                                  b'{"seq": 1, "cmd": "\xff"}', "[]", '"seq"'])
def test_lines_that_are_not_one_json_object_get_seq_null(line: str | bytes) -> None:
    replies = _serve([line, HELLO])
    assert _refusal(replies[0]) == (None, "bad_request", None)
    assert replies[1]["seq"] == 99


# --- bounded work and bounded errors ------------------------------------------------------------

def test_a_huge_deal_is_refused_quickly_with_a_short_message() -> None:
    deal = {**POLDOMINO_DEAL, "stock": POLDOMINO_DEAL["stock"] + ["0-0"] * 140_000}
    line = _request(2, "new_hand", variant="poldomino", options={}, deal=deal)
    assert len(line) < protocol.MAX_REQUEST_LINE_BYTES
    started = time.perf_counter()
    replies = _serve([line, _request(3, "state")])
    assert time.perf_counter() - started < 1.5
    assert _refusal(replies[0]) == (2, "bad_request", None)
    assert "$.deal.stock" in replies[0]["error"]["message"]
    assert _refusal(replies[1]) == (3, "no_hand", None)


def test_in_process_a_million_tile_stock_is_refused_before_counting() -> None:
    deal = {**POLDOMINO_DEAL, "stock": ["0-0"] * 1_000_000}
    started = time.perf_counter()
    with pytest.raises(EngineRejected) as caught:
        ReferenceEngine().new_hand("poldomino", {}, deal)
    assert time.perf_counter() - started < 0.5
    assert caught.value.code == "bad_request"
    assert len(caught.value.message) < 300


def test_a_tile_set_error_lists_a_few_tiles_then_counts_the_rest() -> None:
    deal = {**POLDOMINO_DEAL, "stock": POLDOMINO_DEAL["stock"] * 2}
    with pytest.raises(EngineRejected) as caught:
        ReferenceEngine().new_hand("poldomino", {}, deal)
    assert (caught.value.code, caught.value.rule) == ("bad_request", "R-ALL-01")
    assert "... and 12 more" in caught.value.message, caught.value.message


def test_server_error_messages_are_bounded() -> None:
    deal = {**POLDOMINO_DEAL, "hands": [["9-9" * 20_000], POLDOMINO_DEAL["hands"][1]]}
    replies = _serve([_request(2, "new_hand", variant="poldomino", options={}, deal=deal)])
    assert _refusal(replies[0]) == (2, "bad_request", None)


# --- option values are type-strict ------------------------------------------------------------

@pytest.mark.parametrize(
    ("options", "accepted"),
    [
        ({"hand_size": 12}, True),
        ({"hand_size": 14}, True),
        ({"double_set": True}, True),
        ({"lake_rule": "newly_enclosed"}, True),
        ({"hand_size": "12"}, False),
        ({"hand_size": "@12.0"}, False),  # the JSON number 12.0, not the integer 12
        ({"hand_size": 13}, False),
        ({"double_set": 1}, False),
        ({"double_set": 0}, False),
        ({"double_set": "true"}, False),
        ({"lake_rule": "NEW_REGION"}, False),
        ({"lakes": "new_region"}, False),
    ],
)
def test_option_values_must_be_exactly_a_listed_json_value(options: dict[str, Any],
                                                          accepted: bool) -> None:
    line = json.dumps({"seq": 2, "cmd": "new_match", "variant": "pijanowski",
                       "options": options, "first_starter": 0})
    line = line.replace('"@12.0"', "12.0")
    reply = _serve([line])[0]
    if accepted:
        assert "result" in reply, reply
    else:
        assert _refusal(reply) == (2, "unsupported", None)


def test_options_are_checked_before_the_deal() -> None:
    deal = {**POLDOMINO_DEAL, "stock": []}
    with pytest.raises(EngineRejected) as caught:
        ReferenceEngine().new_hand("poldomino", {"catch_penalty_to": "nobody"}, deal)
    assert caught.value.code == "unsupported"


# --- next_hand: the match decides the starter ---------------------------------------------------

def _match_engine() -> tuple[ReferenceEngine, dict[str, Any]]:
    engine = ReferenceEngine()
    engine.new_match("poldomino", {}, 1)
    rules = load_rules("poldomino")
    deal = random_deal(rules, random.Random(7), hand_sizes=(5, 5), starter=1).to_json()
    return engine, deal


@pytest.mark.parametrize("starter", [0, 1])
def test_next_hand_refuses_any_starter_in_the_deal(starter: int) -> None:
    engine, deal = _match_engine()
    before = engine.match_state()
    with pytest.raises(EngineRejected) as caught:
        engine.next_hand({**deal, "starter": starter})
    assert (caught.value.code, caught.value.rule) == ("bad_request", "R-ALL-04")
    assert engine.match_state() == before
    with pytest.raises(EngineRejected, match="no_hand"):
        engine.state()
    assert engine.next_hand({**deal, "starter": None})["starter"] == 1


def test_next_hand_checks_the_plan_sizes_after_the_tile_set() -> None:
    engine, deal = _match_engine()
    short = Deal.from_json({**deal, "starter": None})
    moved = {**deal, "starter": None,
             "hands": [[str(t) for t in short.hands[0]][:4], [str(t) for t in short.hands[1]]],
             "stock": [str(short.hands[0][4]), *deal["stock"]]}
    with pytest.raises(EngineRejected) as caught:
        engine.next_hand(moved)
    assert (caught.value.code, caught.value.rule) == ("bad_request", "R-POL-01")
    with pytest.raises(EngineRejected) as caught:
        engine.next_hand({**moved, "stock": moved["stock"][1:]})
    assert (caught.value.code, caught.value.rule) == ("bad_request", "R-ALL-01")


# --- fuzz: no crash, one reply per line, state unchanged after every refusal ---------------------

_JSON_LEAVES = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=20),
)
_FIELDS = st.sampled_from(["seq", "cmd", "action", "variant", "options", "deal", "protocol",
                           "first_starter", "hands", "stock", "starter"])
_VALUES = st.recursive(
    _JSON_LEAVES,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_FIELDS, inner, max_size=4),
    max_leaves=12,
)


def _hostile_line(kind: str, value: Any, text: str, depth: int) -> str:
    if kind == "deep":
        return '{"seq": 3, "cmd": "apply", "action": ' + "[" * depth + "]" * depth + "}"
    if kind == "long":
        return _request(3, "apply", action="1-1" * (protocol.MAX_REQUEST_LINE_BYTES // 3 + 1))
    if kind == "duplicate":
        return '{"seq": 3, "cmd": "apply", "action": "draw", "action": "pass"}'
    if kind == "nan":
        return '{"seq": 3, "cmd": "apply", "action": NaN}'
    if kind == "huge_number":
        return '{"seq": ' + "9" * 5000 + ', "cmd": "state"}'
    if kind == "unicode":
        return _request(3, "apply", action=text)
    if kind == "garbage":
        return text.replace("\n", " ")
    fields = value if isinstance(value, dict) else {"action": value}
    return json.dumps({"seq": 3, "cmd": "apply", **fields} if kind == "apply"
                      else {"seq": 3, "cmd": "new_hand", **fields})


@given(
    kinds=st.lists(st.sampled_from(["deep", "long", "duplicate", "nan", "huge_number",
                                    "unicode", "garbage", "apply", "new_hand"]),
                   min_size=1, max_size=4),
    value=_VALUES,
    text=st.text(max_size=30),
    depth=st.integers(min_value=33, max_value=3000),
)
def test_fuzz_hostile_lines_never_crash_and_keep_the_hand(kinds: list[str], value: Any,
                                                          text: str, depth: int) -> None:
    start = _request(1, "new_hand", variant="poldomino", options={}, deal=POLDOMINO_DEAL)
    state = _request(2, "state")
    lines: list[str | bytes] = [start, state]
    for kind in kinds:
        line = _hostile_line(kind, value, text, depth)
        if line.encode().strip():
            lines += [line, state]
    replies = _serve(lines)
    assert len(replies) == len(lines)
    expected = replies[1]["result"]["state"]
    for i in range(2, len(lines), 2):
        reply, after = replies[i], replies[i + 1]
        assert validation.problem(reply, "reply") is None, reply
        if "error" in reply:
            assert reply["error"]["code"] != "internal", (lines[i][:200], reply)
            assert after["result"]["state"] == expected, lines[i][:200]
        expected = after["result"]["state"]


# --- the order of the checks (spec/protocol.md) --------------------------------------------------

@pytest.mark.parametrize(
    ("lines", "expected"),
    [
        # 6 before 7: no seq, unknown command
        (['{"seq": -1, "cmd": "fly"}'], (None, "bad_request", None)),
        # 7 before 9: unknown command with unknown fields
        (['{"seq": 1, "cmd": "fly", "wings": 2}'], (1, "unsupported", None)),
        # 8 before 9: an over-long stock in a request that also lacks a field
        ([json.dumps({"seq": 1, "cmd": "new_hand", "variant": "poldomino",
                      "deal": {**POLDOMINO_DEAL, "stock": ["0-0"] * 57}})],
         (1, "bad_request", None)),
        # 9 before 11: a mistyped field and an unknown variant
        ([json.dumps({"seq": 1, "cmd": "new_match", "variant": "dominoes", "options": {},
                      "first_starter": 2})], (1, "bad_request", None)),
        # 11 before 12: an unknown variant and an unknown option
        ([_request(1, "new_match", variant="dominoes", options={"x": 1}, first_starter=0)],
         (1, "unsupported", None)),
        # 12 before 14: a bad option value and a deal that breaks the tile set
        ([_request(1, "new_hand", variant="poldomino", options={"catch_penalty_to": 1},
                   deal={**POLDOMINO_DEAL, "stock": []})], (1, "unsupported", None)),
        # 13 before 14: next_hand with no match, and a deal that breaks the tile set
        ([_request(1, "next_hand", deal={**POLDOMINO_DEAL, "stock": [], "starter": 1})],
         (1, "no_match", None)),
        # 13 before 15: apply with no hand, of text that is not notation
        ([_request(1, "apply", action="6-1")], (1, "no_hand", None)),
        # 14: the tile set before the starter
        ([_request(1, "new_hand", variant="poldomino", options={},
                   deal={**POLDOMINO_DEAL, "stock": [], "starter": None})],
         (1, "bad_request", "R-ALL-01")),
    ],
)
def test_a_request_wrong_twice_gets_the_first_error_of_the_order(
        lines: list[str], expected: tuple[Any, str, str | None]) -> None:
    assert _refusal(_serve(lines)[-1]) == expected


def test_sizes_are_checked_before_the_rest_of_the_schema() -> None:
    line = json.dumps({"seq": 1, "cmd": "new_hand", "variant": "poldomino",
                       "deal": {**POLDOMINO_DEAL, "stock": ["0-0"] * 57}})
    message = _serve([line])[0]["error"]["message"]
    assert message == "$.deal.stock: has 57 items, more than the limit of 56"


def test_after_the_end_notation_comes_before_the_hand_over_rule() -> None:
    engine = ReferenceEngine()
    engine.new_hand("poldomino", {}, POLDOMINO_DEAL)
    while engine.state()["result"] is None:
        engine.apply(engine.legal()[0])
    with pytest.raises(EngineRejected) as caught:
        engine.apply("6-1")
    assert (caught.value.code, caught.value.rule) == ("bad_request", None)
    with pytest.raises(EngineRejected) as caught:
        engine.apply("1-6")
    assert (caught.value.code, caught.value.rule) == ("illegal_action", "R-ALL-14")


def test_a_widow_pip_outside_the_notation_is_a_form_error_in_process_as_on_the_wire() -> None:
    deal = random_deal(load_rules("szczerbak"), random.Random(1)).to_json()
    bad = {**deal, "widow": [7, deal["widow"][1]]}
    with pytest.raises(EngineRejected) as caught:
        ReferenceEngine().new_hand("szczerbak", {}, bad)
    assert (caught.value.code, caught.value.rule) == ("bad_request", None)
    reply = _serve([_request(1, "new_hand", variant="szczerbak", options={}, deal=bad)])[0]
    assert _refusal(reply) == (1, "bad_request", None)
