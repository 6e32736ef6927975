"""The same hand under two values of one option, side by side.

An option is a ruling read two ways (R-PIJ-06's lakes, R-POL-09's catch), and a reader sees
the difference best on one position played the same way under each value. Such pairs are
found among the golden traces, never named by hand: two hand traces of one game with the same
deal and the same actions whose options (defaults filled in) differ in exactly one name. Each
trace page of a pair shows the moves whose events differ, the table under both values drawn
next to each other at the first such move, and both results.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from dominokit.reference import Variant
from dominokit.rulebook.book import Book, TraceInfo
from dominokit.rulebook.captions import say
from dominokit.rulebook.card import game_name
from dominokit.rulebook.coverage import trace_page
from dominokit.rulebook.examples import Frame, describe, frame_figure, frames, result_table
from dominokit.rulebook.i18n import EN, Lang
from dominokit.rulebook.text import code, relative


@dataclass(frozen=True)
class OptionPair:
    """Two traces of one hand that differ only in the value of ``option``."""

    option: str
    first: TraceInfo
    second: TraceInfo


def _effective(variant: Variant, options: Mapping[str, Any]) -> dict[str, Any]:
    values = {name: option.default for name, option in variant.options.items()}
    values.update(options)
    return values


def option_pairs(book: Book) -> list[OptionPair]:
    """Every pair of bundled hand traces that play one hand under two values of one option."""
    pairs: list[OptionPair] = []
    for variant in book.variants:
        loaded = [(info, info.load()) for info in book.traces_of(variant.id)
                  if info.kind == "hand"]
        for i, (a_info, a) in enumerate(loaded):
            for b_info, b in loaded[i + 1:]:
                if a.hands[0].deal != b.hands[0].deal:
                    continue
                if [s.action for s in a.hands[0].steps] != [s.action for s in b.hands[0].steps]:
                    continue
                a_opts = _effective(variant, a.options)
                b_opts = _effective(variant, b.options)
                differ = [k for k in a_opts if a_opts[k] != b_opts.get(k)]
                if len(differ) == 1:
                    pairs.append(OptionPair(differ[0], a_info, b_info))
    return pairs


def _value(variant: Variant, info: TraceInfo, option: str) -> str:
    return str(_effective(variant, info.load().options)[option])


def _new_lakes(frame: Frame) -> tuple[tuple[int, int], ...]:
    """The cells of the lakes scored by this move alone."""
    return tuple(sorted((r, c) for e in frame.events if e["type"] == "lake"
                        for r, c in e["cells"]))


def _page_link(info: TraceInfo, value: str, here: str, lang: Lang) -> str:
    target = relative(trace_page(info.id), here)
    return f"[{code(value)}]({target})" if target else say(lang, "this_page", value=code(value))


def _told(frame: Frame, table_spec: Mapping[str, Any], lang: Lang) -> str:
    """A move in words, with the points it scored and the score after it, when moves score."""
    words = describe(frame, table_spec, lang)
    scored = [e["points"] for e in frame.events if "points" in e]
    if scored:
        score = ", ".join(str(p) for p in frame.after.get("points", []))
        words += say(lang, "scored", points=sum(scored), score=score)
    return words


def side_by_side(book: Book, variant: Variant, pair: OptionPair, here: str,
                 lang: Lang = EN) -> str:
    """The section of a trace page that sets the pair's two traces next to each other, in
    ``lang``."""
    table_spec = variant.data["components"]["table"]
    a_frames, b_frames = frames(pair.first.load()), frames(pair.second.load())
    a_value = _value(variant, pair.first, pair.option)
    b_value = _value(variant, pair.second, pair.option)
    rule = variant.options[pair.option].rule
    links = (f"{_page_link(pair.first, a_value, here, lang)}, "
             f"{_page_link(pair.second, b_value, here, lang)}")
    lines = [f"## {say(lang, 'pair_head', option=code(pair.option))}", "",
             say(lang, "pair_intro", first=code(pair.first.id), second=code(pair.second.id),
                 option=code(pair.option), rule=book.link(rule, here), links=links), ""]
    differing: list[tuple[Frame, Frame]] = [
        (a, b) for a, b in zip(a_frames, b_frames, strict=True) if a.events != b.events]
    if differing:
        lines += ['<div class="dk-scroll" markdown>', "",
                  say(lang, "pair_table", first=code(a_value), second=code(b_value)),
                  "|---|---|---|---|"]
        for a, b in differing:
            lines.append(f"| {a.number} | {code(a.action)} | {_told(a, table_spec, lang)} | "
                         f"{_told(b, table_spec, lang)} |")
        lines += ["", "</div>", ""]
        a, b = differing[0]
        if a.after["table"] != b.after["table"] or _new_lakes(a) != _new_lakes(b):
            lines.append('<div class="dk-side">')
            for frame, value in ((a, a_value), (b, b_value)):
                title = say(lang, "pair_title", game=game_name(variant, lang),
                            move=frame.number, option=pair.option, value=value)
                shown = replace(frame, lakes=_new_lakes(frame))
                caption = say(lang, "pair_caption", move=frame.number,
                              value=f"<code>{value}</code>")
                lines.append(frame_figure(shown, table_spec, title, caption, lang))
            lines += ["</div>", ""]
    for info, value in ((pair.first, a_value), (pair.second, b_value)):
        result = info.load().hands[0].result
        if result is not None:
            lines += [say(lang, "under", value=code(value)), "",
                      result_table(book, result, here, lang)]
    return "\n".join(lines)


def pair_of(pairs: list[OptionPair], info: TraceInfo) -> OptionPair | None:
    """The pair a trace belongs to, if any."""
    return next((p for p in pairs if info.id in (p.first.id, p.second.id)), None)
