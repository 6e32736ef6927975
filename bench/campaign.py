"""Section 5: a long differential campaign, memory and rate, at growing numbers of hands.

A campaign (``conform --examples 100000``) must stream: its memory must not grow with the
hands it plays. Each size runs one differential case (``case_id``) against the reference served as a
subprocess, in a fresh Python process of its own (so nothing the benchmark did before counts),
and reports the peak resident memory (``VmHWM``) of the kit's process and of the engine's,
and the hands played per CPU second of both. Memory is flat when the peak at the largest size
is no more than the peak at the smallest (the ratios' target, with 10% for the allocator).

Under ``--quick`` the sizes are a few dozen hands in chunks of 10 (``CAMPAIGN_CHUNK``), so
only the mechanics are checked.

One campaign is also timed on one worker and on two (``-j 1``, ``-j 2``: its chunks shared
out), interleaved, each run in a fresh process: the speed-up's target is 1.8 on two free
cores (a shared machine gives less; the figures say so, the bench never fails on it).
"""

from __future__ import annotations

import io
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from dominokit.bench.registry import Out, Section, SectionResult
from dominokit.bench.timing import figure, last_json_line, ratio


def case_id() -> str:
    """The case played: the block game's default differential case (found by its mechanics,
    as section 1 finds it: a chain game with no draw, the cheapest to play)."""
    from dominokit.bench.playouts import block_game
    from dominokit.reference import variant_ids

    return f"differential/{block_game() or variant_ids()[0]}/default"
SIZES = (1000, 3000, 9000)
QUICK_SIZES = (20, 60)
QUICK_CHUNK = 10
PARALLEL_HANDS = 2000
"""Hands of the campaign timed on one and two workers (two chunks of 1,000)."""
PARALLEL_TARGET = 1.8
"""Least speed-up of one campaign on two workers over one (two chunks, two cores)."""
FLAT_TARGET = 0.9
"""Least ratio of the peak at the smallest size to the peak at the largest: flat memory,
within 10% (the allocator's arenas and the first chunk's one-off caches)."""


def measure(hands: int, chunk: int | None) -> dict[str, Any]:
    """Play ``hands`` random hands of ``case_id()`` against the subprocess reference, in this
    process; the peaks (KiB), CPU seconds of kit and engine, and whether the case passed."""
    from dominokit.conformance.cases import collect_cases, differential
    from dominokit.conformance.kit.driver import SubprocessEngine
    from dominokit.conformance.kit.engines import open_engine
    from dominokit.conformance.run.runner import run_suite

    if chunk is not None:
        differential.CAMPAIGN_CHUNK = chunk
    engine = open_engine(None)
    assert isinstance(engine, SubprocessEngine)
    try:
        engine.hello()
        pid = engine.pid
        assert pid is not None
        began = time.process_time()
        with tempfile.TemporaryDirectory(prefix="dominokit-bench-") as folder:
            report = run_suite(engine, cases=collect_cases(only=case_id(), examples=hands),
                               examples=hands, out=io.StringIO(), report_dir=folder)
        kit_cpu = time.process_time() - began
        engine_peak = _status_kib(pid, "VmHWM")
        engine_cpu = _cpu_seconds(pid)
    finally:
        engine.close()
    return {"hands": hands, "ok": report.ok, "summary": report.summary_line(),
            "kit_peak_kib": _status_kib(os.getpid(), "VmHWM"), "engine_peak_kib": engine_peak,
            "kit_cpu": kit_cpu, "engine_cpu": engine_cpu}


def measure_workers(hands: int, chunk: int | None, workers: int) -> dict[str, Any]:
    """Wall seconds of ``hands`` random hands of ``case_id()`` on ``workers`` workers, each
    with the reference as a subprocess, from this process; and whether the case passed."""
    from dominokit.conformance.cases import collect_cases, differential
    from dominokit.conformance.run.runner import run_suite

    if chunk is not None:
        differential.CAMPAIGN_CHUNK = chunk
    cases = collect_cases(only=case_id(), examples=hands)
    with tempfile.TemporaryDirectory(prefix="dominokit-bench-") as folder:
        began = time.monotonic()
        report = run_suite(None, cases=cases, examples=hands, out=io.StringIO(),
                           report_dir=folder, workers=workers)
        seconds = time.monotonic() - began
    return {"hands": hands, "ok": report.ok, "summary": report.summary_line(),
            "seconds": seconds}


def _parallel(quick: bool, out: Out) -> tuple[list[float], list[float]]:
    """Wall seconds of one campaign on one worker and on two, interleaved (two rounds; one
    under ``--quick``, with chunks of ``QUICK_CHUNK``), each in a fresh process."""
    hands = QUICK_SIZES[0] if quick else PARALLEL_HANDS
    one: list[float] = []
    two: list[float] = []
    for _ in range(1 if quick else 2):
        for workers, times in ((1, one), (2, two)):
            data = _run_size(hands, quick, workers)
            times.append(data["seconds"])
            out(f"  {hands:,} hands on {workers} worker(s): {data['seconds']:.1f} s "
                f"(load {os.getloadavg()[0]:.1f})")
    return one, two


def _status_kib(pid: int, key: str) -> int:
    """A ``/proc/<pid>/status`` figure in KiB (Linux), 0 where there is none."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(f"{key}:"):
                return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return 0


def _cpu_seconds(pid: int) -> float:
    """User and system CPU seconds of process ``pid`` so far (Linux), 0 where unknown."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return 0.0


def _run_size(hands: int, quick: bool, workers: int = 0) -> dict[str, Any]:
    """``measure`` (``workers``: ``measure_workers``) in a fresh process; RuntimeError when
    it fails."""
    argv = [sys.executable, "-m", "dominokit.bench.campaign", str(hands),
            str(QUICK_CHUNK if quick else 0), str(workers)]
    return last_json_line(argv, "the campaign")


def run(quick: bool, out: Out) -> SectionResult:
    """Each size once, smallest first; the peaks, the rate, and the flatness ratios."""
    sizes = QUICK_SIZES if quick else SIZES
    runs = []
    for hands in sizes:
        data = _run_size(hands, quick)
        runs.append(data)
        out(f"  {hands:,} hands: kit peak {data['kit_peak_kib'] / 1024:.1f} MiB, engine peak "
            f"{data['engine_peak_kib'] / 1024:.1f} MiB, "
            f"{data['kit_cpu'] + data['engine_cpu']:.1f} s CPU")
    result = SectionResult()
    for data in runs:
        label = f"campaign {data['hands']:,} hands"
        cpu = max(data["kit_cpu"] + data["engine_cpu"], 1e-9)
        result.figures += [
            figure(f"{label}: kit peak memory", "MiB", [data["kit_peak_kib"] / 1024]),
            figure(f"{label}: engine peak memory", "MiB", [data["engine_peak_kib"] / 1024]),
            figure(f"{label}: hands/s (CPU of kit and engine)", "hands/s",
                   [data["hands"] / cpu])]
    small, large = runs[0], runs[-1]
    extra_cpu = (large["kit_cpu"] + large["engine_cpu"]) - (small["kit_cpu"]
                                                           + small["engine_cpu"])
    result.figures.append(figure(
        f"campaign hands/s from {small['hands']:,} to {large['hands']:,} hands (CPU of kit "
        "and engine; without the search and start-up both sizes pay)", "hands/s",
        [(large["hands"] - small["hands"]) / max(extra_cpu, 1e-9)]))
    for who in ("kit", "engine"):
        result.ratios.append(ratio(
            f"campaign {who} peak memory: {small['hands']:,} over {large['hands']:,} hands",
            [small[f"{who}_peak_kib"]], [max(large[f"{who}_peak_kib"], 1)], FLAT_TARGET))
    one, two = _parallel(quick, out)
    result.figures += [figure(f"campaign {case_id()}: {workers} worker(s)", "s", times)
                       for workers, times in ((1, one), (2, two))]
    result.ratios.append(ratio("campaign on 2 workers: -j 1 over -j 2 seconds", one, two,
                               PARALLEL_TARGET))
    result.notes.append(f"{case_id()} against the reference as a subprocess, one fresh process per "
                        "size; peak memory is VmHWM")
    if quick:
        result.notes.append(f"quick: chunks of {QUICK_CHUNK} hands; the sizes are too small "
                            "to show flatness")
    return result


SECTION = Section("campaign", 5, "A long differential campaign: memory and rate", run)


if __name__ == "__main__":  # one size, in a process of its own: ``_run_size``
    chunk = int(sys.argv[2]) or None
    workers = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    print(json.dumps(measure_workers(int(sys.argv[1]), chunk, workers) if workers
                     else measure(int(sys.argv[1]), chunk)))
