"""A ``python:`` engine whose ``hello()`` never returns, for the parent-death test.

Its factory builds an object that, asked ``hello``, writes the pid of the worker hosting it to
a file in ``$HOSTILE_PID_DIR`` (written whole, then renamed, so a reader never sees half) and
sleeps: it never reads its stdin again, so it never sees the end of it either.
"""

from __future__ import annotations

import os
import time
from pathlib import Path


class HungHello:
    def hello(self) -> dict[str, object]:
        folder = Path(os.environ["HOSTILE_PID_DIR"])
        part = folder / f"{os.getpid()}.part"
        part.write_text(str(os.getpid()))
        part.rename(folder / f"{os.getpid()}.pid")
        time.sleep(3600)
        raise AssertionError("unreachable")


def hung() -> HungHello:
    return HungHello()
