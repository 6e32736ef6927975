"""Invariant cases: properties of an engine's own answers, checked without the reference.

The engine plays seeded random hands, choosing among the actions it lists itself, and its
states and events must hold together: every tile of the deal stays in exactly one place, the
hand ends within a bound, turns pass as the structural rules say, and the result agrees with
the final hands and with the events that scored. An engine can fail these even where no
reference answer is at hand, and a failure says which property broke.
"""

from __future__ import annotations

import contextlib
import random
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from dominokit.conformance.cases import Params, oracle
from dominokit.conformance.cases import repro as repros
from dominokit.conformance.cases.compare import diff_text, same, unique
from dominokit.conformance.cases.model import Case, Context, Outcome
from dominokit.conformance.cases.shadow import Shadowed
from dominokit.conformance.kit.driver import Engine
from dominokit.conformance.wire.errors import EngineRejected
from dominokit.reference import DominokitError, Rules

JsonObject = dict[str, Any]


@dataclass(frozen=True)
class Problem:
    """An invariant that did not hold, after ``step`` actions."""

    message: str
    rules: tuple[str, ...]
    step: int
    expected: Any = None
    got: Any = None


@dataclass
class Playout:
    """One engine-driven hand: the deal, the actions taken, the states seen (start first)
    and the events of each action."""

    deal: JsonObject
    actions: list[str] = field(default_factory=list)
    states: list[JsonObject] = field(default_factory=list)
    events: list[list[JsonObject]] = field(default_factory=list)


Check = Callable[[Rules, Playout], Problem | None]


def _tiles_of(state: Mapping[str, Any]) -> Counter[str]:
    table = state.get("table") or {}
    placed = ([tuple(t) for t in table.get("tiles", [])] if table.get("kind") == "chain"
              else [tuple(p["pips"]) for p in table.get("placements", [])])
    return Counter([*state["hands"][0], *state["hands"][1], *state["stock"],
                    *state["out_of_play"], *(f"{min(t)}-{max(t)}" for t in placed)])


def _deal_tiles(deal: Mapping[str, Any]) -> Counter[str]:
    widow = deal.get("widow")
    extra = [f"{min(widow)}-{max(widow)}"] if widow else []
    return Counter([*deal["hands"][0], *deal["hands"][1], *deal["stock"],
                    *deal.get("out_of_play", []), *extra])


def tile_conservation(rules: Rules, play: Playout) -> Problem | None:
    """Every tile of the deal is in exactly one hand, the stock, out of play or the table."""
    want = _deal_tiles(play.deal)
    for step, state in enumerate(play.states):
        have = _tiles_of(state)
        if have != want:
            missing = sorted((want - have).elements())
            extra = sorted((have - want).elements())
            return Problem(f"tiles not conserved after {step} action(s): missing {missing}, "
                           f"extra {extra}", (rules.structural.own_tiles, rules.tiles.rule),
                           step, sorted(want.elements()), sorted(have.elements()))
    return None


def termination(rules: Rules, play: Playout) -> Problem | None:
    """The hand ends within 4 actions per tile (+10), and only an ended hand has no actions."""
    ends = tuple(end.rule for end in rules.end)
    final = play.states[-1]
    if final.get("result") is None:
        return Problem(f"the hand has not ended after {len(play.actions)} actions (bound "
                       f"{_bound(play.deal)})", ends, len(play.actions))
    return None


def _bound(deal: Mapping[str, Any]) -> int:
    return 4 * sum(_deal_tiles(deal).values()) + 10


def turn_order(rules: Rules, play: Playout) -> Problem | None:
    """The starter acts first; an action's events name the player to move; a draw and the
    extra placement keep the turn, every other action passes it (R-ALL-13)."""
    rule = rules.structural.turn_order
    first = play.states[0]
    if first.get("result") is None and first.get("to_move") != first.get("starter"):
        return Problem("the starter is not the first to move", (rule,), 0,
                       first.get("starter"), first.get("to_move"))
    for step, action in enumerate(play.actions):
        before, after = play.states[step], play.states[step + 1]
        mover = before.get("to_move")
        for event in play.events[step]:
            if "player" in event and event["player"] != mover:
                return Problem(f"action {step + 1} ({action}) by player {mover} emits an event "
                               f"of player {event['player']}", (rule,), step + 1, mover,
                               event["player"])
        if after.get("result") is not None:
            continue
        extra = bool((after.get("turn") or {}).get("extra"))
        keeps = action == "draw" or (action not in ("pass", "stop") and extra)
        want = mover if keeps else (1 - mover if isinstance(mover, int) else None)
        if after.get("to_move") != want:
            rules_hit = [rule, *([rules.extra_tile.rule] if rules.extra_tile else [])]
            return Problem(f"after action {step + 1} ({action}) player {after.get('to_move')} "
                           f"is to move, expected {want}", unique(rules_hit), step + 1,
                           want, after.get("to_move"))
    return None


def result_consistency(rules: Rules, play: Playout) -> Problem | None:
    """The end event is the last one and carries the state's result; pips are the final hands;
    each player's points are the sum of their terms; the terms and the winner follow from the
    final hands and the scoring events."""
    final = play.states[-1]
    result = final.get("result")
    if result is None:
        return None
    step = len(play.actions)
    ends = [e for events in play.events for e in events if e.get("type") == "end"]
    last = play.events[-1][-1] if play.events and play.events[-1] else None
    if len(ends) != 1 or last is None or last.get("type") != "end":
        return Problem("the hand's only end event must be the last event", tuple(
            end.rule for end in rules.end), step, 1, len(ends))
    if not same(last.get("result"), result):
        return Problem("the end event's result is not the state's result",
                       (rules.winner.rule,), step, result, last.get("result"))
    pips = [sum(_pips(t) for t in hand) for hand in final["hands"]]
    if result.get("pips") != pips:
        return Problem("result pips are not the pips left in the final hands",
                       (rules.structural.own_tiles,), step, pips, result.get("pips"))
    totals = [sum(t["points"] for t in result.get("terms", []) if t.get("player") == p)
              for p in (0, 1)]
    if result.get("points") != totals:
        return Problem("result points are not the sums of each player's terms",
                       tuple(t.rule for t in rules.terms), step, totals, result.get("points"))
    return _terms_problem(rules, play, result, pips, step) or _winner_problem(
        rules, final, result, pips, step)


def _pips(tile: str) -> int:
    low, high = tile.split("-")
    return int(low) + int(high)


def _terms_problem(rules: Rules, play: Playout, result: Mapping[str, Any], pips: list[int],
                   step: int) -> Problem | None:
    scored = [0, 0]
    for events in play.events:
        for event in events:
            if event.get("type") in ("place", "lake") and isinstance(event.get("points"), int):
                scored[event["player"]] += event["points"]
    directions = {term.term: term for term in rules.terms}
    for term in result.get("terms", []):
        spec = directions.get(term.get("term"))
        if spec is None:
            continue
        player = term.get("player")
        beneficiary = player if spec.to == "each" else result.get("winner")
        if not isinstance(beneficiary, int) or not isinstance(player, int):
            return Problem(f"term {term.get('term')} scores with no winner", (spec.rule,),
                           step, None, term)
        amount = {"opponent_pips": pips[1 - beneficiary], "own_pips": pips[beneficiary],
                  "placement_points": scored[beneficiary]}.get(spec.term)
        if amount is not None and abs(term["points"]) != amount:
            return Problem(f"term {spec.term} of player {player} is {term['points']}, but the "
                           f"hand gives {amount}", (spec.rule,), step, amount, term["points"])
    return None


def _winner_problem(rules: Rules, final: Mapping[str, Any], result: Mapping[str, Any],
                    pips: list[int], step: int) -> Problem | None:
    policy = rules.winner.policy
    if policy == "domino_or_fewer_pips":
        emptied = [p for p in (0, 1) if not final["hands"][p]]
        if result.get("reason") == "domino":
            want = emptied[0] if emptied else None
        else:
            want = None if pips[0] == pips[1] else (0 if pips[0] < pips[1] else 1)
    elif policy == "higher_hand_score":
        each = {t.term for t in rules.terms if t.to == "each"}
        scores = [sum(t["points"] for t in result.get("terms", [])
                      if t.get("term") in each and t.get("player") == p) for p in (0, 1)]
        want = None if scores[0] == scores[1] else (0 if scores[0] > scores[1] else 1)
    else:
        return None
    if result.get("winner") != want:
        return Problem(f"the winner should be {want} by the hand's end", (rules.winner.rule,),
                       step, want, result.get("winner"))
    return None


INVARIANTS: dict[str, Check] = {
    "tile-conservation": tile_conservation,
    "termination": termination,
    "turn-order": turn_order,
    "result-consistency": result_consistency,
}

COVERS: dict[str, Callable[[Rules], tuple[str, ...]]] = {
    "tile-conservation": lambda r: (r.structural.own_tiles, r.tiles.rule),
    "termination": lambda r: tuple(end.rule for end in r.end),
    "turn-order": lambda r: (r.structural.turn_order,
                             *((r.extra_tile.rule,) if r.extra_tile else ())),
    "result-consistency": lambda r: (*(end.rule for end in r.end), r.winner.rule,
                                     r.structural.own_tiles, *(t.rule for t in r.terms)),
}
"""The rules each invariant checks: those its failures name."""


def cases(variant: str, params: Params) -> list[Case]:
    """``invariants/<variant>/<name>`` (with ``-<options-slug>`` for non-default options)."""
    out = []
    for options in oracle.option_sets(variant):
        suffix = f"-{oracle.options_slug(options)}" if options else ""
        for name, check in INVARIANTS.items():
            out.append(Case(
                id=f"invariants/{variant}/{name}{suffix}", kind="invariants", variant=variant,
                body=partial(_run, variant, options, name, check, params), options=options,
                rules=unique(COVERS[name](oracle.rules_of(variant, options))),
                description=(check.__doc__ or name).split("\n")[0]))
    return out


def _run(variant: str, options: dict[str, object], name: str, check: Check, params: Params,
         engine: Engine, ctx: Context) -> Outcome:
    engine = Shadowed(engine)  # replies compared with the reference's, not schema-checked
    rules = oracle.rules_of(variant, options)
    sizes = oracle.hand_sizes(rules)
    hands = max(2, params.examples // 5)
    for number in range(hands):
        key = ("invariants", variant, tuple(sorted(options.items())), params.seed, number)
        if key not in ctx.memo:
            rng = random.Random(f"invariants:{variant}:{params.seed}:{number}")
            deal = oracle.deal_json(rules, rng.randrange(2**31), sizes[number % len(sizes)])
            ctx.memo[key] = _playout(engine, variant, options, deal, rng, rules)
        play, problem = ctx.memo[key]
        problem = problem or check(rules, play)
        if problem is not None:
            return _failure(ctx, f"invariants/{variant}/{name}", variant, options, play,
                            problem)
    return Outcome.passed(f"{hands} engine-driven hands")


def _playout(engine: Engine, variant: str, options: Mapping[str, object], deal: JsonObject,
             rng: random.Random, rules: Rules) -> tuple[Playout, Problem | None]:
    """Play a hand choosing among the engine's own legal actions."""
    play = Playout(deal)
    play.states.append(engine.new_hand(variant, dict(options), deal))
    bound = _bound(deal)
    ends = tuple(end.rule for end in rules.end)
    while True:
        legal = sorted(set(engine.legal()))
        over = play.states[-1].get("result") is not None
        if over:
            if legal:
                return play, Problem(f"the hand is over but the engine lists {legal[:5]}",
                                     (rules.structural.hand_over,), len(play.actions), [],
                                     legal)
            return play, None
        if not legal:
            return play, Problem("the hand is not over but the engine lists no action", ends,
                                 len(play.actions))
        if len(play.actions) >= bound:
            return play, None
        action = rng.choice(legal)
        try:
            events = engine.apply(action)
        except EngineRejected as refusal:
            return play, Problem(f"the engine refused {action!r}, which it listed as legal: "
                                 f"{refusal}", unique([refusal.rule,
                                                       rules.structural.turn_order]),
                                 len(play.actions))
        play.actions.append(action)
        play.events.append(events)
        play.states.append(engine.state())


def _failure(ctx: Context, case_id: str, variant: str, options: Mapping[str, object],
             play: Playout, problem: Problem) -> Outcome:
    path = None
    # an engine may have played an action the reference refuses: no trace can hold it
    with contextlib.suppress(ValueError, DominokitError):
        path = repros.write_hand(ctx.report_dir, case_id, variant, options, play.deal,
                                 play.actions[:problem.step], problem.rules,
                                 note=f"invariant broken here: {problem.message}")
    details = [f"actions: {' '.join(play.actions[:problem.step]) or '(none)'}"]
    return Outcome("failed", "\n".join([problem.message, *details]), step=problem.step,
                   expected=problem.expected, got=problem.got,
                   diff=diff_text(problem.expected, problem.got, "value", "invariant")
                   if problem.expected is not None or problem.got is not None else "",
                   rules=problem.rules, repro=path)
