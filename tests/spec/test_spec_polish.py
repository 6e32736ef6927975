"""Every rule and every game is written in both languages of the rule book, in ``spec/``.

The book's Polish pages are made from ``title_pl`` and ``statement_pl`` (each rule) and
``summary_pl`` / ``origin_pl`` (each game) beside the English in the same entry, and each ruling's
``decision_pl`` / ``alternative_pl`` beside its ``decision`` / ``alternative``, so a rule added in
English only must fail here rather than leave a gap on the Polish side. The two texts of a
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
REPO = Path(__file__).resolve().parents[2]
SEEDS = Path(os.environ.get("DOMINOKIT_SEEDS") or REPO.parent / "shared" / "seeds")
"""The seed texts, kept beside the repository (as for tests/spec/test_spec_sources.py)."""


def _rules() -> list[RuleEntry]:
    entries = list(common_rules())
    for variant_id in variant_ids():
        entries.extend(load_variant(variant_id).rules)
    return entries


RULES = _rules()
RULINGS = [entry for entry in RULES if entry.decision or entry.alternative]
TILE = re.compile(r"\[[0-9a-z]\|[0-9a-z]\]")
NUMBER = re.compile(r"(?<![\w.])\d+(?![\w])")


def ruling_gaps(entry: RuleEntry) -> list[str]:
    """What a ruling lacks in Polish: each English text of its ruling needs its ``_pl`` twin
    (and no Polish text stands without the English one)."""
    gaps = []
    for field in ("decision", "alternative"):
        english, polish = getattr(entry, field), getattr(entry, f"{field}_pl")
        if english and not (polish and polish.strip()):
            gaps.append(f"{entry.id}: no Polish {field} ({field}_pl)")
        elif polish and not english:
            gaps.append(f"{entry.id}: {field}_pl without {field}")
        elif polish and (polish == english or not POLISH_LETTERS & set(polish)):
            gaps.append(f"{entry.id}: {field}_pl is still the English text")
    return gaps


def exact_tokens(text: str) -> dict[str, set[str]]:
    """What a translation must keep exactly: rule ids, tiles, option names, numbers."""
    rest = TILE.sub(" ", RULE_ID.sub(" ", text))
    return {"rule ids": set(RULE_ID.findall(text)), "tiles": set(TILE.findall(text)),
            "names": set(re.findall(r"\b[a-z]+_[a-z_]+\b", text)),
            "numbers": set(NUMBER.findall(rest))}


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


def test_the_rulings_are_found() -> None:
    assert {"R-ALL-05", "R-PIJ-06", "R-POL-09", "R-SZC-07"} <= {e.id for e in RULINGS}
    assert all(entry.kind != "rule" for entry in RULINGS)


@pytest.mark.parametrize("entry", RULINGS, ids=lambda e: e.id)
def test_every_ruling_has_its_decision_and_alternative_in_polish(entry: RuleEntry) -> None:
    assert not ruling_gaps(entry)


def test_a_ruling_without_polish_is_reported() -> None:
    entry = RuleEntry.from_data({
        "id": "R-XYZ-01", "title": "T", "kind": "ruling", "statement": "S",
        "ruling": {"decision": "D.", "alternative": "A.", "alternative_pl": "A."}})
    assert ruling_gaps(entry) == ["R-XYZ-01: no Polish decision (decision_pl)",
                                  "R-XYZ-01: alternative_pl is still the English text"]


@pytest.mark.parametrize("entry", RULINGS, ids=lambda e: e.id)
@pytest.mark.parametrize("field", ["decision", "alternative"])
def test_polish_rulings_keep_ids_tiles_options_and_numbers(entry: RuleEntry, field: str) -> None:
    english, polish = getattr(entry, field), getattr(entry, f"{field}_pl")
    if english is None:
        pytest.skip(f"{entry.id} has no {field}")
    assert exact_tokens(polish) == exact_tokens(english), f"{entry.id} {field}"


@pytest.mark.parametrize("variant_id", variant_ids())
def test_every_game_has_its_summary_and_origin_in_both_languages(variant_id: str) -> None:
    meta = load_variant(variant_id).data["metadata"]
    for field in ("summary", "origin"):
        assert meta.get(field), f"{variant_id}: no {field}"
        assert meta.get(f"{field}_pl"), f"{variant_id}: no {field}_pl"
    assert ("notes" in meta) == ("notes_pl" in meta), f"{variant_id}: notes in one language only"


@pytest.mark.parametrize("variant_id", variant_ids())
def test_every_option_says_what_it_changes_in_both_languages(variant_id: str) -> None:
    for name, option in load_variant(variant_id).options.items():
        polish = option.description_pl or ""
        assert POLISH_LETTERS & set(polish), f"{variant_id}: option {name} has no description_pl"
        assert exact_tokens(polish)["rule ids"] == exact_tokens(option.description)["rule ids"]
        for value in option.values:
            if isinstance(value, str):
                assert value in polish, f"{variant_id}: {name}'s description_pl omits {value}"


@pytest.mark.parametrize("variant_id", variant_ids())
def test_every_option_and_value_has_a_polish_label(variant_id: str) -> None:
    """The Polish pages and the play page name an option and its values in Polish
    (``label_pl``, ``labels_pl``), keeping the machine name once in code font."""
    for name, option in load_variant(variant_id).options.items():
        assert option.label_pl and option.label_pl.strip(), f"{variant_id}: {name} has no label_pl"
        assert option.label_pl != name and "_" not in option.label_pl, (variant_id, name)
        for value in option.values:
            label = option.labels_pl.get(value, "")
            assert label.strip(), f"{variant_id}: {name}={value} has no label in labels_pl"
            assert "_" not in label and label != str(value).lower(), (variant_id, name, value)


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
