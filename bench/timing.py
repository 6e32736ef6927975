"""Repeated, interleaved timing: medians with their spread, and ratios from the same runs.

Contenders are timed round by round, each round running every contender once in a rotated
order, so that a burst of load on a shared machine falls on all of them rather than on one.
A ratio is taken per round (both figures from that round) and then summarised. Time is the
process's CPU time (``time.process_time``), not wall time: on a machine shared with other work
a run's wall time mostly measures how long the scheduler left it waiting.
"""

from __future__ import annotations

import gc
import json
import statistics
import subprocess
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from dominokit.bench.registry import Figure, Ratio

Work = Callable[[], int]
"""One timed run: does the work and returns how many units (actions, positions) it did."""


def interleave(contenders: Mapping[str, Work], rounds: int) -> dict[str, list[float]]:
    """Units per second of each contender in each round, contenders rotated every round."""
    names = list(contenders)
    rates: dict[str, list[float]] = {name: [] for name in names}
    gc.collect()
    gc.freeze()  # what exists now (the inputs, imported packages) is never scanned again
    try:
        for i in range(rounds):
            shift = i % len(names)
            for name in names[shift:] + names[:shift]:
                rates[name].append(_rate(contenders[name]))
    finally:
        gc.unfreeze()
    return rates


def _rate(work: Work) -> float:
    """Units per second of one run; garbage left by the previous run is collected first, so
    that no contender pays for another's (the collector stays on: its cost is the engine's)."""
    gc.collect()
    began = time.process_time()
    units = work()
    seconds = time.process_time() - began
    return units / seconds if seconds > 0 else float("inf")


def figure(label: str, unit: str, rates: list[float]) -> Figure:
    """The median rate over runs, with the slowest and fastest run."""
    return Figure(label, unit, statistics.median(rates), min(rates), max(rates), len(rates))


def ratio(label: str, numerator: list[float], denominator: list[float],
          target: float | None = None) -> Ratio:
    """``numerator[i] / denominator[i]`` per round (same round, same load), summarised."""
    per_round = [a / b for a, b in zip(numerator, denominator, strict=True)]
    return Ratio(label, statistics.median(per_round), min(per_round), max(per_round),
                 len(per_round), target)


def last_json_line(argv: Sequence[str], what: str, env: Mapping[str, str] | None = None
                   ) -> dict[str, Any]:
    """Run a measuring script in a fresh process and return the figures it prints as its last
    line of JSON; RuntimeError when it exits non-zero or reports that ``what`` did not pass
    (``"ok": false``), so a broken run is never timed as a fast one."""
    done = subprocess.run(list(argv), capture_output=True, text=True, check=False,
                          env=dict(env) if env is not None else None)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} exited {done.returncode}: {done.stderr[-2000:]}")
    data: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    if not data["ok"]:
        raise RuntimeError(f"{what} did not pass: {data['summary']}")
    return data
