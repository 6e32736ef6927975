#!/usr/bin/env python3
"""A complete Szczerbak engine that speaks the dominokit engine protocol, version 1.

It is written from the rule book alone, with the standard library only, and does not import
dominokit: it is what an engine author in any language would write. Run the conformance suite
against it with

    dominokit conform --engine "python3 docs/examples/szczerbak_engine.py" --variant szczerbak

Its ``hello`` declares Szczerbak only, so cases of the other games are "not applicable".

The rules it plays (see the Szczerbak page of the rule book):
- 21 tiles, no doubles; 10 each; the last tile is the widow [x|y], x facing player 0 (R-SZC-01).
- The player facing the widow's higher half starts; that half is the only open end (R-SZC-02).
- One open end; each tile goes on the end left by the previous one (R-SZC-03).
- On an end e != 0 a tile fits if one half is e and the other half is 0 or of the other
  parity (R-SZC-04); on a blank end any tile fits, either half touching (R-SZC-05).
- A player with a fitting tile must place; otherwise they pass (R-SZC-06, R-ALL-07).
- The hand ends when a hand is empty (domino) or when neither player can place (block); the
  winner has fewer pips and scores the loser's pips minus their own (R-SZC-06, R-SZC-07).
- A match is won by the first to reach 100 or more after a hand; the widow picks every
  starter (R-SZC-07, R-SZC-02).
"""

from __future__ import annotations

import json
import re
import sys
from typing import Any

PROTOCOL = 1
VARIANT = "szczerbak"
HAND_SIZE = 10
TARGET = 100
ALL_TILES = [(a, b) for a in range(7) for b in range(a + 1, 7)]
PLACEMENT = re.compile(r"([0-6])-([0-6])@([LR])([0-6])")
TILE = re.compile(r"([0-6])-([0-6])")

Tile = tuple[int, int]
Json = dict[str, Any]


class Refusal(Exception):
    """An error reply: code, message and (for illegal actions) the rule broken."""

    def __init__(self, code: str, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.rule = rule

    def to_json(self) -> Json:
        error: Json = {"code": self.code, "message": self.message}
        if self.rule:
            error["rule"] = self.rule
        return error


def text(tile: Tile) -> str:
    return f"{tile[0]}-{tile[1]}"


def parse_tile(value: Any) -> Tile:
    match = TILE.fullmatch(value) if isinstance(value, str) else None
    if not match or int(match[1]) > int(match[2]):
        raise Refusal("bad_request", f"not a tile: {value!r}")
    return int(match[1]), int(match[2])


def pips(hand: list[Tile]) -> int:
    return sum(a + b for a, b in hand)


class Hand:
    """One hand of Szczerbak, from a deal given as data (R-ALL-03)."""

    def __init__(self, deal: Any, in_match: bool = False) -> None:
        if not isinstance(deal, dict):
            raise Refusal("bad_request", "deal must be an object")
        hands = deal.get("hands")
        widow = deal.get("widow")
        if not (isinstance(hands, list) and len(hands) == 2):
            raise Refusal("bad_request", "deal.hands must hold two hands")
        self.hands = [sorted(parse_tile(t) for t in hand) for hand in hands]
        if any(len(hand) != HAND_SIZE for hand in self.hands):
            raise Refusal("bad_request", f"hands must hold {HAND_SIZE} tiles each", "R-SZC-01")
        if deal.get("stock") or deal.get("out_of_play"):
            raise Refusal("bad_request", "Szczerbak has no stock", "R-SZC-01")
        if deal.get("starter") is not None:
            # in a match the match decides every hand's starter (R-ALL-04)
            raise Refusal("bad_request", "the widow decides the starter",
                          "R-ALL-04" if in_match else "R-SZC-01")
        if not (isinstance(widow, list) and len(widow) == 2 and widow[0] != widow[1]
                and all(isinstance(p, int) and 0 <= p <= 6 for p in widow)):
            raise Refusal("bad_request", "the widow must be [x, y], two different pips",
                          "R-SZC-01")
        dealt = sorted([*self.hands[0], *self.hands[1], (min(widow), max(widow))])
        if dealt != ALL_TILES:
            raise Refusal("bad_request", "the deal is not the 21 tiles without doubles",
                          "R-SZC-01")
        x, y = widow
        self.widow = (x, y)
        # The widow lies dead half first; its higher half is the open end (R-SZC-02).
        self.chain: list[Tile] = [(min(x, y), max(x, y))]
        self.end = max(x, y)
        self.starter = 0 if x > y else 1
        self.to_move: int | None = self.starter
        self.passes = 0
        self.last_placed: list[str | None] = [None, None]
        self.result: Json | None = None
        self._check_end([])

    def placements(self, player: int) -> list[tuple[Tile, int]]:
        """(tile, touching half) for every tile of ``player`` that fits the open end."""
        out: list[tuple[Tile, int]] = []
        for a, b in self.hands[player]:
            if self.end == 0:
                out += [((a, b), a), ((a, b), b)]  # R-SZC-05: either half may touch
            elif self.end in (a, b):
                other = b if a == self.end else a
                if other == 0 or other % 2 != self.end % 2:  # R-SZC-04
                    out.append(((a, b), self.end))
        return out

    def legal(self) -> list[str]:
        if self.to_move is None:
            return []
        moves = sorted(self.placements(self.to_move))
        if not moves:
            return ["pass"]
        return [f"{text(tile)}@R{touch}" for tile, touch in moves]

    def apply(self, action: Any) -> list[Json]:
        if not isinstance(action, str):
            raise Refusal("bad_request", "action must be a string")
        placement = PLACEMENT.fullmatch(action)
        if action not in ("draw", "pass", "stop") and not placement:
            if TILE.fullmatch(action) and int(action[0]) <= int(action[2]):
                raise Refusal("illegal_action", "the widow already opened the chain",
                              "R-SZC-02")
            raise Refusal("bad_request", f"not an action in canonical notation: {action!r}")
        if placement and (int(placement[1]) > int(placement[2])
                          or int(placement[4]) not in (int(placement[1]), int(placement[2]))):
            raise Refusal("bad_request", f"not an action in canonical notation: {action!r}")
        if self.to_move is None:
            raise Refusal("illegal_action", "the hand is over", "R-ALL-14")
        player = self.to_move
        if action == "draw":
            raise Refusal("illegal_action", "Szczerbak has no drawing", "R-SZC-01")
        if action == "stop":
            raise Refusal("illegal_action", "stop only declines an extra tile", "R-ALL-13")
        if action == "pass":
            if self.placements(player):
                raise Refusal("illegal_action", "a player who can place must place",
                              "R-SZC-06")
            self.passes += 1
            self.to_move = 1 - player
            events: list[Json] = [{"type": "pass", "player": player}]
            self._check_end(events)
            return events
        assert placement is not None
        tile = (int(placement[1]), int(placement[2]))
        end, touch = placement[3], int(placement[4])
        if tile not in self.hands[player]:
            raise Refusal("illegal_action", f"{text(tile)} is not in the hand", "R-ALL-12")
        if end != "R":
            raise Refusal("illegal_action", "the chain grows at one end only", "R-SZC-03")
        if (tile, touch) not in self.placements(player):
            raise Refusal("illegal_action", f"{action} does not fit the open {self.end}",
                          "R-SZC-04")
        other = tile[1] if touch == tile[0] else tile[0]
        self.hands[player].remove(tile)
        self.chain.append((touch, other))
        self.end = other
        self.passes = 0
        self.last_placed[player] = text(tile)
        self.to_move = 1 - player
        events = [{"type": "place", "player": player, "action": action}]
        self._check_end(events)
        return events

    def _check_end(self, events: list[Json]) -> None:
        """End the hand by domino or block (checked after every action, R-ALL-10)."""
        empty = [p for p in (0, 1) if not self.hands[p]]
        if empty:
            self._finish(empty[0], "domino", events)
        elif not self.placements(0) and not self.placements(1):
            left = [pips(self.hands[0]), pips(self.hands[1])]
            winner = None if left[0] == left[1] else (0 if left[0] < left[1] else 1)
            self._finish(winner, "block", events)

    def _finish(self, winner: int | None, reason: str, events: list[Json]) -> None:
        left = [pips(self.hands[0]), pips(self.hands[1])]
        points = [0, 0]
        terms: list[Json] = []
        if winner is not None:
            for term, amount in (("opponent_pips", left[1 - winner]),
                                 ("own_pips", -left[winner])):
                if amount:
                    terms.append({"term": term, "player": winner, "points": amount,
                                  "rule": "R-SZC-07"})
            points[winner] = left[1 - winner] - left[winner]
        self.result = {"winner": winner, "reason": reason, "points": points, "pips": left,
                       "terms": terms}
        self.to_move = None
        events.append({"type": "end", "result": self.result})

    def to_json(self) -> Json:
        return {
            "variant": VARIANT, "options": {},
            "hands": [[text(t) for t in hand] for hand in self.hands],
            "stock": [], "out_of_play": [],
            "table": {"kind": "chain", "tiles": [list(t) for t in self.chain],
                      "left": None, "right": self.end},
            "starter": self.starter, "to_move": self.to_move,
            "turn": {"draws": 0, "extra": False}, "passes": self.passes, "points": [0, 0],
            "last_placed": list(self.last_placed), "widow": list(self.widow),
            "result": self.result,
        }


class Match:
    """Hands until someone's total reaches 100 or more (R-SZC-07)."""

    def __init__(self, first_starter: Any) -> None:
        if first_starter not in (0, 1):
            raise Refusal("bad_request", "first_starter must be 0 or 1")
        self.first_starter = first_starter
        self.hands_played = 0
        self.totals = [0, 0]
        self.winner: int | None = None

    def add(self, result: Json) -> None:
        self.hands_played += 1
        self.totals = [t + p for t, p in zip(self.totals, result["points"], strict=True)]
        reached = [p for p in (0, 1) if self.totals[p] >= TARGET]
        if reached:
            self.winner = max(reached, key=lambda p: self.totals[p])

    def to_json(self) -> Json:
        finished = self.winner is not None
        return {
            "variant": VARIANT, "options": {}, "first_starter": self.first_starter,
            "hands_played": self.hands_played, "totals": list(self.totals),
            "phase": "finished" if finished else f"hand {self.hands_played + 1}",
            "next": None if finished else {"starter": None, "hand_sizes": [10, 10]},
            "winner": self.winner, "finished": finished,
        }


class Engine:
    """The protocol commands; each returns the reply's result or raises Refusal."""

    def __init__(self) -> None:
        self.hand: Hand | None = None
        self.match: Match | None = None

    def hello(self, request: Json) -> Json:
        if request.get("protocol") != PROTOCOL:
            raise Refusal("unsupported", f"this engine speaks protocol {PROTOCOL}")
        return {"name": "szczerbak-example", "version": "1.0", "protocol": PROTOCOL,
                "variants": {VARIANT: {"options": {}}}}

    def _variant(self, request: Json) -> None:
        if request.get("variant") != VARIANT:
            raise Refusal("unsupported", f"only {VARIANT} is played here")
        if request.get("options"):
            raise Refusal("unsupported", "Szczerbak has no options")

    def new_hand(self, request: Json) -> Json:
        self._variant(request)
        self.hand, self.match = Hand(request.get("deal", {})), None
        return {"state": self.hand.to_json()}

    def _current(self) -> Hand:
        if self.hand is None:
            raise Refusal("no_hand", "no hand in progress")
        return self.hand

    def legal(self, request: Json) -> Json:
        return {"actions": self._current().legal()}

    def apply(self, request: Json) -> Json:
        hand = self._current()
        events = hand.apply(request.get("action"))
        if self.match is not None and hand.result is not None:
            self.match.add(hand.result)
        return {"events": events}

    def state(self, request: Json) -> Json:
        return {"state": self._current().to_json()}

    def new_match(self, request: Json) -> Json:
        self._variant(request)
        self.match, self.hand = Match(request.get("first_starter")), None
        return {"match": self.match.to_json()}

    def next_hand(self, request: Json) -> Json:
        if self.match is None:
            raise Refusal("no_match", "no match in progress")
        if self.match.winner is not None:
            raise Refusal("bad_request", "the match is over")
        if self.hand is not None and self.hand.result is None:
            raise Refusal("bad_request", "the current hand has not ended")
        hand = Hand(request.get("deal", {}), in_match=True)
        self.hand = hand
        if hand.result is not None:  # a deal can be blocked from the start
            self.match.add(hand.result)
        return {"state": hand.to_json()}

    def match_state(self, request: Json) -> Json:
        if self.match is None:
            raise Refusal("no_match", "no match in progress")
        return {"match": self.match.to_json()}

    def quit(self, request: Json) -> Json:
        return {}


def answer(engine: Engine, line: str) -> tuple[Json, bool]:
    """The reply to one request line, and whether it was ``quit``.

    Every problem becomes an error reply: an engine that crashes fails the case it was in.
    """
    try:
        request = json.loads(line)
    except ValueError:
        return {"seq": None, "error": {"code": "bad_request", "message": "not JSON"}}, False
    seq = request.get("seq") if isinstance(request, dict) else None
    if not isinstance(seq, int):
        return {"seq": None, "error": {"code": "bad_request", "message": "no seq"}}, False
    command = request.get("cmd")
    if command not in COMMANDS:
        return {"seq": seq, "error": {"code": "unsupported", "message": "unknown command"}}, False
    try:
        return {"seq": seq, "result": getattr(engine, command)(request)}, command == "quit"
    except Refusal as refusal:
        return {"seq": seq, "error": refusal.to_json()}, False


COMMANDS = ("hello", "new_hand", "legal", "apply", "state", "new_match", "next_hand",
            "match_state", "quit")


def main() -> int:
    engine = Engine()
    for line in sys.stdin:
        if not line.strip():
            continue
        reply, done = answer(engine, line)
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()  # an unflushed reply looks like a hung engine
        if done:
            break
    return 0


if __name__ == "__main__":
    sys.exit(main())
