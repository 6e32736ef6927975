"""The checks a JSON Schema cannot express, over one rule file.

A schema sees one file at a time and no meaning: it cannot tell that a ``rule:`` names a rule
nobody defined, that a rule id is already taken by another file, that an ``{option: NAME}``
names no option, that an override path points nowhere, or that some option value resolves to
a configuration the engine would refuse. :func:`check_document` is the one entry point: a
file's YAML problems, then its schema problems, then these; ``dominokit spec check`` and every
load of a rule file run it, so a broken spec is reported, located, before any hand is played.

The checks need the bundled files (:mod:`bundled`) and option resolution (:mod:`options`),
never the loader (:mod:`spec`), which runs them on every file it loads.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dominokit.spec.bundled import bundled_common_file, bundled_variant_files
from dominokit.spec.errors import SpecProblem
from dominokit.spec.options import is_option_ref, resolve_config
from dominokit.spec.yamldoc import (
    JsonPath,
    Source,
    YamlDocument,
    contains_value,
    find_path,
    json_path,
    key_text,
    kind_of,
    load_yaml_with_marks,
    schema_problems,
    show,
)

RULE_KEYS = ("rule", "blank_rule", "adjacency_rule")
"""Keys whose value cites a rule id that must be defined (the engine names it in errors)."""

COMMON_FILE = "spec/common.yaml"
_RULE_ID = re.compile(r"R-(ALL|POL|PIJ|SZC|PRO|[A-Z]{3})-[0-9]{2}")
_LOCKED_SECTIONS = ("spec_version", "id", "options", "rules")


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
    return check_document(document, "common", "common", is_common=True)


def check_variant_file(path: Source | str, filename: str | None = None) -> list[SpecProblem]:
    """Every problem in a variant file, sorted by position; [] when the file is clean.

    Beyond the schema: ``id`` must equal the file stem, rule references must name rules of
    this file or spec/common.yaml, option references and override paths must exist, defaults
    must be allowed values, rule ids must be unique across the spec, and every option value
    must resolve to a configuration the schema accepts.
    """
    source = _as_source(path)
    document = load_yaml_with_marks(source, filename)
    return check_document(document, "variant", source.name.removesuffix(".yaml"), is_common=False)


def _as_source(path: Source | str) -> Source:
    return Path(path) if isinstance(path, str) else path


def check_document(document: YamlDocument, schema_name: str, stem: str, *, is_common: bool
                   ) -> list[SpecProblem]:
    """Every problem in a parsed rule file, sorted by position; [] when it is clean.

    ``schema_name`` is ``variant`` or ``common``; ``stem`` is the file name without
    ``.yaml`` (a variant's ``id`` must equal it, and a bundled file of that name is left out
    of the cross-file checks). Loading a rule file runs exactly these checks.
    """
    problems = list(document.problems)
    if not problems:
        if not isinstance(document.view, dict):
            problems.append(document.problem((), f"expected a mapping at the top level, got "
                                                 f"{kind_of(document.view)}"))
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
        if self.schema_clean and not self.problems:
            self._dealable()
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
        for path, name in _option_refs(self.view):
            if name not in self.options:
                declared = ", ".join(self.options) or "none"
                self._add((*path, "option"),
                          f"option {name!r} is not declared under options (declared: "
                          f"{declared})")

    def _options(self) -> None:
        used = {name for _, name in _option_refs(self.view)}
        for name, spec in self.options.items():
            base: JsonPath = ("options", name)
            values = spec.get("values") if isinstance(spec.get("values"), list) else []
            if "default" in spec and not contains_value(values, spec["default"]):
                self._add((*base, "default"), f"default {show(spec['default'])} is not one of "
                          f"the option's values ({', '.join(show(v) for v in values)})")
            overrides = spec.get("overrides")
            if name not in used and not overrides:
                self._add(base, f"option {name!r} is never used: no {{option: {name}}} "
                                f"reference and no overrides", key=True)
            if isinstance(overrides, dict):
                self._overrides(base, values, overrides)
            self._labels(name, base, values, spec)

    def _labels(self, name: str, base: JsonPath, values: list[Any], spec: dict[str, Any]
                ) -> None:
        """``label_pl`` and ``labels_pl`` come together, and label exactly the values."""
        labels = spec.get("labels_pl")
        if ("label_pl" in spec) != ("labels_pl" in spec):
            given, missing = ("label_pl", "labels_pl") if "label_pl" in spec else (
                "labels_pl", "label_pl")
            self._add(base, f"option {name!r} has {given} but no {missing} (give both)",
                      key=True)
        if not isinstance(labels, dict):
            return
        texts = [key_text(v) for v in values]
        for value_text in labels:
            if value_text not in texts:
                self._add((*base, "labels_pl", value_text),
                          f"labels_pl labels {value_text!r}, which is not one of the "
                          f"option's values ({', '.join(texts)})", key=True)
        for value_text in texts:
            if value_text not in labels:
                self._add((*base, "labels_pl"),
                          f"labels_pl has no label for value {value_text!r}")

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
                elif find_path(self.view, dotted) is None:
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
                config = resolve_config(self.view, self.options, chosen)
                resolved = YamlDocument(self.document.filename, view=config)
                found = schema_problems(resolved, "variant")
                where: JsonPath = ("options", name, "values", index)
                label = f"with {name}={key_text(value)}: "
                for problem in found:
                    self._add(where, f"{label}{problem.path}: {problem.message}")
                for path, rule_id in _dangling_rules(config, self._defined_rules()):
                    self._add(where, f"{label}{json_path(path)}: rule {rule_id!r} is not "
                                     f"defined in this file or in {COMMON_FILE}")


    def _dealable(self) -> None:
        """Every configuration must be dealable and its mechanics must fit one another: with
        the defaults, at the file's own lines; with each other option value, at that value
        (only what the defaults do not show)."""
        defaults = {name: spec["default"] for name, spec in self.options.items()}
        base = _configuration_problems(resolve_config(self.view, self.options, defaults))
        for path, message in base:
            found = find_path(self.view, ".".join(map(str, path)))
            written: Any = found[0][found[1]] if found is not None else None
            if is_option_ref(written):
                name = written["option"]
                self._add(("options", name, "default"), f"with the default {name}="
                          f"{key_text(defaults[name])}: {json_path(path)}: {message}")
            else:
                self._add(path, message)
        for name, spec in self.options.items():
            for index, value in enumerate(spec["values"]):
                if contains_value([spec["default"]], value):
                    continue
                config = resolve_config(self.view, self.options, {**defaults, name: value})
                for path, message in _configuration_problems(config):
                    if (path, message) not in base:
                        self._add(("options", name, "values", index),
                                  f"with {name}={key_text(value)}: {json_path(path)}: {message}")


def _configuration_problems(config: dict[str, Any]) -> list[tuple[JsonPath, str]]:
    return _deal_problems(config) + config_problems(config)


def config_problems(config: dict[str, Any]) -> list[tuple[JsonPath, str]]:
    """(path, message) for each mechanic of a resolved, schema-valid configuration that does
    not fit the table or the setup, so that no hand could be played by it.

    A board matches by contacts and opens anywhere, a chain neither (R-PIJ-03/04); a widow
    opening or starter needs a widow remainder; a one_set_each deal (R-PIJ-11) needs one copy
    of the set per player, every tile dealt. The engine runs this on every configuration it
    reads (a choice of several options is checked nowhere else).
    """
    setup, turn = config["setup"], config["turn"]
    kind, remainder = config["components"]["table"]["kind"], setup["remainder"]
    board, widow = kind == "board", remainder == "widow"
    pairs: list[tuple[JsonPath, bool, bool]] = [
        (("turn", "matching", "policy"), turn["matching"]["policy"] == "board_contacts", board),
        (("turn", "opening", "policy"), turn["opening"]["policy"] == "anywhere", board),
        (("turn", "opening", "policy"), turn["opening"]["policy"] == "widow", widow),
        (("setup", "starter"), setup["starter"] == "widow", widow),
    ]
    found: list[tuple[JsonPath, str]] = [
        (path, f"this mechanic does not fit the table or setup ({kind} table, {remainder} "
               "remainder)")
        for path, uses, needs in pairs if uses != needs]
    tiles = config["components"]["tiles"]
    if (setup.get("deal") or {}).get("policy") == "one_set_each":
        one_set = len(_tile_count_set(tiles["max_pip"], tiles["doubles"]))
        if not (tiles["copies"] == PLAYERS and remainder == "none"
                and setup["hand_size"] == one_set):
            found.append((("setup", "deal", "policy"),
                          f"one_set_each needs components.tiles.copies: {PLAYERS} (one set per "
                          f"player), setup.hand_size: {one_set} (one set) and "
                          f"setup.remainder: none; got copies {tiles['copies']}, hand_size "
                          f"{setup['hand_size']}, remainder {remainder}"))
    return found


PLAYERS = 2
"""Every variant is for two players, so a deal has two hands (R-ALL-02)."""


def _tile_count_set(max_pip: int, doubles: bool) -> list[tuple[int, int]]:
    """The (low, high) pairs of one set of tiles up to ``max_pip`` (R-ALL-01)."""
    return [(low, high) for low in range(max_pip + 1) for high in range(low, max_pip + 1)
            if doubles or low != high]


def _whole(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _deal_problems(config: dict[str, Any]) -> list[tuple[JsonPath, str]]:
    """(path, message) for each way a resolved, schema-valid configuration cannot be dealt:
    two hands that do not fit the tile set or leave the wrong remainder (R-ALL-03), for the
    fixed hand size or for every deal of the match schedule."""
    tiles = config["components"]["tiles"]
    max_pip, copies = _whole(tiles.get("max_pip")), _whole(tiles.get("copies"))
    setup, match = config["setup"], config["match"]
    if max_pip is None or copies is None:
        return []
    per_set = (max_pip + 1) * (max_pip + 2) // 2 if tiles.get("doubles") else \
        max_pip * (max_pip + 1) // 2
    deal_policy = setup.get("deal", {}).get("policy", "from_pool")
    count = per_set * copies
    found: list[tuple[JsonPath, str]] = []
    remainder = setup.get("remainder")
    if deal_policy == "one_set_each" and copies != 2:
        found.append((("components", "tiles", "copies"),
                      f"a one_set_each deal gives each player one copy of the set, so the "
                      f"tiles must be 2 copies, got {copies}"))
    size = setup.get("hand_size")
    scheduled = _scheduled_deals(match)
    if size == "schedule":
        if match.get("kind") != "rounds":
            found.append((("setup", "hand_size"), f"hand_size schedule takes the sizes from a "
                           f"match of kind rounds; this match is {match.get('kind')!r}"))
        for path, deal in scheduled:
            problem = _split_problem(deal[0], deal[1], count, remainder)
            if problem:
                found.append((path, problem))
    elif _whole(size) is not None:
        problem = _split_problem(size, size, count, remainder)
        if problem:
            found.append((("setup", "hand_size"), problem))
        other = [list(deal) for _, deal in scheduled if list(deal) != [size, size]]
        if other:
            found.append((("setup", "hand_size"), f"the match schedule deals {len(other)} "
                          f"hand(s) not of [{size}, {size}] (first {other[0]}), but a fixed "
                          f"hand_size refuses them: write hand_size: schedule"))
    return found


def _scheduled_deals(match: dict[str, Any]) -> list[tuple[JsonPath, Any]]:
    """(path, [a, b]) of every deal a rounds match schedules, tiebreaks included."""
    if match.get("kind") != "rounds":
        return []
    scheduled: list[tuple[JsonPath, Any]] = []
    for r, round_ in enumerate(match.get("rounds") or []):
        scheduled += [(("match", "rounds", r, "deals", d), deal)
                      for d, deal in enumerate(round_.get("deals") or [])]
    tiebreak = match.get("tiebreak") or {}
    scheduled += [(("match", "tiebreak", "deals", d), deal)
                  for d, deal in enumerate(tiebreak.get("deals") or [])]
    return scheduled


def _split_problem(first: int, second: int, count: int, remainder: object) -> str | None:
    """Why hands of ``first`` and ``second`` tiles cannot be dealt from ``count`` tiles with
    this remainder (None: they can)."""
    hands = f"two hands of {first}" if first == second else f"hands of {first} and {second}"
    left = count - first - second
    if left < 0:
        return f"{hands} need {first + second} tiles; the tile set has {count}"
    if remainder == "widow" and left != 1:
        return f"{hands} from {count} tiles leave {left}; a widow remainder needs exactly 1"
    if remainder == "none" and left != 0:
        return f"{hands} from {count} tiles leave {left}; remainder none deals every tile"
    return None


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


def _option_refs(root: Any) -> list[tuple[JsonPath, str]]:
    """Every ``{option: NAME}`` outside the options section, with its path."""
    found: list[tuple[JsonPath, str]] = []

    def visit(node: Any, path: JsonPath) -> None:
        if is_option_ref(node):
            found.append((path, node["option"]))
        elif isinstance(node, dict):
            for key, value in node.items():
                if not (path == () and key in ("options", "rules")):
                    visit(value, (*path, key))
        elif isinstance(node, list):
            for index, item in enumerate(node):
                visit(item, (*path, index))

    visit(root, ())
    return found


