"""Which tests hold each rule down: golden traces, perft positions and case kinds per rule id.

A reader who doubts a rule should be able to see the tests that would fail if an engine broke
it, as the test suites for web standards show beside each section. The map is read from the
suite itself, never written by hand: ``dominokit.conformance.run.runner.collect_cases`` gives every
case with its ``kind`` and ``rules`` tags, and a golden case names its trace by its id
(``golden/<trace id>``), whose page the book links. Collecting the cases takes a few seconds,
so the map is built once per process.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final

from dominokit.rulebook.book import Book
from dominokit.rulebook.captions import say
from dominokit.rulebook.i18n import EN, Lang
from dominokit.rulebook.text import code, relative

TRACE_PAGE_DIR: Final = "traces"
"""Golden trace pages live under ``docs/traces/<variant>/<stem>.md``."""
PERFT_FILE: Final = "conformance/perft/{variant}.yaml"
PERFT_PAGE_DIR: Final = "perft"
"""Each game's perft positions are published on ``docs/perft/<variant>.md``, so that a rule's
"Tested by" line can link the positions that hold it down."""


def perft_page(variant: str) -> str:
    """The page of one game's perft positions, relative to ``docs/``."""
    return f"{PERFT_PAGE_DIR}/{variant}.md"


def trace_page(trace_id: str) -> str:
    """The page of one golden trace, relative to ``docs/``."""
    return f"{TRACE_PAGE_DIR}/{trace_id}.md"


@dataclass
class RuleTests:
    """The tests that exercise one rule."""

    traces: set[str] = field(default_factory=set)
    """Golden trace ids."""
    perft: dict[str, set[str]] = field(default_factory=dict)
    """Perft file (repository path) -> the position names in it tagged with the rule."""
    kinds: dict[str, int] = field(default_factory=dict)
    """Case kind (other than golden and perft) -> how many cases of that kind."""


@dataclass(frozen=True)
class Coverage:
    """Rule id -> its tests, and golden trace id -> every rule its case is tagged with."""

    rules: Mapping[str, RuleTests]
    trace_rules: Mapping[str, tuple[str, ...]]

    def of(self, rule_id: str) -> RuleTests:
        """The tests of ``rule_id`` (empty when none names it)."""
        return self.rules.get(rule_id, RuleTests())


@functools.cache
def coverage() -> Coverage:
    """The rule map of the whole suite (all variants), built once."""
    from dominokit.conformance.cases import collect_cases

    rules: dict[str, RuleTests] = {}
    trace_rules: dict[str, tuple[str, ...]] = {}
    for case in collect_cases():
        kind, _, rest = case.id.partition("/")
        for rule in case.rules:
            tests = rules.setdefault(rule, RuleTests())
            if case.kind == "golden":
                tests.traces.add(rest)
            elif case.kind == "perft":
                variant, _, position = rest.partition("/")
                name = position.rsplit("-d", 1)[0]
                tests.perft.setdefault(PERFT_FILE.format(variant=variant), set()).add(name)
            else:
                tests.kinds[case.kind] = tests.kinds.get(case.kind, 0) + 1
        if case.kind == "golden":
            trace_rules[rest] = tuple(sorted(set(case.rules)))
    return Coverage(rules, trace_rules)


def tested_by(book: Book, rule_id: str, here: str, lang: Lang = EN) -> str:
    """The "Tested by" paragraph of one rule (Markdown): its golden traces linked to their
    pages, its perft files with the positions, and the other case kinds with their counts."""
    tests = coverage().of(rule_id)
    known = {t.id for t in book.traces}
    parts: list[str] = []
    traces = sorted(t for t in tests.traces if t in known)
    if traces:
        parts.append(say(lang, "tested_traces", traces=", ".join(
            f"[{code(t)}]({relative(trace_page(t), here)})" for t in traces)))
    for path, names in sorted(tests.perft.items()):
        page = relative(perft_page(path.rsplit("/", 1)[1].removesuffix(".yaml")), here)
        parts.append(say(lang, "tested_perft", file=f"[{code(path)}]({page})",
                         positions=", ".join(f"[{code(n)}]({page}#{n})"
                                             for n in sorted(names))))
    if tests.kinds:
        parts.append(say(lang, "tested_cases", cases=", ".join(
            f"{code(kind + '/')} ×{count}" for kind, count in sorted(tests.kinds.items()))))
    if not parts:
        return f'<p class="dk-tested">{say(lang, "tested_by_none")}</p>\n'
    return say(lang, "tested_by", tests="; ".join(parts)) + "\n"


def perft_pages(book: Book, lang: Lang = EN) -> dict[str, str]:
    """One page per game with perft data: each position's description, rules, deal, prefix
    and counts per depth, read from the bundled file (the same data the perft cases run), as
    ``lang``'s files."""
    from importlib.resources import files

    import yaml

    from dominokit.rulebook.card import game_name
    from dominokit.spec.yamldoc import load_yaml_data

    pages: dict[str, str] = {}
    for variant in book.variants:
        entry = files("dominokit.conformance") / "perft" / f"{variant.id}.yaml"
        if not entry.is_file():
            continue
        data = load_yaml_data(entry)
        here = perft_page(variant.id)
        lines = [f"# {say(lang, 'perft_title', game=game_name(variant, lang))}", "",
                 say(lang, "perft_intro", file=code(PERFT_FILE.format(variant=variant.id)),
                     rule=book.link("R-ALL-11", here)), ""]
        for position in data.get("positions", []):
            name = position["name"]
            rules = ", ".join(book.link(r, here) for r in position.get("rules", []))
            setup = {"deal": position["deal"], "actions": position.get("actions", [])}
            described = book.prose(position.get("description", ""), here)
            if lang.code != EN.code and described:
                described = f'<span lang="en">{described}</span>'
            lines += [f'## {code(name)} {{ #{name} }}', "", described, "",
                      say(lang, "perft_rules", rules=rules), "",
                      "```yaml", yaml.safe_dump(setup, sort_keys=False,
                                                default_flow_style=None).rstrip(), "```", "",
                      say(lang, "perft_table"), "|---|---|"]
            lines += [f"| {row['depth']} | {row['count']} |" for row in position["perft"]]
            lines.append("")
        pages[lang.page(here)] = "\n".join(lines)
    return pages


def perft_nav(book: Book) -> list[dict[str, str]]:
    """The navigation entries of the perft pages (one per game with a perft file)."""
    from importlib.resources import files

    perft = files("dominokit.conformance") / "perft"
    return [{variant.name: perft_page(variant.id)} for variant in book.variants
            if (perft / f"{variant.id}.yaml").is_file()]
