"""Golden cases: replay each bundled trace through the engine, step by step.

A trace fixes the deal and the actions and states every answer: who acts, the legal set
(compared as a set), the events of each action and the hand's result; a match trace also the
plan of each hand and the final match state. The replay itself is ``traces.replay`` (the same
one ``dominokit trace validate`` uses); this module turns its first mismatch into an outcome
and names the rules involved, rebuilding the position of the step on both sides when needed.
That judgement (``judge``) is also what ``dominokit trace replay`` gives for any trace or repro.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from importlib.resources.abc import Traversable
from typing import Any

import yaml

from dominokit.conformance import traces
from dominokit.conformance.cases import Params
from dominokit.conformance.cases.compare import Blame, diff_text, legal_summary, unique
from dominokit.conformance.cases.jsondiff import MISSING
from dominokit.conformance.cases.model import Case, Context, Outcome
from dominokit.conformance.cases.oracle import rules_of
from dominokit.conformance.cases.shadow import Shadowed
from dominokit.conformance.kit.driver import Engine
from dominokit.conformance.wire.errors import EngineRejected
from dominokit.reference import (
    Deal,
    HandState,
    apply_action,
    finish_hand,
    legal_actions,
    new_hand,
    new_match,
    start_hand,
)

HEADER_KEYS = frozenset({"id", "description", "rules", "variant", "options"})
"""The top-level keys of a trace file a case needs before it runs (its id, what it covers
and what it requires); the rest is read, checked and replayed only when the case runs."""


@dataclass(frozen=True)
class Header:
    """What collection needs of a bundled trace, read without its steps or schema check."""

    id: str
    description: str
    rules: tuple[str, ...]
    variant: str
    options: dict[str, Any]


def cases(variant: str, params: Params) -> list[Case]:
    """One case per bundled trace of ``variant``: ``golden/<trace id>``.

    Collection reads only each file's header (a ``--list`` or an ``--only`` that selects no
    golden case never parses a step or runs the schema check); the case body loads the
    trace in full, with every check, and a bad file then errors that case alone.
    """
    out = []
    for entry in traces.bundled_trace_files(variant):
        head = header(entry)
        out.append(Case(id=f"golden/{head.id}", kind="golden", variant=variant,
                        body=partial(_run, entry), options=dict(head.options),
                        rules=head.rules, description=head.description))
    return out


def header(entry: Traversable) -> Header:
    """The header of a bundled trace file: its top-level header keys' blocks only, parsed as
    YAML. A file whose header cannot be read that way is loaded in full (and checked, so a
    bad file says what is wrong with it, as before)."""
    text = entry.read_text(encoding="utf-8")
    data = _header_data(text)
    if data is None:
        trace = traces.load_trace(entry, text)
        data = {"id": trace.id, "description": trace.description, "rules": list(trace.rules),
                "variant": trace.variant, "options": dict(trace.options)}
    return Header(id=data["id"], description=data["description"], rules=tuple(data["rules"]),
                  variant=data["variant"], options=dict(data["options"]))


_TOP_KEY = re.compile(r"([A-Za-z_][A-Za-z0-9_]*):(?:\s|$)")


def _header_data(text: str) -> dict[str, Any] | None:
    """The header keys of a trace, from the blocks of lines that start with them (a block runs
    until the next line in column 0 that is not a comment); None when not all are found with
    the expected types."""
    kept: list[str] = []
    keep = False
    for line in text.splitlines():
        if line and not line[0].isspace() and not line.startswith("#"):
            key = _TOP_KEY.match(line)
            keep = key is not None and key.group(1) in HEADER_KEYS
        if keep:
            kept.append(line)
    try:
        data = yaml.load("\n".join(kept), Loader=_LOADER)
    except yaml.YAMLError:
        return None
    if not isinstance(data, dict) or set(data) != HEADER_KEYS:
        return None
    kinds = {"id": str, "description": str, "rules": list, "variant": str, "options": dict}
    if not all(isinstance(data[key], kind) for key, kind in kinds.items()):
        return None
    return data


_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


_LOADED: dict[str, traces.Trace] = {}


def _load(entry: Traversable) -> traces.Trace:
    """A bundled trace, loaded and checked once per process (the files do not change during a
    run, and the schema check is slow); keyed by its path, since a Traversable need not hash."""
    key = str(entry)
    if key not in _LOADED:
        _LOADED[key] = traces.load_trace(entry)
    return _LOADED[key]


def _run(entry: Traversable, engine: Engine, ctx: Context) -> Outcome:
    trace = _load(entry)
    return without_undo(trace, ctx) or judge(trace, Shadowed(engine))


def without_undo(trace: traces.Trace, ctx: Context) -> Outcome | None:
    """Not applicable: a trace that takes actions back (undo steps, protocol 2), for an
    engine whose ``hello`` does not declare ``undo``."""
    if not trace.takes_back or (ctx.hello is not None and "undo" in ctx.hello.capabilities):
        return None
    return Outcome.not_applicable("the trace takes actions back with undo, and the engine "
                                  "does not declare the undo capability in hello (protocol 2)")


def judge(trace: traces.Trace, engine: Engine) -> Outcome:
    """Replay ``trace`` on ``engine`` and turn its first mismatch into an outcome: the
    golden case's verdict, and ``dominokit trace replay``'s for any trace or repro."""
    # a perft trace is walked with a shadow, so a count that differs names the position
    # whose legal list differed, as the perft case does
    walked = Shadowed(engine) if trace.kind == "perft" else None
    mismatches = traces.replay(trace, walked or engine)
    if not mismatches:
        if trace.kind == "perft" and trace.perft is not None:
            return Outcome.passed(f"perft({trace.perft.depth}) = {trace.perft.count}")
        return Outcome.passed(f"{sum(len(h.steps) for h in trace.hands)} steps replayed")
    first = mismatches[0]
    hand, step = _position(first.where)
    if trace.kind == "perft":
        rules: tuple[str, ...] = trace.rules
        step = len(trace.perft.actions) if trace.perft is not None else None
        found = walked.first_legal_difference if walked is not None else None
        if found is not None:
            missing = set(found.expected) - set(found.got)
            extra = set(found.got) - set(found.expected)
            rules = unique([*Blame(found.hand.rules).legal(found.hand, missing, extra),
                            *trace.rules])
    elif first.where.endswith(".legal_count") and step is not None:
        # a large legal set is stored only as [count, sha256]: list both sets afresh, so the
        # failure names the actions missing and extra rather than two digests
        ref = _reference_at(trace, hand, step)
        want, have = _legal_now(ref), _engine_legal(trace, hand, step, engine)
        blame = Blame(rules_of(trace.variant, trace.options))
        rules = blame.legal(ref, want - have, have - want)
        first = dataclasses.replace(
            first, expected=sorted(want), got=sorted(have),
            detail=f"legal set differs: {legal_summary(want - have, have - want)} "
                   f"({len(want)} actions expected, {len(have)} listed)")
    else:
        rules = _blame(trace, first, hand, step, engine)
        if step is not None and (".events" in first.where or ".state." in first.where):
            step += 1  # they show once the action is played, as in the differential cases
        elif ".start_state." in first.where:
            step = 0
    prelude = re.match(r"\$\.prelude\[(\d+)\]", first.where)
    if prelude is not None:  # hand numbers count the prelude's hands first
        hand = int(prelude.group(1)) - len(trace.prelude)
    elif first.where.startswith("$.start."):
        hand = -1
    elif first.where.startswith("$.match."):
        hand = len(trace.hands) - 1
    more = f" (and {len(mismatches) - 1} more mismatch(es))" if len(mismatches) > 1 else ""
    lines = [f"{first}{more}"] + [f"also: {m}" for m in mismatches[1:4]]
    return Outcome("failed", "\n".join(lines), step=step,
                   hand=(trace.hand_number(hand) or None) if trace.kind == "match" else None,
                   expected=first.expected, got=first.got,
                   diff=_diff(first),
                   rules=rules or trace.rules, repro=trace.path)


def _position(where: str) -> tuple[int, int | None]:
    """(hand index, actions played before the step) of a mismatch's JSON path."""
    hand = re.search(r"hands\[(\d+)\]", where)
    step = re.search(r"steps\[(\d+)\]", where)
    return (int(hand.group(1)) if hand else 0, int(step.group(1)) if step else None)


def _diff(first: traces.Mismatch) -> str:
    """The differing paths; an event list that ends early has "no such event" there (its
    ``expected`` or ``got`` is null in the report, which is not an event that says null)."""
    if re.search(r"\.events\[\d+\]$", first.where):
        want = MISSING if first.expected is None else first.expected
        have = MISSING if first.got is None else first.got
        return diff_text(want, have, first.where, "trace").replace(
            ": absent -> ", ": no such event -> ").replace(" -> absent", " -> no such event")
    return diff_text(first.expected, first.got, first.where, "trace")


def _blame(trace: traces.Trace, mismatch: traces.Mismatch, hand: int, step: int | None,
           engine: Engine) -> tuple[str, ...]:
    blame = Blame(rules_of(trace.variant, trace.options))
    where = mismatch.where
    expected, got = mismatch.expected, mismatch.got
    if where.endswith((".legal", ".legal_count")) and step is not None:
        ref = _reference_at(trace, hand, step)
        # a large legal set is stored as [count, sha256]: no actions to compare, so both sets
        # are listed afresh
        listed = where.endswith(".legal")
        want = set(expected) if listed and isinstance(expected, list) else _legal_now(ref)
        have = set(got) if listed and isinstance(got, list) else _engine_legal(
            trace, hand, step, engine)
        return blame.legal(ref, want - have, have - want)
    if ".events" in where:
        return blame.events([expected] if expected else [], [got] if got else [])
    if ".state." in where or ".start_state." in where:
        key = where.rsplit(".", 1)[-1]
        return blame.state({key: expected}, {key: got}, in_match=trace.kind == "match")
    if ".result" in where:
        key = where.rsplit(".", 1)[-1]
        if key == "result":
            return blame.result(_obj(expected), _obj(got))
        return blame.result({key: expected}, {key: got})
    if where.endswith(".player"):
        return blame.state({"to_move": expected}, {"to_move": got},
                           in_match=trace.kind == "match")
    if where.endswith(".plan"):
        return blame.match({"next": expected}, {"next": got})
    if ".match." in where or where.startswith("$.start."):
        key = where.rsplit(".", 1)[-1]
        stated = _stated_match(trace, where, hand)  # its rounds tell a tiebreak
        return blame.match({**stated, key: expected}, {**stated, key: got})
    if where.endswith(".action") and step is not None:
        action = trace.hands[hand].steps[step].action
        cited = re.search(r"\((R-[A-Z]+-\d+)\)$", mismatch.detail)
        return blame.refused(_reference_at(trace, hand, step), action,
                             cited.group(1) if cited else None)
    if ".refused" in where and step is not None:
        refused = trace.hands[hand].steps[step].refused or {}
        cited_rule = got.get("rule") if isinstance(got, dict) else got
        return unique([refused.get("rule"), cited_rule if ".rule" in where else None])
    return unique(end.rule for end in blame.rules.end)


def _stated_match(trace: traces.Trace, where: str, hand: int) -> dict[str, Any]:
    """The match state the trace states where a match mismatch was found."""
    if where.startswith("$.start."):
        return dict(trace.start or {})
    if where.startswith("$.match."):
        return dict(trace.match or {})
    return dict(trace.hands[hand].match or {})


def _obj(value: Any) -> dict[str, Any] | None:
    return value if isinstance(value, dict) else None


def _legal_now(state: HandState) -> set[str]:
    return {str(a) for a in legal_actions(state)}


def _reference_at(trace: traces.Trace, hand: int, step: int) -> HandState:
    """The reference's state before step ``step`` of hand ``hand`` of the trace."""
    rules = rules_of(trace.variant, trace.options)
    if trace.kind == "hand":
        state = new_hand(rules, Deal.from_json(trace.hands[0].deal))
        return _advance(state, trace.hands[0], step)
    assert trace.first_starter is not None
    match = new_match(trace.variant, trace.options, trace.first_starter)
    for before in trace.prelude:
        state = start_hand(match, Deal.from_json(before.deal))
        for action in before.actions:
            state, _ = apply_action(state, action)
        if state.result is not None:
            match, _ = finish_hand(match, state.result)
    for index, recorded in enumerate(trace.hands):
        state = start_hand(match, Deal.from_json(recorded.deal))
        if index == hand:
            return _advance(state, recorded, step)
        state = _advance(state, recorded, len(recorded.steps))
        if state.result is not None:
            match, _ = finish_hand(match, state.result)
    raise IndexError(f"trace has no hand {hand}")


def _advance(state: HandState, recorded: traces.HandTrace, steps: int) -> HandState:
    before: list[HandState] = []
    for step in recorded.steps[:steps]:
        if step.undo:
            state = before.pop()
            continue
        before.append(state)
        state, _ = apply_action(state, step.action)
    return state


def _engine_legal(trace: traces.Trace, hand: int, step: int, engine: Engine) -> set[str]:
    """The engine's legal set before the step, re-reached through the protocol (the replay
    has moved on, and a large legal set is stored in a trace only as a digest)."""
    try:
        return _reach(trace, hand, step, engine)
    except EngineRejected:
        return set()


def _reach(trace: traces.Trace, hand: int, step: int, engine: Engine) -> set[str]:
    if trace.kind == "hand":
        engine.new_hand(trace.variant, dict(trace.options), dict(trace.hands[0].deal))
    else:
        assert trace.first_starter is not None
        engine.new_match(trace.variant, dict(trace.options), trace.first_starter)
        for before in trace.prelude:
            engine.next_hand(dict(before.deal))
            for action in before.actions:
                engine.apply(action)
        for recorded in trace.hands[:hand]:
            engine.next_hand(dict(recorded.deal))
            _send(engine, recorded.steps)
        engine.next_hand(dict(trace.hands[hand].deal))
    _send(engine, trace.hands[hand].steps[:step])
    return set(engine.legal())


def _send(engine: Engine, steps: Sequence[traces.Step]) -> None:
    for earlier in steps:
        if earlier.undo:
            engine.undo()
        else:
            engine.apply(earlier.action)

