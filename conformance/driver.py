"""Talk to any engine, in a subprocess or in-process, through the typed verbs the runner uses.

The driver's one promise is that it never hangs and never lets an engine's misbehaviour pass
unnamed: every request has a deadline, and each way an engine can fail is its own exception
(``EngineCrashed``, ``EngineStartupFailed``, ``EngineTimeout``, ``MalformedReply``,
``ProtocolViolation``). After any such failure the engine and every process it started have
been killed (``containment``); the next request (or ``restart()``) starts a fresh one, and the
runner then says ``hello`` again. An error reply is not a failure: it is raised as
``EngineRejected`` and the process lives on. ``python:`` engines run in a worker process
(``host``), so the same holds for them.
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import os
import select
import selectors
import shlex
import signal
import subprocess
import sys
import threading
import time
import traceback
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from dominokit.conformance import containment, host, protocol
from dominokit.conformance.errors import (
    EngineCrashed,
    EngineFailure,
    EngineRaised,
    EngineRejected,
    EngineStartupFailed,
    EngineTimeout,
    FailureKind,
    MalformedReply,
    ProtocolViolation,
    as_rejection,
)
from dominokit.conformance.protocol import MAX_REPLY_LINE_BYTES, JsonObject, MessageError

__all__ = [
    "STDERR_TAIL_BYTES",
    "Engine",
    "EngineCrashed",
    "EngineRaised",
    "EngineFailure",
    "EngineRejected",
    "EngineStartupFailed",
    "EngineTimeout",
    "FailureKind",
    "Hello",
    "InProcessEngine",
    "MalformedReply",
    "ProtocolViolation",
    "RawLines",
    "SubprocessEngine",
    "open_engine",
    "read_reply",
]

STDERR_TAIL_BYTES = 4096
"""How much of an engine's stderr is kept (the end of it) for failure details."""

CLOSE_GRACE = 2.0
"""Seconds ``close()`` waits for an engine to answer ``quit`` and exit before killing it."""

STARTUP_TIMEOUT = 30.0
"""Seconds a fresh engine process may take over its first request (start-up included) when the
per-request timeout is shorter (``--startup-timeout``)."""

REFERENCE_SERVER = (sys.executable, "-m", "dominokit.conformance.server")


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


class _Verbs:
    """The typed verbs, written once over ``_call`` (which returns a checked result)."""

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


@dataclass(frozen=True)
class _Overlong:
    """Stands for a reply line longer than ``MAX_REPLY_LINE_BYTES``."""


_Line = bytes | _Overlong | None  # None: the engine exited, or closed its stdout


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


def _result(line: bytes, cmd: str, seq: int, expect: Any) -> JsonObject:
    """The checked result of the reply ``line`` to request ``seq``: read and checked in full,
    unless it is the very line the expected answer makes (``protocol.expected_line``)."""
    if expect is not None and line == protocol.expected_line(cmd, seq, expect):
        result: JsonObject = json.loads(line)["result"]
        return result
    return protocol.check_reply(read_reply(line), cmd, seq, expect)


def _shorten(data: bytes, limit: int = 200) -> str:
    text = data[:limit + 1].decode("utf-8", "replace").rstrip("\r\n")
    return repr(text if len(text) <= limit else text[:limit] + "...")


def _exit_words(code: int | None) -> str:
    if code is None:
        return "closed its stdout"
    if code < 0:
        with contextlib.suppress(ValueError):
            return f"was killed by signal {signal.Signals(-code).name}"
        return f"was killed by signal {-code}"
    return f"exited with status {code}"


class _StderrTail:
    """The last STDERR_TAIL_BYTES of a stream, read continuously so the engine never blocks
    on a full stderr pipe."""

    def __init__(self) -> None:
        self._data = bytearray()
        self._lock = threading.Lock()

    def pump(self, stream: io.BufferedReader) -> None:
        with contextlib.suppress(OSError, ValueError):
            while chunk := stream.read1(65536):
                with self._lock:
                    self._data += chunk
                    del self._data[:-STDERR_TAIL_BYTES]
        with contextlib.suppress(OSError):
            stream.close()

    def text(self) -> str:
        with self._lock:
            return self._data.decode("utf-8", "replace")


def _exit_watch(pid: int) -> int | None:
    """A descriptor that becomes readable when process ``pid`` exits (Linux pidfd), or None."""
    pidfd_open = getattr(os, "pidfd_open", None)
    if pidfd_open is None:
        return None
    try:
        fd: int = pidfd_open(pid)
    except OSError:
        return None
    return fd


class _Process:
    """One running engine: the process (in a session of its own, with everything it starts
    contained by ``containment``), its pipes, and the reply lines read so far.

    stdout is read in the caller's thread, waiting on the pipe and on the process's exit
    together: an engine that exits is noticed at once even while a helper it started holds
    its stdout open, and whatever it wrote before exiting is still read first.
    """

    def __init__(self, argv: Sequence[str], env: Mapping[str, str] | None) -> None:
        self.engine_id = containment.new_engine_id()
        containment.become_subreaper()
        environment = dict(os.environ if env is None else env)
        environment[containment.ENGINE_ID_VARIABLE] = self.engine_id
        self.popen = subprocess.Popen(
            list(argv),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
            env=environment,
        )
        containment.register(self.engine_id, self.popen)
        assert self.popen.stdin and self.popen.stdout and self.popen.stderr
        stderr = self.popen.stderr
        assert isinstance(stderr, io.BufferedReader)
        self.stdin_fd = self.popen.stdin.fileno()
        self.stdout_fd = self.popen.stdout.fileno()
        os.set_blocking(self.stdin_fd, False)
        os.set_blocking(self.stdout_fd, False)
        self.exit_fd = _exit_watch(self.popen.pid)
        self._replies = _Waiter(self.stdout_fd, self.exit_fd)
        self.replied = False
        self._buffer = bytearray()
        self._scanned = 0
        self._eof = False
        self._exited = False
        self.stderr = _StderrTail()
        self._stderr_reader = threading.Thread(target=self.stderr.pump, args=(stderr,),
                                               daemon=True)
        self._stderr_reader.start()

    def send(self, data: bytes, deadline: float) -> bool:
        """Write all of ``data`` before ``deadline``; False if the engine's stdin is closed or
        the engine has exited.

        A request fits in the pipe's buffer, so one write almost always takes it whole; only
        the rest of a longer one waits for the engine to read, on a selector made then."""
        try:
            written = os.write(self.stdin_fd, data)
        except BlockingIOError:
            written = 0
        except (OSError, ValueError):
            return False
        if written == len(data):
            return True
        view = memoryview(data)[written:]
        with selectors.DefaultSelector() as selector:
            selector.register(self.stdin_fd, selectors.EVENT_WRITE)
            if self.exit_fd is not None:
                selector.register(self.exit_fd, selectors.EVENT_READ)
            while view:
                try:
                    view = view[os.write(self.stdin_fd, view):]
                except BlockingIOError:
                    pass
                except (OSError, ValueError):
                    return False
                if view:
                    remaining = deadline - time.monotonic()
                    if remaining <= 0:
                        raise EngineTimeout("engine did not read its stdin before the deadline")
                    ready = selector.select(min(remaining, _POLL))
                    if self._has_exited(ready):
                        return False
        return True

    def receive(self, deadline: float) -> _Line:
        """The next stdout line; None once the engine exited (or closed stdout) without one;
        raises EngineTimeout when none arrives before ``deadline``."""
        while (line := self._take_line()) is None:
            if self._eof or self._exited:
                return None
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise EngineTimeout("no complete reply line before the deadline")
            output, exited = self._replies.wait(remaining if self.exit_fd is not None
                                                else min(remaining, _POLL))
            if output:
                self._read(once=True)
            if exited or (self.exit_fd is None and self.popen.poll() is not None):
                self._read(once=False)  # what it wrote before exiting is in the pipe
                self._exited = True
        return line

    def _has_exited(self, ready: list[tuple[selectors.SelectorKey, int]]) -> bool:
        if self.exit_fd is not None:
            return any(key.fd == self.exit_fd for key, _ in ready)
        return self.popen.poll() is not None

    def _read(self, *, once: bool) -> None:
        """Read what the pipe holds now (one chunk, or until empty), up to just over a line."""
        while len(self._buffer) <= MAX_REPLY_LINE_BYTES:
            try:
                chunk = os.read(self.stdout_fd, _CHUNK)
            except BlockingIOError:
                return
            except OSError:
                chunk = b""
            if not chunk:
                self._eof = True
                return
            self._buffer += chunk
            if once:
                return

    def _take_line(self) -> _Line:
        end = self._buffer.find(b"\n", self._scanned)
        if end < 0:
            self._scanned = len(self._buffer)
            return _Overlong() if self._scanned > MAX_REPLY_LINE_BYTES else None
        if end + 1 == len(self._buffer):  # the usual case: the buffer holds one whole line
            line = bytes(self._buffer)
            self._buffer.clear()
        else:
            line = bytes(self._buffer[:end + 1])
            del self._buffer[:end + 1]
        self._scanned = 0
        return _Overlong() if len(line) > MAX_REPLY_LINE_BYTES else line

    def exit_code(self, wait: float) -> int | None:
        """The exit status once the process ends within ``wait`` seconds, else None."""
        try:
            return self.popen.wait(timeout=wait)
        except subprocess.TimeoutExpired:
            return None

    def kill(self) -> None:
        """Kill the engine and every process it started, reap them, and release the pipes;
        idempotent, and safe after an interrupted request."""
        containment.kill_tree(self.popen, self.engine_id)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.popen.wait(timeout=containment.REAP_WITHIN)
        containment.unregister(self.engine_id)
        self._stderr_reader.join(timeout=1.0)
        for stream in (self.popen.stdin, self.popen.stdout):
            with contextlib.suppress(OSError):
                assert stream is not None
                stream.close()
        if self.exit_fd is not None:
            with contextlib.suppress(OSError):
                os.close(self.exit_fd)
            self.exit_fd = None


_POLL = 0.05
"""Seconds between looks at the process where no exit descriptor exists (not Linux)."""


class _Waiter:
    """Waits for an engine's stdout to be readable or for the engine to exit, whichever comes
    first. Made once per process, so a request costs one ``poll`` call, not a selector's
    creation, registrations and release."""

    def __init__(self, stdout_fd: int, exit_fd: int | None) -> None:
        self.stdout_fd = stdout_fd
        self.exit_fd = exit_fd
        self._poll = select.poll()
        self._poll.register(stdout_fd, select.POLLIN)
        if exit_fd is not None:
            self._poll.register(exit_fd, select.POLLIN)

    def wait(self, seconds: float) -> tuple[bool, bool]:
        """(stdout has data or was closed, the engine exited) within ``seconds``."""
        try:
            ready = self._poll.poll(max(0, math.ceil(seconds * 1000)))
        except InterruptedError:  # pragma: no cover - Python retries poll itself (PEP 475)
            return False, False
        output = exited = False
        for fd, _ in ready:
            if fd == self.stdout_fd:
                output = True
            elif fd == self.exit_fd:
                exited = True
        return output, exited

_CHUNK = 64 * 1024
"""Bytes read from an engine's stdout at a time: a Linux pipe's whole buffer. ``os.read``
allocates the size it is asked for before it reads, so asking for a megabyte per reply line
cost more than the rest of a request's round trip (about 35 us against 2 us)."""


def python_engine_environment() -> dict[str, str]:
    """The environment of a worker hosting a Python engine: this one, with ``PYTHONPATH`` set
    to this process's ``sys.path`` (its current directory for the empty entry), so the worker
    imports what this process can."""
    path = [entry or os.getcwd() for entry in sys.path]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(path)}


class SubprocessEngine(_Verbs):
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
        self._proc: _Process | None = None
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

    def _start(self) -> _Process:
        if self._pending and self._proc is not None:
            # The last request never finished (an exception from a signal handler cut it
            # short): its reply may still come, so this process cannot be trusted any more.
            self._discard(self._proc)
        self._pending = False
        if self._proc is None:
            try:
                self._proc = _Process(self.argv, self.env)
            except OSError as error:
                raise EngineStartupFailed(
                    f"cannot start engine {shlex.join(self.argv)}: {error}"
                ) from None
            self._seq = 0
        return self._proc

    def _allowed(self, proc: _Process) -> float:
        """Seconds the next request may take: the timeout, or the start-up allowance for a
        fresh process's first request when that is longer."""
        return self.timeout if proc.replied else max(self.timeout, self.startup_timeout)

    def _call(self, cmd: str, expect: Any = None, **fields: Any) -> JsonObject:
        proc = self._start()
        self._seq += 1
        seq = self._seq
        data = protocol.encode(protocol.request(seq, cmd, **fields)).encode("ascii")
        allowed = self._allowed(proc)
        deadline = time.monotonic() + allowed
        self._pending = True
        try:
            line = self._exchange(proc, data, deadline, cmd, seq)
            proc.replied = True
            self._pending = False
            return _result(line, cmd, seq, expect)
        except EngineFailure as failure:
            if isinstance(failure, EngineTimeout):
                failure = EngineTimeout(
                    f"no reply to {cmd!r} (seq {seq}) within {allowed:g} s "
                    f"({failure.reason}); engine killed{_flush_hint(proc)}"
                )
            self._discard(proc)
            failure.attach_stderr(proc.stderr.text())
            raise failure from None

    def exchange_raw(self, line: bytes) -> JsonObject:
        """Send ``line`` as it is (a newline added) and return the reply, checked only for
        being one protocol message: a line that is not a request has no seq to check, and the
        reply is the caller's to judge. Failures are raised and handled as for any request."""
        proc = self._start()
        allowed = self._allowed(proc)
        deadline = time.monotonic() + allowed
        what = f"the raw line {line[:60]!r}"
        self._pending = True
        try:
            reply = read_reply(
                self._exchange(proc, line.rstrip(b"\n") + b"\n", deadline, what, 0))
            proc.replied = True
            self._pending = False
            return reply
        except EngineFailure as failure:
            if isinstance(failure, EngineTimeout):
                failure = EngineTimeout(f"no reply to {what} within {allowed:g} s "
                                        f"({failure.reason}); engine killed"
                                        f"{_flush_hint(proc)}")
            self._discard(proc)
            failure.attach_stderr(proc.stderr.text())
            raise failure from None

    def _exchange(self, proc: _Process, data: bytes, deadline: float, cmd: str, seq: int) -> bytes:
        if not proc.send(data, deadline):
            raise self._exited(proc, cmd, seq)
        line = proc.receive(deadline)
        if isinstance(line, _Overlong):
            raise MalformedReply(f"reply line to {cmd!r} (seq {seq}) is longer than the limit "
                                 f"of {MAX_REPLY_LINE_BYTES} bytes")
        if line is None:
            raise self._exited(proc, cmd, seq)
        return line

    def _exited(self, proc: _Process, cmd: str, seq: int) -> EngineCrashed:
        code = proc.exit_code(wait=1.0)
        status = _exit_words(code)
        if not proc.replied:
            return EngineStartupFailed(
                f"engine {status} before answering its first request ({cmd!r})", returncode=code
            )
        return EngineCrashed(
            f"engine {status} while answering {cmd!r} (seq {seq})", returncode=code
        )

    def _discard(self, proc: _Process) -> None:
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


def _flush_hint(proc: _Process) -> str:
    """The likeliest reason an engine that never replied is silent, when it never has."""
    return "" if proc.replied else FLUSH_HINT


class InProcessEngine(_Verbs):
    """A Python engine object driven directly, with the same checks as a subprocess engine.

    Requests and results go through a JSON round trip and the reply checks, so an in-process
    engine is held to the protocol too; an exception that is not a refusal, ``SystemExit``
    included, becomes ``EngineCrashed`` with its traceback (``KeyboardInterrupt`` still
    propagates: it is the user's, not the engine's). There is no timeout: the object runs in
    this thread. This is the direct Python API, for tests and benchmarks; ``--engine
    python:...`` hosts the object in a worker process instead (``open_engine``). ``factory``,
    when given, rebuilds the object on ``restart()``.
    """

    def __init__(self, obj: object, factory: Callable[[], object] | None = None) -> None:
        self.obj = obj
        self.factory = factory
        self._seq = 0
        self._version = protocol.PROTOCOL_VERSION
        self._capabilities: frozenset[str] | None = None

    def __repr__(self) -> str:
        return f"InProcessEngine({self.obj!r})"

    def __enter__(self) -> InProcessEngine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _call(self, cmd: str, expect: Any = None, **fields: Any) -> JsonObject:
        self._seq += 1
        seq = self._seq
        command = protocol.COMMANDS[cmd]
        if cmd == "quit":
            return {}
        if not protocol.known_command(cmd, self._version, self._capabilities):
            raise EngineRejected("unsupported", f"unknown command {cmd!r}")
        verb = getattr(self.obj, cmd, None)
        if not callable(verb):
            raise EngineRejected("unsupported", f"the engine object has no {cmd!r} verb")
        arguments = [json.loads(json.dumps(fields[name])) for name in command.params]
        try:
            value = verb(*arguments)
        except SystemExit as error:
            code = error.code if isinstance(error.code, int) else None
            raise EngineCrashed(
                f"engine called sys.exit({error.code!r}) on {cmd!r}:\n{traceback.format_exc()}",
                returncode=code,
            ) from None
        except Exception as error:
            rejection = as_rejection(error)
            if rejection is None:
                raise EngineRaised(
                    f"engine raised on {cmd!r}:\n{traceback.format_exc()}"
                ) from error
            reply = protocol.error_reply(seq, rejection.code, rejection.message, rejection.rule)
        else:
            result = value if command.result_key is None else {command.result_key: value}
            reply = {"seq": seq, "result": result}
            if cmd == "hello" and isinstance(result, dict):
                try:  # the object names its newest version; the session, the one asked
                    reply["result"] = protocol.hello_for(result, fields["protocol"])
                    self._version = fields["protocol"]
                    self._capabilities = protocol.declared(reply["result"])
                except EngineRejected as refusal:
                    reply = protocol.error_reply(seq, refusal.code, refusal.message)
        try:
            line = protocol.encode(reply).encode("ascii")
        except (TypeError, ValueError, RecursionError) as error:
            raise ProtocolViolation(f"result of {cmd!r} is not JSON: {error}") from None
        return _result(line, cmd, seq, expect)

    def restart(self) -> None:
        """Rebuild the object when a factory is known (else keep it: the runner resets it)."""
        self._version, self._capabilities = protocol.PROTOCOL_VERSION, None
        if self.factory is not None:
            self.obj = self.factory()

    def close(self) -> None:
        """Nothing to release; kept for the Engine protocol."""


HOST = (sys.executable, "-m", "dominokit.conformance.host")
"""The worker that serves a ``python:`` engine (``conformance/host.py``)."""


def open_engine(spec: str | None, timeout: float = 10.0,
                startup_timeout: float = STARTUP_TIMEOUT) -> Engine:
    """The engine named by a ``--engine`` value.

    None: the bundled reference served as a subprocess (so the default run exercises the
    protocol end to end); ``python:MODULE:FACTORY``: the object ``FACTORY()`` builds, served by
    a worker process (``conformance/host.py``) that imports what this process can, so hangs
    and exits are the engine's and no code of it runs in the kit; anything else: a command
    line, split like a POSIX shell would.
    """
    if spec is None:
        return SubprocessEngine(list(REFERENCE_SERVER), timeout,
                                startup_timeout=startup_timeout)
    if spec.startswith("python:"):
        target = spec.removeprefix("python:")
        try:
            host.parse_target(target)
        except ValueError:
            raise EngineStartupFailed(f"expected python:MODULE:FACTORY, got {spec!r}") from None
        return SubprocessEngine([*HOST, target], timeout, env=python_engine_environment(),
                                reads_its_own_lines=False, startup_timeout=startup_timeout)
    try:
        argv = shlex.split(spec)
    except ValueError as error:
        raise EngineStartupFailed(f"cannot parse engine command line {spec!r}: {error}") from None
    if not argv:
        raise EngineStartupFailed("empty engine command line")
    return SubprocessEngine(argv, timeout, startup_timeout=startup_timeout)
