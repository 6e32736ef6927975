"""The conformance runner: collection, applicability, failure handling, reports, exit status."""

from __future__ import annotations

import argparse
import io
import json
import re
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any, ClassVar

import pytest

from dominokit.conformance import traces
from dominokit.conformance.cases import KINDS, SUITE_VERSION, collect_cases, differential
from dominokit.conformance.cases.model import Case, ConformanceError
from dominokit.conformance.commands.cli import build_parser, main
from dominokit.conformance.commands.conform import run_conform
from dominokit.conformance.exit_status import ExitStatus
from dominokit.conformance.kit.inprocess import InProcessEngine
from dominokit.conformance.run.expectations import (
    Expectations,
    ExpectationsError,
    parse_expectations,
)
from dominokit.conformance.run.report import Report, format_outcome
from dominokit.conformance.run.runner import run_suite
from dominokit.conformance.serve.refengine import ReferenceEngine
from dominokit.conformance.wire.protocol import PROTOCOL_VERSION
from dominokit.reference import variant_ids
from tests.conformance.broken.engines import (
    PoldominoMutualPassNeverEnds,
    SzczerbakBlankEndOneAction,
    WidowStarterLowerHalf,
)

REFERENCE = "python:dominokit.conformance.serve.refengine:ReferenceEngine"
WIDOW_BROKEN = "python:tests.conformance.broken.engines:WidowStarterLowerHalf"
WIDOW_CASE = "perft/szczerbak/widow-faces-1-d1"


def reference() -> InProcessEngine:
    return InProcessEngine(ReferenceEngine(), ReferenceEngine)


def quick_szczerbak() -> list[Case]:
    """Every kind of szczerbak case, the perft ones only to depth 2 (to stay quick), except
    the raw lines (not JSON, no command: only an engine run as a command reads lines)."""
    return [c for c in collect_cases("szczerbak", examples=2)
            if (c.kind != "perft" or c.id.endswith(("-d1", "-d2")))
            and not c.id.endswith(("/not-json", "/no-command"))]


def conform_args(tmp_path: Path, **given: Any) -> argparse.Namespace:
    """``dominokit conform``'s arguments as its own parser gives them (every default set),
    serial, with two random hands a case."""
    values: dict[str, Any] = {"engine": REFERENCE, "examples": 2,
                              "report_dir": str(tmp_path / "report"), **given}
    argv = ["conform", "-j", "1"]
    for name, value in values.items():
        if value is not None:
            argv += [f"--{name.replace('_', '-')}", str(value)]
    return build_parser().parse_args(argv)


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
    assert set(data) == {"suite_version", "protocol_version", "kit_version", "engine",
                         "settings", "started", "finished", "interrupted", "stopped", "error",
                         "expectations", "summary", "causes", "readings", "rules", "cases"}
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
        rf"\(suite {re.escape(SUITE_VERSION)}, protocol {PROTOCOL_VERSION}, kit \S+, "
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
    # the engine raised and lives on: that case's error, not a crash of the process
    assert (first.outcome.status, first.outcome.failure_kind) == ("errored", "exception")
    assert "engine bug" in first.outcome.message
    assert rest and all(r.outcome.status == "passed" for r in rest)
    assert not report.ok


def test_engine_that_cannot_start_runs_no_case(tmp_path: Path) -> None:
    command = f"{sys.executable} -c 'import sys; sys.exit(3)'"
    cases = collect_cases("szczerbak", only="perft/*-d1", examples=2)
    report = run_suite(command, cases=cases, json_path=tmp_path / "r.json",
                       report_dir=tmp_path, out=io.StringIO())
    assert report.error and not report.ok
    assert {r.outcome.status for r in report.records} == {"not_run"}
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
    assert outcome.step is not None and "expected (reference) -> got (engine)" in outcome.diff
    assert outcome.repro is not None
    text = out.getvalue()
    for part in (record.case_id, "rule:", "R-SZC-05", "first divergence:", "repro:"):
        assert part in text
    trace = traces.load_trace(Path(outcome.repro))
    assert traces.replay(trace, ReferenceEngine()) == []
    assert traces.replay(trace, InProcessEngine(broken()))


def test_random_failures_are_shrunk_and_written(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """More random hands than the default run records: hypothesis draws them, and shrinks."""
    from dominokit.conformance.cases.random_hands import RECORDED

    monkeypatch.setattr(differential, "search", lambda *args: differential.Found((), ()))
    broken = PoldominoMutualPassNeverEnds
    cases = collect_cases("poldomino", only="differential/poldomino/default",
                          examples=RECORDED + 1)
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
    from dominokit.conformance.cases.model import Outcome

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


def test_no_matching_case_is_status_5(tmp_path: Path) -> None:
    assert run_conform(conform_args(tmp_path, only="nothing/*")) == 5


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


# ---------------------------------------------------------------------------- stopping early

HANG_AFTER = Path(__file__).resolve().parent / "engines" / "hang_after.py"
EXIT_AT_START = Path(__file__).resolve().parent / "engines" / "exit_at_start.py"


def hangs_after(requests: int) -> str:
    """An engine command whose every process answers ``requests`` - 1 requests, then hangs."""
    return f"{sys.executable} {HANG_AFTER} {requests}"


def test_an_engine_that_keeps_hanging_is_stopped_after_three_cases(tmp_path: Path) -> None:
    # every fresh process answers hello and then hangs, so every case times out
    cases = collect_cases("szczerbak", only="perft/*", examples=2)
    assert len(cases) > 5
    out = io.StringIO()
    report = run_suite(hangs_after(2), cases=cases, timeout=1.0, json_path=tmp_path / "r.json",
                       junit_path=tmp_path / "r.xml", report_dir=tmp_path, out=out)
    statuses = [r.outcome.status for r in report.records]
    assert statuses == ["errored"] * 3 + ["not_run"] * (len(cases) - 3)
    assert {r.outcome.failure_kind for r in report.records[:3]} == {"timeout"}
    reason = "the engine timed out or crashed in 3 cases in a row (--max-engine-failures 3)"
    assert report.stopped == reason
    assert report.records[3].outcome.message == f"not run: {reason}"
    assert not report.ok
    data = json.loads((tmp_path / "r.json").read_text())
    assert data["stopped"] == reason and data["summary"]["not_run"] == len(cases) - 3
    skipped = ET.parse(tmp_path / "r.xml").getroot().findall(".//skipped[@type='not_run']")
    assert len(skipped) == len(cases) - 3
    text = out.getvalue()
    assert f"{len(cases) - 3} not run" in text and reason in text
    assert text.count("not run:") <= 1  # said once, not once per case


def test_max_engine_failures_zero_means_no_limit(tmp_path: Path) -> None:
    cases = collect_cases("szczerbak", only="perft/*-d1", examples=2)[:4]
    report = run_suite(hangs_after(2), cases=cases, timeout=1.0, max_engine_failures=0,
                       report_dir=tmp_path, out=io.StringIO())
    assert [r.outcome.status for r in report.records] == ["errored"] * 4


def test_a_budget_stops_the_run_and_says_so(tmp_path: Path) -> None:
    cases = collect_cases("szczerbak", only="perft/*", examples=2)
    report = run_suite(hangs_after(2), cases=cases, timeout=1.0, budget=1.5,
                       max_engine_failures=0, report_dir=tmp_path, out=io.StringIO())
    statuses = [r.outcome.status for r in report.records]
    ran = statuses.count("errored")  # each case takes its 1 s timeout: one or two fit
    assert 1 <= ran <= 2 and statuses == ["errored"] * ran + ["not_run"] * (len(cases) - ran)
    assert report.stopped == "the run's budget of 1.5 s was spent (--budget 1.5)"


def test_maxfail_counts_only_cases_that_fail_the_run(tmp_path: Path) -> None:
    cases = collect_cases("szczerbak", only="perft/szczerbak/widow-*", examples=2)
    broken = InProcessEngine(WidowStarterLowerHalf(), WidowStarterLowerHalf)
    report = run_suite(broken, cases=cases, maxfail=2, report_dir=tmp_path, out=io.StringIO())
    statuses = [r.outcome.status for r in report.records]
    assert statuses.count("failed") == 2 and statuses[-1] == "not_run"
    assert report.stopped == "stopped after 2 failing cases (--maxfail 2)"


def test_an_engine_that_will_not_start_is_said_once_with_its_stderr(tmp_path: Path) -> None:
    out = io.StringIO()
    cases = collect_cases("szczerbak", only="perft/*-d1", examples=2)
    report = run_suite(f"{sys.executable} {EXIT_AT_START}", cases=cases, report_dir=tmp_path,
                       out=out)
    assert report.error is not None and "did not start" in report.error
    assert {r.outcome.status for r in report.records} == {"not_run"}
    assert {r.outcome.message for r in report.records} == {
        "not run: the engine could not be used (the report's error says why)"}
    assert "fatal: cannot initialise" in report.error
    text = out.getvalue()
    assert text.count("fatal: cannot initialise") == 1
    assert "ERRORED" not in text


def test_conform_exits_4_when_the_engine_will_not_start(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = conform_args(tmp_path, engine=f"{sys.executable} {EXIT_AT_START}",
                        only="perft/szczerbak/*-d1")
    assert run_conform(args) == 4
    assert "fatal: cannot initialise" in capsys.readouterr().err


def test_a_repro_that_cannot_be_written_does_not_change_the_verdict(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    broken = SzczerbakBlankEndOneAction
    cases = collect_cases("szczerbak", only="differential/szczerbak/default", examples=2)
    report = run_suite(InProcessEngine(broken(), broken), cases=cases, report_dir=blocker,
                       out=io.StringIO())
    (record,) = report.records
    assert record.outcome.status == "failed", record.outcome.message
    assert "R-SZC-05" in record.outcome.rules
    assert record.outcome.repro is None
    assert "repro trace not written" in record.outcome.message


def test_a_report_is_replaced_whole_or_not_at_all(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    from dominokit.conformance import atomic

    target = tmp_path / "r.json"
    target.write_text("previous\n")

    def refuse(*args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(atomic.os, "replace", refuse)
    cases = collect_cases("szczerbak", only="perft/*-d1", examples=2)[:1]
    report = run_suite(reference(), cases=cases, json_path=target, report_dir=tmp_path,
                       out=io.StringIO())
    assert target.read_text() == "previous\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.json"]
    assert report.write_errors and "No space left" in report.write_errors[0]


# ---------------------------------------------------------------------------- the terminal


def test_the_end_of_a_run_lists_causes_slowest_and_counts_by_variant_and_kind(
    tmp_path: Path,
) -> None:
    cases = [c for c in collect_cases(examples=2)
             if c.id.startswith(("perft/szczerbak/widow-faces-1-d1", "golden/poldomino/"))]
    broken = InProcessEngine(WidowStarterLowerHalf(), WidowStarterLowerHalf)
    out = io.StringIO()
    report = run_suite(broken, cases=cases, report_dir=tmp_path, out=out)
    lines = out.getvalue().splitlines()
    causes = lines.index("causes (1 cause of 1 failing case, most cases first):")
    assert lines[causes + 1].startswith("C1 R-SZC-02 (szczerbak): 1 case")
    assert sum(line.startswith("FAILED perft/szczerbak/widow-faces-1-d1: ")
               for line in lines) == 1  # printed once, as it happened
    slowest = next(i for i, line in enumerate(lines) if line.startswith("slowest "))
    listed = [line.split()[-1] for line in lines[slowest + 1:slowest + 4]]
    by_time = sorted(report.records, key=lambda r: -r.seconds)
    assert listed == [r.case_id for r in by_time[:3]]
    golden = len(cases) - 1
    assert re.search(rf"^  poldomino +{golden} passed, 0 failed", out.getvalue(), re.M)
    assert re.search(r"^  szczerbak +0 passed, 1 failed", out.getvalue(), re.M)
    assert re.search(rf"^  golden +{golden} passed, 0 failed", out.getvalue(), re.M)
    assert re.search(r"^  perft +0 passed, 1 failed", out.getvalue(), re.M)
    assert lines[-1].startswith("dominokit conform: ")
    summary = report.to_json()["summary"]
    assert summary["by_variant"]["szczerbak"]["failed"] == 1
    assert summary["by_kind"]["golden"]["passed"] == golden


def test_the_progress_line_fits_the_terminal(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "40")
    cases = collect_cases("szczerbak", only="perft/*-d1", examples=2)
    tty = _Terminal()
    run_suite(reference(), cases=cases, progress=True, report_dir=tmp_path, out=tty)
    drawn = [part.split("\n")[0] for part in tty.getvalue().split("\r")[1:]]
    assert drawn and max(len(part) for part in drawn) < 40


def test_without_a_terminal_a_progress_line_comes_every_few_seconds() -> None:
    from dominokit.conformance.run.terminal import PROGRESS_EVERY, Terminal

    assert PROGRESS_EVERY == 5.0
    now = [0.0]
    plain = io.StringIO()
    terminal = Terminal(plain, total=5, progress=True, clock=lambda: now[0], heartbeat=False)
    for done in range(5):  # a case every 3 s
        terminal.start(done, f"perft/x/case-{done}")
        now[0] += 3.0
    # at 0, 3: under 5 s since the start; at 6: a line; at 9: 3 s since it; at 12: a line
    assert plain.getvalue().splitlines() == [
        "dominokit conform: 2/5 cases, 0 failed, 6 s elapsed; running perft/x/case-2",
        "dominokit conform: 4/5 cases, 0 failed, 12 s elapsed; running perft/x/case-4",
    ]
    now[0] += 1.0  # 16 s, case-4 is slow: 4 s since the last line, nothing due yet
    terminal.tick()
    now[0] += 2.0  # 18 s: 6 s since it; the heartbeat's tick prints while the case runs
    terminal.tick()
    assert plain.getvalue().splitlines()[2:] == [
        "dominokit conform: 4/5 cases, 0 failed, 18 s elapsed; running perft/x/case-4"]


def test_the_heartbeat_speaks_during_a_slow_case(monkeypatch: pytest.MonkeyPatch) -> None:
    from dominokit.conformance.run import terminal as terminal_module

    monkeypatch.setattr(terminal_module, "PROGRESS_EVERY", 0.05)
    monkeypatch.setattr(terminal_module, "HEARTBEAT", 0.01)
    plain = io.StringIO()
    terminal = terminal_module.Terminal(plain, total=1, progress=True)
    terminal.start(0, "differential/x/slow")
    deadline = time.monotonic() + 30
    while "running differential/x/slow" not in plain.getvalue():
        assert time.monotonic() < deadline, "no heartbeat line"
        time.sleep(0.01)
    terminal.finish(Report("1", 1, "e", {}))
    assert terminal._heart is not None and not terminal._heart.is_alive()


def test_colour_only_where_wanted(monkeypatch: pytest.MonkeyPatch) -> None:
    from dominokit.conformance.run.terminal import use_colour

    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    assert use_colour("auto", _Terminal()) and not use_colour("auto", io.StringIO())
    assert use_colour("always", io.StringIO()) and not use_colour("never", _Terminal())
    monkeypatch.setenv("NO_COLOR", "1")
    assert not use_colour("auto", _Terminal()) and use_colour("always", io.StringIO())


def test_failures_are_red_in_colour(tmp_path: Path) -> None:
    cases = collect_cases("szczerbak", only=WIDOW_CASE, examples=2)
    broken = InProcessEngine(WidowStarterLowerHalf(), WidowStarterLowerHalf)
    coloured, plain = io.StringIO(), io.StringIO()
    run_suite(broken, cases=cases, color=True, report_dir=tmp_path, out=coloured)
    run_suite(broken, cases=cases, report_dir=tmp_path, out=plain)
    assert f"\x1b[31mFAILED\x1b[0m {WIDOW_CASE}" in coloured.getvalue()
    assert "\x1b[" not in plain.getvalue()


BEFORE_THE_ROOMS = Path(__file__).resolve().parent / "data" / \
    "szczerbak-records-before-the-rooms.json"
"""The case records a default run of one game gave before the kit was rebuilt in rooms (one
loop, one seam to the engine): taken once from that code, so a refactor that changes what a
run reports shows up here. (The whole default run, 309 records, was compared the same way
when the rooms were built.)"""


def test_the_default_run_reports_what_it_reported_before_the_rooms(tmp_path: Path) -> None:
    out = tmp_path / "report.json"
    status = main(["conform", "--variant", "szczerbak", "--json", str(out),
                   "--report-dir", str(tmp_path / "rd"), "--color", "never"])
    assert status == ExitStatus.OK
    before = json.loads(BEFORE_THE_ROOMS.read_text(encoding="utf-8"))["cases"]
    # Keys added since the snapshot (since and changes with suite 2.0.0's history; a case's
    # cause, blame, knock_on) and cases added since (the request cases of the contract's last
    # gaps) are left out: the records that were are unchanged.
    kept = {key for record in before for key in record}
    ids = {record["id"] for record in before}
    got = [{key: value for key, value in record.items() if key in kept}
           for record in json.loads(out.read_text(encoding="utf-8"))["cases"]
           if record["id"] in ids]
    assert [record["id"] for record in got] == [record["id"] for record in before]
    assert got == before
