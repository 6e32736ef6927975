"""Packaging as a new user expects it: a licence, metadata, ``python -m dominokit``, the kit's
own version in every report, and dependencies that an engine's own test environment can live
with (ranges, not pins; the default run the same under any supported hypothesis release).

The one slow test here (marked ``slow``) installs the session's wheel (tests/conftest.py) into
a venv that already holds another hypothesis release.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
import xml.etree.ElementTree as ET
from importlib.metadata import version
from pathlib import Path

import pytest

from tests.shared import clean_env, install_venv

ROOT = Path(__file__).resolve().parents[2]
CLI = [sys.executable, "-m", "dominokit"]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
OTHER_HYPOTHESIS = "6.150.0"
"""A supported hypothesis release other than the one the kit is developed with."""


def test_the_licence_the_metadata_names_is_there() -> None:
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert PROJECT["license"] == "MIT"
    assert text.startswith("MIT License") and "WITHOUT WARRANTY OF ANY KIND" in text
    assert PROJECT["license-files"] == ["LICENSE"]


def test_classifiers_and_project_urls() -> None:
    classifiers = PROJECT["classifiers"]
    for wanted in ("License :: OSI Approved :: MIT License", "Framework :: Pytest",
                   "Programming Language :: Python :: 3.11", "Typing :: Typed"):
        assert wanted in classifiers
    assert {"Homepage", "Documentation", "Changelog", "Issues"} <= set(PROJECT["urls"])


def test_python_dash_m_dominokit_runs_the_command() -> None:
    run = subprocess.run([sys.executable, "-m", "dominokit", "--version"],
                         capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("dominokit ") and "suite 2.0.0" in run.stdout


def test_dependencies_are_ranges_not_pins() -> None:
    requirements = {req.split(">")[0].split("=")[0].split("<")[0].strip(): req
                    for req in PROJECT["dependencies"]}
    for name in ("pytest", "hypothesis"):
        assert "==" not in requirements[name], requirements[name]
        assert ">=" in requirements[name], requirements[name]


def test_every_report_names_the_kits_own_version(tmp_path: Path) -> None:
    kit = version("dominokit")
    run = subprocess.run([*CLI, "conform", "--only", "perft/szczerbak/*-d1", "-j", "1",
                          "--json", str(tmp_path / "r.json"), "--junitxml",
                          str(tmp_path / "r.xml"), "--jsonl", str(tmp_path / "r.jsonl")],
                         capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    assert json.loads((tmp_path / "r.json").read_text())["kit_version"] == kit
    properties = {p.get("name"): p.get("value")
                  for p in ET.parse(tmp_path / "r.xml").iter("property")}
    assert properties["kit_version"] == kit
    first = json.loads((tmp_path / "r.jsonl").read_text().splitlines()[0])
    assert first["type"] == "header" and first["kit_version"] == kit
    assert f"kit {kit}" in run.stdout.splitlines()[-1]


def _differential_runs(*runs: tuple[Path, Path]) -> list[dict[str, object]]:
    """For each (python, folder): the default run's random-hand cases of two games against an
    engine that errs in one hand, as the JSON report's case records (times left out). The runs
    go side by side: they are independent, and each is most of this test's time."""
    started = []
    for python, cwd in runs:
        engine = f"{python} {ROOT / 'tests/conformance/engines/sixth_hand.py'}"
        out = cwd / "report.json"
        started.append((out, subprocess.Popen(
            [str(python), "-m", "dominokit", "conform", "--engine", engine,
             "--only", "differential/szczerbak/*", "--only", "differential/progressive/*",
             "-j", "1", "--json", str(out), "--report-dir", str(cwd / "repros")],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=cwd,
            env=clean_env())))
    results = []
    try:
        for out, process in started:
            _, stderr = process.communicate(timeout=300)
            assert process.returncode == 1, stderr
            cases = json.loads(out.read_text())["cases"]
            results.append({case["id"]: {k: v for k, v in case.items()
                                         if k not in ("seconds", "repro", "repros")}
                            for case in cases})
    finally:
        for _, process in started:
            if process.poll() is None:
                process.kill()
                process.communicate()
    return results


@pytest.mark.slow
def test_installing_into_a_venv_with_another_hypothesis_keeps_it_and_the_results(
        kit_wheel: Path, tmp_path: Path) -> None:
    """``pip install`` into an engine's test environment that already has another hypothesis:
    the install keeps that release, and the default run gives the same case results."""
    python = install_venv(tmp_path / "venv", f"hypothesis=={OTHER_HYPOTHESIS}", kit_wheel)
    installed = subprocess.run([str(python), "-c", "import hypothesis; print(hypothesis."
                                "__version__)"], capture_output=True, text=True,
                               env=clean_env(), check=True).stdout.strip()
    assert installed == OTHER_HYPOTHESIS != version("hypothesis")
    (tmp_path / "there").mkdir()
    (tmp_path / "here").mkdir()
    there, here = _differential_runs((python, tmp_path / "there"),
                                     (Path(sys.executable), tmp_path / "here"))
    assert there == here
    failed = [case for case in here.values() if case["status"] == "failed"]  # type: ignore[index]
    assert failed and "random hand (recorded)" in failed[0]["message"]  # type: ignore[index]


def _words(text: object) -> str:
    return " ".join(str(text).split())


@pytest.mark.slow
def test_dominokit_rule_runs_from_the_installed_wheel_outside_the_checkout(
        kit_wheel: Path, tmp_path: Path) -> None:
    """``pip install`` of the wheel and nothing else: ``dominokit rule`` reads a rule's words
    (English and Polish) and lists the rules from the installed spec, in a folder outside the
    checkout with PYTHONPATH unset. The wheel goes in with ``--no-deps --no-index``; the kit's
    dependencies come from this interpreter's packages through a ``.pth`` line (a path entry:
    that folder's own ``.pth`` files, such as a development install of the kit, are not read),
    so no network is needed."""
    import sysconfig

    import yaml

    env_dir = tmp_path / "venv"
    python = install_venv(env_dir)
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q",
                    "--no-compile", "--disable-pip-version-check", "--no-deps", "--no-index",
                    str(kit_wheel)], check=True, env=clean_env())
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()"
                           "['purelib'])"], capture_output=True, text=True, check=True,
                          env=clean_env()).stdout.strip()
    Path(site, "kit-dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n",
                                                  encoding="utf-8")
    outside = tmp_path / "elsewhere"
    outside.mkdir()

    def run(*argv: str) -> str:
        done = subprocess.run([str(env_dir / "bin" / "dominokit"), *argv], capture_output=True,
                              text=True, cwd=outside, env=clean_env(), timeout=120)
        assert done.returncode == 0, done.stdout + done.stderr
        return done.stdout

    found = subprocess.run([str(python), "-c", "import dominokit; print(dominokit.__file__)"],
                           capture_output=True, text=True, cwd=outside, env=clean_env(),
                           check=True).stdout.strip()
    assert Path(found).resolve().is_relative_to(env_dir.resolve()), found  # the wheel's copy
    data = yaml.safe_load((ROOT / "spec/variants/szczerbak.yaml").read_text(encoding="utf-8"))
    entry = next(r for r in data["rules"] if r["id"] == "R-SZC-04")
    english = _words(run("rule", "R-SZC-04"))
    assert english.startswith(f"R-SZC-04 {entry['title']}")
    assert _words(entry["statement"]) in english
    assert _words(entry["source"]["quote"]) in english
    listed = run("rule", "--list")
    assert any(line.split()[:1] == ["R-SZC-04"] and entry["title"] in line
               for line in listed.splitlines()), listed
    polish = _words(run("rule", "R-SZC-04", "--lang", "pl"))
    assert polish.startswith(f"R-SZC-04 {entry['title_pl']}")
    assert _words(entry["statement_pl"]) in polish
    assert _words(entry["source"]["quote"]) in polish
    assert "docs/variants/szczerbak.pl.md#R-SZC-04" in polish
