"""What a message may cost to check: the rules every reader of the protocol applies before,
and while, it checks a message against the schema.

Three things a generic JSON Schema validator does not bound, made bounded here for both sides
of the wire (the kit reading replies, the reference reading requests):

- **Sizes before shapes.** A validator visits every item of a list before it reports the list
  too long, and ``uniqueItems`` over items of mixed types falls back to comparing every pair
  (a 110 KB line of one string and 20,000 numbers took 72 s). ``oversized`` walks a message
  along its schema and refuses the first list over its ``maxItems`` (and object over its
  ``maxProperties``) before anything else looks at it, in time linear in what it visits.
- **Uniqueness in linear time.** The validator's ``uniqueItems`` is replaced by one that
  hashes each item's JSON form, so no list of any shape costs more than its length.
- **One rule for integers.** An integer field is a JSON integer: ``1``, never ``1.0`` or
  ``1e0``, although JSON Schema's ``integer`` admits a float with no fraction (and its
  ``enum`` and ``const`` find ``2.0`` equal to ``2``: here they compare JSON forms). Both sides read
  a message with the same validator (``strict_validator``), so a request the reference
  refuses and a reply the kit refuses are refused for the same reason.

And one thing JSON itself allows but no text has: a string escape of a lone surrogate
(``"\\udc80"``) parses to a Python string that no UTF-8 encoder can write, so a report quoting
it could not be written. ``lone_surrogate`` finds one, for the parser to refuse the line.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from functools import cache
from typing import Any, Final, cast
from urllib.parse import urljoin

from jsonschema import Draft202012Validator, ValidationError, validators
from jsonschema.protocols import Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from dominokit.spec.spec import schema, schema_names

__all__ = ["MAX_ITEMS_SHOWN", "lone_surrogate", "oversized", "strict_validator"]

MAX_ITEMS_SHOWN: Final = 60
"""Characters of a repeated item quoted in a uniqueness problem (a message never grows with
the list it is about)."""

_SURROGATE_ESCAPE: Final = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


def lone_surrogate(line: str, value: object) -> str | None:
    """The first lone surrogate in the strings of ``value`` (parsed from ``line``), written as
    its escape, or None. Only a line holding a surrogate escape is looked into, so the usual
    line costs one search in C; a pair of escapes that makes one character is text, and fine.
    """
    if _SURROGATE_ESCAPE.search(line) is None:
        return None
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError as error:
        return f"\\u{ord(error.object[error.start]):04x}"
    return None


def _is_integer(checker: object, instance: object) -> bool:
    return type(instance) is int  # bool is a subclass of int, and no JSON integer


def _json_key(item: object) -> object:
    """A hashable stand-in for ``item`` that is equal exactly when the JSON values are (as
    ``uniqueItems`` compares them: ``1`` equals ``1.0``, ``true`` does not equal ``1``)."""
    if isinstance(item, bool) or item is None:
        return ("literal", item)
    if isinstance(item, int | float | str):
        return (type(item) is str, item)
    return ("json", json.dumps(item, sort_keys=True, default=str))


def _unique_items(validator: Validator, unique: object, instance: object,
                  form: Mapping[str, Any]) -> Iterator[ValidationError]:
    if not unique or not isinstance(instance, list):
        return
    most = form.get("maxItems")
    if isinstance(most, int) and len(instance) > most:
        return  # ``maxItems`` reports this list; no need to compare what it holds
    seen: set[object] = set()
    for index, item in enumerate(instance):
        key = _json_key(item)
        if key in seen:
            shown = json.dumps(item, default=str)[:MAX_ITEMS_SHOWN]
            yield ValidationError(f"has non-unique elements (item {index}, {shown}, "
                                  f"is listed before)")
            return
        seen.add(key)


def _canonical(value: object) -> str:
    return json.dumps(value, sort_keys=True, default=str)


def _enum(validator: Validator, choices: list[object], instance: object,
          form: Mapping[str, Any]) -> Iterator[ValidationError]:
    text = _canonical(instance)
    if not any(text == _canonical(choice) for choice in choices):
        yield ValidationError(f"{instance!r} is not one of {choices!r}{_no_integer(instance)}")


def _const(validator: Validator, const: object, instance: object,
           form: Mapping[str, Any]) -> Iterator[ValidationError]:
    if _canonical(instance) != _canonical(const):
        yield ValidationError(f"{const!r} was expected{_no_integer(instance)}")


def _no_integer(instance: object) -> str:
    """What to add when ``instance`` is a float that reads as an integer (``2.0``)."""
    if isinstance(instance, float) and instance.is_integer():
        return (f" ({instance!r} is no JSON integer: an integer is written without a "
                f"fraction or an exponent, {int(instance)})")
    return ""


StrictValidator = validators.extend(  # type: ignore[no-untyped-call]
    Draft202012Validator,
    validators={"uniqueItems": _unique_items, "enum": _enum, "const": _const},
    type_checker=Draft202012Validator.TYPE_CHECKER.redefine("integer", _is_integer),
)
"""Draft 2020-12 with the integer rule and linear ``uniqueItems`` (see the module docstring)."""


def strict_validator(form: Mapping[str, Any]) -> Draft202012Validator:
    """A validator of ``form`` with the project's rules, resolving ``$ref``s to every bundled
    schema.

    The schemas are registered without their ``$schema`` key: jsonschema picks the validator
    class of a referenced document by that key, which would check a deal inside a request
    with the stock Draft 2020-12 rules, not these."""
    return cast(Draft202012Validator, StrictValidator(form, registry=_registry()))


@cache
def _registry() -> Registry[Any]:
    resources = [Resource.from_contents({k: v for k, v in schema(name).items()
                                         if k != "$schema"},
                                        default_specification=DRAFT202012)
                 for name in schema_names()]
    return Registry().with_resources((resource.id() or "", resource) for resource in resources)


@cache
def _documents() -> dict[str, Mapping[str, Any]]:
    found: dict[str, Mapping[str, Any]] = {}
    for name in schema_names():
        document = schema(name)
        found[str(document.get("$id", name))] = document
    return found


def _resolve(ref: str, base: str) -> tuple[Mapping[str, Any], str] | None:
    uri, _, pointer = ref.partition("#")
    uri = urljoin(base, uri) if uri else base
    node: Any = _documents().get(uri)
    for part in (p for p in pointer.split("/") if p):
        part = part.replace("~1", "/").replace("~0", "~")
        if not isinstance(node, Mapping) or part not in node:
            return None
        node = node[part]
    return (node, uri) if isinstance(node, Mapping) else None


_BRANCHES: Final = ("allOf", "anyOf", "oneOf", "then", "else")


def oversized(instance: object, ref: str) -> str | None:
    """The first list of ``instance`` longer than its schema's ``maxItems`` (or object with
    more members than its ``maxProperties``), as ``$.path: message``; None when there is none.

    ``ref`` names the schema (``URI#/$defs/name``). The walk follows ``$ref``, properties,
    ``additionalProperties``, ``items``, ``prefixItems`` and every branch of ``allOf``,
    ``anyOf``, ``oneOf`` and ``if``/``then``/``else`` (a list is measured against each branch
    that could apply to it), and it descends into a list only once the list is known to be
    within its limit, so the work is bounded by the limits and not by the message.
    """
    start = _resolve(ref, "")
    if start is None:
        return None
    todo: list[tuple[object, Mapping[str, Any], str, str]] = [(instance, start[0], "$",
                                                                start[1])]
    while todo:
        value, form, path, base = todo.pop()
        if "$ref" in form:
            target = _resolve(str(form["$ref"]), base)
            if target is not None:
                todo.append((value, target[0], path, target[1]))
        for keyword in _BRANCHES:
            branch = form.get(keyword)
            for sub in branch if isinstance(branch, list) else [branch]:
                if isinstance(sub, Mapping):
                    todo.append((value, sub, path, base))
        if isinstance(value, list):
            most = form.get("maxItems")
            if isinstance(most, int) and len(value) > most:
                return f"{path}: has {len(value)} items, more than the limit of {most}"
            items, prefix = form.get("items"), form.get("prefixItems")
            for index, item in enumerate(value):
                sub = (prefix[index] if isinstance(prefix, list) and index < len(prefix)
                       else items)
                if isinstance(sub, Mapping):
                    todo.append((item, sub, f"{path}[{index}]", base))
        elif isinstance(value, dict):
            most = form.get("maxProperties")
            if isinstance(most, int) and len(value) > most:
                return f"{path}: has {len(value)} members, more than the limit of {most}"
            properties = form.get("properties")
            extra = form.get("additionalProperties")
            for key, member in value.items():
                sub = properties.get(key) if isinstance(properties, Mapping) else None
                if sub is None:
                    sub = extra
                if isinstance(sub, Mapping):
                    todo.append((member, sub, f"{path}.{key}", base))
    return None
