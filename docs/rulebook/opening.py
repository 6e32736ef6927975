"""The page of the opening published with Pijanowski's board domino, replayed and explained.

The seed text gives the first moves of a game and their points but its picture of the board
is lost; ruling R-PIJ-12 asks for a board that earns exactly those points and for how it was
found. This page replays the golden trace of that reconstruction on the reference, explains
every score from the board (field colours, lakes) and stops the build if a move's points or a
turn's total differ from the published figures; it then shows what the independent search
tool (``docs/rulebook/pijanowski_opening.py``) finds, run at build time.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any, Final

from dominokit.conformance.traces import Trace
from dominokit.reference import Action, Variant
from dominokit.reference import board_plain as board_rules
from dominokit.rulebook.book import (
    NOTATION_PAGE,
    OPENING_PAGE,
    OPENING_TRACE,
    Book,
    variant_page,
)
from dominokit.rulebook.captions import count, say
from dominokit.rulebook.examples import Frame, frame_figure, frames
from dominokit.rulebook.i18n import EN, Lang
from dominokit.rulebook.published import fence_words, published_english
from dominokit.rulebook.rules import source_beside
from dominokit.rulebook.text import (
    cell_name,
    code,
    escape_html,
    indent,
    md,
    relative,
    tile,
)

COLOUR_NAMES: Final = ("light", "dark")
"""Names of field colours 0 and 1, as ``diagrams`` draws them."""


def _field_words(cell: Sequence[int], lang: Lang) -> str:
    r, k = board_rules.field((cell[0], cell[1]))
    colour = say(lang, f"colour.{board_rules.colour((cell[0], cell[1]))}")
    return say(lang, "op.field", row=r, field=k, colour=colour)


def placement_reason(event: Mapping[str, Any], variant: Variant, lang: Lang = EN
                     ) -> tuple[str, int]:
    """Why a board placement scored what it did (R-PIJ-05 wording) in ``lang``, and the
    points."""
    parsed = Action.parse(event["action"])
    assert parsed.tile is not None and parsed.cells is not None
    low, high = parsed.cells
    pips = parsed.tile.low + parsed.tile.high
    multiplier = int(variant.data["scoring"]["placement"]["same_field_multiplier"])
    if board_rules.same_field(low, high):
        points = multiplier * pips
        times = say(lang, "op.twice") if multiplier == 2 else \
            say(lang, "op.times", factor=multiplier)
        text = say(lang, "op.same_field", field=_field_words(low, lang), times=times,
                   factor=multiplier, pips=pips, points=points)
    else:
        low_colour, high_colour = (board_rules.colour(c) for c in (low, high))
        points = pips
        kind = "op.two_fields" if low_colour != high_colour else "op.two_fields_one_colour"
        text = say(lang, "op.across", kind=say(lang, kind), low_cell=cell_name(low),
                   low_colour=say(lang, f"colour.{low_colour}"), high_cell=cell_name(high),
                   high_colour=say(lang, f"colour.{high_colour}"), points=points)
    return text, points


def move_by_move(book: Book, variant: Variant, steps: Sequence[Frame], here: str,
                 lang: Lang = EN) -> tuple[list[str], list[int]]:
    """The opening's moves in ``lang``, each drawn with the reason for every point it scored
    (checked against the trace: the build stops on a difference), and the turns' totals."""
    table_spec = variant.data["components"]["table"]
    parts = [f"## {say(lang, 'op.moves_head')}", "",
             say(lang, "op.moves_intro", player=steps[0].player, tile=tile((0, 0)),
                 rule=book.link("R-PIJ-01", here), notation=relative(NOTATION_PAGE, here)), ""]
    turn_totals: list[int] = []
    previous_player: int | None = None
    for frame in steps:
        reasons: list[str] = []
        total = 0
        for event in frame.events:
            if event["type"] == "place":
                text, points = placement_reason(event, variant, lang)
                if points != event.get("points"):
                    raise AssertionError(f"{frame.action}: R-PIJ-05 gives {points}, the "
                                         f"trace says {event.get('points')}")
                reasons.append(f"{md(text)} ({book.link(event['rule'], here)})")
                total += points
            elif event["type"] == "lake":
                n = len(event["cells"])
                table = frame.after["table"]
                reasons.append(say(
                    lang, "op.lake", size=count(lang, n, "empty_cell"), n=n,
                    cells=", ".join(cell_name(c) for c in event["cells"]),
                    fence=fence_words(event["cells"], table["rows"], table["cols"], lang),
                    per_cell=event["points"] // n, points=event["points"])
                    + f" ({book.link(event['rule'], here)})")
                total += event["points"]
        parsed = Action.parse(frame.action)
        assert parsed.tile is not None
        same_turn = previous_player == frame.player
        if same_turn:
            turn_totals[-1] += total
        else:
            turn_totals.append(total)
        previous_player = frame.player
        placed = tile((parsed.tile.low, parsed.tile.high))
        extra = ""
        if variant.data["turn"].get("extra_tile") and \
                str(parsed.tile) == variant.data["turn"]["extra_tile"]["after"]:
            extra = say(lang, "op.extra", tile=placed,
                        rule=book.link(variant.data["turn"]["extra_tile"]["rule"], here))
        heading = say(lang, "op.heading", move=frame.number, player=frame.player, tile=placed,
                      points=total)
        title = say(lang, "op.title", move=frame.number, player=frame.player,
                    action=frame.action, points=total)
        caption = say(lang, "op.caption", move=frame.number,
                      action=f"<code>{escape_html(frame.action)}</code>", points=total,
                      second=say(lang, "op.second") if same_turn else "")
        said = say(lang, "op.goes_on", tile=placed, low_cell=cell_name(parsed.cells[0]),
                   high_cell=cell_name(parsed.cells[1]), reasons="; ".join(reasons),
                   extra=extra) if parsed.cells else ""
        parts += [f"### {heading}", "", frame_figure(frame, table_spec, title, caption, lang),
                  "", said, ""]
    return parts, turn_totals


def turns_table(steps: Sequence[Frame], turn_totals: Sequence[int], lang: Lang = EN
                ) -> list[str]:
    """Each published turn beside what the reconstructed board gives (the build stops when
    they differ)."""
    from dominokit.rulebook import pijanowski_opening as tool

    published = [turn.points for turn in tool.PUBLISHED]
    if list(turn_totals) != published:
        raise AssertionError(f"the trace's turn totals {list(turn_totals)} are not the "
                             f"published {published}")
    parts = [f"## {say(lang, 'op.turns_head')}", "", say(lang, "op.turns_table"),
             "|---|---|---|---|---|"]
    for number, (turn, got, player) in enumerate(
            zip(tool.PUBLISHED, turn_totals, _turn_players(steps), strict=True), start=1):
        tiles = " + ".join(tile(t) for t in turn.tiles)
        parts.append(f"| {number} | {player} | {tiles} | {turn.points} | {got} |")
    return parts


def opening_markdown(book: Book) -> str:
    """The published Pijanowski opening: what the text says, each move, how it was found."""
    from dominokit.rulebook import pijanowski_opening as tool

    here = OPENING_PAGE
    trace = next(t for t in book.traces if t.id == OPENING_TRACE).load()
    variant = next(v for v in book.variants if v.id == trace.variant)
    steps = frames(trace)
    rule = book.rule(trace.rules[0])
    home = relative(variant_page(variant.id), here)
    parts = [f"# The published opening of {md(variant.name)}", "",
             f"The rules of [{md(variant.name)}]({home}) were published with the first moves "
             "of a game and the points each move earned. This page replays them on a board, "
             "move by move, and says where every point comes from.", "",
             '!!! warning "The original picture is lost: this board is a reconstruction"',
             "",
             indent("The text lists the moves and their points, but the picture of the board "
                    "that went with them is lost. The board below is our reconstruction: one "
                    "of many boards on which exactly these moves score exactly these points "
                    f"under this project's rulings ({book.link(rule.id, here)})."), "",
             "## What the text says", "",
             *source_beside(rule, "The tiles the players placed in turn, with the points "
                                  "each turn scored in brackets:\n\n"
                                  + published_english(rule.quote or "",
                                                      tool.PUBLISHED))]
    moves, turn_totals = move_by_move(book, variant, steps, here)
    parts += [*moves, *turns_table(steps, turn_totals)]
    parts += ["", _search_section(book, tool, trace, here)]
    return "\n".join(parts)


def _turn_players(steps: Sequence[Frame]) -> list[int]:
    players: list[int] = []
    previous: int | None = None
    for frame in steps:
        if frame.player != previous:
            players.append(frame.player)
        previous = frame.player
    return players


@cache
def _search_reports() -> tuple[Any, Any]:
    from dominokit.rulebook import pijanowski_opening as tool

    return tool.run(tool.LAKE_RULES[0]), tool.run(tool.LAKE_RULES[1])


def _rst_to_md(text: str) -> str:
    """reStructuredText of the tool's docstring as Markdown: literals, and a paragraph ending
    in ``::`` followed by an indented literal block."""
    def block(match: re.Match[str]) -> str:
        body = "\n".join(line[4:] for line in match["body"].rstrip("\n").split("\n"))
        return f":\n\n```text\n{body}\n```\n\n"

    text = text.replace("``", "`")
    return re.sub(r"::\n\n(?P<body>(?:    .*\n|\n)+)", block, text + "\n").rstrip("\n")


def _search_section(book: Book, tool: Any, trace: Trace, here: str) -> str:
    main, other = _search_reports()
    doc = tool.__doc__ or ""
    method = doc.split("Method\n------\n", 1)[-1].split("\nRun ", 1)[0].strip()
    lines = ["## How the board was found", "",
             "A search tool written apart from the reference engine (it has its own tiny "
             "board, so the two computations check each other) tried every legal placement "
             "of the published tiles in order and kept the boards that earn exactly the "
             "published points. This is its method, from its own documentation:", "",
             _rst_to_md(method), "",
             "What it finds at this build of the rule book:", "",
             "| Lake rule | Boards that fit | Up to symmetry | [5|5][5|6][6|4][4|4] in one row "
             "in all |".replace("[5|5][5|6][6|4][4|4]", md("[5|5][5|6][6|4][4|4]")),
             "|---|---|---|---|"]
    for report in (main, other):
        lines.append(f"| {code(report.lake_rule)} | {len(report.solutions)} | "
                     f"{report.classes} | {'yes' if report.claim_holds else 'no'} |")
    lines += ["",
              "Run it yourself with "
              "`python -m dominokit.rulebook.pijanowski_opening` "
              "(add `--json` for the data, `--lake-rule newly_enclosed` for the other reading "
              f"of {book.link('R-PIJ-06', here)}).", "",
              f"The moves are the golden trace {code(trace.id)}, so every engine that passes "
              f"the case {code('golden/' + trace.id)} scores this board the same way. The "
              "trace's own note:", ""]
    lines += ["> " + book.prose(line, here) if line else ">"
              for line in (trace.note or "").split("\n")]
    return "\n".join(lines) + "\n"
