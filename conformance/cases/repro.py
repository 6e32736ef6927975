"""Minimal reproducing traces, written in the golden trace format.

When a case fails, the deal and the (shrunk) actions that led to the divergence are written as
a trace under the report directory, with every expected answer taken from the reference. The
file replays with ``dominokit trace replay --engine CMD`` (and against the reference with
``dominokit trace validate``) like a bundled golden trace, so an engine author can re-run
exactly the failing hand, and can copy it into their own test suite. Each is as short as the
failure allows: a rejection repro ends with the refused action, a match repro starts from the
match state just before the diverging hand, a perft repro holds one position's counts.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from dominokit.conformance import traces
from dominokit.conformance.cases import oracle
from dominokit.conformance.cases.model import KitNote
from dominokit.spec import spec

DESCRIPTION_MAX = 200


def repro_path(report_dir: Path, case_id: str, variant: str,
               number: int = 1) -> tuple[str, Path]:
    """(trace id, file path) for the repro trace of ``case_id``: ``repro/<variant>/<stem>``;
    the ``number``-th repro of a case that keeps several ends ``-<number>`` (from 2)."""
    kind, _, rest = case_id.partition("/")
    rest = rest.split("/", 1)[1] if "/" in rest else rest
    stem = (oracle.slug(f"{kind}-{rest}") or "repro") + (f"-{number}" if number > 1 else "")
    return f"{variant}/{stem}", report_dir / "repro" / variant / f"{stem}.yaml"


def _rules(rules: Sequence[str]) -> list[str]:
    """Rule ids a trace may list (the trace schema wants at least one existing id)."""
    out = []
    for rule_id in dict.fromkeys(rules):
        try:
            spec.rule(rule_id)
        except KeyError:
            continue
        out.append(rule_id)
    return out or ["R-ALL-03"]


def _description(text: str) -> str:
    line = " ".join(text.split())
    return line if len(line) <= DESCRIPTION_MAX else line[:DESCRIPTION_MAX - 3] + "..."


def write_hand(report_dir: Path, case_id: str, variant: str, options: Mapping[str, object],
               deal: Mapping[str, Any], actions: Sequence[str], rules: Sequence[str],
               note: str, number: int = 1) -> str | None:
    """Write a hand trace: ``deal``, ``actions``, then the reference's first legal action
    until the hand ends (a trace holds a whole hand), with the whole state stated after
    ``actions`` (where the engine diverged); returns the path written (``number``: see
    ``repro_path``)."""
    state = oracle.replay_actions(variant, options, dict(deal), tuple(actions))
    complete = [*actions, *oracle.finish_first(state)]
    trace_id, path = repro_path(report_dir, case_id, variant, number)
    data = traces.record_hand(
        variant, dict(options), dict(deal), complete,
        _description(f"Reproduces {case_id}: the engine diverges after {len(actions)} "
                     "action(s)."),
        _rules(rules), trace_id=trace_id, note=note, states={len(actions)},
    )
    return _write(path, data)


def write_rejection(report_dir: Path, case_id: str, variant: str,
                    options: Mapping[str, object], deal: Mapping[str, Any],
                    before: Sequence[str], action: str, rule: str, note: str) -> str | None:
    """Write a hand trace that plays ``before`` on ``deal`` and ends with ``action`` as a
    refused step (the reference's error code and rule); returns the path written."""
    trace_id, path = repro_path(report_dir, case_id, variant)
    data = traces.record_hand(
        variant, dict(options), dict(deal), list(before),
        _description(f"Reproduces {case_id}: after {len(before)} action(s) the engine must "
                     f"refuse {action}."),
        _rules([rule]), trace_id=trace_id, note=note, refused=action,
    )
    return _write(path, data)


def write_match(report_dir: Path, case_id: str, variant: str, options: Mapping[str, object],
                first_starter: int, hands: Sequence[tuple[Mapping[str, Any], Sequence[str]]],
                rules: Sequence[str], note: str, at_start: bool = False,
                state_at: int | None = None) -> str | None:
    """Write a match trace whose last hand of ``hands`` (deal with starter null, actions;
    each finishes its hand) is the diverging one: the hands before it are only its prelude
    (deals and actions) and the match state they reach (``at_start``: the match diverges
    before its first hand, in the state it starts from). ``state_at``: the diverging hand
    also states the whole state after that many actions; returns the path written."""
    trace_id, path = repro_path(report_dir, case_id, variant)
    where = "at the start of the match" if at_start else f"in hand {len(hands)}"
    data = traces.record_match(
        variant, dict(options), first_starter, list(hands[-1:]),
        _description(f"Reproduces {case_id}: the engine diverges {where}."),
        _rules(rules), trace_id=trace_id, note=note, prelude=list(hands[:-1]), start=True,
        states={0: {state_at}} if state_at is not None else None,
    )
    return _write(path, data)


def write_perft(report_dir: Path, case_id: str, variant: str, options: Mapping[str, object],
                deal: Mapping[str, Any], actions: Sequence[str], depth: int,
                divide: Mapping[str, int] | None, rules: Sequence[str], note: str) -> str | None:
    """Write a perft trace: the deal, the prefix ``actions``, the depth and the expected count
    per first action (``divide``; None: counted on the reference); returns the path."""
    trace_id, path = repro_path(report_dir, case_id, variant)
    data = traces.record_perft(
        variant, dict(options), dict(deal), list(actions), depth,
        _description(f"Reproduces {case_id}: perft({depth}) per first action."),
        _rules(rules), divide=divide, trace_id=trace_id, note=note,
    )
    return _write(path, data)


def _write(path: Path, data: Mapping[str, Any]) -> str | None:
    """The path written, or None (with a note on the case) when it cannot be: a full disk
    must not turn the engine's failure into an error of the kit."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(traces.dump_trace(data), encoding="utf-8")
    except OSError as error:
        warnings.warn(KitNote(f"repro trace not written to {path}: {error.strerror or error}"),
                      stacklevel=2)
        return None
    return str(path)
