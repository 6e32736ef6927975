"""The rule pages: one per variant, the common rules, and the index of every rule id.

These are the pages a player reads, so each is put together here, in reading order, from the
sections the other modules make: a variant page is its summary card, its rules, its options,
its worked examples, its golden traces and a list of the shared rules; the common page holds
the R-ALL rules; the index lists every rule id with the page that anchors it.
"""

from __future__ import annotations

from dominokit.reference import Variant
from dominokit.rulebook.book import (
    COMMON_PAGE,
    OPENING_PAGE,
    OPENING_TRACE,
    READING_PAGE,
    RULE_INDEX_PAGE,
    Book,
    variant_page,
)
from dominokit.rulebook.captions import say
from dominokit.rulebook.card import game_name, summary_card
from dominokit.rulebook.cichecks import ci_table
from dominokit.rulebook.credits import credit_words
from dominokit.rulebook.examples import example_anchor, suite_traces, worked_example
from dominokit.rulebook.i18n import EN, Lang
from dominokit.rulebook.pictures import pictures_block, rule_pictures
from dominokit.rulebook.placement import placement_section
from dominokit.rulebook.playerpages import player_pages_of
from dominokit.rulebook.rules import options_section, rule_section
from dominokit.rulebook.text import md, relative


def _common_list(book: Book, here: str) -> str:
    lines = ["## Rules shared by all games", "",
             f"These apply here too; each is stated in full on "
             f"[the common rules page]({relative(COMMON_PAGE, here)}).", ""]
    for entry in book.common:
        summary = entry.decision or entry.statement
        lines.append(f"- {book.link(entry.id, here)} **{md(entry.title)}.** "
                     f"{book.prose(summary, here)}")
    return "\n".join(lines) + "\n"


def _source_words(source: str | dict[str, str]) -> str:
    """The variant's source: a seed text by file name, or a published text with its link."""
    if isinstance(source, str):
        return md(credit_words(source))
    words = (f"[*{md(source['title'])}*]({source['url']}), published by "
             f"{md(source['publisher'])}")
    return words + (f": \"{md(source['quote'])}\"" if source.get("quote") else "")


def variant_markdown(book: Book, variant: Variant) -> str:
    """The whole page of one variant."""
    here = variant_page(variant.id)
    meta = variant.data["metadata"]
    parts = [f"# {md(variant.name)}", "", book.prose(meta["summary"], here), "",
             summary_card(book, variant, here),
             f"*Source:* {_source_words(meta['source'])}. "
             f"*Origin:* {book.prose(meta['origin'], here)}", ""]
    if meta.get("notes"):
        notes = md(" ".join(meta["notes"].split()))
        parts += ['!!! quote "The author\'s notes"', "", f"    {notes}", ""]
    examples = book.examples_of(variant.id)
    if examples:
        parts.append("Worked examples: " + ", ".join(
            f"[{md(t.description.rstrip('.'))}](#{example_anchor(t)})" for t in examples)
            + ".")
        parts.append("")
    if any(t.id == OPENING_TRACE for t in examples):
        parts += [f"The opening published with the rules is replayed move by move, with the "
                  f"reason for every score, on [its own page]"
                  f"({relative(OPENING_PAGE, here)}).", ""]
    parts += ["## Rules", "",
              "Each rule has a stable id; the source words it rests on stand beside the "
              "English statement. *Rulings* mark where the texts leave a gap and say how this "
              "project closes it.", ""]
    pictures = rule_pictures(book, variant, EN)
    for entry in variant.rules:
        parts.append(rule_section(book, entry, here, options_here=True,
                                  pictures=pictures_block(pictures.get(entry.id, []))))
    parts.append(options_section(book, variant, here))
    if examples:
        parts += ["## Worked examples", ""]
        for trace in examples:
            parts.append(worked_example(book, variant, trace, here))
    parts.append(placement_section(book, variant, here))
    parts.append(suite_traces(book, variant.id, here))
    parts.append(_common_list(book, here))
    return "\n".join(parts)


def common_markdown(book: Book) -> str:
    """The page of the R-ALL rules."""
    here = COMMON_PAGE
    links = ", ".join(f"[{md(v.name)}]({relative(variant_page(v.id), here)})"
                      for v in book.variants)
    parts = ["# Rules for all games", "",
             f"These rules hold in every game ({links}) unless a game's own rule says "
             "otherwise. They fix what the texts take for granted: the tiles, the players, "
             "how chance enters (as data), and when a hand is over.", "",
             "## Rules", ""]
    for entry in book.common:
        parts.append(rule_section(book, entry, here, options_here=False))
    return "\n".join(parts)


def rule_index_markdown(book: Book) -> str:
    """Every rule id with its title, kind and page."""
    here = RULE_INDEX_PAGE
    lines = ["# Rule index", "",
             "Every rule id in `spec/`, in order. The id is also the anchor of the rule on its "
             f"page; see the [rule id policy]({relative('contributing/rule-ids.md', here)}).",
             "", "| Id | Title | Kind | Game |", "|---|---|---|---|"]
    names = {variant_page(v.id): v.name for v in book.variants}
    names[COMMON_PAGE] = "all games"
    entries = [*book.common, *(e for v in book.variants for e in v.rules)]
    for entry in sorted(entries, key=lambda e: e.id):
        page = book.rule_pages[entry.id]
        lines.append(f"| {book.link(entry.id, here)} | {md(entry.title)} | "
                     f"{entry.kind.replace('_', ' ')} | {md(names[page])} |")
    return "\n".join(lines) + "\n"


def _first_sentence(text: str) -> str:
    words = " ".join(text.split())
    end = words.find(". ")
    return words if end < 0 else words[: end + 1]


def games_table(book: Book, here: str) -> str:
    """The home page's table of games: each game's page and the first sentence of its
    summary, from spec/, so a new game is listed without editing the page."""
    lines = ["| Game | In one line |", "|---|---|"]
    for variant in book.variants:
        summary = _first_sentence(variant.data["metadata"]["summary"])
        lines.append(f"| [{md(variant.name)}]({relative(variant_page(variant.id), here)}) | "
                     f"{book.prose(summary, here)} |")
    return "\n".join(lines) + "\n"


def _prefix(rule_id: str) -> str:
    return rule_id.rsplit("-", 1)[0]


def prefix_table(book: Book, here: str) -> str:
    """The rule-id prefixes in use, read from the rule ids in spec/, with their games."""
    lines = ["| Prefix | Rules |", "|---|---|",
             f"| `R-ALL` | [Rules for all games]({relative(COMMON_PAGE, here)}) "
             f"(`spec/common.yaml`) |"]
    for variant in book.variants:
        prefixes = sorted({_prefix(entry.id) for entry in variant.rules})
        link = f"[{md(variant.name)}]({relative(variant_page(variant.id), here)})"
        lines.extend(f"| `{prefix}` | {link} |" for prefix in prefixes)
    return "\n".join(lines) + "\n"


def games_nav(book: Book) -> list[str | dict[str, str]]:
    """The "Games" section of the site's navigation: the common rules, then each game's page
    (and any page of its own, such as the published Pijanowski opening, titled by its
    heading), in the order of spec/variants/."""
    extra = [OPENING_PAGE] if any(t.id == OPENING_TRACE for t in book.traces) else []
    nav: list[str | dict[str, str]] = [{"Rules for all games": COMMON_PAGE},
                                       {say(EN, "pp.reading_nav"): READING_PAGE}]
    for variant in book.variants:
        page = variant_page(variant.id)
        nav.append({variant.name: page})
        nav.extend(p for p in extra if p.startswith(page.removesuffix(".md") + "-"))
        nav.extend({title: path} for title, path in player_pages_of(variant))
    return nav


def nav_titles(book: Book, lang: Lang) -> dict[str, str]:
    """The titles of the generated navigation entries (each game, the games side by side, the
    golden traces, the perft positions) in ``lang``, keyed by their English titles: what
    ``docs/hooks.py`` adds to the i18n plugin's ``nav_translations``, so a game added in
    ``spec/`` is named in every language without editing ``mkdocs.yml``."""
    titles = {v.name: game_name(v, lang) for v in book.variants}
    for variant in book.variants:
        titles.update({english: title for (english, _), (title, _) in zip(
            player_pages_of(variant), player_pages_of(variant, lang), strict=True)})
    for key in ("side_by_side_nav", "index_title", "perft_nav", "pp.reading_nav"):
        titles[say(EN, key)] = say(lang, key)
    return titles


MARKERS = {"<!-- dominokit:games -->": games_table,
           "<!-- dominokit:rule-prefixes -->": prefix_table,
           "<!-- dominokit:ci-checks -->": ci_table}
"""Hand-written pages hold these markers where a list made from spec/ belongs."""


def fill_markers(book: Book, here: str, text: str) -> str:
    """``text`` of the hand-written page ``here`` with every marker replaced by its list."""
    for marker, maker in MARKERS.items():
        if marker in text:
            text = text.replace(marker, maker(book, here).rstrip("\n"))
    return text
