"""The results on ``docs/engines/tested.md``, generated from the committed reports.

Each published engine's run is kept as its JSON report (``docs/engines/tested/<name>.report.
json``, written by ``dominokit conform --json`` with the engine's expectations file), and the
page's results table is made from those reports, never typed by hand: rerun an engine, commit
its report, and ``python -m dominokit.rulebook.tested --write`` rewrites the table (a test
fails while the page and the reports disagree). The table sits between two markers; the rest
of the page is prose.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

PAGE = Path(__file__).resolve().parents[1] / "engines" / "tested.md"
REPORTS = PAGE.parent / "tested"
BEGIN = ("<!-- results: generated from tested/*.report.json by "
         "python -m dominokit.rulebook.tested -->")
END = "<!-- results: end -->"


def reports(folder: Path = REPORTS) -> list[dict[str, Any]]:
    """The committed reports, in the order of their file names."""
    return [json.loads(path.read_text(encoding="utf-8"))
            for path in sorted(folder.glob("*.report.json"))]


def _label(report: Mapping[str, Any]) -> str:
    hello = report["engine"]["hello"] or {}
    name = str(hello.get("name", report["engine"]["command"])).replace(" (dominokit adapter)",
                                                                       "")
    return f"{name} {hello.get('version', '')}".strip()


def results(kept: Sequence[Mapping[str, Any]]) -> str:
    """The results block: one row per engine with its counts, and the versions they ran."""
    totals = sorted({report["summary"]["total"] for report in kept})
    variants = sorted({str(report["settings"].get("variant")) for report in kept})
    lines = [BEGIN, "",
             f"The whole `{'`, `'.join(variants)}` suite, "
             f"{' or '.join(map(str, totals))} cases per engine:", "",
             "| engine | passed | failed | errored | not applicable | suite | kit | run |",
             "|---|---|---|---|---|---|---|---|"]
    for report in kept:
        counts = report["summary"]
        lines.append(f"| {_label(report)} | {counts['passed']} | {counts['failed']} | "
                     f"{counts['errored']} | {counts['not_applicable']} | "
                     f"{report['suite_version']} | {report['kit_version']} | "
                     f"{str(report['started'])[:10]} |")
    lines += ["", END]
    return "\n".join(lines)


def render(page: str, kept: Sequence[Mapping[str, Any]]) -> str:
    """``page`` with its results block made from ``kept``; ValueError without the markers."""
    start, end = page.find(BEGIN), page.find(END)
    if start < 0 or end < start:
        raise ValueError(f"{PAGE.name} has no results markers ({BEGIN!r} ... {END!r})")
    return page[:start] + results(kept) + page[end + len(END):]


def main(argv: list[str] | None = None) -> int:
    """``--write`` rewrites the results; otherwise exit 1 when the page is out of date."""
    parser = argparse.ArgumentParser(prog="python -m dominokit.rulebook.tested")
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args(argv)
    page = PAGE.read_text(encoding="utf-8")
    fresh = render(page, reports())
    if args.write:
        PAGE.write_text(fresh, encoding="utf-8")
        return 0
    if fresh != page:
        print(f"{PAGE} is out of date: python -m dominokit.rulebook.tested --write",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
