"""The rule book in Polish and English: both languages build, every player page and rule
anchor exists in both, the language switch keeps the reader on the same rule, and search
finds the games' Polish words with or without Polish letters.

The site, browser, server and screenshot fixtures are the run's own
(``tests/rulebook/conftest.py``: one build and one browser for every module); without chromium
the browser tests are skipped, except under ``CI=true``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from dominokit.rulebook.glossary import TERMS
from dominokit.rulebook.i18n import PL, fold
from tests.rulebook.test_docs_site import POLL, VARIANT_RULES, _open, _shoot
from tests.rulebook.test_rulebook_polish_pages import english_phrases, leaks

PLAYER_PAGES = ["", "glossary/", "variants/common/", "variants/pijanowski-opening/",
                *(f"variants/{v}/" for v in sorted(VARIANT_RULES))]
"""The pages a player reads; each must exist in English (at the root) and in Polish (pl/)."""
SEARCHED = ("jeziorko", "mydło", "mydlo", "wdowa", "spasować", "spasowac")


def _anchors(page: Path) -> set[str]:
    return set(re.findall(r'\sid="([^"]+)"', page.read_text(encoding="utf-8")))


@pytest.mark.parametrize("page", PLAYER_PAGES)
def test_every_player_page_exists_in_both_languages(site: Path, page: str) -> None:
    english, polish = site / page / "index.html", site / "pl" / page / "index.html"
    assert english.is_file() and polish.is_file(), page
    assert 'lang="pl"' in polish.read_text(encoding="utf-8")[:400], f"pl/{page} is not Polish"
    # Each page links its copy in the other language (the switch in the header).
    assert 'hreflang="pl"' in english.read_text(encoding="utf-8"), page


@pytest.mark.parametrize("variant", sorted(VARIANT_RULES))
def test_rule_anchors_are_the_same_in_both_languages(site: Path, variant: str) -> None:
    english = _anchors(site / "variants" / variant / "index.html")
    polish = _anchors(site / "pl" / "variants" / variant / "index.html")
    for rule in VARIANT_RULES[variant]:
        assert rule in english and rule in polish, f"{variant}: {rule}"


def test_polish_game_page_speaks_polish_and_links_the_glossary(site: Path) -> None:
    html = (site / "pl" / "variants" / "szczerbak" / "index.html").read_text(encoding="utf-8")
    assert "R-SZC-02 · Wdowa" in html
    assert "zakrytą wdowę" in html  # the widow ritual, in the Polish statement
    assert "Uwagi autora" in html
    assert re.search(r'href="[^"]*glossary/#wdowa"', html), "no glossary link for wdowa"


def test_english_game_page_tells_the_widow_ritual_and_the_authors_notes(site: Path) -> None:
    html = (site / "variants" / "szczerbak" / "index.html").read_text(encoding="utf-8")
    assert "face down" in html and "turns it face up" in html
    assert "The author&rsquo;s notes" in html or "The author's notes" in html
    assert "[1|3], [1|5], [2|4], [2|6], [3|5]" in html


def test_the_book_stands_alone(site: Path) -> None:
    """No page sends a reader to files or rulings they cannot see."""
    for page in site.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        assert "RULINGS.md" not in text, page
        assert "first rulings" not in text, page
    poldomino = (site / "variants" / "poldomino" / "index.html").read_text(encoding="utf-8")
    assert "block game" not in poldomino.split("<h2", 1)[0]


def test_glossary_has_every_term_in_both_languages(site: Path) -> None:
    for root in (site, site / "pl"):
        anchors = _anchors(root / "glossary" / "index.html")
        for term in TERMS:
            assert term.anchor in anchors, (root, term.pl)
    for word in ("kamień", "oczko", "dublet", "mydło", "talon", "wdowa", "jeziorko",
                 "spasować", "domino!", "blokada"):
        assert any(term.pl == word for term in TERMS), word


def test_search_index_holds_polish_words_folded_and_not(site: Path) -> None:
    """The folded words are in each section's hidden ``forms`` field, never in its text (which
    search shows in its previews)."""
    index = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))
    polish = [doc for doc in index["docs"] if doc["location"].startswith("pl/")]
    text = " ".join(doc["text"] for doc in polish)
    searched = text + " " + " ".join(doc.get("forms", "") for doc in polish)
    for word in SEARCHED:
        assert re.search(rf"(?<!\w){word}", searched, re.IGNORECASE), word
    assert not re.search(r"(?<!\w)mydlo(?!\w)", text), "a folded word in a preview"
    assert "forms" in index["config"]["fields"]
    assert fold("mydło") == "mydlo" and fold("Łańcuch") == "Lancuch"


class _ArticleText(HTMLParser):
    """The text a reader reads in a built page's article, in the book's own words: without
    code, source quotes and elements marked ``lang="en"`` (text from trace and perft files,
    a published English source), with each drawing's title (its accessible name)."""

    SKIP = {"code", "pre", "blockquote", "script", "style"}
    VOID = {"br", "img", "hr", "input", "meta", "link", "wbr", "source", "circle", "rect",
            "line", "path", "polygon", "use"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[bool] = []  # per open element: is its text skipped?
        self.inside = 0  # depth inside <article>
        self.parts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.VOID:
            return
        if tag == "article":
            self.inside += 1
        skipped = (bool(self.stack) and self.stack[-1]) or tag in self.SKIP or \
            ("lang", "en") in attrs
        self.stack.append(skipped)

    def handle_endtag(self, tag: str) -> None:
        if tag in self.VOID:
            return
        if self.stack:
            self.stack.pop()
        if tag == "article":
            self.inside -= 1

    def handle_data(self, data: str) -> None:
        if self.inside and not (self.stack and self.stack[-1]):
            self.parts.append(data)


def _polish_sources(generated: Iterable[str]) -> list[str]:
    """The site paths of every page written in Polish (generated, as ``generated`` lists
    them, or hand-written)."""
    sources = set(generated)
    sources |= {p.relative_to(DOCS).as_posix() for p in DOCS.rglob(f"*{PL.suffix}")}
    out = []
    for source in sorted(sources):
        if not source.endswith(PL.suffix):
            continue
        stem = source.removesuffix(PL.suffix)
        out.append("" if stem == "index" else stem.removesuffix("/index") + "/")
    return out


DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_no_english_phrase_of_the_book_is_left_on_the_built_polish_site(
        site: Path, generated_polish_pages: Mapping[str, str]) -> None:
    """Every Polish page as built, read as a reader reads it: none of the generator's English
    phrases (captions, move tables, ruling boxes, round names...) is left in it."""
    phrases = english_phrases()
    pages = _polish_sources(generated_polish_pages)
    assert "traces/progressive/match-double-tiebreak/" in pages and "glossary/" in pages
    found: dict[str, list[str]] = {}
    for page in pages:
        parser = _ArticleText()
        parser.feed((site / "pl" / page / "index.html").read_text(encoding="utf-8"))
        assert parser.parts, f"pl/{page}: no article text"
        hits = leaks(" ".join(parser.parts), phrases)
        if hits:
            found[page] = hits
    assert not found, found


# ---------------------------------------------------------------------------- browser

SEARCH_RESULTS = """
return Array.from(document.querySelectorAll('.md-search-result__item')).map(function (li) {
  var a = li.querySelector('a');
  return a ? a.href : '';
});
"""


def _search(driver: Any, query: str) -> list[str]:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    box = driver.find_element(By.CSS_SELECTOR, "input.md-search__input")
    driver.execute_script("document.querySelector('label.md-search__icon, "
                          "label[for=__search]').click();")
    box.clear()
    box.send_keys(query)
    WebDriverWait(driver, 30, poll_frequency=POLL).until(lambda d: d.execute_script(SEARCH_RESULTS))
    results: list[str] = driver.execute_script(SEARCH_RESULTS)
    return results


@pytest.mark.parametrize("query", SEARCHED)
def test_search_finds_polish_words_typed_either_way(browser: Any, server: str, query: str,
                                                    screenshots: Path) -> None:
    _open(browser, server + "pl/variants/szczerbak/")
    results = _search(browser, query)
    assert results, f"no result for {query!r}"
    if query.startswith("wdow"):
        assert any("szczerbak" in href for href in results), results
    if query.startswith("jeziork"):
        assert any("pijanowski" in href for href in results), results
    if query in ("mydło", "mydlo"):
        _shoot(browser, screenshots, f"search-{fold(query)}")


def test_language_switch_keeps_the_page_and_the_rule(browser: Any, server: str,
                                                      screenshots: Path) -> None:
    from selenium.webdriver.support.ui import WebDriverWait

    _open(browser, server + "variants/szczerbak/#R-SZC-04")
    browser.execute_script("window.dkLeaving = true;"
                           "document.querySelector('a[hreflang=\"pl\"]').click();")
    WebDriverWait(browser, 60, poll_frequency=POLL).until(lambda d: d.execute_script(
        "return window.dkLeaving === undefined && document.readyState === 'complete';"))
    assert browser.current_url == server + "pl/variants/szczerbak/#R-SZC-04"
    heading = browser.execute_script(
        "var h = document.getElementById('R-SZC-04'); return h ? h.textContent : '';")
    assert "Parzystość" in heading
    _shoot(browser, screenshots, "i18n-szczerbak-pl")
    browser.execute_script("window.dkLeaving = true;"
                           "document.querySelector('a[hreflang=\"en\"]').click();")
    WebDriverWait(browser, 60, poll_frequency=POLL).until(lambda d: d.execute_script(
        "return window.dkLeaving === undefined && document.readyState === 'complete';"))
    assert browser.current_url == server + "variants/szczerbak/#R-SZC-04"
