"""mkdocs hook: search finds Polish words typed without Polish letters, in any of their forms.

lunr.js (the search of mkdocs-material) has no Polish: it neither folds diacritics nor knows
that "mydła", "mydłem" and "mydło" are one word, nor that a "kostka" is a "kamień". So once the
site is built (after the i18n plugin has written the one index of both languages) this hook
gives every section of the index a ``forms`` field: the section's words with Polish letters,
written without them (``mydło`` -> ``mydlo``), and, for each glossary term the section uses,
every form and synonym of it the glossary lists (``glossary.Term.search``), with and without
Polish letters. lunr searches every field of the index but mkdocs-material shows only a
section's title and text, so the forms find the section and never show in a result's preview.

Which language's sections a reader is offered is left to ``docs/javascripts/i18n.js``: the
index holds both languages, and a page offers only the sections of its own.
"""

from __future__ import annotations

import html
import json
import re
import sys
from pathlib import Path
from typing import Any

from mkdocs.plugins import event_priority

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

# After the checkout is on sys.path:
from dominokit.rulebook.glossary import TERMS  # noqa: E402
from dominokit.rulebook.i18n import fold  # noqa: E402

FIELD = "forms"
"""The index field that holds the forms of a section's words (searched, never shown)."""
TITLE_FIELD = "titleforms"
"""The field that holds the forms of its title's words: a query for "jeziorek" then finds the
section titled "Jeziorka" as a title match, as a query for "jeziorka" does."""
TITLE_BOOST = 100.0
SECONDARY = ("-card/", "variants/comparison/", "variants/reading/")
"""Pages that repeat what a game page says (its card, the games side by side, the notation
page): found, but ranked after the page that says it first."""
SECONDARY_BOOST = 0.5
_TAG = re.compile(r"<[^>]*>")
_WORD = re.compile(r"\w+")


def search_forms(text: str) -> list[str]:
    """The forms under which the section with ``text`` (its title and text, HTML) is found:
    its folded words, then the forms and synonyms of the glossary terms it uses, each once."""
    plain = html.unescape(_TAG.sub(" ", text))
    words = [word.lower() for word in _WORD.findall(plain)]
    seen: dict[str, None] = {}
    for word in words:
        if fold(word) != word:
            seen.setdefault(fold(word), None)
    present = set(words)
    for term in TERMS:
        family = term.search.split()
        if not family:
            continue
        uses = present.intersection(family) or re.search(
            rf"(?<!\w)(?:{term.pl_forms})(?!\w)", plain, re.IGNORECASE)
        if uses:
            for form in family:
                seen.setdefault(form, None)
                seen.setdefault(fold(form), None)
    return list(seen)


def add_forms(index: dict[str, Any]) -> dict[str, Any]:
    """The search index with the ``forms`` and ``titleforms`` fields on every section (and in
    its field list), and the pages that repeat a game page ranked after it."""
    fields = index["config"].setdefault("fields", {})
    fields[FIELD] = {"boost": 1.0}
    fields[TITLE_FIELD] = {"boost": TITLE_BOOST}
    for doc in index["docs"]:
        doc[FIELD] = " ".join(search_forms(f"{doc.get('title', '')} {doc.get('text', '')}"))
        doc[TITLE_FIELD] = " ".join(search_forms(doc.get("title", "")))
        if any(part in doc["location"] for part in SECONDARY):
            doc["boost"] = SECONDARY_BOOST
    return index


@event_priority(-200)
def on_post_build(config: Any, **kwargs: Any) -> None:
    """Add the forms to the site's search index, after the i18n plugin has merged it (this
    runs after it, and again harmlessly after each language's inner build)."""
    path = Path(config["site_dir"]) / "search" / "search_index.json"
    if not path.is_file():
        return
    index = json.loads(path.read_text(encoding="utf-8"))
    path.write_text(json.dumps(add_forms(index), ensure_ascii=False, separators=(",", ":")),
                    encoding="utf-8")
