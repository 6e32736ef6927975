"""Whether the suite kills a broken engine: its ``only`` cases run, and a failure names its rule.

One verdict per engine per process (``verdict`` is cached), so the corpus test, the catalogue
page check and the score line all share a single run of each engine. Case collection is cached
per variant, with few random hands per differential case: each engine's cases were chosen for
the searched and fixed positions that catch it, not for luck.
"""

from __future__ import annotations

import io
import tempfile
from dataclasses import dataclass
from fnmatch import fnmatchcase
from functools import cache

from dominokit.conformance.cases import collect_cases
from dominokit.conformance.cases.model import Case
from dominokit.conformance.kit.inprocess import InProcessEngine
from dominokit.conformance.run.causes import group
from dominokit.conformance.run.report import Report
from dominokit.conformance.run.runner import run_suite
from dominokit.conformance.serve.refengine import ReferenceEngine
from tests.conformance.broken.engines import Broken
from tests.conformance.broken.registry import BROKEN

EXAMPLES = 3
"""Random hands per differential case: the searched hands catch these engines already."""

SEED = 0


@dataclass(frozen=True)
class Verdict:
    """What the suite made of one broken engine."""

    name: str
    killed: bool
    """True when some case failed naming the broken rule and no case errored."""
    why: str
    """One line: the killing cases, or why the engine survived."""
    killers: tuple[str, ...] = ()
    """Cases that failed naming the broken rule."""
    causes: tuple[str | None, ...] = ()
    """The rule each cause of the run blames, as the report groups its failures."""


@cache
def cases(variant: str) -> tuple[Case, ...]:
    """Every case of ``variant`` (collected once per process)."""
    return tuple(collect_cases(variant, examples=EXAMPLES, seed=SEED))


def subset(engine: type[Broken]) -> list[Case]:
    """The cases ``engine.only`` selects."""
    return [case for case in cases(engine.variant)
            if any(fnmatchcase(case.id, glob) for glob in engine.only)]


def _run(engine: object, chosen: list[Case]) -> Report:
    with tempfile.TemporaryDirectory(prefix="dominokit-mutant-") as report_dir:
        return run_suite(InProcessEngine(engine, type(engine)), cases=chosen,
                         report_dir=report_dir, out=io.StringIO())


JUDGED: dict[str, Verdict] = {}
"""The verdicts given so far in this process, by engine name."""


def verdict(name: str) -> Verdict:
    """Engine ``name``'s verdict: its cases are run the first time it is asked for."""
    if name not in JUDGED:
        JUDGED[name] = _judge(name)
    return JUDGED[name]


def _judge(name: str) -> Verdict:
    engine = BROKEN[name]
    chosen = subset(engine)
    if not chosen:
        return Verdict(name, False, f"its globs {' '.join(engine.only)} select no case yet")
    report = _run(engine(), chosen)
    errored = [r.case_id for r in report.records if r.outcome.status == "errored"]
    failed = [r for r in report.records if r.outcome.status == "failed"]
    killers = tuple(r.case_id for r in failed if engine.rule in r.outcome.rules)
    if errored:
        return Verdict(name, False, f"errored (a crash is not a caught bug): {errored}")
    if not failed:
        return Verdict(name, False, f"survived: {report.summary_line()}")
    if not killers:
        blamed = {r.case_id: r.outcome.rules for r in failed}
        return Verdict(name, False, f"failed without naming {engine.rule}: {blamed}")
    causes = tuple(cause.rule for cause in group(report.records))
    return Verdict(name, True, f"killed by {' '.join(killers)}", killers, causes)


def reference_failures(names: list[str]) -> list[tuple[str, str]]:
    """(case id, message) of every case that the named engines run and the reference fails.

    The in-process reference declares every variant and option, so the only cases it may find
    not applicable are those that need an engine run as a command (a line that is not JSON);
    they are not failures of the reference."""
    chosen = {case.id: case for name in names for case in subset(BROKEN[name])}
    report = _run(ReferenceEngine(), list(chosen.values()))
    return [(r.case_id, r.outcome.message) for r in report.records
            if r.outcome.status not in ("passed", "not_applicable")]


def score() -> tuple[int, int]:
    """(killed, judged) over the verdicts given so far in this process."""
    return sum(v.killed for v in JUDGED.values()), len(JUDGED)
