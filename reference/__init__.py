"""The dominokit reference engine: a small interpreter of the rules in ``dominokit.spec``.

Everything a caller needs is re-exported here, so that code and docs can say
``from dominokit.reference import new_hand`` without knowing which module holds what.
"""

from __future__ import annotations

from dominokit.reference.deal import Deal, random_deal, validate_deal
from dominokit.reference.engine import (
    apply_action,
    check_action,
    hand_result,
    legal_actions,
    new_hand,
)
from dominokit.reference.errors import (
    DealError,
    DominokitError,
    IllegalActionError,
    NotationError,
    OptionError,
    SpecError,
)
from dominokit.reference.match import (
    HandPlan,
    MatchEvent,
    MatchRecord,
    MatchState,
    finish_hand,
    new_match,
    play_match,
    start_hand,
)
from dominokit.reference.notation import Action, Cell, parse_action
from dominokit.reference.rules import Rules, build_rules, load_rules
from dominokit.reference.state import Event, HandResult, HandState, ScoreTerm
from dominokit.reference.tiles import Tile, tile_set
from dominokit.spec.spec import OptionSpec, RuleEntry, Variant, load_variant, variant_ids

__all__ = [
    "Action",
    "Cell",
    "Deal",
    "DealError",
    "DominokitError",
    "Event",
    "HandPlan",
    "HandResult",
    "HandState",
    "IllegalActionError",
    "MatchEvent",
    "MatchRecord",
    "MatchState",
    "NotationError",
    "OptionError",
    "OptionSpec",
    "RuleEntry",
    "Rules",
    "ScoreTerm",
    "SpecError",
    "Tile",
    "Variant",
    "apply_action",
    "build_rules",
    "check_action",
    "finish_hand",
    "hand_result",
    "legal_actions",
    "load_rules",
    "load_variant",
    "new_hand",
    "new_match",
    "parse_action",
    "play_match",
    "random_deal",
    "start_hand",
    "tile_set",
    "validate_deal",
    "variant_ids",
]
