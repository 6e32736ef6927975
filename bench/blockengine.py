"""A hand-written block dominoes engine in plain Python: the benchmark's speed limit.

It plays exactly the bundled block game (two ends, no drawing, a pass only when stuck, the
hand ends on a domino or when neither player can place) with everything hard-coded: tiles are
``(low, high)`` pairs, a hand is a sorted list, the chain is its two end pips. It lists the
same actions in the same order as the reference (tile, then end L before R, one action per
end) so that the same index picks the same move. It knows nothing of ``spec/``; it is here
only to show how fast plain Python can play the game, and is never used as a rule oracle.
"""

from __future__ import annotations

Tile = tuple[int, int]
Move = tuple[Tile, str, int] | None
"""(tile, end "L"/"R" or "" for the opening, touching pip); None is a pass."""


class BlockHand:
    """One hand of block dominoes between players 0 and 1."""

    __slots__ = ("hands", "left", "right", "to_move", "over")

    def __init__(self, hand0: list[Tile], hand1: list[Tile], starter: int) -> None:
        self.hands = [sorted(hand0), sorted(hand1)]
        self.left = -1
        self.right = -1
        self.to_move = starter
        self.over = False

    def legal(self) -> list[Move]:
        """The mover's moves, sorted like the reference's legal list; [None] when stuck."""
        hand = self.hands[self.to_move]
        if self.left < 0:
            return [(t, "", t[0]) for t in hand]
        left, right = self.left, self.right
        out: list[Move] = []
        for t in hand:
            a, b = t
            if a == left:
                out.append((t, "L", a))
            elif b == left:
                out.append((t, "L", b))
            if a == right:
                out.append((t, "R", a))
            elif b == right:
                out.append((t, "R", b))
        return out or [None]

    def play(self, move: Move) -> None:
        """Apply a move from ``legal()``; ends the hand on a domino or a block."""
        player = self.to_move
        if move is not None:
            tile, end, touch = move
            hand = self.hands[player]
            hand.remove(tile)
            far = tile[1] if tile[0] == touch else tile[0]
            if end == "":
                self.left, self.right = tile
            elif end == "L":
                self.left = far
            else:
                self.right = far
            if not hand:
                self.over = True
                return
        self.to_move = 1 - player
        if not self._can_play(self.hands[1 - player]) and not self._can_play(self.hands[player]):
            self.over = True

    def _can_play(self, hand: list[Tile]) -> bool:
        left, right = self.left, self.right
        return any(a in (left, right) or b in (left, right) for a, b in hand)
