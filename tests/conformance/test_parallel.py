"""Parallel runs: ``conform -j N`` and the plugin under pytest-xdist give a serial run's verdicts.

The engine is a broken one (the widow's starter chosen wrongly), so the selection holds
passing, failing and not-applicable cases alike, of several kinds.
"""

from __future__ import annotations

import io
import json
import os
import re
from functools import cache
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

import pytest

from dominokit.conformance.cases import collect_cases
from dominokit.conformance.cases.model import Case
from dominokit.conformance.commands.cli import main
from dominokit.conformance.exit_status import ExitStatus
from dominokit.conformance.run import settings
from dominokit.conformance.run import workers as parallel
from dominokit.conformance.run.report import Report
from dominokit.conformance.run.runner import run_suite

pytest_plugins = ["pytester"]

REPO = Path(__file__).resolve().parents[2]
REFERENCE = "python:dominokit.conformance.serve.refengine:ReferenceEngine"
BROKEN = "python:tests.conformance.broken.engines:WidowStarterLowerHalf"
KINDS = ("golden", "perft", "invariants", "rejection", "requests")


@cache
def selection() -> tuple[Case, ...]:
    """Szczerbak's cases of the quick kinds (differential and match hands take longer)."""
    return tuple(case for case in collect_cases("szczerbak", examples=2) if case.kind in KINDS)


def records(report: Report) -> list[dict[str, Any]]:
    """The report's case records without their timings (the only thing that may differ)."""
    out = []
    for record in report.records:
        data = record.to_json()
        del data["seconds"]
        out.append(data)
    return out


def run(tmp_path: Path, workers: int, **limits: Any) -> Report:
    return run_suite(BROKEN, cases=selection(), out=io.StringIO(), workers=workers,
                     report_dir=tmp_path / "report", **limits)


def test_two_workers_give_the_serial_report_case_for_case(tmp_path: Path) -> None:
    serial = run(tmp_path, 1)
    parallel = run(tmp_path, 2)
    statuses = {record.outcome.status for record in serial.records}
    assert {"passed", "failed"} <= statuses  # the comparison covers more than one verdict
    assert records(parallel) == records(serial)
    assert parallel.hello == serial.hello and parallel.ok == serial.ok


def test_a_limit_stops_a_parallel_run_where_it_stops_a_serial_one(tmp_path: Path) -> None:
    serial = run(tmp_path, 1, maxfail=3)
    parallel = run(tmp_path, 2, maxfail=3)
    assert serial.stopped is not None and parallel.stopped == serial.stopped
    assert records(parallel) == records(serial)


def test_workers_must_open_their_own_engine() -> None:
    from dominokit.conformance.cases.model import ConformanceError
    from dominokit.conformance.kit.engines import open_engine

    engine = open_engine(BROKEN)
    with pytest.raises(ConformanceError, match="own engine"):
        run_suite(engine, cases=selection(), out=io.StringIO(), workers=2)


def test_the_command_takes_j(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["conform", "--engine", REFERENCE, "-j", "2", "--only", "requests/szczerbak/*",
                   "--report-dir", str(tmp_path), "--color", "never"])
    assert status == 0, capsys.readouterr()
    assert re.search(r"\d+ passed, 0 failed", capsys.readouterr().out)


def _plugin_args() -> list[str]:
    installed = any(ep.name == "dominokit" for ep in entry_points(group="pytest11"))
    return [] if installed else ["-p", "dominokit.conformance.run.plugin"]


def test_xdist_gives_the_serial_verdicts(pytester: pytest.Pytester,
                                         monkeypatch: pytest.MonkeyPatch,
                                         tmp_path: Path) -> None:
    pytest.importorskip("xdist")
    path = os.pathsep.join(p for p in (os.environ.get("PYTHONPATH"), str(REPO)) if p)
    monkeypatch.setenv("PYTHONPATH", path)
    result = pytester.runpytest_subprocess(
        *_plugin_args(), "-p", "xdist", "-n", "2", "-v", "--dominokit-engine", BROKEN,
        "--dominokit-variant", "szczerbak", "--dominokit-examples", "2",
        "--dominokit-only", "[gpi]*")  # golden, perft, invariants: passes and failures
    got = {case: verdict for verdict, case in
           re.findall(r"^\[gw\d+\] \[ *\d+%\] (PASSED|FAILED|SKIPPED) dominokit::(\S+)",
                      result.stdout.str(), re.MULTILINE)}
    word = {"passed": "PASSED", "failed": "FAILED", "not_applicable": "SKIPPED"}
    serial = run(tmp_path, 1)
    want = {record.case_id: word[record.outcome.status] for record in serial.records
            if record.kind in ("golden", "perft", "invariants")}
    assert set(want.values()) == {"PASSED", "FAILED"}
    assert got == want


# ------------------------------------------------------------- the default: -j auto


def _report_records(path: Path) -> list[dict[str, Any]]:
    data: dict[str, Any] = json.loads(path.read_text())
    for record in data["cases"]:
        del record["seconds"]
    return list(data["cases"])


def test_the_default_runs_one_worker_per_usable_cpu_with_the_serial_records(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    started: list[int] = []
    real_pool = parallel.ForkedPool

    def counting_pool(cases: Any, start: Any, report_dir: Path, workers: int) -> Any:
        started.append(workers)
        return real_pool(cases, start, report_dir, workers)

    monkeypatch.setattr(settings, "usable_cpus", lambda: 2)
    monkeypatch.setattr(parallel, "ForkedPool", counting_pool)
    common = ["conform", "--engine", BROKEN, "--variant", "szczerbak", "--examples", "2",
              "--only", "[gpi]*", "--report-dir", str(tmp_path / "report"), "--color", "never"]
    assert main([*common, "--json", str(tmp_path / "default.json")]) == ExitStatus.FAILED
    assert started == [2]  # no -j: the two usable CPUs, each a worker
    assert main([*common, "-j", "1", "--json", str(tmp_path / "serial.json")]) \
        == ExitStatus.FAILED
    assert started == [2]  # -j 1: the serial run, no pool
    capsys.readouterr()
    serial = _report_records(tmp_path / "serial.json")
    assert {record["status"] for record in serial} >= {"passed", "failed"}
    assert _report_records(tmp_path / "default.json") == serial


@pytest.mark.parametrize(("requested", "cpus", "cases", "workers"), [
    ("auto", 2, 299, 2),   # one per usable CPU
    ("auto", 8, 3, 3),     # never more than the cases selected
    ("auto", 1, 299, 1),   # one CPU: the serial run
    (3, 2, 299, 3),        # a number is taken as given
    (1, 8, 299, 1),
])
def test_worker_count(requested: int | str, cpus: int, cases: int, workers: int,
                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(settings, "usable_cpus", lambda: cpus)
    assert parallel.worker_count(requested, cases) == workers  # type: ignore[arg-type]


def test_auto_is_one_worker_where_workers_cannot_be_forked(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel, "available", lambda: False)
    assert parallel.worker_count("auto", 299) == 1


def test_usable_cpus_follow_the_affinity_mask(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 3, 5}, raising=False)
    assert settings.usable_cpus() == 3
    monkeypatch.delattr(os, "sched_getaffinity", raising=False)
    monkeypatch.setattr(os, "cpu_count", lambda: None)
    assert settings.usable_cpus() == 1


@pytest.mark.parametrize(("value", "parsed"), [("auto", "auto"), ("AUTO", "auto"), ("1", 1),
                                               ("4", 4)])
def test_workers_values(value: str, parsed: int | str) -> None:
    assert settings.workers(value) == parsed


@pytest.mark.parametrize("value", ["0", "-2", "two", "", "1.5"])
def test_bad_workers_are_a_usage_error_naming_the_option(
        value: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["conform", "-j", value, "--list"]) == ExitStatus.USAGE_ERROR
    error = capsys.readouterr().err
    assert "-j/--workers" in error and "auto" in error


# ------------------------------------------------ which worker runs which case


def test_a_worker_keeps_to_its_kind_and_variant_then_helps_the_largest_group() -> None:
    ids = ["golden/a/1", "golden/a/2", "golden/a/3", "golden/b/1",
           "invariants/a/x", "invariants/a/y", "invariants/a/z", "invariants/a/w"]
    schedule = parallel.Schedule(ids)
    given = []
    for worker in ("A", "B", "B", "A", "B", "A", "A", "B", "B", "A", "A"):
        index = schedule.next_for(worker)
        given.append((worker, None if index is None else ids[index]))
    assert given == [
        ("A", "golden/a/1"), ("B", "golden/b/1"),   # B starts the next group
        ("B", "invariants/a/x"),                     # its own done: the next group
        ("A", "golden/a/2"), ("B", "invariants/a/y"),
        ("A", "golden/a/3"),
        ("A", "invariants/a/z"),                     # nothing unstarted: help the largest
        ("B", "invariants/a/w"),
        ("B", None), ("A", None), ("A", None),
    ]
    assert not schedule


def test_every_case_is_given_once() -> None:
    ids = [case.id for case in selection()]
    schedule = parallel.Schedule(ids)
    given: list[int] = []
    worker = 0
    while (index := schedule.next_for(worker % 3)) is not None:
        given.append(index)
        worker += 1
    assert sorted(given) == list(range(len(ids)))
