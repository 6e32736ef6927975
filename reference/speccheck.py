"""`dominokit spec check`: report every problem in the rule files, one line each.

The output is ``file:line:col: $.path: message`` so editors can jump to it, followed by a
one-line summary; the exit status is 0 for a clean spec and 1 otherwise. Whatever the input
(binary, empty, not a mapping), the command reports problems instead of a traceback.
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib.resources.abc import Traversable
from pathlib import Path

from dominokit.reference.errors import SpecProblem
from dominokit.reference.spec import bundled_common_file, bundled_variant_files
from dominokit.reference.speclint import check_common_file, check_variant_file

COMMON_NAME = "common.yaml"


def _targets(paths: Sequence[str]) -> list[tuple[str, Path | Traversable]]:
    """(name to print, file) for each file to check; the bundled spec when none are given."""
    if paths:
        return [(path, Path(path)) for path in paths]
    bundled = [bundled_common_file(), *bundled_variant_files()]
    return [(str(entry), entry) for entry in bundled]


def _check_one(name: str, source: Path | Traversable) -> list[SpecProblem]:
    try:
        if source.name == COMMON_NAME:
            return check_common_file(source, name)
        return check_variant_file(source, name)
    except Exception as error:  # noqa: BLE001 - a checker must report, never crash
        return [SpecProblem(name, 1, 1, "$", f"internal error while checking: {error!r}")]


def run_spec_check(paths: Sequence[str]) -> int:
    """Check ``paths`` (default: spec/common.yaml and every bundled variant); print problems.

    A file named common.yaml is checked as the common rules, any other as a variant. Returns
    0 when no problem was found, 1 otherwise.
    """
    targets = _targets(paths)
    count = 0
    for name, source in targets:
        for problem in _check_one(name, source):
            print(problem)
            count += 1
    print(f"spec check: {len(targets)} files, {count} problems")
    return 0 if count == 0 else 1
