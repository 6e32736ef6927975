"""``dominokit bench``: run the sections, print a table, write JSON and the Performance page.

Timings never decide the exit status (a slow machine is not a failure): the command exits 0
when it has measured, 4 for a usage error (an unknown section, a file it cannot write).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import sys
import time
from pathlib import Path
from typing import Any

from dominokit.bench import targets
from dominokit.conformance.exit_status import ExitStatus

BEGIN = "<!-- bench:results:begin -->"
END = "<!-- bench:results:end -->"
"""The page's generated part lies between these two lines; the rest is written by hand."""

FORMAT = 1
"""Version of the JSON layout (``format``), raised when a field changes meaning."""


def add_bench_parser(commands: Any) -> None:
    """The ``bench`` subcommand's arguments (names only: sections are found when it runs)."""
    bench = commands.add_parser(
        "bench", help="measure the reference engine and the kit; print a table, write JSON",
        description="Measure the reference engine and the kit (medians over repeated runs, "
        "ratios from interleaved runs). Timings never change the exit status.")
    bench.add_argument("--quick", action="store_true",
                       help="a few short runs per figure (seconds, not minutes): checks that "
                       "the benchmark works, not how fast anything is")
    bench.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    bench.add_argument("--section", nargs="+", metavar="NAME",
                       help="run only these sections (default: all; names in the table)")
    bench.add_argument("--write-page", metavar="PAGE",
                       help="render the results into this Markdown page between its "
                       f"'{BEGIN}' and '{END}' lines (e.g. docs/performance.md)")


def run_bench(args: argparse.Namespace) -> int:
    """Run the chosen sections and report them; see the module docstring for the status."""
    from dominokit.bench.registry import sections

    available = sections()
    names = [s.name for s in available]
    wanted = args.section or names
    unknown = [name for name in wanted if name not in names]
    if unknown:
        print(f"dominokit bench: unknown section {', '.join(unknown)}; expected one of "
              f"{', '.join(names)}", file=sys.stderr)
        return ExitStatus.USAGE_ERROR
    problem = _unwritable(args.json) or _page_problem(args.write_page)
    if problem:
        print(f"dominokit bench: {problem}", file=sys.stderr)
        return ExitStatus.USAGE_ERROR
    began = time.perf_counter()
    report: dict[str, Any] = {
        "format": FORMAT,
        "command": "dominokit bench" + (" --quick" if args.quick else ""),
        "quick": bool(args.quick),
        "started": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "machine": _machine(),
        "sections": [],
    }
    for section in available:
        if section.name not in wanted:
            continue
        print(f"{section.order}. {section.title} [{section.name}]", flush=True)
        started = time.perf_counter()
        result = section.run(bool(args.quick), lambda line: print(line, flush=True))
        entry = {
            "name": section.name, "order": section.order, "title": section.title,
            "seconds": round(time.perf_counter() - started, 3),
            "figures": [f.to_json() for f in result.figures],
            "ratios": [r.to_json() for r in result.ratios],
            "notes": list(result.notes),
        }
        report["sections"].append(entry)
        print(render_text(entry), flush=True)
    rows = _targets(report, bool(args.quick))
    report["targets"] = [row.to_json() for row in rows]
    print(targets.render_text(rows), flush=True)
    report["seconds"] = round(time.perf_counter() - began, 3)
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {args.json}")
    if args.write_page:
        write_page(Path(args.write_page), report)
        print(f"wrote {args.write_page}")
    return ExitStatus.OK


def _targets(report: dict[str, Any], quick: bool) -> list[targets.Target]:
    """The target table of this run (profiles of the reference taken briefly under quick)."""
    playouts, boards = (20, 6) if quick else (100, 30)
    return targets.targets(report, quick, lambda: targets.reference_profile(playouts),
                           lambda: targets.pijanowski_profile(boards))


def _unwritable(path: str | None) -> str | None:
    if path is None:
        return None
    parent = Path(path).parent
    if not parent.is_dir() or not os.access(parent, os.W_OK):
        return f"cannot write {path}: {parent} is not a writable folder"
    return None


def _page_problem(path: str | None) -> str | None:
    if path is None:
        return None
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        return f"cannot read {path}: {error}"
    if BEGIN not in text or END not in text or text.index(BEGIN) > text.index(END):
        return f"{path} has no '{BEGIN}' ... '{END}' lines to write the results between"
    return _unwritable(path)


def _machine() -> dict[str, Any]:
    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
        "load_average": None if load is None else [round(x, 2) for x in load],
    }


def _rate(value: float) -> str:
    return f"{value:,.0f}" if value >= 100 else f"{value:.3g}"


def _ratio(value: float) -> str:
    return f"{value:.3g}x"


def render_text(section: dict[str, Any]) -> str:
    """One section as the terminal table."""
    lines = []
    width = max([len(f["label"]) for f in section["figures"]]
                + [len(r["label"]) for r in section["ratios"]] + [10])
    for f in section["figures"]:
        lines.append(f"   {f['label']:{width}}  {_rate(f['median']):>12}  "
                     f"({_rate(f['min'])} .. {_rate(f['max'])}, {f['runs']} runs)")
    for r in section["ratios"]:
        goal = "" if r["target"] is None else (
            f"  target >= {_ratio(r['target'])}: {'met' if r['met'] else 'NOT met'}")
        lines.append(f"   {r['label']:{width}}  {_ratio(r['median']):>12}  "
                     f"({_ratio(r['min'])} .. {_ratio(r['max'])}){goal}")
    lines += [f"   note: {note}" for note in section["notes"]]
    return "\n".join(lines)


def render_markdown(report: dict[str, Any]) -> str:
    """The results as Markdown tables, for the Performance page."""
    machine = report["machine"]
    out = [f"Measured {report['started']} with `{report['command']}` "
           f"({report['seconds']:.0f} s): Python {machine['python']} "
           f"({machine['implementation']}), {machine['cpus']} CPUs, load average "
           f"{machine['load_average']}, {machine['platform']}.", ""]
    for section in report["sections"]:
        out += [f"### {section['order']}. {section['title']}", ""]
        if section["figures"]:
            out += ["| figure | median | min .. max | runs |", "|---|---:|---:|---:|"]
            out += [f"| {f['label']} | {_rate(f['median'])} | {_rate(f['min'])} .. "
                    f"{_rate(f['max'])} | {f['runs']} |" for f in section["figures"]]
            out.append("")
        if section["ratios"]:
            out += ["| ratio (same runs) | median | min .. max | target | met |",
                    "|---|---:|---:|---:|---|"]
            for r in section["ratios"]:
                target = "" if r["target"] is None else f">= {_ratio(r['target'])}"
                met = "" if r["met"] is None else ("yes" if r["met"] else "**no**")
                out.append(f"| {r['label']} | {_ratio(r['median'])} | {_ratio(r['min'])} .. "
                           f"{_ratio(r['max'])} | {target} | {met} |")
            out.append("")
        out += [f"- {note}" for note in section["notes"]]
        if section["notes"]:
            out.append("")
    if report.get("targets"):
        out.append(targets.render_markdown([targets.Target(**row)
                                            for row in report["targets"]]))
    return "\n".join(out).rstrip() + "\n"


def write_page(page: Path, report: dict[str, Any]) -> None:
    """Replace what lies between the page's markers with the rendered results."""
    text = page.read_text(encoding="utf-8")
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    page.write_text(f"{head}{BEGIN}\n{render_markdown(report)}{END}{tail}", encoding="utf-8")
