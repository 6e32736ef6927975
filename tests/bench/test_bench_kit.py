"""``dominokit bench``'s kit sections (protocol, conform): they run and their output parses.

No timing is compared with anything here: the figures exist, are positive, and name what
the kit's targets name (every verb and Pijanowski's opening; 1 and 2 workers, the kit's share).
"""

from __future__ import annotations

from typing import Any

import pytest

from dominokit.bench import protocol
from dominokit.conformance.exit_status import ExitStatus
from dominokit.conformance.wire.protocol import COMMANDS
from tests.bench.quickbench import QuickBench

SECTIONS = ("protocol", "conform")


@pytest.fixture(scope="module")
def report(quick_bench: QuickBench) -> dict[str, Any]:
    """The session's one quick run (tests/bench/conftest.py), which has both sections."""
    assert quick_bench.status == ExitStatus.OK
    assert set(SECTIONS) <= {s["name"] for s in quick_bench.report["sections"]}
    return quick_bench.report


def _section(report: dict[str, Any], name: str) -> dict[str, Any]:
    found: dict[str, Any] = next(s for s in report["sections"] if s["name"] == name)
    return found


def test_the_protocol_section_times_every_verb_four_ways(report: dict[str, Any]) -> None:
    section = _section(report, "protocol")
    assert section["order"] == 2
    labels = {figure["label"] for figure in section["figures"]}
    verbs = [cmd for cmd in COMMANDS if cmd != "quit"] + [protocol.PIJANOWSKI_OPENING]
    for verb in verbs:
        for way in ("kit → engine", "kit → echo", "floor", protocol.SESSION_FLOOR):
            assert f"{verb}: {way}" in labels
    assert all(figure["median"] > 0 for figure in section["figures"])
    assert {r["label"] for r in section["ratios"]} == {
        f"{verb}: {what}" for verb in verbs
        for what in ("kit → echo over floor", "kit → engine over kit → echo",
                     f"kit → echo over {protocol.SESSION_FLOOR}")}


def test_the_opening_has_the_counted_legal_set() -> None:
    assert len(protocol.published_opening()["hands"][0]) == 12
    requests = protocol.script()
    replies = protocol.record(requests, 30.0)
    sizes = [len(reply["result"]["actions"])
             for (label, _, _), reply in zip(requests, replies, strict=True)
             if label == protocol.PIJANOWSKI_OPENING]
    # 10 non-doubles x 252 + 2 doubles x 126 (tests/conformance/test_traces.py)
    assert sizes == [2772]


def test_the_conform_section_has_workers_memory_and_the_kit_share(
        report: dict[str, Any]) -> None:
    section = _section(report, "conform")
    assert section["order"] == 4
    labels = {figure["label"] for figure in section["figures"]}
    for workers in (1, 2):
        assert {f"conform -j {workers}: wall time", f"conform -j {workers}: CPU time",
                f"conform -j {workers}: peak memory (largest process)"} <= labels
    assert "in-process conform: kit's share of wall time" in labels
    share = next(f for f in section["figures"]
                 if f["label"] == "in-process conform: kit's share of wall time")
    assert 0 < share["min"] <= share["max"] <= 100
    targets = {r["label"]: r["target"] for r in section["ratios"]}
    assert targets["conform -j 2 speed-up over -j 1"] == 1.7
    assert targets["in-process conform: engine's share of wall time"] == pytest.approx(0.7)
