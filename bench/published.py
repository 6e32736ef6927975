"""Block dominoes through two published Python engines' own game objects (not a protocol),
set up by the same adapters the conformance kit puts them through (``conformance/serve/peers/``).

Each adapter plays a deal given as two hands of ``(low, high)`` pairs, player 0 first, and
follows a script of moves chosen by the reference: ``(low, high, touching pip)`` per
placement, None for a pass. Both packages pass for a stuck player by themselves, so a None
is skipped; a placement is found among the package's own legal moves by its tile and the pip
of the end it goes on (the end's side is not compared: two ends showing the same pip lead to
the same game). An adapter returns the pips left in each hand, which the benchmark compares
with the reference's before timing anything. A package that is not installed is skipped.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Sequence

Tile = tuple[int, int]
Step = tuple[int, int, int] | None
Play = Callable[[Sequence[Tile], Sequence[Tile], Sequence[Step]], tuple[int, int]]


def installed(module: str) -> bool:
    """True when ``module`` can be imported (without importing it)."""
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def dominoes_player() -> Play:
    """The ``dominoes`` package (PyPI), its game built as the conformance adapter builds it
    (``peers.dominoes_pkg.new_game``), then played through its own ``valid_moves``."""
    from dominokit.conformance.serve.peers.dominoes_pkg import new_game

    def play(hand0: Sequence[Tile], hand1: Sequence[Tile],
             script: Sequence[Step]) -> tuple[int, int]:
        game = new_game(hand0, hand1, 0)
        for step in script:
            if step is None:
                continue
            low, high, touch = step
            board = game.board
            empty = len(board) == 0
            for d, left in game.valid_moves:
                first, second = d
                if (min(first, second), max(first, second)) != (low, high):
                    continue
                if empty or (board.left_end() if left else board.right_end()) == touch:
                    game.make_move(d, left)
                    break
            else:
                raise AssertionError(f"dominoes: no legal move {step}")
        hands = game.hands
        return (sum(a + b for a, b in hands[0]), sum(a + b for a, b in hands[1]))

    return play


def openspiel_player() -> Play:
    """OpenSpiel's ``python_block_dominoes``: the deal is its 14 chance outcomes, player 0's
    seven tiles first; a move is found by its key in the action table the conformance adapter
    reads from the engine's own action strings (``peers.openspiel.tables``)."""
    import pyspiel

    from dominokit.conformance.serve.peers.openspiel import GAME_NAME, tables

    game = pyspiel.load_game(GAME_NAME)
    moves, _, deals = tables(game)

    def play(hand0: Sequence[Tile], hand1: Sequence[Tile],
             script: Sequence[Step]) -> tuple[int, int]:
        state = game.new_initial_state()
        for tile in (*hand0, *hand1):
            state.apply_action(deals[tile])
        first = True
        for step in script:
            if step is None:
                continue
            low, high, touch = step
            key = (state.current_player(), (low, high), None if first else touch)
            if key not in moves or moves[key] not in state.legal_actions():
                raise AssertionError(f"open_spiel: no legal move {step}")
            state.apply_action(moves[key])
            first = False
        pips = [int(sum(a + b for a, b in hand)) for hand in state.hands]
        return pips[0], pips[1]

    return play


PUBLISHED: dict[str, tuple[str, Callable[[], Play]]] = {
    "dominoes": ("dominoes", dominoes_player),
    "OpenSpiel python_block_dominoes": ("pyspiel", openspiel_player),
}
"""Contender name -> (module that must be installed, factory of its adapter)."""
