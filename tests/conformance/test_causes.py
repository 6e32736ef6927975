"""One planted bug comes out as one cause, blaming the right rule, with its words.

The journeys of an engine author: the docs' Szczerbak engine with one parity slip, and a
``python:`` engine with one scoring slip. Every failing case names its cause; the knock-on
failures (a refused step on the way to a position, a refused request the case needs) are
marked as such and blamed on the cause's rule, not on the rule the engine cited refusing.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "docs" / "examples" / "szczerbak_engine.py"
RIGHT = "if other == 0 or other % 2 != self.end % 2:  # R-SZC-04"
SLIP = "if other == 0 or other % 2 == self.end % 2:  # R-SZC-04"


def _conform(tmp_path: Path, engine: str, *args: str) -> tuple[str, dict[str, Any]]:
    report = tmp_path / "report.json"
    done = subprocess.run(
        [sys.executable, "-m", "dominokit.conformance", "conform", "--engine", engine,
         "--json", str(report), "--report-dir", str(tmp_path / "repros"), "-j", "1", *args],
        capture_output=True, text=True, timeout=120, cwd=REPO)
    assert done.returncode == 1, done.stdout + done.stderr
    data: dict[str, Any] = json.loads(report.read_text(encoding="utf-8"))
    return done.stdout, data


def _parity_slip(tmp_path: Path) -> Path:
    source = EXAMPLE.read_text(encoding="utf-8")
    assert source.count(RIGHT) == 1
    engine = tmp_path / "parity_slip.py"
    engine.write_text(source.replace(RIGHT, SLIP), encoding="utf-8")
    return engine


def _check_one_cause(data: dict[str, Any], rule: str) -> dict[str, Any]:
    (cause,) = data["causes"]
    assert cause["rule"] == rule
    failing = [c for c in data["cases"] if c["status"] in ("failed", "errored")]
    assert failing and sorted(cause["cases"]) == sorted(c["id"] for c in failing)
    for case in failing:
        assert case["cause"] == cause["id"] and case["blame"] == rule
    assert cause["repro"] and Path(cause["repro"]).is_file()
    assert data["rules"][rule]["title"] and data["rules"][rule]["statement"]
    assert data["rules"][rule]["page"].startswith("docs/variants/")
    return cause


def test_a_parity_slip_is_one_cause_blaming_the_parity_rule(tmp_path: Path) -> None:
    engine = _parity_slip(tmp_path)
    out, data = _conform(tmp_path, f"{sys.executable} {engine}", "--variant", "szczerbak")
    cause = _check_one_cause(data, "R-SZC-04")
    knock_ons = [c for c in data["cases"] if c["knock_on"]]
    assert knock_ons, "the refused steps on the way to a position are knock-ons"
    assert set(cause["knock_ons"]) == {c["id"] for c in knock_ons}
    assert all(c["blame"] == "R-SZC-04" for c in knock_ons)
    # the terminal ends with the causes, the rule in words and one repro, then the summary
    tail = out[out.index("causes (1 cause of"):]
    assert "R-SZC-04 Parity: On an open end showing e" in tail
    assert "dominokit rule R-SZC-04" in tail and "repro: " in tail
    assert tail.strip().splitlines()[-1].startswith("dominokit conform:")


def test_quiet_prints_the_causes_and_the_summary_only(tmp_path: Path) -> None:
    engine = _parity_slip(tmp_path)
    out, _ = _conform(tmp_path, f"{sys.executable} {engine}", "--variant", "szczerbak", "-q")
    lines = out.strip().splitlines()
    assert lines[0].startswith("causes (1 cause of")
    assert "FAILED" not in out and len(lines) <= 8


def test_each_failure_is_printed_once_with_short_headlines(tmp_path: Path) -> None:
    engine = _parity_slip(tmp_path)
    out, data = _conform(tmp_path, f"{sys.executable} {engine}", "--variant", "szczerbak")
    heads = [line for line in out.splitlines() if line.startswith("FAILED ")]
    failing = [c["id"] for c in data["cases"] if c["status"] == "failed"]
    assert sorted(h.split()[1].rstrip(":") for h in heads) == sorted(failing)
    assert all(len(h) <= 200 for h in heads)
    assert "-  \"" not in out and "+  \"" not in out  # no line diff of indented JSON


def test_verbose_prints_every_answer_in_full(tmp_path: Path) -> None:
    engine = _parity_slip(tmp_path)
    out, _ = _conform(tmp_path, f"{sys.executable} {engine}", "--only",
                      "golden/szczerbak/passes-and-domino", "-v")
    assert "  expected: [" in out and "  got:      [" in out


def test_a_python_engine_scoring_slip_is_one_cause_blaming_the_scoring_rule(
        tmp_path: Path) -> None:
    engine = "python:tests.conformance.broken.journeys:SzczerbakScoreKeepsOwnPips"
    _, data = _conform(tmp_path, engine,
                       "--variant", "szczerbak")
    _check_one_cause(data, "R-SZC-07")


def test_a_blank_counted_even_only_is_one_cause_even_where_a_hand_blocks_early(
        tmp_path: Path) -> None:
    """The slip makes the engine declare a block the reference does not see: that early end
    is blamed on the placement still possible there, under the parity rule, not on R-ALL-05."""
    source = EXAMPLE.read_text(encoding="utf-8")
    engine = tmp_path / "blank_even.py"
    engine.write_text(source.replace(RIGHT, "if other % 2 != self.end % 2:  # R-SZC-04"),
                      encoding="utf-8")
    _, data = _conform(tmp_path, f"{sys.executable} {engine}", "--variant", "szczerbak")
    _check_one_cause(data, "R-SZC-04")


def test_quiet_prints_no_progress_line_even_in_a_long_run() -> None:
    """Without a terminal a progress line is due every few seconds; -q prints none, so its
    output is the causes and the summary whatever the run's length (a fake clock runs it)."""
    import io

    from dominokit.conformance.run.terminal import PROGRESS_EVERY, Terminal

    now = [0.0]
    out = io.StringIO()
    terminal = Terminal(out, total=3, progress=True, verbosity=-1, clock=lambda: now[0],
                        heartbeat=False)
    for done in range(3):
        now[0] += PROGRESS_EVERY * 2
        terminal.start(done, f"case-{done}")
        terminal.tick()
    assert out.getvalue() == ""


def test_a_board_one_row_short_is_one_cause_blaming_the_double_set_rule(
        tmp_path: Path) -> None:
    """A planted bug of an engine written in another language: under ``double_set`` its board
    is one row short. The legal sets it lists and the state it deals differ, and every case is
    blamed on the rule that sizes that board (R-PIJ-11), not on the placement rules."""
    engine = "python:tests.conformance.broken.journeys:PijanowskiDoubleSetBoardOneRowShort"
    _, data = _conform(tmp_path, engine, "--only", "golden/pijanowski/double-set",
                       "--only", "*/pijanowski/*double_set-true", "--only",
                       "perft/pijanowski/*double-set*")
    cause = _check_one_cause(data, "R-PIJ-11")
    assert len(cause["cases"]) >= 3
