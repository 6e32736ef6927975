"""The body of ``dominokit trace replay``: any trace or repro, against any engine.

An engine author who got a failure from ``dominokit conform`` re-runs just its repro (or any
golden trace) against their engine, after each fix, without the rest of the suite. Each file
is judged exactly as the golden case judges a bundled trace (``cases.golden.judge``) inside
``run_case``, so the verdict, the rules it names, the first divergence and the handling of a
crashing or hanging engine are those of ``conform``; the output is ``conform``'s too.

It is not imported by the ``traces`` package (the golden case imports that package).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from functools import partial
from pathlib import Path
from typing import Any, Final, TextIO

from dominokit.conformance.cases.golden import judge, without_undo
from dominokit.conformance.cases.model import Case, Context, Outcome, run_case
from dominokit.conformance.commands.trace import trace_files
from dominokit.conformance.exit_status import ExitStatus
from dominokit.conformance.kit.driver import Engine
from dominokit.conformance.kit.engines import (
    EngineDidNotStart,
    EngineSpec,
    EngineSpecError,
    Timeouts,
    connect,
)
from dominokit.conformance.run.replay_html import Replayed
from dominokit.conformance.run.report import format_outcome
from dominokit.conformance.traces.model import Trace, load_trace
from dominokit.conformance.wire.errors import EngineFailure, EngineRejected
from dominokit.reference.errors import DominokitError, SpecError

JsonObject = dict[str, Any]

COUNTED: Final = {"passed": "matched", "failed": "diverged", "errored": "errored",
                  "not_applicable": "not applicable"}
"""How the summary line counts each outcome status."""


def _load(path: Path, err: TextIO) -> Trace | None:
    """The trace at ``path``, or None after printing why it cannot be replayed."""
    if not path.is_file():
        print(f"{path}: no such file", file=err)
        return None
    try:
        return load_trace(path)
    except SpecError as error:
        for problem in error.problems:
            print(problem, file=err)
    except (OSError, UnicodeDecodeError) as error:
        print(f"{path}: cannot read: {error}", file=err)
    except DominokitError as error:
        print(f"{path}: {error}", file=err)
    return None


def _judged(trace: Trace, engine: Engine, ctx: Context) -> Outcome:
    return without_undo(trace, ctx) or judge(trace, engine)


def _pictured(path: Path, trace: Trace, outcome: Outcome, engine: Engine,
              text: str) -> Replayed:
    """The page's entry for one replayed trace: for a standalone hand, the states of the
    reference and of the engine at the first divergent step (the end when it matched)."""
    from dominokit.conformance.run import picture
    from dominokit.reference.errors import DominokitError

    if trace.kind != "hand" or len(trace.hands) != 1:
        return Replayed(str(path), outcome.status, text)
    hand = trace.hands[0]
    actions = tuple(step.action for step in hand.steps)
    step = outcome.step if outcome.status != "passed" else None
    shown = list(actions if step is None else actions[:step])
    try:
        reference: JsonObject | None = picture.states_along(
            trace.variant, trace.options, hand.deal, shown)[-1]
    except (DominokitError, ValueError, KeyError):
        reference = None
    engine_state: JsonObject | None = None
    if step is not None:
        try:
            engine.new_hand(trace.variant, dict(trace.options), dict(hand.deal))
            for action in shown:
                engine.apply(action)
            engine_state = engine.state()
        except (EngineFailure, EngineRejected, DominokitError):
            engine_state = None
    return Replayed(str(path), outcome.status, text, trace.variant, actions, step, reference,
                    engine_state)


def run_trace_replay(paths: Sequence[str], engine_spec: str | None, timeout: float = 10.0,
                     out: TextIO | None = None, err: TextIO | None = None,
                     html_path: str | None = None) -> int:
    """``dominokit trace replay [--engine CMD] FILE...``: replay each file on one engine.

    Exit status: 0 every file matched, 1 a file diverged (or the engine crashed, hung or broke
    the protocol on it, or it needs a variant or option the engine does not list), 4 a file
    could not be read or is not a valid trace, or the engine did not start; every file is
    reported either way.
    """
    out = out or sys.stdout
    err = err or sys.stderr
    files = list(trace_files(paths))
    if not files:
        print("dominokit trace replay: no trace file given", file=err)
        return ExitStatus.USAGE_ERROR
    ctx = Context(Path("."))
    try:
        engine, ctx.hello = connect(EngineSpec.parse(engine_spec), Timeouts(timeout))
    except (EngineSpecError, EngineDidNotStart) as failure:
        print(f"dominokit trace replay: {failure}", file=err)
        return ExitStatus.USAGE_ERROR
    counts = dict.fromkeys(COUNTED.values(), 0) | {"unreadable": 0}
    pictured: list[Replayed] = []
    try:
        for path in files:
            trace = _load(path, err)
            if trace is None:
                counts["unreadable"] += 1
                continue
            case = Case(id=str(path), kind=trace.kind, variant=trace.variant,
                        body=partial(_judged, trace),
                        options=dict(trace.options), rules=trace.rules,
                        description=trace.description)
            outcome = run_case(case, engine, ctx)
            counts[COUNTED[outcome.status]] += 1
            text = format_outcome(str(path), outcome, diff_lines=None, width=None)
            out.write(text + "\n")
            if html_path is not None:
                pictured.append(_pictured(path, trace, outcome, engine, text))
    finally:
        engine.close()
    if html_path is not None:
        from dominokit.conformance.atomic import write_atomically
        from dominokit.conformance.run.replay_html import render

        try:
            write_atomically(html_path, render(pictured, engine_spec or "the reference").encode(),
                             make_parents=True)
        except OSError as error:
            print(f"dominokit trace replay: cannot write {html_path}: "
                  f"{error.strerror or error}", file=err)
            return ExitStatus.USAGE_ERROR
    out.write(f"{len(files)} trace(s): "
              + ", ".join(f"{number} {label}" for label, number in counts.items()) + "\n")
    if counts["unreadable"]:
        return ExitStatus.USAGE_ERROR
    return ExitStatus.OK if counts["matched"] == len(files) else ExitStatus.FAILED
