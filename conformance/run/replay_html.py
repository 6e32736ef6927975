"""The page of ``dominokit trace replay --html FILE``: each replayed trace with its verdict,
its hand's steps (the divergent one marked), and the table drawn at the first divergent step,
the reference's next to the engine's, by the rule book's own drawing code (``diagrams``).

The reference's table comes from replaying the trace's deal and actions up to that step; the
engine's from asking the engine again, after the verdict, for its state at the same step (a
fresh hand from the same deal, the same actions), so a picture never changes the verdict. A
trace that is not a standalone hand (a match, a perft position) is listed with its verdict.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from typing import Any

from dominokit.conformance.run import picture
from dominokit.conformance.run.html import STYLE

JsonObject = dict[str, Any]


@dataclass(frozen=True)
class Replayed:
    """One replayed file: its path, verdict text, variant, the hand's actions, the step of the
    first divergence (None: it matched), and the two states at that step when known."""

    path: str
    status: str
    text: str
    variant: str | None = None
    actions: tuple[str, ...] = ()
    step: int | None = None
    reference: JsonObject | None = None
    engine: JsonObject | None = None


def render(replayed: Sequence[Replayed], engine: str) -> str:
    """The page."""
    parts = ["<!doctype html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
             f"<title>dominokit trace replay: {escape(engine)}</title>",
             f"<style>{STYLE}.step.divergent{{color:#c92a2a;font-weight:bold}}</style>",
             "</head>", "<body>", f"<h1>dominokit trace replay: {escape(engine)}</h1>"]
    for item in replayed:
        parts.append(_entry(item))
    parts += ["</body>", "</html>"]
    return "\n".join(parts) + "\n"


def _entry(item: Replayed) -> str:
    word = {"passed": "matched", "failed": "diverged"}.get(item.status, item.status)
    parts = [f'<article class="failure" data-status="{escape(item.status)}">',
             f"<h2>{escape(word)} <code>{escape(item.path)}</code></h2>",
             f"<pre>{escape(item.text)}</pre>"]
    figures = []
    if item.variant is not None:
        for caption, state in (("the reference's table", item.reference),
                               ("the engine's table", item.engine)):
            svg = picture.draw(state, item.variant, caption) if state is not None else ""
            if svg:
                figures.append(f"<figure>{svg}<figcaption>{escape(caption)}"
                               "</figcaption></figure>")
    if figures:
        where = ("at the start of the hand" if item.step == 0 else
                 f"after {item.step} action(s)" if item.step is not None else "at the end")
        parts.append(f"<p>The table {where}:</p>")
        parts.append(f'<div class="diagrams">{"".join(figures)}</div>')
    if item.actions:
        parts.append("<ol>")
        for number, action in enumerate(item.actions, 1):
            mark = " divergent" if item.step is not None and number == max(item.step, 1) \
                else ""
            parts.append(f'<li class="step{mark}"><code>{escape(action)}</code></li>')
        parts.append("</ol>")
    parts.append("</article>")
    return "\n".join(parts)
