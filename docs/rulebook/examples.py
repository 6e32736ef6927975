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
from typing import Any

from dominokit.conformance.run import diagrams
from dominokit.conformance.traces import Trace, leading_comments, reference_engine
from dominokit.conformance.traces.engine import EngineLike
from dominokit.conformance.traces.model import Step
from dominokit.reference import Action, Variant
from dominokit.rulebook.book import TRACE_FORMAT_PAGE, Book, JsonObject, TraceInfo
from dominokit.rulebook.captions import count, say
from dominokit.rulebook.card import game_name
from dominokit.rulebook.chainrows import chain_rows
from dominokit.rulebook.coverage import trace_page
from dominokit.rulebook.i18n import EN, Lang
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


def _end_word(table_spec: Mapping[str, Any], end: str, lang: Lang) -> str:
    if table_spec.get("ends") == 1:
        return say(lang, "end.open")
    return say(lang, "end.L" if end == "L" else "end.R")


def describe(frame: Frame, table_spec: Mapping[str, Any], lang: Lang = EN) -> str:
    """What happened in one step, in words (Markdown) in ``lang``."""
    parsed = Action.parse(frame.action)
    table = frame.after["table"]
    parts: list[str] = []
    if parsed.kind == "opening" and parsed.tile is not None:
        parts.append(say(lang, "opens", tile=tile((parsed.tile.low, parsed.tile.high)),
                         left=table["left"], right=table["right"]))
    elif parsed.kind == "chain" and parsed.tile is not None:
        shown = table["left"] if parsed.end == "L" else table["right"]
        parts.append(say(lang, "plays", tile=tile((parsed.tile.low, parsed.tile.high)),
                         where=_end_word(table_spec, parsed.end or "R", lang),
                         touch=parsed.touch, shown=shown))
    elif parsed.kind == "board" and parsed.tile is not None and parsed.cells is not None:
        (low, high) = parsed.cells
        parts.append(say(lang, "places", tile=tile((parsed.tile.low, parsed.tile.high)),
                         low=parsed.tile.low, low_cell=cell_name(low),
                         high=parsed.tile.high, high_cell=cell_name(high)))
    for event in frame.events:
        kind = event["type"]
        if kind == "draw":
            parts.append(say(lang, "draws", tile=md(bracket(event["tile"]))))
        elif kind == "pass":
            parts.append(say(lang, "passes"))
        elif kind == "stop":
            parts.append(say(lang, "stops"))
        elif kind == "lake":
            parts.append(say(lang, "lake", cells=count(lang, len(event["cells"]), "cell"),
                             names=", ".join(cell_name(c) for c in event["cells"])))
        elif kind == "end":
            parts.append(say(lang, "hand_ends", result=result_words(event["result"], lang)))
    return "; ".join(parts)


def _points(frame: Frame) -> int | None:
    scored = [e["points"] for e in frame.events if e["type"] in ("place", "lake")
              and "points" in e]
    return sum(scored) if scored else None


def _known(lang: Lang, prefix: str, value: str) -> str:
    """The phrase for a value of the trace format's vocabulary (a hand's end reason, a
    scoring term), or the value itself, escaped, when the book has no phrase for it."""
    try:
        return say(lang, f"{prefix}.{value}")
    except KeyError:
        return md(value)


def result_words(result: Mapping[str, Any], lang: Lang = EN) -> str:
    """A hand result in one sentence, in ``lang``."""
    reason = _known(lang, "reason", result["reason"])
    if result["winner"] is None:
        head = say(lang, "nobody_wins", reason=reason)
    else:
        head = say(lang, "wins", player=result["winner"], reason=reason)
    return say(lang, "result_tail", head=head, points=_players(result["points"]),
               pips=_players(result["pips"]))


def result_table(book: Book, result: Mapping[str, Any], here: str, lang: Lang = EN) -> str:
    """The scoring terms of a result as a table (player, points, what, rule)."""
    lines = [say(lang, "result", words=result_words(result, lang)), ""]
    if result["terms"]:
        lines += [say(lang, "terms_head"), "|---|---|---|---|"]
        for term in result["terms"]:
            what = _known(lang, "term", term["term"])
            lines.append(f"| {term['player']} | {term['points']:+d} | {what} | "
                         f"{book.link(term['rule'], here)} |")
        lines.append("")
    return "\n".join(lines)


def frame_figure(frame: Frame, table_spec: Mapping[str, Any], title: str, caption: str,
                 lang: Lang = EN) -> str:
    """The table after ``frame`` drawn as a captioned figure: the tile just placed outlined,
    the lakes scored so far marked; ``title`` is the drawing's accessible name."""
    table = frame.after["table"]
    if table["kind"] == "board":
        highlight = [len(table["placements"]) - 1]
    else:
        parsed = Action.parse(frame.action)
        highlight = [0 if parsed.end == "L" else len(table["tiles"]) - 1]
        return chain_rows(frame.after, table_spec, title=title, anchor=frame.anchor,
                          caption=caption, highlight=highlight, lang=lang)
    svg = diagrams.state_svg(frame.after, table_spec, title=title, anchor=frame.anchor,
                             highlight=highlight, lakes=frame.lakes)
    return figure(svg, caption)


def _chain_labels(frames_: Sequence[Frame], lang: Lang = EN) -> list[str]:
    """Move numbers under the tiles of the final chain (the widow marked as such)."""
    last = frames_[-1].after
    labels: list[str] = []
    if last.get("widow") is not None:
        labels.append(say(lang, "widow_label"))
    order: list[str] = []
    for frame in frames_:
        parsed = Action.parse(frame.action)
        if parsed.kind in ("opening", "chain"):
            if parsed.end == "L":
                order.insert(0, str(frame.number))
            else:
                order.append(str(frame.number))
    return labels + order


def worked_example(book: Book, variant: Variant, info: TraceInfo, here: str,
                   lang: Lang = EN) -> str:
    """A trace as a worked example: every step in words, the table after each placement,
    every caption and label in ``lang``."""
    trace = info.load()
    table_spec = variant.data["components"]["table"]
    steps = frames(trace)
    if not steps:
        return ""
    game = game_name(variant, lang)
    board = steps[0].after["table"]["kind"] == "board"
    lines = [f"### {data_text(trace.description, lang)} {{ #{example_anchor(info)} }}", "",
             say(lang, "trace_line", trace=code(trace.id), case=code("golden/" + trace.id),
                 rules=book.links(trace.rules, here)), ""]
    deal = trace.hands[0].deal
    lines.append(say(lang, "deal", hands=dealt_hands(deal["hands"], lang)))
    if deal.get("widow"):
        x, y = deal["widow"]
        lines[-1] += say(lang, "widow_deal", tile=tile((x, y)), low=x, high=y)
    stock = deal.get("stock") or []
    if stock:
        shown = " ".join(md(bracket(t)) for t in stock[:6])
        more = say(lang, "stock_more", count=len(stock) - 6) if len(stock) > 6 else ""
        lines[-1] += say(lang, "stock", tiles=shown, more=more)
    if board:
        lines += ["", say(lang, "moves_head_points"), "|---|---|---|---|---|"]
    else:
        lines += ["", say(lang, "moves_head"), "|---|---|---|---|"]
    for frame in steps:
        points = _points(frame)
        row = f"| {frame.number} | {frame.player} | {code(frame.action)} | " \
              f"{describe(frame, table_spec, lang)} |"
        lines.append(row + (f" {0 if points is None else points} |" if board else ""))
    lines.append("")
    if not board:
        lines += [say(lang, "chain_no_points"), ""]
    if board:
        final = steps[-1]
        title = say(lang, "board_final_title", game=game, trace=trace.id, action=final.action)
        lines += [frame_figure(final, table_spec, title,
                               say(lang, "board_final", move=final.number), lang), ""]
    else:
        lines.append('<div class="dk-steps">')
        for frame in steps:
            if frame.after["table"] == frame.before["table"]:
                continue
            title = say(lang, "chain_after_title", game=game, trace=trace.id,
                        move=frame.number, action=frame.action)
            caption = say(lang, "chain_after", move=frame.number, player=frame.player,
                          action=f"<code>{escape_html(frame.action)}</code>")
            lines.append(frame_figure(frame, table_spec, title, caption, lang))
        lines += ["</div>", ""]
        final = steps[-1]
        title = say(lang, "chain_final_title", game=game, trace=trace.id)
        lines += [chain_rows(final.after, table_spec, title=title, anchor=final.anchor,
                             labels=_chain_labels(steps, lang),
                             caption=say(lang, "chain_final"), lang=lang), ""]
    result = trace.hands[0].result
    if result is not None:
        lines.append(result_table(book, result, here, lang))
    lines += arithmetic(info, lang)
    return "\n".join(lines)


def dealt_hands(hands: Sequence[Sequence[str]], lang: Lang = EN) -> str:
    """The hands of a deal in one line: each player's tiles as the texts write them."""
    return " · ".join(say(lang, "hand_of", player=i,
                          tiles=" ".join(md(bracket(t)) for t in hand))
                      for i, hand in enumerate(hands))


def data_text(text: str, lang: Lang) -> str:
    """English text taken from a trace or perft file (a description, a note), escaped; on a
    page in another language it is marked as English, for screen readers and for the test
    that no English phrase of the book's own is left on a Polish page."""
    shown = md(text)
    return shown if lang.code == EN.code else f'<span lang="en">{shown}</span>'


def arithmetic(info: TraceInfo, lang: Lang = EN) -> list[str]:
    """The trace file's own arithmetic (its leading comments), folded away under a note."""
    header = _trace_header(info)
    if not header:
        return []
    return [f'??? note "{say(lang, "arithmetic")}"', "",
            indent("```text\n" + header + "\n```"), ""]


def _trace_header(info: TraceInfo) -> str:
    comments = leading_comments(info.text)
    return "\n".join(line[2:] if line.startswith("# ") else line.lstrip("#")
                     for line in comments.split("\n")).strip("\n")


def suite_traces(book: Book, variant_id: str, here: str, lang: Lang = EN) -> str:
    """A table of every bundled trace of a variant: what it shows and which rules."""
    rows = book.traces_of(variant_id)
    if not rows:
        return ""
    lines = [f"## {say(lang, 'suite_head')}", "",
             say(lang, "suite_intro", format=relative(TRACE_FORMAT_PAGE, here)), "",
             say(lang, "traces_rules_head"), "|---|---|---|---|"]
    for trace in rows:
        page = relative(trace_page(trace.id), here)
        lines.append(f"| [{code(trace.id)}]({page}) | {say(lang, 'kind.' + trace.kind)} | "
                     f"{data_text(trace.description, lang)} | "
                     f"{book.links(trace.rules, here)} |")
    return "\n".join(lines) + "\n"


def example_anchor(trace: TraceInfo) -> str:
    """The anchor of a worked example: ``example-`` and the trace's file stem."""
    return "example-" + trace.id.split("/", 1)[1]
