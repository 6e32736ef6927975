"""The adapters for the two published block-dominoes engines (conformance/serve/peers/).

Without the 'peers' extra these tests skip on a developer machine; under ``CI=true`` a missing
engine is a failure, as CI installs the extra. The mapping tests use one small hand checked by
hand below; the suite tests run the whole classic_block suite against each engine with its
checked-in expectations file, so a change in either engine's departures fails.
"""

from __future__ import annotations

import importlib
import json
import os
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from dominokit.conformance.commands.cli import main
from dominokit.conformance.exit_status import ExitStatus
from dominokit.conformance.wire.errors import EngineRejected

REPO = Path(__file__).resolve().parents[2]
TESTED = REPO / "docs" / "engines" / "tested"
PAGE = REPO / "docs" / "engines" / "tested.md"


def _adapter(name: str) -> ModuleType:
    try:
        return importlib.import_module(f"dominokit.conformance.serve.peers.{name}")
    except ImportError as missing:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI must install the peers extra: {missing}")
        pytest.skip(f"the peers extra is not installed: {missing}")


# A hand with no pass that ends blocked, worked out by hand:
#   P0 opens 0-0 -> ends 0|0. P1 0-5@L0 -> 5|0. P0 5-6@L5 -> 6|0. P1 0-6@L6 -> 0|0.
#   Every 0 is gone (0-0, 0-5, 0-6 played; 0-1..0-4 out of play): neither can place; blocked.
#   Pips left: P0 1-1 1-6 2-4 3-6 6-6 = 2+7+6+9+12 = 36; P1 1-3 3-3 4-4 4-6 5-5 = 4+6+8+10+10
#   = 38. P0 has the lighter hand and wins (R-CLB-06): loser_pips pays 38 (R-CLB-07);
#   both_totals pays 38 + 36 = 74 (R-CLB-08).
HANDS = [["0-0", "1-1", "1-6", "2-4", "3-6", "5-6", "6-6"],
         ["0-5", "0-6", "1-3", "3-3", "4-4", "4-6", "5-5"]]
OUT = ["0-1", "0-2", "0-3", "0-4", "1-2", "1-4", "1-5", "2-2", "2-3", "2-5", "2-6", "3-4",
       "3-5", "4-5"]
PLAY = ["0-0", "0-5@L0", "5-6@L5", "0-6@L6"]


def _deal(starter: int, swap: bool = False) -> dict[str, Any]:
    hands = [HANDS[1], HANDS[0]] if swap else HANDS
    return {"hands": hands, "stock": [], "out_of_play": OUT, "starter": starter, "widow": None}


ENGINES = [("openspiel", "loser_pips", 38), ("dominoes_pkg", "both_totals", 74)]


@pytest.mark.rule("R-CLB-08")
@pytest.mark.parametrize(("name", "payout", "paid"), ENGINES)
def test_hello_lists_classic_block_with_the_payout_the_engine_computes(
        name: str, payout: str, paid: int) -> None:
    engine = _adapter(name).make_engine()
    assert engine.hello()["variants"] == {
        "classic_block": {"options": {"blocked_payout": [payout]}}}


@pytest.mark.rule("R-CLB-02")
@pytest.mark.parametrize(("name", "payout", "paid"), ENGINES)
def test_a_deal_goes_in_with_its_starter(name: str, payout: str, paid: int) -> None:
    engine = _adapter(name).make_engine()
    for starter in (0, 1):
        state = engine.new_hand("classic_block", {"blocked_payout": payout}, _deal(starter))
        assert state["hands"] == HANDS and state["out_of_play"] == OUT
        assert state["to_move"] == starter and state["starter"] == starter
        assert engine.legal() == HANDS[starter]  # any tile opens


@pytest.mark.rule("R-CLB-03")
def test_actions_both_ways_on_equal_ends() -> None:
    # After 0-0 both ends show 0: P1 may put 0-5 or 0-6 on either (R-CLB-03). OpenSpiel keeps
    # only the pip of an end, so its one move per tile is both ends; the dominoes package
    # offers the left end only.
    openspiel = _adapter("openspiel").make_engine()
    dominoes = _adapter("dominoes_pkg").make_engine()
    openspiel.new_hand("classic_block", {}, _deal(0))
    dominoes.new_hand("classic_block", {"blocked_payout": "both_totals"}, _deal(0))
    for engine in (openspiel, dominoes):
        assert engine.apply("0-0") == [{"type": "place", "player": 0, "action": "0-0"}]
    assert openspiel.legal() == ["0-5@L0", "0-5@R0", "0-6@L0", "0-6@R0"]
    assert dominoes.legal() == ["0-5@L0", "0-6@L0"]
    for engine in (openspiel, dominoes):
        engine.apply("0-5@R0")
        table = engine.state()["table"]
        assert table == {"kind": "chain", "tiles": [[0, 0], [0, 5]], "left": 0, "right": 5}
        assert engine.legal() == ["5-6@R5"]  # P0's only 5 or 0 (both engines take @R0)


@pytest.mark.rule("R-CLB-06", "R-CLB-07", "R-CLB-08")
@pytest.mark.parametrize(("name", "payout", "paid"), ENGINES)
@pytest.mark.parametrize("swap", [False, True])
def test_a_blocked_hand_pays_what_the_engine_pays(
        name: str, payout: str, paid: int, swap: bool) -> None:
    # Swapped, the same hand is played by the other seats: P1 starts and wins.
    engine = _adapter(name).make_engine()
    winner = 1 if swap else 0
    engine.new_hand("classic_block", {"blocked_payout": payout}, _deal(winner, swap))
    events: list[Any] = []
    for action in PLAY:
        events = engine.apply(action)
    points = [0, 0]
    points[winner] = paid
    terms = [{"term": "opponent_pips", "player": winner, "points": 38, "rule": "R-CLB-07"}]
    if paid != 38:
        terms.append({"term": "own_pips", "player": winner, "points": 36, "rule": "R-CLB-08"})
    pips = [38, 36] if swap else [36, 38]
    result = {"winner": winner, "reason": "block", "points": points, "pips": pips,
              "terms": terms}
    assert events[-1] == {"type": "end", "result": result}
    state = engine.state()
    assert state["result"] == result and state["to_move"] is None and engine.legal() == []


@pytest.mark.rule("R-CLB-04")
@pytest.mark.parametrize(("name", "payout", "paid"), ENGINES)
def test_steps_the_engine_cannot_express_are_refused(name: str, payout: str, paid: int) -> None:
    engine = _adapter(name).make_engine()
    with pytest.raises(EngineRejected) as no_hand:
        engine.legal()
    assert no_hand.value.code == "no_hand"
    engine.new_hand("classic_block", {"blocked_payout": payout}, _deal(0))
    for action, code in (("pass", "bad_request"), ("draw", "bad_request"),
                         ("6-0", "bad_request")):
        with pytest.raises(EngineRejected) as refused:
            engine.apply(action)
        assert refused.value.code == code, action
    with pytest.raises(EngineRejected) as no_match:
        engine.new_match("classic_block", {}, 0)
    assert no_match.value.code == "unsupported"
    other = "both_totals" if payout == "loser_pips" else "loser_pips"
    with pytest.raises(EngineRejected) as option:
        engine.new_hand("classic_block", {"blocked_payout": other}, _deal(0))
    assert option.value.code == "unsupported"


@pytest.mark.parametrize(("name", "file", "row"), [
    ("openspiel", "openspiel", "| open_spiel python_block_dominoes 2.0.2 |"),
    ("dominoes_pkg", "dominoes", "| dominoes 6.1.0 |"),
])
def test_the_suite_ends_as_the_expectations_and_the_page_say(
        name: str, file: str, row: str, tmp_path: Path) -> None:
    _adapter(name)
    status = main(["conform", "--engine",
                   f"python:dominokit.conformance.serve.peers.{name}:make_engine",
                   "--variant", "classic_block", "--expectations",
                   str(TESTED / f"{file}.expectations.yaml"), "--report-dir", str(tmp_path),
                   "--json", str(tmp_path / "report.json")])
    assert status == ExitStatus.OK
    summary = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))["summary"]
    counts = " | ".join(str(summary[key])
                        for key in ("passed", "failed", "errored", "not_applicable"))
    assert f"{row} {counts} |" in PAGE.read_text(encoding="utf-8")


REPROS = [("openspiel", "openspiel-no-pass", ExitStatus.FAILED),
          ("openspiel", "openspiel-unchecked-opening", ExitStatus.FAILED),
          ("openspiel", "openspiel-unchecked-mismatch", ExitStatus.FAILED),
          ("openspiel", "blocked-no-pass-loser-pips", ExitStatus.OK),
          ("dominoes_pkg", "dominoes-no-pass", ExitStatus.FAILED),
          ("dominoes_pkg", "blocked-no-pass-both-totals", ExitStatus.FAILED)]


@pytest.mark.parametrize(("name", "repro", "expected"), REPROS)
def test_the_page_repros_reproduce(name: str, repro: str, expected: ExitStatus) -> None:
    _adapter(name)
    trace = TESTED / "repros" / f"{repro}.yaml"
    assert main(["trace", "validate", str(trace)]) == ExitStatus.OK  # the reference agrees
    status = main(["trace", "replay", "--engine",
                   f"python:dominokit.conformance.serve.peers.{name}:make_engine", str(trace)])
    assert status == expected


def test_a_case_at_the_default_needs_the_default_listed() -> None:
    # No engine needed: this is the kit's applicability rule the dominoes adapter relies on.
    from dominokit.conformance.cases.model import Requirement
    from dominokit.conformance.kit.driver import Hello

    def hello(options: dict[str, list[Any]]) -> Hello:
        return Hello("x", "1", 1, {"classic_block": options})

    at_default = Requirement("classic_block")
    other = Requirement("classic_block", (("blocked_payout", "both_totals"),))
    only_other = hello({"blocked_payout": ["both_totals"]})
    message = at_default.unmet(only_other)
    assert message is not None and "blocked_payout='loser_pips' (the default)" in message
    assert other.unmet(only_other) is None
    assert at_default.unmet(hello({})) is None  # no options listed: the defaults are played
    assert other.unmet(hello({})) is not None
