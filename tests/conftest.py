"""Shared test configuration: the ``rule`` marker, hypothesis profiles, and a stale-install guard.

The tests import ``dominokit.*``. After ``pip install -e .`` that is the checkout itself (the
repository's ``dominokit/`` folder maps each import name to its top-level folder), so the guard
finds nothing. After a plain ``pip install .`` it is a copy: a developer who edits a file and
forgets to reinstall would silently test old code, so the guard stops the run with the fix.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

REPO = Path(__file__).resolve().parent.parent
MAPPED_FOLDERS = ("spec", "reference", "conformance")

# "ci" is deterministic and bounded, for CI and everyday runs; "hunt" is for bug hunting:
# HYPOTHESIS_PROFILE=hunt python -m pytest tests/reference/test_properties.py
settings.register_profile(
    "ci",
    derandomize=True,
    max_examples=30,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "hunt",
    max_examples=2000,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "rule(*ids): the spec rule ids this test checks (read by the coverage gate)"
    )
    stale = _stale_files()
    if stale:
        listed = ", ".join(stale[:5]) + (" ..." if len(stale) > 5 else "")
        pytest.exit(
            f"the installed dominokit differs from this checkout ({listed}); "
            "run `python -m pip install -e .` once, and the checkout is what runs",
            returncode=4,
        )


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Wait for the background commands this process started (another worker may be about to
    read what they make), or stop them if the run was interrupted (tests/shared.py)."""
    from tests.shared import stop_started

    stop_started(wait=exitstatus != pytest.ExitCode.INTERRUPTED)


def pytest_unconfigure(config: pytest.Config) -> None:
    """Stop any background command still running, whatever ended the run."""
    from tests.shared import stop_started

    stop_started(wait=False)


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _stale_files() -> list[str]:
    """Checkout files whose installed copy is missing or different (empty when run live)."""
    import dominokit.reference

    installed_root = Path(dominokit.reference.__file__).resolve().parent.parent
    stale = []
    for folder in MAPPED_FOLDERS:
        for source in sorted((REPO / folder).rglob("*")):
            if not source.is_file() or "__pycache__" in source.parts:
                continue
            relative = source.relative_to(REPO)
            installed = installed_root / relative
            if not installed.is_file() or _digest(installed) != _digest(source):
                stale.append(str(relative))
    return stale


@pytest.fixture(scope="session")
def kit_wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The kit's wheel, built once per run however many workers use it (tests/shared.py)."""
    from tests.shared import build_wheel, once

    folder = once(tmp_path_factory, "wheel", lambda out: build_wheel(out, REPO))
    (built,) = folder.glob("dominokit-*.whl")
    return built


SLOW_TEST_SECONDS = 20.0
"""The budget of one test; a test over it is named at the end of the run (never failed)."""

_TEST_SECONDS: dict[str, float] = {}
_MUTANTS_KILLED: dict[str, bool] = {}
"""Each broken engine's verdict, as recorded by its test in test_broken_engines.py."""


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Add up set-up, call and tear-down of each test and gather the broken engines' verdicts
    (under xdist: as the workers report them)."""
    _TEST_SECONDS[report.nodeid] = _TEST_SECONDS.get(report.nodeid, 0.0) + report.duration
    for key, value in report.user_properties:
        if key == "mutant_killed":
            _MUTANTS_KILLED[report.nodeid] = bool(value)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Name the tests over the budget of one test, and after a run that judged broken engines
    (tests/conformance/broken/), print the mutation score. Figures only: nothing here fails."""
    import sys

    slow = sorted(((s, n) for n, s in _TEST_SECONDS.items() if s > SLOW_TEST_SECONDS),
                  reverse=True)
    if slow:
        terminalreporter.write_line(f"{len(slow)} test(s) over {SLOW_TEST_SECONDS:.0f} s "
                                    "(set-up + call + tear-down; make them faster, never skip):")
        for seconds, nodeid in slow:
            terminalreporter.write_line(f"  {seconds:6.1f} s  {nodeid}")
    verdicts = sys.modules.get("tests.conformance.broken.verdict")
    if verdicts is not None and verdicts.JUDGED:
        from tests.conformance.broken.catalogue import score_line

        terminalreporter.write_line(score_line(*verdicts.score()))
    elif _MUTANTS_KILLED:  # judged in xdist workers: their tests carried the verdicts
        from tests.conformance.broken.catalogue import score_line

        terminalreporter.write_line(score_line(sum(_MUTANTS_KILLED.values()),
                                               len(_MUTANTS_KILLED)))
