"""The protocol verbs a trace needs from an engine, and the reference as the default engine.

Replaying, recording and counting (perft) a trace all drive an engine through the same
protocol-1 verbs; this module names them once so that ``replay`` and ``perft`` can both use
them without importing each other.
"""

from __future__ import annotations

from typing import Any, Protocol

from dominokit.conformance.traces.model import JsonObject


class EngineLike(Protocol):
    """The protocol verbs a replay needs: the driver's engines and ``ReferenceEngine`` fit."""

    def new_hand(self, variant: str, options: dict[str, Any], deal: dict[str, Any]
                 ) -> JsonObject: ...
    def legal(self) -> list[str]: ...
    def apply(self, action: str) -> list[JsonObject]: ...
    def state(self) -> JsonObject: ...
    def new_match(self, variant: str, options: dict[str, Any], first_starter: int
                  ) -> JsonObject: ...
    def next_hand(self, deal: dict[str, Any]) -> JsonObject: ...
    def match_state(self) -> JsonObject: ...


def reference_engine() -> EngineLike:
    """A fresh in-process reference engine (the default oracle for replay and record)."""
    from dominokit.conformance.serve.refengine import ReferenceEngine

    return ReferenceEngine()
