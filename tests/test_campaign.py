"""A long differential campaign streams: records as JSON lines while it runs, hands in chunks.

``--examples 100000`` must keep memory flat (hypothesis runs of at most CAMPAIGN_CHUNK hands,
each seeded afresh) and be readable while it runs (``--jsonl``: one line per case, flushed).
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from dominokit.conformance.cases import differential
from dominokit.conformance.runner import collect_cases, run_suite

BROKEN = "python:tests.broken.engines:PoldominoBonus66Is60"
"""Scores a domino with the double six 60 instead of its bonus (found by random hands)."""


def test_jsonl_has_each_record_as_the_report_does(tmp_path: Path) -> None:
    cases = collect_cases("szczerbak", "perft/szczerbak/widow-*-d[12]")
    lines = tmp_path / "run.jsonl"
    report = run_suite("python:tests.broken.engines:WidowStarterLowerHalf", cases=cases,
                       out=io.StringIO(), report_dir=tmp_path / "r", jsonl_path=lines)
    streamed = [json.loads(line) for line in lines.read_text().splitlines()]
    assert streamed == [json.loads(json.dumps(r.to_json())) for r in report.records]
    assert {"passed", "failed"} <= {record["status"] for record in streamed}


def test_an_unwritable_jsonl_is_a_write_error_not_a_crash(tmp_path: Path) -> None:
    cases = collect_cases("szczerbak", "perft/szczerbak/widow-faces-0-d1")
    report = run_suite("python:dominokit.conformance.refengine:ReferenceEngine", cases=cases,
                       out=io.StringIO(), report_dir=tmp_path,
                       jsonl_path=tmp_path / "missing" / "run.jsonl")
    assert report.ok and len(report.write_errors) == 1
    assert "JSON lines report" in report.write_errors[0]


def test_a_campaign_runs_in_chunks_and_keeps_the_failures_repro(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seeds: list[int] = []
    real = differential._hypothesis_run

    def counted(*args: object) -> object:
        seeds.append(args[-1])  # type: ignore[arg-type]
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(differential, "CAMPAIGN_CHUNK", 2)
    monkeypatch.setattr(differential, "_hypothesis_run", counted)
    cases = collect_cases("poldomino", "differential/poldomino/default", examples=7)
    report = run_suite("python:dominokit.conformance.refengine:ReferenceEngine", cases=cases,
                       out=io.StringIO(), report_dir=tmp_path, examples=7)
    assert report.ok
    assert len(seeds) == 4 and seeds[0] == 0 and len(set(seeds)) == 4  # 2+2+2+1 hands
    seeds.clear()
    broken = run_suite(BROKEN, cases=cases, out=io.StringIO(), report_dir=tmp_path,
                       examples=7)
    (record,) = broken.records
    assert record.outcome.status == "failed" and record.outcome.repro
    assert Path(record.outcome.repro).is_file()
