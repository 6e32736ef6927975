"""The chain games' own step (``engine.ChainStep``) against the plain definitions.

``apply_action`` hands a listed chain placement to the step its Rules resolve to, and
``_settle`` a state with a chain in play; the step places the tile, checks the end conditions
in spec order and lists the next mover's actions at once. Its every answer must be what
``_place``, ``settle_plain`` and ``list_legal`` give, so these tests compare the two on every
state of random playouts of every chain variant under every option value, and on hands of
tiles that are not the shared ones (looked up by value, not by identity).
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from dominokit.reference import (
    Action,
    HandState,
    Rules,
    Tile,
    apply_action,
    engine,
    legal_actions,
    load_rules,
    new_hand,
    random_deal,
    variant_ids,
)
from dominokit.reference.chain import ChainTable
from dominokit.reference.state import Event
from dominokit.spec.spec import load_variant


def _option_sets(variant: str) -> list[dict[str, object]]:
    """The defaults and each non-default value of each option on its own."""
    out: list[dict[str, object]] = [{}]
    for name, spec in load_variant(variant).options.items():
        out.extend({name: value} for value in spec.values if value != spec.default)
    return out


CASES = [(variant, options) for variant in variant_ids() if not load_rules(variant).is_board
         for options in _option_sets(variant)]


def _id(case: tuple[str, dict[str, object]]) -> str:
    variant, options = case
    return "-".join([variant, *(f"{k}={v}" for k, v in sorted(options.items()))])


def _hands(rules: Rules, rng: random.Random) -> HandState:
    sizes = None
    if rules.setup.hand_size is None:
        sizes = rng.choice(sorted(rules.match.schedule_sizes()))
    return new_hand(rules, random_deal(rules, rng, hand_sizes=sizes))


def _plain_place(state: HandState, action: Action) -> tuple[HandState, list[Event]]:
    """``apply_action`` of a legal placement by the plain definitions alone."""
    assert state.to_move is not None
    events: list[Event] = []
    placed = engine._place(state, state.to_move, action, events)
    return engine.settle_plain(placed, events)


def _unshared(state: HandState) -> HandState:
    """The same value, its hands holding new tile objects instead of the shared ones."""
    return replace(state, hands=(tuple(Tile(t.low, t.high) for t in state.hands[0]),
                                 tuple(Tile(t.low, t.high) for t in state.hands[1])))


def _agree(state: HandState, step: engine.ChainStep) -> None:
    """The step settles ``state`` as the plain rules do, and remembers the plain list."""
    fast, fast_events = step.settle(replace(state), [])
    plain, plain_events = engine.settle_plain(replace(state), [])
    assert fast == plain and fast_events == plain_events
    assert fast.to_json() == plain.to_json()
    if fast.result is None:
        assert fast._legal is not None and list(fast._legal) == engine.list_legal(plain)


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_the_step_places_and_settles_as_the_plain_rules_do(
        case: tuple[str, dict[str, object]]) -> None:
    variant, options = case
    rules = load_rules(variant, options)
    step = engine.chain_step(rules)
    rng = random.Random(_id(case))
    for _ in range(25):
        state = _hands(rules, rng)
        while state.result is None:
            if isinstance(state.table, ChainTable) and state.table.tiles:
                _agree(state, step)
                _agree(_unshared(state), step)
            listed = legal_actions(state)
            for action in listed:
                if action.kind != "chain":
                    continue
                fast, fast_events = step.place(state, action)
                plain, plain_events = _plain_place(state, action)
                assert fast == plain and fast_events == plain_events, action
                assert fast.to_json() == plain.to_json()
                assert fast.result == plain.result
                if fast.result is None:
                    assert fast._legal is not None
                    assert list(fast._legal) == engine.list_legal(replace(plain))
                unshared = _unshared(state)
                assert step.place(unshared, action)[0] == plain
            state, _ = apply_action(state, rng.choice(listed))


def test_each_rules_object_has_one_step_and_its_entry_goes_with_it() -> None:
    rules = load_rules("classic_block")
    assert engine.chain_step(rules) is engine.chain_step(rules)
    copy = replace(rules)
    key = id(copy)
    assert engine.chain_step(copy) is not engine.chain_step(rules)
    del copy
    assert key not in engine._STEPS
