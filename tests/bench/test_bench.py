"""``dominokit bench``: it runs, and what it writes parses and has its sections and fields.

Timings live in the benchmark, never here: nothing below compares a speed with anything.
The checks are that the quick run works end to end, that its JSON and the rendered page
have the expected shape, that the hand-written block engine plays the reference's games
(it is timed against the reference, so it must play the same moves), and usage errors.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from dominokit.bench import playouts, published
from dominokit.bench.blockengine import BlockHand
from dominokit.conformance.cases import oracle
from dominokit.conformance.commands.cli import main
from dominokit.conformance.exit_status import ExitStatus
from dominokit.reference import variant_ids
from tests.bench.quickbench import SECTIONS, QuickBench

MINE = ("playouts", "pijanowski")
BLOCK = "classic_block"
"""The bundled game whose rules are the published engines' block game."""
"""The engine's sections (the kit's own sections have their own tests)."""


@pytest.fixture(scope="module")
def quick(quick_bench: QuickBench) -> QuickBench:
    """The session's one quick run (tests/bench/conftest.py)."""
    return quick_bench


def test_quick_run_writes_json_with_every_section(quick: QuickBench) -> None:
    status, report = quick.status, quick.report
    assert status == ExitStatus.OK
    assert report["format"] == 1 and report["quick"] is True
    assert set(report["machine"]) >= {"python", "implementation", "platform", "cpus"}
    assert [s["name"] for s in report["sections"]] == list(SECTIONS)
    for section in map(quick.section, MINE):
        assert set(section) == {"name", "order", "title", "seconds", "figures", "ratios", "notes"}
        assert section["figures"]
        for figure in section["figures"]:
            assert set(figure) == {"label", "unit", "median", "min", "max", "runs"}
            assert 0 < figure["min"] <= figure["median"] <= figure["max"]
            assert figure["runs"] >= 3
        for ratio in section["ratios"]:
            assert set(ratio) == {"label", "median", "min", "max", "runs", "target", "met"}
            assert ratio["min"] <= ratio["median"] <= ratio["max"]
            assert ratio["met"] == (ratio["median"] >= ratio["target"])


def test_playouts_cover_every_variant_and_the_block_contenders(quick: QuickBench) -> None:
    section = quick.section("playouts")
    labels = {f["label"] for f in section["figures"]}
    for variant in variant_ids():
        for options in oracle.option_sets(variant):
            for unit in ("actions/s", "hands/s"):
                assert f"reference {variant} {oracle.options_slug(options)}: {unit}" in labels
    ratios = {r["label"]: r["target"] for r in section["ratios"]}
    assert ratios[f"reference / hand-written (actions/s, {BLOCK})"] == 0.5
    for name, (module, _) in published.PUBLISHED.items():
        if published.installed(module):
            assert ratios[f"reference / {name} (actions/s, {BLOCK})"] == \
                playouts.TARGETS[name]
        else:
            assert any(note.startswith(f"{name} skipped: not installed")
                       for note in section["notes"])
    chains = [label for label in ratios if label.endswith("(reference actions/s)")]
    assert len(chains) == 3  # poldomino, progressive, szczerbak against classic_block


def test_pijanowski_section_has_both_boards(quick: QuickBench) -> None:
    labels = {f["label"] for f in quick.section("pijanowski")["figures"]}
    for size in ("6x12", "12x12"):
        assert f"pijanowski {size} mid-game: legal-action generation: positions/s" in labels
        assert f"pijanowski {size} mid-game: lake scoring: placements/s" in labels
    ratios = {r["label"]: r["target"] for r in quick.section("pijanowski")["ratios"]}
    assert ratios["pijanowski 12x12 mid-game: frontier kept / board rescanned "
                  "(legal-action generation)"] == 10.0


def test_page_gets_the_tables_between_its_markers(quick: QuickBench) -> None:
    page = quick.page
    assert page.startswith("# Performance\n\nhand-written\n\n") and page.endswith("\n\ntail\n")
    assert "stale results" not in page
    assert "| figure | median | min .. max | runs |" in page
    assert "### 1. random playouts" in page and "### 3. Pijanowski" in page


def test_the_block_game_is_found_by_its_mechanics() -> None:
    assert playouts.block_game() == BLOCK


def test_hand_written_engine_plays_the_reference_games() -> None:
    rules = oracle.rules_of(BLOCK)
    for seed in range(30):
        played = playouts.record(rules, seed)
        game = BlockHand([(t.low, t.high) for t in played.deal.hands[0]],
                         [(t.low, t.high) for t in played.deal.hands[1]], 0)
        for pick in played.picks:
            assert not game.over
            game.play(game.legal()[pick])
        assert game.over
        assert tuple(sum(a + b for a, b in hand) for hand in game.hands) == played.pips


def test_unknown_section_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--section", "nope"]) == ExitStatus.USAGE_ERROR
    err = capsys.readouterr().err
    assert "unknown section nope" in err and "playouts" in err


def test_page_without_markers_is_refused_before_measuring(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    page = tmp_path / "page.md"
    page.write_text("# no markers\n")
    assert main(["bench", "--write-page", str(page)]) == ExitStatus.USAGE_ERROR
    assert "has no" in capsys.readouterr().err
    assert page.read_text() == "# no markers\n"
