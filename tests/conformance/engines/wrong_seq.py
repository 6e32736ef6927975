"""Answers ``legal`` correctly but with a seq the kit never sent."""

from __future__ import annotations

from _fake import reply, serve


def wrong_seq(seq: int) -> None:
    reply({"seq": seq + 7, "result": {"actions": ["draw"]}})


if __name__ == "__main__":
    serve(on_legal=wrong_seq)
