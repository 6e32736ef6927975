"""Engines with the slips an engine author made on the author journeys, one slip each.

Each is a realistic first-draft mistake, built on the reference: a scoring slip in a
``python:`` engine, and the planted bugs of an engine written in another language, reproduced
here so the kit's explanations of them are tested: the run must name one cause per slip,
blaming the right rule, with its words.
"""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

from dominokit.reference import HandState
from dominokit.spec.spec import OptionSpec
from tests.conformance.broken.engines import JsonObject, ListingPatch, Mutant, passes_turn


class SzczerbakScoreKeepsOwnPips(Mutant):
    """The hand's winner scores the loser's pips without subtracting their own."""

    variant, rule = "szczerbak", "R-SZC-07"
    only: ClassVar[tuple[str, ...]] = ("differential/szczerbak/default",)

    @classmethod
    def mutate(cls, data: dict[str, Any]) -> None:
        data["scoring"]["terms"] = [t for t in data["scoring"]["terms"]
                                    if t["term"] != "own_pips"]


class PijanowskiDoubleSetBoardOneRowShort(Mutant):
    """Under ``double_set`` the board has 11 rows instead of 12: one size too small."""

    variant, rule = "pijanowski", "R-PIJ-11"
    only: ClassVar[tuple[str, ...]] = ("golden/pijanowski/double-set",)

    @classmethod
    def mutate(cls, data: dict[str, Any]) -> None:
        """The spec data is kept; the option's overrides are changed below."""

    @classmethod
    def mutate_options(cls, options: dict[str, OptionSpec]) -> None:
        spec = options["double_set"]
        short = {**spec.overrides[True], "components.table.rows": 11}
        options["double_set"] = dataclasses.replace(
            spec, overrides={**spec.overrides, True: short})


class PijanowskiStopSpelledPass(ListingPatch):
    """After [0|0] the engine offers ``pass`` where the rules say ``stop``; its pass keeps the
    turn (so a perft count from there differs only below the first action)."""

    variant, rule = "pijanowski", "R-PIJ-07"
    only: ClassVar[tuple[str, ...]] = ("perft/pijanowski/double-blank-corner-d2",)

    def changes(self, hand: HandState, legal: list[str]) -> tuple[set[str], set[str]]:
        return ({"pass"}, {"stop"}) if "stop" in legal else (set(), set())

    def play_added(self, hand: HandState, action: str) -> list[JsonObject]:
        return passes_turn(self, hand, "stop")


class SzczerbakHelloDropsTheHand(Mutant):
    """A ``hello`` in the middle of a session drops the hand and the match in progress."""

    variant, rule = "szczerbak", "R-ALL-13"
    only: ClassVar[tuple[str, ...]] = ("requests/szczerbak/hello-mid-session",)

    @classmethod
    def mutate(cls, data: dict[str, Any]) -> None:
        """The rules are played right; only a second ``hello`` is wrong."""

    def hello(self) -> JsonObject:
        self._hand, self._match = None, None
        return super().hello()


class SzczerbakTermsReversed(Mutant):
    """A result lists its terms in the reverse of the variant file's order."""

    variant, rule = "szczerbak", "R-SZC-07"
    only: ClassVar[tuple[str, ...]] = ("golden/szczerbak/*",)

    @classmethod
    def mutate(cls, data: dict[str, Any]) -> None:
        data["scoring"]["terms"] = data["scoring"]["terms"][::-1]


class SzczerbakPlaceCitesItsRule(Mutant):
    """A chain game's ``place`` event carries the matching rule, as a board game's does."""

    variant, rule = "szczerbak", "R-SZC-04"
    only: ClassVar[tuple[str, ...]] = ("golden/szczerbak/*",)

    @classmethod
    def mutate(cls, data: dict[str, Any]) -> None:
        """The rules are played right; only the events are dressed differently."""

    def apply(self, action: str) -> list[JsonObject]:
        return [{**e, "rule": "R-SZC-04"} if e.get("type") == "place" else e
                for e in super().apply(action)]
