"""The one seam to reach an engine: an ``--engine`` value parsed once, and ``connect``.

An ``--engine`` value is parsed at the edge (the CLI, the pytest plugin, the Python API) into an
``EngineSpec``: the bundled reference (no value), a ``python:MODULE:FACTORY`` object hosted in a
worker process, or a command line. The spec is what a report names ("a report should say which
engine it describes, not how we happened to reach it"), and ``connect`` is the one way from a
spec to a greeted engine: the runner, the plugin and ``trace replay`` all use it, so opening,
the handshake and the start-up allowance are written once.
"""

from __future__ import annotations

import os
import shlex
import sys
from dataclasses import dataclass
from typing import Literal

from dominokit.conformance.kit.driver import STARTUP_TIMEOUT, Engine, Hello, SubprocessEngine
from dominokit.conformance.wire.errors import EngineFailure, EngineRejected
from dominokit.reference.errors import DominokitError

REFERENCE_SERVER = (sys.executable, "-m", "dominokit.conformance.serve.server")
"""The bundled reference served over the protocol: the default engine of a run."""

HOST = (sys.executable, "-m", "dominokit.conformance.serve.host")
"""The worker that serves a ``python:`` engine (``conformance/serve/host.py``)."""

DEFAULT_TIMEOUT = 10.0
"""Seconds each request may take (``--timeout``)."""

REFERENCE_LABEL = "reference (subprocess)"


class EngineSpecError(DominokitError, ValueError):
    """An ``--engine`` value that names no engine (a usage error, found before anything runs)."""


@dataclass(frozen=True)
class Timeouts:
    """How long an engine may take: each request, and a fresh process's first request."""

    request: float = DEFAULT_TIMEOUT
    startup: float = STARTUP_TIMEOUT


@dataclass(frozen=True)
class EngineSpec:
    """Which engine a run talks to, as its ``--engine`` value named it."""

    kind: Literal["reference", "python", "command"]
    text: str | None = None
    """The value as given (None: the default, the reference)."""
    argv: tuple[str, ...] = ()
    """The command line of a ``command`` engine."""
    target: str = ""
    """``MODULE:FACTORY`` of a ``python`` engine."""

    @classmethod
    def parse(cls, text: str | None) -> EngineSpec:
        """The spec an ``--engine`` value names; ``EngineSpecError`` when it names none."""
        if text is None:
            return cls("reference")
        if text.startswith("python:"):
            target = text.removeprefix("python:")
            module, _, factory = target.partition(":")
            if not module or not factory:
                raise EngineSpecError(f"expected python:MODULE:FACTORY, got {text!r}")
            return cls("python", text, target=target)
        try:
            argv = tuple(shlex.split(text))
        except ValueError as error:
            raise EngineSpecError(f"cannot parse engine command line {text!r}: {error}") from None
        if not argv:
            raise EngineSpecError("empty engine command line")
        return cls("command", text, argv=argv)

    @property
    def label(self) -> str:
        """How a report names the engine."""
        return REFERENCE_LABEL if self.text is None else self.text


def python_engine_environment() -> dict[str, str]:
    """The environment of a worker hosting a Python engine: this one, with ``PYTHONPATH`` set
    to this process's ``sys.path`` (its current directory for the empty entry), so the worker
    imports what this process can."""
    path = [entry or os.getcwd() for entry in sys.path]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(path)}


def open_engine(spec: EngineSpec | str | None, timeout: float = DEFAULT_TIMEOUT,
                startup_timeout: float = STARTUP_TIMEOUT) -> SubprocessEngine:
    """The engine ``spec`` names, not yet started (it starts on its first request).

    The reference is served as a subprocess, so the default run exercises the protocol end to
    end; a ``python:`` object is served by a worker process that imports what this process
    can, so hangs and exits are the engine's and no code of it runs in the kit. A string is
    parsed first (``EngineSpecError`` when it names no engine).
    """
    if not isinstance(spec, EngineSpec):
        spec = EngineSpec.parse(spec)
    if spec.kind == "reference":
        return SubprocessEngine(list(REFERENCE_SERVER), timeout,
                                startup_timeout=startup_timeout)
    if spec.kind == "python":
        return SubprocessEngine([*HOST, spec.target], timeout, env=python_engine_environment(),
                                reads_its_own_lines=False, startup_timeout=startup_timeout)
    return SubprocessEngine(list(spec.argv), timeout, startup_timeout=startup_timeout)


class EngineDidNotStart(Exception):
    """``connect`` could not open or greet the engine; the message says why, in full."""


def greet(engine: Engine) -> Hello:
    """Say ``hello`` to an open engine (the version is negotiated by the driver);
    ``EngineDidNotStart`` when it will not answer."""
    try:
        return engine.hello()
    except (EngineFailure, EngineRejected) as failure:
        raise EngineDidNotStart(f"the engine did not start: {failure}") from None


def connect(spec: EngineSpec, timeouts: Timeouts) -> tuple[Engine, Hello]:
    """Open the engine ``spec`` names and greet it. On failure the engine is closed and
    ``EngineDidNotStart`` says why."""
    engine = open_engine(spec, timeouts.request, timeouts.startup)
    try:
        return engine, greet(engine)
    except BaseException:
        engine.close()
        raise
