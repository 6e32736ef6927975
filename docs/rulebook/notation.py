"""The action notation page: the grammar and forms of ``spec/common.yaml``, with a drawing.

Engines, traces and the protocol all spell actions one way, and an engine author needs that
spelling exactly as the spec states it, so this page prints the grammar verbatim, each form
with its examples and meaning, and the order of legal actions; a board-play example is drawn
on an empty board because cell coordinates are easier seen than read.
"""

from __future__ import annotations

from functools import cache
from importlib import resources

import yaml

from dominokit.conformance.run import diagrams
from dominokit.reference import Action, load_variant, variant_ids
from dominokit.rulebook.book import NOTATION_PAGE, Book, JsonObject
from dominokit.rulebook.text import code, figure


def notation_markdown(book: Book) -> str:
    """The action notation page, from ``spec/common.yaml``."""
    here = NOTATION_PAGE
    notation = _common_yaml()["notation"]
    parts = ["# Action notation", "",
             "Every action in every game has exactly one spelling. Engines, traces and the "
             "protocol all use it, so an engine's `legal` answer can be compared with the "
             "reference as a set of strings. This page is generated from "
             "`spec/common.yaml`.", "",
             "## Grammar", "", "```text", notation["grammar"].rstrip("\n"), "```", "",
             "## The forms", ""]
    for form in notation["forms"]:
        examples = ", ".join(code(e) for e in form["examples"])
        parts += [f"### {form['name']}", "",
                  f"**Spelling.** {book.prose(form['pattern'], here)}", "",
                  f"**Examples.** {examples}", "",
                  f"**Meaning.** {book.prose(form['meaning'], here)}", ""]
        board_examples = [e for e in form["examples"] if Action.parse(e).kind == "board"]
        if board_examples:
            parts.append(_board_example(board_examples[0]))
    order = notation["sort_order"]
    parts += ["## Order of legal actions", "",
              f"Kinds in this order: {', '.join(code(k) for k in order['kinds'])}.", "",
              f"**Sort key.** {book.prose(order['key'], here)}", "",
              book.prose(order["meaning"], here), ""]
    return "\n".join(parts)


def _board_example(notation: str) -> str:
    parsed = Action.parse(notation)
    assert parsed.tile is not None and parsed.cells is not None
    variant = next(v for v in (load_variant(i) for i in variant_ids())
                   if v.data["components"]["table"]["kind"] == "board")
    table = variant.data["components"]["table"]
    placed = diagrams.BoardTile(parsed.cells, (parsed.tile.low, parsed.tile.high))
    svg = diagrams.board_svg(int(table["rows"]), int(table["cols"]), [placed],
                             title=f"The board-play {notation} on an empty board",
                             highlight=[0])
    (r1, c1), (r2, c2) = parsed.cells
    caption = (f"<code>{notation}</code>: {parsed.tile.low} on row {r1} column {c1}, "
               f"{parsed.tile.high} on row {r2} column {c2}.")
    return figure(svg, caption) + "\n"


@cache
def _common_yaml() -> JsonObject:
    text = (resources.files("dominokit.spec") / "common.yaml").read_text(encoding="utf-8")
    data: JsonObject = yaml.safe_load(text)
    return data
