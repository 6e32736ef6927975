"""The reports have published schemas (``spec/schema/report.schema.json`` and
``report-record.schema.json``), and every report the kit writes validates against them: the
JSON report, and each JSON lines record (a header first, a summary last). ``-`` means standard
output, and ``--jsonl``'s help says what it does."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from dominokit.spec.schemas import schema_names, validator

ROOT = Path(__file__).resolve().parents[2]
CLI = [sys.executable, "-m", "dominokit", "conform"]
FOUR_GAMES = "python:tests.conformance.engines.suite_one:four_games"
SELECTION = ["--only", "requests/szczerbak/bad-deal-starter-given", "--only",
             "perft/szczerbak/*-d1", "--only", "differential/szczerbak/*", "--only",
             "requests/classic_block/no-hand"]


@pytest.fixture(scope="module")
def failing_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A run with passes, a failure, not-applicable cases and --since, written both ways."""
    out = tmp_path_factory.mktemp("reports")
    run = subprocess.run([*CLI, "--engine", FOUR_GAMES, *SELECTION, "--since", "1.0.0",
                          "--json", str(out / "r.json"), "--jsonl", str(out / "r.jsonl"),
                          "--report-dir", str(out / "repros"), "-j", "1"],
                         capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 1, run.stderr
    return out


def _errors(name: str, data: Any) -> list[str]:
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
            for e in validator(name).iter_errors(data)]


def test_the_schemas_are_published_with_the_others() -> None:
    assert {"report", "report-record"} <= set(schema_names())


def test_the_json_report_validates(failing_run: Path) -> None:
    data = json.loads((failing_run / "r.json").read_text())
    assert {c["status"] for c in data["cases"]} >= {"passed", "failed", "not_applicable"}
    assert _errors("report", data) == []


def test_the_schema_refuses_a_report_that_drifts(failing_run: Path) -> None:
    data = json.loads((failing_run / "r.json").read_text())
    data["cases"][0]["statuz"] = data["cases"][0].pop("status")
    assert _errors("report", data)
    del data["kit_version"]
    assert any("kit_version" in error for error in _errors("report", data))


def test_every_json_lines_record_validates_header_first_summary_last(failing_run: Path) -> None:
    records = [json.loads(line) for line in (failing_run / "r.jsonl").read_text().splitlines()]
    assert records[0]["type"] == "header" and records[-1]["type"] == "summary"
    assert [r["type"] for r in records[1:-1]] == ["case"] * (len(records) - 2)
    for record in records:
        assert _errors("report-record", record) == [], record["type"]
    report = json.loads((failing_run / "r.json").read_text())
    assert records[-1]["summary"] == report["summary"]
    assert [r["id"] for r in records[1:-1]] == [c["id"] for c in report["cases"]]


def test_a_progress_record_validates() -> None:
    from dominokit.conformance.cases.model import Progress

    record = Progress(1000, 5000, 1, ("r.yaml",)).to_json("differential/x/default", 2.5)
    assert _errors("report-record", record) == []


@pytest.mark.parametrize("option", ["--json", "--junitxml", "--jsonl"])
def test_dash_means_standard_output(tmp_path: Path, option: str) -> None:
    run = subprocess.run([*CLI, "--only", "perft/szczerbak/*-d1", option, "-", "-j", "1"],
                         capture_output=True, text=True, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert not (tmp_path / "-").exists()
    if option == "--json":
        assert json.loads(run.stdout)["summary"]["ok"] is True
    elif option == "--jsonl":
        lines = [json.loads(line) for line in run.stdout.splitlines()]
        assert lines[0]["type"] == "header" and lines[-1]["type"] == "summary"
    else:
        assert run.stdout.startswith("<?xml")
    assert "dominokit conform:" in run.stderr  # the terminal's lines moved out of the way


def test_the_jsonl_help_says_what_it_does() -> None:
    run = subprocess.run([*CLI, "--help"], capture_output=True, text=True, cwd=ROOT)
    text = " ".join(run.stdout.split())
    start = text.rindex("--jsonl FILE")
    jsonl = text[start:start + 400]
    assert "append" not in jsonl
    for words in ("header", "summary", "replac", "-"):
        assert words in jsonl, jsonl
