"""The pytest plugin's items as pytest users expect them: rule markers for ``-m``, node ids that
``pytest 'dominokit::<id>'`` accepts, ``--dominokit-report-dir`` and ini settings, and nothing
left behind in the temporary folder."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FOUR_GAMES = "python:tests.conformance.engines.suite_one:four_games"
REFERENCE = "python:dominokit.conformance.serve.refengine:ReferenceEngine"


def pytest_run(cwd: Path, *args: str, tmpdir: Path | None = None,
               ) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    if tmpdir is not None:
        env["TMPDIR"] = str(tmpdir)
    (cwd / "pytest.ini").exists() or (cwd / "pytest.ini").write_text("[pytest]\n")
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:randomly", "-p",
                           "no:cacheprovider", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)


def test_a_node_id_runs_that_case(tmp_path: Path) -> None:
    run = pytest_run(tmp_path, "--dominokit-engine", REFERENCE,
                     "dominokit::perft/szczerbak/stuck-d5", "-v")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "dominokit::perft/szczerbak/stuck-d5 PASSED" in run.stdout
    assert "1 passed" in run.stdout


def test_two_node_ids_and_one_that_does_not_exist(tmp_path: Path) -> None:
    ok = pytest_run(tmp_path, "--dominokit-engine", REFERENCE,
                    "dominokit::perft/szczerbak/widow-faces-1-d1",
                    "dominokit::perft/szczerbak/widow-faces-1-d2", "-q")
    assert "2 passed" in ok.stdout, ok.stdout + ok.stderr
    bad = pytest_run(tmp_path, "--dominokit-engine", REFERENCE, "dominokit::perft/nope", "-q")
    assert bad.returncode == 4
    assert "no case with id 'perft/nope'" in bad.stdout + bad.stderr


def test_items_carry_rule_markers_that_minus_m_selects(tmp_path: Path) -> None:
    from dominokit.conformance.cases import collect_cases

    want = [c.id for c in collect_cases(only="perft/szczerbak/*") if "R-SZC-04" in c.rules]
    run = pytest_run(tmp_path, "--dominokit-engine", REFERENCE, "--dominokit-only",
                     "perft/szczerbak/*", "-m", 'rule(id="R-SZC-04")', "--collect-only", "-q")
    assert run.returncode == 0, run.stdout + run.stderr
    listed = [line.removeprefix("dominokit::") for line in run.stdout.splitlines()
              if line.startswith("dominokit::")]
    assert listed == want and want


def test_report_dir_holds_the_repros_and_the_temporary_folder_stays_empty(
        tmp_path: Path) -> None:
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    reports = tmp_path / "reports"
    run = pytest_run(tmp_path, "--dominokit-engine", FOUR_GAMES, "--dominokit-report-dir",
                     str(reports), "dominokit::requests/szczerbak/bad-deal-starter-given",
                     "dominokit::golden/szczerbak/passes-and-domino", tmpdir=scratch)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "1 failed, 1 passed" in run.stdout
    assert list(scratch.iterdir()) == []
    assert not any(reports.rglob("*")) or all(str(reports) in line for line in
                                              run.stdout.splitlines() if "repro:" in line)


def test_a_repro_goes_to_the_report_dir(tmp_path: Path) -> None:
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    reports = tmp_path / "reports"
    run = pytest_run(tmp_path, "--dominokit-engine",
                     "python:tests.conformance.engines.suite_one:poldomino_js",
                     "--dominokit-report-dir", str(reports),
                     "dominokit::rejection/poldomino/mismatch", tmpdir=scratch)
    assert run.returncode == 1
    repros = [line.split("repro:", 1)[1].strip() for line in run.stdout.splitlines()
              if "repro:" in line]
    assert repros and all(Path(r).is_relative_to(reports) and Path(r).is_file()
                          for r in repros)
    assert list(scratch.iterdir()) == []


def test_ini_settings_stand_for_the_options(tmp_path: Path) -> None:
    (tmp_path / "pytest.ini").write_text(
        "[pytest]\n"
        f"dominokit_engine = {REFERENCE}\n"
        "dominokit_only =\n    perft/szczerbak/widow-faces-1-d1\n    perft/poldomino/*-d1\n"
        "dominokit_timeout = 20\n"
        "dominokit_report_dir = reps\n")
    run = pytest_run(tmp_path, "-q", "--collect-only")
    assert run.returncode == 0, run.stdout + run.stderr
    ids = [line for line in run.stdout.splitlines() if line.startswith("dominokit::")]
    assert "dominokit::perft/szczerbak/widow-faces-1-d1" in ids
    assert any(i.startswith("dominokit::perft/poldomino/") for i in ids)
    assert not any(i.startswith("dominokit::golden/") for i in ids)


@pytest.mark.parametrize("value", ["0", "soon"])
def test_a_bad_ini_value_is_a_usage_error(tmp_path: Path, value: str) -> None:
    (tmp_path / "pytest.ini").write_text(
        f"[pytest]\ndominokit_engine = {REFERENCE}\ndominokit_timeout = {value}\n")
    run = pytest_run(tmp_path, "-q", "--collect-only")
    assert run.returncode == 4
    assert "dominokit_timeout" in run.stdout + run.stderr
