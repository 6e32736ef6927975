"""YAML with node positions, and problems that point at them.

Rule files are data, so a mistake in them must read like a compiler error,
``file:line:col: $.path: message``, never a traceback. This module parses YAML with PyYAML's
``compose()`` to keep where every key and value came from, and turns parse failures and JSON
Schema errors into located, readable :class:`SpecProblem`s.

It is also the one front door for every YAML file the kit reads (rule files, traces,
expectations, perft data), so it bounds what a hostile file can cost before building anything:
files over :data:`MAX_YAML_BYTES` are not read, and the event stream is screened first, refusing
anchors and aliases (an alias bomb of a few hundred bytes expands to billions of nodes) and
documents of more than :data:`MAX_YAML_NODES` nodes. No file of the project needs either.
"""

from __future__ import annotations

import difflib
import functools
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

if TYPE_CHECKING:
    # Imported where used, as in schemas.py: the in-browser engine has no jsonschema.
    from jsonschema import TypeChecker
    from jsonschema.exceptions import ValidationError
    from jsonschema.protocols import Validator

from dominokit.spec.errors import SpecError, SpecProblem
from dominokit.spec.schemas import registry, validator

# libyaml composes the same marked nodes about ten times faster; large traces need it.
_COMPOSER: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

MAX_YAML_BYTES = 4 * 1024 * 1024
"""The largest YAML file the kit reads (4 MiB); the largest bundled file, a Progressive match
trace, is about 155 KB."""

MAX_YAML_NODES = 100_000
"""The most nodes (scalars, lists, mappings) a YAML document may hold; the largest bundled file
holds about 22,000. Reading a node costs about a kilobyte, so this bounds memory near 100 MB."""

NO_DOCUMENT = "the file holds no YAML document"
"""The problem reported for an empty file (a reader for which empty means "nothing" tests it)."""

_PLAIN_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")

JsonPath = tuple[str | int, ...]
"""A position in a document: mapping keys (as YAML text) and list indexes."""
Source = Path | Traversable
"""A file on disk or inside the installed package."""


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
    itself. Syntax errors, duplicate keys, non-scalar keys, unknown tags, bad encodings,
    unreadable files, files over :data:`MAX_YAML_BYTES`, anchors and aliases, and documents over
    :data:`MAX_YAML_NODES` nodes are reported in ``problems`` (the data is then None or partial).
    """
    if isinstance(path_or_text, (str, bytes)):
        name = filename or "<text>"
        raw: str | bytes = path_or_text
    else:
        name = filename or str(path_or_text)
        try:
            raw = read_limited(path_or_text)
        except FileTooLarge as error:
            return YamlDocument(name, problems=[file_problem(name, str(error.strerror))])
        except OSError as error:
            reason = error.strerror or str(error)
            return YamlDocument(name, problems=[SpecProblem(name, 1, 1, "$", reason)])
    document = YamlDocument(name)
    size = len(raw.encode("utf-8")) if isinstance(raw, str) else len(raw)
    if size > MAX_YAML_BYTES:
        document.problems.append(file_problem(name, too_large(size)))
        return document
    text = _decode(raw, document)
    if text is None:
        return document
    refused = screen_events(text, name)
    if refused is not None:
        document.problems.append(refused)
        return document
    try:
        root = yaml.compose(text, Loader=_COMPOSER)
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
        document.problems.append(SpecProblem(name, 1, 1, "$", NO_DOCUMENT))
        return document
    try:
        document.data, document.view = _Builder(document).build(root, (), ())
    except RecursionError:
        document.problems.append(SpecProblem(name, 1, 1, "$", "invalid YAML: nesting too deep"))
        document.data = document.view = None
    return document


class FileTooLarge(OSError):
    """A file over the size limit; raised by :func:`read_limited` before it is read whole."""


def load_yaml_data(source: Source, filename: str | None = None) -> Any:
    """The plain data of a YAML file (what ``yaml.safe_load`` gives), read through the same
    limits as every other file; SpecError lists every problem, each located."""
    document = load_yaml_with_marks(source, filename)
    if document.problems:
        raise SpecError(document.problems)
    return document.data


def read_limited(source: Source, limit: int = MAX_YAML_BYTES) -> bytes:
    """The bytes of a regular file, reading at most ``limit`` + 1 of them: a longer file is
    refused with :class:`FileTooLarge`, whose message says so; a folder, a device or a missing
    file with an OSError that says which (so a file that grows, or never ends, costs no more)."""
    if source.is_dir():
        raise IsADirectoryError(0, "is a directory")
    if not source.is_file():
        if isinstance(source, Path) and source.exists():
            raise OSError(0, "not a regular file")
        raise FileNotFoundError(0, "no such file")
    with source.open("rb") as stream:
        raw: bytes = stream.read(limit + 1)
    if len(raw) > limit:
        size = source.stat().st_size if isinstance(source, Path) else len(raw)
        raise FileTooLarge(0, too_large(max(size, len(raw)), limit))
    return raw


def too_large(size: int, limit: int = MAX_YAML_BYTES) -> str:
    """The message for a file of ``size`` bytes over ``limit``."""
    return (f"the file is {size} bytes, over the limit of {limit} bytes "
            f"({limit / 1024 / 1024:g} MiB); refusing to read it")


def file_problem(name: str, message: str) -> SpecProblem:
    """A problem with a file as a whole (printed ``file: message``, with no line)."""
    return SpecProblem(name, 0, 0, "$", message)


def screen_events(text: str, name: str, max_nodes: int = MAX_YAML_NODES) -> SpecProblem | None:
    """The first anchor, alias or node past ``max_nodes`` in ``text``, as a located problem.

    The events are streamed from the parser and nothing is built, so an alias bomb or a huge
    document costs only the scan up to the first refusal. Syntax errors are left to
    ``compose``, which reports them with their position.
    """
    nodes = 0
    try:
        for event in yaml.parse(text, Loader=_COMPOSER):
            if isinstance(event, yaml.AliasEvent):
                return _event_problem(name, event, f"YAML aliases (*{event.anchor}) are not "
                                                   f"allowed: write the value out")
            if not isinstance(event, yaml.NodeEvent):
                continue
            if event.anchor is not None:
                return _event_problem(name, event, f"YAML anchors (&{event.anchor}) are not "
                                                   f"allowed: write the value out")
            nodes += 1
            if nodes > max_nodes:
                return _event_problem(name, event, f"the document holds more than {max_nodes} "
                                                   f"values (lists, mappings and scalars), "
                                                   f"the limit; refusing to read further")
    except yaml.YAMLError:
        return None
    return None


def _event_problem(name: str, event: yaml.Event, message: str) -> SpecProblem:
    mark = event.start_mark
    line, col = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
    return SpecProblem(name, line, col, "$", message)


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
    for error in _document_validator(schema_name).iter_errors(document.view):
        found.extend(_translate(document, error))
    return found


def _whole_number(checker: TypeChecker, value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@functools.cache
def _strict_validator() -> type[Validator]:
    from jsonschema import Draft202012Validator, validators

    strict: type[Validator] = validators.extend(  # type: ignore[no-untyped-call]
        Draft202012Validator,
        type_checker=Draft202012Validator.TYPE_CHECKER.redefine("integer", _whole_number))
    return strict


@functools.cache
def _document_validator(name: str) -> Validator:
    """The schema's validator with JSON Schema's ``integer`` read strictly: JSON Schema counts
    ``5.0`` as an integer, but in YAML it is a float (and ``1.0e+23`` a float no deal can
    use), so a file must write a count as a whole number."""
    return _strict_validator()(validator(name).schema, registry=registry())


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
            if "integer" in wanted and isinstance(instance, float):
                return f"expected {words}, got {instance!r}: write a whole number, no point " \
                       f"or exponent"
            return f"expected {words}, got {kind_of(instance)}"
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
    return kind_of(value)


def kind_of(value: object) -> str:
    """What kind of value this is, in words for messages (``a mapping``, ``an integer``)."""
    if value is None:
        return "null (an empty value)"
    if isinstance(value, bool):
        return "a boolean"
    for python_type, word in ((dict, "a mapping"), (list, "a list"), (str, "a string"),
                              (int, "an integer"), (float, "a number")):
        if isinstance(value, python_type):
            return word
    return f"a {type(value).__name__} value"


# ---------------------------------------------------------------------------- YAML values


def contains_value(values: list[Any], value: object) -> bool:
    """Membership that tells YAML ``true`` from ``1`` (Python's == does not)."""
    return any(type(v) is type(value) and v == value for v in values)


def find_path(root: Any, dotted: str) -> tuple[Any, str | int] | None:
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
