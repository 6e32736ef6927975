"""The player pages in Polish: home's list of games, each game, the common rules, the
published Pijanowski opening and the glossary, as ``*.pl.md`` beside the English pages.

Every rule is shown under the same anchor as on the English page (its id) with its Polish
title, the source words and the Polish statement from ``spec/`` (``title_pl``,
``statement_pl``); the games' own words link to the glossary; a ruling's box holds its
``decision_pl`` and ``alternative_pl``. The drawn worked examples are made by the same
builders as the English ones from the same traces, with ``lang=PL``: their captions, tables
and event descriptions come from the Polish half of ``captions.PHRASES``, so each example in
the book is still checked by the suite.

The golden trace and perft pages have no Polish copy: each tells what its trace or positions
show in the English of its file, so they are published in English only, like the engine
authors' pages, and a Polish page's link to one is marked as English
(``docs/i18n_english_only.py``).
"""

from __future__ import annotations

from dominokit.reference import RuleEntry, Variant
from dominokit.rulebook.book import (
    COMMON_PAGE,
    OPENING_PAGE,
    OPENING_TRACE,
    Book,
    variant_page,
)
from dominokit.rulebook.card import game_name, summary_card
from dominokit.rulebook.comparison import COMPARISON_PAGE, comparison_markdown
from dominokit.rulebook.coverage import engine_notes, rule_notes, trace_page
from dominokit.rulebook.credits import credit_words
from dominokit.rulebook.examples import (
    example_anchor,
    example_title,
    frames,
    suite_traces,
    worked_example,
)
from dominokit.rulebook.glossary import GLOSSARY_PAGE, glossary_markdown, link_terms
from dominokit.rulebook.i18n import EN, PL
from dominokit.rulebook.opening import move_by_move, turns_table
from dominokit.rulebook.pictures import pictures_block, rule_pictures
from dominokit.rulebook.placement import placement_section
from dominokit.rulebook.playerpages import player_pages
from dominokit.rulebook.rules import blocks, option_rows, ruling_box
from dominokit.rulebook.text import code, escape_html, md, relative

GAMES_MARKER = "<!-- dominokit:games-pl -->"
"""Where the Polish home page (docs/index.pl.md) lists the games."""


def polish_name(variant: Variant) -> str:
    """The game's name for Polish readers: ``name_pl`` where the spec gives one."""
    return game_name(variant, PL)


def _statement(book: Book, entry: RuleEntry, here: str) -> str:
    text = entry.statement_pl or entry.statement
    return link_terms(blocks(book, text, here), here, PL)


def polish_rule_section(book: Book, entry: RuleEntry, here: str, options_here: bool = False,
                        pictures: str = "") -> str:
    """One rule in Polish: the same heading anchor as in English, source words beside the
    Polish statement, the ruling's box (decision, alternative reading, option) or the mark of
    a plain rule, and the tests that hold it down."""
    title = entry.title_pl or entry.title
    parts = [f"### {entry.id} · {md(title)} {{ #{entry.id} .dk-rule-title }}", ""]
    quote = PL.word("no_source")
    if entry.quote:
        quote = "\n".join(f"> {md(line)}" for line in entry.quote.strip().split("\n"))
    label, lang, source = PL.word("source_words"), "pl", ""
    if entry.source_url:
        # A published rule text in English (a game with no Polish seed text): the original
        # words are kept, marked as English, for a reader who wants to check the translation.
        url = escape_html(entry.source_url)
        label, lang = PL.word("published_source"), "en"
        source = f' · <a href="{url}">{PL.word("published_link")}</a>'
    parts += ['<div class="dk-rule" markdown>',
              f'<div class="dk-pl dk-source" lang="{lang}" markdown>',
              f'<p class="dk-label" lang="pl">{label}{source}</p>', "", quote, "", "</div>",
              '<div class="dk-en" lang="pl" markdown>',
              f'<p class="dk-label">{PL.word("statement")}</p>', "",
              _statement(book, entry, here), "", "</div>", "</div>", ""]
    if pictures:
        parts += [pictures, ""]
    box = ruling_box(book, entry, here, options_here, PL)
    parts += [box] if box else [f'<p class="dk-kind">{PL.word(entry.kind)}</p>', ""]
    parts += [rule_notes(book, entry.id, here, PL), ""]
    return "\n".join(parts)


def polish_variant_markdown(book: Book, variant: Variant) -> str:
    """The Polish page of one game."""
    english = variant_page(variant.id)
    here = PL.page(english)
    meta = variant.data["metadata"]
    source = meta["source"]
    source_words = (md(credit_words(source, PL)) if isinstance(source, str)
                    else f'[<cite lang="en">{escape_html(source["title"])}</cite>]'
                         f"({source['url']}) ({md(source['publisher'])}, po angielsku)")
    parts = [f"# {md(polish_name(variant))}", "",
             link_terms(book.prose(meta.get("summary_pl", meta["summary"]), here), here, PL), "",
             summary_card(book, variant, english, PL),
             f"*{PL.word('source')}:* {source_words}. *{PL.word('origin')}:* "
             f"{book.prose(meta.get('origin_pl', meta['origin']), here)}", ""]
    if meta.get("notes_pl"):
        parts += [f'!!! quote "{PL.word("notes")}"', "",
                  "    " + md(" ".join(meta["notes_pl"].split())), ""]
    if any(t.id == OPENING_TRACE for t in book.examples_of(variant.id)):
        parts += [f"Otwarcie opublikowane razem z zasadami jest rozegrane ruch po ruchu na "
                  f"[osobnej stronie]({relative(OPENING_PAGE, english)}).", ""]
    parts += [f"## {PL.word('rules')}", "",
              "Każda zasada ma swój numer (na przykład R-SZC-04), ten sam na stronie "
              "angielskiej. Obok zasady stoją słowa tekstu źródłowego, na których się opiera. "
              "Tam, gdzie tekst czegoś nie dopowiada, ramka *Jak to rozumiemy* mówi, jak "
              "gramy, a często także, jak można grać inaczej.", ""]
    pictures = rule_pictures(book, variant, PL)
    parts += [polish_rule_section(book, entry, english, options_here=True,
                                  pictures=pictures_block(pictures.get(entry.id, [])))
              for entry in variant.rules]
    parts.append(_polish_options(book, variant, english))
    parts += [f"## {PL.word('shared')}", "",
              f"{PL.word('shared_intro')} [{PL.word('common_page')}]"
              f"({relative(COMMON_PAGE, english)}).", ""]
    for entry in book.common:
        summary = entry.decision_pl or entry.statement_pl or ""
        parts.append(f"- {book.link(entry.id, english)} **{md(entry.title_pl or entry.title)}.** "
                     f"{book.prose(summary, english)}".rstrip())
    parts.append("")
    examples = book.examples_of(variant.id)
    if examples:
        parts += ["## Przykłady", "",
                  "Rozdania rozegrane ruch po ruchu, z rysunkiem stołu i z tym, dlaczego każdy "
                  "ruch jest dozwolony. Każdy przykład to partia wzorcowa, którą sprawdzają "
                  "testy, więc rysunki nie mogą rozminąć się z zasadami.", ""]
        parts += [f"- [{example_title(t, PL)}](#{example_anchor(t)})" for t in examples]
        parts.append("")
        parts += [worked_example(book, variant, t, english, PL) for t in examples]
    parts.append(placement_section(book, variant, english, lang=PL))
    parts.append(suite_traces(book, variant.id, english, PL))
    return "\n".join(parts)


def _polish_options(book: Book, variant: Variant, here: str) -> str:
    """The game's options, under the same anchors as on the English page (``#option-NAME``),
    so a link to an option lands in either language; what each changes from
    ``description_pl``."""
    if not variant.options:
        return "## Opcje\n\nTa gra nie ma opcji: gra się w nią zawsze tak samo.\n"
    lines = ["## Opcje", "",
             "Opcja pozwala zagrać tak, jak podpowiada druga możliwość z ramki *Jak to "
             "rozumiemy*; bez niej gra się pierwszym sposobem (wartość domyślna).", "",
             "| Opcja | Wartości | Domyślna | Zasada | Co zmienia |",
             "|---|---|---|---|---|", *option_rows(book, variant, here, PL), "",
             engine_notes(["Silnik podaje w `hello`, które opcje i wartości obsługuje. "
                           "Przypadki testowe, które wymagają innych, po prostu go nie "
                           "dotyczą i nie liczą się jako błąd."], PL)]
    return "\n".join(lines) + "\n"


def polish_common_markdown(book: Book) -> str:
    """The Polish page of the rules shared by every game."""
    here = COMMON_PAGE
    links = ", ".join(f"[{md(polish_name(v))}]({relative(variant_page(v.id), here)})"
                      for v in book.variants)
    parts = ["# Zasady wspólne dla wszystkich gier", "",
             f"Te zasady obowiązują w każdej grze ({links}), chyba że zasada danej gry mówi "
             "inaczej. Ustalają to, co teksty biorą za oczywiste: kamienie, graczy, to, jak "
             "wchodzi losowość (jako dane), i kiedy rozdanie się kończy.", "",
             f"## {PL.word('rules')}", ""]
    parts += [polish_rule_section(book, entry, here) for entry in book.common]
    return "\n".join(parts)


def polish_opening_markdown(book: Book) -> str:
    """The Polish page of the published Pijanowski opening: the rule that reconstructs it,
    in Polish, then every move drawn with the reason for each point it scored and the turns
    beside the published figures, made by the English page's builders with ``lang=PL``; how
    the search tool found the board is told on the English page."""
    here = OPENING_PAGE
    info = next(t for t in book.traces if t.id == OPENING_TRACE)
    variant = next(v for v in book.variants if v.id == info.variant)
    entry = book.rule(info.rules[0])
    steps = frames(info.load())
    parts = ["# Opublikowane otwarcie Pijanowskiego", "",
             "Tekst gry Pijanowskiego kończy się kilkoma pierwszymi ruchami partii, "
             "z punktami za każdy ruch; rysunek planszy zaginął. Ta strona pokazuje planszę, "
             "która daje dokładnie te punkty, i wyjaśnia każdy z nich. Ruchy to partia wzorcowa "
             f"[{info.id}]({relative(trace_page(info.id), here)}), który zestaw testów "
             "odtwarza na każdym silniku. Na końcu strony jest opisane, jak tę planszę "
             "znaleziono i ile jest innych, które pasują.", "",
             f"## {PL.word('rules')}", "",
             polish_rule_section(book, entry, here)]
    moves, turn_totals = move_by_move(book, variant, steps, here, PL)
    parts += [*moves, *turns_table(steps, turn_totals, PL), "", polish_search_section(book)]
    return "\n".join(parts)


def polish_search_section(book: Book) -> str:
    """How the board was found, in Polish: what the search tool does and how many boards it
    finds under each reading of the lake rule, counted at this build (never written down)."""
    from dominokit.rulebook.opening import search_reports

    here = OPENING_PAGE
    main, other = search_reports()
    chain = md("[5|5][5|6][6|4][4|4]")
    lines = ["## Jak znaleziono planszę", "",
             "Planszę znalazł osobny program, napisany niezależnie od silnika wzorcowego (ma "
             "własną, małą planszę, więc oba rachunki sprawdzają się nawzajem). Kładzie "
             "opublikowane kamienie po kolei na wszystkie dozwolone sposoby i zostawia tylko "
             "te plansze, na których każda kolejka daje dokładnie opublikowane punkty. Same "
             "punkty wiele przesądzają: 22, 20 i 20 to podwójne oczka kamienia, więc te kamienie "
             "leżą na jednym polu; 6, 6 i 7 to pojedyncze oczka, więc te leżą na dwóch polach; "
             "w ostatniej kolejce [0|3] musi leżeć na jednym polu (6), a reszta, 16, to cztery "
             "kwadraty jeziorka.".replace("[0|3]", md("[0|3]")), "",
             "Plansze, które program znajduje przy tym wydaniu zasad:", "",
             f"| Reguła jeziorek | Pasujących plansz | Różnych z dokładnością do symetrii | "
             f"{chain} w jednym wierszu we wszystkich |", "|---|---|---|---|"]
    for report in (main, other):
        lines.append(f"| {code(report.lake_rule)} | {len(report.solutions)} | "
                     f"{report.classes} | {'tak' if report.claim_holds else 'nie'} |")
    lines += ["",
              f"Symetrie to odbicie w lewo-prawo, odbicie góra-dół i obrót o pół obrotu: "
              f"każda z nich zamienia pasującą planszę w inną pasującą. Spośród wszystkich "
              f"pokazujemy najbardziej zwartą, położoną najbliżej lewego górnego rogu, tak "
              f"jak wyglądałby rysunek w gazecie. Rachunek można powtórzyć poleceniem "
              f"`python -m dominokit.rulebook.pijanowski_opening` "
              f"(z `--lake-rule newly_enclosed` dla drugiego sposobu liczenia jeziorek z "
              f"{book.link('R-PIJ-06', here)}).", ""]
    return "\n".join(lines)


def games_list(book: Book, here: str) -> str:
    """The Polish home page's table of games, from each game's ``summary_pl``."""
    lines = ["| Gra | W jednym zdaniu |", "|---|---|"]
    for variant in book.variants:
        summary = " ".join(variant.data["metadata"].get("summary_pl", "").split())
        first = summary[: summary.find(". ") + 1] if ". " in summary else summary
        lines.append(f"| [{md(polish_name(variant))}]"
                     f"({relative(variant_page(variant.id), here)}) | {book.prose(first, here)} |")
    return "\n".join(lines) + "\n"


def polish_pages(book: Book) -> dict[str, str]:
    """Every generated page of the language side: path under ``docs/`` -> Markdown."""
    pages = {PL.page(COMMON_PAGE): polish_common_markdown(book)}
    for variant in book.variants:
        pages[PL.page(variant_page(variant.id))] = polish_variant_markdown(book, variant)
    if any(t.id == OPENING_TRACE for t in book.traces):
        pages[PL.page(OPENING_PAGE)] = polish_opening_markdown(book)
    pages[PL.page(COMPARISON_PAGE)] = comparison_markdown(book, PL)
    pages[EN.page(GLOSSARY_PAGE)] = glossary_markdown(EN)
    pages[PL.page(GLOSSARY_PAGE)] = glossary_markdown(PL)
    pages.update(player_pages(book, PL))
    return pages
