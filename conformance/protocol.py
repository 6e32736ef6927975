"""Engine protocol v1: the command table, request builders, framing, and reply checking.

Everything about the wire format lives here, apart from processes and pipes (``driver``) and
serving (``server``), so that the driver, the server and the tests agree on one definition.
The JSON Schema ``spec/schema/protocol.schema.json`` is the contract: every reply is checked
against the form of the command it answers, and a reply that does not fit is a
``ProtocolViolation`` whose message names the offending field.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any, Final

from dominokit.conformance.errors import (
    EngineCrashed,
    EngineRejected,
    MalformedReply,
    ProtocolViolation,
)
from dominokit.reference.spec import registry, schema
from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match

PROTOCOL_VERSION: Final = 1
"""The protocol version this kit speaks; a breaking change to any message bumps it."""

SCHEMA_ID: Final = "https://dominokit.example/schema/protocol.schema.json"

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
        Command("quit", (), None),
    )
}


def request(seq: int, cmd: str, **fields: Any) -> JsonObject:
    """A request object: ``{"seq": seq, "cmd": cmd, **fields}`` (``hello`` gets ``protocol``)."""
    if cmd not in COMMANDS:
        raise ValueError(f"unknown command {cmd!r}")
    message: JsonObject = {"seq": seq, "cmd": cmd}
    if cmd == "hello":
        message["protocol"] = PROTOCOL_VERSION
    message.update(fields)
    return message


def hello_request(seq: int) -> JsonObject:
    """The handshake request for protocol v1."""
    return request(seq, "hello")


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
    return json.dumps(message, ensure_ascii=True, allow_nan=False, separators=(",", ":")) + "\n"


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


def check_reply(reply: JsonObject, cmd: str, seq: int) -> JsonObject:
    """The ``result`` of a reply to request ``seq`` (a ``cmd``), after checking everything.

    Raises ``ProtocolViolation`` for a wrong or missing seq or a reply that does not fit the
    schema (naming the field), ``EngineRejected`` for an error reply, and ``EngineCrashed``
    for an ``internal`` error (the engine failed, though its process lives on).
    """
    got = reply.get("seq")
    if got != seq or isinstance(got, bool):
        raise ProtocolViolation(_seq_problem(got, seq, reply))
    problem = reply_problem(reply, cmd)
    if problem is not None:
        raise ProtocolViolation(f"reply to {cmd!r} (seq {seq}) breaks the protocol: {problem}")
    if "error" in reply:
        error = reply["error"]
        if error["code"] == "internal":
            raise EngineCrashed(f"engine reported an internal error on {cmd!r}: "
                                f"{error['message']}")
        raise EngineRejected(error["code"], error["message"], error.get("rule"))
    result: JsonObject = reply["result"]
    return result


def _seq_problem(got: object, expected: int, reply: Mapping[str, Any]) -> str:
    if "seq" not in reply:
        return f"reply has no seq (expected {expected}): {_shorten(encode(reply))}"
    if got is None and isinstance(reply.get("error"), dict):
        message = reply["error"].get("message")
        return f"engine could not read request {expected} (error reply with seq null): {message}"
    if isinstance(got, int) and not isinstance(got, bool) and got < expected:
        return (
            f"reply with seq {got} arrived while waiting for seq {expected}: "
            "replies out of order or repeated"
        )
    return f"reply seq {got!r} does not match request seq {expected}"


def reply_problem(reply: object, cmd: str) -> str | None:
    """What is wrong with ``reply`` as an answer to ``cmd`` ("$.path: message"), or None."""
    if cmd == "legal" and plain_legal_reply(reply):
        return None
    return problem(reply, f"{cmd}_reply")


def plain_legal_reply(reply: object) -> bool:
    """True for a well-formed ``legal`` reply, checked without the generic validator.

    A Pijanowski opening has thousands of legal actions and the generic validator resolves
    the action schema once per item (about 0.4 s a reply); this applies the same constraints
    (``legal_reply``: seq, one ``actions`` field, unique strings in the action pattern) in a
    few milliseconds. False only means "not sure": the full schema check then runs and finds
    the message.
    """
    if not isinstance(reply, dict) or reply.keys() != {"seq", "result"}:
        return False
    seq, result = reply["seq"], reply["result"]
    if type(seq) is not int or seq < 0:
        return False
    if not isinstance(result, dict) or result.keys() != {"actions"}:
        return False
    actions = result["actions"]
    if type(actions) is not list:
        return False
    fits = _action_pattern().search
    return all(type(a) is str and fits(a) for a in actions) and len(set(actions)) == len(actions)


@cache
def _action_pattern() -> re.Pattern[str]:
    return re.compile(schema("action")["pattern"])


def request_problem(message: object) -> str | None:
    """What is wrong with ``message`` as a request ("$.path: message"), or None."""
    return problem(message, "request")


def problem(instance: object, definition: str) -> str | None:
    """What is wrong with ``instance`` as a ``definition`` of the schema's ``$defs``, or None.

    The message is the most relevant error, prefixed with the JSON path of the field.
    """
    error = best_match(_validator(definition).iter_errors(instance))
    if error is None:
        return None
    return f"{error.json_path}: {error.message}"


@cache
def _validator(definition: str) -> Draft202012Validator:
    reference_form = {"$ref": f"{SCHEMA_ID}#/$defs/{definition}"}
    return Draft202012Validator(reference_form, registry=registry())


def protocol_schema() -> JsonObject:
    """The protocol schema document itself (shared and cached: do not mutate)."""
    return schema("protocol")


def _shorten(data: bytes | str, limit: int = 200) -> str:
    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    text = text.rstrip("\r\n")
    return repr(text if len(text) <= limit else text[:limit] + "...")
