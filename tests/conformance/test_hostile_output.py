"""What an engine prints must not reach the user's terminal, a report's XML or the kit's own
encoders raw, and no reply may cost the kit more than its size allows.

Each test drives the real ``dominokit conform`` (or the driver) against a scripted engine
(``tests/engines/hostile_reply.py``) and reads what a user or a CI job would read: stdout, the
JSON report, the JUnit XML report.
"""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tests.conformance.hostile_support import (
    ONE_CASE,
    REPO,
    environment,
    run,
    scripted_engine,
)

TERMINAL_DRIVERS = "\x1b[31mred\x1b[0m \x1b]0;owned title\x07 bell\x07 \x1b[2J cleared\r\n"


def _conform(tmp_path: Path, engine: str, *extra: str) -> subprocess.CompletedProcess[bytes]:
    return run("conform", "--engine", engine, "--only", ONE_CASE, "--workers", "1",
               "--timeout", "5", "--color", "never", "--json", str(tmp_path / "r.json"),
               "--junitxml", str(tmp_path / "r.xml"), "--report-dir", str(tmp_path / "rd"),
               *extra, cwd=tmp_path)


def test_an_engines_stderr_is_shown_with_its_control_characters_escaped(tmp_path: Path) -> None:
    engine = scripted_engine(tmp_path, stderr=TERMINAL_DRIVERS)  # crashes on new_hand
    done = _conform(tmp_path, engine)
    assert done.returncode == 1, done.stderr
    shown = done.stdout + done.stderr
    assert b"red" in shown and b"owned title" in shown  # the stderr is shown...
    for raw in (b"\x1b", b"\x07"):
        assert raw not in shown  # ...but never a byte that drives the terminal
    assert b"\\x1b[31mred" in done.stdout  # escaped, so the author still sees what it printed


def test_the_junit_report_stays_well_formed_whatever_the_engine_printed(tmp_path: Path) -> None:
    engine = scripted_engine(tmp_path, stderr=TERMINAL_DRIVERS + "\x00\x0b\x0c\ufffe\udcff")
    done = _conform(tmp_path, engine)
    assert done.returncode == 1, done.stderr
    root = ET.parse(tmp_path / "r.xml").getroot()  # raised "not well-formed" before
    error = root.find(".//error")
    assert error is not None and "owned title" in (error.text or "")


@pytest.mark.parametrize("where", ["hello name", "error message"])
@pytest.mark.parametrize("surrogate", ["\\udc80", "\\ud800", "\\uDFFF"])
def test_a_lone_surrogate_is_a_malformed_reply_and_the_reports_are_written(
        tmp_path: Path, where: str, surrogate: str) -> None:
    if where == "hello name":
        hello = ('{"seq":{seq},"result":{"name":"' + surrogate + '","version":"0",'
                 '"protocol":{protocol},"variants":{"poldomino":{"options":{}}}}}')
        engine = scripted_engine(tmp_path, hello=hello)
    else:
        error = '{"seq":{seq},"error":{"code":"bad_request","message":"' + surrogate + '"}}'
        engine = scripted_engine(tmp_path, replies={"*": error})
    done = _conform(tmp_path, engine)
    assert b"Traceback" not in done.stderr, done.stderr.decode()
    report = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    ET.parse(tmp_path / "r.xml")
    if where == "hello name":
        assert done.returncode == 4  # the engine never came up: nothing was judged
        assert "not a protocol message" in report["error"]  # a malformed reply's words
        assert "surrogate" in report["error"]
    else:  # the run went on: the case is errored, as for any malformed reply
        assert done.returncode == 1
        (case,) = report["cases"]
        assert case["status"] == "errored" and case["failure_kind"] == "malformed"


def test_a_reply_whose_seq_is_a_float_breaks_the_protocol(tmp_path: Path) -> None:
    # A refusal with seq 2.0: before, it counted as the engine refusing the case's request.
    refusal = '{"seq":{seq}.0,"error":{"code":"bad_request","message":"no"}}'
    done = _conform(tmp_path, scripted_engine(tmp_path, replies={"*": refusal}))
    report = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    (case,) = report["cases"]
    assert (case["status"], case["failure_kind"]) == ("errored", "protocol"), case["message"]
    assert "seq" in case["message"] and "integer" in case["message"]
    assert done.returncode == 1


def test_a_hello_whose_protocol_is_a_float_is_refused(tmp_path: Path) -> None:
    hello = ('{"seq":{seq},"result":{"name":"f","version":"0","protocol":{protocol}.0,'
             '"variants":{"poldomino":{"options":{}}}}}')
    done = _conform(tmp_path, scripted_engine(tmp_path, hello=hello))
    assert done.returncode == 4
    report = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert "integer" in report["error"]


@pytest.mark.parametrize(("request_line", "field"), [
    ('{"seq":1.0,"cmd":"hello","protocol":2}', "seq"),
    ('{"seq":1,"cmd":"hello","protocol":2.0}', "protocol"),
    ('{"seq":1,"cmd":"hello","protocol":1e0}', "protocol"),
    ('{"seq":1,"cmd":"new_match","variant":"poldomino","options":{},"first_starter":0.0}',
     "first_starter"),
    ('{"seq":1,"cmd":"new_hand","variant":"poldomino","options":{},"deal":{"hands":'
     '[["0-0","0-1","0-2","0-3","0-4"],["0-5","0-6","1-1","1-2","1-3"]],"stock":["1-4","1-5",'
     '"1-6","2-2","2-3","2-4","2-5","2-6","3-3","3-4","3-5","3-6","4-4","4-5","4-6","5-5",'
     '"5-6","6-6"],"out_of_play":[],"starter":0.0,"widow":null}}', "starter"),
])
def test_the_reference_refuses_a_float_in_any_integer_field(request_line: str,
                                                            field: str) -> None:
    done = subprocess.run([sys.executable, "-m", "dominokit.conformance", "engine"],
                          input=request_line + "\n", capture_output=True, text=True,
                          env=environment(), cwd=REPO, timeout=30, check=True)
    reply = json.loads(done.stdout)
    assert "error" in reply, reply
    assert reply["error"]["code"] == "bad_request", reply
    assert field in reply["error"]["message"] and "integer" in reply["error"]["message"]


HUGE = 40_000


def _mixed(n: int) -> str:
    """A JSON list of one string and ``n`` numbers: the shape that sends jsonschema's
    ``uniqueItems`` to its quadratic scan."""
    return json.dumps(["undo", *range(n)])


@pytest.mark.parametrize("capabilities", [_mixed(HUGE), json.dumps(["undo"] * 10**6)],
                         ids=["mixed-list", "million-undo"])
def test_a_huge_hello_costs_the_kit_no_more_than_its_deadline(tmp_path: Path,
                                                              capabilities: str) -> None:
    hello = ('{"seq":{seq},"result":{"name":"f","version":"0","protocol":2,"capabilities":'
             + capabilities + ',"variants":{"poldomino":{"options":{}}}}}')
    engine = scripted_engine(tmp_path, hello=hello)
    # Before, this ran for minutes (7 for the mixed list): the timeout here is generous.
    done = run("conform", "--engine", engine, "--only", ONE_CASE, "--workers", "1",
               "--timeout", "2", "--startup-timeout", "3",
               "--json", str(tmp_path / "r.json"), cwd=tmp_path, timeout=20)
    assert done.returncode == 4, done.stderr
    report = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert "capabilities" in report["error"] and "limit" in report["error"], report["error"]


LEGAL_PROBE = """
import sys
from dominokit.conformance.kit.driver import SubprocessEngine
from dominokit.conformance.wire.errors import EngineFailure
engine = SubprocessEngine(sys.argv[1:], timeout=2, startup_timeout=3)
engine.hello()
try:
    engine.legal()
except EngineFailure as failure:
    print(failure.kind, str(failure)[:300])
finally:
    engine.close()
"""


def test_a_huge_legal_reply_is_refused_within_the_requests_deadline(tmp_path: Path) -> None:
    legal = '{"seq":{seq},"result":{"actions":' + _mixed(HUGE) + "}}"
    engine = scripted_engine(tmp_path, replies={"legal": legal})
    done = subprocess.run([sys.executable, "-c", LEGAL_PROBE, *engine.split()],
                          capture_output=True, text=True, env=environment(), timeout=20,
                          check=False)
    assert done.returncode == 0, done.stderr
    kind, _, message = done.stdout.partition(" ")
    assert kind in ("protocol", "malformed"), done.stdout
    assert "actions" in message and "limit" in message
