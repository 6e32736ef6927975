"""The pytest plugin: inert without ``--dominokit-engine``; with it, one item per case."""

from __future__ import annotations

import os
from importlib.metadata import entry_points
from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

REPO = Path(__file__).resolve().parent.parent
REFERENCE = "python:dominokit.conformance.refengine:ReferenceEngine"


def _plugin_args() -> list[str]:
    """Load the plugin explicitly unless the installed entry point already does."""
    installed = any(ep.name == "dominokit" for ep in entry_points(group="pytest11"))
    return [] if installed else ["-p", "dominokit.conformance.plugin"]


@pytest.fixture
def run(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    # the child run must import dominokit as this run does, and tests.broken for the fakes
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
        *_plugin_args(), "--dominokit-engine", "python:tests.broken.engines:WidowStarterLowerHalf",
        "--dominokit-variant", "szczerbak",
        "--dominokit-only", "perft/szczerbak/widow-faces-1-d[12]")
    result.assert_outcomes(failed=2)
    result.stdout.fnmatch_lines([
        "*FAILED perft/szczerbak/widow-faces-1-d1: perft(1) = 1, expected 2*",
        "*rules: R-ALL-11, R-SZC-02*",
    ])
