"""Every Polish quote in spec/ is a verbatim passage of the seed text it names.

The seed texts are the project's sources, kept beside the repository (``../shared/seeds``) and
not shipped; where they are absent this check cannot run and says so.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from dominokit.reference.spec import common_rules, load_variant, variant_ids

SEEDS = Path(__file__).resolve().parent.parent.parent / "shared" / "seeds"


def _normalised(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def _quotes() -> list[tuple[str, str, str]]:
    entries = list(common_rules())
    for variant_id in variant_ids():
        entries.extend(load_variant(variant_id).rules)
    return [(e.id, e.source_file, e.quote) for e in entries if e.source_file and e.quote]


@pytest.mark.skipif(not SEEDS.is_dir(), reason=f"seed texts not found at {SEEDS}")
@pytest.mark.parametrize(("rule_id", "seed", "quote"), _quotes())
def test_quote_is_verbatim_in_its_seed(rule_id: str, seed: str, quote: str) -> None:
    text = _normalised((SEEDS / seed).read_text(encoding="utf-8"))
    assert _normalised(quote) in text, f"{rule_id}: quote not found in {seed}"
