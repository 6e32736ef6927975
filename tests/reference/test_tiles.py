"""``reference/tiles.py``: a tile is the unordered pair written low first, and the sets built
of them (R-ALL-01). Every expected value below is counted by hand from the rule."""

from __future__ import annotations

import pytest

from dominokit.reference.errors import NotationError
from dominokit.reference.tiles import TILE_ORDER, Tile, tile_set


@pytest.mark.rule("R-ALL-01")
def test_parse_reads_the_canonical_spelling_and_writes_it_back() -> None:
    tile = Tile.parse("2-5")
    assert (tile.low, tile.high) == (2, 5)
    assert str(tile) == "2-5"
    assert Tile.parse("0-0") == Tile(0, 0) and Tile.parse("6-6") == Tile(6, 6)


@pytest.mark.rule("R-ALL-01")
@pytest.mark.parametrize("text", [
    "5-2",  # high half first: R-ALL-01 writes "2-5", never "5-2"
    "2-7", "7-7",  # the notation's pips are 0..6
    "25", "2_5", "2 - 5", " 2-5", "2-5 ", "2-5-6", "-2-5", "", "a-b", "02-5",
])
def test_parse_refuses_every_other_spelling(text: str) -> None:
    with pytest.raises(NotationError):
        Tile.parse(text)


def test_parse_refuses_what_is_not_a_string_with_a_notation_error() -> None:
    with pytest.raises(NotationError):
        Tile.parse(25)  # type: ignore[arg-type]


def test_the_refusal_of_a_high_first_spelling_says_to_write_the_low_half_first() -> None:
    with pytest.raises(NotationError, match="low half first"):
        Tile.parse("5-2")


@pytest.mark.rule("R-ALL-01")
def test_of_gives_one_value_for_both_orders() -> None:
    assert Tile.of(5, 2) == Tile.of(2, 5) == Tile(2, 5)
    assert Tile.of(5, 2) is Tile.of(2, 5)
    assert (Tile.of(5, 2).low, Tile.of(5, 2).high) == (2, 5)
    assert Tile.parse("2-5") is Tile.of(5, 2)


def test_the_constructor_refuses_a_high_first_pair_and_non_int_halves() -> None:
    with pytest.raises(ValueError, match="low half first"):
        Tile(5, 2)
    with pytest.raises(ValueError):
        Tile(-1, 3)
    with pytest.raises(TypeError):
        Tile("2", 5)  # type: ignore[arg-type]


def test_tiles_order_by_low_half_then_high_half() -> None:
    shuffled = [Tile(3, 3), Tile(0, 6), Tile(1, 2), Tile(0, 1), Tile(1, 1), Tile(2, 6)]
    # by low half: 0-1, 0-6; then 1-1, 1-2; then 2-6; then 3-3
    want = [Tile(0, 1), Tile(0, 6), Tile(1, 1), Tile(1, 2), Tile(2, 6), Tile(3, 3)]
    assert sorted(shuffled) == want
    assert sorted(shuffled, key=TILE_ORDER) == want
    assert Tile(0, 6) < Tile(1, 1) and Tile(1, 1) < Tile(1, 2)


def test_equal_tiles_hash_alike_and_unequal_ones_are_told_apart() -> None:
    # a tile built directly is not the shared value, yet it is the same key
    fresh = Tile(2, 5)
    assert fresh == Tile.of(5, 2) and hash(fresh) == hash(Tile.of(5, 2))
    assert {Tile.of(5, 2): "x"}[fresh] == "x"
    every = tile_set(6, doubles=True, copies=1)
    assert len({hash(t) for t in every}) == 28  # no two of the 28 tiles share a hash
    assert Tile(2, 5) != Tile(2, 6) and Tile(2, 5) != Tile(3, 5)


def test_a_tile_is_not_equal_to_its_pair_or_its_spelling() -> None:
    assert Tile(2, 5) != (2, 5)
    assert Tile(2, 5) != "2-5"


def test_a_tile_is_frozen() -> None:
    tile = Tile(2, 5)
    with pytest.raises(AttributeError):
        tile.low = 1  # type: ignore[misc]


@pytest.mark.rule("R-ALL-01")
def test_pips_are_the_sum_of_the_halves() -> None:
    assert Tile(2, 5).pips == 7
    assert Tile(0, 0).pips == 0
    assert Tile(6, 6).pips == 12
    # a double-six set holds each half value 8 times (7 partners + the double counts twice):
    # 8 * (0 + 1 + ... + 6) = 8 * 21 = 168
    assert sum(t.pips for t in tile_set(6, doubles=True, copies=1)) == 168


def test_is_double_only_when_both_halves_match() -> None:
    assert Tile(4, 4).is_double and Tile(0, 0).is_double
    assert not Tile(3, 4).is_double and not Tile(0, 6).is_double


def test_other_gives_the_opposite_half() -> None:
    assert Tile(2, 5).other(2) == 5
    assert Tile(2, 5).other(5) == 2
    assert Tile(3, 3).other(3) == 3


def test_other_refuses_a_half_the_tile_does_not_show() -> None:
    with pytest.raises(ValueError, match="has no half 4"):
        Tile(2, 5).other(4)


def test_repr_can_be_pasted_back_as_python() -> None:
    tile = Tile(1, 6)
    assert repr(tile) == "Tile(1, 6)"
    assert eval(repr(tile), {"Tile": Tile}) == tile  # noqa: S307 - the point of the test


@pytest.mark.rule("R-ALL-01")
def test_the_double_six_set_is_the_28_pairs_each_once() -> None:
    tiles = tile_set(6, doubles=True, copies=1)
    # pairs a <= b of 0..6: 7 doubles + C(7, 2) = 21 others = 28
    assert len(tiles) == 28
    assert len(set(tiles)) == 28
    assert sum(t.is_double for t in tiles) == 7
    assert list(tiles) == sorted(tiles)
    assert tiles[0] == Tile(0, 0) and tiles[-1] == Tile(6, 6)
    assert {str(t) for t in tiles} == {f"{a}-{b}" for a in range(7) for b in range(a, 7)}


def test_a_set_without_doubles_has_the_21_others() -> None:
    tiles = tile_set(6, doubles=False, copies=1)
    assert len(tiles) == 21  # 28 - 7 doubles
    assert not any(t.is_double for t in tiles)
    assert set(tiles) == {t for t in tile_set(6, doubles=True, copies=1) if not t.is_double}


def test_two_copies_hold_each_tile_twice_in_order() -> None:
    one = tile_set(6, doubles=True, copies=1)
    two = tile_set(6, doubles=True, copies=2)
    assert len(two) == 56
    assert two == tuple(t for t in one for _ in range(2))  # sorted, each next to its copy
    assert all(two.count(t) == 2 for t in one)


def test_smaller_sets_are_counted_the_same_way() -> None:
    # max pip n: (n + 1) doubles + (n + 1) n / 2 others
    assert len(tile_set(0, doubles=True, copies=1)) == 1  # only 0-0
    assert tile_set(0, doubles=False, copies=1) == ()
    assert len(tile_set(3, doubles=True, copies=1)) == 10  # 4 + 6
    assert len(tile_set(9, doubles=True, copies=1)) == 55  # 10 + 45


@pytest.mark.parametrize(("max_pip", "copies"), [(-1, 1), (6, 0), (6, -1)])
def test_a_bad_set_is_refused(max_pip: int, copies: int) -> None:
    with pytest.raises(ValueError, match="bad tile set"):
        tile_set(max_pip, doubles=True, copies=copies)
