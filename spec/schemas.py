"""The bundled JSON Schemas (spec/schema/*.schema.json), loaded once and resolvable together.

The schemas are the contract every JSON form and rule file is checked against, by the spec
checker, the tests and the conformance kit alike; this module is the one place that finds them
in the installed package and wires their cross-file ``$ref``s.
"""

from __future__ import annotations

import functools
import json
from importlib import resources
from importlib.resources.abc import Traversable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    # Imported where used: reading a schema needs no validator, and the rule book's
    # in-browser engine (Pyodide, see frozen.py) has no jsonschema.
    from jsonschema import Draft202012Validator
    from referencing import Registry

SPEC_PACKAGE = "dominokit.spec"
"""The import name of the spec data; files are read through importlib.resources."""


def _schema_dir() -> Traversable:
    return resources.files(SPEC_PACKAGE) / "schema"


def schema_names() -> list[str]:
    """Names of every bundled schema (``variant``, ``deal``, ...), sorted."""
    suffix = ".schema.json"
    return sorted(
        entry.name.removesuffix(suffix)
        for entry in _schema_dir().iterdir()
        if entry.name.endswith(suffix)
    )


@functools.cache
def schema(name: str) -> dict[str, Any]:
    """The parsed schema ``spec/schema/<name>.schema.json`` (shared and cached: do not mutate)."""
    entry = _schema_dir() / f"{name}.schema.json"
    if not entry.is_file():
        raise ValueError(f"no schema named {name!r}; known: {', '.join(schema_names())}")
    loaded: dict[str, Any] = json.loads(entry.read_text(encoding="utf-8"))
    return loaded


@functools.cache
def registry() -> Registry[Any]:
    """Every bundled schema, keyed by its ``$id``, for resolving cross-file ``$ref``s."""
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT202012

    found = [
        Resource.from_contents(schema(name), default_specification=DRAFT202012)
        for name in schema_names()
    ]
    return Registry().with_resources((resource.id() or "", resource) for resource in found)


@functools.cache
def validator(name: str) -> Draft202012Validator:
    """A validator for schema ``name`` whose registry holds every bundled schema.

    The schemas refer to each other by relative ``$id`` (a deal's tiles use the tile pattern
    of action.schema.json), so each validator needs them all to resolve its ``$ref``s.
    """
    from jsonschema import Draft202012Validator

    return Draft202012Validator(schema(name), registry=registry())
