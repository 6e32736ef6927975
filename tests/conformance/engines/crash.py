"""Dies with status 3 on ``legal``, after saying why on stderr."""

from __future__ import annotations

import sys

from _fake import serve


def crash(seq: int) -> None:
    print("boom: simulated crash", file=sys.stderr, flush=True)
    sys.exit(3)


if __name__ == "__main__":
    serve(on_legal=crash)
