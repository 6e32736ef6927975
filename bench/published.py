"""Block dominoes through two published Python engines' own game objects (not a protocol).

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
from typing import Any

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
    """The ``dominoes`` package (PyPI), a four-seat game: seats 2 and 3 hold no tiles, so they
    always pass and seats 0 and 1 play a two-player hand."""
    import dominoes

    def play(hand0: Sequence[Tile], hand1: Sequence[Tile],
             script: Sequence[Step]) -> tuple[int, int]:
        hands = [dominoes.Hand([dominoes.Domino(a, b) for a, b in hand0]),
                 dominoes.Hand([dominoes.Domino(a, b) for a, b in hand1]),
                 dominoes.Hand([]), dominoes.Hand([])]
        game = dominoes.Game(dominoes.Board(), hands, [], 0,
                             tuple((d, True) for d in hands[0]), 0, None)
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
        return (sum(a + b for a, b in hands[0]), sum(a + b for a, b in hands[1]))

    return play


def openspiel_player() -> Play:
    """OpenSpiel's ``python_block_dominoes``: the deal is its 14 chance outcomes, player 0's
    seven tiles first; legal actions are ids of (player, tile, edge pip) entries."""
    import pyspiel
    from open_spiel.python.games import block_dominoes as bd

    game = pyspiel.load_game("python_block_dominoes")
    deck = {(int(a), int(b)): i for i, (a, b) in enumerate(bd._DECK)}
    entries: list[Any] = bd._ACTIONS

    def play(hand0: Sequence[Tile], hand1: Sequence[Tile],
             script: Sequence[Step]) -> tuple[int, int]:
        state = game.new_initial_state()
        for tile in (*hand0, *hand1):
            state.apply_action(deck[tile])
        for step in script:
            if step is None:
                continue
            low, high, touch = step
            for action in state.legal_actions():
                entry = entries[action]
                if entry.tile == (low, high) and (entry.edge is None or entry.edge == touch):
                    state.apply_action(action)
                    break
            else:
                raise AssertionError(f"open_spiel: no legal move {step}")
        pips = [int(sum(a + b for a, b in hand)) for hand in state.hands]
        return pips[0], pips[1]

    return play


PUBLISHED: dict[str, tuple[str, Callable[[], Play]]] = {
    "dominoes": ("dominoes", dominoes_player),
    "OpenSpiel python_block_dominoes": ("pyspiel", openspiel_player),
}
"""Contender name -> (module that must be installed, factory of its adapter)."""
