"""Fuzz the kit's reading of replies: lines built from the whole Unicode range (lone
surrogates, control characters, BOMs, overlong and invalid UTF-8) and from the schemas' shapes
with large repeated lists. Whatever the line, reading and checking it ends in a result or in a
named engine failure (never another exception), and a run that met it still writes a JSON
and a well-formed JUnit report and prints nothing that drives a terminal.

Examples are bounded by the ``ci`` profile (tests/conftest.py); each list is at most a few
tens of thousands of items, enough to have been minutes of work for a quadratic check.
"""

from __future__ import annotations

import io
import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from dominokit.conformance.cases.model import Case, Outcome
from dominokit.conformance.kit.driver import Hello, read_reply
from dominokit.conformance.run.report import Report
from dominokit.conformance.run.terminal import Terminal
from dominokit.conformance.wire import protocol
from dominokit.conformance.wire.errors import EngineFailure, EngineRejected

COMMANDS = ("hello", "legal", "state", "apply", "new_hand", "match_state")

# Any code point, surrogates included; written as JSON escapes, raw (UTF-8 where it can be),
# or as bytes that are not UTF-8 at all.
code_points = st.integers(min_value=0, max_value=0x10FFFF)
BAD_UTF8 = [b"\xc0\xaf", b"\xe0\x80\xaf", b"\xf0\x80\x80\xaf", b"\xed\xa0\x80", b"\xff",
            b"\xfe", b"\x80", b"\xf8\x88\x80\x80\x80", b"\xef\xbb\xbf", b"\xc3"]


@st.composite
def hostile_strings(draw: st.DrawFn) -> bytes:
    """The bytes of one JSON string literal (quotes included), hostile in some way."""
    pieces: list[bytes] = []
    for point in draw(st.lists(code_points, max_size=12)):
        how = draw(st.sampled_from(["escape", "raw", "bad"]))
        if how == "escape" or (how == "raw" and (0xD800 <= point <= 0xDFFF or point < 0x20
                                                 or point in (0x22, 0x5C))):
            if point > 0xFFFF:
                high, low = divmod(point - 0x10000, 0x400)
                pieces.append(f"\\u{0xD800 + high:04x}\\u{0xDC00 + low:04x}".encode())
            else:
                pieces.append(f"\\u{point:04x}".encode())
        elif how == "raw":
            pieces.append(chr(point).encode("utf-8"))
        else:
            pieces.append(draw(st.sampled_from(BAD_UTF8)))
    return b'"' + b"".join(pieces) + b'"'


@st.composite
def hostile_lines(draw: st.DrawFn) -> tuple[str, bytes]:
    """A command and a reply line to it: a reply of the command's shape with hostile strings
    and large repeated lists, sometimes with a BOM or bytes that are not JSON around it."""
    cmd = draw(st.sampled_from(COMMANDS))
    text = draw(hostile_strings())
    count = draw(st.sampled_from([0, 1, 2, 1000, 30_000]))
    item = draw(st.sampled_from([text, b'"undo"', b"1", b"1.0", b"null", b"[]", b"{}"]))
    mixed = draw(st.booleans())
    items = b",".join([b'"draw"', *([item] * count)] if mixed else [item] * count)
    seq = draw(st.sampled_from([b"1", b"1.0", b"1e0", b"-1", b"true", b"null", b'"1"']))
    shapes = {
        "hello": b'{"name":' + text + b',"version":"0","protocol":2,"capabilities":['
                 + items + b'],"variants":{"poldomino":{"options":{"x":[' + items + b"]}}}}",
        "legal": b'{"actions":[' + items + b"]}",
        "state": b'{"state":{"hands":[[' + items + b"],[]],\"stock\":[" + items + b"]}}",
        "apply": b'{"events":[' + items + b"]}",
        "new_hand": b'{"state":' + text + b"}",
        "match_state": b'{"match":{"rounds":[' + items + b"]}}",
    }
    body = draw(st.sampled_from([b'"result":' + shapes[cmd],
                                 b'"error":{"code":"bad_request","message":' + text + b"}",
                                 b'"error":{"code":' + text + b',"message":"x"}']))
    line = b'{"seq":' + (b"1" if draw(st.booleans()) else seq) + b"," + body + b"}"
    wrap = draw(st.sampled_from([b"", b"\xef\xbb\xbf", b"\x1b[2J", b"\x00"]))
    return cmd, wrap + line if draw(st.booleans()) else line + wrap


def _kit_reads(cmd: str, line: bytes) -> tuple[str, Hello | None]:
    """What the kit makes of ``line`` as the reply to request 1 (a ``cmd``): "ok" (and the
    hello, for a ``hello``), or the failure as the run would record it."""
    try:
        result = protocol.check_reply(read_reply(line), cmd, 1)
    except EngineFailure as failure:
        return f"engine {failure.kind}: {failure.detail}", None
    except EngineRejected as refusal:
        return f"the engine refused a request the case needs: {refusal}", None
    return "ok", Hello.from_result(result) if cmd == "hello" else None


def _no_body(engine: Any, ctx: Any) -> Outcome:
    raise AssertionError("not run")


MIXED = b'["undo",' + b",".join(b"%d" % i for i in range(30_000)) + b"]"
KNOWN = [  # the shapes that once cost a traceback or minutes: always tried first
    ("hello", b'{"seq":1,"result":{"name":"\\udc80","version":"0","protocol":2,'
              b'"variants":{"poldomino":{"options":{}}}}}'),
    ("hello", b'{"seq":1,"result":{"name":"\\ud800x","version":"\x1b]0;t\x07","protocol":2,'
              b'"variants":{"poldomino":{"options":{}}}}}'),
    ("legal", b'{"seq":1,"error":{"code":"bad_request","message":"\\udfff\\u001b[2J"}}'),
    ("hello", b'{"seq":1,"result":{"name":"n","version":"0","protocol":2,"capabilities":'
              + MIXED + b',"variants":{"poldomino":{"options":{}}}}}'),
    ("legal", b'{"seq":1,"result":{"actions":' + MIXED + b"}}"),
    ("legal", b'{"seq":1.0,"result":{"actions":["draw"]}}'),
    ("hello", b'{"seq":1,"result":{"name":"n","version":"0","protocol":2,"capabilities":['
              + b",".join([b'"undo"'] * 100_000) + b'],"variants":{}}}'),
]


def _with_known(test: Any) -> Any:
    for known in KNOWN:
        test = example(known)(test)
    return test


@_with_known
@settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                 HealthCheck.function_scoped_fixture])
@given(hostile_lines())
def test_any_reply_ends_in_a_verdict_and_the_reports_are_written(
        tmp_path: Path, reply: tuple[str, bytes]) -> None:
    cmd, line = reply
    message, hello = _kit_reads(cmd, line)  # anything but a named failure fails the test
    report = Report(suite_version="0", protocol_version=2, engine="fuzz", settings={},
                    hello=hello)
    case = Case(id="fuzz/case", kind="fuzz", variant="poldomino", body=_no_body)
    status = "passed" if message == "ok" else "errored"
    report.add(case, Outcome(status, message, failure_kind=None if message == "ok" else "x"),
               0.0)
    report.finish([case.id])
    report.write_json(tmp_path / "r.json")
    report.write_junit(tmp_path / "r.xml")
    json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    ET.parse(tmp_path / "r.xml")
    shown = io.StringIO()
    terminal = Terminal(shown, total=1, progress=False, heartbeat=False)
    terminal.record(report.records[0])
    terminal.finish(report)
    printed = shown.getvalue()
    assert not any(ord(c) < 0x20 and c not in "\n\t" or c == "\x7f" for c in printed), printed
    printed.encode("utf-8")  # no lone surrogate reaches the terminal either
