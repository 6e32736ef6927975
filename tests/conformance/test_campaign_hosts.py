"""One campaign across pytest-xdist workers: one item per chunk, on local workers and on two
ssh hosts (a real ``sshd`` on the loopback), with the serial run's verdicts.

The chunks are tiny (``tinychunks``: 2 hands) and the engine has a planted bug
(``StartsWithAPoint``), so that some chunks fail and some may pass. The ssh test starts
Debian's ``/usr/sbin/sshd`` on 127.0.0.1 with its own keys and configuration in the test's
folder, and stops it; it skips only off CI when sshd is not installed (under CI=true a missing
sshd fails). Nothing is timed.
"""

from __future__ import annotations

import getpass
import io
import os
import select
import shutil
import socket
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

import pytest

from dominokit.conformance.cases import collect_cases, differential
from dominokit.conformance.run.runner import run_suite

REPO = Path(__file__).resolve().parents[2]
BROKEN = "python:tests.conformance.test_campaign:StartsWithAPoint"
CASE = "differential/poldomino/default"
EXAMPLES = 9
"""Five chunks of 2 hands (the last of 1)."""
SEED = 3
SSHD = Path("/usr/sbin/sshd")
READY_WITHIN = 30.0
"""Seconds sshd has to say it listens (it says so at once; a bound on a broken one)."""


def campaign_args(*more: str, node: str = CASE) -> list[str]:
    return ["-p", "tests.conformance.tinychunks", "-p", "no:cacheprovider", "-p",
            "no:randomly", "--dominokit-engine", BROKEN, f"dominokit::{node}",
            "--dominokit-examples", str(EXAMPLES), "--dominokit-seed", str(SEED), *more]


def pytest_verdicts(cwd: Path, *args: str, said: list[str] | None = None) -> dict[str, str]:
    """Each item's verdict (passed, failed, skipped) from a pytest run's JUnit XML; what it
    printed is added to ``said``."""
    junit = cwd / f"junit-{len(list(cwd.glob('junit-*')))}.xml"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    (cwd / "pytest.ini").exists() or (cwd / "pytest.ini").write_text("[pytest]\n")
    done = subprocess.run([sys.executable, "-m", "pytest", *args, f"--junitxml={junit}",
                           f"--dominokit-report-dir={cwd / 'report'}"], cwd=cwd,
                          env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode in (0, 1), done.stdout + done.stderr
    if said is not None:
        said.append(done.stdout)
    verdicts = {}
    for case in ET.parse(junit).getroot().iter("testcase"):
        kinds = {child.tag for child in case}
        verdict = "failed" if kinds & {"failure", "error"} else (
            "skipped" if "skipped" in kinds else "passed")
        verdicts[case.attrib["name"]] = verdict
    return verdicts


def serial_verdicts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """The chunks' verdicts from a serial pytest run, checked against the serial
    ``dominokit conform`` record of the whole campaign."""
    serial = pytest_verdicts(tmp_path, *campaign_args("-p", "no:xdist"))
    assert sorted(serial) == [f"{CASE}[chunk-{i}-of-5]" for i in range(1, 6)]
    monkeypatch.setattr(differential, "CAMPAIGN_CHUNK", 2)
    report = run_suite(BROKEN, cases=collect_cases(only=CASE, examples=EXAMPLES, seed=SEED),
                       examples=EXAMPLES, seed=SEED, report_dir=tmp_path / "conform",
                       out=io.StringIO())
    (record,) = report.records
    assert record.outcome.status == ("failed" if "failed" in serial.values() else "passed")
    assert "failed" in serial.values()  # the comparison covers a failing verdict
    return serial


def test_local_xdist_workers_split_a_campaign_into_chunks(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("xdist")
    want = serial_verdicts(tmp_path, monkeypatch)
    got = pytest_verdicts(tmp_path, *campaign_args("-p", "xdist", "-n", "2"))
    assert got == want


def test_one_chunk_is_selected_by_its_node_id(tmp_path: Path) -> None:
    only = pytest_verdicts(tmp_path, *campaign_args("-p", "no:xdist",
                                                    node=f"{CASE}[chunk-2-of-5]"))
    assert list(only) == [f"{CASE}[chunk-2-of-5]"]


# ------------------------------------------------------------------ two hosts over ssh


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _keygen(path: Path) -> None:
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(path)],
                   check=True, capture_output=True)


class Sshd:
    """A running sshd, the ssh_config that names it (host ``dominokit-loop``), its log."""

    def __init__(self, proc: subprocess.Popen[str], config: Path) -> None:
        self.proc, self.config = proc, config

    def stop(self) -> str:
        """Stop sshd (killed if it will not stop); what it logged since it listened."""
        if self.proc.returncode is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        assert self.proc.stderr is not None
        if self.proc.stderr.closed:
            return ""
        log = self.proc.stderr.read()
        self.proc.stderr.close()
        return log


@pytest.fixture
def sshd(tmp_path: Path) -> Iterator[Sshd]:
    """A real sshd on 127.0.0.1 (key login only, no PAM) and an ssh_config naming it as the
    host ``dominokit-loop``. Stopped by the fixture, if the test did not stop it."""
    if not SSHD.exists() or shutil.which("ssh") is None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"{SSHD} (openssh-server) and ssh are needed under CI")
        pytest.skip(f"{SSHD} (openssh-server) is not installed")
    folder = tmp_path / "ssh"
    folder.mkdir()
    _keygen(folder / "host_key")
    _keygen(folder / "client_key")
    (folder / "authorized_keys").write_text((folder / "client_key.pub").read_text())
    os.makedirs("/run/sshd", mode=0o755, exist_ok=True)  # sshd's privilege separation folder
    port = _free_port()
    config = folder / "sshd_config"
    config.write_text("\n".join([
        f"ListenAddress 127.0.0.1:{port}", f"HostKey {folder / 'host_key'}",
        f"PidFile {folder / 'sshd.pid'}", f"AuthorizedKeysFile {folder / 'authorized_keys'}",
        "UsePAM no", "PermitRootLogin prohibit-password", "PubkeyAuthentication yes",
        "PasswordAuthentication no", "KbdInteractiveAuthentication no", "StrictModes no",
        "AcceptEnv PYTHONPATH PYTHONDONTWRITEBYTECODE", "LogLevel INFO", ""]))
    proc = subprocess.Popen([str(SSHD), "-D", "-e", "-f", str(config)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    server = Sshd(proc, folder / "ssh_config")
    try:
        _wait_listening(proc, port)
        client = folder / "ssh_config"
        client.write_text("\n".join([
            "Host dominokit-loop", "  HostName 127.0.0.1", f"  Port {port}",
            f"  User {getpass.getuser()}", f"  IdentityFile {folder / 'client_key'}",
            "  IdentitiesOnly yes", "  BatchMode yes", "  StrictHostKeyChecking no",
            f"  UserKnownHostsFile {folder / 'known_hosts'}",
            f"  SetEnv PYTHONPATH={REPO} PYTHONDONTWRITEBYTECODE=1",
            "  LogLevel ERROR", ""]))
        yield server
    finally:
        server.stop()


def _wait_listening(proc: subprocess.Popen[str], port: int) -> None:
    """Read sshd's log until it says it listens on ``port``; fail with the log if it exits
    or says nothing of the kind within READY_WITHIN seconds."""
    assert proc.stderr is not None
    log: list[str] = []
    deadline = time.monotonic() + READY_WITHIN
    while time.monotonic() < deadline:
        ready, _, _ = select.select([proc.stderr], [], [], deadline - time.monotonic())
        if not ready:
            break
        line = proc.stderr.readline()
        if not line:
            break
        log.append(line)
        if f"Server listening on 127.0.0.1 port {port}" in line:
            return
    pytest.fail("sshd did not start:\n" + "".join(log))


def test_two_ssh_hosts_play_one_campaign_with_the_serial_verdicts(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sshd: Sshd) -> None:
    pytest.importorskip("xdist")
    want = serial_verdicts(tmp_path, monkeypatch)
    # the remote workers run in a folder of their own (nothing to collect there; xdist copies
    # pytest into it), with the checkout on their PYTHONPATH (the ssh_config's SetEnv; and no
    # bytecode written into the checkout), under this Python: the same dominokit and engine
    remote = tmp_path / "remote"
    remote.mkdir()
    spec = (f"ssh=dominokit-loop//python={sys.executable}//chdir={remote}"
            f"//ssh_config={sshd.config}")
    said: list[str] = []
    got = pytest_verdicts(tmp_path, *campaign_args("-p", "xdist", "--tx", spec, "--tx", spec,
                                                   "--dist", "load"), said=said)
    assert "2 workers [5 items]" in said[0]
    assert got == want
    log = sshd.stop()
    assert log.count("Accepted publickey") == 2, log  # both workers came in over ssh
    assert not (REPO / "dominokit" / "__pycache__").exists()
