"""The bodies of ``dominokit trace validate | record | regenerate`` (the CLI wires them).

Each returns an exit status and prints one line per problem, located by file and line; none
returns a count of failures (that would wrap at 256).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Iterator, Sequence
from importlib.resources.abc import Traversable
from pathlib import Path

from dominokit.conformance.atomic import write_text_atomically
from dominokit.conformance.commands.options import parse_option_pairs
from dominokit.conformance.exit_status import ExitStatus
from dominokit.conformance.traces.engine import EngineLike
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
from dominokit.conformance.traces.replay import replay
from dominokit.conformance.wire.protocol import MAX_REQUEST_LINE_BYTES, MessageError, parse_message
from dominokit.reference.errors import DominokitError, SpecError
from dominokit.spec.yamldoc import read_limited


def trace_files(paths: Iterable[str]) -> Iterator[Path]:
    """Each path given, a folder as the ``*.yaml`` files under it (sorted)."""
    for name in paths:
        path = Path(name)
        if path.is_dir():
            yield from sorted(path.rglob("*.yaml"))
        else:
            yield path


def _usage_error(command: str, message: str) -> int:
    """Print a usage error as one line on stderr; the status says nothing was judged."""
    print(f"dominokit trace {command}: {message}", file=sys.stderr)
    return ExitStatus.USAGE_ERROR


def validate_file(path: Path | Traversable | str, engine: EngineLike | None = None
                  ) -> list[str]:
    """Every problem with one trace file (schema, deals, then replay), as printable lines."""
    try:
        trace = load_trace(path)
    except SpecError as error:
        return [str(problem) for problem in error.problems]
    return [str(mismatch) for mismatch in replay(trace, engine)]


def run_trace_validate(paths: Sequence[str]) -> int:
    """``dominokit trace validate FILE...``: schema-check and replay every file.

    0 when every trace is clean, 1 when any has a problem (each printed as one located line,
    and the files after it still checked), 3 when checking one hit a bug in the kit, 4 when a
    path named on the command line is neither a file nor a folder (nothing is checked then).
    """
    unusable = [f"{name}: {_not_usable(Path(name))}" for name in paths
                if not (Path(name).is_file() or Path(name).is_dir())]
    for problem in unusable:
        _usage_error("validate", problem)
    if unusable:
        return ExitStatus.USAGE_ERROR
    files = list(trace_files(paths))
    failed = broken = 0
    for path in files:
        try:
            problems = validate_file(path)
        except Exception as error:  # noqa: BLE001 - one file's bug must not hide the others
            broken += 1
            problems = [f"{path}: internal error while checking this trace: {error!r}"]
        if problems:
            failed += 1
            for line in problems:
                print(line)
    print(f"{len(files)} trace(s): {len(files) - failed} ok, {failed} failed")
    if broken:
        return ExitStatus.INTERNAL_ERROR
    return ExitStatus.FAILED if failed or not files else ExitStatus.OK


def _not_usable(path: Path) -> str:
    return "not a regular file" if path.exists() else "no such file or directory"


def _read_deal(path: Path) -> JsonObject:
    """A deal file: one JSON object, read under the limits of a protocol request (a deal is
    sent to engines as one), so a huge or deeply nested file is refused before parsing."""
    try:
        raw = read_limited(path, MAX_REQUEST_LINE_BYTES)
    except OSError as error:
        raise DominokitError(f"{path}: {error.strerror or error}") from None
    try:
        return parse_message(raw, MAX_REQUEST_LINE_BYTES)
    except MessageError as error:
        reason = str(error).replace("line ", "file ", 1)
        raise DominokitError(f"{path}: not a deal: {reason}") from None


def _check_out(out: str) -> str | None:
    """Why ``--out`` cannot be written, checked before any work (None: it can)."""
    path = Path(out)
    if path.is_dir():
        return f"--out {out}: is a directory; give a file name such as {path / 'hand.yaml'}"
    if not path.parent.is_dir():
        return f"--out {out}: the folder {path.parent} does not exist"
    return None


def run_trace_record(args: argparse.Namespace) -> int:
    """``dominokit trace record``: write a trace from a deal and actions, or a seed.

    Bad input (an unwritable ``--out``, an unreadable or refused deal, a refused action, an
    unknown option) is one line on stderr and status 4; nothing is written then.
    """
    if args.out:
        problem = _check_out(args.out)
        if problem is not None:
            return _usage_error("record", problem)
    try:
        text = dump_trace(_record(args))
    except DominokitError as error:
        return _usage_error("record", str(error))
    if not args.out:
        sys.stdout.write(text)
        return ExitStatus.OK
    try:
        write_text_atomically(args.out, text)
    except OSError as error:
        return _usage_error("record", f"cannot write {args.out}: {error.strerror or error}")
    return ExitStatus.OK


def _record(args: argparse.Namespace) -> JsonObject:
    options = parse_option_pairs(args.option)
    rules = [r.strip() for r in args.rules.split(",") if r.strip()]
    trace_id = f"{args.variant}/{file_stem(args.out)}" if args.out else None
    if args.deal is None:
        return record_random(args.variant, options, args.seed, args.description, rules,
                             trace_id=trace_id)
    deal = _read_deal(Path(args.deal))
    actions = args.actions.split()
    data = record_hand(args.variant, options, deal, actions,
                       args.description or "Recorded hand.", rules or ["R-ALL-03"],
                       trace_id=trace_id)
    if not rules:
        data["rules"] = cited_rules(data) or ["R-ALL-03"]
    return data


def run_trace_regenerate(paths: Sequence[str], check: bool) -> int:
    """``dominokit trace regenerate [--check] [FILE...]`` (default: every bundled trace).

    With ``check`` nothing is written and the exit status is 1 if any trace would change (or
    cannot be regenerated); 4 when a named path is neither a file nor a folder.
    """
    unusable = [f"{name}: {_not_usable(Path(name))}" for name in paths
                if not (Path(name).is_file() or Path(name).is_dir())]
    for problem in unusable:
        _usage_error("regenerate", problem)
    if unusable:
        return ExitStatus.USAGE_ERROR
    files: list[Path] = (list(trace_files(paths)) if paths
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
        except OSError as error:
            errors += 1
            print(f"{path}: {error.strerror or error}")
        except UnicodeDecodeError as error:
            errors += 1
            print(f"{path}: not UTF-8 text (byte 0x{error.object[error.start]:02x} at offset "
                  f"{error.start})")
    print(f"{len(files)} trace(s): {changed} {'would change' if check else 'rewritten'}"
          + (f", {errors} failed" if errors else ""))
    return ExitStatus.FAILED if errors or (check and changed) else ExitStatus.OK
