"""The rule book: Markdown pages generated from ``spec/`` and the golden traces.

The rule book must never say something the spec does not, so none of its rules are copied by
hand: at every docs build ``docs/gen_pages.py`` calls ``build_pages()`` and writes what it
returns. Each variant page has a summary card (built from the mechanics the YAML names), every
rule under an anchor that is exactly its id, with the Polish source words beside the English
statement and rulings marked as such, the variant's options, and its worked examples drawn
from the bundled traces (``seed-*`` and ``published-*`` traces, or a game's first hand trace
when it has none) with ``diagrams``. The
protocol, notation and trace-format pages are rendered from the JSON Schemas and
``spec/common.yaml``; the page of the published Pijanowski opening replays its trace and
explains every score from the board.

Wording for each mechanic lives in one table keyed by the spec's own vocabulary (policy
names, term names), never by variant id, so a new variant written with existing mechanics
gets its page for free. Text from the spec is escaped for Markdown and rule ids in it become
links, which ``mkdocs build --strict`` then checks.

One module per job: ``book`` (what the pages are made from, where each page and rule anchor
lives), ``text`` (Markdown and HTML snippets), ``card`` (the summary card and its wording),
``rules`` (rule sections and the options table), ``examples`` (worked examples replayed from
traces), ``opening`` (the published Pijanowski opening), ``notation`` and ``schema_pages``
(the engine-facing reference pages), ``coverage`` (the tests behind each rule), ``viewer``
(one page per golden trace), ``comparison`` (the games side by side), ``pages`` (the
variant, common and index pages, and the lists of games that the home page, the rule-id
page and the navigation take from ``spec/``), ``polish`` (the Polish pages, made by the
same builders with ``lang=PL``) and ``captions`` (every fixed phrase of the drawn examples,
trace and perft pages in both languages). This module lists the pages and re-exports the
public names.
"""

from __future__ import annotations

from collections.abc import Callable

from dominokit.rulebook.book import (
    COMMON_PAGE,
    EXAMPLE_PREFIXES,
    NOTATION_PAGE,
    OPENING_PAGE,
    OPENING_TRACE,
    PROTOCOL_PAGE,
    RULE_INDEX_PAGE,
    TRACE_FORMAT_PAGE,
    Book,
    JsonObject,
    TraceInfo,
    variant_page,
)
from dominokit.rulebook.card import CARD_TERMS, WORDING, summary_card
from dominokit.rulebook.comparison import COMPARISON_PAGE, comparison_markdown
from dominokit.rulebook.coverage import perft_pages
from dominokit.rulebook.examples import (
    Frame,
    describe,
    frames,
    result_table,
    result_words,
    suite_traces,
    worked_example,
)
from dominokit.rulebook.i18n import EN
from dominokit.rulebook.notation import notation_markdown
from dominokit.rulebook.opening import (
    COLOUR_NAMES,
    opening_markdown,
    placement_reason,
)
from dominokit.rulebook.pages import (
    MARKERS,
    common_markdown,
    fill_markers,
    games_nav,
    games_table,
    prefix_table,
    rule_index_markdown,
    variant_markdown,
)
from dominokit.rulebook.playerpages import player_pages
from dominokit.rulebook.rules import blocks, options_section, rule_section
from dominokit.rulebook.schema_pages import (
    SchemaDoc,
    protocol_markdown,
    trace_format_markdown,
)
from dominokit.rulebook.text import code, md, tile
from dominokit.rulebook.viewer import TRACE_INDEX_PAGE, trace_pages, traces_nav

__all__ = [
    "CARD_TERMS",
    "COLOUR_NAMES",
    "COMMON_PAGE",
    "COMPARISON_PAGE",
    "EXAMPLE_PREFIXES",
    "MARKERS",
    "NOTATION_PAGE",
    "OPENING_PAGE",
    "OPENING_TRACE",
    "PROTOCOL_PAGE",
    "RULE_INDEX_PAGE",
    "TRACE_FORMAT_PAGE",
    "TRACE_INDEX_PAGE",
    "WORDING",
    "Book",
    "Frame",
    "JsonObject",
    "PageMaker",
    "SchemaDoc",
    "TraceInfo",
    "blocks",
    "build_pages",
    "code",
    "common_markdown",
    "describe",
    "fill_markers",
    "frames",
    "games_nav",
    "games_table",
    "md",
    "notation_markdown",
    "opening_markdown",
    "options_section",
    "placement_reason",
    "prefix_table",
    "protocol_markdown",
    "result_table",
    "result_words",
    "rule_index_markdown",
    "rule_section",
    "suite_traces",
    "summary_card",
    "tile",
    "trace_format_markdown",
    "trace_pages",
    "traces_nav",
    "comparison_markdown",
    "variant_markdown",
    "variant_page",
    "worked_example",
]

PageMaker = Callable[[Book], str]
"""A page made from the whole book alone (the pages that are not one per variant)."""


def build_pages(book: Book | None = None) -> dict[str, str]:
    """Every generated page: path under ``docs/`` -> Markdown text, in a stable order."""
    book = book or Book.load()
    pages: dict[str, str] = {COMMON_PAGE: common_markdown(book)}
    for variant in book.variants:
        pages[variant_page(variant.id)] = variant_markdown(book, variant)
    makers: list[tuple[str, PageMaker]] = [
        (NOTATION_PAGE, notation_markdown),
        (PROTOCOL_PAGE, protocol_markdown),
        (TRACE_FORMAT_PAGE, trace_format_markdown),
        (RULE_INDEX_PAGE, rule_index_markdown),
    ]
    if any(t.id == OPENING_TRACE for t in book.traces):
        makers.insert(0, (OPENING_PAGE, opening_markdown))
    for path, maker in makers:
        pages[path] = maker(book)
    pages[COMPARISON_PAGE] = comparison_markdown(book)
    pages.update(trace_pages(book))
    pages.update(perft_pages(book))
    pages.update(player_pages(book, EN))
    return pages
