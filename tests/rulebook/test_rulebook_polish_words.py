"""The Polish player's book says what the source texts say, in words a Polish player would
write: the sentences readers caught contradicting the sources, and the calques and mixed terms
they caught, must never come back.

Each check reads the generated Polish Markdown (``polish_pages``, no site build) without what is
quoted or kept as code on purpose (the source words, code spans, text marked ``lang="en"``), so
a phrase is only forbidden in the book's own words. The built site is scanned for English by
``tests/rulebook/test_docs_i18n.py`` and in the browser by ``tests/rulebook/test_docs_players.py``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

import pytest

from dominokit.rulebook import Book
from dominokit.rulebook.i18n import PL
from tests.rulebook.test_rulebook_polish_pages import readable


@pytest.fixture(scope="module")
def book() -> Book:
    return Book.load()


@pytest.fixture(scope="module")
def polish(generated_polish_pages: Mapping[str, str]) -> dict[str, str]:
    return {path: text for path, text in generated_polish_pages.items()
            if path.endswith(PL.suffix)}


_AUTHORS_NOTES = re.compile(r'^!!! quote .*\n\n(?:    .*\n|\n)+', re.M)
"""The authors' own words, quoted whole (``notes_pl``): the source, never rewritten."""
_ACTION = re.compile(r"\b\d-\d@[\w.+]+")
"""The engines' notation of a move, which a drawing's accessible name may quote."""


def _words(text: str) -> str:
    """Markdown reduced to its running words: links to their text, escapes and emphasis
    dropped, whitespace made single, so a phrase split by a line break or a link is found;
    the authors' quoted notes and the engines' move notation left out."""
    text = _ACTION.sub(" ", _AUTHORS_NOTES.sub(" ", text))
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"\\([\\`*_\[\]{}#|])", r"\1", text)
    text = re.sub(r"<[^>]+>|\*\*?", " ", text)
    return " ".join(text.split())


def _found(polish: dict[str, str], phrase: str) -> list[str]:
    return sorted(path for path, text in polish.items()
                  if re.search(phrase, _words(readable(text)), re.IGNORECASE))


# -- fidelity: the sentences that contradicted the source texts ------------------------------

def test_a_blank_end_takes_any_tile_never_the_other_way_round(polish: dict[str, str]) -> None:
    """R-SZC-04/05 and the source: the touching halves must match
    ("liczba oczek stykających się połówek kamieni musi być identyczna"), so a tile with a
    blank does not fit any end; only a blank *end* takes any tile."""
    assert not _found(polish, r"i odwrotnie|i na odwrót")
    card = _words(polish["variants/szczerbak.pl.md"])
    assert "do końcówki z mydłem pasuje każdy kamień, przyłożony dowolną połówką" in card
    assert "do końcówki z mydłem pasuje każdy kamień, przyłożony dowolną połówką" in \
        _words(polish["variants/comparison.pl.md"])


def test_the_poldomino_bonus_is_for_the_last_tile_not_the_first(polish: dict[str, str]) -> None:
    """The source pays "za wygranie rozdania przez wyłożenie [0|0] jako ostatniego kamienia
    z ręki"; the glossary's "wyjście" is the first tile of a hand."""
    assert not _found(polish, r"wyjście (podwójnym mydłem|dubletem|kamieniem) ?\[")
    assert not _found(polish, r"premi\w* za wyjście")
    home = _words(polish["variants/poldomino.pl.md"])
    assert "Zakończenie rozdania (domino!) kamieniem [0|0] lub [6|6] daje dużą premię" in home


def test_the_pijanowski_board_is_made_by_the_players(polish: dict[str, str]) -> None:
    page = _words(polish["variants/pijanowski.pl.md"])
    assert "Planszę należy wykonać samodzielnie" in page


def test_the_polish_opening_page_tells_how_the_board_was_found(book: Book,
                                                               polish: dict[str, str]) -> None:
    from dominokit.rulebook.opening import search_reports

    page = polish["variants/pijanowski-opening.pl.md"]
    assert "opisuje strona angielska" not in page
    assert "## Jak znaleziono planszę" in page
    main, other = search_reports()
    assert len(main.solutions) > 1 and main.classes > 1
    for report in (main, other):
        row = (f"| `{report.lake_rule}` | {len(report.solutions)} | {report.classes} | "
               f"{'tak' if report.claim_holds else 'nie'} |")
        assert row in page


# -- calques, boilerplate and mixed terms readers caught -------------------------------------

CAUGHT: dict[str, str] = {
    r"Tak projekt czyta tekst": "boilerplate in every ruling box",
    r"Drugie odczytanie": "calque of 'alternative reading'",
    r"Luka, której teksty nie zamykają": "calque in every new ruling's box",
    r"Pierwszy pozbyć się": "a goal with no subject",
    r"wyższy zapis|wyższym zapisem|czyjś zapis": "'zapis' for the running score",
    r"wygrywa wyższa suma rundy": "calque of 'the higher round total wins'",
    r"lżejsza ręka": "calque of 'the lighter hand'",
    r"Wygrywa domino\b": "calque of 'domino wins'",
    r"rogiem[^.]*nie stykają": "squares 'touching only at a corner do not touch'",
    r"nie do zastosowania, nie błędami": "calque of 'not applicable, not failures'",
    r"\blinkuj\w*": "anglicism for 'links to'",
    r"\bzagryw\w*": "the glossary's word is zgrać (zgrywa), or dokładać",
    r"\bna ręku\b": "the book writes 'na ręce'",
    r"\bkolor\w*": "the source's word for a field's colour is 'barwa'",
    r"\brząd\b|\brzędy \d|\brzędów\b|\brzędzie\b": "board rows are 'wiersze' (a chain's two "
                                                   "rows stay 'rzędy', as the source says)",
    r"!=|<=|>=|//|\bmod\b": "programmer notation: write ≠, ≤, ≥ or words",
    r"(?<![\d,])\d+\.\d+(?![\d,])": "a cell written like a decimal (0.2); cells are (0, 2)",
    r"\(\d+,\d+\)": "a cell written without its space; cells are (0, 2)",
    r"\bzapis(?:u|em|ie|y|ów|ami|ach)?\b": "'zapis' meant score, notation and golden trace",
    r"\bpasowani\w*|\bpasuje się\b|\bani pasować\b|\bprzy tym pasować\b|\bObaj pasują\b|"
    r"\bgracz\w* pasuje\b|\bPasować wolno\b|, pasuje[;.]":
        "passing is 'spasować' or 'pas': 'pasować' is what a tile does when it fits",
}
"""Phrase (a regular expression over the running words) -> why it must not come back."""


@pytest.mark.parametrize("phrase", sorted(CAUGHT), ids=lambda p: CAUGHT[p])
def test_a_phrase_readers_caught_never_comes_back(polish: dict[str, str], phrase: str) -> None:
    found = {path: re.findall(rf".{{0,30}}(?:{phrase}).{{0,30}}", _words(readable(text)),
                              re.IGNORECASE)[:3]
             for path, text in polish.items()
             if re.search(phrase, _words(readable(text)), re.IGNORECASE)}
    assert not found, f"{CAUGHT[phrase]}: {found}"


def test_the_scan_catches_a_planted_phrase(polish: dict[str, str]) -> None:
    page = polish["variants/szczerbak.pl.md"]
    planted = page.replace("## Zasady", "## Zasady\n\nGracz zagrywa kamień (0.2) na ręku.", 1)
    for phrase in (r"\bzagryw\w*", r"\bna ręku\b", r"(?<![\d,])\d+\.\d+(?![\d,])"):
        assert not re.search(phrase, _words(readable(page)), re.IGNORECASE)
        assert re.search(phrase, _words(readable(planted)), re.IGNORECASE)
    # ...but never inside code or the source's own words.
    quoted = "> Gracz zagrywa na ręku\n\n`5-6@0.2+0.3`\n"
    assert not re.search(r"\bzagryw\w*|\d+\.\d+", _words(readable(quoted)))


def test_exactly_never_links_to_placing(polish: dict[str, str]) -> None:
    """"Dokładnie" (exactly) is not a form of "dokładać" (to place a tile)."""
    wrong = {path: re.findall(r"\[[Dd]okładn\w*\]\([^)]*\)", text)
             for path, text in polish.items()}
    assert not {path: hits for path, hits in wrong.items() if hits}


def test_fits_never_links_to_passing(polish: dict[str, str]) -> None:
    """"Pasuje" (fits) and "spasować" (to pass) are different words; only the second is the
    glossary's term for a pass."""
    wrong = {path: re.findall(r"\[[Pp]asuj\w*\]\([^)]*#spasowac\)|\[[Pp]asowa\w*\]\([^)]*"
                              r"#spasowac\)", text) for path, text in polish.items()}
    assert not {path: hits for path, hits in wrong.items() if hits}


def test_the_glossary_has_one_term_per_thing() -> None:
    from dominokit.rulebook.glossary import TERMS

    by_word = {term.pl: term for term in TERMS}
    assert "kostka" in by_word["kamień"].pl_meaning
    assert re.search(by_word["kamień"].pl_forms, "kostka kostki kostkę", re.IGNORECASE)
    assert not re.search(rf"^(?:{by_word['spasować'].pl_forms})$", "pasuje", re.IGNORECASE)
    assert re.search(rf"^(?:{by_word['zgrać'].pl_forms})$", "zgrywa")
    assert re.search(rf"^(?:{by_word['zgrać'].pl_forms})$", "dokłada", re.IGNORECASE)
    assert not re.search(rf"^(?:{by_word['zgrać'].pl_forms})$", "dokładnie", re.IGNORECASE)
    for word in ("dublet", "mydło", "jeziorko", "wdowa", "końcówka", "talon"):
        assert word in by_word, word


def test_every_worked_example_a_player_reads_has_a_polish_title(book: Book) -> None:
    """The examples of each game page and the whole hand of each game's own page."""
    from dominokit.rulebook.captions import EXAMPLE_TITLES
    from dominokit.rulebook.playerpages import hand_trace

    shown = [t for v in book.variants for t in book.examples_of(v.id)]
    shown += [t for v in book.variants if (t := hand_trace(book, v)) is not None]
    missing = [t.id for t in shown if t.id not in EXAMPLE_TITLES[PL.code]]
    assert not missing
