"""The messages that misled an engine author, each by an engine with the bug planted.

Each engine is the reference with one bug that an engine written in another language had:
an ``undo`` that leaves the match totals, a board one row short under ``double_set``, a
``stop`` spelled ``pass`` after [0|0] (a perft count at depth 2), and a lake event the engine
does not send. The failure must name the right rule (or the contract), show only what differs,
and say "no such event" rather than null.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]


def _run(tmp_path: Path, engine: str, only: str) -> tuple[str, dict[str, Any]]:
    report = tmp_path / "report.json"
    done = subprocess.run(
        [sys.executable, "-m", "dominokit.conformance", "conform", "--engine",
         f"python:tests.conformance.broken.{engine}", "--only", only, "-j", "1",
         "--json", str(report),
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
    # blamed on the rule whose totals were not restored, never on R-ALL-03 (chance is data)
    assert case["rules"][0] == "R-POL-10" and "R-ALL-03" not in out
    assert "spec/protocol.md, undo" in case["message"]
    assert "to reproduce: new_match, next_hand, apply " in case["message"]
    assert "phase" not in case["diff"]  # free text, never compared
    assert "$.totals[0]: 0 -> " in case["diff"]
    # the repro takes the hand back with undo steps and replays the failure on its own
    repro = Path(case["repro"])
    assert repro.is_file() and "- undo: " in repro.read_text(encoding="utf-8")
    replay = [sys.executable, "-m", "dominokit.conformance", "trace", "replay", str(repro)]
    broken = subprocess.run([*replay, "--engine",
                             "python:tests.conformance.broken.undo:UndoKeepsMatchTotals"],
                            capture_output=True, text=True, timeout=120, cwd=REPO)
    assert broken.returncode == 1 and "0 matched, 1 diverged" in broken.stdout, broken.stdout
    assert ".match.hands_played" in broken.stdout or ".match.totals" in broken.stdout
    reference = subprocess.run(replay, capture_output=True, text=True, timeout=120, cwd=REPO)
    assert reference.returncode == 0 and "1 matched" in reference.stdout, reference.stdout


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


def test_an_exception_in_a_python_engine_verb_is_that_cases_error_and_the_run_goes_on(
        tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    done = subprocess.run(
        [sys.executable, "-m", "dominokit.conformance", "conform", "--engine",
         "python:tests.conformance.engines.state_raises:StateRaises",
         "--only", "golden/szczerbak/*",
         "--max-engine-failures", "2", "-j", "1", "--json", str(report),
         "--report-dir", str(tmp_path / "repros")],
        capture_output=True, text=True, timeout=120, cwd=REPO)
    assert done.returncode == 1, done.stdout + done.stderr
    cases = json.loads(report.read_text(encoding="utf-8"))["cases"]
    assert [c["status"] for c in cases] == ["errored"] * len(cases) and len(cases) == 3
    for case in cases:
        assert case["failure_kind"] == "exception"
        assert "KeyError: 'last_placed'" in case["message"]
        assert "tests/conformance/engines/state_raises.py" in case["message"]  # its own frame
    assert "NOT RUN" not in done.stdout


def test_an_engine_that_never_flushes_is_told_its_replies_may_be_buffered() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "dominokit.conformance", "conform", "--engine",
         f"{sys.executable} tests/conformance/engines/unflushed.py", "--variant", "szczerbak",
         "--startup-timeout", "1", "--timeout", "1", "-q"],
        capture_output=True, text=True, timeout=60, cwd=REPO)
    assert done.returncode == 4, done.stdout + done.stderr
    assert "no reply to 'hello' (seq 1) within 1 s" in done.stderr
    assert "stuck in its stdout buffer" in done.stderr and "flush" in done.stderr


def _cli(*args: str, cwd: Path = REPO) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "dominokit.conformance", *args],
                          capture_output=True, text=True, timeout=60, cwd=cwd)


def test_a_misspelt_variant_gets_a_suggestion() -> None:
    for args in (("conform", "--variant", "szczerbk"), ("play", "szczerbk")):
        done = _cli(*args)
        assert done.returncode == 4
        assert "did you mean 'szczerbak'?" in done.stderr, args


def test_a_misspelt_reason_in_expectations_gets_a_suggestion(tmp_path: Path) -> None:
    path = tmp_path / "expected.yaml"
    path.write_text("- golden/szczerbak/*: failed\n  reasn: our engine differs\n",
                    encoding="utf-8")
    done = _cli("conform", "--variant", "szczerbak", "--expectations", str(path))
    assert done.returncode == 4
    assert f"{path}:1: unknown key 'reasn'; did you mean 'reason'?" in done.stderr


def test_the_go_example_reads_plant_bug_where_go_test_caching_sees_it(tmp_path: Path) -> None:
    """``go test`` caches a passing result against the environment a test reads; a variable
    read at package load is not recorded, so the planted bug would come back "(cached)"."""
    go = shutil.which("go")
    if go is None:
        pytest.skip("go is not installed")
    env = {k: v for k, v in os.environ.items() if k != "PLANT_BUG"}
    env["GOCACHE"] = str(tmp_path / "gocache")
    folder = REPO / "docs" / "examples" / "go"

    def go_test(**extra: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([go, "test", "./..."], cwd=folder, env={**env, **extra},
                              capture_output=True, text=True, timeout=300)

    assert go_test().returncode == 0
    again = go_test()
    assert again.returncode == 0 and "(cached)" in again.stdout  # the cache is in use
    planted = go_test(PLANT_BUG="parity")
    assert planted.returncode != 0, planted.stdout
    assert "(cached)" not in planted.stdout and "R-SZC-04" in planted.stdout
