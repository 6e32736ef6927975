"""The published forms of a run: the self-contained HTML page (checked in headless Chromium),
the Markdown summary, and the shields.io badges, built for a failing engine."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
CLI = [sys.executable, "-m", "dominokit", "conform"]
MISCOUNTS = "python:tests.conformance.engines.miscounts:Miscounts"
CHROMEDRIVER = Path("/usr/bin/chromedriver")
FLAGS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--window-size=1280,1000")


@pytest.fixture(scope="module")
def published(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("published")
    run = subprocess.run([*CLI, "--engine", MISCOUNTS, "--only", "golden/poldomino/*",
                          "--only", "golden/szczerbak/*", "--only", "perft/szczerbak/*-d1",
                          "--only", "differential/szczerbak/*", "--only",
                          "differential/poldomino/default", "--only", "match/szczerbak/*",
                          "-j", "1",
                          "--json", str(out / "r.json"), "--html", str(out / "r.html"),
                          "--markdown", str(out / "r.md"), "--badges", str(out / "badges"),
                          "--report-dir", str(out / "repros")],
                         capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 1, run.stdout[-3000:] + run.stderr
    return out


def _failures(out: Path) -> list[dict[str, Any]]:
    cases = json.loads((out / "r.json").read_text())["cases"]
    return [c for c in cases if c["verdict"] == "unexpected"]


def test_the_page_is_self_contained(published: Path) -> None:
    text = (published / "r.html").read_text(encoding="utf-8")
    assert text.startswith("<!doctype html>")
    assert not re.search(r"<(script|link|img|iframe)[^>]+(src|href)=", text)
    assert "url(" not in text and "@import" not in text
    assert text.count('class="failure"') == len(_failures(published)) > 1
    assert "<svg" in text and "repro:" in text


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if shutil.which("chromium") is None or not CHROMEDRIVER.is_file():
        if os.environ.get("CI") == "true":
            pytest.fail("the browser test must run in CI: chromium or chromedriver missing")
        pytest.skip("chromium or chromedriver is not installed")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    for flag in FLAGS:
        options.add_argument(flag)
    profile = tempfile.mkdtemp(prefix="dominokit-chrome-")
    options.add_argument(f"--user-data-dir={profile}")
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def test_the_page_in_headless_chromium(published: Path, browser: Any) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    failures = _failures(published)
    browser.get((published / "r.html").as_uri())
    assert browser.title.startswith("dominokit conformance: dominokit-reference")
    assert browser.find_element(By.ID, "verdict").text == "FAILED"
    summary = browser.find_element(By.ID, "summary-all").text
    counts = json.loads((published / "r.json").read_text())["summary"]
    assert f"{counts['passed']} {counts['failed']}" in summary
    shown = browser.find_elements(By.CSS_SELECTOR, ".failure")
    assert len([f for f in shown if f.is_displayed()]) == len(failures)
    pictures = browser.find_elements(By.CSS_SELECTOR, ".failure .diagrams svg")
    assert pictures and all(p.size["width"] > 50 and p.size["height"] > 20 for p in pictures
                            if p.is_displayed())
    both = [f for f in shown if len(f.find_elements(By.CSS_SELECTOR, "figure")) == 2]
    assert both, "a state divergence shows the reference's table and the engine's"
    captions = both[0].find_elements(By.CSS_SELECTOR, "figcaption")
    assert [c.text for c in captions] == ["reference", "engine"]

    Select(browser.find_element(By.ID, "filter-variant")).select_by_value("szczerbak")
    visible = [f for f in shown if f.is_displayed()]
    assert visible and len(visible) == sum(c["variant"] == "szczerbak" for c in failures)
    assert all(f.get_attribute("data-variant") == "szczerbak" for f in visible)
    assert browser.find_element(By.ID, "shown").text == str(len(visible))
    Select(browser.find_element(By.ID, "filter-kind")).select_by_value("differential")
    assert all(f.get_attribute("data-kind") == "differential"
               for f in shown if f.is_displayed())
    Select(browser.find_element(By.ID, "filter-variant")).select_by_value("")
    Select(browser.find_element(By.ID, "filter-kind")).select_by_value("")
    assert len([f for f in shown if f.is_displayed()]) == len(failures)
    repro = shown[0].find_element(By.CSS_SELECTOR, "details.repro summary")
    repro.click()
    assert "variant:" in shown[0].find_element(By.CSS_SELECTOR, "details.repro pre").text


def test_the_page_shows_causes_when_the_report_has_them(published: Path) -> None:
    from dominokit.conformance.run import html

    data = json.loads((published / "r.json").read_text())
    data.pop("causes", None)
    assert 'id="causes"' not in html.render(data)
    first = _failures(published)[0]["id"]
    data["causes"] = [{"cause": "passes counted twice", "rule": "R-ALL-13",
                       "cases": [first]}]
    page = html.render(data)
    assert 'id="causes"' in page and "passes counted twice" in page and first in page


def test_the_markdown_summary(published: Path) -> None:
    text = (published / "r.md").read_text(encoding="utf-8")
    assert text.startswith("## dominokit conformance: dominokit-reference")
    assert "FAILED" in text.splitlines()[0]
    assert "| **all** |" in text and "| szczerbak |" in text
    for case in _failures(published):
        assert f"`{case['id']}`" in text


def test_a_badge_per_variant_for_shields_io(published: Path) -> None:
    badges = {p.stem: json.loads(p.read_text()) for p in (published / "badges").glob("*.json")}
    assert set(badges) == {"poldomino", "szczerbak"}
    for variant, badge in badges.items():
        assert set(badge) == {"schemaVersion", "label", "message", "color"}
        assert badge["schemaVersion"] == 1 and variant in badge["label"]
        assert badge["color"] in ("red", "orange")
        assert re.fullmatch(r"\d+/\d+ passed", badge["message"])
