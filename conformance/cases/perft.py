"""Perft cases: count the sequences of d legal actions from fixed positions (R-ALL-11).

Counting every path through the first few actions checks the whole move generator at once:
opening, matching, parity, drawing, passing, the extra tile and the end conditions (a sequence
whose last action ends the hand counts but is not extended). Positions and expected counts live
in ``conformance/perft/<variant>.yaml``; the counts come from an independent generator
(``tests/reference/test_perft_independent.py``), never from the reference. The walk is
``traces.perft.Walker``, by ``undo`` when the engine's ``hello`` declares it and by replaying
from the deal otherwise (same counts either way); on a mismatch the count per first action is
compared with the stored breakdown, and a perft trace (the deal, the prefix and the divided
counts) is written as the repro, so ``dominokit trace replay`` re-runs just that count.
"""

from __future__ import annotations

from functools import cache, partial
from importlib.resources import files
from typing import Any

from dominokit.conformance.cases import Params
from dominokit.conformance.cases import repro as repros
from dominokit.conformance.cases.compare import Blame, diff_text, legal_summary, unique
from dominokit.conformance.cases.model import Case, Context, Outcome
from dominokit.conformance.cases.shadow import LegalDifference, Shadowed
from dominokit.conformance.kit.driver import Engine
from dominokit.conformance.traces.perft import (
    Refused,
    TooLarge,
    UndoFailed,
    Walker,
    replay_budget,
)
from dominokit.reference.errors import DominokitError
from dominokit.spec.yamldoc import load_yaml_data

JsonObject = dict[str, Any]

PROTOCOL_RULE = "R-ALL-03"
"""What a failed ``undo`` cites: the protocol's own ruling (as the protocol-only request cases
list it), since no rule of the book decides how an engine takes an action back."""


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


def _run(variant: str, entry: JsonObject, count: JsonObject, engine: Engine,
         ctx: Context) -> Outcome:
    depth, expected = count["depth"], count["count"]
    options = dict(entry.get("options") or {})
    prefix = list(entry.get("actions") or [])
    undo = ctx.hello is not None and "undo" in ctx.hello.capabilities
    # Shadowed: each reply is compared with the reference's, and checked in full only when it
    # differs (a state's full check costs milliseconds; a walk asks one per position).
    shadowed = Shadowed(engine)
    walker = Walker(shadowed, variant, options, entry["deal"], prefix,
                    replay_budget(expected, depth, len(prefix)), undo=undo)
    rules = tuple(entry["rules"])
    try:
        got = walker.count([], depth, here=False)
    except TooLarge as error:
        return Outcome("failed", f"perft({depth}): {error}; the engine's tree is far larger "
                       f"than the {expected} sequences expected", rules=rules,
                       repro=_write_repro(ctx, variant, entry, count))
    except Refused as refused:
        where = " ".join(refused.path) or "(the position itself)"
        return Outcome("failed", f"the engine refused {refused.action!r} after {where}: "
                       f"{refused.refusal}", rules=rules, knock_on=True)
    except UndoFailed as failed:  # the protocol's undo, not the position's rules, failed
        return Outcome("failed", f"perft({depth}): {failed}", rules=(PROTOCOL_RULE, *rules))
    found = shadowed.first_legal_difference
    if found is not None:  # a legal list differs, even where the counts happen to agree
        return _legal_difference(ctx, variant, entry, count, got, found)
    if got == expected:
        return Outcome.passed(f"perft({depth}) = {got}")
    stored = count.get("divide")
    walker.played = 0
    try:
        breakdown = walker.divide(depth)
    except (Refused, TooLarge, UndoFailed):
        breakdown = {}
    repro = _write_repro(ctx, variant, entry, count)
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
                   rules=rules, repro=repro)


def _legal_difference(ctx: Context, variant: str, entry: JsonObject, count: JsonObject,
                      got: int, found: LegalDifference) -> Outcome:
    """A count that differs because a legal list does: the first position where it did, with
    the actions missing and extra, blamed on the rule the reference cites there."""
    depth, expected = count["depth"], count["count"]
    hand = found.hand
    missing = set(found.expected) - set(found.got)
    extra = set(found.got) - set(found.expected)
    blame = Blame(hand.rules)
    step = len(entry.get("actions") or [])
    counted = f"perft({depth}) = {got}, expected {expected}" if got != expected else \
        f"perft({depth}) = {got} as expected, but"
    message = (f"{counted}: the legal actions differ at a position of the walk: "
               f"{legal_summary(missing, extra)}")
    return Outcome("failed", message, step=step, expected=sorted(found.expected),
                   got=sorted(set(found.got)), rules=unique([*blame.legal(hand, missing, extra),
                                                            *entry["rules"]]),
                   diff=diff_text(sorted(found.expected), sorted(set(found.got)),
                                  "legal actions"),
                   repro=_write_repro(ctx, variant, entry, count))


def _write_repro(ctx: Context, variant: str, entry: JsonObject, count: JsonObject
                 ) -> str | None:
    """The perft trace of the failing count, with the stored divide (or, where the perft file
    stores none, the reference's count per first action); None if it cannot be written."""
    case_id = f"perft/{variant}/{entry['name']}-d{count['depth']}"
    try:
        return repros.write_perft(
            ctx.report_dir, case_id, variant, dict(entry.get("options") or {}), entry["deal"],
            list(entry.get("actions") or []), count["depth"], count.get("divide"),
            tuple(entry["rules"]), note=f"position {entry['name']} of conformance/perft/"
            f"{variant}.yaml: {entry['description']}")
    except DominokitError:
        return None


def _show(value: int | None) -> str:
    return "absent" if value is None else str(value)

