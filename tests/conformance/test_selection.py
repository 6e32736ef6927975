"""Selecting cases as pytest does: ``--only`` repeatable (a union), ``--skip``, ``--rule`` and
``--lf`` (the last run's failures, from the report folder)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CLI = [sys.executable, "-m", "dominokit", "conform"]
FOUR_GAMES = "python:tests.conformance.engines.suite_one:four_games"


def listed(*args: str, cwd: Path = ROOT) -> list[str]:
    run = subprocess.run([*CLI, *args, "--list"], capture_output=True, text=True, cwd=cwd)
    assert run.returncode == 0, run.stderr
    return run.stdout.split()


def test_only_twice_runs_the_union_of_both_globs() -> None:
    ids = listed("--only", "golden/szczerbak/*", "--only", "match/szczerbak/*")
    assert any(i.startswith("golden/szczerbak/") for i in ids)
    assert any(i.startswith("match/szczerbak/") for i in ids)
    assert ids == sorted(set(ids), key=ids.index)  # each once, in the suite's order
    assert set(ids) == set(listed("--only", "golden/szczerbak/*")) | set(
        listed("--only", "match/szczerbak/*"))


def test_skip_leaves_out_what_its_glob_matches() -> None:
    ids = listed("--only", "perft/szczerbak/*", "--skip", "*-d5", "--skip", "*-d4")
    assert ids and not any(i.endswith(("-d4", "-d5")) for i in ids)
    assert any(i.endswith("-d3") for i in ids)


def test_rule_selects_the_cases_that_cover_a_rule() -> None:
    from dominokit.conformance.cases import collect_cases

    ids = listed("--rule", "R-SZC-04")
    covering = [c.id for c in collect_cases() if "R-SZC-04" in c.rules]
    assert ids == covering and len({i.split("/")[0] for i in ids}) > 1


def test_an_unknown_rule_selects_nothing_and_says_so() -> None:
    run = subprocess.run([*CLI, "--rule", "R-NOPE-99", "--list"], capture_output=True,
                         text=True, cwd=ROOT)
    assert run.returncode == 5 and "--rule R-NOPE-99" in run.stderr


def test_lf_reruns_the_last_runs_failures_from_the_report_folder(tmp_path: Path) -> None:
    reports = tmp_path / "reports"
    first = subprocess.run([*CLI, "--engine", FOUR_GAMES, "--only", "golden/szczerbak/*",
                            "--only", "requests/szczerbak/bad-deal-starter-given",
                            "--report-dir", str(reports), "--json", str(tmp_path / "r.json")],
                           capture_output=True, text=True, cwd=ROOT)
    assert first.returncode == 1, first.stderr
    failed = [c["id"] for c in json.loads((tmp_path / "r.json").read_text())["cases"]
              if c["status"] == "failed"]
    assert failed == ["requests/szczerbak/bad-deal-starter-given"]
    assert listed("--lf", "--report-dir", str(reports)) == failed


def test_lf_without_a_previous_failure_runs_the_whole_selection(tmp_path: Path) -> None:
    run = subprocess.run([*CLI, "--lf", "--report-dir", str(tmp_path), "--only",
                          "perft/szczerbak/*-d1", "--list"],
                         capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0
    assert run.stdout.split() == listed("--only", "perft/szczerbak/*-d1")
    assert "no failures recorded" in run.stderr
