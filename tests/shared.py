"""One artefact per test session, however many pytest-xdist workers ask for it.

A session fixture runs once per worker: a wheel or a virtual environment built by a session
fixture would be built once per worker, each time the same. ``once`` builds it in a folder
that every worker of the run shares (under pytest's temporary base of this run), the first
asker building it under a file lock while the others wait, and every later asker reusing it.
Nothing outlives the run: the folder is in this run's temporary base, so a new run builds
afresh from the checkout as it is.
"""

from __future__ import annotations

import fcntl
import shutil
from collections.abc import Callable
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
