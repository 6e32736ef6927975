"""Hangs on ``legal`` (and on ``quit``) after starting a child that would outlive it.

The child's pid goes to stderr so the test can check that a timeout kills the whole process
group, not only the engine.
"""

from __future__ import annotations

import subprocess
import sys
import time

from _fake import serve


def hang(seq: int) -> None:
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
    print(f"child pid {child.pid}", file=sys.stderr, flush=True)
    time.sleep(3600)


if __name__ == "__main__":
    serve(on_legal=hang, on_quit=hang)
