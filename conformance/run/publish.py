"""Published forms of a run besides the HTML page: a Markdown summary for a CI job page, and
one shields.io endpoint badge per variant.

Both are built from the JSON report's data. The Markdown fits GitHub's job summary
(``$GITHUB_STEP_SUMMARY``): the verdict, the counts by variant and kind, the causes when the
report has them, and each failure in a line with its rules and repro. A badge is the JSON that
``https://img.shields.io/endpoint?url=...`` reads (``schemaVersion``, ``label``, ``message``,
``color``), one file per variant the run judged, named ``<variant>.json``.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from dominokit.conformance.atomic import write_atomically
from dominokit.conformance.run.html import engine_label, failing, render
from dominokit.conformance.run.report import Report

JsonObject = Mapping[str, Any]
STATUSES = ("passed", "failed", "errored", "not_applicable", "not_run")


def _cell(text: object) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def markdown(data: JsonObject) -> str:
    """The run as Markdown."""
    summary = data.get("summary", {})
    verdict = "passed" if summary.get("ok") else "FAILED"
    lines = [f"## dominokit conformance: {_cell(engine_label(data))} {verdict}", "",
             f"Suite {data.get('suite_version')}, protocol {data.get('protocol_version')}, "
             f"kit {data.get('kit_version')}.", ""]
    for key, label in (("error", "The engine could not be used"),
                       ("stopped", "The run stopped early")):
        if data.get(key):
            lines += [f"**{label}:** {_cell(data[key])}", ""]
    header = "| | " + " | ".join(s.replace("_", " ") for s in STATUSES) + " | total |"
    rule = "|---" * (len(STATUSES) + 2) + "|"
    rows = [("**all**", summary), *sorted((summary.get("by_variant") or {}).items()),
            *sorted((summary.get("by_kind") or {}).items())]
    lines += [header, rule]
    lines += [f"| {_cell(name)} | " + " | ".join(str(counts.get(s, 0)) for s in STATUSES)
              + f" | {counts.get('total', 0)} |" for name, counts in rows]
    since = summary.get("since")
    if since:
        by = ", ".join(f"{v}: {n}" for v, n in since["by_version"].items()) or "none"
        lines += ["", f"Against suite {since['version']}: {since['failures']} failures, "
                  f"{since['newer']} in cases added or changed since ({by})."]
    causes = data.get("causes")
    if causes:
        lines += ["", "### Causes", ""]
        items = causes if isinstance(causes, list) else [causes]
        for cause in items:
            if isinstance(cause, dict):
                words = " — ".join(str(cause[k]) for k in ("cause", "title", "rule", "summary",
                                                          "message") if cause.get(k))
                cases = ", ".join(f"`{c}`" for c in cause.get("cases") or [])
                lines.append(f"- {_cell(words) or 'cause'}" + (f" ({cases})" if cases else ""))
            else:
                lines.append(f"- {_cell(cause)}")
    failures = failing(data)
    if failures:
        lines += ["", f"### Failures ({len(failures)})", ""]
        for case in failures:
            first = (str(case.get("message") or "").strip().splitlines() or [""])[0]
            rules = f" [{', '.join(case['rules'])}]" if case.get("rules") else ""
            repro = f" — repro `{case['repro']}`" if case.get("repro") else ""
            lines.append(f"- **{str(case['status']).upper()}** `{case['id']}`{rules}: "
                         f"{_cell(first)}{repro}")
    return "\n".join(lines) + "\n"


def badges(data: JsonObject) -> dict[str, dict[str, Any]]:
    """One shields.io endpoint badge per variant with a case that applied, by variant."""
    out: dict[str, dict[str, Any]] = {}
    suite = data.get("suite_version")
    for variant, counts in sorted((data.get("summary", {}).get("by_variant") or {}).items()):
        judged = counts.get("passed", 0) + counts.get("failed", 0) + counts.get("errored", 0)
        if judged == 0:
            continue
        bad = counts.get("unexpected", 0) + counts.get("stale", 0)
        message = (f"{counts.get('passed', 0)}/{judged} passed" if bad
                   else f"passing ({counts.get('passed', 0)}/{judged})")
        colour = "red" if bad else "brightgreen"
        if bad and counts.get("passed", 0) * 2 >= judged:
            colour = "orange"
        out[variant] = {"schemaVersion": 1, "label": f"dominokit {variant} (suite {suite})",
                        "message": message, "color": colour}
    return out


def write_published(report: Report) -> None:
    """Write the published forms the run asked for (``Report.published``: the HTML page, the
    Markdown summary, the badges); one that cannot be written is a write error of the run."""
    wanted = {name: path for name, path in report.published.items() if path is not None}
    if not wanted:
        return
    data = report.to_json()
    for name, path in wanted.items():
        try:
            if name == "badges":
                for variant, badge in badges(data).items():
                    write_atomically(Path(path) / f"{variant}.json",
                                     (json.dumps(badge, indent=1) + "\n").encode("utf-8"),
                                     make_parents=True)
                continue
            text = render(data) if name == "html" else markdown(data)
            if str(path) == "-":
                sys.stdout.write(text)
                sys.stdout.flush()
            else:
                write_atomically(path, text.encode("utf-8"), make_parents=True)
        except OSError as error:
            report.write_errors.append(
                f"cannot write the {name} report to {path}: {error.strerror or error}")
