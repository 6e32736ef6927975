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

from dominokit.rulebook import Book
from dominokit.rulebook.glossary import TERMS
from dominokit.rulebook.i18n import PL, fold
from dominokit.rulebook.playpages import play_pages
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
    code and source quotes, with each drawing's title (its accessible name). Text marked
    ``lang="en"`` is kept apart in ``english``, except what is English by nature on a Polish
    page: the title of an English source (``cite``), the published English source quoted
    beside a rule (``dk-source``) and the spec's English name of a glossary term (a few
    words)."""

    SKIP = {"code", "pre", "blockquote", "script", "style"}
    VOID = {"br", "img", "hr", "input", "meta", "link", "wbr", "source", "circle", "rect",
            "line", "path", "polygon", "use"}
    TERM_WORDS = 3

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        # Per open element: is its text skipped, is it a quoted source, is it lang="en".
        self.stack: list[tuple[bool, bool, bool]] = []
        self.inside = 0  # depth inside <article>
        self.parts: list[str] = []
        self.english: list[str] = []
        self._english: list[list[str]] = []  # the text of each open lang="en" element

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.VOID:
            return
        if tag == "article":
            self.inside += 1
        skipped, source, _ = self.stack[-1] if self.stack else (False, False, False)
        classes = (dict(attrs).get("class") or "").split()
        source = source or tag == "cite" or "dk-source" in classes
        english = ("lang", "en") in attrs and not source and bool(self.inside)
        if english:
            self._english.append([])
        self.stack.append((skipped or tag in self.SKIP or ("lang", "en") in attrs, source,
                           english))

    def handle_endtag(self, tag: str) -> None:
        if tag in self.VOID:
            return
        if self.stack and self.stack.pop()[2]:
            text = " ".join(" ".join(self._english.pop()).split())
            if len(text.split()) > self.TERM_WORDS:
                self.english.append(text)
        if tag == "article":
            self.inside -= 1

    def handle_data(self, data: str) -> None:
        if self._english:
            self._english[-1].append(data)
        if self.inside and not (self.stack and self.stack[-1][0]):
            self.parts.append(data)


ENGLISH_WORDS = re.compile(r"(?<![\w-])(the|and|of|with|which|when|is|are|this|that|from|for|"
                           r"each|every|its|has|by hand|must)(?![\w-])", re.IGNORECASE)
"""English words no Polish sentence has (``to``, ``a``, ``on``, ``by`` are Polish words too)."""


def _polish_sources(generated: Iterable[str]) -> list[str]:
    """The site paths of every page written in Polish (generated, as ``generated`` lists
    them, the play pages, or hand-written)."""
    sources = set(generated) | set(play_pages(Book.load()))
    sources |= {p.relative_to(DOCS).as_posix() for p in DOCS.rglob(f"*{PL.suffix}")}
    out = []
    for source in sorted(sources):
        if not source.endswith(PL.suffix):
            continue
        stem = source.removesuffix(PL.suffix)
        out.append("" if stem == "index" else stem.removesuffix("/index") + "/")
    return out


DOCS = Path(__file__).resolve().parents[2] / "docs"


def _built_polish_pages(site: Path) -> list[str]:
    """The site path of every page built under ``pl/``."""
    root = site / "pl"
    return sorted("" if page.parent == root else page.parent.relative_to(root).as_posix() + "/"
                  for page in root.rglob("*.html"))


def test_every_page_under_pl_is_a_polish_page(
        site: Path, generated_polish_pages: Mapping[str, str]) -> None:
    """A page with no Polish copy (engine authors', contributors', trace and perft pages) is
    published in English only, at its English address; nothing under ``pl/`` is an English
    page dressed as a Polish one."""
    built = _built_polish_pages(site)
    assert "variants/szczerbak/" in built and "glossary/" in built
    written = set(_polish_sources(generated_polish_pages))
    assert set(built) == written, (
        f"English pages under pl/: {sorted(set(built) - written)}; "
        f"Polish pages not built: {sorted(written - set(built))}")
    for page in built:
        head = (site / "pl" / page / "index.html").read_text(encoding="utf-8")[:400]
        assert 'lang="pl"' in head, f"pl/{page} is not Polish"


def test_no_english_is_left_on_any_page_under_pl(site: Path) -> None:
    """Every page under ``pl/`` as built, read as a reader reads it: none of the generator's
    English phrases (captions, move tables, ruling boxes, round names...), no English sentence
    and no English text marked as such (descriptions from trace and perft files), outside code
    and quoted sources."""
    phrases = english_phrases()
    pages = _built_polish_pages(site)
    assert "variants/pijanowski-opening/" in pages and "play/szczerbak/" in pages
    found: dict[str, list[str]] = {}
    for page in pages:
        parser = _ArticleText()
        parser.feed((site / "pl" / page / "index.html").read_text(encoding="utf-8"))
        assert parser.parts, f"pl/{page}: no article text"
        text = " ".join(parser.parts)
        hits = leaks(text, phrases) + parser.english
        hits += sorted({match.group(0).lower() for match in ENGLISH_WORDS.finditer(text)})
        if hits:
            found[page] = hits
    assert not found, found


def test_the_english_detector_sees_a_trace_description() -> None:
    parser = _ArticleText()
    parser.feed('<article><p>Zasady. <span lang="en">Two passes end the hand.</span> '
                '<cite lang="en">Block Dominoes Game Rules</cite> <strong><span lang="en">'
                'open end</span></strong>.</p><p>Player 0 opens the chain.</p></article>')
    assert parser.english == ["Two passes end the hand."]
    assert "Player 0 opens" in " ".join(parser.parts)
    assert ENGLISH_WORDS.search(" ".join(parser.parts)).group(0) == "the"
    assert not ENGLISH_WORDS.search("Gracz to ma, a on by to dołożył; kolor i barwa.")


def _links(html: str) -> list[tuple[str, str]]:
    """(href, whole tag) of every link of a page (``a`` and ``link``)."""
    return [(m.group(2), m.group(0)) for m in
            re.finditer(r'<(a|link)\s[^>]*?href="([^"]*)"[^>]*>', html)]


def _target(site: Path, page: Path, href: str) -> Path | None:
    """The built file a local link leads to (None for an external or in-page link)."""
    path = href.split("#", 1)[0].split("?", 1)[0]
    if not path or re.match(r"^[a-z]+:", path):
        return None
    base = site if path.startswith("/") else page.parent
    target = (base / path.lstrip("/")).resolve()
    return target / "index.html" if target.is_dir() or path.endswith("/") else target


def test_language_switches_lead_to_built_pages(site: Path) -> None:
    """Every page's other-language link leads to a page that exists: an English page with no
    Polish copy offers the Polish home page, never an address under ``pl/`` that is not
    there."""
    broken = []
    for page in site.rglob("*.html"):
        for href, tag in _links(page.read_text(encoding="utf-8")):
            if "hreflang=" in tag:
                target = _target(site, page, href)
                if target is not None and not target.is_file():
                    broken.append(f"{page.relative_to(site)} -> {href}")
    assert not broken, broken


def test_polish_pages_link_english_pages_as_english(site: Path) -> None:
    """A link from a Polish page to a page published only in English goes to that page and
    says so (``hreflang="en"``, which the book's style marks on screen)."""
    unmarked, english = [], 0
    root = (site / "pl").resolve()
    for page in (site / "pl").rglob("*.html"):
        html = page.read_text(encoding="utf-8")
        article = html.split("<article", 1)[-1].split("</article>", 1)[0]
        for href, tag in _links(article):
            target = _target(site, page, href)
            if target is None or target.suffix != ".html" or target.is_relative_to(root):
                continue
            assert target.is_file(), f"{page.relative_to(site)} -> {href}"
            english += 1
            if 'hreflang="en"' not in tag:
                unmarked.append(f"{page.relative_to(site)} -> {href}")
    assert english, "no Polish page links an English page"
    assert not unmarked, unmarked[:20]


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
