"""The rule book at phone width: no page scrolls sideways, tables scroll in their own box,
code is never cut off, long chains wrap into rows at a readable size, and each game's page
prints with its diagrams.

One mkdocs build and one browser per run (``tests/rulebook/conftest.py``); every page of the
site, in both languages (the player pages are checked to be among them under ``pl/`` too), is
opened in headless Chromium at 390 px (and the pages with code blocks at 1280 px),
with a screenshot of each kept under ``$DOMINOKIT_SCREENSHOTS`` (default ``tmp/``) so CI keeps
them as artefacts. Without a browser the tests skip, except under ``CI=true``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.rulebook import test_docs_site as docs_site
from tests.rulebook.test_docs_site import _open

PHONE = 390
DESKTOP = 1280
MIN_TILE_PX = 44
"""The narrowest a chain tile may be drawn (a tile is two halves of 30 px at scale 1)."""

OVERFLOW = """
var width = document.documentElement.clientWidth;
var bad = [];
var scrolling = new Map();  // element -> does it or an ancestor scroll sideways?
function inScroller(el) {
  var p = el.parentElement;
  if (!p) { return false; }
  if (!scrolling.has(p)) {
    var o = getComputedStyle(p).overflowX;
    scrolling.set(p, o === 'auto' || o === 'scroll' || inScroller(p));
  }
  return scrolling.get(p);
}
if (document.documentElement.scrollWidth > width + 1) {
  bad.push('page: scrollWidth ' + document.documentElement.scrollWidth + ' > ' + width);
}
document.querySelectorAll('article *').forEach(function (el) {
  var style = getComputedStyle(el);
  var scrolls = ['auto', 'scroll'].indexOf(style.overflowX) >= 0;
  var clips = ['hidden', 'clip'].indexOf(style.overflowX) >= 0;
  if (clips && el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0) {
    bad.push('clipped: ' + el.tagName + '.' + el.className + ' ' + el.scrollWidth + ' > ' +
             el.clientWidth);
  }
  if (el.tagName === 'PRE' && el.scrollWidth > el.clientWidth + 1) {
    bad.push('code cut off: ' + (el.textContent || '').slice(0, 60));
  }
  if (!scrolls) {
    var box = el.getBoundingClientRect();
    if (!inScroller(el) && box.width > 0 && box.right > width + 1) {
      bad.push('sticks out: ' + el.tagName + '.' + el.className + ' right ' +
               Math.round(box.right));
    }
  }
});
return bad.slice(0, 10);
"""

CHAIN_TILES = """
return Array.from(document.querySelectorAll('article svg.dk-chain')).map(function (svg) {
  var box = svg.getBoundingClientRect();
  var natural = svg.viewBox.baseVal.width;
  return [svg.querySelector('title').textContent, box.width / natural * 60];
});
"""


def _pages(site: Path) -> list[str]:
    pages = sorted(p.parent.relative_to(site).as_posix() for p in site.rglob("index.html")
                   if p.parent.name not in ("search", "assets"))
    return [("" if p == "." else p + "/") for p in pages]


PLAYER_PAGES = ["", *docs_site.PAGES, "variants/common/", "variants/comparison/", "glossary/"]
"""The pages a player reads, each in English (as is) and in Polish (under ``pl/``)."""


def _at(driver: Any, width: int) -> None:
    driver.set_window_size(width, 900)


PHONE_SHARDS = 24
"""The phone check of every page is split into this many tests (page ``i`` of the sorted list
in shard ``i % PHONE_SHARDS``), so that no one test opens the whole site."""


def test_every_player_page_is_among_the_pages_checked(site: Path) -> None:
    pages = _pages(site)
    polish = [f"pl/{page}" for page in PLAYER_PAGES]
    unchecked = [page for page in [*PLAYER_PAGES, *polish] if page not in pages]
    assert not unchecked, f"player pages missing from the site: {unchecked}"
    assert len(pages) >= PHONE_SHARDS  # every shard below has pages to open


@pytest.mark.parametrize("shard", range(PHONE_SHARDS))
def test_no_page_scrolls_sideways_at_phone_width(site: Path, browser: Any, server: str,
                                                 screenshots: Path, shard: int) -> None:
    polish = [f"pl/{page}" for page in PLAYER_PAGES]
    problems: dict[str, list[str]] = {}
    for page in _pages(site)[shard::PHONE_SHARDS]:
        _at(browser, PHONE)
        _open(browser, server + page)
        found = browser.execute_script(OVERFLOW)
        if found:
            problems[page] = found
        if page.startswith(("variants/", "traces/szczerbak/")) or page in polish:
            height = int(browser.execute_script("return document.documentElement.scrollHeight"))
            browser.set_window_size(PHONE, min(max(height, 800), 16000))
            name = (page.strip("/").replace("/", "-") or "home") + "-390"
            browser.save_screenshot(str(screenshots / f"{name}.png"))
    _at(browser, DESKTOP)
    assert not problems, problems


def test_long_chains_keep_readable_tiles_at_phone_width(browser: Any, server: str) -> None:
    _at(browser, PHONE)
    for page in ("variants/szczerbak/", "variants/progressive/",
                 "traces/progressive/match-drawn-round/"):
        _open(browser, server + page)
        sizes = browser.execute_script(CHAIN_TILES)
        assert sizes, page
        small = [(title, round(px)) for title, px in sizes if px < MIN_TILE_PX]
        assert not small, f"{page}: chain tiles drawn too small: {small[:3]}"
    _at(browser, DESKTOP)


@pytest.mark.parametrize("page", ["variants/pijanowski/", "engines/notation/"])
def test_code_is_not_cut_off_at_desktop_width(browser: Any, server: str, page: str) -> None:
    _at(browser, DESKTOP)
    _open(browser, server + page)
    assert browser.execute_script(OVERFLOW) == []


def test_game_pages_print_with_their_diagrams(browser: Any, server: str,
                                              screenshots: Path) -> None:
    """Under @media print the navigation is gone, diagrams are still drawn, and the page
    prints to PDF."""
    import base64

    _at(browser, DESKTOP)
    _open(browser, server + "variants/pijanowski/")
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    try:
        hidden = browser.execute_script(
            "var n = document.querySelector('.md-sidebar--primary');"
            "return !n || getComputedStyle(n).display === 'none';")
        assert hidden, "the navigation is printed"
        sizes = browser.execute_script(
            "return Array.from(document.querySelectorAll('article svg.dk-diagram'))"
            ".map(function (s) { var b = s.getBoundingClientRect(); return b.width * b.height; });")
        assert sizes and all(area > 0 for area in sizes)
        kept_whole = browser.execute_script(
            "return Array.from(document.querySelectorAll('article .dk-figure'))"
            ".every(function (f) { return getComputedStyle(f).breakInside === 'avoid'; });")
        assert kept_whole, "the print stylesheet does not keep diagrams on one page"
        pdf = browser.execute_cdp_cmd("Page.printToPDF", {"printBackground": True})
        data = base64.b64decode(pdf["data"])
        assert data.startswith(b"%PDF")
        (screenshots / "variants-pijanowski-print.pdf").write_bytes(data)
    finally:
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})
