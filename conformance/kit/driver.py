"""Talk to an engine in a subprocess through the typed verbs the runner uses.

The driver's one promise is that it never hangs and never lets an engine's misbehaviour pass
unnamed: every request has a deadline, and each way an engine can fail is its own exception
(``EngineCrashed``, ``EngineStartupFailed``, ``EngineTimeout``, ``MalformedReply``,
``ProtocolViolation``, in ``wire.errors``). After any such failure the engine and every process
it started have been killed (``containment``); the next request (or ``restart()``) starts a
fresh one, and the runner then says ``hello`` again. An error reply is not a failure: it is
raised as ``EngineRejected`` and the process lives on. ``python:`` engines run in a worker
process (``serve.host``), so the same holds for them. The process mechanics are
``process.EngineProcess``'s; an engine object in this process is ``inprocess``'s; which of
them an ``--engine`` value names is ``engines``'.
"""

from __future__ import annotations

import contextlib
import json
import shlex
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from dominokit.conformance.kit.process import EngineProcess, Overlong, exit_words
from dominokit.conformance.wire import protocol
from dominokit.conformance.wire.errors import (
    EngineCrashed,
    EngineFailure,
    EngineRejected,
    EngineStartupFailed,
    EngineTimeout,
    MalformedReply,
    ProtocolViolation,
)
from dominokit.conformance.wire.protocol import MAX_REPLY_LINE_BYTES, JsonObject, MessageError

CLOSE_GRACE = 2.0
"""Seconds ``close()`` waits for an engine to answer ``quit`` and exit before killing it."""

STARTUP_TIMEOUT = 30.0
"""Seconds a fresh engine process may take over its first request (start-up included) when the
per-request timeout is shorter (``--startup-timeout``)."""


@dataclass(frozen=True)
class Hello:
    """An engine's answer to the handshake: who it is and what it supports.

    ``variants`` maps each variant id to its options, each with the values the engine
    supports; a case that needs anything else is "not applicable" to this engine.
    """

    name: str
    version: str
    protocol: int
    variants: dict[str, dict[str, list[Any]]]
    capabilities: tuple[str, ...] = ()
    """The optional features of protocol 2 the engine declared (``protocol.CAPABILITIES``)."""

    @classmethod
    def from_result(cls, result: JsonObject) -> Hello:
        """Build from a schema-checked ``hello`` result."""
        return cls(
            name=result["name"],
            version=result["version"],
            protocol=result["protocol"],
            variants={
                vid: {name: list(values) for name, values in caps["options"].items()}
                for vid, caps in result["variants"].items()
            },
            capabilities=tuple(result.get("capabilities", ())),
        )


class Engine(Protocol):
    """What the runner needs of an engine, wherever it runs.

    ``expect``, where a verb takes it, is the reference's own answer to the same request: an
    answer equal to it needs no schema check (see ``protocol.check_reply``), any other is
    checked in full. It never changes what the verb returns or raises.
    """

    def hello(self) -> Hello: ...
    def new_hand(self, variant: str, options: dict[str, Any], deal: dict[str, Any], *,
                 expect: JsonObject | None = None) -> JsonObject: ...
    def legal(self) -> list[str]: ...
    def apply(self, action: str, *, expect: list[JsonObject] | None = None
              ) -> list[JsonObject]: ...
    def state(self, *, expect: JsonObject | None = None) -> JsonObject: ...
    def new_match(self, variant: str, options: dict[str, Any], first_starter: int, *,
                  expect: JsonObject | None = None) -> JsonObject: ...
    def next_hand(self, deal: dict[str, Any], *, expect: JsonObject | None = None
                  ) -> JsonObject: ...
    def match_state(self, *, expect: JsonObject | None = None) -> JsonObject: ...
    def undo(self, *, expect: JsonObject | None = None) -> JsonObject: ...
    def restart(self) -> None: ...
    def close(self) -> None: ...


@runtime_checkable
class RawLines(Protocol):
    """An engine that reads lines, so the kit can send it one that is not a request at all
    (the error-path cases check the answer to a line that is not JSON). In-process engines
    read no lines and lack it."""

    reads_its_own_lines: bool
    """False when the kit's own server frames the lines for the engine (a ``python:`` engine
    in its worker): a line that is not JSON then tests the kit, not the engine."""

    def exchange_raw(self, line: bytes) -> JsonObject: ...


class Verbs:
    """The typed verbs, written once over ``_call`` (which returns a checked result); every
    way of reaching an engine (a process, an object in this process) supplies only ``_call``."""

    def _call(self, cmd: str, expect: Any = None, **fields: Any) -> JsonObject:
        raise NotImplementedError

    def hello(self) -> Hello:
        """Handshake; the runner sends it first to every fresh engine. It asks for the newest
        protocol and, when the engine refuses it with ``unsupported`` (an engine of protocol
        1), for each older one in turn; the session then speaks the version the engine took.
        An answer naming another version than the one asked is a ``ProtocolViolation``."""
        for version in sorted(protocol.PROTOCOL_VERSIONS, reverse=True):
            try:
                result = self._call("hello", protocol=version)
            except EngineRejected as refusal:
                if refusal.code == "unsupported" and version > min(protocol.PROTOCOL_VERSIONS):
                    continue
                raise
            if result["protocol"] != version:
                raise ProtocolViolation(f"hello asked for protocol {version}; the engine "
                                        f"answered protocol {result['protocol']}")
            return Hello.from_result(result)
        raise AssertionError("unreachable: the oldest version's refusal is raised")

    def new_hand(self, variant: str, options: dict[str, Any], deal: dict[str, Any], *,
                 expect: JsonObject | None = None) -> JsonObject:
        """Start a standalone hand; returns its state."""
        state: JsonObject = self._call("new_hand", expect, variant=variant, options=options,
                                       deal=deal)["state"]
        return state

    def legal(self) -> list[str]:
        """Every legal action of the current hand (the kit compares them as a set)."""
        actions: list[str] = self._call("legal")["actions"]
        return actions

    def apply(self, action: str, *, expect: list[JsonObject] | None = None
              ) -> list[JsonObject]:
        """Play one action; returns the events it caused."""
        events: list[JsonObject] = self._call("apply", expect, action=action)["events"]
        return events

    def state(self, *, expect: JsonObject | None = None) -> JsonObject:
        """The current hand's canonical state."""
        state: JsonObject = self._call("state", expect)["state"]
        return state

    def new_match(self, variant: str, options: dict[str, Any], first_starter: int, *,
                  expect: JsonObject | None = None) -> JsonObject:
        """Start a match; returns its state (``next`` is the first hand's plan)."""
        match: JsonObject = self._call(
            "new_match", expect, variant=variant, options=options, first_starter=first_starter
        )["match"]
        return match

    def next_hand(self, deal: dict[str, Any], *, expect: JsonObject | None = None
                  ) -> JsonObject:
        """Start the match's next hand (the engine decides the starter); returns its state."""
        state: JsonObject = self._call("next_hand", expect, deal=deal)["state"]
        return state

    def match_state(self, *, expect: JsonObject | None = None) -> JsonObject:
        """The match's state (after a hand's last ``apply`` it includes that hand)."""
        match: JsonObject = self._call("match_state", expect)["match"]
        return match

    def undo(self, *, expect: JsonObject | None = None) -> JsonObject:
        """Take back the last accepted ``apply`` (protocol 2, an engine declaring ``undo``);
        returns the state before it."""
        state: JsonObject = self._call("undo", expect)["state"]
        return state


def read_reply(line: bytes) -> JsonObject:
    """One line an engine printed, as a JSON object; anything else is a ``MalformedReply``.

    The line is measured, decoded and its nesting counted before it is parsed
    (``protocol.parse_message``), so no line, however deep or long, costs more than its size;
    the failure names the limit or the fault, and the start of the line.
    """
    try:
        return protocol.parse_message(line, MAX_REPLY_LINE_BYTES)
    except MessageError as error:
        hint = "" if line.lstrip()[:1] == b"{" else (
            " (an engine must print only replies on stdout; logs go to stderr)")
        raise MalformedReply(f"reply is not a protocol message: {error}{hint}: "
                             f"{_shorten(line)}") from None


def checked_result(line: bytes, cmd: str, seq: int, expect: Any) -> JsonObject:
    """The checked result of the reply ``line`` to request ``seq``: read and checked in full,
    unless it is the very line the expected answer makes (``protocol.expected_line``)."""
    if expect is not None and line == protocol.expected_line(cmd, seq, expect):
        result: JsonObject = json.loads(line)["result"]
        return result
    return protocol.check_reply(read_reply(line), cmd, seq, expect)


def _shorten(data: bytes, limit: int = 200) -> str:
    text = data[:limit + 1].decode("utf-8", "replace").rstrip("\r\n")
    return repr(text if len(text) <= limit else text[:limit] + "...")


class SubprocessEngine(Verbs):
    """An engine run as a child process speaking the protocol on its stdin/stdout.

    The process starts on the first request. ``timeout`` bounds each request, from writing it
    to reading the whole reply line; a fresh process's first request is bounded by
    ``startup_timeout`` instead when that is longer, because starting an interpreter or a
    runtime can take longer than answering, above all on a loaded machine, and a hang there
    must not be told from a slow start by a race. stderr is drained all the time; its last
    ``STDERR_TAIL_BYTES`` go into failure details. ``env``, when given, is the engine's whole
    environment (else this process's).
    """

    def __init__(self, argv: Sequence[str], timeout: float = 10.0,
                 env: Mapping[str, str] | None = None, *,
                 reads_its_own_lines: bool = True,
                 startup_timeout: float = STARTUP_TIMEOUT) -> None:
        if not argv:
            raise ValueError("an engine command line needs at least a program")
        self.argv = list(argv)
        self.timeout = timeout
        self.startup_timeout = startup_timeout
        self.env = None if env is None else dict(env)
        self.reads_its_own_lines = reads_its_own_lines
        self._proc: EngineProcess | None = None
        self._seq = 0
        self._pending = False

    def __repr__(self) -> str:
        return f"SubprocessEngine({self.argv!r}, timeout={self.timeout!r})"

    def __enter__(self) -> SubprocessEngine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def pid(self) -> int | None:
        """The running engine's process id (None before the first request or after a failure)."""
        return None if self._proc is None else self._proc.popen.pid

    def _start(self) -> EngineProcess:
        if self._pending and self._proc is not None:
            # The last request never finished (an exception from a signal handler cut it
            # short): its reply may still come, so this process cannot be trusted any more.
            self._discard(self._proc)
        self._pending = False
        if self._proc is None:
            try:
                self._proc = EngineProcess(self.argv, self.env)
            except OSError as error:
                raise EngineStartupFailed(
                    f"cannot start engine {shlex.join(self.argv)}: {error}"
                ) from None
            self._seq = 0
        return self._proc

    def _allowed(self, proc: EngineProcess) -> float:
        """Seconds the next request may take: the timeout, or the start-up allowance for a
        fresh process's first request when that is longer."""
        return self.timeout if proc.replied else max(self.timeout, self.startup_timeout)

    def _call(self, cmd: str, expect: Any = None, **fields: Any) -> JsonObject:
        proc = self._start()
        self._seq += 1
        seq = self._seq
        data = protocol.encode(protocol.request(seq, cmd, **fields)).encode("ascii")
        return self._round_trip(proc, data, f"{cmd!r} (seq {seq})", cmd, seq,
                                lambda line: checked_result(line, cmd, seq, expect))

    def exchange_raw(self, line: bytes) -> JsonObject:
        """Send ``line`` as it is (a newline added) and return the reply, checked only for
        being one protocol message: a line that is not a request has no seq to check, and the
        reply is the caller's to judge. Failures are raised and handled as for any request."""
        proc = self._start()
        what = f"the raw line {line[:60]!r}"
        return self._round_trip(proc, line.rstrip(b"\n") + b"\n", what, what, 0, read_reply)

    def _round_trip(self, proc: EngineProcess, data: bytes, what: str, cmd: str, seq: int,
                    read: Callable[[bytes], JsonObject]) -> JsonObject:
        """Send ``data``, wait for the reply line within the allowed time and ``read`` it. On
        any failure (``read``'s checks included) the engine is killed and the failure carries
        the end of its stderr; a timeout says how long it was given."""
        allowed = self._allowed(proc)
        deadline = time.monotonic() + allowed
        self._pending = True
        try:
            line = self._exchange(proc, data, deadline, cmd, seq)
            proc.replied = True
            self._pending = False
            result = read(line)
            if time.monotonic() > deadline:  # reading and checking a reply count as answering
                raise EngineTimeout("the reply came, but reading and checking it took the "
                                    "rest of the time")
            return result
        except EngineFailure as failure:
            if isinstance(failure, EngineTimeout):
                failure = EngineTimeout(f"no reply to {what} within {allowed:g} s "
                                        f"({failure.reason}); engine killed"
                                        f"{_flush_hint(proc)}")
            self._discard(proc)
            failure.attach_stderr(proc.stderr.text())
            raise failure from None

    def _exchange(self, proc: EngineProcess, data: bytes, deadline: float, cmd: str,
                  seq: int) -> bytes:
        if not proc.send(data, deadline):
            raise self._exited(proc, cmd, seq)
        line = proc.receive(deadline)
        if isinstance(line, Overlong):
            raise MalformedReply(f"reply line to {cmd!r} (seq {seq}) is longer than the limit "
                                 f"of {MAX_REPLY_LINE_BYTES} bytes")
        if line is None:
            raise self._exited(proc, cmd, seq)
        return line

    def _exited(self, proc: EngineProcess, cmd: str, seq: int) -> EngineCrashed:
        code = proc.exit_code(wait=1.0)
        status = exit_words(code)
        if not proc.replied:
            return EngineStartupFailed(
                f"engine {status} before answering its first request ({cmd!r})", returncode=code
            )
        return EngineCrashed(
            f"engine {status} while answering {cmd!r} (seq {seq})", returncode=code
        )

    def _discard(self, proc: EngineProcess) -> None:
        proc.kill()
        if self._proc is proc:
            self._proc = None
        self._pending = False

    def restart(self) -> None:
        """Kill the engine; the next request starts a fresh process (then say ``hello``)."""
        if self._proc is not None:
            self._discard(self._proc)

    def close(self) -> None:
        """End the engine and everything it started; never raises, and safe to call again.

        An engine between requests is asked to ``quit`` and given CLOSE_GRACE seconds; one
        whose last request was cut short (a signal arrived while the kit waited) cannot read a
        ``quit`` in order and is killed at once. Either way the whole tree is killed last.
        If an exception interrupts ``close`` itself, calling it again finishes the job.
        """
        proc = self._proc
        if proc is None:
            return
        try:
            if not self._pending and proc.popen.poll() is None:
                deadline = time.monotonic() + min(self.timeout, CLOSE_GRACE)
                self._seq += 1
                quit_line = protocol.encode(protocol.quit_request(self._seq)).encode("ascii")
                with contextlib.suppress(Exception):
                    if proc.send(quit_line, deadline):
                        proc.receive(deadline)
                        proc.exit_code(wait=max(0.0, deadline - time.monotonic()))
        finally:
            self._discard(proc)


FLUSH_HINT = ("; it has not answered a single request yet: if it wrote its reply, the reply "
              "may be stuck in its stdout buffer (a pipe is not a terminal, so output is "
              "buffered): flush after every line (Python print(..., flush=True), C "
              "fflush(stdout), Go a bufio.Writer's Flush)")


def _flush_hint(proc: EngineProcess) -> str:
    """The likeliest reason an engine that never replied is silent, when it never has."""
    return "" if proc.replied else FLUSH_HINT
