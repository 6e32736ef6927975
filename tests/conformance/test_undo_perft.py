"""The perft walk by ``undo``: the same counts as the replay walk, each action played once, and
a wrong ``undo`` reported as such (conformance/traces/perft.py)."""

from __future__ import annotations

import dataclasses
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from dominokit.conformance.cases import Params
from dominokit.conformance.cases import perft as perft_cases
from dominokit.conformance.cases.model import Context, run_case
from dominokit.conformance.kit.inprocess import InProcessEngine
from dominokit.conformance.serve.refengine import ReferenceEngine
from dominokit.conformance.traces.perft import TooLarge, UndoFailed, Walker
from tests.conformance.engines.protocol_one import ProtocolOne

JsonObject = dict[str, Any]


class Counting(ReferenceEngine):
    """The reference, counting the verbs it is asked (work units, not time)."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: Counter[str] = Counter()

    def new_hand(self, variant: str, options: Any, deal: Any) -> JsonObject:
        self.calls["new_hand"] += 1
        return super().new_hand(variant, options, deal)

    def apply(self, action: str) -> list[JsonObject]:
        self.calls["apply"] += 1
        return super().apply(action)

    def undo(self) -> JsonObject:
        self.calls["undo"] += 1
        return super().undo()


class ForgetsTheStock(ReferenceEngine):
    """An undo that puts the hand back but leaves the stock as the undone action left it."""

    def undo(self) -> JsonObject:
        stock = None if self._hand is None else self._hand.stock
        state = super().undo()
        if stock is not None and self._hand is not None and stock != self._hand.stock:
            self._hand = dataclasses.replace(self._hand, stock=stock)
            return self._hand.to_json()
        return state


class RefusesSecondUndo(ReferenceEngine):
    """An undo that works once per hand, then says there is nothing to take back."""

    def __init__(self) -> None:
        super().__init__()
        self.undone = 0

    def undo(self) -> JsonObject:
        self.undone += 1
        if self.undone > 1:
            from dominokit.conformance.wire.errors import EngineRejected

            raise EngineRejected("bad_request", "nothing to undo")
        return super().undo()


def _position(variant: str, name: str) -> JsonObject:
    return next(p for p in perft_cases.positions(variant) if p["name"] == name)


CHOSEN = [("poldomino", "double-opening", 3), ("poldomino", "empty-stock", 3),
          ("szczerbak", "blank-end", 3), ("progressive", "stuck-empty-stock", 4),
          ("classic_block", "pass-and-block", 6), ("pijanowski", "double-blank-corner", 2)]


@pytest.mark.rule("R-ALL-11")
@pytest.mark.parametrize(("variant", "name", "depth"), CHOSEN)
def test_the_undo_walk_counts_what_the_replay_walk_counts(variant: str, name: str,
                                                         depth: int) -> None:
    entry = _position(variant, name)
    stored = next(c for c in entry["perft"] if c["depth"] == depth)
    by_undo, by_replay = Counting(), Counting()
    walks: dict[bool, tuple[dict[str, int], int]] = {}
    for obj, undo in ((by_undo, True), (by_replay, False)):
        engine = InProcessEngine(obj)
        engine.hello()
        walker = Walker(engine, variant, dict(entry.get("options") or {}), entry["deal"],
                        list(entry.get("actions") or []), undo=undo)
        walks[undo] = (walker.divide(depth), walker.played)
    assert walks[True][0] == walks[False][0] == stored["divide"]
    assert sum(walks[True][0].values()) == stored["count"]
    # Undo deals once, plays the prefix once and every other action once, and takes each of
    # those back; replay deals again for every position it leaves. ``played`` is what the
    # budget bounds in both walks: the applies sent.
    prefix = len(entry.get("actions") or [])
    assert by_undo.calls["new_hand"] == 1
    assert by_undo.calls["apply"] == walks[True][1]
    assert by_undo.calls["undo"] == walks[True][1] - prefix
    assert by_replay.calls["new_hand"] > 1 and by_replay.calls["undo"] == 0
    assert by_replay.calls["apply"] == walks[False][1] > walks[True][1]


def test_the_walk_counts_from_a_position_by_undo_too() -> None:
    entry = _position("poldomino", "last-tile")
    engine = InProcessEngine(Counting())
    engine.hello()
    walker = Walker(engine, "poldomino", {}, entry["deal"], entry["actions"], undo=True)
    assert walker.count([], 4, here=False) == 82  # conformance/perft/poldomino.yaml
    assert walker.count([], 4, here=False) == 82  # a second count starts afresh


def test_an_undo_walk_keeps_the_budget_of_actions_played() -> None:
    entry = _position("poldomino", "start")
    engine = InProcessEngine(ReferenceEngine())
    engine.hello()
    walker = Walker(engine, "poldomino", {}, entry["deal"], [], budget=5, undo=True)
    with pytest.raises(TooLarge):
        walker.divide(3)


@pytest.mark.parametrize(("obj", "words"), [
    (ForgetsTheStock(), "returned another state than the engine's state at that position "
                        "(stock differ)"),
    (RefusesSecondUndo(), "was refused: bad_request: nothing to undo"),
])
def test_a_wrong_undo_is_a_failure_naming_undo(obj: object, words: str) -> None:
    entry = _position("poldomino", "start")
    engine = InProcessEngine(obj)
    engine.hello()
    walker = Walker(engine, "poldomino", {}, entry["deal"], [], undo=True)
    with pytest.raises(UndoFailed) as failed:
        walker.divide(3)
    assert words in str(failed.value) and "the engine's undo of" in str(failed.value)


def _case(name: str) -> Any:
    return next(c for c in perft_cases.cases("poldomino", Params())
                if c.id == f"perft/poldomino/{name}")


@pytest.mark.parametrize(("obj", "status", "words"), [
    (ReferenceEngine(), "passed", "perft(3) = 84"),
    (ProtocolOne(), "passed", "perft(3) = 84"),
    (ForgetsTheStock(), "failed", "the engine's undo of"),
])
def test_the_perft_case_walks_by_undo_only_when_hello_declares_it(
        obj: object, status: str, words: str, tmp_path: Path) -> None:
    engine = InProcessEngine(obj)
    ctx = Context(tmp_path, hello=engine.hello())
    assert ("undo" in ctx.hello.capabilities) is not isinstance(obj, ProtocolOne)
    outcome = run_case(_case("start-d3"), engine, ctx)
    assert (outcome.status, words in outcome.message) == (status, True), outcome.message
