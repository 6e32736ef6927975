"""Two engines written from the documents of suite 1.0.0: right then, short of what came after.

Both are the reference with the demands suite 2.0.0 added taken away, served as ``python:``
engines (``python:tests.conformance.engines.suite_one:poldomino_js`` and ``...:four_games``):

- ``poldomino_js`` plays Poldomino only (an engine in JavaScript, in the story) and refuses
  every illegal action citing R-ALL-12 (a tile the player does not hold), whichever rule the
  action breaks: suite 1.0.0 checked the code of a refusal, not the rule it cites.
- ``four_games`` plays the four games of suite 1.0.0 and takes a ``next_hand`` deal that names
  the starter, which suite 1.0.0 never sent, by ignoring the named starter.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dominokit.conformance.serve.refengine import ReferenceEngine
from dominokit.conformance.wire.errors import EngineRejected

JsonObject = dict[str, Any]


class _SuiteOne(ReferenceEngine):
    variants: tuple[str, ...] = ()
    name = "suite-one"

    def hello(self) -> JsonObject:
        result = super().hello()
        result["name"] = self.name
        result["version"] = "1.0"
        result["protocol"] = 1
        result.pop("capabilities", None)
        result["variants"] = {v: result["variants"][v] for v in self.variants}
        return result


class PoldominoJs(_SuiteOne):
    variants = ("poldomino",)
    name = "poldomino-js"

    def apply(self, action: str) -> list[JsonObject]:
        try:
            return super().apply(action)
        except EngineRejected as refusal:
            if refusal.code != "illegal_action":
                raise
            raise EngineRejected(refusal.code, refusal.message, "R-ALL-12") from None


class FourGames(_SuiteOne):
    variants = ("pijanowski", "poldomino", "progressive", "szczerbak")
    name = "four-games"

    def next_hand(self, deal: Mapping[str, Any]) -> JsonObject:
        return super().next_hand({**deal, "starter": None})


def poldomino_js() -> PoldominoJs:
    return PoldominoJs()


def four_games() -> FourGames:
    return FourGames()
