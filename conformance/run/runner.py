"""Run a suite against one engine: the one loop, its limits, and the reports it always writes.

The cases come collected (``conformance.cases``); each is run by a worker (``run.workers``):
one in this process for a serial run, or one per worker process with ``-j N``, through the same
loop, so both give the same report (a campaign's chunks shared out and gathered into its one
record by ``run.gather``). The loop records outcomes in the suite's order, stops early
when a limit is reached (``Limits``: the budget, engine failures in a row, ``--maxfail``),
reporting the remaining cases as ``not_run`` with the reason, and writes every report asked
for whatever happens: an interrupt, an engine that never starts, a bug in the kit. The CLI
(``dominokit conform``), the pytest plugin and the Python API are thin layers over ``run``.
"""

from __future__ import annotations

import io
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final, TextIO

from dominokit.conformance.cases import SUITE_VERSION, collect_cases
from dominokit.conformance.cases.model import (
    Case,
    CaseInterrupted,
    ConformanceError,
    Context,
    Outcome,
)
from dominokit.conformance.kit.driver import Engine
from dominokit.conformance.kit.engines import (
    EngineDidNotStart,
    EngineSpec,
    Timeouts,
    connect,
    greet,
)
from dominokit.conformance.run import gather, publish, workers
from dominokit.conformance.run.expectations import Expectations, load_expectations
from dominokit.conformance.run.report import CaseRecord, Report
from dominokit.conformance.run.settings import DEFAULT_MAX_ENGINE_FAILURES, STDOUT, RunSettings
from dominokit.conformance.run.stream import Stream, open_stream
from dominokit.conformance.run.terminal import Terminal
from dominokit.conformance.wire.protocol import PROTOCOL_VERSION

NEVER_STARTED: Final = "the engine could not be used (the report's error says why)"
ENGINE_FAILURE_KINDS: Final = frozenset({"timeout", "crash", "startup"})
"""Failure kinds that count towards ``max_engine_failures``: the engine is gone or stuck,
so more cases would only spend their timeouts on it."""


@dataclass
class Limits:
    """When a run stops before its last case, and why (None: it goes on).

    ``budget`` caps the whole run in seconds (checked before a case is handed out; a case
    already running is bounded by the per-request timeout), ``max_engine_failures`` the cases
    in a row whose engine timed out or crashed, ``maxfail`` the cases that fail the run; 0 or
    None: no limit.
    """

    budget: float | None = None
    max_engine_failures: int = DEFAULT_MAX_ENGINE_FAILURES
    maxfail: int = 0
    clock: Callable[[], float] = time.monotonic
    began: float = field(default=0.0, init=False)
    _in_a_row: int = field(default=0, init=False)
    _failing: int = field(default=0, init=False)

    def __post_init__(self) -> None:
        self.began = self.clock()

    def record(self, record: CaseRecord) -> None:
        """Count a finished case towards the limits."""
        outcome = record.outcome
        if outcome.status == "errored" and outcome.failure_kind in ENGINE_FAILURE_KINDS:
            self._in_a_row += 1
        elif outcome.status != "not_applicable":  # a case the engine never saw proves nothing
            self._in_a_row = 0
        if not record.judgement.ok:
            self._failing += 1

    def counted(self) -> str | None:
        """Why the next case in the suite's order must not count (the limits on what the
        cases before it gave), or None. A parallel run asks this as each outcome is recorded,
        so a case a serial run would not have run is ``not_run`` there too."""
        if self.maxfail and self._failing >= self.maxfail:
            cases = "case" if self.maxfail == 1 else "cases"
            return f"stopped after {self.maxfail} failing {cases} (--maxfail {self.maxfail})"
        limit = self.max_engine_failures
        if limit and self._in_a_row >= limit:
            return (f"the engine timed out or crashed in {limit} cases in a row "
                    f"(--max-engine-failures {limit})")
        return None

    def reason(self) -> str | None:
        """Why no further case may start, or None."""
        counted = self.counted()
        if counted is not None:
            return counted
        if self.budget is not None and self.clock() - self.began >= self.budget:
            return f"the run's budget of {self.budget:g} s was spent (--budget {self.budget:g})"
        return None


def run(settings: RunSettings, cases: Sequence[Case] | None = None, *,
        engine: Engine | None = None, expectations: Expectations | None = None,
        out: TextIO | None = None, err: TextIO | None = None) -> Report:
    """Run ``cases`` (default: the selection ``settings`` names) and return the report, which is
    also written to the paths ``settings`` gives.

    ``engine``, when given, is an engine already open, run serially and left open; otherwise
    ``settings.engine`` is connected to, by one worker or by ``settings.workers`` worker
    processes. ``out`` (default stdout) gets the progress and the summary, ``err`` (default
    ``out``) why the engine did not start. Whatever happens (an interrupt, a bug in the kit)
    the reports are written with what ran; a report that cannot be written is listed in
    ``Report.write_errors``.
    """
    if cases is None:
        cases = collect_cases(settings.variant, settings.only, settings.examples, settings.seed,
                              skip=settings.skip, rules=settings.rules)
    pieces = gather.units(cases)  # a campaign's chunks are pieces of work of their own
    parallel = engine is None and settings.workers > 1 and pieces > 1
    if parallel and not workers.available():
        raise ConformanceError("parallel workers need fork(), which this platform lacks")
    report = Report(
        suite_version=SUITE_VERSION,
        protocol_version=PROTOCOL_VERSION,
        engine=settings.engine.label if engine is None else repr(engine),
        settings=settings.to_json(),
        expectations=expectations or Expectations(),
        since=settings.since,
    )
    report.published = {"html": settings.html_path, "markdown": settings.markdown_path,
                        "badges": settings.badge_dir}
    lines = open_stream(settings.jsonl_path, report)
    start = _starter(settings.engine, settings.timeouts, engine)
    pool: workers.Pool = (
        gather.Gathered(workers.ForkedPool(cases, start, settings.report_dir,
                                           min(settings.workers, pieces)),
                        cases, settings.report_dir) if parallel
        else workers.SerialPool(cases, start, settings.report_dir, owned=engine is None))
    # After the fork: a worker must hold no thread of the parent's (the heartbeat).
    if out is None and settings.to_stdout():  # the terminal's lines out of a report's way
        out = sys.stderr
    terminal = Terminal(out or sys.stdout, total=len(cases), progress=settings.progress,
                        color=settings.color, err=err, verbosity=settings.verbosity)
    pool.on_progress = lambda sent: _progress(terminal, lines, report, cases[sent.index].id,
                                              sent)
    limits = Limits(settings.budget, settings.max_engine_failures, settings.maxfail)
    try:
        _loop(pool, cases, report, lines, terminal, limits)
        if settings.diagnose:
            from dominokit.conformance.run.readings import diagnose

            report.readings = diagnose(report, cases, _rerun)
    except KeyboardInterrupt:
        report.interrupted = True
        raise
    finally:
        pool.close(now=report.interrupted)
        report.finish([case.id for case in cases])
        lines.write_summary(report)
        lines.close()
        _write_reports(report, settings.json_path, settings.junit_path)
        terminal.finish(report)
        for problem in report.write_errors:
            terminal.error(problem)
    return report


def _loop(pool: workers.Pool, cases: Sequence[Case], report: Report, lines: Stream,
          terminal: Terminal, limits: Limits) -> None:
    """Hand cases to idle workers until a limit says stop, and record each outcome in the
    suite's order as soon as every earlier case has one."""
    hello, dead = pool.hello()
    report.hello = hello
    if hello is not None:  # the version the session settled on (2, or 1 on fallback)
        report.protocol_version = hello.protocol
    stop: str | None = None
    if dead is not None:
        report.error = dead
        stop = NEVER_STARTED  # each case says so in short; the error says why, once
    done: dict[int, workers.Finished] = {}
    recorded = 0
    while recorded < len(cases):
        stop = stop or limits.reason()
        if stop is not None or not pool.alive():
            stop = stop or "every worker process died"
            if not pool.running():
                _skip(report, lines, cases[recorded], stop)
                recorded += 1
                continue
        else:
            for worker in pool.idle():
                index = pool.next_index(worker)
                if index is not None:
                    terminal.start(recorded, cases[index].id)
                    pool.send(worker, index)
        try:
            if pool.running():  # a forked pool waits on its busy workers: there must be one
                for finished in pool.results():
                    done[finished.index] = finished
        except CaseInterrupted as stopped:  # a serial run's case, with what it found so far
            _add(report, lines, cases[recorded], stopped.outcome, 0.0)
            raise
        while recorded in done:
            finished = done.pop(recorded)
            stop = stop or finished.dead or limits.counted()
            if stop is not None:
                _skip(report, lines, cases[recorded], stop)
            else:
                record = _add(report, lines, cases[recorded], finished.outcome,
                              finished.seconds)
                limits.record(record)
                terminal.record(record)
            recorded += 1


def _rerun(obj: object, cases: Sequence[Case], folder: str) -> Report:
    """The cases run again, quietly and serially, against an engine object (``--diagnose``
    runs the reference under a reading this way)."""
    from dominokit.conformance.kit.inprocess import InProcessEngine

    settings = RunSettings(report_dir=Path(folder))
    return run(settings, cases, engine=InProcessEngine(obj), out=io.StringIO())


def _starter(spec: EngineSpec, timeouts: Timeouts,
             engine: Engine | None) -> workers.Starter:
    """How a worker opens and greets its engine, setting ``ctx.hello`` or ``ctx.dead``."""

    def start(ctx: Context) -> Engine | None:
        try:
            if engine is not None:
                ctx.hello = greet(engine)
                return engine
            opened, ctx.hello = connect(spec, timeouts)
            return opened
        except EngineDidNotStart as failure:
            ctx.dead = str(failure)
            return engine

    return start


def _progress(terminal: Terminal, lines: Stream, report: Report, case_id: str,
              sent: workers.Progressed) -> None:
    """A running case's progress: on the progress line, and at checkpoints in the stream."""
    terminal.progress(case_id, sent.progress)
    if sent.checkpoint:
        lines.write_progress(case_id, sent.progress, sent.seconds, report)


def _skip(report: Report, lines: Stream, case: Case, stop: str) -> None:
    """Record ``case`` as not run because the run stopped for ``stop``."""
    if report.stopped is None and report.error is None:  # not when it never began
        report.stopped = stop
    _add(report, lines, case, Outcome.not_run(stop), 0.0)


def _add(report: Report, lines: Stream, case: Case, outcome: Outcome,
         seconds: float) -> CaseRecord:
    """Record a case in the report, and on its JSON lines stream."""
    record = report.add(case, outcome, seconds)
    lines.write(record, report)
    return record


def _write_reports(report: Report, json_path: Path | None, junit_path: Path | None) -> None:
    """Write each report asked for; one that fails does not stop the other."""
    for path, what, write, text_of in (
            (json_path, "JSON report", report.write_json, report.json_bytes),
            (junit_path, "JUnit XML report", report.write_junit, report.junit_bytes)):
        if path is None:
            continue
        try:
            if str(path) == STDOUT:
                sys.stdout.write(text_of().decode("utf-8"))
                sys.stdout.flush()
                continue
            write(path)
        except (OSError, ValueError) as error:  # ValueError: text no encoder could write
            reason = getattr(error, "strerror", None) or error
            report.write_errors.append(f"cannot write the {what} to {path}: {reason}")
    publish.write_published(report)


def run_suite(
    engine_spec: str | Engine | None = None,
    *,
    variant: str | None = None,
    only: str | Sequence[str] | None = None,
    examples: int | None = None,
    seed: int = 0,
    timeout: float | None = None,
    startup_timeout: float | None = None,
    json_path: str | Path | None = None,
    junit_path: str | Path | None = None,
    expectations: Expectations | str | Path | None = None,
    progress: bool = False,
    report_dir: str | Path | None = None,
    cases: Sequence[Case] | None = None,
    out: TextIO | None = None,
    err: TextIO | None = None,
    color: bool = False,
    budget: float | None = None,
    max_engine_failures: int = DEFAULT_MAX_ENGINE_FAILURES,
    maxfail: int = 0,
    workers: int = 1,
    jsonl_path: str | Path | None = None,
    skip: Sequence[str] = (),
    rules: Sequence[str] = (),
    since: str | None = None,
    html_path: str | Path | None = None,
    markdown_path: str | Path | None = None,
    badge_dir: str | Path | None = None,
    verbosity: int = 0,
    diagnose: bool = False,
) -> Report:
    """``run`` with its settings as keywords, for Python callers: ``engine_spec`` is an
    ``--engine`` value (None: the reference as a subprocess) or an Engine already open (run
    serially and left open); the other keywords are the ``RunSettings`` fields (defaults as
    there), and ``expectations`` may be a file to load."""
    if isinstance(expectations, str | Path):
        expectations = load_expectations(expectations)
    given = engine_spec if not isinstance(engine_spec, str | None) else None
    if given is not None and workers > 1:
        raise ConformanceError("parallel workers each open their own engine: give the engine "
                               "as a command line or python:module:factory")
    defaults = RunSettings()
    settings = RunSettings(
        engine=EngineSpec.parse(engine_spec if isinstance(engine_spec, str) else None),
        variant=variant, only=only,
        examples=defaults.examples if examples is None else examples, seed=seed,
        timeouts=Timeouts(defaults.timeouts.request if timeout is None else timeout,
                          defaults.timeouts.startup if startup_timeout is None
                          else startup_timeout),
        report_dir=defaults.report_dir if report_dir is None else Path(report_dir),
        json_path=_path(json_path), junit_path=_path(junit_path), jsonl_path=_path(jsonl_path),
        skip=tuple(skip), rules=tuple(rules), since=since, html_path=_path(html_path),
        markdown_path=_path(markdown_path), badge_dir=_path(badge_dir),
        budget=budget, max_engine_failures=max_engine_failures, maxfail=maxfail,
        workers=workers, progress=progress, color=color, verbosity=verbosity,
        diagnose=diagnose)
    return run(settings, cases, engine=given, expectations=expectations, out=out, err=err)


def _path(value: str | Path | None) -> Path | None:
    return None if value is None else Path(value)
