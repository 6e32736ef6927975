"""The Polish pages leave nothing of the book's own English behind: every phrase of the drawn
examples, trace pages, perft pages and ruling boxes has a Polish counterpart, and none of the
English ones turns up on a page a Polish reader gets.

The scan is generic: its phrases are the English half of ``captions.PHRASES`` and of the ruling
box's words (``rules.RULING_WORDS``), cut at their fields, plus the phrases readers found
leaking before. It reads the generated Polish Markdown (no site build, a few seconds); the
built site is scanned the same way by ``tests/rulebook/test_docs_i18n.py``, which also finds
any English sentence there. What stays English on purpose is skipped: code, source quotes, and
text marked ``lang="en"`` (the English source's title, a glossary term's English name).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from importlib.resources import files

import pytest

from dominokit.rulebook import OPENING_PAGE, TRACE_INDEX_PAGE, Book, variant_page
from dominokit.rulebook.captions import FIELD, PHRASES, count, phase_words, say
from dominokit.rulebook.coverage import perft_page, trace_page
from dominokit.rulebook.i18n import EN, LANGS, PL
from dominokit.rulebook.rules import RULING_WORDS
from dominokit.rulebook.viewer import trace_pages

LEAKED_BEFORE = ("After move", "The final chain", "Decision.", "Alternative reading.",
                 "For engine authors", "Why it is allowed",
                 "Read left to right", "round 1", "tiebreak", "player 0", "player 1",
                 "Tested by", "Golden traces", "What happens", "Perft positions")
"""Phrases readers found in English on Polish pages; each is also in one of the tables."""
SAME_IN_BOTH = {"phase.set", "end_letter.L"}
"""Phrases that are the same words in both languages (``set 2`` is Polish too)."""


def _fragments(template: str) -> Iterable[str]:
    """The fixed words of an English template: the text between its fields and its Markdown,
    in pieces of two words or more (single words such as "catch" are too common to scan)."""
    for piece in re.split(r"{\w+}|[|*`()\[\]:;,.!?]|\s-\s|<[^>]+>", template):
        words = piece.strip()
        if len(re.findall(r"[A-Za-z]+", words)) >= 2 and not re.search(r"[/<>_]", words):
            yield words


def english_phrases() -> set[str]:
    """Every fixed English phrase the Polish pages must not show."""
    phrases = set(LEAKED_BEFORE)
    for template in PHRASES[EN.code].values():
        phrases.update(_fragments(template))
    words = RULING_WORDS[EN.code]
    for style_title_meaning in words.kinds.values():
        phrases.update(_fragments(style_title_meaning[2]))
    phrases.update({words.decision, words.alternative, *_fragments(words.selects)})
    return phrases


_SKIPPED = [
    re.compile(r"^ *```.*?^ *```", re.S | re.M),            # code blocks
    re.compile(r"`[^`\n]*`"),                              # code spans
    re.compile(r"<code>.*?</code>", re.S),
    re.compile(r"^ *>.*$", re.M),                          # source quotes
    re.compile(r'<span lang="en">.*?</span>', re.S),      # text from trace and perft files
    re.compile(r'<div class="dk-pl" lang="en" markdown>.*?</div>', re.S),  # published source
    re.compile(r"<svg.*?</svg>", re.S),                    # drawings: scanned by their titles
]
_SVG_TITLE = re.compile(r"<title>(.*?)</title>", re.S)


def readable(markdown: str) -> str:
    """What a reader of a Polish page reads in the book's own words: the page without what is
    English on purpose, the drawings reduced to their titles (their accessible names)."""
    titles = " ".join(_SVG_TITLE.findall(markdown))
    for pattern in _SKIPPED:
        markdown = pattern.sub(" ", markdown)
    return markdown + "\n" + titles


def leaks(text: str, phrases: Iterable[str]) -> list[str]:
    """The phrases found in ``text`` (whole words, any case)."""
    return sorted(p for p in phrases
                  if re.search(rf"(?<![\w-]){re.escape(p)}(?![\w-])", text, re.IGNORECASE))


@pytest.fixture(scope="module")
def book() -> Book:
    return Book.load()


@pytest.fixture(scope="module")
def polish(generated_polish_pages: Mapping[str, str]) -> dict[str, str]:
    return {path: text for path, text in generated_polish_pages.items()
            if path.endswith(PL.suffix)}


def test_every_phrase_exists_in_every_language_with_the_same_fields() -> None:
    keys = set(PHRASES[EN.code])
    for lang in LANGS:
        assert set(PHRASES[lang.code]) == keys, lang.code
        for key in keys:
            english, other = PHRASES[EN.code][key], PHRASES[lang.code][key]
            assert sorted(FIELD.findall(other)) == sorted(FIELD.findall(english)), key
            assert other.strip(), f"{lang.code}: {key} is empty"
            if lang != EN and key not in SAME_IN_BOTH:
                assert other != english, f"{lang.code}: {key} is not translated"


def test_every_ruling_word_exists_in_every_language() -> None:
    english = RULING_WORDS[EN.code]
    for lang in LANGS:
        words = RULING_WORDS[lang.code]
        assert set(words.kinds) == set(english.kinds), lang.code
        assert FIELD.findall(words.selects) == FIELD.findall(english.selects)


def test_a_missing_phrase_is_an_error_naming_it() -> None:
    with pytest.raises(KeyError, match="no pl phrase 'nonesuch'; add it to PHRASES"):
        say(PL, "nonesuch")


@pytest.mark.parametrize(("n", "words"), [(1, "1 kwadrat"), (3, "3 kwadraty"),
                                          (4, "4 kwadraty"), (5, "5 kwadratów"),
                                          (12, "12 kwadratów")])
def test_polish_counts_take_their_grammatical_number(n: int, words: str) -> None:
    assert count(PL, n, "cell") == words
    assert count(EN, n, "cell") == f"{n} cell" + ("s" if n != 1 else "")


@pytest.mark.parametrize(("phase", "english", "polish"), [
    ("round 1 deal 4", "round 1, deal 4", "runda 1, rozdanie 4"),
    ("tiebreak 2 deal 10", "tiebreak 2, deal 10", "dogrywka 2, rozdanie 10"),
    ("set 2 hand 3", "set 2, hand 3", "set 2, rozdanie 3"),
    ("hand 7", "hand 7", "rozdanie 7"),
    ("over", "over", "koniec meczu"),
    ("quarter 3", "quarter 3", "quarter 3"),  # unknown to the book: shown as written
])
def test_match_phases_and_round_names_in_both_languages(phase: str, english: str,
                                                        polish: str) -> None:
    assert phase_words(phase, EN) == english
    assert phase_words(phase, PL) == polish


def test_the_scan_has_the_generator_templates() -> None:
    phrases = english_phrases()
    for phrase in ("After move", "The final chain", "Read left to right, row by row",
                   "the end now shows", "closes a lake of", "Chain games score only when the "
                   "hand ends", "selects between the decision", "Match after hand"):
        assert any(phrase.lower() in p.lower() or p.lower() in phrase.lower()
                   for p in phrases), phrase


def test_the_scan_finds_a_planted_english_caption(polish: dict[str, str]) -> None:
    page = polish["variants/szczerbak.pl.md"]
    assert not leaks(readable(page), english_phrases())
    planted = page.replace("Po ruchu 1:", "After move 1:", 1)
    assert planted != page
    assert leaks(readable(planted), english_phrases()) == ["After move"]
    # ...but not inside code or text marked as coming from a trace file.
    assert not leaks(readable('`player 0` <span lang="en">After move 1</span>'),
                     english_phrases())


def test_drawn_player_pages_are_polish_and_trace_pages_english_only(
        book: Book, polish: dict[str, str]) -> None:
    """The player pages that draw traces (each game, the opening) have a Polish copy. The
    trace index, trace pages and perft pages tell what each trace or position shows in the
    English of its file, so they have none: they are published in English only, and the
    built site's test (tests/rulebook/test_docs_i18n.py) sees that no English page is put
    under ``pl/``."""
    drawn = [*(variant_page(v.id) for v in book.variants), OPENING_PAGE]
    missing = sorted(path for path in drawn if PL.page(path) not in polish)
    assert not missing, f"drawn pages with no Polish copy: {missing}"
    english_only = [TRACE_INDEX_PAGE, *(trace_page(t.id) for t in book.traces)]
    english_only += [perft_page(v.id) for v in book.variants
                     if (files("dominokit.conformance") / "perft" / f"{v.id}.yaml").is_file()]
    assert not sorted(PL.page(path) for path in english_only if PL.page(path) in polish)


def test_no_english_phrase_of_the_book_is_left_on_a_polish_page(polish: dict[str, str]) -> None:
    phrases = english_phrases()
    found = {path: hits for path, text in sorted(polish.items())
             if (hits := leaks(readable(text), phrases))}
    assert not found, found


def test_polish_pages_show_the_polish_rulings_and_captions(book: Book,
                                                           polish: dict[str, str]) -> None:
    pijanowski = polish["variants/pijanowski.pl.md"]
    lakes = book.rule("R-PIJ-06")
    assert lakes.decision_pl and lakes.alternative_pl
    assert "**Gramy tak:** " + lakes.decision_pl.split(" (")[0] in pijanowski
    assert "**Można też grać tak:**" in pijanowski
    # Options go by their Polish names, the machine name once in code font after it.
    assert "[Które jeziorka się liczą](#option-lake_rule) (`lake_rule`)" in pijanowski
    row = next(line for line in pijanowski.splitlines() if 'id="option-lake_rule"' in line)
    assert "| każde nowe puste miejsce (`new_region`), tylko odcięte od większego " \
           "(`newly_enclosed`) | każde nowe puste miejsce |" in row
    szczerbak = polish["variants/szczerbak.pl.md"]
    assert "Po ruchu 1: gracz" in szczerbak and "Czytaj od lewej do prawej" in szczerbak
    assert "Które kamienie najtrudniej zgrać" in szczerbak
    # The trace page builder still speaks Polish (its pages wait for Polish descriptions in
    # the trace files before they are published under pl/).
    traces = trace_pages(book, PL)
    tiebreak = traces["traces/progressive/match-double-tiebreak.pl.md"]
    assert "dalej: dogrywka 1, rozdanie 1" in tiebreak and "## Rozdanie 1" in tiebreak
    pair = traces["traces/pijanowski/lakes-newly-enclosed.pl.md"]
    assert "## To samo rozdanie przy obu wartościach `lake_rule`" in pair
    assert "zamyka jeziorko (" in pair


def test_polish_opening_explains_every_score_in_polish(polish: dict[str, str]) -> None:
    page = polish["variants/pijanowski-opening.pl.md"]
    # Published turn by turn (seed text): 22, 20, 20, 16, 6, 6, 7, then 6 + 16 = 22.
    rows = re.findall(r"^\| (\d) \| (\d) \| [^|]*(?:\\\|[^|]*)* \| (\d+) \| (\d+) \|$",
                      page, re.M)
    assert [(int(p), int(q)) for _, _, p, q in rows] == [
        (22, 22), (20, 20), (20, 20), (16, 16), (6, 6), (6, 6), (7, 7), (22, 22)]
    assert "| Kolejka | Gracz | Kamienie | Opublikowano | Ta plansza |" in page
    assert page.count("<svg") == 9
    move_nine = next(line for line in page.splitlines()
                     if "(1, 4), (1, 5), (1, 6), (1, 7)" in line)
    assert "zamyka jeziorko: 4 puste kwadraty" in move_nine
    assert "otoczone kamieniami ze wszystkich stron: 4 × 4 = 16" in move_nine
    assert "brzeg" not in move_nine
    assert "obie połówki leżą na jednym polu, ciemnym" in page


def test_a_lakes_fence_is_read_from_the_board_in_polish() -> None:
    from dominokit.rulebook.published import fence_words

    assert fence_words([(1, 4), (1, 5)], 6, 12, PL) == "kamieniami ze wszystkich stron"
    assert fence_words([(0, 4), (0, 5)], 6, 12, PL) == "kamieniami i górnym brzegiem planszy"
    assert fence_words([(0, 9), (0, 10), (0, 11)], 6, 12, PL) == \
        "kamieniami oraz górnym i prawym brzegiem planszy"
