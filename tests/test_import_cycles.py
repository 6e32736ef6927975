"""No module of ``spec/`` or ``reference/`` imports, directly or through others, itself.

The graph is read from the source with ``ast``: every ``import`` and ``from ... import``
anywhere in a module (inside functions too, since a deferred import is still a dependency),
except under ``if TYPE_CHECKING:``, which never runs. ``from package import name`` is an edge
to the submodule when ``name`` is one, else to the package's ``__init__``. A package's
``__init__`` importing its own modules is how a package shows its names, so the implicit
edge from a submodule to its parent package is not drawn.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
FOLDERS = ("spec", "reference")


def module_name(path: Path) -> str:
    parts = path.relative_to(REPO).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(("dominokit", *parts))


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def imports(tree: ast.AST, module: str, is_package: bool, known: set[str]) -> set[str]:
    """The modules among ``known`` that the module with this syntax tree imports."""
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _type_checking(node):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = module.split(".")
                package = package[: len(package) - node.level + (1 if is_package else 0)]
                base = ".".join([*package, base] if base else package)
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                found.add(sub if sub in known else base)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found & known


def graph(folders: tuple[str, ...] = FOLDERS) -> dict[str, set[str]]:
    paths = [path for folder in folders for path in sorted((REPO / folder).rglob("*.py"))]
    known = {module_name(path) for path in paths}
    return {
        module_name(path): imports(ast.parse(path.read_text(encoding="utf-8")),
                                   module_name(path), path.name == "__init__.py", known)
        - {module_name(path)}
        for path in paths
    }


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """One cycle per strongly connected component of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(edges.get(node, ())):
            if nxt not in index:
                connect(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            connect(node)
    return found


def test_spec_and_reference_have_no_import_cycle() -> None:
    assert cycles(graph()) == []


@pytest.mark.parametrize(("source", "expected"), [
    ("from dominokit.spec import spec", {"dominokit.spec.spec"}),
    ("def f():\n    from dominokit.spec.spec import load_variant", {"dominokit.spec.spec"}),
    ("from . import spec", {"dominokit.spec.spec"}),
    ("from .spec import load_variant", {"dominokit.spec.spec"}),
    ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import dominokit.spec.spec",
     set()),
])
def test_every_way_of_importing_is_an_edge(source: str, expected: set[str]) -> None:
    known = {"dominokit.spec", "dominokit.spec.spec", "dominokit.spec.x"}
    assert imports(ast.parse(source), "dominokit.spec.x", False, known) == expected


def test_a_planted_loop_is_found() -> None:
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(edges) == [["a", "b", "c"]]
