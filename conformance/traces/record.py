"""Record traces from the reference, and regenerate them: the only writer of trace data.

The recorder plays given actions (or a seeded random playout) on the reference through the
same protocol verbs a replay uses and writes down what it answers; ``regenerate`` re-derives
an existing trace from its deals and actions, so a change of engine behaviour shows up as a
diff in review, never silently. The expected values in a trace are checked by hand (its
header comment) before it is bundled.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Mapping, Sequence
from pathlib import Path
from typing import Any

from dominokit.conformance.atomic import write_text_atomically
from dominokit.conformance.traces.engine import EngineLike, reference_engine
from dominokit.conformance.traces.layout import dump_trace
from dominokit.conformance.traces.model import (
    LEGAL_LIST_MAX,
    MATCH_KEYS,
    JsonObject,
    legal_digest,
    load_trace,
)
from dominokit.conformance.traces.replay import plan_of
from dominokit.conformance.wire.errors import EngineRejected
from dominokit.reference.errors import DominokitError
from dominokit.spec import spec
from dominokit.spec.yamldoc import read_limited


def _step_head(engine: EngineLike, action: str) -> JsonObject:
    """A step's action, player and legal set before it (listed, or counted and hashed)."""
    step: JsonObject = {"action": action, "player": engine.state()["to_move"]}
    legal = engine.legal()
    if len(legal) <= LEGAL_LIST_MAX:
        step["legal"] = list(legal)
    else:
        step["legal_count"], step["legal_sha256"] = legal_digest(legal)
    return step


UNDO = "undo"
"""In the actions given to the recorder: an ``undo`` request (protocol 2) in their place,
taking back the last action not yet taken back (written as an undo step)."""


def _record_steps(engine: EngineLike, actions: Sequence[str], states: Collection[int] = (),
                  in_match: bool = False) -> list[JsonObject]:
    """The steps of ``actions`` (``UNDO``: an undo step, with the match state in a match);
    after the n-th action (n in ``states``) also the state."""
    steps: list[JsonObject] = []
    played: list[str] = []
    for index, action in enumerate(actions):
        if action == UNDO:
            if not played:
                raise DominokitError(f"step {index}: an undo with no action to take back")
            undo: JsonObject = {"undo": played.pop(), "state": _undo(engine)}
            if in_match:
                undo["match"] = _match_fields(engine.match_state())
            steps.append(undo)
            continue
        played.append(action)
        step = _step_head(engine, action)
        try:
            step["events"] = engine.apply(action)
        except EngineRejected as error:
            raise DominokitError(f"step {index} ({action!r}) is refused: {error}") from None
        if index + 1 in states:
            step["state"] = engine.state()
        steps.append(step)
    return steps


def _undo(engine: EngineLike) -> JsonObject:
    undo = getattr(engine, "undo", None)
    if undo is None:
        raise DominokitError("the recording engine has no undo")
    try:
        state: JsonObject = undo()
    except EngineRejected as error:
        raise DominokitError(f"the undo is refused: {error}") from None
    return state


def stated_states(hand: Mapping[str, Any]) -> set[int]:
    """The action counts after which a recorded hand states the state (0: after the deal)."""
    out = {index + 1 for index, step in enumerate(hand["steps"])
           if "state" in step and "undo" not in step}
    return out | ({0} if "start_state" in hand else set())


def _record_refused(engine: EngineLike, action: str) -> JsonObject:
    """The refused last step: the error the reference answers ``action`` with."""
    step = _step_head(engine, action)
    try:
        engine.apply(action)
    except EngineRejected as error:
        if error.code != "illegal_action" or error.rule is None:
            raise DominokitError(f"{action!r} is refused with {error.code}, not as an "
                                 f"illegal action citing a rule: {error}") from None
        step["refused"] = {"code": error.code, "rule": error.rule}
        return step
    raise DominokitError(f"{action!r} is legal here; a refused step must be refused")


def non_default_options(variant: str, options: Mapping[str, Any] | None) -> JsonObject:
    """``options`` coerced to their declared values, without those equal to the default."""
    loaded = spec.load_variant(variant)
    chosen = loaded.resolve(dict(options or {})).options
    return {name: value for name, value in chosen.items()
            if (options or {}).get(name) is not None and value != loaded.options[name].default}


def _canonical_deal(deal: Mapping[str, Any]) -> JsonObject:
    """The deal in its canonical JSON form (hands sorted), or DominokitError if malformed."""
    from dominokit.reference import Deal

    try:
        canonical: JsonObject = Deal.from_json(dict(deal)).to_json()
    except DominokitError:
        raise
    except (KeyError, TypeError, ValueError) as error:
        raise DominokitError(f"malformed deal: {error!r}") from None
    return canonical


def _header(trace_id: str, description: str, rules: Sequence[str], variant: str,
            options: JsonObject, note: str | None, kind: str) -> JsonObject:
    data: JsonObject = {"id": trace_id, "description": description, "rules": list(rules),
                        "variant": variant, "options": options}
    if note:
        data["note"] = note
    data["kind"] = kind
    return data


def record_hand(
    variant: str,
    options: Mapping[str, Any] | None,
    deal: Mapping[str, Any],
    actions: Sequence[str],
    description: str,
    rules: Sequence[str],
    *,
    trace_id: str | None = None,
    note: str | None = None,
    engine: EngineLike | None = None,
    refused: str | None = None,
    states: Collection[int] = (),
) -> JsonObject:
    """A hand trace as data: the reference's players, legal sets, events and result.

    The result is None when the actions stop before the hand ends (a trace may show only
    an opening). Raises DominokitError if an action is refused. ``refused`` is an action the
    reference must refuse after the others: it becomes the last step, with the error code and
    rule of the refusal. ``states`` lists the action counts after which the state is written
    too (0: right after the deal), where a repro must compare a whole state.
    """
    engine = engine or reference_engine()
    chosen = non_default_options(variant, options)
    canonical = _canonical_deal(deal)
    data = _header(trace_id or f"{variant}/recorded", description, rules, variant, chosen,
                   note, "hand")
    try:
        dealt = engine.new_hand(variant, dict(chosen), canonical)
    except EngineRejected as error:
        raise DominokitError(f"the deal is refused: {error}") from None
    data["deal"] = canonical
    if 0 in states:
        data["start_state"] = dealt
    data["steps"] = _record_steps(engine, actions, states)
    if refused is not None:
        data["steps"].append(_record_refused(engine, refused))
    data["result"] = engine.state()["result"]
    return data


def record_match(
    variant: str,
    options: Mapping[str, Any] | None,
    first_starter: int,
    hands: Sequence[tuple[Mapping[str, Any], Sequence[str]]],
    description: str,
    rules: Sequence[str],
    *,
    trace_id: str | None = None,
    note: str | None = None,
    engine: EngineLike | None = None,
    prelude: Sequence[tuple[Mapping[str, Any], Sequence[str]]] = (),
    start: bool = False,
    states: Mapping[int, Collection[int]] | None = None,
) -> JsonObject:
    """A match trace as data: for each (deal, actions) the plan, steps, result and match
    state after it, then the final match state.

    With ``prelude`` (deals and actions of the match's first hands) the trace starts from
    the match state they reach: they are written without answers, then that state as
    ``start``, and ``hands`` follow them. ``start`` writes that state without a prelude too
    (the match state ``hands`` start from). ``states`` maps an index of ``hands`` to the
    action counts after which that hand's state is written (as in ``record_hand``).
    """
    engine = engine or reference_engine()
    chosen = non_default_options(variant, options)
    data = _header(trace_id or f"{variant}/recorded-match", description, rules, variant,
                   chosen, note, "match")
    data["first_starter"] = first_starter
    engine.new_match(variant, dict(chosen), first_starter)
    if prelude:
        data["prelude"] = _play_prelude(engine, prelude)
    if prelude or start:
        data["start"] = _match_fields(engine.match_state())
    recorded: list[JsonObject] = []
    for index, (deal, actions) in enumerate(hands):
        number = len(prelude) + index
        wanted = (states or {}).get(index, ())
        plan = engine.match_state()["next"]
        if plan is None:
            raise DominokitError(f"the match is over before hand {number}")
        canonical = _canonical_deal(deal)
        try:
            dealt = engine.next_hand(canonical)
        except EngineRejected as error:
            raise DominokitError(f"hand {number}: the deal is refused: {error}") from None
        hand: JsonObject = {"plan": plan_of(plan), "deal": canonical}
        if 0 in wanted:
            hand["start_state"] = dealt
        try:
            hand["steps"] = _record_steps(engine, actions, wanted, in_match=True)
        except DominokitError as error:
            raise DominokitError(f"hand {number}: {error}") from None
        hand["result"] = engine.state()["result"]
        if hand["result"] is None:
            raise DominokitError(f"hand {number}: the actions do not finish the hand")
        hand["match"] = _match_fields(engine.match_state())
        recorded.append(hand)
    data["hands"] = recorded
    data["match"] = _match_fields(engine.match_state())
    return data


def _match_fields(state: Mapping[str, Any]) -> JsonObject:
    return {key: state[key] for key in MATCH_KEYS if key in state}


def _play_prelude(engine: EngineLike, prelude: Sequence[tuple[Mapping[str, Any], Sequence[str]]]
                  ) -> list[JsonObject]:
    out: list[JsonObject] = []
    for number, (deal, actions) in enumerate(prelude):
        canonical = _canonical_deal(deal)
        try:
            engine.next_hand(canonical)
            for action in actions:
                engine.apply(action)
        except EngineRejected as error:
            raise DominokitError(f"prelude hand {number}: refused: {error}") from None
        if engine.state()["result"] is None:
            raise DominokitError(f"prelude hand {number}: the actions do not finish the hand")
        out.append({"deal": canonical, "actions": list(actions)})
    return out


def record_perft(
    variant: str,
    options: Mapping[str, Any] | None,
    deal: Mapping[str, Any],
    actions: Sequence[str],
    depth: int,
    description: str,
    rules: Sequence[str],
    *,
    divide: Mapping[str, int] | None = None,
    trace_id: str | None = None,
    note: str | None = None,
    engine: EngineLike | None = None,
) -> JsonObject:
    """A perft trace as data: the position (deal and prefix), the depth, and the count per
    first action (``divide``, else counted on the reference) with their total."""
    from dominokit.conformance.traces.perft import RECORD_BUDGET, Refused, TooLarge, Walker

    engine = engine or reference_engine()
    chosen = non_default_options(variant, options)
    canonical = _canonical_deal(deal)
    data = _header(trace_id or f"{variant}/recorded-perft", description, rules, variant,
                   chosen, note, "perft")
    if divide is None:
        try:
            divide = Walker(engine, variant, chosen, canonical, actions,
                            RECORD_BUDGET).divide(depth)
        except Refused as refused:
            raise DominokitError(f"{refused.action!r} is refused: {refused.refusal}") from None
        except TooLarge as error:
            raise DominokitError(f"perft({depth}) is too large to count: {error}") from None
    data["deal"] = canonical
    data["actions"] = list(actions)
    data["depth"] = depth
    data["count"] = sum(divide.values())
    data["divide"] = {action: divide[action] for action in sorted(divide)}
    return data


Policy = Callable[[JsonObject, list[str], random.Random], str]


def random_policy(state: JsonObject, legal: list[str], rng: random.Random) -> str:
    """A uniform choice among the sorted legal actions (deterministic for a seeded rng)."""
    return rng.choice(sorted(legal))


def play_out(engine: EngineLike, rng: random.Random, policy: Policy = random_policy,
             limit: int = 10_000) -> list[str]:
    """Play the engine's current hand to its end with ``policy``; the actions taken."""
    actions: list[str] = []
    while engine.state().get("result") is None:
        legal = engine.legal()
        if not legal or len(actions) >= limit:
            raise DominokitError(f"the hand does not end (after {len(actions)} actions)")
        action = policy(engine.state(), legal, rng)
        engine.apply(action)
        actions.append(action)
    return actions


def _random_deal(variant: str, options: Mapping[str, Any], rng: random.Random,
                 hand_sizes: tuple[int, int]) -> JsonObject:
    """A shuffled deal from ``rng``; the starter is drawn by lot unless the widow decides."""
    from dominokit.reference import random_deal
    from dominokit.reference.rules import load_rules

    rules = load_rules(variant, options)
    deal: JsonObject = random_deal(rules, rng, hand_sizes=hand_sizes).to_json()
    return deal


def record_random(variant: str, options: Mapping[str, Any] | None, seed: int,
                  description: str = "", rules: Sequence[str] = (),
                  trace_id: str | None = None) -> JsonObject:
    """A hand trace of a seeded random deal played out by the random policy.

    A variant whose hand sizes come from the match schedule deals the match's first hand.
    Without ``rules`` the trace lists the rule ids the engine cited while playing.
    """
    rng = random.Random(seed)
    chosen = non_default_options(variant, options)
    engine = reference_engine()
    plan = engine.new_match(variant, dict(chosen), 0)["next"]
    sizes = (plan["hand_sizes"][0], plan["hand_sizes"][1])
    deal = _random_deal(variant, chosen, rng, sizes)
    engine.new_hand(variant, dict(chosen), deal)
    actions = play_out(engine, rng)
    data = record_hand(variant, chosen, deal, actions,
                       description or f"Random deal and random play, seed {seed}.",
                       rules or ["R-ALL-03"], trace_id=trace_id)
    if not rules:
        data["rules"] = cited_rules(data) or ["R-ALL-03"]
    return data


def cited_rules(data: Mapping[str, Any]) -> list[str]:
    """Every rule id the recorded events and results of a trace cite, sorted."""
    found: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "rule" and isinstance(value, str):
                    found.add(value)
                else:
                    walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk([data.get("steps"), data.get("result"), data.get("hands")])
    return sorted(found)


def _token(step: Mapping[str, Any]) -> str:
    """A recorded step as the recorder's input: its action, or ``UNDO``."""
    return UNDO if "undo" in step else str(step["action"])


def rerecord(data: Mapping[str, Any], engine: EngineLike | None = None) -> JsonObject:
    """The trace ``data`` re-derived from the reference: same deals and actions, same
    description, rules and note; fresh players, legal sets, events and results."""
    common = {"description": data["description"], "rules": data["rules"],
              "trace_id": data["id"], "note": data.get("note"), "engine": engine}
    if data["kind"] == "hand":
        steps = data["steps"]
        refused = steps[-1]["action"] if steps and "refused" in steps[-1] else None
        actions = [_token(step) for step in steps if "refused" not in step]
        return record_hand(data["variant"], data["options"], data["deal"], actions,
                           refused=refused, states=stated_states(data), **common)
    if data["kind"] == "perft":
        return record_perft(data["variant"], data["options"], data["deal"], data["actions"],
                            data["depth"], **common)
    hands = [(hand["deal"], [_token(step) for step in hand["steps"]])
             for hand in data["hands"]]
    prelude = [(hand["deal"], hand["actions"]) for hand in data.get("prelude", ())]
    states = {index: stated_states(hand) for index, hand in enumerate(data["hands"])}
    return record_match(data["variant"], data["options"], data["first_starter"], hands,
                        prelude=prelude, start="start" in data, states=states, **common)


def regenerate(path: Path | str, *, write: bool = True) -> bool:
    """Re-derive the trace at ``path`` from the reference; True if its text changes.

    The comment block at the top of the file is kept (hand arithmetic lives there); other
    comments are not. With ``write`` False nothing is written (``--check``).
    """
    path = Path(path)
    old_text = read_limited(path).decode("utf-8")
    trace = load_trace(path, old_text)
    new_text = dump_trace(rerecord(trace.data), header=leading_comments(old_text))
    if new_text == old_text:
        return False
    if write:
        write_text_atomically(path, new_text)
    return True


def leading_comments(text: str) -> str:
    """The comment lines (and blank lines between them) at the top of a YAML text."""
    lines: list[str] = []
    for line in text.splitlines():
        if line.startswith("#") or (not line.strip() and lines):
            lines.append(line)
        else:
            break
    while lines and not lines[-1].strip():
        lines.pop()
    return "\n".join(lines)
