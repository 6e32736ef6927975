"""The ``dominoes`` package's ``Game`` behind protocol v1 (``pip install 'dominokit[peers]'``).

What the engine is, read from its source (dominoes/game.py): a four-player partnership game
(seats 0 and 2 against 1 and 3) on a double-six set; the player to move must place a tile if
able, and ``make_move`` skips every player who cannot (recording a pass for each) until one
can, or ends the hand as stuck. A domino pays the remaining pips of the other hands; a stuck
hand is won by the team with fewer pips, which scores both teams' pips, a tie scoring nothing.
Two-player block dominoes is this game with seats 2 and 3 holding empty hands, so it
implements ``blocked_payout: both_totals`` and nothing else. Its matches (``Series``) deal at
random and cannot take a deal, so the adapter plays no matches.

The mapping: the protocol's seats 0 and 1 are the engine's 0 and 1, and ``Game`` is built
from the deal's hands with the deal's starter to move; the engine's board is a real chain
with a left and a right end, so ``a-b@L4`` is ``make_move(Domino(a, b), left=True)``. The
engine's valid moves list a tile only on the left when both ends show the same pips; the
adapter lists what the engine lists. Actions are forwarded unchecked; the engine's own
refusals (a tile not in hand, ends that do not match, a finished game) become
``illegal_action`` citing the rule each names.
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib import metadata
from typing import Any

from dominokit.conformance.serve.peers.common import PAIR, PeerEngine
from dominokit.conformance.wire.errors import EngineRejected
from dominokit.reference.notation import Action

try:
    import dominoes
except ImportError as missing:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        "the dominoes adapter needs the dominoes package: pip install 'dominokit[peers]'"
    ) from missing

REFUSALS: dict[type[Exception], str] = {
    dominoes.NoSuchDominoException: "R-ALL-12",
    dominoes.EndsMismatchException: "R-CLB-03",
    dominoes.GameOverException: "R-ALL-14",
}
"""The engine's named refusals and the rule each one is about (its exception's docstring)."""


def new_game(hand0: Sequence[PAIR], hand1: Sequence[PAIR], starter: int) -> Any:
    """A ``dominoes.Game`` of two hands, ``starter`` to play: a four-seat game whose seats 2
    and 3 hold no tiles, so they always pass and seats 0 and 1 play a two-player hand (the
    benchmark plays the package through this too)."""
    hands = [dominoes.Hand([dominoes.Domino(a, b) for a, b in hand])
             for hand in (hand0, hand1, [], [])]
    valid = tuple((d, True) for d in hands[starter])
    return dominoes.Game(dominoes.Board(), hands, [], starter, valid, starter, None)


class DominoesPackage(PeerEngine):
    """One protocol session over one ``dominoes.Game`` at a time."""

    NAME = "dominoes (dominokit adapter)"
    VERSION = metadata.version("dominoes")
    PAYOUT = "both_totals"
    ENGINE_WORDS = "the dominoes package"

    def __init__(self) -> None:
        super().__init__()
        self._game: Any = None

    def __repr__(self) -> str:
        return "DominoesPackage()"

    def _engine_start(self, hand0: list[PAIR], hand1: list[PAIR], starter: int) -> None:
        self._game = new_game(hand0, hand1, starter)

    def _engine_legal(self) -> list[str]:
        board = self._game.board
        out: list[str] = []
        for domino, left in self._game.valid_moves:
            a, b = sorted((domino.first, domino.second))
            if not len(board):
                out.append(f"{a}-{b}")
            else:
                end = board.left_end() if left else board.right_end()
                out.append(f"{a}-{b}@{'L' if left else 'R'}{end}")
        return out

    def _engine_apply(self, action: Action) -> None:
        assert action.tile is not None
        domino = dominoes.Domino(action.tile.low, action.tile.high)
        try:
            self._game.make_move(domino, action.end != "R")
        except tuple(REFUSALS) as refusal:
            raise EngineRejected("illegal_action", f"{type(refusal).__name__}: {refusal}",
                                 REFUSALS[type(refusal)]) from None

    def _engine_hands(self) -> list[list[PAIR]]:
        return [[(d.first, d.second) for d in self._game.hands[seat]] for seat in (0, 1)]

    def _engine_table(self) -> list[PAIR]:
        return [(d.first, d.second) for d in self._game.board.board]

    def _engine_to_move(self) -> int | None:
        turn = int(self._game.turn)
        return turn if turn in (0, 1) else None

    def _engine_over(self) -> bool:
        return self._game.result is not None

    def _engine_payout(self) -> tuple[int | None, int]:
        points = int(self._game.result.points)  # + for seats 0 and 2, - for seats 1 and 3
        if points == 0:
            return None, 0
        return (0, points) if points > 0 else (1, -points)


def make_engine() -> DominoesPackage:
    """The factory of ``--engine
    python:dominokit.conformance.serve.peers.dominoes_pkg:make_engine``."""
    return DominoesPackage()
