"""Each top-level folder has one job, and its imports show it.

``spec/`` (the rules and the code that reads and checks them) imports no other part;
``reference/`` (the engine) imports only the spec; ``conformance/`` (the kit) never imports the
rule-book builder ``docs/rulebook/`` or the benchmark ``bench/``, which the kit does not need
and the wheel does not ship (one hook excepted: ``dominokit bench`` finds the benchmark when it
runs from a checkout). No module imports another by its bare folder name (``import
reference``): every module has exactly one name, ``dominokit.<folder>...``. And no import loop
exists anywhere in the product, at module level or inside a function, and no module is long
enough to hide several jobs (``MOST_LINES``).
The imports are read from the source with ``ast`` (plain, ``from`` and relative imports, and
``importlib.import_module("...")`` with a literal name), so nothing is executed.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

FORBIDDEN: dict[str, tuple[str, ...]] = {
    "spec": ("dominokit.reference", "dominokit.conformance", "dominokit.rulebook",
             "dominokit.bench"),
    "reference": ("dominokit.conformance", "dominokit.rulebook", "dominokit.bench"),
    "conformance": ("dominokit.rulebook", "dominokit.bench"),
    "docs/rulebook": ("dominokit.bench",),
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


ALLOWED: frozenset[tuple[str, str]] = frozenset({
    ("conformance/commands/cli.py", "dominokit.bench.command"),
    ("conformance/commands/cli.py", "dominokit.bench.command.add_bench_parser"),
    ("conformance/commands/cli.py", "dominokit.bench.command.run_bench"),
})
"""Forbidden imports allowed by name: the CLI's hook that finds ``dominokit bench`` in a
checkout (guarded, since an installed kit has no ``bench/``)."""

PRODUCT: dict[str, str] = {"spec": "spec", "reference": "reference",
                           "conformance": "conformance", "docs/rulebook": "rulebook",
                           "bench": "bench"}
"""Each code folder and the name it has under ``dominokit``."""

BARE_NAMES = frozenset({"spec", "reference", "conformance", "rulebook", "bench", "docs"})
"""Folder names that must never be imported bare (the editable install makes them
importable from a checkout, which would give every module a second name)."""

MOST_LINES = 600
"""The longest module of the product; the run loop (``run/runner.py``) has its own bound."""

RUNNER_LINES = 450


def _modules() -> dict[str, Path]:
    """Every module of the product by its one name (``dominokit.conformance.run.runner``)."""
    out: dict[str, Path] = {}
    for folder, name in PRODUCT.items():
        for path in sorted((REPO / folder).rglob("*.py")):
            parts = list(path.relative_to(REPO / folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join(["dominokit", name, *parts])] = path
    return out


def violations(folder: str) -> list[str]:
    """``file:line: imports NAME`` for each forbidden import in a top-level folder's code."""
    out: list[str] = []
    for path in sorted((REPO / folder).rglob("*.py")):
        relative = path.relative_to(REPO)
        module = ".".join(("dominokit", *relative.with_suffix("").parts))
        for line, name in imported_names(path.read_text(encoding="utf-8"), module):
            if (relative.as_posix(), name) in ALLOWED:
                continue
            if any(_under(name, prefix) for prefix in FORBIDDEN[folder]):
                out.append(f"{relative}:{line}: imports {name}")
    return out


def test_no_module_is_imported_by_its_bare_folder_name() -> None:
    found = [f"{path.relative_to(REPO)}:{line}: imports {name}"
             for module, path in _modules().items()
             for line, name in imported_names(path.read_text(encoding="utf-8"), module)
             if name.split(".")[0] in BARE_NAMES]
    assert not found, "import these as dominokit.<folder>...:\n" + "\n".join(found)


def import_graph() -> dict[str, set[str]]:
    """Which product module imports which. ``from pkg import sub`` is an import of the
    submodule ``pkg.sub`` (and of ``pkg`` only when some name it takes is not a submodule);
    imports under ``if TYPE_CHECKING:`` do not count, those inside functions do."""
    modules = _modules()
    graph: dict[str, set[str]] = {}
    for module, path in modules.items():
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        tree = ast.parse(_without_type_checking(path.read_text(encoding="utf-8")))
        needed: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                needed.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*parts, base] if base else parts)
                subs = [f"{base}.{alias.name}" for alias in node.names]
                needed.update(sub for sub in subs if sub in modules)
                if not all(sub in modules for sub in subs):
                    needed.add(base)
        graph[module] = {name for name in needed if name in modules and name != module}
    return graph


def _without_type_checking(source: str) -> str:
    """``source`` with the bodies of ``if TYPE_CHECKING:`` blocks blanked out."""
    lines = source.splitlines()
    for node in ast.walk(ast.parse(source)):
        if (isinstance(node, ast.If) and isinstance(node.test, ast.Name)
                and node.test.id == "TYPE_CHECKING"):
            for number in range(node.lineno - 1, (node.end_lineno or node.lineno)):
                lines[number] = ""
    return "\n".join(lines)


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import loops of ``graph``: its strongly connected parts of more than one module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(graph[node]):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            part = []
            while True:
                other = stack.pop()
                on_stack.discard(other)
                part.append(other)
                if other == node:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_import_loops_in_the_product() -> None:
    loops = cycles(import_graph())
    assert not loops, "import loops:\n" + "\n".join(" <-> ".join(loop) for loop in loops)


def test_a_planted_loop_is_found() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


ROOMS = ("wire", "serve", "kit", "traces", "cases", "run", "export", "commands")
"""The kit's rooms in their order: each imports only the floor (the modules at the top of
``conformance/``) and the rooms before it (``conformance/__init__.py`` says why)."""


def _room(module: str) -> str | None:
    parts = module.split(".")
    if parts[:2] != ["dominokit", "conformance"] or len(parts) < 4:
        return None
    return parts[2] if parts[2] in ROOMS else None


def test_each_room_of_the_kit_imports_only_the_rooms_before_it() -> None:
    upward = [f"{module} imports {other}"
              for module, imports in import_graph().items()
              for other in imports
              if (mine := _room(module)) is not None and (theirs := _room(other)) is not None
              and ROOMS.index(theirs) > ROOMS.index(mine)]
    assert not upward, "imports that run back up:\n" + "\n".join(sorted(upward))
    rooms = {path.name for path in (REPO / "conformance").iterdir()
             if path.is_dir() and (path / "__init__.py").is_file()}
    assert rooms == set(ROOMS), "a room of conformance/ is missing from ROOMS, or gone"


def test_no_module_is_long_enough_to_hide_several_jobs() -> None:
    lengths = {module: len(path.read_text(encoding="utf-8").splitlines())
               for module, path in _modules().items()}
    long = [f"{module}: {lines} lines" for module, lines in lengths.items()
            if lines > MOST_LINES]
    assert not long, f"modules over {MOST_LINES} lines:\n" + "\n".join(long)
    assert lengths["dominokit.conformance.run.runner"] <= RUNNER_LINES


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
    ("    from dominokit.conformance.run import runner", "dominokit.reference.x",
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
