"""The protocol schema, its prose (every example in spec/protocol.md is checked, so the docs
cannot drift), reply checking, and a server that answers bad input instead of crashing."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from dominokit.conformance.serve.server import run_engine_server
from dominokit.conformance.wire import protocol, validation
from dominokit.conformance.wire.errors import (
    EngineCrashed,
    EngineRejected,
    MalformedReply,
    ProtocolViolation,
)

REPO = Path(__file__).resolve().parents[2]
PROSE = REPO / "spec" / "protocol.md"


# --- the schema ----------------------------------------------------------------------------

def test_schema_is_valid_draft_2020_12_with_a_form_per_command() -> None:
    schema = validation.protocol_schema()
    Draft202012Validator.check_schema(schema)
    assert schema["$id"] == validation.SCHEMA_ID
    for cmd in protocol.COMMANDS:
        for form in ("request", "reply", "result"):
            assert f"{cmd}_{form}" in schema["$defs"], f"{cmd}_{form}"
    assert schema["$defs"]["command"]["enum"] == list(protocol.COMMANDS)
    assert schema["$defs"]["error"]["properties"]["code"]["enum"] == list(protocol.ERROR_CODES)
    assert schema["$defs"]["hello_result"]["properties"]["protocol"]["enum"] == list(
        protocol.PROTOCOL_VERSIONS)
    assert max(protocol.PROTOCOL_VERSIONS) == protocol.PROTOCOL_VERSION
    assert schema["$defs"]["capability"]["enum"] == list(protocol.CAPABILITIES)


def test_builders_make_schema_valid_requests() -> None:
    deal = {"hands": [["0-1"], ["2-2"]], "stock": [], "out_of_play": [], "starter": 0}
    built = [
        protocol.hello_request(1),
        protocol.new_hand_request(2, "poldomino", {"catch_penalty_to": "loser"}, deal),
        protocol.legal_request(3),
        protocol.apply_request(4, "0-1"),
        protocol.state_request(5),
        protocol.new_match_request(6, "poldomino", {}, 1),
        protocol.next_hand_request(7, {**deal, "starter": None}),
        protocol.match_state_request(8),
        protocol.undo_request(9),
        protocol.quit_request(10),
    ]
    assert [m["cmd"] for m in built] == list(protocol.COMMANDS)
    for message in built:
        assert validation.request_problem(message) is None, message
    assert built[0] == {"seq": 1, "cmd": "hello", "protocol": 2}
    assert protocol.hello_request(1, 1) == {"seq": 1, "cmd": "hello", "protocol": 1}
    assert protocol.encode(built[3]) == '{"seq":4,"cmd":"apply","action":"0-1"}\n'


@pytest.mark.parametrize(
    ("message", "where"),
    [
        ({"seq": 1, "cmd": "apply"}, "$: 'action' is a required property"),
        ({"seq": 1, "cmd": "apply", "action": 5}, "$.action: 5 is not of type 'string'"),
        ({"seq": -1, "cmd": "legal"}, "$.seq"),
        ({"seq": 1, "cmd": "legal", "verbose": True}, "'verbose' was unexpected"),
        ({"seq": 1, "cmd": "new_match", "variant": "poldomino", "options": {},
          "first_starter": 2}, "$.first_starter"),
        ({"seq": 1, "cmd": "fly"}, "$.cmd"),
    ],
)
def test_request_problems_name_the_field(message: dict[str, Any], where: str) -> None:
    problem = validation.request_problem(message)
    assert problem is not None and where in problem, problem


# --- reply checking --------------------------------------------------------------------------

def test_check_reply_returns_the_result() -> None:
    reply = {"seq": 4, "result": {"actions": ["1-1@L1", "draw"]}}
    assert protocol.check_reply(reply, "legal", 4) == {"actions": ["1-1@L1", "draw"]}


@pytest.mark.parametrize(
    ("reply", "message"),
    [
        ({"result": {"actions": []}}, "reply has no seq"),
        ({"seq": 3, "result": {"actions": []}}, "seq 3 arrived while waiting for seq 4"),
        ({"seq": 5, "result": {"actions": []}}, "reply seq 5 does not match request seq 4"),
        ({"seq": "4", "result": {"actions": []}}, "reply seq '4' does not match"),
        ({"seq": True, "result": {"actions": []}}, "reply seq True does not match"),
        ({"seq": None, "error": {"code": "bad_request", "message": "eh?"}},
         "could not read request 4"),
        ({"seq": 4, "result": {"actions": ["1-1@L1", "1-1@L1"]}}, "$.result.actions"),
        ({"seq": 4, "result": {"actions": ["5-1"]}}, "$.result.actions[0]"),  # high half first
        ({"seq": 4, "result": {}}, "$.result: 'actions' is a required property"),
        ({"seq": 4, "result": {"actions": []}, "log": "x"}, "'log' was unexpected"),
        ({"seq": 4, "error": {"code": "oops", "message": "?"}}, "$.error.code"),
        ({"seq": 4, "error": {"code": "illegal_action", "message": "?"}},
         "$.error: 'rule' is a required property"),
    ],
)
def test_check_reply_names_protocol_violations(reply: dict[str, Any], message: str) -> None:
    with pytest.raises(ProtocolViolation) as caught:
        protocol.check_reply(reply, "legal", 4)
    assert message in caught.value.detail, caught.value.detail


def test_error_replies_are_rejections_and_internal_errors_crashes() -> None:
    refused = {"seq": 2, "error": {"code": "illegal_action", "message": "no", "rule": "R-ALL-13"}}
    with pytest.raises(EngineRejected) as caught:
        protocol.check_reply(refused, "apply", 2)
    assert (caught.value.code, caught.value.message, caught.value.rule) == (
        "illegal_action", "no", "R-ALL-13")
    broken = {"seq": 2, "error": {"code": "internal", "message": "KeyError: 'x'"}}
    with pytest.raises(EngineCrashed, match="internal error on 'apply': KeyError"):
        protocol.check_reply(broken, "apply", 2)


LEGAL_SAMPLES: list[object] = [
    {"seq": 4, "result": {"actions": ["0-1", "1-1@L1", "5-6@0.4+0.5", "draw", "pass", "stop"]}},
    {"seq": 0, "result": {"actions": []}},
    {"seq": 4, "result": {"actions": ["draw", "draw"]}},
    {"seq": 4, "result": {"actions": ["5-1"]}},
    {"seq": 4, "result": {"actions": ["1-6@L6"]}},  # 6 is a half of 1-6
    {"seq": 4, "result": {"actions": ["1-6@L2"]}},  # 2 is not a half of 1-6
    {"seq": 4, "result": {"actions": ["draw\n"]}},
    {"seq": 4, "result": {"actions": [7]}},
    {"seq": 4, "result": {"actions": "draw"}},
    {"seq": 4, "result": {"actions": [], "more": 1}},
    {"seq": -1, "result": {"actions": []}},
    {"seq": True, "result": {"actions": []}},
    {"seq": 4, "result": {"actions": []}, "error": {"code": "internal", "message": "?"}},
    {"seq": 4, "error": {"code": "no_hand", "message": "?"}},
    [],
]


@pytest.mark.parametrize("reply", LEGAL_SAMPLES)
def test_fast_legal_check_agrees_with_the_schema(reply: object) -> None:
    fast = validation.plain_legal_reply(reply)
    full = validation.problem(reply, "legal_reply") is None
    error_reply = isinstance(reply, dict) and "error" in reply  # always left to the schema
    assert fast == full or (error_reply and not fast), (fast, full)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (b"thinking...\n", "not JSON"),
        (b"\n", "not JSON"),
        (b"[1, 2]\n", "not an object"),
        (b'{"seq": 1, "result": {"name": "\xff"}}\n', "not UTF-8"),
    ],
)
def test_lines_that_are_not_json_objects_are_malformed(line: bytes, message: str) -> None:
    with pytest.raises(MalformedReply, match=message):
        protocol.decode_reply_line(line)


# --- examples in the prose ---------------------------------------------------------------------

@dataclass(frozen=True)
class Example:
    """One JSON value in a ```json block of spec/protocol.md."""

    block: int
    line: int
    value: Any

    @property
    def is_request(self) -> bool:
        return isinstance(self.value, dict) and "cmd" in self.value


def _examples() -> list[Example]:
    """Every JSON value of every ```json block, in document order (pretty-printed values span
    lines; the wire form is one line each)."""
    text = PROSE.read_text(encoding="utf-8")
    found: list[Example] = []
    decoder = json.JSONDecoder()
    fence = re.compile(r"^```json[ \t]*\n(.*?)^```[ \t]*$", re.DOTALL | re.MULTILINE)
    for block, match in enumerate(fence.finditer(text)):
        body, at = match.group(1), 0
        first_line = text.count("\n", 0, match.start(1)) + 1
        while True:
            while at < len(body) and body[at].isspace():
                at += 1
            if at == len(body):
                break
            value, end = decoder.raw_decode(body, at)
            found.append(Example(block, first_line + body.count("\n", 0, at), value))
            at = end
    return found


def _pairs(examples: list[Example]) -> Iterator[tuple[Example | None, Example]]:
    """(request, reply) per reply: the reply answers the latest request with its seq in the
    same block; None when there is none (a reply shown on its own)."""
    for index, reply in enumerate(examples):
        if reply.is_request:
            continue
        request = next(
            (e for e in reversed(examples[:index])
             if e.block == reply.block and e.is_request and e.value["seq"] == reply.value["seq"]),
            None,
        )
        yield request, reply


EXAMPLES = _examples()


def test_prose_has_examples_for_every_command_and_error_code() -> None:
    assert len(EXAMPLES) > 20
    requested = {e.value["cmd"] for e in EXAMPLES if e.is_request}
    answered = {req.value["cmd"] for req, rep in _pairs(EXAMPLES)
                if req is not None and "result" in rep.value}
    codes = {rep.value["error"]["code"] for _, rep in _pairs(EXAMPLES) if "error" in rep.value}
    assert requested >= set(protocol.COMMANDS)
    assert answered >= set(protocol.COMMANDS)
    assert codes == set(protocol.ERROR_CODES)


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: f"protocol.md:{e.line}")
def test_prose_example_fits_the_schema(example: Example) -> None:
    if example.is_request:
        reply = next((rep for req, rep in _pairs(EXAMPLES) if req is example), None)
        refused = reply is not None and reply.value.get("error", {}).get("code") == "bad_request"
        if example.value.get("cmd") in protocol.COMMANDS and not refused:
            assert validation.request_problem(example.value) is None
        return
    request = next((req for req, rep in _pairs(EXAMPLES) if rep is example), None)
    if request is None or request.value["cmd"] not in protocol.COMMANDS:
        problem = validation.problem(example.value, "reply")
    else:
        problem = validation.reply_problem(example.value, request.value["cmd"])
    assert problem is None, f"spec/protocol.md:{example.line}: {problem}"


def test_prose_session_is_what_the_reference_answers() -> None:
    """Send every request of the prose, in order, to the reference (a ``quit`` ends the
    engine; later requests go to a fresh one, as after a restart) and compare each reply the
    prose shows with the real one. Two fields are free text and not compared: ``version`` (the
    installed package's) and an error's ``message`` (for people; code and rule are compared)."""
    shown = {id(req): rep for req, rep in _pairs(EXAMPLES) if req is not None}
    requests = [e for e in EXAMPLES if e.is_request]
    sessions: list[list[Example]] = [[]]
    for request in requests:
        sessions[-1].append(request)
        if request.value["cmd"] == "quit":
            sessions.append([])
    compared = 0
    for session in sessions:
        if not session:
            continue
        replies = _serve([json.dumps(r.value) for r in session])
        assert len(replies) == len(session)
        for request, got in zip(session, replies, strict=True):
            expected = shown.get(id(request))
            if expected is None:
                continue
            if request.value["cmd"] == "hello" and "result" in got:
                got["result"]["version"] = expected.value["result"]["version"]
                # Every game the example shows must be served exactly as shown; a game added
                # to spec/variants/ later is served too but needs no edit of the example.
                shown_games = expected.value["result"]["variants"]
                served = got["result"]["variants"]
                assert set(shown_games) <= set(served), f"spec/protocol.md:{expected.line}"
                got["result"]["variants"] = {k: served[k] for k in shown_games}
            if "error" in got and "error" in expected.value:
                got["error"]["message"] = expected.value["error"]["message"]
            assert got == expected.value, f"spec/protocol.md:{expected.line}"
            compared += 1
    assert compared >= len(protocol.COMMANDS)


# --- the server --------------------------------------------------------------------------------

def _serve(lines: list[str], obj: object | None = None) -> list[dict[str, Any]]:
    out = io.StringIO()
    assert run_engine_server(obj, io.StringIO("".join(f"{x}\n" for x in lines)), out) == 0
    return [json.loads(line) for line in out.getvalue().splitlines()]


class _Toy:
    """An engine object with one working verb and verbs that go wrong."""

    def hello(self) -> dict[str, Any]:
        return {"name": "toy", "version": "1", "protocol": 1, "variants": {}}

    def legal(self) -> list[str]:
        print("debug output that must not reach stdout")
        return ["draw"]

    def state(self) -> dict[str, Any]:
        raise KeyError("widow")

    def match_state(self) -> object:
        return {"match": {1, 2}}

    def apply(self, action: str) -> list[dict[str, Any]]:
        raise EngineRejected("illegal_action", f"{action} is not playable", "R-POL-04")


def test_server_answers_bad_input_with_errors_and_keeps_serving() -> None:
    replies = _serve(
        [
            "this is not json",
            "[1, 2]",
            '{"cmd": "legal"}',
            '{"seq": 1.5, "cmd": "legal"}',
            '{"seq": 1, "cmd": "fly"}',
            '{"seq": 2, "cmd": "apply"}',
            '{"seq": 3, "cmd": "hello", "protocol": 2}',
            '{"seq": 4, "cmd": "new_hand", "variant": "poldomino", "options": {}, "deal": {}}',
            '{"seq": 5, "cmd": "state"}',
            '{"seq": 6, "cmd": "match_state"}',
            '{"seq": 7, "cmd": "apply", "action": "6-6@R6"}',
            "",
            '{"seq": 8, "cmd": "legal"}',
            '{"seq": 9, "cmd": "hello", "protocol": 1}',
        ],
        _Toy(),
    )
    codes = [(r["seq"], r["error"]["code"]) if "error" in r else (r["seq"], "ok") for r in replies]
    assert codes == [
        (None, "bad_request"),
        (None, "bad_request"),
        (None, "bad_request"),
        (None, "bad_request"),
        (1, "unsupported"),  # unknown command
        (2, "bad_request"),  # missing field
        (3, "unsupported"),  # another protocol version
        (4, "bad_request"),  # deal does not fit the deal schema
        (5, "internal"),  # the object raised
        (6, "internal"),  # the object's result is not JSON
        (7, "illegal_action"),
        (8, "ok"),  # the blank line before it got no reply
        (9, "ok"),
    ]
    assert "'action' is a required property" in replies[5]["error"]["message"]
    assert "$.deal" in replies[7]["error"]["message"]
    assert "KeyError" in replies[8]["error"]["message"]
    assert replies[10]["error"]["rule"] == "R-POL-04"
    assert replies[11]["result"] == {"actions": ["draw"]}
    assert replies[12]["result"]["name"] == "toy"
    for reply in replies:
        assert validation.problem(reply, "reply") is None, reply


def test_server_stops_after_quit() -> None:
    replies = _serve(['{"seq": 1, "cmd": "quit"}', '{"seq": 2, "cmd": "hello", "protocol": 1}'],
                     _Toy())
    assert replies == [{"seq": 1, "result": {}}]


def test_server_process_survives_garbage_bytes_and_exits_on_eof() -> None:
    lines = b"\xff\xfe not utf-8\n" + b'{"seq": 1, "cmd": "hello", "protocol": 1}\n'
    done = subprocess.run(
        [sys.executable, "-m", "dominokit.conformance.serve.server"],
        input=lines, capture_output=True, timeout=60, check=False,
    )
    assert done.returncode == 0, done.stderr
    replies = [json.loads(x) for x in done.stdout.decode("ascii").splitlines()]
    assert [r["seq"] for r in replies] == [None, 1]
    assert replies[0]["error"]["code"] == "bad_request"
    assert replies[1]["result"]["name"] == "dominokit-reference"
