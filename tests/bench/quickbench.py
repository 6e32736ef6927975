"""The one quick benchmark run the bench tests share: what it runs and what it gave.

Its sections are every one a test in ``tests/bench`` looks at; the campaign section has its
own test (tests/conformance/test_campaign.py). It writes both the JSON and a page with
hand-written text around stale results, so the page rendering is checked by the same run.
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dominokit.bench.command import BEGIN, END
from tests.shared import Command, Outcome

REPO = Path(__file__).resolve().parents[2]

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


def _write_page(folder: Path) -> None:
    (folder / "performance.md").write_text(PAGE)


COMMAND = Command(
    (sys.executable, "-m", "dominokit.conformance", "bench", "--quick", "--section", *SECTIONS,
     "--json", "{out}/bench.json", "--write-page", "{out}/performance.md"),
    REPO, dict(os.environ), _write_page)
"""``dominokit bench --quick`` over ``SECTIONS`` into a folder holding ``PAGE``, as a user
runs it (tests/shared.py starts it once per run, in the background)."""


def read_quick(outcome: Outcome) -> QuickBench:
    """The run ``COMMAND`` made (its exit status, JSON and page)."""
    out = outcome.folder / "bench.json"
    report = json.loads(out.read_text()) if out.exists() else {}
    return QuickBench(outcome.returncode, report, (outcome.folder / "performance.md").read_text())
