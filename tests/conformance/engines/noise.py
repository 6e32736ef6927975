"""Prints a log line on stdout before an otherwise correct reply to ``legal``."""

from __future__ import annotations

import sys

from _fake import reply, serve


def noisy(seq: int) -> None:
    sys.stdout.write("thinking about my move...\n")
    reply({"seq": seq, "result": {"actions": ["draw"]}})


if __name__ == "__main__":
    serve(on_legal=noisy)
