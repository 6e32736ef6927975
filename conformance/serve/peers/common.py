"""The protocol side shared by the adapters: requests checked, states and results written.

An adapter subclass drives its engine; this base turns the engine's answers into protocol
values. What it checks itself is only the protocol's form (the variant, the options ``hello``
lists, canonical notation, a deal whose tiles the engine's set holds): every rule of the game
is left to the engine, so a rule the engine does not enforce shows up in the report.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from dominokit.conformance.wire.errors import EngineRejected
from dominokit.conformance.wire.protocol import JsonObject
from dominokit.reference.errors import NotationError
from dominokit.reference.notation import Action
from dominokit.reference.tiles import Tile

PEER_PROTOCOL = 1
"""The adapters speak protocol 1 (no undo): the kit reaches them through its fallback."""

VARIANT = "classic_block"
OPTION = "blocked_payout"
PAIR = tuple[int, int]

TERM_RULES: Mapping[str, str] = {"opponent_pips": "R-CLB-07", "own_pips": "R-CLB-08"}
"""The rule ids behind the two scoring terms an engine's payout is split into."""


def tile_text(tile: PAIR) -> str:
    """The canonical spelling of a tile given as a pair in either order."""
    return str(Tile.of(*tile))


def parse_action(text: Any) -> Action:
    """An action in canonical notation, or ``bad_request`` as the protocol asks."""
    if not isinstance(text, str):
        raise EngineRejected("bad_request", f"an action is a string, got {text!r}")
    try:
        return Action.parse(text)
    except NotationError as error:
        raise EngineRejected("bad_request", str(error)) from None


def pips(hand: Sequence[PAIR]) -> int:
    return sum(a + b for a, b in hand)


class PeerEngine:
    """Protocol v1 verbs for a two-player chain engine with one hand and no match.

    Subclasses set ``NAME``, ``VERSION`` and ``PAYOUT`` (the one ``blocked_payout`` value the
    engine implements) and the ``_engine_*`` hooks. Players are the protocol's seats.
    """

    NAME: ClassVar[str]
    VERSION: ClassVar[str]
    PAYOUT: ClassVar[str]
    ENGINE_WORDS: ClassVar[str]
    """How the engine is named in refusals, e.g. "OpenSpiel's python_block_dominoes"."""

    def __init__(self) -> None:
        self._started = False
        self._starter = 0
        self._out_of_play: list[str] = []
        self._last: list[str | None] = [None, None]

    # -- the protocol verbs -------------------------------------------------------------

    def hello(self) -> JsonObject:
        """Only ``classic_block``, with the one payout the engine computes."""
        return {
            "name": self.NAME,
            "version": self.VERSION,
            "protocol": PEER_PROTOCOL,
            "variants": {VARIANT: {"options": {OPTION: [self.PAYOUT]}}},
        }

    def new_hand(self, variant: str, options: Mapping[str, Any],
                 deal: Mapping[str, Any]) -> JsonObject:
        if variant != VARIANT:
            raise EngineRejected("unsupported", f"{self.ENGINE_WORDS} plays {VARIANT} only")
        for name, value in options.items():
            if name != OPTION or value != self.PAYOUT or type(value) is not str:
                raise EngineRejected(
                    "unsupported", f"{self.ENGINE_WORDS} supports only {OPTION}={self.PAYOUT}")
        hands = deal.get("hands")
        starter = deal.get("starter")
        if not isinstance(hands, list) or len(hands) != 2:
            raise EngineRejected("bad_request", "a deal has two hands")
        if starter not in (0, 1) or isinstance(starter, bool):
            raise EngineRejected(
                "bad_request", f"{self.ENGINE_WORDS} needs the deal's starter (0 or 1)")
        try:
            tiles = [[Tile.parse(text) for text in hand] for hand in hands]
        except (NotationError, TypeError):
            raise EngineRejected(
                "bad_request", f"{self.ENGINE_WORDS} holds only the tiles of a double-six "
                "set, written low-high") from None
        pairs = [[(t.low, t.high) for t in hand] for hand in tiles]
        self._engine_start(pairs[0], pairs[1], starter)
        self._started = True
        self._starter = starter
        self._out_of_play = sorted(str(t) for t in deal.get("out_of_play") or [])
        self._last = [None, None]
        return self.state()

    def legal(self) -> list[str]:
        self._require_hand()
        if self._engine_over():
            return []
        return sorted(self._engine_legal(), key=lambda text: Action.parse(text).sort_key())

    def apply(self, action: Any) -> list[JsonObject]:
        self._require_hand()
        parsed = parse_action(action)
        if parsed.kind not in ("opening", "chain"):
            raise EngineRejected(
                "bad_request", f"{self.ENGINE_WORDS} has no {parsed.kind} action: a player who "
                "cannot place a tile is skipped by the engine itself")
        player = self._engine_to_move()
        self._engine_apply(parsed)
        mover = player if player is not None else 0
        assert parsed.tile is not None
        self._last[mover] = str(parsed.tile)
        events: list[JsonObject] = [{"type": "place", "player": mover, "action": str(parsed)}]
        result = self.result()
        if result is not None:
            events.append({"type": "end", "result": result})
        return events

    def state(self) -> JsonObject:
        self._require_hand()
        table = self._engine_table()
        over = self._engine_over()
        hands = self._engine_hands()
        return {
            "variant": VARIANT,
            "options": {OPTION: self.PAYOUT},
            "hands": [sorted(tile_text(t) for t in hand) for hand in hands],
            "stock": [],
            "out_of_play": list(self._out_of_play),
            "table": {
                "kind": "chain",
                "tiles": [list(t) for t in table],
                "left": table[0][0] if table else None,
                "right": table[-1][1] if table else None,
            },
            "starter": self._starter,
            "to_move": None if over else self._engine_to_move(),
            "turn": {"draws": 0, "extra": False},
            "passes": 0,
            "points": [0, 0],
            "last_placed": list(self._last),
            "widow": None,
            "result": self.result(),
        }

    def result(self) -> JsonObject | None:
        """The hand's result from the engine's own payout, split into the spec's terms.

        The engine reports one number for the winner; the loser's pips are
        ``opponent_pips`` and whatever the engine pays beyond them is ``own_pips`` (both
        totals pay the winner's own pips too). Nothing is recomputed by the rules.
        """
        if not self._engine_over():
            return None
        hands = self._engine_hands()
        left = [pips(hand) for hand in hands]
        winner, paid = self._engine_payout()
        reason = "domino" if not all(hands) else "block"
        points = [0, 0]
        terms: list[JsonObject] = []
        if winner is not None:
            points[winner] = paid
            loser_pips = left[1 - winner]
            for term, value in (("opponent_pips", min(paid, loser_pips)),
                                ("own_pips", paid - min(paid, loser_pips))):
                if value:
                    terms.append({"term": term, "player": winner, "points": value,
                                  "rule": TERM_RULES[term]})
        return {"winner": winner, "reason": reason, "points": points, "pips": left,
                "terms": terms}

    def new_match(self, variant: str, options: Mapping[str, Any], first_starter: Any) -> None:
        raise EngineRejected(
            "unsupported", f"{self.ENGINE_WORDS} plays one hand: it has no match")

    def next_hand(self, deal: Mapping[str, Any]) -> None:
        raise EngineRejected("no_match", "no match in progress (the engine has no match)")

    def match_state(self) -> None:
        raise EngineRejected("no_match", "no match in progress (the engine has no match)")

    def quit(self) -> JsonObject:
        return {}

    def _require_hand(self) -> None:
        if not self._started:
            raise EngineRejected("no_hand", "no hand in progress (send new_hand)")

    # -- the engine hooks ---------------------------------------------------------------

    def _engine_start(self, hand0: list[PAIR], hand1: list[PAIR], starter: int) -> None:
        raise NotImplementedError

    def _engine_legal(self) -> list[str]:
        """The engine's legal moves in notation (the protocol's seats and ends)."""
        raise NotImplementedError

    def _engine_apply(self, action: Action) -> None:
        raise NotImplementedError

    def _engine_hands(self) -> list[list[PAIR]]:
        raise NotImplementedError

    def _engine_table(self) -> list[PAIR]:
        """The chain from left to right, each tile oriented as it lies."""
        raise NotImplementedError

    def _engine_to_move(self) -> int | None:
        raise NotImplementedError

    def _engine_over(self) -> bool:
        raise NotImplementedError

    def _engine_payout(self) -> tuple[int | None, int]:
        """The winner (None for a tie) and what the engine pays the winner."""
        raise NotImplementedError
