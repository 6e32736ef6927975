"""Perft through the protocol verbs: counting action sequences, and replaying a perft trace.

An engine that declares the ``undo`` capability (protocol 2) is walked by apply, count below,
undo: each action is played once. Any other engine is walked by the fallback, which re-reaches
a position by dealing again and replaying the path from the deal. Both walks count the same
sequences, in the same order, with the same budget of actions played (an ``undo`` is not
played), and fail with the same messages; only the undo walk can also find a wrong ``undo``.

Its check is the cheapest honest one: at each position it expands, the walk asks ``state``
once, and every ``undo`` back to that position must return exactly that state (the same JSON).
The driver is given that state as the expected answer, so an equal reply needs no schema check
(the perft cases also shadow the engine with the reference, so ``state`` needs none either).

The same walker serves the perft cases (``cases/perft.py``) and perft traces (``kind: perft``,
the repro a failing perft case writes): a trace's expected counts are compared first action by
first action, so a replay names the first subtree whose count differs.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Protocol, cast

from dominokit.conformance.traces.engine import EngineLike
from dominokit.conformance.traces.model import Mismatch, Trace
from dominokit.conformance.wire.errors import EngineRejected
from dominokit.conformance.wire.protocol import JsonObject
from dominokit.conformance.wire.validation import canonical_json, same_json
from dominokit.spec import spec


class UndoEngine(EngineLike, Protocol):
    """An engine of the kit's driver that declared ``undo``: the verb takes the expected state."""

    def undo(self, *, expect: JsonObject | None = None) -> JsonObject: ...


class Refused(Exception):
    """The engine refused an action it had listed as legal (or one on the way)."""

    def __init__(self, path: list[str], action: str, refusal: EngineRejected) -> None:
        self.path = path
        self.action = action
        self.refusal = refusal
        super().__init__(action)


class TooLarge(Exception):
    """The walk played more actions than its budget allows (the tree is far too large)."""


class UndoFailed(Exception):
    """An ``undo`` after ``action`` (played after ``path``) was refused, or did not bring back
    the state the engine reported at that position."""

    def __init__(self, path: list[str], action: str, problem: str) -> None:
        self.path = path
        self.action = action
        self.problem = problem
        where = " ".join(path) or "(the position itself)"
        super().__init__(f"the engine's undo of {action!r} after {where} {problem}")


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
    actions played (None: no bound), so a tree far larger than expected cannot hang a run.

    ``undo``: the engine declared the ``undo`` capability (see the module), so every position
    is left by ``undo`` rather than reached again from the deal.
    """

    def __init__(self, engine: EngineLike, variant: str, options: Mapping[str, Any],
                 deal: Mapping[str, Any], prefix: Sequence[str],
                 budget: int | None = None, *, undo: bool = False) -> None:
        self.engine = engine
        self.variant = variant
        self.options = dict(options)
        self.deal = dict(deal)
        self.root = list(prefix)
        self.budget = budget
        self.undo = undo
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

    def take_back(self, path: list[str], action: str, before: JsonObject, text: str) -> None:
        """Undo ``action`` (played after ``path``); the engine must answer with ``before``,
        the state it reported at ``path`` (``text``: its canonical JSON, made once)."""
        try:
            got = cast(UndoEngine, self.engine).undo(expect=before)
        except EngineRejected as refusal:
            rule = f" ({refusal.rule})" if refusal.rule else ""
            raise UndoFailed(path, action, f"was refused: {refusal.code}: "
                             f"{refusal.message}{rule}") from None
        if got != before or canonical_json(got) != text:  # != first: cheap, and never wrong
            raise UndoFailed(path, action, "returned another state than the engine's state "
                             f"at that position ({_differing(before, got)} differ)")

    def count(self, path: list[str], depth: int, here: bool) -> int:
        """Sequences of ``depth`` actions after ``path`` (``here``: the engine is there).
        Walking by undo, the engine is back at ``path`` when this returns."""
        if not here:
            self.reach(path)
        legal = sorted(set(self.engine.legal()))
        if depth == 1:
            return len(legal)
        return sum(count for _, count in self._below(path, legal, depth))

    def divide(self, depth: int) -> dict[str, int]:
        """The count of sequences of ``depth`` actions per first action."""
        self.reach([])
        return dict(self._below([], sorted(set(self.engine.legal())), depth))

    def _below(self, path: list[str], legal: list[str], depth: int) -> Iterator[tuple[str, int]]:
        """Each of ``legal`` (the engine is at ``path``) with the count of sequences of
        ``depth`` actions it starts, played and then left by ``undo`` or by dealing again."""
        if depth == 1:  # each listed action is one sequence, as ``count`` counts them
            yield from ((action, 1) for action in legal)
            return
        before = self.engine.state() if self.undo else None
        text = "" if before is None else canonical_json(before)
        at_path = True
        for action in legal:
            if not at_path:
                self.reach(path)
            at_path = before is not None
            ended = self.apply(path, action)
            yield action, (1 if ended
                           else self.count([*path, action], depth - 1, here=True))
            if before is not None:
                self.take_back(path, action, before, text)


def _differing(want: object, got: object) -> str:
    """The top-level fields of two states that differ, for a message (``the state`` when
    either is not an object)."""
    if not isinstance(want, dict) or not isinstance(got, dict):
        return "the state"
    keys = [k for k in dict.fromkeys([*want, *got]) if not same_json(want.get(k, ...),
                                                                     got.get(k, ...))]
    return ", ".join(keys) or "the key order"


def replay_perft(trace: Trace, engine: EngineLike, *, undo: bool = False) -> list[Mismatch]:
    """Count a perft trace's position on ``engine`` (``undo``: it declared the capability):
    one mismatch per first action whose count differs (in sorted order), then the total; a
    refusal, or an undo that failed, is one mismatch."""
    perft = trace.perft
    assert perft is not None
    walker = Walker(engine, trace.variant, trace.options, trace.data["deal"], perft.actions,
                    replay_budget(perft.count, perft.depth, len(perft.actions)), undo=undo)
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
    except UndoFailed as failed:
        return [Mismatch(trace.path, perft.count_line, "$.actions", "undone", "not undone",
                         str(failed))]
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
