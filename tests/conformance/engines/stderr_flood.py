"""Writes 1 MiB to stderr before every reply, then dies on ``legal`` after last words.

An engine this chatty blocks on a full stderr pipe unless the driver drains it all the time;
the test also checks that only a bounded tail is kept.
"""

from __future__ import annotations

import sys

from _fake import serve

MEBIBYTE = 1024 * 1024


def flood(seq: int) -> None:
    sys.stderr.write("x" * MEBIBYTE + "\n")
    sys.stderr.flush()


def flood_and_die(seq: int) -> None:
    flood(seq)
    print("last words", file=sys.stderr, flush=True)
    sys.exit(5)


if __name__ == "__main__":
    serve(on_legal=flood_and_die, on_hello=flood)
