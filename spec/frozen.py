"""Rule files checked ahead of time, for a Python that cannot check them itself.

The rule book's play pages run the reference engine in the browser (Pyodide), where PyYAML's
C parser and jsonschema's Rust dependency do not exist. The book's build loads every bundled
rule file the usual way (YAML, schema and lint checks), writes the checked data with
:func:`dump`, and the page hands that text to :func:`install` before the engine starts; from
then on :mod:`dominokit.spec.spec` takes a bundled file's data from here instead of reading
and checking it again. Nothing else changes: the same data makes the same Variant.

The data travels as a Python literal (``repr``/``ast.literal_eval``), not JSON, because a
rule file may key a mapping by ``true`` or ``14`` and JSON would turn those keys into strings.
"""

from __future__ import annotations

import ast
from typing import Any

_CHECKED: dict[str, Any] = {}
"""Bundled file name relative to the spec package (``common.yaml``, ``variants/x.yaml``) ->
its checked data; empty unless :func:`install` was called."""


def dump(documents: dict[str, Any]) -> str:
    """The checked data of bundled rule files as one literal; ValueError if it would not read
    back as the same data (a value that is not a plain literal)."""
    text = repr(documents)
    try:
        same = ast.literal_eval(text) == documents
    except (ValueError, SyntaxError) as exc:
        raise ValueError(f"checked rule data is not a plain literal: {exc}") from exc
    if not same:
        raise ValueError("checked rule data does not survive repr/literal_eval")
    return text


def install(text: str) -> None:
    """Use the rule data written by :func:`dump` for the bundled files it names."""
    data = ast.literal_eval(text)
    if not isinstance(data, dict):
        raise ValueError("checked rule data must be a mapping of file names to data")
    _CHECKED.clear()
    _CHECKED.update(data)


def checked(name: str) -> Any | None:
    """The installed data of bundled file ``name``, or None (then read and check the file)."""
    return _CHECKED.get(name)
