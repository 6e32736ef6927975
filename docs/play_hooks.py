"""mkdocs hook: the "Play" section of the navigation, and the play pages' vendored runtime.

``on_config`` lists each game's play page (written by ``play_pages.py``) in a "Play" section
("Zagraj" in Polish). ``on_post_build`` copies the pinned Pyodide files and writes the engine
bundle into the built site (``dominokit.rulebook.playbundle``), so the play pages work with
no network; a missing Pyodide is installed with ``npm ci`` in docs/play, or the build fails
saying so.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

# After the checkout is on sys.path:
from mkdocs.exceptions import PluginError  # noqa: E402

from dominokit.rulebook import Book  # noqa: E402
from dominokit.rulebook.playbundle import PlayBuildError, vendor  # noqa: E402
from dominokit.rulebook.playpages import LABELS, play_nav  # noqa: E402

BEFORE = "Golden traces"


def on_config(config: Any) -> Any:
    """Insert the Play section before the golden traces, and name it in Polish."""
    nav = config["nav"] or []
    where = next((i for i, e in enumerate(nav) if isinstance(e, dict) and BEFORE in e),
                 len(nav))
    nav.insert(where, play_nav(Book.load()))
    i18n = config["plugins"].get("i18n")
    for language in i18n.config.languages if i18n is not None else []:
        if language.locale == "pl":
            language.nav_translations = {**(language.nav_translations or {}),
                                         LABELS["en"]["nav"]: LABELS["pl"]["nav"]}
    return config


def on_post_build(config: Any) -> None:
    """Vendor Pyodide and the engine bundle into the site."""
    try:
        vendor(Path(config["site_dir"]))
    except PlayBuildError as exc:
        raise PluginError(str(exc)) from exc
