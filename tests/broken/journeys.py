"""Engines with the slips an engine author made on the author journeys, one slip each.

Each is a realistic first-draft mistake, built on the reference: a scoring slip in a
``python:`` engine, and the planted bugs of an engine written in another language, reproduced
here so the kit's explanations of them are tested: the run must name one cause per slip,
blaming the right rule, with its words.
"""

from __future__ import annotations

from typing import Any, ClassVar

from tests.broken.engines import Mutant


class SzczerbakScoreKeepsOwnPips(Mutant):
    """The hand's winner scores the loser's pips without subtracting their own."""

    variant, rule = "szczerbak", "R-SZC-07"
    only: ClassVar[tuple[str, ...]] = ("differential/szczerbak/default",)

    @classmethod
    def mutate(cls, data: dict[str, Any]) -> None:
        data["scoring"]["terms"] = [t for t in data["scoring"]["terms"]
                                    if t["term"] != "own_pips"]
