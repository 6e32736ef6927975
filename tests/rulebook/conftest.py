"""The built rule book and the browser, once per test run for every module that needs them.

Building the book (``mkdocs build --strict``, which also vendors Pyodide and writes the play
pages' bundles) takes minutes, and a Chromium start seconds, so neither is done per module:

* ``site`` is built once per run, into the run's shared temporary folder, whichever
  pytest-xdist worker asks for it: the build starts in the background as soon as a collected
  test needs the site (tests/shared.py), so it runs beside the tests that come before, and the
  first test that needs it rarely waits. Its outcome is recorded, and every asker uses that
  build (or fails with its error). A name given in ``DOMINOKIT_SITE`` (a site already built
  from this checkout, ``mkdocs build --strict -d DIR``) is tested instead.
* ``server`` serves it on 127.0.0.1 from a thread, for the whole run (one origin, so the
  browser's cache and compiled-WebAssembly cache serve every play page after the first), and
  records every path it was asked for (``served``).
* ``generated_polish_pages`` are the Polish side's generated pages, made once.
* ``browser`` is one headless Chromium for the run, with its network shut: no host name
  resolves (the loopback server is addressed by IP) and everything not for loopback goes to
  ``proxy``, which refuses it. Each test gets it back at the desktop size, 1280 x 1000, with
  its performance log emptied, so a test reads the requests of its own pages only.

Without chromium, chromedriver or selenium the browser tests skip, except under ``CI=true``,
where a missing browser is a failure.
"""

from __future__ import annotations

import http.server
import os
import shutil
import sys
import tempfile
import threading
from collections.abc import Iterator, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any

import pytest

from tests.shared import Command, once_started, start_once

REPO = Path(__file__).resolve().parents[2]
CHROMEDRIVER = Path("/usr/bin/chromedriver")
BROWSER_FLAGS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--window-size=1280,1000")
DESKTOP_SIZE = (1280, 1000)
QUIET = {"NO_MKDOCS_2_WARNING": "1", "DISABLE_MKDOCS_2_WARNING": "true"}


BUILD = Command(
    (sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file",
     str(REPO / "mkdocs.yml"), "--site-dir", "{out}"),
    REPO, {**os.environ, **QUIET})
SITE = "rulebook-site"


def _needs_site(item: pytest.Item) -> bool:
    return "site" in getattr(item, "fixturenames", ())


def pytest_collection_finish(session: pytest.Session) -> None:
    if not os.environ.get("DOMINOKIT_SITE") and any(map(_needs_site, session.items)):
        start_once(session.config._tmp_path_factory, SITE, BUILD)  # type: ignore[attr-defined]


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site, built once per run (see the module docstring)."""
    prebuilt = os.environ.get("DOMINOKIT_SITE")
    if prebuilt:
        assert (Path(prebuilt) / "index.html").is_file(), f"no site at {prebuilt}"
        return Path(prebuilt)
    built = once_started(tmp_path_factory, SITE, BUILD)
    assert built.returncode == 0, built.stdout + built.stderr
    assert "WARNING" not in built.stderr, built.stderr
    return built.folder


def _serve(handler: type[http.server.BaseHTTPRequestHandler]) -> Iterator[str]:
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    finally:
        httpd.shutdown()
        httpd.server_close()


@pytest.fixture(scope="session")
def served() -> list[str]:
    """Every path the loopback site server was asked for this run (by a page or its worker)."""
    return []


@pytest.fixture(scope="session")
def server(site: Path, served: list[str]) -> Iterator[str]:
    """The site over HTTP on loopback; its URL ends with ``/``."""

    class Quiet(http.server.SimpleHTTPRequestHandler):
        extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                          ".wasm": "application/wasm", ".mjs": "text/javascript"}

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, directory=str(site), **kwargs)

        def log_message(self, format: str, *args: Any) -> None:
            served.append(self.path)

    yield from _serve(Quiet)


@pytest.fixture(scope="session")
def proxy() -> Iterator[str]:
    """The browser's proxy for everything not on loopback: it refuses all of it. (It is not
    asked to have seen nothing: Chromium sends its own background requests, clock, updates,
    sign-in, through it too; what a page asks for is checked in its performance log.)"""

    class Refuse(http.server.BaseHTTPRequestHandler):
        def _refuse(self) -> None:
            self.send_error(403)

        do_GET = do_POST = do_HEAD = do_CONNECT = _refuse

        def log_message(self, format: str, *args: Any) -> None:
            pass

    yield from _serve(Refuse)


def browser_missing() -> str | None:
    """Why the browser tests cannot run here, or None."""
    if shutil.which("chromium") is None:
        return "chromium is not installed"
    if not CHROMEDRIVER.is_file():
        return f"{CHROMEDRIVER} is not installed"
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed"
    return None


@pytest.fixture(scope="session")
def chromium(proxy: str) -> Iterator[Any]:
    """The run's one Chromium (use ``browser``, which hands it over reset)."""
    missing = browser_missing()
    if missing:
        if os.environ.get("CI") == "true":
            pytest.fail(f"the browser tests must run in CI: {missing}")
        pytest.skip(missing)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    for flag in (*BROWSER_FLAGS,
                 # No host name resolves: only the loopback server, addressed by IP, answers.
                 "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
                 # Whatever is not loopback (a page's requests and its workers') goes to a
                 # proxy that refuses it; Chromium never proxies loopback.
                 f"--proxy-server={proxy.rstrip('/')}"):
        options.add_argument(flag)
    profile = tempfile.mkdtemp(prefix="dominokit-chrome-")
    options.add_argument(f"--user-data-dir={profile}")
    options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
    options.add_experimental_option("perfLoggingPrefs", {"enableNetwork": True,
                                                         "enablePage": False})
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    driver.set_page_load_timeout(60)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture
def browser(chromium: Any) -> Any:
    """The run's Chromium, at the desktop size and with its performance log emptied."""
    chromium.set_window_size(*DESKTOP_SIZE)
    chromium.get_log("performance")
    return chromium


@pytest.fixture(scope="session")
def screenshots() -> Path:
    """Where the browser tests save their screenshots (``$DOMINOKIT_SCREENSHOTS``, default
    ``tmp/`` in the repository) for a reviewer, and CI's artefacts."""
    folder = Path(os.environ.get("DOMINOKIT_SCREENSHOTS") or REPO / "tmp")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture(scope="session")
def generated_polish_pages() -> Mapping[str, str]:
    """Every page ``polish_pages`` generates (path under ``docs/`` -> Markdown), read-only:
    generating them takes tens of seconds, so it is done once per run for every module that
    reads them."""
    from dominokit.rulebook import Book
    from dominokit.rulebook.polish import polish_pages

    return MappingProxyType(polish_pages(Book.load()))
