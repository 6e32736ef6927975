"""Contain an engine's processes: whatever an engine starts dies with it.

An engine may start helpers, and a helper may leave the engine's process group (``setsid``) or
be orphaned when its parent exits; a kill of the process group alone leaves those running. On
Linux three marks find every one of them:

- the kit makes itself a *child subreaper* (``prctl(PR_SET_CHILD_SUBREAPER)``, once), so an
  orphan below the kit is re-parented to the kit rather than to init and stays in its tree;
- each engine is started with ``DOMINOKIT_ENGINE_ID`` in its environment, which its
  descendants inherit, so an orphan is told apart from the helpers of another engine;
- the engine's process group and session, and the parent links of ``/proc/*/stat``.

A kill first freezes every process found (``SIGSTOP``: a stopped process cannot fork), searches
again until no new one appears, then sends ``SIGKILL`` to all and reaps those re-parented to
the kit, so none is left even as a zombie. Without ``/proc`` (macOS) the process group is
killed, which is the best the platform offers without privileges.
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import itertools
import os
import secrets
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Final

__all__ = ["ENGINE_ID_VARIABLE", "become_subreaper", "kill_all", "kill_tree", "new_engine_id",
           "register", "unregister"]

ENGINE_ID_VARIABLE: Final = "DOMINOKIT_ENGINE_ID"
"""Set in each engine's environment to a value naming that engine; left to its descendants."""

PROC: Final = Path("/proc")
FREEZE_ROUNDS: Final = 20
"""Searches for new members before the kill; each round's processes are already stopped, so
only a process forked between two searches can add a round."""
REAP_WITHIN: Final = 5.0
"""Seconds a kill waits for its processes to be gone; SIGKILL takes effect in microseconds
unless a process is stuck in the kernel, and then waiting longer would not help."""

_PR_SET_CHILD_SUBREAPER: Final = 36
_counter = itertools.count(1)
_live: dict[str, subprocess.Popen[bytes]] = {}
_live_lock = threading.Lock()


@cache
def become_subreaper() -> bool:
    """Make this process a child subreaper (Linux), once; True when it is one.

    Orphans below it are then re-parented to it, so they stay findable and the kit can reap
    them. Elsewhere, or when the call is refused, False: only process groups are reached then.
    """
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return bool(libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False


def new_engine_id() -> str:
    """A value for ``ENGINE_ID_VARIABLE`` unique to one engine process of this kit."""
    return f"{os.getpid()}-{next(_counter)}-{secrets.token_hex(4)}"


def register(engine_id: str, popen: subprocess.Popen[bytes]) -> None:
    """Remember a started engine, so that ``kill_all`` reaches it and no kill of another
    engine's tree ever takes it for a stray."""
    with _live_lock:
        _live[engine_id] = popen


def unregister(engine_id: str) -> None:
    """Forget an engine whose tree was killed."""
    with _live_lock:
        _live.pop(engine_id, None)


def kill_all() -> None:
    """Kill the tree of every engine this process started and has not yet killed.

    Run at exit, so an engine outlives the kit only if the kit itself is SIGKILLed; also for
    a command's own clean-up after a signal. Do not call it inside a signal handler (it waits
    on processes): raise from the handler, and clean up where the exception is caught.
    """
    with _live_lock:
        engines = list(_live.items())
    for engine_id, popen in engines:
        kill_tree(popen, engine_id)
        with contextlib.suppress(subprocess.TimeoutExpired):
            popen.wait(timeout=REAP_WITHIN)
        unregister(engine_id)


atexit.register(kill_all)


@dataclass(frozen=True)
class _Stat:
    """The fields of ``/proc/PID/stat`` a kill needs."""

    pid: int
    state: str
    ppid: int
    pgid: int
    sid: int
    start: str

    @classmethod
    def read(cls, pid: int) -> _Stat | None:
        try:
            text = (PROC / str(pid) / "stat").read_text()
        except OSError:
            return None
        fields = text.rsplit(")", 1)[1].split()
        return cls(pid, fields[0], int(fields[1]), int(fields[2]), int(fields[3]), fields[19])


def _table() -> dict[int, _Stat]:
    table = {}
    for entry in PROC.iterdir():
        if entry.name.isdigit() and (stat := _Stat.read(int(entry.name))) is not None:
            table[stat.pid] = stat
    return table


def _engine_id(pid: int) -> str | None:
    prefix = ENGINE_ID_VARIABLE.encode() + b"="
    try:
        environ = (PROC / str(pid) / "environ").read_bytes()
    except OSError:
        return None
    for item in environ.split(b"\0"):
        if item.startswith(prefix):
            return item[len(prefix):].decode("ascii", "replace")
    return None


def _subtree(table: dict[int, _Stat], roots: set[int]) -> set[int]:
    children: dict[int, list[int]] = {}
    for stat in table.values():
        children.setdefault(stat.ppid, []).append(stat.pid)
    found, todo = set(), list(roots)
    while todo:
        pid = todo.pop()
        if pid not in found:
            found.add(pid)
            todo.extend(children.get(pid, ()))
    return found


def _ancestors(table: dict[int, _Stat], pid: int) -> Iterator[int]:
    while pid in table and pid > 1:
        yield pid
        pid = table[pid].ppid


def _members(table: dict[int, _Stat], root: int, reaped: bool, engine_id: str) -> set[int]:
    """Every process of one engine's tree: the engine, its group and session, what carries its
    id (looked for below the kit, where a subreaper keeps orphans, else everywhere), and all
    their descendants. Never the kit, its ancestors, or another live engine.

    Once the engine is ``reaped`` its pid may be reused, unless a process of its group or
    session holds it; a process now running under that pid is then someone else's.
    """
    me = os.getpid()
    with _live_lock:
        others = {p.pid for other, p in _live.items() if other != engine_id}
    scope = _subtree(table, {me}) if become_subreaper() else set(table)
    marked = {pid for pid in scope - {me} if _engine_id(pid) == engine_id}
    grouped = {s.pid for s in table.values() if root in (s.pgid, s.sid)}
    if reaped and root in table:
        grouped = set()
    roots = ({root} & set(table) if not reaped else set()) | grouped | marked
    excluded = set(_ancestors(table, me)) | others
    return _subtree(table, roots - excluded) - excluded - _subtree(table, others)


def _signal(stat: _Stat, signum: int) -> None:
    now = _Stat.read(stat.pid)
    if now is not None and now.start == stat.start:  # not a new process that reused the pid
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(stat.pid, signum)


def kill_tree(popen: subprocess.Popen[bytes], engine_id: str) -> None:
    """SIGKILL the engine ``popen`` runs and every process of its tree; idempotent, and never
    raises. The engine itself is left for ``popen.wait()`` to reap; any other process of the
    tree re-parented to this one is reaped here."""
    if not PROC.is_dir():
        if popen.returncode is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(popen.pid, signal.SIGKILL)
        return
    found: dict[int, _Stat] = {}
    for _ in range(FREEZE_ROUNDS):
        table = _table()
        members = _members(table, popen.pid, popen.returncode is not None, engine_id)
        new = [table[pid] for pid in members if pid not in found]
        if not new:
            break
        for stat in new:
            if stat.state not in "ZX":  # a zombie is only reaped
                _signal(stat, signal.SIGSTOP)
            found[stat.pid] = stat
    for stat in found.values():
        if stat.state not in "ZX":
            _signal(stat, signal.SIGKILL)
    _reap(found, popen.pid)


def _reap(found: dict[int, _Stat], root: int) -> None:
    """Wait until every killed process is dead, reaping those that are this process's children
    (re-parented orphans). A zombie whose parent is still dying waits to be re-parented here;
    the engine itself (``root``) is only waited for, as its ``Popen`` reaps it."""
    me = os.getpid()
    deadline = time.monotonic() + REAP_WITHIN
    pending = dict(found)
    while pending and time.monotonic() < deadline:
        for pid, then in list(pending.items()):
            now = _Stat.read(pid)
            if now is None or now.start != then.start:
                del pending[pid]
            elif now.state not in "ZX":
                continue
            elif pid == root:
                del pending[pid]  # dead; its Popen reaps it
            elif now.ppid == me:
                with contextlib.suppress(ChildProcessError):
                    os.waitpid(pid, os.WNOHANG)
            elif now.ppid not in pending:
                del pending[pid]  # dead, and its parent is outside the tree
        if pending:
            time.sleep(0.002)
