"""classic_block, the game added as YAML alone: no code names it, and its traces hold up.

The game exists to prove that a game made of existing mechanics needs no Python, so the first
test fails if any module of the engine or the kit names it (the adapters for published engines
under ``conformance/serve/peers/`` aside: naming the game they play is their job). The others check
every bundled classic_block trace against the published rules with code that shares nothing
with the reference: each legal set with the independent move generator of the perft check, and
each result, total and starter with the scoring rules written out below.
"""

from __future__ import annotations

import re
from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.reference.test_perft_independent import game_for, legal, play, start, tile

REPO = Path(__file__).resolve().parents[2]
VARIANT = "classic_block"
NAMES = re.compile(r"classic[_-]block", re.IGNORECASE)
EXEMPT = (Path("conformance", "serve", "peers"),)
TARGET = 100  # R-CLB-09


def test_no_engine_or_kit_module_names_the_game() -> None:
    hits = []
    for folder in ("reference", "conformance"):
        for path in sorted((REPO / folder).rglob("*.py")):
            relative = path.relative_to(REPO)
            if any(relative.is_relative_to(exempt) for exempt in EXEMPT):
                continue
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if NAMES.search(line):
                    hits.append(f"{relative}:{number}: {line.strip()}")
    assert not hits, "a Python module names the game:\n" + "\n".join(hits)


def test_the_grep_would_see_a_mention(tmp_path: Path) -> None:
    assert NAMES.search('RULES = {"classic-block": 1}')
    assert NAMES.search("if variant == 'Classic_Block':")
    assert not NAMES.search("a classic blocked hand")


def _traces() -> list[dict[str, Any]]:
    folder = files("dominokit.conformance") / "traces" / VARIANT
    return [yaml.safe_load(entry.read_text(encoding="utf-8"))
            for entry in sorted(folder.iterdir(), key=str) if entry.name.endswith(".yaml")]


TRACES = _traces()


def test_the_game_has_a_hand_a_match_and_a_blocked_hand_under_each_payout() -> None:
    kinds = {t["kind"] for t in TRACES}
    assert kinds == {"hand", "match"}
    hands = [(t["options"], h["result"]) for t in TRACES for h in _hands(t)]
    for payout in ("loser_pips", "both_totals"):
        assert any(result["reason"] == "block"
                   and options.get("blocked_payout", "loser_pips") == payout
                   for options, result in hands), payout
    assert any(result["reason"] == "domino" for _, result in hands)


def _hands(trace: dict[str, Any]) -> list[dict[str, Any]]:
    if trace["kind"] == "hand":
        return [trace]
    hands: list[dict[str, Any]] = trace["hands"]
    return hands


def _pips(tiles: tuple[tuple[int, int], ...]) -> int:
    return sum(a + b for a, b in tiles)


def expected_result(hands: tuple[Any, Any], payout: str) -> dict[str, Any]:
    """The result by R-CLB-05..08: a domino pays the loser's pips; a block is won by the
    lower total (nobody on a tie) and pays the loser's pips, or both hands' pips."""
    pips = [_pips(hands[0]), _pips(hands[1])]
    if not hands[0] or not hands[1]:
        reason, winner = "domino", 0 if not hands[0] else 1
    else:
        reason = "block"
        winner = None if pips[0] == pips[1] else (0 if pips[0] < pips[1] else 1)
    points = [0, 0]
    if winner is not None:
        points[winner] = pips[1 - winner]
        if reason == "block" and payout == "both_totals":
            points[winner] += pips[winner]
    return {"winner": winner, "reason": reason, "points": points, "pips": pips}


@pytest.mark.rule("R-CLB-01", "R-CLB-02", "R-CLB-03", "R-CLB-04", "R-CLB-05", "R-CLB-06",
                  "R-CLB-07", "R-CLB-08")
@pytest.mark.parametrize("trace", TRACES, ids=[t["id"] for t in TRACES])
def test_every_step_and_result_follows_the_rules(trace: dict[str, Any]) -> None:
    payout = trace["options"].get("blocked_payout", "loser_pips")
    game = game_for(VARIANT, trace["options"])
    for number, hand in enumerate(_hands(trace)):
        deal = dict(hand["deal"])
        assert len(deal["hands"][0]) == len(deal["hands"][1]) == 7  # R-CLB-01
        assert len(deal["out_of_play"]) == 14 and deal["stock"] == []
        if deal["starter"] is None:  # a match hand: the match names the starter
            deal["starter"] = hand["plan"]["starter"]
        pos = start(game, deal)
        for index, step in enumerate(hand["steps"]):
            where = f"{trace['id']} hand {number} step {index}"
            assert step["player"] == pos.to_move, where
            assert "legal" in step, where
            assert step["legal"] == legal(game, pos), where
            assert step["action"] in step["legal"], where
            pos = play(game, pos, step["action"])
        assert pos.over, f"{trace['id']} hand {number} does not end"
        got = {k: hand["result"][k] for k in ("winner", "reason", "points", "pips")}
        assert got == expected_result(pos.hands, payout), f"{trace['id']} hand {number}"


@pytest.mark.rule("R-CLB-09", "R-ALL-04")
@pytest.mark.parametrize("trace", [t for t in TRACES if t["kind"] == "match"],
                         ids=[t["id"] for t in TRACES if t["kind"] == "match"])
def test_match_totals_starters_and_end(trace: dict[str, Any]) -> None:
    totals = [0, 0]
    starter = trace["first_starter"]
    for number, hand in enumerate(trace["hands"]):
        assert max(totals) < TARGET, f"hand {number} is played after the match was won"
        assert hand["plan"]["starter"] == starter, f"hand {number}: starters alternate"
        starter = 1 - starter
        totals = [totals[p] + hand["result"]["points"][p] for p in (0, 1)]
        if "match" in hand:  # the match state after this hand
            assert hand["match"]["totals"] == totals, f"hand {number}"
    assert max(totals) >= TARGET
    match = trace["match"]
    assert match["totals"] == totals
    assert match["winner"] == (0 if totals[0] > totals[1] else 1)
    assert match["finished"] is True and match["hands_played"] == len(trace["hands"])


def test_expected_result_by_hand() -> None:
    # The blocked hand of blocked-loser-pips.yaml: P0 keeps 0-0 0-1 1-1 (3), P1 3-3 (6).
    hands = ((tile("0-0"), tile("0-1"), tile("1-1")), (tile("3-3"),))
    assert expected_result(hands, "loser_pips")["points"] == [6, 0]
    assert expected_result(hands, "both_totals")["points"] == [9, 0]
    # A tie scores nothing (R-CLB-06); a domino pays the same under either payout.
    tie = ((tile("1-2"),), (tile("0-3"),))
    assert expected_result(tie, "both_totals") == {
        "winner": None, "reason": "block", "points": [0, 0], "pips": [3, 3]}
    out = ((), (tile("4-4"),))
    assert expected_result(out, "both_totals")["points"] == [8, 0]


def test_the_site_lists_every_game_from_the_spec() -> None:
    from dominokit.rulebook import Book, fill_markers, games_nav

    book = Book.load()
    ids = [v.id for v in book.variants]
    assert VARIANT in ids
    nav_pages = [next(iter(e.values())) if isinstance(e, dict) else e for e in games_nav(book)]
    assert [f"variants/{v}.md" for v in ids] == [
        p for p in nav_pages if p.removesuffix(".md").removeprefix("variants/") in ids]
    home = fill_markers(book, "index.md", (REPO / "docs" / "index.md").read_text("utf-8"))
    prefixes = fill_markers(book, "contributing/rule-ids.md",
                            (REPO / "docs" / "contributing" / "rule-ids.md").read_text("utf-8"))
    for variant_id in ids:
        assert f"](variants/{variant_id}.md)" in home, variant_id
        assert f"](../variants/{variant_id}.md)" in prefixes, variant_id
    assert "| `R-CLB` |" in prefixes
    for page in ("index.md", "contributing/variants.md", "contributing/rule-ids.md"):
        assert "four games" not in (REPO / "docs" / page).read_text("utf-8"), page
    assert "four games" not in (REPO / "mkdocs.yml").read_text("utf-8")


def test_a_game_without_seed_traces_gets_a_worked_example() -> None:
    from dominokit.rulebook import Book

    examples = Book.load().examples_of(VARIANT)
    assert [t.id for t in examples] == [f"{VARIANT}/blocked-both-totals"]


SPEC_FILE = REPO / "spec" / "variants" / f"{VARIANT}.yaml"
PUBLISHED = """    title: Block Dominoes Game Rules
    publisher: onlinedominogames.com
    url: https://onlinedominogames.com/block-dominoes
"""


def _planted(tmp_path: Path, old: str, new: str) -> list[str]:
    from dominokit.spec.spec import check_variant_file

    text = SPEC_FILE.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / f"{VARIANT}.yaml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return [f"{p.line}: {p.path}: {p.message}" for p in check_variant_file(path)]


def test_a_published_source_and_a_seed_file_are_both_valid_sources(tmp_path: Path) -> None:
    assert _planted(tmp_path, "    url: https://onlinedominogames.com/block-dominoes\n",
                    "    url: https://onlinedominogames.com/block-dominoes\n"
                    "    quote: Block Dominoes Game Rules\n") == []
    seed = _planted(tmp_path, "  source:\n" + PUBLISHED, "  source: szczerbak.pl.txt\n")
    assert seed == []


@pytest.mark.parametrize(("old", "new", "where"), [
    ("  source:\n" + PUBLISHED, "  source: classic.txt\n", "$.metadata.source"),
    ("    url: https://onlinedominogames.com/block-dominoes\n", "", "$.metadata.source"),
    ("    publisher: onlinedominogames.com\n", "", "$.metadata.source"),
    ("      url: https://learnplaywin.net/dominoes-rules-block/\n", "",
     "$.rules[0].source"),
    ("      url: https://learnplaywin.net/dominoes-rules-block/\n",
     "      url: https://learnplaywin.net/dominoes-rules-block/\n"
     "      file: szczerbak.pl.txt\n", "$.rules[0].source"),
    ("      url: https://learnplaywin.net/dominoes-rules-block/\n",
     "      url: not a url\n", "$.rules[0].source.url"),
])
def test_a_bad_source_is_reported_where_it_is(tmp_path: Path, old: str, new: str,
                                              where: str) -> None:
    problems = _planted(tmp_path, old, new)
    assert problems and all(where in p for p in problems), problems
