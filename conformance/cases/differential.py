"""Differential cases: an engine and the in-process reference side by side, step by step.

Each case (one per variant and option setting) first replays *searched* hands: deals and play
found by searching the reference for situations random play rarely reaches, each named by the
spec (every end condition, a hand nobody wins, every bonus and catch tile, a catch in a hand
ended by each end condition but a domino, a catch tile as one of the loser's last two, a hand
won by the other player than the one who went out, every lake size and the smallest region too
big to be a lake, both ends of the extra-tile turn, and a hand in which each option value
changes what happens). A situation the mixed search misses is searched again with a policy of
its own, then taken from a constructed hand (``constructed``), so that no seed misses one a
construction can reach. Then random hands: random deals (seeded ``random_deal``) and random
legal actions (an index into the sorted legal list) through both; legal sets, events, states
and results are compared at every step. The default run's random hands are recorded data
(``random_hands``), the same under every hypothesis release, and a failing one is written as a
trace cut at its divergence; more hands or another seed are drawn by hypothesis, which shrinks
a failing hand before it is written. ``--examples`` sets the number of random hands, ``--seed``
seeds both the search and hypothesis.
"""

from __future__ import annotations

import random
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from functools import cache, partial
from typing import Any

from dominokit.conformance.cases import Params, constructed, oracle, random_hands
from dominokit.conformance.cases.campaign import Campaign, Failure, Findings, Tally, chunk_seed
from dominokit.conformance.cases.compare import Blame, unique
from dominokit.conformance.cases.drive import HandRun, scripted, standalone
from dominokit.conformance.cases.model import (
    Case,
    CaseInterrupted,
    Context,
    KitNote,
    Outcome,
    Progress,
)
from dominokit.conformance.kit.driver import Engine
from dominokit.conformance.wire.errors import EngineFailure
from dominokit.reference import (
    Action,
    DealError,
    IllegalActionError,
    Rules,
    Tile,
    apply_action,
    load_variant,
    new_hand,
    validate_deal,
)
from dominokit.reference.deal import Deal
from dominokit.reference.rules import Term

JsonObject = dict[str, Any]

SEARCH_WORK = 40_000
"""How many legal actions the search for special hands may list (per variant and options):
a budget in units of work, not seconds, so every machine finds the same hands."""


def cases(variant: str, params: Params) -> list[Case]:
    """``differential/<variant>/<options-slug>`` for the defaults and each option value."""
    out = []
    for options in oracle.option_sets(variant):
        rules = oracle.rules_of(variant, options)
        covered = unique([rules.opening.rule, rules.matching.rule, rules.draw.rule,
                          rules.pass_.rule, *(e.rule for e in rules.end),
                          rules.winner.rule, *(t.rule for t in rules.terms),
                          *(o.rule for n, o in load_variant(variant).options.items()
                            if n in options)])
        out.append(Case(
            id=f"differential/{variant}/{oracle.options_slug(options)}", kind="differential",
            variant=variant, body=partial(_run, variant, options, params), options=options,
            rules=covered,
            description="searched and random hands against the reference, step by step",
            campaign=_campaign(variant, options, params)))
    return out


@dataclass(frozen=True)
class Target:
    """A situation worth one searched hand: its name, the rules it exercises, how to tell a
    hand reaches it, and tiles the search policy should hold back to get there."""

    name: str
    rules: tuple[str, ...]
    hit: Callable[[oracle.Played], bool] = field(compare=False)
    hoard: frozenset[Tile] = frozenset()
    policy: oracle.Policy | None = field(default=None, compare=False)
    """A policy that heads for the situation, tried on its own when the mixed search misses."""
    redeal: Callable[[JsonObject, random.Random], JsonObject] | None = field(default=None,
                                                                           compare=False)
    """How ``policy`` wants its seeded deals shared out."""
    after: str | None = None
    """A target the mixed search must have reached for ``policy`` to be worth trying (a
    setting where no hand ends that way is not searched at length)."""
    built: Callable[[Rules], constructed.Script | None] | None = field(default=None,
                                                                     compare=False)
    """A constructed hand that reaches the situation, the last resort of the search."""


def targets(variant: str, options: Mapping[str, object]) -> list[Target]:
    """The situations the spec names for this variant and options (see the module doc)."""
    rules = oracle.rules_of(variant, options)
    out = [Target(f"end-{oracle.slug(end.condition)}", (end.rule,),
                  partial(_reason_is, end.condition), **_heading_for(end.condition))
           for end in rules.end]
    out.append(Target("no-winner", (rules.winner.rule,), _no_winner))
    for term in rules.terms:
        for tile, value in term.tiles:
            out.append(Target(f"{oracle.slug(term.term)}-{tile}", (term.rule,),
                              partial(_has_term, term.term, value), frozenset({tile})))
        if term.term == CATCH:
            out.extend(_catch_targets(rules, term))
    domino = next((end for end in rules.end if end.condition == "domino"), None)
    if domino is not None and rules.winner.policy != "domino_or_fewer_pips":
        out.append(Target("domino-lost", (rules.winner.rule, domino.rule), _out_but_lost,
                          after=f"end-{oracle.slug(domino.condition)}",
                          **_heading_for(domino.condition)))
    if rules.lakes is not None:
        biggest = rules.lakes.max_cells
        out.extend(Target(f"lake-{size}", (rules.lakes.rule,), partial(_lake_of, size))
                   for size in range(1, biggest + 1))
        out.append(Target(f"region-{biggest + 1}", (rules.lakes.rule,),
                          partial(_region_of, biggest + 1)))
    if rules.extra_tile is not None:
        out.append(Target("extra-tile-placed", (rules.extra_tile.rule,), _extra_placed))
        out.append(Target("extra-tile-stop", (rules.extra_tile.rule,), _extra_stopped,
                          policy=oracle.by_kind))
    sample = Deal.from_json(oracle.deal_json(rules, 0))
    for name, spec in load_variant(variant).options.items():
        for choice in spec.values:
            if choice != options.get(name, spec.default):
                other = {**options, name: choice}
                if choice == spec.default:
                    other.pop(name)
                if not _same_deals(oracle.rules_of(variant, other), sample):
                    continue
                out.append(Target(f"option-{oracle.slug(name)}-{oracle.slug(str(choice))}",
                                  (spec.rule,), partial(_differs_under, other)))
    return out


def _heading_for(condition: str) -> dict[str, Any]:
    """The focused policy (and deal) for hands ending by ``condition``: a domino comes
    soonest when the starter holds and plays the smallest tiles (no focus for the others)."""
    if condition != "domino":
        return {}
    return {"policy": oracle.starter_plays_low, "redeal": oracle.low_hand_to_starter}


CATCH = "catch"
"""The scoring term for a lone listed tile left in the loser's hand (R-POL-09): it applies
whatever ended the hand, and only to a last tile, so it has targets of its own."""


def _catch_targets(rules: Rules, term: Term) -> list[Target]:
    """A catch in a hand ended by each end condition but a domino (a catch after a domino is
    the common case), and a listed tile as one of the loser's last two (no catch)."""
    tiles = frozenset(tile for tile, _ in term.tiles)
    out = [Target(f"{oracle.slug(term.term)}-{oracle.slug(end.condition)}",
                  (term.rule, end.rule), partial(_caught_after, term.term, end.condition),
                  tiles, built=partial(_first_built, constructed.CAUGHT.get(end.condition),
                                       tiles))
           for end in rules.end if end.condition != "domino"]
    out.extend(Target(f"{oracle.slug(term.term)}-{tile}-of-two", (term.rule,),
                      partial(_among_last_two, tile), frozenset({tile}),
                      built=partial(_first_built, constructed.left_with_two, {tile}))
               for tile, _ in term.tiles)
    return out


def _first_built(build: Callable[[Rules, Tile], constructed.Script | None] | None,
                 tiles: frozenset[Tile] | set[Tile], rules: Rules) -> constructed.Script | None:
    """The first hand ``build`` makes for one of ``tiles`` (most pips first)."""
    for tile in sorted(tiles, key=lambda t: (-t.pips, t)):
        made = build(rules, tile) if build is not None else None
        if made is not None:
            return made
    return None


def _same_deals(rules: Rules, deal: Deal) -> bool:
    """True when ``rules`` accept a deal of the current setting: only then can one hand show
    what an option changes (an option that changes the deal itself needs no searching)."""
    try:
        validate_deal(rules, deal)
    except DealError:
        return False
    return True


def _reason_is(reason: str, played: oracle.Played) -> bool:
    return played.result.reason == reason


def _no_winner(played: oracle.Played) -> bool:
    return played.result.winner is None


def _has_term(term: str, value: int, played: oracle.Played) -> bool:
    return any(t.term == term and abs(t.points) == value for t in played.result.terms)


def _caught_after(term: str, reason: str, played: oracle.Played) -> bool:
    """The hand ended for ``reason`` and ``term`` (a catch) was paid."""
    result = played.result
    return result.reason == reason and any(t.term == term for t in result.terms)


def _among_last_two(tile: Tile, played: oracle.Played) -> bool:
    """The hand has a winner, and the loser is left holding two tiles, ``tile`` one of them."""
    winner = played.result.winner
    if winner is None:
        return False
    left = played.final.hands[1 - winner]
    return len(left) == 2 and tile in left


def _out_but_lost(played: oracle.Played) -> bool:
    """The hand ended by a domino, and the player who went out did not win it."""
    result = played.result
    return (result.reason == "domino" and result.winner is not None
            and bool(played.final.hands[result.winner]))


def _lake_of(size: int, played: oracle.Played) -> bool:
    return any(e.type == "lake" and e.cells is not None and len(e.cells) == size
               for events in played.events for e in events)


def _region_of(size: int, played: oracle.Played) -> bool:
    """A placement left a new empty region of exactly ``size`` cells next to it."""
    from dominokit.reference import board_plain as board

    for state, text in zip(played.states[1:], played.actions, strict=True):
        grid = getattr(state.table, "grid", None)
        placed = Action.parse(text).cells
        if grid is None or placed is None:
            continue
        for region in board.regions(grid):
            if len(region) == size and any(board.adjacent(c, p) for c in region
                                           for p in placed):
                return True
    return False


def _extra_placed(played: oracle.Played) -> bool:
    return any(state.turn.extra and action != "stop"
               for state, action in zip(played.states, played.actions, strict=False))


def _extra_stopped(played: oracle.Played) -> bool:
    return "stop" in played.actions


def _differs_under(options: Mapping[str, object], played: oracle.Played) -> bool:
    """True when the same deal and actions give other events or results under ``options``
    (a hand that tells the option's values apart). A deal the other setting refuses (other
    hand sizes, another tile set) tells nothing."""
    rules = oracle.rules_of(played.variant, options)
    try:
        state = new_hand(rules, Deal.from_json(played.deal))
    except DealError:
        return False
    for action, events in zip(played.actions, played.events, strict=True):
        try:
            state, happened = apply_action(state, action)
        except IllegalActionError:
            return True
        if [e.to_json() for e in happened] != [e.to_json() for e in events]:
            return True
    return False


@dataclass(frozen=True)
class Found:
    """The searched hands of one variant and options: each with the targets it reaches."""

    hands: tuple[tuple[oracle.Played, tuple[str, ...]], ...]
    missed: tuple[str, ...]


@cache
def search(variant: str, options_items: tuple[tuple[str, object], ...], seed: int) -> Found:
    """Play seeded hands on the reference until every target is reached or the work budget
    is spent; every other hand holds back the tiles pending targets name. A target still
    missed is then tried with its own policy and its constructed hand (``_focused``)."""
    options = dict(options_items)
    rules = oracle.rules_of(variant, options)
    sizes = oracle.hand_sizes(rules)
    pending = targets(variant, options)
    hits: dict[int, list[str]] = {}
    played_hands: list[oracle.Played] = []
    work = 0
    attempt = 0
    while pending and work < SEARCH_WORK:
        rng = random.Random(f"search:{variant}:{seed}:{attempt}")
        hoard = frozenset().union(*(t.hoard for t in pending))
        policies = [oracle.uniform, oracle.eager, oracle.by_kind,
                    *([oracle.hoarding(hoard)] if hoard else [])]
        policy = policies[attempt % len(policies)]
        deal = oracle.deal_json(rules, rng.randrange(2**31), sizes[attempt % len(sizes)])
        played = oracle.play_deal(variant, options, deal, policy, rng)
        work += played.work
        attempt += 1
        reached = [t for t in pending if t.hit(played)]
        if reached:
            hits[len(played_hands)] = [t.name for t in reached]
            played_hands.append(played)
            pending = [t for t in pending if t not in reached]
    for target in [t for t in pending if t.policy is not None or t.built is not None]:
        if target not in pending:
            continue
        hopeless = target.after in {t.name for t in pending}
        played_or_none = _focused(variant, options, seed, target, hopeless)
        if played_or_none is not None:
            reached = [t for t in pending if t.hit(played_or_none)]
            hits[len(played_hands)] = [t.name for t in reached]
            played_hands.append(played_or_none)
            pending = [t for t in pending if t not in reached]
    return Found(tuple((played_hands[i], tuple(names)) for i, names in hits.items()),
                 tuple(t.name for t in pending))


FOCUS_WORK = 150_000
"""Work the search may spend on one missed target with its own policy (a few seconds at most,
and spent only when the mixed search missed it)."""


def _focused(variant: str, options: dict[str, object], seed: int, target: Target,
             hopeless: bool) -> oracle.Played | None:
    """A hand that reaches ``target``: seeded hands played by its own policy (unless
    ``hopeless``), then its constructed hand; None when neither reaches it."""
    rules = oracle.rules_of(variant, options)
    sizes = oracle.hand_sizes(rules)
    work = attempt = 0
    while target.policy is not None and not hopeless and work < FOCUS_WORK:
        rng = random.Random(f"focus:{variant}:{target.name}:{seed}:{attempt}")
        deal = oracle.deal_json(rules, rng.randrange(2**31), sizes[attempt % len(sizes)])
        if target.redeal is not None:
            shared = target.redeal(deal, rng)
            deal = shared if _same_deals(rules, Deal.from_json(shared)) else deal
        played = oracle.play_deal(variant, options, deal, target.policy, rng)
        if target.hit(played):
            return played
        work += played.work
        attempt += 1
    made = target.built(rules) if target.built is not None else None
    if made is not None:
        played = oracle.play_script(variant, options, *made)
        if target.hit(played):
            return played
    return None


class _Diverged(Exception):
    """Raised inside the hypothesis test so that it shrinks the failing hand."""

    def __init__(self, deal: JsonObject, run: HandRun) -> None:
        self.deal = deal
        self.run = run
        super().__init__(run.divergence.summary if run.divergence else "")


CAMPAIGN_CHUNK = 1000
"""Random hands per hypothesis run. A long campaign (``--examples 100000``) is a series of
runs, the chunks of ``cases.campaign``: the first seeded with ``--seed`` and each next one
from it and its number, so that hypothesis's record of the hands it tried, which grows with
every hand, is dropped between runs and memory stays flat, and so that workers can play the
chunks of one campaign side by side. Up to this many examples, the hands are those of one
run, and the case stops at its first failure."""


def _chunk_size() -> int:
    return CAMPAIGN_CHUNK


def _campaign(variant: str, options: dict[str, object], params: Params) -> Campaign:
    """How the case splits into chunks when ``--examples`` is above one chunk."""
    return Campaign(f"differential/{variant}/{oracle.options_slug(options)}", variant, options,
                    max(params.examples, 1), _chunk_size,
                    partial(_play_chunk, variant, options, params))


def _searched(engine: Engine, variant: str, options: dict[str, object], params: Params,
              blame: Blame, found: Findings, *, stop: bool) -> str:
    """Play the searched hands into ``found`` (``stop``: only up to the first failing one);
    what they reached, for a passing record."""
    searched = search(variant, tuple(sorted(options.items())), params.seed)
    for played, names in searched.hands:
        run = standalone(engine, variant, options, played.deal, scripted(played.actions),
                         blame)
        if run.divergence is not None:
            found.failures.append(Failure(played.deal, tuple(run.actions), run.divergence,
                                          f"searched hand ({', '.join(names)}): "))
            if stop:
                break
    reached = [name for _, names in searched.hands for name in names]
    missed = f"; not reached: {', '.join(searched.missed)}" if searched.missed else ""
    return f"{len(searched.hands)} searched hands ({', '.join(reached)}){missed}"


def _run(variant: str, options: dict[str, object], params: Params, engine: Engine,
         ctx: Context) -> Outcome:
    """A case of one chunk: the searched hands, then the random ones, up to the first failing
    hand (a campaign goes through ``cases.campaign`` instead, chunk by chunk)."""
    blame = Blame(oracle.rules_of(variant, options))
    total = max(params.examples, 1)
    found = Findings(0)
    try:
        note = _searched(engine, variant, options, params, blame, found, stop=True)
        if not found.failures:
            _random_hands(engine, variant, options, params, blame, ctx, found)
    except KeyboardInterrupt:
        raise CaseInterrupted(Outcome.not_run(
            f"interrupted after {found.hands:,} of {total:,} random hands, none of them "
            "failing")) from None
    if not found.failures:
        return Outcome.passed(f"{note}; {params.examples} random hands")
    tally = Tally(_campaign(variant, options, params), ctx.report_dir)
    tally.add(found.part())
    for text in tally.notes:  # as run_case would have heard them (a repro not written)
        warnings.warn(KitNote(text), stacklevel=1)
    first = tally.first
    assert first is not None
    return replace(first, repros=tuple(tally.repros), failing_hands=tally.failing_hands)


def _random_hands(engine: Engine, variant: str, options: dict[str, object], params: Params,
                  blame: Blame, ctx: Context, found: Findings) -> None:
    """The random hands of a case of one chunk: the recorded ones for the default run (the
    same under any hypothesis release), else one hypothesis run; the first failing hand
    is added to ``found``."""
    total = max(params.examples, 1)

    def on_hand() -> None:
        found.hands += 1
        ctx.progress(Progress(found.hands, total))

    hands = random_hands.recorded(variant, options, total, params.seed)
    if hands is not None:
        for hand in hands:
            deal = hand.deal(variant, options)
            run = standalone(engine, variant, options, deal, scripted(hand.actions), blame)
            on_hand()
            if run.divergence is not None:
                found.failures.append(Failure(deal, tuple(run.actions), run.divergence,
                                              "random hand (recorded): "))
                return
        return
    _hypothesis_chunk(engine, variant, options, blame, total, params.seed, ctx, found,
                      on_hand)


def _play_chunk(variant: str, options: dict[str, object], params: Params, engine: Engine,
                ctx: Context, found: Findings) -> None:
    """Chunk ``found.chunk`` of a campaign (``cases.campaign.Player``): chunk 0 plays every
    searched hand first; each plays its hypothesis run, whose shrunk failing hand (a run
    stops at its first) is added to ``found``. An engine failure stops the chunk at once (no
    shrinking on a dead engine) and is raised."""
    blame = Blame(oracle.rules_of(variant, options))
    campaign = _campaign(variant, options, params)
    if found.chunk == 0:
        found.note = _searched(engine, variant, options, params, blame, found, stop=False)
    size = campaign.size(found.chunk)

    def on_hand() -> None:
        found.hands += 1
        ctx.progress(Progress(found.hands, size))

    _hypothesis_chunk(engine, variant, options, blame, size,
                      chunk_seed(params.seed, found.chunk), ctx, found, on_hand)


def _hypothesis_chunk(engine: Engine, variant: str, options: dict[str, object], blame: Blame,
                      size: int, seed: int, ctx: Context, found: Findings,
                      on_hand: Callable[[], None]) -> None:
    """One hypothesis run of ``size`` hands; its shrunk failing hand goes into ``found``."""
    sizes = oracle.hand_sizes(blame.rules)
    failing = _hypothesis_run(engine, variant, options, blame, sizes, size, seed, on_hand)
    if failing is not None:
        deal, run = failing
        assert run.divergence is not None
        found.failures.append(Failure(deal, tuple(run.actions), run.divergence,
                                      "random hand (shrunk by hypothesis): "))


def _hypothesis_run(engine: Engine, variant: str, options: dict[str, object], blame: Blame,
                    sizes: list[tuple[int, int]], examples: int, seed: int,
                    on_hand: Callable[[], None] = lambda: None,
                    ) -> tuple[JsonObject, HandRun] | None:
    """One hypothesis run of ``examples`` random hands (see ``_random_hands``), calling
    ``on_hand`` after each hand played up to the first failing one (not for the replays
    that shrink it); hypothesis is imported here, as it takes seconds to import, which a
    --list or other kinds need not pay."""
    from hypothesis import HealthCheck, Phase, Verbosity, given, settings
    from hypothesis import seed as hypothesis_seed
    from hypothesis import strategies as st

    rules = blame.rules
    trouble: list[EngineFailure] = []
    shrinking: list[bool] = []
    indexes: dict[int, st.SearchStrategy[int]] = {}

    @settings(max_examples=examples, derandomize=False, database=None,
              deadline=None, suppress_health_check=list(HealthCheck),
              report_multiple_bugs=False, verbosity=Verbosity.quiet, print_blob=False,
              phases=(Phase.generate, Phase.shrink))
    @hypothesis_seed(seed)
    @given(st.data())
    def check(data: st.DataObject) -> None:
        if trouble:
            return
        deal_seed = data.draw(st.integers(0, 2**31 - 1), label="deal seed")
        size = data.draw(st.sampled_from(sizes), label="hand sizes")
        deal = oracle.deal_json(rules, deal_seed, size)

        def choose(legal: list[str], step: int) -> str:
            # An index from sampled_from(range(...)), not sampled_from(legal): hypothesis keeps
            # a label for every distinct strategy drawn from, for the life of the process, and
            # sampled_from's label is made from its elements, so each new legal list grew the
            # kit for the whole campaign. A range's label depends on its length alone; the
            # draws, and so the hands and their shrinking, are the same.
            # One strategy per length, made once: a new one per draw was validated afresh at
            # every step, which cost more than the draw (the same strategy draws the same).
            count = len(legal)
            strategy = indexes.get(count)
            if strategy is None:
                strategy = indexes[count] = st.sampled_from(range(count))
            index = data.draw(strategy, label=f"action {step + 1}")
            return legal[index]

        try:
            run = standalone(engine, variant, options, deal, choose, blame)
        except EngineFailure as failure:
            trouble.append(failure)
            return
        if not shrinking:
            on_hand()
        if run.divergence is not None:
            shrinking.append(True)
            raise _Diverged(deal, run)

    try:
        check()
    except _Diverged as diverged:
        return diverged.deal, diverged.run
    if trouble:
        raise trouble[0]
    return None
