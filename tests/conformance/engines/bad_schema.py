"""Answers ``legal`` with a well-framed reply whose second action is a number."""

from __future__ import annotations

from _fake import reply, serve


def bad_schema(seq: int) -> None:
    reply({"seq": seq, "result": {"actions": ["draw", 7]}})


if __name__ == "__main__":
    serve(on_legal=bad_schema)
