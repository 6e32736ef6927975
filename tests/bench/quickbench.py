"""The one quick benchmark run the bench tests share: what it runs and what it gave.

Its sections are every one a test in ``tests/bench`` looks at; the campaign section has its
own test (tests/conformance/test_campaign.py). It writes both the JSON and a page with
hand-written text around stale results, so the page rendering is checked by the same run.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dominokit.bench.command import BEGIN, END
from dominokit.conformance.commands.cli import main

SECTIONS = ("playouts", "perft", "protocol", "pijanowski", "conform", "kit")
"""The sections run, in the benchmark's own order (by section order, then name)."""

PAGE = f"# Performance\n\nhand-written\n\n{BEGIN}\nstale results\n{END}\n\ntail\n"


@dataclass(frozen=True)
class QuickBench:
    """The run's exit status, its JSON report (empty if it wrote none) and the page after."""

    status: int
    report: dict[str, Any]
    page: str

    def section(self, name: str) -> dict[str, Any]:
        """The report's section ``name``; a test of a section that did not run fails here."""
        found = [s for s in self.report.get("sections", []) if s["name"] == name]
        assert len(found) == 1, f"the quick run has {len(found)} section(s) named {name}"
        only: dict[str, Any] = found[0]
        return only


def run_quick(folder: Path) -> QuickBench:
    """``dominokit bench --quick`` over ``SECTIONS``, writing into ``folder``."""
    page = folder / "performance.md"
    page.write_text(PAGE)
    out = folder / "bench.json"
    status = main(["bench", "--quick", "--section", *SECTIONS, "--json", str(out),
                   "--write-page", str(page)])
    report = json.loads(out.read_text()) if out.exists() else {}
    return QuickBench(status, report, page.read_text())
