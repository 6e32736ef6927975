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
from typing import Final, TextIO

from dominokit.conformance.cases.golden import judge
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
from dominokit.conformance.run.report import format_outcome
from dominokit.conformance.traces.model import Trace, load_trace
from dominokit.reference.errors import DominokitError, SpecError

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
    return judge(trace, engine)


def run_trace_replay(paths: Sequence[str], engine_spec: str | None, timeout: float = 10.0,
                     out: TextIO | None = None, err: TextIO | None = None) -> int:
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
            out.write(format_outcome(str(path), outcome, diff_lines=None, width=None) + "\n")
    finally:
        engine.close()
    out.write(f"{len(files)} trace(s): "
              + ", ".join(f"{number} {label}" for label, number in counts.items()) + "\n")
    if counts["unreadable"]:
        return ExitStatus.USAGE_ERROR
    return ExitStatus.OK if counts["matched"] == len(files) else ExitStatus.FAILED
