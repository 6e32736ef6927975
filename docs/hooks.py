"""mkdocs hook: the "Games" section of the navigation, made from spec/ at every build.

``mkdocs.yml`` names the section with its first entry (the common rules); this hook replaces
the section's entries with one page per game in ``spec/variants/``, so adding a game's YAML
file adds it to the navigation without editing ``mkdocs.yml``. Like ``gen_pages.py`` it puts the
repository root first on ``sys.path``: the book is built from its own checkout.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

# After the checkout is on sys.path:
from dominokit.rulebook import Book, games_nav  # noqa: E402

SECTION = "Games"


def on_config(config: Any) -> Any:
    """Fill the Games section of ``config["nav"]`` from the spec."""
    for entry in config["nav"] or []:
        if isinstance(entry, dict) and SECTION in entry:
            entry[SECTION] = games_nav(Book.load())
    return config
