"""The generated rule book: every rule has its anchor, every game its card, and the example
engine of the quick start really passes the suite.

Rule ids are read here straight from the YAML files with PyYAML, not through the rule book or
the reference, so a rule the page generator forgot cannot hide. The facts checked on the
summary cards are worked out by hand from the rules (shown next to each).
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
import yaml

from dominokit.rulebook import CARD_TERMS, OPENING_PAGE, build_pages

REPO = Path(__file__).resolve().parents[2]
EXAMPLE_ENGINE = REPO / "docs" / "examples" / "szczerbak_engine.py"
ANCHOR = re.compile(r"\{ #(R-[A-Z]{3}-[0-9]{2})[ }]|id=\"(R-[A-Z]{3}-[0-9]{2})\"")


def spec_files() -> dict[str, dict[str, Any]]:
    """Every rule file of the spec, parsed: ``common`` and each variant id."""
    root = resources.files("dominokit.spec")
    out = {"common": yaml.safe_load((root / "common.yaml").read_text(encoding="utf-8"))}
    for entry in (root / "variants").iterdir():
        if entry.name.endswith(".yaml"):
            data = yaml.safe_load(entry.read_text(encoding="utf-8"))
            out[data["id"]] = data
    return out


SPEC = spec_files()
VARIANTS = sorted(k for k in SPEC if k != "common")


@pytest.fixture(scope="module")
def pages() -> dict[str, str]:
    return build_pages()


def anchors(pages: dict[str, str]) -> Counter[str]:
    found: Counter[str] = Counter()
    for text in pages.values():
        for match in ANCHOR.finditer(text):
            found[match.group(1) or match.group(2)] += 1
    return found


def rule_section(page: str, rule_id: str) -> str:
    """The Markdown of one rule: from its heading to the next heading of level 2 or 3."""
    start = page.index(f"{{ #{rule_id} ")
    rest = page[start:]
    following = re.search(r"\n#{2,3} ", rest)
    return rest[: following.start()] if following else rest


def test_every_rule_id_in_spec_has_exactly_one_anchor(pages: dict[str, str]) -> None:
    ids = [rule["id"] for data in SPEC.values() for rule in data["rules"]]
    assert len(ids) == len(set(ids)) > 50
    found = anchors(pages)
    missing = sorted(set(ids) - set(found))
    assert not missing, f"rule ids without an anchor in the rule book: {missing}"
    doubled = sorted(i for i, n in found.items() if n > 1)
    assert not doubled, f"rule ids anchored more than once: {doubled}"
    assert set(found) == set(ids), "an anchor for a rule that is not in the spec"


def test_each_rule_is_on_its_own_games_page(pages: dict[str, str]) -> None:
    for name, data in SPEC.items():
        page = pages["variants/common.md" if name == "common" else f"variants/{name}.md"]
        for rule in data["rules"]:
            assert f"{{ #{rule['id']} " in page, (name, rule["id"])


def test_every_variant_page_has_its_summary_card(pages: dict[str, str]) -> None:
    for variant in VARIANTS:
        page = pages[f"variants/{variant}.md"]
        card = page.split('<div class="dk-card" markdown>', 1)[1].split("</div>", 1)[0]
        terms = re.findall(r"^(\S[^\n]*)\n:   ", card, re.M)
        assert set(CARD_TERMS) <= set(terms), (variant, terms)
        # The card comes before the rules, right after the title and summary.
        assert page.index('class="dk-card"') < page.index("## Rules")


def card_row(pages: dict[str, str], variant: str, term: str) -> str:
    card = pages[f"variants/{variant}.md"].split('<div class="dk-card" markdown>', 1)[1]
    return card.split(f"\n{term}\n:   ", 1)[1].split("\n", 1)[0]


def test_summary_cards_say_what_the_rules_say(pages: dict[str, str]) -> None:
    # Poldomino: 28 tiles, 5 each, so 28 - 2 x 5 = 18 in the stock; sets of 125, 2 to win.
    assert card_row(pages, "poldomino", "Tiles").startswith("28 tiles")
    assert "5 tiles each" in card_row(pages, "poldomino", "Deal")
    assert "18 tiles" in card_row(pages, "poldomino", "Deal")
    assert "125" in card_row(pages, "poldomino", "Match")
    assert "2 sets" in card_row(pages, "poldomino", "Match")
    # Szczerbak: 7 x 6 / 2 = 21 tiles without doubles, 10 each, the widow; first to 100.
    assert card_row(pages, "szczerbak", "Tiles").startswith("21 tiles")
    assert "widow" in card_row(pages, "szczerbak", "Deal")
    assert "100 or more" in card_row(pages, "szczerbak", "Match")
    # Pijanowski: 12 each (option 12 or 14), 28 - 24 = 4 put aside; a total must pass 500.
    assert "12 tiles each" in card_row(pages, "pijanowski", "Deal")
    assert "4 tiles" in card_row(pages, "pijanowski", "Deal")
    assert "passes 500" in card_row(pages, "pijanowski", "Match")
    # Progressive: 2 rounds of 10 deals, 5 to 14 tiles in round 1.
    assert card_row(pages, "progressive", "Match").startswith("2 rounds")
    assert "5 to 14" in card_row(pages, "progressive", "Match")
    assert card_row(pages, "progressive", "Players").split(" ", 1)[0] == "2"


def test_polish_and_english_stand_side_by_side(pages: dict[str, str]) -> None:
    for name, data in SPEC.items():
        page = pages["variants/common.md" if name == "common" else f"variants/{name}.md"]
        for rule in data["rules"]:
            section = rule_section(page, rule["id"])
            # The source column: Polish for a seed text, English for a published rule text.
            lang = "en" if (rule.get("source") or {}).get("url") else "pl"
            polish = section.index(f'class="dk-pl" lang="{lang}"')
            english = section.index('class="dk-en" lang="en"')
            assert polish < english
            quote = (rule.get("source") or {}).get("quote")
            if quote:
                # The quote's longest word, as written in Polish, is in the Polish column.
                word = max(re.findall(r"[^\W_][\w+=]*", quote), key=len)
                assert word in section[polish:english], (rule["id"], word)


def test_rulings_are_marked_with_their_alternative_and_option(pages: dict[str, str]) -> None:
    titles = {"ruling": '!!! note "Ruling"', "new_ruling": '!!! warning "New ruling"'}
    for name, data in SPEC.items():
        page = pages["variants/common.md" if name == "common" else f"variants/{name}.md"]
        for rule in data["rules"]:
            section = rule_section(page, rule["id"])
            if rule["kind"] in titles:
                assert titles[rule["kind"]] in section, rule["id"]
                ruling = rule["ruling"]
                if ruling.get("alternative"):
                    assert "**Alternative reading.**" in section, rule["id"]
                if ruling.get("option"):
                    assert f"(#option-{ruling['option']})" in section, rule["id"]
            else:
                assert "!!!" not in section, rule["id"]


def test_options_have_anchors_on_their_page(pages: dict[str, str]) -> None:
    for variant in VARIANTS:
        for option in SPEC[variant]["options"]:
            assert f'<a id="option-{option}"></a>' in pages[f"variants/{variant}.md"]


def test_rule_links_name_existing_rules(pages: dict[str, str]) -> None:
    ids = {rule["id"] for data in SPEC.values() for rule in data["rules"]}
    linked = {m for text in pages.values() for m in re.findall(r"\]\([^)]*#(R-[A-Z0-9-]+)\)",
                                                                 text)}
    assert linked and linked <= ids


def test_worked_examples_come_from_the_seed_traces(pages: dict[str, str]) -> None:
    # Each chain game has a seed-example-chain trace; its page shows it with diagrams.
    for variant in ("poldomino", "progressive", "szczerbak"):
        page = pages[f"variants/{variant}.md"]
        assert "{ #example-seed-example-chain }" in page
        assert page.count("<svg") >= 3


def test_the_opening_page_has_every_published_score(pages: dict[str, str]) -> None:
    page = pages[OPENING_PAGE]
    assert "reconstruction" in page and "lost" in page
    # Published turn by turn (seed text): 22, 20, 20, 16, 6, 6, 7, then 6 + 16 = 22.
    rows = re.findall(r"^\| (\d) \| (\d) \| [^|]*(?:\\\|[^|]*)* \| (\d+) \| (\d+) \|$",
                      page, re.M)
    assert [(int(p), int(q)) for _, _, p, q in rows] == [
        (22, 22), (20, 20), (20, 20), (16, 16), (6, 6), (6, 6), (7, 7), (22, 22)]
    assert [int(player) for _, player, _, _ in rows] == [0, 1, 0, 1, 0, 1, 0, 1]
    # A board after each of the nine placements, and the lake of 4 cells scoring 4 x 4.
    assert page.count("<svg") == 9
    assert "4 × 4 = 16" in page


# ---------------------------------------------------------------------------- the example


def run_example(tmp_path: Path, variant: str, kinds: tuple[str, ...]) -> Any:
    from dominokit.conformance.cases import collect_cases
    from dominokit.conformance.run.runner import run_suite

    cases = [c for c in collect_cases(variant) if c.kind in kinds]
    command = f"{sys.executable} {EXAMPLE_ENGINE}"
    with open(tmp_path / "terminal.txt", "w", encoding="utf-8") as out:
        return run_suite(command, cases=cases, report_dir=tmp_path, timeout=30, out=out)


def test_example_engine_passes_szczerbak_golden_and_rejection_cases(tmp_path: Path) -> None:
    report = run_example(tmp_path, "szczerbak", ("golden", "rejection"))
    statuses = Counter(record.outcome.status for record in report.records)
    kinds = Counter(record.kind for record in report.records)
    assert kinds["golden"] >= 1 and kinds["rejection"] >= 1
    failures = [(r.case_id, r.outcome.message) for r in report.records
                if r.outcome.status != "passed"]
    assert not failures
    assert statuses["passed"] == len(report.records)
    assert report.ok
    assert report.hello is not None and set(report.hello.variants) == {"szczerbak"}


def test_example_engine_is_not_applicable_to_other_games(tmp_path: Path) -> None:
    report = run_example(tmp_path, "poldomino", ("golden",))
    assert report.records
    assert all(r.outcome.status == "not_applicable" for r in report.records)
    assert report.ok


def test_example_engine_imports_nothing_from_dominokit() -> None:
    source = EXAMPLE_ENGINE.read_text(encoding="utf-8")
    imported = re.findall(r"^(?:from|import) (\w+)", source, re.M)
    assert set(imported) <= {"__future__", "json", "re", "sys", "typing"}
