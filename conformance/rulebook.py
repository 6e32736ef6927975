"""The rule book: Markdown pages generated from ``spec/`` and the golden traces.

The rule book must never say something the spec does not, so none of its rules are copied by
hand: at every docs build ``docs/gen_pages.py`` calls ``build_pages()`` and writes what it
returns. Each variant page has a summary card (built from the mechanics the YAML names), every
rule under an anchor that is exactly its id, with the Polish source words beside the English
statement and rulings marked as such, the variant's options, and its worked examples drawn
from the bundled traces (``seed-*`` and ``published-*`` traces) with ``diagrams``. The
protocol, notation and trace-format pages are rendered from the JSON Schemas and
``spec/common.yaml``; the page of the published Pijanowski opening replays its trace and
explains every score from the board.

Wording for each mechanic lives in small tables keyed by the spec's own vocabulary (policy
names, term names), never by variant id, so a new variant written with existing mechanics
gets its page for free. Text from the spec is escaped for Markdown and rule ids in it become
links, which ``mkdocs build --strict`` then checks.
"""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any, Final

import yaml
from dominokit.conformance import diagrams
from dominokit.conformance.traces import (
    Trace,
    bundled_trace_files,
    leading_comments,
    load_trace,
    reference_engine,
)
from dominokit.reference import Action, RuleEntry, Variant, load_variant, variant_ids
from dominokit.reference import board as board_rules
from dominokit.reference.spec import common_rules, schema

JsonObject = dict[str, Any]

COMMON_PAGE: Final = "variants/common.md"
OPENING_PAGE: Final = "variants/pijanowski-opening.md"
PROTOCOL_PAGE: Final = "engines/protocol.md"
NOTATION_PAGE: Final = "engines/notation.md"
TRACE_FORMAT_PAGE: Final = "contributing/trace-format.md"
RULE_INDEX_PAGE: Final = "contributing/rule-index.md"
OPENING_TRACE: Final = "pijanowski/published-opening"
EXAMPLE_PREFIXES: Final = ("seed-", "published-")
"""Traces whose file stem starts with one of these are worked examples on their variant page."""
CARD_TERMS: Final = ("Players", "Tiles", "Deal", "Goal", "Match")
"""Terms every summary card has (the tests check them)."""
COLOUR_NAMES: Final = ("light", "dark")
"""Names of field colours 0 and 1, as ``diagrams`` draws them."""

_PATTERN_END: Final = "$(?!\\n)"
"""How the schemas end a pattern (a true end of string); not worth showing to readers."""
_RULE_ID = re.compile(r"\bR-[A-Z]{3}-[0-9]{2}\b")
_MD_ESCAPE = re.compile(r"([\\`*_\[\]{}#|])")


def variant_page(variant_id: str) -> str:
    """Where the page of a variant lives, relative to ``docs/``."""
    return f"variants/{variant_id}.md"


# ---------------------------------------------------------------------------- text helpers


def md(text: str) -> str:
    """Plain text made safe for Markdown: it renders exactly as written."""
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return _MD_ESCAPE.sub(r"\\\1", text)


def tile(pips: Iterable[int]) -> str:
    """A tile as the texts write it, ``[a|b]``, escaped for Markdown."""
    a, b = pips
    return md(f"[{a}|{b}]")


def code(text: object) -> str:
    """An inline code span (values, notation)."""
    shown = text if isinstance(text, str) else json.dumps(text)
    return f"`{shown}`"


def _relative(target: str, here: str) -> str:
    if target == here:
        return ""
    return posixpath.relpath(target, posixpath.dirname(here) or ".")


def _players(values: Sequence[Any]) -> str:
    return ", ".join(str(v) for v in values)


# ---------------------------------------------------------------------------- the book


@dataclass(frozen=True)
class TraceInfo:
    """What the tables need of a bundled trace: its header fields and its text.

    Read with the fast YAML loader; only the traces that are drawn are loaded in full (with
    ``load_trace``, which checks them), because checking all of them would slow every build.
    """

    id: str
    variant: str
    kind: str
    description: str
    rules: tuple[str, ...]
    path: str
    text: str = field(repr=False)

    def load(self) -> Trace:
        """The whole trace, schema-checked (SpecError if it is not valid)."""
        return load_trace(self.path, self.text)


_LOADER: Final = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _trace_infos() -> tuple[TraceInfo, ...]:
    infos: list[TraceInfo] = []
    for entry in bundled_trace_files():
        text = entry.read_text(encoding="utf-8")
        data = yaml.load(text, Loader=_LOADER)
        infos.append(TraceInfo(data["id"], data["variant"], data["kind"], data["description"],
                               tuple(data["rules"]), str(entry), text))
    return tuple(infos)


@dataclass(frozen=True)
class Book:
    """Everything the pages are made from, loaded once: variants, common rules, traces."""

    variants: tuple[Variant, ...]
    common: tuple[RuleEntry, ...]
    traces: tuple[TraceInfo, ...]

    @classmethod
    def load(cls) -> Book:
        """The bundled spec and traces."""
        variants = tuple(load_variant(v) for v in variant_ids())
        return cls(variants, common_rules(), _trace_infos())

    @property
    def rule_pages(self) -> dict[str, str]:
        """Rule id -> the page that carries its anchor."""
        pages = {entry.id: COMMON_PAGE for entry in self.common}
        for variant in self.variants:
            pages.update({entry.id: variant_page(variant.id) for entry in variant.rules})
        return pages

    def rule(self, rule_id: str) -> RuleEntry:
        """The entry of any rule id."""
        for entry in (*self.common, *(e for v in self.variants for e in v.rules)):
            if entry.id == rule_id:
                return entry
        raise KeyError(rule_id)

    def link(self, rule_id: str, here: str) -> str:
        """A Markdown link to a rule's anchor from page ``here`` (plain text if unknown)."""
        page = self.rule_pages.get(rule_id)
        if page is None:
            return rule_id
        return f"[{rule_id}]({_relative(page, here)}#{rule_id})"

    def links(self, rule_ids: Iterable[str], here: str) -> str:
        """Several rule links, comma-separated."""
        return ", ".join(self.link(r, here) for r in rule_ids)

    def prose(self, text: str, here: str) -> str:
        """Spec text as Markdown: escaped, with every known rule id made a link."""
        return _RULE_ID.sub(lambda m: self.link(m.group(0), here), md(text))

    def traces_of(self, variant_id: str) -> list[TraceInfo]:
        """The bundled traces of one variant, in file order."""
        return [t for t in self.traces if t.variant == variant_id]


def blocks(book: Book, text: str, here: str) -> str:
    """A statement as Markdown paragraphs; lines indented in the YAML stay a text block."""
    out: list[str] = []
    para: list[str] = []
    pre: list[str] = []

    def flush() -> None:
        if para:
            out.append(book.prose(" ".join(para), here))
            para.clear()
        if pre:
            width = min(len(line) - len(line.lstrip()) for line in pre)
            out.append("```text\n" + "\n".join(line[width:] for line in pre) + "\n```")
            pre.clear()

    for line in text.strip("\n").split("\n"):
        if line.startswith("  ") and line.strip():
            if para:
                flush()
            pre.append(line.rstrip())
        elif not line.strip():
            flush()
        else:
            if pre:
                flush()
            para.append(line.strip())
    flush()
    return "\n\n".join(out)


# ---------------------------------------------------------------------------- rules


_KIND_TITLES: Final = {
    "ruling": ("note", "Ruling", "How this project reads the text here."),
    "new_ruling": ("warning", "New ruling",
                   "A gap that neither the texts nor the project's first rulings close; "
                   "this is how the project closes it."),
}


def _indent(text: str, prefix: str = "    ") -> str:
    return "\n".join(prefix + line if line.strip() else "" for line in text.split("\n"))


def rule_section(book: Book, entry: RuleEntry, here: str, options_here: bool) -> str:
    """One rule: heading with its id as anchor, Polish and English side by side, ruling."""
    parts = [f"### {entry.id} · {md(entry.title)} {{ #{entry.id} .dk-rule-title }}", ""]
    polish = "*No source words: the texts are silent here.*"
    if entry.quote:
        polish = "\n".join(f"> {md(line)}" for line in entry.quote.strip().split("\n"))
    source = f" · <code>{_html(entry.source_file)}</code>" if entry.source_file else ""
    parts += [
        '<div class="dk-rule" markdown>',
        '<div class="dk-pl" lang="pl" markdown>',
        f'<p class="dk-label">Polish source{source}</p>',
        "",
        polish,
        "",
        "</div>",
        '<div class="dk-en" lang="en" markdown>',
        '<p class="dk-label">English</p>',
        "",
        blocks(book, entry.statement, here),
        "",
        "</div>",
        "</div>",
        "",
    ]
    kind = _KIND_TITLES.get(entry.kind)
    if kind is not None:
        style, title, meaning = kind
        body = [f"*{meaning}*", ""]
        if entry.decision:
            body += [f"**Decision.** {book.prose(entry.decision, here)}", ""]
        if entry.alternative:
            body += [f"**Alternative reading.** {book.prose(entry.alternative, here)}", ""]
        if entry.option:
            target = f"#option-{entry.option}" if options_here else ""
            name = f"[{code(entry.option)}]({target})" if target else code(entry.option)
            body += [f"**Option.** {name} selects between the decision (its default) and "
                     "the alternative.", ""]
        parts += [f'!!! {style} "{title}"', "", _indent("\n".join(body).rstrip()), ""]
    else:
        parts += ['<p class="dk-kind">Rule: stated by the text, no ruling needed.</p>', ""]
    return "\n".join(parts)


# ---------------------------------------------------------------------------- summary card


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


_PIP_WORDS: Final = {6: "six", 9: "nine", 12: "twelve"}

_OPENING: Final = {
    "any_tile": "The starter opens with any tile from their hand; it becomes a line with two "
                "open ends.",
    "widow": "The widow lies between the players; whoever faces its higher half starts, and "
             "the chain grows from that half only.",
    "anywhere": "The first tile may go on any two adjacent cells.",
}
_MATCHING: Final = {
    "equal_halves": "A tile goes on {end} with its touching half showing the same pips.",
    "board_contacts": "Every later tile covers two adjacent empty cells and must touch a "
                      "placed tile; every half it touches must show the same pips.",
}
_PARITY: Final = {
    "none": "",
    "opposite_or_blank": "Its other half must be blank or of the other parity (odd after "
                         "even, even after odd); on a blank end any tile fits, either way "
                         "round.",
}
_DRAW: Final = {
    "none": "There is no drawing.",
    "free": "A player may draw as many tiles as they like, one at a time, and placing is "
            "never compulsory.",
    "until_fit": "A player who cannot place draws one tile at a time until one fits, and "
                 "must then place it.",
}
_PASS: Final = {
    "always": "A player may pass at any time after the opening",
    "when_stuck": "A player passes only when they cannot place",
}
_END: Final = {
    "domino": "a player places their last tile (domino!)",
    "block": "neither player can place any more",
    "mutual_pass": "{turns} turns in a row end in a pass",
}
_WINNER: Final = {
    "domino_or_fewer_pips": "Be the first to place all your tiles, or hold fewer pips when "
                            "the hand blocks.",
    "higher_hand_score": "Score more than your opponent in the hand: points for the tiles "
                         "you place and the lakes you close, minus the pips you keep.",
}
_TERM: Final = {
    "opponent_pips": "the pips left in the loser's hand",
    "own_pips": "the pips left in their own hand",
    "last_tile_bonus": "a bonus for going out with {tiles}",
    "catch": "a catch for a loser left holding only {tiles}",
    "placement_points": "the points scored placing tiles and closing lakes",
}
_TO: Final = {"winner": "The winner", "loser": "The loser", "each": "Each player"}
_STARTER: Final = {
    "alternate": "The first starter is chosen by lot; then the players take turns to start.",
    "widow": "The widow decides who starts every hand.",
}
_REMAINDER: Final = {
    "stock": "the rest form the stock",
    "out_of_play": "the rest are put aside unseen",
    "widow": "the one tile left is the widow",
    "none": "",
}


def _tiles_by_points(tiles: Mapping[str, int]) -> str:
    return " or ".join(f"{md(_bracket(t))} ({p})" for t, p in tiles.items())


def _bracket(notation: str) -> str:
    a, b = notation.split("-")
    return f"[{a}|{b}]"


def _rule_suffix(book: Book, rule_ids: Iterable[str | None], here: str) -> str:
    ids = list(dict.fromkeys(r for r in rule_ids if r))
    return f" ({book.links(ids, here)})" if ids else ""


def _deal_text(book: Book, variant: Variant, here: str) -> str:
    setup = variant.data["setup"]
    tiles = variant.data["components"]["tiles"]
    size, note = _param(setup["hand_size"], variant)
    remainder = _REMAINDER[setup["remainder"]]
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
        _OPENING[turn["opening"]["policy"]],
        _MATCHING[turn["matching"]["policy"]].format(
            end="the open end" if variant.data["components"]["table"].get("ends") == 1
            else "an open end"),
        _PARITY[turn.get("parity", {"policy": "none"})["policy"]],
        _DRAW[turn["draw"]["policy"]],
        _PASS[turn["pass"]["policy"]]
        + (" and there is nothing to draw" if turn["pass"]["policy"] == "when_stuck"
           and turn["draw"]["policy"] != "none" else "") + ".",
    ]
    extra = turn.get("extra_tile")
    if extra:
        sentences.append(f"After placing {md(_bracket(extra['after']))} a player may place one "
                         "more tile in the same turn.")
    ids = [turn[k].get("rule") for k in ("opening", "matching", "parity", "draw", "pass")
           if k in turn]
    ids += [turn.get("parity", {}).get("blank_rule"), extra.get("rule") if extra else None]
    return " ".join(s for s in sentences if s) + _rule_suffix(book, ids, here)


def _end_text(book: Book, variant: Variant, here: str) -> str:
    ends = variant.data["end"]
    parts = [_END[e["condition"]].format(turns=e.get("turns", 2)) for e in ends]
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
        what = _TERM[term["term"]].format(tiles=prizes)
        sign = "minus " if term.get("sign", 1) < 0 else ("plus " if to in grouped else "")
        grouped.setdefault(to, []).append(sign + what + note)
    for to, parts in grouped.items():
        sentences.append(f"{_TO[to]} scores {', '.join(parts)}.")
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


def summary_card(book: Book, variant: Variant, here: str) -> str:
    """The card at the top of a variant page: the whole game in nine lines."""
    data = variant.data
    tiles = data["components"]["tiles"]
    rows = [
        ("Players", f"{data['metadata']['players']}" + _rule_suffix(book, ["R-ALL-02"], here)),
        ("Tiles", _tiles_text(tiles) + "." + _rule_suffix(book, [tiles.get("rule")], here)),
        ("Deal", _deal_text(book, variant, here)),
        ("Table", _table_text(book, variant, here)),
        ("Starter", _STARTER[data["setup"]["starter"]]),
        ("Turn", _turn_text(book, variant, here)),
        ("End of a hand", _end_text(book, variant, here)),
        ("Goal", _WINNER[data["scoring"]["winner"]["policy"]]
         + _rule_suffix(book, [data["scoring"]["winner"].get("rule")], here)),
        ("Scoring", _scoring_text(book, variant, here)),
        ("Match", _match_text(book, variant, here)),
    ]
    lines = ['<div class="dk-card" markdown>', ""]
    for term, text in rows:
        lines += [term, f":   {text}", ""]
    lines += ["</div>", ""]
    return "\n".join(lines)


def options_section(book: Book, variant: Variant, here: str) -> str:
    """The variant's options: values, default, the rule behind each, what it changes."""
    if not variant.options:
        return ("## Options\n\nThis game has no options: an engine plays it one way only.\n")
    lines = ["## Options", "",
             "Options select the alternative reading of a ruling. An engine lists the options "
             "and values it supports in its `hello`; conformance cases that need others are "
             "*not applicable* to it, not failures.", "",
             "| Option | Values | Default | Rule | What it changes |",
             "|---|---|---|---|---|"]
    for name, option in variant.options.items():
        values = ", ".join(code(v) for v in option.values)
        lines.append(f'| <a id="option-{name}"></a>{code(name)} | {values} | '
                     f"{code(option.default)} | {book.link(option.rule, here)} | "
                     f"{book.prose(option.description, here)} |")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------- traces


@dataclass(frozen=True)
class Frame:
    """One step of a replayed trace: the action, its events, the states around it."""

    number: int
    player: int
    action: str
    events: tuple[JsonObject, ...]
    before: JsonObject
    after: JsonObject
    anchor: int
    lakes: tuple[tuple[int, int], ...]


def frames(trace: Trace) -> list[Frame]:
    """Replay a hand trace on the reference and keep every state.

    ``anchor`` follows the opening tile of a chain (plays at the left end push it right);
    ``lakes`` are the lake cells scored so far that are still empty.
    """
    if trace.kind != "hand":
        raise ValueError(f"{trace.id} is a match trace; only hand traces are drawn")
    engine = reference_engine()
    spec = trace.hands[0]
    state = engine.new_hand(trace.variant, dict(trace.options), dict(spec.deal))
    out: list[Frame] = []
    anchor = 0
    water: set[tuple[int, int]] = set()
    for number, step in enumerate(spec.steps, start=1):
        events = engine.apply(step.action)
        after = engine.state()
        parsed = Action.parse(step.action)
        if parsed.kind == "chain" and parsed.end == "L":
            anchor += 1
        for event in events:
            if event["type"] == "lake":
                water.update((r, c) for r, c in event["cells"])
        covered = {(r, c) for p in after["table"].get("placements", []) for r, c in p["cells"]}
        water -= covered
        out.append(Frame(number, step.player, step.action, tuple(events), state, after,
                         anchor, tuple(sorted(water))))
        state = after
    return out


def _end_word(table_spec: Mapping[str, Any], end: str) -> str:
    if table_spec.get("ends") == 1:
        return "the open end"
    return "the left end" if end == "L" else "the right end"


def describe(frame: Frame, table_spec: Mapping[str, Any]) -> str:
    """What happened in one step, in words (Markdown)."""
    parsed = Action.parse(frame.action)
    table = frame.after["table"]
    parts: list[str] = []
    if parsed.kind == "opening" and parsed.tile is not None:
        parts.append(f"opens with {tile((parsed.tile.low, parsed.tile.high))}: the ends show "
                     f"{table['left']} and {table['right']}")
    elif parsed.kind == "chain" and parsed.tile is not None:
        shown = table["left"] if parsed.end == "L" else table["right"]
        where = _end_word(table_spec, parsed.end or "R")
        parts.append(f"plays {tile((parsed.tile.low, parsed.tile.high))} on {where}, its "
                     f"{parsed.touch} touching; the end now shows {shown}")
    elif parsed.kind == "board" and parsed.tile is not None and parsed.cells is not None:
        (low, high) = parsed.cells
        parts.append(f"places {tile((parsed.tile.low, parsed.tile.high))}: "
                     f"{parsed.tile.low} on {_cell(low)}, {parsed.tile.high} on {_cell(high)}")
    for event in frame.events:
        kind = event["type"]
        if kind == "draw":
            parts.append(f"draws {md(_bracket(event['tile']))}")
        elif kind == "pass":
            parts.append("passes")
        elif kind == "stop":
            parts.append("stops (no extra tile)")
        elif kind == "lake":
            cells = ", ".join(_cell(c) for c in event["cells"])
            parts.append(f"closes a lake of {len(event['cells'])} cells ({cells})")
        elif kind == "end":
            parts.append("the hand ends: " + result_words(event["result"]))
    return "; ".join(parts)


def _cell(cell: Sequence[int]) -> str:
    return f"{cell[0]}.{cell[1]}"


def _points(frame: Frame) -> int | None:
    scored = [e["points"] for e in frame.events if e["type"] in ("place", "lake")
              and "points" in e]
    return sum(scored) if scored else None


_REASONS: Final = {
    "domino": "by domino",
    "block": "by block",
    "mutual_pass": "after two passes in a row",
}


def result_words(result: Mapping[str, Any]) -> str:
    """A hand result in one sentence."""
    reason = _REASONS.get(result["reason"], md(result["reason"]))
    if result["winner"] is None:
        head = f"nobody wins (ended {reason})"
    else:
        head = f"player {result['winner']} wins {reason}"
    return f"{head}; points {_players(result['points'])}, pips left {_players(result['pips'])}"


_TERM_WORDS: Final = {
    "opponent_pips": "opponent's pips left",
    "own_pips": "own pips left",
    "last_tile_bonus": "last-tile bonus",
    "catch": "catch",
    "placement_points": "placement and lake points",
}


def result_table(book: Book, result: Mapping[str, Any], here: str) -> str:
    """The scoring terms of a result as a table (player, points, what, rule)."""
    lines = [f"**Result:** {result_words(result)}.", ""]
    if result["terms"]:
        lines += ["| Player | Points | For | Rule |", "|---|---|---|---|"]
        for term in result["terms"]:
            what = _TERM_WORDS.get(term["term"], md(term["term"]))
            lines.append(f"| {term['player']} | {term['points']:+d} | {what} | "
                         f"{book.link(term['rule'], here)} |")
        lines.append("")
    return "\n".join(lines)


def _figure(svg: str, caption: str) -> str:
    return (f'<figure class="dk-figure">{svg}<figcaption>{caption}</figcaption></figure>')


def _html(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _frame_svg(frame: Frame, table_spec: Mapping[str, Any], title: str,
               labels: Sequence[str] | None = None) -> str:
    table = frame.after["table"]
    if table["kind"] == "board":
        highlight = [len(table["placements"]) - 1]
    else:
        parsed = Action.parse(frame.action)
        highlight = [0 if parsed.end == "L" else len(table["tiles"]) - 1]
    return diagrams.state_svg(frame.after, table_spec, title=title, anchor=frame.anchor,
                              labels=labels, highlight=highlight, lakes=frame.lakes)


def _chain_labels(frames_: Sequence[Frame]) -> list[str]:
    """Move numbers under the tiles of the final chain (the widow marked as such)."""
    last = frames_[-1].after
    labels: list[str] = []
    if last.get("widow") is not None:
        labels.append("widow")
    order: list[str] = []
    for frame in frames_:
        parsed = Action.parse(frame.action)
        if parsed.kind in ("opening", "chain"):
            if parsed.end == "L":
                order.insert(0, str(frame.number))
            else:
                order.append(str(frame.number))
    return labels + order


def worked_example(book: Book, variant: Variant, info: TraceInfo, here: str) -> str:
    """A trace as a worked example: every step in words, the table after each placement."""
    trace = info.load()
    table_spec = variant.data["components"]["table"]
    steps = frames(trace)
    if not steps:
        return ""
    board = steps[0].after["table"]["kind"] == "board"
    lines = [f"### {md(trace.description)} {{ #{_example_anchor(info)} }}", "",
             f"Trace {code(trace.id)} (conformance case {code('golden/' + trace.id)}), "
             f"covering {book.links(trace.rules, here)}.", ""]
    deal = trace.hands[0].deal
    hands = " · ".join(f"player {i}: " + " ".join(md(_bracket(t)) for t in hand)
                       for i, hand in enumerate(deal["hands"]))
    lines += [f"**Deal.** {hands}."]
    if deal.get("widow"):
        x, y = deal["widow"]
        lines[-1] += f" Widow {tile((x, y))}: {x} faces player 0, {y} faces player 1."
    stock = deal.get("stock") or []
    if stock:
        shown = " ".join(md(_bracket(t)) for t in stock[:6])
        more = f" and {len(stock) - 6} more" if len(stock) > 6 else ""
        lines[-1] += f" Stock, in draw order: {shown}{more}."
    if board:
        lines += ["", "| Move | Player | Action | What happens | Points |",
                  "|---|---|---|---|---|"]
    else:
        lines += ["", "| Move | Player | Action | What happens |", "|---|---|---|---|"]
    for frame in steps:
        points = _points(frame)
        row = f"| {frame.number} | {frame.player} | {code(frame.action)} | " \
              f"{describe(frame, table_spec)} |"
        lines.append(row + (f" {0 if points is None else points} |" if board else ""))
    lines.append("")
    if not board:
        lines.append("Chain games score only when the hand ends, so the moves have no points "
                     "of their own.")
        lines.append("")
    if board:
        final = steps[-1]
        title = f"{variant.name}, {trace.id}: the board after the last move, {final.action}"
        lines += [_figure(_frame_svg(final, table_spec, title),
                          f"The board after move {final.number}; the last tile placed is "
                          "outlined."), ""]
    else:
        lines.append('<div class="dk-steps">')
        for frame in steps:
            if frame.after["table"] == frame.before["table"]:
                continue
            title = (f"{variant.name}, {trace.id}: the chain after move {frame.number}, "
                     f"{frame.action}")
            caption = (f"After move {frame.number}: player {frame.player} plays "
                       f"<code>{_html(frame.action)}</code>")
            lines.append(_figure(_frame_svg(frame, table_spec, title), caption))
        lines += ["</div>", ""]
        final = steps[-1]
        title = f"{variant.name}, {trace.id}: the final chain, tiles numbered by move"
        svg = diagrams.state_svg(final.after, table_spec, title=title, anchor=final.anchor,
                                 labels=_chain_labels(steps))
        lines += [_figure(svg, "The final chain; the number under each tile is its move."), ""]
    result = trace.hands[0].result
    if result is not None:
        lines.append(result_table(book, result, here))
    header = _trace_header(info)
    if header:
        lines += ['??? note "The arithmetic, by hand (from the trace file)"', "",
                  _indent("```text\n" + header + "\n```"), ""]
    return "\n".join(lines)


def _trace_header(info: TraceInfo) -> str:
    comments = leading_comments(info.text)
    return "\n".join(line[2:] if line.startswith("# ") else line.lstrip("#")
                     for line in comments.split("\n")).strip("\n")


def _is_example(trace: TraceInfo) -> bool:
    stem = trace.id.split("/", 1)[1]
    return trace.kind == "hand" and stem.startswith(EXAMPLE_PREFIXES)


def suite_traces(book: Book, variant_id: str, here: str) -> str:
    """A table of every bundled trace of a variant: what it shows and which rules."""
    rows = book.traces_of(variant_id)
    if not rows:
        return ""
    lines = ["## Golden traces of this game", "",
             "Every trace is a conformance case (`golden/<id>`) that any engine can replay; "
             f"see [the trace format]({_relative(TRACE_FORMAT_PAGE, here)}).", "",
             "| Trace | Kind | What it shows | Rules |", "|---|---|---|---|"]
    for trace in rows:
        lines.append(f"| {code(trace.id)} | {trace.kind} | {md(trace.description)} | "
                     f"{book.links(trace.rules, here)} |")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------- pages


def _common_list(book: Book, here: str) -> str:
    lines = ["## Rules shared by all four games", "",
             f"These apply here too; each is stated in full on "
             f"[the common rules page]({_relative(COMMON_PAGE, here)}).", ""]
    for entry in book.common:
        summary = entry.decision or entry.statement
        lines.append(f"- {book.link(entry.id, here)} **{md(entry.title)}.** "
                     f"{book.prose(summary, here)}")
    return "\n".join(lines) + "\n"


def variant_markdown(book: Book, variant: Variant) -> str:
    """The whole page of one variant."""
    here = variant_page(variant.id)
    meta = variant.data["metadata"]
    parts = [f"# {md(variant.name)}", "", book.prose(meta["summary"], here), "",
             summary_card(book, variant, here),
             f"*Source:* the Polish text {code(meta['source'])}. "
             f"*Origin:* {book.prose(meta['origin'], here)}", ""]
    examples = [t for t in book.traces_of(variant.id) if _is_example(t)]
    if examples:
        parts.append("Worked examples: " + ", ".join(
            f"[{md(t.description.rstrip('.'))}](#{_example_anchor(t)})" for t in examples)
            + ".")
        parts.append("")
    if any(t.id == OPENING_TRACE for t in examples):
        parts += [f"The opening published with the rules is replayed move by move, with the "
                  f"reason for every score, on [its own page]"
                  f"({_relative(OPENING_PAGE, here)}).", ""]
    parts += ["## Rules", "",
              "Each rule has a stable id; the Polish words it rests on stand beside the "
              "English statement. *Rulings* mark where the texts leave a gap and say how this "
              "project closes it.", ""]
    for entry in variant.rules:
        parts.append(rule_section(book, entry, here, options_here=True))
    parts.append(options_section(book, variant, here))
    if examples:
        parts += ["## Worked examples", ""]
        for trace in examples:
            parts.append(worked_example(book, variant, trace, here))
    parts.append(suite_traces(book, variant.id, here))
    parts.append(_common_list(book, here))
    return "\n".join(parts)


def _example_anchor(trace: TraceInfo) -> str:
    """The anchor of a worked example: ``example-`` and the trace's file stem."""
    return "example-" + trace.id.split("/", 1)[1]


def common_markdown(book: Book) -> str:
    """The page of the R-ALL rules."""
    here = COMMON_PAGE
    links = ", ".join(f"[{md(v.name)}]({_relative(variant_page(v.id), here)})"
                      for v in book.variants)
    parts = ["# Rules for all four games", "",
             f"These rules hold in every game ({links}) unless a game's own rule says "
             "otherwise. They fix what the texts take for granted: the tiles, the players, "
             "how chance enters (as data), and when a hand is over.", "",
             "## Rules", ""]
    for entry in book.common:
        parts.append(rule_section(book, entry, here, options_here=False))
    return "\n".join(parts)


def rule_index_markdown(book: Book) -> str:
    """Every rule id with its title, kind and page."""
    here = RULE_INDEX_PAGE
    lines = ["# Rule index", "",
             "Every rule id in `spec/`, in order. The id is also the anchor of the rule on its "
             f"page; see the [rule id policy]({_relative('contributing/rule-ids.md', here)}).",
             "", "| Id | Title | Kind | Game |", "|---|---|---|---|"]
    names = {variant_page(v.id): v.name for v in book.variants}
    names[COMMON_PAGE] = "all games"
    entries = [*book.common, *(e for v in book.variants for e in v.rules)]
    for entry in sorted(entries, key=lambda e: e.id):
        page = book.rule_pages[entry.id]
        lines.append(f"| {book.link(entry.id, here)} | {md(entry.title)} | "
                     f"{entry.kind.replace('_', ' ')} | {md(names[page])} |")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------- opening


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
        text = (f"it lies across {kind} ({_cell(low)} on {colours.split(' and ')[0]}, "
                f"{_cell(high)} on {colours.split(' and ')[1]}), so its pips count once: "
                f"{points}")
    return text, points


def opening_markdown(book: Book) -> str:
    """The published Pijanowski opening: what the text says, each move, how it was found."""
    from dominokit.conformance.tools import pijanowski_opening as tool

    here = OPENING_PAGE
    trace = next(t for t in book.traces if t.id == OPENING_TRACE).load()
    variant = next(v for v in book.variants if v.id == trace.variant)
    table_spec = variant.data["components"]["table"]
    steps = frames(trace)
    rule = book.rule(trace.rules[0])
    home = _relative(variant_page(variant.id), here)
    parts = [f"# The published opening of {md(variant.name)}", "",
             f"The rules of [{md(variant.name)}]({home}) were published with the first moves "
             "of a game and the points each move earned. This page replays them on a board, "
             "move by move, and says where every point comes from.", "",
             '!!! warning "The original picture is lost: this board is a reconstruction"',
             "",
             _indent("The text lists the moves and their points, but the picture of the board "
                     "that went with them is lost. The board below is our reconstruction: one "
                     "of many boards on which exactly these moves score exactly these points "
                     f"under this project's rulings ({book.link(rule.id, here)})."), "",
             "## What the text says", "",
             '<div class="dk-rule" markdown>',
             '<div class="dk-pl" lang="pl" markdown>',
             f'<p class="dk-label">Polish source · <code>{_html(rule.source_file or "")}'
             "</code></p>", "",
             f"> {md(rule.quote or '')}", "",
             "</div>",
             '<div class="dk-en" lang="en" markdown>',
             '<p class="dk-label">English</p>', "",
             "The tiles the players placed in turn, with the points each turn scored in "
             "brackets:",
             "", _published_list(tool.PUBLISHED), "",
             "</div>", "</div>", ""]
    parts += ["## Move by move", "",
              f"Player {steps[0].player} starts and the players alternate; the {tile((0, 0))} "
              "turn is two "
              f"placements. Field colours follow {book.link('R-PIJ-01', here)} (light and "
              "dark as drawn); the tile just placed is outlined in orange and lake cells are "
              "blue. Read the notation as `tile@low-half cell+high-half cell`, each cell as "
              f"`row.column` ([notation]({_relative(NOTATION_PAGE, here)})).", ""]
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
                cells = ", ".join(_cell(c) for c in event["cells"])
                reasons.append(f"it closes a lake of {n} empty cells ({cells}), fenced in by "
                               f"tiles and the board's edge: {n} × {per_cell} = "
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
        caption = (f"Move {frame.number}: <code>{_html(frame.action)}</code>, {total} points"
                   + (" (second tile of the turn)" if same_turn else ""))
        parts += [heading, "", _figure(_frame_svg(frame, table_spec, title), caption), "",
                  f"{tile((parsed.tile.low, parsed.tile.high))} goes on {_cell(parsed.cells[0])}"
                  f" and {_cell(parsed.cells[1])}: " + "; ".join(reasons) + "." + extra
                  if parsed.cells else "", ""]
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


def _published_list(turns: Sequence[Any]) -> str:
    items = []
    for turn in turns:
        items.append(" and ".join(tile(t) for t in turn.tiles) + f" ({turn.points})")
    return ", ".join(items) + "."


@cache
def _search_reports() -> tuple[Any, Any]:
    from dominokit.conformance.tools import pijanowski_opening as tool

    return tool.run(tool.LAKE_RULES[0]), tool.run(tool.LAKE_RULES[1])


def _rst_to_md(text: str) -> str:
    return text.replace("``", "`")


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
              "`python -m dominokit.conformance.tools.pijanowski_opening` "
              "(add `--json` for the data, `--lake-rule newly_enclosed` for the other reading "
              f"of {book.link('R-PIJ-06', here)}).", "",
              f"The moves are the golden trace {code(trace.id)}, so every engine that passes "
              f"the case {code('golden/' + trace.id)} scores this board the same way. The "
              "trace's own note:", ""]
    lines += ["> " + book.prose(line, here) if line else ">"
              for line in (trace.note or "").split("\n")]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------- notation


def notation_markdown(book: Book) -> str:
    """The action notation page, from ``spec/common.yaml``."""
    here = NOTATION_PAGE
    notation = _common_yaml()["notation"]
    parts = ["# Action notation", "",
             "Every action in every game has exactly one spelling. Engines, traces and the "
             "protocol all use it, so an engine's `legal` answer can be compared with the "
             "reference as a set of strings. This page is generated from "
             "`spec/common.yaml`.", "",
             "## Grammar", "", "```text", notation["grammar"].rstrip("\n"), "```", "",
             "## The forms", ""]
    for form in notation["forms"]:
        examples = ", ".join(code(e) for e in form["examples"])
        parts += [f"### {form['name']}", "",
                  f"**Spelling.** {book.prose(form['pattern'], here)}", "",
                  f"**Examples.** {examples}", "",
                  f"**Meaning.** {book.prose(form['meaning'], here)}", ""]
        board_examples = [e for e in form["examples"] if Action.parse(e).kind == "board"]
        if board_examples:
            parts.append(_board_example(board_examples[0]))
    order = notation["sort_order"]
    parts += ["## Order of legal actions", "",
              f"Kinds in this order: {', '.join(code(k) for k in order['kinds'])}.", "",
              f"**Sort key.** {book.prose(order['key'], here)}", "",
              book.prose(order["meaning"], here), ""]
    return "\n".join(parts)


def _board_example(notation: str) -> str:
    parsed = Action.parse(notation)
    assert parsed.tile is not None and parsed.cells is not None
    variant = next(v for v in (load_variant(i) for i in variant_ids())
                   if v.data["components"]["table"]["kind"] == "board")
    table = variant.data["components"]["table"]
    placed = diagrams.BoardTile(parsed.cells, (parsed.tile.low, parsed.tile.high))
    svg = diagrams.board_svg(int(table["rows"]), int(table["cols"]), [placed],
                             title=f"The board-play {notation} on an empty board",
                             highlight=[0])
    (r1, c1), (r2, c2) = parsed.cells
    caption = (f"<code>{notation}</code>: {parsed.tile.low} on row {r1} column {c1}, "
               f"{parsed.tile.high} on row {r2} column {c2}.")
    return _figure(svg, caption) + "\n"


@cache
def _common_yaml() -> JsonObject:
    text = (resources.files("dominokit.spec") / "common.yaml").read_text(encoding="utf-8")
    data: JsonObject = yaml.safe_load(text)
    return data


# ---------------------------------------------------------------------------- schemas


@dataclass(frozen=True)
class SchemaDoc:
    """Renders JSON Schema objects as field tables, following ``$ref`` across files."""

    home: str
    """The schema file the refs are relative to (e.g. ``protocol``)."""

    def resolve(self, ref: str, base: str | None = None) -> tuple[str, str, JsonObject]:
        """(label, file, schema) of a ``$ref`` made in schema file ``base`` (default home):
        a local ``#/$defs/x``, or ``file.schema.json`` with or without a fragment."""
        target, _, pointer = ref.partition("#")
        name = base or self.home
        if target:
            name = target.rsplit("/", 1)[-1].removesuffix(".schema.json")
        node: JsonObject = schema(name)
        label = name
        for part in [p for p in pointer.split("/") if p]:
            node = node[part]
            label = part
        return label, name, node

    def type_text(self, node: Mapping[str, Any], base: str | None = None) -> str:
        """A short type description of one schema node found in schema file ``base``."""
        base = base or self.home
        if "$ref" in node:
            label, where, target = self.resolve(node["$ref"], base)
            if not node["$ref"].partition("#")[2]:
                return f"{label.replace('_', ' ')} {target.get('type', 'value')}"
            if _is_simple(target):
                return self.type_text(target, where)
            return label.replace("_", " ")
        if "const" in node:
            return code(node["const"])
        if "enum" in node:
            return "one of " + ", ".join(code(v) for v in node["enum"])
        if "anyOf" in node or "oneOf" in node:
            options = node.get("anyOf", node.get("oneOf"))
            return " or ".join(self.type_text(n, base) for n in options)
        kind = node.get("type")
        if isinstance(kind, list):
            return " or ".join(kind)
        if kind == "array":
            items = node.get("items")
            return f"list of {self.type_text(items, base)}" if items else "list"
        if kind == "object" and "additionalProperties" in node and "properties" not in node:
            extra = node["additionalProperties"]
            if isinstance(extra, dict):
                return f"map of name → {self.type_text(extra, base)}"
        if kind == "string" and "pattern" in node:
            pattern = str(node["pattern"]).removesuffix(_PATTERN_END)
            return f"string matching {code(pattern)}"
        return str(kind or "any")

    def description(self, node: Mapping[str, Any]) -> str:
        """The node's description, else its ref target's."""
        if "description" in node:
            return str(node["description"])
        if "$ref" in node:
            return str(self.resolve(node["$ref"])[2].get("description", ""))
        return ""

    def table(self, node: Mapping[str, Any]) -> str:
        """The properties of an object node as a Markdown table."""
        required = set(node.get("required", []))
        lines = ["| Field | Type | Required | Meaning |", "|---|---|---|---|"]
        for name, prop in node.get("properties", {}).items():
            lines.append(f"| {code(name)} | {_cell_text(self.type_text(prop))} | "
                         f"{'yes' if name in required else 'no'} | "
                         f"{_cell_text(_ticks(self.description(prop)))} |")
        return "\n".join(lines)


def _is_simple(node: Mapping[str, Any]) -> bool:
    return "properties" not in node and node.get("type") != "object"


def _ticks(text: str) -> str:
    """Schema descriptions use `backticks` for code: keep them, escape the rest."""
    pieces = text.split("`")
    return "".join(md(p) if i % 2 == 0 else f"`{p}`" for i, p in enumerate(pieces))


def _cell_text(text: str) -> str:
    return text.replace("\n", " ")


def protocol_markdown(book: Book) -> str:
    """The protocol page: ``spec/protocol.md`` as written, then every message from the schema."""
    prose = (resources.files("dominokit.spec") / "protocol.md").read_text(encoding="utf-8")
    doc = SchemaDoc("protocol")
    proto = schema("protocol")
    defs = proto["$defs"]
    parts = [prose.rstrip("\n"), "",
             "## Message reference", "",
             "Generated from `spec/schema/protocol.schema.json`: for each command, the fields "
             "of its request and of its result. Every reply is either "
             "`{\"seq\": N, \"result\": {...}}` or `{\"seq\": N, \"error\": {...}}`.", ""]
    for command in defs["command"]["enum"]:
        request = defs[f"{command}_request"]
        result = defs[f"{command}_result"]
        parts += [f"### `{command}` request and result", "", _ticks(request["description"]),
                  "", "**Request**", "", doc.table(request), "", "**Result**", "",
                  _ticks(result.get("description", "")), ""]
        parts.append(doc.table(result) if result.get("properties") else
                     "An empty object: `{}`.")
        parts.append("")
    parts += ["### `error`", "", _ticks(defs["error"]["description"]), "",
              doc.table(defs["error"]), ""]
    parts += _object_sections(["deal", "state", "event", "hand_result", "match_state"])
    return "\n".join(parts)


def _object_sections(names: Sequence[str]) -> list[str]:
    parts: list[str] = ["## Objects inside the messages", ""]
    for name in names:
        node = schema(name)
        doc = SchemaDoc(name)
        parts += [f"### {node.get('title', name)} (`{name}.schema.json`) {{ #schema-{name} }}",
                  "",
                  _ticks(node.get("description", "")), ""]
        if node.get("properties") and "allOf" not in node:
            parts += [doc.table(node), ""]
        for branch in node.get("allOf", []):
            then = branch.get("then", {})
            const = then.get("properties", {}).get("type", {}).get("const")
            if const is None:
                continue
            parts += [f"**`{const}`**: {_ticks(then['properties']['type'].get('description', ''))}",
                      "", doc.table(then), ""]
    return parts


def trace_format_markdown(book: Book) -> str:
    """The golden trace format, from ``trace.schema.json``, with a real example."""
    here = TRACE_FORMAT_PAGE
    node = schema("trace")
    doc = SchemaDoc("trace")
    parts = ["# Golden trace format", "",
             _ticks(node["description"]), "",
             "This page is generated from `spec/schema/trace.schema.json`. How to record, "
             f"check and regenerate traces is on [Working with traces]"
             f"({_relative('contributing/traces.md', here)}).", "",
             "## Top-level fields", "",
             "A hand trace (`kind: hand`) has `deal`, `steps` and `result`; a match trace "
             "(`kind: match`) has `first_starter`, `hands` and `match` instead.", "",
             doc.table(node), ""]
    for name in ("step", "plan", "match_hand", "match_expectation"):
        sub = node["$defs"].get(name)
        if sub is None or not sub.get("properties"):
            continue
        parts += [f"## `{name}`", "", _ticks(sub.get("description", "")), "",
                  doc.table(sub), ""]
    example = _smallest_hand_trace(book)
    if example is not None:
        text = example.text
        parts += ["## A complete example", "",
                  f"The shortest bundled hand trace, {code(example.id)}, as stored "
                  "(the comment block at the top holds the hand arithmetic and survives "
                  "regeneration):", "", "```yaml", text.rstrip("\n"), "```", ""]
    parts += ["## Bundled traces", "",
              "| Trace | Kind | What it shows | Rules |", "|---|---|---|---|"]
    for trace in book.traces:
        parts.append(f"| {code(trace.id)} | {trace.kind} | {md(trace.description)} | "
                     f"{book.links(trace.rules, here)} |")
    parts.append("")
    return "\n".join(parts)


def _smallest_hand_trace(book: Book) -> TraceInfo | None:
    hands = [t for t in book.traces if t.kind == "hand"]
    if not hands:
        return None
    return min(hands, key=lambda t: (len(t.text), t.id))


# ---------------------------------------------------------------------------- all pages


PageMaker = Callable[[Book], str]


def build_pages(book: Book | None = None) -> dict[str, str]:
    """Every generated page: path under ``docs/`` -> Markdown text, in a stable order."""
    book = book or Book.load()
    pages: dict[str, str] = {COMMON_PAGE: common_markdown(book)}
    for variant in book.variants:
        pages[variant_page(variant.id)] = variant_markdown(book, variant)
    makers: list[tuple[str, PageMaker]] = [
        (NOTATION_PAGE, notation_markdown),
        (PROTOCOL_PAGE, protocol_markdown),
        (TRACE_FORMAT_PAGE, trace_format_markdown),
        (RULE_INDEX_PAGE, rule_index_markdown),
    ]
    if any(t.id == OPENING_TRACE for t in book.traces):
        makers.insert(0, (OPENING_PAGE, opening_markdown))
    for path, maker in makers:
        pages[path] = maker(book)
    return pages

