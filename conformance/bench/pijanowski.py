"""Section 3: Pijanowski's board, legal-action generation and lake scoring in mid-game.

Positions come from seeded hands played at random with the reference, stopped half way
through (the mover to place, the board part full), on the 6x12 board and, under the option
``double_set``, the 12x12 one. Legal-action generation is timed per position; lake scoring
as ``board.new_lakes`` over every legal placement of those positions (what the engine asks
after each placement). Any cache the board module keeps is emptied before every run, so each
run finds every frontier afresh, as a new position in play would.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from dominokit.conformance.bench.registry import Out, Section, SectionResult
from dominokit.conformance.bench.timing import Work, figure, interleave
from dominokit.conformance.cases import oracle
from dominokit.reference import (
    HandState,
    Rules,
    apply_action,
    legal_actions,
    new_hand,
    random_deal,
    variant_ids,
)
from dominokit.reference import board as board_module
from dominokit.reference.state import BoardPlacement, BoardTable


def _board_option_sets() -> list[tuple[str, dict[str, object]]]:
    """(variant, options) of every board game, once per board size."""
    out: list[tuple[str, dict[str, object]]] = []
    seen: set[tuple[int, int]] = set()
    for variant in variant_ids():
        for options in oracle.option_sets(variant):
            rules = oracle.rules_of(variant, options)
            size = (rules.table.rows, rules.table.cols)
            if rules.is_board and size not in seen:
                seen.add(size)
                out.append((variant, options))
    return out


def mid_game(rules: Rules, seed: int) -> HandState:
    """A seeded hand played at random until half its tiles are on the board, mover to place."""
    rng = random.Random(seed)
    sizes = oracle.hand_sizes(rules)
    deal = random_deal(rules, rng, hand_sizes=sizes[seed % len(sizes)])
    state = new_hand(rules, deal)
    total = len(deal.hands[0]) + len(deal.hands[1])
    while state.result is None:
        table = state.table
        assert isinstance(table, BoardTable)
        if len(table.placements) >= total // 2 and not state.turn.extra:
            return state
        legal = legal_actions(state)
        state, _ = apply_action(state, legal[rng.randrange(len(legal))])
    return mid_game(rules, seed + 1000)


def _forget() -> None:
    """Empty the board module's caches, if it keeps any."""
    for name in dir(board_module):
        cache_clear = getattr(getattr(board_module, name), "cache_clear", None)
        if callable(cache_clear):
            cache_clear()


def legal_work(states: Sequence[HandState]) -> Work:
    """List the legal actions of every position; returns positions listed."""

    def work() -> int:
        _forget()
        for state in states:
            legal_actions(state)
        return len(states)

    return work


def lake_work(rules: Rules, states: Sequence[HandState]) -> tuple[Work, int]:
    """Score the lakes of every legal placement of every position; returns placements."""
    lakes = rules.lakes
    assert lakes is not None
    jobs = []
    for state in states:
        table = state.table
        assert isinstance(table, BoardTable) and state.to_move is not None
        for action in legal_actions(state):
            if action.cells is not None and action.tile is not None:
                placed = table.with_placement(BoardPlacement(
                    state.to_move, action.cells, (action.tile.low, action.tile.high)))
                jobs.append((table.grid, placed.grid, action.cells))

    def work() -> int:
        for before, after, cells in jobs:
            board_module.new_lakes(before, after, cells, lakes.max_cells, lakes.mode)
        return len(jobs)

    return work, len(jobs)


def run(quick: bool, out: Out) -> SectionResult:
    """Positions per second and legal actions per second, lakes scored per second."""
    result = SectionResult()
    positions = 4 if quick else 30
    rounds = 3 if quick else 7
    contenders: dict[str, Work] = {}
    per_position: dict[str, float] = {}
    for variant, options in _board_option_sets():
        rules = oracle.rules_of(variant, options)
        size = f"{rules.table.rows}x{rules.table.cols}"
        states = [mid_game(rules, seed) for seed in range(positions)]
        actions = sum(len(legal_actions(s)) for s in states)
        label = f"{variant} {size} mid-game"
        contenders[f"{label}: legal-action generation"] = legal_work(states)
        per_position[f"{label}: legal-action generation"] = actions / len(states)
        lakes, placements = lake_work(rules, states)
        contenders[f"{label}: lake scoring"] = lakes
        result.notes.append(f"{label}: {len(states)} positions, {actions / len(states):.0f} "
                            f"legal actions each; lakes scored for {placements} placements")
    out(f"   {len(contenders)} contenders, {rounds} rounds")
    rates = interleave(contenders, rounds)
    for label, per_run in rates.items():
        if label in per_position:
            result.figures.append(figure(f"{label}: positions/s", "positions/s", per_run))
            result.figures.append(figure(f"{label}: actions/s", "actions/s",
                                         [r * per_position[label] for r in per_run]))
        else:
            result.figures.append(figure(f"{label}: placements/s", "placements/s", per_run))
    return result


SECTION = Section("pijanowski", 3, "Pijanowski: legal actions and lakes in mid-game", run)
