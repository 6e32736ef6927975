"""Golden traces: every bundled trace is valid and replays clean, together they cover every
rule of the spec, they are in their regenerated form, and a planted error is found and
located by file and line.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import shutil
from pathlib import Path

import pytest
import yaml

from dominokit.conformance import traces
from dominokit.conformance.commands import trace as trace_command
from dominokit.conformance.serve.refengine import ReferenceEngine
from dominokit.reference.errors import SpecError
from dominokit.spec import spec

TRACE_FILES = traces.bundled_trace_files()
TRACE_IDS = [f"{Path(str(f)).parent.name}/{f.name.removesuffix('.yaml')}" for f in TRACE_FILES]


def _path_of(trace_id: str) -> Path:
    variant, stem = trace_id.split("/")
    return Path(str(traces.bundled_trace_files(variant)[0])).parent / f"{stem}.yaml"


@pytest.fixture(scope="module")
def bundle() -> list[traces.Trace]:
    return traces.bundled_traces()


@pytest.fixture(scope="module")
def replays(bundle: list[traces.Trace]) -> dict[str, list[traces.Mismatch]]:
    return {t.id: traces.replay(t) for t in bundle}


def _copy(tmp_path: Path, trace_id: str) -> tuple[Path, str]:
    source = _path_of(trace_id)
    target = tmp_path / source.name
    shutil.copy(source, target)
    return target, target.read_text(encoding="utf-8")


def _line_of(text: str, needle: str) -> int:
    """1-based line of the first line containing ``needle``."""
    for number, line in enumerate(text.splitlines(), start=1):
        if needle in line:
            return number
    raise AssertionError(f"{needle!r} not in the text")


# ---------------------------------------------------------------------------- the bundle


def test_there_are_traces_for_every_variant_and_a_match_for_each(
    bundle: list[traces.Trace],
) -> None:
    for variant in spec.variant_ids():
        mine = [t for t in bundle if t.variant == variant]
        assert mine, f"no trace for {variant}"
        assert any(t.kind == "match" for t in mine), f"no match trace for {variant}"
        assert all(t.id.startswith(f"{variant}/") for t in mine)


def test_trace_ids_are_unique_and_descriptions_short(bundle: list[traces.Trace]) -> None:
    ids = [t.id for t in bundle]
    assert len(ids) == len(set(ids))
    assert all(0 < len(t.description) <= 200 and "\n" not in t.description for t in bundle)


@pytest.mark.parametrize("trace_id", TRACE_IDS)
def test_bundled_trace_replays_clean(trace_id: str,
                                     replays: dict[str, list[traces.Mismatch]]) -> None:
    assert replays[trace_id] == []


def test_every_rule_is_covered_by_a_passing_trace(
    bundle: list[traces.Trace], replays: dict[str, list[traces.Mismatch]],
) -> None:
    covered = {rule for t in bundle if not replays[t.id] for rule in t.rules}
    missing = sorted(set(spec.all_rule_ids()) - covered)
    assert missing == [], f"rules no passing trace lists: {missing}"


def test_regenerate_check_finds_nothing_to_change(capsys: pytest.CaptureFixture[str]) -> None:
    assert trace_command.run_trace_regenerate([], check=True) == 0
    assert "0 would change" in capsys.readouterr().out


# ---------------------------------------------------------------------------- planted errors


def test_planted_event_error_is_reported_with_its_line(tmp_path: Path) -> None:
    path, text = _copy(tmp_path, "poldomino/seed-example-chain")
    # Third step: P0 plays 2-3@R3; claim instead that player 1 did.
    planted = text.replace("{type: place, player: 0, action: 2-3@R3}",
                           "{type: place, player: 1, action: 2-3@R3}")
    assert planted != text
    path.write_text(planted, encoding="utf-8")
    step_line = _line_of(planted, "- action: 2-3@R3")
    problems = trace_command.validate_file(path)
    assert len(problems) == 1
    assert problems[0].startswith(f"{path}:{step_line}: $.steps[2].events[0]: ")
    assert '"player": 1' in problems[0] and '"player": 0' in problems[0]


def test_planted_result_error_is_reported_with_its_line(tmp_path: Path) -> None:
    path, text = _copy(tmp_path, "poldomino/seed-example-chain")
    # The result block is the last "points: [23, 0]"; make it [24, 0].
    head, _, tail = text.rpartition("points: [23, 0]")
    path.write_text(head + "points: [24, 0]" + tail, encoding="utf-8")
    result_line = text.splitlines().index("result:") + 1
    problems = trace_command.validate_file(path)
    assert problems == [
        f"{path}:{result_line}: $.result.points: expected [24, 0], got [23, 0]"
    ]


def test_planted_legal_error_names_the_missing_action(tmp_path: Path) -> None:
    path, text = _copy(tmp_path, "poldomino/seed-example-chain")
    planted = text.replace("legal: [2-3@R3, draw, pass]", "legal: [2-3@R3, pass]")
    assert planted != text
    path.write_text(planted, encoding="utf-8")
    problems = trace_command.validate_file(path)
    line = _line_of(planted, "- action: 2-3@R3")
    assert len(problems) == 1
    assert problems[0].startswith(f"{path}:{line}: $.steps[2].legal: legal set differs")
    assert 'extra ["draw"]' in problems[0]


def test_planted_large_legal_set_error_is_found(tmp_path: Path) -> None:
    path, text = _copy(tmp_path, "pijanowski/published-opening")
    # The opening's legal set, by hand: 10 non-doubles x 126 cell pairs x 2 orientations
    # + 2 doubles x 126 = 2772.
    assert "legal_count: 2772" in text
    path.write_text(text.replace("legal_count: 2772", "legal_count: 2771"), encoding="utf-8")
    problems = trace_command.validate_file(path)
    assert len(problems) == 1 and "expected 2771 actions" in problems[0]


def test_planted_schema_error_has_line_and_column(tmp_path: Path) -> None:
    path, text = _copy(tmp_path, "szczerbak/seed-example-chain")
    lines = text.splitlines()
    index = next(i for i, line in enumerate(lines) if line.strip() == "player: 1")
    lines[index] = lines[index].replace("player: 1", "player: 2")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(SpecError) as caught:
        traces.load_trace(path)
    column = lines[index].index("2") + 1
    assert [str(p) for p in caught.value.problems] == [
        f"{path}:{index + 1}:{column}: $.steps[0].player: 2 is not one of: 0, 1"
    ]


def test_refused_action_stops_the_replay(tmp_path: Path) -> None:
    path, text = _copy(tmp_path, "progressive/seed-example-chain")
    # 1-5 touching with its 5 does not fit the right end 3 (R-PRO-07): it must be refused.
    planted = text.replace("- action: 1-5@L1", "- action: 1-5@R5", 1)
    path.write_text(planted, encoding="utf-8")
    problems = trace_command.validate_file(path)
    assert len(problems) == 1
    line = _line_of(planted, "- action: 1-5@R5")
    assert problems[0].startswith(f"{path}:{line}: $.steps[1].action: engine refused '1-5@R5'")


def test_trace_id_must_match_the_file(tmp_path: Path) -> None:
    path, text = _copy(tmp_path, "szczerbak/seed-example-chain")
    renamed = path.with_name("other-name.yaml")
    path.rename(renamed)
    with pytest.raises(SpecError) as caught:
        traces.load_trace(renamed)
    assert "id must be szczerbak/other-name" in str(caught.value)


def test_default_options_are_refused(tmp_path: Path) -> None:
    path, text = _copy(tmp_path, "poldomino/tied-block")
    path.write_text(text.replace("options: {}", "options: {catch_penalty_to: winner}"),
                    encoding="utf-8")
    with pytest.raises(SpecError) as caught:
        traces.load_trace(path)
    assert "is the default" in str(caught.value)


def test_unknown_rule_ids_are_refused(tmp_path: Path) -> None:
    path, text = _copy(tmp_path, "poldomino/tied-block")
    path.write_text(text.replace("rules: [", "rules: [R-POL-99, "), encoding="utf-8")
    with pytest.raises(SpecError) as caught:
        traces.load_trace(path)
    assert "no rule R-POL-99" in str(caught.value)


def test_planted_match_total_error(tmp_path: Path) -> None:
    path, text = _copy(tmp_path, "poldomino/match-three-sets")
    # By hand: the last set ends 157 to 39 and player 0 wins the match 2 sets to 1.
    assert "totals: [157, 39]" in text and "sets_won: [2, 1]" in text
    path.write_text(text.replace("sets_won: [2, 1]", "sets_won: [1, 2]"), encoding="utf-8")
    problems = trace_command.validate_file(path)
    # The match state after the last hand (hands[4]) says so too: the replay stops there,
    # naming the hand whose result the match folded.
    assert len(problems) == 1
    assert re.match(rf"{re.escape(str(path))}:\d+: \$\.hands\[4\]\.match\.sets_won: "
                    r"expected \[1, 2\], got \[2, 1\]$", problems[0])


class _ActsAfterTheEnd(ReferenceEngine):
    """A broken engine: once the hand is over it still offers a pass (R-ALL-14)."""

    def legal(self) -> list[str]:
        offered = super().legal()
        return offered if self.state()["result"] is None else ["pass"]


def test_actions_offered_after_the_end_are_reported(bundle: list[traces.Trace]) -> None:
    trace = next(t for t in bundle if t.id == "poldomino/tied-block")
    problems = traces.replay(trace, _ActsAfterTheEnd())
    assert len(problems) == 1 and "still offers" in str(problems[0])


# ---------------------------------------------------------------------------- tools


def test_legal_digest_by_hand() -> None:
    count, digest = traces.legal_digest(["pass", "draw", "pass"])
    assert (count, digest) == (2, hashlib.sha256(b"draw\npass").hexdigest())


def test_dump_round_trips_awkward_strings() -> None:
    data = {"id": "x/y", "description": 'quotes " and: colons # hashes', "rules": ["R-ALL-01"],
            "note": "line one\n  indented line\n", "values": ["yes", "null", "1", "1-5", "0.4"]}
    assert yaml.safe_load(traces.dump_trace(data)) == data


def test_leading_comments_survive_regeneration(tmp_path: Path) -> None:
    path, text = _copy(tmp_path, "szczerbak/seed-example-chain")
    assert text.startswith("# By hand.")
    assert traces.regenerate(path) is False
    # A trace in another layout is rewritten into the stable one, comment kept.
    data = yaml.safe_load(text)
    path.write_text("# my note\n" + yaml.safe_dump(data, sort_keys=True), encoding="utf-8")
    assert traces.regenerate(path) is True
    rewritten = path.read_text(encoding="utf-8")
    assert rewritten.startswith("# my note\nid: szczerbak/seed-example-chain\n")
    assert yaml.safe_load(rewritten) == data


def test_record_random_is_deterministic_and_replays(tmp_path: Path) -> None:
    first = traces.record_random("szczerbak", {}, 7, trace_id="szczerbak/random")
    assert first == traces.record_random("szczerbak", {}, 7, trace_id="szczerbak/random")
    path = tmp_path / "random.yaml"
    path.write_text(traces.dump_trace(first), encoding="utf-8")
    assert trace_command.validate_file(path) == []


def test_cli_record_from_a_deal_file(tmp_path: Path, bundle: list[traces.Trace]) -> None:
    trace = next(t for t in bundle if t.id == "progressive/seed-example-chain")
    deal_file = tmp_path / "deal.json"
    deal_file.write_text(json.dumps(trace.hands[0].deal), encoding="utf-8")
    out = tmp_path / "seed-again.yaml"
    args = argparse.Namespace(
        variant="progressive", deal=str(deal_file), seed=None, option=[],
        actions=" ".join(step.action for step in trace.hands[0].steps),
        description="Seed example again.", rules="R-PRO-07", out=str(out))
    assert trace_command.run_trace_record(args) == 0
    again = traces.load_trace(out)
    assert again.id == "progressive/seed-again"
    assert again.data["steps"] == trace.data["steps"]
    assert again.data["result"] == trace.data["result"]
    assert trace_command.run_trace_validate([str(out)]) == 0


def test_replay_through_the_protocol_subprocess(bundle: list[traces.Trace]) -> None:
    from dominokit.conformance.kit.engines import open_engine

    engine = open_engine(None)
    try:
        for trace in bundle:
            if trace.variant == "szczerbak" and trace.kind == "hand":
                assert traces.replay(trace, engine) == []
    finally:
        engine.close()
