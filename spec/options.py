"""Option resolution: a variant file's configuration for one choice of option values.

A parameter written ``{option: NAME}`` takes the chosen value of option NAME, and each chosen
value's ``overrides`` replace values at dotted paths. The loader (:mod:`spec`) resolves a
checked file this way, and the file checks (:mod:`speclint`) resolve every option value of a
file that may never load, to validate what the engine would see; both import this module.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from dominokit.spec.yamldoc import JsonPath, find_path, key_text


def is_option_ref(node: object) -> bool:
    """True for ``{option: NAME}``, a parameter whose value is that option's chosen value."""
    return isinstance(node, dict) and len(node) == 1 and isinstance(node.get("option"), str)


def apply_overrides(config: dict[Any, Any], changes: Mapping[str, object]) -> None:
    """Write each ``dotted.path: value`` of ``changes`` into ``config`` (paths that do not
    exist are skipped: the file checks report them)."""
    for dotted, value in changes.items():
        found = find_path(config, dotted)
        if found is not None:
            container, key = found
            container[key] = copy.deepcopy(value)


def substitute(node: Any, chosen: Mapping[str, object], path: JsonPath = ()) -> Any:
    """``node`` with every ``{option: NAME}`` replaced by the chosen value (the top-level
    ``options`` and ``rules`` sections are left as written)."""
    if is_option_ref(node):
        return chosen[node["option"]]
    if isinstance(node, dict):
        return {
            key: value if (path == () and key in ("options", "rules"))
            else substitute(value, chosen, (*path, key_text(key)))
            for key, value in node.items()
        }
    if isinstance(node, list):
        return [substitute(item, chosen, (*path, i)) for i, item in enumerate(node)]
    return node


def _overrides_for(spec: Mapping[Any, Any], value: object) -> Mapping[str, object]:
    overrides = spec.get("overrides")
    if not isinstance(overrides, dict):
        return {}
    for key, changes in overrides.items():
        if key_text(key) == key_text(value) and isinstance(changes, dict):
            return changes
    return {}


def resolve_config(view: dict[str, Any], options: Mapping[str, Any],
                   chosen: Mapping[str, object]) -> dict[str, Any]:
    """The configuration a file gives for ``chosen`` option values, read from its raw
    ``options`` entries: the spec checker resolves files that never become a Variant."""
    config = copy.deepcopy(view)
    for name, spec in options.items():
        apply_overrides(config, _overrides_for(spec, chosen[name]))
    resolved: dict[str, Any] = substitute(config, chosen)
    return resolved
