"""Answers ``legal`` with a line that is not JSON."""

from __future__ import annotations

import sys

from _fake import serve


def garbage(seq: int) -> None:
    sys.stdout.write("I am not JSON at all\n")
    sys.stdout.flush()


if __name__ == "__main__":
    serve(on_legal=garbage)
