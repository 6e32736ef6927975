"""``dominokit trace replay`` reproduces a failure ``conform`` found, from its repro alone.

For each kind of repro (a differential hand, a rejection, a match, a perft count) a broken
engine from ``tests/conformance/broken/engines.py`` fails ``conform``; replaying the repro it wrote
against
the same engine must report the same first divergence (same hand and step) and the same rule,
and the reference must replay it clean. The other tests pin the new trace forms: a refused last
step, a match that starts from its prelude's state, a perft position.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from dominokit.conformance import traces
from dominokit.conformance.cases.golden import judge
from dominokit.conformance.cases.model import Outcome
from dominokit.conformance.cases.repro import write_rejection
from dominokit.conformance.commands.cli import main
from dominokit.conformance.exit_status import ExitStatus
from dominokit.conformance.kit.inprocess import InProcessEngine
from dominokit.conformance.run.report import format_outcome
from dominokit.conformance.run.runner import run_suite
from dominokit.conformance.serve.refengine import ReferenceEngine
from dominokit.conformance.traces.perft import TooLarge, Walker
from dominokit.conformance.wire.errors import EngineRejected
from dominokit.reference.errors import SpecError

BROKEN = "python:tests.conformance.broken.engines:"
REFERENCE = "python:dominokit.conformance.serve.refengine:ReferenceEngine"

FAILURES = {
    "rejection": ("AcceptsTileNotInHand", "rejection/poldomino/tile-not-in-hand"),
    "differential": ("PoldominoBonus66Is60", "differential/poldomino/default"),
    "match": ("SzczerbakTargetExceeds", "match/szczerbak/exact-target"),
    "match-next": ("StarterAlternationResetsEachSet", "match/poldomino/default"),
    "perft": ("SzczerbakParityNoZeroException", "perft/szczerbak/widow-faces-1-d3"),
}


def _conform(engine: str, case_id: str, report_dir: Path) -> Outcome:
    report = run_suite(BROKEN + engine, only=case_id, report_dir=report_dir, out=io.StringIO())
    (record,) = report.records
    return record.outcome


def _line(text: str, label: str) -> str:
    """The ``  label: ...`` line of a formatted failure (its first one)."""
    return next(line.strip() for line in text.splitlines()
                if line.startswith(f"  {label}:"))


@pytest.fixture(scope="module")
def found(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Outcome]:
    """What conform reports for each broken engine, with the repro it wrote."""
    root = tmp_path_factory.mktemp("report")
    return {kind: _conform(engine, case_id, root) for kind, (engine, case_id)
            in FAILURES.items()}


@pytest.mark.parametrize("kind", sorted(FAILURES))
def test_replay_reproduces_the_failure_conform_found(
        kind: str, found: dict[str, Outcome], capsys: pytest.CaptureFixture[str]) -> None:
    engine, case_id = FAILURES[kind]
    outcome = found[kind]
    assert outcome.status == "failed" and outcome.repro is not None, outcome.message
    conform_text = format_outcome(case_id, outcome)

    status = main(["trace", "replay", "--engine", BROKEN + engine, outcome.repro])
    replayed = capsys.readouterr().out
    assert status == ExitStatus.FAILED, replayed
    assert replayed.startswith(f"FAILED {outcome.repro}: ")
    # Same place (hand and step) and the same rule named first.
    assert _line(replayed, "first divergence") == _line(conform_text, "first divergence")
    conform_rule = _line(conform_text, "rule").removeprefix("rule: ").split()[0]
    replay_rule = _line(replayed, "rule").removeprefix("rule: ").split()[0]
    assert replay_rule == conform_rule
    assert replayed.rstrip().endswith(
        "1 trace(s): 0 matched, 1 diverged, 0 errored, 0 not applicable, 0 unreadable")

    assert main(["trace", "replay", "--engine", REFERENCE, outcome.repro]) == ExitStatus.OK
    assert "PASSED" in capsys.readouterr().out


def test_the_default_engine_is_the_reference(found: dict[str, Outcome],
                                             capsys: pytest.CaptureFixture[str]) -> None:
    repro = found["rejection"].repro
    assert repro is not None
    assert main(["trace", "replay", repro]) == ExitStatus.OK
    assert "1 matched" in capsys.readouterr().out


def test_repros_are_valid_traces_that_regenerate_unchanged(
        found: dict[str, Outcome], capsys: pytest.CaptureFixture[str]) -> None:
    repros = [str(outcome.repro) for outcome in found.values()]
    assert main(["trace", "validate", *repros]) == 0
    assert main(["trace", "regenerate", "--check", *repros]) == 0
    capsys.readouterr()


def test_a_rejection_repro_ends_with_the_refused_action(found: dict[str, Outcome]) -> None:
    data = yaml.safe_load(Path(str(found["rejection"].repro)).read_text(encoding="utf-8"))
    last = data["steps"][-1]
    # AcceptsTileNotInHand plays a tile of the opponent's hand: R-ALL-12 (own tiles only).
    assert last["refused"] == {"code": "illegal_action", "rule": "R-ALL-12"}
    assert "events" not in last and data["result"] is None
    assert found["rejection"].step == len(data["steps"]) - 1


def test_a_match_repro_starts_just_before_the_diverging_hand(found: dict[str, Outcome]) -> None:
    outcome = found["match"]
    trace = traces.load_trace(str(outcome.repro))
    assert len(trace.hands) == 1 and outcome.hand == len(trace.prelude) + 1
    assert trace.start is not None and trace.start["hands_played"] == len(trace.prelude)
    # The engine never ends the match on a total exactly on the target (R-SZC-07): the field
    # that diverged is the match state after the hand, named with that hand.
    text = format_outcome("x", outcome)
    assert f"first divergence: hand {outcome.hand}" in text
    mismatches = traces.replay(trace, ReferenceEngine())
    assert mismatches == []


def test_a_perft_repro_names_the_first_differing_first_action(
        found: dict[str, Outcome], capsys: pytest.CaptureFixture[str]) -> None:
    outcome = found["perft"]
    engine, _ = FAILURES["perft"]
    data = yaml.safe_load(Path(str(outcome.repro)).read_text(encoding="utf-8"))
    # conformance/perft/szczerbak.yaml, widow-faces-1 at depth 3: 3-4@R3 19 + 3-6@R3 18 = 37
    # (independent counts); the deal, the empty prefix and the depth come with them.
    assert (data["kind"], data["actions"], data["depth"], data["count"]) == ("perft", [], 3, 37)
    assert data["divide"] == {"3-4@R3": 19, "3-6@R3": 18}
    main(["trace", "replay", "--engine", BROKEN + engine, str(outcome.repro)])
    head = capsys.readouterr().out.splitlines()[0]
    assert "$.divide['3-4@R3']: perft(3) after first action 3-4@R3: expected 19, got" in head


def test_several_files_each_reported_and_an_unreadable_one_is_a_usage_error(
        found: dict[str, Outcome], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    broken = tmp_path / "poldomino" / "broken.yaml"
    broken.parent.mkdir()
    broken.write_text("id: poldomino/broken\nkind: hand\n", encoding="utf-8")
    files = [str(tmp_path / "missing.yaml"), str(broken), str(found["rejection"].repro),
             str(found["perft"].repro)]
    status = main(["trace", "replay", "--engine", REFERENCE, *files])
    captured = capsys.readouterr()
    assert status == ExitStatus.USAGE_ERROR
    assert "missing.yaml: no such file" in captured.err
    assert f"{broken}:" in captured.err
    assert captured.out.count("PASSED") == 2
    assert ("4 trace(s): 2 matched, 0 diverged, 0 errored, 0 not applicable, 2 unreadable"
            in captured.out)


def test_an_engine_that_does_not_start_is_a_usage_error(
        found: dict[str, Outcome], capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["trace", "replay", "--engine", "python:no_such_module:x",
                   str(found["rejection"].repro)])
    assert status == ExitStatus.USAGE_ERROR
    assert "did not start" in capsys.readouterr().err


class _CitesHandOver(ReferenceEngine):
    """A broken engine citing R-ALL-14 (the hand is over) for every refusal."""

    def apply(self, action: str) -> list[dict[str, object]]:
        try:
            return super().apply(action)
        except EngineRejected as error:
            raise EngineRejected(error.code, error.message, "R-ALL-14") from None


def test_a_refusal_citing_the_wrong_rule_is_a_mismatch(found: dict[str, Outcome]) -> None:
    trace = traces.load_trace(str(found["rejection"].repro))
    (mismatch,) = traces.replay(trace, _CitesHandOver())
    assert mismatch.where == "$.steps[0].refused.rule"
    assert (mismatch.expected, mismatch.got) == ("R-ALL-12", "R-ALL-14")


def test_only_the_last_step_may_be_refused(found: dict[str, Outcome], tmp_path: Path) -> None:
    source = Path(str(found["rejection"].repro))
    data = yaml.safe_load(source.read_text(encoding="utf-8"))
    data["steps"].append(dict(data["steps"][-1]))
    path = tmp_path / source.name
    path.write_text(traces.dump_trace(data), encoding="utf-8")
    with pytest.raises(SpecError) as caught:
        traces.load_trace(path)
    assert "only the last step of a hand trace may be refused" in str(caught.value)


def test_a_prelude_that_misses_its_start_names_the_hand(
        found: dict[str, Outcome], tmp_path: Path) -> None:
    source = Path(str(found["match"].repro))
    data = yaml.safe_load(source.read_text(encoding="utf-8"))
    data["start"]["totals"] = [data["start"]["totals"][0] + 1, data["start"]["totals"][1]]
    path = tmp_path / source.name
    path.write_text(traces.dump_trace(data), encoding="utf-8")
    trace = traces.load_trace(path)
    (mismatch,) = traces.replay(trace, ReferenceEngine())
    assert mismatch.where == "$.start.totals"


def test_a_perft_walk_stops_at_its_budget(found: dict[str, Outcome]) -> None:
    trace = traces.load_trace(str(found["perft"].repro))
    assert trace.perft is not None
    walker = Walker(ReferenceEngine(), trace.variant, trace.options, trace.data["deal"],
                    trace.perft.actions, budget=5)
    with pytest.raises(TooLarge):
        walker.divide(trace.perft.depth)


def test_a_golden_match_failure_names_the_hand_and_field(tmp_path: Path) -> None:
    # szczerbak/match-to-100, checked by hand in its header: hand 17 brings player 0 to
    # exactly 100, which ends the match (R-SZC-07: "100 or more"); an engine that wants more
    # than 100 keeps the match going, so hand 17's match state is the first to differ.
    outcome = _conform("SzczerbakTargetExceeds", "golden/szczerbak/match-to-100", tmp_path)
    assert outcome.status == "failed" and outcome.hand == 17 and outcome.step is None
    assert "$.hands[16].match.winner: expected 0, got null" in outcome.message
    assert outcome.rules[0] == "R-SZC-07"


def test_a_perft_count_must_be_the_sum_of_its_divide(found: dict[str, Outcome],
                                                     tmp_path: Path) -> None:
    source = Path(str(found["perft"].repro))
    data = yaml.safe_load(source.read_text(encoding="utf-8"))
    data["count"] += 1
    path = tmp_path / source.name
    path.write_text(traces.dump_trace(data), encoding="utf-8")
    with pytest.raises(SpecError) as caught:
        traces.load_trace(path)
    assert "count 38 is not the sum of divide (37)" in str(caught.value)


def test_an_engine_that_refuses_every_hand_fails_each_file_and_the_run_goes_on(
        found: dict[str, Outcome], capsys: pytest.CaptureFixture[str]) -> None:
    # tests/conformance/engines/crash.py lists only poldomino in hello, then refuses new_hand.
    engine = f"{sys.executable} {Path(__file__).parent / 'engines' / 'crash.py'}"
    files = [str(found["rejection"].repro), str(found["differential"].repro)]
    szczerbak = str(found["match"].repro)
    assert main(["trace", "replay", "--engine", engine, *files, szczerbak]) == ExitStatus.FAILED
    out = capsys.readouterr().out
    assert [line.split(":")[0] for line in out.splitlines() if line.startswith("FAILED")] == \
        [f"FAILED {name}" for name in files]
    assert f"NOT APPLICABLE {szczerbak}: the engine does not support variant 'szczerbak'" in out
    assert "3 trace(s): 0 matched, 2 diverged, 0 errored, 1 not applicable, 0 unreadable" in out


class _ForgetsPasses(ReferenceEngine):
    """A broken engine whose state never counts passes (R-POL-05 ends a hand on two)."""

    def state(self) -> dict[str, Any]:
        return {**super().state(), "passes": 0}


def test_a_state_only_divergence_is_stated_in_the_repro(tmp_path: Path) -> None:
    case_id = "differential/poldomino/default"
    report = run_suite(InProcessEngine(_ForgetsPasses()), only=case_id, report_dir=tmp_path,
                       out=io.StringIO())
    (record,) = report.records
    found = record.outcome
    assert found.status == "failed" and found.repro is not None, found.message
    assert "differs in passes" in found.message
    trace = traces.load_trace(found.repro)
    # The repro states the whole state after the action where the engine diverged.
    assert found.step is not None and trace.hands[0].steps[found.step - 1].state is not None
    replayed = judge(trace, InProcessEngine(_ForgetsPasses()))
    assert replayed.status == "failed"
    assert (replayed.step, replayed.rules) == (found.step, found.rules)
    assert ".state.passes" in replayed.message.splitlines()[0]
    assert judge(trace, InProcessEngine(ReferenceEngine())).status == "passed"


class _PassesAfterTheEnd(ReferenceEngine):
    """A broken engine that accepts a pass once the hand is over (R-ALL-14)."""

    def apply(self, action: str) -> list[dict[str, Any]]:
        if action == "pass" and self.state()["result"] is not None:
            return [{"type": "pass", "player": 0}]
        return super().apply(action)


def test_a_rejection_after_the_end_has_no_player(tmp_path: Path) -> None:
    # poldomino/tied-block ends by two passes (R-POL-05); after it nothing is legal, and an
    # action is refused citing R-ALL-14.
    trace = next(t for t in traces.bundled_traces("poldomino") if t.id == "poldomino/tied-block")
    hand = trace.hands[0]
    path = write_rejection(tmp_path, "rejection/poldomino/play-after-end", "poldomino", {},
                           hand.deal, [step.action for step in hand.steps], "pass", "R-ALL-14",
                           note="after the end")
    repro = traces.load_trace(path)
    last = repro.hands[0].steps[-1]
    assert (last.player, last.legal, last.refused) == (
        None, (), {"code": "illegal_action", "rule": "R-ALL-14"})
    assert repro.hands[0].result == hand.result
    assert traces.replay(repro, ReferenceEngine()) == []
    (mismatch,) = traces.replay(repro, _PassesAfterTheEnd())
    assert mismatch.where == f"$.steps[{len(hand.steps)}].refused"
