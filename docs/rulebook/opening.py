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
from dominokit.reference import board as board_rules
from dominokit.rulebook.book import (
    NOTATION_PAGE,
    OPENING_PAGE,
    OPENING_TRACE,
    Book,
    variant_page,
)
from dominokit.rulebook.examples import Frame, frame_figure, frames
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


def _field_words(cell: Sequence[int]) -> str:
    r, k = board_rules.field((cell[0], cell[1]))
    return f"field ({r}, {k}), a {COLOUR_NAMES[board_rules.colour((cell[0], cell[1]))]} field"


def placement_reason(event: Mapping[str, Any], variant: Variant) -> tuple[str, int]:
    """Why a board placement scored what it did (R-PIJ-05 wording), and the points."""
    parsed = Action.parse(event["action"])
    assert parsed.tile is not None and parsed.cells is not None
    low, high = parsed.cells
    pips = parsed.tile.low + parsed.tile.high
    multiplier = int(variant.data["scoring"]["placement"]["same_field_multiplier"])
    if board_rules.same_field(low, high):
        points = multiplier * pips
        times = "twice" if multiplier == 2 else f"{multiplier} times"
        text = (f"both halves lie on {_field_words(low)}, so its pips count {times}: "
                f"{multiplier} × {pips} = {points}")
    else:
        colours = " and ".join(COLOUR_NAMES[board_rules.colour(c)] for c in (low, high))
        points = pips
        kind = "two fields" if colours.count("light") == 1 else "two fields of one colour"
        text = (f"it lies across {kind} ({cell_name(low)} on {colours.split(' and ')[0]}, "
                f"{cell_name(high)} on {colours.split(' and ')[1]}), so its pips count "
                f"once: {points}")
    return text, points


def opening_markdown(book: Book) -> str:
    """The published Pijanowski opening: what the text says, each move, how it was found."""
    from dominokit.rulebook import pijanowski_opening as tool

    here = OPENING_PAGE
    trace = next(t for t in book.traces if t.id == OPENING_TRACE).load()
    variant = next(v for v in book.variants if v.id == trace.variant)
    table_spec = variant.data["components"]["table"]
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
    parts += ["## Move by move", "",
              f"Player {steps[0].player} starts and the players alternate; the {tile((0, 0))} "
              "turn is two "
              f"placements. Field colours follow {book.link('R-PIJ-01', here)} (light and "
              "dark as drawn); the tile just placed is outlined in orange and lake cells are "
              "blue. Read the notation as `tile@low-half cell+high-half cell`, each cell as "
              f"`row.column` ([notation]({relative(NOTATION_PAGE, here)})).", ""]
    turn_totals: list[int] = []
    previous_player: int | None = None
    for frame in steps:
        reasons: list[str] = []
        total = 0
        for event in frame.events:
            if event["type"] == "place":
                text, points = placement_reason(event, variant)
                if points != event.get("points"):
                    raise AssertionError(f"{frame.action}: R-PIJ-05 gives {points}, the "
                                         f"trace says {event.get('points')}")
                reasons.append(f"{md(text)} ({book.link(event['rule'], here)})")
                total += points
            elif event["type"] == "lake":
                n = len(event["cells"])
                per_cell = event["points"] // n
                cells = ", ".join(cell_name(c) for c in event["cells"])
                table = frame.after["table"]
                fence = fence_words(event["cells"], table["rows"], table["cols"])
                reasons.append(f"it closes a lake of {n} empty cells ({cells}), fenced in by "
                               f"{fence}: {n} × {per_cell} = "
                               f"{event['points']} ({book.link(event['rule'], here)})")
                total += event["points"]
        parsed = Action.parse(frame.action)
        assert parsed.tile is not None
        same_turn = previous_player == frame.player
        if same_turn:
            turn_totals[-1] += total
        else:
            turn_totals.append(total)
        previous_player = frame.player
        extra = ""
        if variant.data["turn"].get("extra_tile") and \
                str(parsed.tile) == variant.data["turn"]["extra_tile"]["after"]:
            extra = (f" Placing {tile((parsed.tile.low, parsed.tile.high))} lets the same "
                     f"player place one more tile in this turn "
                     f"({book.link(variant.data['turn']['extra_tile']['rule'], here)}).")
        heading = (f"### Move {frame.number}: player {frame.player}, "
                   f"{tile((parsed.tile.low, parsed.tile.high))}, {total} points")
        title = (f"The board after move {frame.number}: player {frame.player} places "
                 f"{frame.action} for {total} points")
        caption = (f"Move {frame.number}: <code>{escape_html(frame.action)}</code>, "
                   f"{total} points" + (" (second tile of the turn)" if same_turn else ""))
        parts += [heading, "", frame_figure(frame, table_spec, title, caption), "",
                  f"{tile((parsed.tile.low, parsed.tile.high))} goes on "
                  f"{cell_name(parsed.cells[0])} and {cell_name(parsed.cells[1])}: "
                  + "; ".join(reasons) + "." + extra if parsed.cells else "", ""]
    published = [turn.points for turn in tool.PUBLISHED]
    if turn_totals != published:
        raise AssertionError(f"the trace's turn totals {turn_totals} are not the published "
                             f"{published}")
    parts += ["## Published and reconstructed, turn by turn", "",
              "| Turn | Player | Tiles | Published | This board |", "|---|---|---|---|---|"]
    players = _turn_players(steps)
    for number, (turn, got, player) in enumerate(
            zip(tool.PUBLISHED, turn_totals, players, strict=True), start=1):
        tiles = " + ".join(tile(t) for t in turn.tiles)
        parts.append(f"| {number} | {player} | {tiles} | {turn.points} | {got} |")
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
