"""The rule book as values: variants, their rules and options, and option resolution.

Rules are data (spec/common.yaml, spec/variants/<id>.yaml). This module loads one (every
problem found by :mod:`speclint` is raised as a SpecError) and turns a clean file into a
:class:`Variant` whose options resolve into the plain configuration the engine reads.

The bundled files (:mod:`bundled`), option resolution (:mod:`options`), the YAML reader
(:mod:`yamldoc`), the JSON Schemas (:mod:`schemas`) and the file checks (:mod:`speclint`) live
in their own modules below this one, so that the checks never need this module; their public
names are re-exported here because code written before the split imports them from here.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dominokit.spec import frozen
from dominokit.spec.bundled import (
    bundled_common_file,
    bundled_variant_files,
    spec_root,
    variant_ids,
)
from dominokit.spec.errors import OptionError, SpecError, SpecProblem
from dominokit.spec.options import apply_overrides, is_option_ref, resolve_config, substitute
from dominokit.spec.schemas import SPEC_PACKAGE, registry, schema, schema_names, validator
from dominokit.spec.speclint import (
    COMMON_FILE,
    RULE_KEYS,
    check_common_file,
    check_document,
    check_variant_file,
)
from dominokit.spec.suggest import did_you_mean
from dominokit.spec.yamldoc import (
    JsonPath,
    Source,
    YamlDocument,
    contains_value,
    json_path,
    key_text,
    load_yaml_with_marks,
    schema_problems,
    show,
)

__all__ = [
    "COMMON_FILE",
    "RULE_KEYS",
    "SPEC_PACKAGE",
    "JsonPath",
    "OptionSpec",
    "ResolvedVariant",
    "RuleEntry",
    "Source",
    "Variant",
    "YamlDocument",
    "all_rule_ids",
    "bundled_common_file",
    "bundled_variant_files",
    "check_common_file",
    "check_variant_file",
    "common_rules",
    "is_option_ref",
    "json_path",
    "key_text",
    "load_variant",
    "load_yaml_with_marks",
    "registry",
    "resolve_config",
    "rule",
    "schema",
    "schema_names",
    "schema_problems",
    "show",
    "validator",
    "variant_ids",
]


# ---------------------------------------------------------------------------- values


@dataclass(frozen=True)
class RuleEntry:
    """One rule of the spec: stable id, source quote, English statement, ruling if any.

    The quote comes from a seed text (``source_file``, the Polish games) or from a published
    rule text (``source_url``), so a game need not have a seed file to be in the spec.
    ``statement_pl`` is the same rule written for Polish players: both languages sit in the one
    entry, beside the quote, so the rule book's two languages cannot drift apart. A ruling's
    ``decision_pl`` and ``alternative_pl`` sit beside its ``decision`` and ``alternative`` for
    the same reason.
    """

    id: str
    title: str
    kind: str
    source_file: str | None
    quote: str | None
    statement: str
    decision: str | None = None
    alternative: str | None = None
    option: str | None = None
    source_url: str | None = None
    statement_pl: str | None = None
    title_pl: str | None = None
    decision_pl: str | None = None
    alternative_pl: str | None = None

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
            source_url=source.get("url"), statement_pl=data.get("statement_pl"),
            title_pl=data.get("title_pl"), decision_pl=ruling.get("decision_pl"),
            alternative_pl=ruling.get("alternative_pl"),
        )


@dataclass(frozen=True)
class OptionSpec:
    """A variant option: its allowed values, default, ruling and per-value overrides, what it
    changes in English and (``description_pl``, for the Polish rule book) in Polish, and the
    Polish names of the option and its values (``label_pl``, ``labels_pl``)."""

    name: str
    values: tuple[object, ...]
    default: object
    rule: str
    description: str
    overrides: Mapping[object, Mapping[str, object]] = field(default_factory=dict)
    description_pl: str | None = None
    label_pl: str | None = None
    """The option's name for Polish readers (``label_pl``)."""
    labels_pl: Mapping[object, str] = field(default_factory=dict)
    """Each declared value's name for Polish readers (``labels_pl``)."""

    def coerce(self, value: object, variant_id: str) -> object:
        """The declared value meant by ``value``; strings from a CLI ``k=v`` are matched by
        their lower-case text (``"true"`` -> True, ``"14"`` -> 14). Raises OptionError."""
        for allowed in self.values:
            if contains_value([allowed], value):
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
            apply_overrides(config, spec.overrides.get(chosen[name], {}))
        resolved: dict[str, Any] = substitute(config, chosen)
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
    labels_pl = {v: str(label) for key, label in (data.get("labels_pl") or {}).items()
                 for v in values if key_text(v) == key_text(key)}
    return OptionSpec(name, values, data["default"], data["rule"], data["description"],
                      overrides, description_pl=data.get("description_pl"),
                      label_pl=data.get("label_pl"), labels_pl=labels_pl)


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
        hint = did_you_mean(variant_id, variant_ids())
        raise SpecError([SpecProblem(f"spec/variants/{variant_id}.yaml", 1, 1, "$",
                                     f"no bundled variant {variant_id!r}{hint} "
                                     f"(known: {known})")])
    path = Path(str(spec_root() / "variants" / f"{variant_id}.yaml"))
    data = frozen.checked(f"variants/{variant_id}.yaml")
    if data is not None:  # checked when it was frozen (the in-browser engine)
        return _variant_from(YamlDocument(str(path), data), path)
    return _load_variant_file(path)


def _load_variant_file(path: Path) -> Variant:
    document = load_yaml_with_marks(path)
    stem = path.name.removesuffix(".yaml")
    problems = check_document(document, "variant", stem, is_common=False)
    if problems:
        raise SpecError(problems)
    return _variant_from(document, path)


@functools.cache
def common_rules() -> tuple[RuleEntry, ...]:
    """The R-ALL rules of spec/common.yaml (SpecError if the file is missing or invalid)."""
    data = frozen.checked("common.yaml")
    if data is None:
        document = load_yaml_with_marks(bundled_common_file())
        problems = check_document(document, "common", "common", is_common=True)
        if problems:
            raise SpecError(problems)
        data = document.data
    return tuple(RuleEntry.from_data(entry) for entry in data["rules"])


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
