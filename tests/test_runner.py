"""The conformance runner: collection, applicability, failure handling, reports, exit status."""

from __future__ import annotations

import argparse
import io
import json
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any, ClassVar

import pytest
from dominokit.conformance import traces
from dominokit.conformance.cases import KINDS, differential
from dominokit.conformance.driver import InProcessEngine
from dominokit.conformance.expectations import (
    Expectations,
    ExpectationsError,
    parse_expectations,
)
from dominokit.conformance.protocol import PROTOCOL_VERSION
from dominokit.conformance.refengine import ReferenceEngine
from dominokit.conformance.report import format_outcome
from dominokit.conformance.runner import (
    SUITE_VERSION,
    Case,
    ConformanceError,
    collect_cases,
    run_conform,
    run_suite,
)
from dominokit.reference import variant_ids

from tests.broken.engines import (
    PoldominoMutualPassNeverEnds,
    SzczerbakBlankEndOneAction,
)

REFERENCE = "python:dominokit.conformance.refengine:ReferenceEngine"
WIDOW_BROKEN = "python:tests.broken.engines:WidowStarterLowerHalf"
WIDOW_CASE = "perft/szczerbak/widow-faces-1-d1"


def reference() -> InProcessEngine:
    return InProcessEngine(ReferenceEngine(), ReferenceEngine)


def quick_szczerbak() -> list[Case]:
    """Every kind of szczerbak case, the perft ones only to depth 2 (to stay quick)."""
    return [c for c in collect_cases("szczerbak", examples=2)
            if c.kind != "perft" or c.id.endswith(("-d1", "-d2"))]


def conform_args(tmp_path: Path, **given: Any) -> argparse.Namespace:
    values: dict[str, Any] = {"engine": REFERENCE, "variant": None, "only": None,
                              "expectations": None, "json": None, "junitxml": None,
                              "examples": 2, "seed": 0, "timeout": 10.0,
                              "report_dir": str(tmp_path / "report")}
    values.update(given)
    return argparse.Namespace(**values)


# ---------------------------------------------------------------------------- collection


def test_case_ids_are_unique_stable_slugs() -> None:
    cases = collect_cases(examples=2)
    ids = [c.id for c in cases]
    assert len(set(ids)) == len(ids)
    assert ids == [c.id for c in collect_cases(examples=2)]
    # The variant part is a variant id as variant.schema.json allows it (classic_block).
    pattern = re.compile(r"^([a-z]+)/([a-z][a-z0-9_]*)/[A-Za-z0-9_.-]+$")
    for case in cases:
        found = pattern.match(case.id)
        assert found, case.id
        assert (found.group(1), found.group(2)) == (case.kind, case.variant)
    assert {c.kind for c in cases} == set(KINDS)
    assert {c.variant for c in cases} == set(variant_ids())


def test_only_glob_and_variant_filter() -> None:
    chosen = collect_cases("szczerbak", only="perft/*-d1", examples=2)
    assert chosen
    assert all(c.id.startswith("perft/szczerbak/") and c.id.endswith("-d1") for c in chosen)
    assert collect_cases(only="no-such-kind/*", examples=2) == []
    with pytest.raises(ConformanceError, match="chess"):
        collect_cases("chess")


def test_requirements_name_the_variant_and_non_default_options() -> None:
    case = next(c for c in collect_cases("poldomino", examples=2)
                if c.id == "differential/poldomino/catch_penalty_to-loser")
    assert case.requires.variant == "poldomino"
    assert case.requires.options == (("catch_penalty_to", "loser"),)


# ---------------------------------------------------------------------------- runs


def test_reference_passes_and_reports(tmp_path: Path) -> None:
    cases = quick_szczerbak()
    out = io.StringIO()
    report = run_suite(reference(), cases=cases, json_path=tmp_path / "r.json",
                       junit_path=tmp_path / "r.xml", report_dir=tmp_path, out=out)
    assert report.ok
    assert report.counts()["passed"] == len(cases)
    data = json.loads((tmp_path / "r.json").read_text())
    assert set(data) == {"suite_version", "protocol_version", "engine", "settings", "started",
                         "finished", "interrupted", "error", "expectations", "summary",
                         "cases"}
    assert (data["suite_version"], data["protocol_version"]) == (SUITE_VERSION,
                                                                 PROTOCOL_VERSION)
    assert data["engine"]["hello"]["name"] == "dominokit-reference"
    assert data["summary"]["passed"] == len(cases) and data["summary"]["ok"] is True
    record = data["cases"][0]
    for key in ("id", "kind", "variant", "options", "covers", "status", "message", "step",
                "hand", "rules", "expected", "got", "diff", "repro", "failure_kind",
                "seconds", "expectation", "verdict"):
        assert key in record
    suite = ET.parse(tmp_path / "r.xml").getroot().find("testsuite")
    assert suite is not None
    assert suite.get("tests") == str(len(cases)) and suite.get("failures") == "0"
    assert len(suite.findall("testcase")) == len(cases)
    last = out.getvalue().strip().splitlines()[-1]
    assert re.fullmatch(
        rf"dominokit conform: {len(cases)} passed, 0 failed, 0 errored, 0 not applicable "
        rf"\(suite {re.escape(SUITE_VERSION)}, protocol {PROTOCOL_VERSION}, "
        r"engine dominokit-reference \S+\)", last), last


def test_reference_as_a_subprocess_passes_the_golden_traces(tmp_path: Path) -> None:
    report = run_suite(None, only="golden/szczerbak/*", report_dir=tmp_path,
                       out=io.StringIO())
    assert report.records and report.ok


class _Limited(ReferenceEngine):
    """Supports poldomino without options, and nothing else."""

    def hello(self) -> dict[str, Any]:
        hello: dict[str, Any] = super().hello()
        hello["variants"] = {"poldomino": {"options": {}}}
        return hello


def test_unsupported_variant_or_option_is_not_applicable(tmp_path: Path) -> None:
    cases = [c for c in collect_cases(examples=2)
             if c.id in ("differential/poldomino/default",
                         "differential/poldomino/catch_penalty_to-loser", WIDOW_CASE)]
    report = run_suite(InProcessEngine(_Limited(), _Limited), cases=cases,
                       report_dir=tmp_path, out=io.StringIO())
    status = {r.case_id: r.outcome.status for r in report.records}
    assert status == {"differential/poldomino/default": "passed",
                      "differential/poldomino/catch_penalty_to-loser": "not_applicable",
                      WIDOW_CASE: "not_applicable"}
    assert report.ok


class _CrashesOnce(ReferenceEngine):
    """Raises on its first ``new_hand`` in the process (a crash for the driver)."""

    crashed: ClassVar[list[bool]] = []

    def new_hand(self, variant: str, options: Any, deal: Any) -> dict[str, Any]:
        if not self.crashed:
            self.crashed.append(True)
            raise RuntimeError("engine bug")
        result: dict[str, Any] = super().new_hand(variant, options, deal)
        return result


def test_engine_failure_is_errored_and_the_run_goes_on(tmp_path: Path) -> None:
    cases = collect_cases("szczerbak", only="perft/*-d1", examples=2)
    report = run_suite(InProcessEngine(_CrashesOnce(), _CrashesOnce), cases=cases,
                       report_dir=tmp_path, out=io.StringIO())
    first, *rest = report.records
    assert (first.outcome.status, first.outcome.failure_kind) == ("errored", "crash")
    assert "engine bug" in first.outcome.message
    assert rest and all(r.outcome.status == "passed" for r in rest)
    assert not report.ok


def test_engine_that_cannot_start_errors_every_case(tmp_path: Path) -> None:
    command = f"{sys.executable} -c 'import sys; sys.exit(3)'"
    cases = collect_cases("szczerbak", only="perft/*-d1", examples=2)
    report = run_suite(command, cases=cases, json_path=tmp_path / "r.json",
                       report_dir=tmp_path, out=io.StringIO())
    assert report.error and not report.ok
    assert {(r.outcome.status, r.outcome.failure_kind) for r in report.records} == {
        ("errored", "startup")}
    assert json.loads((tmp_path / "r.json").read_text())["error"]


class _Interrupts(ReferenceEngine):
    """Ctrl-C arrives during the second hand started."""

    calls: ClassVar[list[int]] = []

    def new_hand(self, variant: str, options: Any, deal: Any) -> dict[str, Any]:
        self.calls.append(1)
        if len(self.calls) == 2:
            raise KeyboardInterrupt
        result: dict[str, Any] = super().new_hand(variant, options, deal)
        return result


def test_interrupt_still_writes_the_report(tmp_path: Path) -> None:
    cases = collect_cases("szczerbak", only="perft/*-d1", examples=2)
    with pytest.raises(KeyboardInterrupt):
        run_suite(InProcessEngine(_Interrupts(), _Interrupts), cases=cases,
                  json_path=tmp_path / "r.json", report_dir=tmp_path, out=io.StringIO())
    data = json.loads((tmp_path / "r.json").read_text())
    assert data["interrupted"] is True
    assert [c["id"] for c in data["cases"]] == [cases[0].id]


# ---------------------------------------------------------------------------- failures


def test_failure_names_rules_step_diff_and_a_replayable_repro(tmp_path: Path) -> None:
    broken = SzczerbakBlankEndOneAction
    cases = collect_cases("szczerbak", only="differential/szczerbak/default", examples=2)
    out = io.StringIO()
    report = run_suite(InProcessEngine(broken(), broken), cases=cases, report_dir=tmp_path,
                       out=out)
    (record,) = report.records
    outcome = record.outcome
    assert outcome.status == "failed"
    assert "R-SZC-05" in outcome.rules
    assert outcome.step is not None and outcome.diff.startswith("--- expected")
    assert outcome.repro is not None
    text = out.getvalue()
    for part in (record.case_id, "rules:", "R-SZC-05", "first divergence:", "repro:"):
        assert part in text
    trace = traces.load_trace(Path(outcome.repro))
    assert traces.replay(trace, ReferenceEngine()) == []
    assert traces.replay(trace, InProcessEngine(broken()))


def test_random_failures_are_shrunk_and_written(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(differential, "search", lambda *args: differential.Found((), ()))
    broken = PoldominoMutualPassNeverEnds
    cases = collect_cases("poldomino", only="differential/poldomino/default", examples=20)
    report = run_suite(InProcessEngine(broken(), broken), cases=cases, report_dir=tmp_path,
                       out=io.StringIO())
    outcome = report.records[0].outcome
    assert outcome.status == "failed"
    assert "shrunk by hypothesis" in outcome.message
    assert "R-POL-05" in outcome.rules
    # shrunk to a short hand that ends in the two passes the engine does not stop at (the
    # shortest is the opening and two passes: 3 actions)
    assert outcome.step is not None and 3 <= outcome.step <= 5, outcome.message
    assert outcome.message.splitlines()[-1].endswith("pass pass")
    assert outcome.repro and Path(outcome.repro).is_file()


def test_format_outcome_of_an_errored_case() -> None:
    text = format_outcome("perft/x/y-d1", run_case_outcome())
    assert text.startswith("ERRORED (timeout) perft/x/y-d1: engine timeout")


def run_case_outcome() -> Any:
    from dominokit.conformance.runner import Outcome

    return Outcome("errored", "engine timeout: no reply", failure_kind="timeout")


# ---------------------------------------------------------------------------- expectations


def test_expectations_parse_and_judge() -> None:
    expectations = parse_expectations(
        '- "golden/*": failed\n  reason: "older scoring"\n'
        '- "match/*": not_applicable\n  reason: "no matches"\n', "e.yaml")
    assert expectations.lookup("golden/poldomino/x") is not None
    judge = expectations.judge
    assert judge("golden/a/b", "failed").verdict == "expected"
    assert judge("golden/a/b", "passed").verdict == "stale"
    assert judge("golden/a/b", "errored").verdict == "unexpected"
    assert judge("golden/a/b", "not_applicable").verdict == "ok"
    assert judge("perft/a/b", "failed").verdict == "unexpected"
    assert judge("perft/a/b", "passed").verdict == "ok"
    assert judge("match/a/b", "not_applicable").verdict == "expected"
    assert expectations.unused(["golden/a/b"])[0].glob == "match/*"
    assert Expectations().judge("x", "not_applicable").ok


@pytest.mark.parametrize(("text", "problem"), [
    ('- "golden/*": failed\n', "e.yaml:1: every entry needs a reason"),
    ('- "golden/*": broken\n  reason: x\n', "e.yaml:1: status of 'golden/*'"),
    ('- reason: x\n', "e.yaml:1: an entry maps exactly one case-id glob"),
    ('- a: failed\n  reason: x\n- "b"\n', "e.yaml:3: an entry is a mapping"),
    ('golden: failed\n', "e.yaml:1: expected a list"),
])
def test_expectations_errors_name_the_line(text: str, problem: str) -> None:
    with pytest.raises(ExpectationsError) as error:
        parse_expectations(text, "e.yaml")
    assert problem in str(error.value)


def test_exit_status_honours_expectations(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    expected = tmp_path / "expected.yaml"
    expected.write_text(f'- "{WIDOW_CASE}": failed\n  reason: "we let the lower half start"\n')
    assert run_conform(conform_args(tmp_path, engine=WIDOW_BROKEN, only=WIDOW_CASE)) == 1
    assert run_conform(conform_args(tmp_path, engine=WIDOW_BROKEN, only=WIDOW_CASE,
                                    expectations=str(expected))) == 0
    capsys.readouterr()
    assert run_conform(conform_args(tmp_path, only=WIDOW_CASE,
                                    expectations=str(expected))) == 1
    assert f"STALE {WIDOW_CASE}" in capsys.readouterr().out


def test_exit_status_is_one_not_a_failure_count(tmp_path: Path) -> None:
    args = conform_args(tmp_path, engine=WIDOW_BROKEN, only="perft/szczerbak/widow-*-d1")
    assert len(collect_cases("szczerbak", only=args.only)) == 2
    assert run_conform(args) == 1


def test_no_matching_case_is_an_error(tmp_path: Path) -> None:
    assert run_conform(conform_args(tmp_path, only="nothing/*")) == 1


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_bar_only_on_a_terminal(tmp_path: Path) -> None:
    cases = collect_cases("szczerbak", only="perft/*-d1", examples=2)
    tty, plain = _Terminal(), io.StringIO()
    run_suite(reference(), cases=cases, progress=True, report_dir=tmp_path, out=tty)
    run_suite(reference(), cases=cases, progress=True, report_dir=tmp_path, out=plain)
    assert "\r[" in tty.getvalue()
    assert "\r" not in plain.getvalue()


def test_a_match_scenario_the_search_missed_is_a_kit_error_not_a_pass(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A case that never reached its scenario checked nothing, so it must not pass."""
    from dominokit.conformance.cases import Params
    from dominokit.conformance.cases import match as match_cases

    missed = match_cases.Scenario("exact-target", 0, (), reached=False)
    monkeypatch.setattr(match_cases, "build", lambda *args: missed)
    case = next(c for c in match_cases.cases("szczerbak", Params())
                if c.id == "match/szczerbak/exact-target")
    outcome = case.body(reference(), None)  # type: ignore[arg-type]
    assert outcome.status == "errored"
    assert outcome.failure_kind == "kit"
    assert "did not reach exact-target" in outcome.message
