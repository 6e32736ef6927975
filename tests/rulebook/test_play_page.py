"""The play pages: the reference engine runs in the built rule book, in a real browser.

The site is built once for the run (``mkdocs build --strict``, which vendors Pyodide from
docs/play's pinned npm package and writes the engine bundles; ``tests/rulebook/conftest.py``)
and served by a thread on 127.0.0.1 only. Debian's headless Chromium opens it through Selenium
with its network limited to that server: ``--host-resolver-rules`` resolves every host name
to nothing (so no CDN or other host can be reached; the loopback server is addressed by IP),
and ``--proxy-server`` sends every request not for loopback, the page's and its engine
worker's alike, to a local proxy that refuses it. So the page can only become ready from the
loopback server's files; a test also checks that the page's own requests (its performance
log) were all to that server and that the engine's files were served by it. One test opens
the built site as files, with no server at all, as a reader who downloaded the book does.

What is compared comes from outside the page: a hand played by clicking is replayed on the
Python reference with the same deal and choices; a trace is stepped and each step held against
the trace file; a refusal's words are held against the spec's YAML.
Without chromium and chromedriver the browser tests skip, except under ``CI=true``.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import json
import random
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
SEED = 7
READY_SECONDS = 90
"""Generous: two cores shared with other builds; a slow start is reported by the bench,
not failed here."""


def test_site_vendors_the_runtime_and_the_engine(site: Path) -> None:
    for name in ("pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip",
                 "pyodide-lock.json"):
        assert (site / "play" / "pyodide" / name).is_file(), name
    for name in ("engine.zip", "engine-worker.js", "engine-core.js", "engine-file.js"):
        assert (site / "play" / name).is_file(), name
    for variant in variant_ids():
        for prefix in ("", "pl/"):
            page = (site / prefix / "play" / variant / "index.html").read_text("utf-8")
            assert 'id="dk-play"' in page and "play/play.js" in page
    # Pyodide is loaded by the play pages only: the game pages do not mention it.
    assert "pyodide" not in (site / "variants" / "poldomino" / "index.html").read_text("utf-8")


def test_the_file_bundle_holds_the_files_a_file_page_reads(site: Path) -> None:
    """file-bundle.js, decoded as engine-file.js decodes it, is byte for byte the vendored
    interpreter, standard library, package lock and engine bundle."""
    text = (site / "play" / "file-bundle.js").read_text("ascii")
    prefix = "self.dkFileBundle = "
    body = text[text.index(prefix) + len(prefix):].rstrip().removesuffix(";")
    bundle = json.loads(body)
    assert sorted(bundle) == sorted(["pyodide/pyodide.asm.wasm", "pyodide/python_stdlib.zip",
                                     "pyodide/pyodide-lock.json", "engine.zip"])
    for name, (encoding, data) in bundle.items():
        raw = base64.b64decode(data, validate=True)
        assert encoding in ("gzip", "identity"), name
        assert (gzip.decompress(raw) if encoding == "gzip" else raw) == \
            (site / "play" / name).read_bytes(), name
    assert bundle["pyodide/pyodide.asm.wasm"][0] == "gzip"  # it shrinks to a third


# ---------------------------------------------------------------------------- browser


def _requests(driver: Any) -> list[str]:
    urls = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message.get("method") == "Network.requestWillBeSent":
            urls.append(message["params"]["request"]["url"])
    return urls


def _assert_loopback_only(driver: Any, server: str, served: list[str]) -> None:
    """The page asked nothing of any other host, and the engine's files (fetched by its
    worker, whose requests the page's log does not show) came from the loopback server."""
    outside = [u for u in _requests(driver) if not u.startswith((server, "data:", "blob:"))]
    assert outside == [], outside
    for path in ("/play/engine.zip", "/play/pyodide/pyodide.asm.wasm",
                 "/play/pyodide/python_stdlib.zip"):
        assert path in served, path


def _root(driver: Any) -> Any:
    from selenium.webdriver.common.by import By

    return driver.find_element(By.ID, "dk-play")


WAIT_ON_ROOT = """
const [condition, seconds, done] = arguments;
const root = document.getElementById('dk-play');
const met = () => root && new Function('root', 'return ' + condition)(root);
if (met()) { done(true); return; }
const timer = setTimeout(() => { watch.disconnect(); done(false); }, seconds * 1000);
const watch = new MutationObserver(() => {
  if (met()) { clearTimeout(timer); watch.disconnect(); done(true); }
});
watch.observe(root, { attributes: true });
"""
"""Answers once ``condition`` (a JavaScript expression on ``root``, the page's play root)
holds, or false after ``seconds``: the page is watched, not polled, so a test waits exactly as
long as the engine takes."""


def _wait_on_root(driver: Any, condition: str, seconds: float) -> bool:
    driver.set_script_timeout(seconds + 10)
    return bool(driver.execute_async_script(WAIT_ON_ROOT, condition, seconds))


def _wait_ready(driver: Any) -> Any:
    _wait_on_root(driver, "['ready', 'error'].includes(root.dataset.state) && "
                  "root.dataset.busy === 'false'", READY_SECONDS)
    root = _root(driver)
    assert root.get_attribute("data-state") == "ready", root.text
    assert root.get_attribute("data-legal-count") is not None
    return root


def _click(driver: Any, element: Any) -> None:
    """Click and wait for the page's answer: the engine runs in a worker (on the page's thread
    from file://), and the root's ``data-version`` moves once the page has drawn what it
    returned."""
    before = _root(driver).get_attribute("data-version")
    element.click()
    assert _wait_on_root(driver, f"root.dataset.version !== {json.dumps(before)} && "
                         "root.dataset.busy === 'false'", 60), "the page did not answer a click"


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


def _play_hand_by_clicks(browser: Any, variant: str) -> None:
    """On a play page dealt with ``SEED``, player 0's seat, the first-legal opponent: click the
    first highlighted action until the hand is over, then hold the score and its terms against
    the reference playing the same clicks."""
    from selenium.webdriver.common.by import By

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


@pytest.mark.parametrize("variant", variant_ids())
def test_a_whole_hand_played_by_clicks_scores_as_the_reference(
        browser: Any, server: str, served: list[str], variant: str) -> None:
    browser.get(f"{server}play/{variant}/#seed={SEED}&opponent=first&seat=0")
    _play_hand_by_clicks(browser, variant)
    _assert_loopback_only(browser, server, served)


FILE_VARIANT = "pijanowski"


def test_a_hand_plays_from_the_built_site_opened_as_a_file(
        browser: Any, site: Path, served: list[str]) -> None:
    """The built book opened from disk, no server at all: Chromium lets a file:// page start
    no worker and fetch no file, so the page runs the engine on its own thread from the
    file bundle. It gets ready, answers clicks and scores a whole hand as the reference."""
    asked = len(served)
    page = site / "play" / FILE_VARIANT / "index.html"
    browser.get(f"{page.as_uri()}#seed={SEED}&opponent=first&seat=0")
    assert browser.execute_script("return location.protocol") == "file:"
    _play_hand_by_clicks(browser, FILE_VARIANT)
    requests = _requests(browser)
    outside = [u for u in requests if not u.startswith(("file://", "data:", "blob:"))]
    assert outside == [], outside
    play = (site / "play").as_uri() + "/"
    for name in ("engine-file.js", "file-bundle.js", "pyodide/pyodide.asm.js",
                 "pyodide/pyodide.js", "engine-core.js"):
        assert play + name in requests, name
    assert play + "engine-worker.js" not in requests
    assert len(served) == asked, served[asked:]  # the loopback server was not asked


def _trace(trace_id: str) -> dict[str, Any]:
    variant, slug = trace_id.split("/")
    path = REPO / "conformance" / "traces" / variant / f"{slug}.yaml"
    data: dict[str, Any] = yaml.safe_load(path.read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize("trace_id", ["poldomino/catch-double-blank",
                                      "pijanowski/double-blank-stop-and-pass"])
def test_a_golden_trace_steps_to_its_end_as_written(browser: Any, server: str,
                                                    served: list[str], trace_id: str) -> None:
    from selenium.webdriver.common.by import By

    trace = _trace(trace_id)
    browser.get(f"{server}traces/{trace_id}/")
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
    _assert_loopback_only(browser, server, served)


def _spec_rule(rule_id: str) -> dict[str, Any]:
    for path in [REPO / "spec" / "common.yaml", *(REPO / "spec" / "variants").glob("*.yaml")]:
        for entry in yaml.safe_load(path.read_text(encoding="utf-8"))["rules"]:
            if entry["id"] == rule_id:
                found: dict[str, Any] = entry
                return found
    raise KeyError(rule_id)


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_an_illegal_click_shows_the_rule_in_the_page_language(
        browser: Any, server: str, served: list[str], lang: str) -> None:
    from selenium.webdriver.common.by import By

    prefix = "" if lang == "en" else "pl/"
    # Player 0 moves first here (the page's seat): pass is refused while a tile can be placed.
    browser.get(f"{server}{prefix}play/classic_block/#seed={SEED}&seat=both")
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
    _assert_loopback_only(browser, server, served)
