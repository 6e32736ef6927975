"""``dominokit bench``'s section 6 (the kit with a near-free engine): the recorded-table
engine answers what was recorded and nothing else, and the section's output has its shape.

No timing is compared with anything here (the section measures, the tests look at names,
signs and the engine's answers).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from dominokit.bench import kitspeed, tableengine
from dominokit.conformance.exit_status import ExitStatus
from tests.bench.quickbench import QuickBench


@pytest.fixture(scope="module")
def section(quick_bench: QuickBench) -> dict[str, Any]:
    """Section 6 of the session's one quick run (tests/bench/conftest.py)."""
    assert quick_bench.status == ExitStatus.OK
    return quick_bench.section("kit")


def test_the_section_times_the_kit_three_ways(section: dict[str, Any]) -> None:
    assert (section["name"], section["order"]) == ("kit", 6)
    labels = {f["label"] for f in section["figures"]}
    for way in (kitspeed.REFERENCE, kitspeed.TABLE):
        assert {f"{way}: {kitspeed.RATE}", f"{way}: {kitspeed.PER_REQUEST}"} <= labels
    assert kitspeed.FLOOR_LABEL in labels
    assert all(f["median"] > 0 for f in section["figures"])
    assert kitspeed.OVER_FLOOR in {r["label"] for r in section["ratios"]}


def test_the_profile_books_the_kit_by_area(section: dict[str, Any]) -> None:
    profile = [n.removeprefix(kitspeed.PROFILE_NOTE) for n in section["notes"]
               if n.startswith(kitspeed.PROFILE_NOTE)]
    areas = {line.split(":")[0] for line in profile}
    assert {"hypothesis (drawing the hands)", "the driver (conformance/kit)"} <= areas


def _serve(argv: list[str], lines: list[bytes]) -> list[bytes]:
    done = subprocess.run([sys.executable, str(Path(tableengine.__file__)), *argv],
                          input=b"".join(lines), capture_output=True, timeout=60, check=True)
    return done.stdout.splitlines(keepends=True)


def test_the_table_engine_answers_only_what_was_recorded(tmp_path: Path) -> None:
    table = tmp_path / "table.txt"
    asked = b'{"seq":1,"cmd":"legal"}\n'
    answer = b'{"result":{"actions":["0-0"]},"seq":1}\n'
    table.write_bytes(asked + answer)
    other = b'{"seq":2,"cmd":"legal"}\n'
    quit_line = b'{"seq":3,"cmd":"quit"}\n'
    assert _serve([str(table)], [asked, other, quit_line, asked]) == [answer,
                                                                      tableengine.MISSING]
    assert b'"error"' in tableengine.MISSING


def test_the_echo_answers_every_line_with_its_one_line() -> None:
    assert _serve(["--echo"], [b"anything\n", b"{}\n"]) == [tableengine.ECHO_REPLY] * 2
