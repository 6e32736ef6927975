"""Perft cases: count the sequences of d legal actions from fixed positions (R-ALL-11).

Counting every path through the first few actions checks the whole move generator at once:
opening, matching, parity, drawing, passing, the extra tile and the end conditions (a sequence
whose last action ends the hand counts but is not extended). Positions and expected counts live
in ``conformance/perft/<variant>.yaml``; the counts come from an independent generator
(``tests/test_perft_independent.py``), never from the reference. The protocol has no undo, so
the walk re-reaches a position by replaying it from the deal; on a mismatch the count per first
action is compared with the stored breakdown.
"""

from __future__ import annotations

from functools import cache, partial
from importlib.resources import files
from typing import Any

from dominokit.conformance.cases import Params
from dominokit.conformance.cases.compare import diff_text
from dominokit.conformance.driver import Engine
from dominokit.conformance.errors import EngineRejected
from dominokit.conformance.runner import Case, Context, Outcome
from dominokit.reference.yamldoc import load_yaml_data

JsonObject = dict[str, Any]


@cache
def positions(variant: str) -> tuple[JsonObject, ...]:
    """The stored positions of ``variant`` (none when it has no perft file)."""
    path = files("dominokit.conformance") / "perft" / f"{variant}.yaml"
    if not path.is_file():
        return ()
    data = load_yaml_data(path)
    if data.get("variant") != variant:
        raise ValueError(f"{path}: variant must be {variant!r}")
    return tuple(data["positions"])


def cases(variant: str, params: Params) -> list[Case]:
    """One case per stored (position, depth): ``perft/<variant>/<name>-d<depth>``."""
    out = []
    for entry in positions(variant):
        for count in entry["perft"]:
            out.append(Case(
                id=f"perft/{variant}/{entry['name']}-d{count['depth']}", kind="perft",
                variant=variant, body=partial(_run, variant, entry, count),
                options=dict(entry.get("options") or {}), rules=tuple(entry["rules"]),
                description=entry["description"]))
    return out


class _Refused(Exception):
    """The engine refused an action it had listed as legal (or one on the way)."""

    def __init__(self, path: list[str], action: str, refusal: EngineRejected) -> None:
        self.path = path
        self.action = action
        self.refusal = refusal
        super().__init__(action)


class _Walker:
    """Walks the action tree through the protocol, re-reaching positions from the deal."""

    def __init__(self, engine: Engine, variant: str, entry: JsonObject) -> None:
        self.engine = engine
        self.variant = variant
        self.options = dict(entry.get("options") or {})
        self.deal = entry["deal"]
        self.root = list(entry.get("actions") or [])

    def reach(self, path: list[str]) -> None:
        self.engine.new_hand(self.variant, self.options, self.deal)
        for action in [*self.root, *path]:
            self.apply(path, action)

    def apply(self, path: list[str], action: str) -> bool:
        """Play ``action``; True when it ended the hand."""
        try:
            events = self.engine.apply(action)
        except EngineRejected as refusal:
            raise _Refused(path, action, refusal) from None
        return any(event.get("type") == "end" for event in events)

    def count(self, path: list[str], depth: int, here: bool) -> int:
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
        self.reach([])
        out: dict[str, int] = {}
        for index, action in enumerate(sorted(set(self.engine.legal()))):
            if index:
                self.reach([])
            ended = self.apply([], action)
            out[action] = 1 if depth == 1 or ended else self.count([action], depth - 1, True)
        return out


def _run(variant: str, entry: JsonObject, count: JsonObject, engine: Engine,
         ctx: Context) -> Outcome:
    depth, expected = count["depth"], count["count"]
    walker = _Walker(engine, variant, entry)
    rules = tuple(entry["rules"])
    try:
        got = walker.count([], depth, here=False)
    except _Refused as refused:
        where = " ".join(refused.path) or "(the position itself)"
        return Outcome("failed", f"the engine refused {refused.action!r} after {where}: "
                       f"{refused.refusal}", rules=rules)
    if got == expected:
        return Outcome.passed(f"perft({depth}) = {got}")
    stored = count.get("divide")
    try:
        breakdown = walker.divide(depth)
    except _Refused:
        breakdown = {}
    lines = [f"perft({depth}) = {got}, expected {expected} "
             f"(position {entry['name']}: {entry['description']})"]
    if stored is not None and breakdown:
        lines.append("first action: expected -> got")
        for action in sorted(set(stored) | set(breakdown)):
            want, have = stored.get(action), breakdown.get(action)
            if want != have:
                lines.append(f"  {action}: {_show(want)} -> {_show(have)}")
    elif breakdown:
        lines.append("per first action (engine): " + ", ".join(
            f"{a} {n}" for a, n in breakdown.items()))
    return Outcome("failed", "\n".join(lines), step=len(entry.get("actions") or []),
                   expected=stored if stored is not None else expected,
                   got=breakdown if stored is not None else got,
                   diff=diff_text(stored, breakdown, f"perft({depth}) per first action",
                                  "perft data")
                   if stored is not None else "",
                   rules=rules)


def _show(value: int | None) -> str:
    return "absent" if value is None else str(value)

