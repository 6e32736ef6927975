"""The session's one quick benchmark run, shared by every test of ``tests/bench``.

``dominokit bench --quick`` is nearly all the time these tests take. Each module used to run
its own part of it; here it runs once, with every section some test looks at, and each
module picks its sections out of the one report (tests/bench/quickbench.py), so a new test
of a section adds no run. It runs once per run, not once per pytest-xdist worker: it starts in
the background as soon as a collected test needs it (tests/shared.py), and the files that need
it are run last, so it has long finished when they ask and no test waits for it.
"""

from __future__ import annotations

import pytest

from tests.bench.quickbench import COMMAND, QuickBench, read_quick
from tests.shared import once_started, start_once

NAME = "quick-bench"


def _needs_it(item: pytest.Item) -> bool:
    return "quick_bench" in getattr(item, "fixturenames", ())


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The files of the tests that read the quick run go last, each whole (``--dist loadfile``
    hands out files in this order), so the background run is done before they start."""
    last = {item.path for item in items if _needs_it(item)}
    items[:] = ([item for item in items if item.path not in last]
                + [item for item in items if item.path in last])


def pytest_collection_finish(session: pytest.Session) -> None:
    if any(_needs_it(item) for item in session.items):
        start_once(session.config._tmp_path_factory, NAME, COMMAND)  # type: ignore[attr-defined]


@pytest.fixture(scope="session")
def quick_bench(tmp_path_factory: pytest.TempPathFactory) -> QuickBench:
    return read_quick(once_started(tmp_path_factory, NAME, COMMAND))
