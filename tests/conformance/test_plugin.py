"""The pytest plugin: inert without ``--dominokit-engine``; with it, one item per case."""

from __future__ import annotations

import os
from importlib.metadata import entry_points
from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

REPO = Path(__file__).resolve().parents[2]
REFERENCE = "python:dominokit.conformance.serve.refengine:ReferenceEngine"
BROKEN = "python:tests.conformance.broken.engines:WidowStarterLowerHalf"


def _plugin_args() -> list[str]:
    """Load the plugin explicitly unless the installed entry point already does."""
    installed = any(ep.name == "dominokit" for ep in entry_points(group="pytest11"))
    return [] if installed else ["-p", "dominokit.conformance.run.plugin"]


@pytest.fixture
def run(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    # the child run must import dominokit as this run does, and tests.conformance.broken for the
    # fakes
    path = os.pathsep.join(p for p in (os.environ.get("PYTHONPATH"), str(REPO)) if p)
    monkeypatch.setenv("PYTHONPATH", path)
    return pytester


def test_inert_without_the_option(run: pytest.Pytester) -> None:
    run.makepyfile("def test_ordinary():\n    assert True\n")
    result = run.runpytest_subprocess(*_plugin_args())
    result.assert_outcomes(passed=1)
    assert "dominokit::" not in result.stdout.str()


def test_cases_become_items_named_by_case_id(run: pytest.Pytester) -> None:
    result = run.runpytest_subprocess(
        *_plugin_args(), "-v", "--dominokit-engine", REFERENCE,
        "--dominokit-only", "golden/szczerbak/*")
    outcomes = result.parseoutcomes()
    assert outcomes.get("passed", 0) >= 1 and "failed" not in outcomes
    result.stdout.fnmatch_lines(["*dominokit::golden/szczerbak/* PASSED*"])


def test_failures_read_like_the_cli(run: pytest.Pytester) -> None:
    result = run.runpytest_subprocess(
        *_plugin_args(), "--dominokit-engine",
        "python:tests.conformance.broken.engines:WidowStarterLowerHalf",
        "--dominokit-variant", "szczerbak",
        "--dominokit-only", "perft/szczerbak/widow-faces-1-d[12]")
    result.assert_outcomes(failed=2)
    result.stdout.fnmatch_lines([
        "*FAILED perft/szczerbak/widow-faces-1-d1: perft(1) = 1, expected 2*",
        "*rule: R-SZC-02 Widow: *",
    ])


@pytest.mark.parametrize("engine", ["/nonexistent/dominokit-engine", "python:no_such_module:x"])
def test_a_bad_engine_is_one_usage_error(run: pytest.Pytester, engine: str) -> None:
    result = run.runpytest_subprocess(*_plugin_args(), "--dominokit-engine", engine,
                                      "--dominokit-only", "perft/szczerbak/*")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    text = result.stdout.str() + result.stderr.str()
    assert text.count("ERROR: dominokit:") == 1, text
    assert "Traceback" not in text and "dominokit::" not in text


@pytest.mark.parametrize(("option", "value"), [
    ("--dominokit-timeout", "0"), ("--dominokit-timeout", "nan"), ("--dominokit-examples", "0"),
])
def test_a_bad_value_is_a_usage_error(run: pytest.Pytester, option: str, value: str) -> None:
    result = run.runpytest_subprocess(*_plugin_args(), "--dominokit-engine", REFERENCE,
                                      f"{option}={value}")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert option in result.stderr.str()


def test_timeout_and_expectations_as_the_cli_takes_them(run: pytest.Pytester) -> None:
    expected = run.path / "expected.yaml"
    expected.write_text('- "perft/szczerbak/widow-faces-1-d1": failed\n'
                        '  reason: "we let the lower half start"\n')
    result = run.runpytest_subprocess(
        *_plugin_args(), "-rxX", "--dominokit-engine", BROKEN, "--dominokit-timeout", "5",
        "--dominokit-expectations", str(expected),
        "--dominokit-only", "perft/szczerbak/widow-faces-1-d[12]")
    result.assert_outcomes(failed=1, xfailed=1)
    result.stdout.fnmatch_lines(["*XFAIL*widow-faces-1-d1*we let the lower half start*"])


def test_a_stale_expectation_fails(run: pytest.Pytester) -> None:
    expected = run.path / "expected.yaml"
    expected.write_text('- "golden/szczerbak/*": failed\n  reason: "older rules"\n')
    result = run.runpytest_subprocess(
        *_plugin_args(), "--dominokit-engine", REFERENCE,
        "--dominokit-expectations", str(expected), "--dominokit-only", "golden/szczerbak/*")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(["*STALE golden/szczerbak/*"])
