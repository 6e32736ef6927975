"""Differences shown as JSON paths, and lists of actions compared as sets first."""

from __future__ import annotations

from dominokit.conformance.cases.jsondiff import diff_lines


def test_a_changed_number_is_one_path_line() -> None:
    want = {"result": {"terms": [{"term": "a", "points": 10}, {"term": "b", "points": 30}]}}
    got = {"result": {"terms": [{"term": "a", "points": 10}, {"term": "b", "points": 25}]}}
    assert diff_lines(want, got) == ["$.result.terms[1].points: 30 -> 25"]


def test_an_absent_key_or_item_says_absent_never_null() -> None:
    assert diff_lines({"pass": None, "stop": 1}, {"pass": 30}) == [
        "$.pass: null -> 30", "$.stop: 1 -> absent"]
    assert diff_lines([{"type": "place"}], [{"type": "place"}, {"type": "lake"}]) == [
        '$[1]: absent -> {"type": "lake"}']


def test_lists_of_actions_are_compared_as_sets_then_counts() -> None:
    want = [f"6-6@{r}.0+{r}.1" for r in range(12)] + ["0-1@0.0+0.1"]
    assert diff_lines(want, ["0-1@0.0+0.1"]) == [
        "$: 12 missing, for example 6-6@0.0+0.1, 6-6@1.0+1.1, 6-6@10.0+10.1, ...; none extra"]
    assert diff_lines(["4-5@R4"], ["4-6@R4"]) == [
        "$: 1 missing, for example 4-5@R4; 1 extra, for example 4-6@R4"]
    assert diff_lines(["a", "b"], ["a", "b", "b"]) == [
        "$: the same members, 2 expected -> 3 listed (repeats)"]


def test_perft_divide_shows_only_the_first_actions_that_differ() -> None:
    want = {f"{a}-{b}@R{b}": 10 for a in range(6) for b in range(a + 1, 7)}
    got = dict(want)
    got["pass"] = 30
    want["stop"] = 1
    assert diff_lines(want, got) == ["$.pass: absent -> 30", "$.stop: 1 -> absent"]


def test_keys_that_are_not_names_are_quoted() -> None:
    assert diff_lines({"6-6@R6": 1}, {"6-6@R6": 2}) == ['$["6-6@R6"]: 1 -> 2']
