"""The undo cases of ``requests/<variant>/*`` (protocol 2): the reference passes them, each
undo mutant fails them naming R-ALL-03, and an engine without ``undo`` finds them not
applicable (tests/conformance/test_requests_cases.py runs the protocol-1 example engine)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from dominokit.conformance.cases import collect_cases
from dominokit.conformance.kit.inprocess import InProcessEngine
from dominokit.conformance.run.runner import run_suite
from dominokit.conformance.serve.refengine import ReferenceEngine
from dominokit.reference import variant_ids
from tests.conformance.broken import undo as undo_mutants
from tests.conformance.engines.protocol_one import ProtocolOne

UNDO_GLOB = "requests/*/undo-*"


def _run(obj: object, tmp_path: Path, variant: str | None = None) -> dict[str, tuple[str, str]]:
    cases = [case for v in ([variant] if variant else variant_ids())
             for case in collect_cases(v, only=UNDO_GLOB, examples=3)]
    report = run_suite(InProcessEngine(obj), cases=cases, report_dir=tmp_path,
                       out=io.StringIO())
    return {r.case_id: (r.outcome.status, r.outcome.message) for r in report.records}


def test_the_reference_passes_every_undo_case(tmp_path: Path) -> None:
    got = _run(ReferenceEngine(), tmp_path)
    assert len(got) == 2 * len(variant_ids())
    assert {status for status, _ in got.values()} == {"passed"}, got


def test_an_engine_without_undo_finds_them_not_applicable(tmp_path: Path) -> None:
    got = _run(ProtocolOne(), tmp_path, "poldomino")
    assert {status for status, _ in got.values()} == {"not_applicable"}, got


@pytest.mark.parametrize(("engine", "case", "words"), [
    (undo_mutants.UndoKeepsMatchTotals, "undo-takes-back-a-hand-end",
     "match_state after the undo of"),
    (undo_mutants.UndoKeepsTheStock, "undo-takes-back-a-hand-end", "undo of 'draw'"),
    (undo_mutants.UndoCrossesIntoTheLastHand, "undo-nothing-to-take-back",
     "the engine accepted undo right after next_hand"),
])
def test_each_undo_mutant_fails_the_case_that_names_its_bug(engine: type, case: str,
                                                           words: str, tmp_path: Path) -> None:
    got = _run(engine(), tmp_path, engine.variant)
    status, message = got[f"requests/{engine.variant}/{case}"]
    assert status == "failed" and words in message, message
