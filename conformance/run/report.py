"""Reports of a conformance run: JSON (schema-stable), JUnit XML, and the terminal.

The JSON report is the record a CI job keeps: the suite and protocol versions, the engine's
hello, when the run started and finished, summary counts, and one record per case with its
status, the first divergent step, expected and actual values, a diff, the rule ids involved and
the path of a minimal reproducing trace. Its keys only grow (new keys may be added in a minor
suite version, none are renamed or removed). JUnit XML is for CI dashboards; the terminal's
output is ``terminal.Terminal``'s. Reports are written whole or not at all (a temporary file
renamed over the target), so a crash or a full disk never leaves half a report.

The JSON lines report (``--jsonl``) is the one that can be read while the run goes on: each
case record as it ends (``"type": "case"``, the objects of the JSON report's ``cases``) and,
during a long case, a ``Progress`` line at each checkpoint (``"type": "progress"``).
"""

from __future__ import annotations

import io
import json
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dominokit.conformance.atomic import write_atomically
from dominokit.conformance.cases.model import STATUSES, Case, Outcome
from dominokit.conformance.kit.driver import Hello
from dominokit.conformance.run.causes import NOT_BLAMED, Cause, cause_of, group
from dominokit.conformance.run.expectations import Expectations, Judgement
from dominokit.conformance.run.printable import printable, xml_safe
from dominokit.spec import ruletext

if TYPE_CHECKING:
    from dominokit.conformance.cases.history import Entry

DIFF_LINES_SHOWN = 80
"""Diff lines printed per failure on the terminal (the JSON report keeps all of them)."""



@dataclass(frozen=True)
class CaseRecord:
    """One case as run: what it is, its outcome, how long it took, and its verdict."""

    case_id: str
    kind: str
    variant: str
    options: dict[str, object]
    covers: tuple[str, ...]
    outcome: Outcome
    seconds: float
    judgement: Judgement
    since: str | None = None
    """The suite version that added or last changed the case."""
    changes: tuple[Entry, ...] = ()
    """What the changelog says about the case since the version given by ``--since``."""

    def to_json(self) -> dict[str, Any]:
        """The case record of the JSON report."""
        expectation = None
        if self.judgement.expected is not None:
            expectation = {"status": self.judgement.expected, "reason": self.judgement.reason}
        return {
            "type": "case",
            "id": self.case_id,
            "kind": self.kind,
            "variant": self.variant,
            "options": self.options,
            "covers": list(self.covers),
            "since": self.since,
            "changes": [{"version": e.version, "section": e.section, "text": e.text}
                        for e in self.changes],
            **self.outcome.to_json(),
            "seconds": round(self.seconds, 4),
            "expectation": expectation,
            "verdict": self.judgement.verdict,
        }


def kit_version() -> str:
    """The installed dominokit package's version (the kit's, not the suite's)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("dominokit")
    except PackageNotFoundError:  # run from a checkout that was never installed
        return "(not installed)"


def _now() -> datetime:
    return datetime.now(UTC)


def _stamp(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat(timespec="seconds").replace(
        "+00:00", "Z")


def hello_json(hello: Hello) -> dict[str, Any]:
    """An engine's hello as JSON (as it answered it: ``capabilities`` only when it listed
    some, as a protocol-1 engine never does)."""
    out: dict[str, Any] = {"name": hello.name, "version": hello.version,
                           "protocol": hello.protocol}
    if hello.capabilities:
        out["capabilities"] = list(hello.capabilities)
    out["variants"] = {vid: {"options": opts} for vid, opts in hello.variants.items()}
    return out


@dataclass
class Report:
    """Everything about one run; ``add`` appends a case, ``finish`` closes the run."""

    suite_version: str
    protocol_version: int
    engine: str
    settings: dict[str, object]
    expectations: Expectations = field(default_factory=Expectations)
    hello: Hello | None = None
    kit_version: str = field(default_factory=kit_version)
    started: datetime = field(default_factory=_now)
    finished: datetime | None = None
    interrupted: bool = False
    stopped: str | None = None
    """Why the run stopped before its last case (budget, engine failures, --maxfail); the
    cases after that point are recorded as ``not_run`` with the same reason."""
    error: str | None = None
    records: list[CaseRecord] = field(default_factory=list)
    unused_expectations: list[str] = field(default_factory=list)
    write_errors: list[str] = field(default_factory=list)
    """Reports that could not be written (the run keeps its verdict; the CLI exits 4)."""
    readings: list[dict[str, Any]] = field(default_factory=list)
    """What ``--diagnose`` found: ``{"rule", "reading", "matches", ...}`` per reading tried."""
    since: str | None = None
    """The suite version the engine's author names (``--since``): failures in cases newer
    than it are counted apart, with what the changelog says about each."""
    published: dict[str, str | Path | None] = field(default_factory=dict)
    """Where the published forms go (``html``, ``markdown``, ``badges``; None: not asked)."""

    def add(self, case: Case, outcome: Outcome, seconds: float) -> CaseRecord:
        """Record one case's outcome, judged against the expectations."""
        from dominokit.conformance.cases import history

        changes: tuple[Entry, ...] = ()
        if self.since is not None:
            changes = tuple(history.load().entries(case.id, self.since))
        record = CaseRecord(case.id, case.kind, case.variant, dict(case.options), case.rules,
                            outcome, seconds, self.expectations.judge(case.id, outcome.status),
                            case.since, changes)
        self.records.append(record)
        return record

    def failing(self) -> list[CaseRecord]:
        """The records that fail the run."""
        return [record for record in self.records if not record.judgement.ok]

    def since_summary(self) -> dict[str, Any] | None:
        """The failures counted against ``since``: how many, how many in newer cases, and
        those by the version that added or changed their case (None without ``--since``)."""
        if self.since is None:
            return None
        from dominokit.conformance.cases.history import version_key

        floor = version_key(self.since)
        by_version: dict[str, int] = {}
        for record in self.failing():
            if record.since is not None and version_key(record.since) > floor:
                by_version[record.since] = by_version.get(record.since, 0) + 1
        return {"version": self.since, "failures": len(self.failing()),
                "newer": sum(by_version.values()),
                "by_version": dict(sorted(by_version.items(),
                                          key=lambda item: version_key(item[0])))}

    def since_lines(self) -> list[str]:
        """``--since 1.0.0: 3 failures, all in cases new in 2.0.0``, then each changelog entry
        behind those failures with the cases it concerns."""
        summary = self.since_summary()
        if summary is None:
            return []
        failures, newer = summary["failures"], summary["newer"]
        versions = ", ".join(summary["by_version"])
        noun = "failure" if failures == 1 else "failures"
        if failures == 0:
            text = "no failures"
        elif newer == failures:
            text = f"{failures} {noun}, all in cases new in {versions}"
        elif newer == 0:
            text = f"{failures} {noun}, none in cases newer than {self.since}"
        else:
            text = (f"{failures} {noun}, {newer} in cases new in {versions}, "
                    f"{failures - newer} in cases of {self.since} or before")
        lines = [f"--since {self.since}: {text}"]
        entries: dict[Entry, list[str]] = {}
        for record in self.failing():
            for entry in record.changes:
                entries.setdefault(entry, []).append(record.case_id)
        for entry, ids in entries.items():
            lines.append(f"  {entry.version} ({entry.section.lower()}): {entry.text}")
            lines.append(f"    failing here: {', '.join(ids)}")
        return lines

    def finish(self, case_ids: list[str]) -> None:
        """Close the run; note expectation entries that matched none of the selected cases."""
        self.finished = _now()
        self.unused_expectations = [e.glob for e in self.expectations.unused(case_ids)]

    def counts(self, records: list[CaseRecord] | None = None) -> dict[str, int]:
        """Cases per status, plus per verdict (expected, unexpected, stale), of ``records``
        (default: all)."""
        chosen = self.records if records is None else records
        out: dict[str, int] = {"total": len(chosen), **dict.fromkeys(STATUSES, 0),
                               "expected": 0, "unexpected": 0, "stale": 0}
        for record in chosen:
            out[record.outcome.status] += 1
            if record.judgement.verdict != "ok":
                out[record.judgement.verdict] += 1
        return out

    def counts_by(self, key: str) -> dict[str, dict[str, int]]:
        """``counts`` per variant (``key="variant"``) or per case kind (``key="kind"``), in
        the order they first ran."""
        groups: dict[str, list[CaseRecord]] = {}
        for record in self.records:
            groups.setdefault(getattr(record, key), []).append(record)
        return {name: self.counts(group) for name, group in groups.items()}

    @property
    def ok(self) -> bool:
        """True when the run passes: it completed, the engine came up, and every applicable
        case passed or ended exactly as the expectations say."""
        return (not self.interrupted and self.error is None
                and all(record.judgement.ok for record in self.records))

    def causes(self) -> list[Cause]:
        """The failing cases grouped by cause (``run.causes``), most cases first."""
        return group(self.records)

    def engine_label(self) -> str:
        """``name version`` from the hello, else the engine as given."""
        return f"{self.hello.name} {self.hello.version}" if self.hello else self.engine

    def summary_line(self) -> str:
        """``dominokit conform: 812 passed, 0 failed, 0 errored, 12 not applicable (...)``."""
        c = self.counts()
        line = f"dominokit conform: {count_text(c)}"
        extra = [f"{c[v]} {v}" for v in ("expected", "unexpected", "stale") if c[v]]
        if self.expectations.entries and extra:
            line += f" [{', '.join(extra)}]"
        line += (f" (suite {self.suite_version}, protocol {self.protocol_version}, "
                 f"kit {self.kit_version}, engine {printable(self.engine_label())})")
        if self.interrupted:
            line += " INTERRUPTED"
        return line

    def summary(self) -> dict[str, Any]:
        """The report's ``summary``: counts, the verdict, counts by variant and kind, and
        the failures counted against ``--since``."""
        return {**self.counts(), "ok": self.ok, "by_variant": self.counts_by("variant"),
                "by_kind": self.counts_by("kind"), "since": self.since_summary()}

    def header_json(self) -> dict[str, Any]:
        """The JSON lines report's first record: what runs, before any case has."""
        return {"type": "header", "suite_version": self.suite_version,
                "protocol_version": self.protocol_version, "kit_version": self.kit_version,
                "engine": self.engine, "settings": self.settings,
                "started": _stamp(self.started)}

    def summary_json(self) -> dict[str, Any]:
        """The JSON lines report's last record: how the run ended, and its summary."""
        return {"type": "summary", "finished": _stamp(self.finished),
                "interrupted": self.interrupted, "stopped": self.stopped,
                "error": self.error, "engine": {"command": self.engine, "hello": hello_json(
                    self.hello) if self.hello else None},
                "protocol_version": self.protocol_version, "summary": self.summary()}

    def to_json(self) -> dict[str, Any]:
        """The JSON report (see the module docstring)."""
        causes = self.causes()
        of = cause_of(causes)
        blame = {case_id: cause.rule for cause in causes for case_id in cause.cases}
        return {
            "suite_version": self.suite_version,
            "protocol_version": self.protocol_version,
            "kit_version": self.kit_version,
            "engine": {"command": self.engine,
                       "hello": hello_json(self.hello) if self.hello else None},
            "settings": self.settings,
            "started": _stamp(self.started),
            "finished": _stamp(self.finished),
            "interrupted": self.interrupted,
            "stopped": self.stopped,
            "error": self.error,
            "expectations": {"file": self.expectations.source,
                             "unused": self.unused_expectations}
            if self.expectations.entries else None,
            "summary": self.summary(),
            "causes": [cause.to_json() for cause in causes],
            "readings": list(self.readings),
            "rules": ruletext.cited(sorted({rule for record in self.records
                                            for rule in record.outcome.rules})),
            "cases": [{**record.to_json(), "cause": of.get(record.case_id),
                       "blame": blame.get(record.case_id)} for record in self.records],
        }

    def json_bytes(self) -> bytes:
        """The JSON report as written. A lone surrogate (none should reach here: the reply
        reader refuses them) is written as its JSON escape, so the report is still written,
        and still JSON."""
        text = json.dumps(self.to_json(), indent=2, ensure_ascii=False) + "\n"
        return text.encode("utf-8", "backslashreplace")

    def write_json(self, path: str | Path) -> None:
        """Write the JSON report whole (parent directories are made); OSError if it cannot."""
        write_atomically(path, self.json_bytes(), make_parents=True)

    def junit(self) -> ET.ElementTree:
        """The run as JUnit XML: one testcase per case; failure, error or skipped elements.

        Expected departures are "skipped" (with the reason) and stale expectations "failure",
        so a dashboard agrees with the exit status.
        """
        counts = self.counts()
        seconds = sum(r.seconds for r in self.records)
        failures = sum(1 for r in self.records if _junit_kind(r) == "failure")
        errors = sum(1 for r in self.records if _junit_kind(r) == "error")
        skipped = sum(1 for r in self.records if _junit_kind(r) == "skipped")
        attrs = {"name": "dominokit-conformance", "tests": str(counts["total"]),
                 "failures": str(failures), "errors": str(errors), "skipped": str(skipped),
                 "time": f"{seconds:.3f}"}
        root = ET.Element("testsuites", attrs)
        suite = ET.SubElement(root, "testsuite",
                              {**attrs, "name": "dominokit conform",
                               "timestamp": _stamp(self.started) or ""})
        properties = ET.SubElement(suite, "properties")
        for name, value in (("suite_version", self.suite_version),
                            ("protocol_version", str(self.protocol_version)),
                            ("kit_version", self.kit_version),
                            ("engine", self.engine_label())):
            ET.SubElement(properties, "property", {"name": name, "value": value})
        for record in self.records:
            testcase = ET.SubElement(suite, "testcase", {
                "classname": f"{record.kind}.{record.variant}", "name": record.case_id,
                "time": f"{record.seconds:.3f}"})
            kind = _junit_kind(record)
            if kind is None:
                continue
            outcome = record.outcome
            if kind == "skipped":
                message = outcome.message
                if record.judgement.verdict == "expected":
                    message = (f"expected {record.judgement.expected}: "
                               f"{record.judgement.reason}")
                attributes = {"message": _first_line(message)}
                if outcome.status == "not_run":
                    attributes["type"] = "not_run"
                ET.SubElement(testcase, "skipped", attributes)
                continue
            element = ET.SubElement(testcase, kind, {
                "message": _first_line(headline(record.case_id, outcome, record.judgement)),
                "type": outcome.failure_kind or outcome.status})
            element.text = format_outcome(record.case_id, outcome, record.judgement)
        trouble = [text for text in (self.error, self.stopped and f"stopped: {self.stopped}")
                   if text]
        if trouble:
            ET.SubElement(suite, "system-err").text = "\n".join(trouble)
        for element in root.iter():  # whatever an engine said, the XML stays well-formed
            if element.text:
                element.text = xml_safe(element.text)
            for name, value in element.attrib.items():
                element.set(name, xml_safe(value))
        ET.indent(root)
        return ET.ElementTree(root)

    def junit_bytes(self) -> bytes:
        """The JUnit XML report as written."""
        buffer = io.BytesIO()
        self.junit().write(buffer, encoding="utf-8", xml_declaration=True)
        return buffer.getvalue() + b"\n"

    def write_junit(self, path: str | Path) -> None:
        """Write the JUnit XML report whole (parent directories are made); OSError if not."""
        write_atomically(path, self.junit_bytes(), make_parents=True)


def count_text(counts: dict[str, int]) -> str:
    """``812 passed, 0 failed, 0 errored, 12 not applicable`` (``, N not run`` when any)."""
    text = (f"{counts['passed']} passed, {counts['failed']} failed, "
            f"{counts['errored']} errored, {counts['not_applicable']} not applicable")
    return text + (f", {counts['not_run']} not run" if counts["not_run"] else "")


def _junit_kind(record: CaseRecord) -> str | None:
    verdict = record.judgement.verdict
    status = record.outcome.status
    if verdict == "expected" or status in ("not_applicable", "not_run"):
        return "skipped"
    if verdict == "stale" or status == "failed":
        return "failure"
    if status == "errored":
        return "error"
    return None


def _first_line(text: str) -> str:
    return text.strip().splitlines()[0] if text.strip() else ""


HEADLINE_WIDTH = 200
"""Characters of a headline, two lines of a terminal at most (the block says the rest)."""


def headline(case_id: str, outcome: Outcome, judgement: Judgement | None = None,
             width: int | None = HEADLINE_WIDTH) -> str:
    """``FAILED id: message`` on one line, cut to ``width`` characters (None: whole);
    stale expectations say so."""
    if judgement is not None and judgement.verdict == "stale":
        return (f"STALE {case_id}: expected {judgement.expected} ({judgement.reason}) "
                "but it passed; remove the expectation")
    label = {"failed": "FAILED", "errored": "ERRORED", "passed": "PASSED",
             "not_applicable": "NOT APPLICABLE", "not_run": "NOT RUN"}[outcome.status]
    if outcome.failure_kind:
        label += f" ({outcome.failure_kind})"
    head = printable(f"{label} {case_id}: ")
    message = printable(_first_line(outcome.message))
    room = max((width or 0) - len(head), 40)
    if width is not None and len(message) > room:
        message = message[: room - 3] + "..."
    return head + message


def rule_lines(rule_ids: Sequence[str], indent: str = "  ") -> list[str]:
    """The rule a failure is blamed on, in words (title, one-line statement, where to read
    the rest), then the other rules it concerns by id."""
    blamed = next((r for r in rule_ids if r not in NOT_BLAMED), None)
    if blamed is None:
        return [f"{indent}rules: {', '.join(rule_ids)}"] if rule_ids else []
    try:
        words = ruletext.find(blamed)
    except KeyError:
        lines = [f"{indent}rule: {blamed}"]
    else:
        lines = [f"{indent}rule: {blamed} {words.title()}: {words.one_line()}",
                 f"{indent}      read it: dominokit rule {blamed} ({words.page()})"]
    others = [r for r in rule_ids if r != blamed]
    if others:
        lines.append(f"{indent}also concerns: {', '.join(others)}")
    return lines


def format_outcome(case_id: str, outcome: Outcome, judgement: Judgement | None = None,
                   diff_lines: int | None = DIFF_LINES_SHOWN, *, verbose: bool = False,
                   width: int | None = HEADLINE_WIDTH) -> str:
    """A failure as text, the same for the CLI and the pytest plugin: the headline, the rule
    it is blamed on in words, the first divergent step, the rest of the message, the differing
    paths, and the repro trace path; ``verbose`` adds both answers in full, and ``width``
    None keeps the headline whole (one replayed file: its path is part of the message)."""
    lines = [headline(case_id, outcome, judgement, width)]
    if judgement is not None and judgement.verdict == "stale":
        return lines[0]
    lines.extend(rule_lines(outcome.rules))
    if outcome.knock_on:
        lines.append("  a knock-on: this only follows from an earlier divergence (see the "
                     "causes at the end of the run)")
    if outcome.hand is not None or outcome.step is not None:
        where = [f"hand {outcome.hand}"] if outcome.hand is not None else []
        if outcome.step is not None:
            where.append(f"after {outcome.step} action{'s' if outcome.step != 1 else ''}")
        lines.append(f"  first divergence: {', '.join(where)}")
    message = printable(outcome.message).strip().splitlines()
    if verbose and message and headline(case_id, outcome, judgement, width).endswith("..."):
        lines.append(f"  {message[0]}")  # the headline's whole line (the report has it too)
    lines.extend(f"  {line}" for line in message[1:])
    if outcome.diff:
        diff = outcome.diff.rstrip("\n").splitlines()
        if diff_lines is not None and len(diff) > diff_lines:
            diff = [*diff[:diff_lines], f"... ({len(diff) - diff_lines} more diff lines "
                    "in the JSON report)"]
        lines.extend(f"    {printable(line)}" for line in diff)
    if verbose and (outcome.expected is not None or outcome.got is not None):
        expected = printable(json.dumps(outcome.expected, sort_keys=True))
        got = printable(json.dumps(outcome.got, sort_keys=True))
        lines.append(f"  expected: {expected}")
        lines.append(f"  got:      {got}")
    if outcome.repro:
        lines.append(f"  repro: {outcome.repro}")
    lines.extend(f"  repro: {path}" for path in outcome.repros[1:])
    return "\n".join(lines)
