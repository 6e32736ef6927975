"""pytest plugin: run the conformance suite as pytest items (``--dominokit-engine CMD``).

Registered as the ``dominokit`` pytest11 entry point, so it loads wherever dominokit is
installed; it therefore does nothing at all unless ``--dominokit-engine`` (or the
``dominokit_engine`` ini setting) is given. Then every case becomes an item whose node id is
``dominokit::<case id>`` (an argument of that form selects the case, as a test's node id
does), marked ``rule(id=...)`` for each rule it covers (``-m 'rule(id="R-SZC-04")'``);
not-applicable cases are skipped, and a failure is reported with the same text as ``dominokit
conform`` prints. It takes the same settings as the command, as options or ini settings
(``dominokit_timeout``, ``dominokit_expectations``: an expected departure is an xfail, a stale
one a failure; ``dominokit_report_dir``: where repro traces go, ``dominokit-report`` by default,
as for the command) and checks them the same way: a bad value, or an engine that will not
start, is one usage error (pytest's status 4), not a traceback per item.

A differential campaign (``--dominokit-examples`` above one chunk of random hands, see
``cases.campaign``) is one item per seeded chunk, ``dominokit::<case id>[chunk-<i>-of-<n>]``
(from 1), so that pytest-xdist spreads one campaign over local and remote workers; the first
chunk also plays the searched hands. A chunk's verdict is what its hands give; the case fails
when any of its chunks does, as the serial run's record does. A chunk's repro traces are
named after its item (``differential-default-chunk-3-of-8.yaml``). An expected failure makes
a failing chunk an xfail; a passing chunk of such a case passes (whether the expectation is
stale takes the whole campaign: ``dominokit conform`` says it). ``dominokit::<case id>``
selects every chunk of a campaign, ``dominokit::<case id>[chunk-3-of-8]`` that one.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from dominokit.conformance.cases import DEFAULT_EXAMPLES, collect_cases
from dominokit.conformance.cases.campaign import Tally, run_chunk
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
from dominokit.conformance.run.settings import DEFAULT_REPORT_DIR
from dominokit.reference.errors import DominokitError

_SESSION = pytest.StashKey["_Session"]()


NODE_PREFIX = "dominokit::"
"""How every item's node id begins; an argument that begins so selects a case by its id."""

CHUNK = re.compile(r"^(?P<case>.+)\[chunk-(?P<chunk>\d+)-of-(?P<of>\d+)\]$")
"""The name of one chunk's item: ``<case id>[chunk-<i>-of-<n>]``, ``i`` from 1."""


def chunk_name(case_id: str, chunk: int, of: int) -> str:
    """The item name of chunk ``chunk`` (from 0) of ``of``."""
    return f"{case_id}[chunk-{chunk + 1}-of-{of}]"

_SETTINGS: tuple[tuple[str, str, str], ...] = (
    # (name, metavar, help) of each setting, an option --dominokit-NAME and an ini dominokit_NAME
    ("engine", "CMD", "run the conformance suite against this engine (command line, or "
     "python:module:factory); without it the plugin does nothing"),
    ("variant", "ID", "only cases of this variant"),
    ("examples", "N", f"random hands per differential case (default {DEFAULT_EXAMPLES})"),
    ("seed", "N", "seed of the generated cases (default 0)"),
    ("timeout", "SECONDS", f"per-request engine timeout (default {DEFAULT_TIMEOUT:g})"),
    ("expectations", "FILE", "known departures (YAML): expected ones xfail, stale ones fail"),
    ("report_dir", "DIR", f"where repro traces are written (default {DEFAULT_REPORT_DIR})"),
)


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("dominokit", "dominokit conformance suite")
    for name, metavar, text in _SETTINGS:
        group.addoption(f"--dominokit-{name.replace('_', '-')}", dest=f"dominokit_{name}",
                        metavar=metavar, default=None, help=text)
        parser.addini(f"dominokit_{name}", text, default=None)
    group.addoption("--dominokit-only", dest="dominokit_only", metavar="GLOB",
                    action="append", default=None,
                    help="only cases whose id matches GLOB (repeatable: any of them)")
    parser.addini("dominokit_only", "only cases whose ids match one of these globs",
                  type="linelist", default=[])


def _setting(config: pytest.Config, name: str, check: Callable[[str], Any] | None = None,
             default: Any = None) -> Any:
    """A setting from its option, else its ini line, else ``default``; checked by ``check``
    (a bad value is a usage error naming the option or ini setting it came from)."""
    value = config.getoption(f"dominokit_{name}", None)
    source = f"--dominokit-{name.replace('_', '-')}"
    if value is None:
        value = config.getini(f"dominokit_{name}")
        source = f"ini setting dominokit_{name}"
    if value is None or value == "":
        return default
    if check is None:
        return value
    try:
        return check(str(value))
    except (settings.SettingError, ValueError) as error:
        raise pytest.UsageError(f"{source}: {error}") from None


def _whole(text: str) -> int:
    return int(text)


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
        self.timeout: float = _setting(config, "timeout", settings.seconds, DEFAULT_TIMEOUT)
        self.variant: str | None = _setting(config, "variant")
        self.examples: int = _setting(config, "examples", settings.at_least_one,
                                      DEFAULT_EXAMPLES)
        self.seed: int = _setting(config, "seed", _whole, 0)
        self.only: list[str] = list(config.getoption("dominokit_only", None)
                                    or config.getini("dominokit_only") or [])
        path = _setting(config, "expectations")
        try:
            self.expectations = load_expectations(path) if path else Expectations()
        except DominokitError as error:
            raise pytest.UsageError(f"dominokit expectations: {error}") from None
        self.engine: Engine | None = None
        self.ids: list[str] = []
        """Case ids given as ``dominokit::<id>`` arguments (none: every selected case)."""
        self.ctx = Context(Path(_setting(config, "report_dir", None, DEFAULT_REPORT_DIR)))

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
    """One conformance case as a pytest item, or one chunk (from 0) of a campaign."""

    def __init__(self, *, case: Case, chunk: int | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.case = case
        self.chunk = chunk

    def _outcome(self, engine: Engine, ctx: Context) -> Outcome:
        if self.chunk is None or self.case.campaign is None:
            return run_case(self.case, engine, ctx)
        campaign = self.case.campaign
        tally = Tally(campaign, ctx.report_dir, label=self.name)
        tally.add(run_chunk(self.case, engine, ctx, self.chunk))
        return tally.outcome(of=campaign.size(self.chunk))

    def runtest(self) -> None:
        session = self.config.stash[_SESSION]
        engine, ctx = session.open()
        outcome = self._outcome(engine, ctx)
        if self.chunk is not None and outcome.status == "passed":
            return  # no stale expectation from one chunk: the others may fail
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
            return format_outcome(self.name, failed.outcome, failed.judgement,
                                  diff_lines=None)
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[str, int | None, str]:
        return "dominokit", None, self.name


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "rule(id): a rule the dominokit case covers")
    spec = _setting(config, "engine")
    ids = [arg for arg in config.args if arg.startswith(NODE_PREFIX)]
    if not spec:
        if ids:
            raise pytest.UsageError(f"{ids[0]}: a dominokit case runs only against an engine; "
                                    "give --dominokit-engine (or the dominokit_engine ini "
                                    "setting)")
        return
    session = _Session(config, spec)
    session.ids = [arg.removeprefix(NODE_PREFIX) for arg in ids]
    if ids:  # pytest would look for a file named "dominokit": the plugin collects these
        config.args[:] = [arg for arg in config.args if not arg.startswith(NODE_PREFIX)]
    config.stash[_SESSION] = session


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
    settings_ = config.stash[_SESSION]
    ids = [_case_of(wanted) for wanted in settings_.ids]
    try:
        cases = collect_cases(settings_.variant, ids or settings_.only or None,
                              settings_.examples, settings_.seed)
    except DominokitError as error:
        raise pytest.UsageError(f"dominokit: {error}") from None
    names: set[str] | None = None
    yielded: set[str] = set()
    if settings_.ids:
        found = {case.id for case in cases}
        for wanted in ids:
            if wanted not in found:
                raise pytest.UsageError(f"dominokit: no case with id {wanted!r} "
                                        "(dominokit conform --list lists them)")
        cases = [case for case in cases if case.id in set(ids)]
        names = set(settings_.ids)
    for case in cases:
        of = case.chunks
        chunks: list[int | None] = list(range(of)) if of > 1 else [None]
        for chunk in chunks:
            name = case.id if chunk is None else chunk_name(case.id, chunk, of)
            if names is not None and name not in names and case.id not in names:
                continue
            item = CaseItem.from_parent(session, name=name, nodeid=f"{NODE_PREFIX}{name}",
                                        case=case, chunk=chunk)
            for rule in case.rules:
                item.add_marker(pytest.mark.rule(id=rule))
            yielded.add(name)
            yield item
    for wanted in sorted((names or set()) - yielded - {case.id for case in cases}):
        raise pytest.UsageError(f"dominokit: no item named {wanted!r} (a campaign's chunks "
                                "follow --dominokit-examples; --collect-only lists them)")


def _case_of(name: str) -> str:
    """The case id of an item name (a chunk's names its case)."""
    matched = CHUNK.match(name)
    return matched["case"] if matched else name
