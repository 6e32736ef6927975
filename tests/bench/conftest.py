"""The session's one quick benchmark run, shared by every test of ``tests/bench``.

``dominokit bench --quick`` is nearly all the time these tests take. Each module used to run
its own part of it; here it runs once, with every section some test looks at, and each
module picks its sections out of the one report (tests/bench/quickbench.py), so a new test
of a section adds no run.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bench.quickbench import QuickBench, run_quick

HERE = Path(__file__).resolve().parent


@pytest.fixture(scope="session")
def quick_bench(tmp_path_factory: pytest.TempPathFactory) -> QuickBench:
    return run_quick(tmp_path_factory.mktemp("bench"))
