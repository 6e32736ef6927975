"""The difference of two JSON values as JSON paths: ``$.result.terms[1].points: 30 -> 25``.

A line diff of indented JSON shows a moved comma as a change and hides a changed number among
unchanged lines; a list of paths shows only what differs. Long lists of strings (legal actions,
tiles) are compared as sets first, since their order is canonical and a missing action matters
more than where it would have stood; then, if the sets agree, by count.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Final

ABSENT: Final = "absent"
"""How a side that has no value at a path is shown (never ``null``, which is a value)."""

EXAMPLES: Final = 3
"""How many members of a set difference are named (the JSON report keeps both values)."""

_KEY: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


class _Absent:
    def __repr__(self) -> str:
        return ABSENT


MISSING: Final = _Absent()


@dataclass(frozen=True)
class Difference:
    """One path where the values differ; ``expected`` or ``got`` is MISSING when absent, and
    ``note`` replaces both for a set comparison ("2 missing, for example ...")."""

    path: str
    expected: Any
    got: Any
    note: str = ""

    def text(self, width: int = 120) -> str:
        """``$.path: expected -> got`` (each value cut to ``width`` characters)."""
        if self.note:
            return f"{self.path}: {self.note}"
        return f"{self.path}: {_show(self.expected, width)} -> {_show(self.got, width)}"


def _show(value: Any, width: int) -> str:
    if value is MISSING:
        return ABSENT
    text = json.dumps(value, sort_keys=True, ensure_ascii=False)
    return text if len(text) <= width else text[: width - 3] + "..."


def _key(path: str, key: str) -> str:
    return f"{path}.{key}" if _KEY.match(key) else f"{path}[{json.dumps(key)}]"


def _is_set_like(items: list[Any]) -> bool:
    return all(isinstance(item, str) for item in items)


def _examples(items: list[Any]) -> str:
    shown = ", ".join(str(item) for item in items[:EXAMPLES])
    return shown + (", ..." if len(items) > EXAMPLES else "")


def _set_note(expected: list[Any], got: list[Any]) -> str | None:
    """``2 missing, for example 4-5@R4; 1 extra, for example 4-6@R4`` (None: same sets)."""
    missing = sorted(set(expected) - set(got))
    extra = sorted(set(got) - set(expected))
    if not missing and not extra:
        if len(expected) == len(got):
            return None
        return f"the same members, {len(expected)} expected -> {len(got)} listed (repeats)"
    parts = [f"{len(missing)} missing, for example {_examples(missing)}" if missing
             else "none missing",
             f"{len(extra)} extra, for example {_examples(extra)}" if extra else "none extra"]
    return "; ".join(parts)


def differences(expected: Any, got: Any, path: str = "$") -> list[Difference]:
    """Every path where ``got`` differs from ``expected`` (dict keys sorted, lists by index;
    lists of strings as sets)."""
    if isinstance(expected, dict) and isinstance(got, dict):
        out: list[Difference] = []
        for key in sorted(set(expected) | set(got), key=str):
            out += differences(expected.get(key, MISSING), got.get(key, MISSING),
                               _key(path, str(key)))
        return out
    if isinstance(expected, list) and isinstance(got, list):
        if (expected or got) and _is_set_like(expected) and _is_set_like(got):
            note = _set_note(expected, got)
            if note is None:
                return [] if expected == got else [Difference(path, expected, got)]
            return [Difference(path, expected, got, note)]
        out = []
        for index in range(max(len(expected), len(got))):
            out += differences(expected[index] if index < len(expected) else MISSING,
                               got[index] if index < len(got) else MISSING, f"{path}[{index}]")
        return out
    if expected is MISSING or got is MISSING:
        return [] if expected is got else [Difference(path, expected, got)]
    if json.dumps(expected, sort_keys=True) == json.dumps(got, sort_keys=True):
        return []
    return [Difference(path, expected, got)]


def diff_lines(expected: Any, got: Any, limit: int | None = None) -> list[str]:
    """The differences as text lines, at most ``limit`` (then a count of the rest)."""
    found = [d.text() for d in differences(expected, got)]
    if limit is not None and len(found) > limit:
        found = [*found[:limit], f"... and {len(found) - limit} more differing paths"]
    return found
