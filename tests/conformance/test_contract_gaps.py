"""The contract's last gaps, each written in spec/protocol.md and checked by a case.

An engine author reading only the docs guessed wrong at each of these; each guess is planted
in an engine here and must fail the case that checks it (and the reference must pass it).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
PROTOCOL = " ".join((REPO / "spec" / "protocol.md").read_text(encoding="utf-8").split())


def _run(tmp_path: Path, engine: str | None, only: str) -> dict[str, Any]:
    report = tmp_path / "report.json"
    argv = [sys.executable, "-m", "dominokit.conformance", "conform", "--only", only,
            "-j", "1", "--json", str(report), "--report-dir", str(tmp_path / "repros"), "-q"]
    if engine is not None:
        argv += ["--engine", engine]
    subprocess.run(argv, capture_output=True, text=True, timeout=120, cwd=REPO)
    data: dict[str, Any] = json.loads(report.read_text(encoding="utf-8"))
    return data


def _statuses(data: dict[str, Any]) -> set[str]:
    return {case["status"] for case in data["cases"]}


def test_a_request_naming_no_command_is_unsupported(tmp_path: Path) -> None:
    assert "a request with no `cmd`, or a `cmd` that is not a string" in PROTOCOL
    assert _statuses(_run(tmp_path, None, "requests/szczerbak/no-command")) == {"passed"}
    engine = f"{sys.executable} tests/conformance/engines/no_command_bad_request.py"
    guessed = _run(tmp_path, engine,
                   "requests/szczerbak/no-command")
    (case,) = guessed["cases"]
    assert case["status"] == "failed"
    assert case["expected"] == {"seq": 7, "error": "unsupported"}
    assert case["got"] == {"seq": 7, "error": "bad_request"}


def test_a_hello_in_the_middle_of_a_session_resets_nothing(tmp_path: Path) -> None:
    assert "A `hello` may come again in the middle of a session" in PROTOCOL
    assert _statuses(_run(tmp_path, None, "requests/szczerbak/hello-mid-session")) == {"passed"}
    dropped = _run(tmp_path, "python:tests.conformance.broken.journeys:SzczerbakHelloDropsTheHand",
                   "requests/szczerbak/hello-mid-session")
    (case,) = dropped["cases"]
    assert case["status"] == "failed" and case["got"]["error"] == "no_hand"


def test_the_order_of_a_results_terms_is_compared(tmp_path: Path) -> None:
    assert "**The order of a result's `terms`.**" in PROTOCOL
    data = _run(tmp_path, "python:tests.conformance.broken.journeys:SzczerbakTermsReversed",
                "golden/szczerbak/*")
    assert "failed" in _statuses(data)


def test_a_chain_place_event_has_no_rule(tmp_path: Path) -> None:
    assert "**A `place` event's `rule`.**" in PROTOCOL
    data = _run(tmp_path, "python:tests.conformance.broken.journeys:SzczerbakPlaceCitesItsRule",
                "golden/szczerbak/*")
    assert _statuses(data) == {"failed"}


def _failed(data: dict[str, Any]) -> list[dict[str, Any]]:
    return [case for case in data["cases"] if case["status"] == "failed"]


def test_several_lakes_from_one_placement_come_ordered_by_their_cells(tmp_path: Path) -> None:
    """The golden Pijanowski traces hold placements that close two to four lakes at once
    (smaller lakes before larger ones and after them), so an engine listing them in the order
    a flood from the placed tile finds them fails there."""
    assert "**Several lakes from one placement.**" in PROTOCOL
    assert "the lake holding the first cell in row-major order comes first" in PROTOCOL
    only = "golden/pijanowski/*"
    assert _statuses(_run(tmp_path, None, only)) == {"passed"}
    flooded = _run(tmp_path, "python:tests.conformance.broken.scores:PijanowskiLakesByPlacedHalf",
                   only)
    failed = _failed(flooded)
    assert failed and all("R-PIJ-06" in case["rules"] for case in failed)
    assert any(".cells" in case["diff"] for case in failed)


def test_a_pass_opening_a_widow_hand_cites_the_pass_rule(tmp_path: Path) -> None:
    """Szczerbak's widow lies on the table from the deal: a pass as the hand's first action, by
    a player who can place, breaks the pass rule, not the opening rule."""
    from dominokit.conformance.cases import rejection

    assert "A hand that opens from a widow (Szczerbak) never has an empty table" in PROTOCOL
    first = [a for a in rejection.attempts("szczerbak", "pass-not-allowed", 0) if not a.before]
    assert first and {a.rule for a in first} == {"R-SZC-06"}
    only = "rejection/szczerbak/pass-not-allowed"
    assert _statuses(_run(tmp_path, None, only)) == {"passed"}
    opened = _run(tmp_path, "python:tests.conformance.broken.refusals:"
                  "SzczerbakWidowHandOpensWithAPass", only)
    (case,) = opened["cases"]
    assert case["status"] == "failed" and case["step"] == 0
    assert case["expected"]["rule"] == "R-SZC-06" and case["got"]["rule"] == "R-SZC-02"


def test_a_double_written_with_one_cell_twice_is_an_illegal_action(tmp_path: Path) -> None:
    """``4-4@0.0+0.0`` is canonical notation: refused as ``illegal_action`` citing the
    adjacency rule (R-PIJ-03), never ``bad_request``."""
    assert "A double written with the same cell twice (`4-4@0.0+0.0`)" in PROTOCOL
    only = "rejection/pijanowski/double-on-one-cell"
    passed = _run(tmp_path, None, only)
    (case,) = passed["cases"]
    assert case["status"] == "passed" and case["covers"] == ["R-PIJ-03"]
    guessed = _run(tmp_path, "python:tests.conformance.broken.refusals:"
                   "PijanowskiDoubleOnOneCellIsBadRequest", only)
    (case,) = guessed["cases"]
    assert case["status"] == "failed"
    assert case["expected"]["error"] == "illegal_action" and case["got"]["error"] == "bad_request"
