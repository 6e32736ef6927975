"""Python engine objects that misbehave in ways only a separate process can survive.

Loaded as ``python:tests.conformance.engines.python_engines:<Name>``: the kit hosts them in a worker
process, so a hang is a timeout and ``sys.exit`` a crash, as for any other engine.
"""

from __future__ import annotations

import sys
import threading

from dominokit.conformance.serve.refengine import ReferenceEngine


class HangsOnLegal(ReferenceEngine):
    """Never answers ``legal``."""

    def legal(self) -> list[str]:
        threading.Event().wait()
        return []


class ExitsOnLegal(ReferenceEngine):
    """Calls ``sys.exit(5)`` on ``legal``, as a careless engine might on an internal error."""

    def legal(self) -> list[str]:
        sys.exit(5)


class PrintsOnStdout(ReferenceEngine):
    """Prints to stdout on every verb: a hosted engine's prints must not reach the replies."""

    def __init__(self) -> None:
        print("starting up")
        super().__init__()

    def legal(self) -> list[str]:
        print("thinking")
        actions: list[str] = super().legal()
        return actions


def failing_factory() -> None:
    """A factory that raises: the worker exits and the kit reports a startup failure."""
    raise RuntimeError("no licence key for the engine")
