"""Illegal actions are refused with IllegalActionError naming the action and the rule it breaks.

For each case the rule is the one the rulings give for that prohibition; the state must be left
exactly as it was (its JSON compared before and after), and the action must not be listed as
legal.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import pytest

from dominokit.reference import (
    HandState,
    IllegalActionError,
    NotationError,
    apply_action,
    legal_actions,
    new_hand,
)
from tests.positions import board_deal, chain_deal, play, widow_deal

# --- positions (cached: states are immutable values) -----------------------------------------


@functools.cache
def pol_start() -> HandState:
    """Poldomino before the opening; player 0 holds [1|2] [3|3] [4|4] [5|5] [6|6]."""
    return new_hand("poldomino", chain_deal(["1-2", "3-3", "4-4", "5-5", "6-6"],
                                            ["0-0", "0-3", "0-4", "0-5", "0-6"]))


@functools.cache
def pol_open() -> HandState:
    """After the opening [1|2]: ends 1 and 2, player 1 (all blanks but [0|1], [0|2]) to move."""
    return play(pol_start(), ["1-2"])


@functools.cache
def pol_empty_stock() -> HandState:
    """Player 1 has drawn the whole stock and is still to move."""
    return play(pol_open(), ["draw"] * 18)


@functools.cache
def pol_over() -> HandState:
    """Two passes in a row have ended the hand (R-POL-05)."""
    state = play(pol_open(), ["pass", "pass"])
    assert state.result is not None
    return state


@functools.cache
def szc_start() -> HandState:
    """Widow [3, 2]: player 0 to move on end 3 with 0-1..0-6, 1-2, 1-3, 1-4, 3-6."""
    p0 = ["0-1", "0-2", "0-3", "0-4", "0-5", "0-6", "1-2", "1-3", "1-4", "3-6"]
    return new_hand("szczerbak", widow_deal(p0, (3, 2)))


@functools.cache
def szc_over() -> HandState:
    """A Szczerbak block: end 1 with [0|1], [1|2], [1|4], [1|6] all on the table."""
    p0 = ["0-1", "0-5", "1-6", "0-2", "0-3", "0-4", "1-3", "1-5", "2-3", "2-4"]
    state = new_hand("szczerbak", widow_deal(p0, (1, 2)))
    state = play(state, ["2-5@R2", "0-5@R5", "1-4@R4", "1-6@R1", "0-6@R6", "0-1@R0"])
    assert state.result is not None
    return state


PRO_P0 = ["1-1", "1-2", "1-3", "2-2", "3-3"]
PRO_P1 = ["2-6", "4-4", "4-5", "5-5", "6-6"]


@functools.cache
def pro_start() -> HandState:
    return new_hand("progressive", chain_deal(PRO_P0, PRO_P1, ["0-4", "0-2", "0-0"]))


@functools.cache
def pro_can_place() -> HandState:
    """Ends 1 and 2; player 1's [2|6] fits."""
    return play(pro_start(), ["1-2"])


@functools.cache
def pro_stuck() -> HandState:
    """Ends 3 and 6; player 1 holds [4|4] [4|5] [5|5]: nothing fits, the stock is not empty."""
    return play(pro_can_place(), ["2-6@R2", "1-3@L1", "6-6@R6", "3-3@L3"])


@functools.cache
def pro_drew() -> HandState:
    """Player 1 has drawn [0|4], which fits neither the 3 nor the 6."""
    return play(pro_stuck(), ["draw"])


CONTACT_P0 = ["0-1", "0-2", "1-1", "1-2", "1-3", "1-5", "1-6", "2-4", "2-5", "2-6", "4-4",
              "4-5"]
CONTACT_P1 = ["1-4", "2-2", "2-3", "0-0", "0-3", "0-4", "0-5", "0-6", "3-3", "3-4", "3-5",
              "3-6"]


@functools.cache
def pij_start() -> HandState:
    return new_hand("pijanowski",
                    board_deal(CONTACT_P0, CONTACT_P1, ["4-6", "5-5", "5-6", "6-6"]))


@functools.cache
def pij_one_tile() -> HandState:
    """[1|2] on (2,4),(2,5); player 1 to move and able to place."""
    return play(pij_start(), ["1-2@2.4+2.5"])


@functools.cache
def pij_extra() -> HandState:
    """Player 1 opened with [0|0] and now places the extra tile or stops (R-PIJ-07)."""
    state = new_hand("pijanowski",
                     board_deal(CONTACT_P1, CONTACT_P0, ["4-6", "5-5", "5-6", "6-6"]))
    state = play(state, ["0-0@3.3+3.4"])
    assert state.to_json()["turn"]["extra"] is True
    return state


Case = tuple[str, Callable[[], HandState], str, str]
CASES: list[Case] = [
    # Poldomino
    ("pol-draw-before-opening", pol_start, "draw", "R-POL-02"),
    ("pol-pass-before-opening", pol_start, "pass", "R-POL-02"),
    ("pol-chain-play-before-opening", pol_start, "1-2@L1", "R-POL-02"),
    ("pol-open-with-a-tile-not-held", pol_start, "0-0", "R-ALL-12"),
    ("pol-second-opening", pol_open, "0-3", "R-POL-02"),
    ("pol-tile-on-the-table", pol_open, "1-2@R2", "R-ALL-12"),
    ("pol-tile-of-the-opponent", pol_open, "3-3@L3", "R-ALL-12"),
    ("pol-mismatch", pol_open, "0-3@R0", "R-POL-04"),
    ("pol-mismatch-left", pol_open, "0-3@L3", "R-POL-04"),
    ("pol-draw-from-empty-stock", pol_empty_stock, "draw", "R-POL-03"),
    ("pol-stop-without-extra-tile", pol_open, "stop", "R-ALL-13"),
    ("pol-pass-after-the-end", pol_over, "pass", "R-ALL-14"),
    ("pol-draw-after-the-end", pol_over, "draw", "R-ALL-14"),
    ("pol-place-after-the-end", pol_over, "0-3@L0", "R-ALL-14"),
    # Szczerbak
    ("szc-left-end", szc_start, "0-3@L3", "R-SZC-03"),
    ("szc-parity", szc_start, "1-3@R3", "R-SZC-04"),
    ("szc-mismatch", szc_start, "1-2@R1", "R-SZC-04"),
    ("szc-pass-with-a-placement", szc_start, "pass", "R-SZC-06"),
    ("szc-draw", szc_start, "draw", "R-SZC-01"),
    ("szc-tile-of-the-opponent", szc_start, "3-4@R3", "R-ALL-12"),
    ("szc-widow-tile", szc_start, "2-3@R3", "R-ALL-12"),
    ("szc-opening-form", szc_start, "0-3", "R-SZC-02"),
    ("szc-after-the-end", szc_over, "pass", "R-ALL-14"),
    # Progressive
    ("pro-draw-before-opening", pro_start, "draw", "R-PRO-02"),
    ("pro-pass-before-opening", pro_start, "pass", "R-PRO-02"),
    ("pro-draw-with-a-placement", pro_can_place, "draw", "R-PRO-03"),
    ("pro-pass-with-a-placement", pro_can_place, "pass", "R-PRO-03"),
    ("pro-pass-while-the-stock-lasts", pro_stuck, "pass", "R-PRO-03"),
    ("pro-drawn-tile-does-not-fit", pro_drew, "0-4@R4", "R-PRO-07"),
    ("pro-pass-after-a-useless-draw", pro_drew, "pass", "R-PRO-03"),
    # Pijanowski
    ("pij-occupied", pij_one_tile, "2-3@2.5+2.6", "R-PIJ-03"),
    ("pij-off-board", pij_one_tile, "2-3@2.11+2.12", "R-PIJ-03"),
    ("pij-off-board-row", pij_one_tile, "2-3@5.5+6.5", "R-PIJ-03"),
    ("pij-cells-not-adjacent", pij_one_tile, "2-3@2.6+2.8", "R-PIJ-03"),
    ("pij-cells-diagonal", pij_one_tile, "2-3@2.6+3.7", "R-PIJ-03"),
    ("pij-no-contact", pij_one_tile, "0-3@5.0+5.1", "R-PIJ-03"),
    ("pij-mismatch", pij_one_tile, "2-3@1.4+0.4", "R-PIJ-04"),
    ("pij-mismatch-second-half", pij_one_tile, "2-3@1.5+1.4", "R-PIJ-04"),
    ("pij-tile-not-held", pij_one_tile, "1-2@0.0+0.1", "R-ALL-12"),
    ("pij-pass-with-a-placement", pij_one_tile, "pass", "R-PIJ-08"),
    ("pij-draw", pij_one_tile, "draw", "R-PIJ-02"),
    ("pij-stop-without-double-blank", pij_one_tile, "stop", "R-PIJ-07"),
    ("pij-chain-play", pij_one_tile, "2-3@R2", "R-PIJ-01"),
    ("pij-draw-in-extra-phase", pij_extra, "draw", "R-PIJ-07"),
    ("pij-pass-in-extra-phase", pij_extra, "pass", "R-PIJ-07"),
    ("pij-extra-tile-mismatch", pij_extra, "0-3@4.4+4.3", "R-PIJ-04"),
]


@pytest.mark.parametrize(("build", "action", "rule"), [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])
@pytest.mark.rule("R-ALL-12", "R-ALL-13", "R-ALL-14", "R-POL-02", "R-POL-03", "R-POL-04",
                  "R-SZC-01", "R-SZC-02", "R-SZC-03", "R-SZC-04", "R-SZC-06", "R-PRO-02",
                  "R-PRO-03", "R-PRO-07", "R-PIJ-01", "R-PIJ-02", "R-PIJ-03", "R-PIJ-04",
                  "R-PIJ-07", "R-PIJ-08")
def test_illegal_action_is_refused_with_its_rule(build: Callable[[], HandState], action: str,
                                                 rule: str) -> None:
    state = build()
    before = state.to_json()
    assert action not in {str(a) for a in legal_actions(state)}
    with pytest.raises(IllegalActionError) as caught:
        apply_action(state, action)
    assert caught.value.action == action
    assert action in str(caught.value)
    assert caught.value.rule == rule, caught.value.reason
    assert rule in str(caught.value)
    assert state.to_json() == before


@pytest.mark.parametrize("text", ["2-1@L1", "1-2@L", "draw ", "5-2", "2-3@2.05+2.6", ""])
def test_non_canonical_text_is_a_notation_error_and_changes_nothing(text: str) -> None:
    state = pij_one_tile() if "." in text else pol_open()
    before = state.to_json()
    with pytest.raises(NotationError):
        apply_action(state, text)
    assert state.to_json() == before


@pytest.mark.rule("R-ALL-14")
def test_no_legal_action_after_the_end() -> None:
    for state in (pol_over(), szc_over()):
        assert legal_actions(state) == []
