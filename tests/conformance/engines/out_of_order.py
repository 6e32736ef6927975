"""Sends a stale reply (the previous request's seq) before its answer to ``legal``."""

from __future__ import annotations

from _fake import reply, serve


def out_of_order(seq: int) -> None:
    reply({"seq": seq - 1, "result": {"actions": ["pass"]}})
    reply({"seq": seq, "result": {"actions": ["draw"]}})


if __name__ == "__main__":
    serve(on_legal=out_of_order)
