"""The one stable YAML layout of trace files, so that regenerating a trace gives a clean diff.

Keys keep their order; short values flow on one line (JSON-like, with plain scalars where
YAML reads them back unchanged); long ones become blocks; multi-line text becomes a literal
block. The text is read back and compared before it is returned.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Mapping
from typing import Any

import yaml

from dominokit.conformance.traces.model import same_json

LINE_WIDTH = 100
_FAST_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


_PLAIN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_\-@.+/]*")


@functools.lru_cache(maxsize=8192)
def _reads_back_plain(text: str) -> bool:
    """True when ``text`` may be written unquoted: YAML reads it back as the same string."""
    return bool(_PLAIN.fullmatch(text)) and yaml.safe_load(text) == text


def _scalar(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return value if _reads_back_plain(value) else json.dumps(value, ensure_ascii=False)
    raise TypeError(f"cannot write {value!r} in a trace")


def _flow(value: Any) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_flow(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_scalar(k)}: {_flow(v)}" for k, v in value.items()) + "}"
    return _scalar(value)


def _wrapped_list(items: list[Any], indent: int, first: int) -> list[str]:
    """A flow list broken over lines of at most LINE_WIDTH, continued at ``indent``."""
    parts = [_flow(item) for item in items]
    lines: list[str] = []
    current = "["
    width = LINE_WIDTH - first
    for i, part in enumerate(parts):
        piece = part + ("]" if i == len(parts) - 1 else ",")
        if len(current) + len(piece) + 1 > width and current not in ("[", ""):
            lines.append(current.rstrip())
            current = " " * indent
            width = LINE_WIDTH
        current += piece if current.endswith(("[", " ")) else " " + piece
    lines.append(current)
    return lines


def _is_scalar_list(value: Any) -> bool:
    return isinstance(value, list) and all(not isinstance(v, (list, dict)) for v in value)


def _emit(key_prefix: str, value: Any, indent: int) -> list[str]:
    """Lines for ``value`` introduced by ``key_prefix`` (``key:`` or ``-``) at ``indent``."""
    pad = " " * indent
    head = f"{pad}{key_prefix}"
    if isinstance(value, str) and "\n" in value and not value.startswith(" "):
        chomp = "|" if value.endswith("\n") else "|-"
        body = value[:-1] if value.endswith("\n") else value
        return [f"{head} {chomp}"] + [
            (f"{pad}  {line}" if line else "") for line in body.split("\n")
        ]
    flow = _flow(value)
    if len(head) + 1 + len(flow) <= LINE_WIDTH or not isinstance(value, (list, dict)):
        return [f"{head} {flow}"]
    if isinstance(value, list) and _is_scalar_list(value):
        wrapped = _wrapped_list(value, indent + 2, len(head) + 1)
        return [f"{head} {wrapped[0]}", *wrapped[1:]]
    lines = [head]
    if isinstance(value, list):
        for item in value:
            lines.extend(_emit_item(item, indent + 2))
    else:
        for k, v in value.items():
            lines.extend(_emit(f"{_scalar(k)}:", v, indent + 2))
    return lines


def _emit_item(item: Any, indent: int) -> list[str]:
    """A block-sequence item: a mapping starts on the dash line, anything else flows."""
    if not isinstance(item, dict) or not item or len(" " * indent + "- " + _flow(item)) <= \
            LINE_WIDTH:
        return _emit("-", item, indent)
    lines: list[str] = []
    for n, (k, v) in enumerate(item.items()):
        sub = _emit(f"{_scalar(k)}:", v, indent + 2)
        if n == 0:
            sub[0] = " " * indent + "- " + sub[0].lstrip()
        lines.extend(sub)
    return lines


def dump_trace(data: Mapping[str, Any], header: str = "") -> str:
    """The trace as YAML in the one stable layout used for every bundled trace.

    Keys keep their order; short values flow on one line, long ones become blocks. The
    text is read back and compared, so a layout bug can never change a trace's meaning.
    """
    lines = [header] if header else []
    for key, value in data.items():
        lines.extend(_emit(f"{_scalar(key)}:", value, 0))
    text = "\n".join(lines) + "\n"
    if not same_json(yaml.load(text, Loader=_FAST_LOADER), dict(data)):
        raise AssertionError("trace layout does not round-trip; please report this bug")
    return text
