"""The rule book site: it builds with ``mkdocs build --strict``, and in a real browser every
diagram has a size and every rule anchor leads somewhere.

The site, the local HTTP server, Debian's headless Chromium (through Selenium) and the
screenshot folder are the run's own (``tests/rulebook/conftest.py``: one build and one browser
for every module). The browser part saves a screenshot of each page it checks (folder:
``$DOMINOKIT_SCREENSHOTS``, default ``tmp/`` in the repository) so a reviewer can look at the
pictures. Without chromium and chromedriver the browser tests are skipped, except under
``CI=true``, where a missing browser is a failure.
"""

from __future__ import annotations

import json
import re
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
import yaml


def variant_rules() -> dict[str, list[str]]:
    """Rule ids of each variant page, read straight from the spec's YAML."""
    root = resources.files("dominokit.spec")
    out: dict[str, list[str]] = {}
    for entry in (root / "variants").iterdir():
        if entry.name.endswith(".yaml"):
            data = yaml.safe_load(entry.read_text(encoding="utf-8"))
            out[data["id"]] = [rule["id"] for rule in data["rules"]]
    return out


VARIANT_RULES = variant_rules()
POLL = 0.05
"""How often a wait looks again (Selenium's default, half a second, is most of a page's
time here)."""
PAGES = [*(f"variants/{v}/" for v in sorted(VARIANT_RULES)), "variants/pijanowski-opening/"]


def test_strict_build_makes_every_page(site: Path) -> None:
    for page in [*PAGES, "", "variants/common/", "engines/protocol/", "engines/notation/",
                 "engines/quickstart/", "engines/report/", "contributing/trace-format/",
                 "contributing/traces/", "contributing/variants/", "contributing/rule-ids/",
                 "contributing/rule-index/"]:
        assert (site / page / "index.html").is_file(), page
    assert not (site / "gen_pages.py").exists()
    assert (site / "examples" / "szczerbak_engine.py").is_file()


def test_search_index_holds_the_rules(site: Path) -> None:
    index = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))
    locations = {doc["location"] for doc in index["docs"]}
    for variant, rules in VARIANT_RULES.items():
        for rule in rules:
            assert f"variants/{variant}/#{rule}" in locations, rule


def test_landing_page_says_what_this_is(site: Path) -> None:
    html = (site / "index.html").read_text(encoding="utf-8")
    first = re.search(r"<h1[^>]*>.*?</h1>\s*<p>(.*?)</p>", html, re.S)
    assert first and "rule book" in first.group(1)
    for variant in VARIANT_RULES:
        assert f'href="variants/{variant}/"' in html


def test_both_colour_schemes_are_offered(site: Path) -> None:
    html = (site / "index.html").read_text(encoding="utf-8")
    schemes = set(re.findall(r'data-md-color-scheme="(\w+)"', html))
    assert {"default", "slate"} <= schemes


# ---------------------------------------------------------------------------- browser


def _open(driver: Any, url: str) -> None:
    """Load ``url`` and return only once the new document has fully loaded.

    ``driver.get`` can return while the previous document is still the one scripts see (a
    reload of the page already shown, under load, is reported complete by the old document's
    ``readyState``). So the document we leave is marked first, and the wait is for a document
    without the mark whose ``readyState`` is complete: the real page, not a point in time.
    """
    from selenium.webdriver.support.ui import WebDriverWait

    driver.execute_script("window.dkLeaving = true;")
    driver.get(url)
    WebDriverWait(driver, 60, poll_frequency=POLL).until(lambda d: d.execute_script(
        "return window.dkLeaving === undefined && document.readyState === 'complete' && "
        "location.href.split('#')[0] === arguments[0];", url.split("#")[0]))


def _shoot(driver: Any, folder: Path, name: str) -> None:
    """A full-page screenshot: the window is stretched to the page's height first."""
    height = int(driver.execute_script("return document.documentElement.scrollHeight"))
    driver.set_window_size(1280, min(max(height, 800), 16000))
    driver.save_screenshot(str(folder / f"{name}.png"))
    driver.set_window_size(1280, 1000)


DIAGRAM_SIZES = """
return Array.from(document.querySelectorAll('article svg.dk-diagram')).map(function (svg) {
  var box = svg.getBoundingClientRect();
  return [svg.querySelector('title') ? svg.querySelector('title').textContent : '',
          box.width, box.height];
});
"""

RULE_LINKS = """
return Array.from(document.querySelectorAll('article a[href*="#R-"]')).map(function (a) {
  return a.href;
});
"""


@pytest.mark.parametrize("page", PAGES)
def test_diagrams_render_and_rule_anchors_resolve(browser: Any, server: str, screenshots: Path,
                                                  page: str) -> None:
    _open(browser, server + page)
    sizes = browser.execute_script(DIAGRAM_SIZES)
    assert sizes, f"{page} shows no diagram"
    empty = [title for title, width, height in sizes if not (width > 0 and height > 0)]
    assert not empty, f"diagrams without a size on {page}: {empty}"
    variant = page.split("/")[1]
    for rule in VARIANT_RULES.get(variant, []):
        assert browser.execute_script("return document.getElementById(arguments[0]) !== null",
                                      rule), f"{page}: no element with id {rule}"
    links: list[str] = browser.execute_script(RULE_LINKS)
    assert links, f"{page} links to no rule"
    _shoot(browser, screenshots, page.strip("/").replace("/", "-"))
    targets: dict[str, set[str]] = {}
    for href in links:
        url, _, anchor = href.partition("#")
        targets.setdefault(url, set()).add(anchor)
    for url, wanted in sorted(targets.items()):
        _open(browser, url)
        missing = [a for a in sorted(wanted) if not browser.execute_script(
            "return document.getElementById(arguments[0]) !== null", a)]
        assert not missing, f"links from {page} to {url} miss anchors {missing}"


def test_dark_mode_toggle_switches_the_scheme(browser: Any, server: str,
                                              screenshots: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    def scheme() -> str:
        return str(browser.execute_script("return document.body.dataset.mdColorScheme"))

    def toggle() -> None:
        browser.find_element(By.CSS_SELECTOR, TOGGLE).click()

    _open(browser, server + "variants/szczerbak/")
    before = scheme()
    toggle()
    WebDriverWait(browser, 10, poll_frequency=POLL).until(lambda _: scheme() != before)
    assert {before, scheme()} == {"default", "slate"}
    sizes = browser.execute_script(DIAGRAM_SIZES)
    assert sizes and all(w > 0 and h > 0 for _, w, h in sizes)
    _shoot(browser, screenshots, "variants-szczerbak-dark")
    toggle()
    WebDriverWait(browser, 10, poll_frequency=POLL).until(lambda _: scheme() == before)


TOGGLE = 'form[data-md-component="palette"] label.md-header__button:not([hidden])'
