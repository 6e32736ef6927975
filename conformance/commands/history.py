"""``python -m dominokit.conformance.commands.history [--write]``: the suite's history
(``conformance/history.json``) rebuilt from a checkout's CHANGELOG.md, cases and vectors, and
checked against the committed one (``cases.history`` says what it holds and why)."""

from __future__ import annotations

import argparse
import json
import sys
from importlib.resources import files
from pathlib import Path

from dominokit.conformance.cases import collect_cases
from dominokit.conformance.cases.history import (
    HISTORY_FILE,
    CaseInfo,
    History,
    build,
    dead_globs,
    from_json,
    parse_changelog,
    vectors_by_case,
)


def checkout_root() -> Path:
    """The repository root of a checkout (where CHANGELOG.md is)."""
    return Path(str(files("dominokit.conformance"))).resolve().parent


def current(root: Path | None = None) -> tuple[History, list[str]]:
    """The history as the checkout's changelog, cases and vectors make it now, checked
    against the committed one."""
    root = root or checkout_root()
    releases = parse_changelog((root / "CHANGELOG.md").read_text(encoding="utf-8"))
    cases = [CaseInfo(c.id, c.kind, c.variant, dict(c.options), c.rules)
             for c in collect_cases()]
    vectors = vectors_by_case(root / "conformance" / "vectors")
    committed = root / "conformance" / HISTORY_FILE
    old = from_json(json.loads(committed.read_text())) if committed.is_file() else None
    built, problems = build(cases, releases, vectors, old)
    return built, problems + dead_globs([case.id for case in cases], releases)


def render(history: History) -> str:
    return json.dumps(history.to_json(), indent=1, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    """``--write`` rebuilds conformance/history.json from a checkout; otherwise check it."""
    parser = argparse.ArgumentParser(prog="python -m dominokit.conformance.commands.history")
    parser.add_argument("--write", action="store_true", help="rewrite conformance/history.json")
    args = parser.parse_args(argv)
    history, problems = current()
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        return 1
    path = checkout_root() / "conformance" / HISTORY_FILE
    if args.write:
        path.write_text(render(history), encoding="utf-8")
        return 0
    if not path.is_file() or path.read_text(encoding="utf-8") != render(history):
        print(f"{path} is out of date: run with --write", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
