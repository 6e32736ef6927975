"""The play pages' engine bundle runs with the standard library alone, as in the browser.

Pyodide has no jsonschema (its Rust dependency does not build there) and no PyYAML C parser,
so the bundle carries the rule files as the build checked them (``dominokit/spec/frozen.py``).
Here the bundle is unpacked and run by a Python started with ``-S -I`` (no site-packages: no
jsonschema, no installed dominokit, no PyYAML but the bundle's pure-Python copy), and what it
plays is held against the reference running normally in this process.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from dominokit.reference import (
    apply_action,
    legal_actions,
    load_rules,
    new_hand,
    new_match,
    random_deal,
    variant_ids,
)
from dominokit.rulebook.playbundle import engine_zip
from dominokit.spec import frozen
from dominokit.spec.spec import load_variant

SEED = 11

PLAY = """
import json, sys
sys.path.insert(0, sys.argv[1])
from dominokit.spec import frozen
frozen.install(open(sys.argv[1] + "/checked-spec.txt", encoding="utf-8").read())
from dominokit.rulebook.playroom import Room
out = {}
for variant in json.loads(sys.argv[2]):
    room = Room.deal(variant, {}, int(sys.argv[3]), seat="both")
    while room.state.result is None:
        room.click("action", room.view()["legal"][0])
    out[variant] = room.state.result.to_json()
out["jsonschema"] = "jsonschema" in sys.modules
out["yaml_c"] = bool(getattr(sys.modules.get("yaml"), "__with_libyaml__", False))
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("bundle")
    archive = folder / "engine.zip"
    archive.write_bytes(engine_zip())
    with zipfile.ZipFile(archive) as unpacked:
        unpacked.extractall(folder / "dk")
    return folder / "dk"


def _reference(variant: str, seed: int) -> dict[str, object]:
    """The hand on the reference in this process: dealt as ``dominokit play`` deals a seed,
    both players taking the first legal action."""
    rules = load_rules(variant, {})
    plan = new_match(variant, {}).plan()
    sizes = None if rules.setup.hand_size is not None or plan is None else plan.hand_sizes
    state = new_hand(rules, random_deal(rules, random.Random(seed), hand_sizes=sizes))
    while state.result is None:
        state, _ = apply_action(state, legal_actions(state)[0])
    result: dict[str, object] = state.result.to_json()
    return result


def test_the_bundle_plays_every_game_as_the_reference_without_jsonschema(bundle: Path) -> None:
    variants = variant_ids()
    done = subprocess.run([sys.executable, "-S", "-I", "-c", PLAY, str(bundle),
                           json.dumps(variants), str(SEED)],
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    played = json.loads(done.stdout)
    assert played.pop("jsonschema") is False
    assert played.pop("yaml_c") is False
    assert played == {v: _reference(v, SEED) for v in variants}


def test_frozen_data_makes_the_same_variant() -> None:
    text = frozen.dump({"variants/pijanowski.yaml": load_variant("pijanowski").data})
    # A mapping keyed by true (the double_set option's overrides) survives, unlike in JSON.
    assert "True:" in text
    with pytest.raises(ValueError):
        frozen.dump({"x": object()})
