"""``dominokit trace record --match --seed N``: a whole match recorded from the command line.

A match trace needs a deal and the actions of every hand until the match is won, which is
tedious to write by hand and was only possible from Python. Here the match itself decides
each hand's starter and hand sizes (``next`` of the match state), a seeded generator deals
and a uniform random policy plays, and :func:`record_match` writes the trace, so one seed
always gives the same match. The numbers are then checked by hand like any other trace.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from dominokit.conformance.commands.options import parse_option_pairs
from dominokit.conformance.traces.engine import reference_engine
from dominokit.conformance.traces.layout import dump_trace
from dominokit.conformance.traces.model import JsonObject, file_stem
from dominokit.conformance.traces.record import (
    _random_deal,
    cited_rules,
    non_default_options,
    play_out,
    record_match,
)
from dominokit.conformance.wire.errors import EngineRejected
from dominokit.reference.errors import DominokitError

MAX_HANDS = 500
"""A match that has not ended after this many hands is a bug, not a long match."""


def random_match(variant: str, options: Mapping[str, Any] | None, seed: int,
                 first_starter: int) -> list[tuple[JsonObject, list[str]]]:
    """The (deal, actions) of every hand of a seeded random match, played to its end."""
    rng = random.Random(seed)
    chosen = non_default_options(variant, options)
    engine = reference_engine()
    engine.new_match(variant, dict(chosen), first_starter)
    hands: list[tuple[JsonObject, list[str]]] = []
    while (plan := engine.match_state()["next"]) is not None:
        if len(hands) >= MAX_HANDS:
            raise DominokitError(f"the match does not end (after {MAX_HANDS} hands)")
        sizes = (plan["hand_sizes"][0], plan["hand_sizes"][1])
        deal = _random_deal(variant, chosen, rng, sizes)
        if plan.get("starter") is not None:
            deal["starter"] = None  # R-ALL-04: the match, not the deal, names the starter
        try:
            engine.next_hand(deal)
        except EngineRejected as error:
            raise DominokitError(f"hand {len(hands)}: the deal is refused: {error}") from None
        hands.append((deal, play_out(engine, rng)))
    return hands


def record_random_match(variant: str, options: Mapping[str, Any] | None, seed: int,
                        first_starter: int, description: str = "",
                        rules: Sequence[str] = (), trace_id: str | None = None) -> JsonObject:
    """A match trace of a seeded random match; without ``rules`` it lists the cited ones."""
    chosen = non_default_options(variant, options)
    hands = random_match(variant, chosen, seed, first_starter)
    data = record_match(variant, chosen, first_starter, hands,
                        description or f"Random match, seed {seed}.",
                        list(rules) or ["R-ALL-04"], trace_id=trace_id)
    if not rules:
        data["rules"] = cited_rules(data) or ["R-ALL-04"]
    return data


def run_record_match(args: argparse.Namespace) -> int:
    """``dominokit trace record --variant V --match --seed N [--first-starter P]``."""
    rules = [r.strip() for r in args.rules.split(",") if r.strip()]
    trace_id = f"{args.variant}/{file_stem(args.out)}" if args.out else None
    data = record_random_match(args.variant, parse_option_pairs(args.option), args.seed,
                               args.first_starter, args.description, rules, trace_id)
    text = dump_trace(data)
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0
