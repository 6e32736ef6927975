"""The conformance runner: what a case is, what running one gives, and running a whole suite.

A case is data plus a body: a stable id, the variant and option values it needs, the rule ids
it covers, and a function that drives an engine and returns an ``Outcome``. The runner decides
applicability from the engine's ``hello`` (a case needing an unsupported variant or option value
is "not applicable", never failed), turns every way an engine can misbehave into an "errored"
outcome naming the failure kind, restarts the engine and goes on, and always writes its reports,
even when interrupted. The CLI (``dominokit conform``) and the pytest plugin are thin layers
over ``collect_cases``, ``run_case`` and ``run_suite``.
"""

from __future__ import annotations

import argparse
import sys
import time
import traceback
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any, Final, Literal, TextIO

from dominokit.conformance.driver import Engine, Hello, open_engine
from dominokit.conformance.errors import EngineFailure, EngineRejected
from dominokit.conformance.expectations import Expectations, load_expectations
from dominokit.conformance.protocol import PROTOCOL_VERSION
from dominokit.conformance.report import Report, Terminal
from dominokit.reference.errors import DominokitError

SUITE_VERSION: Final = "1.0.0"
"""Semantic version of the suite: major when the protocol or a ruling changes (results of an
unchanged engine may change), minor when cases are added, patch for fixes to the kit."""

Status = Literal["passed", "failed", "errored", "not_applicable"]
STATUSES: Final[tuple[Status, ...]] = ("passed", "failed", "errored", "not_applicable")

DEFAULT_EXAMPLES: Final = 25
DEFAULT_REPORT_DIR: Final = "dominokit-report"


class ConformanceError(DominokitError, ValueError):
    """A run that cannot start as asked (unknown variant, no case matching ``--only``)."""


@dataclass(frozen=True)
class Outcome:
    """What running one case gave.

    ``step`` is the number of actions played in the hand when the first divergence showed
    (0: at the start of the hand), ``hand`` the 1-based hand of a match; ``expected`` and
    ``got`` are the diverging values (reference and engine), ``diff`` a unified diff of their
    pretty JSON, ``rules`` the rule ids the failure concerns, ``repro`` the path of a minimal
    trace that reproduces it, ``failure_kind`` how the engine misbehaved for "errored"
    (crash, timeout, malformed, protocol, startup; "kit" for a bug in the kit itself).
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

    @classmethod
    def passed(cls, message: str = "") -> Outcome:
        """A case that found nothing wrong (``message`` may say what it covered)."""
        return cls("passed", message)

    @classmethod
    def not_applicable(cls, message: str) -> Outcome:
        """A case the engine does not claim to support."""
        return cls("not_applicable", message)

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
        return None


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
        raise ConformanceError(f"unknown variant {variant!r}; known: {', '.join(known)}")
    cases = collect([variant] if variant else known, examples=examples, seed=seed)
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
        return Outcome("errored", f"not run: {ctx.dead}", rules=case.rules,
                       failure_kind="startup")
    if ctx.hello is not None:
        why = case.requires.unmet(ctx.hello)
        if why is not None:
            return Outcome.not_applicable(why)
    try:
        return case.run(engine, ctx)
    except EngineFailure as failure:
        outcome = Outcome("errored", f"engine {failure.kind}: {failure.detail}",
                          rules=case.rules, failure_kind=failure.kind)
        _restart(engine, ctx)
        return outcome
    except EngineRejected as rejection:
        return Outcome("failed", f"the engine refused a request the case needs: {rejection}",
                       rules=tuple(dict.fromkeys((*case.rules, *_rule_of(rejection)))))
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


def run_suite(
    engine_spec: str | Engine | None = None,
    *,
    variant: str | None = None,
    only: str | None = None,
    examples: int = DEFAULT_EXAMPLES,
    seed: int = 0,
    timeout: float = 10.0,
    json_path: str | Path | None = None,
    junit_path: str | Path | None = None,
    expectations: Expectations | str | Path | None = None,
    progress: bool = False,
    report_dir: str | Path = DEFAULT_REPORT_DIR,
    cases: Sequence[Case] | None = None,
    out: TextIO | None = None,
) -> Report:
    """Run the suite against one engine and return the report (also written to the paths).

    ``engine_spec`` is an ``--engine`` value (None: the reference as a subprocess) or an Engine
    already open (left open). ``progress`` draws a bar when ``out`` is a terminal. Whatever
    happens (an interrupt, a bug in the kit) the reports are written with what ran.
    """
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
                  "timeout": timeout, "report_dir": str(report_dir)},
        expectations=expectations,
    )
    terminal = Terminal(stream, total=len(cases), bar=progress and stream.isatty())
    ctx = Context(Path(report_dir))
    owned = engine_spec is None or isinstance(engine_spec, str)
    engine: Engine | None = None
    try:
        try:
            if engine_spec is None or isinstance(engine_spec, str):
                engine = open_engine(engine_spec, timeout)
            else:
                engine = engine_spec
            ctx.hello = engine.hello()
            report.hello = ctx.hello
            if ctx.hello.protocol != PROTOCOL_VERSION:
                ctx.dead = (f"the engine speaks protocol {ctx.hello.protocol}, "
                            f"this suite protocol {PROTOCOL_VERSION}")
        except (EngineFailure, EngineRejected) as failure:
            ctx.dead = f"the engine did not start: {failure}"
        if ctx.dead is not None:
            report.error = ctx.dead
        for done, case in enumerate(cases):
            terminal.start(done, case.id)
            began = time.monotonic()
            outcome = (run_case(case, engine, ctx) if engine is not None
                       else Outcome("errored", ctx.dead or "", failure_kind="startup"))
            terminal.record(report.add(case, outcome, time.monotonic() - began))
    except KeyboardInterrupt:
        report.interrupted = True
        raise
    finally:
        report.finish([case.id for case in cases])
        if engine is not None and owned:
            engine.close()
        if json_path is not None:
            report.write_json(json_path)
        if junit_path is not None:
            report.write_junit(junit_path)
        terminal.finish(report)
    return report


def run_conform(args: argparse.Namespace) -> int:
    """Body of ``dominokit conform``: 0 when every applicable case passed or ended exactly as
    the expectations file says, else 1 (never a count of failures)."""
    try:
        report = run_suite(
            args.engine,
            variant=args.variant,
            only=args.only,
            examples=args.examples,
            seed=args.seed,
            timeout=args.timeout,
            json_path=args.json,
            junit_path=args.junitxml,
            expectations=args.expectations,
            progress=True,
            report_dir=args.report_dir,
        )
    except KeyboardInterrupt:
        print("dominokit conform: interrupted; the reports hold what ran", file=sys.stderr)
        return 1
    if not report.records:
        print("dominokit conform: no case matches the selection", file=sys.stderr)
        return 1
    return 0 if report.ok else 1
