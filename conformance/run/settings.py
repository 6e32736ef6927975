"""The values a run is given, checked before anything starts.

A bad value found after an hour of cases costs the hour (an unwritable ``--json`` used to lose
the whole report at the end), so the command line and the pytest plugin check every number and
every output path first, with these functions, and stop with a usage error naming the option.
Each check raises ``SettingError`` with a message that reads after ``--option VALUE: ``.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Literal

from dominokit.conformance.cases import DEFAULT_EXAMPLES
from dominokit.conformance.kit.engines import EngineSpec, Timeouts
from dominokit.reference.errors import DominokitError


class SettingError(DominokitError, ValueError):
    """A value that no run can use; the message says which and why."""


def seconds(text: str | float) -> float:
    """A positive, finite number of seconds (``0``, ``-1``, ``nan``, ``inf`` are refused)."""
    try:
        value = float(text)
    except (TypeError, ValueError):
        raise SettingError(f"{text!r} is not a number of seconds") from None
    if not math.isfinite(value) or value <= 0:
        raise SettingError(f"{text!r} is not a positive, finite number of seconds")
    return value


def count(text: str | int, minimum: int = 0) -> int:
    """A whole number at least ``minimum``."""
    try:
        value = int(text)
    except (TypeError, ValueError):
        raise SettingError(f"{text!r} is not a whole number") from None
    if value < minimum:
        raise SettingError(f"{text!r} is less than {minimum}")
    return value


def writable_file(path: str | Path) -> None:
    """Refuse a path a report cannot be written to: a directory, a path below a file, a path
    through a symbolic link that leads nowhere, or a folder this process may not write in.
    Missing parent folders are fine (they are made)."""
    target = Path(path)
    _no_broken_link(target, path)
    if target.is_dir():
        raise SettingError(f"{path} is a directory, not a file")
    if target.exists():
        if not os.access(target, os.W_OK):
            raise SettingError(f"{path} is not writable")
        if not target.is_file():
            return  # a device or a pipe (/dev/stdout): written in place, checked when written
    _creatable(target.parent, path)


def writable_dir(path: str | Path) -> None:
    """Refuse a folder that cannot hold files: a file, below a file, through a symbolic link
    that leads nowhere, or not writable."""
    target = Path(path)
    _no_broken_link(target, path)
    if target.exists() and not target.is_dir():
        raise SettingError(f"{path} is not a directory")
    _creatable(target, path)


def _no_broken_link(target: Path, given: str | Path) -> None:
    """Refuse a path one of whose parts is a symbolic link that leads nowhere (a loop, or a
    link to something missing): no file can be made there, and without this check the run
    would find out only when it writes its reports, after every case."""
    for part in [target, *target.parents]:
        if os.path.islink(part) and not part.exists():
            raise SettingError(f"{given}: {part} is a symbolic link that leads nowhere "
                               f"(a loop, or its target is missing)")


OutputKind = Literal["file", "dir"]


def check_outputs(outputs: Sequence[tuple[str, str | Path | None, OutputKind]]) -> None:
    """Check every output path of a command before anything runs, each with the check of its
    kind (``writable_file``, ``writable_dir``), and refuse two outputs on one file: the second
    report written would replace the first. ``outputs`` are (option, path or None, kind);
    the error names the option."""
    seen: dict[str, tuple[str, str | Path]] = {}
    for option, path, kind in outputs:
        if path is None:
            continue
        try:
            (writable_file if kind == "file" else writable_dir)(path)
        except SettingError as error:
            raise SettingError(f"{option} {path}: {error}") from None
        if kind != "file" or not Path(path).is_file() and Path(path).exists():
            continue  # a device (/dev/stdout) may well take two reports
        key = os.path.normcase(os.path.realpath(path))
        if key in seen:
            first, where = seen[key]
            raise SettingError(f"{first} {where} and {option} {path} are the same file: "
                               f"each report needs a path of its own")
        seen[key] = (option, path)


def _creatable(folder: Path, given: str | Path) -> None:
    """``folder`` exists and is writable, or can be made in its nearest existing ancestor."""
    existing = folder
    while not existing.exists():
        if existing.parent == existing:
            break
        existing = existing.parent
    if existing.exists() and not existing.is_dir():
        raise SettingError(f"{given}: {existing} is a file, not a directory")
    if not os.access(existing, os.W_OK | os.X_OK):
        raise SettingError(f"{given}: cannot write in {existing}")


def argument_type(check: Callable[[str], object]) -> Callable[[str], Any]:
    """An argparse ``type`` (pytest's options use argparse too) from a check above, so the
    message is the check's own rather than argparse's "invalid value"."""

    def convert(text: str) -> object:
        try:
            return check(text)
        except SettingError as error:
            raise argparse.ArgumentTypeError(str(error)) from None

    convert.__name__ = getattr(check, "__name__", "value")
    return convert


def at_least_one(text: str) -> int:
    """A count of at least 1 (``--examples``)."""
    return count(text, 1)


AUTO: Final = "auto"
"""The ``--workers`` value that means one worker per usable CPU (``usable_cpus``)."""


def workers(text: str) -> int | Literal["auto"]:
    """``--workers``: ``auto`` or a count of at least 1 (``1``: the serial run)."""
    if text.strip().lower() == AUTO:
        return AUTO
    try:
        return count(text, 1)
    except SettingError:
        raise SettingError(f"{text!r} is neither {AUTO!r} nor a whole number of at least 1"
                           ) from None


def usable_cpus() -> int:
    """The CPUs this process may run on: its affinity mask where the platform has one (a
    container or ``taskset`` may allow fewer than the machine has), else the machine's."""
    affinity = getattr(os, "sched_getaffinity", None)
    if affinity is not None:
        with contextlib.suppress(OSError):
            return max(1, len(affinity(0)))
    return max(1, os.cpu_count() or 1)


DEFAULT_REPORT_DIR: Final = "dominokit-report"
"""Where repro traces are written (``--report-dir``)."""

STDOUT: Final = "-"
"""A report path that means standard output (the terminal's lines then go to stderr)."""

DEFAULT_MAX_ENGINE_FAILURES: Final = 3
"""Cases in a row whose engine timed out or crashed before a run stops
(``--max-engine-failures``)."""


@dataclass(frozen=True)
class RunSettings:
    """Everything a conformance run is given, as typed values: the CLI and the plugin build
    one from their options once, and nothing below them reads an option again.

    ``variant``, ``only``, ``examples`` and ``seed`` select and size the cases; ``budget``,
    ``max_engine_failures`` and ``maxfail`` stop a run early (0 or None: no limit);
    ``workers`` above 1 runs cases in that many worker processes, each with its own engine.
    The report paths are None when that report is not asked for.
    """

    engine: EngineSpec = field(default_factory=lambda: EngineSpec.parse(None))
    variant: str | None = None
    only: str | Sequence[str] | None = None
    skip: Sequence[str] = ()
    rules: Sequence[str] = ()
    examples: int = DEFAULT_EXAMPLES
    seed: int = 0
    timeouts: Timeouts = field(default_factory=Timeouts)
    report_dir: Path = Path(DEFAULT_REPORT_DIR)
    json_path: Path | None = None
    junit_path: Path | None = None
    jsonl_path: Path | None = None
    html_path: Path | None = None
    markdown_path: Path | None = None
    badge_dir: Path | None = None
    since: str | None = None
    """The suite version the engine's author names (``--since``)."""
    budget: float | None = None
    max_engine_failures: int = DEFAULT_MAX_ENGINE_FAILURES
    maxfail: int = 0
    workers: int = 1
    progress: bool = False
    color: bool = False
    verbosity: int = 0
    """-1 (``-q``): the causes and the summary only; 1 (``-v``): every answer in full."""
    diagnose: bool = False
    """``--diagnose``: run each cause's cases under the other readings of its rule."""

    def to_json(self) -> dict[str, object]:
        """The settings as the JSON report records them."""
        only = [self.only] if isinstance(self.only, str) else list(self.only or ())
        return {"variant": self.variant, "only": only, "examples": self.examples,
                "seed": self.seed, "timeout": self.timeouts.request,
                "startup_timeout": self.timeouts.startup, "report_dir": str(self.report_dir),
                "budget": self.budget, "max_engine_failures": self.max_engine_failures,
                "maxfail": self.maxfail}

    def check_outputs(self) -> None:
        """Refuse, before anything starts, report paths no report can be written to (the
        repro folder is not among them: a repro that cannot be written is a note on its case,
        not a reason to run nothing, so a read-only checkout can still be tested), and two
        reports on one path (standard output, ``-``, is not a path)."""

        def path(value: Path | None) -> Path | None:
            return None if value is None or str(value) == STDOUT else value

        check_outputs([("--json", path(self.json_path), "file"),
                       ("--junitxml", path(self.junit_path), "file"),
                       ("--jsonl", path(self.jsonl_path), "file"),
                       ("--html", path(self.html_path), "file"),
                       ("--markdown", path(self.markdown_path), "file"),
                       ("--badges", self.badge_dir, "dir")])

    def to_stdout(self) -> bool:
        """Whether a report goes to standard output (``-``)."""
        return any(str(path) == STDOUT for path in (
            self.json_path, self.junit_path, self.jsonl_path, self.html_path,
            self.markdown_path) if path is not None)
