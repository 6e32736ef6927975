"""Engines whose ``undo`` (protocol 2) takes back less than the action it undoes.

Each declares the ``undo`` capability, so the kit walks its perft positions by undo and runs
its undo cases; each plays every rule right and gets only the taking back wrong. ``undo`` is
the protocol's alone (no rule of the book decides it): an engine whose undo leaves the match
totals is blamed on the match rule, whose totals it fails to restore; the others name R-ALL-03,
the rule of the stock's order and of the protocol-only cases.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from dominokit.conformance.serve.refengine import ReferenceEngine
from tests.conformance.broken.engines import Broken

JsonObject = dict[str, Any]


class _DeclaresUndo:
    """Keeps the reference's ``undo`` capability, which ``Broken`` drops (a mixin, listed
    before ``Broken``, so it is no engine of the corpus itself)."""

    def hello(self) -> JsonObject:
        assert isinstance(self, ReferenceEngine)
        return ReferenceEngine.hello(self)


class UndoKeepsMatchTotals(_DeclaresUndo, Broken):
    """Undoing the action that ended a match's hand puts the hand back but leaves its result
    in the match: the totals and hands played still count the hand."""

    variant, rule = "poldomino", "R-POL-10"
    only = ("requests/poldomino/undo-*",)

    def undo(self) -> JsonObject:
        match = self._match
        state = super().undo()
        self._match = match
        return state


class UndoKeepsTheStock(_DeclaresUndo, Broken):
    """Undoing a draw puts the tile back in the hand's holder but not on the stock, whose
    first tile stays gone: the hands are restored, the stock is not."""

    variant, rule = "poldomino", "R-ALL-03"
    only = ("requests/poldomino/undo-*", "perft/poldomino/*")

    def undo(self) -> JsonObject:
        after = self._hand
        state = super().undo()
        if after is not None and self._hand is not None and after.stock != self._hand.stock:
            self._hand = dataclasses.replace(self._hand, stock=after.stock)
            return self._hand.to_json()
        return state


class UndoCrossesIntoTheLastHand(_DeclaresUndo, Broken):
    """``next_hand`` keeps the list of actions to take back, so an ``undo`` right after it
    takes back the last action of the hand before."""

    variant, rule = "progressive", "R-ALL-03"
    only = ("requests/progressive/undo-*",)

    def next_hand(self, deal: Any) -> JsonObject:
        kept = list(self._undo)
        state = super().next_hand(deal)
        self._undo[:0] = kept
        return state
