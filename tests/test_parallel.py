"""Parallel runs: ``conform -j N`` and the plugin under pytest-xdist give a serial run's verdicts.

The engine is a broken one (the widow's starter chosen wrongly), so the selection holds
passing, failing and not-applicable cases alike, of several kinds.
"""

from __future__ import annotations

import io
import os
import re
from functools import cache
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

import pytest

from dominokit.conformance.cli import main
from dominokit.conformance.report import Report
from dominokit.conformance.runner import Case, collect_cases, run_suite

pytest_plugins = ["pytester"]

REPO = Path(__file__).resolve().parent.parent
REFERENCE = "python:dominokit.conformance.refengine:ReferenceEngine"
BROKEN = "python:tests.broken.engines:WidowStarterLowerHalf"
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
    from dominokit.conformance.driver import open_engine
    from dominokit.conformance.runner import ConformanceError

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
    return [] if installed else ["-p", "dominokit.conformance.plugin"]


def test_xdist_gives_the_serial_verdicts(pytester: pytest.Pytester,
                                         monkeypatch: pytest.MonkeyPatch,
                                         tmp_path: Path) -> None:
    pytest.importorskip("xdist")
    path = os.pathsep.join(p for p in (os.environ.get("PYTHONPATH"), str(REPO)) if p)
    monkeypatch.setenv("PYTHONPATH", path)
    result = pytester.runpytest_subprocess(
        *_plugin_args(), "-p", "xdist", "-n", "2", "-v", "--dominokit-engine", BROKEN,
        "--dominokit-variant", "szczerbak", "--dominokit-examples", "2",
        "--dominokit-only", "[gp]*")  # golden and perft: passes, failures, a widow of each
    got = {case: verdict for verdict, case in
           re.findall(r"^\[gw\d+\] \[ *\d+%\] (PASSED|FAILED|SKIPPED) dominokit::(\S+)",
                      result.stdout.str(), re.MULTILINE)}
    word = {"passed": "PASSED", "failed": "FAILED", "not_applicable": "SKIPPED"}
    serial = run(tmp_path, 1)
    want = {record.case_id: word[record.outcome.status] for record in serial.records
            if record.kind in ("golden", "perft")}
    assert set(want.values()) == {"PASSED", "FAILED"}
    assert got == want
