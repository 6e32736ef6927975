"""The error-path cases have teeth: engines that refuse badly fail them, the reference passes.

Each engine of ``tests/conformance/broken/requests.py`` answers some bad request wrongly (plays a
bad deal, calls an unknown variant a malformed request, cites R-ALL-14 for every illegal action,
drops its hand on a refused request, validates nothing); its cases must fail it, naming its
rule, and never error. The reference must pass every requests case, in-process and as a command
(only a command reads lines, so only there does a line that is not JSON apply). What the reference
answers is also checked against the contract's table of error codes, so that no case expects a
code the contract does not give.
"""

from __future__ import annotations

import io
import sys
from fnmatch import fnmatchcase
from pathlib import Path

import pytest

from dominokit.conformance.cases import bad_requests, collect_cases, requests
from dominokit.conformance.cases.model import Case
from dominokit.conformance.kit.driver import SubprocessEngine
from dominokit.conformance.kit.engines import open_engine
from dominokit.conformance.kit.inprocess import InProcessEngine
from dominokit.conformance.run.runner import run_suite
from dominokit.conformance.serve.refengine import ReferenceEngine
from dominokit.reference import variant_ids
from tests.conformance.broken.engines import Broken
from tests.conformance.broken.requests import (
    AcceptsAnyDeal,
    CitesHandOverOnEveryRefusal,
    RefusedNewHandDropsTheHand,
    UnknownVariantIsBadRequest,
    ValidatesNothing,
)

ENGINES: tuple[type[Broken], ...] = (AcceptsAnyDeal, UnknownVariantIsBadRequest,
                                     CitesHandOverOnEveryRefusal, RefusedNewHandDropsTheHand,
                                     ValidatesNothing)

CODES = {
    "bad-deal-hand-size": "bad_request",
    "bad-deal-duplicate-tile": "bad_request",
    "bad-deal-missing-tile": "bad_request",
    "bad-deal-tile-out-of-range": "bad_request",
    "bad-deal-tile-in-both-hands": "bad_request",
    "bad-deal-starter-given": "bad_request",
    "bad-deal-starter-missing": "bad_request",
    "unsupported-variant": "unsupported",
    "unsupported-option": "unsupported",
    "unsupported-option-value": "unsupported",
    "no-hand": "no_hand",
    "no-match": "no_match",
    "next-hand-before-hand-ends": "bad_request",
    "next-hand-after-match": "bad_request",
    "non-canonical-action": "bad_request",
    "not-json": "bad_request",
    "undo-nothing-to-take-back": "bad_request",
    "no-command": "unsupported",
}
"""The code spec/protocol.md's table gives each kind of bad request."""


def _cases(variant: str, glob: str = "requests/*") -> list[Case]:
    return collect_cases(variant, only=glob, examples=3)


def _subset(engine: type[Broken]) -> list[Case]:
    return [case for case in collect_cases(engine.variant, examples=3)
            if any(fnmatchcase(case.id, glob) for glob in engine.only)]


@pytest.mark.parametrize("broken", ENGINES, ids=lambda engine: engine.__name__)
def test_the_requests_cases_fail_the_engine_on_its_rule(broken: type[Broken],
                                                        tmp_path: Path) -> None:
    cases = _subset(broken)
    assert cases, f"{broken.__name__}: its globs {broken.only} select no case"
    report = run_suite(InProcessEngine(broken(), broken), cases=cases, report_dir=tmp_path,
                       out=io.StringIO())
    failed = [r for r in report.records if r.outcome.status == "failed"]
    assert failed, report.summary_line()
    assert not [r for r in report.records if r.outcome.status == "errored"], [
        r.outcome.message for r in report.records if r.outcome.status == "errored"]
    assert any(broken.rule in r.outcome.rules for r in failed), {
        r.case_id: r.outcome.rules for r in failed}


def test_a_deal_played_anyway_fails_every_kind_of_bad_deal(tmp_path: Path) -> None:
    cases = _cases("poldomino", "requests/poldomino/bad-deal-*")
    report = run_suite(InProcessEngine(AcceptsAnyDeal(), AcceptsAnyDeal), cases=cases,
                       report_dir=tmp_path, out=io.StringIO())
    by_id = {r.case_id: r.outcome for r in report.records}
    # "0-7" and "7-7" cannot be read as tiles, so even this engine refuses those (a
    # double-six set has no tile in range the variant lacks); every other bad deal it plays,
    # a next_hand deal naming the starter the match decides (R-ALL-04) included
    expected_failed = {f"requests/poldomino/{name}" for name in (
        "bad-deal-hand-size", "bad-deal-duplicate-tile", "bad-deal-missing-tile",
        "bad-deal-tile-in-both-hands", "bad-deal-starter-given", "bad-deal-starter-missing")}
    assert {cid for cid, o in by_id.items() if o.status == "failed"} == expected_failed
    hand_size = by_id["requests/poldomino/bad-deal-hand-size"]
    assert hand_size.expected == {"error": "bad_request", "rule": "R-POL-01"}
    assert "accepted" in hand_size.got


def test_an_unknown_variant_refused_as_bad_request_fails_with_both_codes(
        tmp_path: Path) -> None:
    cases = _cases("poldomino", "requests/poldomino/unsupported-variant")
    report = run_suite(InProcessEngine(UnknownVariantIsBadRequest()), cases=cases,
                       report_dir=tmp_path, out=io.StringIO())
    outcome = report.records[0].outcome
    assert outcome.status == "failed"
    assert outcome.expected == {"error": "unsupported", "rule": None}
    assert outcome.got == {"error": "bad_request", "rule": None}
    assert "'bad_request', expected 'unsupported'" in outcome.message


@pytest.mark.rule("R-POL-04", "R-ALL-14")
def test_a_wrong_cited_rule_fails_a_rejection_case_with_expected_and_got(
        tmp_path: Path) -> None:
    cases = _cases("poldomino", "rejection/poldomino/mismatch")
    report = run_suite(InProcessEngine(CitesHandOverOnEveryRefusal()), cases=cases,
                       report_dir=tmp_path, out=io.StringIO())
    outcome = report.records[0].outcome
    assert outcome.status == "failed"
    assert outcome.expected["rule"] == "R-POL-04"
    assert outcome.got["rule"] == "R-ALL-14"
    assert "citing 'R-ALL-14', expected 'R-POL-04'" in outcome.message
    assert outcome.rules == ("R-POL-04",)


def test_play_after_end_still_passes_an_engine_citing_the_hand_over_rule(
        tmp_path: Path) -> None:
    cases = _cases("poldomino", "rejection/poldomino/play-after-end")
    report = run_suite(InProcessEngine(CitesHandOverOnEveryRefusal()), cases=cases,
                       report_dir=tmp_path, out=io.StringIO())
    assert report.records[0].outcome.status == "passed"


def test_a_refusal_that_drops_the_hand_fails_on_the_state_it_changed(tmp_path: Path) -> None:
    cases = _cases("szczerbak", "requests/szczerbak/bad-deal-duplicate-tile")
    report = run_suite(InProcessEngine(RefusedNewHandDropsTheHand()), cases=cases,
                       report_dir=tmp_path, out=io.StringIO())
    outcome = report.records[0].outcome
    assert outcome.status == "failed"
    assert "changed what the engine answers" in outcome.message
    assert outcome.got["state"] == {"error": "no_hand"}
    assert outcome.expected["state"]["variant"] == "szczerbak"


@pytest.mark.parametrize("variant", variant_ids())
def test_the_reference_passes_every_requests_case_in_process(variant: str,
                                                             tmp_path: Path) -> None:
    cases = _cases(variant)
    report = run_suite(InProcessEngine(ReferenceEngine(), ReferenceEngine), cases=cases,
                       report_dir=tmp_path, out=io.StringIO())
    statuses = {r.case_id: r.outcome.status for r in report.records}
    assert statuses.pop(f"requests/{variant}/not-json") == "not_applicable"
    assert statuses.pop(f"requests/{variant}/no-command") == "not_applicable"  # raw lines
    assert set(statuses.values()) == {"passed"}, [
        (r.case_id, r.outcome.message) for r in report.records
        if r.outcome.status not in ("passed", "not_applicable")]


def test_the_reference_as_a_command_passes_the_line_cases(tmp_path: Path) -> None:
    cases = [case for variant in variant_ids()
             for case in _cases(variant, f"requests/{variant}/[nr]*")]
    with SubprocessEngine([sys.executable, "-m", "dominokit.conformance.serve.server"]) as engine:
        report = run_suite(engine, cases=cases, report_dir=tmp_path, out=io.StringIO())
    assert report.counts()["passed"] == len(cases), [
        (r.case_id, r.outcome.message) for r in report.records
        if r.outcome.status != "passed"]


def test_a_line_that_is_not_json_does_not_apply_to_a_python_engine(tmp_path: Path) -> None:
    # The kit's own worker frames the lines of a python: engine, so the answer to a line that
    # is not JSON would be the kit's, not the engine's: the case must not pass on its behalf.
    cases = _cases("szczerbak", "requests/szczerbak/not-json")
    engine = open_engine("python:dominokit.conformance.serve.refengine:ReferenceEngine")
    try:
        report = run_suite(engine, cases=cases, report_dir=tmp_path, out=io.StringIO())
    finally:
        engine.close()
    assert [r.outcome.status for r in report.records] == ["not_applicable"]
    assert "python: engine" in report.records[0].outcome.message


SEQ_ZERO_ENGINE = """
import io, json, sys
from dominokit.conformance.serve.refengine import ReferenceEngine
from dominokit.conformance.serve.server import run_engine_server
engine = ReferenceEngine()
for raw in sys.stdin.buffer:
    line = raw.decode("utf-8", "replace")
    try:
        json.loads(line)
    except ValueError:
        reply = {"seq": 0, "error": {"code": "bad_request", "message": "not JSON"}}
        sys.stdout.write(json.dumps(reply) + "\\n")
    else:
        out = io.StringIO()
        run_engine_server(engine, io.StringIO(line), out)
        sys.stdout.write(out.getvalue())
    sys.stdout.flush()
"""


def test_a_line_that_is_not_json_answered_with_a_seq_fails(tmp_path: Path) -> None:
    script = tmp_path / "seq_zero.py"
    script.write_text(SEQ_ZERO_ENGINE, encoding="utf-8")
    cases = _cases("poldomino", "requests/poldomino/not-json")
    with SubprocessEngine([sys.executable, str(script)]) as engine:
        report = run_suite(engine, cases=cases, report_dir=tmp_path, out=io.StringIO())
    outcome = report.records[0].outcome
    assert outcome.status == "failed", outcome.message
    assert outcome.expected == {"seq": None, "error": "bad_request"}
    assert outcome.got == {"seq": 0, "error": "bad_request"}


@pytest.mark.parametrize("variant", variant_ids())
def test_every_probe_expects_the_code_the_contract_gives(variant: str) -> None:
    for case in _cases(variant):
        name = case.id.rsplit("/", 1)[1]
        if name == requests.UNDO_HAND_END:  # no bad request: undo must work (test_undo_cases)
            continue
        built = requests.probes(variant, name, 0)
        assert built, case.id
        for probe in built:
            code = probe.expected.get("error")
            if name in ("refusal-keeps-state", "hello-mid-session"):
                assert code in CODES.values() or code == "illegal_action", probe.what
            else:
                assert code == CODES[name], (case.id, probe.what, probe.expected)
            if name == "not-json":
                assert probe.expected["seq"] is None


@pytest.mark.rule("R-ALL-01", "R-POL-01", "R-SZC-01", "R-ALL-04")
def test_bad_deals_cite_the_rule_they_break() -> None:
    """Worked out from the rules: hand sizes are the setup's (R-POL-01: five each), a tile
    twice is not the double-six set (R-ALL-01), and Szczerbak's widow decides the starter, so
    a deal naming one breaks its setup (R-SZC-01), as a next_hand deal naming one breaks the
    match's alternation (R-ALL-04)."""
    by_name = {name: {p.expected.get("rule") for p in requests.probes("poldomino", name, 0)}
               for name in ("bad-deal-hand-size", "bad-deal-duplicate-tile")}
    assert by_name == {"bad-deal-hand-size": {"R-POL-01"},
                       "bad-deal-duplicate-tile": {"R-ALL-01"}}
    given = {(p.request.cmd, p.expected.get("rule"))
             for p in requests.probes("szczerbak", "bad-deal-starter-given", 0)
             if isinstance(p.request, bad_requests.Request)}
    # in a match the match names the starter (R-ALL-04), so a next_hand deal may not
    assert given == {("new_hand", "R-SZC-01"), ("next_hand", "R-ALL-04")}


def test_names_that_cannot_apply_are_absent() -> None:
    ids = {case.id for variant in variant_ids() for case in _cases(variant)}
    # Szczerbak's widow decides the starter, so its standalone deals need none; the others
    # need one there; in a match the match decides it in every variant
    assert "requests/szczerbak/bad-deal-starter-missing" not in ids
    assert "requests/poldomino/bad-deal-starter-missing" in ids
    assert {p.request.cmd for p in requests.probes("szczerbak", "bad-deal-starter-given", 0)
            if not isinstance(p.request, bytes)} == {"new_hand", "next_hand"}
    assert {p.request.cmd for p in requests.probes("poldomino", "bad-deal-starter-given", 0)
            if not isinstance(p.request, bytes)} == {"next_hand"}
    # Progressive and Szczerbak have no options, so no option value to get wrong
    assert "requests/progressive/unsupported-option-value" not in ids
    assert "requests/pijanowski/unsupported-option-value" in ids
    names = {case_id.rsplit("/", 1)[1] for case_id in ids}
    assert names == {*requests.BUILDERS, requests.UNDO_HAND_END}


def test_the_example_engine_passes_every_szczerbak_requests_case(tmp_path: Path) -> None:
    """The rule book's example engine is written from the contract alone: its refusals must be
    the contract's, the line that is not JSON included."""
    example = Path(__file__).resolve().parents[2] / "docs" / "examples" / "szczerbak_engine.py"
    cases = _cases("szczerbak")
    with SubprocessEngine([sys.executable, str(example)], timeout=30) as engine:
        report = run_suite(engine, cases=cases, report_dir=tmp_path, out=io.StringIO())
    # It speaks protocol 1, so the cases about undo are not applicable to it.
    undo = {c.id for c in cases if c.id.rsplit("/", 1)[1].startswith("undo-")}
    assert len(undo) == 2
    assert report.counts()["passed"] == len(cases) - len(undo), [
        (r.case_id, r.outcome.message) for r in report.records
        if r.outcome.status != "passed" and r.case_id not in undo]
    assert {r.case_id for r in report.records if r.outcome.status == "not_applicable"} == undo
