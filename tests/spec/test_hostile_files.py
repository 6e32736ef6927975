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
from pathlib import Path

import pytest

from dominokit.conformance.exit_status import ExitStatus
from dominokit.spec.yamldoc import MAX_YAML_BYTES, MAX_YAML_NODES, load_yaml_with_marks

TRACES = Path(__file__).resolve().parents[2] / "conformance" / "traces"

MEMORY_LIMIT_MB = 200
TIME_LIMIT_S = 15.0
"""CPU seconds (user + system) a command may spend on a hostile file. CPU time, not wall time:
the claim is that the work is bounded, and a loaded machine stretches wall time, not work."""


def alias_bomb() -> str:
    """Ten levels of nine aliases each: about 500 bytes that expand to 9**10 scalars."""
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x]"]
    for level in range(1, 10):
        lines.append(f"a{level}: &a{level} [" + ", ".join([f"*a{level - 1}"] * 9) + "]")
    return "\n".join(lines) + "\n"


# The child gets a 2 GiB address-space limit where the platform allows one, so a regression
# fails with a MemoryError instead of swapping the machine.
_MEASURE = """
import resource, subprocess, sys
def limit():
    try:
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))
    except (ValueError, OSError):
        pass
done = subprocess.run(sys.argv[1:], capture_output=True, text=True, timeout=60, preexec_fn=limit)
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
cpu = usage.ru_utime + usage.ru_stime
sys.stdout.write(f"{done.returncode}\\n{usage.ru_maxrss}\\n{cpu}\\n{done.stdout}\\0{done.stderr}")
"""


def run_measured(*args: str) -> tuple[int, float, str, str, float]:
    """(exit status, peak RSS in MB, stdout, stderr, CPU seconds) of ``dominokit ARGS``."""
    if sys.platform == "win32":
        pytest.skip("peak memory is measured with the resource module (POSIX only)")
    peak_unit = 1024 * 1024 if sys.platform == "darwin" else 1024  # ru_maxrss: bytes or KiB
    wrapper = subprocess.run(
        [sys.executable, "-c", _MEASURE, sys.executable, "-m", "dominokit.conformance",
         *args], capture_output=True, text=True, timeout=90, check=True)
    status, peak, cpu, rest = wrapper.stdout.split("\n", 3)
    out, err = rest.split("\0", 1)
    return int(status), int(peak) / peak_unit, out, err, float(cpu)


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
    # the most a file may cost: just under both limits, ~99,000 values of ~40 bytes each
    widest = folder / "widest.yaml"
    widest.write_text("k:\n" + "".join(f"- {{a: x{i:034d}}}\n"
                                        for i in range((MAX_YAML_NODES - 10) // 3)),
                      encoding="utf-8")
    assert widest.stat().st_size < MAX_YAML_BYTES
    return {"bomb": bomb, "big": big, "widest": widest}


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
@pytest.mark.parametrize("which", ["bomb", "big", "widest"])
def test_hostile_yaml_is_refused_fast_and_small(hostile: dict[str, Path], command: list[str],
                                                which: str) -> None:
    status, peak, out, err, cpu = run_measured(*command, str(hostile[which]))
    assert status == ExitStatus.FAILED, err
    assert cpu < TIME_LIMIT_S and peak < MEMORY_LIMIT_MB, (cpu, peak)
    assert "Traceback" not in err
    name = str(hostile[which])
    expected = {
        "bomb": f"{name}:1:5: $: YAML anchors (&a0)",
        "big": f"{name}: the file is {hostile[which].stat().st_size} bytes, over the limit",
        # read whole (it is within both limits) and found to be no rule file or trace
        "widest": f"{name}:1:1: $",
    }[which]
    assert expected in out


@pytest.mark.parametrize("which", ["bomb", "big"])
def test_hostile_expectations_are_a_usage_error_before_any_engine(
        hostile: dict[str, Path], which: str, tmp_path: Path) -> None:
    status, peak, out, err, cpu = run_measured(
        "conform", "--engine", "false", "--expectations", str(hostile[which]),
        "--report-dir", str(tmp_path))
    assert status == ExitStatus.USAGE_ERROR, (status, err)
    assert cpu < TIME_LIMIT_S and peak < MEMORY_LIMIT_MB, (cpu, peak)
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


def validate(*paths: Path, capsys: pytest.CaptureFixture[str] | None = None
             ) -> tuple[int, list[str], str]:
    """(exit status, problem lines, stderr) of ``dominokit trace validate PATHS``: in this
    process when given ``capsys``, else in a subprocess exactly as a user runs it."""
    args = ["trace", "validate", *map(str, paths)]
    status, out, err = dominokit(args, capsys)
    return status, out.splitlines()[:-1], err


def dominokit(args: list[str], capsys: pytest.CaptureFixture[str] | None = None
              ) -> tuple[int, str, str]:
    """(exit status, stdout, stderr) of ``dominokit ARGS``, in process with ``capsys``."""
    if capsys is None:
        done = subprocess.run([sys.executable, "-m", "dominokit.conformance", *args],
                              capture_output=True, text=True, timeout=120)
        return done.returncode, done.stdout, done.stderr
    from dominokit.conformance.commands.cli import main

    capsys.readouterr()
    status = main(args)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


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
        tmp_path: Path, case: str, capsys: pytest.CaptureFixture[str]) -> None:
    old, new, expected = DEAL_CASES[case]
    path, text = planted_trace(tmp_path, HAND, case, old, new)
    status, lines, err = validate(path, capsys=capsys)
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
    assert all(line.count("(R-SZC-01)") == 1 for line in lines)


def text_of_match_hand(index: int) -> str:
    """The deal block of hand ``index`` of the bundled Szczerbak match, from ``deal:`` to its
    widow line."""
    text = MATCH.read_text(encoding="utf-8")
    start = position(text, "    deal:\n", index + 1)[0]
    lines = text.splitlines(keepends=True)
    return "".join(lines[start - 1:start + 6])


def test_a_missing_trace_file_is_a_usage_error(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    status, lines, err = validate(HAND, tmp_path / "nothere.yaml", capsys=capsys)
    assert status == ExitStatus.USAGE_ERROR and lines == []
    assert err == f"dominokit trace validate: {tmp_path / 'nothere.yaml'}: no such file or " \
                  f"directory\n"


# ---------------------------------------------------------------------------- trace record


def record(*args: str, capsys: pytest.CaptureFixture[str] | None = None
           ) -> tuple[int, str, str]:
    """``dominokit trace record --variant szczerbak ARGS`` (see ``dominokit``)."""
    return dominokit(["trace", "record", "--variant", "szczerbak", *args], capsys)


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
def test_record_errors_are_one_line_and_a_usage_status(
        tmp_path: Path, args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "deep.json").write_text("[" * 1000 + "]" * 1000, encoding="utf-8")
    (tmp_path / "huge.json").write_text(" " * 2 * 1024 * 1024, encoding="utf-8")
    deal = _deal_of(HAND)
    deal["hands"][0][1] = "0-1"
    (tmp_path / "twice.json").write_text(json.dumps(deal), encoding="utf-8")
    status, out, err = record(*(arg.format(tmp=tmp_path) for arg in args), capsys=capsys)
    assert (status, out) == (ExitStatus.USAGE_ERROR, "")
    assert err == f"dominokit trace record: {message.format(tmp=tmp_path)}\n"


def _deal_of(path: Path) -> dict[str, object]:
    deal: dict[str, object] = load_yaml_with_marks(path).data["deal"]
    return deal


def test_record_replaces_its_output_whole_or_not_at_all(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from dominokit.conformance import atomic

    out = tmp_path / "hand.yaml"
    out.write_text("old\n", encoding="utf-8")
    assert record("--deal", str(tmp_path / "nothere.json"), "--out", str(out))[0] == 4
    assert out.read_text(encoding="utf-8") == "old\n"

    def refuse(source: str, target: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(atomic.os, "replace", refuse)
    with pytest.raises(OSError):
        atomic.write_text_atomically(out, "new\n" * 1000)
    assert out.read_text(encoding="utf-8") == "old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["hand.yaml"]
    monkeypatch.undo()
    # over an existing file only when told to (--force): it could be a hand-checked trace
    assert record("--seed", "3", "--out", str(out), "--force", capsys=capsys)[0] \
        == ExitStatus.OK
    assert validate(out, capsys=capsys)[0] == ExitStatus.OK


# ---------------------------------------------------------------------------- spec check

VARIANTS = Path(__file__).resolve().parents[2] / "spec" / "variants"
MINIMAL = Path(__file__).parent / "data" / "minimal.yaml"


def planted_variant(folder: Path, source: Path, old: str, new: str) -> tuple[Path, str]:
    """A copy of a variant file (same name, so it stands in for the bundled one) with ``old``
    (found once) replaced by ``new``."""
    text = source.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    text = text.replace(old, new)
    path = folder / source.name
    path.write_text(text, encoding="utf-8")
    return path, text


def spec_check(path: Path, capsys: pytest.CaptureFixture[str] | None = None
               ) -> tuple[int, list[str]]:
    """(exit status, problem lines) of ``dominokit spec check PATH`` (see ``dominokit``)."""
    status, out, err = dominokit(["spec", "check", str(path)], capsys)
    assert err == ""
    return status, out.splitlines()[:-1]


# R-POL-01: a double-six set (28 tiles), 5 each, the rest a stock: 2 x 20 = 40 > 28.
# R-SZC-01: the 21 tiles without doubles, 10 each and one widow: 2 x 11 = 22 > 21, and 2 x 9
# leaves 3 where the widow is exactly 1.
SIZE_CASES = {
    "poldomino-20": ("poldomino.yaml", "  hand_size: 5\n", "  hand_size: 20\n",
                     "two hands of 20 need 40 tiles; the tile set has 28"),
    "szczerbak-11": ("szczerbak.yaml", "  hand_size: 10\n", "  hand_size: 11\n",
                     "two hands of 11 need 22 tiles; the tile set has 21"),
    "szczerbak-9": ("szczerbak.yaml", "  hand_size: 10\n", "  hand_size: 9\n",
                    "two hands of 9 from 21 tiles leave 3; a widow remainder needs exactly 1"),
    "huge": ("poldomino.yaml", "  hand_size: 5\n", f"  hand_size: {10 ** 23}\n",
             f"two hands of {10 ** 23} need {2 * 10 ** 23} tiles; the tile set has 28"),
    "float": ("poldomino.yaml", "  hand_size: 5\n", "  hand_size: 5.0\n",
              "expected an integer, got 5.0: write a whole number, no point or exponent"),
    "exponent": ("poldomino.yaml", "  hand_size: 5\n", "  hand_size: 1.0e+23\n",
                 "expected an integer, got 1e+23: write a whole number, no point or exponent"),
    # YAML reads 1e23 (no point) as the text '1e23'
    "text": ("poldomino.yaml", "  hand_size: 5\n", "  hand_size: 1e23\n",
             "must be 'schedule', got '1e23'"),
}


@pytest.mark.parametrize("case", sorted(SIZE_CASES))
def test_spec_check_refuses_a_hand_size_that_cannot_be_dealt(
        tmp_path: Path, case: str, capsys: pytest.CaptureFixture[str]) -> None:
    name, old, new, message = SIZE_CASES[case]
    path, text = planted_variant(tmp_path, VARIANTS / name, old, new)
    line, col = position(text, new)
    col += len("  hand_size: ")
    assert spec_check(path, capsys) == (ExitStatus.FAILED,
                                        [f"{path}:{line}:{col}: $.setup.hand_size: {message}"])


def test_spec_check_refuses_a_scheduled_deal_that_does_not_fit(tmp_path: Path) -> None:
    # R-PRO-01: hands come from the schedule and the rest is the stock; 16 + 16 > 28
    path, text = planted_variant(tmp_path, VARIANTS / "progressive.yaml",
                                 "[[5, 5], [6, 6],", "[[5, 5], [16, 16],")
    line, col = position(text, "[16, 16]")
    assert spec_check(path) == (ExitStatus.FAILED, [
        f"{path}:{line}:{col}: $.match.rounds[0].deals[1]: two hands of 16 need 32 tiles; "
        f"the tile set has 28"])


def test_spec_check_refuses_a_fixed_hand_size_beside_a_schedule(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # R-PRO-05: two rounds of ten deals and ten tiebreak deals; only round 1's first [5, 5] and
    # round 2's last [5, 5] are of the fixed size, so 20 - 2 + 10 = 28 deals could not be dealt
    path, text = planted_variant(tmp_path, VARIANTS / "progressive.yaml",
                                 "  hand_size: schedule\n", "  hand_size: 5\n")
    line, col = position(text, "5\n  remainder")
    assert spec_check(path, capsys) == (ExitStatus.FAILED, [
        f"{path}:{line}:{col}: $.setup.hand_size: the match schedule deals 28 hand(s) not of "
        f"[5, 5] (first [6, 6]), but a fixed hand_size refuses them: write hand_size: schedule"])


def test_spec_check_names_the_option_value_that_cannot_be_dealt(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # the fixture deals 5 or 7 from 28 with a stock; 15 would need 30
    path, text = planted_variant(tmp_path, MINIMAL, "values: [5, 7]", "values: [5, 15]")
    line, col = position(text, "15]")
    assert spec_check(path, capsys) == (ExitStatus.FAILED, [
        f"{path}:{line}:{col}: $.options.hand_size.values[1]: with hand_size=15: "
        f"$.setup.hand_size: two hands of 15 need 30 tiles; the tile set has 28"])
    path, text = planted_variant(tmp_path, MINIMAL, "default: 5\n", "default: 15\n")
    path.write_text(text.replace("values: [5, 7]", "values: [15, 7]"), encoding="utf-8")
    text = path.read_text(encoding="utf-8")
    line, col = position(text, "15\n")
    assert spec_check(path, capsys) == (ExitStatus.FAILED, [
        f"{path}:{line}:{col}: $.options.hand_size.default: with the default hand_size=15: "
        f"$.setup.hand_size: two hands of 15 need 30 tiles; the tile set has 28"])


@pytest.mark.parametrize(("old", "new", "token", "json_path"), [
    ("set_target: 125", "set_target: 125.0", "125.0", "$.match.set_target"),
    ("set_target: 125", "set_target: 0", "0, sets", "$.match.set_target"),
    ("sets_to_win: 2", "sets_to_win: 2.5", "2.5", "$.match.sets_to_win"),
    ("copies: 1", "copies: 1000000000", "1000000000", "$.components.tiles.copies"),
])
def test_spec_check_wants_whole_positive_targets_and_counts(
        tmp_path: Path, old: str, new: str, token: str, json_path: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    path, text = planted_variant(tmp_path, VARIANTS / "poldomino.yaml", old, new)
    status, lines = spec_check(path, capsys)
    line, col = position(text, token)
    assert status == ExitStatus.FAILED
    assert [problem.split(": ")[0:2] for problem in lines] == [[f"{path}:{line}:{col}",
                                                                json_path]]


def test_spec_check_statuses_are_the_kit_table() -> None:
    from dominokit.spec import speccheck

    assert (speccheck.OK, speccheck.FAILED, speccheck.USAGE_ERROR) == (
        ExitStatus.OK, ExitStatus.FAILED, ExitStatus.USAGE_ERROR)


def test_regenerate_reports_bad_files_and_usage_errors_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bomb, binary = tmp_path / "bomb.yaml", tmp_path / "binary.yaml"
    bomb.write_text(alias_bomb(), encoding="utf-8")
    binary.write_bytes(b"id: \xff\n")
    status, out, err = dominokit(["trace", "regenerate", "--check", str(bomb), str(binary)],
                                 capsys)
    assert (status, err) == (ExitStatus.FAILED, "")
    assert out.splitlines() == [
        f"{bomb}:1:5: $: YAML anchors (&a0) are not allowed: write the value out",
        f"{binary}: not UTF-8 text (byte 0xff at offset 4)",
        "2 trace(s): 0 would change, 2 failed"]
    status, out, err = dominokit(["trace", "regenerate", str(tmp_path / "nothere.yaml")], capsys)
    assert (status, out) == (ExitStatus.USAGE_ERROR, "")
    assert err == f"dominokit trace regenerate: {tmp_path / 'nothere.yaml'}: no such file or " \
                  f"directory\n"
