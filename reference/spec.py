"""Load the rule files: YAML with line marks, schema checks, and the Variant value.

Rules are data (spec/common.yaml, spec/variants/<id>.yaml), so a mistake in them must be
reported like a compiler error, ``file:line:col: $.path: message``, never as a traceback or a
silent default. This module parses YAML with PyYAML's ``compose()`` to keep every node's
position, validates against the JSON Schemas in spec/schema, adds the checks a schema cannot
express (dangling rule and option references, duplicate rule ids, override paths), and turns
a clean file into a :class:`Variant` whose options resolve into a plain configuration.
"""

from __future__ import annotations

import copy
import difflib
import functools
import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

import yaml
from dominokit.reference.errors import OptionError, SpecError, SpecProblem
from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

SPEC_PACKAGE = "dominokit.spec"
"""The import name of the spec data; files are read through importlib.resources."""

RULE_KEYS = ("rule", "blank_rule", "adjacency_rule")
"""Keys whose value cites a rule id that must be defined (the engine names it in errors)."""

COMMON_FILE = "spec/common.yaml"
_RULE_ID = re.compile(r"R-(ALL|POL|PIJ|SZC|PRO|[A-Z]{3})-[0-9]{2}")
_PLAIN_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_LOCKED_SECTIONS = ("spec_version", "id", "options", "rules")

JsonPath = tuple[str | int, ...]
Source = Path | Traversable


# ---------------------------------------------------------------------------- schemas


def _schema_dir() -> Traversable:
    return resources.files(SPEC_PACKAGE) / "schema"


def schema_names() -> list[str]:
    """Names of every bundled schema (``variant``, ``deal``, ...), sorted."""
    suffix = ".schema.json"
    return sorted(
        entry.name.removesuffix(suffix)
        for entry in _schema_dir().iterdir()
        if entry.name.endswith(suffix)
    )


@functools.cache
def schema(name: str) -> dict[str, Any]:
    """The parsed schema ``spec/schema/<name>.schema.json`` (shared and cached: do not mutate)."""
    entry = _schema_dir() / f"{name}.schema.json"
    if not entry.is_file():
        raise ValueError(f"no schema named {name!r}; known: {', '.join(schema_names())}")
    loaded: dict[str, Any] = json.loads(entry.read_text(encoding="utf-8"))
    return loaded


@functools.cache
def registry() -> Registry[Any]:
    """Every bundled schema, keyed by its ``$id``, for resolving cross-file ``$ref``s."""
    found = [
        Resource.from_contents(schema(name), default_specification=DRAFT202012)
        for name in schema_names()
    ]
    return Registry().with_resources((resource.id() or "", resource) for resource in found)


@functools.cache
def validator(name: str) -> Draft202012Validator:
    """A validator for schema ``name`` whose registry holds every bundled schema.

    The schemas refer to each other by relative ``$id`` (a deal's tiles use the tile pattern
    of action.schema.json), so each validator needs them all to resolve its ``$ref``s.
    """
    return Draft202012Validator(schema(name), registry=registry())


# ---------------------------------------------------------------------------- YAML with marks


@dataclass
class YamlDocument:
    """A parsed YAML file that remembers where each value and key came from.

    ``data`` is what ``yaml.safe_load`` would give; ``view`` is the same tree with every
    mapping key turned into its YAML text (``true``, ``14``), the form JSON Schema validates.
    Positions are 1-based (line, column) and indexed by the JSON path of ``view``.
    """

    filename: str
    data: Any = None
    view: Any = None
    problems: list[SpecProblem] = field(default_factory=list)
    values: dict[JsonPath, tuple[int, int]] = field(default_factory=dict)
    keys: dict[JsonPath, tuple[int, int]] = field(default_factory=dict)

    def position(self, path: JsonPath, *, key: bool = False) -> tuple[int, int]:
        """Where ``path`` starts (its key when ``key``), else its nearest located ancestor."""
        if key and path in self.keys:
            return self.keys[path]
        while path not in self.values and path:
            path = path[:-1]
        return self.values.get(path, (1, 1))

    def problem(self, path: JsonPath, message: str, *, key: bool = False) -> SpecProblem:
        """A problem located at ``path`` in this file."""
        line, col = self.position(path, key=key)
        return SpecProblem(self.filename, line, col, json_path(path), message)


def json_path(path: JsonPath) -> str:
    """``$.rules[3].kind`` style text for a path (keys that are not names are quoted)."""
    parts = ["$"]
    for step in path:
        if isinstance(step, int):
            parts.append(f"[{step}]")
        elif _PLAIN_KEY.fullmatch(step):
            parts.append(f".{step}")
        else:
            parts.append(f"[{step!r}]")
    return "".join(parts)


def key_text(key: object) -> str:
    """A mapping key as YAML writes it: ``true``, ``null``, ``14``, ``winner``."""
    if isinstance(key, bool):
        return "true" if key else "false"
    if key is None:
        return "null"
    return str(key)


def load_yaml_with_marks(path_or_text: Source | str | bytes, filename: str | None = None
                         ) -> YamlDocument:
    """Parse one YAML document keeping positions; every failure becomes a SpecProblem.

    A ``Path`` (or importlib Traversable) is read from disk; ``str`` and ``bytes`` are the text
    itself. Syntax errors, duplicate keys, non-scalar keys, unknown tags, bad encodings and
    unreadable files are reported in ``problems`` (the data is then None or partial).
    """
    if isinstance(path_or_text, (str, bytes)):
        name = filename or "<text>"
        raw: str | bytes = path_or_text
    else:
        name = filename or str(path_or_text)
        try:
            raw = _read_bytes(path_or_text)
        except OSError as error:
            reason = error.strerror or str(error)
            return YamlDocument(name, problems=[SpecProblem(name, 1, 1, "$", reason)])
    document = YamlDocument(name)
    text = _decode(raw, document)
    if text is None:
        return document
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as error:
        document.problems.append(_syntax_problem(name, error))
        return document
    except yaml.reader.ReaderError as error:
        line, col = _offset_position(text, error.position)
        char = error.character
        shown = f"U+{char:04X}" if isinstance(char, int) else repr(char)
        document.problems.append(SpecProblem(
            name, line, col, "$", f"invalid YAML: character {shown} is not allowed"))
        return document
    except (yaml.YAMLError, RecursionError) as error:
        message = "nesting too deep" if isinstance(error, RecursionError) else str(error)
        document.problems.append(SpecProblem(name, 1, 1, "$", f"invalid YAML: {message}"))
        return document
    if root is None:
        document.problems.append(SpecProblem(name, 1, 1, "$", "the file holds no YAML document"))
        return document
    try:
        document.data, document.view = _Builder(document).build(root, (), ())
    except RecursionError:
        document.problems.append(SpecProblem(name, 1, 1, "$", "invalid YAML: nesting too deep"))
        document.data = document.view = None
    return document


def _read_bytes(source: Source) -> bytes:
    if source.is_dir():
        raise IsADirectoryError(0, "is a directory, not a YAML file")
    if not source.is_file():
        raise FileNotFoundError(0, "no such file")
    return source.read_bytes()


def _decode(raw: str | bytes, document: YamlDocument) -> str | None:
    if isinstance(raw, str):
        return raw
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = raw.count(b"\n", 0, error.start) + 1
        col = error.start - (raw.rfind(b"\n", 0, error.start) + 1) + 1
        document.problems.append(SpecProblem(
            document.filename, line, col, "$",
            f"not UTF-8 text (byte 0x{raw[error.start]:02x})"))
        return None


def _offset_position(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def _syntax_problem(name: str, error: yaml.MarkedYAMLError) -> SpecProblem:
    mark = error.problem_mark or error.context_mark
    line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
    message = error.problem or error.context or "malformed document"
    if error.problem and error.context:
        message = f"{error.problem} ({error.context})"
    return SpecProblem(name, line, col, "$", f"invalid YAML: {message}")


_MAP_TAG = "tag:yaml.org,2002:map"
_SEQ_TAG = "tag:yaml.org,2002:seq"


class _Builder:
    """Builds data and view from composed nodes, recording positions and key problems."""

    def __init__(self, document: YamlDocument) -> None:
        self.document = document
        self.constructor = yaml.SafeLoader("")

    def build(self, node: yaml.Node, path: JsonPath, open_nodes: tuple[int, ...]
              ) -> tuple[Any, Any]:
        mark = node.start_mark
        self.document.values[path] = (mark.line + 1, mark.column + 1)
        if isinstance(node, yaml.ScalarNode):
            try:
                value = self.constructor.construct_object(node)
            except yaml.YAMLError as error:
                self._report(path, f"cannot read this value: {getattr(error, 'problem', error)}")
                return None, None
            return value, value
        if id(node) in open_nodes:
            self._report(path, "an alias refers to a node that contains it")
            return None, None
        inner = (*open_nodes, id(node))
        if isinstance(node, yaml.SequenceNode) and node.tag == _SEQ_TAG:
            pairs = [self.build(item, (*path, i), inner) for i, item in enumerate(node.value)]
            return [native for native, _ in pairs], [view for _, view in pairs]
        if isinstance(node, yaml.MappingNode) and node.tag == _MAP_TAG:
            return self._mapping(node, path, inner)
        self._report(path, f"unsupported YAML tag {node.tag!r}")
        return None, None

    def _mapping(self, node: yaml.MappingNode, path: JsonPath, inner: tuple[int, ...]
                 ) -> tuple[dict[Any, Any], dict[str, Any]]:
        try:
            self.constructor.flatten_mapping(node)
        except yaml.YAMLError as error:
            self._report(path, f"bad merge key: {getattr(error, 'problem', error)}")
        native: dict[Any, Any] = {}
        view: dict[str, Any] = {}
        for key_node, value_node in node.value:
            key_mark = (key_node.start_mark.line + 1, key_node.start_mark.column + 1)
            if not isinstance(key_node, yaml.ScalarNode):
                self.document.problems.append(SpecProblem(
                    self.document.filename, *key_mark, json_path(path),
                    "a mapping key must be a plain value, not a list or mapping"))
                continue
            try:
                key = self.constructor.construct_object(key_node)
            except yaml.YAMLError:
                key = key_node.value
            text = key_text(key)
            child = (*path, text)
            if text in view:
                first = self.document.keys[child][0]
                self.document.problems.append(SpecProblem(
                    self.document.filename, *key_mark, json_path(child),
                    f"duplicate key {text!r} (first at line {first})"))
                continue
            self.document.keys[child] = key_mark
            native[key], view[text] = self.build(value_node, child, inner)
        return native, view

    def _report(self, path: JsonPath, message: str) -> None:
        self.document.problems.append(self.document.problem(path, message))


# ---------------------------------------------------------------------------- schema problems


def schema_problems(document: YamlDocument, schema_name: str) -> list[SpecProblem]:
    """Every schema error in ``document.view`` as a located, readable SpecProblem."""
    found: list[SpecProblem] = []
    for error in validator(schema_name).iter_errors(document.view):
        found.extend(_translate(document, error))
    return found


def _translate(document: YamlDocument, error: ValidationError) -> Iterator[SpecProblem]:
    path: JsonPath = tuple(error.absolute_path)
    instance: Any = error.instance
    kind: Any = error.validator
    wanted: Any = error.validator_value
    subschema = error.schema if isinstance(error.schema, Mapping) else {}
    if "propertyNames" in error.absolute_schema_path and isinstance(instance, str):
        child = (*path, instance)
        yield document.problem(child, f"key {instance!r} is not allowed: "
                                      f"{_message(error)}", key=True)
    elif kind == "required" and isinstance(instance, dict):
        for name in wanted:
            if name not in instance:
                yield document.problem(path, f"missing required key {name!r}")
    elif kind == "additionalProperties" and isinstance(instance, dict):
        allowed = list(subschema.get("properties", {}))
        patterns = list(subschema.get("patternProperties", {}))
        for name in instance:
            if name in allowed or any(re.search(p, name) for p in patterns):
                continue
            yield document.problem((*path, name), _unknown_key(name, allowed), key=True)
    else:
        yield document.problem(path, _message(error))


def _unknown_key(name: str, allowed: list[str]) -> str:
    close = difflib.get_close_matches(name, allowed, n=1)
    if close:
        return f"unknown key {name!r}; did you mean {close[0]!r}?"
    if allowed:
        return f"unknown key {name!r} (allowed here: {', '.join(allowed)})"
    return f"unknown key {name!r}"


_TYPE_WORDS = {
    "object": "a mapping", "array": "a list", "string": "a string", "integer": "an integer",
    "number": "a number", "boolean": "true or false", "null": "null",
}


def _message(error: ValidationError) -> str:
    value: Any = error.validator_value
    instance: Any = error.instance
    description = error.schema.get("description") if isinstance(error.schema, Mapping) else None
    match error.validator:
        case "type":
            wanted = [value] if isinstance(value, str) else list(value)
            words = " or ".join(_TYPE_WORDS.get(w, w) for w in wanted)
            return f"expected {words}, got {_kind(instance)}"
        case "enum":
            return f"{show(instance)} is not one of: {', '.join(show(v) for v in value)}"
        case "const":
            return f"must be {show(value)}, got {show(instance)}"
        case "pattern":
            form = description.rstrip(".") if description else f"the pattern {value}"
            return f"{show(instance)} is not in the expected form: {form}"
        case "minItems" | "maxItems":
            bound = "at least" if error.validator == "minItems" else "at most"
            return f"expected {bound} {value} item(s), got {len(instance)}"
        case "minLength" | "minProperties":
            return "must not be empty"
        case "uniqueItems":
            return "items must be unique"
        case "not":
            return f"{show(instance)} is not allowed here"
    text = error.message
    return text if len(text) <= 200 else text[:197] + "..."


def show(value: object) -> str:
    """A short YAML-ish rendering of a value for messages (long ones are elided)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, str):
        return repr(value if len(value) <= 60 else value[:57] + "...")
    if isinstance(value, (int, float)):
        return str(value)
    return _kind(value)


def _kind(value: object) -> str:
    if value is None:
        return "null (an empty value)"
    if isinstance(value, bool):
        return "a boolean"
    for python_type, word in ((dict, "a mapping"), (list, "a list"), (str, "a string"),
                              (int, "an integer"), (float, "a number")):
        if isinstance(value, python_type):
            return word
    return f"a {type(value).__name__} value"


# ---------------------------------------------------------------------------- spec files


def _spec_root() -> Traversable:
    return resources.files(SPEC_PACKAGE)


def bundled_common_file() -> Traversable:
    """spec/common.yaml as shipped in the package."""
    return _spec_root() / "common.yaml"


def bundled_variant_files() -> list[Traversable]:
    """spec/variants/*.yaml as shipped in the package, sorted by name."""
    folder = _spec_root() / "variants"
    if not folder.is_dir():
        return []
    return sorted(
        (entry for entry in folder.iterdir() if entry.name.endswith(".yaml")),
        key=lambda entry: entry.name,
    )


def variant_ids() -> list[str]:
    """Ids of the bundled variants: the sorted stems of spec/variants/*.yaml."""
    return [entry.name.removesuffix(".yaml") for entry in bundled_variant_files()]


@dataclass(frozen=True)
class _RuleSite:
    rule_id: str
    filename: str
    line: int


@functools.cache
def _bundled_document(location: str) -> YamlDocument:
    """Bundled files seen as context for another file's checks (read once per process)."""
    return load_yaml_with_marks(Path(location))


def _rule_sites(document: YamlDocument) -> list[_RuleSite]:
    """Rule ids defined in a document, read tolerantly (a broken file yields what it can)."""
    sites = []
    rules = document.view.get("rules") if isinstance(document.view, dict) else None
    for index, entry in enumerate(rules if isinstance(rules, list) else []):
        if isinstance(entry, dict) and isinstance(entry.get("id"), str):
            line, _ = document.position(("rules", index, "id"))
            sites.append(_RuleSite(entry["id"], document.filename, line))
    return sites


def _context_sites(stem: str, is_common: bool) -> tuple[list[_RuleSite], list[_RuleSite]]:
    """(common.yaml rules, rules of the other bundled variants) for checking ``checked``.

    A file with the same name as a bundled file stands in for it (a working copy), so the
    bundled one is left out instead of reported as a duplicate of every rule.
    """
    common: list[_RuleSite] = []
    if not is_common and bundled_common_file().is_file():
        common = _rule_sites(_bundled_document(str(bundled_common_file())))
    others: list[_RuleSite] = []
    for entry in bundled_variant_files():
        if not is_common and entry.name.removesuffix(".yaml") == stem:
            continue
        others.extend(_rule_sites(_bundled_document(str(entry))))
    return common, others


def check_common_file(path: Source | str, filename: str | None = None) -> list[SpecProblem]:
    """Every problem in a spec/common.yaml: syntax, schema, and cross-file rule ids."""
    document = load_yaml_with_marks(_as_source(path), filename)
    return _check(document, "common", "common", is_common=True)


def check_variant_file(path: Source | str, filename: str | None = None) -> list[SpecProblem]:
    """Every problem in a variant file, sorted by position; [] when the file is clean.

    Beyond the schema: ``id`` must equal the file stem, rule references must name rules of
    this file or spec/common.yaml, option references and override paths must exist, defaults
    must be allowed values, rule ids must be unique across the spec, and every option value
    must resolve to a configuration the schema accepts.
    """
    source = _as_source(path)
    document = load_yaml_with_marks(source, filename)
    return _check(document, "variant", source.name.removesuffix(".yaml"), is_common=False)


def _as_source(path: Source | str) -> Source:
    return Path(path) if isinstance(path, str) else path


def _check(document: YamlDocument, schema_name: str, stem: str, *, is_common: bool
           ) -> list[SpecProblem]:
    problems = list(document.problems)
    if not problems:
        if not isinstance(document.view, dict):
            problems.append(document.problem((), f"expected a mapping at the top level, got "
                                                 f"{_kind(document.view)}"))
        else:
            problems.extend(schema_problems(document, schema_name))
            problems.extend(_SemanticCheck(document, stem, is_common,
                                           schema_clean=not problems).run())
    return sorted(set(problems), key=lambda p: (p.line, p.col, p.path, p.message))


class _SemanticCheck:
    """The checks a JSON Schema cannot express, over a document's string-keyed view."""

    def __init__(self, document: YamlDocument, stem: str, is_common: bool,
                 *, schema_clean: bool) -> None:
        self.document = document
        self.view: dict[str, Any] = document.view
        self.stem = stem
        self.is_common = is_common
        self.schema_clean = schema_clean
        self.problems: list[SpecProblem] = []
        self.common_sites, self.other_sites = _context_sites(stem, is_common)
        self.own_sites = _rule_sites(document)
        raw_options = self.view.get("options")
        self.options: dict[str, Any] = (
            {k: v for k, v in raw_options.items() if isinstance(v, dict)}
            if isinstance(raw_options, dict) else {}
        )

    def run(self) -> list[SpecProblem]:
        self._rule_ids()
        if self.is_common:
            self._ruling_options()
            return self.problems
        self._variant_id()
        self._rule_references()
        self._option_references()
        self._options()
        self._ruling_options()
        self._end_conditions()
        if self.schema_clean and not self.problems:
            self._resolved_configs()
        return self.problems

    def _add(self, path: JsonPath, message: str, *, key: bool = False) -> None:
        self.problems.append(self.document.problem(path, message, key=key))

    def _variant_id(self) -> None:
        value = self.view.get("id")
        if isinstance(value, str) and value != self.stem:
            self._add(("id",), f"id {value!r} does not match the file name {self.stem!r}.yaml")

    def _rule_ids(self) -> None:
        seen: dict[str, int] = {}
        elsewhere = {site.rule_id: site for site in self.common_sites + self.other_sites}
        for index, entry in enumerate(_list(self.view.get("rules"))):
            if not (isinstance(entry, dict) and isinstance(entry.get("id"), str)):
                continue
            rule_id = entry["id"]
            path: JsonPath = ("rules", index, "id")
            if rule_id in seen:
                self._add(path, f"rule id {rule_id!r} is defined twice in this file "
                                f"(first at line {seen[rule_id]})")
                continue
            seen[rule_id] = self.document.position(path)[0]
            other = elsewhere.get(rule_id)
            if other is not None:
                self._add(path, f"rule id {rule_id!r} is already defined in "
                                f"{other.filename}:{other.line}")

    def _defined_rules(self) -> set[str]:
        return {site.rule_id for site in self.own_sites + self.common_sites}

    def _rule_references(self) -> None:
        for path, rule_id in _dangling_rules(self.view, self._defined_rules()):
            self._add(path, f"rule {rule_id!r} is not defined in this file or in {COMMON_FILE}")

    def _option_references(self) -> None:
        for path, name in _option_refs(self.view, ()):
            if name not in self.options:
                declared = ", ".join(self.options) or "none"
                self._add((*path, "option"),
                          f"option {name!r} is not declared under options (declared: "
                          f"{declared})")

    def _options(self) -> None:
        used = {name for _, name in _option_refs(self.view, ())}
        for name, spec in self.options.items():
            base: JsonPath = ("options", name)
            values = spec.get("values") if isinstance(spec.get("values"), list) else []
            if "default" in spec and not _contains(values, spec["default"]):
                self._add((*base, "default"), f"default {show(spec['default'])} is not one of "
                          f"the option's values ({', '.join(show(v) for v in values)})")
            overrides = spec.get("overrides")
            if name not in used and not overrides:
                self._add(base, f"option {name!r} is never used: no {{option: {name}}} "
                                f"reference and no overrides", key=True)
            if isinstance(overrides, dict):
                self._overrides(base, values, overrides)

    def _overrides(self, base: JsonPath, values: list[Any], overrides: dict[str, Any]) -> None:
        texts = [key_text(v) for v in values]
        for value_text, changes in overrides.items():
            where: JsonPath = (*base, "overrides", value_text)
            if value_text not in texts:
                self._add(where, f"overrides for {value_text!r}, which is not one of the "
                                 f"option's values ({', '.join(texts)})", key=True)
            for dotted in changes if isinstance(changes, dict) else {}:
                first = dotted.split(".")[0]
                if first in _LOCKED_SECTIONS:
                    self._add((*where, dotted), f"an override may not change {first!r}",
                              key=True)
                elif _find_path(self.view, dotted) is None:
                    self._add((*where, dotted), f"override path {dotted!r} does not exist in "
                                                f"this file", key=True)

    def _ruling_options(self) -> None:
        for index, entry in enumerate(_list(self.view.get("rules"))):
            ruling = entry.get("ruling") if isinstance(entry, dict) else None
            name = ruling.get("option") if isinstance(ruling, dict) else None
            if isinstance(name, str) and name not in self.options:
                where = "common rules have no options" if self.is_common else (
                    f"declared: {', '.join(self.options) or 'none'}")
                self._add(("rules", index, "ruling", "option"),
                          f"ruling names option {name!r}, which is not declared ({where})")

    def _end_conditions(self) -> None:
        seen: set[str] = set()
        for index, entry in enumerate(_list(self.view.get("end"))):
            condition = entry.get("condition") if isinstance(entry, dict) else None
            if isinstance(condition, str):
                if condition in seen:
                    self._add(("end", index, "condition"),
                              f"end condition {condition!r} is listed twice")
                seen.add(condition)

    def _resolved_configs(self) -> None:
        """Resolve with each value of each option and validate what the engine would see."""
        for name, spec in self.options.items():
            for index, value in enumerate(spec["values"]):
                chosen = {n: s["default"] for n, s in self.options.items()}
                chosen[name] = value
                config = _resolve_view(self.view, self.options, chosen)
                resolved = YamlDocument(self.document.filename, view=config)
                found = schema_problems(resolved, "variant")
                where: JsonPath = ("options", name, "values", index)
                label = f"with {name}={key_text(value)}: "
                for problem in found:
                    self._add(where, f"{label}{problem.path}: {problem.message}")
                for path, rule_id in _dangling_rules(config, self._defined_rules()):
                    self._add(where, f"{label}{json_path(path)}: rule {rule_id!r} is not "
                                     f"defined in this file or in {COMMON_FILE}")


def _dangling_rules(root: Any, defined: set[str]) -> Iterator[tuple[JsonPath, str]]:
    """(path, rule id) of every rule reference outside ``rules:`` that names no rule."""
    for path, key, value in _walk_mappings(root, (), skip=("rules",)):
        is_reference = key in RULE_KEYS and isinstance(value, str) and _RULE_ID.fullmatch(value)
        if is_reference and value not in defined:
            yield (*path, key), value


def _list(value: object) -> list[Any]:
    """``value`` if it is a list, else [] (checks run on files the schema has rejected too)."""
    return value if isinstance(value, list) else []


def _walk_mappings(node: Any, path: JsonPath, skip: tuple[str, ...] = ()
                   ) -> Iterator[tuple[JsonPath, str, Any]]:
    """(mapping path, key, value) for every mapping entry below ``node``."""
    if isinstance(node, dict):
        for key, value in node.items():
            yield path, key, value
            if not (path == () and key in skip):
                yield from _walk_mappings(value, (*path, key), skip)
    elif isinstance(node, list):
        for index, item in enumerate(node):
            yield from _walk_mappings(item, (*path, index), skip)


def _is_option_ref(node: object) -> bool:
    return isinstance(node, dict) and len(node) == 1 and isinstance(node.get("option"), str)


def _option_refs(node: Any, path: JsonPath) -> Iterator[tuple[JsonPath, str]]:
    """Every ``{option: NAME}`` outside the options section, with its path."""
    if _is_option_ref(node):
        yield path, node["option"]
    elif isinstance(node, dict):
        for key, value in node.items():
            if not (path == () and key in ("options", "rules")):
                yield from _option_refs(value, (*path, key))
    elif isinstance(node, list):
        for index, item in enumerate(node):
            yield from _option_refs(item, (*path, index))


def _contains(values: list[Any], value: object) -> bool:
    """Membership that tells ``true`` from ``1`` (Python's == does not)."""
    return any(type(v) is type(value) and v == value for v in values)


def _find_path(root: Any, dotted: str) -> tuple[Any, str | int] | None:
    """(container, key) that ``dotted`` names in ``root``, or None when it does not exist.

    Mapping keys are matched by their YAML text so the same path works on data and view.
    """
    node = root
    steps = dotted.split(".")
    for depth, step in enumerate(steps):
        key: str | int | None = None
        if isinstance(node, dict):
            key = next((k for k in node if key_text(k) == step), None)
        elif isinstance(node, list) and step.isdigit() and int(step) < len(node):
            key = int(step)
        if key is None:
            return None
        if depth == len(steps) - 1:
            return node, key
        node = node[key]
    return None


def _apply_overrides(config: dict[Any, Any], changes: Mapping[str, object]) -> None:
    for dotted, value in changes.items():
        found = _find_path(config, dotted)
        if found is not None:
            container, key = found
            container[key] = copy.deepcopy(value)


def _substitute(node: Any, chosen: Mapping[str, object], path: JsonPath = ()) -> Any:
    if _is_option_ref(node):
        return chosen[node["option"]]
    if isinstance(node, dict):
        return {
            key: value if (path == () and key in ("options", "rules"))
            else _substitute(value, chosen, (*path, key_text(key)))
            for key, value in node.items()
        }
    if isinstance(node, list):
        return [_substitute(item, chosen, (*path, i)) for i, item in enumerate(node)]
    return node


def _overrides_for(spec: Mapping[Any, Any], value: object) -> Mapping[str, object]:
    overrides = spec.get("overrides")
    if not isinstance(overrides, dict):
        return {}
    for key, changes in overrides.items():
        if key_text(key) == key_text(value) and isinstance(changes, dict):
            return changes
    return {}


def _resolve_view(view: dict[str, Any], options: Mapping[str, Any],
                  chosen: Mapping[str, object]) -> dict[str, Any]:
    config = copy.deepcopy(view)
    for name, spec in options.items():
        _apply_overrides(config, _overrides_for(spec, chosen[name]))
    resolved: dict[str, Any] = _substitute(config, chosen)
    return resolved


# ---------------------------------------------------------------------------- values


@dataclass(frozen=True)
class RuleEntry:
    """One rule of the spec: stable id, source quote, English statement, ruling if any."""

    id: str
    title: str
    kind: str
    source_file: str | None
    quote: str | None
    statement: str
    decision: str | None = None
    alternative: str | None = None
    option: str | None = None

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> RuleEntry:
        """Build from one schema-valid entry of a ``rules:`` list."""
        source = data.get("source") or {}
        ruling = data.get("ruling") or {}
        return cls(
            id=data["id"], title=data["title"], kind=data["kind"],
            source_file=source.get("file"), quote=source.get("quote"),
            statement=data["statement"], decision=ruling.get("decision"),
            alternative=ruling.get("alternative"), option=ruling.get("option"),
        )


@dataclass(frozen=True)
class OptionSpec:
    """A variant option: its allowed values, default, ruling and per-value overrides."""

    name: str
    values: tuple[object, ...]
    default: object
    rule: str
    description: str
    overrides: Mapping[object, Mapping[str, object]] = field(default_factory=dict)

    def coerce(self, value: object, variant_id: str) -> object:
        """The declared value meant by ``value``; strings from a CLI ``k=v`` are matched by
        their lower-case text (``"true"`` -> True, ``"14"`` -> 14). Raises OptionError."""
        for allowed in self.values:
            if _contains([allowed], value):
                return allowed
        if isinstance(value, str):
            for allowed in self.values:
                if str(allowed).lower() == value.lower():
                    return allowed
        allowed_text = ", ".join(key_text(v) for v in self.values)
        raise OptionError(
            f"variant {variant_id!r}: option {self.name!r} does not allow {show(value)}; "
            f"allowed values: {allowed_text}"
        )


@dataclass(frozen=True, eq=False)
class Variant:
    """A checked variant file: its raw data, its rules, and its options.

    ``data`` is the YAML as loaded (parameter values may still be ``{option: NAME}``);
    :meth:`resolve` turns it into the configuration for one choice of options.
    """

    id: str
    name: str
    path: Path
    data: dict[str, Any]
    rules: tuple[RuleEntry, ...]
    options: dict[str, OptionSpec]

    def resolve(self, options: Mapping[str, object] | None = None) -> ResolvedVariant:
        """Fill defaults, check and coerce the given options, and build the configuration.

        Raises OptionError for an unknown option name or a value the option does not allow.
        """
        given = dict(options or {})
        unknown = sorted(set(given) - set(self.options))
        if unknown:
            known = ", ".join(self.options) or "none"
            raise OptionError(
                f"variant {self.id!r} has no option {unknown[0]!r}; its options: {known}")
        chosen = {
            name: spec.coerce(given[name], self.id) if name in given else spec.default
            for name, spec in self.options.items()
        }
        config = copy.deepcopy(self.data)
        for name, spec in self.options.items():
            _apply_overrides(config, spec.overrides.get(chosen[name], {}))
        resolved: dict[str, Any] = _substitute(config, chosen)
        return ResolvedVariant(self, chosen, resolved)

    def rule(self, rule_id: str) -> RuleEntry:
        """The entry for ``rule_id`` among this variant's rules and the common rules."""
        for entry in (*self.rules, *common_rules()):
            if entry.id == rule_id:
                return entry
        raise KeyError(rule_id)


@dataclass(frozen=True, eq=False)
class ResolvedVariant:
    """A variant with every option chosen: ``config`` has no ``{option: NAME}`` left and
    every chosen value's overrides applied; ``options`` lists every option's value."""

    variant: Variant
    options: dict[str, object]
    config: dict[str, Any]


def _option_spec(name: str, data: Mapping[str, Any]) -> OptionSpec:
    values = tuple(data["values"])
    overrides: dict[object, Mapping[str, object]] = {}
    for key, changes in (data.get("overrides") or {}).items():
        match = next(v for v in values if key_text(v) == key_text(key))
        overrides[match] = dict(changes)
    return OptionSpec(name, values, data["default"], data["rule"], data["description"],
                      overrides)


def _variant_from(document: YamlDocument, path: Path) -> Variant:
    data: dict[str, Any] = document.data
    options = {
        key_text(name): _option_spec(key_text(name), spec)
        for name, spec in (data.get("options") or {}).items()
    }
    return Variant(
        id=data["id"], name=data["name"], path=path, data=data,
        rules=tuple(RuleEntry.from_data(entry) for entry in data["rules"]), options=options,
    )


def load_variant(id_or_path: str | Path) -> Variant:
    """A bundled variant by id (cached), or any variant file by path.

    Raises SpecError carrying every problem, each as ``file:line:col: $.path: message``.
    """
    if isinstance(id_or_path, Path) or "/" in id_or_path or id_or_path.endswith(".yaml"):
        return _load_variant_file(Path(id_or_path))
    return _load_bundled_variant(id_or_path)


@functools.cache
def _load_bundled_variant(variant_id: str) -> Variant:
    if variant_id not in variant_ids():
        known = ", ".join(variant_ids()) or "none"
        raise SpecError([SpecProblem(f"spec/variants/{variant_id}.yaml", 1, 1, "$",
                                     f"no bundled variant {variant_id!r} (known: {known})")])
    return _load_variant_file(Path(str(_spec_root() / "variants" / f"{variant_id}.yaml")))


def _load_variant_file(path: Path) -> Variant:
    document = load_yaml_with_marks(path)
    problems = _check(document, "variant", path.name.removesuffix(".yaml"), is_common=False)
    if problems:
        raise SpecError(problems)
    return _variant_from(document, path)


@functools.cache
def common_rules() -> tuple[RuleEntry, ...]:
    """The R-ALL rules of spec/common.yaml (SpecError if the file is missing or invalid)."""
    source = bundled_common_file()
    document = load_yaml_with_marks(source)
    problems = _check(document, "common", "common", is_common=True)
    if problems:
        raise SpecError(problems)
    return tuple(RuleEntry.from_data(entry) for entry in document.data["rules"])


def all_rule_ids() -> list[str]:
    """Every rule id in the spec (common and every bundled variant), sorted."""
    ids = [entry.id for entry in common_rules()]
    for variant_id in variant_ids():
        ids.extend(entry.id for entry in load_variant(variant_id).rules)
    return sorted(ids)


def rule(rule_id: str) -> RuleEntry:
    """The rule entry with this id, wherever in the spec it is defined (KeyError if none)."""
    for entry in common_rules():
        if entry.id == rule_id:
            return entry
    for variant_id in variant_ids():
        for entry in load_variant(variant_id).rules:
            if entry.id == rule_id:
                return entry
    raise KeyError(rule_id)
