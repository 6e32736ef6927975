"""Golden traces: deals and actions with every answer an engine must give, as YAML data.

A trace (``conformance/traces/<variant>/<slug>.yaml``, schema ``trace.schema.json``) is the
conformance kit's most direct test: it names a deal, the actions played on it, and for each
action who plays it, the legal set before it and the events it gives, then the hand's result
(or, for ``kind: match``, every hand of a whole match and the final match state; for ``kind:
perft``, the counts of action sequences from one position). Traces are
written by the reference (``record_hand``), checked by hand, and replayed against any engine
through the protocol verbs (``replay``), so the same files test the reference and every other
engine. ``regenerate`` rewrites a trace from the reference in one stable layout; CI runs it
with ``check`` so that a change of behaviour shows up as a diff, never silently.

The trace files live in this package's own folder, one subfolder per variant; the code is in
small modules beside them (``model``: values and loading, ``engine``: the verbs a trace needs,
``replay``, ``record``, ``layout``: the YAML writer, ``perft``: the counting walk). It is a
format library: it imports nothing of the run, the cases or the commands (the ``dominokit
trace`` commands are in ``conformance/commands/``). It is a package rather than a
``traces.py`` next to a ``traces/`` data folder because mypy resolves such a module to the
folder.
"""

from __future__ import annotations

from dominokit.conformance.traces.engine import EngineLike, reference_engine
from dominokit.conformance.traces.layout import dump_trace
from dominokit.conformance.traces.model import (
    LEGAL_LIST_MAX,
    MATCH_KEYS,
    HandTrace,
    JsonObject,
    Mismatch,
    Perft,
    PreludeHand,
    Step,
    Trace,
    bundled_trace_files,
    bundled_traces,
    legal_digest,
    load_trace,
)
from dominokit.conformance.traces.record import (
    UNDO,
    cited_rules,
    leading_comments,
    non_default_options,
    play_out,
    random_policy,
    record_hand,
    record_match,
    record_perft,
    record_random,
    regenerate,
    rerecord,
)
from dominokit.conformance.traces.replay import replay

__all__ = [
    "LEGAL_LIST_MAX",
    "MATCH_KEYS",
    "UNDO",
    "EngineLike",
    "HandTrace",
    "JsonObject",
    "Mismatch",
    "Perft",
    "PreludeHand",
    "Step",
    "Trace",
    "bundled_trace_files",
    "bundled_traces",
    "cited_rules",
    "dump_trace",
    "leading_comments",
    "legal_digest",
    "load_trace",
    "non_default_options",
    "play_out",
    "random_policy",
    "record_hand",
    "record_match",
    "record_perft",
    "record_random",
    "reference_engine",
    "regenerate",
    "replay",
    "rerecord",
]
