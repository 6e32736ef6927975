"""The kit's Python API: run the suite from Python and get a typed report back.

``dominokit.conform`` (this module's ``conform``) is ``dominokit conform`` as a function: the
same selection, limits and reports, with the terminal's lines kept quiet unless asked for. The
engine is a command line, a ``python:MODULE:FACTORY`` string, or an engine object: any object
with the methods of ``EngineObject`` (a ``typing.Protocol``), driven in this process with the
protocol's JSON round trip and checks. ``Report`` is the run's record (``ok``, ``counts()``,
``records``, ``to_json()``), the one the JSON report is written from.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from dominokit.conformance.cases import DEFAULT_EXAMPLES, collect_cases
from dominokit.conformance.cases.model import ConformanceError
from dominokit.conformance.kit.driver import STARTUP_TIMEOUT
from dominokit.conformance.kit.engines import DEFAULT_TIMEOUT
from dominokit.conformance.kit.inprocess import InProcessEngine
from dominokit.conformance.run.report import CaseRecord, Report
from dominokit.conformance.run.runner import run_suite
from dominokit.conformance.run.settings import DEFAULT_MAX_ENGINE_FAILURES, DEFAULT_REPORT_DIR

__all__ = ["CaseRecord", "EngineObject", "Report", "conform"]


@runtime_checkable
class EngineObject(Protocol):
    """What a ``python:`` engine (or an object given to ``conform``) must have: one method per
    protocol command, the request's fields as positional arguments, the result's single field
    as the return value (``hello`` returns the whole result object). ``undo()`` is optional
    (protocol 2; declare ``"capabilities": ["undo"]``). Refuse by raising an exception with
    string attributes ``code``, ``message`` and ``rule``
    (``dominokit.conformance.wire.errors.EngineRejected`` is one)."""

    def hello(self) -> Mapping[str, Any]: ...

    def new_hand(self, variant: str, options: Mapping[str, Any],
                 deal: Mapping[str, Any]) -> Mapping[str, Any]: ...

    def legal(self) -> Sequence[str]: ...

    def apply(self, action: str) -> Sequence[Mapping[str, Any]]: ...

    def state(self) -> Mapping[str, Any]: ...

    def new_match(self, variant: str, options: Mapping[str, Any],
                  first_starter: int) -> Mapping[str, Any]: ...

    def next_hand(self, deal: Mapping[str, Any]) -> Mapping[str, Any]: ...

    def match_state(self) -> Mapping[str, Any]: ...


def conform(
    engine: str | EngineObject | None = None,
    *,
    variant: str | None = None,
    only: str | Sequence[str] = (),
    skip: Sequence[str] = (),
    rules: Sequence[str] = (),
    examples: int | None = None,
    seed: int | None = None,
    jobs: int = 1,
    timeout: float = DEFAULT_TIMEOUT,
    startup_timeout: float = STARTUP_TIMEOUT,
    report_dir: str | Path = DEFAULT_REPORT_DIR,
    json: str | Path | None = None,
    junitxml: str | Path | None = None,
    expectations: str | Path | None = None,
    since: str | None = None,
    maxfail: int = 0,
    budget: float | None = None,
    html: str | Path | None = None,
    markdown: str | Path | None = None,
    badges: str | Path | None = None,
    verbose: bool = False,
) -> Report:
    """Run the suite against ``engine`` (None: the bundled reference, as a subprocess).

    The arguments are ``dominokit conform``'s options: ``only``/``skip`` globs over case ids,
    ``rules`` rule ids a case must cover, ``examples`` and ``seed`` for the random hands
    (default 25 and 0: the recorded hands), ``jobs`` worker processes (a command or
    ``python:`` string only), ``json``/``junitxml`` report files, ``since`` a suite version
    whose newer failures are counted apart. ``verbose`` prints what the command prints; by
    default nothing is printed. ConformanceError when the selection is empty or the
    arguments cannot be used together.
    """
    globs = (only,) if isinstance(only, str) else tuple(only)
    cases = collect_cases(variant, globs, DEFAULT_EXAMPLES if examples is None else examples,
                          0 if seed is None else seed, skip=skip, rules=rules)
    if not cases:
        raise ConformanceError("no case matches the selection")
    target: str | InProcessEngine | None
    if engine is None or isinstance(engine, str):
        target = engine
    else:
        if jobs > 1:
            raise ConformanceError("an engine object runs in this process: use jobs=1, or give "
                                   "the engine as python:MODULE:FACTORY")
        target = InProcessEngine(engine)
    out = sys.stdout if verbose else io.StringIO()
    try:
        return run_suite(
            target, variant=variant, only=globs, examples=examples or DEFAULT_EXAMPLES,
            seed=seed or 0, timeout=timeout, startup_timeout=startup_timeout,
            json_path=json, junit_path=junitxml, expectations=expectations,
            report_dir=report_dir, cases=cases, out=out, err=out if not verbose else sys.stderr,
            budget=budget, max_engine_failures=DEFAULT_MAX_ENGINE_FAILURES, maxfail=maxfail,
            workers=jobs if target is None or isinstance(target, str) else 1, since=since,
            skip=skip, rules=rules, html_path=html, markdown_path=markdown, badge_dir=badges)
    finally:
        if isinstance(target, InProcessEngine):
            target.close()
