"""The body of ``dominokit play``: deal one random hand and play it out with random legal moves.

A quick way to watch a variant's rules at work, and a smoke test of the whole engine. The deal
and every choice come from one ``random.Random(seed)``, so a seed always prints the same hand.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Mapping, Sequence
from typing import TextIO

from dominokit.conformance.commands.options import parse_option_pairs
from dominokit.conformance.exit_status import ExitStatus
from dominokit.reference.deal import Deal, random_deal
from dominokit.reference.engine import apply_action, hand_result, legal_actions, new_hand
from dominokit.reference.errors import DominokitError
from dominokit.reference.match import new_match
from dominokit.reference.rules import load_rules
from dominokit.reference.state import Event, HandResult
from dominokit.reference.tiles import Tile
from dominokit.spec.spec import Variant, load_variant, variant_ids
from dominokit.spec.yamldoc import key_text

_SEED_RANGE = 2**32


def _spelling(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _tiles(tiles: Sequence[Tile]) -> str:
    return " ".join(str(t) for t in tiles) if tiles else "-"


def _deal_lines(deal: Deal) -> list[str]:
    lines = [f"P{p} hand ({len(h)}): {_tiles(h)}" for p, h in enumerate(deal.hands)]
    if deal.stock:
        lines.append(f"stock ({len(deal.stock)}, drawn from the left): {_tiles(deal.stock)}")
    if deal.out_of_play:
        lines.append(f"out of play ({len(deal.out_of_play)}): {_tiles(deal.out_of_play)}")
    if deal.widow is not None:
        x, y = deal.widow
        lines.append(f"widow: {min(x, y)}-{max(x, y)} ({x} faces P0, {y} faces P1)")
    if deal.starter is not None:
        lines.append(f"starter: P{deal.starter}")
    return lines


def _event_lines(player: int, action: str, events: Sequence[Event]) -> list[str]:
    """One line for the action (with its points), then a line per lake, drawn tile or end."""
    head = f"P{player} {action}"
    extra: list[str] = []
    for event in events:
        if event.type == "place" and event.points is not None:
            head += f"  +{event.points}"
        elif event.type == "lake":
            cells = len(event.cells or ())
            extra.append(f"  lake {cells} cell{'s' if cells != 1 else ''} +{event.points}")
        elif event.type == "draw" and event.tile is not None:
            head += f"  ({event.tile})"
    return [head, *extra]


def result_line(result: HandResult) -> str:
    """``result: P0 wins by domino; points +25 +0; pips 0 25``."""
    who = "nobody wins" if result.winner is None else f"P{result.winner} wins"
    points = " ".join(f"{p:+d}" for p in result.points)
    pips = " ".join(str(p) for p in result.pips)
    return f"result: {who} ({result.reason}); points {points}; pips {pips}"


def play_hand(
    variant: Variant, options: Mapping[str, object], seed: int, out: TextIO
) -> HandResult:
    """Deal and play one hand with choices from ``Random(seed)``, printing it to ``out``."""
    rng = random.Random(seed)
    rules = load_rules(variant, options)
    plan = new_match(variant, options).plan()
    sizes = None if rules.setup.hand_size is not None or plan is None else plan.hand_sizes
    deal = random_deal(rules, rng, hand_sizes=sizes)
    shown = ", ".join(f"{k}={_spelling(v)}" for k, v in sorted(rules.options.items()))
    print(f"variant: {variant.name} ({variant.id})", file=out)
    print(f"options: {shown or '-'}", file=out)
    print(f"seed: {seed}", file=out)
    for line in _deal_lines(deal):
        print(line, file=out)
    state = new_hand(rules, deal)
    while (result := hand_result(state)) is None:
        player = state.to_move
        assert player is not None  # a hand without a result has a player to move
        action = rng.choice(legal_actions(state))
        state, events = apply_action(state, action)
        for line in _event_lines(player, str(action), events):
            print(line, file=out)
    print(result_line(result), file=out)
    return result


def variants_help() -> str:
    """The variants and their options, read from the spec, for ``dominokit play --help``."""
    lines = ["variants and their options (--option NAME=VALUE; * marks the default):"]
    for variant_id in variant_ids():
        variant = load_variant(variant_id)
        lines.append(f"  {variant_id}: {variant.name}")
        for name, spec in variant.options.items():
            values = " | ".join(key_text(v) + ("*" if v == spec.default else "")
                                for v in spec.values)
            lines.append(f"    {name} = {values}")
        if not variant.options:
            lines.append("    (no options)")
    return "\n".join(lines)


def run_play(variant: str, seed: int | None, options: list[str]) -> int:
    """``dominokit play VARIANT [--seed N] [k=v ...]``: 0, or 4 (a usage error) with one
    error line for a variant or option the spec does not have."""
    try:
        chosen = load_variant(variant)
        values = parse_option_pairs(options)
        play_hand(chosen, values, _seed(seed), sys.stdout)
    except (DominokitError, ValueError, OSError) as exc:  # a variant file that cannot be read
        message = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        print(f"dominokit play: error: {message}", file=sys.stderr)
        return ExitStatus.USAGE_ERROR
    return 0


def run_play_all(seed: int | None) -> int:
    """One sample hand of each bundled variant, default options, one seed for all."""
    chosen = _seed(seed)
    status = 0
    for number, variant in enumerate(variant_ids()):
        if number:
            print()
        status = max(status, run_play(variant, chosen, []))
    return status


def _seed(seed: int | None) -> int:
    """The seed to use; a fresh one is printed in the header, so any hand can be replayed."""
    return random.randrange(_SEED_RANGE) if seed is None else seed
