"""Protocol 2 and the fallback to 1: what the kit asks, what engines of each version answer,
and that an engine of protocol 1 keeps passing (spec/protocol.md, Versioning)."""

from __future__ import annotations

import io
import json
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from dominokit.conformance.kit.driver import SubprocessEngine
from dominokit.conformance.kit.inprocess import InProcessEngine
from dominokit.conformance.run.runner import run_suite
from dominokit.conformance.serve.refengine import ReferenceEngine
from dominokit.conformance.serve.server import run_engine_server
from dominokit.conformance.wire import validation
from dominokit.conformance.wire.errors import EngineRejected, ProtocolViolation
from tests.conformance.engines.protocol_one import ProtocolOne

REPO = Path(__file__).resolve().parents[2]
EXAMPLE_ENGINE = REPO / "docs" / "examples" / "szczerbak_engine.py"


def _serve(requests: list[dict[str, Any]], obj: object | None = None) -> list[dict[str, Any]]:
    out = io.StringIO()
    run_engine_server(obj, io.StringIO("".join(json.dumps(r) + "\n" for r in requests)), out)
    return [json.loads(line) for line in out.getvalue().splitlines()]


def _hello(seq: int, version: int) -> dict[str, Any]:
    return {"seq": seq, "cmd": "hello", "protocol": version}


def test_the_reference_answers_each_version_with_that_version() -> None:
    two, undo_in_two, one, undo_in_one, three = _serve([
        _hello(1, 2), {"seq": 2, "cmd": "undo"}, _hello(3, 1), {"seq": 4, "cmd": "undo"},
        _hello(5, 3)])
    assert (two["result"]["protocol"], two["result"]["capabilities"]) == (2, ["undo"])
    assert undo_in_two["error"]["code"] == "bad_request"  # known, but nothing to take back
    assert one["result"]["protocol"] == 1 and "capabilities" not in one["result"]
    assert one["result"]["variants"] == two["result"]["variants"]
    assert undo_in_one["error"] == {"code": "unsupported", "message": "unknown command 'undo'"}
    assert three["error"]["code"] == "unsupported"
    assert three["error"]["message"] == "this engine speaks protocol 1 and 2, not 3"
    for reply, cmd in zip((two, undo_in_two, one, undo_in_one, three),
                          ("hello", "undo", "hello", "undo", "hello"), strict=True):
        assert validation.reply_problem(reply, cmd) is None


def test_an_object_of_protocol_1_is_served_as_one() -> None:
    refused, accepted, undo = _serve([_hello(1, 2), _hello(2, 1), {"seq": 3, "cmd": "undo"}],
                                     ProtocolOne())
    assert refused["error"] == {"code": "unsupported",
                                "message": "this engine speaks protocol 1, not 2"}
    assert accepted["result"]["protocol"] == 1
    assert undo["error"]["code"] == "unsupported"


def test_the_kit_falls_back_to_protocol_1_for_an_engine_that_refuses_2() -> None:
    # The quickstart's example engine was written for protocol 1 and refuses any other.
    with SubprocessEngine([sys.executable, str(EXAMPLE_ENGINE)], timeout=30) as engine:
        hello = engine.hello()
        assert (hello.protocol, hello.capabilities, engine._seq) == (1, (), 2)
        assert engine.legal  # the session goes on in protocol 1
        with pytest.raises(EngineRejected) as refused:
            engine.undo()
        assert refused.value.code == "unsupported"


def test_the_kit_asks_for_2_first_and_keeps_it() -> None:
    engine = InProcessEngine(ReferenceEngine())
    hello = engine.hello()
    assert (hello.protocol, hello.capabilities) == (2, ("undo",))
    older = InProcessEngine(ProtocolOne())
    hello = older.hello()
    assert (hello.protocol, hello.capabilities) == (1, ())
    with pytest.raises(EngineRejected) as refused:
        older.undo()
    assert (refused.value.code, refused.value.message) == ("unsupported",
                                                           "unknown command 'undo'")


def _scripted(answer: str) -> list[str]:
    """An engine whose hello result is ``answer`` (a Python expression of ``asked``)."""
    script = textwrap.dedent(f"""
        import json, sys
        for line in sys.stdin:
            request = json.loads(line)
            asked = request.get("protocol")
            if request["cmd"] == "quit":
                break
            result = {answer}
            if result is None:
                reply = {{"seq": request["seq"],
                          "error": {{"code": "unsupported", "message": "no"}}}}
            else:
                reply = {{"seq": request["seq"], "result": result}}
            print(json.dumps(reply), flush=True)
    """)
    return [sys.executable, "-c", script]


BASE = '{"name": "x", "version": "0", "variants": {}'


@pytest.mark.parametrize(("answer", "words"), [
    # Answers protocol 1 when asked for 2: the version must be the one asked.
    (BASE + ', "protocol": 1}', "hello asked for protocol 2; the engine answered protocol 1"),
    # A protocol-1 result with capabilities, after refusing 2.
    ('None if asked == 2 else {' + BASE[1:] + ', "protocol": 1, "capabilities": ["undo"]}',
     "capabilities"),
    (BASE + ', "protocol": 2, "capabilities": ["undo", "undo"]}', "non-unique"),
    (BASE + ', "protocol": 2, "capabilities": ["snapshot"]}', "'snapshot' is not one of"),
])
def test_a_hello_outside_the_contract_is_a_protocol_violation(answer: str, words: str) -> None:
    with SubprocessEngine(_scripted(answer), timeout=30) as engine, \
            pytest.raises(ProtocolViolation) as caught:
        engine.hello()
    assert words in str(caught.value), caught.value


def test_an_engine_of_protocol_1_passes_the_perft_cases_by_replay(tmp_path: Path) -> None:
    report = run_suite("python:tests.conformance.engines.protocol_one:ProtocolOne",
                       only="perft/classic_block/*", report_dir=tmp_path, out=io.StringIO())
    assert report.hello is not None and report.hello.protocol == 1
    outcomes = [r.outcome for r in report.records]
    assert len(outcomes) == 15 and {o.status for o in outcomes} == {"passed"}, outcomes


def test_a_python_engine_with_an_undo_method_is_served_with_it() -> None:
    from dominokit.conformance.cases import perft as perft_cases
    from dominokit.conformance.kit.engines import open_engine

    deal = perft_cases.positions("poldomino")[0]["deal"]
    engine = open_engine("python:dominokit.conformance.serve.refengine:ReferenceEngine", 30)
    try:
        hello = engine.hello()
        assert (hello.protocol, hello.capabilities) == (2, ("undo",))
        dealt = engine.new_hand("poldomino", {}, deal)
        first = engine.legal()[0]
        engine.apply(first)
        assert engine.undo() == dealt == engine.state()
        with pytest.raises(EngineRejected) as refused:
            engine.undo()
        assert refused.value.code == "bad_request"
    finally:
        engine.close()


class Undeclared(ReferenceEngine):
    """Protocol 2 with an ``undo`` method but no capability declared in ``hello``."""

    def hello(self) -> dict[str, Any]:
        return {k: v for k, v in super().hello().items() if k != "capabilities"}


def test_undo_is_unknown_to_an_engine_that_does_not_declare_it() -> None:
    hello, undo = _serve([_hello(1, 2), {"seq": 2, "cmd": "undo"}], Undeclared())
    assert hello["result"]["protocol"] == 2 and "capabilities" not in hello["result"]
    assert undo["error"] == {"code": "unsupported", "message": "unknown command 'undo'"}
    engine = InProcessEngine(Undeclared())
    assert engine.hello().capabilities == ()
    with pytest.raises(EngineRejected) as refused:
        engine.undo()
    assert refused.value.code == "unsupported"
