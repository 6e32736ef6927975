"""mkdocs-gen-files script: the play pages, and the play blocks of the book's other pages.

Runs after ``gen_pages.py``: it writes each game's play page in every language
(``dominokit.rulebook.playpages``), and appends to pages that script wrote a trace page's
stepper, a game page's links to its worked examples in the play page, and a perft page's links
to its positions (trace and perft pages are English only).
"""

from __future__ import annotations

import sys
from pathlib import Path

import mkdocs_gen_files

DOCS = Path(__file__).resolve().parent
sys.path.insert(0, str(DOCS.parent))

# After the checkout is on sys.path:
from dominokit.rulebook import Book, variant_page  # noqa: E402
from dominokit.rulebook.coverage import perft_page, trace_page  # noqa: E402
from dominokit.rulebook.i18n import EN, LANGS  # noqa: E402
from dominokit.rulebook.playpages import (  # noqa: E402
    example_links,
    perft_links,
    play_pages,
    stepper_block,
)
from dominokit.spec.yamldoc import load_yaml_data  # noqa: E402

BOOK = Book.load()
PERFT = DOCS.parent / "conformance" / "perft"

for path, text in play_pages(BOOK).items():
    with mkdocs_gen_files.open(path, "w") as page:
        page.write(text)

for lang in LANGS:
    for variant in BOOK.variants:
        with mkdocs_gen_files.open(lang.page(variant_page(variant.id)), "a") as page:
            page.write(example_links(BOOK, variant.id, lang))

# The trace and perft pages are published in English only (docs/i18n_english_only.py): their
# play blocks go to the English pages, and no Polish copy is started here.
for info in BOOK.traces:
    with mkdocs_gen_files.open(EN.page(trace_page(info.id)), "a") as page:
        page.write(stepper_block(info.id, info.variant, EN))
for variant in BOOK.variants:
    perft = PERFT / f"{variant.id}.yaml"
    if perft.is_file():
        positions = load_yaml_data(perft).get("positions", [])
        with mkdocs_gen_files.open(EN.page(perft_page(variant.id)), "a") as page:
            page.write(perft_links(variant.id, positions, EN))
