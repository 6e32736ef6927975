"""An engine that writes its replies but never flushes stdout: they sit in its buffer.

The kit waits for a reply that never comes; it must say that the reply may be stuck in the
engine's stdout buffer, since the engine did answer, only not where the kit can read it.
"""

from __future__ import annotations

import json
import sys

out = open(1, "w", buffering=1 << 16, encoding="utf-8", closefd=False)  # noqa: SIM115
for line in sys.stdin:
    request = json.loads(line)
    out.write(json.dumps({"seq": request["seq"], "result": {}}) + "\n")  # never flushed
