"""Hands built on purpose: a deal and its actions that reach a position no seeded search is
sure to find.

A catch in a blocked hand needs the whole stock drawn, both chain ends dead for both players
and the loser left with one listed tile; random play gets there too seldom to rely on. Deals
are data (R-ALL-03), so the kit may deal the tiles in the order a chosen line of play needs:
the players lay a trail of tiles on the chain's right end in turn, each drawing the next tile
they need when the stock holds it, and each keeps back the tiles it is meant to be left with.
The reference plays every action and decides what follows; whoever uses a built hand must
still check that it reaches what it was built for. A variant whose mechanics do not allow the
line (no free draw, no pass at will, a board) gets None, never an error.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from typing import Any

from dominokit.reference import (
    DealError,
    IllegalActionError,
    Rules,
    Tile,
    apply_action,
    legal_actions,
    new_hand,
)
from dominokit.reference.deal import Deal

JsonObject = dict[str, Any]
Script = tuple[JsonObject, tuple[str, ...]]
"""A deal (as JSON) and the actions that play it."""


def trail(tiles: Sequence[Tile], start: int) -> list[Tile] | None:
    """Every tile of ``tiles`` once, each sharing a half with the next, the first starting at
    pip ``start`` and the last ending there (an Euler circuit, Hierholzer's algorithm); None
    when the tiles make no such circuit."""
    edges: dict[int, list[tuple[int, int]]] = defaultdict(list)
    degree: Counter[int] = Counter()
    for index, tile in enumerate(tiles):
        degree.update((tile.low, tile.high))
        edges[tile.low].append((tile.high, index))
        if not tile.is_double:
            edges[tile.high].append((tile.low, index))
    if any(count % 2 for count in degree.values()):
        return None
    used = [False] * len(tiles)
    stack: list[tuple[int, int | None]] = [(start, None)]
    circuit: list[int] = []
    while stack:
        pip, via = stack[-1]
        while edges[pip] and used[edges[pip][-1][1]]:
            edges[pip].pop()
        if edges[pip]:
            other, index = edges[pip].pop()
            used[index] = True
            stack.append((other, index))
        else:
            stack.pop()
            if via is not None:
                circuit.append(via)
    if len(circuit) != len(tiles):
        return None
    return [tiles[i] for i in reversed(circuit)]


def _touches(placements: Sequence[Tile]) -> list[int | None] | None:
    """For each tile after the first, the half it shares with the tile before it (None for
    the opening); None when the tiles do not follow one another."""
    if not placements:
        return []
    first, rest = placements[0], placements[1:]
    for start in (first.low, first.high):
        end = first.other(start)
        out: list[int | None] = [None]
        for tile in rest:
            if end not in (tile.low, tile.high):
                break
            out.append(end)
            end = tile.other(end)
        else:
            return out
    return None


def script(rules: Rules, placements: Sequence[Tile], keep: tuple[Sequence[Tile], Sequence[Tile]],
           tail: Sequence[str] = ()) -> Script | None:
    """Player 0 opens and the players then place ``placements`` in turn, each tile against
    the half it shares with the one before (on the right end when both ends fit), drawing
    only when the next tile they must place is not in hand. Player ``p`` is dealt ``keep[p]``
    and its first placements; the stock holds the rest in the order they are drawn, then
    every unused tile; ``tail`` follows the last placement."""
    size = rules.setup.hand_size
    if size is None or rules.is_board:
        return None
    own = ([t for i, t in enumerate(placements) if i % 2 == 0],
           [t for i, t in enumerate(placements) if i % 2 == 1])
    hands = tuple([*keep[p], *own[p][:size - len(keep[p])]] for p in (0, 1))
    dealt = {t for hand in hands for t in hand}
    drawn = [t for t in placements if t not in dealt]
    rest = [t for t in rules.tiles.tiles if t not in dealt and t not in drawn]
    deal = Deal(hands=(tuple(sorted(hands[0])), tuple(sorted(hands[1]))),
                stock=tuple(drawn + rest), starter=0)
    touches = _touches(placements)
    if touches is None:
        return None
    actions: list[str] = []
    try:
        state = new_hand(rules, deal)
        for index, (tile, touch) in enumerate(zip(placements, touches, strict=True)):
            mover = index % 2
            while state.to_move == mover and tile not in state.hands[mover]:
                state, _ = apply_action(state, "draw")
                actions.append("draw")
            fits = [a for a in legal_actions(state) if a.tile == tile and a.touch == touch]
            fits.sort(key=lambda a: a.end != "R")
            if state.to_move != mover or not fits:
                return None
            state, _ = apply_action(state, fits[0])
            actions.append(str(fits[0]))
        for action in tail:
            state, _ = apply_action(state, action)
            actions.append(action)
    except (DealError, IllegalActionError):
        return None
    return deal.to_json(), tuple(actions)


def _doubles(rules: Rules, avoid: Sequence[Tile]) -> list[Tile]:
    """The doubles in play, fewest pips first, without ``avoid``."""
    return [t for t in rules.tiles.tiles if t.is_double and t not in avoid]


def _laid(rules: Rules, kept: Sequence[Tile]) -> list[Tile] | None:
    """A trail of every tile not ``kept``, from (and back to) the lowest pip no kept tile
    shows, so that both chain ends show that pip when it is all laid."""
    shown = {pip for t in kept for pip in (t.low, t.high)}
    start = next((p for p in range(rules.tiles.max_pip + 1) if p not in shown), None)
    if start is None:
        return None
    return trail([t for t in rules.tiles.tiles if t not in kept], start)


def caught_in_block(rules: Rules, tile: Tile) -> Script | None:
    """The stock drawn out, both ends dead, player 0 left holding only ``tile`` and player 1
    only the lowest other double: a blocked hand player 1 wins, catching ``tile``."""
    lowest = _doubles(rules, [tile])[:1]
    laid = _laid(rules, [tile, *lowest])
    if not lowest or laid is None:
        return None
    return script(rules, laid, ([tile], lowest))


def caught_after_passes(rules: Rules, tile: Tile) -> Script | None:
    """Player 0 lays all but ``tile``; player 1, holding the two lowest other doubles, and
    then player 0 pass: a mutually passed hand player 1 wins, catching ``tile``."""
    size = rules.setup.hand_size
    kept = _doubles(rules, [tile])[:2]
    laid = _laid(rules, [tile, *kept])
    if size is None or len(kept) < 2 or laid is None:
        return None
    return script(rules, laid[:2 * (size - 1) - 1], ([tile], kept), ("pass", "pass"))


def left_with_two(rules: Rules, tile: Tile) -> Script | None:
    """Player 1 goes out while player 0 still holds ``tile`` and the lowest other double."""
    size = rules.setup.hand_size
    kept = [tile, *_doubles(rules, [tile])[:1]]
    laid = _laid(rules, kept)
    if size is None or len(kept) < 2 or laid is None:
        return None
    return script(rules, laid[:2 * size], (kept, ()))


CAUGHT = {"block": caught_in_block, "mutual_pass": caught_after_passes}
"""The built hand with a catch, by the end condition that ends it."""
