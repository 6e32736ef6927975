"""Failures grouped by cause: one planted bug is one cause, however many cases it fails.

A cause is the rule the reference cites at a case's first divergence, within one variant: a
parity slip fails golden traces, perft counts, random games and rejection cases, and every one
of them first diverges where a legal list is wrong under the parity rule. A failure that only
follows from an earlier divergence (``Outcome.knock_on``: a refused step on the way to a
position, a refused request the case needs) is never a cause of its own: it joins the cause of
its variant with the same rule, else the variant's largest cause, and is blamed on that
cause's rule, not on whatever the engine cited when it refused.

Each cause names where it first showed (the case with the shortest repro, its position and the
first differing path, expected against got), and one repro to replay.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from dominokit.conformance.cases.jsondiff import differences

if TYPE_CHECKING:
    from dominokit.conformance.run.report import CaseRecord

NOT_BLAMED: Final = frozenset({"R-ALL-11"})
"""Rules a failure lists but never blames: perft's definition (no engine breaks it alone)."""


@dataclass
class Cause:
    """One cause: its rule (None: the engine failed, not a rule), where it first showed, and
    its cases (``knock_ons`` the ones that only follow from it)."""

    id: str
    variant: str
    rule: str | None
    label: str
    records: list[CaseRecord] = field(default_factory=list)
    knock_ons: list[CaseRecord] = field(default_factory=list)

    @property
    def cases(self) -> list[str]:
        """Every case of the cause, the first divergences first."""
        return [r.case_id for r in (*self.records, *self.knock_ons)]

    def first(self) -> CaseRecord:
        """The case that shows the cause best: the shortest repro among its own failures."""
        pool = self.records or self.knock_ons
        with_repro = [r for r in pool if r.outcome.repro]
        return min(with_repro or pool, key=_shortness)

    def where(self) -> str:
        """``case, hand 2, after 3 actions`` for the first case."""
        record = self.first()
        parts = [record.case_id]
        if record.outcome.hand is not None:
            parts.append(f"hand {record.outcome.hand}")
        if record.outcome.step is not None:
            s = record.outcome.step
            parts.append(f"after {s} action{'s' if s != 1 else ''}")
        return ", ".join(parts)

    def difference(self) -> tuple[str, Any, Any]:
        """The first differing path of the first case, with the two values there."""
        outcome = self.first().outcome
        found = differences(outcome.expected, outcome.got)
        # the case's own diff words it best ("no such event"); its first line names the sides
        shown = outcome.diff.splitlines()[1:2]
        if not found:
            return (shown[0] if shown else "", outcome.expected, outcome.got)
        first = found[0]
        text = shown[0] if shown else (f"{first.path}: {first.note}" if first.note
                                       else first.text())
        if first.note:
            return (text, first.expected, first.got)
        return (text, _plain(first.expected), _plain(first.got))

    def to_json(self) -> dict[str, Any]:
        """The cause as the JSON report lists it."""
        path, expected, got = self.difference()
        first = self.first()
        return {"id": self.id, "variant": self.variant, "rule": self.rule,
                "where": self.where() + (f": {path}" if path else ""),
                "expected": expected, "got": got, "cases": self.cases,
                "knock_ons": [r.case_id for r in self.knock_ons],
                "repro": first.outcome.repro}


def _plain(value: Any) -> Any:
    return None if repr(value) == "absent" else value


def _shortness(record: CaseRecord) -> tuple[int, int, str]:
    """Fewest actions to the divergence, then the smallest repro file, then the id."""
    outcome = record.outcome
    size = 0
    if outcome.repro:
        try:
            size = os.path.getsize(outcome.repro)
        except OSError:
            size = 1 << 30
    return (outcome.step or 0, size, record.case_id)


def blamed(record: CaseRecord) -> str | None:
    """The rule a failing case is blamed on: the first it names that a failure can blame."""
    return next((r for r in record.outcome.rules if r not in NOT_BLAMED), None)


def failing(records: Sequence[CaseRecord]) -> list[CaseRecord]:
    """The records that fail the run (not the expected departures, not those never run)."""
    return [r for r in records if r.outcome.status in ("failed", "errored")
            and r.judgement.verdict in ("ok", "unexpected")]


def group(records: Sequence[CaseRecord]) -> list[Cause]:
    """The causes of the failing records, most cases first (ids C1, C2, ... in that order)."""
    primaries: dict[tuple[str, str | None, str], Cause] = {}
    pending: list[CaseRecord] = []
    for record in failing(records):
        if record.outcome.knock_on:
            pending.append(record)
            continue
        key = _key(record)
        cause = primaries.setdefault(key, Cause("", record.variant, key[1], key[2]))
        cause.records.append(record)
    for record in pending:
        rule = blamed(record)
        same_variant = [c for c in primaries.values()
                        if c.variant == record.variant and c.label == ""]
        target = next((c for c in same_variant if c.rule == rule), None)
        if target is None and same_variant:
            target = max(same_variant, key=lambda c: len(c.records))
        if target is None:
            key = (record.variant, rule, "")
            target = primaries.setdefault(key, Cause("", record.variant, rule, ""))
        target.knock_ons.append(record)
    ordered = sorted(primaries.values(),
                     key=lambda c: (-len(c.cases), c.variant, c.rule or "", c.label))
    for number, cause in enumerate(ordered, 1):
        cause.id = f"C{number}"
    return ordered


def _key(record: CaseRecord) -> tuple[str, str | None, str]:
    """(variant, rule, label): an engine that crashed or timed out is a cause by itself,
    whatever rule the case is about."""
    if record.outcome.status == "errored":
        return (record.variant, None, f"engine {record.outcome.failure_kind or 'error'}")
    rule = blamed(record)
    if rule is None:  # the contract's, not a rule's (an undo that restores too little)
        return (record.variant, None, "the protocol (spec/protocol.md)")
    return (record.variant, rule, "")


def cause_of(causes: Sequence[Cause]) -> dict[str, str]:
    """Case id -> the id of its cause."""
    return {case_id: cause.id for cause in causes for case_id in cause.cases}
