"""Rules are read from a configuration the schema and the file checks have passed.

Loading a variant checks the file and each option value of it on its own; a configuration
that reaches ``build_rules`` some other way (several non-default options at once, or made by
hand as here) is checked again the same two ways before any key is read, and refused as
``file:line:col: $.path: message``, never as a KeyError or a wrong game.
"""

from __future__ import annotations

import copy

import pytest

from dominokit.reference.errors import SpecError
from dominokit.reference.rules import build_rules
from dominokit.spec.spec import ResolvedVariant, load_variant


def resolved_with(change: dict[str, object]) -> ResolvedVariant:
    """classic_block's default configuration with ``{"a.b.c": value}`` written in."""
    resolved = load_variant("classic_block").resolve()
    config = copy.deepcopy(resolved.config)
    for dotted, value in change.items():
        *parents, last = dotted.split(".")
        node = config
        for key in parents:
            node = node[key]
        node[last] = value
    return ResolvedVariant(resolved.variant, resolved.options, config)


def refusal(change: dict[str, object]) -> str:
    with pytest.raises(SpecError) as caught:
        build_rules(resolved_with(change))
    assert len(caught.value.problems) == 1
    return str(caught.value.problems[0])


def test_the_default_configuration_builds() -> None:
    assert build_rules(resolved_with({})).draw.policy == "none"


def test_a_name_the_schema_does_not_allow_is_refused_at_its_path() -> None:
    text = refusal({"turn.draw.policy": "sometimes"})
    assert "classic_block.yaml:1:1: $.turn.draw.policy: " in text
    assert "'sometimes' is not one of" in text


def test_a_missing_key_is_refused_not_a_key_error() -> None:
    resolved = resolved_with({})
    del resolved.config["match"]
    with pytest.raises(SpecError, match=r"block.yaml:1:1: \$: missing required key 'match'"):
        build_rules(resolved)


def test_a_mechanic_that_does_not_fit_the_table_is_refused() -> None:
    text = refusal({"turn.opening.policy": "anywhere"})
    assert text.endswith("$.turn.opening.policy: this mechanic does not fit the table or setup "
                         "(chain table, out_of_play remainder)")
