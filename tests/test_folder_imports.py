"""Each top-level folder has one job, and its imports show it.

``spec/`` (the rules and the code that reads and checks them) imports no other part;
``reference/`` (the engine) imports only the spec; ``conformance/`` (the kit) never imports the
rule-book builder ``docs/rulebook/``, which the kit does not need and the wheel does not ship.
The imports are read from the source with ``ast`` (plain, ``from`` and relative imports, and
``importlib.import_module("...")`` with a literal name), so nothing is executed.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent

FORBIDDEN: dict[str, tuple[str, ...]] = {
    "spec": ("dominokit.reference", "dominokit.conformance", "dominokit.rulebook"),
    "reference": ("dominokit.conformance", "dominokit.rulebook"),
    "conformance": ("dominokit.rulebook",),
}
"""For each folder, the import names its code must not use (a name and everything under it)."""


def imported_names(source: str, module: str) -> list[tuple[int, str]]:
    """Every module name ``source`` (the text of module ``module``) imports, with its line.

    ``from a import b`` yields ``a.b`` as well as ``a``, since ``b`` may be a submodule
    (``from dominokit import rulebook``); relative imports are resolved against ``module``.
    """
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = module.split(".")[: -node.level]
                base = ".".join([*package, base] if base else package)
            found.append((node.lineno, base))
            found.extend((node.lineno, f"{base}.{alias.name}") for alias in node.names)
        elif (isinstance(node, ast.Call) and node.args
              and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)
              and _called_name(node.func) in {"import_module", "__import__"}):
            found.append((node.lineno, node.args[0].value))
    return found


def _called_name(func: ast.expr) -> str:
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else ""


def _under(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def violations(folder: str) -> list[str]:
    """``file:line: imports NAME`` for each forbidden import in a top-level folder's code."""
    out: list[str] = []
    for path in sorted((REPO / folder).rglob("*.py")):
        relative = path.relative_to(REPO)
        module = ".".join(("dominokit", *relative.with_suffix("").parts))
        for line, name in imported_names(path.read_text(encoding="utf-8"), module):
            if any(_under(name, prefix) for prefix in FORBIDDEN[folder]):
                out.append(f"{relative}:{line}: imports {name}")
    return out


@pytest.mark.parametrize("folder", sorted(FORBIDDEN))
def test_a_folder_imports_only_what_its_job_needs(folder: str) -> None:
    assert (REPO / folder / "__init__.py").is_file()
    found = violations(folder)
    assert not found, f"{folder}/ must not import {', '.join(FORBIDDEN[folder])}:\n" + "\n".join(
        found)


KIT = "dominokit.conformance.x"
"""A module name of the kit, for the planted imports below."""


@pytest.mark.parametrize(("source", "module", "expected"), [
    ("import dominokit.rulebook.card", KIT, "dominokit.rulebook.card"),
    ("from dominokit import rulebook", KIT, "dominokit.rulebook"),
    ("from dominokit.rulebook.text import md", KIT, "dominokit.rulebook.text"),
    ("from ..rulebook import book", KIT, "dominokit.rulebook.book"),
    ("    from dominokit.conformance import runner", "dominokit.reference.x",
     "dominokit.conformance.run.runner"),
    ("importlib.import_module('dominokit.rulebook')", KIT, "dominokit.rulebook"),
])
def test_every_way_of_importing_is_seen(source: str, module: str, expected: str) -> None:
    text = f"def f():\n{source}\n" if source.startswith(" ") else source
    assert expected in [name for _, name in imported_names(text, module)]


def test_the_mapping_names_of_the_kit_are_not_flagged() -> None:
    names = [name for _, name in imported_names(
        "from dominokit.spec.spec import Variant\nfrom dominokit.reference import Tile\n",
        KIT)]
    assert not any(_under(name, "dominokit.rulebook") for name in names)
    assert "dominokit.spec.spec.Variant" in names
