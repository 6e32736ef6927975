"""mkdocs-gen-files script: write the rule book's generated pages at build time.

Everything a page says about the rules comes from ``spec/`` and the golden traces through
``dominokit.conformance.rulebook``; this script only hands its pages to mkdocs, so no rule is
ever copied into ``docs/`` by hand.
"""

from __future__ import annotations

import mkdocs_gen_files
from dominokit.conformance.rulebook import build_pages

for path, text in build_pages().items():
    with mkdocs_gen_files.open(path, "w") as page:
        page.write(text)
