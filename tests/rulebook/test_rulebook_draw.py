"""Every hard rule drawn from a checked trace: trace pages, the tests behind each rule, one
hand under both values of an option, the hardest tiles, the games side by side, and long
chains cut into pieces.

Expected values are worked out by hand from the rules and the trace headers (shown next to
each), never copied from what the book prints.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest
import yaml

from dominokit.conformance.run.diagrams import ChainStyle
from dominokit.rulebook import Book, build_pages
from dominokit.rulebook import coverage as cov
from dominokit.rulebook.chainrows import ROW_WIDTH, pieces
from dominokit.rulebook.coverage import coverage, trace_page
from dominokit.rulebook.placement import hardest_tiles
from dominokit.rulebook.sidebyside import option_pairs

REPO = Path(__file__).resolve().parents[2]
TRACES = sorted((REPO / "conformance" / "traces").glob("*/*.yaml"))


@functools.cache
def book() -> Book:
    return Book.load()


@functools.cache
def pages() -> dict[str, str]:
    return build_pages(book())


def _rules_of(path: Path) -> list[str]:
    return list(yaml.safe_load(path.read_text(encoding="utf-8"))["rules"])


@pytest.mark.parametrize("path", TRACES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_golden_trace_has_its_page_listing_its_rules(path: Path) -> None:
    trace_id = f"{path.parent.name}/{path.stem}"
    page = pages()[f"traces/{trace_id}.md"]
    covered = page.split("## Rules covered", 1)[1].split("\n## ", 1)[0]
    for rule in _rules_of(path):
        assert f"#{rule})" in covered, f"{trace_id}: {rule} not listed"
    assert f"]({trace_id}.md)" in pages()["traces/index.md"]


def test_match_traces_are_drawn_hand_by_hand() -> None:
    # progressive/match-drawn-round has 20 hands (header: round 1 deals 1-10, round 2 deals 1-10).
    page = pages()["traces/progressive/match-drawn-round.md"]
    assert len(re.findall(r"^## Hand \d+$", page, re.M)) == 20
    assert page.count("dk-diagram") >= 20
    # After the last hand: round 1 [99, 139] won by player 1, round 2 drawn [50, 50].
    assert "player 1 wins the match" in page


def test_every_rule_is_tested_and_says_by_what() -> None:
    ids = [e.id for e in book().common] + [e.id for v in book().variants for e in v.rules]
    for rule in ids:
        tests = coverage().of(rule)
        assert tests.traces or tests.perft or tests.kinds, f"{rule}: no case names it"
    # R-PIJ-06 (lakes) is in the rules: of both lake traces, so both are linked from it.
    line = cov.tested_by(book(), "R-PIJ-06", "variants/pijanowski.md")
    assert "(../traces/pijanowski/lakes-new-region.md)" in line
    assert "(../traces/pijanowski/lakes-newly-enclosed.md)" in line
    # Every variant page carries one "Tested by" line per rule.
    for variant in book().variants:
        page = pages()[f"variants/{variant.id}.md"]
        assert page.count("Tested by:") == len(variant.rules)


def test_perft_files_are_listed_with_their_rules() -> None:
    perft = yaml.safe_load((REPO / "conformance" / "perft" / "szczerbak.yaml")
                           .read_text(encoding="utf-8"))
    entry = perft["positions"][0] if isinstance(perft, dict) else perft[0]
    line = cov.tested_by(book(), entry["rules"][0], "variants/szczerbak.md")
    assert "conformance/perft/szczerbak.yaml" in line
    assert f"`{entry['name']}`" in line


def test_option_pairs_are_found_from_the_traces() -> None:
    found = {(p.option, p.first.id, p.second.id) for p in option_pairs(book())}
    assert ("lake_rule", "pijanowski/lakes-new-region", "pijanowski/lakes-newly-enclosed") \
        in found
    assert any(opt == "catch_penalty_to" and "catch-double-blank" in a for opt, a, _ in found)


def test_lakes_side_by_side_show_the_scores_of_both_rules() -> None:
    # Trace header, move 5 (2-2@0.5+0.6): placement 4; new_region adds two 1-cell lakes,
    # 2 x 4 = 8, so 12; newly_enclosed scores no lake, so 4.
    page = pages()["traces/pijanowski/lakes-newly-enclosed.md"]
    section = page.split("## The same hand under both values of `lake_rule`", 1)[1]
    row = next(line for line in section.splitlines() if line.startswith("| 5 |"))
    under_new, under_enclosed = row.split(" | ")[2:4]
    assert "(**12** points" in under_new and "closes a lake of 1 cell" in under_new
    assert "(**4** points" in under_enclosed and "lake" not in under_enclosed
    assert section.count("<figure") == 2


def test_catch_side_by_side_shows_both_receivers() -> None:
    # R-POL-09: a lone [0|0] left in the loser's hand is a catch worth 30: to the winner by
    # default, off the loser under catch_penalty_to loser.
    page = pages()["traces/poldomino/catch-double-blank.md"]
    section = page.split("## The same hand under both values of `catch_penalty_to`", 1)[1]
    assert "| 0 | +30 | catch |" in section
    assert "| 1 | -30 | catch |" in section


def test_hardest_szczerbak_tiles_follow_from_the_parity_rule() -> None:
    # R-SZC-04/05, by hand: on an end e != 0 a tile fits when a half equals e and the other
    # half is 0 or of the other parity; on 0 anything fits. A tile whose two halves are
    # non-zero and of the same parity fits no end but 0: these are the hardest.
    expected = [(a, b) for a in range(1, 7) for b in range(a + 1, 7) if a % 2 == b % 2]
    variant = next(v for v in book().variants if v.id == "szczerbak")
    assert [(t.low, t.high) for t in hardest_tiles(variant)] == expected
    page = pages()["variants/szczerbak.md"]
    assert "## Which tiles are hardest to place" in page
    for other in book().variants:
        if other.data["turn"]["parity"]["policy"] == "none":
            assert "hardest to place" not in pages()[f"variants/{other.id}.md"]


def test_comparison_page_has_a_column_per_game_and_the_match_targets() -> None:
    page = pages()["variants/comparison.md"]
    header = next(line for line in page.splitlines() if line.startswith("| |"))
    for variant in book().variants:
        assert f"]({variant.id}.md)" in header
    match = next(line for line in page.splitlines() if line.startswith("| **Match**"))
    for variant in book().variants:
        target = variant.data["match"].get("target")
        if target is not None:
            assert str(target) in match


@pytest.mark.parametrize("style", [ChainStyle(), ChainStyle(doubles="crosswise"),
                                   ChainStyle(layout="offset_rows")])
def test_long_chains_are_cut_into_pieces_that_fit_a_phone(style: ChainStyle) -> None:
    tiles = [(i % 7, (i * 3) % 7) for i in range(25)]
    parts = pieces(tiles, style)
    assert [i for part in parts for i in part] == list(range(25))
    for part in parts:
        width = sum(30 if style.layout == "offset_rows"
                    or (style.doubles == "crosswise" and tiles[i][0] == tiles[i][1]) else 60
                    for i in part)
        assert width <= ROW_WIDTH
    assert len(parts) > 1


def test_trace_page_paths() -> None:
    assert trace_page("szczerbak/seed-example-chain") == "traces/szczerbak/seed-example-chain.md"


def test_a_lakes_fence_is_read_from_the_board() -> None:
    from dominokit.rulebook.published import fence_words

    # 6 x 12 board: cells 1.4-1.7 have rows 0 and 2 and columns 3 and 8 around them.
    assert fence_words([(1, 4), (1, 5), (1, 6), (1, 7)], 6, 12) == "tiles on every side"
    assert fence_words([(0, 4), (0, 5)], 6, 12) == "tiles and the board's top edge"
    assert fence_words([(0, 9), (0, 10), (0, 11)], 6, 12) == \
        "tiles and the board's top and right edges"


def test_opening_page_says_what_its_board_and_text_say() -> None:
    page = pages()["variants/pijanowski-opening.md"]
    move_nine = next(line for line in page.splitlines() if "(1.4, 1.5, 1.6, 1.7)" in line)
    assert "fenced in by tiles on every side" in move_nine
    assert "edge" not in move_nine
    assert "::" not in page
    # The seed: "[5|6] (22), [6|4] (20), ... [0|0] i [0|3] (6+16=22)", rendered as written.
    assert r"\[6\|4\] (20)" in page and r"\[4\|6\] (20)" not in page
    assert r"\[0\|0\] and \[0\|3\] (6+16=22)" in page


def test_published_english_refuses_a_quote_that_is_not_the_turns() -> None:
    from dominokit.rulebook.pijanowski_opening import PUBLISHED
    from dominokit.rulebook.published import published_english

    with pytest.raises(ValueError, match="does not match"):
        published_english("[5|6] (21)", PUBLISHED)


def test_ci_steps_are_read_from_the_ci_script() -> None:
    from dominokit.rulebook.cichecks import ci_steps

    script = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    steps = ci_steps(script)
    announced = [line for line in script.splitlines() if line.startswith('echo "== ')]
    assert len(steps) == len(announced) > 0
    assert all(command for _, command in steps)
    page = (REPO / "docs" / "contributing" / "code.md").read_text(encoding="utf-8")
    assert "<!-- dominokit:ci-checks -->" in page
    from dominokit.rulebook import fill_markers

    filled = fill_markers(book(), "contributing/code.md", page)
    for what, _ in steps:
        assert what.split(" (")[0] in filled.replace("\\", "")


def test_a_hard_tile_played_on_a_blank_end_is_pointed_out() -> None:
    # szczerbak/seed-example-chain, header: "P0 at 0 (R-SZC-05): any tile ... 2-4@R2 -> 4",
    # the fourth move; [2|4] has two even halves, so a blank end is the only end it fits.
    page = pages()["traces/szczerbak/seed-example-chain.md"]
    assert r"move 4 places \[2\|4\] on an end showing 0" in page
