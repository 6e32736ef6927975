"""The games side by side: one table whose columns are the games and whose rows are the
summary card's terms (tiles, deal and hand sizes, table, turn with drawing and passing, end,
scoring, match targets).

Readers who know one game learn another fastest by its differences, so the comparison is
made from the same ``spec/`` wording as each game's card (``card.card_rows``), for every
variant file, never written by hand: a new game gets its column by its YAML alone.
"""

from __future__ import annotations

from typing import Final

from dominokit.rulebook.book import Book, variant_page
from dominokit.rulebook.card import card_rows, game_name
from dominokit.rulebook.i18n import EN, Lang
from dominokit.rulebook.text import md, relative

COMPARISON_PAGE: Final = "variants/comparison.md"


def _cell(text: str, page: str) -> str:
    """Card text as one table cell: on one line, with no bare ``|``, its links to anchors of
    the game's own page (its options) pointed at that page."""
    return " ".join(text.split()).replace(" | ", " \\| ").replace("](#", f"]({page}#")


INTRO: Final = {
    "en": ("The games side by side",
           "Every game of the book in one table, made from the same rule files as each "
           "game's summary card; each entry links the rule that states it. The table "
           "scrolls sideways on a narrow screen."),
    "pl": ("Gry obok siebie",
           "Wszystkie gry w jednej tabeli, zrobionej z tych samych plików zasad co karta "
           "każdej gry; przy każdym wpisie jest odnośnik do zasady, która to mówi. Na telefonie "
           "każda gra ma własną kolumnę pod nazwą wiersza."),
}
"""The page's title and first paragraph in each language."""


def comparison_markdown(book: Book, lang: Lang = EN) -> str:
    """The page comparing every game in ``spec/variants/``, in ``lang`` (links are written
    to the English ``.md`` files; the i18n plugin points them at the reader's language)."""
    here = COMPARISON_PAGE
    columns = [(variant, dict(card_rows(book, variant, here, lang)))
               for variant in book.variants]
    terms = ([term for term, _ in card_rows(book, book.variants[0], here, lang)]
             if columns else [])
    head = " | ".join(f"[{md(game_name(v, lang))}]({relative(variant_page(v.id), here)})"
                      for v, _ in columns)
    title, intro = INTRO[lang.code]
    lines = [f"# {title}", "", intro, "",
             '<div class="dk-scroll dk-compare" markdown>', "",
             f"| | {head} |", "|---|" + "---|" * len(columns)]
    for term in terms:
        cells = " | ".join(_cell(rows.get(term, ""), relative(variant_page(v.id), here))
                           for v, rows in columns)
        lines.append(f"| **{md(term)}** | {cells} |")
    lines += ["", "</div>", ""]
    return "\n".join(lines)
