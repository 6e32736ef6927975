"""SIGTERM and SIGHUP stop ``dominokit conform`` like Ctrl-C: partial report, no orphans, 2.

A real ``dominokit conform`` runs against an engine that hangs on its third request; the engine
writes its pid (and its child's) to a file once it hangs, and the test signals the kit only
then, so nothing depends on how long anything takes.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from dominokit.conformance.exit_status import ExitStatus
from tests.conformance.test_cli import command, environment

HANG_AFTER = Path(__file__).resolve().parent / "engines" / "hang_after.py"
WAIT = 60.0
"""Seconds to wait for an event before the test fails (never slept through: polled)."""


def alive(pid: int) -> bool:
    """True while ``pid`` runs (a zombie waiting for a reaper counts as gone)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True
    return stat.rsplit(")", 1)[1].split()[0] not in ("Z", "X")


def wait_for(predicate: Callable[[], bool], what: str, seconds: float = WAIT) -> None:
    deadline = time.monotonic() + seconds
    while not predicate():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {what}")
        time.sleep(0.02)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_a_signal_writes_the_partial_report_and_leaves_no_engine(
    signum: signal.Signals, tmp_path: Path
) -> None:
    pids = tmp_path / "pids"
    report = tmp_path / "r.json"
    engine = f"{sys.executable} {HANG_AFTER} 3 {pids}"
    args = ["conform", "--engine", engine, "--variant", "szczerbak", "--only", "perft/*",
            "--timeout", "600", "--json", str(report), "--report-dir", str(tmp_path / "dir")]
    with subprocess.Popen(command(*args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          env=environment(), cwd=tmp_path, text=True) as kit:
        try:
            wait_for(lambda: pids.is_file() and pids.read_text().endswith("\n"),
                     "the engine to hang")
            kit.send_signal(signum)
            out, err = kit.communicate(timeout=WAIT)
        finally:
            if kit.poll() is None:
                kit.kill()
    assert kit.returncode == ExitStatus.INTERRUPTED, err
    assert "interrupted" in err and "Traceback" not in err
    assert "INTERRUPTED" in out
    data = json.loads(report.read_text())
    assert data["interrupted"] is True and data["summary"]["ok"] is False
    # each worker's engine (the default runs one per usable CPU) and its child: gone with the
    # kit (a few seconds' grace for the system to reap them)
    hung = [int(p) for p in pids.read_text().split()]
    assert hung and len(hung) % 2 == 0
    wait_for(lambda: not any(alive(pid) for pid in hung),
             "every engine and its child to be gone", seconds=5.0)
