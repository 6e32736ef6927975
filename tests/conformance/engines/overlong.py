"""Answers ``legal`` with one line just over the kit's 64 MiB reply limit (a runaway engine)."""

from __future__ import annotations

import sys

from _fake import serve

LIMIT = 64 * 1024 * 1024


def overlong(seq: int) -> None:
    head = f'{{"seq":{seq},"result":{{"actions":["'.encode()
    tail = b'"]}}\n'
    filler = b"x" * (LIMIT + 1 - len(head) - len(tail) + 1)
    sys.stdout.buffer.write(head + filler + tail)
    sys.stdout.flush()


if __name__ == "__main__":
    serve(on_legal=overlong)
