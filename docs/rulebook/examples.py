"""Worked examples: golden traces replayed on the reference, told in words and drawn.

A rule is easiest to check on a hand played out, and the bundled ``seed-*`` and
``published-*`` traces are hands whose arithmetic was checked by hand, so each is replayed
move by move on the reference engine: every step in words, the table drawn with
``diagrams`` after each change, the result's scoring terms with their rules. Replaying (not
reading the trace's expectations) keeps the states between moves, which the drawings need.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from dominokit.conformance.traces import Trace, leading_comments, reference_engine
from dominokit.conformance.traces.model import Step
from dominokit.conformance.traces.replay import EngineLike
from dominokit.reference import Action, Variant
from dominokit.rulebook import diagrams
from dominokit.rulebook.book import TRACE_FORMAT_PAGE, Book, JsonObject, TraceInfo
from dominokit.rulebook.chainrows import chain_rows
from dominokit.rulebook.coverage import trace_page
from dominokit.rulebook.text import (
    bracket,
    cell_name,
    code,
    escape_html,
    figure,
    indent,
    md,
    relative,
    tile,
)


def _players(values: Sequence[Any]) -> str:
    return ", ".join(str(v) for v in values)


@dataclass(frozen=True)
class Frame:
    """One step of a replayed trace: the action, its events, the states around it."""

    number: int
    player: int
    action: str
    events: tuple[JsonObject, ...]
    before: JsonObject
    after: JsonObject
    anchor: int
    lakes: tuple[tuple[int, int], ...]


def frames(trace: Trace) -> list[Frame]:
    """Replay a hand trace on the reference and keep every state.

    ``anchor`` follows the opening tile of a chain (plays at the left end push it right);
    ``lakes`` are the lake cells scored so far that are still empty.
    """
    if trace.kind != "hand":
        raise ValueError(f"{trace.id} is a match trace; only hand traces are drawn")
    engine = reference_engine()
    spec = trace.hands[0]
    state = engine.new_hand(trace.variant, dict(trace.options), dict(spec.deal))
    return play_steps(engine, spec.steps, state)


def play_steps(engine: EngineLike, steps: Sequence[Step], state: JsonObject) -> list[Frame]:
    """Apply ``steps`` to ``engine`` (whose hand is in ``state``) and keep every state: the
    frames of one hand, whether it stands alone or is one hand of a match."""
    out: list[Frame] = []
    anchor = 0
    water: set[tuple[int, int]] = set()
    for number, step in enumerate(steps, start=1):
        if step.player is None or step.refused is not None:
            break  # a refused last step changes nothing: there is no frame to draw
        events = engine.apply(step.action)
        after = engine.state()
        parsed = Action.parse(step.action)
        if parsed.kind == "chain" and parsed.end == "L":
            anchor += 1
        for event in events:
            if event["type"] == "lake":
                water.update((r, c) for r, c in event["cells"])
        covered = {(r, c) for p in after["table"].get("placements", []) for r, c in p["cells"]}
        water -= covered
        out.append(Frame(number, step.player, step.action, tuple(events), state, after,
                         anchor, tuple(sorted(water))))
        state = after
    return out


def _end_word(table_spec: Mapping[str, Any], end: str) -> str:
    if table_spec.get("ends") == 1:
        return "the open end"
    return "the left end" if end == "L" else "the right end"


def describe(frame: Frame, table_spec: Mapping[str, Any]) -> str:
    """What happened in one step, in words (Markdown)."""
    parsed = Action.parse(frame.action)
    table = frame.after["table"]
    parts: list[str] = []
    if parsed.kind == "opening" and parsed.tile is not None:
        parts.append(f"opens with {tile((parsed.tile.low, parsed.tile.high))}: the ends show "
                     f"{table['left']} and {table['right']}")
    elif parsed.kind == "chain" and parsed.tile is not None:
        shown = table["left"] if parsed.end == "L" else table["right"]
        where = _end_word(table_spec, parsed.end or "R")
        parts.append(f"plays {tile((parsed.tile.low, parsed.tile.high))} on {where}, its "
                     f"{parsed.touch} touching; the end now shows {shown}")
    elif parsed.kind == "board" and parsed.tile is not None and parsed.cells is not None:
        (low, high) = parsed.cells
        parts.append(f"places {tile((parsed.tile.low, parsed.tile.high))}: "
                     f"{parsed.tile.low} on {cell_name(low)}, "
                     f"{parsed.tile.high} on {cell_name(high)}")
    for event in frame.events:
        kind = event["type"]
        if kind == "draw":
            parts.append(f"draws {md(bracket(event['tile']))}")
        elif kind == "pass":
            parts.append("passes")
        elif kind == "stop":
            parts.append("stops (no extra tile)")
        elif kind == "lake":
            cells = ", ".join(cell_name(c) for c in event["cells"])
            size = len(event["cells"])
            parts.append(f"closes a lake of {size} cell{'s' if size > 1 else ''} ({cells})")
        elif kind == "end":
            parts.append("the hand ends: " + result_words(event["result"]))
    return "; ".join(parts)


def _points(frame: Frame) -> int | None:
    scored = [e["points"] for e in frame.events if e["type"] in ("place", "lake")
              and "points" in e]
    return sum(scored) if scored else None


_REASONS: Final = {
    "domino": "by domino",
    "block": "by block",
    "mutual_pass": "after two passes in a row",
}


def result_words(result: Mapping[str, Any]) -> str:
    """A hand result in one sentence."""
    reason = _REASONS.get(result["reason"], md(result["reason"]))
    if result["winner"] is None:
        head = f"nobody wins (ended {reason})"
    else:
        head = f"player {result['winner']} wins {reason}"
    return f"{head}; points {_players(result['points'])}, pips left {_players(result['pips'])}"


_TERM_WORDS: Final = {
    "opponent_pips": "opponent's pips left",
    "own_pips": "own pips left",
    "last_tile_bonus": "last-tile bonus",
    "catch": "catch",
    "placement_points": "placement and lake points",
}


def result_table(book: Book, result: Mapping[str, Any], here: str) -> str:
    """The scoring terms of a result as a table (player, points, what, rule)."""
    lines = [f"**Result:** {result_words(result)}.", ""]
    if result["terms"]:
        lines += ["| Player | Points | For | Rule |", "|---|---|---|---|"]
        for term in result["terms"]:
            what = _TERM_WORDS.get(term["term"], md(term["term"]))
            lines.append(f"| {term['player']} | {term['points']:+d} | {what} | "
                         f"{book.link(term['rule'], here)} |")
        lines.append("")
    return "\n".join(lines)


def frame_figure(frame: Frame, table_spec: Mapping[str, Any], title: str, caption: str) -> str:
    """The table after ``frame`` drawn as a captioned figure: the tile just placed outlined,
    the lakes scored so far marked; ``title`` is the drawing's accessible name."""
    table = frame.after["table"]
    if table["kind"] == "board":
        highlight = [len(table["placements"]) - 1]
    else:
        parsed = Action.parse(frame.action)
        highlight = [0 if parsed.end == "L" else len(table["tiles"]) - 1]
        return chain_rows(frame.after, table_spec, title=title, anchor=frame.anchor,
                          caption=caption, highlight=highlight)
    svg = diagrams.state_svg(frame.after, table_spec, title=title, anchor=frame.anchor,
                             highlight=highlight, lakes=frame.lakes)
    return figure(svg, caption)


def _chain_labels(frames_: Sequence[Frame]) -> list[str]:
    """Move numbers under the tiles of the final chain (the widow marked as such)."""
    last = frames_[-1].after
    labels: list[str] = []
    if last.get("widow") is not None:
        labels.append("widow")
    order: list[str] = []
    for frame in frames_:
        parsed = Action.parse(frame.action)
        if parsed.kind in ("opening", "chain"):
            if parsed.end == "L":
                order.insert(0, str(frame.number))
            else:
                order.append(str(frame.number))
    return labels + order


def worked_example(book: Book, variant: Variant, info: TraceInfo, here: str) -> str:
    """A trace as a worked example: every step in words, the table after each placement."""
    trace = info.load()
    table_spec = variant.data["components"]["table"]
    steps = frames(trace)
    if not steps:
        return ""
    board = steps[0].after["table"]["kind"] == "board"
    lines = [f"### {md(trace.description)} {{ #{example_anchor(info)} }}", "",
             f"Trace {code(trace.id)} (conformance case {code('golden/' + trace.id)}), "
             f"covering {book.links(trace.rules, here)}.", ""]
    deal = trace.hands[0].deal
    hands = " · ".join(f"player {i}: " + " ".join(md(bracket(t)) for t in hand)
                       for i, hand in enumerate(deal["hands"]))
    lines += [f"**Deal.** {hands}."]
    if deal.get("widow"):
        x, y = deal["widow"]
        lines[-1] += f" Widow {tile((x, y))}: {x} faces player 0, {y} faces player 1."
    stock = deal.get("stock") or []
    if stock:
        shown = " ".join(md(bracket(t)) for t in stock[:6])
        more = f" and {len(stock) - 6} more" if len(stock) > 6 else ""
        lines[-1] += f" Stock, in draw order: {shown}{more}."
    if board:
        lines += ["", "| Move | Player | Action | What happens | Points |",
                  "|---|---|---|---|---|"]
    else:
        lines += ["", "| Move | Player | Action | What happens |", "|---|---|---|---|"]
    for frame in steps:
        points = _points(frame)
        row = f"| {frame.number} | {frame.player} | {code(frame.action)} | " \
              f"{describe(frame, table_spec)} |"
        lines.append(row + (f" {0 if points is None else points} |" if board else ""))
    lines.append("")
    if not board:
        lines.append("Chain games score only when the hand ends, so the moves have no points "
                     "of their own.")
        lines.append("")
    if board:
        final = steps[-1]
        title = f"{variant.name}, {trace.id}: the board after the last move, {final.action}"
        lines += [frame_figure(final, table_spec, title,
                               f"The board after move {final.number}; the last tile placed is "
                               "outlined."), ""]
    else:
        lines.append('<div class="dk-steps">')
        for frame in steps:
            if frame.after["table"] == frame.before["table"]:
                continue
            title = (f"{variant.name}, {trace.id}: the chain after move {frame.number}, "
                     f"{frame.action}")
            caption = (f"After move {frame.number}: player {frame.player} plays "
                       f"<code>{escape_html(frame.action)}</code>")
            lines.append(frame_figure(frame, table_spec, title, caption))
        lines += ["</div>", ""]
        final = steps[-1]
        title = f"{variant.name}, {trace.id}: the final chain, tiles numbered by move"
        lines += [chain_rows(final.after, table_spec, title=title, anchor=final.anchor,
                             labels=_chain_labels(steps),
                             caption="The final chain; the number under each tile is its "
                                     "move."), ""]
    result = trace.hands[0].result
    if result is not None:
        lines.append(result_table(book, result, here))
    header = _trace_header(info)
    if header:
        lines += ['??? note "The arithmetic, by hand (from the trace file)"', "",
                  indent("```text\n" + header + "\n```"), ""]
    return "\n".join(lines)


def _trace_header(info: TraceInfo) -> str:
    comments = leading_comments(info.text)
    return "\n".join(line[2:] if line.startswith("# ") else line.lstrip("#")
                     for line in comments.split("\n")).strip("\n")


def suite_traces(book: Book, variant_id: str, here: str) -> str:
    """A table of every bundled trace of a variant: what it shows and which rules."""
    rows = book.traces_of(variant_id)
    if not rows:
        return ""
    lines = ["## Golden traces of this game", "",
             "Every trace is a conformance case (`golden/<id>`) that any engine can replay, "
             "and has its own page, drawn move by move; "
             f"see [the trace format]({relative(TRACE_FORMAT_PAGE, here)}).", "",
             "| Trace | Kind | What it shows | Rules |", "|---|---|---|---|"]
    for trace in rows:
        page = relative(trace_page(trace.id), here)
        lines.append(f"| [{code(trace.id)}]({page}) | {trace.kind} | {md(trace.description)} | "
                     f"{book.links(trace.rules, here)} |")
    return "\n".join(lines) + "\n"


def example_anchor(trace: TraceInfo) -> str:
    """The anchor of a worked example: ``example-`` and the trace's file stem."""
    return "example-" + trace.id.split("/", 1)[1]
