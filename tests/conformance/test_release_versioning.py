"""Suite releases: a changelog per version, each case's ``since``, and ``--since``.

An engine author pins a suite version; these tests hold the suite to what a version means: the
changelog has a section per release in Keep a Changelog form, every case names the release that
added or last changed it, a case's expected content cannot change while its ``since`` and the
changelog stay put, and ``conform --since`` says which failures are in newer cases and what the
changelog says about each.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from dominokit.conformance.cases import SUITE_VERSION, history

ROOT = Path(__file__).resolve().parents[2]
CLI = [sys.executable, "-m", "dominokit"]
ENGINES = "python:tests.conformance.engines.suite_one"


def test_the_changelog_has_a_section_per_release_the_newest_being_the_suite_version() -> None:
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert text.startswith("# Changelog\n")
    assert "keepachangelog.com" in text and "## [Unreleased]" in text
    releases = history.parse_changelog(text)
    assert [r.version for r in releases][-2:] == ["2.0.0", "1.0.0"]
    assert releases[0].version == SUITE_VERSION == "2.0.0"
    for release in releases:
        assert release.entries, release.version
        assert {e.section for e in release.entries} <= {"Added", "Changed", "Deprecated",
                                                        "Removed", "Fixed", "Security"}
        assert f"[{release.version}]: https://" in text


def test_the_2_0_0_section_lists_the_demands_added_since_1_0_0() -> None:
    """The demands the two 1.0.0 engines of the story fail are each listed, with their cases."""
    releases = history.parse_changelog((ROOT / "CHANGELOG.md").read_text(encoding="utf-8"))
    two = next(r for r in releases if r.version == "2.0.0")
    text = " ".join(e.text for e in two.entries)
    for demand in ("cite the rule", "`next_hand` deal", "undo", "requests", "classic_block"):
        assert demand in text, demand
    assert any(e.concerns("rejection/poldomino/mismatch") for e in two.entries)
    assert any(e.concerns("requests/szczerbak/bad-deal-starter-given") for e in two.entries)


def test_the_versioning_policy_is_stated_for_engine_authors() -> None:
    text = (ROOT / "docs/engines/versions.md").read_text(encoding="utf-8")
    for words in ("major", "minor", "patch", "since", "--since", "CHANGELOG"):
        assert words in text, words


def test_every_case_has_a_since_and_a_fingerprint_matching_its_content() -> None:
    from dominokit.conformance.commands.history import current

    fresh, problems = current(ROOT)
    assert problems == []
    committed = history.load()
    assert fresh.to_json() == committed.to_json(), (
        "a case's expected content (or the changelog) changed: move its since with a "
        "changelog entry, then python -m dominokit.conformance.commands.history --write")
    from dominokit.conformance.cases import collect_cases

    for case in collect_cases():
        assert committed.since(case.id) in {"1.0.0", "2.0.0"}, case.id


def test_a_changed_case_without_a_new_changelog_entry_is_refused() -> None:
    """The check can fail: change one vector of a case and keep the changelog as it is."""
    releases = history.parse_changelog((ROOT / "CHANGELOG.md").read_text(encoding="utf-8"))
    # A case no entry since 1.0.0 names (an invariant of the engine's own answers).
    case = history.CaseInfo("invariants/szczerbak/termination", "invariants", "szczerbak", {},
                            ("R-ALL-02",))
    vectors = {case.id: [{"hands": 3, "cases": [case.id]}]}
    old, problems = history.build([case], releases, vectors, None)
    assert problems == [] and old.since(case.id) == "1.0.0"
    changed = {case.id: [{"hands": 4, "cases": [case.id]}]}
    _, problems = history.build([case], releases, changed, old)
    assert len(problems) == 1 and "changed" in problems[0] and "CHANGELOG.md" in problems[0]
    newer = history.Release("2.1.0", "2026-12-03", (history.Entry(
        "2.1.0", "Changed", "termination bounded afresh", ("invariants/szczerbak/*",)),))
    moved, problems = history.build([case], (newer, *releases), changed, old)
    assert problems == [] and moved.since(case.id) == "2.1.0"


def test_a_changelog_glob_that_names_no_case_is_refused() -> None:
    release = history.Release("1.0.0", "2026-11-30", (history.Entry(
        "1.0.0", "Added", "x", ("perft/nowhere/*",)),))
    problems = history.dead_globs(["perft/szczerbak/start-d1"], [release])
    assert problems == ["CHANGELOG.md 1.0.0: `perft/nowhere/*` names no case"]


def test_the_json_report_gives_each_case_its_since(tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    subprocess.run([*CLI, "conform", "--only", "invariants/szczerbak/*", "--only",
                    "requests/szczerbak/no-hand", "--only", "perft/szczerbak/*-d1", "-j", "1",
                    "--json", str(out)],
                   check=True, capture_output=True, cwd=ROOT)
    data = json.loads(out.read_text())
    since = {case["id"]: case["since"] for case in data["cases"]}
    assert since["requests/szczerbak/no-hand"] == "2.0.0"
    # perft cases check every legal list since 2.0.0; the engine's own invariants are as in 1.0.0
    assert {s for i, s in since.items() if i.startswith("perft/")} == {"2.0.0"}
    assert since["invariants/szczerbak/termination"] == "1.0.0"


@pytest.mark.parametrize(("engine", "failures"), [("poldomino_js", 6), ("four_games", 4)])
def test_a_1_0_0_engine_is_told_every_failure_is_in_a_case_new_in_2_0_0(
        tmp_path: Path, engine: str, failures: int) -> None:
    """The story's two engines, written from the suite 1.0.0 documents."""
    only = (["--only", "rejection/poldomino/*", "--only", "perft/poldomino/*-d1"]
            if engine == "poldomino_js" else
            ["--only", "requests/*/bad-deal-starter-given", "--only", "golden/szczerbak/*"])
    out = tmp_path / "r.json"
    run = subprocess.run([*CLI, "conform", "--engine", f"{ENGINES}:{engine}", *only,
                          "--since", "1.0.0", "--json", str(out), "--color", "never"],
                         capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 1, run.stderr
    assert f"{failures} failures, all in cases new in 2.0.0" in run.stdout
    data = json.loads(out.read_text())
    since = data["summary"]["since"]
    assert since == {"version": "1.0.0", "failures": failures, "newer": failures,
                     "by_version": {"2.0.0": failures}}
    failed = [c for c in data["cases"] if c["status"] in ("failed", "errored")]
    assert len(failed) == failures
    for case in failed:
        assert case["since"] == "2.0.0"
        assert case["changes"], case["id"]
        first = case["changes"][0]
        assert first["version"] == "2.0.0" and first["text"] in run.stdout
    word = "cite the rule" if engine == "poldomino_js" else "`next_hand` deal"
    assert word in run.stdout


def test_since_is_checked_before_anything_runs() -> None:
    run = subprocess.run([*CLI, "conform", "--since", "one", "--list"],
                         capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 4
    assert "--since" in run.stderr and "MAJOR.MINOR.PATCH" in run.stderr

