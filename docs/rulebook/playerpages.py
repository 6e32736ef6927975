"""The player's own pages of each game: a whole hand worked through, a card to print on one A4
page, and (for a board game) the board at real size.

A player learns a game from one hand played to its end and scored, keeps a one-page card on
the table, and, for Pijanowski's game, has to make the board ("Planszę należy wykonać
samodzielnie"). Each page is made from ``spec/`` and the golden traces like every other page:
the worked hand is the game's longest default-option hand trace that ends (replayed and drawn
by ``examples.worked_example``, scored by its result, and followed by the game's first match
trace hand by hand), the card is the summary card, and the board is drawn by ``diagrams``
from the table the YAML names, at the size of a common domino tile.
"""

from __future__ import annotations

import re
from typing import Final

from dominokit.conformance.run import diagrams
from dominokit.reference import Variant
from dominokit.rulebook.book import READING_PAGE, Book, TraceInfo, variant_page
from dominokit.rulebook.captions import phase_words, say
from dominokit.rulebook.card import card_rows, game_name
from dominokit.rulebook.coverage import trace_page
from dominokit.rulebook.credits import credit_words
from dominokit.rulebook.examples import worked_example
from dominokit.rulebook.i18n import EN, Lang
from dominokit.rulebook.text import escape_html, md, relative

TILE_MM: Final = 22.0
"""The side of one half of a common domino tile, in millimetres (tiles of 22 x 44 mm): the
size of a cell on the printable board, which then fits an A4 sheet in landscape."""


def hand_page(variant_id: str) -> str:
    """The page of a game's whole worked hand."""
    return f"variants/{variant_id}-hand.md"


def card_page(variant_id: str) -> str:
    """The page of a game's printable card."""
    return f"variants/{variant_id}-card.md"


def board_page(variant_id: str) -> str:
    """The page of a board game's printable board."""
    return f"variants/{variant_id}-board.md"


def hand_trace(book: Book, variant: Variant) -> TraceInfo | None:
    """The hand a player reads whole: the longest hand trace with default options that ends
    (it has a result), the first in file order among equals."""
    best: tuple[int, TraceInfo] | None = None
    for info in book.traces_of(variant.id):
        if info.kind != "hand":
            continue
        trace = info.load()
        hand = trace.hands[0]
        if trace.options or hand.result is None:
            continue
        if best is None or len(hand.steps) > best[0]:
            best = (len(hand.steps), info)
    return None if best is None else best[1]


def match_trace(book: Book, variant: Variant) -> TraceInfo | None:
    """The game's first match trace with default options."""
    return next((t for t in book.traces_of(variant.id)
                 if t.kind == "match" and not t.load().options), None)


def _match_summary(book: Book, variant: Variant, here: str, lang: Lang) -> list[str]:
    from dominokit.rulebook.viewer import match_frames

    info = match_trace(book, variant)
    if info is None:
        return []
    trace = info.load()
    lines = [f"## {say(lang, 'pp.match_head')}", "",
             say(lang, "pp.match_intro", game=game_name(variant, lang),
                 link=f"[{say(lang, 'pp.match_link')}]({relative(trace_page(info.id), here)})",
                 rule=book.link(variant.data["match"].get("rule") or "", here)), "",
             say(lang, "pp.match_table"), "|---|---|---|---|---|"]
    for number, ((_, match), hand) in enumerate(zip(match_frames(trace), trace.hands,
                                                    strict=True), start=1):
        result = hand.result
        points = ", ".join(str(p) for p in result["points"]) if result else ""
        winner = "–" if not result or result["winner"] is None else str(result["winner"])
        totals = ", ".join(str(t) for t in match.get("totals", []))
        lines.append(f"| {number} | {winner} | {points} | {totals} | "
                     f"{md(phase_words(str(match.get('phase', '')), lang))} |")
    return [*lines, ""]


def hand_markdown(book: Book, variant: Variant, lang: Lang = EN) -> str:
    """A whole hand of the game, every move with its reason and the table drawn, the scoring
    at the end, then a whole match hand by hand."""
    here = hand_page(variant.id)
    info = hand_trace(book, variant)
    game = game_name(variant, lang)
    parts = [f"# {say(lang, 'pp.hand_title', game=md(game))}", "",
             say(lang, "pp.hand_intro", game=f"[{md(game)}]("
                 f"{relative(variant_page(variant.id), here)})"), ""]
    if info is not None:
        parts.append(worked_example(book, variant, info, variant_page(variant.id), lang)
                     .replace("](#", f"]({relative(variant_page(variant.id), here)}#"))
    parts += _match_summary(book, variant, here, lang)
    return "\n".join(parts)


def card_markdown(book: Book, variant: Variant, lang: Lang = EN) -> str:
    """The game on one A4 page: its card and where its rules come from."""
    here = card_page(variant.id)
    home = relative(variant_page(variant.id), here)
    game = game_name(variant, lang)
    lines = [f"# {say(lang, 'pp.card_title', game=md(game))}", "",
             '<div class="dk-print-card" markdown>', "",
             say(lang, "pp.card_intro", page=home), "", '<div class="dk-card" markdown>', ""]
    for term, text in card_rows(book, variant, here, lang):
        text = re.sub(r"\]\(#", f"]({home}#", text)
        lines += [term, f":   {text}", ""]
    source = variant.data["metadata"]["source"]
    credit = md(credit_words(source, lang)) if isinstance(source, str) else \
        f'<cite lang="en">{escape_html(source["title"])}</cite> ({md(source["publisher"])})'
    lines += ["</div>", "", f"*{say(lang, 'pp.source')}* {credit}.", "", "</div>", ""]
    return "\n".join(lines)


def board_svg_real_size(variant: Variant, lang: Lang) -> str:
    """The game's empty board drawn so that one cell is ``TILE_MM`` millimetres on paper."""
    table = variant.data["components"]["table"]
    rows, cols = int(table["rows"]), int(table["cols"])
    svg = diagrams.board_svg(rows, cols, [], title=say(lang, "pp.board_svg", rows=rows,
                                                        cols=cols))
    width, height = (float(v) for v in re.findall(r'viewBox="0 0 ([\d.]+) ([\d.]+)"', svg)[0])
    scale = TILE_MM / diagrams.CELL
    return re.sub(r'width="[\d.]+" height="[\d.]+"',
                  f'width="{width * scale:.1f}mm" height="{height * scale:.1f}mm"', svg, count=1)


def board_markdown(book: Book, variant: Variant, lang: Lang = EN) -> str:
    """The printable board: the source's words, how to print it, the board itself."""
    here = board_page(variant.id)
    table = variant.data["components"]["table"]
    game = game_name(variant, lang)
    rule = book.link(table.get("rule") or "", here)
    lines = ['<div class="dk-print-board" markdown>', "",
             f"# {say(lang, 'pp.board_title', game=md(game))}", "",
             say(lang, "pp.board_intro", rule=rule, mm=f"{TILE_MM:g}",
                 long=f"{2 * TILE_MM:g}"), "",
             f'<div class="dk-board-sheet">{board_svg_real_size(variant, lang)}</div>', "",
             "</div>", ""]
    return "\n".join(lines)


def player_pages(book: Book, lang: Lang = EN) -> dict[str, str]:
    """Every player page of every game in ``lang``: path (in ``lang``) -> Markdown."""
    pages: dict[str, str] = {}
    pages[lang.page(READING_PAGE)] = reading_markdown(lang)
    for variant in book.variants:
        pages[lang.page(hand_page(variant.id))] = hand_markdown(book, variant, lang)
        pages[lang.page(card_page(variant.id))] = card_markdown(book, variant, lang)
        if variant.data["components"]["table"]["kind"] == "board":
            pages[lang.page(board_page(variant.id))] = board_markdown(book, variant, lang)
    return pages


_PAGE_TITLES: Final = (("pp.hand_title", hand_page), ("pp.card_title", card_page),
                       ("pp.board_title", board_page))


def player_pages_of(variant: Variant, lang: Lang = EN) -> list[tuple[str, str]]:
    """The player pages of one game, titled in ``lang``, in the order the menu lists them
    after the game (the menu names them itself: a title inside the print wrapper is not one
    mkdocs can find)."""
    board = variant.data["components"]["table"]["kind"] == "board"
    return [(say(lang, key, game=game_name(variant, lang)), page(variant.id))
            for key, page in _PAGE_TITLES if board or key != "pp.board_title"]

_READING: Final = {
    "en": """# How to read the book

## Tiles

A tile is written in square brackets, as the source texts write it: [2|5] has 2 pips on one
half and 5 on the other, usually smaller half first; [0|0] is the double blank.

## Chains

In the pictures of a chain, L marks the left open end and R the right one. In Szczerbak the
widow's dead half is grey: the chain grows only from its other half. A number under a tile is
the move that placed it; the tile just placed is outlined in orange.

## The board

Pijanowski's board has 6 rows and 12 columns of cells, numbered from 0: rows from the top,
columns from the left. A field is two cells side by side in one row, cells 0 and 1, 2 and 3, and
so on; light and dark fields alternate like a chessboard. Blue cells are lakes; a dashed
outline marks an empty area that is not a lake.

## The engines' notation

Engines and golden traces write moves shortly, for example `2-5@R5` (tile [2|5] on the right
end, touching with its 5) or `5-6@0.2+0.3` (tile [5|6]: the 5 on row 0 column 2, the 6 on row 0
column 3); `draw`, `pass` and `stop` are a draw, a pass and declining the extra tile after
[0|0]. The book shows them only in the *For engine authors* blocks; the full grammar is on
[the action notation page](../engines/notation.md).
""",
    "pl": """# Jak czytać tę książkę

## Kamienie

Kamień zapisujemy w nawiasach kwadratowych, tak jak teksty źródłowe: [2|5] ma 2 oczka na jednej
połówce i 5 na drugiej, zwykle zaczynamy od mniejszej połówki. [0|0] to podwójne mydło.

## Łańcuch

Na rysunkach łańcucha L oznacza lewą końcówkę, a P prawą. W Szczerbaku martwa połówka wdowy
jest szara: łańcuch rośnie tylko od jej drugiej połówki. Liczba pod kamieniem to numer ruchu,
którym go zagrano, a kamień położony przed chwilą ma pomarańczową obwódkę.

## Plansza

Plansza Pijanowskiego ma 6 wierszy i 12 kolumn kwadratów, numerowanych od 0: wiersze od góry,
kolumny od lewej. Kwadrat w wierszu w i kolumnie k zapisujemy (w, k): (0, 2) to trzeci kwadrat
górnego wiersza. Pole to dwa sąsiednie kwadraty jednego wiersza: kolumny 0 i 1, 2 i 3 i tak
dalej; pola jasne i ciemne leżą na przemian jak na szachownicy. Niebieskie kwadraty to
jeziorka, a przerywana linia otacza puste miejsce, które jeziorkiem nie jest.

## Notacja silników

Silniki i partie wzorcowe zapisują ruchy skrótem, na przykład `2-5@R5` (kamień [2|5] dołożony
do prawej końcówki, R, połówką 5) albo `5-6@0.2+0.3` (kamień [5|6]: 5 na kwadracie (0, 2), 6 na
(0, 3); w tej notacji kwadrat (w, k) pisze się w.k). `draw` to dobranie kamienia z talonu,
`pass` to pas, a `stop` to rezygnacja z dodatkowego kamienia po [0|0]. W książce takie skróty
są tylko w ramkach *Dla autorów silników*; pełna gramatyka jest na
[stronie notacji](../engines/notation.md).
""",
}


def reading_markdown(lang: Lang = EN) -> str:
    """The page that explains, once, how tiles, chain ends and cells are written."""
    return re.sub(r"\[(\d)\|(\d)\]", r"\\[\1\\|\2\\]", _READING[lang.code])
