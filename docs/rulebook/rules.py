"""Rule sections: each rule under its id as anchor, the Polish words beside the English.

A reader checks a rule against its source, so every rule is shown with the quoted Polish next
to the statement (one layout, also used by the published opening's page), and rulings are
boxed apart from plain rules because they are the project's reading, not the text's. A
ruling's option links to the options table, made here too: an option is nothing but the
alternative reading of a ruling. The variant pages and the common-rules page are made of
these sections.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from dominokit.reference import RuleEntry, Variant
from dominokit.rulebook.book import Book
from dominokit.rulebook.coverage import rule_notes
from dominokit.rulebook.glossary import link_terms
from dominokit.rulebook.i18n import EN, PL, Lang
from dominokit.rulebook.optionnames import option_words, value_words
from dominokit.rulebook.text import code, escape_html, indent, md


def blocks(book: Book, text: str, here: str) -> str:
    """A statement as Markdown paragraphs; lines indented in the YAML stay a text block."""
    out: list[str] = []
    para: list[str] = []
    pre: list[str] = []

    def flush() -> None:
        if para:
            out.append(book.prose(" ".join(para), here))
            para.clear()
        if pre:
            width = min(len(line) - len(line.lstrip()) for line in pre)
            out.append("```text\n" + "\n".join(line[width:] for line in pre) + "\n```")
            pre.clear()

    for line in text.strip("\n").split("\n"):
        if line.startswith("  ") and line.strip():
            if para:
                flush()
            pre.append(line.rstrip())
        elif not line.strip():
            flush()
        else:
            if pre:
                flush()
            para.append(line.strip())
    flush()
    return "\n\n".join(out)


_KIND_TITLES: Final = {
    "ruling": ("note", "Ruling", "How this project reads the text here."),
    "new_ruling": ("warning", "New ruling",
                   "A gap the texts leave open that the other rulings do not close either; "
                   "this is how the project closes it."),
}
_KIND_TITLES_PL: Final = {
    "ruling": ("note", "Jak to rozumiemy", ""),
    "new_ruling": ("warning", "Tekst o tym milczy", ""),
}
"""The Polish boxes say what they are in their titles; what a ruling is, is said once, in the
page's introduction, not in every box."""


@dataclass(frozen=True)
class RulingWords:
    """The words of a ruling's box in one language (its text comes from ``spec/``): per
    kind the admonition style, title and meaning, then the labels of its paragraphs."""

    kinds: Mapping[str, tuple[str, str, str]]
    decision: str
    alternative: str
    option: str
    selects: str


RULING_WORDS: Final = {
    EN.code: RulingWords(_KIND_TITLES, "Decision.", "Alternative reading.", "Option.",
                         "{name} selects between the decision (its default) and the "
                         "alternative."),
    PL.code: RulingWords(_KIND_TITLES_PL, "Gramy tak:", "Można też grać tak:", "Opcja:",
                         "{name} przełącza między tymi dwoma sposobami; bez niej gramy "
                         "pierwszym."),
}


def source_beside(entry: RuleEntry, english: str) -> list[str]:
    """The Polish words ``entry`` rests on beside ``english`` (Markdown), as page lines.

    The stylesheet lays the two out as columns; every page that quotes a rule uses this one
    layout, so a reader always finds the Polish on the left.
    """
    polish = "*No source words: the texts are silent here.*"
    if entry.quote:
        polish = "\n".join(f"> {md(line)}" for line in entry.quote.strip().split("\n"))
    source = f" · <code>{escape_html(entry.source_file)}</code>" if entry.source_file else ""
    label, lang = "Polish source", "pl"
    if entry.source_url:
        # A published rule text in English (a game that has no Polish seed text).
        url = escape_html(entry.source_url)
        label, lang, source = "Published source", "en", f' · <a href="{url}">{url}</a>'
    return [
        '<div class="dk-rule" markdown>',
        f'<div class="dk-pl" lang="{lang}" markdown>',
        f'<p class="dk-label">{label}{source}</p>',
        "",
        polish,
        "",
        "</div>",
        '<div class="dk-en" lang="en" markdown>',
        '<p class="dk-label">English</p>',
        "",
        english,
        "",
        "</div>",
        "</div>",
        "",
    ]


def rule_section(book: Book, entry: RuleEntry, here: str, options_here: bool,
                 pictures: str = "") -> str:
    """One rule: heading with its id as anchor, Polish and English side by side, its
    pictures (``pictures.rule_pictures``), the ruling, and the engine authors' notes."""
    parts = [f"### {entry.id} · {md(entry.title)} {{ #{entry.id} .dk-rule-title }}", ""]
    parts += source_beside(entry, link_terms(blocks(book, entry.statement, here), here, EN))
    if pictures:
        parts += [pictures, ""]
    box = ruling_box(book, entry, here, options_here)
    parts += [box] if box else ['<p class="dk-kind">Rule: stated by the text, no ruling '
                                'needed.</p>', ""]
    parts += [rule_notes(book, entry.id, here), ""]
    return "\n".join(parts)


def ruling_box(book: Book, entry: RuleEntry, here: str, options_here: bool,
               lang: Lang = EN) -> str:
    """A ruling's box in ``lang``: what a ruling is, its decision, its alternative reading
    and the option that selects it (empty for a plain rule). The Polish box shows
    ``decision_pl`` and ``alternative_pl``."""
    words = RULING_WORDS[lang.code]
    kind = words.kinds.get(entry.kind)
    if kind is None:
        return ""
    style, title, meaning = kind
    decision, alternative = entry.decision, entry.alternative
    if lang.code != EN.code:
        decision = getattr(entry, f"decision_{lang.code}") or decision
        alternative = getattr(entry, f"alternative_{lang.code}") or alternative
    body = [f"*{meaning}*", ""] if meaning else []
    if decision:
        body += [f"**{words.decision}** {book.prose(decision, here)}", ""]
    if alternative:
        body += [f"**{words.alternative}** {book.prose(alternative, here)}", ""]
    if entry.option:
        target = f"#option-{entry.option}" if options_here else ""
        option = next((v.options[entry.option] for v in book.variants
                       if entry.option in v.options), None)
        if option is not None:
            name = option_words(option, lang, target)
        else:
            name = f"[{code(entry.option)}]({target})" if target else code(entry.option)
        body += [f"**{words.option}** {words.selects.format(name=name)}", ""]
    return "\n".join([f'!!! {style} "{title}"', "", indent("\n".join(body).rstrip()), ""])


def options_section(book: Book, variant: Variant, here: str) -> str:
    """The variant's options: values, default, the rule behind each, what it changes."""
    if not variant.options:
        return ("## Options\n\nThis game has no options: an engine plays it one way only.\n")
    lines = ["## Options", "",
             "Options select the alternative reading of a ruling. An engine lists the options "
             "and values it supports in its `hello`; conformance cases that need others are "
             "*not applicable* to it, not failures.", "",
             "| Option | Values | Default | Rule | What it changes |",
             "|---|---|---|---|---|", *option_rows(book, variant, here)]
    return "\n".join(lines) + "\n"


def option_rows(book: Book, variant: Variant, here: str, lang: Lang = EN) -> list[str]:
    """One table row per option, each under the anchor ``#option-NAME`` that links to options
    point at, in every language of the book; what the option changes in ``lang``."""
    rows = []
    for name, option in variant.options.items():
        said = getattr(option, f"description_{lang.code}", None) or option.description
        values = ", ".join(value_words(option, v, lang) for v in option.values)
        rows.append(f'| <a id="option-{name}"></a>{option_words(option, lang)} | {values} | '
                    f"{value_words(option, option.default, lang, machine=False)} | "
                    f"{book.link(option.rule, here)} | {book.prose(said, here)} |")
    return rows
