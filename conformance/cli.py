"""The ``dominokit`` command: a thin argparse layer over the reference engine and the kit.

Each subcommand calls one function that returns an exit status; this module only parses
arguments and turns the project's own errors into one clear line instead of a traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from dominokit.reference.errors import DominokitError

EXIT_USAGE = 2


def _build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="dominokit",
        description="Rules, reference engine and conformance kit for four Polish domino games.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    conform = commands.add_parser(
        "conform", help="run the conformance suite against an engine (default: the reference)"
    )
    conform.add_argument(
        "--engine",
        help="engine command line, or python:module:factory (default: the bundled reference, "
        "served over the protocol as a subprocess)",
    )
    conform.add_argument("--variant", help="only cases of this variant")
    conform.add_argument("--only", metavar="GLOB", help="only cases whose id matches GLOB")
    conform.add_argument("--expectations", metavar="FILE", help="known departures (YAML)")
    conform.add_argument("--json", metavar="FILE", help="write the JSON report here")
    conform.add_argument("--junitxml", metavar="FILE", help="write a JUnit XML report here")
    conform.add_argument(
        "--examples", type=int, default=25, metavar="N",
        help="random games per differential case (default 25)",
    )
    conform.add_argument("--seed", type=int, default=0, metavar="N", help="seed (default 0)")
    conform.add_argument(
        "--timeout", type=float, default=10.0, metavar="SECONDS",
        help="per-request engine timeout (default 10)",
    )
    conform.add_argument(
        "--report-dir", default="dominokit-report", metavar="DIR",
        help="where minimal reproducing traces are written (default dominokit-report)",
    )

    play = commands.add_parser("play", help="play and print one hand with a random policy")
    play.add_argument("variant", help="variant id, e.g. poldomino")
    play.add_argument("--seed", type=int, default=None, metavar="N")
    play.add_argument(
        "--option", action="append", default=[], metavar="K=V", help="variant option (repeatable)"
    )

    sample = commands.add_parser("sample", help="play and print one sample hand of each variant")
    sample.add_argument("--seed", type=int, default=1, metavar="N")

    commands.add_parser("engine", help="serve the reference engine over the JSON-lines protocol")

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
    record.add_argument("--out", metavar="FILE", help="output file (default: stdout)")
    record.add_argument(
        "--match", action="store_true",
        help="with --seed: a whole match (kind: match) of random deals played at random",
    )
    record.add_argument(
        "--first-starter", type=int, choices=(0, 1), default=0, metavar="P",
        help="with --match: the starter of the match's first hand (default 0)",
    )
    regenerate = trace_commands.add_parser(
        "regenerate", help="re-derive traces from the reference (default: all bundled)"
    )
    regenerate.add_argument("files", nargs="*", metavar="FILE")
    regenerate.add_argument(
        "--check", action="store_true", help="change nothing; exit 1 if any trace would change"
    )
    _add_perft_parser(commands)
    return parser


def _add_perft_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    perft = commands.add_parser(
        "perft", help="count action sequences from a position; --record adds it to the suite"
    )
    perft.add_argument("variant", help="variant id, e.g. szczerbak")
    perft.add_argument("--deal", required=True, metavar="FILE", help="deal as JSON")
    perft.add_argument("--depth", required=True, type=int, metavar="N")
    perft.add_argument("--divide", action="store_true", help="also print the count per first "
                       "action")
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
        from dominokit.conformance.runner import run_conform

        return run_conform(args)
    if args.command == "play":
        from dominokit.reference.play import run_play

        return run_play(args.variant, args.seed, args.option)
    if args.command == "sample":
        from dominokit.reference.play import run_play_all

        return run_play_all(args.seed)
    if args.command == "engine":
        from dominokit.conformance.server import run_engine_server

        return run_engine_server()
    if args.command == "perft":
        from dominokit.conformance.perft_cmd import run_perft

        return run_perft(args.variant, args.deal, args.depth, show_divide=args.divide,
                         option_pairs=args.option, actions=args.actions,
                         record_file=args.record, name=args.name,
                         description=args.description, rules=args.rules)
    if args.command == "spec":
        from dominokit.reference.speccheck import run_spec_check

        return run_spec_check(args.files)
    from dominokit.conformance import traces

    if args.trace_command == "validate":
        return traces.run_trace_validate(args.files)
    if args.trace_command == "record" and args.match:
        from dominokit.conformance.traces.random_match import run_record_match

        return run_record_match(args)
    if args.trace_command == "record":
        return traces.run_trace_record(args)
    return traces.run_trace_regenerate(args.files, check=args.check)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 ok, 1 failures found, 2 usage)."""
    parser = _build_parser()
    args = parser.parse_args(argv)
    if args.command == "trace" and args.trace_command == "record" and args.seed is not None \
            and args.actions:
        parser.error("trace record: --actions goes with --deal; --seed plays its own actions")
    if args.command == "trace" and args.trace_command == "record" and args.match \
            and args.seed is None:
        parser.error("trace record: --match goes with --seed (a seeded random match)")
    try:
        return _dispatch(args)
    except DominokitError as error:
        print(f"dominokit: {error}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("dominokit: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
