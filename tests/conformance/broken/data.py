"""Engines that misread one value of the rule book: each plays a variant from changed spec data.

The rules are data, so most mistakes an engine author makes are misreadings of that data: a
bonus or penalty taken from the wrong line, a policy read for the wrong variant, a target or
count off by one, a list of deals copied instead of reversed. Each class here changes one
value (see ``Mutant`` in ``engines.py``) and names the cases that must catch it.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from dominokit.spec.spec import OptionSpec
from tests.conformance.broken.engines import Mutant, term_of

# ---------------------------------------------------------------------------- Poldomino


class PoldominoBonus00Is30(Mutant):
    """Going out on [0|0] earns 30 (the catch's value), not 60."""

    variant, rule = "poldomino", "R-POL-08"
    only = ("golden/poldomino/double-blank-out-catches-double-six",)

    @classmethod
    def mutate(cls, data: dict[str, Any]) -> None:
        term_of(data, "last_tile_bonus")["tiles"]["0-0"] = 30


class PoldominoCatch66Is30(Mutant):
    """A lone [6|6] caught in the loser's hand is worth 30, not 60."""

    variant, rule = "poldomino", "R-POL-09"
    only = ("golden/poldomino/double-blank-out-catches-double-six",)

    @classmethod
    def mutate(cls, data: dict[str, Any]) -> None:
        term_of(data, "catch")["tiles"]["6-6"] = 30


class PoldominoWinnerKeepsOwnPips(Mutant):
    """The winner scores the loser's pips without subtracting their own."""

    variant, rule = "poldomino", "R-POL-07"
    only = ("differential/poldomino/default",)

    @classmethod
    def mutate(cls, data: dict[str, Any]) -> None:
        data["scoring"]["terms"].remove(term_of(data, "own_pips"))


class PoldominoOwnPipsAdded(Mutant):
    """The winner adds their own pips left in hand instead of subtracting them."""

    variant, rule = "poldomino", "R-POL-07"
    only = ("differential/poldomino/default",)

    @classmethod
    def mutate(cls, data: dict[str, Any]) -> None:
        term_of(data, "own_pips")["sign"] = 1


class PoldominoDrawOnlyWhenStuck(Mutant):
    """Drawing is allowed only to a player who cannot place (the common block-and-draw rule)."""

    variant, rule = "poldomino", "R-POL-03"
    only = ("perft/poldomino/start-d2",)

    @classmethod
    def mutate(cls, data: dict[str, Any]) -> None:
        data["turn"]["draw"]["policy"] = "until_fit"


class PoldominoPassOnlyWhenStuck(Mutant):
    """Passing is allowed only to a player who can neither place nor draw."""

    variant, rule = "poldomino", "R-POL-03"
    only = ("perft/poldomino/start-d2",)

    @classmethod
    def mutate(cls, data: dict[str, Any]) -> None:
        data["turn"]["pass"]["policy"] = "when_stuck"


class PoldominoMutualPassThreeTurns(Mutant):
    """A hand ends by passing only after three pass turns in a row, not two."""

    variant, rule = "poldomino", "R-POL-05"
    only = ("perft/poldomino/after-pass-d2",)

    @classmethod
    def mutate(cls, data: dict[str, Any]) -> None:
        next(e for e in data["end"] if e["condition"] == "mutual_pass")["turns"] = 3


class PoldominoNoBlock(Mutant):
    """The hand does not end when the stock is empty and nobody can place; the players must
    pass it out."""

    variant, rule = "poldomino", "R-ALL-05"
    only = ("differential/poldomino/default",)

    @classmethod
    def mutate(cls, data: dict[str, Any]) -> None:
        data["end"] = [e for e in data["end"] if e["condition"] != "block"]


class PoldominoBlockBeforeDomino(Mutant):
    """The end conditions are checked block first, so a last tile that also blocks the table
    ends the hand as a block."""

    variant, rule = "poldomino", "R-ALL-10"
    only = ("differential/poldomino/default",)

    @classmethod
    def mutate(cls, data: dict[str, Any]) -> None:
        data["end"] = sorted(data["end"], key=lambda e: e["condition"] != "block")


class PoldominoSetTarget150(Mutant):
    """A set is won at 150 points instead of 125."""

    variant, rule = "poldomino", "R-POL-10"
    only = ("match/poldomino/default",)

    @classmethod
    def mutate(cls, data: dict[str, Any]) -> None:
        data["match"]["set_target"] = 150


class PoldominoOneSetMatch(Mutant):
    """The first set won wins the match (one set, not two)."""

    variant, rule = "poldomino", "R-POL-10"
    only = ("match/poldomino/default",)

    @classmethod
    def mutate(cls, data: dict[str, Any]) -> None:
        data["match"]["sets_to_win"] = 1


class PoldominoHandSizeSix(Mutant):
    """Each player is dealt 6 tiles, not 5, so a five-tile deal is refused."""

    variant, rule = "poldomino", "R-POL-01"
    only = ("match/poldomino/default",)

    @classmethod
    def mutate(cls, data: dict[str, Any]) -> None:
        data["setup"]["hand_size"] = 6


# ---------------------------------------------------------------------------- Szczerbak


class SzczerbakNoParity(Mutant):
    """Any tile with a matching half fits, whatever the parity of its far half."""

    variant, rule = "szczerbak", "R-SZC-04"
    only = ("perft/szczerbak/widow-faces-1-d2",)

    @classmethod
    def mutate(cls, data: dict[str, Any]) -> None:
        parity = data["turn"]["parity"]
        data["turn"]["parity"] = {"policy": "none", "rule": parity["rule"]}  # no blank rule then


class SzczerbakPassAnytime(Mutant):
    """A player may pass even when a tile fits."""

    variant, rule = "szczerbak", "R-SZC-06"
    only = ("rejection/szczerbak/pass-not-allowed", "perft/szczerbak/stuck-d2")

    @classmethod
    def mutate(cls, data: dict[str, Any]) -> None:
        data["turn"]["pass"]["policy"] = "always"


class SzczerbakNoBlock(Mutant):
    """The hand does not end when neither player can place; both pass for ever."""

    variant, rule = "szczerbak", "R-ALL-05"
    only = ("invariants/szczerbak/termination",)

    @classmethod
    def mutate(cls, data: dict[str, Any]) -> None:
        data["end"] = [e for e in data["end"] if e["condition"] != "block"]


class SzczerbakWinnerKeepsOwnPips(Mutant):
    """The winner scores the loser's pips without subtracting their own."""

    variant, rule = "szczerbak", "R-SZC-07"
    only = ("differential/szczerbak/default",)

    @classmethod
    def mutate(cls, data: dict[str, Any]) -> None:
        data["scoring"]["terms"].remove(term_of(data, "own_pips"))


class SzczerbakTarget101(Mutant):
    """The match target is read as 101 (one past the rule's 100)."""

    variant, rule = "szczerbak", "R-SZC-07"
    only = ("match/szczerbak/exact-target",)

    @classmethod
    def mutate(cls, data: dict[str, Any]) -> None:
        data["match"]["target"] = 101


class SzczerbakDealsDoubles(Mutant):
    """The doubles are kept in the set, so a deal of the 21-tile set is refused."""

    variant, rule = "szczerbak", "R-SZC-01"
    only = ("match/szczerbak/default",)

    @classmethod
    def mutate(cls, data: dict[str, Any]) -> None:
        data["components"]["tiles"]["doubles"] = True


# ---------------------------------------------------------------------------- Progressive


class ProgressivePassInsteadOfDraw(Mutant):
    """A player who cannot place passes at once instead of drawing from the stock."""

    variant, rule = "progressive", "R-PRO-03"
    only = ("perft/progressive/must-draw-d6",)

    @classmethod
    def mutate(cls, data: dict[str, Any]) -> None:
        data["turn"]["draw"]["policy"] = "none"


class ProgressiveWinnerLosesOwnPips(Mutant):
    """The winner's own pips are subtracted from the score, as in Poldomino."""

    variant, rule = "progressive", "R-PRO-04"
    only = ("golden/progressive/pass-and-block",)

    @classmethod
    def mutate(cls, data: dict[str, Any]) -> None:
        data["scoring"]["terms"].append({"term": "own_pips", "to": "winner", "sign": -1,
                                         "rule": "R-PRO-04"})


class ProgressiveRoundTwoAscending(Mutant):
    """Round 2 deals 5, 6, ..., 14 tiles like round 1 instead of 14 down to 5."""

    variant, rule = "progressive", "R-PRO-01"
    only = ("match/progressive/default",)

    @classmethod
    def mutate(cls, data: dict[str, Any]) -> None:
        rounds = data["match"]["rounds"]
        rounds[1]["deals"] = list(rounds[0]["deals"])


class ProgressiveOneRound(Mutant):
    """The match ends after round 1; round 2 is never played."""

    variant, rule = "progressive", "R-PRO-05"
    only = ("match/progressive/default",)

    @classmethod
    def mutate(cls, data: dict[str, Any]) -> None:
        data["match"]["rounds"] = data["match"]["rounds"][:1]


class ProgressiveTiebreakSizesSwapped(Mutant):
    """In a tiebreak player A gets 15 - k tiles and player B 4 + k (the sizes swapped)."""

    variant, rule = "progressive", "R-PRO-06"
    only = ("match/progressive/tiebreak",)

    @classmethod
    def mutate(cls, data: dict[str, Any]) -> None:
        tiebreak = data["match"]["tiebreak"]
        tiebreak["deals"] = [[b, a] for a, b in tiebreak["deals"]]


class ProgressiveMayPassWhenPlaceable(Mutant):
    """A player may pass even with a tile that fits (compulsory play not enforced)."""

    variant, rule, only = "progressive", "R-ALL-07", ("differential/progressive/default",)

    @classmethod
    def mutate(cls, data: dict[str, Any]) -> None:
        data["turn"]["pass"]["policy"] = "always"


class ProgressiveEvenTiebreak(Mutant):
    """The tiebreak deals equal hands, as the rounds do, instead of A 5 against B 14 and on."""

    variant, rule, only = "progressive", "R-PRO-06", ("match/progressive/tiebreak",)

    @classmethod
    def mutate(cls, data: dict[str, Any]) -> None:
        tiebreak = data["match"]["tiebreak"]
        tiebreak["deals"] = [[a, a] for a, _ in tiebreak["deals"]]


# ---------------------------------------------------------------------------- Pijanowski


class PijanowskiFieldTripled(Mutant):
    """A tile lying on one field scores three times its pips, not twice."""

    variant, rule = "pijanowski", "R-PIJ-05"
    only = ("golden/pijanowski/published-opening",)

    @classmethod
    def mutate(cls, data: dict[str, Any]) -> None:
        data["scoring"]["placement"]["same_field_multiplier"] = 3


class PijanowskiLakeCellsScoreFive(Mutant):
    """Each lake cell scores 5 points, not 4."""

    variant, rule = "pijanowski", "R-PIJ-06"
    only = ("golden/pijanowski/published-opening",)

    @classmethod
    def mutate(cls, data: dict[str, Any]) -> None:
        data["scoring"]["lakes"]["points_per_cell"] = 5


class PijanowskiLakesOfThree(Mutant):
    """Only regions of up to 3 cells score as lakes, not up to 4."""

    variant, rule = "pijanowski", "R-PIJ-06"
    only = ("golden/pijanowski/published-opening",)

    @classmethod
    def mutate(cls, data: dict[str, Any]) -> None:
        data["scoring"]["lakes"]["max_cells"] = 3


class PijanowskiSevenRows(Mutant):
    """The board has 7 rows, not 6."""

    variant, rule = "pijanowski", "R-PIJ-01"
    only = ("perft/pijanowski/start-d1",)

    @classmethod
    def mutate(cls, data: dict[str, Any]) -> None:
        data["components"]["table"]["rows"] = 7


class PijanowskiDoubleSetSmallBoard(Mutant):
    """The double-set game keeps the 6-row board instead of 12 x 12."""

    variant, rule = "pijanowski", "R-PIJ-11"
    only = ("perft/pijanowski/start-double-set-d1",)

    @classmethod
    def mutate(cls, data: dict[str, Any]) -> None:
        """The spec data is kept; the option's overrides are changed below."""

    @classmethod
    def mutate_options(cls, options: dict[str, OptionSpec]) -> None:
        spec = options["double_set"]
        kept = {k: v for k, v in spec.overrides[True].items() if k != "components.table.rows"}
        options["double_set"] = dataclasses.replace(spec, overrides={**spec.overrides,
                                                                     True: kept})


class PijanowskiExtraTileAfter66(Mutant):
    """The extra tile is granted after [6|6] instead of [0|0]."""

    variant, rule = "pijanowski", "R-PIJ-07"
    only = ("perft/pijanowski/double-blank-corner-d1",)

    @classmethod
    def mutate(cls, data: dict[str, Any]) -> None:
        data["turn"]["extra_tile"]["after"] = "6-6"


class PijanowskiPassAnytime(Mutant):
    """A player may pass even when they have a legal placement."""

    variant, rule = "pijanowski", "R-PIJ-08"
    only = ("rejection/pijanowski/pass-not-allowed",)

    @classmethod
    def mutate(cls, data: dict[str, Any]) -> None:
        data["turn"]["pass"]["policy"] = "always"


class PijanowskiNoBlock(Mutant):
    """The hand does not end when neither player can place; both pass for ever."""

    variant, rule = "pijanowski", "R-PIJ-08"
    only = ("golden/pijanowski/block-after-double-blank",)

    @classmethod
    def mutate(cls, data: dict[str, Any]) -> None:
        data["end"] = [e for e in data["end"] if e["condition"] != "block"]


class PijanowskiTarget400(Mutant):
    """The match is played to 400, not 500."""

    variant, rule = "pijanowski", "R-PIJ-10"
    only = ("match/pijanowski/exact-target",)

    @classmethod
    def mutate(cls, data: dict[str, Any]) -> None:
        data["match"]["target"] = 400
