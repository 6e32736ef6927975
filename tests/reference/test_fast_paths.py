"""The engine's shortcuts against the plain definitions they stand in for.

``apply_action`` takes an action found (by identity) in the state's remembered legal list as
legal without checking it; the block check reads the mover's remembered list; a chain listing
looks tiles up in a table joined once per parity policy and pip range. Each shortcut is right
only if the plain rule agrees, so these tests compare them on every state of random playouts
of every chain variant and option setting, and on hands in any order, with repeated tiles.
"""

from __future__ import annotations

import random
from dataclasses import fields, replace

import pytest

from dominokit.reference import (
    Action,
    HandState,
    Rules,
    Tile,
    apply_action,
    chain,
    engine,
    legal_actions,
    load_rules,
    new_hand,
    random_deal,
    variant_ids,
)
from dominokit.reference.chain import ChainTable
from dominokit.reference.deal import Deal
from dominokit.reference.errors import DealError
from dominokit.reference.notation import opening_action
from dominokit.reference.state import evolve

CHAIN_VARIANTS = [v for v in variant_ids() if not load_rules(v).is_board]


def _deal(rules: Rules, rng: random.Random) -> Deal:
    sizes = None
    if rules.setup.hand_size is None:
        sizes = rng.choice(sorted(rules.match.schedule_sizes()))
    return random_deal(rules, rng, hand_sizes=sizes)


@pytest.mark.parametrize("variant", CHAIN_VARIANTS)
def test_every_listed_action_passes_the_check_and_the_memo_is_the_plain_list(
        variant: str) -> None:
    rules = load_rules(variant)
    rng = random.Random(variant)
    for _ in range(40):
        state = new_hand(rules, _deal(rules, rng))
        while state.result is None:
            fresh = replace(state)  # the same value, nothing remembered
            assert fresh._legal is None
            assert engine.list_legal(fresh) == legal_actions(state)
            listed = legal_actions(state)
            for action in listed:
                assert engine.check_action(state, action) is None, action
                # applying the listed value and a parsed copy (checked by the rules) agree
                by_memo, events = apply_action(state, action)
                by_check, events_checked = apply_action(fresh, str(action))
                assert by_memo == by_check and events == events_checked
                assert by_memo.to_json() == by_check.to_json()
            state, _ = apply_action(state, rng.choice(listed))
        assert legal_actions(state) == []


@pytest.mark.parametrize("variant", CHAIN_VARIANTS)
def test_the_block_check_agrees_with_asking_both_players(variant: str) -> None:
    rules = load_rules(variant)
    rng = random.Random(f"block {variant}")
    for _ in range(40):
        state = new_hand(rules, _deal(rules, rng))
        while state.result is None:
            plain = engine._can_place(state, 0) or engine._can_place(state, 1)
            assert engine._anyone_can_place(replace(state)) == plain
            state, _ = apply_action(state, rng.choice(legal_actions(state)))


@pytest.mark.parametrize("variant", CHAIN_VARIANTS)
def test_chain_plays_are_the_tested_plays_for_any_ends_and_hand(variant: str) -> None:
    rules = load_rules(variant)
    rng = random.Random(f"plays {variant}")
    tiles = list(rules.tiles.tiles)
    ends: list[int | None] = [None, *range(rules.tiles.max_pip + 1)]
    for left in ends:
        for right in ends:
            table = ChainTable(((0, 0),), left, right)
            for _ in range(20):
                hand = rng.sample(tiles, rng.randrange(1, 9))
                hand += rng.sample(hand, rng.randrange(0, 2))  # a repeated tile, unsorted
                rng.shuffle(hand)
                assert chain.plays(table, rules, hand) == chain._tested_plays(table, rules,
                                                                              hand)
                assert chain.can_play(table, rules, hand) == bool(
                    chain._tested_plays(table, rules, hand))


def test_an_end_pip_beyond_the_tiles_lists_what_the_plain_rule_lists() -> None:
    rules = load_rules(CHAIN_VARIANTS[0])
    hand = [Tile.of(0, 6), Tile.of(6, 6)]
    table = ChainTable(((0, 0),), 9, 6)
    assert chain.plays(table, rules, hand) == chain._tested_plays(table, rules, hand)


def test_a_remembered_list_is_not_part_of_the_value() -> None:
    rules = load_rules(CHAIN_VARIANTS[0])
    state = new_hand(rules, _deal(rules, random.Random(3)))
    fresh = replace(state)
    listed = legal_actions(state)
    listed.clear()  # the caller's copy: the state's list is untouched
    assert legal_actions(state) == engine.list_legal(fresh)
    assert state == fresh and hash(state) == hash(fresh) and repr(state) == repr(fresh)
    assert state.to_json() == fresh.to_json()
    assert HandState.from_json(state.to_json())._legal is None


def test_a_state_made_slot_by_slot_is_the_constructors() -> None:
    rules = load_rules(CHAIN_VARIANTS[0])
    state = new_hand(rules, _deal(rules, random.Random(4)))
    state, _ = apply_action(state, legal_actions(state)[0])
    names = [f.name for f in fields(HandState) if f.init]
    by_constructor = HandState(**{name: getattr(state, name) for name in names})
    made = evolve(state)
    assert made == by_constructor and made.to_json() == by_constructor.to_json()
    assert made._legal is None and made is not state


def test_opening_actions_handed_out_again_are_the_checked_ones() -> None:
    for tile in load_rules(CHAIN_VARIANTS[0]).tiles.tiles:
        assert opening_action(tile) == Action.opening(tile)
        assert opening_action(tile) is opening_action(tile)
        assert str(opening_action(tile)) == str(tile)


def test_a_long_list_is_not_remembered_and_its_actions_are_checked() -> None:
    board = next(v for v in variant_ids() if load_rules(v).is_board)
    rules = load_rules(board)
    state = new_hand(rules, _deal(rules, random.Random(5)))
    listed = legal_actions(state)
    assert len(listed) > engine.LISTED_SCAN and state._legal is None
    assert legal_actions(state) == listed == engine.list_legal(state)
    assert not engine._listed(state, listed[0])
    after, _ = apply_action(state, listed[0])
    assert after.table.to_json()["placements"]


def test_a_deal_of_other_tile_objects_is_checked_by_value() -> None:
    rules = load_rules(CHAIN_VARIANTS[0])
    deal = _deal(rules, random.Random(6))
    copied = Deal(tuple(tuple(Tile(t.low, t.high) for t in hand) for hand in deal.hands),
                  tuple(Tile(t.low, t.high) for t in deal.stock),
                  tuple(Tile(t.low, t.high) for t in deal.out_of_play), deal.starter,
                  deal.widow)
    assert sorted(map(id, copied.all_tiles())) != rules.tiles.identities
    assert new_hand(rules, copied) == new_hand(rules, deal)
    wrong = Deal((copied.hands[0][1:] + copied.hands[0][:1], copied.hands[1]), copied.stock,
                 copied.out_of_play[1:] + copied.hands[0][:1], deal.starter, deal.widow)
    with pytest.raises(DealError, match="the deal's tiles are not"):
        new_hand(rules, wrong)
