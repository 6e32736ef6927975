"""Python engines run in a worker process, so their hangs and exits are the engine's, not the
kit's: ``--engine python:MODULE:FACTORY`` is held to the same timeouts and crash reports as a
command."""

from __future__ import annotations

import io
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

import dominokit.reference as reference
from dominokit.conformance.cases import collect_cases
from dominokit.conformance.exit_status import ExitStatus
from dominokit.conformance.kit.driver import SubprocessEngine
from dominokit.conformance.kit.engines import open_engine
from dominokit.conformance.run.runner import run_suite
from dominokit.conformance.wire.errors import EngineCrashed, EngineStartupFailed, EngineTimeout

ENGINES = "python:tests.conformance.engines.python_engines"
STARTUP = 60.0  # the worker imports the reference; generous, and never waited for in full


def _open(factory: str) -> SubprocessEngine:
    engine = open_engine(f"{ENGINES}:{factory}", timeout=STARTUP)
    assert isinstance(engine, SubprocessEngine)
    return engine


def _deal() -> dict[str, object]:
    return reference.random_deal(reference.load_rules("poldomino"), random.Random(1)).to_json()


def test_a_python_engine_that_hangs_times_out() -> None:
    with _open("HangsOnLegal") as engine:
        engine.hello()
        engine.new_hand("poldomino", {}, _deal())
        pid = engine.pid
        engine.timeout = 0.5
        with pytest.raises(EngineTimeout, match=r"no reply to 'legal' \(seq 3\) within 0.5 s"):
            engine.legal()
        assert engine.pid is None and pid is not None
        if sys.platform.startswith("linux"):
            assert not Path(f"/proc/{pid}").exists(), "the worker was killed and reaped"


def test_a_python_engine_calling_sys_exit_is_a_crash_with_its_status() -> None:
    with _open("ExitsOnLegal") as engine:
        engine.hello()
        engine.new_hand("poldomino", {}, _deal())
        with pytest.raises(EngineCrashed) as caught:
            engine.legal()
    assert caught.value.returncode == 5
    assert "exited with status 5 while answering 'legal'" in caught.value.detail


def test_a_run_against_an_exiting_python_engine_records_every_case(tmp_path: Path) -> None:
    cases = collect_cases("poldomino", only="perft/poldomino/start-d[12]")
    report = run_suite(f"{ENGINES}:ExitsOnLegal", cases=cases, timeout=STARTUP,
                       report_dir=tmp_path, out=io.StringIO())
    assert [(r.outcome.status, r.outcome.failure_kind) for r in report.records] == [
        ("errored", "crash"), ("errored", "crash")]


def test_a_hosted_engine_printing_on_stdout_does_not_corrupt_replies() -> None:
    with _open("PrintsOnStdout") as engine:
        assert engine.hello().name == "dominokit-reference"
        engine.new_hand("poldomino", {}, _deal())
        assert engine.legal()


def test_a_factory_that_raises_is_a_startup_failure_with_its_words() -> None:
    with _open("failing_factory") as engine, pytest.raises(EngineStartupFailed) as caught:
        engine.hello()
    assert "RuntimeError: no licence key for the engine" in caught.value.stderr
    assert caught.value.returncode == ExitStatus.USAGE_ERROR


def test_a_missing_factory_is_a_startup_failure_naming_it() -> None:
    engine = open_engine("python:json:no_such_factory", timeout=STARTUP)
    with engine, pytest.raises(EngineStartupFailed) as caught:
        engine.hello()
    assert "json:no_such_factory is not a callable" in caught.value.stderr


def test_the_worker_imports_what_the_caller_can(tmp_path: Path) -> None:
    # The module exists only on this process's sys.path and relative to its working directory.
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "my_engine_mod.py").write_text(
        "from dominokit.conformance.serve.refengine import ReferenceEngine as make\n")
    sys.path.insert(0, str(tmp_path / "elsewhere"))
    try:
        engine = open_engine("python:my_engine_mod:make", timeout=STARTUP)
        with engine:
            assert engine.hello().name == "dominokit-reference"
    finally:
        sys.path.remove(str(tmp_path / "elsewhere"))


def test_host_usage_errors_are_one_line() -> None:
    done = subprocess.run([sys.executable, "-m", "dominokit.conformance.serve.host", "nocolon"],
                          capture_output=True, text=True, timeout=STARTUP,
                          env={**os.environ})
    assert done.returncode == ExitStatus.USAGE_ERROR
    assert done.stderr.count("\n") == 1 and "MODULE:FACTORY" in done.stderr
