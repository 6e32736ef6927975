"""A rule in words, from the installed spec alone: for ``dominokit rule`` and for every failure.

The rule book (docs/) is not in the wheel, so a failure that names only ``R-SZC-07`` leaves an
engine author who installed dominokit with pip nothing to read. Every rule entry carries its
title, statement, ruling and Polish source words in the YAML the wheel ships; this module turns
one entry into text, and names the rule-book page that states it (a path under ``docs/``, the
same in a checkout and on the published site).
"""

from __future__ import annotations

import difflib
import functools
import textwrap
from dataclasses import dataclass
from typing import Final, Literal

from dominokit.spec.spec import RuleEntry, common_rules, load_variant, variant_ids

Lang = Literal["en", "pl"]
LANGS: Final[tuple[Lang, ...]] = ("en", "pl")
WIDTH: Final = 88

_LABELS: Final[dict[Lang, dict[str, str]]] = {
    "en": {"statement": "Statement", "decision": "Decision", "alternative": "Alternative reading",
           "option": "Option", "source": "Source words", "page": "Rule book", "kind": "kind"},
    "pl": {"statement": "Zasada", "decision": "Rozstrzygnięcie",
           "alternative": "Inne odczytanie", "option": "Opcja", "source": "Słowa źródła",
           "page": "Księga zasad", "kind": "rodzaj"},
}

_KINDS_PL: Final = {"rule": "zasada ze źródła", "ruling": "rozstrzygnięcie",
                    "new_ruling": "nowe rozstrzygnięcie"}


@dataclass(frozen=True)
class RuleWords:
    """Where a rule is defined (``variant`` None: spec/common.yaml) and its entry."""

    entry: RuleEntry
    variant: str | None

    def page(self, lang: Lang = "en") -> str:
        """The rule-book page and anchor, as a path in the repository."""
        stem = self.variant or "common"
        suffix = ".pl.md" if lang == "pl" else ".md"
        return f"docs/variants/{stem}{suffix}#{self.entry.id}"

    def title(self, lang: Lang = "en") -> str:
        """The title in ``lang`` (English where no Polish title is written)."""
        return (self.entry.title_pl if lang == "pl" else None) or self.entry.title

    def statement(self, lang: Lang = "en") -> str:
        """The whole statement in ``lang``, one paragraph per line."""
        text = (self.entry.statement_pl if lang == "pl" else None) or self.entry.statement
        return "\n".join(" ".join(p.split()) for p in text.split("\n\n"))

    def one_line(self, lang: Lang = "en") -> str:
        """The statement's first sentence: what a failure block quotes."""
        first = self.statement(lang).split("\n")[0]
        end = _sentence_end(first)
        return first if end < 0 else first[: end + 1]

    def to_json(self) -> dict[str, str]:
        """The rule as the JSON report cites it (English, the report's language)."""
        return {"title": self.title(), "statement": self.one_line(), "page": self.page()}

    def text(self, lang: Lang = "en") -> str:
        """Everything the spec says about the rule, for ``dominokit rule``."""
        labels = _LABELS[lang]
        e = self.entry
        kind = _KINDS_PL.get(e.kind, e.kind) if lang == "pl" else e.kind.replace("_", " ")
        lines = [f"{e.id}  {self.title(lang)}  ({labels['kind']}: {kind})", ""]

        def block(label: str, text: str | None) -> None:
            if not text:
                return
            lines.append(f"{label}:")
            for paragraph in text.split("\n\n"):
                lines.extend(textwrap.wrap(" ".join(paragraph.split()), WIDTH,
                                           initial_indent="  ", subsequent_indent="  "))
            lines.append("")

        pl = lang == "pl"
        block(labels["statement"], self.statement(lang).replace("\n", "\n\n"))
        block(labels["decision"], (e.decision_pl if pl else None) or e.decision)
        block(labels["alternative"], (e.alternative_pl if pl else None) or e.alternative)
        if e.option:
            lines += [f"{labels['option']}: {e.option}", ""]
        if e.quote:
            where = e.source_file or e.source_url or ""
            block(f"{labels['source']} ({where})", f"„{' '.join(e.quote.split())}”")
        lines.append(f"{labels['page']}: {self.page(lang)}")
        return "\n".join(lines)


def _sentence_end(text: str) -> int:
    """Index of the first full stop that ends a sentence (not one inside ``[a|b]`` or 4.5)."""
    for i, char in enumerate(text):
        if char == "." and (i + 1 == len(text) or text[i + 1] == " ") \
                and text[max(0, i - 3):i + 1] not in ("i.e.", "e.g.") \
                and not text[:i + 1].endswith(("etc.", "cf.")):
            return i
    return -1


@functools.cache
def all_rules() -> tuple[RuleWords, ...]:
    """Every rule of the spec: the common rules, then each variant's, in file order."""
    out = [RuleWords(entry, None) for entry in common_rules()]
    for variant_id in variant_ids():
        out.extend(RuleWords(entry, variant_id) for entry in load_variant(variant_id).rules)
    return tuple(out)


def find(rule_id: str) -> RuleWords:
    """The rule with this id; KeyError whose text suggests the nearest ids when none is."""
    every = all_rules()
    for words in every:
        if words.entry.id == rule_id.upper():
            return words
    near = difflib.get_close_matches(rule_id.upper(), [w.entry.id for w in every], n=3)
    hint = f"; did you mean {' or '.join(near)}?" if near else ""
    raise KeyError(f"no rule {rule_id!r} in the spec{hint} (dominokit rule --list lists them)")


def cited(rule_ids: list[str] | tuple[str, ...]) -> dict[str, dict[str, str]]:
    """Title, one-line statement and page of each known id, for the JSON report."""
    known = {w.entry.id: w for w in all_rules()}
    return {rule_id: known[rule_id].to_json() for rule_id in rule_ids if rule_id in known}


def listing(lang: Lang = "en") -> str:
    """One line per rule: id, title, and where it is defined."""
    return "\n".join(f"{w.entry.id:<9} {w.title(lang)}  [{w.variant or 'common'}]"
                     for w in all_rules())
