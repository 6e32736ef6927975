"""`dominokit spec check`: report every problem in the rule files, one line each.

The output is ``file:line:col: $.path: message`` so editors can jump to it, followed by a
one-line summary; the exit status is 0 for a clean spec and 1 otherwise. Whatever the input
(binary, empty, not a mapping, too large, an alias bomb), the command reports problems
instead of a traceback. A path that is not a file (missing, a directory) is a usage error,
status 4, and nothing is checked, as pytest does with a missing test file.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from importlib.resources.abc import Traversable
from pathlib import Path

from dominokit.spec.errors import SpecProblem
from dominokit.spec.spec import bundled_common_file, bundled_variant_files
from dominokit.spec.speclint import check_common_file, check_variant_file

COMMON_NAME = "common.yaml"

# The values of dominokit.conformance.exit_status.ExitStatus (the reference does not import
# the kit; tests/spec/test_hostile_files.py checks they agree).
OK, FAILED, USAGE_ERROR = 0, 1, 4


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
    0 when no problem was found, 1 otherwise, and 4 (before checking anything) when a path
    is not a file.
    """
    unusable = [(path, _not_a_file(Path(path))) for path in paths]
    for path, reason in unusable:
        if reason:
            print(f"dominokit spec check: {path}: {reason}", file=sys.stderr)
    if any(reason for _, reason in unusable):
        return USAGE_ERROR
    targets = _targets(paths)
    count = 0
    for name, source in targets:
        for problem in _check_one(name, source):
            print(problem)
            count += 1
    print(f"spec check: {len(targets)} files, {count} problems")
    return OK if count == 0 else FAILED


def _not_a_file(path: Path) -> str | None:
    if path.is_dir():
        return "is a directory, not a YAML file"
    if not path.is_file():
        return "no such file" if not path.exists() else "not a regular file"
    return None
