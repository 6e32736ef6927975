"""Serve an engine object over the protocol (JSON lines on stdin/stdout): ``dominokit engine``.

The server owns the framing and never lets bad input crash it: a line that is not a request
gets an error reply (seq null when the seq cannot be read) and the loop goes on. Lines are read
bounded and parsed by ``protocol.parse_message``, so an over-long, over-deep or duplicate-key
line costs no more than the limits allow; size limits on a deal and the options are applied
before the schema, and every error message is capped, so no reply grows with its request. The engine
object owns the game; it answers through its verbs (see ``protocol.COMMANDS``) and refuses
with ``EngineRejected``. Anything else it raises becomes an ``internal`` error reply, with the
traceback on stderr, because stdout must carry replies only.

The server keeps the session's protocol version: the newest until a ``hello`` settles it. In a
protocol-1 session ``undo`` is an unknown command and ``hello`` carries no capabilities, so a
protocol-1 session is exactly protocol 1 (``protocol.hello_for`` answers for the object); in a
protocol-2 session ``undo`` is unknown unless the object's ``hello`` declared it.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import IO, Any

from dominokit.conformance.serve.dispatch import Session, VerbRaised, dispatch
from dominokit.conformance.wire import protocol, validation
from dominokit.conformance.wire.protocol import JsonObject
from dominokit.spec.spec import schema

MAX_ERROR_MESSAGE_CHARS = 1000
"""The longest error message the server writes; a longer one is cut and says how much was cut."""


def run_engine_server(
    obj: object | None = None, stdin: IO[Any] | None = None, stdout: IO[str] | None = None
) -> int:
    """Answer requests read from ``stdin`` until ``quit`` or end of input; returns 0.

    ``obj`` defaults to a fresh ``ReferenceEngine``; ``stdin``/``stdout`` default to the
    process's own (resolved at call time, so tests may swap ``sys.stdin``).
    """
    if obj is None:
        from dominokit.conformance.serve.refengine import ReferenceEngine

        obj = ReferenceEngine()
    source = sys.stdin if stdin is None else stdin
    sink = sys.stdout if stdout is None else stdout
    session = Session()
    for line in _lines(source, protocol.MAX_REQUEST_LINE_BYTES):
        if isinstance(line, _Overlong):
            reply, done = _unreadable(f"line is over the limit of "
                                      f"{protocol.MAX_REQUEST_LINE_BYTES} bytes "
                                      f"({line.size} bytes)"), False
        elif not line.strip():
            continue
        else:
            reply, done = _answer(obj, line, session)
        try:
            text = protocol.encode(_bounded(reply))
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


@dataclass(frozen=True)
class _Overlong:
    """A line longer than the limit; only its size was kept, its bytes were dropped."""

    size: int


def _lines(source: IO[Any], limit: int) -> Iterator[bytes | str | _Overlong]:
    """Each line of ``source`` (its newline included), read at most ``limit + 1`` units at a
    time, so that a hostile line never sits in memory whole: a longer line is skipped to its
    end and reported as ``_Overlong``. A binary ``buffer`` is read when there is one (the
    parser then refuses bytes that are not UTF-8); a text stream is read as text."""
    read = getattr(getattr(source, "buffer", None), "readline", None) or source.readline
    while True:
        chunk = read(limit + 1)
        if not chunk:
            return
        if len(chunk) <= limit or chunk[-1:] in (b"\n", "\n"):
            yield chunk
            continue
        size = len(chunk)
        while chunk and chunk[-1:] not in (b"\n", "\n"):
            chunk = read(limit + 1)
            size += len(chunk)
        yield _Overlong(size)


def _unreadable(why: str) -> JsonObject:
    """The reply to a line that is not a request one can read a seq from."""
    return protocol.error_reply(None, "bad_request", f"unreadable request: {why}")


def _bounded(reply: JsonObject) -> JsonObject:
    """``reply`` with an error message cut to ``MAX_ERROR_MESSAGE_CHARS``: a message may quote
    the request, and a reply must never grow with a hostile request."""
    error = reply.get("error")
    if not isinstance(error, dict):
        return reply
    message = str(error.get("message", ""))
    if len(message) <= MAX_ERROR_MESSAGE_CHARS:
        return reply
    cut = MAX_ERROR_MESSAGE_CHARS - 40
    more = len(message) - cut
    return {**reply, "error": {**error, "message": f"{message[:cut]}... ({more} more characters)"}}


def _answer(obj: object, line: bytes | str, session: Session) -> tuple[JsonObject, bool]:
    """The reply to one request line, and whether the server should stop after sending it.

    The order of the checks is the contract's (spec/protocol.md, "The order of the checks"):
    the line, the seq, the command, the sizes, the fields; then the engine object checks the
    variant, the options, the state and the deal."""
    try:
        message = protocol.parse_message(line, protocol.MAX_REQUEST_LINE_BYTES)
    except protocol.MessageError as error:
        return _unreadable(str(error)), False
    seq = message.get("seq")
    if not isinstance(seq, int) or isinstance(seq, bool) or seq < 0:
        return _unreadable("it has no seq (a non-negative integer)"), False
    cmd = message.get("cmd")
    if not isinstance(cmd, str) or not protocol.known_command(cmd, session.version,
                                                              session.capabilities):
        return protocol.error_reply(seq, "unsupported", f"unknown command {cmd!r}"), False
    problem = _oversized(message) or validation.request_problem(message)
    if problem is not None:
        return protocol.error_reply(seq, "bad_request", problem), False
    if cmd == "quit":
        return protocol.result_reply(seq, {}), True
    try:
        # A stray print inside the engine must not corrupt the reply stream.
        with contextlib.redirect_stdout(sys.stderr):
            reply = dispatch(obj, session, seq, cmd, message)
    except VerbRaised as raised:
        sys.stderr.write(raised.trace)
        return protocol.error_reply(seq, "internal", f"{raised} (traceback on stderr)"), False
    if "result" in reply and not isinstance(reply["result"], dict):
        return protocol.error_reply(seq, "internal", f"{cmd} did not return an object"), False
    return reply, False


def _oversized(message: JsonObject) -> str | None:
    """The schema's size limits on a request's deal lists and options, applied before the rest
    of the schema, so that the work spent on a hostile request is bounded by the limits and not
    by its length (a validator visits every item of a list before reporting it too long)."""
    limits = request_limits()
    sized: list[tuple[str, object, int]] = [("$.options", message.get("options"),
                                             limits.options)]
    deal = message.get("deal")
    if isinstance(deal, dict):
        hands = deal.get("hands")
        sized += [("$.deal.hands", hands, 2), ("$.deal.stock", deal.get("stock"), limits.tiles),
                  ("$.deal.out_of_play", deal.get("out_of_play"), limits.tiles)]
        if isinstance(hands, list) and len(hands) <= 2:
            sized += [(f"$.deal.hands[{i}]", hand, limits.tiles) for i, hand in enumerate(hands)]
    for path, value, most in sized:
        if isinstance(value, list | dict) and len(value) > most:
            return f"{path}: has {len(value)} items, more than the limit of {most}"
    return None


@dataclass(frozen=True)
class RequestLimits:
    """Size limits of protocol requests, as the schemas state them (``maxItems`` of a
    deal's tile lists, ``maxProperties`` of ``options``)."""

    tiles: int
    options: int


@cache
def request_limits() -> RequestLimits:
    """The limits read from the schemas, so that the code cannot drift from the contract."""
    deal = schema("deal")
    options = validation.protocol_schema()["$defs"]["options"]
    return RequestLimits(deal["$defs"]["tiles"]["maxItems"], options["maxProperties"])


def main() -> int:
    """Entry point for ``python -m dominokit.conformance.serve.server``."""
    return run_engine_server()


if __name__ == "__main__":
    sys.exit(main())
