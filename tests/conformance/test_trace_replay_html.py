"""``dominokit trace replay --html out.html REPRO``: one self-contained page per replay, with
the table drawn at the first divergent step (the reference's next to the engine's, by the rule
book's own drawing code) and the hand's steps listed, the divergent one marked."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CLI = [sys.executable, "-m", "dominokit"]
MISCOUNTS = "python:tests.conformance.engines.miscounts:Miscounts"


@pytest.fixture(scope="module")
def repro(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("repro")
    subprocess.run([*CLI, "conform", "--engine", MISCOUNTS, "--only",
                    "differential/szczerbak/*", "--report-dir", str(out), "-j", "1"],
                   capture_output=True, text=True, cwd=ROOT)
    (found,) = out.rglob("*.yaml")
    return found


def test_the_page_draws_both_tables_at_the_divergence(repro: Path, tmp_path: Path) -> None:
    page = tmp_path / "replay.html"
    run = subprocess.run([*CLI, "trace", "replay", "--engine", MISCOUNTS, "--html", str(page),
                          str(repro)], capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 1, run.stderr
    text = page.read_text(encoding="utf-8")
    assert text.startswith("<!doctype html>")
    assert not re.search(r"<(script|link|img)[^>]+(src|href)=", text)
    assert text.count("<svg") == 2
    assert "the reference's table" in text and "the engine's table" in text
    steps = re.findall(r'<li class="step( divergent)?"', text)
    assert len(steps) >= 6 and steps.count(" divergent") == 1
    assert "state.passes: expected 1, got 2" in text


def test_a_matching_trace_gives_a_page_that_says_so(tmp_path: Path) -> None:
    page = tmp_path / "ok.html"
    trace = ROOT / "conformance/traces/szczerbak/passes-and-domino.yaml"
    run = subprocess.run([*CLI, "trace", "replay", "--html", str(page), str(trace)],
                         capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    text = page.read_text(encoding="utf-8")
    assert "matched" in text and "<svg" in text
