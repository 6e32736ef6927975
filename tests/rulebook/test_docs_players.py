"""The player's book in a real browser, as a player meets it: every game page in both languages
at phone (390 px) and desktop (1280 px) width, its search, its language switch, and its cards
printed on paper.

On every game page no table is wider than the screen, a Polish page shows no English words of
its own (only code, and the English source quotes of a game published in English, are left
as they are), and every hard rule has its picture under it. The hard rules are read from the
spec's mechanics (the lake rule, the widow's opening, the pass, the extra tile, a match in
rounds), as ``dominokit.rulebook.pictures`` reads them. Search is typed into the theme's own
search box; the cards are printed by headless Chromium to PDF and their pages counted. One
build and one browser serve the whole run (``tests/rulebook/conftest.py``; ``DOMINOKIT_SITE``
reuses a build).
"""

from __future__ import annotations

import base64
import re
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.rulebook.test_docs_site import POLL, _open, _shoot


def _variants() -> dict[str, dict[str, Any]]:
    root = resources.files("dominokit.spec") / "variants"
    out = {}
    for entry in root.iterdir():
        if entry.name.endswith(".yaml"):
            data = yaml.safe_load(entry.read_text(encoding="utf-8"))
            out[data["id"]] = data
    return dict(sorted(out.items()))


VARIANTS = _variants()


def hard_rules(data: dict[str, Any]) -> dict[str, int]:
    """The hard rules of a game, from its mechanics, and how many pictures each needs: the
    lake rule a one-cell edge lake, a four-cell lake, a five-cell area, a corner gap and one
    picture per value of its option; the others one picture each (the widow two: set-up and
    first tile)."""
    turn = data["turn"]
    rules: dict[str, int] = {}
    lakes = data.get("scoring", {}).get("lakes")
    if lakes:
        rules[lakes["rule"]] = 4 + len(data["options"][lakes["mode"]["option"]]["values"])
    if turn["opening"]["policy"] == "widow":
        rules[turn["opening"]["rule"]] = 2
    rules[turn["pass"]["rule"]] = rules.get(turn["pass"]["rule"], 0) + 1
    if turn.get("extra_tile"):
        rules[turn["extra_tile"]["rule"]] = rules.get(turn["extra_tile"]["rule"], 0) + 1
    if data["match"]["kind"] == "rounds":
        rules[data["match"]["rule"]] = rules.get(data["match"]["rule"], 0) + 1
    return rules


GAME_PAGES = [f"variants/{v}/" for v in VARIANTS] + \
    [f"variants/{v}-{kind}/" for v in VARIANTS for kind in ("hand", "card")]
WIDTHS = (390, 1280)

ENGLISH_WORDS = frozenset((
    "the", "and", "of", "with", "for", "when", "after", "before", "player", "players", "tile",
    "tiles", "hand", "hands", "move", "moves", "points", "this", "that", "from", "which",
    "is", "are", "be", "it", "its", "every", "each", "only", "game", "games", "rule", "rules",
    "table", "chain", "trace", "traces", "case", "cases", "page", "link", "dark", "light",
    "mode", "switch", "permanent", "made", "search", "back", "top", "skip", "content",
    "previous", "next", "share", "copy", "section", "edit", "view", "source", "tested",
    "engine", "engines", "authors", "what", "happens", "why", "allowed", "round", "rounds",
    "deal", "deals", "end", "ends", "open", "left", "right", "pass", "passes", "draw",
    "draws", "stock", "widow", "lake", "lakes", "board", "field", "fields", "cell", "cells",
    "pip", "pips", "blank", "double", "doubles", "score", "scores",
))
"""English words that are not also Polish words (so never "a", "i", "to", "do", "no", "on")."""

WIDE_TABLES = """
var width = document.documentElement.clientWidth;
return Array.from(document.querySelectorAll('article table')).filter(function (t) {
  var box = t.getBoundingClientRect();
  return box.width > 0 && (box.width > width + 1 || box.right > width + 1);
}).map(function (t) { return [t.textContent.slice(0, 60), t.getBoundingClientRect().width]; });
"""

ENGLISH_TEXT = """
var english = new Set(arguments[0]);
var out = [];
var walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
while (walker.nextNode()) {
  var node = walker.currentNode;
  var el = node.parentElement;
  if (!el || el.closest('code, pre, kbd, script, style, svg, cite[lang="en"], ' +
                        '.dk-source[lang="en"] blockquote')) {
    continue;
  }
  if (!el.getClientRects().length) { continue; }          // not shown
  var words = (node.textContent.toLowerCase().match(/[a-z]+/g) || []);
  var hits = words.filter(function (w) { return english.has(w); });
  if (hits.length) { out.push(node.textContent.trim().slice(0, 80)); }
}
return out;
"""

RULE_PICTURES = """
var out = {};
arguments[0].forEach(function (id) {
  var heading = document.getElementById(id);
  var count = 0;
  for (var node = heading && heading.nextElementSibling; node &&
       !/^H[23]$/.test(node.tagName); node = node.nextElementSibling) {
    if (node.classList.contains('dk-rule-pictures')) {
      node.querySelectorAll('svg.dk-diagram').forEach(function (svg) {
        var box = svg.getBoundingClientRect();
        if (box.width > 20 && box.height > 20) { count += 1; }
      });
    }
  }
  out[id] = count;
});
return out;
"""


def _at(driver: Any, width: int) -> None:
    driver.set_window_size(width, 900)


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("lang", ["", "pl/"])
@pytest.mark.parametrize("page", GAME_PAGES)
def test_game_page_fits_speaks_its_language_and_draws_its_hard_rules(
        browser: Any, server: str, screenshots: Path, page: str, lang: str,
        width: int) -> None:
    _at(browser, width)
    _open(browser, server + lang + page)
    wide = browser.execute_script(WIDE_TABLES)
    assert not wide, f"{lang}{page} at {width} px: tables wider than the screen: {wide}"
    if lang:
        english = browser.execute_script(ENGLISH_TEXT, sorted(ENGLISH_WORDS))
        assert not english, f"{lang}{page} at {width} px: English text: {english[:8]}"
    variant = page.split("/")[1]
    if variant in VARIANTS:
        need = hard_rules(VARIANTS[variant])
        have = browser.execute_script(RULE_PICTURES, sorted(need))
        short = {rule: (have.get(rule), n) for rule, n in need.items() if have.get(rule, 0) < n}
        assert not short, f"{lang}{page}: hard rules without their pictures (have, need): {short}"
    if width == 390:
        name = (lang + page).strip("/").replace("/", "-")
        _shoot_at(browser, screenshots, f"players-{name}-390", width)
    _at(browser, 1280)


def _shoot_at(driver: Any, folder: Path, name: str, width: int) -> None:
    height = int(driver.execute_script("return document.documentElement.scrollHeight"))
    driver.set_window_size(width, min(max(height, 800), 16000))
    driver.save_screenshot(str(folder / f"{name}.png"))


def test_the_english_scan_catches_english(browser: Any, server: str) -> None:
    _open(browser, server + "pl/variants/szczerbak/")
    assert not browser.execute_script(ENGLISH_TEXT, sorted(ENGLISH_WORDS))
    browser.execute_script("var p = document.createElement('p'); p.textContent = 'The player "
                           "passes'; document.querySelector('article').appendChild(p);")
    assert browser.execute_script(ENGLISH_TEXT, sorted(ENGLISH_WORDS)) == ["The player passes"]


# ---------------------------------------------------------------------------- search

SEARCH_RESULTS = """
return Array.from(document.querySelectorAll('.md-search-result__item')).map(function (li) {
  var a = li.querySelector('a');
  return [a ? a.href : '', li.textContent];
});
"""

MYDLO = ("variants/szczerbak/", "variants/pijanowski/")
JEZIORKO = ("variants/pijanowski/",)
WDOWA = ("variants/szczerbak/",)
SEARCHES: dict[str, tuple[str, tuple[str, ...]]] = {
    **dict.fromkeys(("mydło", "mydlo", "mydła", "mydla", "mydłem", "mydlem"), ("glossary/", MYDLO)),
    **dict.fromkeys(("jeziorko", "jeziorka", "jeziorek", "jeziorkiem"), ("glossary/", JEZIORKO)),
    **dict.fromkeys(("wdowa", "wdowę", "wdowe", "wdową"), ("glossary/", WDOWA)),
    **dict.fromkeys(("kostka", "kostke", "kostki"), ("glossary/", ())),
}
"""Query -> the glossary and the game pages (the first is where the word's rule lives) that
must lead the results: one of them first, the glossary and the rule's game in the first five."""


def _search(driver: Any, query: str) -> list[tuple[str, str]]:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    box = driver.find_element(By.CSS_SELECTOR, "input.md-search__input")
    driver.execute_script("document.querySelector('label.md-search__icon, "
                          "label[for=__search]').click();")
    box.clear()
    box.send_keys(query)
    WebDriverWait(driver, 30, poll_frequency=POLL).until(lambda d: d.execute_script(SEARCH_RESULTS))
    results: list[tuple[str, str]] = [tuple(r) for r in driver.execute_script(SEARCH_RESULTS)]
    return results


@pytest.mark.parametrize("query", list(SEARCHES))
def test_a_polish_word_in_any_form_finds_its_polish_page_first(
        browser: Any, server: str, screenshots: Path, query: str) -> None:
    _at(browser, 1280)
    _open(browser, server + "pl/variants/common/")
    results = _search(browser, query)
    assert results, f"no result for {query!r}"
    hrefs = [href.split("?")[0] for href, _ in results]
    assert all(href.startswith(server + "pl/") for href in hrefs), hrefs
    glossary, games = SEARCHES[query]
    leading = [server + "pl/" + page for page in (glossary, *games)]
    assert hrefs[0].startswith(tuple(leading)), (query, hrefs[:5])
    for page in (glossary, *games[:1]):
        assert any(href.startswith(server + "pl/" + page) for href in hrefs[:5]), \
            (query, page, hrefs[:5])
    # Previews show the page's own words: never a folded one (the page writes "mydło",
    # "kamień", "połówka"; only the hidden search forms hold "mydlo", "kamien", "polowka").
    previews = " ".join(text for _, text in results).lower()
    assert not re.search(r"\b(?:mydlo|mydla|kamien|polowk\w*|wdowe)\b", previews), query
    if query == "mydlo":
        _shoot(browser, screenshots, "players-search-mydlo")


def test_an_english_page_searches_english_pages_only(browser: Any, server: str) -> None:
    _open(browser, server + "variants/common/")
    hrefs = [href for href, _ in _search(browser, "widow")]
    assert hrefs and not any("/pl/" in href for href in hrefs), hrefs


# ---------------------------------------------------------------------------- language switch

def test_the_language_switch_lands_on_the_rule_the_reader_scrolled_to(
        browser: Any, server: str) -> None:
    from selenium.webdriver.support.ui import WebDriverWait

    _at(browser, 1280)
    _open(browser, server + "pl/variants/szczerbak/")
    browser.execute_script("document.getElementById('R-SZC-05').scrollIntoView();"
                           "window.scrollBy(0, 40);")
    browser.execute_script("window.dkLeaving = true;"
                           "document.querySelector('a[hreflang=\"en\"]').click();")
    WebDriverWait(browser, 60, poll_frequency=POLL).until(lambda d: d.execute_script(
        "return window.dkLeaving === undefined && document.readyState === 'complete';"))
    assert browser.current_url == server + "variants/szczerbak/#R-SZC-05"


# ---------------------------------------------------------------------------- paper

def pdf_pages(pdf: bytes) -> int:
    """The number of pages of a PDF Chromium printed (its page objects)."""
    return len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", pdf))


PRINT = {"printBackground": True, "preferCSSPageSize": True, "displayHeaderFooter": False}
"""How the page is printed: as ``chromium --headless --print-to-pdf --no-pdf-header-footer``
prints it (the paper is the page's own ``@page`` size, A4), through the run's browser."""


def _print(driver: Any, url: str, out: Path) -> int:
    _open(driver, url)
    pdf = base64.b64decode(driver.execute_cdp_cmd("Page.printToPDF", PRINT)["data"])
    out.write_bytes(pdf)
    return pdf_pages(pdf)


@pytest.mark.parametrize("lang", ["", "pl/"])
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_each_game_card_prints_on_one_a4_page(browser: Any, server: str, tmp_path: Path,
                                              lang: str, variant: str) -> None:
    url = f"{server}{lang}variants/{variant}-card/"
    assert _print(browser, url, tmp_path / "card.pdf") == 1


@pytest.mark.parametrize("lang", ["", "pl/"])
def test_the_board_prints_on_one_sheet_and_the_game_page_on_several(
        browser: Any, server: str, tmp_path: Path, lang: str) -> None:
    boards = [v for v, data in VARIANTS.items() if data["components"]["table"]["kind"] == "board"]
    for variant in boards:
        url = f"{server}{lang}variants/{variant}-board/"
        assert _print(browser, url, tmp_path / "b.pdf") == 1
    # The counter counts: a whole game page is more than one sheet.
    assert _print(browser, f"{server}{lang}variants/{boards[0]}/", tmp_path / "page.pdf") > 1


def test_the_printable_board_has_real_size_cells(site: Path) -> None:
    from dominokit.rulebook.playerpages import TILE_MM

    html = (site / "pl" / "variants" / "pijanowski-board" / "index.html").read_text("utf-8")
    svg = re.search(r'<svg[^>]*class="dk-diagram dk-board"[^>]*>', html)
    assert svg, "no board on the printable board page"
    width = float(re.search(r'width="([\d.]+)mm"', svg.group(0)).group(1))
    view = float(re.search(r'viewBox="0 0 ([\d.]+)', svg.group(0)).group(1))
    from dominokit.conformance.run.diagrams import CELL

    assert abs(width / view * CELL - TILE_MM) < 0.1
    assert "Planszę należy wykonać samodzielnie" in \
        (site / "pl" / "variants" / "pijanowski" / "index.html").read_text("utf-8")


def test_polish_anchors_keep_their_letters(site: Path) -> None:
    html = (site / "pl" / "variants" / "szczerbak" / "index.html").read_text("utf-8")
    assert 'id="przykłady"' in html and 'id="przykady"' not in html
