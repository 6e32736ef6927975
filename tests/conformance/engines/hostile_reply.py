"""An engine scripted by a JSON file, for the hostile-input tests: ``hostile_reply.py CONFIG``.

Each key of CONFIG changes one thing about an otherwise minimal engine (stdlib only):

- ``stderr``: text written to stderr at start (control characters included);
- ``hello``: the raw reply line to ``hello`` (``{seq}`` and ``{protocol}`` are filled in;
  default: a well-formed hello of one variant, poldomino, at the version asked);
- ``replies``: the raw reply line per command (``*`` for any other command); a command with no
  line makes the engine exit with status 1 (a crash, so the kit shows the stderr tail);
- ``hang``: a command (``hello`` included) on which the engine stops answering, after writing
  its pid and its helpers' pids to ``pid_file`` (one line, ended by a newline, written last);
- ``helpers``: how many ``sleep`` helpers to start just before hanging.

Lines are written as given, byte for byte (``surrogateescape``), so a test can send any bytes.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from typing import Any

HELLO = ('{"seq":{seq},"result":{"name":"hostile","version":"0","protocol":{protocol},'
         '"variants":{"poldomino":{"options":{}}}}}')


def write(line: str) -> None:
    """One raw line on stdout, flushed."""
    sys.stdout.buffer.write(line.encode("utf-8", "surrogateescape") + b"\n")
    sys.stdout.buffer.flush()


def hang(config: dict[str, Any]) -> None:
    """Start the helpers, say who is here, and never answer again."""
    helpers = [subprocess.Popen(["sleep", "300"]) for _ in range(config.get("helpers", 0))]
    pid_file = config.get("pid_file")
    if pid_file:
        with open(pid_file + ".part", "w", encoding="utf-8") as out:
            out.write(" ".join(str(p) for p in [os.getpid(), *(h.pid for h in helpers)]) + "\n")
        os.replace(pid_file + ".part", pid_file)
    time.sleep(3600)


def main(path: str) -> None:
    with open(path, encoding="utf-8") as stream:
        config: dict[str, Any] = json.load(stream)
    if "stderr" in config:
        sys.stderr.write(config["stderr"])
        sys.stderr.flush()
    replies: dict[str, str] = config.get("replies", {})
    for line in sys.stdin:
        request = json.loads(line)
        seq, cmd = request.get("seq"), request.get("cmd")
        if cmd == config.get("hang"):
            hang(config)
        if cmd == "quit":
            write(json.dumps({"seq": seq, "result": {}}))
            return
        if cmd == "hello":
            template = config.get("hello", HELLO)
            write(template.replace("{seq}", str(seq))
                  .replace("{protocol}", str(request.get("protocol"))))
            continue
        template = replies.get(cmd, replies.get("*"))
        if template is None:
            sys.exit(1)
        write(template.replace("{seq}", str(seq)))


if __name__ == "__main__":
    main(sys.argv[1])
