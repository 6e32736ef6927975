"""An engine object driven in the kit's own process, held to the protocol all the same.

``InProcessEngine`` is the direct Python API, for tests and benchmarks: requests go to the
object through the one dispatcher (``serve.dispatch``) that also serves it over the wire, and
every result goes through a JSON round trip and the reply checks, so an object driven here
answers exactly as it would on a pipe. An exception that is not a refusal, ``SystemExit``
included, becomes ``EngineCrashed`` with its traceback (``KeyboardInterrupt`` still
propagates: it is the user's, not the engine's). There is no timeout: the object runs in this
thread; ``--engine python:...`` hosts the object in a worker process instead.
"""

from __future__ import annotations

import json
import traceback
from collections.abc import Callable
from typing import Any

from dominokit.conformance.kit.driver import Verbs, checked_result
from dominokit.conformance.serve.dispatch import Session, VerbRaised, dispatch
from dominokit.conformance.wire import protocol
from dominokit.conformance.wire.errors import EngineCrashed, EngineRaised, ProtocolViolation
from dominokit.conformance.wire.protocol import JsonObject


class InProcessEngine(Verbs):
    """The object ``obj`` behind the typed verbs; ``factory``, when given, rebuilds it on
    ``restart()``."""

    def __init__(self, obj: object, factory: Callable[[], object] | None = None) -> None:
        self.obj = obj
        self.factory = factory
        self._seq = 0
        self._session = Session()

    def __repr__(self) -> str:
        return f"InProcessEngine({self.obj!r})"

    def __enter__(self) -> InProcessEngine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _call(self, cmd: str, expect: Any = None, **fields: Any) -> JsonObject:
        self._seq += 1
        seq = self._seq
        if cmd == "quit":
            return {}
        arguments = {name: json.loads(json.dumps(value)) for name, value in fields.items()}
        try:
            reply = dispatch(self.obj, self._session, seq, cmd, arguments)
        except VerbRaised as raised:
            raise EngineRaised(f"engine raised on {cmd!r}:\n{raised.trace}") from raised.error
        except SystemExit as error:
            code = error.code if isinstance(error.code, int) else None
            raise EngineCrashed(
                f"engine called sys.exit({error.code!r}) on {cmd!r}:\n{traceback.format_exc()}",
                returncode=code,
            ) from None
        try:
            line = protocol.encode(reply).encode("ascii")
        except (TypeError, ValueError, RecursionError) as error:
            raise ProtocolViolation(f"result of {cmd!r} is not JSON: {error}") from None
        return checked_result(line, cmd, seq, expect)

    def restart(self) -> None:
        """Rebuild the object when a factory is known (else keep it: the runner resets it)."""
        self._session = Session()
        if self.factory is not None:
            self.obj = self.factory()

    def close(self) -> None:
        """Nothing to release; kept for the Engine protocol."""
