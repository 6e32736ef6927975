"""Hostile files: whatever a spec, trace, expectations or deal file holds, the kit answers with
one located line per problem and an exit status, in seconds and bounded memory; never a
traceback, a hang or gigabytes.

The size and speed checks run each command as a user would, in a subprocess whose peak
resident memory is measured by a small wrapper process (so no other test's children count).
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest
from dominokit.conformance.exit_status import ExitStatus
from dominokit.reference.yamldoc import MAX_YAML_BYTES, MAX_YAML_NODES, load_yaml_with_marks

TRACES = Path(__file__).parent.parent / "conformance" / "traces"

MEMORY_LIMIT_MB = 200
TIME_LIMIT_S = 15.0


def alias_bomb() -> str:
    """Ten levels of nine aliases each: about 500 bytes that expand to 9**10 scalars."""
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x]"]
    for level in range(1, 10):
        lines.append(f"a{level}: &a{level} [" + ", ".join([f"*a{level - 1}"] * 9) + "]")
    return "\n".join(lines) + "\n"


_MEASURE = """
import resource, subprocess, sys
def limit():
    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))
done = subprocess.run(sys.argv[1:], capture_output=True, text=True, timeout=60, preexec_fn=limit)
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
sys.stdout.write(f"{done.returncode}\\n{peak}\\n{done.stdout}\\0{done.stderr}")
"""


def run_measured(*args: str) -> tuple[int, float, str, str, float]:
    """(exit status, peak RSS in MB, stdout, stderr, seconds) of ``dominokit ARGS``."""
    began = time.monotonic()
    wrapper = subprocess.run(
        [sys.executable, "-c", _MEASURE, sys.executable, "-m", "dominokit.conformance.cli",
         *args], capture_output=True, text=True, timeout=90, check=True)
    elapsed = time.monotonic() - began
    status, peak, rest = wrapper.stdout.split("\n", 2)
    out, err = rest.split("\0", 1)
    return int(status), int(peak) / 1024, out, err, elapsed


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The alias bomb and a 50 MB YAML file (many small entries), as files."""
    folder = tmp_path_factory.mktemp("hostile")
    bomb = folder / "bomb.yaml"
    bomb.write_text(alias_bomb(), encoding="utf-8")
    big = folder / "big.yaml"
    entry = "- {a: 1, b: [x, y]}\n"
    with big.open("w", encoding="utf-8") as out:
        for _ in range(50):
            out.write(entry * (1024 * 1024 // len(entry)))
    return {"bomb": bomb, "big": big}


# ---------------------------------------------------------------------------- YAML limits


def test_the_bomb_is_small_and_would_expand_enormously() -> None:
    assert len(alias_bomb()) < 600
    assert alias_bomb().count("*a8") == 9


def test_an_alias_is_refused_where_it_stands() -> None:
    [problem] = load_yaml_with_marks("a: 1\nb: [2, *x]\n", "f.yaml").problems
    assert str(problem) == "f.yaml:2:8: $: YAML aliases (*x) are not allowed: write the value out"
    # a defined alias is refused at its anchor, the first of the two the event stream meets
    document = load_yaml_with_marks("a: &first 1\nb: *first\n", "f.yaml")
    [problem] = document.problems
    assert str(problem) == ("f.yaml:1:4: $: YAML anchors (&first) are not allowed: "
                            "write the value out")


def test_a_document_over_the_node_limit_is_refused_at_the_first_node_too_many() -> None:
    text = "k:\n" + "- 1\n" * (MAX_YAML_NODES + 5)
    [problem] = load_yaml_with_marks(text, "f.yaml").problems
    # node 1 is the mapping, node 2 the key k, node 3 the list: item n is node n + 3 on line
    # n + 1, so node MAX + 1 is item MAX - 2 on line MAX - 1, column 3
    assert (problem.line, problem.col) == (MAX_YAML_NODES - 1, 3)
    assert f"more than {MAX_YAML_NODES} values" in problem.message


def test_a_file_over_the_size_limit_is_not_read(tmp_path: Path) -> None:
    path = tmp_path / "f.yaml"
    path.write_bytes(b"#" * (MAX_YAML_BYTES + 1))
    [problem] = load_yaml_with_marks(path, "f.yaml").problems
    assert str(problem) == (f"f.yaml: the file is {MAX_YAML_BYTES + 1} bytes, over the limit "
                            f"of {MAX_YAML_BYTES} bytes (4 MiB); refusing to read it")


def test_the_limits_leave_room_for_every_bundled_trace() -> None:
    largest = max(TRACES.rglob("*.yaml"), key=lambda p: p.stat().st_size)
    assert largest.stat().st_size * 10 < MAX_YAML_BYTES
    assert not load_yaml_with_marks(largest).problems


@pytest.mark.parametrize("command", [["spec", "check"], ["trace", "validate"]])
@pytest.mark.parametrize("which", ["bomb", "big"])
def test_hostile_yaml_is_refused_fast_and_small(hostile: dict[str, Path], command: list[str],
                                                which: str) -> None:
    status, peak, out, err, elapsed = run_measured(*command, str(hostile[which]))
    assert status == ExitStatus.FAILED, err
    assert elapsed < TIME_LIMIT_S and peak < MEMORY_LIMIT_MB, (elapsed, peak)
    assert "Traceback" not in err
    name = str(hostile[which])
    expected = (f"{name}:1:5: $: YAML anchors (&a0)" if which == "bomb"
                else f"{name}: the file is {hostile[which].stat().st_size} bytes, over the limit")
    assert expected in out


@pytest.mark.parametrize("which", ["bomb", "big"])
def test_hostile_expectations_are_a_usage_error_before_any_engine(
        hostile: dict[str, Path], which: str, tmp_path: Path) -> None:
    status, peak, out, err, elapsed = run_measured(
        "conform", "--engine", "false", "--expectations", str(hostile[which]),
        "--report-dir", str(tmp_path))
    # the cli maps every DominokitError to its usage status (4 once it uses ExitStatus)
    assert status not in (ExitStatus.OK, ExitStatus.FAILED), (status, err)
    assert elapsed < TIME_LIMIT_S and peak < MEMORY_LIMIT_MB, (elapsed, peak)
    assert "Traceback" not in err and "did not start" not in out + err
    assert str(hostile[which]) in err and len(err.strip().splitlines()) == 1
