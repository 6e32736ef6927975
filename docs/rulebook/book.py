"""What the rule book is made from, loaded once, and where each page and rule anchor lives.

Every page links rule ids to the page that states them, so the map from rule id to page, and
the spec and traces it is built from, are loaded here once and handed to every page maker as
one ``Book``. The page paths are fixed here too: they are the files ``docs/gen_pages.py``
writes and the ``nav:`` of ``mkdocs.yml`` names.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Final

import yaml

from dominokit.conformance.traces import Trace, bundled_trace_files, load_trace
from dominokit.reference import RuleEntry, Variant, load_variant, variant_ids
from dominokit.rulebook.text import md, relative
from dominokit.spec.spec import common_rules

JsonObject = dict[str, Any]

COMMON_PAGE: Final = "variants/common.md"
OPENING_PAGE: Final = "variants/pijanowski-opening.md"
PROTOCOL_PAGE: Final = "engines/protocol.md"
NOTATION_PAGE: Final = "engines/notation.md"
TRACE_FORMAT_PAGE: Final = "contributing/trace-format.md"
RULE_INDEX_PAGE: Final = "contributing/rule-index.md"
OPENING_TRACE: Final = "pijanowski/published-opening"
READING_PAGE: Final = "variants/reading.md"
"""How the book writes tiles, chain ends and board cells, for players (the engines' notation
is on ``NOTATION_PAGE``)."""
EXAMPLE_PREFIXES: Final = ("seed-", "published-")
"""Traces whose file stem starts with one of these are worked examples on their variant page."""

_RULE_ID: Final = re.compile(r"\bR-[A-Z]{3}-[0-9]{2}\b")
_NAME: Final = re.compile(r"(?<![\w`\\])([a-z][a-z0-9]*(?:\\_[a-z0-9]+)+)"
                          r"(?:( = )([a-z][a-z0-9]*(?:\\_[a-z0-9]+)*))?(?![\w`])")
"""A snake_case name of the spec (an option, a value, a policy) in escaped Markdown, with the
value it is set to when written ``name = value``."""


def _code_name(match: re.Match[str]) -> str:
    name = f"`{match[1].replace(chr(92), '')}`"
    if match[2]:
        return f"{name} = `{match[3].replace(chr(92), '')}`"
    return name


def variant_page(variant_id: str) -> str:
    """Where the page of a variant lives, relative to ``docs/``."""
    return f"variants/{variant_id}.md"


@dataclass(frozen=True)
class TraceInfo:
    """What the tables need of a bundled trace: its header fields and its text.

    Read with the fast YAML loader; only the traces that are drawn are loaded in full (with
    ``load_trace``, which checks them), because checking all of them would slow every build.
    A page maker loads the trace it draws whenever it needs it (a trace is drawn on up to
    fourteen pages), so each text is loaded and checked once (``_checked``).
    """

    id: str
    variant: str
    kind: str
    description: str
    rules: tuple[str, ...]
    path: str
    text: str = field(repr=False)

    def load(self) -> Trace:
        """The whole trace, schema-checked (SpecError if it is not valid)."""
        return _checked(self.path, self.text)

    @property
    def is_example(self) -> bool:
        """Whether this is a worked example: a hand trace named with an ``EXAMPLE_PREFIXES``."""
        stem = self.id.split("/", 1)[1]
        return self.kind == "hand" and stem.startswith(EXAMPLE_PREFIXES)


_LOADER: Final = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@functools.cache
def _checked(path: str, text: str) -> Trace:
    """``load_trace`` of one trace text, once: checking a trace's schema is most of a book
    build's time when every page that draws it checks it again. Keyed by the text itself, so
    an edited file is checked afresh."""
    return load_trace(path, text)


def _trace_infos() -> tuple[TraceInfo, ...]:
    infos: list[TraceInfo] = []
    for entry in bundled_trace_files():
        text = entry.read_text(encoding="utf-8")
        data = yaml.load(text, Loader=_LOADER)
        infos.append(TraceInfo(data["id"], data["variant"], data["kind"], data["description"],
                               tuple(data["rules"]), str(entry), text))
    return tuple(infos)


@dataclass(frozen=True)
class Book:
    """Everything the pages are made from, loaded once: variants, common rules, traces."""

    variants: tuple[Variant, ...]
    common: tuple[RuleEntry, ...]
    traces: tuple[TraceInfo, ...]

    @classmethod
    def load(cls) -> Book:
        """The bundled spec and traces."""
        variants = tuple(load_variant(v) for v in variant_ids())
        return cls(variants, common_rules(), _trace_infos())

    @property
    def rule_pages(self) -> dict[str, str]:
        """Rule id -> the page that carries its anchor."""
        pages = {entry.id: COMMON_PAGE for entry in self.common}
        for variant in self.variants:
            pages.update({entry.id: variant_page(variant.id) for entry in variant.rules})
        return pages

    def rule(self, rule_id: str) -> RuleEntry:
        """The entry of any rule id."""
        for entry in (*self.common, *(e for v in self.variants for e in v.rules)):
            if entry.id == rule_id:
                return entry
        raise KeyError(rule_id)

    def link(self, rule_id: str, here: str) -> str:
        """A Markdown link to a rule's anchor from page ``here`` (plain text if unknown)."""
        page = self.rule_pages.get(rule_id)
        if page is None:
            return rule_id
        return f"[{rule_id}]({relative(page, here)}#{rule_id})"

    def links(self, rule_ids: Iterable[str], here: str) -> str:
        """Several rule links, comma-separated."""
        return ", ".join(self.link(r, here) for r in rule_ids)

    def prose(self, text: str, here: str) -> str:
        """Spec text as Markdown: escaped, with the spec's own names (``lake_rule``, and the
        value in ``lake_rule = newly_enclosed``) as code, and every known rule id a link."""
        named = _NAME.sub(_code_name, md(text))
        return _RULE_ID.sub(lambda m: self.link(m.group(0), here), named)

    def traces_of(self, variant_id: str) -> list[TraceInfo]:
        """The bundled traces of one variant, in file order."""
        return [t for t in self.traces if t.variant == variant_id]

    def examples_of(self, variant_id: str) -> list[TraceInfo]:
        """The worked examples of a variant's page: its ``seed-``/``published-`` hand traces,
        or, for a game without any (one written from a published rule text has no seed
        examples), its first hand trace in file order, so that every game with a hand trace
        gets a diagram."""
        mine = self.traces_of(variant_id)
        flagged = [t for t in mine if t.is_example]
        return flagged or [t for t in mine if t.kind == "hand"][:1]
