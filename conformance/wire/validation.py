"""Checking a message against the protocol's JSON Schema, and the shortcuts that spare it.

The JSON Schema ``spec/schema/protocol.schema.json`` is the contract: every request the
reference serves and every reply the kit reads is checked against the form of its command, and
a problem is worded with the JSON path of the field. The generic validator costs milliseconds
per state, so the checks remember messages already found valid (but for their seq) and read a
``legal`` list's form directly; ``full_validation`` turns every shortcut off (for the benchmark,
and for the tests that show the shortcuts change no verdict). Canonical JSON lives here too:
it is how messages are compared and remembered.
"""

from __future__ import annotations

import json
import re
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from typing import Any, Final

from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match

from dominokit.spec.spec import registry, schema

JsonObject = dict[str, Any]
"""A JSON object as Python reads it (the protocol module names the same alias)."""

SCHEMA_ID: Final = "https://dominokit.example/schema/protocol.schema.json"


def shortcuts_on() -> bool:
    """Whether the shortcuts may answer (False inside ``full_validation``)."""
    return _shortcuts_on


def same_json(a: Any, b: Any) -> bool:
    """JSON equality: key order ignored, ``true`` is not ``1`` and ``1`` is not ``1.0``."""
    try:
        return canonical_json(a) == canonical_json(b)
    except (TypeError, ValueError):
        return False


def canonical_json(value: Any) -> str:
    """The text ``same_json`` compares: two values are the same JSON exactly when their texts
    are equal (so a value compared many times need be written once)."""
    return json.dumps(value, sort_keys=True, allow_nan=False, separators=(",", ":"))



def reply_problem(reply: object, cmd: str) -> str | None:
    """What is wrong with ``reply`` as an answer to ``cmd`` ("$.path: message"), or None."""
    if cmd == "legal" and plain_legal_reply(reply):
        return None
    return checked(reply, f"{cmd}_reply")


def plain_legal_reply(reply: object) -> bool:
    """True for a well-formed ``legal`` reply, checked without the generic validator.

    A Pijanowski opening has thousands of legal actions and the generic validator resolves
    the action schema once per item (about 0.4 s a reply); this applies the same constraints
    (``legal_reply``: seq, one ``actions`` field, unique strings in the action pattern) in a
    few milliseconds. False only means "not sure": the full schema check then runs and finds
    the message.
    """
    if not _shortcuts_on or not isinstance(reply, dict) or reply.keys() != {"seq", "result"}:
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
    return checked(message, "request")


def checked(message: object, definition: str) -> str | None:
    """``problem(message, definition)``, remembering messages found valid.

    An engine is asked the same thing again and again (a perft walk re-deals one hand for every
    path; a refused action must leave the state as it was), so a message that is, but for its
    seq, one already found valid is valid again: every form accepts any plain non-negative seq
    alike (tests/conformance/test_reply_shortcuts.py checks the schema for that). Only valid
    verdicts are
    kept, so every problem is found and worded afresh.
    """
    key = _memo_key(message)
    if key is not None and _VALID.known(definition, key):
        return None
    found = problem(message, definition)
    if found is None and key is not None:
        _VALID.add(definition, key)
    return found


VALID_MEMO_SIZE: Final = 4096
"""Messages remembered as valid (least recently seen forgotten first): bounds the memory."""


class _ValidMemo:
    """The canonical texts of the last messages found valid, per schema definition."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._texts: OrderedDict[tuple[str, str], None] = OrderedDict()

    def known(self, definition: str, text: str) -> bool:
        key = (definition, text)
        if key not in self._texts:
            return False
        self._texts.move_to_end(key)
        return True

    def add(self, definition: str, text: str) -> None:
        self._texts[(definition, text)] = None
        while len(self._texts) > self.size:
            self._texts.popitem(last=False)


_VALID = _ValidMemo(VALID_MEMO_SIZE)
_shortcuts_on = True


def _memo_key(message: object) -> str | None:
    """The text a verdict is remembered by: the message's canonical JSON with its seq set to 0;
    None (remember nothing) unless there is a seq that is a plain non-negative integer."""
    if not _shortcuts_on or type(message) is not dict:
        return None
    seq = message.get("seq")
    if type(seq) is not int or seq < 0:
        return None
    try:
        return canonical_json({**message, "seq": 0})
    except (TypeError, ValueError):
        return None


def forget_valid() -> None:
    """Forget every message remembered as valid, so the next checks run as in a fresh process
    (for the benchmark, which must not time a walk whose replies it has already seen)."""
    global _VALID
    _VALID = _ValidMemo(VALID_MEMO_SIZE)


@contextmanager
def full_validation() -> Iterator[None]:
    """Check every message with the generic validator, no shortcut (for the benchmark, and
    for tests that show the shortcuts change no verdict)."""
    global _shortcuts_on
    before = _shortcuts_on
    _shortcuts_on = False
    try:
        yield
    finally:
        _shortcuts_on = before


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
