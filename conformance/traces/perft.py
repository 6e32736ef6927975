"""Perft through the protocol verbs: counting action sequences, and replaying a perft trace.

The protocol has no undo, so the walk re-reaches a position by replaying it from the deal. The
same walker serves the perft cases (``cases/perft.py``) and perft traces (``kind: perft``, the
repro a failing perft case writes): a trace's expected counts are compared first action by
first action, so a replay names the first subtree whose count differs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from dominokit.conformance.errors import EngineRejected
from dominokit.conformance.traces.model import Mismatch, Trace
from dominokit.conformance.traces.replay import EngineLike
from dominokit.spec import spec


class Refused(Exception):
    """The engine refused an action it had listed as legal (or one on the way)."""

    def __init__(self, path: list[str], action: str, refusal: EngineRejected) -> None:
        self.path = path
        self.action = action
        self.refusal = refusal
        super().__init__(action)


class TooLarge(Exception):
    """The walk played more actions than its budget allows (the tree is far too large)."""


MAX_BUDGET = 100_000
"""Actions any walk may play: every stored perft count needs at most about 500, and on a board
game each action with its legal list can take milliseconds, so this bounds a walk to minutes."""
RECORD_BUDGET = MAX_BUDGET
"""Actions a walk on the reference may play to count a perft trace that states no counts."""


def replay_budget(count: int, depth: int, prefix: int) -> int:
    """Actions a walk may play for an expected ``count``: it plays fewer than ``count * (prefix
    + depth)`` (leaves are listed, not played); ten times that, at least 10^4, at most
    MAX_BUDGET."""
    return min(MAX_BUDGET, max(10_000, 10 * (count + 1) * (prefix + depth + 1)))


class Walker:
    """Walks the action tree of one position through the protocol, within a budget of
    actions played (None: no bound), so a tree far larger than expected cannot hang a run."""

    def __init__(self, engine: EngineLike, variant: str, options: Mapping[str, Any],
                 deal: Mapping[str, Any], prefix: Sequence[str],
                 budget: int | None = None) -> None:
        self.engine = engine
        self.variant = variant
        self.options = dict(options)
        self.deal = dict(deal)
        self.root = list(prefix)
        self.budget = budget
        self.played = 0

    def reach(self, path: list[str]) -> None:
        """Deal again and play the prefix, then ``path``."""
        self.engine.new_hand(self.variant, dict(self.options), dict(self.deal))
        for action in [*self.root, *path]:
            self.apply(path, action)

    def apply(self, path: list[str], action: str) -> bool:
        """Play ``action``; True when it ended the hand."""
        self.played += 1
        if self.budget is not None and self.played > self.budget:
            raise TooLarge(f"the walk played {self.budget} actions without finishing")
        try:
            events = self.engine.apply(action)
        except EngineRejected as refusal:
            raise Refused(path, action, refusal) from None
        return any(event.get("type") == "end" for event in events)

    def count(self, path: list[str], depth: int, here: bool) -> int:
        """Sequences of ``depth`` actions after ``path`` (``here``: the engine is there)."""
        if not here:
            self.reach(path)
        legal = sorted(set(self.engine.legal()))
        if depth == 1:
            return len(legal)
        total = 0
        at_path = True
        for action in legal:
            if not at_path:
                self.reach(path)
            at_path = False
            ended = self.apply(path, action)
            total += 1 if ended else self.count([*path, action], depth - 1, here=True)
        return total

    def divide(self, depth: int) -> dict[str, int]:
        """The count of sequences of ``depth`` actions per first action."""
        self.reach([])
        out: dict[str, int] = {}
        for index, action in enumerate(sorted(set(self.engine.legal()))):
            if index:
                self.reach([])
            ended = self.apply([], action)
            out[action] = 1 if depth == 1 or ended else self.count([action], depth - 1, True)
        return out


def replay_perft(trace: Trace, engine: EngineLike) -> list[Mismatch]:
    """Count a perft trace's position on ``engine``: one mismatch per first action whose
    count differs (in sorted order), then the total; a refusal is one mismatch."""
    perft = trace.perft
    assert perft is not None
    walker = Walker(engine, trace.variant, trace.options, trace.data["deal"], perft.actions,
                    replay_budget(perft.count, perft.depth, len(perft.actions)))
    try:
        got = walker.divide(perft.depth)
    except TooLarge as error:
        return [Mismatch(trace.path, perft.count_line, "$.count", perft.count, None,
                         f"perft({perft.depth}): {error}; the engine's tree is far larger "
                         f"than the {perft.count} sequences expected")]
    except Refused as refused:
        after = " ".join(refused.path) or "(the position itself)"
        rule = f" ({refused.refusal.rule})" if refused.refusal.rule else ""
        return [Mismatch(trace.path, perft.count_line, "$.actions", "accepted", "refused",
                         f"the engine refused {refused.action!r} after {after}: "
                         f"{refused.refusal.code}: {refused.refusal.message}{rule}")]
    out: list[Mismatch] = []
    for action in sorted(set(perft.divide) | set(got)):
        want, have = perft.divide.get(action), got.get(action)
        if want != have:
            out.append(Mismatch(trace.path, perft.divide_lines.get(action, perft.count_line),
                                spec.json_path(("divide", action)), want, have,
                                f"perft({perft.depth}) after first action {action}: "
                                f"expected {_show(want)}, got {_show(have)}"))
    total = sum(got.values())
    if total != perft.count:
        out.append(Mismatch(trace.path, perft.count_line, "$.count", perft.count, total,
                            f"perft({perft.depth}) = {total}, expected {perft.count}"))
    return out


def _show(value: int | None) -> str:
    return "no such action" if value is None else str(value)
