"""Each rule's "Tested by" line links the perft positions that hold it down, and each linked
position is on its game's perft page under that anchor."""

from __future__ import annotations

import re

from dominokit.rulebook import build_pages
from dominokit.rulebook.book import Book, variant_page
from dominokit.rulebook.coverage import perft_page


def test_perft_positions_are_published_and_linked_from_the_rules() -> None:
    book = Book.load()
    pages = build_pages(book)
    linked = 0
    for variant in book.variants:
        text = pages[variant_page(variant.id)]
        for target, anchor in re.findall(r"\]\(((?:\.\./)+perft/[a-z_]+\.md)#([\w-]+)\)", text):
            page = perft_page(target.rsplit("/", 1)[1].removesuffix(".md"))
            assert page in pages, target
            assert f"{{ #{anchor} }}" in pages[page], (page, anchor)
            linked += 1
    assert linked, "no rule links a perft position"
    for variant in book.variants:
        page = pages.get(perft_page(variant.id))
        if page is not None:
            assert "| depth | count |" in page
