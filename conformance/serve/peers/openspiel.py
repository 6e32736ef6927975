"""OpenSpiel's ``python_block_dominoes`` behind protocol v1 (``pip install 'dominokit[peers]'``).

What the engine is, read from its source (open_spiel/python/games/block_dominoes.py): 7 tiles
each from a double-six set, the first seven dealt to its player 0, who always starts; any tile
opens; a player with no tile to place is skipped (there is no pass action); a hand ends by
domino or when neither can place; ``returns()`` pays the lighter hand the loser's pips, a tie
pays nothing. So it implements ``blocked_payout: loser_pips`` and nothing else, and plays no
matches. It does not check moves: ``apply_action`` trusts its caller, and an illegal move
corrupts its state or raises.

The mapping: the deal's starter becomes the engine's player 0 (seats are renumbered, not
reordered); an action ``a-b@L4`` is the engine's "tile (a, b) on an open 4" (the engine keeps
the open ends as an unordered pair, so the adapter keeps the chain's left-to-right order itself,
placing each tile on the named end, or on the other end when only that one shows the pips); an
engine move on a pip both ends show is both ``@L`` and ``@R``. Actions are forwarded unchecked.
"""

from __future__ import annotations

import re
from importlib import metadata
from typing import Any

from dominokit.conformance.serve.peers.common import PAIR, PeerEngine
from dominokit.conformance.wire.errors import EngineRejected
from dominokit.reference.notation import Action

try:
    import open_spiel.python.games  # noqa: F401  (registers python_block_dominoes)
    import pyspiel
except ImportError as missing:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        "the OpenSpiel adapter needs open_spiel: pip install 'dominokit[peers]'") from missing

GAME_NAME = "python_block_dominoes"
HAND_SIZE = 7
_ACTION_RE = re.compile(r"p(\d) tile:\((\d)\.0, (\d)\.0\) pip:(None|\d\.0)")
_DEAL_RE = re.compile(r"Deal \((\d)\.0, (\d)\.0\)")
Key = tuple[int, PAIR, int | None]


def tables(game: Any) -> tuple[dict[Key, int], dict[int, Key], dict[PAIR, int]]:
    """The engine's action ids read from its own action strings, both ways (a key is the
    engine's player, the tile and the pip of the end it goes on, None for the first tile), and
    its deal ids by tile; the benchmark plays the engine through these too."""
    state = game.new_initial_state()
    moves: dict[Key, int] = {}
    for action in range(game.num_distinct_actions()):
        match = _ACTION_RE.fullmatch(state.action_to_string(0, action))
        assert match is not None, state.action_to_string(0, action)
        edge = None if match.group(4) == "None" else int(match.group(4)[0])
        moves[(int(match.group(1)), (int(match.group(2)), int(match.group(3))), edge)] = action
    deals: dict[PAIR, int] = {}
    for outcome, _ in state.chance_outcomes():
        found = _DEAL_RE.fullmatch(state.action_to_string(pyspiel.PlayerId.CHANCE, outcome))
        assert found is not None
        deals[(int(found.group(1)), int(found.group(2)))] = outcome
    return moves, {action: key for key, action in moves.items()}, deals


class OpenSpielBlockDominoes(PeerEngine):
    """One protocol session over one ``python_block_dominoes`` state at a time."""

    NAME = f"open_spiel {GAME_NAME} (dominokit adapter)"
    VERSION = metadata.version("open_spiel")
    PAYOUT = "loser_pips"
    ENGINE_WORDS = f"OpenSpiel's {GAME_NAME}"

    def __init__(self) -> None:
        super().__init__()
        self._game = pyspiel.load_game(GAME_NAME)
        self._moves, self._keys, self._deals = tables(self._game)
        self._state: Any = None
        self._chain: list[PAIR] = []

    def __repr__(self) -> str:
        return "OpenSpielBlockDominoes()"

    def _seat(self, engine_player: int) -> int:
        return (engine_player + self._starter) % 2

    def _engine_start(self, hand0: list[PAIR], hand1: list[PAIR], starter: int) -> None:
        if len(hand0) != HAND_SIZE or len(hand1) != HAND_SIZE:
            raise EngineRejected(
                "bad_request", f"{self.ENGINE_WORDS} deals exactly {HAND_SIZE} tiles to each "
                "hand; this deal cannot be given to it")
        state = self._game.new_initial_state()
        first, second = (hand0, hand1) if starter == 0 else (hand1, hand0)
        for tile in first + second:
            state.apply_action(self._deals[tile])
        self._state = state
        self._chain = []
        self._starter = starter

    def _engine_legal(self) -> list[str]:
        player = self._state.current_player()
        out: list[str] = []
        for action in self._state.legal_actions(player):
            _, (a, b), edge = self._keys[action]
            if edge is None:
                out.append(f"{a}-{b}")
                continue
            out.extend(f"{a}-{b}@{side}{edge}" for side in self._sides_showing(edge))
        return out

    def _sides_showing(self, pip: int) -> list[str]:
        if not self._chain:
            return []
        return [side for side, shown in (("L", self._chain[0][0]), ("R", self._chain[-1][1]))
                if shown == pip]

    def _engine_apply(self, action: Action) -> None:
        assert action.tile is not None
        player = max(self._state.current_player(), 0)
        tile = (action.tile.low, action.tile.high)
        key = (player, tile, action.touch if action.kind == "chain" else None)
        self._state.apply_action(self._moves[key])  # unchecked, as the engine is
        self._place(tile, action)

    def _place(self, tile: PAIR, action: Action) -> None:
        """Follow the engine's move on the chain: the named end, or the one showing the pips."""
        if action.kind == "opening" or not self._chain:
            self._chain = [tile]
            return
        touch = action.touch
        sides = self._sides_showing(touch) if touch is not None else []
        side = action.end if action.end in sides else (sides[0] if sides else action.end)
        other = tile[1] if tile[0] == touch else tile[0]
        if side == "L":
            self._chain.insert(0, (other, touch if touch is not None else other))
        else:
            self._chain.append((touch if touch is not None else other, other))

    def _engine_hands(self) -> list[list[PAIR]]:
        hands = [[(int(a), int(b)) for a, b in hand] for hand in self._state.hands]
        return hands if self._starter == 0 else [hands[1], hands[0]]

    def _engine_table(self) -> list[PAIR]:
        return list(self._chain)

    def _engine_to_move(self) -> int | None:
        player = self._state.current_player()
        return self._seat(player) if player >= 0 else None

    def _engine_over(self) -> bool:
        return bool(self._state.is_terminal())

    def _engine_payout(self) -> tuple[int | None, int]:
        returns = [round(value) for value in self._state.returns()]
        for engine_player, value in enumerate(returns):
            if value > 0:
                return self._seat(engine_player), value
        return None, 0


def make_engine() -> OpenSpielBlockDominoes:
    """The factory ``--engine python:dominokit.conformance.serve.peers.openspiel:make_engine``
    calls."""
    return OpenSpielBlockDominoes()
