"""The play pages ("Play" / "Zagraj") and the play blocks added to the book's other pages.

Each game gets one play page per language: a root element that ``docs/play/play.js`` fills
with the reference running in the browser (Pyodide loads only there). Each golden trace page
gets a stepper block (Pyodide loads when the reader starts it), and the pages that show
positions (a game's worked examples, each perft position) get links that open them in the
play page. The words of the page frame are here in both languages; every rule word the page
shows comes from the spec at run time.
"""

from __future__ import annotations

import html
import json
from collections.abc import Mapping
from typing import Final
from urllib.parse import urlencode

from dominokit.rulebook.book import Book, variant_page
from dominokit.rulebook.card import game_name
from dominokit.rulebook.coverage import perft_page, trace_page
from dominokit.rulebook.i18n import EN, LANGS, Lang
from dominokit.rulebook.text import code, relative

PLAY_DIR: Final = "play"

LABELS: Final[Mapping[str, Mapping[str, str]]] = {
    "en": {
        "title": "Play {game}", "nav": "Play", "loading": "Loading the engine…",
        "failed": "The engine did not start:", "seed": "Seed", "opponent": "Opponent",
        "opponent_first": "first legal move", "opponent_random": "random (from the seed)",
        "seat": "You play", "seat_0": "player 0", "seat_1": "player 1",
        "seat_both": "both players", "deal": "Deal", "share": "link to this position",
        "your_turn": "Your turn (player {p}).", "their_turn": "Player {p} to move.",
        "over": "The hand is over.", "hand": "Player {p}:", "legal": "Legal actions",
        "draw": "draw", "pass": "pass", "stop": "stop", "undo": "Undo", "lake": "lake",
        "illegal": "{a} is not allowed:", "not_your_turn": "it is not your turn.",
        "nobody": "Nobody wins", "winner": "Player {p} wins", "reason_domino": "domino",
        "reason_block": "block", "reason_mutual_pass": "two passes in a row", "points": "Points",
        "term": "Term", "player": "Player", "rule": "Rule", "back": "back",
        "forward": "forward", "step": "hand {h} of {hs}, step {s} of {ss}",
        "open_here": "open this position in the play page",
        "start": "Step through this trace in the browser",
        "intro": ("Deal a hand and play it against a simple opponent on the reference engine "
                  "itself, running in your browser. Choose a tile of your hand to see where "
                  "it goes; every legal action is highlighted on the table and listed in "
                  "notation. A click the rules forbid is answered with the rule it breaks."),
        "stepper": ("Replay this trace with the reference engine in the page: the table, "
                    "both hands, the legal actions and the events at every step."),
        "play_link": "Play {game} in the browser",
        "positions": "Open these positions in the play page:",
        "example_deal": "the deal",
        "example_steps": "The worked example {trace}, after move:",
        "perft_position": "position {name}",
        "noscript": "The play page needs JavaScript and WebAssembly.",
        "pick_tile": "Choose a tile from your hand first.",
    },
    "pl": {
        "title": "Zagraj: {game}", "nav": "Zagraj", "loading": "Wczytuję silnik…",
        "failed": "Silnik się nie uruchomił:", "seed": "Ziarno", "opponent": "Przeciwnik",
        "opponent_first": "pierwszy dozwolony ruch", "opponent_random": "losowy (z ziarna)",
        "seat": "Grasz jako", "seat_0": "gracz 0", "seat_1": "gracz 1",
        "seat_both": "obaj gracze", "deal": "Rozdaj", "share": "link do tej pozycji",
        "your_turn": "Twój ruch (gracz {p}).", "their_turn": "Ruch gracza {p}.",
        "over": "Rozdanie skończone.", "hand": "Gracz {p}:", "legal": "Dozwolone ruchy",
        "draw": "dobierz", "pass": "pasuj", "stop": "stop", "undo": "Cofnij",
        "lake": "jeziorko", "illegal": "Ruch {a} jest niedozwolony:",
        "not_your_turn": "to nie twój ruch.", "nobody": "Nikt nie wygrywa",
        "winner": "Wygrywa gracz {p}", "reason_domino": "domino",
        "reason_block": "blokada", "reason_mutual_pass": "dwa pasy z rzędu",
        "points": "Punkty", "term": "Składnik", "player": "Gracz", "rule": "Zasada",
        "back": "wstecz", "forward": "dalej",
        "step": "rozdanie {h} z {hs}, ruch {s} z {ss}",
        "open_here": "otwórz tę pozycję na stronie gry",
        "start": "Przejdź tę partię krok po kroku w przeglądarce",
        "intro": ("Rozdaj kamienie i zagraj z prostym przeciwnikiem na samym silniku "
                  "wzorcowym, który działa w twojej przeglądarce. Wybierz kamień z ręki, a "
                  "zobaczysz, gdzie można go dołożyć; każdy dozwolony ruch jest zaznaczony "
                  "na stole i wypisany w notacji. Na ruch niezgodny z zasadami strona "
                  "odpowiada zasadą, którą łamie."),
        "stepper": ("Odtwórz tę partię silnikiem wzorcowym na stronie: stół, obie ręce, "
                    "dozwolone ruchy i zdarzenia po każdym ruchu."),
        "play_link": "Zagraj w przeglądarce: {game}",
        "positions": "Otwórz te pozycje na stronie gry:",
        "example_deal": "rozdanie",
        "example_steps": "Przykład {trace} po ruchu:",
        "perft_position": "pozycja {name}",
        "noscript": "Strona gry wymaga JavaScriptu i WebAssembly.",
        "pick_tile": "Najpierw wybierz kamień z ręki.",
    },
}
"""The page frame's words; the rule words come from the spec."""


def play_page(variant_id: str) -> str:
    """Where a game's play page lives, relative to ``docs/``."""
    return f"{PLAY_DIR}/{variant_id}.md"


def _ups(page: str) -> str:
    """From page ``page``'s URL (``a/b.md`` is served at ``a/b/``) up to its language root."""
    depth = page.removesuffix(".md").count("/") + 1
    return "../" * depth


def _root(page: str, lang: Lang, variant_id: str, mode: str, **extra: str) -> str:
    lang_root = _ups(page)
    site_root = lang_root + ("" if lang.code == EN.code else "../")
    attrs = {
        "id": "dk-play", "class": "dk-play", "data-mode": mode, "data-variant": variant_id,
        "data-lang": lang.code, "data-site-root": site_root, "data-lang-root": lang_root,
        "data-play-page": lang_root + play_page(variant_id).removesuffix(".md") + "/",
        "data-state": "idle",
        "data-labels": json.dumps(LABELS[lang.code], ensure_ascii=False, sort_keys=True),
        **extra,
    }
    text = " ".join(f'{k}="{html.escape(v, quote=True)}"' for k, v in attrs.items())
    noscript = LABELS[lang.code]["noscript"]
    return (f'<link rel="stylesheet" href="{site_root}{PLAY_DIR}/play.css">\n\n'
            f"<div {text}><noscript>{noscript}</noscript></div>\n\n"
            f'<script src="{site_root}{PLAY_DIR}/play.js" defer></script>\n')


def play_markdown(book: Book, variant_id: str, lang: Lang) -> str:
    """A game's play page in ``lang``."""
    words = LABELS[lang.code]
    variant = next(v for v in book.variants if v.id == variant_id)
    page = play_page(variant_id)
    rules = relative(variant_page(variant_id), page)
    name = game_name(variant, lang)
    return (f"# {words['title'].format(game=name)}\n\n{words['intro']} [{name}]({rules})\n\n"
            + _root(page, lang, variant_id, "play"))


def stepper_block(trace_id: str, variant_id: str, lang: Lang) -> str:
    """The block a trace page gets: its stepper, started by the reader."""
    words = LABELS[lang.code]
    page = trace_page(trace_id)
    return (f"\n\n## {words['start']}\n\n{words['stepper']}\n\n"
            + _root(page, lang, variant_id, "trace", **{"data-trace": trace_id}))


def _anchor(text: str, href: str) -> str:
    """A list item linking a play-page position: raw HTML, because the position is in the
    URL fragment, which mkdocs would check as a heading anchor."""
    return (f'- <a class="dk-position-link" href="{html.escape(href, quote=True)}">'
            f"{html.escape(text)}</a>")


def _link(page: str, variant_id: str, params: Mapping[str, str]) -> str:
    return f"{_ups(page)}{PLAY_DIR}/{variant_id}/#{urlencode(params)}"


def example_links(book: Book, variant_id: str, lang: Lang) -> str:
    """Links from a game's page to its worked examples, opened in the play page."""
    words = LABELS[lang.code]
    page = variant_page(variant_id)
    name = next(game_name(v, lang) for v in book.variants if v.id == variant_id)
    lines = [f"\n\n[{words['play_link'].format(game=name)}]"
             f"({relative(play_page(variant_id), page)}){{ .md-button }}\n"]
    examples = book.examples_of(variant_id)
    if examples:
        lines.append(f"\n{words['positions']}\n")
        for info in examples:
            steps = info.text.count("\n  - action:")
            links = []
            for step in range(steps + 1):
                params = {"trace": info.id, "hand": "0", "step": str(step)}
                text = words["example_deal"] if step == 0 else str(step)
                href = html.escape(_link(page, variant_id, params), quote=True)
                links.append(f'<a class="dk-position-link" href="{href}">{text}</a>')
            lines.append(f"- {words['example_steps'].format(trace=code(info.id))} "
                         + " · ".join(links))
    return "\n".join(lines) + "\n"


def perft_links(variant_id: str, positions: list[Mapping[str, object]], lang: Lang) -> str:
    """Links from a game's perft page to each of its positions in the play page."""
    words = LABELS[lang.code]
    page = perft_page(variant_id)
    lines = [f"\n\n{words['positions']}\n"]
    for position in positions:
        params = {"deal": json.dumps(position["deal"], separators=(",", ":")),
                  "moves": ",".join(str(a) for a in position.get("actions", []) or []),  # type: ignore[attr-defined]
                  "seat": "both"}
        lines.append(_anchor(words["perft_position"].format(name=position["name"]),
                             _link(page, variant_id, params)))
    return "\n".join(lines) + "\n"


def play_pages(book: Book) -> dict[str, str]:
    """Every play page in every language, by file (``play/<id>.md``, ``play/<id>.pl.md``)."""
    return {lang.page(play_page(v.id)): play_markdown(book, v.id, lang)
            for lang in LANGS for v in book.variants}


def play_nav(book: Book) -> dict[str, list[dict[str, str]]]:
    """The "Play" section of the navigation: one entry per game."""
    return {LABELS["en"]["nav"]: [{v.name: play_page(v.id)} for v in book.variants]}
