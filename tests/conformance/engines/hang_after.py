"""The reference engine, except that it hangs from its Nth request on (``hang_after.py N``).

Like an engine with a resource leak: every fresh process answers N - 1 requests and then stops
answering for good, so each restart buys only a few more requests. It answers ``hello`` itself
(every variant, default options) and loads the reference only for a later request, so a
fresh process answers in milliseconds even under load and a short ``--timeout`` stays fair.
With a second argument it appends its pid and its child's to that file once it hangs (the
child started just before), so a test can wait for the hang on a real event and then check
that the kit left no process of it behind.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import time
from typing import Any

VARIANTS = ("pijanowski", "poldomino", "progressive", "szczerbak")


def answer(engine: Any, line: str) -> Any:
    """Reply to one request line; returns the engine (made on first need)."""
    request = json.loads(line)
    if request.get("cmd") == "hello":
        hello = {"name": "hang-after", "version": "0", "protocol": request["protocol"],
                 "variants": {v: {"options": {}} for v in VARIANTS}}
        sys.stdout.write(json.dumps({"seq": request["seq"], "result": hello}) + "\n")
        sys.stdout.flush()
        return engine
    from dominokit.conformance.serve.refengine import ReferenceEngine
    from dominokit.conformance.serve.server import run_engine_server

    engine = engine or ReferenceEngine()
    run_engine_server(engine, io.StringIO(line), sys.stdout)
    return engine


def main(hang_from: int, pid_file: str | None) -> None:
    engine = None
    for number, line in enumerate(sys.stdin, start=1):
        if number >= hang_from:
            break
        engine = answer(engine, line)
    else:
        return
    if pid_file is not None:
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
        with open(pid_file, "a", encoding="utf-8") as pids:
            pids.write(f"{os.getpid()} {child.pid}\n")
    time.sleep(3600)


if __name__ == "__main__":
    main(int(sys.argv[1]), sys.argv[2] if len(sys.argv) > 2 else None)
