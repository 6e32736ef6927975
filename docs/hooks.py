"""mkdocs hook: the "Games" section of the navigation, made from spec/ at every build.

``mkdocs.yml`` names the section with its first entry (the common rules); this hook replaces
the section's entries with one page per game in ``spec/variants/``, so adding a game's YAML
file adds it to the navigation without editing ``mkdocs.yml``. Like ``gen_pages.py`` it puts the
repository root first on ``sys.path``: the book is built from its own checkout.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

# After the checkout is on sys.path:
from dominokit.rulebook import COMPARISON_PAGE, Book, games_nav, traces_nav  # noqa: E402
from dominokit.rulebook.captions import say  # noqa: E402
from dominokit.rulebook.i18n import EN, LANGS  # noqa: E402
from dominokit.rulebook.pages import nav_titles  # noqa: E402

SECTION = "Games"
TRACES = "Golden traces"
ENGINE_SECTIONS = ("Golden traces", "Engine authors", "Contributors", "Performance")
"""The engine authors' and contributors' part of ``nav`` (titles as ``mkdocs.yml`` gives
them): written in English only, so the other languages' menus leave it out and their home
pages link to it in English instead."""
PERMALINK = {"pl": "Stały odnośnik do tego miejsca"}
"""The title of the heading anchors (the toc extension's ``permalink_title``, one for the
whole site) on the pages of each other language."""


def on_config(config: Any) -> Any:
    """Fill the Games and Golden traces sections of ``config["nav"]`` from the spec and the
    bundled traces, and give their titles in every other language of the book to the i18n
    plugin (the game names from ``name_pl``, the other titles from ``captions``)."""
    book = Book.load()
    for entry in config["nav"] or []:
        if isinstance(entry, dict) and SECTION in entry:
            entry[SECTION] = games_nav(book)
            entry[SECTION].insert(1, {say(EN, "side_by_side_nav"): COMPARISON_PAGE})
        if isinstance(entry, dict) and TRACES in entry:
            entry[TRACES] = traces_nav(book)
    i18n = config["plugins"].get("i18n")
    for language in i18n.config.languages if i18n is not None else []:
        lang = next((lang for lang in LANGS if lang.code == language.locale), None)
        if lang is not None and lang.code != EN.code:
            language.nav_translations = {**nav_titles(book, lang),
                                         **(language.nav_translations or {})}
            language.nav = [entry for entry in config["nav"]
                            if not (isinstance(entry, dict) and set(entry) & set(ENGINE_SECTIONS))]
    return config


def on_page_content(html: str, page: Any, **kwargs: Any) -> str:
    """The heading anchors' title in the page's own language."""
    code = page.file.src_uri.rsplit(".", 2)[-2] if page.file.src_uri.count(".") > 1 else ""
    if code in PERMALINK:
        html = html.replace('title="Permanent link"', f'title="{PERMALINK[code]}"')
    return html
