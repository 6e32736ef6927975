"""mkdocs hook: the "Games" section of the navigation, made from spec/ at every build.

``mkdocs.yml`` names the section with its first entry (the common rules); this hook replaces
the section's entries with one page per game in ``spec/variants/``, so adding a game's YAML
file adds it to the navigation without editing ``mkdocs.yml``.
"""

from __future__ import annotations

from typing import Any

from dominokit.conformance.rulebook import Book, games_nav

SECTION = "Games"


def on_config(config: Any) -> Any:
    """Fill the Games section of ``config["nav"]`` from the spec."""
    for entry in config["nav"] or []:
        if isinstance(entry, dict) and SECTION in entry:
            entry[SECTION] = games_nav(Book.load())
    return config
