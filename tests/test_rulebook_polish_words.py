"""The Polish player's book says what the source texts say, in words a Polish player would
write: the sentences readers caught contradicting the sources, and the calques and mixed terms
they caught, must never come back.

Each check reads the generated Polish Markdown (``polish_pages``, no site build) without what is
quoted or kept as code on purpose (the source words, code spans, text marked ``lang="en"``), so
a phrase is only forbidden in the book's own words. The built site is scanned for English by
``tests/test_docs_i18n.py`` and in the browser by ``tests/test_docs_players.py``.
"""

from __future__ import annotations

import re

import pytest

from dominokit.rulebook import Book
from dominokit.rulebook.i18n import PL
from dominokit.rulebook.polish import polish_pages
from tests.test_rulebook_polish_pages import readable


@pytest.fixture(scope="module")
def book() -> Book:
    return Book.load()


@pytest.fixture(scope="module")
def polish(book: Book) -> dict[str, str]:
    return {path: text for path, text in polish_pages(book).items()
            if path.endswith(PL.suffix)}


def _words(text: str) -> str:
    """Markdown reduced to its running words: links to their text, escapes and emphasis
    dropped, whitespace made single, so a phrase split by a line break or a link is found."""
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
