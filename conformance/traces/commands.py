"""The bodies of ``dominokit trace validate | record | regenerate`` (the CLI wires them).

Each returns an exit status and prints one line per problem, located by file and line; none
returns a count of failures (that would wrap at 256).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Iterator, Sequence
from importlib.resources.abc import Traversable
from pathlib import Path

from dominokit.conformance.traces.layout import dump_trace
from dominokit.conformance.traces.model import (
    JsonObject,
    bundled_trace_files,
    file_stem,
    load_trace,
)
from dominokit.conformance.traces.record import (
    cited_rules,
    record_hand,
    record_random,
    regenerate,
)
from dominokit.conformance.traces.replay import EngineLike, replay
from dominokit.reference.errors import DominokitError, OptionError, SpecError


def _expand(paths: Iterable[str]) -> Iterator[Path]:
    for name in paths:
        path = Path(name)
        if path.is_dir():
            yield from sorted(path.rglob("*.yaml"))
        else:
            yield path


def validate_file(path: Path | Traversable | str, engine: EngineLike | None = None
                  ) -> list[str]:
    """Every problem with one trace file (schema, then replay), as printable lines."""
    try:
        trace = load_trace(path)
    except SpecError as error:
        return [str(problem) for problem in error.problems]
    return [str(mismatch) for mismatch in replay(trace, engine)]


def run_trace_validate(paths: Sequence[str]) -> int:
    """``dominokit trace validate FILE...``: schema-check and replay; 1 if any fails."""
    files = list(_expand(paths))
    failed = 0
    for path in files:
        problems = validate_file(path)
        if problems:
            failed += 1
            for line in problems:
                print(line)
    print(f"{len(files)} trace(s): {len(files) - failed} ok, {failed} failed")
    return 1 if failed or not files else 0


def _options_from(pairs: Sequence[str]) -> JsonObject:
    out: JsonObject = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name:
            raise OptionError(f"option {pair!r} is not NAME=VALUE")
        out[name] = value
    return out


def _read_deal(path: Path) -> JsonObject:
    try:
        deal = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise DominokitError(f"{path}: {error.strerror or error}") from None
    except ValueError as error:
        raise DominokitError(f"{path}: not JSON: {error}") from None
    if not isinstance(deal, dict):
        raise DominokitError(f"{path}: a deal is a JSON object")
    return deal


def run_trace_record(args: argparse.Namespace) -> int:
    """``dominokit trace record``: write a trace from a deal and actions, or a seed."""
    options = _options_from(args.option)
    rules = [r.strip() for r in args.rules.split(",") if r.strip()]
    trace_id = f"{args.variant}/{file_stem(args.out)}" if args.out else None
    if args.deal is not None:
        deal = _read_deal(Path(args.deal))
        actions = args.actions.split()
        data = record_hand(args.variant, options, deal, actions,
                           args.description or "Recorded hand.", rules or ["R-ALL-03"],
                           trace_id=trace_id)
        if not rules:
            data["rules"] = cited_rules(data) or ["R-ALL-03"]
    else:
        data = record_random(args.variant, options, args.seed, args.description, rules,
                             trace_id=trace_id)
    text = dump_trace(data)
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


def run_trace_regenerate(paths: Sequence[str], check: bool) -> int:
    """``dominokit trace regenerate [--check] [FILE...]`` (default: every bundled trace).

    With ``check`` nothing is written and the exit status is 1 if any trace would change.
    """
    files: list[Path] = (list(_expand(paths)) if paths
                         else [Path(str(f)) for f in bundled_trace_files()])
    changed = 0
    errors = 0
    for path in files:
        try:
            if regenerate(path, write=not check):
                changed += 1
                print(f"{'would change' if check else 'rewrote'}: {path}")
        except SpecError as error:
            errors += 1
            print(error)
        except DominokitError as error:
            errors += 1
            print(f"{path}: {error}")
    print(f"{len(files)} trace(s): {changed} {'would change' if check else 'rewritten'}"
          + (f", {errors} failed" if errors else ""))
    return 1 if errors or (check and changed) else 0
