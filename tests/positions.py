"""Positions for the rule tests: the tile sets, deals written out tile by tile, legal play.

The rule tests check hand-worked expectations, so each position must be exactly the one their
comments describe. Deals are therefore built from named tiles (R-ALL-03) with everything not
named filled in a fixed order, and play goes through ``play``, which first checks that the
engine lists each action as legal: a mistyped script fails at the action that is wrong, not
later at an assertion that looks unrelated. The tile ids are written out here, independently
of ``dominokit.reference``, so the tests do not take the set from the code they check.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from dominokit.reference import Deal, Event, HandState, apply_action, legal_actions

FULL_SET: tuple[str, ...] = tuple(f"{a}-{b}" for a in range(7) for b in range(a, 7))
"""The 28 tiles of the double-six set, low half first, in set order (R-ALL-01)."""

NO_DOUBLES: tuple[str, ...] = tuple(t for t in FULL_SET if t[0] != t[2])
"""The 21 tiles that are not doubles: the Szczerbak set (R-SZC-01)."""


def rest(universe: Iterable[str], *taken: Iterable[str]) -> list[str]:
    """The tiles of ``universe`` not in any of ``taken``, in the universe's order.

    Tests name only the tiles that matter; this fills the stock or the tiles out of play with
    the others in a fixed order, so a deal is the same on every run.
    """
    used = {t for group in taken for t in group}
    return [t for t in universe if t not in used]


def legal(state: HandState) -> set[str]:
    """The legal actions as notation strings, to compare with a set worked out by hand."""
    return {str(a) for a in legal_actions(state)}


def play_events(state: HandState, actions: Sequence[str]) -> tuple[HandState, list[Event]]:
    """Apply each action after checking that the hand is on and the engine lists it as legal.

    Returns the final state and every event emitted, in order, for tests that check points,
    lakes or draws. The legality check makes a wrong script fail at its first wrong action.
    """
    emitted: list[Event] = []
    for action in actions:
        assert state.result is None, f"the hand ended before {action}"
        assert action in legal(state), (action, sorted(legal(state)))
        state, events = apply_action(state, action)
        emitted.extend(events)
    return state, emitted


def play(state: HandState, actions: Sequence[str]) -> HandState:
    """``play_events`` for tests that only need the position it leads to."""
    return play_events(state, actions)[0]


def chain_deal(p0: Sequence[str], p1: Sequence[str], stock_front: Sequence[str] = (),
               starter: int = 0) -> Deal:
    """A 28-tile chain deal; the stock starts with ``stock_front``, then the rest in set order.

    A draw takes the stock's first tile (R-ALL-03), so ``stock_front`` fixes what each draw in
    a test brings.
    """
    stock = [*stock_front, *rest(FULL_SET, p0, p1, stock_front)]
    return Deal.from_json({"hands": [list(p0), list(p1)], "stock": stock, "starter": starter})


def widow_deal(p0: Sequence[str], widow: Sequence[int],
               p1: Sequence[str] | None = None) -> Deal:
    """A Szczerbak deal: the widow ``[x, y]`` (x faces player 0) decides the starter (R-SZC-02).

    ``p1`` defaults to the non-doubles that neither ``p0`` nor the widow holds.
    """
    widow_tile = f"{min(widow)}-{max(widow)}"
    hand1 = rest(NO_DOUBLES, p0, [widow_tile]) if p1 is None else list(p1)
    return Deal.from_json({"hands": [list(p0), hand1], "widow": list(widow), "starter": None})


def board_deal(p0: Sequence[str], p1: Sequence[str],
               out_of_play: Sequence[str] | None = None) -> Deal:
    """A Pijanowski deal with player 0 to start (R-PIJ-02, R-PIJ-11).

    ``out_of_play`` defaults to the tiles of the set that neither hand holds, in set order:
    none when the hands hold 14 tiles each or one whole set each.
    """
    unseen = rest(FULL_SET, p0, p1) if out_of_play is None else list(out_of_play)
    return Deal.from_json({"hands": [list(p0), list(p1)], "out_of_play": unseen, "starter": 0})
