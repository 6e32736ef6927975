"""Section 3: Pijanowski's board, legal-action generation and lake scoring in mid-game.

Positions come from seeded hands played at random with the reference, stopped by the
placement that puts half the dealt tiles on the board, on the 6x12 board and, under the
option ``double_set``, the 12x12 one. Legal-action generation is timed per position as play
reaches it: the board is made again from the one before by that placement, so each run pays
for whatever the engine works out about a new board (the legal placements it keeps per board
and hands on to the next, brought up around the new tile), and any cache of results the board
module keeps is emptied first. Tables of a board size alone (which cell neighbours which), like
the action values already made, are built once and kept, as they are in play. Lake scoring is
timed as ``board.new_lakes`` over every legal placement of those positions (what the engine
asks after each placement). The same listing on each board made alone from its placements, so
that everything is found by a scan of all its cells (the engine's way before it kept anything
from board to board), runs interleaved with it, and their ratio is reported.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace

from dominokit.bench.registry import Out, Section, SectionResult
from dominokit.bench.timing import Work, figure, interleave, ratio
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
from dominokit.reference.board_table import BoardPlacement, BoardTable


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


RESCAN_TARGET = 10.0
"""The target: legal-action generation on a mid-game board at least 10x the rate of the engine
before it kept anything from board to board, approached here by the same engine on boards
made alone (the rate before is in docs/performance-before.json)."""

Step = tuple[HandState, BoardPlacement, HandState]
"""(the position before a placement, the placement, the mid-game position it makes)."""


def mid_game(rules: Rules, seed: int) -> Step:
    """A seeded hand played at random until a placement puts half its tiles on the board,
    the hand still on and the next player to place."""
    rng = random.Random(seed)
    sizes = oracle.hand_sizes(rules)
    deal = random_deal(rules, rng, hand_sizes=sizes[seed % len(sizes)])
    state = new_hand(rules, deal)
    total = len(deal.hands[0]) + len(deal.hands[1])
    while state.result is None:
        legal = legal_actions(state)
        action = legal[rng.randrange(len(legal))]
        before, (state, _) = state, apply_action(state, action)
        table = state.table
        assert isinstance(table, BoardTable)
        if (action.cells is not None and len(table.placements) >= total // 2
                and state.result is None and not state.turn.extra):
            return before, table.placements[-1], state
    return mid_game(rules, seed + 1000)


def _forget() -> None:
    """Empty the board module's caches of results, if it keeps any."""
    for name in dir(board_module):
        cache_clear = getattr(getattr(board_module, name), "cache_clear", None)
        if callable(cache_clear):
            cache_clear()


def legal_work(steps: Sequence[Step]) -> Work:
    """List the legal actions of every mid-game position as play reaches it: the board is
    made afresh from the one before by its last placement (as ``apply_action`` makes it), so
    whatever the engine derives from a board (the placements it keeps) is derived again from
    the board before in each run. Returns positions listed."""
    for before, _, _ in steps:
        legal_actions(before)  # what play has already derived about the board before

    def work() -> int:
        _forget()
        for before, placement, after in steps:
            table = before.table
            assert isinstance(table, BoardTable)
            legal_actions(replace(after, table=table.with_placement(placement)))
        return len(steps)

    return work


def rescan_work(steps: Sequence[Step]) -> Work:
    """``legal_work`` with every board found by scanning all its cells, as the engine did
    before it kept anything from board to board: the same boards, each made without the one
    before."""

    def work() -> int:
        _forget()
        for before, placement, after in steps:
            table = before.table
            assert isinstance(table, BoardTable)
            made = table.with_placement(placement)
            alone = BoardTable(made.rows, made.cols, made.placements, made.grid)
            legal_actions(replace(after, table=alone))
        return len(steps)

    return work


def lake_work(rules: Rules, positions: Sequence[HandState]) -> tuple[Work, int]:
    """Score the lakes of every legal placement of every position; returns placements."""
    lakes = rules.lakes
    assert lakes is not None
    jobs = []
    for state in positions:
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
    pairs: list[str] = []
    for variant, options in _board_option_sets():
        rules = oracle.rules_of(variant, options)
        size = f"{rules.table.rows}x{rules.table.cols}"
        steps = [mid_game(rules, seed) for seed in range(positions)]
        states = [after for _, _, after in steps]
        actions = sum(len(legal_actions(s)) for s in states)
        label = f"{variant} {size} mid-game"
        contenders[f"{label}: legal-action generation"] = legal_work(steps)
        per_position[f"{label}: legal-action generation"] = actions / len(states)
        contenders[f"{label}: legal-action generation, board rescanned"] = rescan_work(steps)
        per_position[f"{label}: legal-action generation, board rescanned"] = \
            actions / len(states)
        pairs.append(label)
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
    for label in pairs:
        result.ratios.append(ratio(
            f"{label}: frontier kept / board rescanned (legal-action generation)",
            rates[f"{label}: legal-action generation"],
            rates[f"{label}: legal-action generation, board rescanned"], RESCAN_TARGET))
    return result


SECTION = Section("pijanowski", 3, "Pijanowski: legal actions and lakes in mid-game", run)
