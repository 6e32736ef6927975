"""Markdown and HTML snippets that every page of the rule book is written with.

Spec text must render exactly as written, whatever characters it holds, and the pages link to
each other by relative paths that ``mkdocs build --strict`` checks; keeping the escaping, the
tile spelling and the link arithmetic in one place means every page gets them the same way.
"""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Iterable, Sequence
from typing import Final

_MD_ESCAPE: Final = re.compile(r"([\\`*_\[\]{}#|])")


def md(text: str) -> str:
    """Plain text made safe for Markdown: it renders exactly as written."""
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return _MD_ESCAPE.sub(r"\\\1", text)


def escape_html(text: str) -> str:
    """Plain text made safe inside raw HTML (where Markdown escapes would show)."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def tile(pips: Iterable[int]) -> str:
    """A tile as the texts write it, ``[a|b]``, escaped for Markdown."""
    a, b = pips
    return md(f"[{a}|{b}]")


def bracket(notation: str) -> str:
    """A tile in notation (``2-5``) as the texts write it (``[2|5]``), not yet escaped."""
    a, b = notation.split("-")
    return f"[{a}|{b}]"


def cell_name(cell: Sequence[int]) -> str:
    """A board cell as the action notation writes it, ``row.column``."""
    return f"{cell[0]}.{cell[1]}"


def cell_words(cell: Sequence[int], lang: object) -> str:
    """A board cell as a reader of ``lang`` (a ``Lang``) reads it: ``(0, 2)`` (row, column)
    for Polish readers, who would read the notation's ``0.2`` as a decimal; ``row.column``
    as the notation writes it for English readers."""
    if getattr(lang, "code", "en") == "en":
        return cell_name(cell)
    return f"({cell[0]}, {cell[1]})"


def code(text: object) -> str:
    """An inline code span (values, notation)."""
    shown = text if isinstance(text, str) else json.dumps(text)
    return f"`{shown}`"


def relative(target: str, here: str) -> str:
    """The link from page ``here`` to page ``target`` (both under ``docs/``); empty if same."""
    if target == here:
        return ""
    return posixpath.relpath(target, posixpath.dirname(here) or ".")


def indent(text: str, prefix: str = "    ") -> str:
    """Text indented as the body of an admonition; blank lines stay empty."""
    return "\n".join(prefix + line if line.strip() else "" for line in text.split("\n"))


def figure(svg: str, caption: str) -> str:
    """An inline SVG diagram with its caption, styled by ``rulebook.css``."""
    return (f'<figure class="dk-figure">{svg}<figcaption>{caption}</figcaption></figure>')
