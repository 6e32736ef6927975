"""The table at a failure, drawn: the states along a hand and their SVG pictures.

The HTML report and ``trace replay --html`` both show where an engine and the reference parted:
the position at the first divergent step, drawn by ``diagrams`` (the rule book's own drawing
code) as the variant's ``components.table`` says. States come from the reference replaying the
hand's deal and actions, or from the failure itself when what diverged was a state.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from dominokit.conformance.run import diagrams

JsonObject = dict[str, Any]


def table_spec(variant: str) -> Mapping[str, Any]:
    """The variant's ``components.table`` entry (how its table is laid out)."""
    from dominokit.reference import load_variant

    spec: Mapping[str, Any] = load_variant(variant).data["components"]["table"]
    return spec


def states_along(variant: str, options: Mapping[str, object], deal: Mapping[str, Any],
                 actions: Sequence[str]) -> list[JsonObject]:
    """The reference's state after 0, 1, ... of ``actions`` (fewer when one is refused)."""
    from dominokit.reference import apply_action, new_hand
    from dominokit.reference.deal import Deal
    from dominokit.reference.errors import DominokitError

    state = new_hand(variant, Deal.from_json(dict(deal)), dict(options))
    out = [state.to_json()]
    for action in actions:
        try:
            state, _ = apply_action(state, action)
        except (DominokitError, ValueError):
            break
        out.append(state.to_json())
    return out


def is_state(value: object) -> bool:
    """Whether ``value`` is a hand state's JSON (it has a table to draw)."""
    return isinstance(value, dict) and isinstance(value.get("table"), dict)


def draw(state: Mapping[str, Any], variant: str, title: str) -> str:
    """The SVG of ``state``'s table, or "" when it cannot be drawn (a malformed state an
    engine sent is shown as JSON beside, never a reason for the page to fail)."""
    try:
        return diagrams.state_svg(state, table_spec(variant), title=title)
    except (KeyError, TypeError, ValueError, IndexError):
        return ""


def repro_position(path: str, step: int | None) -> tuple[JsonObject, list[str]] | None:
    """The reference's state at ``step`` of the hand a repro trace holds, and the actions up
    to it; None when the trace is not a standalone hand (or cannot be read)."""
    from dominokit.conformance.traces.model import load_trace
    from dominokit.reference.errors import DominokitError

    try:
        trace = load_trace(Path(path))
    except (OSError, DominokitError, ValueError):
        return None
    if trace.kind != "hand" or len(trace.hands) != 1:
        return None
    hand = trace.hands[0]
    actions = [s.action for s in hand.steps]
    shown = actions if step is None else actions[:step]
    try:
        states = states_along(trace.variant, trace.options, hand.deal, shown)
    except (DominokitError, ValueError, KeyError):
        return None
    return states[-1], shown[:len(states) - 1]
