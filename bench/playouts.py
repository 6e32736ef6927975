"""Section 1: random playouts of the same deals with the same choices, engine against engine.

The reference plays seeded deals of every variant and option setting, choosing uniformly at
random; each playout is then a script (the index chosen at every step) that is replayed in
the timed runs, so every run does the same work. On plain block dominoes (the bundled game
whose rules are exactly the published engines', found by its mechanics) the same deals and
moves are replayed by a hand-written engine (``blockengine``) and by the published engines
(``published``), all checked to end with the reference's pips before anything is timed.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from dominokit.bench import published
from dominokit.bench.blockengine import BlockHand
from dominokit.bench.registry import Out, Section, SectionResult
from dominokit.bench.timing import Work, figure, interleave, ratio
from dominokit.conformance.cases import oracle
from dominokit.reference import (
    Deal,
    Rules,
    apply_action,
    legal_actions,
    new_hand,
    random_deal,
    variant_ids,
)

BLOCK_GAME = {
    "tiles": (6, True, 1), "table": ("chain", 2), "hand_size": 7, "remainder": "out_of_play",
    "opening": "any_tile", "matching": "equal_halves", "parity": "none", "draw": "none",
    "pass": "when_stuck", "end": ("domino", "block"), "extra_tile": None,
}
"""The mechanics of the block game the published engines play (double-six, seven tiles
each, no drawing, a pass only when stuck, the hand ends on a domino or a block)."""


def block_game() -> str | None:
    """The bundled variant whose default rules are the published engines' block game."""
    for variant in variant_ids():
        rules = oracle.rules_of(variant, {})
        mechanics = {
            "tiles": (rules.tiles.max_pip, rules.tiles.doubles, rules.tiles.copies),
            "table": (rules.table.kind, rules.table.ends), "hand_size": rules.setup.hand_size,
            "remainder": rules.setup.remainder, "opening": rules.opening.policy,
            "matching": rules.matching.policy, "parity": rules.parity.policy,
            "draw": rules.draw.policy, "pass": rules.pass_.policy,
            "end": tuple(e.condition for e in rules.end), "extra_tile": rules.extra_tile,
        }
        if mechanics == BLOCK_GAME:
            return variant
    return None


TARGETS = {"hand-written": 0.5, "dominoes": 2.0, "OpenSpiel python_block_dominoes": 10.0}
"""Least ratio of the reference's actions/s to each contender's."""

CHAIN_TARGET = 1 / 1.5
"""A chain variant's actions/s over the block game's: within 1.5x."""


@dataclass(frozen=True)
class Playout:
    """One seeded deal and the reference's random choices through it."""

    deal: Deal
    picks: tuple[int, ...]
    """Index into the reference's legal list at each step."""
    steps: tuple[tuple[int, int, int] | None, ...]
    """The same moves as (low, high, touching pip), None for a pass (chain games only)."""
    pips: tuple[int, int]


def record(rules: Rules, seed: int) -> Playout:
    """Deal with ``seed`` (player 0 starts) and play it out at random with the reference."""
    rng = random.Random(seed)
    sizes = oracle.hand_sizes(rules)
    deal = random_deal(rules, rng, hand_sizes=sizes[seed % len(sizes)], starter=0)
    state = new_hand(rules, deal)
    picks: list[int] = []
    steps: list[tuple[int, int, int] | None] = []
    while state.result is None:
        legal = legal_actions(state)
        pick = rng.randrange(len(legal))
        action = legal[pick]
        picks.append(pick)
        tile = action.tile
        if tile is None:
            steps.append(None)
        else:
            steps.append((tile.low, tile.high, tile.low if action.touch is None
                          else action.touch))
        state, _ = apply_action(state, action)
    return Playout(deal, tuple(picks), tuple(steps), state.pips())


def reference_work(rules: Rules, playouts: Sequence[Playout]) -> Work:
    """Replay every playout through the reference's public verbs; returns actions taken."""

    def work() -> int:
        actions = 0
        for playout in playouts:
            state = new_hand(rules, playout.deal)
            for pick in playout.picks:
                state, _ = apply_action(state, legal_actions(state)[pick])
            actions += len(playout.picks)
        return actions

    return work


def _pairs(hand: Sequence[object]) -> list[tuple[int, int]]:
    return [(t.low, t.high) for t in hand]  # type: ignore[attr-defined]


def handwritten_work(playouts: Sequence[Playout]) -> Work:
    """Replay every playout through the hand-written block engine, by the same indexes."""
    deals = [(_pairs(p.deal.hands[0]), _pairs(p.deal.hands[1]), p.picks) for p in playouts]

    def work() -> int:
        actions = 0
        for hand0, hand1, picks in deals:
            game = BlockHand(hand0, hand1, 0)
            for pick in picks:
                game.play(game.legal()[pick])
            actions += len(picks)
        return actions

    return work


def _handwritten_pips(playout: Playout) -> tuple[int, int]:
    game = BlockHand(_pairs(playout.deal.hands[0]), _pairs(playout.deal.hands[1]), 0)
    for pick in playout.picks:
        game.play(game.legal()[pick])
    assert game.over, "the hand-written engine did not end the hand where the reference did"
    return (sum(a + b for a, b in game.hands[0]), sum(a + b for a, b in game.hands[1]))


def published_work(play: published.Play, playouts: Sequence[Playout]) -> Work:
    """Replay every playout through a published engine's game object."""
    deals = [(_pairs(p.deal.hands[0]), _pairs(p.deal.hands[1]), p.steps) for p in playouts]

    def work() -> int:
        actions = 0
        for hand0, hand1, steps in deals:
            play(hand0, hand1, steps)
            actions += len(steps)
        return actions

    return work


def run(quick: bool, out: Out) -> SectionResult:
    """Time every variant and option setting, and on the block game every contender."""
    result = SectionResult()
    block = block_game()
    hands = 10 if quick else 200
    rounds = 3 if quick else 7
    contenders: dict[str, Work] = {}
    hands_per_action: dict[str, float] = {}
    chain_labels: list[str] = []
    block_label = ""
    for variant in variant_ids():
        for options in oracle.option_sets(variant):
            rules = oracle.rules_of(variant, options)
            count = hands if not rules.is_board else max(2, hands // 20)
            playouts = [record(rules, seed) for seed in range(count)]
            label = f"reference {variant} {oracle.options_slug(options)}"
            contenders[label] = reference_work(rules, playouts)
            hands_per_action[label] = count / sum(len(p.picks) for p in playouts)
            if variant == block and not options:
                block_label = label
                _add_block_contenders(playouts, contenders, hands_per_action, result)
            elif not rules.is_board and not options:
                chain_labels.append(label)
    out(f"   {len(contenders)} contenders, {rounds} rounds")
    rates = interleave(contenders, rounds)
    for label, per_run in rates.items():
        result.figures.append(figure(f"{label}: actions/s", "actions/s", per_run))
        result.figures.append(figure(f"{label}: hands/s", "hands/s",
                                     [r * hands_per_action[label] for r in per_run]))
    if block_label:
        for name, target in TARGETS.items():
            if name in rates:
                result.ratios.append(ratio(f"reference / {name} (actions/s, {block})",
                                           rates[block_label], rates[name], target))
        for label in chain_labels:
            result.ratios.append(ratio(f"{label.removeprefix('reference ')} / {block} "
                                       "(reference actions/s)", rates[label],
                                       rates[block_label], CHAIN_TARGET))
    else:
        result.notes.append("no bundled variant plays the published engines' block game: "
                            "no engine comparison")
    return result


def _add_block_contenders(playouts: Sequence[Playout], contenders: dict[str, Work],
                          hands_per_action: dict[str, float], result: SectionResult) -> None:
    """The hand-written and published engines on the same block game playouts, each
    checked to leave the reference's pips in every hand before it is timed."""
    per_action = len(playouts) / sum(len(p.picks) for p in playouts)
    if all(_handwritten_pips(p) == p.pips for p in playouts):
        contenders["hand-written"] = handwritten_work(playouts)
        hands_per_action["hand-written"] = per_action
    else:
        result.notes.append("hand-written engine skipped: it ended a hand unlike the reference")
    for name, (module, factory) in published.PUBLISHED.items():
        if not published.installed(module):
            result.notes.append(f"{name} skipped: not installed (pip install "
                                f"{'open_spiel' if module == 'pyspiel' else module})")
            continue
        play = factory()
        differ = [p for p in playouts
                  if play(_pairs(p.deal.hands[0]), _pairs(p.deal.hands[1]), p.steps) != p.pips]
        if differ:
            result.notes.append(f"{name} skipped: {len(differ)} of {len(playouts)} hands "
                                "ended with other pips than the reference's")
            continue
        contenders[name] = published_work(play, playouts)
        hands_per_action[name] = per_action


SECTION = Section("playouts", 1, "random playouts (same deals, same choices)", run)
