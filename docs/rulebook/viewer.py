"""One page per golden trace: the trace replayed move by move, and the rules it covers.

Every example in the book has to be checked by the suite, so the book draws nothing but the
golden traces, which ``golden/<id>`` cases replay against every engine. Each trace gets its own
page made by this one viewer: a hand trace is the same worked example its game's page shows
(every move in words, the table drawn after each change, the result with the rule behind each
scoring term); a match trace is replayed hand by hand on the reference's match, each hand told
the same way with its final table drawn and the match score after it. The page lists the
rules the trace covers (its ``rules:`` and the rule tags of its case) with links to them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from dominokit.conformance.traces import Trace, reference_engine
from dominokit.reference import Action, RuleEntry, Variant
from dominokit.rulebook.book import TRACE_FORMAT_PAGE, Book, TraceInfo, variant_page
from dominokit.rulebook.captions import phase_words, say
from dominokit.rulebook.card import game_name
from dominokit.rulebook.chainrows import chain_rows
from dominokit.rulebook.coverage import TRACE_PAGE_DIR, coverage, perft_nav, trace_page
from dominokit.rulebook.examples import (
    Frame,
    _chain_labels,
    arithmetic,
    data_text,
    dealt_hands,
    describe,
    frame_figure,
    frames,
    play_steps,
    result_table,
    worked_example,
)
from dominokit.rulebook.i18n import EN, Lang
from dominokit.rulebook.placement import hardest_tiles, placement_rules, placement_section
from dominokit.rulebook.reasons import reasons
from dominokit.rulebook.sidebyside import OptionPair, option_pairs, pair_of, side_by_side
from dominokit.rulebook.text import code, md, relative, tile

TRACE_INDEX_PAGE: Final = f"{TRACE_PAGE_DIR}/index.md"


def _variant(book: Book, variant_id: str) -> Variant:
    return next(v for v in book.variants if v.id == variant_id)


def _match_frames(trace: Trace) -> list[tuple[list[Frame], Mapping[str, Any]]]:
    """Replay a match trace on the reference match: each hand's frames and the match state
    right after it."""
    engine = reference_engine()
    assert trace.first_starter is not None
    engine.new_match(trace.variant, dict(trace.options), trace.first_starter)
    for hand in getattr(trace, "prelude", ()):
        engine.next_hand(dict(hand.deal))
        for action in hand.actions:
            engine.apply(action)
    out: list[tuple[list[Frame], Mapping[str, Any]]] = []
    for hand in trace.hands:
        state = engine.next_hand(dict(hand.deal))
        out.append((play_steps(engine, hand.steps, state), engine.match_state()))
    return out


def _moves_table(steps: list[Frame], variant: Variant, lang: Lang) -> list[str]:
    table_spec = variant.data["components"]["table"]
    head = say(lang, "moves_head")
    lines = ['<div class="dk-moves" markdown>', "", head,
             "|" + "---|" * head.count(" | ") + "---|"]
    for frame, why in zip(steps, reasons(steps, variant, lang), strict=True):
        action = f" {code(frame.action)} |" if lang.code == EN.code else ""
        lines.append(f"| {frame.number} | {frame.player} |{action} "
                     f"{describe(frame, table_spec, lang)} | {why} |")
    return [*lines, "", "</div>", ""]


def match_frames(trace: Trace) -> list[tuple[list[Frame], Mapping[str, Any]]]:
    """Each hand of a match trace replayed: its frames and the match state after it."""
    return _match_frames(trace)


def _final_table(variant: Variant, trace: Trace, steps: list[Frame], number: int,
                 lang: Lang) -> str:
    table_spec = variant.data["components"]["table"]
    final = steps[-1]
    title = say(lang, "hand_end_title", game=game_name(variant, lang), trace=trace.id,
                hand=number)
    if final.after["table"]["kind"] == "board":
        return frame_figure(final, table_spec, title, say(lang, "hand_end_board", hand=number),
                            lang)
    return chain_rows(final.after, table_spec, title=title, anchor=final.anchor,
                      labels=_chain_labels(steps, lang),
                      caption=say(lang, "hand_end_chain", hand=number), lang=lang)


def _match_body(book: Book, variant: Variant, trace: Trace, info: TraceInfo, here: str,
                lang: Lang) -> list[str]:
    lines: list[str] = []
    for number, ((steps, match), hand) in enumerate(zip(_match_frames(trace), trace.hands,
                                                        strict=True), start=1):
        lines += [f"## {say(lang, 'hand_head', hand=number)}", "",
                  say(lang, "deal", hands=dealt_hands(hand.deal["hands"], lang)), ""]
        if steps:
            lines += _moves_table(steps, variant, lang)
            lines += [_final_table(variant, trace, steps, number, lang), ""]
        if hand.result is not None:
            lines.append(result_table(book, hand.result, here, lang))
        winner = match.get("winner")
        lines += [say(lang, "match_after", hand=number,
                      totals=", ".join(str(t) for t in match.get("totals", [])),
                      phase=md(phase_words(str(match.get("phase", "")), lang)),
                      winner="" if winner is None else say(lang, "match_winner",
                                                           player=winner)), ""]
    lines += arithmetic(info, lang)
    return lines


def _hard_plays(variant: Variant, steps: list[Frame], lang: Lang) -> str:
    """The moves of a trace that place one of the hardest tiles, and the end they went on."""
    hardest = {(t.low, t.high) for t in hardest_tiles(variant)}
    said = []
    for frame in steps:
        parsed = Action.parse(frame.action)
        if parsed.kind != "chain" or parsed.tile is None:
            continue
        pair = (parsed.tile.low, parsed.tile.high)
        if pair in hardest:
            end = frame.before["table"]["right" if parsed.end != "L" else "left"]
            said.append(say(lang, "hard_play", move=frame.number, tile=tile(pair), end=end))
    if not said:
        return say(lang, "no_hard_play") + "\n"
    return say(lang, "hard_plays", plays="; ".join(said)) + "\n"


def covered_rules(info: TraceInfo) -> tuple[str, ...]:
    """The rules a trace covers: its own ``rules:`` and its case's rule tags."""
    tagged = coverage().trace_rules.get(info.id, ())
    return tuple(sorted({*info.rules, *tagged}))


def trace_markdown(book: Book, info: TraceInfo, pairs: list[OptionPair] | None = None,
                   lang: Lang = EN) -> str:
    """The page of one golden trace in ``lang`` (``pairs``: the option pairs of the book, see
    ``sidebyside``)."""
    here = trace_page(info.id)
    variant = _variant(book, info.variant)
    trace = info.load()
    fmt = relative(TRACE_FORMAT_PAGE, here)
    parts = [f"# {code(info.id)}", "", data_text(info.description, lang), "",
             say(lang, "game", game=md(game_name(variant, lang)),
                 page=relative(variant_page(variant.id), here)) + " "
             + say(lang, "trace_kind", kind=say(lang, "kind_of." + info.kind),
                   case=code("golden/" + info.id), format=fmt), ""]
    if trace.options:
        parts += [say(lang, "options", options=", ".join(
            f"{code(k)} = {code(str(v))}" for k, v in sorted(trace.options.items()))), ""]
    if trace.note:
        parts += [say(lang, "note", note=data_text(trace.note, lang)), ""]
    parts += [f"## {say(lang, 'rules_covered')}", ""]
    parts += [f"- {book.link(r, here)} {md(rule_title(book.rule(r), lang))}"
              for r in covered_rules(info)]
    parts.append("")
    if info.kind == "hand":
        body = worked_example(book, variant, info, here, lang)
        # The worked example's own heading repeats the description: the page has its own.
        parts.append(body.split("\n", 2)[2] if body.startswith("### ") else body)
    else:
        parts += _match_body(book, variant, trace, info, here, lang)
    if set(placement_rules(variant)) & set(covered_rules(info)):
        parts.append(placement_section(book, variant, here, lang=lang))
        if info.kind == "hand":
            parts.append(_hard_plays(variant, frames(trace), lang))
    pair = pair_of(pairs if pairs is not None else option_pairs(book), info)
    if pair is not None:
        parts.append(side_by_side(book, variant, pair, here, lang))
    return "\n".join(parts)


def rule_title(entry: RuleEntry, lang: Lang) -> str:
    """A rule's title in ``lang`` (``title_pl`` for Polish readers)."""
    title: str | None = getattr(entry, f"title_{lang.code}", None)
    return title or entry.title


def trace_index_markdown(book: Book, lang: Lang = EN) -> str:
    """Every golden trace, by game, linked to its page."""
    here = TRACE_INDEX_PAGE
    lines = [f"# {say(lang, 'index_title')}", "", say(lang, "index_intro"), ""]
    for variant in book.variants:
        mine = book.traces_of(variant.id)
        if not mine:
            continue
        lines += [f"## {md(game_name(variant, lang))}", "", '<div class="dk-scroll" markdown>',
                  "", say(lang, "traces_head"), "|---|---|---|"]
        lines += [f"| [{code(t.id)}]({relative(trace_page(t.id), here)}) | "
                  f"{say(lang, 'kind.' + t.kind)} | {data_text(t.description, lang)} |"
                  for t in mine]
        lines += ["", "</div>", ""]
    return "\n".join(lines)


def trace_pages(book: Book, lang: Lang = EN) -> dict[str, str]:
    """The index of golden traces and one page per trace, as ``lang``'s files."""
    pages = {lang.page(TRACE_INDEX_PAGE): trace_index_markdown(book, lang)}
    pairs = option_pairs(book)
    for info in book.traces:
        pages[lang.page(trace_page(info.id))] = trace_markdown(book, info, pairs, lang)
    return pages


def traces_nav(book: Book) -> list[str | dict[str, Any]]:
    """The "Golden traces" section of the navigation: the index, then each game's traces
    (the titles are English; ``nav_titles`` gives each its Polish title)."""
    nav: list[str | dict[str, Any]] = [TRACE_INDEX_PAGE]
    for variant in book.variants:
        mine = book.traces_of(variant.id)
        if mine:
            nav.append({variant.name: [{t.id.split("/", 1)[1]: trace_page(t.id)}
                                       for t in mine]})
    perft = perft_nav(book)
    if perft:
        nav.append({say(EN, "perft_nav"): perft})
    return nav
