"""Trace values and loading: what a golden trace file holds, checked and located.

A trace file is data written by people and by the recorder, so every mistake in it must be
reported like a compiler error, ``file:line:col: $.path: message``: the YAML is parsed with
position marks (``dominokit.spec.spec``), validated against ``trace.schema.json``, then
checked for what a schema cannot say (the id matches the file, the variant, options and rules
exist, every deal can be dealt). The loaded ``Trace`` remembers the line of every step so
replay can point at it.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from dominokit.conformance.traces.deals import trace_deal_problems
from dominokit.reference.errors import OptionError, SpecError, SpecProblem
from dominokit.spec import spec

JsonObject = dict[str, Any]
JsonPath = tuple[str | int, ...]

TRACES_PACKAGE = "dominokit.conformance"
TRACES_FOLDER = "traces"
LEGAL_LIST_MAX = 40
"""Legal sets up to this size are written out in full; larger ones as count + sha256."""

MATCH_KEYS = ("hands_played", "totals", "sets_won", "rounds", "winner", "finished", "next")
"""The MatchState fields a match trace records (``phase`` wording is left to each engine)."""

_ID_STEM = re.compile(r"[a-z0-9][a-z0-9-]*")


@dataclass(frozen=True)
class Step:
    """One action of a trace with what must hold around it; ``line`` is 1-based.

    ``refused`` is set on a refused step (a hand trace's last one): the ``code`` and ``rule``
    the engine must refuse the action with; it then has no events, and ``player`` is None
    when the hand is already over.
    """

    action: str
    player: int | None
    events: tuple[JsonObject, ...]
    legal: tuple[str, ...] | None
    legal_count: int | None
    legal_sha256: str | None
    line: int
    where: str
    refused: JsonObject | None = None
    state: JsonObject | None = None
    """The expected state after the action, when the trace states it."""
    undo: bool = False
    """An ``undo`` request (protocol 2) that takes back ``action``, the hand's last action not
    yet taken back: the engine answers it with ``state``, and then ``match_state`` fits
    ``match`` when that is set. It has no player, legal set or events."""
    match: JsonObject | None = None


@dataclass(frozen=True)
class HandTrace:
    """One hand: its deal, steps and expected result (None: the trace stops mid-hand)."""

    deal: JsonObject
    steps: tuple[Step, ...]
    result: JsonObject | None
    plan: JsonObject | None
    line: int
    result_line: int
    where: str
    match: JsonObject | None = None
    """The expected match state right after the hand (match traces; optional)."""
    match_line: int = 0
    start_state: JsonObject | None = None
    """The expected state right after the deal, when the trace states it."""


@dataclass(frozen=True)
class PreludeHand:
    """A hand that only brings a match to its ``start`` state: deal and actions, no answers."""

    deal: JsonObject
    actions: tuple[str, ...]
    line: int
    where: str


@dataclass(frozen=True)
class Perft:
    """A perft trace's position and counts: the prefix from the deal, the depth, the total
    and the count per first action, with the file line of each first action."""

    actions: tuple[str, ...]
    depth: int
    count: int
    divide: dict[str, int]
    count_line: int
    divide_lines: dict[str, int]


@dataclass(frozen=True)
class Trace:
    """A loaded, schema-valid trace; ``hands`` holds one hand unless ``kind`` is match."""

    path: str
    id: str
    description: str
    rules: tuple[str, ...]
    variant: str
    options: JsonObject
    note: str | None
    kind: str
    hands: tuple[HandTrace, ...]
    first_starter: int | None
    match: JsonObject | None
    match_line: int
    data: JsonObject = field(repr=False)
    prelude: tuple[PreludeHand, ...] = ()
    start: JsonObject | None = None
    start_line: int = 0
    perft: Perft | None = None

    @property
    def takes_back(self) -> bool:
        """Whether the trace sends ``undo``: then only an engine declaring it can replay it."""
        return any(step.undo for hand in self.hands for step in hand.steps)

    def hand_number(self, index: int) -> int:
        """The 1-based number in the match of ``hands[index]`` (after the prelude's hands)."""
        return len(self.prelude) + index + 1


@dataclass(frozen=True)
class Mismatch:
    """Where an engine's answer differs from the trace: file line, JSON path, both values."""

    file: str
    line: int
    where: str
    expected: Any
    got: Any
    detail: str = ""

    def __str__(self) -> str:
        text = self.detail or f"expected {short_json(self.expected)}, got {short_json(self.got)}"
        return f"{self.file}:{self.line}: {self.where}: {text}"


def legal_digest(actions: Iterable[str]) -> tuple[int, str]:
    """(count, sha256 hex) of a legal set: the sorted distinct actions joined by newlines."""
    ordered = sorted(set(actions))
    return len(ordered), hashlib.sha256("\n".join(ordered).encode("utf-8")).hexdigest()


def load_trace(source: Path | Traversable | str, text: str | None = None) -> Trace:
    """Load and check one trace file; raises SpecError listing every problem with its line.

    Besides the schema it checks what a schema cannot: the id is ``<variant>/<file stem>``,
    the variant is bundled, the options exist and are not defaults, the rules exist.
    """
    name = str(source)
    document = spec.load_yaml_with_marks(text if text is not None else _as_source(source),
                                         filename=name)
    problems = list(document.problems)
    if not problems:
        problems = spec.schema_problems(document, "trace")
    if not problems:
        problems = _semantic_problems(document, file_stem(name))
    if problems:
        raise SpecError(problems)
    return _build(document)


def _as_source(source: Path | Traversable | str) -> Path | Traversable:
    return Path(source) if isinstance(source, str) else source


def _semantic_problems(document: spec.YamlDocument, stem: str) -> list[SpecProblem]:
    data: JsonObject = document.view
    out: list[SpecProblem] = []
    variant = data["variant"]
    if data["id"] != f"{variant}/{stem}":
        out.append(document.problem(("id",), f"id must be {variant}/{stem!s} "
                                              f"(<variant>/<file stem>), got {data['id']!r}"))
    if not _ID_STEM.fullmatch(stem):
        out.append(document.problem(("id",), f"file stem {stem!r} is not a lowercase slug"))
    if variant not in spec.variant_ids():
        known = ", ".join(spec.variant_ids())
        out.append(document.problem(("variant",), f"no bundled variant {variant!r} ({known})"))
        return out
    loaded = spec.load_variant(variant)
    try:
        loaded.resolve(data["options"])
    except OptionError as error:
        out.append(document.problem(("options",), str(error)))
    else:
        out.extend(trace_deal_problems(document))
    for name, value in data["options"].items():
        option = loaded.options.get(name)
        if option is not None and spec.key_text(option.default) == spec.key_text(value):
            out.append(document.problem(("options", name),
                                        f"{name} is the default; list only non-default options"))
    out.extend(_refused_step_problems(document))
    if data["kind"] == "perft" and sum(data["divide"].values()) != data["count"]:
        out.append(document.problem(("count",), f"count {data['count']} is not the sum of "
                                                f"divide ({sum(data['divide'].values())})"))
    for index, rule_id in enumerate(data["rules"]):
        try:
            spec.rule(rule_id)
        except KeyError:
            out.append(document.problem(("rules", index), f"no rule {rule_id} in the spec"))
    return out


def _refused_step_problems(document: spec.YamlDocument) -> list[SpecProblem]:
    """A refused step ends a hand trace: nothing can follow a refusal, and a match goes on."""
    data: JsonObject = document.view
    out: list[SpecProblem] = []
    if data["kind"] == "hand":
        places: list[tuple[JsonPath, list[JsonObject], bool]] = [((), data["steps"], True)]
    elif data["kind"] == "match":
        places = [(("hands", i), hand["steps"], False) for i, hand in enumerate(data["hands"])]
    else:
        places = []
    for base, raw, may_end in places:
        played: list[str] = []
        for i, step in enumerate(raw):
            if "refused" in step and not (may_end and i == len(raw) - 1):
                out.append(document.problem(
                    (*base, "steps", i, "refused"),
                    "only the last step of a hand trace may be refused"))
            if "undo" not in step:
                played.append(step["action"])
                continue
            last = played.pop() if played else None
            if last != step["undo"]:
                out.append(document.problem(
                    (*base, "steps", i, "undo"),
                    "an undo takes back the hand's last action not yet taken back: "
                    f"{'there is none' if last is None else repr(last)} here"))
    return out


def _build(document: spec.YamlDocument) -> Trace:
    data: JsonObject = document.data

    def line(path: JsonPath) -> int:
        return document.position(path, key=True)[0]

    def steps(raw: list[JsonObject], base: JsonPath) -> tuple[Step, ...]:
        return tuple(
            Step(action=step["undo"], player=None, events=(), legal=None, legal_count=None,
                 legal_sha256=None, line=line((*base, "steps", i)),
                 where=spec.json_path((*base, "steps", i)), state=step["state"], undo=True,
                 match=step.get("match"))
            if "undo" in step else Step(
                action=step["action"],
                player=step["player"],
                events=tuple(step.get("events", ())),
                legal=tuple(step["legal"]) if "legal" in step else None,
                legal_count=step.get("legal_count"),
                legal_sha256=step.get("legal_sha256"),
                line=line((*base, "steps", i)),
                where=spec.json_path((*base, "steps", i)),
                refused=step.get("refused"),
                state=step.get("state"),
            )
            for i, step in enumerate(raw)
        )

    def hand(raw: JsonObject, base: JsonPath) -> HandTrace:
        return HandTrace(
            deal=raw["deal"], steps=steps(raw["steps"], base), result=raw["result"],
            plan=raw.get("plan"), line=line((*base, "deal")),
            result_line=line((*base, "result")), where=spec.json_path(base),
            match=raw.get("match"),
            match_line=line((*base, "match")) if "match" in raw else 0,
            start_state=raw.get("start_state"),
        )

    perft: Perft | None = None
    if data["kind"] == "hand":
        hands: tuple[HandTrace, ...] = (hand(data, ()),)
    elif data["kind"] == "match":
        hands = tuple(hand(raw, ("hands", i)) for i, raw in enumerate(data["hands"]))
    else:
        hands = ()
        perft = Perft(tuple(data["actions"]), data["depth"], data["count"],
                      dict(data["divide"]), line(("count",)),
                      {action: line(("divide", action)) for action in data["divide"]})
    prelude = tuple(PreludeHand(raw["deal"], tuple(raw["actions"]), line(("prelude", i)),
                                spec.json_path(("prelude", i)))
                    for i, raw in enumerate(data.get("prelude", ())))
    return Trace(
        path=document.filename, id=data["id"], description=data["description"],
        rules=tuple(data["rules"]), variant=data["variant"], options=dict(data["options"]),
        note=data.get("note"), kind=data["kind"], hands=hands,
        first_starter=data.get("first_starter"), match=data.get("match"),
        match_line=line(("match",)) if "match" in data else 0, data=data,
        prelude=prelude, start=data.get("start"),
        start_line=line(("start",)) if "start" in data else 0, perft=perft,
    )


def _bundled_root() -> Traversable:
    return resources.files(TRACES_PACKAGE) / TRACES_FOLDER


def bundled_trace_files(variant: str | None = None) -> list[Traversable]:
    """The bundled trace files (of one variant), sorted by variant then file name."""
    root = _bundled_root()
    if not root.is_dir():
        return []
    folders = sorted((f for f in root.iterdir()
                      if f.is_dir() and not f.name.startswith(("_", "."))),
                     key=lambda f: f.name)
    out: list[Traversable] = []
    for folder in folders:
        if variant is None or folder.name == variant:
            out.extend(sorted((f for f in folder.iterdir() if f.name.endswith(".yaml")),
                              key=lambda f: f.name))
    return out


def bundled_traces(variant: str | None = None) -> list[Trace]:
    """Every bundled trace (of one variant), loaded and checked; SpecError on a bad one."""
    return [load_trace(entry) for entry in bundled_trace_files(variant)]


def same_json(a: Any, b: Any) -> bool:
    """JSON equality that tells ``true`` from ``1`` and ignores key order."""
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def short_json(value: Any, limit: int = 300) -> str:
    """One-line JSON of ``value``, cut at ``limit`` characters, for messages."""
    text = json.dumps(value, sort_keys=True, ensure_ascii=False)
    return text if len(text) <= limit else text[:limit] + "..."


def file_stem(name: str) -> str:
    """The stem of a file name or path, whatever the separator."""
    base = re.split(r"[\\/]", name)[-1]
    return base.rsplit(".", 1)[0]
