"""A ``python:`` engine whose ``state()`` raises a Python exception once a tile is placed.

Not a rule bug (so not in the mutation corpus): a slip in the engine's own code, which the kit
must report as that case's error with the engine's traceback, and go on.
"""

from __future__ import annotations

from typing import Any

from dominokit.conformance.serve.refengine import ReferenceEngine


class StateRaises(ReferenceEngine):
    """The reference, except that ``state()`` raises ``KeyError`` after a placement."""

    def state(self) -> dict[str, Any]:
        hand = self._hand
        if hand is not None and hand.passes == 0 and hand.last_placed != (None, None):
            raise KeyError("last_placed")
        result: dict[str, Any] = super().state()
        return result
