"""The Python API: ``from dominokit import conform`` runs the suite and returns a typed
``Report``; ``EngineObject`` is the engine object's ``typing.Protocol``; the documented
``python:`` example engine passes, and the quickstart runs it both ways."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "docs" / "examples"
QUICKSTART = (ROOT / "docs" / "engines" / "quickstart.md").read_text(encoding="utf-8")


@pytest.fixture()
def example_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(EXAMPLES))


def test_conform_is_one_short_import_and_returns_a_typed_report(tmp_path: Path) -> None:
    from dominokit import Report, conform

    report = conform(only="perft/szczerbak/*-d1", report_dir=tmp_path)
    assert isinstance(report, Report)
    assert report.ok and report.counts()["passed"] == len(report.records) > 0
    assert report.records[0].case_id.startswith("perft/szczerbak/")
    assert report.to_json()["suite_version"] == report.suite_version


def test_conform_takes_an_engine_object_and_reports_its_failures(
        tmp_path: Path, example_path: None) -> None:
    from dominokit import conform
    from tests.conformance.engines.suite_one import four_games

    report = conform(four_games(), only=["requests/szczerbak/bad-deal-starter-given",
                                         "golden/szczerbak/passes-and-domino"],
                     report_dir=tmp_path, since="1.0.0")
    assert not report.ok
    assert [r.case_id for r in report.failing()] == ["requests/szczerbak/bad-deal-starter-given"]
    assert report.since_summary() == {"version": "1.0.0", "failures": 1, "newer": 1,
                                      "by_version": {"2.0.0": 1}}


def test_an_empty_selection_is_an_error_not_an_empty_report() -> None:
    from dominokit import conform
    from dominokit.conformance.cases.model import ConformanceError

    with pytest.raises(ConformanceError, match="no case"):
        conform(only="nothing/*")


def test_the_engine_protocol_is_a_typing_protocol(example_path: None) -> None:
    from typing import Protocol

    from szczerbak_python import SzczerbakEngine

    from dominokit import EngineObject
    from dominokit.conformance.serve.refengine import ReferenceEngine

    assert Protocol in EngineObject.__mro__
    assert isinstance(SzczerbakEngine(), EngineObject)
    assert isinstance(ReferenceEngine(), EngineObject)
    assert not isinstance(object(), EngineObject)


def test_the_python_example_engine_passes_in_process(tmp_path: Path, example_path: None) -> None:
    from szczerbak_python import SzczerbakEngine

    from dominokit import conform

    report = conform(SzczerbakEngine(), variant="szczerbak", skip=["differential/*"],
                     report_dir=tmp_path)
    assert report.ok, [r.case_id for r in report.failing()]
    assert report.counts()["passed"] > 40


def _commands() -> list[str]:
    blocks = re.findall(r"```sh\n(.*?)```", QUICKSTART, flags=re.S)
    return [" ".join(block.replace("\\\n", " ").split()) for block in blocks
            if "dominokit conform --engine" in block]


def test_the_quickstart_runs_the_example_both_ways(tmp_path: Path) -> None:
    commands = _commands()
    piped = [c for c in commands if "szczerbak_engine.py" in c]
    hosted = [c for c in commands if "python:szczerbak_python:SzczerbakEngine" in c]
    assert piped and hosted
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    for command in (piped[0], hosted[0]):
        words = shlex.split(command)
        assert words[0] in ("dominokit", "PYTHONPATH=docs/examples"), command
        if words[0].startswith("PYTHONPATH="):
            env = {**env, "PYTHONPATH": str(EXAMPLES)}
            words = words[1:]
        run = subprocess.run([*words, "--only", "golden/szczerbak/*", "--report-dir",
                              str(tmp_path)], cwd=ROOT, env=env, capture_output=True,
                             text=True)
        assert run.returncode == 0, (command, run.stdout[-2000:], run.stderr[-2000:])
        assert "0 failed, 0 errored" in run.stdout.splitlines()[-1]
