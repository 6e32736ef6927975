"""The contributor guide works as written: a new game added by following it passes the gates.

The walk-through in ``docs/contributing/variants.md`` (the shell block after the
``<!-- guide:walkthrough -->`` marker) is run line by line on a copy of the repository (the
files ``git ls-files`` lists), with ``dominokit.*`` mapped to the copy's folders as ``.dev/``
maps them in a checkout. Only the commands the guide names are run: ``cp``, ``mkdir -p``,
``dominokit ...`` (as ``python -m dominokit.conformance``, the same entry point) and
``python -m pytest ...``. Every line must succeed, and the copy's own gates then see the new
game, which no Python file had to mention.

The copy is made once for the module and each line is its own test, in the guide's order (a
line's test first runs the lines before it that have not run, so any one of them can be run
alone); the guide's ``python -m pytest`` line is run one test file at a time, each its own
test and each serially (``-n 0``: the outer run keeps the cores busy, and a pytest-xdist start
per file would cost more than it saves), since that line passes exactly when each of its
files passes. Together they take what the one walk took, but no one test takes it all.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
GUIDE = REPO / "docs" / "contributing" / "variants.md"
TRACES_GUIDE = REPO / "docs" / "contributing" / "traces.md"
MARKER = "<!-- guide:walkthrough -->"
MAPPED = ("spec", "reference", "conformance")
TIMEOUT = 900


def walkthrough() -> list[list[str]]:
    """The commands of the guide's walk-through, each split as a shell would split it."""
    text = GUIDE.read_text(encoding="utf-8")
    block = re.search(re.escape(MARKER) + r"\s*```sh\n(.*?)\n```", text, re.S)
    assert block, f"{GUIDE.name}: no ```sh block after {MARKER}"
    return [shlex.split(line) for line in block.group(1).splitlines() if line.strip()]


def _tracked_files() -> list[str]:
    if shutil.which("git") is None or not (REPO / ".git").exists():
        pytest.skip("not a git checkout: the copy is made from `git ls-files`")
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
        cwd=REPO, capture_output=True, check=True, timeout=60).stdout.decode()
    return [name for name in listed.split("\0") if name and (REPO / name).is_file()]


def _copy(tmp_path: Path) -> tuple[Path, Path]:
    """The repository copied into ``tmp_path/repo`` and an import root mapping it."""
    copy = tmp_path / "repo"
    for name in _tracked_files():
        target = copy / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / name, target)
    root = tmp_path / "importroot" / "dominokit"
    root.mkdir(parents=True)
    for folder in MAPPED:
        (root / folder).symlink_to(copy / folder, target_is_directory=True)
    # ``dominokit`` is a regular package, and ``python -m`` run in the copy finds the copy's own
    # ``dominokit/`` first: it maps the copy's folders as the checkout's does (its links are
    # not files, so they are made here), and the import root is a regular package too.
    for link in sorted((REPO / "dominokit").iterdir()):
        if link.is_symlink():
            (copy / "dominokit" / link.name).symlink_to(os.readlink(link),
                                                        target_is_directory=True)
        elif link.name in ("__init__.py", "__main__.py"):
            shutil.copy2(link, root / link.name)
    return copy, root.parent


def _run(argv: list[str], copy: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    program, *args = argv
    if program == "cp":
        shutil.copyfile(copy / args[0], copy / args[1])
        return subprocess.CompletedProcess(argv, 0, "", "")
    if program == "mkdir" and args[0] == "-p":
        (copy / args[1]).mkdir(parents=True, exist_ok=True)
        return subprocess.CompletedProcess(argv, 0, "", "")
    if program == "dominokit":
        command = [sys.executable, "-m", "dominokit.conformance", *args]
    elif program == "python":
        command = [sys.executable, *args]
    else:
        raise AssertionError(f"the walk-through uses a command the test does not know: {argv}")
    return subprocess.run(command, cwd=copy, env=env, capture_output=True, text=True,
                          timeout=TIMEOUT, check=False)


def test_the_walkthrough_names_only_known_commands() -> None:
    commands = walkthrough()
    assert {argv[0] for argv in commands} <= {"cp", "mkdir", "dominokit", "python"}
    used = {" ".join(argv[:2]) for argv in commands if argv[0] == "dominokit"}
    assert {"dominokit spec", "dominokit trace", "dominokit perft", "dominokit conform"} <= used
    # The gates the issue names: spec check, trace validate, pytest, conform --variant.
    flat = [" ".join(argv) for argv in commands]
    for needed in ("dominokit spec check", "dominokit trace validate", "--record",
                   "trace record --variant", "--match", "-m pytest", "conform --variant"):
        assert any(needed in line for line in flat), needed
    # traces.md names the same recording commands.
    traces_text = TRACES_GUIDE.read_text(encoding="utf-8")
    assert "dominokit trace record" in traces_text and "--match" in traces_text


def steps() -> list[list[str]]:
    """The walk-through's commands, its ``python -m pytest`` line split into one run per file."""
    out: list[list[str]] = []
    for argv in walkthrough():
        if argv[:3] == ["python", "-m", "pytest"]:
            flags = [a for a in argv[3:] if a.startswith("-")]
            out += [[*argv[:3], *flags, "-n", "0", a] for a in argv[3:] if not a.startswith("-")]
        else:
            out.append(argv)
    return out


STEPS = steps()


@dataclass
class Walk:
    """The module's copy of the repository and how far the walk-through has gone in it."""

    tmp_path: Path
    copy: Path
    env: dict[str, str]
    done: list[int] = field(default_factory=list)
    failed: str = ""

    def through(self, last: int) -> None:
        """Run every step up to ``last`` that has not run, in order; each must succeed (after
        one has failed, the later ones fail with its output, unrun)."""
        assert not self.failed, f"an earlier line of the walk-through failed:\n{self.failed}"
        for index in range(len(self.done), last + 1):
            argv = STEPS[index]
            done = _run(argv, self.copy, self.env)
            if done.returncode != 0:
                self.failed = (f"$ {shlex.join(argv)}\n{done.stdout[-4000:]}\n"
                               f"{done.stderr[-4000:]}")
                raise AssertionError(self.failed)
            self.done.append(index)


@pytest.fixture(scope="module")
def walk(tmp_path_factory: pytest.TempPathFactory) -> Walk:
    tmp_path = tmp_path_factory.mktemp("guide")
    copy, root = _copy(tmp_path)
    env = {**os.environ, "PYTHONPATH": str(root), "NO_MKDOCS_2_WARNING": "1"}
    env.pop("PYTEST_ADDOPTS", None)
    return Walk(tmp_path, copy, env)


@pytest.mark.parametrize("index", range(len(STEPS)),
                         ids=[" ".join(argv[:2] if argv[0] != "python" else argv[-1:])
                              + f"-{n}" for n, argv in enumerate(STEPS)])
def test_each_line_of_the_walkthrough_succeeds_in_turn(walk: Walk, index: int) -> None:
    walk.through(index)


def test_a_new_game_added_by_the_guide_passes_the_gates(walk: Walk) -> None:
    walk.through(len(STEPS) - 1)
    copy, env, tmp_path = walk.copy, walk.env, walk.tmp_path
    variant = next(a for argv in walkthrough() if argv[:2] == ["dominokit", "play"]
                   for a in argv[2:3])
    assert (copy / "spec" / "variants" / f"{variant}.yaml").is_file()
    assert (copy / "conformance" / "perft" / f"{variant}.yaml").is_file()
    # The new game was run, not skipped: its own cases are in the conformance run.
    conform = _run(["dominokit", "conform", "--variant", variant, "--only",
                    f"golden/{variant}/*", "--report-dir", str(tmp_path / "report")],
                   copy, env)
    assert conform.returncode == 0 and " 0 failed" in conform.stdout, conform.stdout
    assert re.search(r"\b[1-9]\d* passed", conform.stdout), conform.stdout
    # And no Python file had to change or name it.
    for folder in ("reference", "conformance"):
        for path in (copy / folder).rglob("*.py"):
            assert variant not in path.read_text(encoding="utf-8"), path
