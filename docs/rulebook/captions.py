"""The words of the drawn examples, the trace pages and the perft pages, in each language.

A Polish reader of a drawn example needs its captions, move tables and event descriptions in
Polish, made from the same trace data as the English ones, never copied by hand per example.
So every fixed phrase those pages use lives here, once per language under one key, and the
page makers ask ``say(lang, key, ...)`` for it: adding a phrase means adding it in both
languages (``tests/rulebook/test_rulebook_polish_pages.py`` fails otherwise, and fails again when an
English phrase from this table turns up on a Polish page). Fields in braces are filled in from
the trace (numbers, tiles, links); a field is the same in both languages.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Final

from dominokit.rulebook.i18n import EN, PL, Lang, polish_count

PHRASES: Final[Mapping[str, Mapping[str, str]]] = {
    EN.code: {
        # examples.describe: one step in words
        "why_head": "Why it is allowed",
        "parity.0": "even",
        "parity.1": "odd",
        "why.open_any": "the first tile of a hand may be any tile",
        "why.widow": "the first tile goes on the widow's higher half ({end}), which faces "
                     "player {player}",
        "why.match": "{end} against the end's {end}",
        "why.parity": "{end} against {end}; the other half, {new}, is {new_kind} after an "
                      "{end_kind} {end}",
        "why.blank_half": "{end} against {end}, and the other half is a blank, which counts "
                          "as both even and odd",
        "why.blank_end": "a blank end takes any tile, either half against it",
        "why.double_cross": "; a double goes crosswise",
        "why.draw_free": "drawing is allowed at any time, as many tiles as one likes",
        "why.draw_until": "nothing fits, so the player draws",
        "why.pass_free": "a player may pass in any turn",
        "why.pass_stuck": "no tile in hand fits",
        "why.pass_stuck_stock": "no tile in hand fits and the stock is empty",
        "why.stop": "after {tile} the extra tile is allowed, never compulsory",
        "why.extra": "a second tile in the same turn, because {tile} was just placed",
        "why.board_first": "the first tile may go on any two adjacent cells",
        "why.board_touch": "it touches tiles already placed, each touching half with the "
                           "same pips ({pips})",
        "pic.where": "golden trace {trace}, move {move}",
        "pic.edge_title": "{game}: a one-cell lake against the board's edge",
        "pic.edge": "A lake of one cell, {cell}: the tile just placed (outlined) closes it "
                    "with the edge of the board ({where}).",
        "pic.four_title": "{game}: a lake of four cells",
        "pic.four": "The largest lake: {n} cells, {cells}, worth {points} points ({where}).",
        "pic.five_title": "{game}: five closed empty cells are not a lake",
        "pic.five": "{size} closed in, dashed: {cells}. That is more than {n}, so it is no "
                    "lake and scores nothing ({where}).",
        "pic.corner_title": "{game}: empty cells that touch only at a corner",
        "pic.corner": "The lake {cells} is closed even though the empty cell {cell} (dashed) "
                      "touches it at a corner: cells connect only through their sides "
                      "({where}).",
        "pic.option_title": "{game}: the same move under lake_rule {value}",
        "pic.option": "Under {option} = {value}, move {move} scores {points} lake points "
                      "({trace}).",
        "pic.widow_title": "{game}: the widow between the players",
        "pic.player": "player {player}",
        "pic.widow": "The widow {tile} stands between the players: {low} faces player 0, "
                     "{high} faces player 1. The higher half ({top}, outlined) faces player "
                     "{starter}, who starts ({trace}).",
        "pic.widow_after_title": "{game}: the first tile goes on the widow's higher half",
        "pic.widow_after": "Player {player}'s first tile: {why}.",
        "pic.pass_title": "{game}: the table when move {move} is a pass",
        "pic.pass": "Move {move}: player {player} holds {hand} and passes: {why} ({trace}).",
        "pic.extra_title": "{game}: a turn of two tiles",
        "pic.extra": "Player {player} places {tile} (move {first}) and then one more tile in "
                     "the same turn (move {second}); both are outlined ({trace}).",
        "pic.schedule_title": "{game}: tiles per player, deal by deal",
        "pic.schedule": "How many tiles each player gets in each deal; in the tiebreak the "
                        "two players get different numbers (left bar: player A).",
        "pic.tiebreak": "tiebreak",
        "pic.deal": "deal",
        "pp.reading_nav": "How to read the book",
        "pp.hand_title": "{game}: a whole hand, worked",
        "pp.hand_intro": "One hand of {game} from the deal to the scoring: every move with the "
                         "reason it is allowed and the table drawn after it, then the score. "
                         "The hand is a golden trace the suite replays on every engine.",
        "pp.match_head": "A whole match, hand by hand",
        "pp.match_intro": "How the hands add up in a whole match of {game} ({rule}); each "
                          "hand is drawn on {link}.",
        "pp.match_link": "the match's own page",
        "pp.match_table": "| Hand | Winner | Points of the hand | Totals after it | Next |",
        "pp.card_title": "{game}: the card to print",
        "pp.card_intro": "The whole game on one A4 page; print it from the browser. Every "
                         "rule is stated in full on [the game's page]({page}).",
        "pp.source": "Source:",
        "pp.board_title": "{game}: the board to print",
        "pp.board_intro": "The text asks players to make the board themselves, sized to their "
                          "tiles ({rule}). This board is drawn for tiles of {mm} × {long} mm: "
                          "print it on A4 in landscape at 100 % (no \"fit to page\"), or "
                          "measure one half of your tiles and scale the print to match.",
        "pp.board_svg": "The empty board of {rows} × {cols} cells at real size",
        "term_pic.dublet": "A double: [6|6]",
        "term_pic.mydlo": "A blank: the left half of [0|4]",
        "term_pic.wdowa": "The widow between the players; the higher half, outlined, starts",
        "term_pic.koncowka": "A chain with two open ends, L and R",
        "term_pic.jeziorko": "A one-cell lake, closed in by four tiles",
        "term_pic.talon": "The stock: tiles lying face down",
        "end_letter.L": "L",
        "end_letter.R": "R",
        "end.open": "on the open end",
        "end.L": "on the left end",
        "end.R": "on the right end",
        "opens": "opens with {tile}: the ends show {left} and {right}",
        "plays": "plays {tile} {where}, its {touch} touching; the end now shows {shown}",
        "places": "places {tile}: {low} on {low_cell}, {high} on {high_cell}",
        "draws": "draws {tile}",
        "passes": "passes",
        "stops": "stops (no extra tile)",
        "lake": "closes a lake of {cells} ({names})",
        "hand_ends": "the hand ends: {result}",
        # examples.result_words
        "reason.domino": "by domino",
        "reason.block": "by block",
        "reason.mutual_pass": "after two passes in a row",
        "nobody_wins": "nobody wins (ended {reason})",
        "wins": "player {player} wins {reason}",
        "result_tail": "{head}; points {points}, pips left {pips}",
        "term.opponent_pips": "opponent's pips left",
        "term.own_pips": "own pips left",
        "term.last_tile_bonus": "last-tile bonus",
        "term.catch": "catch",
        "term.placement_points": "placement and lake points",
        "result": "**Result:** {words}.",
        "terms_head": "| Player | Points | For | Rule |",
        # examples.worked_example
        "trace_line": "Trace {trace} (conformance case {case}), covering {rules}.",
        "deal": "**Deal.** {hands}.",
        "hand_of": "player {player}: {tiles}",
        "widow_deal": " Widow {tile}: {low} faces player 0, {high} faces player 1.",
        "stock": " Stock, in draw order: {tiles}{more}.",
        "stock_more": " and {count} more",
        "moves_head_points": "| Move | Player | Action | What happens | Why it is allowed | "
                             "Points |",
        "moves_head": "| Move | Player | Action | What happens | Why it is allowed |",
        "chain_no_points": "Chain games score only when the hand ends, so the moves have no "
                           "points of their own.",
        "board_final_title": "{game}, {trace}: the board after the last move, {action}",
        "board_final": "The board after move {move}; the last tile placed is outlined.",
        "chain_after_title": "{game}, {trace}: the chain after move {move}, {action}",
        "chain_after": "After move {move}: player {player} plays {action}",
        "chain_final_title": "{game}, {trace}: the final chain, tiles numbered by move",
        "chain_final": "The final chain; the number under each tile is its move.",
        "widow_label": "widow",
        "arithmetic": "The arithmetic, by hand (from the trace file)",
        # chainrows
        "part": "{title} (part {part} of {parts}: tiles {first} to {last})",
        "rows": "Read left to right, row by row.",
        # examples.suite_traces and the trace index
        "suite_head": "Golden traces of this game",
        "suite_intro": "The golden traces of this game. Every trace is a conformance case "
                       "(`golden/<id>`) that any engine can replay, and has its own page, "
                       "drawn move by move; see "
                       "[the trace format]({format}).",
        "traces_head": "| Trace | Kind | What it shows |",
        "traces_rules_head": "| Trace | Kind | What it shows | Rules |",
        "kind.hand": "hand",
        "kind.match": "match",
        "kind_of.hand": "hand",
        "kind_of.match": "match",
        "index_title": "Golden traces",
        "index_intro": "Each golden trace is a hand or a match whose every value was checked "
                       "by hand against the rules; the suite replays it against every engine. "
                       "Each has its own page, drawn move by move, with the rules it covers.",
        # viewer: one page per trace
        "game": "*Game:* [{game}]({page}).",
        "trace_kind": "*Kind:* {kind} trace, replayed by the conformance case {case} (see "
                      "[the trace format]({format})).",
        "options": "*Options:* {options}",
        "note": "*Note:* {note}",
        "rules_covered": "Rules covered",
        "hand_head": "Hand {hand}",
        "hand_end_title": "{game}, {trace}: the table at the end of hand {hand}",
        "hand_end_board": "Hand {hand}: the board at its end.",
        "hand_end_chain": "Hand {hand}: the final chain; the number under each tile is its "
                          "move.",
        "match_after": "**Match after hand {hand}:** totals {totals}; {phase}{winner}.",
        "match_winner": "; player {player} wins the match",
        "phase.over": "over",
        "phase.hand": "hand {number}",
        "phase.deal": "deal {number}",
        "phase.set": "set {number}",
        "phase.round": "round {number}",
        "phase.tiebreak": "tiebreak {number}",
        "hard_play": "move {move} places {tile} on an end showing {end}",
        "no_hard_play": "In this trace no move places one of these tiles.",
        "hard_plays": "In this trace, {plays}.",
        # placement: the hardest tiles
        "hardest_head": "Which tiles are hardest to place",
        "hardest": "Under {rules} a tile fits an open end only on some end values. Counted "
                   "from the rules for every tile of the set, the hardest to place fit on "
                   "{values} only ({ends}): {tiles}.",
        "hardest_table": "| Tile | Fits on an end showing | How many |",
        # sidebyside: one hand under both values of an option
        "pair_head": "The same hand under both values of {option}",
        "pair_intro": "{first} and {second} play this deal with the same moves; only {option} "
                      "differs ({rule}). Each trace has its own page: {links}.",
        "this_page": "{value} (this page)",
        "pair_table": "| Move | Action | Under {first} | Under {second} |",
        "scored": " (**{points}** points; score {score})",
        "pair_title": "{game}: the table after move {move} under {option} {value}",
        "pair_caption": "After move {move}, under {value}; the lakes this move scores are "
                        "shaded.",
        "under": "**Under {value}.**",
        # coverage: the tests behind a rule, the perft pages
        "engine_notes": "For engine authors",
        "rule_id": "Rule id {rule}; an engine names it when it refuses a move that breaks it.",
        "tested_by": "*Tested by:* {tests}.",
        "tested_by_none": "Tested by: no case names this rule yet.",
        "tested_traces": "golden traces {traces}",
        "tested_perft": "perft file {file} (positions {positions})",
        "tested_cases": "cases {cases}",
        "perft_title": "Perft positions: {game}",
        "perft_intro": "The positions of {file}. Perft ({rule}) counts the sequences of legal "
                       "actions of a given length from a position; an engine whose counts "
                       "differ lists a wrong set of actions somewhere below it. "
                       "`dominokit perft` recomputes any of them.",
        "perft_rules": "Rules: {rules}.",
        "perft_table": "| depth | count |",
        "perft_nav": "Perft positions",
        "side_by_side_nav": "The games side by side",
        # opening: the published Pijanowski opening, every score explained
        "colour.0": "light",
        "colour.1": "dark",
        "op.field": "one {colour} field",
        "op.twice": "twice",
        "op.times": "{factor} times",
        "op.same_field": "both halves lie on {field}, so its pips count {times}: "
                         "{factor} × {pips} = {points}",
        "op.two_fields": "two fields",
        "op.two_fields_one_colour": "two fields of one colour",
        "op.across": "it lies across {kind} ({low_cell} on {low_colour}, {high_cell} on "
                     "{high_colour}), so its pips count once: {points}",
        "op.lake": "it closes a lake of {size} ({cells}), fenced in by {fence}: "
                   "{n} × {per_cell} = {points}",
        "op.extra": " Placing {tile} lets the same player place one more tile in this turn "
                    "({rule}).",
        "op.moves_head": "Move by move",
        "op.moves_intro": "Player {player} starts and the players alternate; the {tile} turn "
                          "is two placements. Field colours follow {rule} (light and dark as "
                          "drawn); the tile just placed is outlined in orange and lake cells "
                          "are blue. Read the notation as `tile@low-half cell+high-half cell`, "
                          "each cell as `row.column` ([notation]({notation})).",
        "op.heading": "Move {move}: player {player}, {tile}, {points} points",
        "op.title": "The board after move {move}: player {player} places {action} for "
                    "{points} points",
        "op.caption": "Move {move}: {action}, {points} points{second}",
        "op.second": " (second tile of the turn)",
        "op.goes_on": "{tile} goes on {low_cell} and {high_cell}: {reasons}.{extra}",
        "op.turns_head": "Published and reconstructed, turn by turn",
        "op.turns_table": "| Turn | Player | Tiles | Published | This board |",
    },
    PL.code: {
        "why_head": "Dlaczego wolno",
        "parity.0": "parzysta",
        "parity.1": "nieparzysta",
        "why.open_any": "pierwszy kamień rozdania może być dowolny",
        "why.widow": "pierwszy kamień dokłada się do wyższej połówki wdowy ({end}), zwróconej "
                     "do gracza {player}",
        "why.match": "{end} do {end} na końcówce",
        "why.parity": "{end} do {end}; druga połówka, {new}, jest {new_kind}, a {end} – "
                      "{end_kind}",
        "why.blank_half": "{end} do {end}, a druga połówka to mydło, które liczy się i jako "
                          "parzyste, i jako nieparzyste",
        "why.blank_end": "do końcówki z mydłem pasuje każdy kamień, dowolną połówką",
        "why.double_cross": "; dublet kładzie się w poprzek",
        "why.draw_free": "dobierać wolno zawsze i ile się chce",
        "why.draw_until": "nie ma czego dołożyć, więc dobiera z talonu",
        "why.pass_free": "spasować wolno w każdej kolejce",
        "why.pass_stuck": "nie ma czego dołożyć",
        "why.pass_stuck_stock": "nie ma czego dołożyć, a talon jest pusty",
        "why.stop": "po {tile} dodatkowy kamień wolno położyć, ale nie trzeba",
        "why.extra": "drugi kamień w tej samej kolejce, bo gracz położył przed chwilą {tile}",
        "why.board_first": "pierwszy kamień może leżeć na dowolnych dwóch sąsiednich kwadratach",
        "why.board_touch": "styka się z leżącymi kamieniami, a każda stykająca się połówka ma "
                           "tyle samo oczek co sąsiadka ({pips})",
        "pic.where": "partia wzorcowa {trace}, po ruchu {move}",
        "pic.edge_title": "{game}: jeziorko z jednego kwadratu przy brzegu planszy",
        "pic.edge": "Jeziorko z jednego kwadratu, {cell}: zamyka je właśnie położony kamień "
                    "(z obwódką) razem z brzegiem planszy ({where}).",
        "pic.four_title": "{game}: jeziorko z czterech kwadratów",
        "pic.four": "Największe jeziorko: {n} kwadraty, {cells}, warte {points} punktów "
                    "({where}).",
        "pic.five_title": "{game}: pięć zamkniętych pustych kwadratów to nie jeziorko",
        "pic.five": "{size} zamkniętych kamieniami, z przerywaną linią: {cells}. To więcej "
                    "niż {n}, więc to nie jeziorko i nie ma za nie punktów ({where}).",
        "pic.corner_title": "{game}: puste kwadraty, które stykają się tylko narożnikiem",
        "pic.corner": "Jeziorko {cells} jest zamknięte, chociaż pusty kwadrat {cell} (przerywana "
                      "linia) dotyka go narożnikiem: puste kwadraty łączą się tylko bokami "
                      "({where}).",
        "pic.option_title": "{game}: ten sam ruch, gdy liczy się {value}",
        "pic.option": "Przy opcji {option} ustawionej na {value} ruch {move} daje {points} pkt "
                      "za jeziorka "
                      "({trace}).",
        "pic.widow_title": "{game}: wdowa między graczami",
        "pic.player": "gracz {player}",
        "pic.widow": "Wdowa {tile} stoi między graczami: połówka {low} jest zwrócona do gracza "
                     "0, połówka {high} do gracza 1. Wyższa połówka ({top}, z obwódką) jest po "
                     "stronie gracza {starter} i to on zaczyna ({trace}).",
        "pic.widow_after_title": "{game}: pierwszy kamień dokłada się do wyższej połówki wdowy",
        "pic.widow_after": "Pierwszy kamień gracza {player}: {why}.",
        "pic.pass_title": "{game}: stół, gdy ruch {move} jest pasem",
        "pic.pass": "Ruch {move}: gracz {player} ma na ręce {hand} i mówi „pas”: {why} "
                    "({trace}).",
        "pic.extra_title": "{game}: kolejka z dwoma kamieniami",
        "pic.extra": "Gracz {player} kładzie {tile} (ruch {first}), a potem w tej samej "
                     "kolejce jeszcze jeden kamień (ruch {second}); oba mają obwódkę ({trace}).",
        "pic.schedule_title": "{game}: liczba kamieni dla każdego gracza, rozdanie po rozdaniu",
        "pic.schedule": "Ile kamieni dostaje każdy gracz w kolejnych rozdaniach; w dogrywce "
                        "gracze dostają po różnej liczbie (lewy słupek: gracz A).",
        "pic.tiebreak": "dogrywka",
        "pic.deal": "rozdanie",
        "pp.reading_nav": "Jak czytać tę książkę",
        "pp.hand_title": "{game}: całe rozdanie krok po kroku",
        "pp.hand_intro": "Jedno rozdanie gry {game} od rozdania kamieni do liczenia punktów: "
                         "każdy ruch z tym, dlaczego jest dozwolony, i z rysunkiem stołu, a na "
                         "końcu punkty. To partia wzorcowa, którą testy odtwarzają na każdym "
                         "silniku.",
        "pp.match_head": "Cały mecz, rozdanie po rozdaniu",
        "pp.match_intro": "Jak sumują się punkty w całym meczu gry {game} ({rule}); każde "
                          "rozdanie jest rozrysowane na {link}.",
        "pp.match_link": "osobnej stronie meczu",
        "pp.match_table": "| Rozdanie | Wygrywa | Punkty za rozdanie | Sumy po nim | Dalej |",
        "pp.card_title": "{game}: karta do wydruku",
        "pp.card_intro": "Cała gra na jednej kartce A4; wydrukuj ją z przeglądarki. Każda "
                         "zasada jest opisana w całości na [stronie gry]({page}).",
        "pp.source": "Źródło:",
        "pp.board_title": "{game}: plansza do wydruku",
        "pp.board_intro": "Tekst każe graczom zrobić planszę samemu, dopasowaną do kamieni "
                          "({rule}). Ta plansza jest narysowana dla kamieni {mm} × {long} mm: "
                          "wydrukuj ją na kartce A4 poziomo, w skali 100 % (bez „dopasuj do "
                          "strony”), albo zmierz połówkę swoich kamieni i dobierz skalę.",
        "pp.board_svg": "Pusta plansza {rows} × {cols} kwadratów w prawdziwej wielkości",
        "term_pic.dublet": "Dublet: [6|6]",
        "term_pic.mydlo": "Mydło: lewa połówka kamienia [0|4]",
        "term_pic.wdowa": "Wdowa między graczami; zaczyna ten, po czyjej stronie jest wyższa "
                          "połówka (z obwódką)",
        "term_pic.koncowka": "Łańcuch z dwiema końcówkami, L i P",
        "term_pic.jeziorko": "Jeziorko z jednego kwadratu, zamknięte czterema kamieniami",
        "term_pic.talon": "Talon: kamienie leżące grzbietem do góry",
        "end_letter.L": "L",
        "end_letter.R": "P",
        "end.open": "do otwartej końcówki",
        "end.L": "do lewej końcówki",
        "end.R": "do prawej końcówki",
        "opens": "wychodzi kamieniem {tile}: na końcówkach {left} i {right}",
        "plays": "dokłada {tile} {where}, połówką {touch}; na końcówce jest teraz {shown}",
        "places": "kładzie {tile}: {low} na {low_cell}, {high} na {high_cell}",
        "draws": "dobiera {tile}",
        "passes": "pas: opuszcza kolejkę",
        "stops": "mówi „stop” (bez dodatkowego kamienia)",
        "lake": "zamyka jeziorko ({cells}): {names}",
        "hand_ends": "koniec rozdania: {result}",
        "reason.domino": "przez domino",
        "reason.block": "przy blokadzie",
        "reason.mutual_pass": "po dwóch pasach z rzędu",
        "nobody_wins": "nikt nie wygrywa (koniec {reason})",
        "wins": "gracz {player} wygrywa {reason}",
        "result_tail": "{head}; punkty graczy: {points}; oczka, które im zostały: {pips}",
        "term.opponent_pips": "oczka, które zostały przeciwnikowi",
        "term.own_pips": "własne oczka, które zostały na ręce",
        "term.last_tile_bonus": "premia za ostatni kamień",
        "term.catch": "przyłapanie",
        "term.placement_points": "punkty za kamienie i jeziorka",
        "result": "**Wynik:** {words}.",
        "terms_head": "| Gracz | Punkty | Za co | Zasada |",
        "trace_line": "Partia wzorcowa {trace} (przypadek testowy {case}); sprawdza zasady "
                      "{rules}.",
        "deal": "**Rozdanie.** {hands}.",
        "hand_of": "gracz {player}: {tiles}",
        "widow_deal": " Wdowa {tile}: połówka {low} leży po stronie gracza 0, {high} po stronie "
                      "gracza 1.",
        "stock": " Talon, w kolejności dobierania: {tiles}{more}.",
        "stock_more": " i jeszcze {count}",
        "moves_head_points": "| Nr | Gracz | Ruch | Dlaczego wolno | Punkty |",
        "moves_head": "| Nr | Gracz | Ruch | Dlaczego wolno |",
        "chain_no_points": "W grach łańcuchowych punkty liczy się dopiero na końcu rozdania, "
                           "więc pojedyncze ruchy nie dają punktów.",
        "board_final_title": "{game}, {trace}: plansza po ostatnim ruchu, {action}",
        "board_final": "Plansza po ruchu {move}; ostatnio położony kamień jest obwiedziony.",
        "chain_after_title": "{game}, {trace}: łańcuch po ruchu {move}, {action}",
        "chain_after": "Po ruchu {move}: gracz {player} dokłada {action}",
        "chain_final_title": "{game}, {trace}: łańcuch na koniec, kamienie z numerami ruchów",
        "chain_final": "Łańcuch na koniec rozdania; liczba pod kamieniem to numer ruchu, "
                       "którym go położono.",
        "widow_label": "wdowa",
        "arithmetic": "Rachunek sprawdzony ręcznie, z nagłówka pliku partii:",
        "part": "{title} (część {part} z {parts}: kamienie od {first} do {last})",
        "rows": "Czytaj od lewej do prawej, wiersz po wierszu.",
        "suite_head": "Partie wzorcowe tej gry",
        "suite_intro": "Partie wzorcowe tej gry. Każda jest przypadkiem testowym "
                       "(`golden/<id>`), który może odtworzyć każdy silnik, i ma własną stronę "
                       "po angielsku, rozrysowaną ruch po ruchu; zob. też [format pliku "
                       "partii]({format}).",
        "traces_head": "| Partia wzorcowa | Rodzaj | Co pokazuje |",
        "traces_rules_head": "| Partia wzorcowa | Rodzaj | Zasady |",
        "kind.hand": "rozdanie",
        "kind.match": "mecz",
        "kind_of.hand": "rozdania",
        "kind_of.match": "meczu",
        "index_title": "Partie wzorcowe",
        "index_intro": "Każda partia wzorcowa to rozdanie albo mecz, którego każdą liczbę "
                       "sprawdzono ręcznie z zasadami; zestaw testów odtwarza ją na każdym "
                       "silniku. Każda ma własną stronę, rozrysowaną ruch po ruchu, z listą "
                       "zasad, które sprawdza. Opisy partii pochodzą z ich plików i są po "
                       "angielsku.",
        "game": "*Gra:* [{game}]({page}).",
        "trace_kind": "*Rodzaj:* partia wzorcowa {kind}, odtwarzana przez przypadek testowy "
                      "{case} (zob. [format pliku partii]({format}), po angielsku).",
        "options": "*Opcje:* {options}",
        "note": "*Uwaga (z pliku partii):* {note}",
        "rules_covered": "Sprawdzane zasady",
        "hand_head": "Rozdanie {hand}",
        "hand_end_title": "{game}, {trace}: stół na koniec rozdania {hand}",
        "hand_end_board": "Rozdanie {hand}: plansza na koniec.",
        "hand_end_chain": "Rozdanie {hand}: łańcuch na koniec; liczba pod kamieniem to numer "
                          "ruchu.",
        "match_after": "**Mecz po rozdaniu {hand}:** sumy {totals}; dalej: {phase}{winner}.",
        "match_winner": "; mecz wygrywa gracz {player}",
        "phase.over": "koniec meczu",
        "phase.hand": "rozdanie {number}",
        "phase.deal": "rozdanie {number}",
        "phase.set": "set {number}",
        "phase.round": "runda {number}",
        "phase.tiebreak": "dogrywka {number}",
        "hard_play": "ruch {move} kładzie {tile} na końcówkę z {end} oczkami",
        "no_hard_play": "W tej partii żaden ruch nie zgrywa żadnego z tych kamieni.",
        "hard_plays": "W tej partii {plays}.",
        "hardest_head": "Które kamienie najtrudniej zgrać",
        "hardest": "Według {rules} kamień pasuje do otwartej końcówki tylko przy niektórych "
                   "liczbach oczek. Policzone z zasad dla każdego kamienia kompletu: "
                   "najtrudniejsze do zgrania pasują tylko do {values} ({ends}): {tiles}.",
        "hardest_table": "| Kamień | Pasuje do końcówki z oczkami | Ile |",
        "pair_head": "To samo rozdanie przy obu wartościach {option}",
        "pair_intro": "{first} i {second} rozgrywają to rozdanie tymi samymi ruchami; różni je "
                      "tylko {option} ({rule}). Każda partia ma własną stronę: {links}.",
        "this_page": "{value} (ta strona)",
        "pair_table": "| Nr | Ruch | Przy {first} | Przy {second} |",
        "scored": " (**{points}** pkt; stan {score})",
        "pair_title": "{game}: stół po ruchu {move} przy {option} {value}",
        "pair_caption": "Po ruchu {move}, przy {value}; jeziorka zdobyte tym ruchem są "
                        "zacieniowane.",
        "under": "**Przy {value}.**",
        "engine_notes": "Dla autorów silników",
        "rule_id": "Identyfikator zasady: {rule}; silnik podaje go, gdy odrzuca ruch, który ją "
                   "łamie.",
        "tested_by": "*Sprawdzają:* {tests}.",
        "tested_by_none": "Sprawdzają: jeszcze żaden przypadek testowy nie wskazuje tej zasady.",
        "tested_traces": "partie wzorcowe {traces}",
        "tested_perft": "plik perft {file} (pozycje {positions})",
        "tested_cases": "przypadki {cases}",
        "perft_title": "Pozycje perft: {game}",
        "perft_intro": "Pozycje z pliku {file}. Perft ({rule}) liczy ciągi dozwolonych ruchów "
                       "danej długości od danej pozycji; silnik, którego liczby się różnią, "
                       "gdzieś poniżej podaje zły zbiór ruchów. `dominokit perft` przelicza "
                       "każdą z nich. Opisy pozycji pochodzą z pliku i są po angielsku.",
        "perft_rules": "Zasady: {rules}.",
        "perft_table": "| głębokość | liczba |",
        "perft_nav": "Pozycje perft",
        "side_by_side_nav": "Gry obok siebie",
        "colour.0": "jasnym",
        "colour.1": "ciemnym",
        "op.field": "jednym polu, {colour}",
        "op.twice": "podwójnie",
        "op.times": "{factor} razy",
        "op.same_field": "obie połówki leżą na {field}, więc oczka liczą się {times}: "
                         "{factor} × {pips} = {points}",
        "op.two_fields": "dwa różne pola",
        "op.two_fields_one_colour": "dwa różne pola tej samej barwy",
        "op.across": "to {kind} ({low_cell} na {low_colour}, {high_cell} na {high_colour}), "
                     "więc oczka liczą się raz: {points}",
        "op.lake": "zamyka jeziorko: {size}, {cells}, otoczone {fence}: "
                   "{n} × {per_cell} = {points}",
        "op.extra": " Po położeniu {tile} ten sam gracz może w tej kolejce położyć jeszcze "
                    "jeden kamień ({rule}).",
        "op.moves_head": "Ruch po ruchu",
        "op.moves_intro": "Zaczyna gracz {player}, potem gracze kładą na zmianę; kolejka z "
                          "{tile} to dwa kamienie. Barwy pól według {rule} (jasne i ciemne jak "
                          "na rysunku); ostatnio położony kamień ma pomarańczową obwódkę, a "
                          "kwadraty jeziorek są niebieskie. Kwadrat w wierszu w i kolumnie k "
                          "zapisujemy (w, k); zob. [jak zapisujemy ruchy i kwadraty]"
                          "({notation}).",
        "op.heading": "Ruch {move}: gracz {player}, {tile}, {points} pkt",
        "op.title": "Plansza po ruchu {move}: gracz {player} kładzie {action} za {points} pkt",
        "op.caption": "Ruch {move}: {action}, {points} pkt{second}",
        "op.second": " (drugi kamień tej kolejki)",
        "op.goes_on": "{tile} leży na {low_cell} i {high_cell}: {reasons}.{extra}",
        "op.turns_head": "Opublikowane i odtworzone, kolejka po kolejce",
        "op.turns_table": "| Kolejka | Gracz | Kamienie | Opublikowano | Ta plansza |",
    },
}
"""Phrase key -> template, per language code; both languages have the same keys and fields."""

EXAMPLE_TITLES: Final[Mapping[str, Mapping[str, str]]] = {
    PL.code: {
        "classic_block/domino":
            "Gracz 0 kończy rozdanie kamieniem [3|3]; graczowi 1 zostaje [4|4] i płaci jego 8 "
            "oczek",
        "pijanowski/double-blank-last-tile":
            "Ostatni kamień gracza 0 to [0|0]: rozdanie kończy się od razu przez domino, bez "
            "dodatkowego kamienia",
        "poldomino/domino-double-six-bonus":
            "Dobieranie do woli i pasy, potem domino kamieniem [6|6]: 35 + 120",
        "progressive/draw-until-fit":
            "Gracz, który nie ma czego dołożyć, dobiera, aż trafi na pasujący kamień, i musi go "
            "dołożyć",
        "szczerbak/passes-and-domino":
            "Wyższa połówka wdowy leży po stronie gracza 0, więc on zaczyna; pas, gdy nie ma "
            "czego dołożyć; domino",
        "classic_block/blocked-both-totals":
            "Zablokowane rozdanie, w którym zwycięzca dostaje oczka z obu rąk",
        "pijanowski/published-opening":
            "Opublikowane otwarcie, odtworzone: 22, 20, 20, 16, 6, 6, 7, potem 0 + 6 + 16",
        "poldomino/seed-example-chain":
            "Przykład z tekstu [5|1][1|3][3|2]; dwa pasy z rzędu kończą rozdanie, a wygrywa "
            "ręka z mniejszą liczbą oczek",
        "progressive/seed-example-chain":
            "Przykład z tekstu [5|1][1|3][3|2] z obowiązkiem dokładania, aż do domino; "
            "dublety w poprzek",
        "szczerbak/seed-example-chain":
            "Przykład z tekstu [2|3][3|6][6|1][1|0][2|4] z wdową [2|3], rozegrany do blokady",
    },
}
"""The headings of the worked examples in the languages other than English, by trace id (the
English heading is the trace's own description)."""

NOUNS: Final[Mapping[str, Mapping[str, tuple[str, ...]]]] = {
    EN.code: {"cell": ("cell", "cells"), "value": ("end value", "end values"),
              "empty_cell": ("empty cell", "empty cells")},
    PL.code: {"cell": ("kwadrat", "kwadraty", "kwadratów"),
              "empty_cell": ("pusty kwadrat", "puste kwadraty", "pustych kwadratów"),
              "value": ("wartości końcówki", "wartości końcówki", "wartości końcówki")},
}
"""Counted nouns: English (one, many), Polish (one, few, many) as ``polish_count`` takes them."""

FIELD: Final = re.compile(r"{(\w+)}")


def say(lang: Lang, key: str, **fields: object) -> str:
    """The phrase ``key`` in ``lang`` with its ``fields`` filled in (KeyError naming both)."""
    try:
        template = PHRASES[lang.code][key]
    except KeyError:
        raise KeyError(f"the rule book has no {lang.code} phrase {key!r}; add it to PHRASES "
                       "in docs/rulebook/captions.py") from None
    return template.format(**fields)


def count(lang: Lang, n: int, noun: str) -> str:
    """``n`` and ``noun`` in its grammatical number in ``lang`` (3 cells, 3 kwadraty)."""
    forms = NOUNS[lang.code][noun]
    if lang.code == PL.code:
        return polish_count(n, *forms)
    return f"{n} {forms[0] if n == 1 else forms[1]}"


_PHASE: Final = re.compile(r"([a-z]+) ([1-9][0-9]*)")


def phase_words(phase: str, lang: Lang) -> str:
    """A match phase as the engine writes it (``round 1 deal 4``, ``tiebreak 2 deal 1``,
    ``set 2 hand 3``, ``over``) in ``lang``: the name of each stage and its number."""
    if phase == "over":
        return say(lang, "phase.over")
    parts = _PHASE.findall(phase)
    if not parts or " ".join(f"{w} {n}" for w, n in parts) != phase or \
            any(f"phase.{w}" not in PHRASES[lang.code] for w, _ in parts):
        return phase  # not a phase the book knows: shown as the engine wrote it
    return ", ".join(say(lang, f"phase.{w}", number=n) for w, n in parts)
