"""The reference engine behind a filter that answers a request naming no command (no ``cmd``,
or one that is not a string) with ``bad_request``, as an engine author guessed, instead of the
contract's ``unsupported``. Every other line goes to the reference unchanged."""

from __future__ import annotations

import json
import subprocess
import sys

reference = subprocess.Popen([sys.executable, "-m", "dominokit.conformance", "engine"],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
assert reference.stdin is not None and reference.stdout is not None
for line in sys.stdin:
    try:
        request = json.loads(line)
    except ValueError:
        request = None
    if isinstance(request, dict) and isinstance(request.get("seq"), int) \
            and not isinstance(request.get("cmd"), str):
        reply = {"seq": request["seq"],
                 "error": {"code": "bad_request", "message": "no command"}}
        print(json.dumps(reply), flush=True)
        continue
    reference.stdin.write(line)
    reference.stdin.flush()
    print(reference.stdout.readline(), end="", flush=True)
reference.stdin.close()
reference.wait()
