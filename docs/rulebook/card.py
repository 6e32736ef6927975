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
from dominokit.rulebook.captions import phase_words
from dominokit.rulebook.i18n import EN, PL, Lang, polish_count
from dominokit.rulebook.optionnames import option_words, value_words
from dominokit.rulebook.text import bracket, md

CARD_TERMS: Final = ("Players", "Tiles", "Deal", "Goal", "Match")
"""Terms every summary card has (the tests check them)."""

_PIP_WORDS: Final = {6: "six", 9: "nine", 12: "twelve"}
_PIP_WORDS_PL: Final = {6: "szóstkowy", 9: "dziewiątkowy", 12: "dwunastkowy"}

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

WORDING_PL: Final[Mapping[str, Mapping[str, str]]] = {
    "turn.opening.policy": {
        "any_tile": "Zaczynający wychodzi dowolnym kamieniem z ręki; powstaje łańcuch o dwóch "
                    "końcówkach.",
        "widow": "Wdowa leży między graczami; zaczyna ten, przed kim leży jej wyższa połówka, a "
                 "łańcuch rośnie tylko od tej połówki.",
        "anywhere": "Pierwszy kamień można położyć na dowolnych dwóch sąsiednich kwadratach.",
    },
    "turn.matching.policy": {
        "equal_halves": "Kamień dokłada się do {end} połówką o tej samej liczbie oczek.",
        "board_contacts": "Każdy następny kamień zajmuje dwa sąsiednie puste kwadraty i musi "
                          "stykać się z leżącym kamieniem; każda stykająca się połówka musi "
                          "mieć tyle samo oczek.",
    },
    "turn.parity.policy": {
        "none": "",
        "opposite_or_blank": "Druga połówka musi być mydłem albo mieć oczka innej parzystości "
                             "(nieparzyste po parzystych, parzyste po nieparzystych); do "
                             "końcówki z mydłem pasuje każdy kamień, przyłożony dowolną "
                             "połówką.",
    },
    "turn.draw.policy": {
        "none": "Nie ma dobierania.",
        "free": "Gracz może dobierać z talonu ile chce kamieni, po jednym, a dokładanie nigdy "
                "nie jest obowiązkowe.",
        "until_fit": "Gracz, który nie ma czego dołożyć, dobiera z talonu po jednym kamieniu, "
                     "aż któryś pasuje, i wtedy musi go dołożyć.",
    },
    "turn.pass.policy": {
        "always": "Po wyjściu gracz może spasować w każdej kolejce",
        "when_stuck": "Gracz może spasować tylko wtedy, gdy nie ma czego dołożyć",
    },
    "end.condition": {
        "domino": "gracz dołoży swój ostatni kamień (domino!)",
        "block": "żaden z graczy nie może już nic dołożyć (blokada)",
        "mutual_pass": "{turns} kolejki z rzędu kończą się pasem",
    },
    "scoring.winner.policy": {
        "domino_or_fewer_pips": "Pozbyć się wszystkich kamieni przed przeciwnikiem albo, gdy "
                                "dojdzie do blokady, mieć na ręce mniej oczek.",
        "higher_hand_score": "Zdobyć w rozdaniu więcej punktów niż przeciwnik: za położone "
                             "kamienie i zamknięte jeziorka, minus oczka, które zostały na "
                             "ręce.",
    },
    "scoring.terms.term": {
        "opponent_pips": "oczka, które zostały na ręce przegranego",
        "own_pips": "oczka, które zostały mu na ręce",
        "last_tile_bonus": "premię za zakończenie rozdania (domino!) kamieniem {tiles}",
        "catch": "karę dla przegranego, któremu został na ręce tylko {tiles}",
        "placement_points": "punkty zdobyte za położone kamienie i zamknięte jeziorka",
    },
    "scoring.terms.to": {"winner": "Wygrany", "loser": "Przegrany", "each": "Każdy gracz"},
    "setup.starter": {
        "alternate": "Kto zaczyna pierwsze rozdanie, rozstrzyga los; potem gracze zaczynają "
                     "na zmianę.",
        "widow": "O tym, kto zaczyna, w każdym rozdaniu decyduje wdowa.",
    },
    "setup.remainder": {
        "stock": "reszta tworzy talon",
        "out_of_play": "reszta idzie na bok, zakryta",
        "widow": "jedyny pozostały kamień to wdowa",
        "none": "",
    },
}
"""``WORDING`` for Polish players, in the games' own words (kamień, oczko, talon, wdowa...):
the same fields and values, so a missing sentence is caught the same way."""

CARD_WORDING: Final[Mapping[str, Mapping[str, Mapping[str, str]]]] = {
    EN.code: WORDING, PL.code: WORDING_PL,
}
"""The card's sentences per language code."""

TERMS: Final[Mapping[str, Mapping[str, str]]] = {
    EN.code: {"Players": "Players", "Tiles": "Tiles", "Deal": "Deal", "Table": "Table",
              "Starter": "Starter", "Turn": "Turn", "End of a hand": "End of a hand",
              "Goal": "Goal", "Scoring": "Scoring", "Match": "Match"},
    PL.code: {"Players": "Gracze", "Tiles": "Kamienie", "Deal": "Rozdanie", "Table": "Stół",
              "Starter": "Kto zaczyna", "Turn": "Kolejka", "End of a hand": "Koniec rozdania",
              "Goal": "Cel", "Scoring": "Punkty", "Match": "Mecz"},
}
"""Every row of the card (the English term) and its name in each language."""


def game_name(variant: Variant, lang: Lang = EN) -> str:
    """The game's name in ``lang``: ``name_pl`` for Polish readers where the spec gives one."""
    name: str = variant.data["metadata"].get(f"name_{lang.code}", variant.name)
    return name


def _say(field: str, value: str, lang: Lang = EN) -> str:
    """The card's sentence for ``value`` of spec field ``field`` in ``lang`` (KeyError naming
    all three)."""
    try:
        return CARD_WORDING[lang.code][field][value]
    except KeyError:
        table = "WORDING" if lang.code == EN.code else f"WORDING_{lang.code.upper()}"
        raise KeyError(f"the rule book has no {lang.code} wording for {field} = {value!r}; add "
                       f"it to {table} in docs/rulebook/card.py") from None


def _in(lang: Lang, en: str, pl: str) -> str:
    """A fixed phrase of the card in ``lang`` (the phrases that carry numbers, beside the
    one-sentence-per-value tables)."""
    return {EN.code: en, PL.code: pl}[lang.code]


def kamienie(n: int) -> str:
    """``n`` tiles in Polish."""
    return polish_count(n, "kamień", "kamienie", "kamieni")


def _rozdania(n: int) -> str:
    """``n`` deals in Polish."""
    return polish_count(n, "rozdanie", "rozdania", "rozdań")


def _tiles_n(n: int, lang: Lang) -> str:
    return _in(lang, f"{n} tiles" if n != 1 else "1 tile", kamienie(n))


def _param(value: Any, variant: Variant, lang: Lang = EN) -> tuple[Any, str]:
    """(default value, note) of a parameter that may be ``{option: NAME}``."""
    if isinstance(value, dict) and "option" in value:
        name = value["option"]
        option = variant.options[name]
        values = _in(lang, " or ", " albo ").join(
            value_words(option, v, lang, machine=False) if lang.code != EN.code else str(v)
            for v in option.values)
        label = _in(lang, "option", "opcja")
        return option.default, f" ({label} {option_words(option, lang, f'#option-{name}')}: "\
                               f"{values})"
    return value, ""


def _tile_count(tiles: Mapping[str, Any]) -> int:
    n = int(tiles["max_pip"]) + 1
    per_set = n * (n + 1) // 2 if tiles["doubles"] else n * (n - 1) // 2
    return per_set * int(tiles["copies"])


def _tiles_text(tiles: Mapping[str, Any], lang: Lang) -> str:
    n = int(tiles["max_pip"]) + 1
    copies = int(tiles["copies"])
    if lang.code == PL.code:
        top = _PIP_WORDS_PL.get(n - 1, f"do {n - 1}")
        sets = f"jeden komplet {top}" if copies == 1 else (
            f"{copies} komplety {top.removesuffix('y')}e")
        text = f"{kamienie(_tile_count(tiles))}: {sets}"
        return text + (f" bez jego {n} dubletów" if not tiles["doubles"] else "")
    word = _PIP_WORDS.get(n - 1, str(n - 1))
    sets = f"one double-{word} set" if copies == 1 else f"{copies} double-{word} sets"
    text = f"{_tile_count(tiles)} tiles: {sets}"
    if not tiles["doubles"]:
        text += f" without its {n} doubles"
    return text


def _tiles_by_points(tiles: Mapping[str, int], lang: Lang) -> str:
    return _in(lang, " or ", " albo ").join(f"{md(bracket(t))} ({p})" for t, p in tiles.items())


def _rule_suffix(book: Book, rule_ids: Iterable[str | None], here: str) -> str:
    ids = list(dict.fromkeys(r for r in rule_ids if r))
    return f" ({book.links(ids, here)})" if ids else ""


def _deal_text(book: Book, variant: Variant, here: str, lang: Lang) -> str:
    setup = variant.data["setup"]
    tiles = variant.data["components"]["tiles"]
    size, note = _param(setup["hand_size"], variant, lang)
    remainder = _say("setup.remainder", setup["remainder"], lang)
    if size == "schedule":
        text = _in(lang, "The number of tiles changes from deal to deal (see Match)",
                   "Liczba kamieni zmienia się z rozdania na rozdanie (zob. Mecz)")
        if remainder:
            text += f"; {remainder}"
    else:
        text = _in(lang, f"{size} tiles each", f"po {kamienie(int(size))} dla każdego") + note
        rest = _tile_count(tiles) - 2 * int(size)
        if remainder and rest > 0:
            text += f"; {remainder}" + (f" ({_tiles_n(rest, lang)})" if rest > 1 else "")
    return text + "." + _rule_suffix(book, [setup.get("rule")], here)


def _turn_text(book: Book, variant: Variant, here: str, lang: Lang) -> str:
    turn = variant.data["turn"]
    one_end = variant.data["components"]["table"].get("ends") == 1
    sentences = [
        _say("turn.opening.policy", turn["opening"]["policy"], lang),
        _say("turn.matching.policy", turn["matching"]["policy"], lang).format(
            end=_in(lang, "the open end", "końcówki") if one_end
            else _in(lang, "an open end", "jednej z końcówek")),
        _say("turn.parity.policy", turn.get("parity", {"policy": "none"})["policy"], lang),
        _say("turn.draw.policy", turn["draw"]["policy"], lang),
        _say("turn.pass.policy", turn["pass"]["policy"], lang)
        + (_in(lang, " and there is nothing to draw", " ani z czego dobrać")
           if turn["pass"]["policy"] == "when_stuck" and turn["draw"]["policy"] != "none"
           else "") + ".",
    ]
    extra = turn.get("extra_tile")
    if extra:
        tile = md(bracket(extra["after"]))
        sentences.append(_in(lang, f"After placing {tile} a player may place one more tile in "
                                   "the same turn.",
                             f"Po dołożeniu {tile} gracz może w tej samej kolejce dołożyć "
                             "jeszcze jeden kamień."))
    ids = [turn[k].get("rule") for k in ("opening", "matching", "parity", "draw", "pass")
           if k in turn]
    ids += [turn.get("parity", {}).get("blank_rule"), extra.get("rule") if extra else None]
    return " ".join(s for s in sentences if s) + _rule_suffix(book, ids, here)


def _end_text(book: Book, variant: Variant, here: str, lang: Lang) -> str:
    ends = variant.data["end"]
    parts = [_say("end.condition", e["condition"], lang).format(turns=e.get("turns", 2))
             for e in ends]
    text = (_in(lang, "The hand ends at once when ", "Rozdanie kończy się od razu, gdy ")
            + _in(lang, "; or when ", "; albo gdy ").join(parts) + ".")
    return text + _rule_suffix(book, [e.get("rule") for e in ends], here)


def _scoring_text(book: Book, variant: Variant, here: str, lang: Lang) -> str:
    scoring = variant.data["scoring"]
    sentences: list[str] = []
    placement = scoring.get("placement")
    if placement:
        times = placement["same_field_multiplier"]
        sentences.append(_in(lang, f"A placed tile scores its pips, times {times} when it lies "
                                   "on one field.",
                             f"Położony kamień daje tyle punktów, ile ma oczek, razy {times}, "
                             "gdy leży na jednym polu."))
    lakes = scoring.get("lakes")
    if lakes:
        cells, per = lakes["max_cells"], lakes["points_per_cell"]
        sentences.append(_in(lang, f"Closing a lake (an empty area of 1 to {cells} cells) "
                                   f"scores {per} per cell.",
                             f"Zamknięcie jeziorka (pustego obszaru od 1 do {cells} kwadratów) "
                             f"daje {per} punkty za każdy kwadrat."))
    grouped: dict[str, list[str]] = {}
    for term in scoring["terms"]:
        to, note = _param(term["to"], variant, lang)
        prizes = _tiles_by_points(term.get("tiles", {}), lang)
        what = _say("scoring.terms.term", term["term"], lang).format(tiles=prizes)
        sign = (_in(lang, "minus ", "minus ") if term.get("sign", 1) < 0
                else (_in(lang, "plus ", "plus ") if to in grouped else ""))
        grouped.setdefault(to, []).append(sign + what + note)
    for to, parts in grouped.items():
        who = _say("scoring.terms.to", to, lang)
        sentences.append(f"{who} {_in(lang, 'scores', 'dostaje')} {', '.join(parts)}.")
    ids = [scoring.get(k, {}).get("rule") for k in ("placement", "lakes", "winner")]
    ids += [t.get("rule") for t in scoring["terms"]]
    return " ".join(sentences) + _rule_suffix(book, ids, here)


def _match_text(book: Book, variant: Variant, here: str, lang: Lang) -> str:
    match = variant.data["match"]
    kind = match["kind"]
    if kind == "sets":
        target, sets = match["set_target"], match["sets_to_win"]
        text = _in(lang, f"Sets of {target} points: a set goes to the first to reach {target} "
                         f"or more; the first to win {sets} sets wins the match.",
                   f"Sety do {target} punktów: set wygrywa ten, kto pierwszy zdobędzie {target} "
                   f"lub więcej; mecz wygrywa ten, kto pierwszy wygra "
                   f"{polish_count(sets, 'set', 'sety', 'setów')}.")
    elif kind == "target":
        target = match["target"]
        if match["compare"] == "exceeds":
            text = _in(lang, f"Hands are played until a running total passes {target}; the "
                             "higher total wins (equal totals play on).",
                       f"Rozdania gra się, aż czyjaś suma punktów przekroczy {target}; mecz "
                       "wygrywa ten, kto ma więcej punktów (przy równych sumach gra się "
                       "dalej).")
        else:
            text = _in(lang, f"The first to reach {target} or more after a hand wins the "
                             "match.",
                       f"Mecz wygrywa ten, kto po rozdaniu pierwszy ma {target} lub więcej "
                       "punktów.")
    else:
        rounds = match["rounds"]
        sizes = "; ".join(
            f"{md(phase_words(r['name'], lang))}: " + _in(
                lang, f"{len(r['deals'])} deals of {_sizes_range(r['deals'], lang)} tiles each",
                f"{_rozdania(len(r['deals']))} po {_sizes_range(r['deals'], lang)} kamieni")
            for r in rounds)
        text = _in(lang, f"{len(rounds)} rounds, each won by the higher round total: {sizes}. "
                         "The player who wins more rounds wins the match.",
                   f"{polish_count(len(rounds), 'runda', 'rundy', 'rund')}; rundę wygrywa ten, "
                   f"kto zdobędzie w niej więcej punktów: {sizes}. Mecz "
                   "wygrywa ten, kto wygra więcej rund.")
        tiebreak = match.get("tiebreak")
        if tiebreak:
            deals = tiebreak["deals"]
            to = _in(lang, " to ", " do ")
            a = to.join(str(d[0]) for d in (deals[0], deals[-1]))
            b = to.join(str(d[1]) for d in (deals[0], deals[-1]))
            text += _in(lang, f" If level, a tiebreak of {len(deals)} deals: player A gets {a} "
                              f"tiles, player B {b}.",
                        f" Przy remisie dogrywka ({_rozdania(len(deals))}): gracz A dostaje od {a} "
                        f"kamieni, gracz B od {b}.")
    ids = [match.get("rule"), (match.get("tiebreak") or {}).get("rule")]
    return text + _rule_suffix(book, ids, here)


def _sizes_range(deals: Sequence[Sequence[int]], lang: Lang = EN) -> str:
    return f"{deals[0][0]}{_in(lang, ' to ', '–')}{deals[-1][0]}"


def _table_text(book: Book, variant: Variant, here: str, lang: Lang) -> str:
    table = variant.data["components"]["table"]
    if table["kind"] == "board":
        rows, cols = table["rows"], table["cols"]
        text = _in(lang, f"A board of {rows} × {cols} cells, one tile half per cell; pairs of "
                         f"cells form {rows} × {cols // 2} fields coloured like a chessboard.",
                   f"Plansza {rows} × {cols} kwadratów, po jednej połówce kamienia na kwadrat; "
                   f"pary kwadratów tworzą {rows} × {cols // 2} pól w dwóch barwach, jak "
                   "szachownica.")
    else:
        text = (_in(lang, "A line of tiles with two open ends", "Łańcuch z dwiema końcówkami")
                if table["ends"] == 2
                else _in(lang, "A line of tiles that grows at one end only",
                         "Łańcuch, który rośnie tylko z jednej strony"))
        if variant.data["components"]["tiles"]["doubles"]:
            across = table["doubles"] == "crosswise"
            text += _in(lang, "; doubles lie " + ("across the line" if across else "in line")
                        + " and never open new ends",
                        "; dublety leżą " + ("w poprzek" if across else "wzdłuż")
                        + " łańcucha i nie otwierają nowych końcówek")
        text += "."
        if table.get("layout") == "offset_rows":
            text += _in(lang, " It is laid as two rows offset by half a tile.",
                        " Układa się go w dwóch rzędach przesuniętych o pół kamienia.")
    return text + _rule_suffix(book, [table.get("rule")], here)


def card_rows(book: Book, variant: Variant, here: str,
              lang: Lang = EN) -> list[tuple[str, str]]:
    """The card's terms (named in ``lang``) and their Markdown text in ``lang``, in order
    (also the rows of the page that compares the games)."""
    data = variant.data
    tiles = data["components"]["tiles"]
    winner = data["scoring"]["winner"]
    rows = [
        ("Players", f"{data['metadata']['players']}" + _rule_suffix(book, ["R-ALL-02"], here)),
        ("Tiles", _tiles_text(tiles, lang) + "."
         + _rule_suffix(book, [tiles.get("rule")], here)),
        ("Deal", _deal_text(book, variant, here, lang)),
        ("Table", _table_text(book, variant, here, lang)),
        ("Starter", _say("setup.starter", data["setup"]["starter"], lang)),
        ("Turn", _turn_text(book, variant, here, lang)),
        ("End of a hand", _end_text(book, variant, here, lang)),
        ("Goal", _say("scoring.winner.policy", winner["policy"], lang)
         + _rule_suffix(book, [winner.get("rule")], here)),
        ("Scoring", _scoring_text(book, variant, here, lang)),
        ("Match", _match_text(book, variant, here, lang)),
    ]
    return [(TERMS[lang.code][term], text) for term, text in rows]


def summary_card(book: Book, variant: Variant, here: str, lang: Lang = EN) -> str:
    """The card at the top of a variant page: the whole game in ten lines."""
    rows = card_rows(book, variant, here, lang)
    lines = ['<div class="dk-card" markdown>', ""]
    for term, text in rows:
        lines += [term, f":   {text}", ""]
    lines += ["</div>", ""]
    return "\n".join(lines)
