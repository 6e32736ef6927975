"""Engine protocol 2 (and 1): the command table, request builders, framing, reply checking.

Everything about the wire format lives here, apart from processes and pipes (``driver``) and
serving (``server``), so that the driver, the server and the tests agree on one definition.
The JSON Schema ``spec/schema/protocol.schema.json`` is the contract: every reply is checked
against the form of the command it answers, and a reply that does not fit is a
``ProtocolViolation`` whose message names the offending field.

The generic validator costs milliseconds per state, so four shortcuts give the same verdicts
for less: a reply line that is, byte for byte, the line the reference's own answer makes
(``expected_line``) is neither guarded nor checked again; a reply whose result equals the
reference's own (schema-valid) answer for it is valid by that equality; a message already
found valid, but for its seq, is not checked again; and a ``legal`` list is checked by a
direct reading of its form. Anything a shortcut is not sure of
goes through the full validator, which also words every problem.
"""

from __future__ import annotations

import itertools
import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from dominokit.conformance.wire.errors import (
    EngineRaised,
    EngineRejected,
    MalformedReply,
    ProtocolViolation,
)
from dominokit.conformance.wire.limits import lone_surrogate
from dominokit.conformance.wire.validation import reply_problem, same_json, shortcuts_on

PROTOCOL_VERSION: Final = 2
"""The newest protocol version, the one the kit asks for first; a breaking change to any
message bumps it."""

PROTOCOL_VERSIONS: Final = (1, 2)
"""Every version the kit and the reference speak. A session of version 1 is exactly protocol 1:
no capabilities in ``hello``, no ``undo``, so engines written for it keep passing."""

CAPABILITIES: Final = ("undo",)
"""The optional features an engine may declare in a protocol-2 ``hello`` (the schema's
``capability``): ``undo`` takes back the last accepted ``apply`` of the current hand."""

VERSION_COMMANDS: Final = {1: frozenset({"hello", "new_hand", "legal", "apply", "state",
                                         "new_match", "next_hand", "match_state", "quit"})}
"""The commands of each older version; a version not listed has every command."""


ERROR_CODES: Final = (
    "illegal_action",
    "bad_request",
    "unsupported",
    "no_hand",
    "no_match",
    "internal",
)
"""Every error code an engine may reply with (spec/protocol.md, "Error codes")."""

JsonObject = dict[str, Any]

MAX_REQUEST_LINE_BYTES: Final = 1024 * 1024
"""The longest request line an engine must read (1 MiB, newline included). The kit's largest
request, a double-set deal, is under 2 KB; a longer line is refused with ``bad_request``."""

MAX_REPLY_LINE_BYTES: Final = 64 * 1024 * 1024
"""The longest reply line the kit reads (64 MiB); a longer one is a malformed reply."""

MAX_NESTING_DEPTH: Final = 32
"""The deepest nesting of arrays and objects in a message (the top-level object is depth 1).
The deepest message of the protocol is a board state, at depth 6; a deeper line is refused
before it is parsed, so no reader of the protocol needs unbounded recursion."""


class MessageError(ValueError):
    """A line that is not one acceptable protocol message; the text says why, for people."""


def parse_message(line: str | bytes, max_bytes: int) -> JsonObject:
    """One protocol line as a JSON object, refusing what no message of the protocol needs.

    Refused, each with a ``MessageError`` that says which: a line over ``max_bytes``, bytes
    that are not UTF-8, nesting deeper than ``MAX_NESTING_DEPTH`` (checked before parsing, so a
    hostile line cannot exhaust the parser's recursion), text that is not JSON, a value that is
    not an object, and an object with a repeated key anywhere (JSON leaves duplicates undefined;
    two readers could act on different values). NaN and infinities are not JSON and are refused.
    """
    size = len(line.encode("utf-8")) if isinstance(line, str) else len(line)
    if size > max_bytes:
        raise MessageError(f"line is {size} bytes, over the limit of {max_bytes}")
    if isinstance(line, bytes):
        try:
            line = line.decode("utf-8")
        except UnicodeDecodeError as error:
            raise MessageError(f"line is not UTF-8 ({error})") from None
    openers = line.count("[") + line.count("{")  # the depth is at most this, and it is cheap
    depth = nesting_depth(line) if openers > MAX_NESTING_DEPTH else openers
    if depth > MAX_NESTING_DEPTH:
        raise MessageError(f"line nests arrays and objects {depth} deep, over the limit of "
                           f"{MAX_NESTING_DEPTH}")
    try:
        value = json.loads(line, object_pairs_hook=_unique_keys, parse_constant=_no_constant,
                           parse_float=_finite)
    except MessageError:
        raise
    except ValueError as error:
        raise MessageError(f"line is not JSON: {error}") from None
    if not isinstance(value, dict):
        raise MessageError(f"line is JSON but not an object: {_shorten(line)}")
    surrogate = lone_surrogate(line, value)
    if surrogate is not None:
        raise MessageError(f"a string holds a lone surrogate ({surrogate}), which is not "
                           f"Unicode text")
    return value


def nesting_depth(text: str) -> int:
    """The deepest nesting of ``[`` and ``{`` in JSON text, skipping strings; no recursion, and
    exact for valid JSON (for invalid text it is only an estimate, never below the depth a
    parser could reach).

    Every reply the kit reads is measured, so the common case runs in C: each round deletes
    the innermost bracket pairs, and a message of the protocol takes at most six rounds. Text
    with many brackets, or still nested after ``MAX_NESTING_DEPTH + 1`` rounds, is counted
    bracket by bracket.
    """
    # Without a backslash no quote is escaped, so every other piece between quotes is a string.
    plain = "\\" not in text and text.count('"') % 2 == 0
    outside = "".join(text.split('"')[::2]) if plain else _STRINGS.sub("", text)
    brackets = outside.encode("utf-8", "surrogatepass").translate(None, _NOT_BRACKETS)
    if len(brackets) > _FEW_BRACKETS:
        return _counted_depth(brackets)
    for rounds in range(MAX_NESTING_DEPTH + 2):
        inner = _INNERMOST.sub(b"", brackets)
        if len(inner) == len(brackets):  # none left, or only unbalanced ones
            return rounds + brackets.count(b"[") + brackets.count(b"{")
        brackets = inner
    return _counted_depth(brackets) + MAX_NESTING_DEPTH + 2


def _counted_depth(brackets: bytes) -> int:
    return max(itertools.accumulate(map(_STEPS.__getitem__, brackets), initial=0))


_STEPS: Final = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}
_FEW_BRACKETS: Final = 4096
"""Up to this many brackets, rounds of deletion are cheaper than counting one by one (a hand
state has about two hundred)."""


_STRINGS: Final = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_BRACKETS: Final = bytes(set(range(256)) - set(b"[]{}"))
_INNERMOST: Final = re.compile(rb"\[\]|\{\}")


def _unique_keys(pairs: list[tuple[str, Any]]) -> JsonObject:
    out: JsonObject = {}
    for key, value in pairs:
        if key in out:
            raise MessageError(f"duplicate key {key!r} in an object")
        out[key] = value
    return out


def _no_constant(name: str) -> Any:
    raise MessageError(f"{name} is not JSON")


def _finite(text: str) -> float:
    """A JSON number as a float; one too large for a float (``1e400``) would read as an
    infinity, which no JSON writer can repeat, so it is refused like ``Infinity``."""
    value = float(text)
    if math.isinf(value):
        raise MessageError(f"number {_shorten(text, 40)} is out of range")
    return value


@dataclass(frozen=True)
class Command:
    """One protocol command and how it maps onto an engine object's verb.

    ``params`` are the request fields passed, in order, to the verb of the same name;
    ``result_key`` names the single result field that carries the verb's return value
    (None: the verb returns the whole result object, as ``hello`` does).
    """

    name: str
    params: tuple[str, ...]
    result_key: str | None


COMMANDS: Final[Mapping[str, Command]] = {
    c.name: c
    for c in (
        Command("hello", (), None),
        Command("new_hand", ("variant", "options", "deal"), "state"),
        Command("legal", (), "actions"),
        Command("apply", ("action",), "events"),
        Command("state", (), "state"),
        Command("new_match", ("variant", "options", "first_starter"), "match"),
        Command("next_hand", ("deal",), "state"),
        Command("match_state", (), "match"),
        Command("undo", (), "state"),
        Command("quit", (), None),
    )
}


def request(seq: int, cmd: str, **fields: Any) -> JsonObject:
    """A request object: ``{"seq": seq, "cmd": cmd, **fields}`` (``hello`` gets ``protocol``,
    the newest version, unless the fields name one)."""
    if cmd not in COMMANDS:
        raise ValueError(f"unknown command {cmd!r}")
    message: JsonObject = {"seq": seq, "cmd": cmd}
    if cmd == "hello":
        message["protocol"] = PROTOCOL_VERSION
    message.update(fields)
    return message


def hello_request(seq: int, version: int = PROTOCOL_VERSION) -> JsonObject:
    """The handshake request asking for protocol ``version``."""
    return request(seq, "hello", protocol=version)


def undo_request(seq: int) -> JsonObject:
    """Take back the last accepted ``apply`` of the current hand (protocol 2, ``undo``)."""
    return request(seq, "undo")


def in_version(cmd: str, version: int) -> bool:
    """Whether ``cmd`` is a command of protocol ``version`` (``undo`` is not one of 1's)."""
    known = VERSION_COMMANDS.get(version)
    return cmd in COMMANDS and (known is None or cmd in known)


NEEDS_CAPABILITY: Final = {"undo": "undo"}
"""The capability each optional command needs: an engine that does not declare it does not
know the command."""


def known_command(cmd: str, version: int, capabilities: frozenset[str] | None) -> bool:
    """Whether a session of ``version`` whose ``hello`` declared ``capabilities`` (None: no
    ``hello`` answered yet, so the engine's own verbs decide) has the command ``cmd``."""
    needs = NEEDS_CAPABILITY.get(cmd)
    return in_version(cmd, version) and (
        needs is None or capabilities is None or needs in capabilities)


def declared(result: Mapping[str, Any]) -> frozenset[str]:
    """The capabilities a ``hello`` result lists (the strings of its list; none if it has no
    list: the reply check, not the server, judges its form)."""
    listed = result.get("capabilities")
    if not isinstance(listed, list):
        return frozenset()
    return frozenset(item for item in listed if isinstance(item, str))


def hello_for(result: Mapping[str, Any], asked: object) -> JsonObject:
    """An engine object's ``hello()`` result as the answer to a ``hello`` asking for ``asked``.

    An object's result names the newest version it speaks; it speaks every older one too
    (protocol 1 is protocol 2 without capabilities), so asked for an older version it answers
    with that version and no capabilities. Asked for a version it does not speak, or one no
    protocol has, it refuses: ``EngineRejected`` with ``unsupported``. The server and
    ``driver.InProcessEngine`` both answer through this, so a ``python:`` engine object never
    needs to know which version a session speaks.
    """
    newest = result.get("protocol")
    if asked not in PROTOCOL_VERSIONS or not isinstance(newest, int) or \
            isinstance(newest, bool) or not isinstance(asked, int) or asked > newest:
        speaks = " and ".join(str(v) for v in PROTOCOL_VERSIONS
                              if isinstance(newest, int) and v <= newest) or str(newest)
        raise EngineRejected("unsupported", f"this engine speaks protocol {speaks}, not {asked}")
    if asked == newest:
        return dict(result)
    older = {key: value for key, value in result.items() if key != "capabilities"}
    older["protocol"] = asked
    return older


def new_hand_request(
    seq: int, variant: str, options: Mapping[str, object], deal: Mapping[str, Any]
) -> JsonObject:
    """Start a standalone hand from an explicit deal."""
    return request(seq, "new_hand", variant=variant, options=dict(options), deal=dict(deal))


def legal_request(seq: int) -> JsonObject:
    """Ask for every legal action of the current hand."""
    return request(seq, "legal")


def apply_request(seq: int, action: str) -> JsonObject:
    """Play one action in the current hand."""
    return request(seq, "apply", action=action)


def state_request(seq: int) -> JsonObject:
    """Ask for the current hand's canonical state."""
    return request(seq, "state")


def new_match_request(
    seq: int, variant: str, options: Mapping[str, object], first_starter: int
) -> JsonObject:
    """Start a match; the first hand's starter is given (R-ALL-04)."""
    return request(
        seq, "new_match", variant=variant, options=dict(options), first_starter=first_starter
    )


def next_hand_request(seq: int, deal: Mapping[str, Any]) -> JsonObject:
    """Start the match's next hand from an explicit deal."""
    return request(seq, "next_hand", deal=dict(deal))


def match_state_request(seq: int) -> JsonObject:
    """Ask for the match's state."""
    return request(seq, "match_state")


def quit_request(seq: int) -> JsonObject:
    """Ask the engine to answer and exit."""
    return request(seq, "quit")


def result_reply(seq: int, result: Mapping[str, Any]) -> JsonObject:
    """A successful reply."""
    return {"seq": seq, "result": dict(result)}


def error_reply(seq: int | None, code: str, message: str, rule: str | None = None) -> JsonObject:
    """An error reply; ``seq`` is None when the request's seq could not be read."""
    error: JsonObject = {"code": code, "message": message}
    if rule is not None:
        error["rule"] = rule
    return {"seq": seq, "error": error}


def encode(message: Mapping[str, Any]) -> str:
    """One message as one line of strict JSON (ASCII only, so no encoding can mangle it; no
    NaN, which JSON lacks), ending in a newline. ValueError or TypeError for what JSON cannot
    carry."""
    return _ENCODER.encode(message) + "\n"


_ENCODER: Final = json.JSONEncoder(ensure_ascii=True, allow_nan=False, separators=(",", ":"))
"""The one encoder of every message: ``json.dumps`` with these settings would build a new one
per call, which cost more than encoding a short message."""


def decode_reply_line(line: bytes) -> JsonObject:
    """Parse one stdout line of an engine; anything but a JSON object is a MalformedReply."""
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as error:
        raise MalformedReply(f"reply line is not UTF-8 ({error}): {_shorten(line)}") from None
    try:
        value = json.loads(text)
    except ValueError:
        raise MalformedReply(
            f"stdout line is not JSON (an engine must print only replies on stdout; "
            f"logs go to stderr): {_shorten(line)}"
        ) from None
    if not isinstance(value, dict):
        raise MalformedReply(f"reply line is JSON but not an object: {_shorten(line)}")
    return value


def check_reply(reply: JsonObject, cmd: str, seq: int, expect: Any = None) -> JsonObject:
    """The ``result`` of a reply to request ``seq`` (a ``cmd``), after checking everything.

    Raises ``ProtocolViolation`` for a wrong or missing seq or a reply that does not fit the
    schema (naming the field), ``EngineRejected`` for an error reply, and ``EngineCrashed``
    for an ``internal`` error (the engine failed, though its process lives on).

    ``expect``, when given, is the reference engine's own answer (the value of the result's one
    field) to the same request. A plain result equal to it is valid because the reference's
    answer is, so the schema is not consulted; any other reply is checked in full.
    """
    got = reply.get("seq")
    if got != seq or type(got) is not int:
        raise ProtocolViolation(_seq_problem(got, seq, reply))
    if expect is None or not answers_as_expected(reply, cmd, expect):
        problem = reply_problem(reply, cmd)
        if problem is not None:
            raise ProtocolViolation(f"reply to {cmd!r} (seq {seq}) breaks the protocol: "
                                    f"{problem}")
    if "error" in reply:
        error = reply["error"]
        if error["code"] == "internal":
            raise EngineRaised(f"engine reported an internal error on {cmd!r}: "
                                f"{error['message']}")
        raise EngineRejected(error["code"], error["message"], error.get("rule"))
    result: JsonObject = reply["result"]
    return result


def answers_as_expected(reply: object, cmd: str, expect: Any) -> bool:
    """True when ``reply`` is ``{"seq": n, "result": {key: value}}`` with a plain seq and
    ``value`` the same JSON as ``expect`` (the reference's answer): then the reply fits the
    ``cmd`` reply form exactly when the reference's answer does, and that one always does
    (tests/conformance/test_reply_shortcuts.py checks it on every kind of answer of every variant).

    False only means "not shown by equality": the caller then validates in full.
    """
    key = COMMANDS[cmd].result_key
    if key is None or not shortcuts_on() or type(reply) is not dict or \
            reply.keys() != {"seq", "result"}:
        return False
    seq, result = reply["seq"], reply["result"]
    if type(seq) is not int or seq < 0 or type(result) is not dict or result.keys() != {key}:
        return False
    return same_json(result[key], expect)


def expected_line(cmd: str, seq: int, expect: Any) -> bytes | None:
    """The line ``encode`` writes for a reply to request ``seq`` (a ``cmd``) whose result is
    ``expect``, the reference's own answer; None when there is none to compare with.

    An engine that writes its replies as the reference server does sends exactly this line
    when it answers as expected. A line equal to it byte for byte is a message already known
    to be good: one object with unique keys, ASCII, nested no deeper than the reference's
    answer, with the seq asked for and a result equal to ``expect``, which fits the reply form
    (see ``answers_as_expected``). The caller then needs neither ``parse_message``'s guards nor
    the reply check: both would pass (tests/conformance/test_reply_shortcuts.py). Any other line,
    equal in
    JSON or not, takes the usual way.
    """
    key = COMMANDS[cmd].result_key
    if key is None or expect is None or not shortcuts_on():
        return None
    try:
        return encode({"seq": seq, "result": {key: expect}}).encode("ascii")
    except (TypeError, ValueError):
        return None


def _seq_problem(got: object, expected: int, reply: Mapping[str, Any]) -> str:
    if "seq" not in reply:
        return f"reply has no seq (expected {expected}): {_shorten(encode(reply))}"
    if got is None and isinstance(reply.get("error"), dict):
        message = reply["error"].get("message")
        return f"engine could not read request {expected} (error reply with seq null): {message}"
    if isinstance(got, float) and got == expected:
        return (f"reply seq {got!r} is not an integer (a seq is a JSON integer: "
                f"{expected}, not {got!r})")
    if isinstance(got, int) and not isinstance(got, bool) and got < expected:
        return (
            f"reply with seq {got} arrived while waiting for seq {expected}: "
            "replies out of order or repeated"
        )
    return f"reply seq {got!r} does not match request seq {expected}"


def _shorten(data: bytes | str, limit: int = 200) -> str:
    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    text = text.rstrip("\r\n")
    return repr(text if len(text) <= limit else text[:limit] + "...")
