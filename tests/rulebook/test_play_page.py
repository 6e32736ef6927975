"""The play pages: the reference engine runs in the built rule book, in a real browser.

The site is built once for this module (``mkdocs build --strict``, which vendors Pyodide from
docs/play's pinned npm package and writes the engine bundle) and served by a thread on
127.0.0.1 only. Debian's headless Chromium opens it through Selenium with its network limited
to that server: ``--host-resolver-rules`` resolves every host name to nothing (so no CDN or
other host can be reached; the loopback server is addressed by IP), and ``--proxy-server``
sends every request not for loopback, the page's and its engine worker's alike, to a local
proxy that refuses it. So the page can only become ready from the loopback server's files; a
test also checks that the page's own requests (its performance log) were all to that server
and that the engine's files were served by it.

What is compared comes from outside the page: a hand played by clicking is replayed on the
Python reference with the same deal and choices; a trace is stepped and each step held against
the trace file; a refusal's words are held against the spec's YAML.
Without chromium and chromedriver the browser tests skip, except under ``CI=true``.
"""

from __future__ import annotations

import hashlib
import http.server
import json
import os
import random
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from dominokit.reference import (
    Action,
    apply_action,
    check_action,
    legal_actions,
    load_rules,
    new_hand,
    new_match,
    random_deal,
    variant_ids,
)

REPO = Path(__file__).resolve().parents[2]
CHROMEDRIVER = Path("/usr/bin/chromedriver")
QUIET = {"NO_MKDOCS_2_WARNING": "1", "DISABLE_MKDOCS_2_WARNING": "true"}
SEED = 7
READY_SECONDS = 90
"""Generous: two cores shared with other builds; a slow start is reported by the bench,
not failed here."""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    built = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file",
         str(REPO / "mkdocs.yml"), "--site-dir", str(out)],
        cwd=REPO, env={**os.environ, **QUIET}, capture_output=True, text=True, timeout=900,
        check=False,
    )
    assert built.returncode == 0, built.stdout + built.stderr
    return out


def test_site_vendors_the_runtime_and_the_engine(site: Path) -> None:
    for name in ("pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip",
                 "pyodide-lock.json"):
        assert (site / "play" / "pyodide" / name).is_file(), name
    assert (site / "play" / "engine.zip").is_file()
    assert (site / "play" / "engine-worker.js").is_file()
    for variant in variant_ids():
        for prefix in ("", "pl/"):
            page = (site / prefix / "play" / variant / "index.html").read_text("utf-8")
            assert 'id="dk-play"' in page and "play/play.js" in page
    # Pyodide is loaded by the play pages only: the game pages do not mention it.
    assert "pyodide" not in (site / "variants" / "poldomino" / "index.html").read_text("utf-8")


# ---------------------------------------------------------------------------- browser


SERVED: list[str] = []
"""Every path the loopback site server was asked for (by the page or its worker)."""


def _serve(handler: type[http.server.BaseHTTPRequestHandler]) -> Iterator[str]:
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(scope="module")
def proxy() -> Iterator[str]:
    """The browser's proxy for everything not on loopback: it refuses all of it. (It is not
    asked to have seen nothing: Chromium sends its own background requests, clock, updates,
    sign-in, through it too; what the page asks for is checked in its performance log.)"""

    class Refuse(http.server.BaseHTTPRequestHandler):
        def _refuse(self) -> None:
            self.send_error(403)

        do_GET = do_POST = do_HEAD = do_CONNECT = _refuse

        def log_message(self, format: str, *args: Any) -> None:
            pass

    yield from _serve(Refuse)


@pytest.fixture(scope="module")
def server(site: Path) -> Iterator[str]:
    class Quiet(http.server.SimpleHTTPRequestHandler):
        extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                          ".wasm": "application/wasm", ".mjs": "text/javascript"}

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, directory=str(site), **kwargs)

        def log_message(self, format: str, *args: Any) -> None:
            SERVED.append(self.path)

    yield from _serve(Quiet)



@pytest.fixture(scope="module")
def browser(proxy: str) -> Iterator[Any]:
    missing = None
    if shutil.which("chromium") is None:
        missing = "chromium is not installed"
    elif not CHROMEDRIVER.is_file():
        missing = f"{CHROMEDRIVER} is not installed"
    if missing:
        if os.environ.get("CI") == "true":
            pytest.fail(f"the browser tests must run in CI: {missing}")
        pytest.skip(missing)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--window-size=1280,1000",
                 # No host name resolves: only the loopback server, addressed by IP, answers.
                 "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
                 # Whatever is not loopback (the page's requests and its worker's) goes to a
                 # proxy that records and refuses it; Chromium never proxies loopback.
                 f"--proxy-server={proxy}"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    yield driver
    driver.quit()


def _requests(driver: Any) -> list[str]:
    urls = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message.get("method") == "Network.requestWillBeSent":
            urls.append(message["params"]["request"]["url"])
    return urls


def _assert_loopback_only(driver: Any, server: str) -> None:
    """The page asked nothing of any other host, and the engine's files (fetched by its
    worker, whose requests the page's log does not show) came from the loopback server."""
    outside = [u for u in _requests(driver)
               if not u.startswith((server + "/", "data:", "blob:"))]
    assert outside == [], outside
    for path in ("/play/engine.zip", "/play/pyodide/pyodide.asm.wasm",
                 "/play/pyodide/python_stdlib.zip"):
        assert path in SERVED, path


def _root(driver: Any) -> Any:
    from selenium.webdriver.common.by import By

    return driver.find_element(By.ID, "dk-play")


def _wait_ready(driver: Any) -> Any:
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(driver, READY_SECONDS).until(
        lambda d: _root(d).get_attribute("data-state") in ("ready", "error")
        and _root(d).get_attribute("data-busy") == "false")
    root = _root(driver)
    assert root.get_attribute("data-state") == "ready", root.text
    assert root.get_attribute("data-legal-count") is not None
    return root


def _click(driver: Any, element: Any) -> None:
    """Click and wait for the page's answer: the engine runs in a worker, and the root's
    ``data-version`` moves once the page has drawn what it returned."""
    from selenium.webdriver.support.ui import WebDriverWait

    before = _root(driver).get_attribute("data-version")
    element.click()
    WebDriverWait(driver, 60).until(
        lambda d: _root(d).get_attribute("data-version") != before
        and _root(d).get_attribute("data-busy") == "false")


def _reference_hand(variant: str, seed: int, mine: list[str]) -> tuple[list[int], list[Any]]:
    """The hand on the Python reference: dealt as ``dominokit play`` deals a seed, player 0
    playing ``mine`` in order, player 1 the first legal action each time."""
    rules = load_rules(variant, {})
    plan = new_match(variant, {}).plan()
    sizes = None if rules.setup.hand_size is not None or plan is None else plan.hand_sizes
    state = new_hand(rules, random_deal(rules, random.Random(seed), hand_sizes=sizes))
    choices = iter(mine)
    while state.result is None:
        action = next(choices) if state.to_move == 0 else str(legal_actions(state)[0])
        state, _ = apply_action(state, action)
    assert next(choices, None) is None, "the page played more actions than the hand has"
    return list(state.result.points), [t.to_json() for t in state.result.terms]


@pytest.mark.parametrize("variant", variant_ids())
def test_a_whole_hand_played_by_clicks_scores_as_the_reference(
        browser: Any, server: str, variant: str) -> None:
    from selenium.webdriver.common.by import By

    browser.get(f"{server}/play/{variant}/#seed={SEED}&opponent=first&seat=0")
    root = _wait_ready(browser)
    clicked: list[str] = []
    for _ in range(400):
        if root.get_attribute("data-over") == "true":
            break
        legal = json.loads(root.get_attribute("data-legal"))
        assert int(root.get_attribute("data-legal-count")) == len(legal)
        button = browser.find_element(By.CSS_SELECTOR, ".dk-actions .dk-action.dk-legal")
        action = button.get_attribute("data-action")
        assert action == legal[0]
        _click(browser, button)
        clicked.append(action)
    assert root.get_attribute("data-over") == "true"
    points, terms = _reference_hand(variant, SEED, clicked)
    assert json.loads(root.get_attribute("data-scores")) == points
    shown = browser.find_elements(By.CSS_SELECTOR, ".dk-terms tr")
    assert len(shown) == 1 + len(terms)  # a heading row, then one row per scoring term
    for row, term in zip(shown[1:], terms, strict=True):
        assert term["rule"] in row.text and str(term["points"]) in row.text
    _assert_loopback_only(browser, server)


def _trace(trace_id: str) -> dict[str, Any]:
    variant, slug = trace_id.split("/")
    path = REPO / "conformance" / "traces" / variant / f"{slug}.yaml"
    data: dict[str, Any] = yaml.safe_load(path.read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize("trace_id", ["poldomino/catch-double-blank",
                                      "pijanowski/double-blank-stop-and-pass"])
def test_a_golden_trace_steps_to_its_end_as_written(browser: Any, server: str,
                                                    trace_id: str) -> None:
    from selenium.webdriver.common.by import By

    trace = _trace(trace_id)
    browser.get(f"{server}/traces/{trace_id}/")
    browser.find_element(By.CSS_SELECTOR, "#dk-play .dk-start").click()
    root = _wait_ready(browser)
    for number, step in enumerate(trace["steps"]):
        assert root.get_attribute("data-step") == str(number)
        assert root.get_attribute("data-to-move") == str(step["player"])
        legal = json.loads(root.get_attribute("data-legal"))
        if "legal" in step:
            assert legal == [str(a) for a in step["legal"]], number
        if "legal_sha256" in step:  # a long legal set is written as count + digest
            ordered = sorted(set(legal))
            assert len(ordered) == step["legal_count"], number
            digest = hashlib.sha256("\n".join(ordered).encode("utf-8")).hexdigest()
            assert digest == step["legal_sha256"], number
        _click(browser, browser.find_element(By.CSS_SELECTOR, ".dk-stepper .dk-forward"))
        assert json.loads(root.get_attribute("data-events")) == step["events"], number
    assert root.get_attribute("data-at-end") == "true"
    if trace["result"] is None:  # the trace stops before the hand ends
        assert root.get_attribute("data-over") == "false"
    else:
        assert json.loads(root.get_attribute("data-scores")) == trace["result"]["points"]
    _click(browser, browser.find_element(By.CSS_SELECTOR, ".dk-stepper .dk-back"))
    assert root.get_attribute("data-step") == str(len(trace["steps"]) - 1)
    _assert_loopback_only(browser, server)


def _spec_rule(rule_id: str) -> dict[str, Any]:
    for path in [REPO / "spec" / "common.yaml", *(REPO / "spec" / "variants").glob("*.yaml")]:
        for entry in yaml.safe_load(path.read_text(encoding="utf-8"))["rules"]:
            if entry["id"] == rule_id:
                found: dict[str, Any] = entry
                return found
    raise KeyError(rule_id)


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_an_illegal_click_shows_the_rule_in_the_page_language(browser: Any, server: str,
                                                              lang: str) -> None:
    from selenium.webdriver.common.by import By

    prefix = "" if lang == "en" else "pl/"
    # Player 0 moves first here (the page's seat): pass is refused while a tile can be placed.
    browser.get(f"{server}/{prefix}play/classic_block/#seed={SEED}&seat=both")
    root = _wait_ready(browser)
    assert "pass" not in json.loads(root.get_attribute("data-legal"))
    rules = load_rules("classic_block", {})
    plan = new_match("classic_block", {}).plan()
    sizes = None if rules.setup.hand_size is not None or plan is None else plan.hand_sizes
    state = new_hand(rules, random_deal(rules, random.Random(SEED), hand_sizes=sizes))
    problem = check_action(state, Action.parse("pass"))
    assert problem is not None
    _click(browser, browser.find_element(By.CSS_SELECTOR, '.dk-verb[data-action="pass"]'))
    entry = _spec_rule(problem[0])
    words = browser.find_element(By.CSS_SELECTOR, ".dk-refusal .dk-rule-words").text
    assert words == (entry["statement_pl"] if lang == "pl" else entry["statement"]).strip()
    link = browser.find_element(By.CSS_SELECTOR, ".dk-refusal .dk-rule-link")
    assert link.text == problem[0]
    assert link.get_attribute("href").endswith(f"/{prefix}variants/classic_block/#{problem[0]}")
    assert root.get_attribute("data-legal-count") == str(len(legal_actions(state)))
    _assert_loopback_only(browser, server)
