"""Talk to any engine, in a subprocess or in-process, through the typed verbs the runner uses.

The driver's one promise is that it never hangs and never lets an engine's misbehaviour pass
unnamed: every request has a deadline, and each way an engine can fail is its own exception
(``EngineCrashed``, ``EngineStartupFailed``, ``EngineTimeout``, ``MalformedReply``,
``ProtocolViolation``). After any such failure the engine process has been killed; the next
request (or ``restart()``) starts a fresh one, and the runner then says ``hello`` again.
An error reply is not a failure: it is raised as ``EngineRejected`` and the process lives on.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import json
import os
import selectors
import shlex
import signal
import subprocess
import sys
import threading
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from dominokit.conformance import protocol
from dominokit.conformance.errors import (
    EngineCrashed,
    EngineFailure,
    EngineRejected,
    EngineStartupFailed,
    EngineTimeout,
    FailureKind,
    MalformedReply,
    ProtocolViolation,
    as_rejection,
)
from dominokit.conformance.protocol import JsonObject

__all__ = [
    "STDERR_TAIL_BYTES",
    "Engine",
    "EngineCrashed",
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
]

STDERR_TAIL_BYTES = 4096
"""How much of an engine's stderr is kept (the end of it) for failure details."""

MAX_LINE_BYTES = 64 * 1024 * 1024
"""A reply line longer than this is malformed (bounds memory against a runaway engine)."""

CLOSE_GRACE = 2.0
"""Seconds ``close()`` waits for an engine to answer ``quit`` and exit before killing it."""

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
    def restart(self) -> None: ...
    def close(self) -> None: ...


@runtime_checkable
class RawLines(Protocol):
    """An engine that reads lines, so the kit can send it one that is not a request at all
    (the error-path cases check the answer to a line that is not JSON). In-process engines
    read no lines and lack it."""

    def exchange_raw(self, line: bytes) -> JsonObject: ...


class _Verbs:
    """The typed verbs, written once over ``_call`` (which returns a checked result)."""

    def _call(self, cmd: str, expect: Any = None, **fields: Any) -> JsonObject:
        raise NotImplementedError

    def hello(self) -> Hello:
        """Handshake; the runner sends it first to every fresh engine."""
        return Hello.from_result(self._call("hello"))

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


@dataclass(frozen=True)
class _Overlong:
    """Stands in the line queue for a line longer than MAX_LINE_BYTES."""


_Line = bytes | _Overlong | None  # None: end of stdout


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


class _LineReader:
    """Reply lines read from a pipe in the caller's own thread, each before a deadline.

    ``select`` waits for data until the deadline and ``os.read`` takes what is there, so a
    request costs no thread hand-off (a reader thread and a queue cost more than an echo
    engine's whole round trip on a loaded machine). A line longer than MAX_LINE_BYTES is
    reported once as ``_Overlong`` and skipped through its newline; the buffer never holds
    more than MAX_LINE_BYTES plus one read.
    """

    CHUNK = 1 << 16

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self._buffer = bytearray()
        self._scanned = 0
        self._skipping = False
        self._eof = False
        self._selector = selectors.DefaultSelector()
        self._selector.register(fd, selectors.EVENT_READ)

    def line(self, deadline: float) -> _Line:
        """The next line (with its newline; the last one may lack it), None at end of
        stdout; raises EngineTimeout when none is complete before ``deadline``."""
        while True:
            found = self._take()
            if found is not None:
                return found
            if self._eof:
                rest, self._buffer = bytes(self._buffer), bytearray()
                return rest if rest and not self._skipping else None
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise EngineTimeout("no complete reply line before the deadline")
            if not self._selector.select(remaining):
                continue
            try:
                chunk = os.read(self.fd, self.CHUNK)
            except OSError:
                chunk = b""
            if chunk:
                self._buffer += chunk
            else:
                self._eof = True

    def _take(self) -> bytes | _Overlong | None:
        end = self._buffer.find(b"\n", self._scanned)
        if end < 0:
            self._scanned = len(self._buffer)
            if self._scanned > MAX_LINE_BYTES and not self._skipping:
                self._skipping = True
                self._clear()
                return _Overlong()
            if self._skipping:
                self._clear()
            return None
        line = bytes(self._buffer[:end + 1])
        del self._buffer[:end + 1]
        self._scanned = 0
        if self._skipping:
            self._skipping = False
            return self._take()
        return _Overlong() if len(line) > MAX_LINE_BYTES else line

    def _clear(self) -> None:
        self._buffer.clear()
        self._scanned = 0

    def close(self) -> None:
        """Forget the pipe (the caller closes it)."""
        with contextlib.suppress(KeyError, ValueError, OSError):
            self._selector.close()


class _Process:
    """One running engine: the process (in its own process group) and its pipe readers."""

    def __init__(self, argv: Sequence[str]) -> None:
        self.popen = subprocess.Popen(
            list(argv),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,  # so a kill reaches the engine's own children too
        )
        assert self.popen.stdin and self.popen.stdout and self.popen.stderr
        stderr = self.popen.stderr
        assert isinstance(stderr, io.BufferedReader)
        self.stdin_fd = self.popen.stdin.fileno()
        os.set_blocking(self.stdin_fd, False)
        self.replied = False
        self.stdout = _LineReader(self.popen.stdout.fileno())
        self.stderr = _StderrTail()
        self._readers = [
            threading.Thread(target=self.stderr.pump, args=(stderr,), daemon=True),
        ]
        for reader in self._readers:
            reader.start()

    def send(self, data: bytes, deadline: float) -> bool:
        """Write all of ``data`` before ``deadline``; False if the engine's stdin is closed."""
        view = memoryview(data)
        with selectors.DefaultSelector() as selector:
            selector.register(self.stdin_fd, selectors.EVENT_WRITE)
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
                    selector.select(remaining)
        return True

    def receive(self, deadline: float) -> _Line:
        """The next stdout line; raises EngineTimeout when none arrives before ``deadline``."""
        return self.stdout.line(deadline)

    def exit_code(self, wait: float) -> int | None:
        """The exit status once the process ends within ``wait`` seconds, else None."""
        try:
            return self.popen.wait(timeout=wait)
        except subprocess.TimeoutExpired:
            return None

    def kill(self) -> None:
        """Kill the whole process group, reap it, and let the readers drain; idempotent."""
        # The group outlives an engine that exited while children it started linger.
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.popen.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.popen.wait(timeout=5.0)
        for reader in self._readers:
            reader.join(timeout=1.0)
        with contextlib.suppress(OSError):
            assert self.popen.stdin is not None and self.popen.stdout is not None
            self.popen.stdin.close()
            self.stdout.close()
            self.popen.stdout.close()


class SubprocessEngine(_Verbs):
    """An engine run as a child process speaking protocol v1 on its stdin/stdout.

    The process starts on the first request. ``timeout`` bounds each request, from writing it
    to reading the whole reply line. stderr is drained all the time; its last
    ``STDERR_TAIL_BYTES`` go into failure details.
    """

    def __init__(self, argv: Sequence[str], timeout: float = 10.0) -> None:
        if not argv:
            raise ValueError("an engine command line needs at least a program")
        self.argv = list(argv)
        self.timeout = timeout
        self._proc: _Process | None = None
        self._seq = 0

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
        if self._proc is None:
            try:
                self._proc = _Process(self.argv)
            except OSError as error:
                raise EngineStartupFailed(
                    f"cannot start engine {shlex.join(self.argv)}: {error}"
                ) from None
            self._seq = 0
        return self._proc

    def _call(self, cmd: str, expect: Any = None, **fields: Any) -> JsonObject:
        proc = self._start()
        self._seq += 1
        seq = self._seq
        data = protocol.encode(protocol.request(seq, cmd, **fields)).encode("ascii")
        deadline = time.monotonic() + self.timeout
        try:
            line = self._exchange(proc, data, deadline, cmd, seq)
            reply = protocol.decode_reply_line(line)
            proc.replied = True
            return protocol.check_reply(reply, cmd, seq, expect)
        except EngineFailure as failure:
            if isinstance(failure, EngineTimeout):
                failure = EngineTimeout(
                    f"no reply to {cmd!r} (seq {seq}) within {self.timeout:g} s "
                    f"({failure.reason}); engine killed"
                )
            self._discard(proc)
            failure.attach_stderr(proc.stderr.text())
            raise failure from None

    def exchange_raw(self, line: bytes) -> JsonObject:
        """Send ``line`` as it is (a newline added) and return the reply, checked only for
        being a JSON object: a line that is not a request has no seq to check, and the reply
        is the caller's to judge. Failures are raised and handled as for any request."""
        proc = self._start()
        deadline = time.monotonic() + self.timeout
        what = f"the raw line {line[:60]!r}"
        try:
            reply = protocol.decode_reply_line(
                self._exchange(proc, line.rstrip(b"\n") + b"\n", deadline, what, 0))
            proc.replied = True
            return reply
        except EngineFailure as failure:
            if isinstance(failure, EngineTimeout):
                failure = EngineTimeout(f"no reply to {what} within {self.timeout:g} s "
                                        f"({failure.reason}); engine killed")
            self._discard(proc)
            failure.attach_stderr(proc.stderr.text())
            raise failure from None

    def _exchange(self, proc: _Process, data: bytes, deadline: float, cmd: str, seq: int) -> bytes:
        if not proc.send(data, deadline):
            raise self._exited(proc, cmd, seq)
        line = proc.receive(deadline)
        if isinstance(line, _Overlong):
            raise MalformedReply(f"reply line to {cmd!r} is longer than {MAX_LINE_BYTES} bytes")
        if line is None:
            raise self._exited(proc, cmd, seq)
        return line

    def _exited(self, proc: _Process, cmd: str, seq: int) -> EngineCrashed:
        code = proc.exit_code(wait=1.0)
        status = "closed its stdout" if code is None else f"exited with status {code}"
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

    def restart(self) -> None:
        """Kill the engine; the next request starts a fresh process (then say ``hello``)."""
        if self._proc is not None:
            self._discard(self._proc)

    def close(self) -> None:
        """Ask the engine to quit, give it CLOSE_GRACE seconds, then kill it. Never raises."""
        proc = self._proc
        if proc is None:
            return
        self._proc = None
        if proc.popen.poll() is None:
            deadline = time.monotonic() + min(self.timeout, CLOSE_GRACE)
            self._seq += 1
            quit_line = protocol.encode(protocol.quit_request(self._seq)).encode("ascii")
            with contextlib.suppress(EngineFailure):
                if proc.send(quit_line, deadline):
                    proc.receive(deadline)
                    proc.exit_code(wait=max(0.0, deadline - time.monotonic()))
        proc.kill()


class InProcessEngine(_Verbs):
    """A Python engine object driven directly, with the same checks as a subprocess engine.

    Requests and results go through a JSON round trip and the reply schema, so an in-process
    engine is held to the protocol too; an exception that is not a refusal becomes
    ``EngineCrashed`` with its traceback. There is no timeout: the object runs in this thread.
    ``factory``, when given, rebuilds the object on ``restart()``.
    """

    def __init__(self, obj: object, factory: Callable[[], object] | None = None) -> None:
        self.obj = obj
        self.factory = factory
        self._seq = 0

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
        verb = getattr(self.obj, cmd, None)
        if not callable(verb):
            raise EngineRejected("unsupported", f"the engine object has no {cmd!r} verb")
        arguments = [json.loads(json.dumps(fields[name])) for name in command.params]
        try:
            value = verb(*arguments)
        except Exception as error:
            rejection = as_rejection(error)
            if rejection is None:
                raise EngineCrashed(
                    f"engine raised on {cmd!r}:\n{traceback.format_exc()}"
                ) from error
            reply = protocol.error_reply(seq, rejection.code, rejection.message, rejection.rule)
        else:
            result = value if command.result_key is None else {command.result_key: value}
            reply = {"seq": seq, "result": result}
        try:
            reply = json.loads(protocol.encode(reply))
        except (TypeError, ValueError) as error:
            raise ProtocolViolation(f"result of {cmd!r} is not JSON: {error}") from None
        return protocol.check_reply(reply, cmd, seq, expect)

    def restart(self) -> None:
        """Rebuild the object when a factory is known (else keep it: the runner resets it)."""
        if self.factory is not None:
            self.obj = self.factory()

    def close(self) -> None:
        """Nothing to release; kept for the Engine protocol."""


def open_engine(spec: str | None, timeout: float = 10.0) -> Engine:
    """The engine named by a ``--engine`` value.

    None: the bundled reference served as a subprocess (so the default run exercises the
    protocol end to end); ``python:module:factory``: ``InProcessEngine(factory())``;
    anything else: a command line, split like a POSIX shell would.
    """
    if spec is None:
        return SubprocessEngine(list(REFERENCE_SERVER), timeout)
    if spec.startswith("python:"):
        factory = _import_factory(spec)
        try:
            obj = factory()
        except Exception as error:
            raise EngineStartupFailed(
                f"engine factory in {spec!r} raised:\n{traceback.format_exc()}"
            ) from error
        return InProcessEngine(obj, factory)
    try:
        argv = shlex.split(spec)
    except ValueError as error:
        raise EngineStartupFailed(f"cannot parse engine command line {spec!r}: {error}") from None
    if not argv:
        raise EngineStartupFailed("empty engine command line")
    return SubprocessEngine(argv, timeout)


def _import_factory(spec: str) -> Callable[[], object]:
    parts = spec.split(":")
    if len(parts) != 3 or not parts[1] or not parts[2]:
        raise EngineStartupFailed(f"expected python:MODULE:FACTORY, got {spec!r}")
    _, module_name, attribute = parts
    try:
        module = importlib.import_module(module_name)
    except Exception as error:
        raise EngineStartupFailed(f"cannot import {module_name!r}: {error}") from error
    factory = getattr(module, attribute, None)
    if not callable(factory):
        raise EngineStartupFailed(f"{module_name}.{attribute} is not a callable factory")
    return factory  # type: ignore[no-any-return]
