"""Driving an engine and the reference side by side through a hand, step by step.

At every step the two must agree on the legal set (compared as sets), on the events of the
action taken, and on the state after it (canonical JSON); the first disagreement is returned as
a ``Divergence`` that names the rules involved. The same loop serves random (hypothesis) hands,
searched hands, and the hands of a match.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from dominokit.conformance.cases.compare import Blame, Divergence, legal_summary, same
from dominokit.conformance.kit.driver import Engine
from dominokit.conformance.wire.errors import EngineRejected
from dominokit.reference import HandState, apply_action, legal_actions, new_hand
from dominokit.reference.deal import Deal

Chooser = Callable[[list[str], int], str | None]
"""Picks the next action from the reference's sorted legal list at a step (None: stop)."""

MAX_STEPS = 5_000


@dataclass
class HandRun:
    """What a side-by-side hand did: the actions played and the first divergence, if any."""

    actions: list[str] = field(default_factory=list)
    divergence: Divergence | None = None
    final: HandState | None = None


def _keys(expected: Mapping[str, Any], got: Mapping[str, Any]) -> str:
    keys = sorted(k for k in set(expected) | set(got) if not same(expected.get(k),
                                                                   got.get(k)))
    return ", ".join(keys)


def check_start(want: Mapping[str, Any], got: Mapping[str, Any], blame: Blame, *,
                hand: int | None = None, in_match: bool = False) -> Divergence | None:
    """Compare the state an engine gives at the start of a hand with the reference's JSON
    (which the caller also passed to the engine verb as ``expect``)."""
    if same(want, got):
        return None
    return Divergence("state", f"the state at the start of the hand differs in "
                      f"{_keys(want, got)}", want, got,
                      blame.state(want, got, in_match=in_match), 0, hand)


def play_both(engine: Engine, ref: HandState, choose: Chooser, blame: Blame, *,
              hand: int | None = None, in_match: bool = False) -> HandRun:
    """Play one hand on both from their current (already compared) starting states."""
    run = HandRun()
    step = 0
    while True:
        ref_legal = sorted(str(a) for a in legal_actions(ref))
        got_legal = engine.legal()
        if set(ref_legal) != set(got_legal):
            missing = set(ref_legal) - set(got_legal)
            extra = set(got_legal) - set(ref_legal)
            run.divergence = Divergence(
                "legal actions", f"legal actions differ after {step} action(s): "
                + legal_summary(missing, extra), ref_legal, sorted(set(got_legal)),
                blame.legal(ref, missing, extra), step, hand)
            break
        if ref.result is not None:
            break
        action = choose(ref_legal, step)
        if action is None:
            break
        if step >= MAX_STEPS:
            raise RuntimeError(f"a hand did not end after {MAX_STEPS} actions")
        after, ref_events = apply_action(ref, action)
        want_events = [e.to_json() for e in ref_events]
        try:
            got_events = engine.apply(action, expect=want_events)
        except EngineRejected as refusal:
            run.divergence = Divergence(
                "answer", f"the engine refused {action!r}, legal for the reference, after "
                f"{step} action(s): {refusal}", {"accepted": action},
                {"refused": action, "code": refusal.code, "rule": refusal.rule},
                blame.refused(ref, action, refusal.rule), step, hand)
            break
        run.actions.append(action)
        step += 1
        if not same(want_events, got_events):
            run.divergence = Divergence(
                "events", f"the events of {action!r} (action {step}) differ", want_events,
                got_events, blame.events(want_events, got_events, after), step, hand)
            break
        want_state = after.to_json()
        got_state = engine.state(expect=want_state)
        if not same(want_state, got_state):
            run.divergence = Divergence(
                "state", f"the state after {action!r} (action {step}) differs in "
                f"{_keys(want_state, got_state)}", want_state, got_state,
                blame.state(want_state, got_state, in_match=in_match, move=(ref, action)),
                step, hand)
            break
        ref = after
    run.final = ref
    return run


def standalone(engine: Engine, variant: str, options: Mapping[str, object],
               deal: Mapping[str, Any], choose: Chooser, blame: Blame) -> HandRun:
    """Start a standalone hand on both and play it side by side."""
    ref = new_hand(blame.rules, Deal.from_json(dict(deal)))
    want = ref.to_json()
    got = engine.new_hand(variant, dict(options), dict(deal), expect=want)
    divergence = check_start(want, got, blame)
    if divergence is not None:
        return HandRun([], divergence, ref)
    return play_both(engine, ref, choose, blame)


def scripted(actions: tuple[str, ...] | list[str]) -> Chooser:
    """A chooser that plays ``actions`` in order, then stops."""

    def choose(legal: list[str], step: int) -> str | None:
        return actions[step] if step < len(actions) else None

    return choose
