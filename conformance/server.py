"""Serve an engine object over protocol v1 (JSON lines on stdin/stdout): ``dominokit engine``.

The server owns the framing and never lets bad input crash it: a line that is not a request
gets an error reply (seq null when the seq cannot be read) and the loop goes on. The engine
object owns the game; it answers through its verbs (see ``protocol.COMMANDS``) and refuses
with ``EngineRejected``. Anything else it raises becomes an ``internal`` error reply, with the
traceback on stderr, because stdout must carry replies only.
"""

from __future__ import annotations

import contextlib
import json
import sys
import traceback
from collections.abc import Iterator
from typing import IO, Any

from dominokit.conformance import protocol
from dominokit.conformance.errors import as_rejection
from dominokit.conformance.protocol import JsonObject


def run_engine_server(
    obj: object | None = None, stdin: IO[Any] | None = None, stdout: IO[str] | None = None
) -> int:
    """Answer requests read from ``stdin`` until ``quit`` or end of input; returns 0.

    ``obj`` defaults to a fresh ``ReferenceEngine``; ``stdin``/``stdout`` default to the
    process's own (resolved at call time, so tests may swap ``sys.stdin``).
    """
    if obj is None:
        from dominokit.conformance.refengine import ReferenceEngine

        obj = ReferenceEngine()
    source = sys.stdin if stdin is None else stdin
    sink = sys.stdout if stdout is None else stdout
    for line in _lines(source):
        if not line.strip():
            continue
        reply, done = _answer(obj, line)
        try:
            text = protocol.encode(reply)
        except (TypeError, ValueError) as error:
            text = protocol.encode(protocol.error_reply(
                reply.get("seq"), "internal", f"the engine's result is not JSON: {error}"
            ))
        try:
            sink.write(text)
            sink.flush()
        except BrokenPipeError:
            return 0
        if done:
            return 0
    return 0


def _lines(source: IO[Any]) -> Iterator[str]:
    """Lines of text; undecodable bytes become U+FFFD so they are answered, not fatal."""
    raw = getattr(source, "buffer", None)
    if raw is not None:
        for data in raw:
            yield data.decode("utf-8", "replace")
    else:
        yield from source


def _answer(obj: object, line: str) -> tuple[JsonObject, bool]:
    """The reply to one request line, and whether the server should stop after sending it."""
    try:
        message = json.loads(line)
    except ValueError as error:
        return protocol.error_reply(None, "bad_request", f"request is not JSON: {error}"), False
    if not isinstance(message, dict):
        return protocol.error_reply(None, "bad_request", "request is not a JSON object"), False
    seq = message.get("seq")
    if not isinstance(seq, int) or isinstance(seq, bool) or seq < 0:
        return protocol.error_reply(
            None, "bad_request", "request has no seq (a non-negative integer)"
        ), False
    cmd = message.get("cmd")
    if not isinstance(cmd, str) or cmd not in protocol.COMMANDS:
        return protocol.error_reply(seq, "unsupported", f"unknown command {cmd!r}"), False
    problem = protocol.request_problem(message)
    if problem is not None:
        return protocol.error_reply(seq, "bad_request", problem), False
    if cmd == "quit":
        return protocol.result_reply(seq, {}), True
    if cmd == "hello" and message["protocol"] != protocol.PROTOCOL_VERSION:
        return protocol.error_reply(
            seq,
            "unsupported",
            f"this engine speaks protocol {protocol.PROTOCOL_VERSION}, "
            f"not {message['protocol']}",
        ), False
    return _call(obj, seq, protocol.COMMANDS[cmd], message), False


def _call(obj: object, seq: int, command: protocol.Command, message: JsonObject) -> JsonObject:
    verb = getattr(obj, command.name, None)
    if not callable(verb):
        return protocol.error_reply(
            seq, "unsupported", f"this engine does not implement {command.name!r}"
        )
    try:
        # A stray print inside the engine must not corrupt the reply stream.
        with contextlib.redirect_stdout(sys.stderr):
            value = verb(*(message[name] for name in command.params))
    except Exception as error:
        rejection = as_rejection(error)
        if rejection is not None:
            return protocol.error_reply(seq, rejection.code, rejection.message, rejection.rule)
        traceback.print_exc(file=sys.stderr)
        return protocol.error_reply(
            seq, "internal", f"{type(error).__name__}: {error} (traceback on stderr)"
        )
    if command.result_key is not None:
        return protocol.result_reply(seq, {command.result_key: value})
    if not isinstance(value, dict):
        return protocol.error_reply(seq, "internal", f"{command.name} did not return an object")
    return protocol.result_reply(seq, value)


def main() -> int:
    """Entry point for ``python -m dominokit.conformance.server``."""
    return run_engine_server()


if __name__ == "__main__":
    sys.exit(main())
