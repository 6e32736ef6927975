"""The coverage gate: every rule in the spec is cited by some test, and every citation exists.

Tests cite rules with ``@pytest.mark.rule("R-POL-08", ...)``. The citations are read from the
source with ``ast`` (not by running the tests), so the gate sees every test file, including
tests that are skipped or deselected in a given run. A golden trace or a perft position that
lists a rule in its ``rules:`` is a test of that rule too (the suite replays it, and
tests/conformance/test_traces.py and tests/reference/test_perft_independent.py check it), so a game
written in YAML
alone can pass this gate with its data files and no Python.
"""

from __future__ import annotations

import ast
from importlib.resources import files
from pathlib import Path

import yaml

from dominokit.spec.spec import all_rule_ids

TESTS = Path(__file__).resolve().parents[1]
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _is_rule_marker(func: ast.expr) -> bool:
    """True for ``pytest.mark.rule`` and ``mark.rule`` (after ``from pytest import mark``)."""
    if not (isinstance(func, ast.Attribute) and func.attr == "rule"):
        return False
    owner = func.value
    return (isinstance(owner, ast.Name) and owner.id == "mark") or (
        isinstance(owner, ast.Attribute) and owner.attr == "mark")


def cited_rules(paths: list[Path]) -> dict[str, list[str]]:
    """Rule id -> the ``file:line`` places that cite it."""
    cited: dict[str, list[str]] = {}
    for path in paths:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _is_rule_marker(node.func):
                for arg in node.args:
                    assert isinstance(arg, ast.Constant) and isinstance(arg.value, str), (
                        f"{path.name}:{node.lineno}: rule ids must be string literals")
                    cited.setdefault(arg.value, []).append(f"{path.name}:{node.lineno}")
    return cited


def suite_files() -> list[Path]:
    """Every test module of the suite, in every room of tests/ (the data folders hold none)."""
    return sorted(TESTS.rglob("test_*.py"))


def data_citations() -> dict[str, list[str]]:
    """Rule id -> the golden traces and perft positions whose ``rules:`` list it."""
    cited: dict[str, list[str]] = {}
    root = files("dominokit.conformance")
    for trace in sorted((root / "traces").iterdir(), key=str):
        if not trace.is_dir():
            continue
        for path in sorted(trace.iterdir(), key=str):
            if path.name.endswith(".yaml"):
                data = yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER)
                for rule in data.get("rules") or []:
                    cited.setdefault(rule, []).append(f"golden/{data['id']}")
    for path in sorted((root / "perft").iterdir(), key=str):
        if path.name.endswith(".yaml"):
            data = yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER)
            for entry in data["positions"]:
                for rule in entry["rules"]:
                    cited.setdefault(rule, []).append(f"perft/{data['variant']}/{entry['name']}")
    return cited


def test_every_spec_rule_is_cited_by_a_test() -> None:
    cited = cited_rules(suite_files())
    by_data = data_citations()
    missing = [rule for rule in all_rule_ids() if rule not in cited and rule not in by_data]
    assert not missing, "rules no test, golden trace or perft position cites: " + ", ".join(
        missing)


def test_a_trace_or_perft_position_counts_as_a_citation() -> None:
    by_data = data_citations()
    # szczerbak/seed-example-chain lists R-SZC-04; the perft start position lists R-ALL-11.
    assert "golden/szczerbak/seed-example-chain" in by_data["R-SZC-04"]
    assert any(where.startswith("perft/") for where in by_data["R-ALL-11"])


def test_every_cited_rule_exists_in_the_spec() -> None:
    known = set(all_rule_ids())
    unknown = {rule: where for rule, where in
               [*cited_rules(suite_files()).items(), *data_citations().items()]
               if rule not in known}
    assert not unknown, "cited rules missing from the spec: " + "; ".join(
        f"{rule} ({', '.join(where)})" for rule, where in sorted(unknown.items()))


def test_the_gate_reads_markers_in_every_form(tmp_path: Path) -> None:
    sample = tmp_path / "test_sample.py"
    sample.write_text(
        "import pytest\n"
        "from pytest import mark\n"
        "pytestmark = pytest.mark.rule('R-A-01')\n"
        "@pytest.mark.rule('R-A-02', 'R-A-03')\n"
        "def test_one(): pass\n"
        "@mark.rule('R-A-04')\n"
        "def test_two(): rule('R-A-05')\n",
        encoding="utf-8")
    assert sorted(cited_rules([sample])) == ["R-A-01", "R-A-02", "R-A-03", "R-A-04"]
