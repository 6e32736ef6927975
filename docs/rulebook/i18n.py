"""The book's two languages: where each language's copy of a page lives, the few words the
page makers need in each, and the folding of Polish letters that lets search find ``mydlo``.

The site is built by mkdocs-static-i18n with its ``suffix`` layout: ``page.md`` is English
(the default language) and ``page.pl.md`` is Polish, and the plugin publishes the Polish copy
under ``/pl/`` at the same path. Rule ids, anchors and file names are the same in both
languages, so a reader switching language stays on the same page and the same rule.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from typing import Final

_EXTRA_FOLDS: Final = str.maketrans({"ł": "l", "Ł": "L"})
"""Letters that Unicode does not decompose into a base letter and a mark."""


def fold(text: str) -> str:
    """``text`` without diacritics (``mydło`` -> ``mydlo``, ``kamień`` -> ``kamien``): the
    spelling of a reader whose keyboard has no Polish letters."""
    decomposed = unicodedata.normalize("NFKD", text.translate(_EXTRA_FOLDS))
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def polish_count(n: int, one: str, few: str, many: str) -> str:
    """``n`` with a Polish noun in its grammatical number (1 kamień, 2 kamienie, 5 kamieni,
    22 kamienie)."""
    if n == 1:
        return f"1 {one}"
    if n % 10 in (2, 3, 4) and n % 100 not in (12, 13, 14):
        return f"{n} {few}"
    return f"{n} {many}"


@dataclass(frozen=True)
class Lang:
    """One language of the book: its code, the suffix of its pages and its words."""

    code: str
    suffix: str
    words: dict[str, str] = field(default_factory=dict)

    def page(self, path: str) -> str:
        """The file of page ``path`` (written as its English ``.md`` file) in this language."""
        return path.removesuffix(".md") + self.suffix

    def word(self, key: str) -> str:
        """The page makers' word ``key`` in this language."""
        return self.words[key]


EN: Final = Lang("en", ".md", {
    "english_term": "In the spec",
})
PL: Final = Lang("pl", ".pl.md", {
    "english_term": "W specyfikacji",
    "rules": "Zasady",
    "rule": "Tak mówi sam tekst; nie ma tu czego rozstrzygać.",
    "ruling": "Jak to rozumiemy: tekst zostawia tu lukę, a my gramy tak.",
    "new_ruling": "Tekst o tym milczy, więc ustaliliśmy, jak grać.",
    "source_pl": "Źródło",
    "statement": "Zasada",
    "no_source": "*Bez słów źródła: teksty milczą w tej sprawie.*",
    "published_source": "Tekst źródłowy (opublikowany po angielsku)",
    "published_link": "źródło",
    "source": "Źródło",
    "source_words": "Słowa źródła",
    "origin": "Pochodzenie",
    "notes": "Uwagi autora",
    "option": "Opcja",
    "shared": "Zasady wspólne dla wszystkich gier",
    "shared_intro": "Obowiązują także tutaj; każda jest opisana w całości na stronie",
    "common_page": "zasad wspólnych",
})
LANGS: Final = (EN, PL)
"""Every language of the book, the default (English) first."""
