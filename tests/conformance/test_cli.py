"""The ``dominokit`` command line: exit statuses, values checked before a run, broken pipes.

Exit statuses are pytest's (``ExitStatus``): 0 all passed, 1 failures, 2 interrupted,
3 internal error, 4 usage error, 5 no cases selected. Most tests call ``main`` in-process;
those about pipes run the real command, because a broken pipe is a property of the process.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from dominokit.conformance.cases import SUITE_VERSION, collect_cases
from dominokit.conformance.commands.cli import main
from dominokit.conformance.exit_status import ExitStatus
from dominokit.conformance.wire.protocol import PROTOCOL_VERSION
from dominokit.reference import variant_ids
from dominokit.spec.spec import load_variant

REPO = Path(__file__).resolve().parents[2]
REFERENCE = "python:dominokit.conformance.serve.refengine:ReferenceEngine"
WIDOW_BROKEN = "python:tests.conformance.broken.engines:WidowStarterLowerHalf"
WIDOW_CASES = "perft/szczerbak/widow-faces-1-d[12]"
NO_ENGINE = "/nonexistent/dominokit-engine"
"""An engine that cannot start: a command that never started it gives no startup error."""


def conform(tmp_path: Path, *extra: str) -> list[str]:
    return ["conform", "--report-dir", str(tmp_path / "report"), "--examples", "2", *extra]


def command(*args: str) -> list[str]:
    return [sys.executable, "-m", "dominokit.conformance", *args]


def environment() -> dict[str, str]:
    """The child imports dominokit as this run does, and ``tests.conformance.broken`` for the
    fakes."""
    path = os.pathsep.join(p for p in (os.environ.get("PYTHONPATH"), str(REPO)) if p)
    return {**os.environ, "PYTHONPATH": path}


# ---------------------------------------------------------------------------- usage errors


@pytest.mark.parametrize("args", [
    ["conform", "--no-such-option"],
    ["no-such-command"],
    [],
    ["play"],
    ["trace", "record", "--variant", "szczerbak", "--seed", "1", "--actions", "9-9"],
])
def test_usage_errors_exit_4_not_argparse_2(
    args: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(args) == ExitStatus.USAGE_ERROR
    err = capsys.readouterr().err
    assert "usage: dominokit" in err and "Traceback" not in err


@pytest.mark.parametrize(("option", "value"), [
    ("--timeout", "-1"), ("--timeout", "0"), ("--timeout", "nan"), ("--timeout", "inf"),
    ("--timeout", "1e999"), ("--timeout", "ten"), ("--startup-timeout", "0"),
    ("--startup-timeout", "nan"), ("--examples", "-5"), ("--examples", "0"),
    ("--budget", "0"), ("--budget", "-3"), ("--budget", "inf"),
    ("--max-engine-failures", "-1"), ("--maxfail", "-2"), ("--color", "sometimes"),
])
def test_bad_values_are_usage_errors_before_the_run(
    option: str, value: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # NO_ENGINE: had the run started, the error would be the engine's, not the option's
    status = main(conform(tmp_path, "--engine", NO_ENGINE, f"{option}={value}"))
    assert status == ExitStatus.USAGE_ERROR
    out, err = capsys.readouterr()
    assert option in err and "Traceback" not in err
    assert "did not start" not in out + err


def _unwritable(tmp_path: Path) -> dict[str, str]:
    a_file = tmp_path / "a-file"
    a_file.write_text("x")
    return {"under-a-file": str(a_file / "report.out"), "a-directory": str(tmp_path)}


@pytest.mark.parametrize("option", ["--json", "--junitxml"])
@pytest.mark.parametrize("where", ["under-a-file", "a-directory"])
def test_an_unwritable_report_path_is_a_usage_error_before_the_run(
    option: str, where: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _unwritable(tmp_path)[where]
    status = main(conform(tmp_path, "--engine", NO_ENGINE, option, path))
    assert status == ExitStatus.USAGE_ERROR
    out, err = capsys.readouterr()
    assert option in err and path in err and "Traceback" not in err
    assert "did not start" not in out + err


def test_a_report_dir_that_is_a_file_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a_file = tmp_path / "a-file"
    a_file.write_text("x")
    for report_dir in (a_file, a_file / "below"):
        status = main(["conform", "--engine", NO_ENGINE, "--report-dir", str(report_dir)])
        assert status == ExitStatus.USAGE_ERROR
        err = capsys.readouterr().err
        assert "--report-dir" in err and str(report_dir) in err


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_report_that_cannot_be_written_is_an_error_not_silence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = tmp_path / "r.json"
    status = main(conform(tmp_path, "--engine", REFERENCE, "--only", "golden/szczerbak/*",
                          "--junitxml", "/dev/full", "--json", str(report)))
    assert status == ExitStatus.USAGE_ERROR
    err = capsys.readouterr().err
    assert "/dev/full" in err and "No space left" in err
    assert json.loads(report.read_text())["summary"]["ok"] is True  # the other report is kept


@pytest.mark.parametrize(("raised", "status", "said"), [
    (RuntimeError("a bug"), ExitStatus.INTERNAL_ERROR, "internal error"),
    (KeyboardInterrupt(), ExitStatus.INTERRUPTED, "interrupted"),
])
def test_a_bug_is_3_and_an_interrupt_2_for_any_command(
    raised: BaseException, status: ExitStatus, said: str,
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    from dominokit.conformance.commands import play

    def fail(*args: object) -> int:
        raise raised

    monkeypatch.setattr(play, "run_play_all", fail)
    assert main(["sample"]) == status
    assert said in capsys.readouterr().err


# ---------------------------------------------------------------------------- what to run


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--version"]) == ExitStatus.OK
    out = capsys.readouterr().out
    assert out.startswith("dominokit ")
    assert f"suite {SUITE_VERSION}" in out and f"protocol {PROTOCOL_VERSION}" in out


def test_help_documents_the_exit_statuses(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["conform", "--help"]) == ExitStatus.OK
    out = " ".join(capsys.readouterr().out.split())
    for status in ExitStatus:
        assert f"{status.value} {status.name.lower().replace('_', ' ')}" in out, status


def test_list_prints_the_selected_ids_without_starting_an_engine(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status = main(conform(tmp_path, "--engine", NO_ENGINE, "--list", "--variant", "szczerbak",
                          "--only", "perft/*"))
    assert status == ExitStatus.OK
    expected = [c.id for c in collect_cases("szczerbak", "perft/*", examples=2)]
    assert expected and capsys.readouterr().out.splitlines() == expected


def test_no_matching_case_is_status_5_before_starting_an_engine(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(conform(tmp_path, "--engine", NO_ENGINE, "--only", "nothing/*")) == 5
    out, err = capsys.readouterr()
    assert "no case matches" in err and "nothing/*" in err
    assert "did not start" not in out + err
    assert main(conform(tmp_path, "--list", "--only", "nothing/*")) == ExitStatus.NO_CASES


def test_an_unknown_variant_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(conform(tmp_path, "--variant", "chess")) == ExitStatus.USAGE_ERROR
    assert "chess" in capsys.readouterr().err


def test_maxfail_and_x_stop_after_failures(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    report = tmp_path / "r.json"
    status = main(conform(tmp_path, "--engine", WIDOW_BROKEN, "--only", WIDOW_CASES, "-x",
                          "--json", str(report)))
    assert status == ExitStatus.FAILED
    cases = json.loads(report.read_text())["cases"]
    assert [c["status"] for c in cases] == ["failed", "not_run"]
    assert "--maxfail 1" in cases[1]["message"]
    assert "1 not run" in capsys.readouterr().out


# ---------------------------------------------------------------------------- play


def test_play_help_lists_the_variants_and_their_options_from_the_spec(
    capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["play", "--help"]) == ExitStatus.OK
    out = capsys.readouterr().out
    for variant_id in variant_ids():
        assert variant_id in out
        for name in load_variant(variant_id).options:
            assert name in out, (variant_id, name)
    # the README's example option, with its values
    assert "lake_rule" in out and "newly_enclosed" in out


@pytest.mark.parametrize("args", [
    ["play", "nosuch"],
    ["play", "szczerbak", "--option", "foo=bar"],
    ["play", "poldomino", "--option", "catch_penalty_to=nobody"],
])
def test_play_bad_input_is_a_usage_error(args: list[str],
                                         capsys: pytest.CaptureFixture[str]) -> None:
    assert main(args) == ExitStatus.USAGE_ERROR
    assert "Traceback" not in capsys.readouterr().err


# ---------------------------------------------------------------------------- broken pipes


def _closed_stdout(args: list[str], tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """Run with stdout a pipe nobody reads any more, as in ``dominokit ... | head -0``."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        return subprocess.run(command(*args), stdout=write_end, stderr=subprocess.PIPE,
                              text=True, env=environment(), cwd=tmp_path, timeout=120,
                              check=False)
    finally:
        os.close(write_end)


def test_play_into_a_closed_pipe_is_quiet(tmp_path: Path) -> None:
    done = _closed_stdout(["play", "poldomino", "--seed", "7"], tmp_path)
    assert (done.returncode, done.stderr) == (ExitStatus.OK, "")


def test_a_failing_run_into_a_closed_pipe_still_exits_1(tmp_path: Path) -> None:
    report = tmp_path / "r.json"
    done = _closed_stdout(["conform", "--engine", WIDOW_BROKEN, "--only", WIDOW_CASES,
                           "--json", str(report)], tmp_path)
    assert done.returncode == ExitStatus.FAILED, done.stderr
    assert "Broken pipe" not in done.stderr and "Traceback" not in done.stderr
    assert json.loads(report.read_text())["summary"]["failed"] == 2


def test_head_reads_the_first_line_of_play(tmp_path: Path) -> None:
    """The common case: the reader goes away after a line, while output is still coming."""
    with subprocess.Popen(command("sample", "--seed", "3"), stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, env=environment(), cwd=tmp_path) as proc:
        assert proc.stdout is not None and proc.stderr is not None
        first = proc.stdout.readline()
        proc.stdout.close()
        err = proc.stderr.read()
        assert proc.wait(timeout=120) == ExitStatus.OK
    assert first.startswith(b"variant: ")
    assert err == b""
