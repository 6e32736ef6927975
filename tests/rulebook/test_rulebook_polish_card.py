"""The summary card and the games side by side in Polish: every card row and every value of
the spec's vocabulary has Polish wording, and the Polish comparison page has a column per game.

Fast (no site build): the vocabulary is read from the variant schema's enums, so a value added
to the schema without a Polish sentence fails here, not on a reader's page.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from importlib import resources
from typing import Any

import pytest

from dominokit.rulebook import Book, variant_page
from dominokit.rulebook.card import (
    CARD_TERMS,
    CARD_WORDING,
    TERMS,
    WORDING,
    WORDING_PL,
    card_rows,
    game_name,
    kamienie,
)
from dominokit.rulebook.comparison import COMPARISON_PAGE
from dominokit.rulebook.i18n import EN, LANGS, PL
from dominokit.rulebook.text import relative

_SKIP = {"allOf", "anyOf", "oneOf", "then", "else", "if", "items", "properties"}


def _enums(node: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[str, list[Any]]]:
    """(dotted field, enum values) for every enum of the schema, its path without the
    schema's own keywords (``turn/properties/draw/properties/policy`` -> ``turn.draw.policy``)."""
    if isinstance(node, dict):
        if "enum" in node:
            yield ".".join(path), node["enum"]
        for key, value in node.items():
            yield from _enums(value, path if key in _SKIP else (*path, key))
    elif isinstance(node, list):
        for item in node:
            yield from _enums(item, path)


def _vocabulary() -> dict[str, set[str]]:
    schema = json.loads((resources.files("dominokit.spec") / "schema" / "variant.schema.json")
                        .read_text(encoding="utf-8"))
    out: dict[str, set[str]] = {}
    for field, values in _enums(schema):
        if field in WORDING:
            out.setdefault(field, set()).update(str(v) for v in values)
    return out


@pytest.fixture(scope="module")
def book() -> Book:
    return Book.load()


def test_the_schema_vocabulary_is_found() -> None:
    vocabulary = _vocabulary()
    assert set(vocabulary) == set(WORDING), set(WORDING) - set(vocabulary)
    assert vocabulary["turn.draw.policy"] == {"none", "free", "until_fit"}


@pytest.mark.parametrize("lang", LANGS, ids=lambda lang: lang.code)
def test_every_policy_value_has_wording_in_every_language(lang: Any) -> None:
    wording = CARD_WORDING[lang.code]
    missing = [f"{field} = {value}" for field, values in sorted(_vocabulary().items())
               for value in sorted(values) if value not in wording.get(field, {})]
    assert not missing, f"no {lang.code} card wording for: {missing}"


def test_polish_wording_has_exactly_the_english_fields_and_values() -> None:
    assert {f: set(v) for f, v in WORDING_PL.items()} == {f: set(v) for f, v in WORDING.items()}
    for field, values in WORDING.items():
        for value, sentence in values.items():
            polish = WORDING_PL[field][value]
            assert bool(polish) == bool(sentence), f"{field} = {value}"
            assert re.findall(r"{\w+}", polish) == re.findall(r"{\w+}", sentence), field
            if sentence:
                assert polish != sentence, f"{field} = {value} is not translated"


def test_every_card_term_is_named_in_every_language() -> None:
    english_terms = list(TERMS[EN.code])
    assert set(CARD_TERMS) <= set(english_terms)
    for lang in LANGS:
        assert list(TERMS[lang.code]) == english_terms, lang.code
        assert all(TERMS[lang.code].values()), lang.code


def test_a_missing_polish_sentence_is_an_error_naming_it(book: Book,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    pruned = {f: dict(v) for f, v in WORDING_PL.items()}
    del pruned["turn.draw.policy"]["until_fit"]
    monkeypatch.setitem(CARD_WORDING, PL.code, pruned)  # type: ignore[arg-type]
    progressive = next(v for v in book.variants if v.id == "progressive")
    with pytest.raises(KeyError, match="no pl wording for turn.draw.policy = 'until_fit'"):
        card_rows(book, progressive, variant_page("progressive"), PL)


@pytest.mark.parametrize(("n", "words"), [(1, "1 kamień"), (2, "2 kamienie"), (4, "4 kamienie"),
                                          (5, "5 kamieni"), (12, "12 kamieni"),
                                          (14, "14 kamieni"), (22, "22 kamienie"),
                                          (28, "28 kamieni")])
def test_polish_tile_counts_take_their_grammatical_number(n: int, words: str) -> None:
    assert kamienie(n) == words


def test_polish_card_speaks_polish_for_every_game(book: Book) -> None:
    for variant in book.variants:
        here = variant_page(variant.id)
        english = dict(zip(TERMS[EN.code], (t for _, t in card_rows(book, variant, here)),
                           strict=True))
        polish = card_rows(book, variant, here, PL)
        assert [term for term, _ in polish] == list(TERMS[PL.code].values())
        for (term, text), key in zip(polish, TERMS[EN.code], strict=True):
            assert text, f"{variant.id}: {term} is empty"
            if key != "Players":
                assert text != english[key], f"{variant.id}: {term} is still in English"


@pytest.fixture(scope="module")
def pages(generated_polish_pages: Mapping[str, str]) -> dict[str, str]:
    return dict(generated_polish_pages)


def test_polish_comparison_page_has_a_column_per_game(book: Book, pages: dict[str, str]
                                                      ) -> None:
    page = pages[PL.page(COMPARISON_PAGE)]
    assert page.startswith("# Gry obok siebie")
    rows = [line for line in page.splitlines() if line.startswith("|")]
    head, rule, *body = rows
    for variant in book.variants:
        link = f"[{game_name(variant, PL)}]({relative(variant_page(variant.id), COMPARISON_PAGE)})"
        assert link in head, variant.id
    columns = len(book.variants) + 1
    assert rule.count("---") == columns
    assert [re.match(r"\| \*\*(.+?)\*\*", line).group(1)  # type: ignore[union-attr]
            for line in body] == list(TERMS[PL.code].values())
    for line in body:
        cells = re.split(r"(?<!\\)\|", line.strip().strip("|"))
        assert len(cells) == columns and all(c.strip() for c in cells), line
    assert "talon" in page and "wdowa" in page and "jeziork" in page


def test_polish_game_pages_show_the_polish_card(book: Book, pages: dict[str, str]) -> None:
    for variant in book.variants:
        page = pages[PL.page(variant_page(variant.id))]
        assert '<div class="dk-card" markdown>' in page, variant.id
        assert "\nKto zaczyna\n" in page and "\nStarter\n" not in page, variant.id
