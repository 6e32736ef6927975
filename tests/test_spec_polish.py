"""Every rule and every game is written in both languages of the rule book, in ``spec/``.

The book's Polish pages are made from ``title_pl`` and ``statement_pl`` (each rule) and
``summary_pl`` / ``origin_pl`` (each game) beside the English in the same entry, so a rule added
in English only must fail here rather than leave a gap on the Polish side. The two texts of a
rule must also point at the same other rules: a cross-reference present in one language and not
the other is a sign that the two have drifted apart.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from dominokit.reference import RuleEntry
from dominokit.spec.spec import common_rules, load_variant, variant_ids

RULE_ID = re.compile(r"\bR-[A-Z]+-\d+\b")
POLISH_LETTERS = set("ąćęłńóśźżĄĆĘŁŃÓŚŹŻ")
REPO = Path(__file__).resolve().parent.parent
SEEDS = Path(os.environ.get("DOMINOKIT_SEEDS") or REPO.parent / "shared" / "seeds")
"""The seed texts, kept beside the repository (as for tests/test_spec_sources.py)."""


def _rules() -> list[RuleEntry]:
    entries = list(common_rules())
    for variant_id in variant_ids():
        entries.extend(load_variant(variant_id).rules)
    return entries


RULES = _rules()


@pytest.mark.parametrize("entry", RULES, ids=lambda e: e.id)
def test_every_rule_has_both_statements(entry: RuleEntry) -> None:
    assert entry.statement.strip(), f"{entry.id}: no English statement"
    assert entry.title_pl, f"{entry.id}: no Polish title (title_pl)"
    assert entry.statement_pl and entry.statement_pl.strip(), (
        f"{entry.id}: no Polish statement (statement_pl)")
    assert POLISH_LETTERS & set(entry.statement_pl), (
        f"{entry.id}: statement_pl has no Polish letter; is it still the English text?")
    assert entry.statement_pl != entry.statement


@pytest.mark.parametrize("entry", RULES, ids=lambda e: e.id)
def test_both_statements_cite_the_same_rules(entry: RuleEntry) -> None:
    english = set(RULE_ID.findall(entry.statement))
    polish = set(RULE_ID.findall(entry.statement_pl or ""))
    assert english == polish, f"{entry.id}: only English {english - polish}, " \
                              f"only Polish {polish - english}"


@pytest.mark.parametrize("variant_id", variant_ids())
def test_every_game_has_its_summary_and_origin_in_both_languages(variant_id: str) -> None:
    meta = load_variant(variant_id).data["metadata"]
    for field in ("summary", "origin"):
        assert meta.get(field), f"{variant_id}: no {field}"
        assert meta.get(f"{field}_pl"), f"{variant_id}: no {field}_pl"
    assert ("notes" in meta) == ("notes_pl" in meta), f"{variant_id}: notes in one language only"


def test_the_rule_quotes_support_their_rules() -> None:
    """R-ALL-01 (one set) must not quote the two-set sentence, and R-ALL-11 (each action, draws
    included, is one step) must not quote the Poldomino line about optional play."""
    by_id = {entry.id: entry for entry in RULES}
    one_set, perft = by_id["R-ALL-01"].quote or "", by_id["R-ALL-11"].quote or ""
    assert "dwóch kompletów" not in one_set and "kompletu domina" in one_set
    assert "nie jest obowiązkowe" not in perft and "dobiera" in perft


@pytest.mark.skipif(not SEEDS.is_dir(), reason="the seed texts are not on this machine")
def test_author_notes_are_the_seed_words() -> None:
    """The Polish notes are the source's own words (only line breaks and list marks differ)."""
    def words(text: str) -> list[str]:
        return re.findall(r"\w+", text.lower())

    for variant_id in variant_ids():
        meta = load_variant(variant_id).data["metadata"]
        if "notes_pl" not in meta or not isinstance(meta["source"], str):
            continue
        seed = " ".join(words((SEEDS / meta["source"]).read_text(encoding="utf-8")))
        assert " ".join(words(meta["notes_pl"])) in seed, variant_id
