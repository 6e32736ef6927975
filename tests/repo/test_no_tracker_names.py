"""The product speaks only of itself: no file names an issue tracker's numbers.

Code, docs and data are read by people who never saw the tracker; "issue 10" in a docstring
or a page tells them nothing and goes stale when the tracker moves. The test reads every
tracked text file of the repository (tests included, since a test's name is read too).
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
TRACKER = re.compile(r"\b(?:issue|ticket|bug)\s*#?\d+\b|(?<![\w&/])#\d{1,4}\b(?![\w;])",
                     re.IGNORECASE)
""""issue 10", "ticket #3", a bare "#12"; not HTML entities, anchors or colours."""

TEXT = {".py", ".md", ".yaml", ".yml", ".toml", ".txt", ".js", ".go", ".css", ".json"}


def tracker_mentions(text: str) -> list[str]:
    """Each mention of a tracker number in ``text``."""
    return [match.group(0) for match in TRACKER.finditer(text)]


def test_no_file_names_a_tracker_number() -> None:
    files = subprocess.run(["git", "ls-files"], cwd=REPO, capture_output=True, text=True,
                           check=True).stdout.split()
    found = []
    for name in files:
        path = REPO / name
        if path == Path(__file__).resolve():  # its own examples of what it looks for
            continue
        if path.suffix not in TEXT or path.is_symlink() or not path.is_file():
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8",
                                                     errors="replace").splitlines(), 1):
            found.extend(f"{name}:{number}: {hit}" for hit in tracker_mentions(line))
    assert not found, "\n".join(found[:40])


def test_the_pattern_finds_what_it_must_and_leaves_the_rest() -> None:
    assert tracker_mentions("the target of issue 10 (see Issue #4)") == ["issue 10", "Issue #4"]
    assert tracker_mentions("fixed in #12.") == ["#12"]
    assert tracker_mentions("colour #fff, &#39; and page.html#R-ALL-06, x#1a") == []
