"""Vectors from the suite's cases, with the reference's answers as the expected values.

Every case ``conform`` would run for a variant is run here against a ``Recorder``; what it
played becomes hand and match vectors, what it had refused becomes refusal vectors. Two kinds
are read as data instead, because their inputs already are data: perft positions and counts
(``conformance/perft``, counts from an independent generator) and the requests probes (some
are raw lines, which no in-process engine reads). The expected answers are then asked of a
fresh reference for each vector, so a vector holds every answer at every step however the case
that played it compared them.
"""

from __future__ import annotations

import base64
import hashlib
import json
import tempfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from dominokit.conformance.cases import collect, perft
from dominokit.conformance.cases import requests as request_cases
from dominokit.conformance.cases.model import Case, Context
from dominokit.conformance.export.record import (
    HandPlay,
    MatchPlay,
    Recorder,
    Refused,
    sessions,
)
from dominokit.conformance.serve.refengine import ReferenceEngine
from dominokit.conformance.traces.model import LEGAL_LIST_MAX, legal_digest
from dominokit.reference.errors import DominokitError

JsonObject = dict[str, Any]

KINDS: Final = ("hands", "refusals", "perft", "matches")
"""The vector files of a variant, in the order the manifest lists them."""

DATA_KINDS: Final = frozenset({"perft", "requests"})
"""Case kinds exported from their data, not by recording (see the module docstring)."""


class ExportError(DominokitError, RuntimeError):
    """A case that did not pass against the reference: the kit, not an engine, is wrong."""


@dataclass
class Collected:
    """The vectors of one variant, per kind, merged where two cases played the same thing."""

    by_kind: dict[str, dict[str, JsonObject]] = field(
        default_factory=lambda: {kind: {} for kind in KINDS})

    def add(self, kind: str, body: JsonObject, case: Case) -> None:
        """Add a vector (its content without id, cases and rules), or merge ``case`` into
        the same content already added by another case."""
        key = canonical(body)
        found = self.by_kind[kind].get(key)
        if found is None:
            found = {**body, "cases": [], "rules": []}
            self.by_kind[kind][key] = found
        _merge(found, [case.id], case.rules)

    def vectors(self, kind: str) -> list[JsonObject]:
        """The finished vectors of ``kind``: named, with hands that only repeat the start of
        a longer hand folded into it."""
        items = list(self.by_kind[kind].items())
        if kind == "hands":
            items = _fold_prefixes(items)
        out = []
        for key, vector in items:
            digest = hashlib.sha256(key.encode("utf-8")).hexdigest()[:10]
            base = vector["cases"][0]
            if kind == "perft":  # one vector holds every depth of a position
                base = base.rsplit("-d", 1)[0]
            out.append({"id": f"{base}@{digest}", **vector})
        return out


def canonical(value: Any) -> str:
    """The canonical JSON text the export hashes and compares (sorted keys, no spaces)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _merge(vector: JsonObject, cases: Iterable[str], rules: Iterable[str]) -> None:
    vector["cases"] = list(dict.fromkeys([*vector["cases"], *cases]))
    vector["rules"] = sorted(set(vector["rules"]) | set(rules))


def _fold_prefixes(items: list[tuple[str, JsonObject]]) -> list[tuple[str, JsonObject]]:
    """Drop each hand whose actions start a longer hand of the same deal and options (the
    longer one checks every answer it holds), crediting its cases to the longer one."""
    kept: list[tuple[str, JsonObject]] = []
    for key, vector in items:
        actions = [step["action"] for step in vector["steps"]]
        longer = next((other for _, other in items if other is not vector
                       and _start(other) == _start(vector)
                       and len(other["steps"]) > len(actions)
                       and [s["action"] for s in other["steps"][:len(actions)]] == actions),
                      None)
        if longer is None:
            kept.append((key, vector))
        else:
            _merge(longer, vector["cases"], vector["rules"])
    return kept


def _start(vector: JsonObject) -> str:
    return canonical([vector["options"], vector["deal"]])


def legal_value(actions: Iterable[str]) -> JsonObject:
    """A legal set as a vector holds it: the sorted actions, or for more than
    ``LEGAL_LIST_MAX`` actions their count and the sha256 of the sorted actions joined by
    newlines (UTF-8, no final newline), the rule golden traces use."""
    ordered = sorted(set(actions))
    if len(ordered) <= LEGAL_LIST_MAX:
        return {"actions": ordered}
    count, digest = legal_digest(ordered)
    return {"count": count, "sha256": digest}


def hand_vector(play: HandPlay) -> JsonObject:
    """A standalone hand with the reference's answer at every step."""
    start = play.start
    ref = ReferenceEngine()
    state = ref.new_hand(start["variant"], dict(start["options"]), dict(start["deal"]))
    steps = []
    for action in play.actions:
        legal = legal_value(ref.legal())
        events = ref.apply(action)
        steps.append({"legal": legal, "action": action, "events": events,
                      "state": ref.state()})
    final = ref.state()
    return {"variant": start["variant"], "options": start["options"], "deal": start["deal"],
            "start": state, "steps": steps, "final_legal": legal_value(ref.legal()),
            "result": final.get("result")}


def _match_json(match: Mapping[str, Any]) -> JsonObject:
    """A match state as compared: without ``phase``, whose wording is each engine's own."""
    return {k: v for k, v in match.items() if k != "phase"}


def match_vector(play: MatchPlay) -> JsonObject:
    """A match: each hand's deal, starting state and actions, and the match state after."""
    start = play.start
    ref = ReferenceEngine()
    first = ref.new_match(start["variant"], dict(start["options"]), start["first_starter"])
    hands = []
    for hand in play.hands:
        state = ref.next_hand(dict(hand.start["deal"]))
        for action in hand.actions:
            ref.apply(action)
        hands.append({"deal": hand.start["deal"], "start": state,
                      "actions": list(hand.actions), "match": _match_json(ref.match_state())})
    return {"variant": start["variant"], "options": start["options"],
            "first_starter": start["first_starter"], "start": _match_json(first),
            "hands": hands}


def refusal_vector(refused: Refused) -> JsonObject:
    """A refused request, the requests that reach its position, and the refusal."""
    return {"setup": list(refused.setup), "request": refused.request,
            "error": refused.error}


def _recorded(case: Case, collected: Collected, scratch: Path) -> None:
    engine = Recorder()
    outcome = case.run(engine, Context(report_dir=scratch, hello=engine.hello()))
    if outcome.status not in ("passed", "not_applicable"):
        raise ExportError(f"{case.id}: the reference does not pass its own case "
                          f"({outcome.status}): {outcome.message}")
    found = sessions(engine.entries)
    for hand in found.hands:
        if hand.actions:
            collected.add("hands", hand_vector(hand), case)
    for match in found.matches:
        if match.hands:
            collected.add("matches", match_vector(match), case)
    for refused in found.refused:
        collected.add("refusals", refusal_vector(refused), case)


NOT_EXPORTED: Final = frozenset({"no-command", "hello-mid-session"})
"""Request cases the vectors' form cannot hold: a vector's raw line is one with no readable
seq (these have one), and a vector's setup has no ``hello`` (the session's own handshake)."""


def _probes(case: Case, seed: int, collected: Collected) -> None:
    name = case.id.rsplit("/", 1)[-1]
    if name in NOT_EXPORTED:
        return
    for probe in request_cases.probes(case.variant, name, seed):
        if "error" not in probe.expected:
            raise ExportError(f"{case.id}: the reference accepts {probe.what}")
        setup = [{"cmd": r.cmd, **dict(r.fields)} for r in probe.setup]
        body: JsonObject = {"setup": setup}
        if isinstance(probe.request, bytes):
            body["line_base64"] = base64.b64encode(probe.request).decode("ascii")
        else:
            body["request"] = {"cmd": probe.request.cmd, **dict(probe.request.fields)}
        body["error"] = {"code": probe.expected["error"], "rule": probe.expected.get("rule")}
        collected.add("refusals", body, case)


def _perft(case: Case, collected: Collected) -> None:
    name = case.id.rsplit("/", 1)[-1].rsplit("-d", 1)[0]
    entry = next(e for e in perft.positions(case.variant) if e["name"] == name)
    body = {"name": entry["name"], "description": entry["description"],
            "variant": case.variant, "options": dict(entry.get("options") or {}),
            "deal": entry["deal"], "actions": list(entry.get("actions") or []),
            "counts": [dict(count) for count in entry["perft"]]}
    collected.add("perft", body, case)


def collect_vectors(variant: str, *, examples: int, seed: int = 0) -> Collected:
    """Every vector of ``variant``'s cases, for ``examples`` random hands per case."""
    collected = Collected()
    with tempfile.TemporaryDirectory(prefix="dominokit-export-") as scratch:
        for case in collect([variant], examples=examples, seed=seed):
            if case.id.rsplit("/", 1)[-1] in request_cases.UNDO_CASES:
                continue  # vectors hold protocol-1 requests only (no engine must know undo)
            if case.kind == "perft":
                _perft(case, collected)
            elif case.kind == "requests":
                _probes(case, seed, collected)
            else:
                _recorded(case, collected, Path(scratch))
    return collected
