"""The two vector examples outside Python (``docs/examples``): each checks a tiny Szczerbak
engine of its language against the bundled vectors alone, passes, and fails with a clear
message naming the vector and its rules once a rule bug is planted (``PLANT_BUG=parity``
makes the engine forget the parity rule R-SZC-04). Where a toolchain is missing the test is
skipped with the reason, except Node.js under CI, where it is required."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "docs" / "examples"
VECTORS = REPO / "conformance" / "vectors" / "szczerbak"


def _tool(name: str, required_on_ci: bool) -> str:
    found = shutil.which(name)
    if found is None:
        if required_on_ci and os.environ.get("CI") == "true":
            pytest.fail(f"{name} is required under CI=true (.ci/run installs it)")
        pytest.skip(f"{name} is not installed")
    return found


def _run(argv: list[str], cwd: Path, bug: str | None, **extra: str
         ) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "PLANT_BUG"}
    env.update({k: v for k, v in extra.items() if k not in env})
    if bug is not None:
        env["PLANT_BUG"] = bug
    return subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=300, check=False)


def test_node_example_passes_then_catches_a_planted_rule_bug() -> None:
    node = _tool("node", required_on_ci=True)
    argv = [node, str(EXAMPLES / "check_szczerbak_vectors.js"), str(VECTORS)]
    good = _run(argv, REPO, None)
    assert good.returncode == 0, good.stdout + good.stderr
    assert good.stdout.strip().endswith(" passed, 0 failed")
    bad = _run(argv, REPO, "parity")
    assert bad.returncode == 1, bad.stdout + bad.stderr
    first = bad.stdout.splitlines()[0]
    assert first.startswith("FAIL hands.json ")
    assert "R-SZC-04" in first and "legal set differs" in first and "extra [" in first


def test_go_example_passes_then_catches_a_planted_rule_bug(tmp_path: Path) -> None:
    go = _tool("go", required_on_ci=False)
    argv = [go, "test", "-count=1", "./..."]
    cache = str(tmp_path / "gocache")  # where HOME gives go no cache folder of its own
    good = _run(argv, EXAMPLES / "go", None, GOCACHE=cache)
    assert good.returncode == 0, good.stdout + good.stderr
    bad = _run(argv, EXAMPLES / "go", "parity", GOCACHE=cache)
    assert bad.returncode != 0
    assert "R-SZC-04" in bad.stdout and "legal set differs" in bad.stdout
