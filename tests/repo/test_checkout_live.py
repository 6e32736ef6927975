"""The checkout is what runs: ``dominokit.*`` resolves to the top-level folders, live.

The repository's ``dominokit/`` folder maps ``dominokit.spec``, ``dominokit.reference`` and
``dominokit.conformance`` to ``spec/``, ``reference/`` and ``conformance/``, and the rule-book
builder ``dominokit.rulebook`` to ``docs/rulebook/``, by symlinks. An
editable install only puts the repository root on ``sys.path``, so whatever imports through that
root (the tests, ``dominokit`` commands, mypy and editors run from the root) sees the checkout.
These tests copy the repository, change a rule file in the copy, and watch the tools see it
without installing anything.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
MAPPED = {
    "spec": "spec",
    "reference": "reference",
    "conformance": "conformance",
    "bench": "bench",
    "rulebook": "docs/rulebook",
}
"""Each import name under ``dominokit.`` and the folder of the repository it maps to."""


def test_the_mapping_folder_points_at_the_top_level_folders() -> None:
    for name, folder in MAPPED.items():
        link = REPO / "dominokit" / name
        assert link.is_symlink(), f"dominokit/{name} must be a symlink to ../{folder}"
        assert os.readlink(link) == f"../{folder}", "a relative link works in any copy"
        assert link.resolve() == (REPO / folder).resolve()
        assert (link / "__init__.py").is_file(), f"dominokit.{name} is a package"
    own = ["__init__.py", "__main__.py", "py.typed"]  # the package's own short import
    assert sorted(path.name for path in (REPO / "dominokit").iterdir()) == sorted([*MAPPED,
                                                                                    *own])
    # dominokit/__init__.py gives the short import (``from dominokit import conform``) lazily:
    # importing dominokit.spec or dominokit.reference loads nothing of the kit.
    import subprocess
    import sys

    loaded = subprocess.run([sys.executable, "-c", "import sys, dominokit.spec; "
                             "print('dominokit.conformance' in sys.modules)"],
                            capture_output=True, text=True, check=True, cwd=REPO)
    assert loaded.stdout.strip() == "False"


def test_an_editable_install_runs_this_checkout() -> None:
    import dominokit.reference

    where = Path(dominokit.reference.__file__).resolve()
    if where.parent != (REPO / "reference").resolve():
        pytest.skip(f"dominokit is installed as a copy ({where.parent}); `pip install -e .` runs "
                    "the checkout")
    assert where.parent == (REPO / "reference").resolve()


@pytest.fixture()
def copy(tmp_path: Path) -> Path:
    """The repository's tracked files (and the mapping symlinks) copied to a fresh folder."""
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True,
                            check=False)
    if listed.returncode != 0:
        pytest.skip("not a git checkout")
    root = tmp_path / "repo"
    for name in listed.stdout.decode().split("\0"):
        if not name:
            continue
        source, target = REPO / name, root / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if source.is_symlink():
            target.symlink_to(os.readlink(source))
        elif source.is_file():
            shutil.copy2(source, target)
    return root


def _dominokit(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Run ``dominokit`` as an editable install would: the copy's root first on sys.path."""
    env = {**os.environ, "PYTHONPATH": str(root)}
    return subprocess.run([sys.executable, "-m", "dominokit.conformance", *args], cwd=root,
                          env=env, capture_output=True, text=True, timeout=300, check=False)


def test_an_edit_to_a_rule_file_is_seen_without_reinstalling(copy: Path) -> None:
    where = _dominokit(copy, "spec", "check")
    assert where.returncode == 0, where.stdout + where.stderr
    variant = copy / "spec" / "variants" / "poldomino.yaml"
    variant.write_text(variant.read_text(encoding="utf-8").replace(
        "spec_version: 1", "spec_version: [1", 1), encoding="utf-8")
    broken = _dominokit(copy, "spec", "check")
    assert broken.returncode == 1, broken.stdout + broken.stderr
    assert "poldomino.yaml" in broken.stdout + broken.stderr
    played = _dominokit(copy, "play", "poldomino", "--seed", "1")
    assert played.returncode != 0
    assert "poldomino.yaml" in played.stdout + played.stderr


def test_a_changed_bonus_changes_what_play_scores(copy: Path) -> None:
    before = _dominokit(copy, "play", "szczerbak", "--seed", "3")
    assert before.returncode == 0, before.stderr
    variant = copy / "spec" / "variants" / "szczerbak.yaml"
    text = variant.read_text(encoding="utf-8")
    assert "match: {kind: target, target: 100," in text
    variant.write_text(text.replace("summary: >-", "summary: >-\n    Changed in the copy.", 1),
                       encoding="utf-8")
    checked = _dominokit(copy, "spec", "check", str(variant))
    assert checked.returncode == 0, checked.stdout + checked.stderr
    import_root = _dominokit(copy, "play", "szczerbak", "--seed", "3")
    assert import_root.returncode == 0
    probe = subprocess.run(
        [sys.executable, "-c", "import dominokit.spec, pathlib; "
         "print(pathlib.Path(dominokit.spec.__path__[0]).resolve())"],
        cwd=copy, env={**os.environ, "PYTHONPATH": str(copy)}, capture_output=True, text=True,
        check=True)
    assert Path(probe.stdout.strip()) == (copy / "spec").resolve()


def test_the_rule_book_builder_is_imported_from_the_checkouts_docs(copy: Path) -> None:
    probe = subprocess.run(
        [sys.executable, "-c", "import dominokit.rulebook as r, pathlib; "
         "print(pathlib.Path(r.__file__).resolve().parent)"],
        cwd=copy, env={**os.environ, "PYTHONPATH": str(copy)}, capture_output=True, text=True,
        check=False)
    assert probe.returncode == 0, probe.stderr
    assert Path(probe.stdout.strip()) == (copy / "docs" / "rulebook").resolve()


def test_an_edit_to_a_rule_file_changes_what_conform_runs(copy: Path) -> None:
    # Differential cases are made for each option value other than the default, so a default
    # changed in the copy's rule file must change the copy's suite, with nothing installed.
    def listed() -> list[str]:
        run = _dominokit(copy, "conform", "--list", "--variant", "poldomino", "--only",
                         "differential/*")
        assert run.returncode == 0, run.stderr
        return run.stdout.split()

    assert listed() == ["differential/poldomino/default",
                        "differential/poldomino/catch_penalty_to-loser"]
    variant = copy / "spec" / "variants" / "poldomino.yaml"
    text = variant.read_text(encoding="utf-8")
    assert "    default: winner\n" in text
    variant.write_text(text.replace("    default: winner\n", "    default: loser\n", 1),
                       encoding="utf-8")
    assert listed() == ["differential/poldomino/default",
                        "differential/poldomino/catch_penalty_to-winner"]
