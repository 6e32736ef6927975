"""One artefact per test session, however many pytest-xdist workers ask for it.

A session fixture runs once per worker: a wheel or a virtual environment built by a session
fixture would be built once per worker, each time the same. ``once`` builds it in a folder
that every worker of the run shares (under pytest's temporary base of this run), the first
asker building it under a file lock while the others wait, and every later asker reusing it.
Nothing outlives the run: the folder is in this run's temporary base, so a new run builds
afresh from the checkout as it is.

An artefact that takes tens of seconds (the rule book site, the quick benchmark) would make
the first test that asks for it that slow, and leave the other worker idle if it asks too.
``start_once`` starts such a command in the background as soon as the run has collected a
test that will ask for it, and ``once_started`` hands out what it made: by the time the test
runs the artefact is usually made. Whoever starts a command owns it: at the end of its
session it waits for the command (another worker may need it), and stops it if the session
was interrupted, leaving no process and no half-made folder behind (``stop_started``).
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

DONE = ".built"
"""Written last, when the artefact is whole: a build that failed half-way is rebuilt."""


def run_folder(factory: pytest.TempPathFactory) -> Path:
    """The folder every worker of this run shares: the controller's temporary base (a worker's
    own base is a ``popen-gwN`` folder inside it), or this process's base without xdist."""
    base = factory.getbasetemp()
    return base.parent if base.name.startswith("popen-gw") else base


def once(factory: pytest.TempPathFactory, name: str, build: Callable[[Path], object]) -> Path:
    """The folder ``name`` of this run, made by ``build(folder)`` once across all workers."""
    shared = run_folder(factory) / "shared"
    shared.mkdir(exist_ok=True)
    folder = shared / name
    with (shared / f"{name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            if not (folder / DONE).is_file():
                shutil.rmtree(folder, ignore_errors=True)
                folder.mkdir()
                build(folder)
                (folder / DONE).write_text("")
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
    return folder


@dataclass(frozen=True)
class Command:
    """A command that makes an artefact in a folder: ``{out}`` in ``argv`` is that folder,
    ``prepare(folder)`` runs first (it may write input files there); one that runs longer
    than ``timeout`` seconds is killed and fails."""

    argv: tuple[str, ...]
    cwd: Path
    env: dict[str, str]
    prepare: Callable[[Path], None] | None = None
    timeout: float = 900

    def popen(self, folder: Path) -> subprocess.Popen[str]:
        if self.prepare is not None:
            self.prepare(folder)
        argv = [arg.replace("{out}", str(folder)) for arg in self.argv]
        return subprocess.Popen(argv, cwd=self.cwd, env=self.env, text=True,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)


@dataclass(frozen=True)
class Outcome:
    """What a command said and where it wrote (whatever its exit status: a test reports it)."""

    folder: Path
    returncode: int
    stdout: str
    stderr: str


@dataclass
class _Started:
    process: subprocess.Popen[str]
    thread: threading.Thread
    folder: Path
    outcome_file: Path
    stopped: bool = False


_STARTED: list[_Started] = []
"""The commands this process started (``start_once``) and has not yet waited for."""


def _paths(factory: pytest.TempPathFactory, name: str) -> tuple[Path, Path, Path]:
    shared = run_folder(factory) / "shared"
    shared.mkdir(exist_ok=True)
    return shared / name, shared / f"{name}.json", shared / f"{name}.lock"


def _outcome(process: subprocess.Popen[str], timeout: float) -> str:
    started = time.time()
    try:
        stdout, stderr = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        stdout, stderr = process.communicate()
        stderr += f"\n(killed: still running after {timeout:.0f} s)"
    return json.dumps({"returncode": process.returncode, "stdout": stdout, "stderr": stderr,
                       "waited": [started, time.time()], "pid": os.getpid()})


def _read(folder: Path, outcome_file: Path) -> Outcome:
    data = json.loads(outcome_file.read_text(encoding="utf-8"))
    return Outcome(folder, int(data["returncode"]), str(data["stdout"]), str(data["stderr"]))


def _stop(process: subprocess.Popen[str]) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def start_once(factory: pytest.TempPathFactory, name: str, command: Command) -> None:
    """Start ``command`` in the background for the folder ``name`` of this run, unless some
    process of the run has made it or is making it (it holds the lock while it does)."""
    folder, outcome_file, lock_file = _paths(factory, name)
    lock = lock_file.open("w")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        lock.close()
        return
    try:
        if outcome_file.is_file():
            lock.close()
            return
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir()
        process = command.popen(folder)
    except BaseException:
        lock.close()
        raise

    def finish() -> None:
        try:
            outcome = _outcome(process, command.timeout)
            if not started.stopped:
                outcome_file.write_text(outcome, encoding="utf-8")
        finally:
            lock.close()  # releases the lock: the waiting askers read the outcome

    started = _Started(process, threading.Thread(target=finish, daemon=True), folder,
                       outcome_file)
    _STARTED.append(started)
    started.thread.start()


def once_started(factory: pytest.TempPathFactory, name: str, command: Command) -> Outcome:
    """What ``command`` made in the folder ``name`` of this run: waits for the one that
    ``start_once`` started, or runs it now if none was (or it was stopped)."""
    folder, outcome_file, lock_file = _paths(factory, name)
    with lock_file.open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not outcome_file.is_file():
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir()
            process = command.popen(folder)
            try:
                outcome = _outcome(process, command.timeout)
            except BaseException:
                _stop(process)
                shutil.rmtree(folder, ignore_errors=True)
                raise
            outcome_file.write_text(outcome, encoding="utf-8")
    return _read(folder, outcome_file)


def stop_started(*, wait: bool) -> None:
    """Wait for the commands this process started (``wait``), or stop them and remove what
    they half made; an interrupt while waiting stops them too."""
    try:
        while wait and _STARTED:
            _STARTED[0].thread.join()
            _STARTED.pop(0)
    finally:
        for started in _STARTED:
            started.stopped = True
            _stop(started.process)
            started.thread.join()
            if not started.outcome_file.is_file():  # not done before it was stopped
                shutil.rmtree(started.folder, ignore_errors=True)
        _STARTED.clear()


def clean_env() -> dict[str, str]:
    """This environment without a path back into the checkout or into the outer venv."""
    import os

    return {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}


def build_wheel(folder: Path, root: Path) -> None:
    """The kit's wheel, built from ``root`` into ``folder`` as a user's ``pip wheel`` builds it."""
    import subprocess
    import sys

    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q",
                    "--disable-pip-version-check", "-w", str(folder), str(root)], check=True)


def install_venv(env_dir: Path, *requirements: str | Path) -> Path:
    """A fresh venv at ``env_dir`` with each of ``requirements`` installed in turn, each with
    its dependencies; its python is returned.

    The venv gets no pip of its own: this run's pip installs into it (``pip --python``), the
    same resolver a user's venv runs, without bootstrapping a second pip each time. Nothing is
    byte-compiled ahead: the tests import a few modules of what they install, not all of it.
    """
    import subprocess
    import sys
    import venv

    venv.create(env_dir, with_pip=False)
    python = env_dir / "bin" / "python"
    for requirement in requirements:
        subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q",
                        "--no-compile", "--disable-pip-version-check", str(requirement)],
                       check=True, env=clean_env())
    return python
