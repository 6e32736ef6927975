"""Answers ``legal`` with 5,000 nested arrays inside a well-framed reply.

A reader that parses before it counts the nesting runs out of recursion on this line; the kit
must count first and call it a malformed reply naming the limit.
"""

from __future__ import annotations

import sys

from _fake import serve

DEPTH = 5000


def deep(seq: int) -> None:
    nested = "[" * DEPTH + "]" * DEPTH
    sys.stdout.write(f'{{"seq":{seq},"result":{{"actions":{nested}}}}}\n')
    sys.stdout.flush()


if __name__ == "__main__":
    serve(on_legal=deep)
