"""The JSON Schemas: each is a valid draft 2020-12 schema, documents every property, rejects
unknown keys, and accepts exactly the canonical forms of DESIGN.md (good and bad examples).
"""

from __future__ import annotations

import copy
import itertools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from dominokit.reference.errors import NotationError
from dominokit.reference.notation import Action
from dominokit.spec.spec import (
    load_yaml_with_marks,
    registry,
    schema,
    schema_names,
    validator,
)

OURS = ("action", "common", "deal", "event", "hand_result", "match_state", "state", "variant")
BASE = "https://dominokit.example/schema/"

# Tile ids built independently of the code under test: every a-b with a <= b.
TILES = [f"{a}-{b}" for a in range(7) for b in range(a, 7)]


def valid(name: str, instance: object) -> bool:
    return validator(name).is_valid(instance)


# ---------------------------------------------------------------- the schemas themselves


@pytest.mark.parametrize("name", schema_names())
def test_schema_is_valid_draft_2020_12(name: str) -> None:
    Draft202012Validator.check_schema(schema(name))
    assert schema(name)["$id"] == f"{BASE}{name}.schema.json"


def test_all_our_schemas_are_bundled() -> None:
    assert set(OURS) <= set(schema_names())


def _nodes(node: Any, path: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    if isinstance(node, dict):
        yield path, node
        for key, value in node.items():
            yield from _nodes(value, f"{path}/{key}")
    elif isinstance(node, list):
        for index, item in enumerate(node):
            yield from _nodes(item, f"{path}/{index}")


@pytest.mark.parametrize("name", OURS)
def test_every_property_has_a_description(name: str) -> None:
    missing = [
        f"{path}/properties/{key}"
        for path, node in _nodes(schema(name))
        if isinstance(node.get("properties"), dict) and not path.endswith("/if")  # conditions
        for key, sub in node["properties"].items()
        if not (isinstance(sub, dict) and sub.get("description"))
    ]
    assert missing == []


@pytest.mark.parametrize("name", OURS)
def test_every_ref_resolves(name: str) -> None:
    resolver = registry().resolver(base_uri=schema(name)["$id"])
    refs = [node["$ref"] for _, node in _nodes(schema(name)) if isinstance(node.get("$ref"), str)]
    for ref in refs:
        resolver.lookup(ref)


# ---------------------------------------------------------------- actions


GOOD_ACTIONS = [
    "1-5", "0-0", "6-6", "0-6",
    "1-3@L1", "1-3@R3", "0-4@R4", "0-4@R0", "4-4@L4", "6-6@R6",
    "5-6@0.4+0.5", "4-6@0.5+0.4", "4-4@2.0+2.1", "1-5@2.0+1.0", "0-0@10.11+11.11",
    "draw", "pass", "stop",
]
BAD_ACTIONS = [
    "5-2",             # high half first
    "2-5@L 5",         # stray space
    "2-5@01.3+1.3",    # leading zero in a row
    "2-5@0.3+0.03",    # leading zero in a column
    "01.3",            # a bare cell is not an action
    "2-5@L3",          # 3 is not a half of 2-5
    "2-5@X2", "2-5@L", "2-5@", "2-5@l2",
    "7-7", "1-7", "-1-5", "1--5", "1 - 5", "15",
    "1-5@0.0", "1-5@0.0+0.1+0.2", "1-5@-1.0+0.0", "1-5@0,0+0,1",
    "draw ", " draw", "DRAW", "Pass", "stop!", "",
    "1-5\n", "draw\n",  # a trailing newline is not the canonical spelling
]


@pytest.mark.parametrize("text", GOOD_ACTIONS)
def test_good_actions(text: str) -> None:
    assert valid("action", text)
    assert str(Action.parse(text)) == text  # the engine agrees it is canonical


@pytest.mark.parametrize("text", BAD_ACTIONS)
def test_bad_actions(text: str) -> None:
    assert not valid("action", text)
    with pytest.raises(NotationError):
        Action.parse(text)


@pytest.mark.parametrize("value", [15, None, ["1-5"], {"action": "1-5"}])
def test_actions_are_strings(value: object) -> None:
    assert not valid("action", value)


def test_chain_plays_agree_with_the_notation_parser() -> None:
    """Every tile spelling x end x touching pip: the schema accepts what the parser accepts."""
    for a, b, end, touch in itertools.product(range(8), range(8), "LR", range(8)):
        text = f"{a}-{b}@{end}{touch}"
        # By the grammar: pips 0..6, low half first, and the touching pip is a half.
        expected = a <= b <= 6 and touch in (a, b)
        assert valid("action", text) is expected, text
        try:
            Action.parse(text)
            parsed = True
        except NotationError:
            parsed = False
        assert parsed is expected, text


def test_board_plays_agree_with_the_grammar() -> None:
    for tile, r1, c1, r2, c2 in itertools.product(["2-5", "5-2", "3-3"], ["0", "1", "10", "01"],
                                                  ["0", "11"], ["0", "00"], ["1"]):
        text = f"{tile}@{r1}.{c1}+{r2}.{c2}"
        expected = tile != "5-2" and r1 != "01" and r2 != "00"  # low first, no leading 0
        assert valid("action", text) is expected, text


# ---------------------------------------------------------------- deals


def poldomino_deal() -> dict[str, Any]:
    """5 tiles each, the other 18 in the stock (R-POL-01)."""
    return {"hands": [TILES[0:5], TILES[5:10]], "stock": TILES[10:], "out_of_play": [],
            "starter": 0, "widow": None}


def test_good_deals() -> None:
    assert valid("deal", poldomino_deal())
    szczerbak = {"hands": [TILES[:10], TILES[10:20]], "stock": [], "out_of_play": [],
                 "starter": None, "widow": [2, 3]}
    assert valid("deal", szczerbak)
    without_widow = poldomino_deal()
    del without_widow["widow"]
    assert valid("deal", without_widow)


@pytest.mark.parametrize("change", [
    lambda d: d["hands"][0].__setitem__(0, "1-0"),           # not low-first
    lambda d: d["stock"].append("7-7"),
    lambda d: d["hands"].append([]),                         # three hands
    lambda d: d.__setitem__("starter", 2),
    lambda d: d.__setitem__("widow", [7, 1]),
    lambda d: d.__setitem__("widow", [1]),
    lambda d: d.pop("stock"),
    lambda d: d.pop("starter"),
    lambda d: d.__setitem__("seed", 4),                      # unknown key
    lambda d: d["stock"].__setitem__(0, [1, 2]),
])
def test_bad_deals(change: Any) -> None:
    deal = poldomino_deal()
    change(deal)
    assert not valid("deal", deal)


# ---------------------------------------------------------------- hand results and events


def poldomino_result() -> dict[str, Any]:
    # Player 0 went out; player 1 holds 25 pips: 25 - 0 = 25 (R-POL-07).
    return {"winner": 0, "reason": "domino", "points": [25, 0], "pips": [0, 25],
            "terms": [{"term": "opponent_pips", "player": 0, "points": 25, "rule": "R-POL-07"}]}


def test_good_hand_results() -> None:
    assert valid("hand_result", poldomino_result())
    tied_block = {"winner": None, "reason": "block", "points": [0, 0], "pips": [12, 12],
                  "terms": []}
    assert valid("hand_result", tied_block)
    # Pijanowski: hand score 40 - 3 = 37 and 30 - 8 = 22, each to its own player (R-PIJ-09).
    board = {"winner": 0, "reason": "block", "points": [37, 22], "pips": [3, 8], "terms": [
        {"term": "placement_points", "player": 0, "points": 40, "rule": "R-PIJ-09"},
        {"term": "own_pips", "player": 0, "points": -3, "rule": "R-PIJ-09"},
        {"term": "placement_points", "player": 1, "points": 30, "rule": "R-PIJ-09"},
        {"term": "own_pips", "player": 1, "points": -8, "rule": "R-PIJ-09"}]}
    assert valid("hand_result", board)


@pytest.mark.parametrize("change", [
    lambda r: r.__setitem__("winner", 2),
    lambda r: r.__setitem__("reason", "timeout"),
    lambda r: r.__setitem__("points", [1, 2, 3]),
    lambda r: r.__setitem__("pips", [-1, 25]),
    lambda r: r["terms"][0].__setitem__("points", 0),        # only non-zero terms
    lambda r: r["terms"][0].__setitem__("rule", "R-POL-7"),
    lambda r: r["terms"][0].__setitem__("term", "bonus"),
    lambda r: r["terms"][0].pop("player"),
    lambda r: r.pop("terms"),
    lambda r: r.__setitem__("loser", 1),
])
def test_bad_hand_results(change: Any) -> None:
    result = poldomino_result()
    change(result)
    assert not valid("hand_result", result)


GOOD_EVENTS: list[dict[str, Any]] = [
    {"type": "place", "player": 0, "action": "1-5"},
    {"type": "place", "player": 1, "action": "1-3@L1"},
    # [5|6] on two cells of one field: 11 pips x 2 = 22 (R-PIJ-05).
    {"type": "place", "player": 0, "action": "5-6@0.4+0.5", "points": 22, "rule": "R-PIJ-05"},
    {"type": "lake", "player": 1, "cells": [[0, 0], [0, 1], [1, 0], [1, 1]], "points": 16,
     "rule": "R-PIJ-06"},
    {"type": "draw", "player": 0, "tile": "3-4"},
    {"type": "pass", "player": 1},
    {"type": "stop", "player": 1},
    {"type": "end", "result": poldomino_result()},
]
BAD_EVENTS: list[dict[str, Any]] = [
    {"type": "place", "player": 0, "action": "draw"},         # not a placement
    {"type": "place", "player": 0, "action": "5-1"},
    {"type": "place", "player": 2, "action": "1-5"},
    {"type": "place", "player": 0},
    {"type": "lake", "player": 1, "cells": [], "points": 0, "rule": "R-PIJ-06"},
    {"type": "lake", "player": 1, "cells": [[0, 0]], "points": 4},
    {"type": "lake", "player": 1, "cells": [[0, -1]], "points": 4, "rule": "R-PIJ-06"},
    {"type": "draw", "player": 0, "tile": "4-3"},
    {"type": "draw", "player": 0},
    {"type": "pass", "player": 1, "tile": "3-4"},            # a key of another event type
    {"type": "passed", "player": 1},
    {"type": "end", "result": {"winner": 0}},
    {"player": 1},
]


@pytest.mark.parametrize("event", GOOD_EVENTS, ids=lambda e: str(e.get("type")))
def test_good_events(event: dict[str, Any]) -> None:
    assert valid("event", event)


@pytest.mark.parametrize("event", BAD_EVENTS, ids=lambda e: str(e.get("type")))
def test_bad_events(event: dict[str, Any]) -> None:
    assert not valid("event", event)


# ---------------------------------------------------------------- states and matches


def chain_state() -> dict[str, Any]:
    """Poldomino after the opening 1-5 and a draw: the DESIGN.md HandState shape."""
    return {
        "variant": "poldomino", "options": {"catch_penalty_to": "winner"},
        "hands": [["0-1", "2-5", "3-3", "4-6"], ["0-0", "0-2", "1-1", "2-2", "3-6", "5-5"]],
        "stock": TILES[11:], "out_of_play": [],
        "table": {"kind": "chain", "tiles": [[1, 5]], "left": 1, "right": 5},
        "starter": 0, "to_move": 1, "turn": {"draws": 1, "extra": False}, "passes": 0,
        "points": [0, 0], "last_placed": ["1-5", None], "widow": None, "result": None,
    }


def board_state() -> dict[str, Any]:
    state = chain_state()
    state.update({
        "variant": "pijanowski", "options": {"hand_size": 12, "lake_rule": "new_region"},
        "table": {"kind": "board", "rows": 6, "cols": 12, "placements": [
            {"player": 0, "cells": [[0, 4], [0, 5]], "pips": [5, 6]}]},
        "points": [22, 0], "last_placed": ["5-6", None],
    })
    return state


def test_good_states() -> None:
    assert valid("state", chain_state())
    assert valid("state", board_state())
    finished = chain_state()
    finished.update({"to_move": None, "result": poldomino_result()})
    assert valid("state", finished)
    szczerbak = chain_state()
    szczerbak["table"] = {"kind": "chain", "tiles": [[2, 3], [3, 6]], "left": None, "right": 6}
    szczerbak["widow"] = [2, 3]
    assert valid("state", szczerbak)


@pytest.mark.parametrize("change", [
    lambda s: s["table"].__setitem__("kind", "ring"),
    lambda s: s["table"].__setitem__("placements", []),       # a board key on a chain
    lambda s: s["table"]["tiles"].append([1, 7]),
    lambda s: s["table"].__setitem__("left", "1"),
    lambda s: s.__setitem__("turn", {"draws": -1, "extra": False}),
    lambda s: s.__setitem__("last_placed", ["5-1", None]),
    lambda s: s.__setitem__("options", {"Bad-Name": 1}),
    lambda s: s.__setitem__("variant", "Poldomino"),
    lambda s: s.__setitem__("result", {"winner": 0}),
    lambda s: s.pop("passes"),
])
def test_bad_states(change: Any) -> None:
    state = chain_state()
    change(state)
    assert not valid("state", state)


def match_state() -> dict[str, Any]:
    return {"variant": "poldomino", "options": {"catch_penalty_to": "winner"},
            "first_starter": 0, "hands_played": 3, "totals": [40, 77], "sets_won": [1, 0],
            "phase": "set 2 hand 4", "next": {"starter": 1, "hand_sizes": [5, 5]},
            "winner": None, "finished": False}


def test_good_match_states() -> None:
    assert valid("match_state", match_state())
    over = match_state()
    over.update({"next": None, "winner": 0, "finished": True})
    assert valid("match_state", over)
    rounds = match_state()
    del rounds["sets_won"]
    rounds.update({"variant": "progressive", "options": {},
                   "rounds": [{"name": "round 1", "totals": [30, 12], "winner": 0}],
                   "next": {"starter": None, "hand_sizes": [14, 5]}})
    assert valid("match_state", rounds)


@pytest.mark.parametrize("change", [
    lambda m: m.__setitem__("finished", "no"),
    lambda m: m.__setitem__("next", {"starter": 0}),
    lambda m: m.__setitem__("next", {"starter": 0, "hand_sizes": [5, 0]}),
    lambda m: m.__setitem__("rounds", [{"name": "r1", "totals": [1, 2]}]),
    lambda m: m.__setitem__("first_starter", None),
    lambda m: m.pop("phase"),
    lambda m: m.__setitem__("set", 2),
])
def test_bad_match_states(change: Any) -> None:
    state = match_state()
    change(state)
    assert not valid("match_state", state)


# ---------------------------------------------------------------- closed objects


def _open_map(path: tuple[object, ...]) -> bool:
    """Mappings whose keys the data chooses: option names, and override values and paths."""
    return path == ("options",) or (len(path) >= 3 and path[0] == "options"
                                    and path[2] == "overrides")


def _with_extra_key(document: Any) -> Iterator[tuple[tuple[object, ...], Any]]:
    """One copy of ``document`` per nested mapping, with an unknown key added to it."""
    def paths(node: Any, path: tuple[object, ...]) -> Iterator[tuple[object, ...]]:
        if isinstance(node, dict):
            yield path
            for key, value in node.items():
                yield from paths(value, (*path, key))
        elif isinstance(node, list):
            for index, item in enumerate(node):
                yield from paths(item, (*path, index))

    for path in paths(document, ()):
        if _open_map(path):
            continue
        changed = copy.deepcopy(document)
        target = changed
        for step in path:
            target = target[step]
        target["zz_unknown"] = 1
        yield path, changed


@pytest.mark.parametrize("name,document", [
    ("deal", poldomino_deal()),
    ("hand_result", poldomino_result()),
    ("state", chain_state()),
    ("state", board_state()),
    ("match_state", match_state()),
    *[("event", event) for event in GOOD_EVENTS],
])
def test_an_unknown_key_anywhere_is_an_error(name: str, document: dict[str, Any]) -> None:
    assert valid(name, document)
    for path, changed in _with_extra_key(document):
        assert not valid(name, changed), path


def test_an_unknown_key_anywhere_in_a_variant_is_an_error() -> None:
    fixture = Path(__file__).parent / "data" / "minimal.yaml"
    data = load_yaml_with_marks(fixture).view
    assert valid("variant", data)
    checked = 0
    for path, changed in _with_extra_key(data):
        # (term tile tables are keyed by tiles: there the unknown key fails the tile pattern)
        assert not valid("variant", changed), path
        checked += 1
    assert checked > 30
