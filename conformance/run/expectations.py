"""Known departures: which cases an engine is expected to fail, and why.

An engine that deliberately differs from a ruling (or lacks a feature) still wants a green run
that catches regressions, so an expectations file lists case-id globs with the status they are
expected to end in and a reason. The run then passes when every applicable case passed or
ended exactly as expected; a case expected to fail that passes is a *stale* expectation and
fails the run, so the file cannot silently outlive the departure it describes.

File format (YAML), a list of entries, each one glob mapped to a status plus a reason::

    - "golden/poldomino/catch-*": failed
      reason: "we score catches by the older club rules"
    - "match/progressive/*": not_applicable
      reason: "no match support yet"
"""

from __future__ import annotations

from dataclasses import dataclass
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Literal

from dominokit.reference.errors import DominokitError
from dominokit.spec.suggest import did_you_mean
from dominokit.spec.yamldoc import NO_DOCUMENT, load_yaml_with_marks, read_limited

EXPECTABLE = ("failed", "errored", "not_applicable")
"""Statuses an entry may expect (expecting "passed" is what no entry means)."""

Verdict = Literal["ok", "expected", "unexpected", "stale"]
"""How a case's status stands against the expectations: ``ok`` (passed or not applicable with
no entry, or not applicable against an entry), ``expected`` (ended as its entry says),
``unexpected`` (failed or errored with no entry, or not as its entry says), ``stale`` (its
entry expects a departure but it passed)."""


class ExpectationsError(DominokitError, ValueError):
    """An expectations file that cannot be read; the message names file and line."""


@dataclass(frozen=True)
class Expectation:
    """One entry: case ids matching ``glob`` are expected to end as ``status``."""

    glob: str
    status: str
    reason: str
    line: int = 0

    def matches(self, case_id: str) -> bool:
        """True when ``case_id`` matches the glob (fnmatch, case-sensitive)."""
        return fnmatchcase(case_id, self.glob)


@dataclass(frozen=True)
class Judgement:
    """A case's status judged against the expectations."""

    verdict: Verdict
    expected: str | None = None
    reason: str | None = None

    @property
    def ok(self) -> bool:
        """True when this case lets the run pass."""
        return self.verdict in ("ok", "expected")


@dataclass(frozen=True)
class Expectations:
    """The entries of one file, in order; the first entry whose glob matches a case applies."""

    entries: tuple[Expectation, ...] = ()
    source: str = ""

    def lookup(self, case_id: str) -> Expectation | None:
        """The entry that applies to ``case_id``, or None."""
        return next((e for e in self.entries if e.matches(case_id)), None)

    def judge(self, case_id: str, status: str) -> Judgement:
        """How ``status`` of ``case_id`` stands (see ``Verdict``)."""
        entry = self.lookup(case_id)
        if entry is None:
            return Judgement("ok" if status in ("passed", "not_applicable") else "unexpected")
        if status == entry.status:
            return Judgement("expected", entry.status, entry.reason)
        if status == "passed":
            return Judgement("stale", entry.status, entry.reason)
        if status == "not_applicable":
            return Judgement("ok", entry.status, entry.reason)
        return Judgement("unexpected", entry.status, entry.reason)

    def unused(self, case_ids: list[str]) -> list[Expectation]:
        """Entries that match none of ``case_ids`` (worth a warning: a typo or a removed case)."""
        return [e for e in self.entries if not any(e.matches(i) for i in case_ids)]


def parse_expectations(text: str | bytes, source: str = "<expectations>") -> Expectations:
    """Read the YAML text of an expectations file; ExpectationsError says where it is wrong.

    The text goes through the kit's one YAML reader, so the same limits hold as for every file
    the kit reads (size, node count, no anchors or aliases); an empty file expects nothing.
    """
    document = load_yaml_with_marks(text, source)
    if document.problems:
        if [p.message for p in document.problems] == [NO_DOCUMENT]:
            return Expectations((), source)
        first, *others = document.problems
        more = f" (and {len(others)} more problem(s))" if others else ""
        raise ExpectationsError(f"{first}{more}")
    if not isinstance(document.data, list):
        line = document.position(())[0]
        raise ExpectationsError(f"{source}:{line}: expected a list of entries")
    return Expectations(tuple(_entry(entry, source, document.position((index,))[0])
                              for index, entry in enumerate(document.data)), source)


def load_expectations(path: str | Path) -> Expectations:
    """Read an expectations file (a usage error when it cannot be read or is over the limit)."""
    try:
        raw = read_limited(Path(path))
    except OSError as error:
        raise ExpectationsError(f"cannot read expectations file {path}: "
                                f"{error.strerror or error}") from None
    return parse_expectations(raw, str(path))


def _entry(data: object, source: str, line: int) -> Expectation:
    where = f"{source}:{line}"
    if not isinstance(data, dict):
        raise ExpectationsError(f"{where}: an entry is a mapping {{GLOB: STATUS, reason: ...}}")
    data = dict(data)
    reason = data.pop("reason", None)
    if reason is None:
        for key in map(str, data):
            if hint := did_you_mean(key, ["reason"]):
                raise ExpectationsError(f"{where}: unknown key {key!r}{hint}")
    if not isinstance(reason, str) or not reason.strip():
        raise ExpectationsError(f"{where}: every entry needs a reason (a non-empty string)")
    if len(data) != 1:
        raise ExpectationsError(
            f"{where}: an entry maps exactly one case-id glob to a status, "
            f"got {sorted(map(str, data))}"
        )
    ((glob, status),) = data.items()
    if not isinstance(glob, str) or not glob:
        raise ExpectationsError(f"{where}: the case-id glob must be a string, got {glob!r}")
    if status not in EXPECTABLE:
        raise ExpectationsError(
            f"{where}: status of {glob!r} must be one of {', '.join(EXPECTABLE)}, got {status!r}"
        )
    return Expectation(glob, str(status), reason.strip(), line)
