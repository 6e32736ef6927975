"""The messages that misled an engine author, each by an engine with the bug planted.

Each engine is the reference with one bug that an engine written in another language had:
an ``undo`` that leaves the match totals, a board one row short under ``double_set``, a
``stop`` spelled ``pass`` after [0|0] (a perft count at depth 2), and a lake event the engine
does not send. The failure must name the right rule (or the contract), show only what differs,
and say "no such event" rather than null.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]


def _run(tmp_path: Path, engine: str, only: str) -> tuple[str, dict[str, Any]]:
    report = tmp_path / "report.json"
    done = subprocess.run(
        [sys.executable, "-m", "dominokit.conformance.cli", "conform", "--engine",
         f"python:tests.broken.{engine}", "--only", only, "-j", "1", "--json", str(report),
         "--report-dir", str(tmp_path / "repros")],
        capture_output=True, text=True, timeout=120, cwd=REPO)
    assert done.returncode == 1, done.stdout + done.stderr
    data = json.loads(report.read_text(encoding="utf-8"))
    (case,) = [c for c in data["cases"] if c["status"] == "failed"]
    return done.stdout, case


def test_an_undo_that_keeps_the_match_totals_cites_the_contract_not_a_rule(
        tmp_path: Path) -> None:
    out, case = _run(tmp_path, "undo:UndoKeepsMatchTotals",
                     "requests/poldomino/undo-takes-back-a-hand-end")
    assert case["rules"] == [] and "R-ALL-03" not in out
    assert "spec/protocol.md, undo" in case["message"]
    assert "to reproduce: new_match, next_hand, apply " in case["message"]
    assert "phase" not in case["diff"]  # free text, never compared
    assert "$.totals[0]: 0 -> " in case["diff"]


def test_a_board_one_row_short_under_double_set_blames_the_double_set_rule(
        tmp_path: Path) -> None:
    out, case = _run(tmp_path, "journeys:PijanowskiDoubleSetBoardOneRowShort",
                     "golden/pijanowski/double-set")
    assert case["rules"][0] == "R-PIJ-11"
    assert "sha256" not in case["message"].splitlines()[0]
    assert "the engine misses 1127 legal action(s): 0-0@10.0+11.0" in case["message"]
    assert case["diff"].splitlines()[1] == (
        "$: 1127 missing, for example 0-0@10.0+11.0, 0-0@10.1+11.1, 0-0@10.10+11.10, ...; "
        "none extra")
    assert "rule: R-PIJ-11 Double-set variant" in out


def test_a_perft_failure_at_depth_two_shows_the_position_and_the_two_actions(
        tmp_path: Path) -> None:
    out, case = _run(tmp_path, "journeys:PijanowskiStopSpelledPass",
                     "perft/pijanowski/double-blank-corner-d2")
    assert case["rules"][0] == "R-PIJ-07"
    assert case["diff"].splitlines()[1:] == ["$: 1 missing, for example stop; 1 extra, for "
                                             "example pass"]
    assert "0-1@0.2+0.3" not in out  # none of the 30 first actions that agree


def test_a_missing_event_is_no_such_event_not_null(tmp_path: Path) -> None:
    _, case = _run(tmp_path, "readings:PijanowskiDeclaresOneLakeRulePlaysTheOther",
                   "golden/pijanowski/lakes-newly-enclosed")
    assert "no such event" in case["message"] and "no such event" in case["diff"]
    assert "null" not in case["message"] and "null" not in case["diff"]
    assert case["rules"][0] == "R-PIJ-06"
