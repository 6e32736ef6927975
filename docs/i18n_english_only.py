"""mkdocs hook: a page with no Polish copy is published in English only, at its English address.

mkdocs-static-i18n builds each language on its own and, with ``fallback_to_default``, gives the
Polish build every page that has no ``.pl.md`` copy (the engine authors', contributors', golden
trace and perft pages) as its English text under ``/pl/``, inside a page that says
``lang="pl"``: a Polish reader would be handed English as Polish. The fallback itself is kept,
because it is what lets a Polish page's link to such a page resolve; this hook runs after the
plugin has sorted the files (its ``on_files`` has priority -100) and, in every build but the
default language's:

- leaves each fallback page out of the build (``EXCLUDED``) with the URL of its English page,
  so a link to it from a Polish page goes to the English page (mkdocs only notes, at INFO
  level, that the target is excluded from this language's build);
- marks each such link ``hreflang="en"``, which ``stylesheets/rulebook.css`` shows as "ang."
  after the link, as Polish Wikipedia marks its links to English pages.

In the default language's build it drops each page's "Polish copy" that is only the fallback,
so the language switch of an English-only page offers the Polish home page instead of an
address that is never built.
"""

from __future__ import annotations

import posixpath
import re
from typing import Any

from mkdocs.plugins import event_priority
from mkdocs.structure.files import Files, InclusionLevel

_ENGLISH_ONLY: dict[str, set[str]] = {}
"""Per language being built: the site URLs of the pages published in English only."""
_LINK = re.compile(r'<a href="(?P<href>[^"#?]*)(?P<rest>[^"]*)"')


def _languages(config: Any) -> tuple[str, str] | None:
    """(language being built, default language), or None without the i18n plugin."""
    i18n = config["plugins"].get("i18n")
    if i18n is None:
        return None
    return str(i18n.current_language), str(i18n.default_language)


@event_priority(-110)
def on_files(files: Files, config: Any) -> Files:
    """Fallback pages out of a translated build; fallback alternates out of the default one."""
    languages = _languages(config)
    if languages is None:
        return files
    current, default = languages
    english_only: set[str] = set()
    for file in files.documentation_pages():
        if current == default:
            alternates = getattr(file, "alternates", {})
            for lang in [lang for lang, alt in alternates.items()
                         if lang != default and getattr(alt, "locale", lang) != lang]:
                del alternates[lang]
        elif getattr(file, "locale", current) != current:
            file.url = file.url.removeprefix(f"{current}/")
            file.inclusion = InclusionLevel.EXCLUDED
            english_only.add(file.url)
    _ENGLISH_ONLY[current] = english_only
    return files


def on_page_content(html: str, page: Any, config: Any, **kwargs: Any) -> str:
    """Each link of a translated page to a page published in English only, marked as English."""
    languages = _languages(config)
    english_only = _ENGLISH_ONLY.get(languages[0]) if languages else None
    if not english_only:
        return html
    here = posixpath.dirname(page.url.rstrip("/") + "/x")

    def mark(match: re.Match[str]) -> str:
        href = match["href"]
        if not href or re.match(r"^[a-z]+:|^/", href):
            return match[0]
        target = posixpath.normpath(posixpath.join(here, href))
        target = "" if target == "." else target + ("/" if href.endswith("/") else "")
        if target not in english_only:
            return match[0]
        return f'{match[0]} hreflang="en"'

    return _LINK.sub(mark, html)
