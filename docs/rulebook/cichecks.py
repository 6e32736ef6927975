"""What CI checks, listed on the contributor pages from the CI script itself.

Contributors need to know what must pass before a change lands, and a hand-written list
would drift from ``.ci/run``. The script announces each step with a line ``echo "== <what>"``
followed by its command; this module reads those pairs and makes a table of them, which
``docs/gen_pages.py`` puts where a page holds the marker ``<!-- dominokit:ci-checks -->``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Final

from dominokit.rulebook.book import Book
from dominokit.rulebook.text import md

CI_SCRIPT: Final = Path(__file__).resolve().parents[2] / ".ci" / "run"
_STEP: Final = re.compile(r'^echo "== (?P<what>[^"]+)"\s*$')


def ci_steps(script: str) -> list[tuple[str, str]]:
    """(what, command) of each announced step of a CI script, in order."""
    lines = script.splitlines()
    steps: list[tuple[str, str]] = []
    for index, line in enumerate(lines):
        found = _STEP.match(line.strip())
        if found is None:
            continue
        command = next((c.strip() for c in lines[index + 1:]
                        if c.strip() and not c.strip().startswith("#")), "")
        steps.append((found["what"], command))
    return steps


def ci_table(book: Book, here: str) -> str:
    """The table of CI steps (``book`` and ``here`` unused: the list comes from ``.ci/run``)."""
    del book, here
    if not CI_SCRIPT.is_file():
        return "*(The CI script `.ci/run` is not in this checkout.)*"
    lines = ["| CI step | Command |", "|---|---|"]
    for what, command in ci_steps(CI_SCRIPT.read_text(encoding="utf-8")):
        shown = command.replace("|", "\\|").replace("`", "'")
        lines.append(f"| {md(what)} | `{shown}` |")
    return "\n".join(lines) + "\n"
