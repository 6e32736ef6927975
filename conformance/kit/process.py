"""One engine process: its pipes, its stderr, its exit, and the reply lines it printed.

``EngineProcess`` is the mechanics under ``SubprocessEngine`` (``driver``): it starts the
process in a session of its own with everything it starts contained (``containment``), writes
request bytes and reads reply lines against a deadline, drains stderr all the time so an
engine never blocks on a full pipe, and notices an exit at once (a pidfd on Linux). It knows
nothing of the protocol: what a line means is the driver's business.
"""

from __future__ import annotations

import contextlib
import io
import math
import os
import select
import selectors
import signal
import subprocess
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from dominokit.conformance.kit import containment
from dominokit.conformance.wire.errors import EngineTimeout
from dominokit.conformance.wire.protocol import MAX_REPLY_LINE_BYTES

STDERR_TAIL_BYTES = 4096
"""How much of an engine's stderr is kept (the end of it) for failure details."""


@dataclass(frozen=True)
class Overlong:
    """Stands for a reply line longer than ``MAX_REPLY_LINE_BYTES``."""


Line = bytes | Overlong | None  # None: the engine exited, or closed its stdout



def exit_words(code: int | None) -> str:
    """How the engine's process ended, in words (``exited with status 3``)."""
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


class EngineProcess:
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
                    ready = selector.select(min(remaining, POLL))
                    if self._has_exited(ready):
                        return False
        return True

    def receive(self, deadline: float) -> Line:
        """The next stdout line; None once the engine exited (or closed stdout) without one;
        raises EngineTimeout when none arrives before ``deadline``."""
        while (line := self._take_line()) is None:
            if self._eof or self._exited:
                return None
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise EngineTimeout("no complete reply line before the deadline")
            output, exited = self._replies.wait(remaining if self.exit_fd is not None
                                                else min(remaining, POLL))
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
                chunk = os.read(self.stdout_fd, CHUNK)
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

    def _take_line(self) -> Line:
        end = self._buffer.find(b"\n", self._scanned)
        if end < 0:
            self._scanned = len(self._buffer)
            return Overlong() if self._scanned > MAX_REPLY_LINE_BYTES else None
        if end + 1 == len(self._buffer):  # the usual case: the buffer holds one whole line
            line = bytes(self._buffer)
            self._buffer.clear()
        else:
            line = bytes(self._buffer[:end + 1])
            del self._buffer[:end + 1]
        self._scanned = 0
        return Overlong() if len(line) > MAX_REPLY_LINE_BYTES else line

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


POLL = 0.05
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

CHUNK = 64 * 1024
"""Bytes read from an engine's stdout at a time: a Linux pipe's whole buffer. ``os.read``
allocates the size it is asked for before it reads, so asking for a megabyte per reply line
cost more than the rest of a request's round trip (about 35 us against 2 us)."""
