"""The reference as an engine of protocol 1 only: no capabilities, no ``undo``, and a ``hello``
for protocol 2 refused with ``unsupported``, as an engine written before protocol 2 answers.

Loaded as ``python:tests.conformance.engines.protocol_one:ProtocolOne`` (or built directly), it
shows that
the kit falls back to protocol 1 and counts perft positions by replaying them.
"""

from __future__ import annotations

from typing import Any

from dominokit.conformance.serve.refengine import ReferenceEngine


class ProtocolOne(ReferenceEngine):
    """The reference, naming protocol 1 as the newest it speaks and having no ``undo``."""

    def hello(self) -> dict[str, Any]:
        result = {k: v for k, v in super().hello().items() if k != "capabilities"}
        return {**result, "protocol": 1}

    undo = None  # type: ignore[assignment]
