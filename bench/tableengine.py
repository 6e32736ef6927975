"""Benchmark engines that cost nothing: a recorded table, and the echo floor.

``python tableengine.py TABLE`` answers each request line with the reply line the reference
gave to that very line when the campaign was recorded (``kitrun.py record``): a dictionary
look-up and a write, so a campaign against it measures the kit alone. A line that is not in
the table gets an error reply the kit will not accept, so a campaign that asks anything else
fails instead of passing on made-up answers.

``python tableengine.py --echo`` is the floor: it answers every line with one fixed line of
the reply's shape, so a client timing it measures only the pipe round trip.

Imports nothing of dominokit (and nothing slow): its own cost is the floor's.
"""

from __future__ import annotations

import os
import sys

ECHO_REPLY = b'{"result":{},"seq":1}\n'
MISSING = b'{"error":{"code":"internal","message":"not in the recorded table"},"seq":0}\n'


def load(path: str) -> dict[bytes, bytes]:
    """Request line -> reply line, from a file of request and reply lines in turn."""
    with open(path, "rb") as stream:
        lines = stream.read().splitlines(keepends=True)
    return dict(zip(lines[0::2], lines[1::2], strict=True))


def serve(table: dict[bytes, bytes] | None) -> int:
    """Answer lines from stdin until it closes (the table's ``quit`` reply included)."""
    read = sys.stdin.buffer.readline
    write = os.write
    while line := read():
        if table is not None and b'"cmd":"quit"' in line:
            return 0  # the kit's last line: nothing to answer that it checks
        reply = ECHO_REPLY if table is None else table.get(line, MISSING)
        while reply:
            reply = reply[write(1, reply):]
    return 0


if __name__ == "__main__":
    sys.exit(serve(None if sys.argv[1:] == ["--echo"] else load(sys.argv[1])))
