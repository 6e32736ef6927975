"""The reference engine as the kit's oracle: resolved rules, deals, policies and played hands.

Cases compare an engine with ``dominokit.reference`` called directly in-process (no protocol
round trip), and search it for hands and matches that reach rare situations (a catch, a tied
block, a lake of each size). Everything here is deterministic for a given seed, so a case finds
the same hands on every run and every machine.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from dominokit.reference import (
    Action,
    Event,
    HandResult,
    HandState,
    Rules,
    Tile,
    apply_action,
    legal_actions,
    load_rules,
    load_variant,
    new_hand,
    random_deal,
)
from dominokit.reference.deal import Deal

JsonObject = dict[str, Any]
Policy = Callable[[HandState, list[Action], random.Random], Action]

MAX_ACTIONS = 5_000
"""No hand of any variant comes near this many actions; reaching it means a bug."""


@cache
def _rules(variant: str, options: tuple[tuple[str, object], ...]) -> Rules:
    return load_rules(variant, dict(options))


def rules_of(variant: str, options: Mapping[str, object] | None = None) -> Rules:
    """The resolved rules of ``variant`` under ``options`` (cached)."""
    return _rules(variant, tuple(sorted((options or {}).items())))


def option_sets(variant: str) -> list[dict[str, object]]:
    """The defaults (``{}``) and each non-default value of each option on its own."""
    out: list[dict[str, object]] = [{}]
    for name, spec in load_variant(variant).options.items():
        out.extend({name: value} for value in spec.values if value != spec.default)
    return out


def options_slug(options: Mapping[str, object]) -> str:
    """``default``, or ``name-value`` pairs joined by ``-`` (lower case), for case ids."""
    if not options:
        return "default"
    parts = [f"{name}-{_text(value)}" for name, value in sorted(options.items())]
    return "-".join(parts)


def _text(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def slug(text: str) -> str:
    """A lower-case ``[a-z0-9-]`` slug (trace file stems allow nothing else)."""
    return re.sub(r"-{2,}", "-", re.sub(r"[^a-z0-9-]", "-", text.lower())).strip("-")


def hand_sizes(rules: Rules) -> list[tuple[int, int]]:
    """The hand sizes a standalone hand of this variant may be dealt, sorted."""
    if rules.setup.hand_size is not None:
        return [(rules.setup.hand_size, rules.setup.hand_size)]
    return sorted(rules.match.schedule_sizes())


def deal_json(rules: Rules, seed: int, sizes: tuple[int, int] | None = None,
              starter: int | None = None) -> JsonObject:
    """A seeded random deal as JSON (R-ALL-03: the randomness stops at the deal)."""
    sizes = sizes or hand_sizes(rules)[0]
    deal = random_deal(rules, random.Random(seed), hand_sizes=sizes, starter=starter)
    data: JsonObject = deal.to_json()
    return data


def uniform(state: HandState, legal: list[Action], rng: random.Random) -> Action:
    """Any legal action, each equally likely."""
    return rng.choice(legal)


def by_kind(state: HandState, legal: list[Action], rng: random.Random) -> Action:
    """A random kind of action (place, draw, pass, stop), then a random action of that kind:
    reaches the rare kinds (a stop among a hundred placements) as often as the common."""
    kind = rng.choice(sorted({a.kind for a in legal}))
    return rng.choice([a for a in legal if a.kind == kind])


def eager(state: HandState, legal: list[Action], rng: random.Random) -> Action:
    """Place whenever possible, else draw, else whatever is left: drains the stock, so hands
    reach the block of an empty stock rather than ending by passes."""
    for kinds in (("opening", "chain", "board"), ("draw",)):
        chosen = [a for a in legal if a.kind in kinds]
        if chosen:
            return rng.choice(chosen)
    return rng.choice(legal)


def hoarding(tiles: frozenset[Any]) -> Policy:
    """A random policy that keeps ``tiles`` for last: it places one only when nothing else is
    possible or it is the player's last tile, so hands end with those tiles in play (a bonus
    for going out on them, or a catch of the player left holding one)."""

    def policy(state: HandState, legal: list[Action], rng: random.Random) -> Action:
        mover = state.to_move
        hand = state.hands[mover] if mover is not None else ()
        keep = [a for a in legal if a.tile is None or a.tile not in tiles or len(hand) == 1]
        places = [a for a in keep if a.tile is not None]
        if places and rng.random() < 0.8:
            return rng.choice(places)
        return rng.choice(keep or legal)

    return policy


def starter_plays_low(state: HandState, legal: list[Action], rng: random.Random) -> Action:
    """The starter places a tile with the fewest pips, the other player one with the most.
    With ``low_hand_to_starter`` it heads for a hand in which the starter goes out having
    scored less than the other player (R-PIJ-09 gives such a hand to the other player)."""
    placements = [a for a in legal if a.tile is not None]
    if not placements:
        return rng.choice(legal)
    sign = 1 if state.to_move == state.starter else -1
    best = min(sign * a.tile.pips for a in placements if a.tile is not None)
    return rng.choice([a for a in placements if a.tile is not None
                       and sign * a.tile.pips == best])


def low_hand_to_starter(deal: JsonObject, rng: random.Random) -> JsonObject:
    """``deal`` with its dealt tiles shared out again: the starter gets those with the fewest
    pips (ties in random order), the other player the rest, hand sizes kept."""
    starter = deal.get("starter")
    if starter not in (0, 1):
        return deal
    tiles = sorted([*deal["hands"][0], *deal["hands"][1]],
                   key=lambda text: (Tile.parse(text).pips, rng.random()))
    size = len(deal["hands"][starter])
    low, high = sorted(tiles[:size], key=Tile.parse), sorted(tiles[size:], key=Tile.parse)
    return {**deal, "hands": [low, high] if starter == 0 else [high, low]}


@dataclass(frozen=True)
class Played:
    """A hand as the reference played it: deal, actions, the state before each action (and the
    final one), and the events of each action."""

    variant: str
    options: Mapping[str, object]
    deal: JsonObject
    actions: tuple[str, ...]
    states: tuple[HandState, ...]
    events: tuple[tuple[Event, ...], ...]
    work: int = 0
    """Legal actions listed while playing: a machine-independent measure of the cost."""

    @property
    def final(self) -> HandState:
        return self.states[-1]

    @property
    def result(self) -> HandResult:
        result = self.final.result
        assert result is not None
        return result


def play(rules: Rules, state: HandState, policy: Policy, rng: random.Random,
         variant: str, options: Mapping[str, object], deal: JsonObject) -> Played:
    """Play ``state`` to the end of its hand with ``policy``."""
    states = [state]
    actions: list[str] = []
    events: list[tuple[Event, ...]] = []
    work = 0
    while state.result is None:
        if len(actions) >= MAX_ACTIONS:
            raise RuntimeError(f"{variant}: a hand did not end after {MAX_ACTIONS} actions")
        legal = legal_actions(state)
        work += len(legal)
        action = policy(state, legal, rng)
        state, happened = apply_action(state, action)
        actions.append(str(action))
        states.append(state)
        events.append(tuple(happened))
    return Played(variant, dict(options), deal, tuple(actions), tuple(states), tuple(events),
                  work)


def play_deal(variant: str, options: Mapping[str, object], deal: JsonObject, policy: Policy,
              rng: random.Random) -> Played:
    """Start a standalone hand from ``deal`` and play it out."""
    rules = rules_of(variant, options)
    return play(rules, new_hand(rules, Deal.from_json(deal)), policy, rng, variant, options,
                deal)


def play_script(variant: str, options: Mapping[str, object], deal: JsonObject,
                actions: tuple[str, ...] | list[str]) -> Played:
    """Play ``actions`` (each must be legal) from ``deal`` as a standalone hand that they end."""
    script = iter(actions)

    def policy(state: HandState, legal: list[Action], rng: random.Random) -> Action:
        text = next(script, None)
        if text is None:
            raise RuntimeError(f"{variant}: the scripted actions end before the hand does")
        return Action.parse(text)

    return play_deal(variant, options, deal, policy, random.Random(0))


def replay_actions(variant: str, options: Mapping[str, object], deal: JsonObject,
                   actions: list[str] | tuple[str, ...]) -> HandState:
    """The reference state after ``actions`` from ``deal`` (each must be legal)."""
    rules = rules_of(variant, options)
    state = new_hand(rules, Deal.from_json(deal))
    for action in actions:
        state, _ = apply_action(state, action)
    return state


def finish_first(state: HandState) -> list[str]:
    """Actions that end the hand from ``state``, always taking the first legal action (used to
    complete a repro trace after the point where an engine diverged)."""
    out: list[str] = []
    while state.result is None:
        if len(out) >= MAX_ACTIONS:
            raise RuntimeError("a hand did not end")
        action = legal_actions(state)[0]
        state, _ = apply_action(state, action)
        out.append(str(action))
    return out
