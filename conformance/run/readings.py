"""Which reading does the engine follow: the reference run under each alternative of a rule.

Many rulings close a gap in the source texts with a decision and name another reading
(``alternative:``); an engine written from the terse texts often plays exactly that other
reading. The spec keeps each such reading beside its decision as data (``ruling.readings``: a
name and the mechanic parameters it sets, ``spec/schema/common.schema.json``), and a ruling
behind an option has the option's other values as its readings. Here the reference is run
under a reading (``ReadingEngine``: the variant's data overlaid, never a branch in code) on
the cases of one cause, and the reading is reported as matching only when every one of those
cases ends exactly as it did for the engine: the same status, at the same step, with the same
answer where they diverge from the decision.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from dominokit.conformance.serve.refengine import ReferenceEngine
from dominokit.conformance.serve.refengine import _parse_deal as parse_deal
from dominokit.conformance.serve.refengine import _refusals as refusals
from dominokit.reference import Rules, Variant, load_rules, load_variant, new_hand, new_match
from dominokit.spec.spec import bundled_common_file, is_option_ref
from dominokit.spec.yamldoc import load_yaml_data

if TYPE_CHECKING:
    from dominokit.conformance.cases.model import Case
    from dominokit.conformance.run.causes import Cause
    from dominokit.conformance.run.report import CaseRecord, Report

JsonObject = dict[str, Any]


@dataclass(frozen=True)
class Reading:
    """One way of reading ``rule``: an alternative (``changes``: dotted path -> value) or an
    option value (``option``, ``value``) played whatever the request declares."""

    rule: str
    name: str
    says: str
    changes: tuple[tuple[str, Any], ...] = ()
    option: str | None = None
    value: object = None

    def to_json(self) -> JsonObject:
        """The reading as the report names it."""
        out: JsonObject = {"rule": self.rule, "reading": self.name, "says": self.says}
        if self.option is not None:
            out["option"] = {self.option: self.value}
        return out

    def overlay(self, variant: Variant) -> Variant:
        """``variant`` with this reading's parameters: the data changed, nothing else."""
        data = copy.deepcopy(variant.data)
        options = dict(variant.options)
        for dotted, value in self.changes:
            _set(data, dotted, value)
        if self.option is not None and self.option in options:
            data = _fix_option(data, self.option, self.value)
            spec = options[self.option]
            fixed = spec.overrides.get(self.value, {})
            options[self.option] = dataclasses.replace(
                spec, overrides=dict.fromkeys(spec.values, fixed))
        return dataclasses.replace(variant, data=data, options=options)


def _set(data: dict[str, Any], dotted: str, value: Any) -> None:
    *parents, last = dotted.split(".")
    node: Any = data
    for key in parents:
        node = node[key]
    node[last] = copy.deepcopy(value)


def _fix_option(node: Any, name: str, value: object, top: bool = True) -> Any:
    """``{option: name}`` replaced by ``value`` everywhere but the options and rules."""
    if is_option_ref(node) and node["option"] == name:
        return value
    if isinstance(node, dict):
        return {k: v if top and k in ("options", "rules") else _fix_option(v, name, value, False)
                for k, v in node.items()}
    if isinstance(node, list):
        return [_fix_option(item, name, value, False) for item in node]
    return node


@cache
def _common_rulings() -> dict[str, JsonObject]:
    data = load_yaml_data(bundled_common_file())
    return {entry["id"]: entry.get("ruling") or {} for entry in data["rules"]}


def _ruling(rule_id: str, variant_id: str) -> JsonObject:
    for entry in load_variant(variant_id).data["rules"]:
        if entry["id"] == rule_id:
            ruling: JsonObject = entry.get("ruling") or {}
            return ruling
    return _common_rulings().get(rule_id, {})


def readings_for(rule_id: str, variant_id: str) -> list[Reading]:
    """Every reading of ``rule_id`` the reference can run in ``variant_id``: its ruling's
    alternatives as data, and each value of an option the rule is behind."""
    ruling = _ruling(rule_id, variant_id)
    out = [Reading(rule_id, entry["name"], entry["says"], tuple(entry["set"].items()))
           for entry in ruling.get("readings") or ()]
    variant = load_variant(variant_id)
    for name, spec in variant.options.items():
        if spec.rule == rule_id or ruling.get("option") == name:
            out += [Reading(rule_id, f"{name}={_text(value)}",
                            f"plays {name}={_text(value)}", option=name, value=value)
                    for value in spec.values]
    return [r for r in out if _applies(r, variant)]


def _applies(reading: Reading, variant: Variant) -> bool:
    """A reading whose paths the variant file does not have, or that changes nothing there
    (Poldomino already lets a player pass at will), is not one of the variant's readings."""
    for dotted, _ in reading.changes:
        node: Any = variant.data
        for key in dotted.split(".")[:-1]:
            if not isinstance(node, dict) or key not in node:
                return False
            node = node[key]
    return reading.option is not None or reading.overlay(variant).data != variant.data


def _text(value: object) -> str:
    return json.dumps(value) if not isinstance(value, str) else value


class ReadingEngine(ReferenceEngine):
    """The reference playing ``variant`` under ``reading``; other variants as decided.

    ``capabilities`` are the tested engine's, so each case takes the same path (a walk by
    replay rather than by ``undo``) and asks the same questions."""

    def __init__(self, reading: Reading, variant: str,
                 capabilities: Sequence[str] = ()) -> None:
        super().__init__()
        self.reading = reading
        self.variant = variant
        self.capabilities = tuple(capabilities)
        self._changed = reading.overlay(load_variant(variant))
        self._rules_cache: dict[str, Rules] = {}

    def __repr__(self) -> str:
        return f"ReadingEngine({self.reading.rule}: {self.reading.name})"

    def hello(self) -> JsonObject:
        hello = super().hello()
        hello["name"] = f"reference under {self.reading.rule} {self.reading.name}"
        hello["capabilities"] = list(self.capabilities)
        return hello

    def _rules(self, options: Mapping[str, Any]) -> Rules:
        key = json.dumps(dict(options), sort_keys=True)
        if key not in self._rules_cache:
            self._rules_cache[key] = load_rules(self._changed, dict(options))
        return self._rules_cache[key]

    def new_hand(self, variant: str, options: Mapping[str, Any],
                 deal: Mapping[str, Any]) -> JsonObject:
        state = super().new_hand(variant, options, deal)  # the request checked as decided
        if variant != self.variant:
            return state
        with refusals():
            self._hand = new_hand(self._rules(options), parse_deal(deal))
        return self._hand.to_json()

    def new_match(self, variant: str, options: Mapping[str, Any],
                  first_starter: int) -> JsonObject:
        state = super().new_match(variant, options, first_starter)
        if variant != self.variant:
            return state
        self._match = new_match(self._changed, dict(options), first_starter)
        return self._match.to_json()


def _same_end(mine: CaseRecord, theirs: CaseRecord) -> bool:
    """The two runs of one case ended alike: status, and where and how they diverged."""
    a, b = mine.outcome, theirs.outcome
    if a.status != b.status:
        return False
    if a.knock_on or b.knock_on:
        return a.knock_on == b.knock_on
    return (a.step, a.hand, _canon(a.expected), _canon(a.got)) == \
        (b.step, b.hand, _canon(b.expected), _canon(b.got))


def _canon(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=str)


Rerun = Callable[[object, Sequence["Case"], str], "Report"]
"""Runs cases against an engine object with repros in a folder, quietly (the runner's)."""


def diagnose(report: Report, cases: Sequence[Case], rerun: Rerun) -> list[JsonObject]:
    """For each cause with a rule, every reading of it, and whether the engine's cases match
    it exactly; the list the report keeps as ``readings``. ``rerun`` is the runner's own
    loop, passed in so that this module does not import the runner that calls it."""

    by_id = {case.id: case for case in cases}
    found: list[JsonObject] = []
    capabilities = tuple(report.hello.capabilities) if report.hello else ()
    records = {r.case_id: r for r in report.records}
    for cause in report.causes():
        if cause.rule is None:
            continue
        chosen = [by_id[i] for i in cause.cases if i in by_id]
        for reading in readings_for(cause.rule, cause.variant):
            if not _worth_running(reading, chosen):
                continue
            with tempfile.TemporaryDirectory(prefix="dominokit-reading-") as folder:
                ran = rerun(ReadingEngine(reading, cause.variant, capabilities), chosen,
                            folder)
            matches = all(_same_end(records[r.case_id], r) for r in ran.records)
            found.append({**reading.to_json(), "cause": cause.id, "matches": matches,
                          **_declared(report, cause, reading)})
    return found


def _worth_running(reading: Reading, cases: Sequence[Case]) -> bool:
    """An option value the cases themselves ask for is the decision, not another reading."""
    if reading.option is None:
        return True
    return any(case.options.get(reading.option, _default(case, reading)) != reading.value
               for case in cases)


def _default(case: Case, reading: Reading) -> object:
    assert reading.option is not None
    return load_variant(case.variant).options[reading.option].default


def _declared(report: Report, cause: Cause, reading: Reading) -> JsonObject:
    """For an option reading: the values the engine's hello declared for that option."""
    if reading.option is None or report.hello is None:
        return {}
    options = report.hello.variants.get(cause.variant, {})
    return {"declared": options.get(reading.option) if isinstance(options, dict) else None}
