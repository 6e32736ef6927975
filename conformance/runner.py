"""The conformance runner: what a case is, what running one gives, and running a whole suite.

A case is data plus a body: a stable id, the variant and option values it needs, the rule ids
it covers, and a function that drives an engine and returns an ``Outcome``. The runner decides
applicability from the engine's ``hello`` (a case needing an unsupported variant or option value
is "not applicable", never failed), turns every way an engine can misbehave into an "errored"
outcome naming the failure kind, restarts the engine and goes on, and always writes its reports,
even when interrupted. A run stops early, reporting the remaining cases as ``not_run`` with
the reason, when its budget is spent, when the engine timed out or crashed in N cases in a row,
or after ``maxfail`` failing cases (see ``Limits``). The CLI (``dominokit conform``) and the
pytest plugin are thin layers over ``collect_cases``, ``run_case`` and ``run_suite``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import time
import traceback
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fnmatch import fnmatchcase
from functools import partial
from pathlib import Path
from typing import Any, Final, Literal, TextIO

from dominokit.conformance import settings
from dominokit.conformance.driver import STARTUP_TIMEOUT, Engine, Hello, open_engine
from dominokit.conformance.errors import EngineFailure, EngineRejected
from dominokit.conformance.exit_status import ExitStatus
from dominokit.conformance.expectations import Expectations, load_expectations
from dominokit.conformance.protocol import PROTOCOL_VERSION, PROTOCOL_VERSIONS
from dominokit.conformance.report import CaseRecord, Progress, Report
from dominokit.conformance.terminal import Terminal
from dominokit.reference.errors import DominokitError
from dominokit.spec.suggest import did_you_mean

SUITE_VERSION: Final = "1.0.0"
"""Semantic version of the suite: major when the protocol or a ruling changes (results of an
unchanged engine may change), minor when cases are added, patch for fixes to the kit."""

Status = Literal["passed", "failed", "errored", "not_applicable", "not_run"]
STATUSES: Final[tuple[Status, ...]] = ("passed", "failed", "errored", "not_applicable",
                                       "not_run")

DEFAULT_EXAMPLES: Final = 25
DEFAULT_REPORT_DIR: Final = "dominokit-report"
DEFAULT_TIMEOUT: Final = 10.0
DEFAULT_MAX_ENGINE_FAILURES: Final = 3
NEVER_STARTED: Final = "the engine could not be used (the report's error says why)"
ENGINE_FAILURE_KINDS: Final = frozenset({"timeout", "crash", "startup"})
"""Failure kinds that count towards ``max_engine_failures``: the engine is gone or stuck,
so more cases would only spend their timeouts on it."""


class ConformanceError(DominokitError, ValueError):
    """A run that cannot start as asked (unknown variant, no case matching ``--only``)."""


class KitNote(UserWarning):
    """Something the kit could not do for a case (write its repro trace): warned by the case
    body, added to the case's message by ``run_case``, never a change of its status."""


@dataclass(frozen=True)
class Outcome:
    """What running one case gave.

    ``step`` is the number of actions played in the hand when the first divergence showed
    (0: at the start of the hand), ``hand`` the 1-based hand of a match; ``expected`` and
    ``got`` are the diverging values (reference and engine), ``diff`` a unified diff of their
    pretty JSON, ``rules`` the rule ids the failure concerns, ``repro`` the path of a minimal
    trace that reproduces it, ``failure_kind`` how the engine misbehaved for "errored"
    (crash, timeout, malformed, protocol, startup; "kit" for a bug in the kit itself).
    A case that goes on after its first failure (a differential campaign) lists every repro
    it wrote in ``repros`` (``repro`` is the first) and counts its failing hands in
    ``failing_hands`` (None: the case stops at its first failure).
    """

    status: Status
    message: str = ""
    step: int | None = None
    hand: int | None = None
    expected: Any = None
    got: Any = None
    diff: str = ""
    rules: tuple[str, ...] = ()
    repro: str | None = None
    failure_kind: str | None = None
    repros: tuple[str, ...] = ()
    failing_hands: int | None = None
    knock_on: bool = False
    """The failure only follows from an earlier divergence (a refused step on the way to the
    position, a refused request the case needs): it is grouped with a cause, never its own."""

    @classmethod
    def passed(cls, message: str = "") -> Outcome:
        """A case that found nothing wrong (``message`` may say what it covered)."""
        return cls("passed", message)

    @classmethod
    def not_applicable(cls, message: str) -> Outcome:
        """A case the engine does not claim to support."""
        return cls("not_applicable", message)

    @classmethod
    def not_run(cls, reason: str) -> Outcome:
        """A case the run never started, because it stopped early for ``reason``."""
        return cls("not_run", f"not run: {reason}")

    def noting(self, notes: Sequence[str]) -> Outcome:
        """This outcome with ``notes`` (things the kit could not do) added to its message."""
        if not notes:
            return self
        text = "\n".join([self.message, *(f"note: {note}" for note in notes)])
        return replace(self, message=text.lstrip("\n"))

    def to_json(self) -> dict[str, Any]:
        """The outcome fields of a case record in the JSON report."""
        return {
            "status": self.status,
            "message": self.message,
            "step": self.step,
            "hand": self.hand,
            "rules": list(self.rules),
            "expected": self.expected,
            "got": self.got,
            "diff": self.diff,
            "repro": self.repro,
            "failure_kind": self.failure_kind,
            "repros": list(self.repros) if self.repros else [self.repro] if self.repro else [],
            "failing_hands": self.failing_hands,
            "knock_on": self.knock_on,
        }


@dataclass(frozen=True)
class Requirement:
    """What an engine must support for a case to apply: a variant and some option values."""

    variant: str
    options: tuple[tuple[str, object], ...] = ()

    def unmet(self, hello: Hello) -> str | None:
        """Why the engine that said ``hello`` cannot run the case, or None when it can."""
        caps = hello.variants.get(self.variant)
        if caps is None:
            return f"the engine does not support variant {self.variant!r}"
        for name, value in self.options:
            if value not in caps.get(name, []):
                return (f"the engine does not support option {name}={value!r} "
                        f"of variant {self.variant!r}")
        given = dict(self.options)
        for name, values in caps.items():  # an option left at its default needs the default
            default = _default_value(self.variant, name)
            if name not in given and default is not None and default not in values:
                return (f"the engine does not support option {name}={default!r} (the default) "
                        f"of variant {self.variant!r}")
        return None


def _default_value(variant: str, option: str) -> object | None:
    """The default value of a variant's option, or None when the variant has no such option."""
    from dominokit.reference import load_variant

    spec = load_variant(variant).options.get(option)
    return None if spec is None else spec.default


@dataclass
class Context:
    """What a case body may use besides the engine: where to write repro traces, the hello."""

    report_dir: Path
    hello: Hello | None = None
    dead: str | None = None
    """Why the engine could not be restarted after a failure (then nothing more is run)."""
    memo: dict[Any, Any] = field(default_factory=dict)
    """What a case may share with later cases of the same run (one engine): e.g. the hands
    the engine played, which every invariant case checks for a different property."""
    on_progress: Callable[[Progress, bool], None] | None = None
    """Where the running case's progress goes (the terminal, the JSON lines report); set by
    the runner around each case, None when nobody listens."""

    def progress(self, progress: Progress, checkpoint: bool = False) -> None:
        """Say how far a long case has got; a ``checkpoint`` (the end of a chunk of hands)
        is also written to the JSON lines report, the rest only redraws the progress line."""
        if self.on_progress is not None:
            self.on_progress(progress, checkpoint)


class CaseInterrupted(KeyboardInterrupt):
    """An interrupt (Ctrl-C, SIGTERM) that reached a case body which had something to keep:
    ``outcome`` is its partial outcome (the failures and repros found so far), which the
    runner records before the run stops."""

    def __init__(self, outcome: Outcome) -> None:
        super().__init__(outcome.message)
        self.outcome = outcome


CaseBody = Callable[[Engine, Context], Outcome]


@dataclass(frozen=True)
class Case:
    """One conformance case: a stable id, what it needs and covers, and its body.

    ``options`` holds only non-default option values (as traces do); they and the variant make
    ``requires``. The body drives the engine and returns an Outcome; it may raise
    ``EngineFailure`` (the runner reports "errored") or ``EngineRejected`` (a refusal the case
    did not expect: "failed").
    """

    id: str
    kind: str
    variant: str
    body: CaseBody = field(repr=False, compare=False)
    options: Mapping[str, object] = field(default_factory=dict)
    rules: tuple[str, ...] = ()
    description: str = ""

    @property
    def requires(self) -> Requirement:
        """The variant and option values an engine must list in ``hello``."""
        return Requirement(self.variant, tuple(sorted(self.options.items())))

    def run(self, engine: Engine, ctx: Context) -> Outcome:
        """Run the body (no applicability check and no failure handling: see ``run_case``)."""
        return self.body(engine, ctx)


def collect_cases(
    variant: str | None = None,
    only: str | None = None,
    examples: int = DEFAULT_EXAMPLES,
    seed: int = 0,
) -> list[Case]:
    """Every case of the suite, in a stable order; ``variant`` and the ``only`` glob filter.

    ``examples`` and ``seed`` size and seed the random (differential) cases. Collection is
    cheap: searches for special positions run inside the case bodies.
    """
    from dominokit.conformance.cases import collect
    from dominokit.reference import variant_ids

    known = variant_ids()
    if variant is not None and variant not in known:
        raise ConformanceError(f"unknown variant {variant!r}{did_you_mean(variant, known)} "
                               f"(known: {', '.join(known)})")
    cases = collect([variant] if variant else known, examples=examples, seed=seed, only=only)
    seen: set[str] = set()
    for case in cases:
        if case.id in seen:
            raise RuntimeError(f"duplicate case id {case.id!r}")  # a bug in the suite
        seen.add(case.id)
    if only:
        cases = [case for case in cases if fnmatchcase(case.id, only)]
    return cases


def run_case(case: Case, engine: Engine, ctx: Context) -> Outcome:
    """Run one case with applicability and failure handling; never raises for engine trouble.

    After an ``EngineFailure`` the engine is restarted and greeted again, so the next case
    starts from a fresh engine; if that fails too, ``ctx.dead`` stops further attempts.
    """
    if ctx.dead is not None:
        return Outcome.not_run(ctx.dead)
    if ctx.hello is not None:
        why = case.requires.unmet(ctx.hello)
        if why is not None:
            return Outcome.not_applicable(why)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", KitNote)
        outcome = _run_body(case, engine, ctx)
    notes = [str(w.message) for w in caught if issubclass(w.category, KitNote)]
    for other in caught:
        if not issubclass(other.category, KitNote):
            warnings.warn_explicit(other.message, other.category, other.filename, other.lineno)
    return outcome.noting(notes)


def _run_body(case: Case, engine: Engine, ctx: Context) -> Outcome:
    try:
        return case.run(engine, ctx)
    except EngineFailure as failure:
        outcome = Outcome("errored", f"engine {failure.kind}: {failure.detail}",
                          rules=case.rules, failure_kind=failure.kind)
        _restart(engine, ctx)
        return outcome
    except EngineRejected as rejection:
        return Outcome("failed", f"the engine refused a request the case needs: {rejection}",
                       rules=tuple(dict.fromkeys((*case.rules, *_rule_of(rejection)))),
                       knock_on=True)
    except (KeyboardInterrupt, SystemExit):
        raise
    except Exception:
        return Outcome("errored", f"error in the conformance kit:\n{traceback.format_exc()}",
                       rules=case.rules, failure_kind="kit")


def _rule_of(rejection: EngineRejected) -> tuple[str, ...]:
    return (rejection.rule,) if rejection.rule else ()


def _restart(engine: Engine, ctx: Context) -> None:
    try:
        engine.restart()
        ctx.hello = engine.hello()
    except (EngineFailure, EngineRejected) as failure:
        ctx.dead = f"the engine could not be restarted after a failure: {failure}"


@dataclass
class Limits:
    """When a run stops before its last case, and why (None: it goes on).

    ``budget`` caps the whole run in seconds (checked between cases; a case already running
    is bounded by the per-request timeout), ``max_engine_failures`` the cases in a row whose
    engine timed out or crashed, ``maxfail`` the cases that fail the run; 0 or None: no limit.
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

    def reason(self) -> str | None:
        """Why the next case must not run, or None."""
        if self.maxfail and self._failing >= self.maxfail:
            cases = "case" if self.maxfail == 1 else "cases"
            return f"stopped after {self.maxfail} failing {cases} (--maxfail {self.maxfail})"
        limit = self.max_engine_failures
        if limit and self._in_a_row >= limit:
            return (f"the engine timed out or crashed in {limit} cases in a row "
                    f"(--max-engine-failures {limit})")
        if self.budget is not None and self.clock() - self.began >= self.budget:
            return f"the run's budget of {self.budget:g} s was spent (--budget {self.budget:g})"
        return None


def run_suite(
    engine_spec: str | Engine | None = None,
    *,
    variant: str | None = None,
    only: str | None = None,
    examples: int = DEFAULT_EXAMPLES,
    seed: int = 0,
    timeout: float = DEFAULT_TIMEOUT,
    startup_timeout: float = STARTUP_TIMEOUT,
    json_path: str | Path | None = None,
    junit_path: str | Path | None = None,
    expectations: Expectations | str | Path | None = None,
    progress: bool = False,
    report_dir: str | Path = DEFAULT_REPORT_DIR,
    cases: Sequence[Case] | None = None,
    out: TextIO | None = None,
    err: TextIO | None = None,
    color: bool = False,
    budget: float | None = None,
    max_engine_failures: int = DEFAULT_MAX_ENGINE_FAILURES,
    maxfail: int = 0,
    workers: int = 1,
    jsonl_path: str | Path | None = None,
    verbosity: int = 0,
    diagnose: bool = False,
) -> Report:
    """Run the suite against one engine and return the report (also written to the paths).

    ``engine_spec`` is an ``--engine`` value (None: the reference as a subprocess) or an Engine
    already open (left open). ``progress`` draws a bar when ``out`` is a terminal and prints a
    line every few seconds when it is not; ``err`` (default ``out``) gets why the engine did
    not start. ``budget``, ``max_engine_failures`` and ``maxfail`` stop the run early (see
    ``Limits``). Whatever happens (an interrupt, a bug in the kit) the reports are written with
    what ran; a report that cannot be written is listed in ``Report.write_errors``.
    ``workers`` above 1 runs the cases in that many forked workers, each with its own engine
    (``engine_spec`` must then be a spec, not an open Engine); the report is the same.
    ``jsonl_path`` gets each case's record as one JSON line as soon as it is known (flushed),
    so a long run can be read, and its failures' repros found, while it goes on.
    """
    if workers > 1 and not (engine_spec is None or isinstance(engine_spec, str)):
        raise ConformanceError("parallel workers each open their own engine: give the engine "
                               "as a command line or python:module:factory")
    if isinstance(expectations, str | Path):
        expectations = load_expectations(expectations)
    expectations = expectations or Expectations()
    if cases is None:
        cases = collect_cases(variant, only, examples, seed)
    stream = out if out is not None else sys.stdout
    label = engine_spec if isinstance(engine_spec, str) else (
        "reference (subprocess)" if engine_spec is None else repr(engine_spec))
    report = Report(
        suite_version=SUITE_VERSION,
        protocol_version=PROTOCOL_VERSION,
        engine=label,
        settings={"variant": variant, "only": only, "examples": examples, "seed": seed,
                  "timeout": timeout, "startup_timeout": startup_timeout,
                  "report_dir": str(report_dir), "budget": budget,
                  "max_engine_failures": max_engine_failures, "maxfail": maxfail},
        expectations=expectations,
    )
    limits = Limits(budget, max_engine_failures, maxfail)
    lines = _open_stream(jsonl_path, report)
    if workers > 1 and len(cases) > 1 and (engine_spec is None or isinstance(engine_spec, str)):
        _run_parallel(report, lines, cases, engine_spec, (timeout, startup_timeout),
                      Path(report_dir), workers,
                      limits,
                      lambda: Terminal(stream, total=len(cases), progress=progress,
                                       color=color, err=err, verbosity=verbosity),
                      (json_path, junit_path), diagnose)
        return report
    terminal = Terminal(stream, total=len(cases), progress=progress, color=color, err=err,
                        verbosity=verbosity)
    ctx = Context(Path(report_dir))
    owned = engine_spec is None or isinstance(engine_spec, str)
    engine: Engine | None = None
    try:
        engine = _start(engine_spec, (timeout, startup_timeout), ctx)
        report.hello = ctx.hello
        if ctx.hello is not None:  # the version the session settled on (2, or 1 on fallback)
            report.protocol_version = ctx.hello.protocol
        if ctx.dead is not None:
            report.error = ctx.dead
            ctx.dead = NEVER_STARTED  # each case says so in short; the error says why, once
        for done, case in enumerate(cases):
            stop = ctx.dead or limits.reason()
            if stop is not None:
                _skip(report, lines, case, stop)
                continue
            terminal.start(done, case.id)
            began = time.monotonic()
            assert engine is not None  # ctx.dead is set whenever there is no engine
            ctx.on_progress = partial(_progress, terminal, lines, report, case.id,
                                      partial(_since, began))
            try:
                outcome = run_case(case, engine, ctx)
            except CaseInterrupted as stopped:
                _add(report, lines, case, stopped.outcome, time.monotonic() - began)
                raise
            finally:
                ctx.on_progress = None
            record = _add(report, lines, case, outcome, time.monotonic() - began)
            limits.record(record)
            terminal.record(record)
        if diagnose:
            _diagnose(report, cases)
    except KeyboardInterrupt:
        report.interrupted = True
        raise
    finally:
        report.finish([case.id for case in cases])
        lines.close()
        if engine is not None and owned:
            engine.close()
        _write_reports(report, json_path, junit_path)
        terminal.finish(report)
        for problem in report.write_errors:
            terminal.error(problem)
    return report


def _progress(terminal: Terminal, lines: _Stream, report: Report, case_id: str,
              seconds: Callable[[], float], progress: Progress, checkpoint: bool) -> None:
    """A running case's progress: on the progress line, and at checkpoints in the stream
    (with the ``seconds`` since the case began)."""
    terminal.progress(case_id, progress)
    if checkpoint:
        lines.write_progress(case_id, progress, seconds(), report)


def _since(began: float) -> float:
    return time.monotonic() - began


def _skip(report: Report, lines: _Stream, case: Case, stop: str) -> None:
    """Record ``case`` as not run because the run stopped for ``stop``."""
    if report.stopped is None and report.error is None:  # not when it never began
        report.stopped = stop
    _add(report, lines, case, Outcome.not_run(stop), 0.0)


class _Stream:
    """The JSON lines report of a run (``jsonl_path``): one line per case, and progress lines
    of a long case (``Progress``), each flushed at once; a ``type`` tells them apart."""

    def __init__(self, file: TextIO | None) -> None:
        self.file = file

    def write(self, record: CaseRecord, report: Report) -> None:
        self._line(record.to_json(), report)

    def write_progress(self, case_id: str, progress: Progress, seconds: float,
                       report: Report) -> None:
        self._line(progress.to_json(case_id, seconds), report)

    def _line(self, data: dict[str, Any], report: Report) -> None:
        if self.file is None:
            return
        try:
            self.file.write(json.dumps(data, default=str) + "\n")
            self.file.flush()
        except OSError as error:
            report.write_errors.append(f"cannot append to the JSON lines report: "
                                       f"{error.strerror or error}")
            self.close()

    def close(self) -> None:
        if self.file is not None:
            with contextlib.suppress(OSError):
                self.file.close()
            self.file = None


def _add(report: Report, lines: _Stream, case: Case, outcome: Outcome,
         seconds: float) -> CaseRecord:
    """Record a case in the report, and on its JSON lines stream."""
    record = report.add(case, outcome, seconds)
    lines.write(record, report)
    return record


def _open_stream(path: str | Path | None, report: Report) -> _Stream:
    """The JSON lines report, emptied; a write error when it cannot be opened."""
    if path is None:
        return _Stream(None)
    try:
        return _Stream(open(path, "w", encoding="utf-8"))  # noqa: SIM115 - _Stream closes it
    except OSError as error:
        report.write_errors.append(f"cannot write the JSON lines report to {path}: "
                                   f"{error.strerror or error}")
        return _Stream(None)


def _run_parallel(report: Report, lines: _Stream, cases: Sequence[Case], engine_spec: str | None,
                  timeouts: tuple[float, float], report_dir: Path, workers: int,
                  limits: Limits,
                  make_terminal: Callable[[], Terminal],
                  paths: tuple[str | Path | None, str | Path | None],
                  diagnose: bool = False) -> None:
    """The body of ``run_suite`` with ``workers`` processes (see ``conformance.parallel``).

    Outcomes are recorded in the suite's order as soon as every earlier case has one; a
    limit reached on the way turns the rest into ``not_run``, as in a serial run.
    """
    from dominokit.conformance import parallel

    if not parallel.available():
        raise ConformanceError("parallel workers need fork(), which this platform lacks")

    def start(ctx: Context) -> Engine | None:
        return _start(engine_spec, timeouts, ctx)

    pool = parallel.Pool(cases, start, report_dir, min(workers, len(cases)))
    terminal = make_terminal()  # after the fork: a worker holds no thread of the parent's
    pool.on_progress = lambda sent: _progress(terminal, lines, report, cases[sent.index].id,
                                              lambda: sent.seconds, sent.progress,
                                              sent.checkpoint)
    done: dict[int, parallel.Finished] = {}
    recorded = 0
    schedule = parallel.Schedule([case.id for case in cases])
    stop: str | None = None
    try:
        hello, dead = pool.hello()
        report.hello = hello
        if hello is not None:  # the version the session settled on (2, or 1 on fallback)
            report.protocol_version = hello.protocol
        if dead is not None:
            report.error = dead
            stop = NEVER_STARTED
        while recorded < len(cases):
            stop = stop or limits.reason()
            if stop is not None or not pool.alive():
                stop = stop or "every worker process died"
                if not pool.running():
                    _skip(report, lines, cases[recorded], stop)
                    recorded += 1
                    continue
            else:
                for conn in pool.idle():
                    index = schedule.next_for(conn)
                    if index is not None:
                        terminal.start(recorded, cases[index].id)
                        pool.send(conn, index)
            if pool.running():
                for finished in pool.results():
                    done[finished.index] = finished
            while recorded in done:
                finished = done.pop(recorded)
                case = cases[recorded]
                stop = stop or limits.reason()
                if stop is not None:
                    _skip(report, lines, case, stop)
                else:
                    record = _add(report, lines, case, finished.outcome, finished.seconds)
                    limits.record(record)
                    terminal.record(record)
                recorded += 1
        if diagnose:
            _diagnose(report, cases)
    except KeyboardInterrupt:
        report.interrupted = True
        raise
    finally:
        pool.close(now=report.interrupted)
        report.finish([case.id for case in cases])
        lines.close()
        _write_reports(report, *paths)
        terminal.finish(report)
        for problem in report.write_errors:
            terminal.error(problem)


def _diagnose(report: Report, cases: Sequence[Case]) -> None:
    """``--diagnose``: the readings of each cause's rule, run on its cases (run.readings)."""
    from dominokit.conformance.run.readings import diagnose

    report.readings = diagnose(report, cases)


def _start(engine_spec: str | Engine | None, timeouts: tuple[float, float],
           ctx: Context) -> Engine | None:
    """Open the engine (when given as a spec) and greet it; on failure ``ctx.dead`` says why.
    ``timeouts`` is the per-request timeout and the start-up allowance."""
    try:
        if engine_spec is None or isinstance(engine_spec, str):
            engine = open_engine(engine_spec, *timeouts)
        else:
            engine = engine_spec
    except (EngineFailure, EngineRejected) as failure:
        ctx.dead = f"the engine did not start: {failure}"
        return None
    try:
        ctx.hello = engine.hello()
    except (EngineFailure, EngineRejected) as failure:
        ctx.dead = f"the engine did not start: {failure}"
        return engine
    if ctx.hello.protocol not in PROTOCOL_VERSIONS:
        ctx.dead = (f"the engine speaks protocol {ctx.hello.protocol}, "
                    f"this suite protocol {' or '.join(map(str, PROTOCOL_VERSIONS))}")
    return engine


def _write_reports(report: Report, json_path: str | Path | None,
                   junit_path: str | Path | None) -> None:
    """Write each report asked for; one that fails does not stop the other."""
    for path, what, write in ((json_path, "JSON report", report.write_json),
                              (junit_path, "JUnit XML report", report.write_junit)):
        if path is None:
            continue
        try:
            write(path)
        except OSError as error:
            report.write_errors.append(
                f"cannot write the {what} to {path}: {error.strerror or error}")


def check_conform_settings(args: argparse.Namespace) -> None:
    """Refuse, before anything starts, output paths no report can be written to.

    ``--report-dir`` is checked only when given: the default is needed only once a case fails,
    and a repro trace that cannot be written is a note on its case, not a reason to run
    nothing (a read-only checkout can still be tested)."""
    for option, path, check in (("--json", args.json, settings.writable_file),
                                ("--junitxml", args.junitxml, settings.writable_file),
                                ("--jsonl", getattr(args, "jsonl", None),
                                 settings.writable_file),
                                ("--report-dir", args.report_dir, settings.writable_dir)):
        if path is None:
            continue
        try:
            check(path)
        except settings.SettingError as error:
            raise settings.SettingError(f"{option} {path}: {error}") from None


def run_conform(args: argparse.Namespace) -> int:
    """Body of ``dominokit conform``; returns an ``ExitStatus`` (never a count of failures).

    Nothing starts before every setting is checked and the selection is known to be non-empty;
    ``--list`` stops there, printing the selected ids.
    """
    check_conform_settings(args)
    expectations = load_expectations(args.expectations) if args.expectations else None
    cases = collect_cases(args.variant, args.only, args.examples, args.seed)
    if not cases:
        selection = " ".join(f"--{name} {value}" for name, value in
                             (("variant", args.variant), ("only", args.only)) if value)
        print(f"dominokit conform: no case matches the selection ({selection or 'all'})",
              file=sys.stderr)
        return ExitStatus.NO_CASES
    if getattr(args, "list", False):
        for case in cases:
            print(case.id)
        return ExitStatus.OK
    from dominokit.conformance.parallel import worker_count

    workers = worker_count(getattr(args, "workers", 1), len(cases))
    try:
        report = run_suite(
            args.engine,
            variant=args.variant,
            only=args.only,
            examples=args.examples,
            seed=args.seed,
            timeout=args.timeout,
            startup_timeout=getattr(args, "startup_timeout", STARTUP_TIMEOUT),
            json_path=args.json,
            junit_path=args.junitxml,
            expectations=expectations,
            progress=True,
            report_dir=args.report_dir or DEFAULT_REPORT_DIR,
            cases=cases,
            err=sys.stderr,
            color=getattr(args, "color_enabled", False),
            budget=getattr(args, "budget", None),
            max_engine_failures=getattr(args, "max_engine_failures",
                                        DEFAULT_MAX_ENGINE_FAILURES),
            maxfail=getattr(args, "maxfail", 0),
            workers=workers,
            jsonl_path=getattr(args, "jsonl", None),
            verbosity=getattr(args, "verbosity", 0),
            diagnose=getattr(args, "diagnose", False),
        )
    except KeyboardInterrupt:
        print("dominokit conform: interrupted; the reports hold what ran", file=sys.stderr)
        return ExitStatus.INTERRUPTED
    if report.error is not None or report.write_errors:
        return ExitStatus.USAGE_ERROR
    return ExitStatus.OK if report.ok else ExitStatus.FAILED
