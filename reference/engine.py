"""The engine's verbs: start a hand, list legal actions, apply one, read the result.

The engine interprets the mechanics named in the spec (opening, matching, parity, draw, pass,
extra tile, end conditions) through Rules; it never asks which variant it plays. ``apply_action``
checks an action before applying it and, when it is illegal, names the most specific rule it
breaks, so that the conformance kit can compare the rules two engines cite.
"""

from __future__ import annotations

import bisect
import itertools
import operator
import weakref
from collections.abc import Mapping, Sequence

from dominokit.reference import board, board_plain, chain
from dominokit.reference.board_table import BoardPlacement, BoardTable
from dominokit.reference.chain import ChainTable
from dominokit.reference.deal import Deal, validate_deal
from dominokit.reference.errors import IllegalActionError
from dominokit.reference.notation import Action, opening_action
from dominokit.reference.rules import Rules, load_rules
from dominokit.reference.scoring import score_hand
from dominokit.reference.state import (
    Event,
    HandResult,
    HandState,
    Turn,
    event,
    evolve,
    make_state,
)
from dominokit.reference.tiles import MAX_NOTATION_PIP, TILE_ORDER, Tile
from dominokit.spec.spec import Variant

Problem = tuple[str, str]
"""(rule id, what is wrong) for an illegal action."""

_NEXT_TURN = Turn()
"""A fresh turn; Turn is frozen, so every state can share this one value."""
_EXTRA_TURN = Turn(0, True)
"""The turn after the extra tile's grant (R-PIJ-07), shared like ``_NEXT_TURN``."""


def new_hand(variant: str | Variant | Rules, deal: Deal,
             options: Mapping[str, object] | None = None) -> HandState:
    """The state at the start of a hand dealt by ``deal``; DealError if the deal does not fit.

    ``variant`` is a variant id, a loaded Variant, or Rules already built. The end conditions
    are checked at once (R-ALL-10): a hand can be blocked before its first action.
    """
    rules = variant if isinstance(variant, Rules) else load_rules(variant, options)
    validate_deal(rules, deal)
    table: ChainTable | BoardTable
    starter = deal.starter
    if rules.is_board:
        table = BoardTable(rules.table.rows, rules.table.cols)
    elif rules.opening.policy == "widow":
        assert deal.widow is not None  # validate_deal: a widow remainder deals a widow
        table, starter = chain.start_from_widow(deal.widow)
    else:
        table = ChainTable()
    assert starter is not None  # validate_deal: an alternate starter is given
    state = make_state(rules, deal.hands, deal.stock, deal.out_of_play, table, starter,
                       starter, _NEXT_TURN, 0, (0, 0), (None, None), deal.widow, None)
    return _settle(state, [])[0]


def legal_actions(state: HandState) -> list[Action]:
    """Every legal action, sorted by ``Action.sort_key``, each once; [] when the hand is over.

    ``list_legal`` works the list out once per state and the state keeps it (``_legal``,
    when it is short); each call hands out a fresh list, which the caller may change.
    """
    legal = state._legal
    if legal is not None:
        return list(legal)
    actions = list_legal(state)
    _remember_legal(state, actions)
    return actions


def list_legal(state: HandState) -> list[Action]:
    """The plain definition of ``legal_actions``: the mover's placements, then a draw and a
    pass where the draw and pass rules allow them (a stop while an extra tile is pending)."""
    if state.result is not None or state.to_move is None:
        return []
    places = _placements(state, state.to_move)
    if state.turn.extra:
        return [*places, Action.STOP]
    if state.table.empty:
        return places
    can_draw = _draw_allowed(state, bool(places))
    actions = places
    if can_draw:
        actions.append(Action.DRAW)
    if _pass_allowed(state, bool(places), can_draw):
        actions.append(Action.PASS)
    return actions


def _remember_legal(state: HandState, actions: list[Action]) -> None:
    """Keep ``actions``, the state's ``list_legal``, on the state (a memo, not part of the
    value) when the list is short (``LISTED_SCAN``): a board's thousands of placements are
    already kept with the board (``board_table.MEMO``), and a state kept for undo should not
    hold them twice."""
    if len(actions) <= LISTED_SCAN:
        object.__setattr__(state, "_legal", tuple(actions))


LISTED_SCAN = 64
"""The longest legal list a state remembers, and so the longest that ``apply_action``
searches for the action it is given (by identity, in C). A chain game lists a handful; a
board lists thousands, where one check by the rules costs less than the search."""


def _listed(state: HandState, action: Action) -> bool:
    """True when ``action`` is, by identity, one of the actions listed for ``state``: it is
    then legal without checking it again (tests/reference check that every listed action
    passes ``check_action``). False says nothing: the caller checks."""
    legal = state._legal
    return legal is not None and id(action) in map(id, legal)


def hand_result(state: HandState) -> HandResult | None:
    """The result once the hand is over, else None."""
    return state.result


def apply_action(state: HandState, action: Action | str) -> tuple[HandState, list[Event]]:
    """The state after ``action`` and the events it caused; ``state`` itself is unchanged.

    Raises NotationError for text that is not an action, IllegalActionError (with the rule
    id) for an action the rules forbid here.
    """
    if isinstance(action, str):
        action = Action.parse(action)
    legal = state._legal
    if legal is None or id(action) not in map(id, legal):  # not ``_listed``: check it
        problem = check_action(state, action)
        if problem is not None:
            raise IllegalActionError(str(action), problem[0], problem[1])
    elif action.kind == "chain":  # listed, so legal: the chain's own step (``ChainStep``)
        step = _STEPS.get(id(state.rules))
        return (step or chain_step(state.rules)).place(state, action)
    mover = state.to_move
    assert mover is not None
    events: list[Event] = []
    if action.kind in ("opening", "chain", "board"):
        state = _place(state, mover, action, events)
    elif action.kind == "draw":
        tile = state.stock[0]
        hand = list(state.hands[mover])
        bisect.insort(hand, tile)
        state = evolve(state, hands=_with_hand(state, mover, tuple(hand)),
                        stock=state.stock[1:], turn=Turn(state.turn.draws + 1, False))
        events.append(event("draw", player=mover, tile=str(tile)))
    elif action.kind == "pass":
        state = evolve(state, to_move=1 - mover, turn=_NEXT_TURN, passes=state.passes + 1)
        events.append(event("pass", player=mover))
    else:
        state = evolve(state, to_move=1 - mover, turn=_NEXT_TURN)
        events.append(event("stop", player=mover))
    return _settle(state, events)


def check_action(state: HandState, action: Action) -> Problem | None:
    """Why ``action`` is illegal in ``state`` as (rule id, message), or None when it is legal.

    Checks go from the general to the particular (hand over, phase of the turn, kind of action,
    tile ownership, then where the tile goes) so that the rule cited is the most specific one
    the action breaks.
    """
    rules = state.rules
    if state.result is not None or state.to_move is None:
        return rules.structural.hand_over, "the hand is over"
    mover = state.to_move
    kind = action.kind
    if state.turn.extra:
        assert rules.extra_tile is not None
        if kind in ("draw", "pass"):
            return rules.extra_tile.rule, (f"after {rules.extra_tile.after} the player places "
                                           "one more tile or stops")
        if kind == "stop":
            return None
    elif kind == "stop":
        rule = rules.extra_tile.rule if rules.extra_tile else rules.structural.turn_order
        return rule, "stop only declines an extra tile"
    if kind == "draw":
        return _draw_problem(state, mover)
    if kind == "pass":
        return _pass_problem(state, mover)
    return _placement_problem(state, mover, action)


def _draw_problem(state: HandState, mover: int) -> Problem | None:
    rules = state.rules
    rule = rules.draw.rule or rules.structural.turn_order
    if rules.draw.policy == "none":
        return rule, "this variant has no drawing"
    if state.table.empty:
        return rules.opening.rule, "the hand opens with a tile, not a draw"
    if not state.stock:
        return rule, "the stock is empty"
    if rules.draw.policy == "until_fit" and _can_place(state, mover):
        return rule, "a player who can place a tile must place, not draw"
    return None


def _pass_problem(state: HandState, mover: int) -> Problem | None:
    rules = state.rules
    if state.table.empty:
        return rules.opening.rule, "the hand opens with a tile, not a pass"
    if rules.pass_.policy == "always":
        return None
    if _can_place(state, mover):
        return rules.pass_.rule, "a player who can place a tile must place one"
    if _draw_allowed(state, False):
        return rules.draw.rule, "a player who cannot place must draw while the stock lasts"
    return None


def _placement_problem(state: HandState, mover: int, action: Action) -> Problem | None:
    rules = state.rules
    tile = action.tile
    assert tile is not None
    table = state.table
    wants = "board" if isinstance(table, BoardTable) else "opening" if table.empty else "chain"
    if action.kind != wants:
        if rules.is_board or "board" in (action.kind, wants):
            return rules.table.rule, f"this table takes {_KINDS[wants]}"
        if action.kind == "opening":
            return rules.opening.rule, "the chain is already open"
        return rules.opening.rule, "the first tile is an opening, written as the bare tile"
    if tile not in state.hands[mover]:
        return rules.structural.own_tiles, f"{tile} is not in player {mover}'s hand"
    if isinstance(table, BoardTable):
        assert action.cells is not None
        why = board_plain.contact_violation(table.grid, action.cells, (tile.low, tile.high),
                                      table.empty)
        if why is None:
            return None
        if why == "mismatch":
            return rules.matching.rule, "touching halves must show equal pips"
        rule = rules.matching.extra_rule or rules.table.rule
        return rule, _BOARD_PROBLEMS.get(why, why)
    if action.kind == "opening":
        return None
    assert action.end is not None and action.touch is not None
    pip = table.end_pip(action.end)
    if pip is None:
        return rules.table.rule, f"the {action.end} end is not open"
    why = chain.fits(rules, pip, tile, action.touch)
    if why == "matching":
        return rules.matching.rule, f"the touching half must match the end's {pip}"
    if why == "parity":
        assert rules.parity.rule
        return rules.parity.rule, (f"on a {pip} end the other half must be blank or of the "
                                   "other parity")
    return None


_KINDS = {
    "board": "a board placement",
    "opening": "an opening, written as the bare tile",
    "chain": "a chain placement",
}

_BOARD_PROBLEMS = {
    "off_board": "both halves must lie on the board",
    "occupied": "both cells must be empty",
    "not_adjacent_cells": "a tile covers two edge-adjacent cells",
    "no_contact": "the tile must touch a tile already on the board",
}


def _with_hand(state: HandState, player: int, hand: tuple[Tile, ...]) -> tuple[
        tuple[Tile, ...], tuple[Tile, ...]]:
    return (hand, state.hands[1]) if player == 0 else (state.hands[0], hand)


def _without(hand: tuple[Tile, ...], tile: Tile) -> tuple[Tile, ...]:
    """``hand`` less one ``tile``. The tile is looked for by identity first (in C: tiles are
    shared values, ``Tile.of``), then by value, where ``Tile.__eq__`` is a Python call."""
    try:
        i = [*map(id, hand)].index(id(tile))
    except ValueError:
        i = hand.index(tile)
    return hand[:i] + hand[i + 1:]


def _place(state: HandState, mover: int, action: Action, events: list[Event]) -> HandState:
    """Lay the tile, score it on a board, and decide whether the turn goes on."""
    rules = state.rules
    tile = action.tile
    assert tile is not None
    points = state.points
    table = state.table
    if isinstance(table, BoardTable):
        assert action.cells is not None
        cells = action.cells
        placed = table.with_placement(BoardPlacement(mover, cells, (tile.low, tile.high)))
        gained = 0
        if rules.placement is not None:
            same = board_plain.same_field(cells[0], cells[1])
            gained = tile.pips * (rules.placement.multiplier if same else 1)
        events.append(event("place", player=mover, action=str(action), points=gained,
                            rule=rules.placement.rule if rules.placement else None))
        if rules.lakes is not None:
            lakes = rules.lakes
            for lake in board.new_lakes(table.grid, placed.grid, cells, lakes.max_cells,
                                        lakes.mode):
                lake_points = len(lake) * lakes.points_per_cell
                gained += lake_points
                events.append(event("lake", player=mover, cells=lake, points=lake_points,
                                    rule=lakes.rule))
        points = (points[0] + gained, points[1]) if mover == 0 else (points[0],
                                                                       points[1] + gained)
        new_table: ChainTable | BoardTable = placed
    else:
        if action.kind == "opening":
            new_table = chain.open_with(table, rules, tile)
        else:
            assert action.end is not None and action.touch is not None
            new_table = chain.lay(table, action.end, tile, action.touch)
        events.append(Event("place", mover, str(action)))
    last = (tile, state.last_placed[1]) if mover == 0 else (state.last_placed[0], tile)
    extra = rules.extra_tile
    # R-PIJ-07 grants one extra placement; the extra placement itself ends the turn.
    goes_on = extra is not None and tile == extra.after and not state.turn.extra
    hands = state.hands
    hand = _without(hands[mover], tile)
    return make_state(  # evolve(state, hands=..., table=..., ...), one state per action
        rules, (hand, hands[1]) if mover == 0 else (hands[0], hand), state.stock,
        state.out_of_play, new_table, state.starter, mover if goes_on else 1 - mover,
        _EXTRA_TURN if goes_on else _NEXT_TURN, 0, points, last, state.widow, state.result)


def _placements(state: HandState, player: int) -> list[Action]:
    """Every placement ``player`` could make now, sorted."""
    table = state.table
    hand = state.hands[player]
    if isinstance(table, BoardTable):
        return table.listing(player, hand)
    if table.empty:
        return [opening_action(tile) for tile in sorted(set(hand), key=TILE_ORDER)]
    return chain.plays(table, state.rules, hand)


def _can_place(state: HandState, player: int) -> bool:
    """True when ``player`` has some placement (used for block and compulsory play)."""
    table = state.table
    hand = state.hands[player]
    if isinstance(table, BoardTable):
        return any(table.can_place(tile) for tile in set(hand))
    return chain.can_play(table, state.rules, hand)


def _anyone_can_place(state: HandState) -> bool:
    """True when either player has some placement (the block end condition's question).

    On a chain, the mover's answer is their legal list, remembered for ``legal_actions``
    (placements come first in it), and the other player is asked only when the mover is stuck.
    """
    table = state.table
    if isinstance(table, ChainTable) and not table.empty and state.to_move is not None:
        legal: Sequence[Action] | None = state._legal
        if legal is None:
            legal = list_legal(state)
            _remember_legal(state, legal)
        if legal and legal[0].kind in _PLACING:
            return True
        return _can_place(state, 1 - state.to_move)
    return _can_place(state, 0) or _can_place(state, 1)


_PLACING = ("opening", "chain", "board")
"""The kinds of action that place a tile."""


def _draw_allowed(state: HandState, can_place: bool) -> bool:
    policy = state.rules.draw.policy
    if not state.stock or policy == "none":
        return False
    return policy == "free" or (policy == "until_fit" and not can_place)


def _pass_allowed(state: HandState, can_place: bool, can_draw: bool) -> bool:
    if state.rules.pass_.policy == "always":
        return True
    return not can_place and not can_draw


def _end_reason(state: HandState) -> str | None:
    """The first end condition, in spec order, that holds now (R-ALL-10), or None."""
    for end in state.rules.end:
        if end.condition == "domino":
            if not state.hands[0] or not state.hands[1]:
                return "domino"
        elif end.condition == "block":
            if not state.stock and not _anyone_can_place(state):
                return "block"
        elif end.condition == "mutual_pass":
            if state.passes >= end.turns:
                return "mutual_pass"
        else:
            raise ValueError(f"unknown end condition {end.condition!r}")
    return None


def _settle(state: HandState, events: list[Event]) -> tuple[HandState, list[Event]]:
    """Check the end conditions; if one holds, score the hand and close it.

    A chain in play is settled by its rules' ``ChainStep``, which also lists the next mover's
    actions; ``settle_plain`` is the plain definition it is tested against."""
    table = state.table
    if isinstance(table, ChainTable) and table.tiles and state.to_move is not None:
        step = _STEPS.get(id(state.rules))
        return (step or chain_step(state.rules)).settle(state, events)
    return settle_plain(state, events)


def settle_plain(state: HandState, events: list[Event]) -> tuple[HandState, list[Event]]:
    """The plain definition of ``_settle``: the end conditions in spec order (``_end_reason``),
    and if one holds, the hand scored and closed."""
    reason = _end_reason(state)
    if reason is None:
        return state, events
    return _close(state, events, reason)


def _close(state: HandState, events: list[Event], reason: str) -> tuple[HandState, list[Event]]:
    """Score the hand that has just ended for ``reason`` and close it (R-ALL-10)."""
    result = score_hand(state, reason)
    events.append(event("end", result=result))
    return evolve(state, result=result, to_move=None, turn=_NEXT_TURN), events


class ChainStep:
    """A chain game's placement and settling, resolved once per Rules from their data.

    ``apply_action`` hands a listed chain placement here, and ``_settle`` any state with a
    chain in play. It does what ``_place``, ``settle_plain`` and ``list_legal`` do, in that
    order, with what they ask of the Rules on every action read once: the extra tile, the end
    conditions in spec order, the draw and pass policies, and what fits each pair of ends by
    tile identity (``chain.plays_by_identity``). The mover's placements, which the block check
    needs, are worked out once and become the remembered legal list. It names no variant, and
    anything outside what it knows (an end pip beyond the tiles, a tile not shared) goes to
    the plain functions. tests/reference/test_fast_paths.py compares it with them on every
    state of random playouts of every chain variant and option set.
    """

    __slots__ = ("by_ends", "extra_after", "ends", "draw", "pass_always")

    def __init__(self, rules: Rules) -> None:
        self.by_ends = (None if rules.tiles.max_pip > MAX_NOTATION_PIP
                        else chain.plays_by_identity(rules.parity.policy, rules.tiles.max_pip))
        self.extra_after = None if rules.extra_tile is None else rules.extra_tile.after
        self.ends = tuple((end.condition, end.turns) for end in rules.end)
        self.draw = rules.draw.policy
        self.pass_always = rules.pass_.policy == "always"

    def place(self, state: HandState, action: Action) -> tuple[HandState, list[Event]]:
        """``apply_action`` of a listed chain placement: ``_place``, then ``settle``, with the
        small helpers they call (``_without``, ``chain.lay``) written out: at one placement
        per action, each Python call saved is a few per cent of the action."""
        mover = state.to_move
        tile, end, touch, table = action.tile, action.end, action.touch, state.table
        assert mover is not None and tile is not None and end is not None
        assert touch is not None and isinstance(table, ChainTable)
        events = [_new_tuple(Event, ("place", mover, action._text or str(action), None, None,
                                     None, None, None))]  # the spelling once made (``str``)
        hands = state.hands
        hand = hands[mover]
        try:  # ``_without``, inline
            i = [*map(id, hand)].index(id(tile))
        except ValueError:
            i = hand.index(tile)
        hand = hand[:i] + hand[i + 1:]
        other = tile.high if touch == tile.low else tile.low  # ``chain.lay``, inline
        if end == "L":
            laid = chain.chain_of(((other, touch), *table.tiles), other, table.right)
        else:
            laid = chain.chain_of((*table.tiles, (touch, other)), table.left, other)
        after = self.extra_after
        # R-PIJ-07 grants one extra placement; the extra placement itself ends the turn.
        goes_on = after is not None and tile == after and not state.turn.extra
        last = state.last_placed
        return self.settle(make_state(
            state.rules, (hand, hands[1]) if mover == 0 else (hands[0], hand), state.stock,
            state.out_of_play, laid, state.starter,
            mover if goes_on else 1 - mover, _EXTRA_TURN if goes_on else _NEXT_TURN, 0,
            state.points, (tile, last[1]) if mover == 0 else (last[0], tile), state.widow,
            None), events)

    def settle(self, state: HandState, events: list[Event]) -> tuple[HandState, list[Event]]:
        """``settle_plain`` of a state with a chain in play and a mover, which also remembers
        the mover's legal list when the hand goes on (``list_legal``, ``_remember_legal``)."""
        mover = state.to_move
        assert mover is not None
        places: list[Action] | None = None
        for condition, turns in self.ends:
            if condition == "domino":
                if not state.hands[0] or not state.hands[1]:
                    return _close(state, events, "domino")
            elif condition == "block":
                if not state.stock:
                    places = self.placements(state, mover)
                    if not places and not self.placements(state, 1 - mover):
                        return _close(state, events, "block")
            elif condition == "mutual_pass":
                if state.passes >= turns:
                    return _close(state, events, "mutual_pass")
            else:
                raise ValueError(f"unknown end condition {condition!r}")
        actions = self.placements(state, mover) if places is None else places
        if state.turn.extra:
            actions.append(Action.STOP)
        else:
            draw = self.draw
            can_draw = bool(state.stock) and (
                draw == "free" or (draw == "until_fit" and not actions))
            can_pass = self.pass_always or (not actions and not can_draw)
            if can_draw:
                actions.append(Action.DRAW)
            if can_pass:
                actions.append(Action.PASS)
        if len(actions) <= LISTED_SCAN:  # ``_remember_legal``, inline
            _set_attribute(state, "_legal", tuple(actions))
        return state, events

    def placements(self, state: HandState, player: int) -> list[Action]:
        """``_placements`` on a chain in play, a new list: each tile of the hand looked up by
        identity in what fits the two ends, the few that fit put in tile order, each once."""
        table = state.table
        assert isinstance(table, ChainTable)
        by_ends = self.by_ends
        fit = None if by_ends is None else by_ends.get((table.left, table.right))
        if fit is None:  # a tile or end pip the notation cannot write
            return _placements(state, player)
        get = fit.__getitem__
        hits = []
        try:  # no Python-level call per tile (a comprehension or filter cost more here)
            for tile in state.hands[player]:
                here = get(id(tile))
                if here is not None:
                    hits.append(here)
        except KeyError:  # a tile that is not the shared one: by value
            return _placements(state, player)
        if len(hits) < 2:
            return list(hits[0][1]) if hits else []
        # in tile order, each tile once
        return [*_joined(map(_second, sorted(dict(hits).items())))]


_new_tuple = tuple.__new__
"""Builds a named tuple (an Event) from all its fields in C, without the Python-level
``__new__`` a NamedTuple's constructor is."""
_set_attribute = object.__setattr__
_joined = itertools.chain.from_iterable
_second = operator.itemgetter(1)

_STEPS: dict[int, ChainStep] = {}
"""Each live Rules' ChainStep, by the Rules' ``id`` (Rules hold a mapping, so they do not
hash); an entry goes when its Rules do (``weakref.finalize``), so an id is never reused."""


def chain_step(rules: Rules) -> ChainStep:
    """The ChainStep of ``rules``, built on first use."""
    step = _STEPS.get(id(rules))
    if step is None:
        step = _STEPS[id(rules)] = ChainStep(rules)
        weakref.finalize(rules, _STEPS.pop, id(rules), None)
    return step
