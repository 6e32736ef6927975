"""``--diagnose``: which reading of a ruling an engine's answers match, exactly.

Every ``alternative:`` of the spec is either runnable (``ruling.readings``: a name and the
mechanic parameters it sets, or the option the ruling is behind) or says why not
(``not_executable``). Engines of ``tests/conformance/broken/`` that play one reading each
must have it named; a reading is named only when every case of the cause ends as it did for
the engine.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from dominokit.conformance.run.readings import ReadingEngine, readings_for
from dominokit.reference import load_rules, load_variant, variant_ids

REPO = Path(__file__).resolve().parents[2]
SPEC_FILES = [REPO / "spec" / "common.yaml", *sorted((REPO / "spec" / "variants").glob("*.yaml"))]


def _rulings() -> list[tuple[str, str, dict[str, Any]]]:
    out = []
    for path in SPEC_FILES:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        for entry in data["rules"]:
            if entry.get("ruling"):
                out.append((path.name, entry["id"], entry["ruling"]))
    return out


def test_every_alternative_is_runnable_or_says_why_not() -> None:
    bare = [f"{name}: {rule_id}" for name, rule_id, ruling in _rulings()
            if "alternative" in ruling and not ({"option", "readings", "not_executable"}
                                                & set(ruling))]
    assert bare == []


def test_every_reading_runs_on_some_variant_and_changes_its_rules() -> None:
    for _, rule_id, ruling in _rulings():
        for entry in ruling.get("readings") or ():
            ran = 0
            for variant_id in variant_ids():
                for reading in readings_for(rule_id, variant_id):
                    if reading.name != entry["name"]:
                        continue
                    variant = load_variant(variant_id)
                    changed = reading.overlay(variant)
                    assert changed.data != variant.data, (rule_id, reading.name, variant_id)
                    load_rules(changed, {})  # the reference accepts the reading's parameters
                    ReadingEngine(reading, variant_id).hello()
                    ran += 1
            assert ran, f"{rule_id} {entry['name']} applies to no variant"


def _diagnose(tmp_path: Path, engine: str, *select: str) -> tuple[str, list[dict[str, Any]]]:
    report = tmp_path / "report.json"
    done = subprocess.run(
        [sys.executable, "-m", "dominokit.conformance", "conform", "--engine", engine,
         *select, "--diagnose", "-q", "-j", "1", "--json", str(report),
         "--report-dir", str(tmp_path / "repros")],
        capture_output=True, text=True, timeout=120, cwd=REPO)
    assert done.returncode == 1, done.stdout + done.stderr
    readings: list[dict[str, Any]] = json.loads(report.read_text(encoding="utf-8"))["readings"]
    return done.stdout, readings


@pytest.mark.parametrize(("engine", "select", "rule", "reading", "words"), [
    ("scores:TiedBlockGoesToStarter", ("--only", "differential/progressive/default"),
     "R-ALL-06", "tie_to_starter",
     "your engine breaks a tied block in favour of the starter: the alternative reading of "
     "R-ALL-06"),
    ("readings:PoldominoCatchFromTheLoser", ("--only", "golden/poldomino/*catch*"),
     "R-POL-09", "catch_penalty_to=loser",
     "your engine plays catch_penalty_to=loser, whatever the request asks: the option behind "
     "R-POL-09"),
    ("readings:PijanowskiExactly500Ends", ("--only", "match/pijanowski/exact-target"),
     "R-PIJ-10", "exactly_500_ends", "the alternative reading of R-PIJ-10"),
    ("readings:PijanowskiDeclaresOneLakeRulePlaysTheOther", ("--only", "*pijanowski/*lake*"),
     "R-PIJ-06", "lake_rule=new_region",
     'the option behind R-PIJ-06; its hello declared lake_rule: ["newly_enclosed"]'),
])
def test_diagnose_names_the_reading_the_engine_follows(
        tmp_path: Path, engine: str, select: tuple[str, ...], rule: str, reading: str,
        words: str) -> None:
    out, readings = _diagnose(tmp_path, f"python:tests.conformance.broken.{engine}", *select)
    matched = [(r["rule"], r["reading"]) for r in readings if r["matches"]]
    assert matched == [(rule, reading)]
    assert words in out


def test_a_reading_is_not_named_when_the_engine_only_resembles_it(tmp_path: Path) -> None:
    """An engine that forgets to subtract the winner's own pips fails R-SZC-07; the rule's
    other reading (100 must be passed) is run and, matching none of its answers, not named."""
    engine = "python:tests.conformance.broken.journeys:SzczerbakScoreKeepsOwnPips"
    out, readings = _diagnose(tmp_path, engine, "--only", "golden/szczerbak/*")
    assert [(r["rule"], r["reading"], r["matches"]) for r in readings] == [
        ("R-SZC-07", "must_pass_100", False)]
    assert "no reading of R-SZC-07 matches (must_pass_100 tried)" in out
