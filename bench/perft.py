"""Section 2, perft: counting perft positions through the protocol against counting in-process.

One stored perft count per bundled game (``conformance/perft/``: the largest of at most
``MOST`` sequences, so the board game's is a Pijanowski count) is counted three ways,
interleaved round by round:

- **in-process**: the reference's own functions walk the tree (``new_hand``,
  ``legal_actions``, ``apply_action`` on immutable states, so no undo is needed): the floor;
- **protocol, undo**: the kit's perft walk as a perft case walks (``traces.perft.Walker`` over
  the engine shadowed by the reference) against ``dominokit engine``, which declares ``undo``
  in protocol 2: apply, count below, undo;
- **protocol, replay**: the same walk against the reference served without the capability
  (``WithoutUndo``, the fallback every protocol-1 engine gets): each position is reached
  again by dealing and replaying its path.

Time is CPU time, of the benchmark process and of the engine process together (read from
``/proc``; where there is none, wall time), because through the protocol the work is split
between two processes that wait for each other. Each timed walk starts with the kit's memo of
valid replies empty, as a perft case does in a ``conform`` run (a walk repeated with the memo
full would skip checks no real run skips). A node is one counted sequence (a leaf of the
perft tree), so nodes/s of the three ways compare the same work. The target is the
protocol with undo at most 3x the in-process cost: a ratio of nodes/s of at least 1/3.
"""

from __future__ import annotations

import gc
import os
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from dominokit.bench.registry import Out, Section, SectionResult
from dominokit.bench.timing import figure, ratio
from dominokit.conformance.cases import perft as perft_cases
from dominokit.conformance.cases.shadow import Shadowed
from dominokit.conformance.kit.driver import SubprocessEngine
from dominokit.conformance.kit.engines import HOST, REFERENCE_SERVER, python_engine_environment
from dominokit.conformance.serve.refengine import ReferenceEngine
from dominokit.conformance.traces.perft import Walker
from dominokit.conformance.wire import validation
from dominokit.conformance.wire.protocol import JsonObject
from dominokit.reference import (
    Action,
    Deal,
    HandState,
    apply_action,
    legal_actions,
    new_hand,
    variant_ids,
)

TARGET = 1 / 3
"""Least ratio of nodes/s through the protocol (with undo) to in-process (the target: <= 3x)."""

WAYS = ("in-process", "protocol, undo", "protocol, replay")


@dataclass(frozen=True)
class Count:
    """One stored perft count: a position of ``conformance/perft/<variant>.yaml``."""

    variant: str
    position: str
    depth: int
    quick_depth: int
    """A smaller depth of the same position for ``--quick`` (only the mechanics are shown)."""


MOST = 1000
"""The largest stored count a run times: long enough to time, short enough to repeat."""


def counts() -> list[Count]:
    """One count per bundled game: its largest stored count of at most ``MOST`` sequences
    (ties: the first position in the file); under ``--quick`` the same position at depth 2,
    or 1 where it stores no count at 2."""
    out = []
    for variant in variant_ids():
        stored = [(c["count"], -i, entry["name"], c["depth"], {d["depth"] for d in entry["perft"]})
                  for i, entry in enumerate(perft_cases.positions(variant))
                  for c in entry["perft"] if c["count"] <= MOST]
        if not stored:
            continue
        _, _, name, depth, depths = max(stored)
        out.append(Count(variant, name, depth, 2 if 2 in depths else min(depths)))
    return out


class WithoutUndo(ReferenceEngine):
    """The reference served as an engine of protocol 1: no capabilities, no ``undo``, so the
    kit falls back to replaying (``python:dominokit.bench.perft:WithoutUndo``)."""

    def hello(self) -> JsonObject:
        result = {k: v for k, v in super().hello().items() if k != "capabilities"}
        return {**result, "protocol": 1}

    undo = None  # type: ignore[assignment]


def in_process(variant: str, options: Mapping[str, Any], deal: Mapping[str, Any],
               prefix: Sequence[str], depth: int) -> int:
    """The perft count walked with the reference's functions, as an engine author's own
    in-process perft would (the floor the protocol is measured against)."""
    state = new_hand(variant, Deal.from_json(deal), dict(options))
    for text in prefix:
        state, _ = apply_action(state, Action.parse(text))
    return _count(state, depth)


def _count(state: HandState, depth: int) -> int:
    actions = legal_actions(state)
    if depth == 1:
        return len(actions)
    total = 0
    for action in actions:
        after, _ = apply_action(state, action)
        total += 1 if after.over else _count(after, depth - 1)
    return total


def _engine_cpu(pid: int | None) -> float | None:
    """CPU seconds process ``pid`` has used (user and system), or None without ``/proc``."""
    if pid is None:
        return None
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


Work = Callable[[], int]


def _rate(work: Work, pid: int | None) -> float:
    """Nodes per CPU second of one run: this process's CPU plus the engine's (``pid``); wall
    time where the engine's CPU cannot be read."""
    gc.collect()
    validation.forget_valid()
    engine_before = _engine_cpu(pid)
    began, wall = time.process_time(), time.perf_counter()
    units = work()
    seconds = time.process_time() - began
    engine_after = _engine_cpu(pid)
    if pid is not None:
        if engine_before is None or engine_after is None:
            seconds = time.perf_counter() - wall
        else:
            seconds += engine_after - engine_before
    return units / seconds if seconds > 0 else float("inf")


def run(quick: bool, out: Out) -> SectionResult:
    """Count each position the three ways, interleaved, for a number of rounds."""
    rounds = 3 if quick else 7
    repeat = 1 if quick else 3
    result = SectionResult()
    undo = SubprocessEngine(list(REFERENCE_SERVER), 60.0)
    replay = SubprocessEngine([*HOST, f"{__name__}:WithoutUndo"], 60.0,
                              env=python_engine_environment())
    try:
        if "undo" not in undo.hello().capabilities or replay.hello().protocol != 1:
            raise RuntimeError("the engines did not declare what this section needs")
        for count in counts():
            entry = next(p for p in perft_cases.positions(count.variant)
                         if p["name"] == count.position)
            depth = count.quick_depth if quick else count.depth
            expected = next((c["count"] for c in entry["perft"] if c["depth"] == depth), None)
            label = f"{count.variant} {count.position} perft({depth})"
            ways = _ways(count.variant, entry, depth, undo, replay)
            for name, (work, _) in ways.items():  # warm up, and check every way counts right
                got = work()
                if expected is not None and got != expected:
                    raise RuntimeError(f"{label}: {name} counted {got}, not {expected}")
            rates: dict[str, list[float]] = {name: [] for name in WAYS}
            for i in range(rounds):
                order = WAYS[i % 3:] + WAYS[:i % 3]
                for name in order:
                    work, pid = ways[name]
                    rates[name].append(_rate(_repeated(work, repeat), pid))
            for name in WAYS:
                result.figures.append(figure(f"{label}: {name}", "nodes/s", rates[name]))
            result.ratios.append(ratio(f"{label}: protocol with undo / in-process",
                                       rates["protocol, undo"], rates["in-process"], TARGET))
            result.ratios.append(ratio(f"{label}: protocol by replay / in-process",
                                       rates["protocol, replay"], rates["in-process"]))
            result.ratios.append(ratio(f"{label}: protocol with undo / by replay",
                                       rates["protocol, undo"], rates["protocol, replay"]))
            out(f"  {label}: median {statistics.median(rates['protocol, undo']):,.0f} nodes/s "
                f"with undo, {statistics.median(rates['in-process']):,.0f} in-process")
    finally:
        undo.close()
        replay.close()
    result.notes.append("a node is one counted sequence; time is the CPU of the benchmark and "
                        "of the engine process together")
    return result


def _ways(variant: str, entry: Mapping[str, Any], depth: int, undo: SubprocessEngine,
          replay: SubprocessEngine) -> dict[str, tuple[Work, int | None]]:
    """Each way of counting ``entry`` at ``depth``, and the process whose CPU it also uses."""
    options, prefix = dict(entry.get("options") or {}), list(entry.get("actions") or [])
    deal = entry["deal"]
    return {
        "in-process": (lambda: in_process(variant, options, deal, prefix, depth), None),
        "protocol, undo": (lambda: Walker(Shadowed(undo), variant, options, deal, prefix,
                                          undo=True).count([], depth, here=False), undo.pid),
        "protocol, replay": (lambda: Walker(Shadowed(replay), variant, options, deal, prefix)
                             .count([], depth, here=False), replay.pid),
    }


def _repeated(work: Work, times: int) -> Work:
    def again() -> int:
        return sum(work() for _ in range(times))

    return again


SECTION = Section("perft", 2, "Perft through the protocol: with undo, by replay, in-process",
                  run)
