"""A picture beside every hard rule, drawn from the golden traces the suite replays.

Readers learn the lake rule, the widow's set-up, a pass, the extra tile after [0|0] and a
schedule of hand sizes from a picture far sooner than from their statements, and a picture
must never show what the rules do not. So every picture here is a position of a bundled golden
trace, replayed on the reference (``examples.frames``), chosen by what the position shows (a
one-cell lake on the edge, a 4-cell lake, a 5-cell empty area the new tile closes that scores
nothing, a lake whose empty neighbour touches it only at a corner, a pass, the second tile of a
[0|0] turn) or drawn from the game's own data (the widow of a deal, the schedule of rounds).

Which rule a picture stands under is read from the mechanics the YAML names (``scoring.lakes``,
``turn.opening`` with the widow, ``turn.pass``, ``turn.extra_tile``, a ``match`` in rounds),
never from the game's id, so a new game with these mechanics gets its pictures for free.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import replace
from functools import cache
from typing import Any

from dominokit.conformance.run import diagrams
from dominokit.reference import Action, Variant
from dominokit.reference import board_plain as board_rules
from dominokit.rulebook.book import Book, TraceInfo
from dominokit.rulebook.captions import count, phase_words, say
from dominokit.rulebook.card import game_name
from dominokit.rulebook.examples import Frame, frame_figure, frames
from dominokit.rulebook.i18n import Lang
from dominokit.rulebook.optionnames import option_label, value_label
from dominokit.rulebook.reasons import why_legal
from dominokit.rulebook.sidebyside import option_pairs
from dominokit.rulebook.text import bracket, cell_words, escape_html, figure

Cell = tuple[int, int]
_DIAGONALS = ((1, 1), (1, -1), (-1, 1), (-1, -1))


@cache
def _frames(info: TraceInfo) -> tuple[Frame, ...]:
    return tuple(frames(info.load()))


def _hands(book: Book, variant: Variant) -> Iterator[tuple[TraceInfo, Frame]]:
    """Every move of the game's hand traces, on boards of the game's own size first (a 12 x 12
    board of the two-set option is looked at last)."""
    size = variant.data["components"]["table"]
    infos = [t for t in book.traces_of(variant.id) if t.kind == "hand"]
    for info in sorted(infos, key=lambda t: ("-set" in t.id, t.id)):
        for frame in _frames(info):
            table = frame.after["table"]
            if table["kind"] == "board" and (table["rows"], table["cols"]) != (
                    size.get("rows"), size.get("cols")):
                continue
            yield info, frame


def _grid(table: Mapping[str, Any]) -> board_rules.Grid:
    grid = board_rules.empty_grid(table["rows"], table["cols"])
    for placement in table["placements"]:
        (a, b) = placement["cells"]
        grid = board_rules.place(grid, ((a[0], a[1]), (b[0], b[1])), tuple(placement["pips"]))
    return grid


def _lakes(frame: Frame) -> list[tuple[Cell, ...]]:
    return [tuple((int(r), int(c)) for r, c in e["cells"]) for e in frame.events
            if e["type"] == "lake"]


def _on_edge(cells: tuple[Cell, ...], rows: int, cols: int) -> bool:
    return any(r in (0, rows - 1) or c in (0, cols - 1) for r, c in cells)


def _five_closed(frame: Frame, max_cells: int) -> tuple[Cell, ...] | None:
    """An empty area of ``max_cells`` + 1 cells next to the tile just placed: closed in like
    a lake, but one cell too big to be one."""
    table = frame.after["table"]
    grid = _grid(table)
    new = [tuple(c) for c in table["placements"][-1]["cells"]]
    near = {n for cell in new for n in board_rules.neighbours(grid, (cell[0], cell[1]))}
    for region in board_rules.regions(grid):
        if len(region) == max_cells + 1 and region & near:
            return tuple(sorted(region))
    return None


def _corner_gap(frame: Frame) -> tuple[tuple[Cell, ...], Cell] | None:
    """A lake this move scored and an empty cell outside it that touches it only at a
    corner: the two are separate areas, so the lake is closed."""
    table = frame.after["table"]
    grid = _grid(table)
    for lake in _lakes(frame):
        cells = set(lake)
        for r, c in lake:
            for dr, dc in _DIAGONALS:
                n = (r + dr, c + dc)
                if 0 <= n[0] < table["rows"] and 0 <= n[1] < table["cols"] and \
                        grid[n[0]][n[1]] is None and n not in cells:
                    return lake, n
    return None


def _board(frame: Frame, variant: Variant, title: str, caption: str, *,
           lakes: tuple[Cell, ...] = (), dry: tuple[Cell, ...] = (),
           highlight: tuple[int, ...] = ()) -> str:
    table = frame.after["table"]
    marked = highlight or (len(table["placements"]) - 1,)
    svg = diagrams.board_svg(table["rows"], table["cols"], diagrams.board_tiles(table),
                             title=title, lakes=lakes, highlight=marked, dry=dry)
    return figure(svg, caption)


def _code(text: str) -> str:
    """A name from the suite (a trace id) inside a picture's caption, as code."""
    return f"<code>{escape_html(text)}</code>"


def _tile_html(a: int, b: int) -> str:
    """A tile as the texts write it, inside a picture's caption (raw HTML, not Markdown)."""
    return escape_html(f"[{a}|{b}]")


def _names(cells: tuple[Cell, ...], lang: Lang) -> str:
    return ", ".join(cell_words(c, lang) for c in cells)


def lake_pictures(book: Book, variant: Variant, lang: Lang) -> list[str]:
    """The lake rule in pictures: a one-cell lake on the edge, a four-cell lake, a five-cell
    area that is not a lake, a lake beside an empty cell that touches it only at a corner, and
    one position under each value of the lake option."""
    lakes = variant.data["scoring"]["lakes"]
    max_cells = int(lakes["max_cells"])
    game = game_name(variant, lang)
    found: dict[str, str] = {}
    for info, frame in _hands(book, variant):
        table = frame.after["table"]
        rows, cols = table["rows"], table["cols"]
        scored = _lakes(frame)
        where = say(lang, "pic.where", trace=_code(info.id), move=frame.number)
        if "edge" not in found:
            edge = [lake for lake in scored if len(lake) == 1 and _on_edge(lake, rows, cols)]
            if edge:
                found["edge"] = _board(frame, variant, say(lang, "pic.edge_title", game=game),
                                       say(lang, "pic.edge", cell=_names(edge[0], lang),
                                           where=where), lakes=edge[0])
        if "four" not in found:
            four = [lake for lake in scored if len(lake) == max_cells]
            if four:
                found["four"] = _board(frame, variant, say(lang, "pic.four_title", game=game),
                                       say(lang, "pic.four", cells=_names(four[0], lang),
                                           n=max_cells,
                                           points=max_cells * int(lakes["points_per_cell"]),
                                           where=where), lakes=four[0])
        if "five" not in found and not scored:
            five = _five_closed(frame, max_cells)
            if five:
                found["five"] = _board(frame, variant, say(lang, "pic.five_title", game=game),
                                       say(lang, "pic.five", size=count(lang, len(five),
                                                                        "empty_cell"),
                                           cells=_names(five, lang), n=max_cells,
                                           where=where), dry=five)
        if "corner" not in found and scored:
            gap = _corner_gap(frame)
            if gap:
                lake, cell = gap
                found["corner"] = _board(
                    frame, variant, say(lang, "pic.corner_title", game=game),
                    say(lang, "pic.corner", cells=_names(lake, lang),
                        cell=cell_words(cell, lang), where=where), lakes=lake, dry=(cell,))
    out = [found[key] for key in ("edge", "four", "five", "corner") if key in found]
    return out + _option_pictures(book, variant, lang)


def _option_pictures(book: Book, variant: Variant, lang: Lang) -> list[str]:
    """The first move that scores differently under the two values of the lake option."""
    mode = variant.data["scoring"]["lakes"].get("mode")
    option = mode.get("option") if isinstance(mode, dict) else None
    pair = next((p for p in option_pairs(book) if p.option == option
                 and p.first.variant == variant.id), None)
    if pair is None:
        return []
    game = game_name(variant, lang)
    defaults = {name: o.default for name, o in variant.options.items()}
    out: list[str] = []
    for a, b in zip(_frames(pair.first), _frames(pair.second), strict=True):
        if a.events == b.events:
            continue
        for info, frame in ((pair.first, a), (pair.second, b)):
            value = str({**defaults, **info.load().options}[str(option)])
            lakes = tuple(c for lake in _lakes(frame) for c in lake)
            points = sum(e.get("points", 0) for e in frame.events if e["type"] == "lake")
            spec = variant.options[str(option)]
            shown = {**defaults, **info.load().options}[str(option)]
            caption = say(lang, "pic.option", option=_named(option_label(spec, lang), spec.name),
                          value=_named(value_label(spec, shown, lang), value),
                          move=frame.number, points=points, trace=_code(info.id))
            out.append(_board(frame, variant, say(lang, "pic.option_title", game=game,
                                                  value=value_label(spec, shown, lang)),
                              caption, lakes=lakes))
        break
    return ['<div class="dk-side">' + "".join(out) + "</div>"] if out else []


def _named(label: str, machine: str) -> str:
    """An option or value in a caption (HTML): its machine name in code font, after its name
    in the caption's language when it has one."""
    if label == machine:
        return f"<code>{escape_html(machine)}</code>"
    return f"„{escape_html(label)}” (<code>{escape_html(machine)}</code>)"


def widow_pictures(book: Book, variant: Variant, lang: Lang) -> list[str]:
    """The widow set-up of the first hand trace with a widow, and the chain after its first
    move: which half faces whom, and that the chain grows from the higher half."""
    table_spec = variant.data["components"]["table"]
    for info in book.traces_of(variant.id):
        if info.kind != "hand":
            continue
        trace = info.load()
        widow = trace.hands[0].deal.get("widow")
        steps = _frames(info)
        if not widow or not steps:
            continue
        x, y = int(widow[0]), int(widow[1])
        starter = 0 if x > y else 1
        svg = diagrams.widow_svg(x, y, title=say(lang, "pic.widow_title",
                                                  game=game_name(variant, lang)),
                                 names=(say(lang, "pic.player", player=0),
                                        say(lang, "pic.player", player=1)))
        first = figure(svg, say(lang, "pic.widow", tile=_tile_html(x, y), low=x,
                                high=y, starter=starter, top=max(x, y),
                                trace=_code(info.id)))
        step = steps[0]
        after = frame_figure(step, table_spec, say(lang, "pic.widow_after_title",
                                                   game=game_name(variant, lang)),
                             say(lang, "pic.widow_after", player=step.player,
                                 why=why_legal(step, variant, lang)), lang)
        return ['<div class="dk-side">' + first + after + "</div>"]
    return []


def pass_pictures(book: Book, variant: Variant, lang: Lang) -> list[str]:
    """The table at the first pass of the game's hand traces, with the passing player's hand
    and the reason the pass is allowed."""
    table_spec = variant.data["components"]["table"]
    for info, frame in _hands(book, variant):
        if Action.parse(frame.action).kind != "pass":
            continue
        hand = " ".join(escape_html(bracket(t)) for t in frame.before["hands"][frame.player])
        shown = replace(frame, after=frame.before)
        caption = say(lang, "pic.pass", move=frame.number, player=frame.player, hand=hand,
                      why=why_legal(frame, variant, lang), trace=_code(info.id))
        title = say(lang, "pic.pass_title", game=game_name(variant, lang), move=frame.number)
        if frame.before["table"]["kind"] == "board":
            return [_board(shown, variant, title, caption)]
        return [frame_figure(shown, table_spec, title, caption, lang)]
    return []


def extra_tile_pictures(book: Book, variant: Variant, lang: Lang) -> list[str]:
    """A turn of two tiles: the first move after the extra-tile tile by the same player."""
    after = variant.data["turn"]["extra_tile"]["after"]
    previous: Frame | None = None
    previous_info: TraceInfo | None = None
    for info, frame in _hands(book, variant):
        if previous is not None and previous_info == info and \
                previous.player == frame.player and \
                previous.action.split("@")[0] == after and \
                Action.parse(frame.action).kind == "board":
            n = len(frame.after["table"]["placements"])
            lakes = tuple(c for lake in _lakes(frame) for c in lake)
            low, high = (int(p) for p in after.split("-"))
            caption = say(lang, "pic.extra", tile=_tile_html(low, high),
                          player=frame.player, first=previous.number, second=frame.number,
                          trace=_code(info.id))
            return [_board(frame, variant, say(lang, "pic.extra_title",
                                                game=game_name(variant, lang)), caption,
                           lakes=lakes, highlight=(n - 2, n - 1))]
        previous, previous_info = frame, info
    return []


def schedule_pictures(variant: Variant, lang: Lang) -> list[str]:
    """The number of tiles each player gets, deal by deal, in every round and the tiebreak."""
    match = variant.data["match"]
    rows: list[tuple[str, list[list[int]]]] = [
        (phase_words(r["name"], lang), [list(d) for d in r["deals"]]) for r in match["rounds"]]
    if match.get("tiebreak"):
        rows.append((say(lang, "pic.tiebreak"), [list(d) for d in match["tiebreak"]["deals"]]))
    svg = diagrams.schedule_svg(rows, title=say(lang, "pic.schedule_title",
                                                game=game_name(variant, lang)),
                                deal_word=say(lang, "pic.deal"))
    return [figure(svg, say(lang, "pic.schedule"))]


def rule_pictures(book: Book, variant: Variant, lang: Lang) -> dict[str, list[str]]:
    """Rule id -> the pictures that stand under it, for every hard rule of ``variant``."""
    data = variant.data
    turn = data["turn"]
    out: dict[str, list[str]] = {}

    def add(rule: str | None, figures: list[str]) -> None:
        if rule and figures:
            out.setdefault(rule, []).extend(figures)

    lakes = data.get("scoring", {}).get("lakes")
    if lakes:
        add(lakes.get("rule"), lake_pictures(book, variant, lang))
    if turn["opening"]["policy"] == "widow":
        add(turn["opening"].get("rule"), widow_pictures(book, variant, lang))
    add(turn["pass"].get("rule"), pass_pictures(book, variant, lang))
    if turn.get("extra_tile"):
        add(turn["extra_tile"].get("rule"), extra_tile_pictures(book, variant, lang))
    if data["match"]["kind"] == "rounds":
        add(data["match"].get("rule"), schedule_pictures(variant, lang))
    return out


def pictures_block(figures: list[str]) -> str:
    """The pictures of one rule, as they stand under its statement."""
    if not figures:
        return ""
    return '<div class="dk-rule-pictures">' + "".join(figures) + "</div>\n"

