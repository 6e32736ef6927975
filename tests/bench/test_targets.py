"""``dominokit bench``'s target table: every target is listed with its figure, a target not
met states its gap and what bounds it, and a figure this run lacks is named as missing.

The verdicts below are read from made-up reports (no timing is taken or compared); the quick
run's table is checked only for its shape.
"""

from __future__ import annotations

from typing import Any

import pytest

from dominokit.bench import kitspeed, targets
from dominokit.conformance.exit_status import ExitStatus
from tests.bench.quickbench import QuickBench


def test_a_gap_reads_as_how_far_short() -> None:
    row = targets.at_least("reference >= 0.5x", 0.11, 0.5, "0.11x", "a profile")
    assert (row.met, row.gap, row.bound) == (False, "0.11x, needs 0.5x: 4.55x short",
                                             "a profile")
    assert targets.at_least("t", 0.6, 0.5, "0.6x", "unused") == targets.Target("t", "0.6x",
                                                                              True)
    over = targets.at_most("t", 14.4, 10.0, "14.4 s", "b", unit=" s")
    assert (over.met, over.gap) == (False, "14.4 s, needs at most 10 s: 1.44x over")


def _report(sections: list[dict[str, Any]]) -> dict[str, Any]:
    return {"machine": {"cpus": 2}, "sections": sections}


def _section(name: str, figures: dict[str, float] | None = None,
             ratios: dict[str, float] | None = None,
             notes: list[str] | None = None) -> dict[str, Any]:
    return {"name": name, "notes": notes or [],
            "figures": [{"label": k, "median": v} for k, v in (figures or {}).items()],
            "ratios": [{"label": k, "median": v} for k, v in (ratios or {}).items()]}


def _rows(report: dict[str, Any], quick: bool = False) -> dict[str, targets.Target]:
    found = targets.targets(report, quick, lambda: "engine profile", lambda: "board profile")
    return {row.target: row for row in found}


def test_every_target_is_listed_even_when_nothing_ran() -> None:
    rows = _rows(_report([]))
    assert len(rows) == 10
    assert all(row.met is None for row in rows.values())
    speed_up = next(row for name, row in rows.items() if "-j 2" in name)
    assert speed_up.figure == "not measured in this section"
    readme = next(row for name, row in rows.items() if "README" in name)
    assert readme.figure == "measured outside the bench: see docs/performance.md"


def test_the_kit_rows_read_section_six_and_quote_its_profile() -> None:
    kit = _section("kit", {f"{kitspeed.TABLE}: {kitspeed.RATE}": targets.TODAY_KIT * 2},
                   {kitspeed.OVER_FLOOR: 3.0},
                   [kitspeed.PROFILE_NOTE + "hypothesis (drawing the hands): 45% (4.28 s)"])
    rows = _rows(_report([kit]))
    rate = next(row for name, row in rows.items() if "hands per kit CPU second" in name)
    assert rate.met is False and rate.gap == "2x, needs 5x: 2.5x short"
    assert "hypothesis (drawing the hands): 45%" in rate.bound
    floor = next(row for name, row in rows.items() if "echo floor" in name)
    assert floor.met is False and floor.gap.startswith("3x, needs at most 2x")
    quick = _rows(_report([kit]), quick=True)
    assert all(quick[name].met is None for name in (rate.target, floor.target))


def test_a_baseline_in_the_same_run_replaces_the_stored_figure() -> None:
    kit = _section("kit", {f"{kitspeed.TABLE}: {kitspeed.RATE}": 1.0},
                   {kitspeed.OVER_FLOOR: 1.5, kitspeed.OVER_BASELINE: 6.0})
    rows = _rows(_report([kit]))
    rate = next(row for name, row in rows.items() if "hands per kit CPU second" in name)
    assert rate.met is True and "against the baseline in this run" in rate.figure


def test_the_campaign_speed_up_is_read_when_its_section_has_it() -> None:
    campaign = _section("campaign", ratios={"campaign -j 2 speed-up over -j 1": 1.5})
    rows = _rows(_report([campaign]))
    row = next(row for name, row in rows.items() if "-j 2" in name)
    assert (row.figure, row.met, row.gap) == ("1.5x", False, "1.5x, needs 1.8x: 1.2x short")


def test_engine_targets_not_met_quote_the_reference_profile() -> None:
    plays = _section("playouts", ratios={
        "reference / hand-written (actions/s, classic_block)": 0.11,
        "poldomino default / classic_block (reference actions/s)": 1.2})
    board = _section("pijanowski", {
        "pijanowski 12x12 mid-game: legal-action generation: positions/s":
            targets.TODAY_PIJANOWSKI * 3.5})
    rows = _rows(_report([plays, board]))
    hand = next(row for name, row in rows.items() if "hand-written" in name)
    assert hand.met is False and hand.bound == "engine profile"
    assert next(row for name, row in rows.items() if "chain games" in name).met is True
    assert next(row for name, row in rows.items() if "Pijanowski" in name).met is True


@pytest.fixture(scope="module")
def quick(quick_bench: QuickBench) -> QuickBench:
    assert quick_bench.status == ExitStatus.OK
    return quick_bench


def test_the_quick_run_ends_with_the_table(quick: QuickBench) -> None:
    rows = quick.report["targets"]
    assert len(rows) == 10
    for row in rows:
        assert set(row) == {"target", "figure", "met", "gap", "bound"}
        if row["met"] is False:
            assert row["gap"] and row["bound"]
    assert "### Targets" in quick.page and "| target | figure | met |" in quick.page
