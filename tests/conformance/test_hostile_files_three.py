"""Files and disks: a failed write leaves the last good file whole, reports keep the mode a
user's umask asks for, every output path is checked before anything runs, and every reader of
a user's file and every command's numbers are bounded alike.

A full disk is simulated with ``RLIMIT_FSIZE`` (with ``SIGXFSZ`` ignored, a write past the
limit fails with ``EFBIG`` as one past a full disk fails with ``ENOSPC``): deterministic, and
no privileges needed.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import signal
import stat
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conformance.hostile_support import REPO, command, environment, run

ONE = "golden/poldomino/catch-double-blank"
TRACE = REPO / "conformance" / "traces" / "poldomino" / "catch-double-blank.yaml"


def _file_limit(size: int) -> Callable[[], None]:
    def limit() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))
    return limit


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


# ------------------------------------------------------------------ 6. export on a full disk

def test_a_failed_export_leaves_the_previous_one_whole(tmp_path: Path, exported: Path) -> None:
    out = tmp_path / "vectors"
    shutil.copytree(exported, out)  # the module's one good export (poldomino, --examples 1)
    before = _snapshot(out)
    largest = max(len(data) for data in before.values())
    again = run("export", "--out", str(out), "--variant", "poldomino", "--examples", "2",
                cwd=tmp_path, timeout=60, preexec_fn=_file_limit(largest // 2))
    assert again.returncode == 4, again.stderr
    assert b"Traceback" not in again.stderr
    assert _snapshot(out) == before  # every file of the last good export, and nothing else
    check = run("export", "--check", str(out), cwd=tmp_path, timeout=60)
    assert check.returncode == 0, check.stderr


# ------------------------------------------------------------------ 7. half a JSON line

def test_the_json_lines_report_never_ends_in_half_a_line(tmp_path: Path) -> None:
    lines = tmp_path / "r.jsonl"
    done = run("conform", "--only", "golden/poldomino/*", "--workers", "1",
               "--jsonl", str(lines), cwd=tmp_path, timeout=60, preexec_fn=_file_limit(1500))
    assert done.returncode == 4, done.stderr
    assert b"JSON lines" in done.stderr
    text = lines.read_text(encoding="utf-8")
    assert text and text.endswith("\n")
    records = [json.loads(line) for line in text.splitlines()]
    assert records[0]["type"] == "header"  # every whole line before the disk filled is there
    assert len(records) > 1 and all(r["type"] == "case" for r in records[1:])


# ------------------------------------------------------------------ 8. the umask's mode

def _under_umask(mask: int) -> Callable[[], None]:
    def set_mask() -> None:
        os.umask(mask)
    return set_mask


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.parametrize("mask", [0o022, 0o027])
def test_reports_get_the_mode_the_umask_asks_for(tmp_path: Path, mask: int) -> None:
    existing = tmp_path / "old.xml"
    existing.write_text("old\n")
    existing.chmod(0o664)
    done = run("conform", "--only", ONE, "--workers", "1", "--json", str(tmp_path / "r.json"),
               "--junitxml", str(existing), cwd=tmp_path, preexec_fn=_under_umask(mask))
    assert done.returncode == 0, done.stderr
    assert _mode(tmp_path / "r.json") == 0o666 & ~mask
    assert _mode(existing) == 0o664  # a report written over keeps its mode
    record = run("trace", "record", "--variant", "poldomino", "--seed", "3",
                 "--out", str(tmp_path / "t.yaml"), cwd=tmp_path,
                 preexec_fn=_under_umask(mask))
    assert record.returncode == 0, record.stderr
    assert _mode(tmp_path / "t.yaml") == 0o666 & ~mask


# ------------------------------------------------------------------ 9, 10. output paths

@pytest.mark.parametrize("options", [
    ("--json", "x", "--junitxml", "x"),
    ("--json", "x", "--jsonl", "./x"),
    ("--junitxml", "sub/../x", "--jsonl", "x"),
])
def test_two_reports_on_one_path_are_refused_before_the_run(tmp_path: Path,
                                                            options: tuple[str, ...]) -> None:
    done = run("conform", "--only", ONE, *options, cwd=tmp_path)
    assert done.returncode == 4, done.stdout
    assert b"same file" in done.stderr
    assert b"dominokit conform:" not in done.stdout  # nothing ran
    assert not (tmp_path / "x").exists()


def _links(tmp_path: Path) -> None:
    (tmp_path / "loop").symlink_to("loop")
    (tmp_path / "dangling").symlink_to("nowhere")


@pytest.mark.parametrize("options", [
    ("--json", "loop/r.json"),
    ("--junitxml", "dangling/r.xml"),
    ("--jsonl", "loop/deeper/r.jsonl"),
    ("--report-dir", "loop/rd"),
    ("--report-dir", "dangling"),
])
def test_an_output_path_through_a_broken_link_is_refused_before_the_run(
        tmp_path: Path, options: tuple[str, ...]) -> None:
    _links(tmp_path)
    marker = tmp_path / "engine-started"
    engine = f"sh -c 'touch {marker}; exit 1'"
    done = run("conform", "--engine", engine, "--only", ONE, *options, cwd=tmp_path)
    assert done.returncode == 4, done.stdout
    assert b"symbolic link" in done.stderr, done.stderr
    assert not marker.exists()  # refused before the engine started


def test_trace_record_refuses_an_out_through_a_broken_link(tmp_path: Path) -> None:
    _links(tmp_path)
    done = run("trace", "record", "--variant", "poldomino", "--seed", "1",
               "--out", "loop/t.yaml", cwd=tmp_path)
    assert done.returncode == 4 and b"symbolic link" in done.stderr, done.stderr


# ------------------------------------------------------------------ 11. perft --deal

def test_perft_reads_its_deal_through_the_bounded_reader(tmp_path: Path) -> None:
    try:  # before, it read until memory ran out
        zero = run("perft", "poldomino", "--deal", "/dev/zero", "--depth", "1", cwd=tmp_path,
                   timeout=15)
    except subprocess.TimeoutExpired:
        pytest.fail("perft --deal /dev/zero read without a bound")
    assert zero.returncode == 4 and b"Traceback" not in zero.stderr, zero.stderr
    assert b"/dev/zero" in zero.stderr
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    nested = run("perft", "poldomino", "--deal", str(deep), "--depth", "1", cwd=tmp_path)
    assert nested.returncode == 4 and b"Traceback" not in nested.stderr, nested.stderr
    assert b"deep" in nested.stderr


# ------------------------------------------------------------------ 12. trace replay --timeout

@pytest.mark.parametrize("value", ["nan", "-1", "0", "inf", "soon"])
def test_trace_replay_refuses_a_timeout_conform_refuses(tmp_path: Path, value: str) -> None:
    done = run("trace", "replay", "--timeout", value, str(TRACE), cwd=tmp_path)
    assert done.returncode == 4, done.stdout
    assert b"Traceback" not in done.stderr and b"--timeout" in done.stderr
    assert b"trace(s)" not in done.stdout  # nothing was replayed


# ------------------------------------------------------------------ 13. trace record --out

def test_trace_record_will_not_overwrite_a_trace_without_force(tmp_path: Path) -> None:
    golden = tmp_path / "golden.yaml"
    golden.write_bytes(TRACE.read_bytes())
    comments = sum(1 for line in TRACE.read_text().splitlines() if line.lstrip().startswith("#"))
    args = ("trace", "record", "--variant", "poldomino", "--seed", "2", "--out", str(golden))
    refused = run(*args, cwd=tmp_path)
    assert refused.returncode == 4, refused.stderr
    assert golden.read_bytes() == TRACE.read_bytes()
    said = refused.stderr.decode()
    assert "--force" in said and f"{comments} comment line" in said, said
    forced = run(*args, "--force", cwd=tmp_path)
    assert forced.returncode == 0, forced.stderr
    assert golden.read_bytes() != TRACE.read_bytes()


# ------------------------------------------------------------------ export --check's manifest

@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One small export, made once for the manifest tests (each changes a copy)."""
    out = tmp_path_factory.mktemp("export") / "vectors"
    done = run("export", "--out", str(out), "--variant", "poldomino", "--examples", "1",
               cwd=out.parent, timeout=60)
    assert done.returncode == 0, done.stderr
    return out


@pytest.mark.parametrize(("examples", "words"), [
    (-5, b"examples"), (10**9, b"examples"), ("5", b"examples"), (True, b"examples"),
])
def test_export_check_refuses_a_manifest_with_values_no_export_has(
        tmp_path: Path, exported: Path, examples: object, words: bytes) -> None:
    out = tmp_path / "vectors"
    shutil.copytree(exported, out)
    manifest = out / "manifest.json"
    data = json.loads(manifest.read_text())
    data["examples"] = examples
    manifest.write_text(json.dumps(data))
    try:
        done = run("export", "--check", str(out), cwd=tmp_path, timeout=20)
    except subprocess.TimeoutExpired:
        pytest.fail("export --check ran unbounded on the manifest's examples")
    assert done.returncode == 4, done.stderr
    assert words in done.stderr and b"manifest" in done.stderr
    assert b"--examples -5" not in done.stderr  # no advice the CLI would then refuse


@pytest.mark.parametrize("value", ["0", "-5", "1000000000"])
def test_export_refuses_examples_out_of_range(tmp_path: Path, value: str) -> None:
    done = run("export", "--out", str(tmp_path / "v"), "--examples", value, cwd=tmp_path,
               timeout=20)
    assert done.returncode == 4 and b"--examples" in done.stderr, done.stderr


# ------------------------------------------------------------------ the progress line

@pytest.mark.parametrize("columns", [8, 12, 19])
def test_the_progress_line_fits_a_narrow_terminal(tmp_path: Path, columns: int) -> None:
    import pty
    import threading

    master, slave = pty.openpty()
    env = environment(COLUMNS=str(columns), LINES="24", TERM="xterm")
    chunks: list[bytes] = []

    def drain() -> None:
        while True:
            try:
                data = os.read(master, 65536)
            except OSError:
                return
            if not data:
                return
            chunks.append(data)

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    try:
        done = subprocess.run(
            command("conform", "--only", "golden/poldomino/catch-*", "--workers", "1",
                    "--color", "never"),
            stdout=slave, stderr=subprocess.PIPE, env=env, cwd=tmp_path, timeout=60,
            check=False)
    finally:
        os.close(slave)
        reader.join(timeout=10)
        os.close(master)
    assert done.returncode == 0, done.stderr
    output = b"".join(chunks).decode()
    drawn = [piece for line in output.split("\n") for piece in line.split("\r")
             if piece.startswith("[")]  # the bar: "[###---] 1/2 case-id", cut to the width
    assert drawn, output
    assert all(len(piece.rstrip()) < columns for piece in drawn), drawn
