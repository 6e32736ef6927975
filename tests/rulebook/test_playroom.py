"""The play page's engine room on CPython: clicks, refusals, undo and position links.

The browser tests (``test_play_page.py``) play through the page; these check the same module
directly, fast, on the moves a reader makes by hand: a tile dropped on an end it does not fit,
a board tile put where it touches nothing, undo, and the links that reopen a position. The
expected rule of each refusal is the one the reference's ``check_action`` names, and its
words are read from the spec's YAML, not from the module under test.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from dominokit.reference import Action, check_action, legal_actions
from dominokit.rulebook.playroom import Room, Stepper, page_start

REPO = Path(__file__).resolve().parents[2]


def _statement(rule_id: str, lang: str) -> str:
    for path in [REPO / "spec" / "common.yaml", *(REPO / "spec" / "variants").glob("*.yaml")]:
        for entry in yaml.safe_load(path.read_text(encoding="utf-8"))["rules"]:
            if entry["id"] == rule_id:
                text: str = entry["statement_pl" if lang == "pl" else "statement"]
                return text.strip()
    raise KeyError(rule_id)


def test_a_tile_dropped_on_an_end_it_does_not_fit_cites_the_matching_rule() -> None:
    room = Room.deal("classic_block", {}, 7, seat="both", lang="pl")
    room.click("action", str(legal_actions(room.state)[0]))
    state = room.state
    hand = state.hands[state.to_move or 0]
    tile = next(t for t in hand if not any(a.tile == t and a.end == "L"
                                           for a in legal_actions(state)))
    expected = check_action(state, Action.parse(f"{tile}@L{tile.low}"))
    assert expected is not None
    view = room.click("end", "L", str(tile))
    assert view["refusal"]["rule"]["id"] == expected[0]
    assert view["refusal"]["rule"]["words"].strip() == _statement(expected[0], "pl")
    assert room.state is state  # nothing was played


def test_a_board_tile_that_touches_nothing_is_refused_with_its_rule() -> None:
    room = Room.deal("pijanowski", {}, 7, seat="both")
    room.click("action", str(legal_actions(room.state)[0]))
    tile = room.state.hands[room.state.to_move or 0][0]
    expected = check_action(room.state, Action.parse(f"{tile}@5.5+5.6"))
    assert expected is not None
    view = room.click("cells", "5.5+5.6", str(tile))
    assert view["refusal"]["rule"]["id"] == expected[0]
    assert view["refusal"]["rule"]["words"].strip() == _statement(expected[0], "en")


def test_two_clicks_in_either_order_place_a_legal_board_tile() -> None:
    room = Room.deal("pijanowski", {}, 7, seat="both")
    first = legal_actions(room.state)[0]
    assert first.cells is not None
    (a, b) = first.cells
    view = room.click("cells", f"{b[0]}.{b[1]}+{a[0]}.{a[1]}", str(first.tile))
    assert view["refusal"] is None
    assert view["moves"][0]["action"] == str(first)


def test_undo_takes_back_the_readers_action_and_the_reply() -> None:
    room = Room.deal("poldomino", {}, 3, seat="0")
    before = room.state
    moves = len(room.moves)
    room.click("action", str(legal_actions(room.state)[0]))
    assert len(room.moves) > moves
    room.undo()
    assert room.state is before and len(room.moves) == moves


def test_a_shared_link_reopens_the_same_position() -> None:
    room = Room.deal("progressive", {}, 5, seat="0", opponent="random")
    for _ in range(3):
        if room.state.result is None:
            room.click("action", str(legal_actions(room.state)[-1]))
    view = room.view()
    again = page_start({"variant": "progressive", "seed": 5, "seat": "0",
                        "opponent": "random", "moves": view["link_moves"]}, {})
    assert again["state"] == view["state"]


def test_a_trace_step_link_opens_the_trace_position() -> None:
    path = REPO / "conformance" / "traces" / "poldomino" / "catch-double-blank.yaml"
    trace: dict[str, Any] = yaml.safe_load(path.read_text(encoding="utf-8"))
    stepper = Stepper(trace)
    for _ in range(4):
        stepper.forward()
    opened = page_start({"variant": "poldomino", "trace": trace["id"], "hand": 0, "step": 4},
                        {trace["id"]: trace})
    assert opened["state"] == stepper.view()["state"]
    assert opened["legal"] == [str(a) for a in trace["steps"][4]["legal"]]


def test_the_option_selectors_name_options_and_values_in_the_pages_language() -> None:
    from dominokit.rulebook.playroom import option_specs

    polish = {spec["name"]: spec for spec in option_specs("pijanowski", "pl")}
    assert polish["lake_rule"]["label"] == "Które jeziorka się liczą"
    assert polish["lake_rule"]["value_labels"] == ["każde nowe puste miejsce",
                                                   "tylko odcięte od większego"]
    assert polish["double_set"]["values"] == [False, True]
    english = {spec["name"]: spec for spec in option_specs("pijanowski", "en")}
    assert english["lake_rule"]["label"] == "lake_rule"
    assert english["double_set"]["value_labels"] == ["false", "true"]
    assert english["hand_size"]["value_labels"] == ["12", "14"]
