"""The mechanic vocabulary: every name a variant may give a mechanic, read from the schema.

spec/schema/variant.schema.json lists, as enums, the values each mechanic may take
(``turn.draw.policy``: none, free, until_fit, ...). That list is the one source: the engine
takes its vocabulary from here, so a value added to the schema is known everywhere, and no
second list can drift from it. A test checks that every name the engine compares a mechanic
with is in this vocabulary.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from dominokit.spec.schemas import schema

MECHANICS: Mapping[str, tuple[tuple[str, ...], str]] = MappingProxyType({
    "table": (("components", "table"), "kind"),
    "remainder": (("setup",), "remainder"),
    "starter": (("setup",), "starter"),
    "deal": (("setup", "deal"), "policy"),
    "opening": (("turn", "opening"), "policy"),
    "matching": (("turn", "matching"), "policy"),
    "parity": (("turn", "parity"), "policy"),
    "draw": (("turn", "draw"), "policy"),
    "pass": (("turn", "pass"), "policy"),
    "end": (("end", "[]"), "condition"),
    "winner": (("scoring", "winner"), "policy"),
    "term": (("scoring", "terms", "[]"), "term"),
    "to": (("scoring", "terms", "[]"), "to"),
    "lake_mode": (("scoring", "lakes"), "mode"),
    "match": (("match",), "kind"),
    "compare": (("match",), "compare"),
})
"""Each mechanic: (the object holding it in a variant file, ``[]`` for a list's items; its key)."""

_BRANCHES = ("allOf", "anyOf", "oneOf", "then", "else")
"""Schema keywords under which a property's enum may be written (``if``/``then``/``else``
carries a value that ``{option: NAME}`` may stand for)."""


def _object(root: dict[str, Any], where: tuple[str, ...]) -> dict[str, Any]:
    node = root
    for step in where:
        node = node["items"] if step == "[]" else node["properties"][step]
    return node


def _enums(node: Any, key: str) -> list[tuple[str, ...]]:
    """The enums given for property ``key`` of an object schema, through its branches."""
    found: list[tuple[str, ...]] = []
    if isinstance(node, list):
        for item in node:
            found += _enums(item, key)
    elif isinstance(node, dict):
        prop = node.get("properties", {}).get(key)
        if isinstance(prop, dict):
            found += _values(prop)
        for branch in _BRANCHES:
            if branch in node:
                found += _enums(node[branch], key)
    return found


def _values(prop: dict[str, Any]) -> list[tuple[str, ...]]:
    """The enum of one property schema (plain, or the ``else`` of an option reference)."""
    if "enum" in prop:
        return [tuple(prop["enum"])]
    out: list[tuple[str, ...]] = []
    for branch in _BRANCHES:
        if isinstance(prop.get(branch), dict):
            out += _values(prop[branch])
    return out


@functools.cache
def vocabulary() -> Mapping[str, tuple[str, ...]]:
    """Each mechanic's allowed names, in schema order; ValueError if the schema lists none for
    a mechanic or two different lists for one (it would no longer be one vocabulary)."""
    root = schema("variant")
    out: dict[str, tuple[str, ...]] = {}
    for mechanic, (where, key) in MECHANICS.items():
        lists = set(_enums(_object(root, where), key))
        if len(lists) != 1:
            raise ValueError(f"variant.schema.json gives {len(lists)} different value lists "
                             f"for the mechanic {mechanic!r} ({key} under {where}); "
                             "expected exactly one")
        out[mechanic] = lists.pop()
    return MappingProxyType(out)
