"""One mechanic vocabulary: the variant schema's enums, and the engine speaks only it.

The engine takes every mechanic name from spec/vocabulary.py, which reads the schema; here the
engine's source is read for each comparison of a mechanic field with a literal name
(``rules.draw.policy == "until_fit"``, ``mode in ("new_region", ...)``), and every name must be
one the schema allows for that mechanic, so renaming a value in the schema alone (or adding one
the engine misspells) fails here instead of in a hand that never reaches that branch.
"""

from __future__ import annotations

import ast
import copy
from pathlib import Path

import pytest

from dominokit.reference import board_plain, rules
from dominokit.spec import vocabulary as vocabulary_module
from dominokit.spec.schemas import schema
from dominokit.spec.vocabulary import MECHANICS, vocabulary

REPO = Path(__file__).resolve().parents[2]

FIELDS: dict[str, str] = {
    "kind": "table",
    "remainder": "remainder",
    "starter": "starter",
    "condition": "end",
    "term": "term",
    "to": "to",
    "mode": "lake_mode",
    "compare": "compare",
}
"""A field the engine compares, and the mechanic whose names it holds (``policy`` is read
from the attribute before it: ``rules.draw.policy`` is the draw mechanic)."""

POLICIES = {"opening": "opening", "matching": "matching", "parity": "parity", "draw": "draw",
            "pass_": "pass", "winner": "winner", "deal": "deal"}


def _mechanic(node: ast.expr) -> str | None:
    """The mechanic a compared expression holds, when it is one."""
    if isinstance(node, ast.Attribute):
        if node.attr == "policy" and isinstance(node.value, ast.Attribute):
            return POLICIES.get(node.value.attr)
        return FIELDS.get(node.attr)
    if isinstance(node, ast.Name):
        return FIELDS.get(node.id)
    return None


def _literals(node: ast.expr) -> list[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return [name for item in node.elts for name in _literals(item)]
    return []


def compared_names(source: str) -> list[tuple[int, str, str]]:
    """(line, mechanic, name) for each literal name a mechanic field is compared with."""
    found: list[tuple[int, str, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare) and len(node.comparators) == 1:
            left, right = node.left, node.comparators[0]
            for side, other in ((left, right), (right, left)):
                mechanic = _mechanic(side)
                if mechanic is not None:
                    found += [(node.lineno, mechanic, name) for name in _literals(other)]
    return found


def test_the_engine_compares_mechanics_only_with_names_the_schema_allows() -> None:
    words = vocabulary()
    checked = 0
    wrong: list[str] = []
    for path in sorted((REPO / "reference").glob("*.py")):
        for line, mechanic, name in compared_names(path.read_text(encoding="utf-8")):
            if mechanic == "table" and name not in words["table"]:
                continue  # ``kind`` is also an action's kind (board, chain, opening, ...)
            checked += 1
            if name not in words[mechanic]:
                wrong.append(f"reference/{path.name}:{line}: {mechanic} {name!r}")
    assert not wrong, "names the schema does not allow:\n" + "\n".join(wrong)
    assert checked >= 20  # the reading above does see the engine's comparisons


def test_a_misspelt_name_is_seen() -> None:
    found = compared_names('if rules.draw.policy == "until_fits":\n    pass\n'
                           'x = lakes.mode in ("new_region", "newly")\n')
    assert found == [(1, "draw", "until_fits"), (3, "lake_mode", "new_region"),
                     (3, "lake_mode", "newly")]
    assert "until_fits" not in vocabulary()["draw"]


@pytest.mark.parametrize("mechanic", sorted(MECHANICS))
def test_each_mechanic_has_one_list_in_the_schema(mechanic: str) -> None:
    names = vocabulary()[mechanic]
    assert names and len(set(names)) == len(names)


def test_the_engine_lists_are_the_schema_lists() -> None:
    # the schema as a file, read plainly: the draw policy's enum is written on the property,
    # the lake mode's under "else" (an option reference may stand in its place)
    turn = schema("variant")["properties"]["turn"]["properties"]
    assert tuple(turn["draw"]["properties"]["policy"]["enum"]) == vocabulary()["draw"]
    lakes = schema("variant")["properties"]["scoring"]["properties"]["lakes"]["properties"]
    assert tuple(lakes["mode"]["else"]["enum"]) == board_plain.LAKE_MODES
    assert vocabulary() == rules.VOCABULARY


def test_two_lists_for_one_mechanic_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    # a schema whose score terms give ``to`` two different lists is no longer one vocabulary
    planted = copy.deepcopy(schema("variant"))
    branches = planted["properties"]["scoring"]["properties"]["terms"]["items"]["allOf"]
    branches[1]["then"]["properties"]["to"]["else"]["enum"] = ["winner", "loser"]
    monkeypatch.setattr(vocabulary_module, "schema", lambda name: planted)
    vocabulary.cache_clear()
    try:
        with pytest.raises(ValueError, match="2 different value lists for the mechanic 'to'"):
            vocabulary()
    finally:
        vocabulary.cache_clear()
