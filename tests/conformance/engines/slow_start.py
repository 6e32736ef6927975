"""Takes ``slow_start.py SECONDS`` to start (sleeping before it reads anything), then answers
``hello`` and hangs on ``legal``: a slow start that is not a hang, followed by a hang."""

from __future__ import annotations

import sys
import time

from _fake import serve


def hang(seq: int) -> None:
    time.sleep(3600)


if __name__ == "__main__":
    time.sleep(float(sys.argv[1]))
    serve(on_legal=hang, on_quit=hang)
