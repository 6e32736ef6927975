"""pytest plugin: run the conformance suite as pytest items (``--dominokit-engine CMD``).

Registered as the ``dominokit`` pytest11 entry point, so it loads wherever dominokit is
installed; it therefore does nothing at all unless ``--dominokit-engine`` is given. Then every
case becomes an item named by its case id, not-applicable cases are skipped, and a failure is
reported with the same text as ``dominokit conform`` prints. It takes the same settings as the
command (``--dominokit-timeout``, ``--dominokit-expectations``: an expected departure is an
xfail, a stale one a failure) and checks them the same way: a bad value, or an engine that
will not start, is one usage error (pytest's status 4), not a traceback per item.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dominokit.conformance.cases import DEFAULT_EXAMPLES, collect_cases
from dominokit.conformance.cases.model import Case, Context, Outcome, run_case
from dominokit.conformance.kit.driver import Engine
from dominokit.conformance.kit.engines import (
    DEFAULT_TIMEOUT,
    EngineDidNotStart,
    EngineSpec,
    EngineSpecError,
    Timeouts,
    connect,
)
from dominokit.conformance.run import settings
from dominokit.conformance.run.expectations import Expectations, Judgement, load_expectations
from dominokit.conformance.run.report import format_outcome
from dominokit.reference.errors import DominokitError

_SESSION = pytest.StashKey["_Session"]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("dominokit", "dominokit conformance suite")
    group.addoption("--dominokit-engine", metavar="CMD", default=None,
                    help="run the conformance suite against this engine (command line, or "
                    "python:module:factory); without it the plugin does nothing")
    group.addoption("--dominokit-variant", metavar="ID", default=None,
                    help="only cases of this variant")
    group.addoption("--dominokit-only", metavar="GLOB", default=None,
                    help="only cases whose id matches GLOB")
    group.addoption("--dominokit-examples", metavar="N", default=DEFAULT_EXAMPLES,
                    type=settings.argument_type(settings.at_least_one),
                    help=f"random hands per differential case (default {DEFAULT_EXAMPLES})")
    group.addoption("--dominokit-seed", metavar="N", type=int, default=0,
                    help="seed of the generated cases (default 0)")
    group.addoption("--dominokit-timeout", metavar="SECONDS", default=DEFAULT_TIMEOUT,
                    type=settings.argument_type(settings.seconds),
                    help=f"per-request engine timeout (default {DEFAULT_TIMEOUT:g})")
    group.addoption("--dominokit-expectations", metavar="FILE", default=None,
                    help="known departures (YAML): expected ones xfail, stale ones fail")


class _Session:
    """The settings of a run, checked when pytest starts, and the engine all items share.

    The engine is started and greeted once, before the items run; one that will not start
    is a usage error then, never a failure of each item.
    """

    def __init__(self, config: pytest.Config, spec: str) -> None:
        try:
            self.spec = EngineSpec.parse(spec)
        except EngineSpecError as error:
            raise pytest.UsageError(f"--dominokit-engine: {error}") from None
        self.timeout: float = config.getoption("dominokit_timeout")
        path = config.getoption("dominokit_expectations")
        try:
            self.expectations = load_expectations(path) if path else Expectations()
        except DominokitError as error:
            raise pytest.UsageError(f"--dominokit-expectations: {error}") from None
        self.engine: Engine | None = None
        self.ctx = Context(Path(tempfile.mkdtemp(prefix="dominokit-conform-")))

    def start(self) -> None:
        """Open the engine and say hello; pytest.UsageError if it will not start."""
        try:
            self.engine, self.ctx.hello = connect(self.spec, Timeouts(self.timeout))
        except EngineDidNotStart as failure:
            raise pytest.UsageError(f"dominokit: {failure}") from None

    def open(self) -> tuple[Engine, Context]:
        if self.engine is None:
            self.start()
        assert self.engine is not None
        return self.engine, self.ctx

    def close(self) -> None:
        if self.engine is not None:
            self.engine.close()
            self.engine = None


class CaseFailed(Exception):
    """Carries a failed or errored outcome (or a stale expectation) to ``repr_failure``."""

    def __init__(self, outcome: Outcome, judgement: Judgement | None = None) -> None:
        self.outcome = outcome
        self.judgement = judgement
        super().__init__(outcome.message)


class CaseItem(pytest.Item):
    """One conformance case as a pytest item."""

    def __init__(self, *, case: Case, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.case = case

    def runtest(self) -> None:
        session = self.config.stash[_SESSION]
        engine, ctx = session.open()
        outcome = run_case(self.case, engine, ctx)
        judgement = session.expectations.judge(self.case.id, outcome.status)
        if judgement.verdict == "expected":
            pytest.xfail(f"expected {judgement.expected}: {judgement.reason}")
        if outcome.status in ("not_applicable", "not_run") and judgement.ok:
            pytest.skip(outcome.message)
        if not judgement.ok:
            raise CaseFailed(outcome, judgement)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException],
                     style: Any = None) -> str:
        if isinstance(excinfo.value, CaseFailed):
            failed = excinfo.value
            return format_outcome(self.case.id, failed.outcome, failed.judgement,
                                  diff_lines=None)
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[str, int | None, str]:
        return "dominokit", None, self.case.id


def pytest_configure(config: pytest.Config) -> None:
    spec = config.getoption("dominokit_engine", None)
    if spec:
        config.stash[_SESSION] = _Session(config, spec)


def pytest_unconfigure(config: pytest.Config) -> None:
    session = config.stash.get(_SESSION, None)
    if session is not None:
        session.close()


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config,
                                  items: list[pytest.Item]) -> None:
    if _SESSION not in config.stash:
        return
    added = list(_items(session, config))
    if added and not config.option.collectonly:
        config.stash[_SESSION].start()
    items.extend(added)


def _items(session: pytest.Session, config: pytest.Config) -> Iterator[CaseItem]:
    try:
        cases = collect_cases(config.getoption("dominokit_variant"),
                              config.getoption("dominokit_only"),
                              config.getoption("dominokit_examples"),
                              config.getoption("dominokit_seed"))
    except DominokitError as error:
        raise pytest.UsageError(f"dominokit: {error}") from None
    for case in cases:
        yield CaseItem.from_parent(session, name=case.id, nodeid=f"dominokit::{case.id}",
                                   case=case)
