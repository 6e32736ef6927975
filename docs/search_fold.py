"""mkdocs hook: search finds Polish words typed without Polish letters.

lunr.js (the search of mkdocs-material) has no Polish and does not fold diacritics, so a
reader typing ``mydlo`` would not find ``mydło``. After each heading's section this hook adds
a hidden line holding the section's words that have Polish letters, written without them
(``mydło`` -> ``mydlo``, ``wdową`` -> ``wdowa``... as ``dominokit.rulebook.i18n.fold`` spells
them). The search indexes the line with its section, so the result is the right rule; readers
never see it (``hidden``, and screen readers skip it).
"""

from __future__ import annotations

import html
import re
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

# After the checkout is on sys.path:
from dominokit.rulebook.i18n import fold  # noqa: E402

_HEADING = re.compile(r"(?=<h[1-6][\s>])")
_TAG = re.compile(r"<[^>]*>")
_WORD = re.compile(r"\w+")


def folded_words(section_html: str) -> list[str]:
    """The words of ``section_html`` that change when folded, folded, each once, in order."""
    text = html.unescape(_TAG.sub(" ", section_html))
    seen: dict[str, None] = {}
    for word in _WORD.findall(text):
        plain = fold(word)
        if plain != word:
            seen.setdefault(plain.lower(), None)
    return list(seen)


def on_page_content(html_text: str, **kwargs: Any) -> str:
    """Each section of the page followed by its folded Polish words, hidden."""
    out: list[str] = []
    for section in _HEADING.split(html_text):
        out.append(section)
        words = folded_words(section)
        if words:
            out.append(f'<p class="dk-fold" hidden aria-hidden="true">{" ".join(words)}</p>')
    return "".join(out)
