"""The suite has teeth: it fails every deliberately broken engine, naming the broken rule.

Each engine in ``tests/broken/engines.py`` is the reference with exactly one rule broken. For
each, the relevant part of the suite (its ``only`` globs) must report at least one failure
whose rule ids include that rule, and no case may end "errored" (a broken rule is a wrong
answer, not a crash). The same cases must all pass against the reference itself, so every
failure is the broken rule's doing.
"""

from __future__ import annotations

import io
from fnmatch import fnmatchcase
from functools import cache
from pathlib import Path

import pytest
from dominokit.conformance.driver import InProcessEngine, open_engine
from dominokit.conformance.refengine import ReferenceEngine
from dominokit.conformance.runner import Case, collect_cases, run_suite

from tests.broken.engines import BROKEN, Broken

EXAMPLES = 3
"""Random hands per differential case: the searched hands catch these engines already."""


@cache
def _cases(variant: str) -> tuple[Case, ...]:
    return tuple(collect_cases(variant, examples=EXAMPLES, seed=0))


def _subset(engine: type[Broken]) -> list[Case]:
    return [case for case in _cases(engine.variant)
            if any(fnmatchcase(case.id, glob) for glob in engine.only)]


def test_there_are_at_least_twenty_broken_engines() -> None:
    assert len(BROKEN) >= 20
    assert len({(e.variant, e.rule, e.__doc__) for e in BROKEN.values()}) == len(BROKEN)


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_suite_fails_the_broken_engine_on_its_rule(name: str, tmp_path: Path) -> None:
    broken = BROKEN[name]
    cases = _subset(broken)
    assert cases, f"{name}: its globs {broken.only} select no case"
    report = run_suite(InProcessEngine(broken(), broken), cases=cases, report_dir=tmp_path,
                       out=io.StringIO())
    failed = [r for r in report.records if r.outcome.status == "failed"]
    assert failed, f"{name} passed: {report.summary_line()}"
    assert not [r for r in report.records if r.outcome.status == "errored"]
    blamed = {r.case_id: r.outcome.rules for r in failed}
    assert any(broken.rule in rules for rules in blamed.values()), blamed
    assert not report.ok


def test_reference_passes_every_case_the_broken_engines_run(tmp_path: Path) -> None:
    chosen = {case.id: case for engine in BROKEN.values() for case in _subset(engine)}
    report = run_suite(InProcessEngine(ReferenceEngine(), ReferenceEngine),
                       cases=list(chosen.values()), report_dir=tmp_path, out=io.StringIO())
    assert report.counts()["passed"] == len(chosen), [
        (r.case_id, r.outcome.message) for r in report.records if r.outcome.status != "passed"]


def test_broken_engines_load_by_name() -> None:
    engine = open_engine("python:tests.broken.engines:WidowStarterLowerHalf")
    hello = engine.hello()
    assert "szczerbak" in hello.variants
