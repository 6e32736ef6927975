"""``docs/engines/tested.md`` is generated from the committed reports of the published
engines, not kept by hand: its results block is what ``dominokit.rulebook.tested`` makes of
``docs/engines/tested/*.report.json``, and those reports are real reports of the kit."""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from dominokit.rulebook import tested
from dominokit.spec.schemas import validator

ROOT = Path(__file__).resolve().parents[2]


def test_the_results_on_the_page_are_the_committed_reports() -> None:
    page = tested.PAGE.read_text(encoding="utf-8")
    kept = tested.reports()
    assert len(kept) == 2
    assert tested.render(page, kept) == page, "python -m dominokit.rulebook.tested --write"


def test_a_changed_report_changes_the_page() -> None:
    page = tested.PAGE.read_text(encoding="utf-8")
    kept = tested.reports()
    kept[0]["summary"]["passed"] += 1
    assert tested.render(page, kept) != page


def test_each_committed_report_is_a_valid_report_run_with_its_expectations() -> None:
    for path in sorted(tested.REPORTS.glob("*.report.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        assert list(validator("report").iter_errors(data)) == [], path.name
        expectations = data["expectations"]["file"]
        assert expectations == str(path.relative_to(ROOT)).replace(".report.json",
                                                                   ".expectations.yaml")
        assert data["expectations"]["unused"] == [] and data["summary"]["ok"] is True
        assert yaml.safe_load((ROOT / expectations).read_text())
        departures = [c for c in data["cases"] if c["status"] in ("failed", "errored")]
        assert departures and all(c["verdict"] == "expected" for c in departures)
