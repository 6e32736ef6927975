"""What the hostile-input tests share: running the kit as a user does, a scripted engine, and
waiting on observable state (never on a bare sleep)."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
ENGINES = REPO / "tests" / "conformance" / "engines"
HOSTILE = ENGINES / "hostile_reply.py"
ONE_CASE = "golden/poldomino/catch-double-blank"
"""A case of the one variant the scripted engine declares: its first request is not hello."""
WAIT = 30.0


def command(*args: str) -> list[str]:
    """The ``dominokit`` command line, run by this interpreter."""
    return [sys.executable, "-m", "dominokit.conformance", *args]


def environment(**extra: str) -> dict[str, str]:
    """The child imports dominokit as this run does."""
    path = os.pathsep.join(p for p in (os.environ.get("PYTHONPATH"), str(REPO)) if p)
    env = {**os.environ, "PYTHONPATH": path, **extra}
    env.pop("NO_COLOR", None)
    return env


def run(*args: str, cwd: Path, timeout: float = WAIT, **popen: Any
        ) -> subprocess.CompletedProcess[bytes]:
    """``dominokit ARGS`` to the end, its output as bytes (so nothing is decoded away)."""
    return subprocess.run(command(*args), cwd=cwd, env=popen.pop("env", environment()),
                          capture_output=True, timeout=timeout, check=False, **popen)


def scripted_engine(tmp_path: Path, name: str = "engine", **config: Any) -> str:
    """An ``--engine`` value for ``hostile_reply.py`` with ``config`` (see that file)."""
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(config), encoding="utf-8")
    return f"{sys.executable} {HOSTILE} {path}"


def alive(pid: int) -> bool:
    """True while ``pid`` runs (a zombie counts as gone)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] not in ("Z", "X")


def wait_for(predicate: Callable[[], bool], what: str, seconds: float = WAIT) -> None:
    """Poll ``predicate`` until it holds; fail the test after ``seconds``."""
    deadline = time.monotonic() + seconds
    while not predicate():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {what}")
        time.sleep(0.02)


def pids_in(path: Path) -> list[int]:
    """The pids a scripted engine wrote once it hung (empty before)."""
    try:
        return [int(p) for p in path.read_text().split()]
    except OSError:
        return []


def kill_all(pids: Sequence[int]) -> None:
    """SIGKILL whatever of ``pids`` is still running (a test kills everything it started)."""
    for pid in pids:
        if alive(pid):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, 9)
