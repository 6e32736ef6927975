"""Claims it could not read ``legal``: an error reply with seq null to a valid request."""

from __future__ import annotations

from _fake import reply, serve


def unreadable(seq: int) -> None:
    reply({"seq": None, "error": {"code": "bad_request", "message": "cannot parse request"}})


if __name__ == "__main__":
    serve(on_legal=unreadable)
