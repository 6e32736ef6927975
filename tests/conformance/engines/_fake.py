"""A minimal protocol-v1 engine (stdlib only) that misbehaves on cue, for the driver tests.

It answers ``hello`` and ``quit`` correctly and hands ``legal`` (the request the tests use
to provoke misbehaviour) to the script that imports it, so each script differs from a good
engine in exactly one way, and a restarted engine answers ``hello`` again.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

HELLO = {
    "name": "fake",
    "version": "0",
    "protocol": 1,
    "variants": {"poldomino": {"options": {}}},
}


def reply(message: dict[str, Any]) -> None:
    """Write one reply line and flush it (an unflushed reply never reaches the kit)."""
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def serve(
    on_legal: Callable[[int], None],
    on_quit: Callable[[int], None] | None = None,
    on_hello: Callable[[int], None] | None = None,
) -> None:
    """Answer requests until quit or end of input, calling the hooks for their commands."""
    for line in sys.stdin:
        request = json.loads(line)
        seq, cmd = request["seq"], request["cmd"]
        if cmd == "hello":
            if on_hello is not None:
                on_hello(seq)
            # No capability to declare, so the session may be of any version the kit asks for.
            reply({"seq": seq, "result": {**HELLO, "protocol": request["protocol"]}})
        elif cmd == "legal":
            on_legal(seq)
        elif cmd == "quit":
            if on_quit is not None:
                on_quit(seq)
            reply({"seq": seq, "result": {}})
            return
        else:
            reply({"seq": seq, "error": {"code": "unsupported", "message": cmd}})
