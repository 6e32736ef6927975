"""One campaign across workers: ``-j 2`` plays the chunks of one differential case side by side
and gathers them into the record a serial run gives.

The chunk is made tiny (2 hands), so that a campaign of several chunks runs in seconds; the
engine is one with a planted bug (``StartsWithAPoint``: a point for player 0 at the start of
about two hands in three), so that most chunks fail and the record holds failing hands,
repros and their cap. Nothing is timed.
"""

from __future__ import annotations

import io
import json
import zlib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from dominokit.conformance.cases import campaign, collect_cases, differential
from dominokit.conformance.run import gather
from dominokit.conformance.run.report import Report
from dominokit.conformance.run.runner import run_suite
from tests.conformance.test_campaign import StartsWithAPoint

BROKEN = "python:tests.conformance.test_campaign:StartsWithAPoint"
REFERENCE = "python:dominokit.conformance.serve.refengine:ReferenceEngine"
CASE = "differential/poldomino/default"
SEED = 3
"""Not the default seed, whose random hands are recorded data (and so no campaign)."""


@pytest.fixture(autouse=True)
def tiny_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Chunks of 2 hands (the forked workers inherit it)."""
    monkeypatch.setattr(differential, "CAMPAIGN_CHUNK", 2)


def played(tmp_path: Path, name: str, engine: str, workers: int,
           examples: int = 11) -> tuple[Report, list[dict[str, Any]], dict[str, str]]:
    """The report of one campaign, its records and progress lines with the report folder
    and timings taken out, and the repro traces written (path under the folder: text)."""
    folder = tmp_path / name
    cases = collect_cases("poldomino", CASE, examples=examples, seed=SEED)
    assert cases[0].chunks == -(-examples // 2)
    lines = tmp_path / f"{name}.jsonl"
    report = run_suite(engine, cases=cases, out=io.StringIO(), report_dir=folder,
                       examples=examples, seed=SEED, workers=workers, jsonl_path=lines)
    streamed = []
    for line in lines.read_text().splitlines()[1:-1]:
        data = json.loads(line.replace(str(folder), "<report>"))
        data.pop("seconds")
        streamed.append(data)
    traces = {str(path.relative_to(folder)): path.read_text()
              for path in sorted((folder / "repro").rglob("*.yaml"))}
    return report, streamed, traces


def test_two_workers_gather_a_failing_campaign_into_the_serial_record(
        tmp_path: Path) -> None:
    serial, serial_lines, serial_traces = played(tmp_path, "serial", BROKEN, 1)
    parallel, parallel_lines, parallel_traces = played(tmp_path, "parallel", BROKEN, 2)
    (record,) = serial.records
    outcome = record.outcome
    assert outcome.status == "failed" and outcome.failing_hands is not None
    assert outcome.failing_hands >= 3 and len(outcome.repros) >= 3  # several chunks failed
    assert "of 11 random hands played" in outcome.message
    assert parallel_lines == serial_lines  # the records, and the progress after each chunk
    assert [line["type"] for line in serial_lines].count("progress") == 5  # 6 chunks
    assert parallel_traces == serial_traces and len(serial_traces) == len(outcome.repros)
    assert parallel.records[0].outcome.repros == tuple(
        path.replace("serial", "parallel") for path in outcome.repros)


def test_the_repro_cap_falls_where_it_falls_serially(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(campaign, "MAX_REPROS", 2)
    serial, serial_lines, serial_traces = played(tmp_path, "serial", BROKEN, 1)
    parallel, parallel_lines, parallel_traces = played(tmp_path, "parallel", BROKEN, 2)
    outcome = serial.records[0].outcome
    assert outcome.failing_hands is not None and outcome.failing_hands > 2
    assert len(outcome.repros) == 2 and "(at most 2, each hand once)" in outcome.message
    assert parallel_lines == serial_lines and parallel_traces == serial_traces


def test_a_passing_campaign_is_one_record_under_two_workers(tmp_path: Path) -> None:
    serial, serial_lines, _ = played(tmp_path, "serial", REFERENCE, 1, examples=6)
    parallel, parallel_lines, _ = played(tmp_path, "parallel", REFERENCE, 2, examples=6)
    assert serial.ok and parallel.ok
    assert parallel_lines == serial_lines and len(parallel.records) == 1
    assert "; 6 random hands" in parallel.records[0].outcome.message


def test_each_chunk_is_a_piece_of_work_and_seeded_by_its_number() -> None:
    (case,) = collect_cases("poldomino", CASE, examples=7, seed=SEED)
    assert case.chunks == 4 and gather.units([case]) == 4
    assert case.campaign is not None
    assert [case.campaign.size(chunk) for chunk in range(4)] == [2, 2, 2, 1]
    assert campaign.chunk_seed(SEED, 0) == SEED
    assert len({campaign.chunk_seed(SEED, chunk) for chunk in range(4)}) == 4
    (short,) = collect_cases("poldomino", CASE, examples=2, seed=SEED)
    assert short.chunks == 1  # one chunk: no campaign, played whole


class RaisesNowAndThen(StartsWithAPoint):
    """The broken engine, which also raises (an engine failure) on about one deal in 20 (a
    checksum of player 0's hand, so the same deals on every worker): rare enough that some
    chunks fail first, and then one ends the case."""

    def new_hand(self, variant: str, options: Mapping[str, Any],
                 deal: Mapping[str, Any]) -> dict[str, Any]:
        if zlib.crc32(" ".join(sorted(deal["hands"][0])).encode()) % 20 == 0:
            raise RuntimeError("planted: one deal in 20")
        return super().new_hand(variant, options, deal)


def test_an_engine_failure_ends_the_campaign_at_its_chunk_under_two_workers(
        tmp_path: Path) -> None:
    engine = "python:tests.conformance.test_campaign_split:RaisesNowAndThen"
    serial, serial_lines, serial_traces = played(tmp_path, "serial", engine, 1, examples=40)
    parallel, parallel_lines, parallel_traces = played(tmp_path, "parallel", engine, 2,
                                                       examples=40)
    outcome = serial.records[0].outcome
    assert outcome.status == "errored", outcome.message
    assert "before the engine failed" in outcome.message and outcome.failing_hands is None
    assert parallel_lines == serial_lines and parallel_traces == serial_traces
