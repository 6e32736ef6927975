"""``dominokit bench --section perft``: it runs and its output parses (no timing is compared
with anything here; bench/perft.py measures, the tests only look at the shape)."""

from __future__ import annotations

from typing import Any

import pytest

from dominokit.bench import perft
from dominokit.conformance.exit_status import ExitStatus
from tests.bench.quickbench import QuickBench


@pytest.fixture(scope="module")
def section(quick_bench: QuickBench) -> dict[str, Any]:
    """The perft section of the session's one quick run (tests/bench/conftest.py)."""
    assert quick_bench.status == ExitStatus.OK
    return quick_bench.section("perft")


def test_every_count_is_timed_three_ways(section: dict[str, Any]) -> None:
    assert (section["name"], section["order"]) == ("perft", 2)
    labels = {f["label"] for f in section["figures"]}
    assert len(section["figures"]) == 3 * len(perft.counts())
    for count in perft.counts():
        assert {f"{count.variant} {count.position} perft({count.quick_depth}): {way}"
                for way in perft.WAYS} <= labels
    assert {count.variant for count in perft.counts()} >= {
        "classic_block", "poldomino", "szczerbak", "progressive", "pijanowski"}
    for figure in section["figures"]:
        assert figure["unit"] == "nodes/s" and 0 < figure["min"] <= figure["max"]


def test_the_undo_ratio_carries_its_target_of_a_third(section: dict[str, Any]) -> None:
    targets = {r["label"]: r["target"] for r in section["ratios"]}
    assert len(targets) == 3 * len(perft.counts())
    undo = [label for label in targets if label.endswith("protocol with undo / in-process")]
    assert len(undo) == len(perft.counts())
    assert all(targets[label] == pytest.approx(1 / 3) for label in undo)


def test_the_in_process_walk_counts_the_stored_counts() -> None:
    from dominokit.conformance.cases import perft as perft_cases

    for count in perft.counts():
        entry = next(p for p in perft_cases.positions(count.variant)
                     if p["name"] == count.position)
        stored = {c["depth"]: c["count"] for c in entry["perft"]}
        assert count.depth in stored and count.quick_depth in stored
        got = perft.in_process(count.variant, dict(entry.get("options") or {}), entry["deal"],
                               list(entry.get("actions") or []), count.quick_depth)
        assert got == stored[count.quick_depth]
