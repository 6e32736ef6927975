"""Replay a trace against any engine through the protocol verbs, listing every difference.

The same function checks the reference in-process and any other engine over the driver, so
it only uses the verbs every engine has, those of protocol 1 (new_hand, legal, apply, state,
new_match, next_hand, match_state). A difference is a ``Mismatch`` naming the file line of the
step that diverged. A match trace is checked after every hand that states the match, so a
wrong total is reported at the hand that made it; a perft trace is counted through the same
verbs (``traces.perft``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dominokit.conformance.traces.engine import EngineLike, reference_engine
from dominokit.conformance.traces.model import (
    HandTrace,
    JsonObject,
    Mismatch,
    Step,
    Trace,
    legal_digest,
    same_json,
    short_json,
)
from dominokit.conformance.traces.perft import replay_perft
from dominokit.conformance.wire.errors import EngineRejected


def replay(trace: Trace, engine: EngineLike | None = None) -> list[Mismatch]:
    """Play ``trace`` on ``engine`` (default: the reference) and list every difference.

    A refused action stops the replay (what follows it means nothing). Engine failures
    (crash, timeout, protocol) are not caught: the caller decides what they mean.
    """
    engine = engine or reference_engine()
    out: list[Mismatch] = []
    try:
        if trace.kind == "hand":
            hand = trace.hands[0]
            try:
                dealt = engine.new_hand(trace.variant, dict(trace.options), dict(hand.deal))
            except EngineRejected as error:
                out.append(_refused(trace, hand.line, "$.deal", "the deal", error))
                raise _Stop from None
            _check_start_state(trace, hand, dealt, out)
            _replay_hand(trace, hand, engine, out)
        elif trace.kind == "match":
            _replay_match(trace, engine, out)
        else:
            out.extend(replay_perft(trace, engine))
    except _Stop:
        pass
    return out


class _Stop(Exception):
    """Raised inside a replay once going on would only report consequences of a refusal."""


def _refused(trace: Trace, line: int, where: str, what: str, error: EngineRejected
             ) -> Mismatch:
    rule = f" ({error.rule})" if error.rule else ""
    return Mismatch(trace.path, line, where, "accepted", "refused",
                    f"engine refused {what}: {error.code}: {error.message}{rule}")


def _replay_hand(trace: Trace, hand: HandTrace, engine: EngineLike, out: list[Mismatch]
                 ) -> None:
    for step in hand.steps:
        if step.undo:
            _replay_undo(trace, step, engine, out)
            continue
        state = engine.state()
        if step.refused is not None:
            _replay_refused(trace, step, state, engine, out)
            break
        if state.get("result") is not None:
            out.append(Mismatch(trace.path, step.line, step.where, "hand running",
                                "hand over", "the hand is already over before this step"))
            raise _Stop
        if state.get("to_move") != step.player:
            out.append(Mismatch(trace.path, step.line, f"{step.where}.player", step.player,
                                state.get("to_move")))
        _check_legal(trace, step, engine.legal(), out)
        try:
            events = engine.apply(step.action)
        except EngineRejected as error:
            out.append(_refused(trace, step.line, f"{step.where}.action",
                                f"{step.action!r}", error))
            raise _Stop from None
        if not same_json(list(step.events), events):
            out.append(_event_mismatch(trace, step, events))
        if step.state is not None:
            _check_state(trace, step.line, f"{step.where}.state", step.state, engine.state(),
                         out)
    got = engine.state().get("result")
    where = f"{hand.where}.result" if hand.where != "$" else "$.result"
    if hand.result is None or got is None:
        if not same_json(hand.result, got):
            out.append(Mismatch(trace.path, hand.result_line, where, hand.result, got))
        return
    after = engine.legal()
    if after:
        out.append(Mismatch(trace.path, hand.result_line, where, [], sorted(after),
                            f"the hand is over but the engine still offers {short_json(after)}"))
    for key in sorted(set(hand.result) | set(got)):
        if not same_json(hand.result.get(key), got.get(key)):
            out.append(Mismatch(trace.path, hand.result_line, f"{where}.{key}",
                                hand.result.get(key), got.get(key)))


def _replay_undo(trace: Trace, step: Step, engine: EngineLike, out: list[Mismatch]) -> None:
    """An undo step (protocol 2): the engine's answer to ``undo`` and then to ``state`` are
    the stated state, and its ``match_state`` fits the stated match; a difference stops."""
    undo = getattr(engine, "undo", None)
    if undo is None:
        out.append(Mismatch(trace.path, step.line, step.where, "undo", "no undo verb",
                            "the trace takes an action back, and this engine has no undo"))
        raise _Stop
    assert step.state is not None
    try:
        answer = undo()
    except EngineRejected as error:
        out.append(_refused(trace, step.line, f"{step.where}.undo",
                            f"the undo of {step.action!r}", error))
        raise _Stop from None
    _check_state(trace, step.line, f"{step.where}.state", step.state, answer, out)
    _check_state(trace, step.line, f"{step.where}.state", step.state, engine.state(), out)
    if step.match is not None and _check_match(trace, step.match, engine.match_state(),
                                               step.line, f"{step.where}.match", out):
        raise _Stop


def _check_start_state(trace: Trace, hand: HandTrace, dealt: JsonObject, out: list[Mismatch]
                       ) -> None:
    if hand.start_state is not None:
        where = f"{hand.where}.start_state" if hand.where != "$" else "$.start_state"
        _check_state(trace, hand.line, where, hand.start_state, dealt, out)


def _check_state(trace: Trace, line: int, where: str, want: Mapping[str, Any],
                 got: Mapping[str, Any], out: list[Mismatch]) -> None:
    """Compare a stated hand state key by key; a difference stops the replay (every later
    answer would only show its consequences)."""
    keys = [key for key in sorted(set(want) | set(got))
            if not same_json(want.get(key), got.get(key))]
    if keys:
        out.extend(Mismatch(trace.path, line, f"{where}.{key}", want.get(key), got.get(key))
                   for key in keys)
        raise _Stop


def _replay_refused(trace: Trace, step: Step, before: JsonObject, engine: EngineLike,
                    out: list[Mismatch]) -> None:
    """A refused step: the same checks before it, then the refusal (code and rule) and a
    state left exactly as it was."""
    assert step.refused is not None
    if before.get("to_move") != step.player:
        out.append(Mismatch(trace.path, step.line, f"{step.where}.player", step.player,
                            before.get("to_move")))
    _check_legal(trace, step, engine.legal(), out)
    want = step.refused
    where = f"{step.where}.refused"
    try:
        events = engine.apply(step.action)
    except EngineRejected as error:
        got = {"code": error.code, "rule": error.rule}
        for key in ("code", "rule"):
            if want[key] != got[key]:
                out.append(Mismatch(trace.path, step.line, f"{where}.{key}", want[key], got[key],
                                    f"the engine refused {step.action!r} with {error.code} "
                                    f"({error.rule or 'no rule'}), expected {want['code']} "
                                    f"({want['rule']}): {error.message}"))
                raise _Stop from None
        after = engine.state()
        if not same_json(before, after):
            out.append(Mismatch(trace.path, step.line, where, before, after,
                                f"refusing {step.action!r} changed the engine's state"))
            raise _Stop from None
        return
    out.append(Mismatch(trace.path, step.line, where, dict(want),
                        {"accepted": step.action, "events": events},
                        f"the engine accepted {step.action!r}; expected {want['code']} "
                        f"({want['rule']})"))
    raise _Stop


def _check_legal(trace: Trace, step: Step, got: list[str], out: list[Mismatch]) -> None:
    where = f"{step.where}.legal"
    if step.legal is not None:
        missing = sorted(set(step.legal) - set(got))
        extra = sorted(set(got) - set(step.legal))
        if missing or extra:
            out.append(Mismatch(trace.path, step.line, where, sorted(step.legal), sorted(got),
                                f"legal set differs: missing {short_json(missing)}, "
                                f"extra {short_json(extra)}"))
    elif step.legal_count is not None:
        count, digest = legal_digest(got)
        if (count, digest) != (step.legal_count, step.legal_sha256):
            out.append(Mismatch(trace.path, step.line, f"{step.where}.legal_count",
                                [step.legal_count, step.legal_sha256], [count, digest],
                                f"legal set differs: expected {step.legal_count} actions "
                                f"(sha256 {str(step.legal_sha256)[:12]}...), got {count} "
                                f"(sha256 {digest[:12]}...)"))


def _event_text(event: JsonObject | None) -> str:
    """An event for a message; a list that ends before the index has "no such event"."""
    return "no such event" if event is None else short_json(event)


def _event_mismatch(trace: Trace, step: Step, got: list[JsonObject]) -> Mismatch:
    expected = list(step.events)
    index = next((i for i, (a, b) in enumerate(zip(expected, got, strict=False))
                  if not same_json(a, b)), min(len(expected), len(got)))
    want = expected[index] if index < len(expected) else None
    have = got[index] if index < len(got) else None
    detail = (f"events differ at event {index}: expected {_event_text(want)}, got "
              f"{_event_text(have)} ({len(expected)} expected, {len(got)} got)")
    return Mismatch(trace.path, step.line, f"{step.where}.events[{index}]", want, have, detail)


def _replay_match(trace: Trace, engine: EngineLike, out: list[Mismatch]) -> None:
    assert trace.first_starter is not None and trace.match is not None
    try:
        engine.new_match(trace.variant, dict(trace.options), trace.first_starter)
    except EngineRejected as error:
        out.append(_refused(trace, 1, "$.first_starter", "the match", error))
        raise _Stop from None
    _replay_prelude(trace, engine, out)
    for hand in trace.hands:
        plan = engine.match_state().get("next")
        if plan is None:
            out.append(Mismatch(trace.path, hand.line, hand.where, "another hand",
                                "match over", "the match ended before this hand"))
            raise _Stop
        if hand.plan is not None and not same_json(hand.plan, plan_of(plan)):
            out.append(Mismatch(trace.path, hand.line, f"{hand.where}.plan", hand.plan,
                                plan_of(plan)))
        try:
            dealt = engine.next_hand(dict(hand.deal))
        except EngineRejected as error:
            out.append(_refused(trace, hand.line, f"{hand.where}.deal", "the deal", error))
            raise _Stop from None
        _check_start_state(trace, hand, dealt, out)
        _replay_hand(trace, hand, engine, out)
        if hand.match is not None and _check_match(
                trace, hand.match, engine.match_state(), hand.match_line, f"{hand.where}.match",
                out):
            raise _Stop  # the hands after it would only show the consequences
    _check_match(trace, trace.match, engine.match_state(), trace.match_line, "$.match", out)


def _check_match(trace: Trace, want: Mapping[str, Any], got: Mapping[str, Any], line: int,
                 where: str, out: list[Mismatch]) -> bool:
    """Compare the fields of a match state a trace states; True if any differs."""
    before = len(out)
    for key, value in want.items():
        if not same_json(value, got.get(key)):
            out.append(Mismatch(trace.path, line, f"{where}.{key}", value, got.get(key)))
    return len(out) > before


def _replay_prelude(trace: Trace, engine: EngineLike, out: list[Mismatch]) -> None:
    """Bring the match to ``start`` by playing the prelude's hands unchecked, then compare."""
    if trace.start is None:
        return
    for hand in trace.prelude:
        try:
            engine.next_hand(dict(hand.deal))
            for action in hand.actions:
                engine.apply(action)
        except EngineRejected as error:
            out.append(_refused(trace, hand.line, hand.where, "a prelude request", error))
            raise _Stop from None
        if engine.state().get("result") is None:
            out.append(Mismatch(trace.path, hand.line, f"{hand.where}.actions", "hand over",
                                "hand running", "the prelude hand is not over after its "
                                "actions"))
            raise _Stop
    if _check_match(trace, trace.start, engine.match_state(), trace.start_line, "$.start", out):
        raise _Stop  # the prelude missed the state the trace goes on from


def plan_of(next_hand: Mapping[str, Any]) -> JsonObject:
    """The part of MatchState ``next`` a trace records: starter and hand sizes."""
    return {"starter": next_hand.get("starter"), "hand_sizes": next_hand.get("hand_sizes")}
