"""Who wrote each source text, who sent it in, and where it was published, as the texts say.

The four Polish texts were published together on the dominogranie site (each ends with its
name) and each says who devised the game and, for Poldomino, who sent it in; a page that names
a source only by its file name (``szczerbak.pl.txt``) credits nobody. These lines are
bibliography, keyed by the source file a game's ``metadata.source`` names, never by game:
a new game with a new text needs one entry here (the build stops without it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from dominokit.rulebook.i18n import EN, Lang

SITE: Final = "dominogranie"
"""The site that published the texts, as each text names it in its last line."""


@dataclass(frozen=True)
class Credit:
    """A text's people, in the words the text itself uses, in each language."""

    en: str
    pl: str


CREDITS: Final = {
    "pijanowski.pl.txt": Credit(
        "the game was devised by Lech Pijanowski (\"Gra pomysłu Lecha Pijanowskiego\")",
        "„Gra pomysłu Lecha Pijanowskiego”, znanego propagatora gier planszowych"),
    "poldomino.pl.txt": Credit(
        "sent in by Andrzej \"Andy\" Lewicki, who learned it from a childhood friend, Poldek "
        "(\"Nadesłał ją [...] Andrzej Lewicki\"); the text does not know who devised it",
        "grę nadesłał Andrzej „Andy” Lewicki, który nauczył się jej od kolegi z dzieciństwa, "
        "Poldka; kto ją wymyślił, tekst nie wie („Nie wiem skąd idea tej gry się wzięła”)"),
    "progressive.pl.txt": Credit(
        "a proposal by Andrzej Lewicki (\"stworzona przez [...] Andrzeja Lewickiego\")",
        "propozycja rozgrywki „stworzona przez […] Andrzeja Lewickiego”"),
    "szczerbak.pl.txt": Credit(
        "a proposal by Andrzej Lewicki (\"Jest to propozycja Andrzeja Lewickiego\")",
        "„propozycja Andrzeja Lewickiego – polskiego informatyka z USA”"),
}


def credit_words(source: str, lang: Lang = EN) -> str:
    """The credit line of a seed text: the site that published it and its people."""
    try:
        credit = CREDITS[source]
    except KeyError:
        raise KeyError(f"no credit for the source text {source!r}; add it to CREDITS in "
                       "docs/rulebook/credits.py") from None
    if lang.code == EN.code:
        return f"the Polish text published on the {SITE} site; {credit.en}"
    return f"opis gry z serwisu {SITE}; {credit.pl}"
