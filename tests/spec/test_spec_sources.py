"""spec/ answers to its sources: the seed texts it quotes and the rulings it must carry.

The seed texts and RULINGS.md are the project's sources, kept beside the repository
(``../shared``) and not shipped; where they are absent these checks cannot run and say so.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from dominokit.spec.spec import common_rules, load_variant, variant_ids

REPO = Path(__file__).resolve().parents[2]
SHARED = REPO.parent / "shared"
SEEDS = SHARED / "seeds"
RULINGS = SHARED / "RULINGS.md"


def _missing(path: Path) -> str:
    """Why a check cannot run, naming the missing file as a reader of the repository would
    look for it (``../shared/...``), not as an absolute path on someone's machine."""
    return f"{Path('..', path.relative_to(REPO.parent)).as_posix()} not found beside the repository"


def _normalised(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def _quotes() -> list[tuple[str, str, str]]:
    entries = list(common_rules())
    for variant_id in variant_ids():
        entries.extend(load_variant(variant_id).rules)
    return [(e.id, e.source_file, e.quote) for e in entries if e.source_file and e.quote]


@pytest.mark.skipif(not SEEDS.is_dir(), reason=_missing(SEEDS))
@pytest.mark.parametrize(("rule_id", "seed", "quote"), _quotes())
def test_quote_is_verbatim_in_its_seed(rule_id: str, seed: str, quote: str) -> None:
    text = _normalised((SEEDS / seed).read_text(encoding="utf-8"))
    assert _normalised(quote) in text, f"{rule_id}: quote not found in {seed}"


def _rulings_ids() -> list[str]:
    text = RULINGS.read_text(encoding="utf-8")
    return sorted(set(re.findall(r"^- \*\*(R-[A-Z]{3}-\d{2})\b", text, re.M)))


@pytest.mark.skipif(not RULINGS.is_file(), reason=_missing(RULINGS))
def test_every_ruling_is_in_the_spec_as_a_ruling() -> None:
    ids = _rulings_ids()
    assert len(ids) >= 46, ids  # 11 common + 10 + 12 + 7 + 6, as RULINGS.md lists them
    entries = {entry.id: entry for entry in common_rules()}
    for variant_id in variant_ids():
        entries.update({entry.id: entry for entry in load_variant(variant_id).rules})
    missing = [rule_id for rule_id in ids if rule_id not in entries]
    assert not missing, f"RULINGS.md ids missing from spec/: {missing}"
    not_rulings = [rule_id for rule_id in ids if entries[rule_id].kind != "ruling"]
    assert not not_rulings, f"RULINGS.md ids not marked kind: ruling: {not_rulings}"
    # A RULINGS.md id keeps its meaning: the spec entry must carry the decision it rests on.
    undecided = [rule_id for rule_id in ids if not entries[rule_id].decision]
    assert not undecided, f"rulings without a decision: {undecided}"
