"""No process the kit starts outlives it: an engine's whole tree dies with the engine.

The engine here is the reference with helpers of its own
(``tests/conformance/engines/reference_with.py``):
a plain child holding its stdout, and an orphaned grandchild in a session of its own. Each test
reads the pids the engine recorded and checks /proc for survivors; a zombie counts as gone.
"""

from __future__ import annotations

import io
import os
import shlex
import signal
import sys
import time
from pathlib import Path

import pytest

from dominokit.conformance.cases import collect_cases
from dominokit.conformance.cases.model import Case
from dominokit.conformance.kit.driver import SubprocessEngine
from dominokit.conformance.run.runner import run_suite
from dominokit.conformance.wire.errors import EngineFailure

ENGINES = Path(__file__).resolve().parent / "engines"
TIMEOUT = 30.0  # never waited for: every failure below is noticed as it happens

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="reads /proc to find survivors")


def _stat(pid: int) -> list[str] | None:
    """The fields of /proc/PID/stat after the command name (field 3 on), or None."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (FileNotFoundError, ProcessLookupError):
        return None


def alive(pid: int, started: str) -> bool:
    """True while the recorded process runs (not a zombie, and not a new one with its pid)."""
    fields = _stat(pid)
    return fields is not None and fields[0] != "Z" and fields[19] == started


def recorded(pidfile: Path) -> list[tuple[int, str]]:
    lines = pidfile.read_text().split("\n") if pidfile.exists() else []
    return [(int(pid), started) for pid, started in (line.split() for line in lines if line)]


def engine(pidfile: Path, twist: str) -> list[str]:
    return [sys.executable, str(ENGINES / "reference_with.py"), str(pidfile), twist]


def command(pidfile: Path, twist: str) -> str:
    return shlex.join(engine(pidfile, twist))


def _cases() -> list[Case]:
    return collect_cases("poldomino", only="perft/poldomino/start-d[12]")


TWISTS = [
    # twist, failure kind of the first case, words of its message
    ("none", None, ""),
    ("exit", "crash", "exited with status 7 while answering 'legal'"),
    ("sigkill", "crash", "killed by signal SIGKILL while answering 'legal'"),
    ("sigterm", "crash", "killed by signal SIGTERM while answering 'legal'"),
    ("killall", "crash", "killed by signal SIGKILL while answering 'legal'"),
    ("deep", "malformed", "nests arrays and objects 5002 deep, over the limit of 32"),
]


@pytest.mark.parametrize(("twist", "kind", "words"), TWISTS, ids=[t[0] for t in TWISTS])
def test_no_process_the_engine_started_survives_a_run(
    tmp_path: Path, twist: str, kind: str | None, words: str
) -> None:
    pidfile = tmp_path / "pids"
    report = run_suite(command(pidfile, twist), cases=_cases(), timeout=TIMEOUT,
                       report_dir=tmp_path, out=io.StringIO())
    first, *rest = report.records
    if kind is None:
        assert first.outcome.status == "passed", first.outcome.message
    else:
        assert (first.outcome.status, first.outcome.failure_kind) == ("errored", kind)
        assert words in first.outcome.message
    assert [r.outcome.status for r in rest] == ["passed"], "the restarted engine plays on"
    pids = recorded(pidfile)
    assert len(pids) == 3 * (1 if kind is None else 2), "one engine, or a first and a restart"
    assert [pid for pid, started in pids if alive(pid, started)] == []


def test_orphans_of_an_engine_are_reparented_to_the_kit(tmp_path: Path) -> None:
    pidfile = tmp_path / "pids"
    with SubprocessEngine(engine(pidfile, "none"), timeout=TIMEOUT) as served:
        served.hello()
        (_, _), (_, _), (orphan, _) = recorded(pidfile)
        fields = _stat(orphan)
        assert fields is not None
        assert int(fields[1]) == os.getpid(), "the kit is a child subreaper"
    assert [pid for pid, started in recorded(pidfile) if alive(pid, started)] == []


def test_close_after_an_interrupted_request_kills_the_tree_at_once(tmp_path: Path) -> None:
    # Ctrl-C (or a SIGTERM handler raising) lands while the kit waits for a hung engine; the
    # runner's cleanup then calls close(), which must not wait for a quit the engine cannot read.
    pidfile = tmp_path / "pids"
    served = SubprocessEngine(engine(pidfile, "hang"), timeout=TIMEOUT)
    served.hello()
    served.new_hand("poldomino", {}, _a_deal())

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGALRM, interrupt)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.3)
        with pytest.raises(KeyboardInterrupt):
            served.legal()  # the third reply never comes
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    started = time.monotonic()
    served.close()
    assert time.monotonic() - started < 1.0
    assert [pid for pid, began in recorded(pidfile) if alive(pid, began)] == []
    served.close()  # idempotent


def test_a_failed_engine_is_killed_with_its_tree_before_the_failure_is_raised(
    tmp_path: Path,
) -> None:
    pidfile = tmp_path / "pids"
    with SubprocessEngine(engine(pidfile, "exit"), timeout=TIMEOUT) as served:
        served.hello()
        served.new_hand("poldomino", {}, _a_deal())
        with pytest.raises(EngineFailure):
            served.legal()
        assert [pid for pid, began in recorded(pidfile) if alive(pid, began)] == []


def _a_deal() -> dict[str, object]:
    import random

    import dominokit.reference as reference

    return reference.random_deal(reference.load_rules("poldomino"), random.Random(1)).to_json()
