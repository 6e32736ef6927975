"""A long differential campaign streams: memory flat, progress shown, a report that can be read
while it runs, and every failure's repro kept.

``--examples 100000`` plays hypothesis runs of at most CAMPAIGN_CHUNK hands, each seeded
afresh; here the chunk is made tiny (a few hands) so that a campaign of many chunks runs in
seconds. No test times anything: memory is bounded by counting the objects the process holds.
"""

from __future__ import annotations

import gc
import io
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from dominokit.bench import campaign
from dominokit.conformance.cases import campaign as campaign_split
from dominokit.conformance.cases import collect_cases, differential
from dominokit.conformance.cases.model import Progress
from dominokit.conformance.commands.cli import main
from dominokit.conformance.kit.inprocess import InProcessEngine
from dominokit.conformance.run.runner import run_suite
from dominokit.conformance.run.terminal import Terminal
from dominokit.conformance.serve.refengine import ReferenceEngine

BROKEN = "python:tests.conformance.test_campaign:StartsWithAPoint"
REFERENCE = "python:dominokit.conformance.serve.refengine:ReferenceEngine"
CASE = "differential/poldomino/default"



def streamed_records(path: Path) -> list[dict[str, Any]]:
    """The JSON lines report's case and progress records (its header and summary aside)."""
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert lines[0]["type"] == "header" and lines[-1]["type"] == "summary"
    return lines[1:-1]

def test_jsonl_has_each_record_as_the_report_does(tmp_path: Path) -> None:
    # the widow's perft cases fail; the invariants of the engine's own answers hold
    cases = [*collect_cases("szczerbak", "perft/szczerbak/widow-*-d[12]"),
             *collect_cases("szczerbak", "invariants/szczerbak/termination", examples=2)]
    lines = tmp_path / "run.jsonl"
    report = run_suite("python:tests.conformance.broken.engines:WidowStarterLowerHalf", cases=cases,
                       out=io.StringIO(), report_dir=tmp_path / "r", jsonl_path=lines)
    streamed = streamed_records(lines)
    assert streamed == [json.loads(json.dumps(r.to_json())) for r in report.records]
    assert {"passed", "failed"} <= {record["status"] for record in streamed}
    assert {record["type"] for record in streamed} == {"case"}  # no progress: short cases


def test_an_unwritable_jsonl_is_a_write_error_not_a_crash(tmp_path: Path) -> None:
    cases = collect_cases("szczerbak", "perft/szczerbak/widow-faces-0-d1")
    report = run_suite("python:dominokit.conformance.serve.refengine:ReferenceEngine", cases=cases,
                       out=io.StringIO(), report_dir=tmp_path,
                       jsonl_path=tmp_path / "missing" / "run.jsonl")
    assert report.ok and len(report.write_errors) == 1
    assert "JSON lines report" in report.write_errors[0]


class StartsWithAPoint(ReferenceEngine):
    """Starts a hand with a point for player 0 when player 0 is dealt [2|2], [3|3] or [4|4]:
    about two hands in three of Poldomino's (1 - C(23,5)/C(28,5) = 0.66), so nearly every
    chunk of two random hands holds a failing one."""

    def new_hand(self, variant: str, options: Mapping[str, Any],
                 deal: Mapping[str, Any]) -> dict[str, Any]:
        state = super().new_hand(variant, options, deal)
        if {"2-2", "3-3", "4-4"} & set(deal["hands"][0]):
            state["points"] = [1, 0]
        return state


SEED = 3
"""A seed whose random hands hypothesis draws (seed 0's first hands are recorded data)."""


@pytest.fixture
def seeds(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Chunks of 2 hands; the seed of every hypothesis run, in order. The tests that use it
    run under ``SEED``: the default seed's hands are recorded data, drawn by no hypothesis
    run."""
    seen: list[int] = []
    real = differential._hypothesis_run

    def counted(*args: Any) -> Any:
        seen.append(args[6])
        return real(*args)

    monkeypatch.setattr(differential, "CAMPAIGN_CHUNK", 2)
    monkeypatch.setattr(differential, "_hypothesis_run", counted)
    return seen


def test_a_campaign_runs_in_chunks_each_seeded_afresh(tmp_path: Path,
                                                      seeds: list[int]) -> None:
    cases = collect_cases("poldomino", CASE, examples=7, seed=SEED)
    report = run_suite(REFERENCE, cases=cases, out=io.StringIO(), report_dir=tmp_path,
                       examples=7, seed=SEED)
    assert report.ok
    assert len(seeds) == 4 and seeds[0] == SEED and len(set(seeds)) == 4  # 2+2+2+1 hands
    assert report.records[0].outcome.to_json()["repros"] == []


def test_a_campaign_goes_on_after_a_failure_and_keeps_every_repro(
        tmp_path: Path, seeds: list[int]) -> None:
    cases = collect_cases("poldomino", CASE, examples=10, seed=SEED)
    lines = tmp_path / "run.jsonl"
    report = run_suite(BROKEN, cases=cases, out=io.StringIO(), report_dir=tmp_path,
                       examples=10, seed=SEED, jsonl_path=lines)
    assert len(seeds) == 5  # every chunk ran, failing or not
    (record,) = report.records
    outcome = record.outcome
    assert outcome.status == "failed"
    # a searched hand fails first (they come before the random ones), shown in full
    assert outcome.message.startswith("searched hand (")
    assert outcome.failing_hands is not None and outcome.failing_hands >= 2
    assert outcome.repro == outcome.repros[0]
    assert 2 <= len(outcome.repros) <= outcome.failing_hands
    assert len(set(outcome.repros)) == len(outcome.repros)  # never overwritten
    assert all(Path(path).is_file() for path in outcome.repros)
    stems = sorted(Path(path).stem for path in outcome.repros)
    assert stems[0] == "differential-default" and stems[1] == "differential-default-2"
    assert f"{outcome.failing_hands} failing hand(s), 10 of 10 random hands" in outcome.message
    data = record.to_json()
    assert data["repros"] == list(outcome.repros) and data["repro"] == outcome.repros[0]
    assert data["failing_hands"] == outcome.failing_hands
    junit = io.BytesIO()
    report.junit().write(junit)
    assert all(path in junit.getvalue().decode() for path in outcome.repros)
    streamed = streamed_records(lines)
    assert streamed[-1] == json.loads(json.dumps(data))
    progress = streamed[:-1]
    assert [line["hands"] for line in progress] == [2, 4, 6, 8]  # after each chunk but last
    assert all(line["type"] == "progress" and line["case"] == CASE and line["of"] == 10
               for line in progress)
    assert [line["failing_hands"] for line in progress] == sorted(
        line["failing_hands"] for line in progress)
    assert progress[0]["failing_hands"] >= 1 and progress[0]["repros"][0] == outcome.repro


def test_repros_are_capped_and_the_rest_counted(tmp_path: Path, seeds: list[int],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(campaign_split, "MAX_REPROS", 1)
    cases = collect_cases("poldomino", CASE, examples=10)
    report = run_suite(BROKEN, cases=cases, out=io.StringIO(), report_dir=tmp_path,
                       examples=10)
    outcome = report.records[0].outcome
    assert len(outcome.repros) == 1 and outcome.failing_hands is not None
    assert outcome.failing_hands >= 2
    assert "1 repro trace(s) kept (at most 1, each hand once)" in outcome.message


def test_a_short_run_stops_at_its_first_failure(tmp_path: Path, seeds: list[int]) -> None:
    cases = collect_cases("poldomino", CASE, examples=2)  # one chunk: not a campaign
    report = run_suite(BROKEN, cases=cases, out=io.StringIO(), report_dir=tmp_path,
                       examples=2)
    outcome = report.records[0].outcome
    assert seeds == [] and outcome.failing_hands == 1  # the searched hand ended it
    assert outcome.repros == (outcome.repro,) and outcome.repro is not None


class InterruptedBroken(StartsWithAPoint):
    """The broken engine, interrupted (as by Ctrl-C) at its 30th hand."""

    hands = 0

    def new_hand(self, variant: str, options: Mapping[str, Any],
                 deal: Mapping[str, Any]) -> dict[str, Any]:
        InterruptedBroken.hands += 1
        if InterruptedBroken.hands == 30:
            raise KeyboardInterrupt
        return super().new_hand(variant, options, deal)


def test_an_interrupted_campaign_keeps_its_repros_and_partial_record(
        tmp_path: Path, seeds: list[int]) -> None:
    InterruptedBroken.hands = 0
    cases = collect_cases("poldomino", CASE, examples=1000)
    json_path, lines = tmp_path / "r.json", tmp_path / "run.jsonl"
    with pytest.raises(KeyboardInterrupt):
        run_suite(InProcessEngine(InterruptedBroken()), cases=cases,
                  out=io.StringIO(), report_dir=tmp_path, examples=1000, json_path=json_path,
                  jsonl_path=lines)
    data = json.loads(json_path.read_text())
    assert data["interrupted"] is True
    (record,) = data["cases"]
    assert record["status"] == "failed" and record["failing_hands"] >= 1
    assert record["repros"] and all(Path(p).is_file() for p in record["repros"])
    assert "of 1,000 random hands played" in record["message"]
    # streamed as the case ended; its cause is named once the run has them all
    streamed = streamed_records(lines)[-1]
    assert streamed == {key: value for key, value in record.items()
                        if key not in ("cause", "blame")}


def test_an_interrupt_before_any_failure_records_the_case_as_not_run(
        tmp_path: Path, seeds: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    calls = [0]
    real = differential.standalone

    def interrupting(*args: Any) -> Any:
        calls[0] += 1
        if calls[0] == 40:  # past the searched hands, in the random ones
            raise KeyboardInterrupt
        return real(*args)

    monkeypatch.setattr(differential, "standalone", interrupting)
    cases = collect_cases("poldomino", CASE, examples=1000)
    with pytest.raises(KeyboardInterrupt):
        run_suite(REFERENCE, cases=cases, out=io.StringIO(), report_dir=tmp_path,
                  examples=1000, json_path=tmp_path / "r.json")
    (record,) = json.loads((tmp_path / "r.json").read_text())["cases"]
    assert record["status"] == "not_run" and record["repros"] == []
    assert "interrupted after" in record["message"] and "of 1,000 random hands" in record[
        "message"]


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_progress_line_shows_hands_and_failures(monkeypatch: pytest.MonkeyPatch) -> None:
    now = [0.0]
    plain = io.StringIO()
    terminal = Terminal(plain, total=3, progress=True, clock=lambda: now[0], heartbeat=False)
    terminal.start(1, CASE)
    now[0] = 6.0
    terminal.progress(CASE, Progress(4000, 100_000, 2, ("a.yaml", "b.yaml")))
    assert plain.getvalue().endswith(
        f"1/3 cases, 0 failed, 6 s elapsed; running {CASE} 4,000/100,000 hands, 2 failing\n")
    monkeypatch.setenv("COLUMNS", "100")
    tty = Tty()
    bar = Terminal(tty, total=3, progress=True, clock=lambda: now[0], heartbeat=False)
    bar.start(1, CASE)
    now[0] += 1.0
    bar.progress(CASE, Progress(4000, 100_000))
    drawn = tty.getvalue().split("\r")[-1]
    assert drawn == f"[{'#' * 10}{'-' * 20}] 1/3 {CASE} 4,000/100,000 hands".ljust(99)
    bar.progress(CASE, Progress(5000, 100_000))  # within REDRAW_EVERY: not redrawn
    assert tty.getvalue().split("\r")[-1] == drawn


def test_memory_stays_flat_over_chunks(tmp_path: Path,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Objects the kit holds after chunk 3 and after chunk 8 of a campaign (10 hands a chunk;
    the engine in its own process): the growth must stay well below one object per hand
    played between. Hypothesis used to keep a label per distinct legal list drawn from, for
    the life of the process: 275 objects over these 50 hands, against 15 now (its bounded
    strategy cache filling). Counting objects, not bytes or time, cannot flake: the hands are
    seeded, so the count is the same on every run."""
    held: list[int] = []
    real = differential._hypothesis_run

    def measured(*args: Any) -> Any:
        found = real(*args)
        gc.collect()
        held.append(len(gc.get_objects()))
        return found

    monkeypatch.setattr(differential, "CAMPAIGN_CHUNK", 10)
    monkeypatch.setattr(differential, "_hypothesis_run", measured)
    cases = collect_cases("poldomino", CASE, examples=80)
    report = run_suite(REFERENCE, cases=cases, out=io.StringIO(), report_dir=tmp_path,
                       examples=80)
    assert report.ok and len(held) == 8
    assert held[7] - held[2] < 50 // 2, held  # 50 hands between: under one per 2 hands


def test_the_bench_section_measures_both_peaks_at_each_size(tmp_path: Path) -> None:
    out = tmp_path / "bench.json"
    assert main(["bench", "--quick", "--section", "campaign", "--json", str(out)]) == 0
    (section,) = json.loads(out.read_text())["sections"]
    assert section["name"] == "campaign" and section["order"] == 5
    labels = {figure["label"]: figure for figure in section["figures"]}
    for hands in campaign.QUICK_SIZES:
        for what in ("kit peak memory", "engine peak memory"):
            assert labels[f"campaign {hands:,} hands: {what}"]["unit"] == "MiB"
            assert labels[f"campaign {hands:,} hands: {what}"]["median"] > 1  # MiB, not KiB
    assert all(figure["median"] > 0 for figure in section["figures"])
    ratios = {r["label"]: r["target"] for r in section["ratios"]}
    assert ratios == {"campaign kit peak memory: 20 over 60 hands": campaign.FLAT_TARGET,
                      "campaign engine peak memory: 20 over 60 hands": campaign.FLAT_TARGET,
                      "campaign on 2 workers: -j 1 over -j 2 seconds":
                          campaign.PARALLEL_TARGET}
    assert {f"campaign {campaign.case_id()}: {n} worker(s)" for n in (1, 2)} <= set(labels)


def test_workers_stream_the_progress_of_the_cases_they_run(tmp_path: Path,
                                                           seeds: list[int]) -> None:
    cases = collect_cases("poldomino", "differential/poldomino/*", examples=5, seed=SEED)
    lines = tmp_path / "run.jsonl"
    report = run_suite(REFERENCE, cases=cases, out=io.StringIO(), report_dir=tmp_path,
                       examples=5, seed=SEED, jsonl_path=lines, workers=2)
    assert report.ok and len(cases) == 2
    streamed = streamed_records(lines)
    for case in cases:
        mine = [line for line in streamed if case.id in (line.get("case"), line.get("id"))]
        assert [(line["type"], line.get("hands")) for line in mine] == [
            ("progress", 2), ("progress", 4), ("case", None)]
