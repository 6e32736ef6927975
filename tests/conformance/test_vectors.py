"""The suite as data (``dominokit export``): the bundled vectors are a fresh export, valid
under their schemas, deterministic, and they pass on the reference both in process and as
``dominokit engine``, while a broken engine fails them."""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from dominokit.conformance.commands.cli import main
from dominokit.conformance.export.files import MANIFEST
from dominokit.conformance.export.replay import load, run_folder
from dominokit.conformance.kit.driver import SubprocessEngine
from dominokit.conformance.kit.inprocess import InProcessEngine
from dominokit.conformance.serve.refengine import ReferenceEngine
from dominokit.reference import variant_ids
from dominokit.spec.spec import validator
from tests.conformance.broken.engines import AcceptsTileNotInHand, Broken, WidowStarterLowerHalf

BUNDLED = Path(__file__).resolve().parents[2] / "conformance" / "vectors"


def _manifest(folder: Path = BUNDLED) -> dict[str, object]:
    data: dict[str, object] = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    return data


FILES: list[dict[str, Any]] = list(_manifest()["files"])  # type: ignore[call-overload]
"""The bundled files as the manifest lists them (path, variant, kind, vectors, ...)."""


def test_manifest_names_every_file_with_its_sha256() -> None:
    files = _manifest()["files"]
    assert isinstance(files, list)
    listed = {entry["path"]: entry["sha256"] for entry in files}
    on_disk = {p.relative_to(BUNDLED).as_posix() for p in BUNDLED.rglob("*.json")} - {MANIFEST}
    assert set(listed) == on_disk
    for path, digest in listed.items():
        assert hashlib.sha256((BUNDLED / path).read_bytes()).hexdigest() == digest, path


def test_manifest_states_the_versions_and_the_rules_covered() -> None:
    manifest = _manifest()
    assert manifest["suite_version"] and manifest["protocol_version"] == 1
    assert manifest["spec_version"] == 1
    files = manifest["files"]
    assert isinstance(files, list)
    kinds = {(entry["variant"], entry["kind"]) for entry in files}
    assert kinds == {(v, k) for v in variant_ids()
                     for k in ("hands", "refusals", "perft", "matches")}
    szczerbak_hands = next(e for e in files if e["path"] == "szczerbak/hands.json")
    assert {"R-SZC-04", "R-SZC-05", "R-SZC-06"} <= set(szczerbak_hands["rules"])
    assert all(entry["vectors"] > 0 for entry in files)


def test_the_manifest_validates_against_its_schema() -> None:
    assert list(validator("vectors-manifest").iter_errors(_manifest())) == []


PART_BYTES = 300_000
"""A big file is validated in parts of about this size, one test each (the parts are long)."""

PARTS = [(entry, part, parts) for entry in FILES
         for parts in [-(-(BUNDLED / entry["path"]).stat().st_size // PART_BYTES)]
         for part in range(parts)]


@pytest.mark.parametrize("entry, part, parts", PARTS,
                         ids=[f"{e['path']}-{p + 1}of{n}" for e, p, n in PARTS])
def test_every_bundled_file_validates_against_its_schema(entry: dict[str, Any], part: int,
                                                         parts: int) -> None:
    """The whole file with every ``parts``-th vector from ``part`` on: its schema constrains
    the vectors only one by one (``items``), so the parts validate exactly when the file does."""
    schema = validator(f"vectors-{entry['kind']}").schema
    assert set(schema["properties"]["vectors"]) <= {"description", "type", "items"}
    data = json.loads((BUNDLED / entry["path"]).read_text(encoding="utf-8"))
    if parts > 1:
        data["vectors"] = data["vectors"][part::parts]
    errors = [f"{list(e.absolute_path)[:4]}: {e.message[:200]}"
              for e in validator(f"vectors-{entry['kind']}").iter_errors(data)]
    assert errors == [], entry["path"]


def test_schemas_refuse_unknown_keys_and_bad_legal_sets() -> None:
    data = json.loads((BUNDLED / "szczerbak" / "hands.json").read_text(encoding="utf-8"))
    hands = validator("vectors-hands")
    extra = {**data, "vectors": [{**data["vectors"][0], "surprise": 1}]}
    assert not hands.is_valid(extra)
    step = {**data["vectors"][0]["steps"][0], "legal": {"count": 3, "sha256": "0" * 64}}
    short = {**data, "vectors": [{**data["vectors"][0], "steps": [step]}]}
    assert not hands.is_valid(short)  # a set of 40 or fewer is always listed


def test_hand_vectors_hold_every_answer_of_the_reference() -> None:
    """Checked against the rule text, not the exporter: at each step the action taken is in
    the stated legal set, and after the last action of a finished hand nothing is legal."""
    for _, kind, vector in load(BUNDLED):
        if kind != "hands":
            continue
        for step in vector["steps"]:
            if "actions" in step["legal"]:
                assert step["action"] in step["legal"]["actions"], vector["id"]
        if vector["result"] is not None:
            assert vector["final_legal"] == {"actions": []}, vector["id"]
            assert vector["steps"][-1]["events"][-1]["type"] == "end"


def test_a_fresh_export_is_byte_identical_and_check_catches_drift(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "vectors"
    assert main(["export", "--out", str(out), "--variant", "szczerbak"]) == 0
    for path in (out / "szczerbak").iterdir():  # the bundled files are a fresh export
        assert path.read_bytes() == (BUNDLED / "szczerbak" / path.name).read_bytes(), path
    assert main(["export", "--check", str(out)]) == 0  # and a second export is the same
    assert main(["export", "--check", str(BUNDLED), "--variant", "szczerbak"]) == 0
    hands = out / "szczerbak" / "hands.json"
    hands.write_bytes(hands.read_bytes().replace(b'"pass"', b'"pas"', 1))
    capsys.readouterr()
    assert main(["export", "--check", str(out)]) == 1
    err = capsys.readouterr().err
    assert f"{hands}: differs from a fresh export" in err
    assert "drifted" in err


@pytest.mark.parametrize("argv, message", [
    (["--out", "X", "--examples", "0"], "--examples must be from 1 to"),
    (["--out", "X", "--variant", "chess"], "unknown variant 'chess'"),
    (["--check", "{tmp}"], "not a vectors manifest"),
    (["--check", "{tmp}/chess"], "manifest.json: names unknown variants: chess"),
    (["--out", "{tmp}/file/sub"], "cannot write the vectors"),
])
def test_export_usage_errors_are_one_line(argv: list[str], message: str, tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "file").write_text("not a folder")
    (tmp_path / "chess").mkdir()
    (tmp_path / "chess" / "manifest.json").write_text('{"examples": 1, "variants": ["chess"]}')
    argv = [a.replace("{tmp}", str(tmp_path)).replace("X", str(tmp_path / "x")) for a in argv]
    assert main(["export", *argv]) == 4
    err = capsys.readouterr().err.strip()
    assert message in err and "\n" not in err and "Traceback" not in err


def test_export_needs_a_folder() -> None:
    assert main(["export"]) == 4


def _vectors(variant: str) -> int:
    """How many vectors the manifest lists for ``variant``."""
    return sum(entry["vectors"] for entry in FILES if entry["variant"] == variant)


def _of(variant: str) -> Callable[[str], bool]:
    return lambda path: path.startswith(f"{variant}/")


def test_the_bundle_holds_over_eight_hundred_vectors() -> None:
    # each variant's vectors all pass below, one test per variant (the runs are long)
    assert sum(map(_vectors, variant_ids())) > 800
    assert {entry["variant"] for entry in FILES} == set(variant_ids())


@pytest.mark.parametrize("variant", variant_ids())
def test_every_vector_passes_on_the_in_process_reference(variant: str) -> None:
    tally = run_folder(BUNDLED, InProcessEngine(ReferenceEngine(), ReferenceEngine),
                       only=_of(variant))
    assert tally.failures == []
    assert tally.passed + len(tally.skipped) == _vectors(variant) and tally.passed > 0
    assert all("raw line" in why for why in tally.skipped)


@pytest.mark.parametrize("variant", variant_ids())
def test_every_vector_passes_through_dominokit_engine(variant: str) -> None:
    argv = [sys.executable, "-m", "dominokit.conformance", "engine"]
    with SubprocessEngine(argv) as engine:
        tally = run_folder(BUNDLED, engine, only=_of(variant))
    assert tally.failures == []
    assert tally.passed == _vectors(variant)
    assert tally.skipped == []


@pytest.mark.parametrize("broken, expected", [
    (WidowStarterLowerHalf, "start state"),
    (AcceptsTileNotInHand, "accepted apply"),  # and crashes on a non-canonical action
])
def test_a_broken_engine_fails_the_vectors(broken: type[Broken], expected: str) -> None:
    tally = run_folder(BUNDLED, InProcessEngine(broken(), broken),
                       only=lambda path: path.startswith(f"{broken.variant}/"))
    assert tally.failures
    assert any(expected in failure for failure in tally.failures), tally.failures[:3]
