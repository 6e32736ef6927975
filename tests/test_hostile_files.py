"""Hostile files: whatever a spec, trace, expectations or deal file holds, the kit answers with
one located line per problem and an exit status, in seconds and bounded memory; never a
traceback, a hang or gigabytes.

The size and speed checks run each command as a user would, in a subprocess whose peak
resident memory is measured by a small wrapper process (so no other test's children count).
"""

from __future__ import annotations

import json
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


# ---------------------------------------------------------------------------- deals of traces

HAND = TRACES / "szczerbak" / "passes-and-domino.yaml"
MATCH = TRACES / "szczerbak" / "match-to-100.yaml"
P0_HAND = "    - [0-1, 0-3, 1-6, 2-3, 2-4, 2-5, 3-6, 4-5, 4-6, 5-6]\n"
P1_HAND = "    - [0-2, 0-4, 0-5, 0-6, 1-2, 1-3, 1-5, 2-6, 3-4, 3-5]\n"


def position(text: str, token: str, occurrence: int = 1) -> tuple[int, int]:
    """1-based (line, column) of the start of the n-th ``token`` in ``text``."""
    index = -1
    for _ in range(occurrence):
        index = text.index(token, index + 1)
    return text.count("\n", 0, index) + 1, index - (text.rfind("\n", 0, index) + 1) + 1


def planted_trace(folder: Path, source: Path, stem: str, old: str, new: str) -> tuple[Path, str]:
    """A copy of a bundled trace renamed to ``stem`` with ``old`` (found once) replaced."""
    text = source.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    text = text.replace(old, new).replace(f"/{source.stem}\n", f"/{stem}\n", 1)
    path = folder / f"{stem}.yaml"
    path.write_text(text, encoding="utf-8")
    return path, text


def validate(*paths: Path) -> tuple[int, list[str], str]:
    """(exit status, problem lines, stderr) of ``dominokit trace validate PATHS`` as a user
    runs it."""
    done = subprocess.run([sys.executable, "-m", "dominokit.conformance.cli", "trace",
                           "validate", *map(str, paths)], capture_output=True, text=True,
                          timeout=120)
    lines = done.stdout.splitlines()
    return done.returncode, lines[:-1], done.stderr


# R-SZC-01: the set without doubles (21 tiles), 10 to each player, one left as the widow; the
# widow decides the starter (R-SZC-02), so a deal names none. Each planted deal below breaks
# that, and each problem is one line at the tile or field that breaks it, citing R-SZC-01.
DEAL_CASES = {
    # 0-3 replaced by a second 0-1 in player 0's hand: 0-1 twice, 0-3 dealt to no one
    "duplicate-tile": (P0_HAND, P0_HAND.replace("0-3", "0-1"), [
        ("deal:", "$.deal", "tiles of the set dealt to no one: 0-3"),
        ("0-1, 1-6", "$.deal.hands[0][1]", "tile 0-1 is dealt more than once (also at "
                                            "$.deal.hands[0][0]); the tile set holds 1 copy"),
    ]),
    # 0-2 moved from player 1 to player 0: 11 and 9 tiles
    "wrong-count": (P0_HAND + P1_HAND, P0_HAND.replace("[0-1", "[0-1, 0-2")
                    + P1_HAND.replace("[0-2, ", "["), [
        ("[0-1, 0-2", "$.deal.hands[0]", "player 0's hand holds 11 tiles; the variant deals "
                                         "10 each"),
        ("[0-4", "$.deal.hands[1]", "player 1's hand holds 9 tiles; the variant deals 10 each"),
    ]),
    # player 1's 0-2 replaced by player 0's 0-1: in both hands, 0-2 dealt to no one
    "tile-in-both-hands": (P1_HAND, P1_HAND.replace("0-2", "0-1"), [
        ("deal:", "$.deal", "tiles of the set dealt to no one: 0-2"),
        ("0-1, 0-4", "$.deal.hands[1][0]", "tile 0-1 is in both hands (also at "
                                            "$.deal.hands[0][0]); the tile set holds 1 copy"),
    ]),
    "starter-given": ("  starter: null\n", "  starter: 1\n", [
        ("1\n  widow", "$.deal.starter", "the widow decides the starter; deal.starter must "
                                        "be null, got 1"),
    ]),
}


@pytest.mark.rule("R-SZC-01")
@pytest.mark.parametrize("case", sorted(DEAL_CASES))
def test_a_trace_deal_the_variant_cannot_deal_is_one_located_line_per_problem(
        tmp_path: Path, case: str) -> None:
    old, new, expected = DEAL_CASES[case]
    path, text = planted_trace(tmp_path, HAND, case, old, new)
    status, lines, err = validate(path)
    assert (status, err) == (ExitStatus.FAILED, "")
    wanted = []
    for token, json_path, message in expected:
        line, col = position(text, token)
        wanted.append(f"{path}:{line}:{col}: {json_path}: {message} (R-SZC-01)")
    assert lines == wanted


@pytest.mark.rule("R-SZC-01")
def test_every_trace_file_is_checked_after_a_bad_deal(tmp_path: Path) -> None:
    bad, text = planted_trace(tmp_path, HAND, "bad", P0_HAND, P0_HAND.replace("0-3", "0-1"))
    # in a match the widow decides every hand's starter too: the second hand names one
    second = text_of_match_hand(1)
    match, match_text = planted_trace(tmp_path, MATCH, "match", second,
                                      second.replace("starter: null", "starter: 0"))
    status, lines, err = validate(bad, HAND, match)
    assert status == ExitStatus.FAILED and "Traceback" not in err
    assert len([line for line in lines if line.startswith(f"{bad}:")]) == 2
    line, col = position(match_text, "0\n      widow")
    assert lines[2:] == [f"{match}:{line}:{col}: $.hands[1].deal.starter: the widow decides "
                         f"the starter; deal.starter must be null, got 0 (R-SZC-01)"]
    summary = validate(HAND)[1]
    assert summary == [] and all(line.count("(R-SZC-01)") == 1 for line in lines)


def text_of_match_hand(index: int) -> str:
    """The deal block of hand ``index`` of the bundled Szczerbak match, from ``deal:`` to its
    widow line."""
    text = MATCH.read_text(encoding="utf-8")
    start = position(text, "    deal:\n", index + 1)[0]
    lines = text.splitlines(keepends=True)
    return "".join(lines[start - 1:start + 6])


def test_a_missing_trace_file_is_a_usage_error(tmp_path: Path) -> None:
    status, lines, err = validate(HAND, tmp_path / "nothere.yaml")
    assert status == ExitStatus.USAGE_ERROR and lines == []
    assert err == f"dominokit trace validate: {tmp_path / 'nothere.yaml'}: no such file or " \
                  f"directory\n"


# ---------------------------------------------------------------------------- trace record


def record(*args: str) -> subprocess.CompletedProcess[str]:
    """``dominokit trace record --variant szczerbak ARGS`` as a user runs it."""
    return subprocess.run([sys.executable, "-m", "dominokit.conformance.cli", "trace", "record",
                           "--variant", "szczerbak", *args], capture_output=True, text=True,
                          timeout=60)


@pytest.mark.parametrize(("args", "message"), [
    (["--seed", "3", "--out", "{tmp}/missing/dir/x.yaml"],
     "--out {tmp}/missing/dir/x.yaml: the folder {tmp}/missing/dir does not exist"),
    (["--seed", "3", "--out", "{tmp}"],
     "--out {tmp}: is a directory; give a file name such as {tmp}/hand.yaml"),
    (["--deal", "{tmp}/deep.json"],
     "{tmp}/deep.json: not a deal: file nests arrays and objects 1000 deep, over the limit "
     "of 32"),
    (["--deal", "{tmp}/huge.json"],
     "{tmp}/huge.json: the file is 2097152 bytes, over the limit of 1048576 bytes (1 MiB); "
     "refusing to read it"),
    (["--deal", "{tmp}/twice.json"],
     "the deal is refused: bad_request: the deal's tiles are not the variant's tile set; "
     "extra: 0-1; missing: 0-3 (R-SZC-01)"),
])
def test_record_errors_are_one_line_and_a_usage_status(tmp_path: Path, args: list[str],
                                                       message: str) -> None:
    (tmp_path / "deep.json").write_text("[" * 1000 + "]" * 1000, encoding="utf-8")
    (tmp_path / "huge.json").write_text(" " * 2 * 1024 * 1024, encoding="utf-8")
    deal = _deal_of(HAND)
    deal["hands"][0][1] = "0-1"
    (tmp_path / "twice.json").write_text(json.dumps(deal), encoding="utf-8")
    done = record(*(arg.format(tmp=tmp_path) for arg in args))
    assert (done.returncode, done.stdout) == (ExitStatus.USAGE_ERROR, "")
    assert done.stderr == f"dominokit trace record: {message.format(tmp=tmp_path)}\n"


def _deal_of(path: Path) -> dict[str, object]:
    deal: dict[str, object] = load_yaml_with_marks(path).data["deal"]
    return deal


def test_record_replaces_its_output_whole_or_not_at_all(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    from dominokit.conformance.traces import commands

    out = tmp_path / "hand.yaml"
    out.write_text("old\n", encoding="utf-8")
    assert record("--deal", str(tmp_path / "nothere.json"), "--out", str(out)).returncode == 4
    assert out.read_text(encoding="utf-8") == "old\n"

    def refuse(source: str, target: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(commands.os, "replace", refuse)
    with pytest.raises(OSError):
        commands.write_atomically(out, "new\n" * 1000)
    assert out.read_text(encoding="utf-8") == "old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["hand.yaml"]
    monkeypatch.undo()
    assert record("--seed", "3", "--out", str(out)).returncode == ExitStatus.OK
    assert validate(out)[0] == ExitStatus.OK
