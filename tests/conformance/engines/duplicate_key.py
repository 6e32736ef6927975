"""Answers ``legal`` with a reply naming ``result`` twice: two readers could see two answers."""

from __future__ import annotations

import sys

from _fake import serve


def duplicate(seq: int) -> None:
    sys.stdout.write(f'{{"seq":{seq},"result":{{"actions":[]}},"result":{{"actions":["draw"]}}}}\n')
    sys.stdout.flush()


if __name__ == "__main__":
    serve(on_legal=duplicate)
