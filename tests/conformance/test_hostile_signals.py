"""Signals from a supervisor, and a kit killed outright: whatever arrives and however often,
the kit kills every process it started, writes what ran and exits 2; a kit killed by SIGKILL
takes its engines with it (Linux: a parent-death signal).

Every wait is on observable state (the pid file a scripted engine writes once it hangs,
``/proc``), never a bare sleep; the 20 ms between signals is the supervisor's rhythm under
test, not a synchronisation. Whatever a test started is killed at its end.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from pathlib import Path

import pytest

from tests.conformance.hostile_support import (
    ONE_CASE,
    REPO,
    alive,
    command,
    environment,
    kill_all,
    pids_in,
    scripted_engine,
    wait_for,
)

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="signals and /proc as Linux has them")

GONE_WITHIN = 10.0
"""Seconds every process of the run gets to be gone once the kit has exited."""


def _descendants_marked(kit_pid: int) -> list[int]:
    """Processes whose environment names an engine of the kit ``kit_pid`` (the kit marks each
    engine's environment with its own pid), wherever they were re-parented."""
    found = []
    mark = f"DOMINOKIT_ENGINE_ID={kit_pid}-".encode()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            environ = (entry / "environ").read_bytes()
        except OSError:
            continue
        if mark in environ and alive(int(entry.name)):
            found.append(int(entry.name))
    return found


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (the kit's forked workers, its engines)."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            stat = (entry / "stat").read_text() if entry.name.isdigit() else ""
        except OSError:
            continue
        if stat and int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            found.append(int(entry.name))
    return found


def _kit(tmp_path: Path, engine: str, *extra: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        command("conform", "--engine", engine, "--only", ONE_CASE, "--workers", "1",
                "--timeout", "600", "--startup-timeout", "600",
                "--json", str(tmp_path / "r.json"), "--junitxml", str(tmp_path / "r.xml"),
                "--report-dir", str(tmp_path / "rd"), *extra),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=environment(), cwd=tmp_path)


def _signal_and_finish(kit: subprocess.Popen[bytes], pid_file: Path,
                       signals: Sequence[signal.Signals]) -> tuple[int, str, list[int]]:
    """Wait for the engine to hang, send ``signals`` 20 ms apart, wait for the kit; returns
    its status, its stderr and the engine's pids. Kills whatever is left in any case."""
    pids: list[int] = []
    try:
        wait_for(lambda: bool(pids_in(pid_file)), "the engine to hang")
        pids = pids_in(pid_file)
        for number, signum in enumerate(signals):
            if number:
                time.sleep(0.02)
            if kit.poll() is None:
                kit.send_signal(signum)
        _, err = kit.communicate(timeout=60)
        wait_for(lambda: not any(alive(p) for p in pids), "the engine's processes to go",
                 GONE_WITHIN)
        return kit.returncode, err.decode(errors="replace"), pids
    finally:
        left = _descendants_marked(kit.pid)
        if kit.poll() is None:
            kit.kill()
            kit.wait()
        kill_all([*pids, *left, *_descendants_marked(kit.pid)])


def _reports_hold_what_ran(tmp_path: Path) -> None:
    data = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert data["interrupted"] is True
    ET.parse(tmp_path / "r.xml")


def test_a_supervisor_insisting_with_forty_sigterms_gets_status_2(tmp_path: Path) -> None:
    pid_file = tmp_path / "pids"
    engine = scripted_engine(tmp_path, hang="new_hand", pid_file=str(pid_file))
    kit = _kit(tmp_path, engine)
    status, err, _ = _signal_and_finish(kit, pid_file, [signal.SIGTERM] * 40)
    assert status == 2, err  # 143 before: the handlers were restored before the exit
    assert "Traceback" not in err
    _reports_hold_what_ran(tmp_path)


@pytest.mark.parametrize("second", [signal.SIGTERM, signal.SIGINT], ids=["then-term", "twice"])
def test_a_second_signal_after_ctrl_c_does_not_cut_the_reports_short(
        tmp_path: Path, second: signal.Signals) -> None:
    pid_file = tmp_path / "pids"
    engine = scripted_engine(tmp_path, hang="new_hand", pid_file=str(pid_file), helpers=100)
    kit = _kit(tmp_path, engine)
    status, err, pids = _signal_and_finish(kit, pid_file, [signal.SIGINT, second])
    assert len(pids) == 101
    assert status == 2, err
    assert "Traceback" not in err
    _reports_hold_what_ran(tmp_path)  # neither report was written before


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_two_signals_during_start_up_leave_no_process_frozen_or_running(
        tmp_path: Path, signum: signal.Signals) -> None:
    pid_file = tmp_path / "pids"
    engine = scripted_engine(tmp_path, hang="hello", pid_file=str(pid_file), helpers=100)
    kit = _kit(tmp_path, engine)
    status, err, pids = _signal_and_finish(kit, pid_file, [signum, signum])
    assert len(pids) == 101
    assert status == 2, err  # 143 before, with up to 102 processes left stopped under init
    assert "Traceback" not in err
    assert "did not start" not in err  # the engine was interrupted, not broken
    _reports_hold_what_ran(tmp_path)


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_killed_kit_takes_its_python_engines_with_it(tmp_path: Path, workers: str) -> None:
    pid_dir = tmp_path / "pids"
    pid_dir.mkdir()
    kit = subprocess.Popen(
        command("conform", "--engine", "python:tests.conformance.engines.hostile_python:hung",
                "--only", "golden/poldomino/catch-*", "--workers", workers,
                "--timeout", "600", "--startup-timeout", "600"),
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=REPO,
        env=environment(HOSTILE_PID_DIR=str(pid_dir)))
    hosts: list[int] = []
    try:
        wait_for(lambda: len(list(pid_dir.glob("*.pid"))) == int(workers),
                 "every engine to be in its hello")
        hosts = [int(p.stem) for p in pid_dir.glob("*.pid")]
        hosts += [pid for pid in _children(kit.pid) if pid not in hosts]  # forked workers
        assert all(alive(pid) for pid in hosts)
        kit.kill()  # as a CI job's timeout does after its grace period
        kit.wait()
        wait_for(lambda: not any(alive(pid) for pid in hosts),
                 "the engine workers to die with the kit", GONE_WITHIN)
    finally:
        if kit.poll() is None:
            kit.kill()
            kit.wait()
        kill_all([*hosts, *_descendants_marked(kit.pid)])

