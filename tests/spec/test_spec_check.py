"""`dominokit spec check` and the spec loader: clean files pass, each planted mistake is
reported once at the right ``file:line:col: $.path``, and no input produces a traceback.

Expected positions are computed from the planted text itself (the line and column where the
planted token sits), never copied from the checker's output.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from dominokit.reference.errors import OptionError, SpecError, SpecProblem
from dominokit.spec.spec import (
    all_rule_ids,
    bundled_common_file,
    bundled_variant_files,
    check_common_file,
    check_variant_file,
    common_rules,
    load_variant,
    load_yaml_with_marks,
    rule,
    variant_ids,
)
from dominokit.spec.speccheck import run_spec_check

FIXTURE = Path(__file__).parent / "data" / "minimal.yaml"
BASE = FIXTURE.read_text(encoding="utf-8")


def position(text: str, token: str, occurrence: int = 1) -> tuple[int, int]:
    """1-based (line, column) of the start of the n-th ``token`` in ``text``."""
    index = -1
    for _ in range(occurrence):
        index = text.index(token, index + 1)
    line = text.count("\n", 0, index) + 1
    return line, index - (text.rfind("\n", 0, index) + 1) + 1


def plant(tmp_path: Path, old: str, new: str, name: str = "minimal.yaml") -> tuple[Path, str]:
    """A copy of the fixture with ``old`` (which must occur once) replaced by ``new``."""
    assert BASE.count(old) == 1, old
    text = BASE.replace(old, new)
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path, text


def only(problems: list[SpecProblem], path: str) -> SpecProblem:
    """The one problem reported for ``path`` (fails listing all problems otherwise)."""
    found = [p for p in problems if p.path == path]
    assert len(found) == 1, "\n".join(map(str, problems))
    return found[0]


def planted_problem(tmp_path: Path, old: str, new: str, json_path: str, at: str,
                    alone: bool = False) -> SpecProblem:
    """The one problem reported for ``json_path`` once ``new`` is planted for ``old``.

    Most planted mistakes come down to one problem at one token, so this checks that it sits at
    the first ``at`` of the planted text (with ``alone``, that nothing else is reported) and
    leaves the message to the test.
    """
    path, text = plant(tmp_path, old, new)
    problems = check_variant_file(path)
    problem = only(problems, json_path)
    assert (problem.line, problem.col) == position(text, at)
    if alone:
        assert len(problems) == 1, "\n".join(map(str, problems))
    return problem


# ---------------------------------------------------------------- clean files


def test_fixture_is_clean() -> None:
    assert check_variant_file(FIXTURE) == []


def test_bundled_spec_passes(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_spec_check([]) == 0
    out = capsys.readouterr().out
    # common.yaml plus one file per bundled variant, and nothing wrong in any of them.
    assert out == f"spec check: {1 + len(variant_ids())} files, 0 problems\n"


def test_bundled_variants_load_with_their_rules() -> None:
    for variant_id in variant_ids():
        variant = load_variant(variant_id)
        assert variant.id == variant_id
        assert variant.rules
        assert load_variant(variant_id) is variant  # cached by id
    ids = all_rule_ids()
    assert ids == sorted(ids)
    assert len(ids) == len(set(ids))
    assert {"R-ALL-12", "R-ALL-13", "R-ALL-14"} <= set(ids)  # the engine's structural rules
    assert [entry.id for entry in common_rules()][:1] == ["R-ALL-01"]
    assert rule("R-ALL-01").title
    with pytest.raises(KeyError):
        rule("R-ZZZ-99")


def test_every_bundled_rule_reference_resolves_to_an_entry() -> None:
    for variant_id in variant_ids():
        variant = load_variant(variant_id)
        for name, spec in variant.options.items():
            assert variant.rule(spec.rule).id == spec.rule, name


def test_working_copies_of_bundled_files_check_clean(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A copy stands in for the bundled file of the same name instead of clashing with it."""
    copies = []
    for source in [bundled_common_file(), *bundled_variant_files()]:
        copy = tmp_path / source.name
        copy.write_bytes(source.read_bytes())
        copies.append(str(copy))
    assert run_spec_check(copies) == 0, capsys.readouterr().out


def _option_refs_left(node: object) -> list[object]:
    if isinstance(node, dict):
        if set(node) == {"option"}:
            return [node]
        return [ref for key, value in node.items() if key not in ("options", "rules")
                for ref in _option_refs_left(value)]
    if isinstance(node, list):
        return [ref for item in node for ref in _option_refs_left(item)]
    return []


def test_every_bundled_option_value_resolves() -> None:
    for variant_id in variant_ids():
        variant = load_variant(variant_id)
        assert _option_refs_left(variant.resolve().config) == []
        for name, spec in variant.options.items():
            assert spec.default in spec.values
            for value in spec.values:
                resolved = variant.resolve({name: str(value)})
                assert resolved.options[name] == value
                assert set(resolved.options) == set(variant.options)
                assert _option_refs_left(resolved.config) == [], (variant_id, name, value)


# ---------------------------------------------------------------- planted mistakes


def test_unknown_key_is_reported_at_the_key_with_a_suggestion(tmp_path: Path) -> None:
    path, text = plant(tmp_path, "  remainder: stock", "  remaindr: stock")
    problems = check_variant_file(path, "minimal.yaml")
    typo = only(problems, "$.setup.remaindr")
    assert (typo.line, typo.col) == position(text, "remaindr")
    assert "unknown key 'remaindr'" in typo.message
    assert "did you mean 'remainder'" in typo.message
    # The real key is now missing: reported at the start of the setup mapping.
    missing = only(problems, "$.setup")
    assert (missing.line, missing.col) == position(text, "hand_size: {option")
    assert missing.message == "missing required key 'remainder'"
    assert len(problems) == 2


def test_wrong_enum_value(tmp_path: Path) -> None:
    path, text = plant(tmp_path, "draw: {policy: free,", "draw: {policy: freely,")
    problems = check_variant_file(path)
    problem = only(problems, "$.turn.draw.policy")
    assert (problem.line, problem.col) == position(text, "freely")
    assert "'freely' is not one of" in problem.message and "'until_fit'" in problem.message
    assert problem.file == str(path)
    assert len(problems) == 1


@pytest.mark.parametrize(("old", "new", "json_path", "at"), [
    ("opening: {policy: any_tile,", "opening: {policy: anywhere,", "$.turn.opening.policy",
     "anywhere"),
    ("starter: alternate", "starter: widow", "$.setup.starter", "widow"),
])
def test_a_mechanic_that_does_not_fit_the_table_is_located(
        tmp_path: Path, old: str, new: str, json_path: str, at: str) -> None:
    # a chain table with a stock: opening "anywhere" is the board's, a widow starter needs a
    # widow remainder; the engine refused these once loaded, the file check now locates them
    problem = planted_problem(tmp_path, old, new, json_path, at, alone=True)
    assert problem.message == ("this mechanic does not fit the table or setup (chain table, "
                               "stock remainder)")


def test_a_one_set_each_deal_needs_one_set_per_player(tmp_path: Path) -> None:
    path, text = plant(tmp_path, "  starter: alternate\n",
                       "  starter: alternate\n  deal: {policy: one_set_each, rule: R-MIN-01}\n")
    problems = check_variant_file(path)
    problem = only(problems, "$.setup.deal.policy")
    assert (problem.line, problem.col) == position(text, "one_set_each")
    assert problem.message.startswith("one_set_each needs components.tiles.copies: 2")
    assert "got copies 1" in problem.message and "remainder stock" in problem.message


def test_missing_required_key_is_reported_at_the_mapping(tmp_path: Path) -> None:
    problem = planted_problem(tmp_path, "  starter: alternate\n", "", "$.setup",
                              "hand_size: {option", alone=True)
    assert problem.message == "missing required key 'starter'"


def test_missing_ruling_on_a_ruling_entry(tmp_path: Path) -> None:
    problem = planted_problem(
        tmp_path, "    ruling: {decision: Two consecutive passing turns end the hand.}\n", "",
        "$.rules[2]", "id: R-MIN-03")
    assert problem.message == "missing required key 'ruling'"


def test_yaml_syntax_error_points_at_the_problem(tmp_path: Path) -> None:
    path, text = plant(tmp_path, "name: Minimal", "name: Minimal: x")
    problems = check_variant_file(path)
    # The problem mark is the second ':'. libyaml ends the message "in this context", the
    # pure-Python parser "here"; either parser may be in use.
    assert [(p.line, p.col, p.path) for p in problems] == [(*position(text, ": x"), "$")]
    assert "invalid YAML: mapping values are not allowed" in problems[0].message


def test_dangling_rule_reference(tmp_path: Path) -> None:
    problem = planted_problem(tmp_path, "draw: {policy: free, rule: R-MIN-02}",
                              "draw: {policy: free, rule: R-MIN-09}", "$.turn.draw.rule",
                              "R-MIN-09", alone=True)
    assert "'R-MIN-09' is not defined" in problem.message


def test_undeclared_option_reference(tmp_path: Path) -> None:
    path, text = plant(tmp_path, "{option: hand_size}", "{option: hand_sizes}")
    problems = check_variant_file(path)
    problem = only(problems, "$.setup.hand_size.option")
    assert (problem.line, problem.col) == position(text, "hand_sizes")
    assert "option 'hand_sizes' is not declared" in problem.message
    # ...and the declared hand_size option is now referenced nowhere.
    unused = only(problems, "$.options.hand_size")
    line, col = position(text, "  hand_size:\n")
    assert (unused.line, unused.col) == (line, col + 2)
    assert "never used" in unused.message


def test_duplicate_key(tmp_path: Path) -> None:
    path, text = plant(tmp_path, "  remainder: stock\n",
                       "  remainder: stock\n  remainder: out_of_play\n")
    problems = check_variant_file(path)
    first_line, _ = position(text, "remainder: stock")
    assert [(p.line, p.col, p.path) for p in problems] == [
        (*position(text, "remainder: out_of_play"), "$.setup.remainder")]
    assert problems[0].message == f"duplicate key 'remainder' (first at line {first_line})"


def test_id_must_match_the_file_name(tmp_path: Path) -> None:
    path, text = plant(tmp_path, "name: Minimal", "name: Other", name="other.yaml")
    problem = only(check_variant_file(path), "$.id")
    line, col = position(text, "id: minimal")
    assert (problem.line, problem.col) == (line, col + len("id: "))
    assert "does not match the file name 'other'" in problem.message


def test_default_must_be_an_allowed_value(tmp_path: Path) -> None:
    problem = planted_problem(tmp_path, "default: 5", "default: 6",
                              "$.options.hand_size.default", "6\n    rule: R-MIN-01")
    assert "6 is not one of the option's values (5, 7)" in problem.message


def test_override_path_must_exist(tmp_path: Path) -> None:
    problem = planted_problem(tmp_path, "true: {match.target: 150}", "true: {match.targett: 150}",
                              "$.options.long_match.overrides.true['match.targett']",
                              "match.targett")
    assert "override path 'match.targett' does not exist" in problem.message


def test_override_for_a_value_the_option_does_not_have(tmp_path: Path) -> None:
    problem = planted_problem(tmp_path, "true: {match.target: 150}", "maybe: {match.target: 150}",
                              "$.options.long_match.overrides.maybe", "maybe:")
    assert "not one of the option's values (false, true)" in problem.message


LABELLED = ("description: Who the catch penalty goes to.",
            "description: Who the catch penalty goes to.\n    label_pl: Kara za przyłapanie\n"
            "    labels_pl: {winner: dopisana zwycięzcy, loser: odjęta przegranemu}")


def test_polish_option_labels_are_checked(tmp_path: Path) -> None:
    path, _ = plant(tmp_path, *LABELLED)
    assert check_variant_file(path) == []
    problem = planted_problem(tmp_path, LABELLED[0],
                              LABELLED[1].replace("loser: odjęta", "looser: odjęta"),
                              "$.options.catch_to.labels_pl.looser", "looser")
    assert problem.message == ("labels_pl labels 'looser', which is not one of the option's "
                               "values (winner, loser)")
    problem = planted_problem(tmp_path, LABELLED[0],
                              LABELLED[1].replace(", loser: odjęta przegranemu", ""),
                              "$.options.catch_to.labels_pl", "{winner")
    assert problem.message == "labels_pl has no label for value 'loser'"
    problem = planted_problem(tmp_path, LABELLED[0],
                              LABELLED[1].split("\n    labels_pl")[0],
                              "$.options.catch_to", "catch_to:")
    assert problem.message == "option 'catch_to' has label_pl but no labels_pl (give both)"


def test_labels_reach_the_option_model() -> None:
    lakes = load_variant("pijanowski").options["lake_rule"]
    assert lakes.label_pl and set(lakes.labels_pl) == set(lakes.values)
    double = load_variant("pijanowski").options["double_set"]
    assert set(double.labels_pl) == {False, True}


def test_each_option_value_must_resolve_to_a_valid_variant(tmp_path: Path) -> None:
    # The bad value only appears once long_match=true is chosen: reported at that value.
    problem = planted_problem(tmp_path, "true: {match.target: 150}", "true: {match.target: -1}",
                              "$.options.long_match.values[1]", "true]", alone=True)
    assert problem.message.startswith("with long_match=true: $.match.target: -1 is less than")


def test_rule_ids_are_unique_in_a_file(tmp_path: Path) -> None:
    path, text = plant(tmp_path, "  - id: R-MIN-02\n", "  - id: R-MIN-01\n")
    problem = only(check_variant_file(path), "$.rules[1].id")
    first_line, _ = position(text, "id: R-MIN-01")
    line, col = position(text, "id: R-MIN-01", occurrence=2)
    assert (problem.line, problem.col) == (line, col + len("id: "))
    assert problem.message == (
        f"rule id 'R-MIN-01' is defined twice in this file (first at line {first_line})")


def test_rule_ids_are_unique_across_the_spec(tmp_path: Path) -> None:
    taken = common_rules()[0].id
    path, text = plant(tmp_path, "  - id: R-MIN-01\n", f"  - id: {taken}\n")
    problem = only(check_variant_file(path), "$.rules[0].id")
    assert (problem.line, problem.col) == position(text, f"{taken}\n")
    assert f"rule id {taken!r} is already defined in " in problem.message
    assert "common.yaml" in problem.message


def test_rule_id_pattern(tmp_path: Path) -> None:
    problem = planted_problem(tmp_path, "  - id: R-MIN-04\n", "  - id: R-MIN-4\n",
                              "$.rules[3].id", "R-MIN-4\n")
    assert "'R-MIN-4' is not in the expected form" in problem.message


def test_a_key_that_belongs_to_another_kind(tmp_path: Path) -> None:
    problem = planted_problem(tmp_path, "parity: {policy: none}",
                              "parity: {policy: none, blank_rule: R-MIN-02}",
                              "$.turn.parity.blank_rule", "blank_rule")
    assert problem.message == "unknown key 'blank_rule' (allowed here: policy, rule)"


def test_bad_tile_key(tmp_path: Path) -> None:
    problem = planted_problem(tmp_path, 'tiles: {"0-0": 30', 'tiles: {"6-0": 30',
                              "$.scoring.terms[2].tiles['6-0']", '"6-0"')
    assert "low half first" in problem.message


def test_common_file_checks(tmp_path: Path) -> None:
    text = (
        "spec_version: 1\n"
        "notation: {grammar: x, forms: [{name: draw, pattern: p, examples: [drw], meaning: m}],\n"
        "           sort_order: {kinds: [draw], key: k, meaning: m}}\n"
        "rules:\n"
        "  - {id: R-ALL-90, title: T, kind: rule, statement: S}\n"
    )
    path = tmp_path / "common.yaml"
    path.write_text(text, encoding="utf-8")
    problems = check_common_file(path)
    example = only(problems, "$.notation.forms[0].examples[0]")
    assert (example.line, example.col) == position(text, "drw")
    missing = only(problems, "$.rules[0]")
    assert (missing.line, missing.col) == position(text, "{id: R-ALL-90")
    assert missing.message == "missing required key 'source'"
    assert len(problems) == 2


# ---------------------------------------------------------------- the command


def test_exit_codes_and_output_format(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                      ) -> None:
    assert run_spec_check([str(FIXTURE)]) == 0
    assert capsys.readouterr().out == "spec check: 1 files, 0 problems\n"

    bad, text = plant(tmp_path, "draw: {policy: free,", "draw: {policy: freely,")
    assert run_spec_check([str(FIXTURE), str(bad)]) == 1
    line, col = position(text, "freely")
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(f"{bad}:{line}:{col}: $.turn.draw.policy: 'freely' is not one")
    assert lines[1:] == ["spec check: 2 files, 1 problems"]


WEIRD_INPUTS: dict[str, bytes] = {
    "binary.yaml": b"\x00\xff\xfe\x00binary",
    "empty.yaml": b"",
    "list.yaml": b"- a\n- b\n",
    "latin1.yaml": "id: été\n".encode("latin-1"),
    "scalar.yaml": b"just text\n",
    "two_documents.yaml": b"a: 1\n---\nb: 2\n",
    "deep.yaml": b"[" * 5000 + b"]" * 5000,
    "self_alias.yaml": b"a: &x [*x]\n",
    "python_tag.yaml": b"a: !!python/object:os.system x\n",
    "complex_key.yaml": b"? [a]\n: 1\n",
    "control_char.yaml": b"a: \x07\n",
    "tab.yaml": b"a:\tb\n\tc: 1\n",
}


@pytest.mark.parametrize("name", sorted(WEIRD_INPUTS))
def test_weird_input_is_one_problem_not_a_traceback(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / name
    path.write_bytes(WEIRD_INPUTS[name])
    assert run_spec_check([str(path)]) == 1
    out = capsys.readouterr().out
    assert "Traceback" not in out and "internal error" not in out
    lines = out.splitlines()
    assert len(lines) == 2, out
    assert lines[0].startswith(f"{path}:")
    assert lines[1] == "spec check: 1 files, 1 problems"


def test_missing_file_and_directory_are_a_usage_error_each(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "nope.yaml"
    assert run_spec_check([str(missing), str(tmp_path), str(FIXTURE)]) == 4
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.splitlines() == [
        f"dominokit spec check: {missing}: no such file",
        f"dominokit spec check: {tmp_path}: is a directory, not a YAML file",
    ]


def test_command_line_never_prints_a_traceback(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_bytes(b"\xff\xfe{{{")
    env = dict(os.environ)
    result = subprocess.run(
        [sys.executable, "-m", "dominokit.conformance", "spec", "check", str(bad),
         str(FIXTURE)],
        capture_output=True, text=True, env=env, timeout=120, check=False,
    )
    assert result.returncode == 1
    assert "Traceback" not in result.stdout + result.stderr
    assert result.stdout.splitlines()[-1] == "spec check: 2 files, 1 problems"


# ---------------------------------------------------------------- loader and options


def test_positions_from_text() -> None:
    document = load_yaml_with_marks("a:\n  b: [1, {c: 2}]\n", "t.yaml")
    assert document.problems == []
    assert document.data == {"a": {"b": [1, {"c": 2}]}}
    # "  b: [1, {c: 2}]": '1' is column 7, key 'c' column 11, its value 2 column 14.
    assert document.position(("a", "b", 1, "c")) == (2, 14)
    assert document.position(("a", "b", 1, "c"), key=True) == (2, 11)
    assert document.position(("a", "b", 0)) == (2, 7)


def test_load_variant_raises_with_every_problem(tmp_path: Path) -> None:
    path, _ = plant(tmp_path, "  starter: alternate\n  rule: R-MIN-01\n", "  rule: R-MIN-09\n")
    with pytest.raises(SpecError) as caught:
        load_variant(path)
    assert [p.message for p in caught.value.problems] == [
        "missing required key 'starter'",
        "rule 'R-MIN-09' is not defined in this file or in spec/common.yaml",
    ]
    assert str(caught.value).startswith(f"{path}:")
    with pytest.raises(SpecError, match="no bundled variant 'nosuch'"):
        load_variant("nosuch")


def test_resolve_fills_defaults_and_substitutes_option_values() -> None:
    variant = load_variant(FIXTURE)
    resolved = variant.resolve(None)
    assert resolved.options == {"hand_size": 5, "long_match": False, "catch_to": "winner"}
    assert resolved.config["setup"]["hand_size"] == 5
    assert resolved.config["scoring"]["terms"][2]["to"] == "winner"
    assert resolved.config["match"]["target"] == 100
    assert variant.data["setup"]["hand_size"] == {"option": "hand_size"}  # data untouched


def test_resolve_coerces_cli_strings_and_applies_overrides() -> None:
    variant = load_variant(FIXTURE)
    resolved = variant.resolve({"hand_size": "7", "long_match": "TRUE", "catch_to": "Loser"})
    assert resolved.options == {"hand_size": 7, "long_match": True, "catch_to": "loser"}
    assert resolved.config["setup"]["hand_size"] == 7
    assert resolved.config["scoring"]["terms"][2]["to"] == "loser"
    assert resolved.config["match"]["target"] == 150  # the long_match=true override
    assert variant.data["match"]["target"] == 100


def test_resolve_refuses_unknown_options_and_values() -> None:
    variant = load_variant(FIXTURE)
    with pytest.raises(OptionError, match="'minimal' has no option 'hand'.*hand_size"):
        variant.resolve({"hand": 5})
    with pytest.raises(OptionError, match="'hand_size' does not allow 6; allowed values: 5, 7"):
        variant.resolve({"hand_size": 6})
    with pytest.raises(OptionError, match="'long_match' does not allow 1"):
        variant.resolve({"long_match": 1})  # 1 is not true, even though 1 == True in Python
    with pytest.raises(OptionError, match="'minimal'"):
        variant.resolve({"catch_to": "nobody"})


# ---------------------------------------------------------------- any mutation


LEAVES = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 200), st.text(max_size=6),
    st.sampled_from(["R-MIN-01", "R-ZZZ-01", "0-0", "chain", "winner", "match.target"]),
    st.sampled_from([{"option": "hand_size"}, {"option": "nope"}, {"option": 3}, [], {}, [{}]]),
)


def _node_paths(node: object, path: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    found = [path]
    if isinstance(node, dict):
        for key, value in node.items():
            found.extend(_node_paths(value, (*path, key)))
    elif isinstance(node, list):
        for index, item in enumerate(node):
            found.extend(_node_paths(item, (*path, index)))
    return found


@given(st.data())
def test_any_mutation_is_reported_never_raised(
    tmp_path_factory: pytest.TempPathFactory, data: st.DataObject
) -> None:
    """Replace or delete up to three nodes of the fixture: the checker reports problems, and a
    file it passes always loads and resolves with every option value."""
    document = yaml.safe_load(BASE)
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(_node_paths(document)[1:]))
        parent = document
        for step in path[:-1]:
            parent = parent[step]
        if data.draw(st.booleans()):
            parent[path[-1]] = data.draw(LEAVES)
        else:
            del parent[path[-1]]
    target = tmp_path_factory.mktemp("mutant") / "minimal.yaml"
    target.write_text(yaml.safe_dump(document, allow_unicode=True), encoding="utf-8")
    problems = check_variant_file(target)
    assert all(isinstance(p, SpecProblem) and p.line >= 1 and p.col >= 1 for p in problems)
    if not problems:
        variant = load_variant(target)
        for name, spec in variant.options.items():
            for value in spec.values:
                variant.resolve({name: value})
