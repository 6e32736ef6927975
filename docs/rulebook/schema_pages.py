"""The protocol and trace-format pages, with field tables rendered from the JSON Schemas.

The schemas are what engines and traces are validated against, so the field tables an engine
author or trace writer reads are generated from them (types, required flags, descriptions,
``$ref``s followed across files) rather than written twice and left to drift. The protocol
page puts these tables after the hand-written ``spec/protocol.md``; the trace-format page adds
the shortest bundled hand trace as a complete example and a table of every bundled trace.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any, Final

from dominokit.rulebook.book import TRACE_FORMAT_PAGE, Book, JsonObject, TraceInfo
from dominokit.rulebook.text import code, md, relative
from dominokit.spec.spec import schema

_PATTERN_END: Final = "$(?!\\n)"
"""How the schemas end a pattern (a true end of string); not worth showing to readers."""


@dataclass(frozen=True)
class SchemaDoc:
    """Renders JSON Schema objects as field tables, following ``$ref`` across files."""

    home: str
    """The schema file the refs are relative to (e.g. ``protocol``)."""

    def resolve(self, ref: str, base: str | None = None) -> tuple[str, str, JsonObject]:
        """(label, file, schema) of a ``$ref`` made in schema file ``base`` (default home):
        a local ``#/$defs/x``, or ``file.schema.json`` with or without a fragment."""
        target, _, pointer = ref.partition("#")
        name = base or self.home
        if target:
            name = target.rsplit("/", 1)[-1].removesuffix(".schema.json")
        node: JsonObject = schema(name)
        label = name
        for part in [p for p in pointer.split("/") if p]:
            node = node[part]
            label = part
        return label, name, node

    def type_text(self, node: Mapping[str, Any], base: str | None = None) -> str:
        """A short type description of one schema node found in schema file ``base``."""
        base = base or self.home
        if "$ref" in node:
            label, where, target = self.resolve(node["$ref"], base)
            if not node["$ref"].partition("#")[2]:
                return f"{label.replace('_', ' ')} {target.get('type', 'value')}"
            if _is_simple(target):
                return self.type_text(target, where)
            return label.replace("_", " ")
        if "const" in node:
            return code(node["const"])
        if "enum" in node:
            return "one of " + ", ".join(code(v) for v in node["enum"])
        if "anyOf" in node or "oneOf" in node:
            options = node.get("anyOf", node.get("oneOf"))
            return " or ".join(self.type_text(n, base) for n in options)
        kind = node.get("type")
        if isinstance(kind, list):
            return " or ".join(kind)
        if kind == "array":
            items = node.get("items")
            return f"list of {self.type_text(items, base)}" if items else "list"
        if kind == "object" and "additionalProperties" in node and "properties" not in node:
            extra = node["additionalProperties"]
            if isinstance(extra, dict):
                return f"map of name → {self.type_text(extra, base)}"
        if kind == "string" and "pattern" in node:
            pattern = str(node["pattern"]).removesuffix(_PATTERN_END)
            return f"string matching {code(pattern)}"
        return str(kind or "any")

    def description(self, node: Mapping[str, Any]) -> str:
        """The node's description, else its ref target's."""
        if "description" in node:
            return str(node["description"])
        if "$ref" in node:
            return str(self.resolve(node["$ref"])[2].get("description", ""))
        return ""

    def table(self, node: Mapping[str, Any]) -> str:
        """The properties of an object node as a Markdown table."""
        required = set(node.get("required", []))
        lines = ["| Field | Type | Required | Meaning |", "|---|---|---|---|"]
        for name, prop in node.get("properties", {}).items():
            lines.append(f"| {code(name)} | {_cell_text(self.type_text(prop))} | "
                         f"{'yes' if name in required else 'no'} | "
                         f"{_cell_text(_ticks(self.description(prop)))} |")
        return "\n".join(lines)


def _is_simple(node: Mapping[str, Any]) -> bool:
    return "properties" not in node and node.get("type") != "object"


def _ticks(text: str) -> str:
    """Schema descriptions use `backticks` for code: keep them, escape the rest."""
    pieces = text.split("`")
    return "".join(md(p) if i % 2 == 0 else f"`{p}`" for i, p in enumerate(pieces))


def _cell_text(text: str) -> str:
    return text.replace("\n", " ")


def protocol_markdown(book: Book) -> str:
    """The protocol page: ``spec/protocol.md`` as written, then every message from the schema."""
    prose = (resources.files("dominokit.spec") / "protocol.md").read_text(encoding="utf-8")
    doc = SchemaDoc("protocol")
    proto = schema("protocol")
    defs = proto["$defs"]
    parts = [prose.rstrip("\n"), "",
             "## Message reference", "",
             "Generated from `spec/schema/protocol.schema.json`: for each command, the fields "
             "of its request and of its result. Every reply is either "
             "`{\"seq\": N, \"result\": {...}}` or `{\"seq\": N, \"error\": {...}}`.", ""]
    for command in defs["command"]["enum"]:
        request = defs[f"{command}_request"]
        result = defs[f"{command}_result"]
        parts += [f"### `{command}` request and result", "", _ticks(request["description"]),
                  "", "**Request**", "", doc.table(request), "", "**Result**", "",
                  _ticks(result.get("description", "")), ""]
        parts.append(doc.table(result) if result.get("properties") else
                     "An empty object: `{}`.")
        parts.append("")
    parts += ["### `error`", "", _ticks(defs["error"]["description"]), "",
              doc.table(defs["error"]), ""]
    parts += _object_sections(["deal", "state", "event", "hand_result", "match_state"])
    return "\n".join(parts)


def _object_sections(names: Sequence[str]) -> list[str]:
    parts: list[str] = ["## Objects inside the messages", ""]
    for name in names:
        node = schema(name)
        doc = SchemaDoc(name)
        parts += [f"### {node.get('title', name)} (`{name}.schema.json`) {{ #schema-{name} }}",
                  "",
                  _ticks(node.get("description", "")), ""]
        if node.get("properties") and "allOf" not in node:
            parts += [doc.table(node), ""]
        for branch in node.get("allOf", []):
            then = branch.get("then", {})
            const = then.get("properties", {}).get("type", {}).get("const")
            if const is None:
                continue
            parts += [f"**`{const}`**: {_ticks(then['properties']['type'].get('description', ''))}",
                      "", doc.table(then), ""]
    return parts


def trace_format_markdown(book: Book) -> str:
    """The golden trace format, from ``trace.schema.json``, with a real example."""
    here = TRACE_FORMAT_PAGE
    node = schema("trace")
    doc = SchemaDoc("trace")
    parts = ["# Golden trace format", "",
             _ticks(node["description"]), "",
             "This page is generated from `spec/schema/trace.schema.json`. How to record, "
             f"check and regenerate traces is on [Working with traces]"
             f"({relative('contributing/traces.md', here)}).", "",
             "## Top-level fields", "",
             "A hand trace (`kind: hand`) has `deal`, `steps` and `result`; a match trace "
             "(`kind: match`) has `first_starter`, `hands` and `match` instead (and may start "
             "from the state a `prelude` reaches); a perft trace (`kind: perft`) has `deal`, "
             "`actions`, `depth`, `count` and `divide`.", "",
             doc.table(node), ""]
    for name in ("step", "refusal", "plan", "match_hand", "prelude_hand", "match_expectation"):
        sub = node["$defs"].get(name)
        if sub is None or not sub.get("properties"):
            continue
        parts += [f"## `{name}`", "", _ticks(sub.get("description", "")), "",
                  doc.table(sub), ""]
    example = _smallest_hand_trace(book)
    if example is not None:
        text = example.text
        parts += ["## A complete example", "",
                  f"The shortest bundled hand trace, {code(example.id)}, as stored "
                  "(the comment block at the top holds the hand arithmetic and survives "
                  "regeneration):", "", "```yaml", text.rstrip("\n"), "```", ""]
    parts += ["## Bundled traces", "",
              "| Trace | Kind | What it shows | Rules |", "|---|---|---|---|"]
    for trace in book.traces:
        parts.append(f"| {code(trace.id)} | {trace.kind} | {md(trace.description)} | "
                     f"{book.links(trace.rules, here)} |")
    parts.append("")
    return "\n".join(parts)


def _smallest_hand_trace(book: Book) -> TraceInfo | None:
    hands = [t for t in book.traces if t.kind == "hand"]
    if not hands:
        return None
    return min(hands, key=lambda t: (len(t.text), t.id))
