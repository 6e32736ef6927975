"""Match cases: whole matches through ``new_match``/``next_hand``, against the reference.

The kit supplies every deal (R-ALL-03) and every action; the engine decides the starters and
keeps the score. After each hand the match states must agree (totals, sets, rounds and
tiebreaks, the next hand's starter and sizes, the winner; ``phase`` wording is free), and every
hand is compared step by step as in the differential cases. Besides a plain match for each
option setting, the kit searches the reference, hand by hand, for matches that reach what the
``match`` section of the spec makes rare: a third set, a match won two sets to nil, a total
landing exactly on the target while the other is below it (where "reaches" and "passes" the
target decide differently), a tiebreak, and a second tiebreak with the roles swapped. Each
steered match tries its seeded candidates in a fixed order and a few matches per seed, so a
given ``--seed`` always finds the same matches; a scenario still missed is reported as
"missed: <scenario>", a kit error, never a pass.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache, partial
from typing import Any, NamedTuple

from dominokit.conformance.cases import Params, oracle
from dominokit.conformance.cases import repro as repros
from dominokit.conformance.cases.compare import Blame, Divergence, same, unique
from dominokit.conformance.cases.drive import check_start, play_both, scripted
from dominokit.conformance.cases.model import Case, Context, Outcome
from dominokit.conformance.kit.driver import Engine
from dominokit.conformance.wire.errors import EngineRejected
from dominokit.reference import MatchState, finish_hand, new_match, random_deal, start_hand
from dominokit.reference.deal import Deal
from dominokit.reference.rules import Rules

JsonObject = dict[str, Any]
Pair = tuple[int, int]
Score = Callable[[MatchState, Pair], float]
"""How good a hand is for a scenario: the match before it and the points it gives (lower is
better; 0 or less means the scenario's goal is met by this hand)."""

MAX_HANDS = 300
CANDIDATES = 300
"""Deals tried at most per hand while steering a match (the first acceptable one is taken)."""
HAND_WORK = 40_000
"""Legal actions the candidates of one hand may list (bounds the costly variants)."""


@dataclass(frozen=True)
class Scenario:
    """A match to play: first starter and each hand's deal (starter null) and actions."""

    name: str
    first_starter: int
    hands: tuple[tuple[JsonObject, tuple[str, ...]], ...]
    reached: bool


def _plain(match: MatchState, points: Pair) -> float:
    return 0.0


def _stage(match: MatchState) -> int:
    """The index of the current set, round or tiebreak."""
    if match.spec.kind == "sets":
        return sum(match.sets_won)
    return len(match.rounds)


def _alternate_winners(match: MatchState, points: Pair) -> float:
    """Player 0 takes the first set or round, player 1 the second (a third set, a tiebreak)."""
    if _stage(match) >= 2:
        return -1.0
    wanted = _stage(match) % 2
    return float(points[1 - wanted] - points[wanted])


CLOSE = 25
"""A gap a single hand can close exactly: steering keeps a gap about this size until the
hand that must close it, then searches for the exact amount."""


def _closing(gap: int, last: bool) -> float:
    """Score of a gap that must reach 0 exactly, now (``last``) or later."""
    if gap == 0:
        return -2.0
    if not last and 0 < abs(gap) <= CLOSE:
        return -1.0
    return float(abs(gap))


def _level_tiebreak(match: MatchState, points: Pair) -> float:
    """Rounds as in ``_alternate_winners``, then the first tiebreak ends level."""
    regular = len(match.spec.rounds)
    stage = len(match.rounds)
    if stage < regular:
        return _alternate_winners(match, points) if stage < 2 else -1.0
    tiebreak = match.spec.tiebreak
    if stage > regular or tiebreak is None:
        return -1.0
    gap = match.totals[0] + points[0] - match.totals[1] - points[1]
    return _closing(gap, match.hand_in_stage == len(tiebreak.deals) - 1)


def _sweep(match: MatchState, points: Pair) -> float:
    """Player 0 takes every set (a match won without losing a set)."""
    if _stage(match) >= 2:
        return -1.0
    return float(points[1] - points[0])


def _target_of(match: MatchState) -> int:
    return match.spec.set_target or match.spec.target


def _on_target(target: int, totals: Pair) -> bool:
    """One total is exactly ``target`` and the other below it: only then do "reaches" and
    "passes" the target decide differently (R-POL-10, R-SZC-07, R-PIJ-10)."""
    return max(totals) == target and min(totals) < target


def _exact_target(match: MatchState, points: Pair) -> float:
    """A running total lands exactly on the set target or match target, the other below."""
    target = _target_of(match)
    reached = (match.totals[0] + points[0], match.totals[1] + points[1])
    if _on_target(target, reached):
        return -2.0
    if max(reached) > target:
        return 1e6 + max(reached)
    before = target - max(match.totals)
    if before > 2 * CLOSE:
        return -1.0
    return _closing(target - max(reached), last=before <= CLOSE)


Step = tuple[MatchState, Pair, MatchState]
"""One hand of a match: the state before it, the points it gave, the state after it."""
Reached = Callable[[list[Step]], bool]


class Landing(NamedTuple):
    """Runs of hands worth looking for from here: how many hands (``depths``, shortest
    first), what the totals after each hand but the last must satisfy (``passes``), and what
    they must be after the last (``lands``)."""

    depths: tuple[int, ...]
    passes: Callable[[Pair], bool]
    lands: Callable[[Pair], bool]


Lookahead = Callable[[MatchState, int], Landing | None]
"""The runs worth looking for before a hand, given the match and the most points one hand of
it has given so far (None: steer this hand by its score alone)."""


class Goal(NamedTuple):
    """A scenario: its steering score, the test that says it was reached, and for a goal on
    an exact total the runs of hands that land on it."""

    score: Score
    reached: Reached
    lookahead: Lookahead | None = None


LOOKAHEAD = 3
"""Hands an exact-total search looks ahead: one hand rarely scores an exact amount, but some
run of up to three hands from a few dozen candidates each nearly always adds up to it."""


def _target_landing(match: MatchState, biggest: int) -> Landing | None:
    """Once the target is within LOOKAHEAD of the biggest hands seen: up to LOOKAHEAD hands
    that keep both totals below the target, then put one exactly on it."""
    target = _target_of(match)
    if target - max(match.totals) > LOOKAHEAD * biggest:
        return None
    return Landing(tuple(range(1, LOOKAHEAD + 1)), lambda totals: max(totals) < target,
                   partial(_on_target, target))


def _level_landing(match: MatchState, biggest: int) -> Landing | None:
    """In the first tiebreak, once at most LOOKAHEAD deals are left: those deals, ending it
    level (its last deal decides nothing before)."""
    tiebreak = match.spec.tiebreak
    if tiebreak is None or len(match.rounds) != len(match.spec.rounds):
        return None
    left = len(tiebreak.deals) - match.hand_in_stage
    if left > LOOKAHEAD:
        return None
    return Landing((left,), lambda totals: True, lambda totals: totals[0] == totals[1])


def scenarios(variant: str) -> dict[str, Goal]:
    """The scenarios the variant's ``match`` section makes worth searching, each with its
    steering score and a test on the hands played that says the goal was met."""
    spec = oracle.rules_of(variant, {}).match
    out: dict[str, Goal] = {}
    if spec.kind == "sets":
        out["third-set"] = Goal(_alternate_winners, lambda steps: any(
            after.sets_won == (1, 1) for _, _, after in steps))
        out["two-nil"] = Goal(_sweep, lambda steps: any(
            after.finished and min(after.sets_won) == 0 for _, _, after in steps))
    if spec.kind in ("sets", "target"):
        target = spec.set_target or spec.target
        out["exact-target"] = Goal(_exact_target, lambda steps: any(
            _on_target(target, (before.totals[0] + p[0], before.totals[1] + p[1]))
            for before, p, _ in steps), _target_landing)
    if spec.kind == "rounds" and spec.tiebreak is not None:
        regular = len(spec.rounds)
        out["tiebreak"] = Goal(_alternate_winners, lambda steps: any(
            len(after.rounds) >= regular and not after.finished for _, _, after in steps))
        out["second-tiebreak"] = Goal(_level_tiebreak, lambda steps: any(
            len(after.rounds) >= regular + 1 and not after.finished for _, _, after in steps),
            _level_landing)
    return out


ATTEMPTS = 4
"""Matches steered (each from its own seeds) before a scenario is given up as not reached."""


@cache
def build(variant: str, options_items: tuple[tuple[str, object], ...], name: str, seed: int,
          first_starter: int) -> Scenario:
    """The first of up to ATTEMPTS steered matches that reaches the scenario (else the last)."""
    for attempt in range(ATTEMPTS):
        scenario = _steer(variant, dict(options_items), name, f"{seed}:{attempt}",
                          first_starter)
        if scenario.reached:
            break
    return scenario


Candidate = tuple[JsonObject, oracle.Played]
"""A hand tried while steering: its deal (starter null) and how the reference played it."""
PoolKey = tuple[int, int | None, tuple[int, int]]
"""A hand index with its plan's starter and hand sizes: what its candidates depend on."""


def _candidates(rules: Rules, name: str, seed: str, match: MatchState,
                index: int) -> Iterator[Candidate]:
    """The seeded hands the search tries as the match's hand ``index`` (from 0), in order;
    the same for a given seed whatever the match did before, so they can be tried ahead."""
    plan = match.plan()
    assert plan is not None
    variant, options = rules.variant_id, dict(rules.options)
    for candidate in range(CANDIDATES):
        rng = random.Random(f"match:{variant}:{name}:{seed}:{index}:{candidate}")
        deal = random_deal(rules, rng, hand_sizes=plan.hand_sizes, starter=plan.starter)
        yield _no_starter(deal), oracle.play(rules, start_hand(match, deal), oracle.uniform,
                                             rng, variant, options, _no_starter(deal))


def _steer(variant: str, options: dict[str, object], name: str, seed: str,
           first_starter: int) -> Scenario:
    """Steer a match on the reference hand by hand: for each hand try seeded deals (played by
    a random policy) and keep the one the scenario scores best; once the goal is met, the
    rest of the match is played with the first deal tried. A goal on an exact total also
    looks a few hands ahead for a run of hands that lands on it (``_landing``)."""
    rules = oracle.rules_of(variant, options)
    score, reached, lookahead = scenarios(variant).get(name, Goal(_plain, lambda steps: True))
    match = new_match(variant, options, first_starter)
    steps: list[Step] = []
    hands: list[tuple[JsonObject, tuple[str, ...]]] = []
    pools: dict[PoolKey, dict[Pair, Candidate]] = {}
    while match.plan() is not None:
        if len(hands) >= MAX_HANDS:
            raise RuntimeError(f"{variant}: match {name!r} not over after {MAX_HANDS} hands")
        steering = score is not _plain and not reached(steps)
        chosen = None
        biggest = max((max(points) for _, points, _ in steps), default=0)
        landing = lookahead(match, biggest) if steering and lookahead is not None else None
        if landing is not None:
            chosen = _landing(rules, name, seed, match, len(hands), landing, pools)
        if chosen is None:
            chosen = _best(rules, name, seed, match, len(hands), score if steering else None)
        deal_json, played = chosen
        after, _ = finish_hand(match, played.result)
        steps.append((match, played.result.points, after))
        hands.append((deal_json, played.actions))
        match = after
    return Scenario(name, first_starter, tuple(hands), reached(steps))


def _best(rules: Rules, name: str, seed: str, match: MatchState, index: int,
          score: Score | None) -> Candidate:
    """The first candidate ``score`` finds good enough (0 or less), else the best of those
    tried within the work budget; the first one when there is nothing to steer."""
    best: tuple[float, Candidate] | None = None
    work = 0
    for candidate in _candidates(rules, name, seed, match, index):
        value = score(match, candidate[1].result.points) if score is not None else 0.0
        work += candidate[1].work
        if best is None or value < best[0]:
            best = (value, candidate)
        if value <= 0 or work >= HAND_WORK:
            break
    assert best is not None
    return best[1]


POOL = 60
"""Candidates per hand looked ahead at (fewer when HAND_WORK runs out first)."""


def _landing(rules: Rules, name: str, seed: str, match: MatchState, index: int,
             landing: Landing, pools: dict[PoolKey, dict[Pair, Candidate]]) -> Candidate | None:
    """The next hand of the shortest run ``landing`` asks for, one candidate per hand; None
    when no run of the candidates tried does it. ``pools`` caches, by hand index and plan, the
    first candidate giving each distinct pair of points (only the points matter to a run)."""

    def pool(ahead: int) -> dict[Pair, Candidate]:
        later = dataclasses.replace(match, hands_played=match.hands_played + ahead,
                                    hand_in_stage=match.hand_in_stage + ahead)
        plan = later.plan()
        assert plan is not None
        key = (index + ahead, plan.starter, plan.hand_sizes)
        if key not in pools:
            found: dict[Pair, Candidate] = {}
            work = 0
            for tried, candidate in enumerate(
                    _candidates(rules, name, seed, later, index + ahead), start=1):
                found.setdefault(candidate[1].result.points, candidate)
                work += candidate[1].work
                if tried >= POOL or work >= HAND_WORK:
                    break
            pools[key] = found
        return pools[key]

    def run(totals: Pair, ahead: int, left: int) -> Candidate | None:
        for points, candidate in pool(ahead).items():
            after = (totals[0] + points[0], totals[1] + points[1])
            if left == 1 and landing.lands(after):
                return candidate
            if left > 1 and landing.passes(after) and run(after, ahead + 1, left - 1):
                return candidate
        return None

    for depth in landing.depths:
        first = run(match.totals, 0, depth)
        if first is not None:
            return first
    return None


def _no_starter(deal: Deal) -> JsonObject:
    data = deal.to_json()
    data["starter"] = None
    return data


def cases(variant: str, params: Params) -> list[Case]:
    """``match/<variant>/<options-slug>`` (plain matches) and ``match/<variant>/<scenario>``."""
    rules = oracle.rules_of(variant, {})
    covered = unique([rules.match.rule, rules.setup.rule,
                      rules.match.tiebreak.rule if rules.match.tiebreak else None])
    out = [Case(id=f"match/{variant}/{oracle.options_slug(options)}", kind="match",
                variant=variant, body=partial(_run, variant, options, "plain", params, 1),
                options=options, rules=covered, description="a whole match, hand by hand")
           for options in oracle.option_sets(variant)]
    out.extend(Case(id=f"match/{variant}/{name}", kind="match", variant=variant,
                    body=partial(_run, variant, {}, name, params, 0), rules=covered,
                    description=f"a match searched to reach: {name}")
               for name in scenarios(variant))
    return out


def _strip(match: Mapping[str, Any]) -> JsonObject:
    """The match state without ``phase`` (its wording is each engine's own)."""
    return {k: v for k, v in match.items() if k != "phase"}


def _run(variant: str, options: dict[str, object], name: str, params: Params,
         first_starter: int, engine: Engine, ctx: Context) -> Outcome:
    scenario = build(variant, tuple(sorted(options.items())), name, params.seed,
                     first_starter)
    if not scenario.reached:
        # The search runs on the reference alone, so this is the kit's shortfall: a pass would
        # claim a scenario was checked that never happened.
        return Outcome("errored", f"missed: {name}: the kit's search did not reach {name} "
                       f"with seed {params.seed}; try another --seed", failure_kind="kit")
    blame = Blame(oracle.rules_of(variant, options))
    case_id = f"match/{variant}/{name if name != 'plain' else oracle.options_slug(options)}"
    ref = new_match(variant, options, first_starter)
    got = engine.new_match(variant, dict(options), first_starter, expect=ref.to_json())
    divergence = _match_divergence(ref, got, blame, 0, "at the start of the match")
    played: list[tuple[JsonObject, tuple[str, ...]]] = []
    for number, (deal, actions) in enumerate(scenario.hands, start=1):
        if divergence is not None:
            break
        played.append((deal, actions))
        ref_state = start_hand(ref, Deal.from_json(deal))
        want_state = ref_state.to_json()
        try:
            got_state = engine.next_hand(dict(deal), expect=want_state)
        except EngineRejected as refusal:
            divergence = Divergence("answer", f"the engine refused hand {number}'s deal: "
                                    f"{refusal}", {"accepted": True}, {"refused": str(refusal)},
                                    unique([blame.rules.setup.rule, refusal.rule,
                                            blame.rules.match.rule]), None,
                                    number)
            break
        divergence = check_start(want_state, got_state, blame, hand=number, in_match=True)
        if divergence is not None:
            break
        run = play_both(engine, ref_state, scripted(actions), blame, hand=number,
                        in_match=True)
        divergence = run.divergence
        if divergence is not None or run.final is None or run.final.result is None:
            break
        ref, _ = finish_hand(ref, run.final.result)
        divergence = _match_divergence(ref, engine.match_state(expect=ref.to_json()), blame,
                                       number, f"after hand {number}")
    if divergence is None:
        return Outcome.passed(f"{len(scenario.hands)} hands")
    # The repro starts from the match state before the diverging hand (or, when the match
    # diverged before any hand, holds the first hand after the state it starts from).
    path = repros.write_match(ctx.report_dir, case_id, variant, options, first_starter,
                              played or list(scenario.hands[:1]), divergence.rules,
                              note="written by dominokit conform; every expected answer "
                              "comes from the reference engine", at_start=not played,
                              state_at=divergence.step)
    prefix = "" if name == "plain" else f"{name} match: "
    return divergence.outcome(prefix, [f"hands played: {len(played)}"], path)


def _match_divergence(ref: MatchState, got: Mapping[str, Any], blame: Blame, hand: int,
                      when: str) -> Divergence | None:
    want = _strip(ref.to_json())
    have = _strip(got)
    if same(want, have):
        return None
    keys = sorted(k for k in set(want) | set(have) if not same(want.get(k), have.get(k)))
    return Divergence("match state", f"the match state {when} differs in {', '.join(keys)}",
                      want, have, blame.match(want, have), None, hand or None)
