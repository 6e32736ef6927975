"""The reference with one bug a picture shows: once a player has passed, its states count one
pass too many (``passes``), so every case that reaches a pass diverges on a state and the
report can draw the reference's table next to the engine's.

    python:tests.conformance.engines.miscounts:Miscounts
"""

from __future__ import annotations

from typing import Any

from dominokit.conformance.serve.refengine import ReferenceEngine


class Miscounts(ReferenceEngine):
    def state(self) -> dict[str, Any]:
        state = dict(super().state())
        if state.get("passes"):
            state["passes"] += 1
        return state
