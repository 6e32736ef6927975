"""The kit's reply reader takes anything an engine can print: every line becomes a reply, a
refusal, or a named ``EngineFailure``, never another exception (and never a recursion or memory
blow-up, which is what a deep or long line tries)."""

from __future__ import annotations

import json

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from dominokit.conformance.kit.driver import read_reply
from dominokit.conformance.wire.errors import EngineFailure, EngineRejected, MalformedReply
from dominokit.conformance.wire.protocol import MAX_REPLY_LINE_BYTES, check_reply, nesting_depth

SEQ = 4

json_scalars = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=20))
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=4),
    max_leaves=20,
)


@st.composite
def deep(draw: st.DrawFn) -> str:
    depth = draw(st.integers(1, 20_000))
    opener, closer = draw(st.sampled_from([("[", "]"), ('{"a":', "}")]))
    inner = opener * depth + "1" + closer * depth
    return f'{{"seq":{SEQ},"result":{{"actions":{inner}}}}}'


@st.composite
def duplicate_keys(draw: st.DrawFn) -> str:
    key = draw(st.sampled_from(["seq", "result", "error", "actions", "code"]))
    return (f'{{"seq":{SEQ},"result":{{"actions":[],"{key}":1,"{key}":2}}}}'
            if key in ("actions", "code") else f'{{"{key}":{SEQ},"seq":{SEQ},"{key}":{{}}}}')


@st.composite
def wrong_types(draw: st.DrawFn) -> str:
    seq = draw(st.one_of(st.just(SEQ), json_values))
    shape = draw(st.sampled_from(["result", "error", "both", "neither"]))
    body: dict[str, object] = {"seq": seq}
    if shape in ("result", "both"):
        body["result"] = draw(st.one_of(json_values, st.fixed_dictionaries(
            {"actions": st.lists(st.one_of(st.text(max_size=6), json_values), max_size=4)})))
    if shape in ("error", "both"):
        body["error"] = draw(st.one_of(json_values, st.fixed_dictionaries(
            {"code": st.one_of(st.sampled_from(["internal", "bad_request", "x"]), json_values),
             "message": json_values})))
    return json.dumps(body)


SPECIMENS = [
    f'{{"seq":{SEQ},"result":{{"actions":[NaN]}}}}',
    f'{{"seq":{SEQ},"result":{{"actions":[Infinity]}}}}',
    f'{{"seq":{SEQ},"result":{{"actions":[1e400]}}}}',
    '{"result":{"actions":[-1e999]}}',
    f'{{"seq":{"9" * 5000}}}',
    '{"seq":4,"result":{"actions":["\\ud800"]}}',
    '{"seq":4,"result":{"actions":["1-2"]}}\x00',
    '{"seq":4,"result":{"actions":["1-2"]}} {}',
    "\ufeff{}",
    "{" * 100_000,
    "]" * 100_000,
    '"' + "\\" * 100_001 + '"',
    "",
]
"""Hostile lines the generators below would reach only by luck."""

hostile_text = st.one_of(
    deep(),
    duplicate_keys(),
    wrong_types(),
    st.text(max_size=200),
    json_values.map(json.dumps),
    st.sampled_from(SPECIMENS),
)
hostile_lines = st.one_of(
    hostile_text.map(lambda text: text.encode("utf-8", "surrogatepass") + b"\n"),
    st.binary(max_size=200),
)


def _read(line: bytes) -> object:
    try:
        return check_reply(read_reply(line), "legal", SEQ)
    except (EngineFailure, EngineRejected) as named:
        return named


@given(hostile_lines)
def test_every_hostile_line_is_a_reply_or_a_named_failure(line: bytes) -> None:
    assert isinstance(_read(line), dict | EngineFailure | EngineRejected)


@pytest.mark.parametrize("text", SPECIMENS, ids=range(len(SPECIMENS)))
def test_every_specimen_is_a_reply_or_a_named_failure(text: str) -> None:
    line = text.encode("utf-8", "surrogatepass") + b"\n"
    assert isinstance(_read(line), dict | EngineFailure | EngineRejected)


def test_a_valid_reply_still_reads() -> None:
    assert _read(b'{"seq":4,"result":{"actions":["draw","1-2"]}}\n') == {
        "actions": ["draw", "1-2"]}


@pytest.mark.parametrize(("line", "words"), [
    (b"[" * 5000 + b"]" * 5000, "5000 deep, over the limit of 32"),
    (b'{"seq":4,"seq":4,"result":{"actions":[]}}', "duplicate key 'seq'"),
    (b'{"seq":4,"result":{"actions":[1e400]}}', "out of range"),
    (b"thinking...", "logs go to stderr"),
    (b"\xff\xfe", "not UTF-8"),
])
def test_hostile_lines_are_malformed_replies_naming_the_fault(line: bytes, words: str) -> None:
    with pytest.raises(MalformedReply) as caught:
        read_reply(line)
    assert words in caught.value.detail


def test_an_overlong_line_is_refused_before_it_is_parsed() -> None:
    line = b'{"seq":4,"result":{"actions":["' + b"x" * MAX_REPLY_LINE_BYTES + b'"]}}'
    with pytest.raises(MalformedReply, match=f"over the limit of {MAX_REPLY_LINE_BYTES}"):
        read_reply(line)


def _depth(value: object) -> int:
    if isinstance(value, list):
        return 1 + max(map(_depth, value), default=0)
    if isinstance(value, dict):
        return 1 + max(map(_depth, value.values()), default=0)
    return 0


bracket_text = st.text(alphabet='[]{}"\\ab', max_size=12)
nested_values = st.recursive(
    st.one_of(st.integers(), bracket_text),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(bracket_text, inner, max_size=3),
    max_leaves=40,
)


def _nest(depth: int, core: object) -> object:
    for level in range(depth):
        core = [core] if level % 2 else {"k[": core, '"]': 1}
    return core


@given(nested_values, st.booleans())
@example(_nest(40, "]]"), True)
@example(_nest(300, "{{"), True)
@example(_nest(300, '\\"['), False)
def test_the_depth_count_is_exact_for_any_json(value: object, ascii_only: bool) -> None:
    # Strings full of brackets, quotes and backslashes must not count; the reader's shortcut
    # for text without backslashes must agree with the general path.
    assert nesting_depth(json.dumps(value, ensure_ascii=ascii_only)) == _depth(value)
