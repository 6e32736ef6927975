"""The ``dominokit`` command: a thin argparse layer over the reference engine and the kit.

Each subcommand calls one function that returns an exit status; this module parses and checks
the arguments, and gives every command the same behaviour at its edges: pytest's exit statuses
(``ExitStatus``, usage errors included, where argparse alone would exit 2), one clear line
instead of a traceback for the project's own errors, SIGTERM and SIGHUP handled like Ctrl-C,
and a reader that goes away (``dominokit ... | head``) costing neither a traceback nor the
true exit status.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import os
import sys
import traceback
from collections.abc import Callable, Iterator, Sequence
from typing import Any, NoReturn, TextIO, cast

from dominokit.conformance.commands.signals import stop_signals
from dominokit.conformance.exit_status import ExitStatus
from dominokit.reference.errors import DominokitError

EXIT_STATUS_HELP = """\
exit status (the same for every command, as pytest's):
  0 ok              everything passed (or ended as the expectations file says)
  1 failed          the run finished and found failures (never a count of them)
  2 interrupted     stopped by Ctrl-C, SIGTERM or SIGHUP; the reports hold what ran
  3 internal error  a bug in dominokit
  4 usage error     bad arguments, an unreadable or unwritable file, an engine that
                    will not start: nothing was judged
  5 no cases        --variant/--only selected no case"""


class _Parser(argparse.ArgumentParser):
    """ArgumentParser whose usage errors exit 4, and whose epilog may be built on demand
    (``play --help`` reads every variant file; no other command should pay for that)."""

    epilog_factory: Callable[[], str] | None = None

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(ExitStatus.USAGE_ERROR, f"{self.prog}: error: {message}\n")

    def format_help(self) -> str:
        if self.epilog_factory is not None:
            self.epilog = self.epilog_factory()
        return super().format_help()


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    from dominokit.conformance.cases import SUITE_VERSION
    from dominokit.conformance.wire.protocol import PROTOCOL_VERSION

    try:
        package = version("dominokit")
    except PackageNotFoundError:  # run from a checkout that was never installed
        package = "(not installed)"
    return f"dominokit {package} (suite {SUITE_VERSION}, protocol {PROTOCOL_VERSION})"


def _play_epilog() -> str:
    from dominokit.conformance.commands.play import variants_help

    return variants_help() + "\n\n" + EXIT_STATUS_HELP


def _add_conform(commands: Any) -> None:
    from dominokit.conformance.cases import DEFAULT_EXAMPLES
    from dominokit.conformance.kit.driver import STARTUP_TIMEOUT
    from dominokit.conformance.kit.engines import DEFAULT_TIMEOUT
    from dominokit.conformance.run import settings
    from dominokit.conformance.run.settings import DEFAULT_MAX_ENGINE_FAILURES, DEFAULT_REPORT_DIR
    from dominokit.conformance.run.terminal import COLOUR_CHOICES

    seconds = settings.argument_type(settings.seconds)
    count = settings.argument_type(settings.count)
    conform = commands.add_parser(
        "conform", help="run the conformance suite against an engine (default: the reference)",
        epilog=EXIT_STATUS_HELP, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    conform.add_argument(
        "--engine",
        help="engine command line, or python:module:factory (default: the bundled reference, "
        "served over the protocol as a subprocess)",
    )
    select = conform.add_argument_group("what to run")
    select.add_argument("--variant", help="only cases of this variant")
    select.add_argument("--only", metavar="GLOB", action="append",
                        help="only cases whose id matches GLOB (repeatable: any of them)")
    select.add_argument("--skip", metavar="GLOB", action="append",
                        help="leave out cases whose id matches GLOB (repeatable)")
    select.add_argument("--rule", metavar="RULE", action="append",
                        help="only cases that cover this rule id, e.g. R-SZC-04 (a glob; "
                        "repeatable: any of them)")
    select.add_argument("--lf", "--last-failed", dest="lf", action="store_true",
                        help="only the cases that failed the last run with this --report-dir "
                        "(all of the selection when none did)")
    select.add_argument("--list", action="store_true",
                        help="print the selected case ids, one per line, and run nothing")
    select.add_argument(
        "--examples", type=settings.argument_type(settings.at_least_one),
        default=DEFAULT_EXAMPLES, metavar="N",
        help=f"random games per differential case (default {DEFAULT_EXAMPLES})",
    )
    select.add_argument("--seed", type=int, default=0, metavar="N", help="seed (default 0)")
    select.add_argument("--expectations", metavar="FILE", help="known departures (YAML)")
    select.add_argument(
        "--diagnose", action="store_true",
        help="after the run, run each cause's cases on the reference under every other "
        "reading of the rule it blames (the spec's alternatives, the option's other values) "
        "and say which reading the engine's answers match exactly")
    select.add_argument(
        "--since", metavar="VERSION",
        help="the suite version your engine last conformed to: failures in cases added or "
        "changed after it are counted apart, with what the changelog says about each")
    select.add_argument(
        "-j", "--workers", type=settings.argument_type(settings.workers),
        default=settings.AUTO, metavar="N",
        help="run cases in N worker processes, each with its own engine; the report is a "
        "serial run's, case for case. auto: one per usable CPU, at most one per case; 1: the "
        "serial run, for an engine that cannot run twice at once (default auto)",
    )
    limits = conform.add_argument_group("limits (the cases not run are reported as not_run)")
    limits.add_argument(
        "--timeout", type=seconds, default=DEFAULT_TIMEOUT, metavar="SECONDS",
        help=f"per-request engine timeout (default {DEFAULT_TIMEOUT:g})",
    )
    limits.add_argument(
        "--startup-timeout", type=seconds, default=STARTUP_TIMEOUT, metavar="SECONDS",
        help="how long a fresh engine process may take over its first request, start-up "
        f"included, when --timeout is shorter (default {STARTUP_TIMEOUT:g})",
    )
    limits.add_argument("--budget", type=seconds, default=None, metavar="SECONDS",
                        help="stop starting cases after this many seconds (default: none)")
    limits.add_argument(
        "--max-engine-failures", type=count,
        default=DEFAULT_MAX_ENGINE_FAILURES, metavar="N",
        help="stop after N cases in a row whose engine timed out or crashed "
        f"(default {DEFAULT_MAX_ENGINE_FAILURES}; 0: never)",
    )
    limits.add_argument("-x", "--exitfirst", dest="maxfail", action="store_const", const=1,
                        help="stop after the first failing case (--maxfail 1)")
    limits.add_argument("--maxfail", type=count, default=0, metavar="N",
                        help="stop after N failing cases (default 0: never)")
    output = conform.add_argument_group("reports")
    output.add_argument("--json", metavar="FILE",
                        help="write the JSON report here (-: standard output)")
    output.add_argument("--junitxml", metavar="FILE",
                        help="write a JUnit XML report here (-: standard output)")
    output.add_argument("--jsonl", metavar="FILE",
                        help="stream the run to FILE as JSON lines, replacing what it held: a "
                        "header record, each case's record as soon as it ends (and progress "
                        "records of long cases), a summary record at the end; to follow a "
                        "long run while it goes on (-: standard output)")
    output.add_argument("--html", metavar="FILE",
                        help="write the run as one self-contained HTML page: the summary, the "
                        "causes, every failure with its diagram and repro, filterable by "
                        "variant and kind (-: standard output)")
    output.add_argument("--markdown", metavar="FILE",
                        help="write a Markdown summary, e.g. to $GITHUB_STEP_SUMMARY "
                        "(-: standard output)")
    output.add_argument("--badges", metavar="DIR",
                        help="write one shields.io endpoint badge per variant, DIR/<variant>.json")
    output.add_argument(
        "--report-dir", default=None, metavar="DIR",
        help=f"where minimal reproducing traces are written (default {DEFAULT_REPORT_DIR})",
    )
    talk = output.add_mutually_exclusive_group()
    talk.add_argument("-q", "--quiet", dest="verbosity", action="store_const", const=-1,
                      default=0, help="print only the causes and the summary")
    talk.add_argument("-v", "--verbose", dest="verbosity", action="store_const", const=1,
                      help="print every answer in full, knock-on failures included")
    output.add_argument("--color", choices=COLOUR_CHOICES, default="auto",
                        help="colour the output: auto (a terminal without NO_COLOR), always, "
                        "never (default auto)")


def build_parser() -> argparse.ArgumentParser:
    """The whole command line's parser (tests parse with it to get every default)."""
    parser = _Parser(
        prog="dominokit",
        description="Rules, reference engine and conformance kit for four Polish domino games.",
        epilog=EXIT_STATUS_HELP, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=_version())
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    _add_conform(commands)

    play = commands.add_parser("play", help="play and print one hand with a random policy",
                               formatter_class=argparse.RawDescriptionHelpFormatter)
    play.epilog_factory = _play_epilog
    play.add_argument("variant", help="variant id (listed below)")
    play.add_argument("--seed", type=int, default=None, metavar="N")
    play.add_argument(
        "--option", action="append", default=[], metavar="K=V", help="variant option (repeatable)"
    )

    sample = commands.add_parser("sample", help="play and print one sample hand of each variant")
    sample.add_argument("--seed", type=int, default=1, metavar="N")

    commands.add_parser("engine", help="serve the reference engine over the JSON-lines protocol")

    export = commands.add_parser(
        "export", help="write the suite as test vectors (JSON) for any language's test runner")
    where = export.add_mutually_exclusive_group(required=True)
    where.add_argument("--out", metavar="DIR", help="write the vectors and manifest here")
    where.add_argument("--check", metavar="DIR",
                       help="write nothing; exit 1 if DIR differs from a fresh export")
    export.add_argument("--examples", type=int, default=None, metavar="N",
                        help="random hands per differential case (default 5; --check: "
                        "the manifest's)")
    export.add_argument("--variant", metavar="VARIANT", help="only this variant")

    spec = commands.add_parser("spec", help="work with the rule files")
    spec_commands = spec.add_subparsers(dest="spec_command", required=True, metavar="ACTION")
    check = spec_commands.add_parser("check", help="validate variant files (default: bundled)")
    check.add_argument("files", nargs="*", metavar="FILE")

    trace = commands.add_parser("trace", help="work with golden traces")
    trace_commands = trace.add_subparsers(dest="trace_command", required=True, metavar="ACTION")
    validate = trace_commands.add_parser("validate", help="schema-check and replay traces")
    validate.add_argument("files", nargs="+", metavar="FILE")
    record = trace_commands.add_parser(
        "record", help="write a trace from a deal and actions, or from a seeded random playout"
    )
    record.add_argument("--variant", required=True)
    source = record.add_mutually_exclusive_group(required=True)
    source.add_argument("--deal", metavar="FILE", help="deal as JSON (with --actions)")
    source.add_argument("--seed", type=int, metavar="N", help="random deal and random playout")
    record.add_argument("--actions", default="", help="space-separated actions in notation")
    record.add_argument("--option", action="append", default=[], metavar="K=V")
    record.add_argument("--description", default="")
    record.add_argument("--rules", default="", help="comma-separated rule ids covered")
    record.add_argument("--out", metavar="FILE", help="output file (default: stdout); an "
                        "existing file is refused unless --force is given")
    record.add_argument("--force", action="store_true",
                        help="with --out: replace an existing file (its comments are lost)")
    record.add_argument(
        "--match", action="store_true",
        help="with --seed: a whole match (kind: match) of random deals played at random",
    )
    record.add_argument(
        "--first-starter", type=int, choices=(0, 1), default=0, metavar="P",
        help="with --match: the starter of the match's first hand (default 0)",
    )
    replay = trace_commands.add_parser(
        "replay", help="replay traces or repros against an engine; report the first divergence"
    )
    replay.add_argument("files", nargs="+", metavar="FILE",
                        help="golden traces or repros (a folder: every .yaml in it)")
    replay.add_argument(
        "--engine",
        help="engine command line, or python:module:factory (default: the bundled reference, "
        "served over the protocol as a subprocess)",
    )
    from dominokit.conformance.run import settings

    replay.add_argument(
        "--timeout", type=settings.argument_type(settings.seconds), default=10.0,
        metavar="SECONDS", help="per-request engine timeout (default 10)",
    )
    replay.add_argument(
        "--html", metavar="FILE",
        help="also write one self-contained page: each trace's verdict and steps, and the "
        "table at the first divergent step, the reference's next to the engine's")
    regenerate = trace_commands.add_parser(
        "regenerate", help="re-derive traces from the reference (default: all bundled)"
    )
    regenerate.add_argument("files", nargs="*", metavar="FILE")
    regenerate.add_argument(
        "--check", action="store_true", help="change nothing; exit 1 if any trace would change"
    )
    rule = commands.add_parser(
        "rule", help="print a rule's title, statement, ruling and source words")
    rule.add_argument("rule_id", nargs="?", metavar="RULE", help="a rule id, e.g. R-SZC-04")
    rule.add_argument("--list", action="store_true", help="list every rule id with its title")
    rule.add_argument("--lang", choices=("en", "pl"), default="en",
                      help="language of the text (default en)")
    _add_perft_parser(commands)
    _add_bench_parser(commands)
    return parser


def _add_bench_parser(commands: argparse._SubParsersAction[_Parser]) -> None:
    """``dominokit bench``, from a checkout: the benchmark (``bench/``) measures the kit and
    the reference for their developers and is not part of the wheel, so an installed kit
    names the command and says where it runs."""
    try:
        from dominokit.bench.command import add_bench_parser
    except ImportError:
        commands.add_parser("bench", help="benchmarks (from a checkout of the repository)")
        return
    add_bench_parser(commands)


def _add_perft_parser(commands: argparse._SubParsersAction[_Parser]) -> None:
    """``dominokit perft``: count action sequences from a position, and record them."""
    perft = commands.add_parser(
        "perft", help="count action sequences from a position; --record adds it to the suite"
    )
    perft.add_argument("variant", help="variant id, e.g. szczerbak")
    perft.add_argument("--deal", required=True, metavar="FILE", help="deal as JSON")
    perft.add_argument("--depth", required=True, type=int, metavar="N")
    perft.add_argument("--divide", action="store_true",
                       help="also print the count per first action")
    perft.add_argument("--option", action="append", default=[], metavar="K=V")
    perft.add_argument("--actions", default="", help="actions from the deal to the position")
    perft.add_argument("--record", metavar="FILE",
                       help="add or update the position in this perft file "
                       "(conformance/perft/<variant>.yaml)")
    perft.add_argument("--name", help="with --record: the position's name (lowercase, dashes)")
    perft.add_argument("--description", default="", help="with --record: what it shows")
    perft.add_argument("--rules", default="", help="with --record: comma-separated rule ids")


def _dispatch(args: argparse.Namespace) -> int:
    if args.command == "conform":
        from dominokit.conformance.commands.conform import run_conform

        return run_conform(args)
    if args.command == "play":
        from dominokit.conformance.commands.play import run_play

        return run_play(args.variant, args.seed, args.option)
    if args.command == "sample":
        from dominokit.conformance.commands.play import run_play_all

        return run_play_all(args.seed)
    if args.command == "engine":
        from dominokit.conformance.serve.server import run_engine_server

        return run_engine_server()
    if args.command == "perft":
        from dominokit.conformance.commands.perft import run_perft

        return run_perft(args.variant, args.deal, args.depth, show_divide=args.divide,
                         option_pairs=args.option, actions=args.actions,
                         record_file=args.record, name=args.name,
                         description=args.description, rules=args.rules)
    if args.command == "bench":
        from dominokit.bench.command import run_bench

        return run_bench(args)
    if args.command == "export":
        from dominokit.conformance.export.files import run_export

        return run_export(args.out, args.check, args.examples, args.variant)
    if args.command == "rule":
        return _run_rule(args)
    if args.command == "spec":
        from dominokit.spec.speccheck import run_spec_check

        return run_spec_check(args.files)
    from dominokit.conformance.commands import trace

    if args.trace_command == "validate":
        return trace.run_trace_validate(args.files)
    if args.trace_command == "replay":
        from dominokit.conformance.commands.trace_replay import run_trace_replay

        return run_trace_replay(args.files, args.engine, args.timeout, html_path=args.html)
    if args.trace_command == "record" and args.match:
        from dominokit.conformance.commands.trace_match import run_record_match

        return run_record_match(args)
    if args.trace_command == "record":
        return trace.run_trace_record(args)
    return trace.run_trace_regenerate(args.files, check=args.check)


def _run_rule(args: argparse.Namespace) -> int:
    """``dominokit rule``: the words come from the installed spec (spec/ruletext.py)."""
    from dominokit.spec import ruletext

    if args.list:
        print(ruletext.listing(args.lang))
        return ExitStatus.OK
    if not args.rule_id:
        print("dominokit rule: give a rule id (e.g. R-SZC-04) or --list", file=sys.stderr)
        return ExitStatus.USAGE_ERROR
    try:
        words = ruletext.find(args.rule_id)
    except KeyError as error:
        print(f"dominokit rule: {error.args[0]}", file=sys.stderr)
        return ExitStatus.USAGE_ERROR
    print(words.text(args.lang))
    return ExitStatus.OK


class _PipeGuard:
    """Stands in for ``sys.stdout`` while a command runs: once the reader has gone (a broken
    pipe), output is dropped instead of raising, so the command finishes and its exit status
    stays true (a failing run piped into ``head`` still exits 1)."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self.broken = False

    def write(self, text: str) -> int:
        if not self.broken:
            try:
                return self._stream.write(text)
            except BrokenPipeError:
                self._break()
        return len(text)

    def flush(self) -> None:
        if not self.broken:
            try:
                self._stream.flush()
            except BrokenPipeError:
                self._break()

    def _break(self) -> None:
        """Point the file descriptor at /dev/null, so the interpreter's last flush is quiet."""
        self.broken = True
        with contextlib.suppress(OSError, ValueError, AttributeError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, self._stream.fileno())
            os.close(devnull)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


@contextlib.contextmanager
def _quiet_pipe() -> Iterator[None]:
    original = sys.stdout
    sys.stdout = cast(TextIO, _PipeGuard(original))
    try:
        yield
    finally:
        with contextlib.suppress(BrokenPipeError):
            sys.stdout.flush()
        sys.stdout = original


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns an ``ExitStatus`` (see ``EXIT_STATUS_HELP``)."""
    arguments = sys.argv[1:] if argv is None else list(argv)
    if arguments[:1] == ["bench"] and importlib.util.find_spec("dominokit.bench") is None:
        print("dominokit bench: the benchmark runs from a checkout of the repository "
              "(pip install -e . there); it is not part of the installed kit", file=sys.stderr)
        return ExitStatus.USAGE_ERROR
    parser = build_parser()
    try:
        args = parser.parse_args(arguments)
        if args.command == "trace" and args.trace_command == "record" \
                and args.seed is not None and args.actions:
            parser.error("trace record: --actions goes with --deal; --seed plays its own actions")
        if args.command == "trace" and args.trace_command == "record" and args.match \
                and args.seed is None:
            parser.error("trace record: --match goes with --seed (a seeded random match)")
    except SystemExit as stop:  # --help, --version, or a usage error
        return stop.code if isinstance(stop.code, int) else ExitStatus.USAGE_ERROR
    guard = contextlib.nullcontext() if args.command == "engine" else _quiet_pipe()
    try:
        with guard, stop_signals():
            return _dispatch(args)
    except DominokitError as error:
        print(f"dominokit: {error}", file=sys.stderr)
        return ExitStatus.USAGE_ERROR
    except KeyboardInterrupt:
        print("dominokit: interrupted", file=sys.stderr)
        return ExitStatus.INTERRUPTED
    except Exception:
        print("dominokit: internal error (a bug in dominokit; please report it with this):\n"
              + traceback.format_exc(), file=sys.stderr)
        return ExitStatus.INTERNAL_ERROR


if __name__ == "__main__":
    sys.exit(main())
