"""The summary card: a whole game in ten lines, worded from the mechanics its YAML names.

A reader wants the game at a glance before its rules, and the card must never say what the
spec does not, so each line is put together from the variant's own parameters and a sentence
per value of the spec's vocabulary (``WORDING``), never per variant id: a new variant written
with existing mechanics gets its card for free, and a new policy value needs one new sentence
here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

from dominokit.reference import Variant
from dominokit.rulebook.book import Book
from dominokit.rulebook.text import bracket, code, md

CARD_TERMS: Final = ("Players", "Tiles", "Deal", "Goal", "Match")
"""Terms every summary card has (the tests check them)."""

_PIP_WORDS: Final = {6: "six", 9: "nine", 12: "twelve"}

WORDING: Final[Mapping[str, Mapping[str, str]]] = {
    "turn.opening.policy": {
        "any_tile": "The starter opens with any tile from their hand; it becomes a line with two "
                    "open ends.",
        "widow": "The widow lies between the players; whoever faces its higher half starts, and "
                 "the chain grows from that half only.",
        "anywhere": "The first tile may go on any two adjacent cells.",
    },
    "turn.matching.policy": {
        "equal_halves": "A tile goes on {end} with its touching half showing the same pips.",
        "board_contacts": "Every later tile covers two adjacent empty cells and must touch a "
                          "placed tile; every half it touches must show the same pips.",
    },
    "turn.parity.policy": {
        "none": "",
        "opposite_or_blank": "Its other half must be blank or of the other parity (odd after "
                             "even, even after odd); on a blank end any tile fits, either way "
                             "round.",
    },
    "turn.draw.policy": {
        "none": "There is no drawing.",
        "free": "A player may draw as many tiles as they like, one at a time, and placing is "
                "never compulsory.",
        "until_fit": "A player who cannot place draws one tile at a time until one fits, and "
                     "must then place it.",
    },
    "turn.pass.policy": {
        "always": "A player may pass at any time after the opening",
        "when_stuck": "A player passes only when they cannot place",
    },
    "end.condition": {
        "domino": "a player places their last tile (domino!)",
        "block": "neither player can place any more",
        "mutual_pass": "{turns} turns in a row end in a pass",
    },
    "scoring.winner.policy": {
        "domino_or_fewer_pips": "Be the first to place all your tiles, or hold fewer pips when "
                                "the hand blocks.",
        "higher_hand_score": "Score more than your opponent in the hand: points for the tiles "
                             "you place and the lakes you close, minus the pips you keep.",
    },
    "scoring.terms.term": {
        "opponent_pips": "the pips left in the loser's hand",
        "own_pips": "the pips left in their own hand",
        "last_tile_bonus": "a bonus for going out with {tiles}",
        "catch": "a catch for a loser left holding only {tiles}",
        "placement_points": "the points scored placing tiles and closing lakes",
    },
    "scoring.terms.to": {"winner": "The winner", "loser": "The loser", "each": "Each player"},
    "setup.starter": {
        "alternate": "The first starter is chosen by lot; then the players take turns to start.",
        "widow": "The widow decides who starts every hand.",
    },
    "setup.remainder": {
        "stock": "the rest form the stock",
        "out_of_play": "the rest are put aside unseen",
        "widow": "the one tile left is the widow",
        "none": "",
    },
}
"""One sentence per value of the spec's vocabulary, keyed by the YAML field that holds the
value (list indices left out: ``end.condition`` is the ``condition`` of every ``end`` entry).

``{end}``, ``{turns}`` and ``{tiles}`` are filled in from the variant's own parameters."""


def _say(field: str, value: str) -> str:
    """The card's sentence for ``value`` of spec field ``field`` (KeyError naming both)."""
    try:
        return WORDING[field][value]
    except KeyError:
        raise KeyError(f"the rule book has no wording for {field} = {value!r}; add it to "
                       "WORDING in docs/rulebook/card.py") from None


def _param(value: Any, variant: Variant) -> tuple[Any, str]:
    """(default value, note) of a parameter that may be ``{option: NAME}``."""
    if isinstance(value, dict) and "option" in value:
        name = value["option"]
        option = variant.options[name]
        values = " or ".join(str(v) for v in option.values)
        return option.default, f" (option [{code(name)}](#option-{name}): {values})"
    return value, ""


def _tile_count(tiles: Mapping[str, Any]) -> int:
    n = int(tiles["max_pip"]) + 1
    per_set = n * (n + 1) // 2 if tiles["doubles"] else n * (n - 1) // 2
    return per_set * int(tiles["copies"])


def _tiles_text(tiles: Mapping[str, Any]) -> str:
    n = int(tiles["max_pip"]) + 1
    top = _PIP_WORDS.get(n - 1, str(n - 1))
    sets = f"one double-{top} set"
    if int(tiles["copies"]) > 1:
        sets = f"{tiles['copies']} double-{top} sets"
    text = f"{_tile_count(tiles)} tiles: {sets}"
    if not tiles["doubles"]:
        text += f" without its {n} doubles"
    return text


def _tiles_by_points(tiles: Mapping[str, int]) -> str:
    return " or ".join(f"{md(bracket(t))} ({p})" for t, p in tiles.items())


def _rule_suffix(book: Book, rule_ids: Iterable[str | None], here: str) -> str:
    ids = list(dict.fromkeys(r for r in rule_ids if r))
    return f" ({book.links(ids, here)})" if ids else ""


def _deal_text(book: Book, variant: Variant, here: str) -> str:
    setup = variant.data["setup"]
    tiles = variant.data["components"]["tiles"]
    size, note = _param(setup["hand_size"], variant)
    remainder = _say("setup.remainder", setup["remainder"])
    if size == "schedule":
        text = "The number of tiles changes from deal to deal (see Match)"
        if remainder:
            text += f"; {remainder}"
    else:
        text = f"{size} tiles each{note}"
        rest = _tile_count(tiles) - 2 * int(size)
        if remainder and rest > 0:
            text += f"; {remainder}" + (f" ({rest} tiles)" if rest > 1 else "")
    return text + "." + _rule_suffix(book, [setup.get("rule")], here)


def _turn_text(book: Book, variant: Variant, here: str) -> str:
    turn = variant.data["turn"]
    sentences = [
        _say("turn.opening.policy", turn["opening"]["policy"]),
        _say("turn.matching.policy", turn["matching"]["policy"]).format(
            end="the open end" if variant.data["components"]["table"].get("ends") == 1
            else "an open end"),
        _say("turn.parity.policy", turn.get("parity", {"policy": "none"})["policy"]),
        _say("turn.draw.policy", turn["draw"]["policy"]),
        _say("turn.pass.policy", turn["pass"]["policy"])
        + (" and there is nothing to draw" if turn["pass"]["policy"] == "when_stuck"
           and turn["draw"]["policy"] != "none" else "") + ".",
    ]
    extra = turn.get("extra_tile")
    if extra:
        sentences.append(f"After placing {md(bracket(extra['after']))} a player may place one "
                         "more tile in the same turn.")
    ids = [turn[k].get("rule") for k in ("opening", "matching", "parity", "draw", "pass")
           if k in turn]
    ids += [turn.get("parity", {}).get("blank_rule"), extra.get("rule") if extra else None]
    return " ".join(s for s in sentences if s) + _rule_suffix(book, ids, here)


def _end_text(book: Book, variant: Variant, here: str) -> str:
    ends = variant.data["end"]
    parts = [_say("end.condition", e["condition"]).format(turns=e.get("turns", 2))
             for e in ends]
    text = "The hand ends at once when " + "; or when ".join(parts) + "."
    return text + _rule_suffix(book, [e.get("rule") for e in ends], here)


def _scoring_text(book: Book, variant: Variant, here: str) -> str:
    scoring = variant.data["scoring"]
    sentences: list[str] = []
    placement = scoring.get("placement")
    if placement:
        sentences.append(f"A placed tile scores its pips, times "
                         f"{placement['same_field_multiplier']} when it lies on one field.")
    lakes = scoring.get("lakes")
    if lakes:
        sentences.append(f"Closing a lake (an empty area of 1 to {lakes['max_cells']} cells) "
                         f"scores {lakes['points_per_cell']} per cell.")
    grouped: dict[str, list[str]] = {}
    for term in scoring["terms"]:
        to, note = _param(term["to"], variant)
        prizes = _tiles_by_points(term.get("tiles", {}))
        what = _say("scoring.terms.term", term["term"]).format(tiles=prizes)
        sign = "minus " if term.get("sign", 1) < 0 else ("plus " if to in grouped else "")
        grouped.setdefault(to, []).append(sign + what + note)
    for to, parts in grouped.items():
        who = _say("scoring.terms.to", to)
        sentences.append(f"{who} scores {', '.join(parts)}.")
    ids = [scoring.get(k, {}).get("rule") for k in ("placement", "lakes", "winner")]
    ids += [t.get("rule") for t in scoring["terms"]]
    return " ".join(sentences) + _rule_suffix(book, ids, here)


def _match_text(book: Book, variant: Variant, here: str) -> str:
    match = variant.data["match"]
    kind = match["kind"]
    if kind == "sets":
        text = (f"Sets of {match['set_target']} points: a set goes to the first to reach "
                f"{match['set_target']} or more; the first to win {match['sets_to_win']} sets "
                "wins the match.")
    elif kind == "target":
        if match["compare"] == "exceeds":
            text = (f"Hands are played until a running total passes {match['target']}; the "
                    "higher total wins (equal totals play on).")
        else:
            text = (f"The first to reach {match['target']} or more after a hand wins the "
                    "match.")
    else:
        rounds = match["rounds"]
        sizes = "; ".join(
            f"{md(r['name'])}: {len(r['deals'])} deals of "
            f"{_sizes_range(r['deals'])} tiles each" for r in rounds)
        text = (f"{len(rounds)} rounds, each won by the higher round total: {sizes}. "
                "The player who wins more rounds wins the match.")
        tiebreak = match.get("tiebreak")
        if tiebreak:
            deals = tiebreak["deals"]
            a = " to ".join(str(d[0]) for d in (deals[0], deals[-1]))
            b = " to ".join(str(d[1]) for d in (deals[0], deals[-1]))
            text += (f" If level, a tiebreak of {len(deals)} deals: player A gets {a} tiles, "
                     f"player B {b}.")
    ids = [match.get("rule"), (match.get("tiebreak") or {}).get("rule")]
    return text + _rule_suffix(book, ids, here)


def _sizes_range(deals: Sequence[Sequence[int]]) -> str:
    return f"{deals[0][0]} to {deals[-1][0]}"


def _table_text(book: Book, variant: Variant, here: str) -> str:
    table = variant.data["components"]["table"]
    if table["kind"] == "board":
        rows, cols = table["rows"], table["cols"]
        text = (f"A board of {rows} × {cols} cells, one tile half per cell; pairs of cells "
                f"form {rows} × {cols // 2} fields coloured like a chessboard.")
    else:
        text = ("A line of tiles with two open ends" if table["ends"] == 2
                else "A line of tiles that grows at one end only")
        if variant.data["components"]["tiles"]["doubles"]:
            text += "; doubles lie " + ("across the line" if table["doubles"] == "crosswise"
                                        else "in line") + " and never open new ends"
        text += "."
        if table.get("layout") == "offset_rows":
            text += " It is laid as two rows offset by half a tile."
    return text + _rule_suffix(book, [table.get("rule")], here)


def card_rows(book: Book, variant: Variant, here: str) -> list[tuple[str, str]]:
    """The card's terms and their Markdown text, in order (also the rows of the page that
    compares the games)."""
    data = variant.data
    tiles = data["components"]["tiles"]
    rows = [
        ("Players", f"{data['metadata']['players']}" + _rule_suffix(book, ["R-ALL-02"], here)),
        ("Tiles", _tiles_text(tiles) + "." + _rule_suffix(book, [tiles.get("rule")], here)),
        ("Deal", _deal_text(book, variant, here)),
        ("Table", _table_text(book, variant, here)),
        ("Starter", _say("setup.starter", data["setup"]["starter"])),
        ("Turn", _turn_text(book, variant, here)),
        ("End of a hand", _end_text(book, variant, here)),
        ("Goal", _say("scoring.winner.policy", data["scoring"]["winner"]["policy"])
         + _rule_suffix(book, [data["scoring"]["winner"].get("rule")], here)),
        ("Scoring", _scoring_text(book, variant, here)),
        ("Match", _match_text(book, variant, here)),
    ]
    return rows


def summary_card(book: Book, variant: Variant, here: str) -> str:
    """The card at the top of a variant page: the whole game in ten lines."""
    rows = card_rows(book, variant, here)
    lines = ['<div class="dk-card" markdown>', ""]
    for term, text in rows:
        lines += [term, f":   {text}", ""]
    lines += ["</div>", ""]
    return "\n".join(lines)
