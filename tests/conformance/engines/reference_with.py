"""The reference engine served over the protocol, with helper processes and one hostile twist.

    reference_with.py PIDFILE TWIST

Before serving, every instance starts two helpers the kit must clean up: a plain child (in the
engine's process group, holding the engine's stdout open) and a grandchild in a session of its
own whose parent has already exited (an orphan at once, out of reach of a process-group kill).
Each instance appends its own pid and its helpers' to PIDFILE, as "pid starttime" lines, before
it answers anything. TWIST acts once per run, in the first instance, just before its third
reply, so a run shows the failure and then a restarted engine that behaves:

    none     behave
    exit     exit with status 7
    sigkill  SIGKILL itself
    sigterm  SIGTERM itself
    killall  SIGKILL its plain child, then itself
    deep     answer with 5,000 nested arrays
    hang     stop answering
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

SLEEPER = [sys.executable, "-c", "import time; time.sleep(300)"]
MIDDLE = (
    "import os, subprocess, sys\n"
    f"child = subprocess.Popen({SLEEPER!r})\n"
    "os.write(int(sys.argv[1]), str(child.pid).encode())\n"
)
ACT_AT = 3


def start_time(pid: int) -> str:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[19]


def spawn_helpers() -> tuple[subprocess.Popen[bytes], list[int]]:
    plain = subprocess.Popen(SLEEPER)
    read_end, write_end = os.pipe()
    middle = subprocess.Popen([sys.executable, "-c", MIDDLE, str(write_end)],
                              pass_fds=(write_end,), start_new_session=True)
    os.close(write_end)
    with os.fdopen(read_end) as pipe:
        orphan = int(pipe.read())
    middle.wait()
    return plain, [os.getpid(), plain.pid, orphan]


class Twisted:
    """Stands in for stdout: passes replies on, and acts out the twist before the third."""

    def __init__(self, twist: str, acts: bool, plain: subprocess.Popen[bytes]) -> None:
        self.twist = twist if acts else "none"
        self.plain = plain
        self.replies = 0

    def write(self, text: str) -> int:
        self.replies += 1
        if self.replies == ACT_AT:
            text = self.act(text)
        sys.stdout.write(text)
        return len(text)

    def flush(self) -> None:
        sys.stdout.flush()

    def act(self, text: str) -> str:
        if self.twist == "exit":
            os._exit(7)
        if self.twist in ("sigkill", "killall"):
            if self.twist == "killall":
                os.kill(self.plain.pid, signal.SIGKILL)
            os.kill(os.getpid(), signal.SIGKILL)
        if self.twist == "sigterm":
            os.kill(os.getpid(), signal.SIGTERM)
        if self.twist == "hang":
            threading.Event().wait()
        if self.twist == "deep":
            seq = text.split(",", 1)[0].split(":", 1)[1]
            return f'{{"seq":{seq},"result":{{"actions":{"[" * 5000}{"]" * 5000}}}}}\n'
        return text


def main() -> None:
    pidfile, twist = Path(sys.argv[1]), sys.argv[2]
    plain, pids = spawn_helpers()
    with pidfile.open("a") as out:
        out.writelines(f"{pid} {start_time(pid)}\n" for pid in pids)
    try:
        os.close(os.open(f"{pidfile}.acted", os.O_CREAT | os.O_EXCL))
        acts = True
    except FileExistsError:
        acts = False
    from dominokit.conformance.serve.server import run_engine_server

    run_engine_server(stdout=Twisted(twist, acts, plain))  # type: ignore[arg-type]


if __name__ == "__main__":
    main()
