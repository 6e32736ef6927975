"""The glossary: the games' own Polish words, the English term the spec uses for each, and
links to it from where the words are used.

Polish players know these games by their own words (kamień, oczko, mydło, wdowa, jeziorko...),
and the spec names the same things in English (tile, pip, blank, widow, lake...). One table
holds both, so the glossary page in either language and the links from rule texts come from
the same entries. A term's anchor is its Polish word folded to ASCII and is the same in both
languages, like the rule ids.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from dominokit.rulebook.i18n import Lang, fold
from dominokit.rulebook.text import md, relative

GLOSSARY_PAGE: Final = "glossary.md"


@dataclass(frozen=True)
class Term:
    """One word of the games: Polish and English names, meaning in both, and the word forms
    (a regular expression over Polish or English text) that link to it. Everyday English
    words (hand, turn, place...) have no forms: English text links only the games' terms."""

    pl: str
    en: str
    pl_meaning: str
    en_meaning: str
    pl_forms: str
    en_forms: str
    search: str = ""
    """The word's forms and synonyms a reader may type into the search box (space-separated);
    ``docs/search_fold.py`` lets a query for any of them find every section that uses one."""

    @property
    def anchor(self) -> str:
        """The anchor on the glossary page: the Polish word without diacritics."""
        return fold(self.pl).replace(" ", "-").strip("!")


TERMS: Final = (
    Term("kamień", "tile",
         "Jeden kamień domina: prostokąt z dwiema połówkami, na każdej od 0 do 6 oczek. Mówi "
         "się też „kostka” (tak pisze tekst Poldomino: „pasujące kostki dokłada się…”); w tej "
         "książce zawsze „kamień”.",
         "One domino: a rectangle of two halves, each showing 0 to 6 pips.",
         r"kamie[nń]\w*|kostk\w*|kostek", r"tiles?",
         "kamień kamienia kamieniu kamieniem kamienie kamieni kamieniami kamieniach kostka "
         "kostki kostkę kostką kostce kostek kostkami kostkach"),
    Term("oczko", "pip",
         "Kropka na połówce kamienia; oczka kamienia to suma obu połówek.",
         "A dot on a tile's half; a tile's pips are the sum of both halves.",
         r"oczk\w*|oczek", r"pips?"),
    Term("połówka", "half",
         "Jedna z dwóch części kamienia, z własną liczbą oczek.",
         "One of a tile's two ends, with its own number of pips.",
         r"połów\w*", r""),
    Term("dublet", "double",
         "Kamień z taką samą liczbą oczek na obu połówkach, np. [6|6].",
         "A tile with the same pips on both halves, such as [6|6].",
         r"duble\w*", r"doubles?",
         "dublet dubletu dubletowi dubletem dublecie dublety dubletów dubletami"),
    Term("mydło", "blank",
         "Połówka bez oczek (0). Podwójne mydło to kamień [0|0].",
         "A half with no pips (0). The double blank is [0|0].",
         r"mydł\w*|mydl\w*", r"blanks?",
         "mydło mydła mydłu mydłem mydle mydeł mydłami mydłach"),
    Term("komplet", "set",
         "Wszystkie kamienie gry; komplet szóstkowy to 28 kamieni od [0|0] do [6|6].",
         "All the tiles of a game; a double-six set is the 28 tiles from [0|0] to [6|6].",
         r"komplet\w*", r"double-six sets?"),
    Term("talon", "stock",
         "Kamienie, których nie rozdano i z których się dobiera.",
         "The tiles not dealt, from which players draw.",
         r"talon\w*", r"stock", "talon talonu talonowi talonem talonie"),
    Term("dobierać", "draw",
         "Wziąć kamień z talonu do ręki.",
         "To take a tile from the stock into one's hand.",
         r"dobier\w*|dobra\w*", r"draws?|drawing|drawn"),
    Term("wdowa", "widow",
         "W Szczerbaku jedyny kamień, który zostaje po rozdaniu; leży między graczami i "
         "zaczyna łańcuch.",
         "In Szczerbak, the one tile left after the deal; it lies between the players and "
         "starts the chain.",
         r"wdow\w*", r"widow", "wdowa wdowy wdowie wdowę wdową wdowo wdów"),
    Term("łańcuch", "chain",
         "Kamienie dołożone jeden do drugiego pasującymi połówkami.",
         "The line of tiles placed end to end with matching halves.",
         r"łańcuch\w*", r"chains?"),
    Term("końcówka", "open end",
         "Połówka na końcu łańcucha, do której można dołożyć kamień.",
         "A half at the end of the chain to which a tile may be placed.",
         r"końców\w*", r"open ends?",
         "końcówka końcówki końcówce końcówkę końcówką końcówek końcówkami końcówkach"),
    Term("zgrać", "place",
         "Położyć kamień z ręki na stół: dołożyć go do łańcucha albo położyć na planszy. "
         "„Zgrać” i „dołożyć” znaczą tu to samo.",
         "To put a tile from the hand on the table (on the chain or the board).",
         r"zgra\w*|zgry\w*|dołoż\w*|dokład(?!n)\w*", r"",  # not "dokładnie" (exactly)
         "zgrać zgrywa zgrał dołożyć dokłada dołożył"),
    Term("wyjście", "opening",
         "Pierwszy kamień rozdania; też: kamień, którym gracz wychodzi.",
         "The first tile of a hand.",
         r"wyjści\w*|wychodz\w*", r""),
    Term("spasować", "pass",
         "Opuścić kolejkę bez zgrania kamienia.",
         "To end one's turn without placing a tile.",
         r"spasow\w*|spasuj\w*|pas|pasem|pasy|pasów", r"pass(?:es|ed|ing)?",
         "spasować spasuje spasował pas pasy pasem pasów"),
    Term("kolejka", "turn",
         "Czas, w którym ruch ma jeden gracz.",
         "The time in which one player acts.",
         r"kolejk\w*|kolejce", r""),
    Term("rozdanie", "hand",
         "Jedna partia od rozdania kamieni do domino albo blokady; też samo rozdanie kamieni.",
         "One game from the deal to domino or block; also the deal itself.",
         r"rozda\w*", r""),
    Term("domino!", "domino",
         "Koniec rozdania, gdy gracz wyłoży wszystkie swoje kamienie; ten gracz wygrywa.",
         "The end of a hand when a player has placed all their tiles; that player wins.",
         r"domino", r"domino"),
    Term("blokada", "block",
         "Koniec rozdania, gdy nikt nie może już nic dołożyć (a talon jest pusty).",
         "The end of a hand when nobody can place a tile (and the stock is empty).",
         r"blokad\w*", r"block(?:ed)?"),
    Term("gra blokowa", "block game",
         "Gra bez dobierania (ang. block game): kamienie, których nie rozdano, są poza grą.",
         "A game without drawing: the tiles not dealt are out of play.",
         r"gr\w* blokow\w*|gr\w* bez dobierania", r"block games?"),
    Term("plansza", "board",
         "U Pijanowskiego: szachownica z 6 x 6 pól, każde z dwóch kwadratów.",
         "In Pijanowski: a chessboard of 6 x 6 fields, each of two cells.",
         r"plansz\w*", r"board"),
    Term("pole", "field",
         "Prostokąt planszy na jeden kamień, jasny albo ciemny.",
         "A rectangle of the board that holds one tile, light or dark.",
         r"pol(?:e|a|u|ach|ami)|pól", r"fields?"),
    Term("kwadrat", "cell",
         "Połowa pola, na jedną połówkę kamienia.",
         "Half a field, which holds one half of a tile.",
         r"kwadrat\w*|kwadracik\w*", r"cells?"),
    Term("jeziorko", "lake",
         "U Pijanowskiego puste miejsce od 1 do 4 kwadratów zamknięte kamieniami (albo "
         "kamieniami i brzegiem planszy); za każdy kwadrat 4 punkty.",
         "In Pijanowski, an empty region of 1 to 4 cells enclosed by tiles (or tiles and the "
         "board's edge); 4 points per cell.",
         r"jeziork\w*|jeziorek", r"lakes?",
         "jeziorko jeziorka jeziorku jeziorkiem jeziorek jeziorkami jeziorkach"),
    Term("przyłapanie", "catch",
         "W Poldomino kara dla gracza, któremu na koniec rozdania został na ręce tylko [0|0] "
         "albo tylko [6|6].",
         "In Poldomino, the penalty for being left holding [0|0] or [6|6] alone.",
         r"przyłap\w*", r"catch"),
    Term("set", "set (of hands)",
         "W Poldomino seria rozdań do 125 punktów; mecz to dwa wygrane sety.",
         "In Poldomino, a run of hands to 125 points; the match is two sets won.",
         r"set\w*", r"sets"),
    Term("runda", "round",
         "W Progressive 10 rozdań ze zmienną liczbą kamieni.",
         "In Progressive, 10 hands with a changing number of tiles.",
         r"rund\w*", r"rounds?"),
    Term("dogrywka", "tiebreak",
         "W Progressive 10 dodatkowych rozdań z nierównymi rękami, gdy rundy nie rozstrzygnęły.",
         "In Progressive, 10 extra hands with unequal hands when the rounds did not decide.",
         r"dogryw\w*", r"tiebreaks?"),
)
"""Every term, in the glossary's reading order."""

_LINK_OR_CODE = re.compile(r"\[[^\]]*\]\([^)]*\)|`[^`]*`|<[^>]*>|\{[^}]*\}")


def _english(term: str, lang: Lang) -> str:
    """The spec's English term, marked as English on a page in another language."""
    return md(term) if lang.code == "en" else f'<span lang="en">{md(term)}</span>'


def glossary_markdown(lang: Lang) -> str:
    """The glossary page in ``lang``: each Polish term under its anchor, with the English term
    of the spec and its meaning."""
    if lang.code == "pl":
        lines = ["# Słowniczek", "",
                 "Słowa, którymi gracze mówią o tych grach, i angielskie nazwy, których używa "
                 "specyfikacja (spec/) i silniki. Słowa w opisach zasad prowadzą tutaj.", ""]
    else:
        lines = ["# Glossary", "",
                 "The Polish words players use for these games, with the English term the spec "
                 "(and every engine) uses for each. Terms in the rule texts link here.", ""]
    for term in TERMS:
        meaning = term.pl_meaning if lang.code == "pl" else term.en_meaning
        lines += [f"## {md(term.pl)} {{ #{term.anchor} }}", "",
                  f"*{lang.word('english_term')}:* **{_english(term.en, lang)}**. "
                  f"{md(meaning)}", ""]
        picture = term_picture(term.anchor, lang)
        if picture:
            lines += [picture, ""]
    return "\n".join(lines)


def term_picture(anchor: str, lang: Lang) -> str:
    """A small drawing of a term, made with the book's own diagrams (empty when the term has
    none): a double, a blank, a widow, an open end, a lake, the stock."""
    from dominokit.conformance.run import diagrams
    from dominokit.rulebook.captions import say
    from dominokit.rulebook.chainrows import end_names
    from dominokit.rulebook.text import figure

    title = say(lang, f"term_pic.{anchor}") if f"term_pic.{anchor}" in _PICTURED else ""
    if anchor == "dublet":
        svg = diagrams.chain_svg([(6, 6)], diagrams.ChainStyle(), title=title, ends=False)
    elif anchor == "mydlo":
        svg = diagrams.chain_svg([(0, 4)], diagrams.ChainStyle(), title=title, ends=False)
    elif anchor == "wdowa":
        svg = diagrams.widow_svg(4, 1, title=title, names=(say(lang, "pic.player", player=0),
                                                           say(lang, "pic.player", player=1)))
    elif anchor == "koncowka":
        svg = diagrams.chain_svg([(2, 3), (3, 6)], diagrams.ChainStyle(), title=title,
                                 end_names=end_names(lang))
    elif anchor == "jeziorko":
        # Four tiles round one empty cell; every touching pair of halves matches (R-PIJ-04).
        ring = [((0, 0), (0, 1), (5, 3)), ((0, 2), (1, 2), (3, 6)),
                ((2, 2), (2, 1), (6, 2)), ((2, 0), (1, 0), (2, 5))]
        tiles = [diagrams.BoardTile((a, b), pips) for a, b, pips in ring]
        svg = diagrams.board_svg(3, 3, tiles, title=title, lakes=[(1, 1)])
    elif anchor == "talon":
        svg = diagrams.facedown_svg(6, title=title)
    else:
        return ""
    return figure(svg, say(lang, f"term_pic.{anchor}"))


_PICTURED: Final = {f"term_pic.{a}" for a in
                    ("dublet", "mydlo", "wdowa", "koncowka", "jeziorko", "talon")}


def link_terms(markdown: str, here: str, lang: Lang) -> str:
    """``markdown`` (one rule's text) with the first use of each glossary term made a link to
    the glossary; text inside links, code and HTML tags is left alone."""
    target = relative(GLOSSARY_PAGE, here)
    linked: set[str] = set()
    pieces: list[str] = []
    last = 0
    for match in _LINK_OR_CODE.finditer(markdown):
        pieces.append(_link_plain(markdown[last:match.start()], target, lang, linked))
        pieces.append(match.group(0))
        last = match.end()
    pieces.append(_link_plain(markdown[last:], target, lang, linked))
    return "".join(pieces)


def _link_plain(text: str, target: str, lang: Lang, linked: set[str]) -> str:
    """Link the first use of each term not yet linked; every match is found in the text as
    given, so a link just made is never searched again."""
    spans: list[tuple[int, int, Term]] = []
    for term in TERMS:
        if term.anchor in linked:
            continue
        forms = term.pl_forms if lang.code == "pl" else term.en_forms
        if not forms:
            continue
        flags = re.IGNORECASE if lang.code == "pl" else 0
        found = re.search(rf"(?<![\w\[|-])(?:{forms})(?![\w\]|-])", text, flags)
        if found and not any(s < found.end() and found.start() < e for s, e, _ in spans):
            spans.append((found.start(), found.end(), term))
            linked.add(term.anchor)
    for start, end, term in sorted(spans, key=lambda span: span[0], reverse=True):
        text = f"{text[:start]}[{text[start:end]}]({target}#{term.anchor}){text[end:]}"
    return text
