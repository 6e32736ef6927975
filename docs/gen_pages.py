"""mkdocs-gen-files script: write the rule book's generated pages at build time.

Everything a page says about the rules comes from ``spec/`` and the golden traces through
``dominokit.rulebook`` (``docs/rulebook/``); this script only hands its pages to mkdocs, so no
rule is ever copied into ``docs/`` by hand. The book describes the checkout it is built in: the
repository root goes first on ``sys.path``, so its ``dominokit/`` folder maps the builder (which
the wheel does not ship) and the spec it reads to this checkout, ahead of any installed copy.

Lists that depend on which games exist (the home page's table of games, the rule-id
prefixes) are made from ``spec/`` too: a hand-written page holds a marker such as
``<!-- dominokit:games -->`` where the list goes, and it is filled in here.

Hand-written pages link to the spec as files of the repository (``../../spec/protocol.md``), so
that their links work when read in a checkout; on the site those files are published as
generated pages, so each such link is pointed at its page here.
"""

from __future__ import annotations

import posixpath
import re
import sys
from pathlib import Path

import mkdocs_gen_files

DOCS = Path(__file__).resolve().parent
sys.path.insert(0, str(DOCS.parent))

# After the checkout is on sys.path:
from dominokit.rulebook import Book, build_pages, fill_markers  # noqa: E402
from dominokit.rulebook.polish import GAMES_MARKER, games_list, polish_pages  # noqa: E402

PUBLISHED = {
    "spec/protocol.md": "engines/protocol.md",
    "spec/schema/protocol.schema.json": "engines/protocol.md#message-reference",
    "spec/schema/trace.schema.json": "contributing/trace-format.md",
    "spec/common.yaml": "variants/common.md",
}
"""Repository files the site publishes as a page (variant files: ``_site_target``)."""
LINK = re.compile(r"\]\((?P<target>\.\./[^)#\s]+)(?P<anchor>#[^)\s]*)?\)")


def _site_target(repo_path: str) -> str | None:
    """The page (and anchor) that publishes ``repo_path`` on the site, or None."""
    if repo_path in PUBLISHED:
        return PUBLISHED[repo_path]
    found = re.fullmatch(r"spec/variants/([a-z0-9_]+)\.yaml", repo_path)
    return f"variants/{found.group(1)}.md" if found else None


def site_links(page: str, text: str) -> str:
    """``text`` of docs page ``page`` with its links to published repository files pointed at
    their pages."""
    here = posixpath.dirname(f"docs/{page}")

    def point(match: re.Match[str]) -> str:
        repo_path = posixpath.normpath(posixpath.join(here, match["target"]))
        target = _site_target(repo_path)
        if target is None:
            return match[0]
        path, _, anchor = target.partition("#")
        anchor = match["anchor"] or (f"#{anchor}" if anchor else "")
        return f"]({posixpath.relpath(path, posixpath.dirname(page))}{anchor})"

    return LINK.sub(point, text)


BOOK = Book.load()

for path, text in {**build_pages(BOOK), **polish_pages(BOOK)}.items():
    with mkdocs_gen_files.open(path, "w") as page:
        page.write(text)

for source in sorted(DOCS.rglob("*.md")):
    name = source.relative_to(DOCS).as_posix()
    text = source.read_text(encoding="utf-8")
    filled = fill_markers(BOOK, name, text)
    if GAMES_MARKER in filled:
        filled = filled.replace(GAMES_MARKER, games_list(BOOK, name).rstrip("\n"))
    published = site_links(name, filled)
    if published != text:
        with mkdocs_gen_files.open(name, "w") as page:
            page.write(published)
