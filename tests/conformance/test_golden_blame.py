"""A golden trace's mismatch is the engine's failure, named by rule, never a kit error.

Large legal sets are stored in a trace as a count and a digest (``legal_count``); a mismatch
there once crashed the kit's rule naming, so the case reported a kit error instead of the
engine's wrong board.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any, ClassVar

import pytest

from dominokit.conformance.cases import collect_cases
from dominokit.conformance.kit.inprocess import InProcessEngine
from dominokit.conformance.run.runner import run_suite
from tests.conformance.broken.engines import Mutant


class PijanowskiBoardTransposed(Mutant):
    """The board is 12 rows high and 6 columns wide instead of 6 by 12."""

    variant, rule = "pijanowski", "R-PIJ-01"
    only: ClassVar[tuple[str, ...]] = ("golden/pijanowski/published-opening",)

    @classmethod
    def mutate(cls, data: dict[str, Any]) -> None:
        table = data["components"]["table"]
        table["rows"], table["cols"] = table["cols"], table["rows"]


@pytest.mark.rule("R-PIJ-01")
def test_a_legal_count_mismatch_fails_naming_the_board_rule(tmp_path: Path) -> None:
    cases = collect_cases("pijanowski", only="golden/pijanowski/published-opening")
    assert len(cases) == 1
    engine = InProcessEngine(PijanowskiBoardTransposed(), PijanowskiBoardTransposed)
    report = run_suite(engine, cases=cases, report_dir=tmp_path, out=io.StringIO())
    outcome = report.records[0].outcome
    assert outcome.status == "failed", outcome.message
    assert "legal" in outcome.message
    # the 12-high board lists placements in rows 6..11, which the real board lacks: the table
    # rule is what the engine broke
    assert "R-PIJ-01" in outcome.rules
