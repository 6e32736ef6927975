"""pytest plugin: run the conformance suite as pytest items (``--dominokit-engine CMD``).

Registered as the ``dominokit`` pytest11 entry point, so it loads wherever dominokit is
installed; it therefore does nothing at all unless ``--dominokit-engine`` is given. Then every
case becomes an item named by its case id, not-applicable cases are skipped, and a failure is
reported with the same text as ``dominokit conform`` prints.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from dominokit.conformance.driver import Engine, open_engine
from dominokit.conformance.report import format_outcome
from dominokit.conformance.runner import (
    DEFAULT_EXAMPLES,
    Case,
    Context,
    Outcome,
    collect_cases,
    run_case,
)

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
    group.addoption("--dominokit-examples", metavar="N", type=int, default=DEFAULT_EXAMPLES,
                    help=f"random hands per differential case (default {DEFAULT_EXAMPLES})")
    group.addoption("--dominokit-seed", metavar="N", type=int, default=0,
                    help="seed of the generated cases (default 0)")


class _Session:
    """The engine shared by all items of a run, opened on first use."""

    def __init__(self, spec: str) -> None:
        self.spec = spec
        self.engine: Engine | None = None
        self.ctx = Context(Path(tempfile.mkdtemp(prefix="dominokit-conform-")))

    def open(self) -> tuple[Engine, Context]:
        if self.engine is None:
            self.engine = open_engine(self.spec)
            self.ctx.hello = self.engine.hello()
        return self.engine, self.ctx

    def close(self) -> None:
        if self.engine is not None:
            self.engine.close()


class CaseFailed(Exception):
    """Carries a failed or errored outcome to ``repr_failure``."""

    def __init__(self, outcome: Outcome) -> None:
        self.outcome = outcome
        super().__init__(outcome.message)


class CaseItem(pytest.Item):
    """One conformance case as a pytest item."""

    def __init__(self, *, case: Case, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.case = case

    def runtest(self) -> None:
        engine, ctx = self.config.stash[_SESSION].open()
        outcome = run_case(self.case, engine, ctx)
        if outcome.status == "not_applicable":
            pytest.skip(outcome.message)
        if outcome.status != "passed":
            raise CaseFailed(outcome)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException],
                     style: Any = None) -> str:
        if isinstance(excinfo.value, CaseFailed):
            return format_outcome(self.case.id, excinfo.value.outcome, diff_lines=None)
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[str, int | None, str]:
        return "dominokit", None, self.case.id


def pytest_configure(config: pytest.Config) -> None:
    spec = config.getoption("dominokit_engine", None)
    if spec:
        config.stash[_SESSION] = _Session(spec)


def pytest_unconfigure(config: pytest.Config) -> None:
    session = config.stash.get(_SESSION, None)
    if session is not None:
        session.close()


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config,
                                  items: list[pytest.Item]) -> None:
    if _SESSION not in config.stash:
        return
    items.extend(_items(session, config))


def _items(session: pytest.Session, config: pytest.Config) -> Iterator[CaseItem]:
    cases = collect_cases(config.getoption("dominokit_variant"),
                          config.getoption("dominokit_only"),
                          config.getoption("dominokit_examples"),
                          config.getoption("dominokit_seed"))
    for case in cases:
        yield CaseItem.from_parent(session, name=case.id, nodeid=f"dominokit::{case.id}",
                                   case=case)
