"""The body of ``dominokit conform``: the command line turned into ``RunSettings`` once, then run.

Nothing starts before every setting is checked and the selection is known to be non-empty:
a bad value found after an hour of cases costs the hour. ``--list`` stops there, printing the
selected ids. The exit status is an ``ExitStatus``, never a count of failures.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from dominokit.conformance.cases import collect_cases
from dominokit.conformance.cases.history import version_key
from dominokit.conformance.exit_status import ExitStatus
from dominokit.conformance.kit.engines import EngineSpec, Timeouts
from dominokit.conformance.run import lastfailed, settings
from dominokit.conformance.run.expectations import load_expectations
from dominokit.conformance.run.gather import units
from dominokit.conformance.run.runner import run
from dominokit.conformance.run.settings import DEFAULT_REPORT_DIR, RunSettings
from dominokit.conformance.run.terminal import use_colour
from dominokit.conformance.run.workers import worker_count


def settings_from(args: argparse.Namespace, cases: int) -> RunSettings:
    """The run's settings from ``dominokit conform``'s parsed arguments (``cases``: how many
    pieces of work were selected, a campaign's chunks each one, which caps ``-j auto``)."""
    return RunSettings(
        engine=EngineSpec.parse(args.engine),
        variant=args.variant,
        only=tuple(args.only or ()),
        skip=tuple(args.skip or ()),
        rules=tuple(args.rule or ()),
        examples=args.examples,
        seed=args.seed,
        timeouts=Timeouts(args.timeout, args.startup_timeout),
        report_dir=Path(args.report_dir or DEFAULT_REPORT_DIR),
        json_path=_path(args.json),
        junit_path=_path(args.junitxml),
        jsonl_path=_path(args.jsonl),
        html_path=_path(args.html),
        markdown_path=_path(args.markdown),
        badge_dir=_path(args.badges),
        since=args.since,
        budget=args.budget,
        max_engine_failures=args.max_engine_failures,
        maxfail=args.maxfail,
        workers=worker_count(args.workers, cases),
        progress=True,
        color=use_colour(args.color, sys.stdout),
        verbosity=getattr(args, "verbosity", 0),
        diagnose=getattr(args, "diagnose", False),
    )


def run_conform(args: argparse.Namespace) -> int:
    """``dominokit conform``: check the settings, select the cases, run them."""
    chosen = settings_from(args, cases=1)  # checked in full before any case is collected
    chosen.check_outputs()
    if args.report_dir is not None:  # the default is needed only once a case fails
        try:
            settings.writable_dir(args.report_dir)
        except settings.SettingError as error:
            raise settings.SettingError(f"--report-dir {args.report_dir}: {error}") from None
    if args.since is not None:
        try:
            version_key(args.since)
        except ValueError as error:
            raise settings.SettingError(f"--since: {error}") from None
    expectations = load_expectations(args.expectations) if args.expectations else None
    report_dir = args.report_dir or DEFAULT_REPORT_DIR
    cases = collect_cases(chosen.variant, chosen.only, chosen.examples, chosen.seed,
                          skip=chosen.skip, rules=chosen.rules)
    if args.lf:
        failed = lastfailed.read(report_dir)
        if failed is None:
            print(f"dominokit conform: --lf: no failures recorded in {report_dir}; running the "
                  "whole selection", file=sys.stderr)
        else:
            chosen_ids = set(failed)
            cases = [case for case in cases if case.id in chosen_ids]
    if not cases:
        selection = " ".join(
            f"--{name} {value}" for name, values in
            (("variant", [args.variant] if args.variant else []), ("only", args.only or []),
             ("skip", args.skip or []), ("rule", args.rule or [])) for value in values)
        if args.lf:
            selection = f"{selection} --lf".strip()
        print(f"dominokit conform: no case matches the selection ({selection or 'all'})",
              file=sys.stderr)
        return ExitStatus.NO_CASES
    if args.list:
        for case in cases:
            print(case.id)
        return ExitStatus.OK
    chosen = settings_from(args, cases=units(cases))  # a campaign's chunks count each
    try:
        report = run(chosen, cases, expectations=expectations, err=sys.stderr)
    except KeyboardInterrupt:
        print("dominokit conform: interrupted; the reports hold what ran", file=sys.stderr)
        return ExitStatus.INTERRUPTED
    if not report.interrupted and report.error is None:
        lastfailed.write(report_dir, [record.case_id for record in report.failing()])
    if report.error is not None or report.write_errors:
        return ExitStatus.USAGE_ERROR
    return ExitStatus.OK if report.ok else ExitStatus.FAILED


def _path(value: str | None) -> Path | None:
    return None if value is None else Path(value)
