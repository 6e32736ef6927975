"""Exits with status 4 on ``legal`` after starting a child in a session of its own that keeps
the engine's stdout open, so the kit never sees end of file on it.

The kit must still call this a crash with the exit status (not a timeout), and kill the child,
which a process-group kill cannot reach. The child's pid goes to stderr for the test.
"""

from __future__ import annotations

import subprocess
import sys

from _fake import serve


def exit_leaving_child(seq: int) -> None:
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"],
                             start_new_session=True)
    print(f"child pid {child.pid}", file=sys.stderr, flush=True)
    sys.exit(4)


if __name__ == "__main__":
    serve(on_legal=exit_leaving_child)
