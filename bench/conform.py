"""Section 4: the whole default ``dominokit conform`` against the reference, serial and parallel.

Each contender is the command itself run as a child process, as a user runs it: ``-j 1``,
``-j 2`` and ``-j N`` (N the CPUs this process may use, what the default ``-j auto`` takes, when
more than 2), interleaved round by round.
Per run: wall time, CPU time (the command, its workers and their engines: every process it
waits for) and the peak memory of the largest of those processes. The kit's share is taken
from a serial in-process run against the reference whose verbs are timed: whatever is not
time inside the engine object (driving, checking, comparing, reporting) is the kit's.

Under ``--quick`` the runs use a small selection (``--only``), so only the mechanics are
checked; the targets are the full run's.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from dominokit.bench.registry import Figure, Out, Section, SectionResult
from dominokit.bench.timing import figure, ratio
from dominokit.conformance.kit.inprocess import InProcessEngine
from dominokit.conformance.run.settings import usable_cpus
from dominokit.conformance.serve.refengine import ReferenceEngine

WALL_TARGET = 10.0
"""Seconds the default conform against the reference may take on two cores."""
SPEED_UP_TARGET = 1.7
"""Least speed-up of ``-j 2`` over ``-j 1`` on a two-core machine."""
KIT_SHARE_TARGET = 0.30
"""Most of an in-process run's wall time the kit's own work may take."""
QUICK_ONLY = "requests/szczerbak/bad-deal-*"
"""The selection of a quick run: a few cases, enough to see every figure made."""
VERBS = ("hello", "new_hand", "legal", "apply", "state", "new_match", "next_hand",
         "match_state")


class TimedReference(ReferenceEngine):
    """The reference engine, adding the time spent in each verb to ``seconds``."""

    seconds = 0.0

    def __getattribute__(self, name: str) -> Any:
        value = super().__getattribute__(name)
        if name not in VERBS:
            return value

        def timed(*args: Any) -> Any:
            began = time.perf_counter()
            try:
                return value(*args)
            finally:
                TimedReference.seconds += time.perf_counter() - began

        return timed


def command(workers: int, folder: Path, quick: bool) -> list[str]:
    """The ``dominokit conform`` command line of one run."""
    argv = [sys.executable, "-m", "dominokit.conformance", "conform", "-j", str(workers),
            "--json", str(folder / f"report-{workers}.json"), "--report-dir",
            str(folder / "repros"), "--color", "never"]
    return argv + (["--only", QUICK_ONLY] if quick else [])


def timed_command(argv: list[str]) -> tuple[float, float, float]:
    """(wall seconds, CPU seconds, peak MiB of its largest process) of one run of ``argv``,
    from the run's own resource usage (``wait4``); RuntimeError when the run does not pass."""
    with tempfile.TemporaryFile() as errors:
        began = time.perf_counter()
        child = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=errors)
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - began
        child.returncode = os.waitstatus_to_exitcode(status)
        if child.returncode != 0:
            errors.seek(0)
            raise RuntimeError(f"{' '.join(argv)} exited {child.returncode}: "
                               f"{errors.read().decode(errors='replace')[-2000:]}")
    cpu = usage.ru_utime + usage.ru_stime
    peak = usage.ru_maxrss / (1024 if sys.platform != "darwin" else 1024 * 1024)
    return wall, cpu, peak


def kit_share(quick: bool) -> tuple[float, float]:
    """(wall seconds, share of it outside the engine) of a serial in-process run."""
    from dominokit.conformance.run.runner import run_suite

    TimedReference.seconds = 0.0
    with tempfile.TemporaryDirectory(prefix="dominokit-bench-") as folder:
        engine = InProcessEngine(TimedReference(), TimedReference)
        began = time.perf_counter()
        report = run_suite(engine, only=QUICK_ONLY if quick else None, out=io.StringIO(),
                           report_dir=folder)
        wall = time.perf_counter() - began
    if not report.ok:
        raise RuntimeError(f"the in-process run did not pass: {report.summary_line()}")
    return wall, 1.0 - TimedReference.seconds / wall


def run(quick: bool, out: Out) -> SectionResult:
    """Time the command with 1, 2 and N workers, interleaved; then the in-process share."""
    rounds = 1 if quick else 3  # quick: one run each shows the mechanics work
    cpus = usable_cpus()  # what the command's default, -j auto, uses
    counts = [1, 2] + ([cpus] if cpus > 2 else [])
    walls: dict[int, list[float]] = {j: [] for j in counts}
    cpu: dict[int, list[float]] = {j: [] for j in counts}
    peak: dict[int, list[float]] = {j: [] for j in counts}
    with tempfile.TemporaryDirectory(prefix="dominokit-bench-") as name:
        folder = Path(name)
        for i in range(rounds):
            for j in counts[i % len(counts):] + counts[:i % len(counts)]:
                wall, used, most = timed_command(command(j, folder, quick))
                walls[j].append(wall)
                cpu[j].append(used)
                peak[j].append(most)
                out(f"  round {i + 1}/{rounds}: -j {j}: {wall:.1f} s wall, {used:.1f} s CPU")
    result = SectionResult()
    for j in counts:
        result.figures += [_seconds(f"conform -j {j}: wall time", walls[j]),
                           _seconds(f"conform -j {j}: CPU time", cpu[j]),
                           figure(f"conform -j {j}: peak memory (largest process)", "MiB",
                                  peak[j])]
    speed = [1 / w for w in walls[1]]
    result.ratios.append(ratio("conform -j 2 speed-up over -j 1", [1 / w for w in walls[2]],
                               speed, SPEED_UP_TARGET))
    if cpus > 2:
        result.ratios.append(ratio(f"conform -j {cpus} speed-up over -j 1",
                                   [1 / w for w in walls[cpus]], speed))
    default = cpus  # the command's default, -j auto, on this machine
    result.ratios.append(ratio(f"{WALL_TARGET:g} s over the default conform's wall time "
                               f"(-j auto: {default})",
                               [WALL_TARGET / w for w in walls[default]], [1.0] * rounds, 1.0))
    shares = _repeat(lambda: kit_share(quick), rounds, out)
    result.figures.append(figure("in-process conform: kit's share of wall time", "%",
                                 [100 * share for _, share in shares]))
    result.figures.append(_seconds("in-process conform: wall time", [w for w, _ in shares]))
    result.ratios.append(ratio("in-process conform: engine's share of wall time",
                               [1 - share for _, share in shares], [1.0] * rounds,
                               1 - KIT_SHARE_TARGET))
    if quick:
        result.notes.append(f"quick: only {QUICK_ONLY}; the targets are the full run's")
    result.notes.append("CPU time and peak memory count every process the command waits "
                        "for (its workers and their engines)")
    return result


def _seconds(label: str, values: list[float]) -> Figure:
    """A duration figure (median and spread in seconds, lower is better)."""
    return figure(label, "s", values)


def _repeat(measure: Callable[[], tuple[float, float]], rounds: int,
            out: Out) -> list[tuple[float, float]]:
    results = []
    for i in range(rounds):
        results.append(measure())
        out(f"  in-process {i + 1}/{rounds}: kit {100 * results[-1][1]:.0f}% "
            f"of {results[-1][0]:.1f} s")
    return results


SECTION = Section("conform", 4, "The whole default conform: time, memory, the kit's share, "
                  "workers", run)
