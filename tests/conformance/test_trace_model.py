"""``conformance/traces/model.py``: the legal-set digest, loading a trace written by hand with
the lines of its steps, the problems a schema cannot see reported at their file:line, the
bundled trace files, and the two small text helpers."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from dominokit.conformance.traces.model import (
    bundled_trace_files,
    file_stem,
    legal_digest,
    load_trace,
    short_json,
)
from dominokit.reference import SpecError, variant_ids

# A classic-block opening, checked by hand: player 0 holds every 0, player 1 every 1 but 0-1
# and the 2-2; the 14 others are out of play. Player 0 may open with any of its 7 tiles and
# opens 0-1 (ends 0|1); player 1 has no 0, so only its six 1s fit, on the right end.
MINI = """\
id: classic_block/mini
description: "Two openings of a hand, written by hand."
rules: [R-CLB-02, R-CLB-03]
variant: classic_block
options: {}
kind: hand
deal:
  hands: [[0-0, 0-1, 0-2, 0-3, 0-4, 0-5, 0-6], [1-1, 1-2, 1-3, 1-4, 1-5, 1-6, 2-2]]
  stock: []
  out_of_play: [2-3, 2-4, 2-5, 2-6, 3-3, 3-4, 3-5, 3-6, 4-4, 4-5, 4-6, 5-5, 5-6, 6-6]
  starter: 0
  widow: null
steps:
  - action: 0-1
    player: 0
    legal: [0-0, 0-1, 0-2, 0-3, 0-4, 0-5, 0-6]
    events: [{type: place, player: 0, action: 0-1}]
  - action: 1-1@R1
    player: 1
    legal_count: 6
    legal_sha256: SHA
    events: [{type: place, player: 1, action: 1-1@R1}]
result: null
"""
SIX = ["1-1@R1", "1-2@R1", "1-3@R1", "1-4@R1", "1-5@R1", "1-6@R1"]


def _mini(**swaps: str) -> str:
    text = MINI.replace("SHA", hashlib.sha256("\n".join(SIX).encode()).hexdigest())
    for old, new in swaps.items():
        assert old in text
        text = text.replace(old, new)
    return text


def _problems(text: str, name: str = "traces/classic_block/mini.yaml") -> list[str]:
    with pytest.raises(SpecError) as caught:
        load_trace(name, text)
    return [str(problem) for problem in caught.value.problems]


def _line_of(text: str, start: str) -> int:
    """The 1-based line of ``text`` that starts with ``start``."""
    (found,) = [n for n, line in enumerate(text.splitlines(), 1) if line.startswith(start)]
    return found


# --- legal_digest ---------------------------------------------------------------------------

def test_legal_digest_is_the_count_and_hash_of_the_sorted_distinct_actions() -> None:
    joined = "0-1\n1-1@R1\npass"  # sorted by code point: "0" < "1" < "p"
    want = hashlib.sha256(joined.encode("utf-8")).hexdigest()
    assert legal_digest(["pass", "1-1@R1", "0-1"]) == (3, want)
    assert legal_digest(["1-1@R1", "pass", "0-1", "pass"]) == (3, want)  # duplicates once
    assert legal_digest(iter(["0-1", "pass", "1-1@R1"])) == (3, want)


def test_legal_digest_of_one_action_and_of_none() -> None:
    assert legal_digest(["draw"]) == (1, hashlib.sha256(b"draw").hexdigest())
    assert legal_digest([]) == (0, hashlib.sha256(b"").hexdigest())


def test_legal_digest_of_the_hand_written_trace_matches_its_step() -> None:
    trace = load_trace("traces/classic_block/mini.yaml", _mini())
    step = trace.hands[0].steps[1]
    assert legal_digest(reversed(SIX)) == (step.legal_count, step.legal_sha256)


# --- load_trace -----------------------------------------------------------------------------

def test_a_hand_written_trace_loads_with_the_line_of_each_step(tmp_path: Path) -> None:
    folder = tmp_path / "classic_block"
    folder.mkdir()
    path = folder / "mini.yaml"
    text = _mini()
    path.write_text(text, encoding="utf-8")
    trace = load_trace(path)
    assert (trace.id, trace.variant, trace.kind) == ("classic_block/mini", "classic_block",
                                                     "hand")
    assert trace.rules == ("R-CLB-02", "R-CLB-03") and trace.options == {}
    assert trace.path == str(path) and trace.perft is None and trace.prelude == ()
    (hand,) = trace.hands
    assert hand.result is None and hand.deal["starter"] == 0
    assert hand.line == _line_of(text, "deal:")
    first, second = hand.steps
    assert (first.action, first.player, first.line) == ("0-1", 0, _line_of(text, "  - action: 0-1"))
    assert first.legal == ("0-0", "0-1", "0-2", "0-3", "0-4", "0-5", "0-6")
    assert first.legal_count is None and first.refused is None
    assert first.events == ({"type": "place", "player": 0, "action": "0-1"},)
    assert (second.player, second.line) == (1, _line_of(text, "  - action: 1-1@R1"))
    assert second.legal is None and second.legal_count == 6
    assert first.where == "$.steps[0]" and second.where == "$.steps[1]"
    assert trace.hand_number(0) == 1


def test_an_id_that_is_not_variant_slash_stem_is_reported_at_its_line() -> None:
    text = _mini(**{"id: classic_block/mini": "id: classic_block/other"})
    (problem,) = _problems(text)
    assert problem.startswith("traces/classic_block/mini.yaml:1:")
    assert "$.id: id must be classic_block/mini" in problem and "'classic_block/other'" in problem


def test_a_file_stem_that_is_not_a_slug_is_reported() -> None:
    # the id may not spell the stem (its schema pattern is lowercase), so both are reported
    problems = _problems(_mini(), "traces/classic_block/Mini.yaml")
    assert len(problems) == 2
    assert all(p.startswith("traces/classic_block/Mini.yaml:1:") for p in problems)
    assert "id must be classic_block/Mini" in problems[0]
    assert "file stem 'Mini' is not a lowercase slug" in problems[1]


def test_an_unknown_variant_is_reported_with_the_known_ones() -> None:
    text = _mini(**{"id: classic_block/mini": "id: nosuchgame/mini",
                    "variant: classic_block": "variant: nosuchgame"})
    (problem,) = _problems(text)
    line = _line_of(text, "variant:")
    assert problem.startswith(f"traces/classic_block/mini.yaml:{line}:")
    assert "no bundled variant 'nosuchgame'" in problem
    assert all(variant in problem for variant in variant_ids())


def test_a_default_option_is_refused_at_its_line() -> None:
    text = _mini(**{"options: {}": "options:\n  blocked_payout: loser_pips"})
    (problem,) = _problems(text)
    line = _line_of(text, "  blocked_payout:")
    assert problem.startswith(f"traces/classic_block/mini.yaml:{line}:")
    assert "blocked_payout is the default" in problem


def test_an_unknown_option_is_reported() -> None:
    text = _mini(**{"options: {}": "options:\n  no_such_option: 3"})
    (problem,) = _problems(text)
    # reported where the options mapping's content starts: the line of the unknown name
    line = _line_of(text, "  no_such_option:")
    assert problem.startswith(f"traces/classic_block/mini.yaml:{line}:")
    assert "$.options:" in problem and "no option 'no_such_option'" in problem


def test_a_rule_not_in_the_spec_is_reported_at_its_line() -> None:
    text = _mini(**{"rules: [R-CLB-02, R-CLB-03]": "rules: [R-CLB-02, R-CLB-99]"})
    (problem,) = _problems(text)
    assert problem.startswith(f"traces/classic_block/mini.yaml:{_line_of(text, 'rules:')}:")
    assert "$.rules[1]: no rule R-CLB-99 in the spec" in problem


def test_only_the_last_step_may_be_refused() -> None:
    refused = ("  - action: 0-1\n    player: 0\n"
               "    refused: {code: illegal_action, rule: R-CLB-03}\n")
    text = _mini(**{"  - action: 0-1\n    player: 0\n": refused})
    text = text.replace("    legal: [0-0, 0-1, 0-2, 0-3, 0-4, 0-5, 0-6]\n"
                        "    events: [{type: place, player: 0, action: 0-1}]\n", "")
    (problem,) = _problems(text)
    line = _line_of(text, "    refused:")
    assert problem.startswith(f"traces/classic_block/mini.yaml:{line}:")
    assert "$.steps[0].refused: only the last step of a hand trace may be refused" in problem


def test_a_deal_that_cannot_be_dealt_is_reported() -> None:
    text = _mini(**{"[1-1, 1-2, 1-3, 1-4, 1-5, 1-6, 2-2]": "[1-1, 1-2, 1-3, 1-4, 1-5, 1-6, 0-0]"})
    problems = _problems(text)
    assert problems and all(p.startswith("traces/classic_block/mini.yaml:") for p in problems)
    assert any("0-0" in p for p in problems)


def test_a_perft_count_must_be_the_sum_of_its_divide() -> None:
    head = MINI.split("steps:")[0].replace("kind: hand", "kind: perft")
    # depth 1: one sequence per opening, 7 in all (R-CLB-02), so a count of 5 is wrong
    text = head + "actions: []\ndepth: 1\ncount: 5\ndivide: {0-0: 1, 0-1: 1, 0-2: 1, " \
        "0-3: 1, 0-4: 1, 0-5: 1, 0-6: 1}\n"
    (problem,) = _problems(text)
    assert problem.startswith(f"traces/classic_block/mini.yaml:{_line_of(text, 'count:')}:")
    assert "count 5 is not the sum of divide (7)" in problem


def test_a_schema_problem_stops_before_the_semantic_checks() -> None:
    text = _mini(**{"kind: hand": "kind: opening", "id: classic_block/mini": "id: x/y"})
    problems = _problems(text)
    assert any("kind" in p for p in problems)
    assert not any("id must be" in p for p in problems)


# --- bundled files and helpers --------------------------------------------------------------

@pytest.mark.parametrize("variant", variant_ids())
def test_the_bundled_trace_files_of_a_variant_are_its_folder_sorted(variant: str) -> None:
    folder = Path(__file__).resolve().parents[2] / "conformance" / "traces" / variant
    want = sorted(p.name for p in folder.glob("*.yaml"))
    files = bundled_trace_files(variant)
    assert want and [f.name for f in files] == want
    assert all(Path(str(f)).parent.name == variant for f in files)


def test_all_bundled_trace_files_go_variant_by_variant() -> None:
    every = bundled_trace_files()
    assert [f.name for f in every] == [
        f.name for variant in sorted(variant_ids()) for f in bundled_trace_files(variant)]
    assert bundled_trace_files("no_such_variant") == []


@pytest.mark.parametrize(("name", "stem"), [
    ("mini.yaml", "mini"),
    ("traces/classic_block/mini.yaml", "mini"),
    ("C:\\traces\\classic_block\\mini.yaml", "mini"),
    ("a/b.c/mini.tar.yaml", "mini.tar"),  # only the last suffix goes
    ("noext", "noext"),
])
def test_file_stem_takes_the_last_part_without_its_suffix(name: str, stem: str) -> None:
    assert file_stem(name) == stem


def test_short_json_is_sorted_one_line_json() -> None:
    assert short_json({"b": 1, "a": [True, None]}) == '{"a": [true, null], "b": 1}'
    assert short_json("zażółć") == '"zażółć"'  # letters kept, not escaped


def test_short_json_cuts_at_the_limit_and_says_so() -> None:
    value = "x" * 10  # its JSON is 12 characters with the quotes
    assert short_json(value, limit=12) == '"xxxxxxxxxx"'
    assert short_json(value, limit=11) == '"xxxxxxxxxx' + "..."
    assert short_json(value, limit=5) == '"xxxx...'
    assert len(short_json(list(range(200)))) == 300 + 3  # the default limit is 300


def test_an_undo_step_is_recorded_replayed_regenerated_and_checked_when_loaded(
        tmp_path: Path) -> None:
    """A trace may take actions back (protocol 2): each undo step names the action it takes
    back and states the state the engine must answer; a step naming another action is a
    problem at its line."""
    from dominokit.conformance import traces

    first = traces.reference_engine()
    dealt = first.new_hand("classic_block", {}, _MINI_DEAL)
    assert dealt["to_move"] == 0
    data = traces.record_hand("classic_block", {}, _MINI_DEAL,
                              ["0-1", traces.UNDO, "0-2", "2-2@R2"], "Undo once.",
                              ["R-CLB-02"], trace_id="classic_block/undone")
    undo = data["steps"][1]
    assert undo["undo"] == "0-1" and undo["state"] == dealt and "match" not in undo
    path = tmp_path / "undone.yaml"
    path.write_text(traces.dump_trace(data), encoding="utf-8")
    trace = load_trace(path)
    assert trace.takes_back and trace.hands[0].steps[1].undo
    assert traces.replay(trace) == []
    assert traces.rerecord(data) == data
    path.write_text(traces.dump_trace(data).replace("undo: 0-1", "undo: 0-2"), encoding="utf-8")
    with pytest.raises(SpecError) as raised:
        load_trace(path)
    assert "undone.yaml:" in str(raised.value)
    assert "an undo takes back the hand's last action not yet taken back: '0-1'" in str(
        raised.value)


_MINI_DEAL = {"hands": [["0-0", "0-1", "0-2", "0-3", "0-4", "0-5", "0-6"],
                        ["1-1", "1-2", "1-3", "1-4", "1-5", "1-6", "2-2"]],
              "stock": [], "out_of_play": ["2-3", "2-4", "2-5", "2-6", "3-3", "3-4", "3-5",
                                           "3-6", "4-4", "4-5", "4-6", "5-5", "5-6", "6-6"],
              "starter": 0, "widow": None}
