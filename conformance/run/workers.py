"""Run a suite's cases in worker processes (``dominokit conform -j N``), one engine each.

Each worker is a forked copy of the runner holding the collected cases; it opens its own
engine, says ``hello`` and then runs the cases it is sent, one at a time, with ``run_case``
exactly as a serial run does (its own ``Context``: restarts, memo). The parent hands the
next case to whichever worker is free, keeping each kind and variant with one worker where it
can (``Schedule``), and records the outcomes back in the suite's order, so the report is the
serial run's, case for case: a limit (``--maxfail``,
engine failures in a row) that a serial run would have hit turns the later outcomes into
``not_run`` with the same reason, even when a worker had already run them.

Workers are forked (not spawned) so the cases need no pickling and no second collection;
the parent forks them before it starts any thread or engine of its own.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import signal
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from pathlib import Path
from types import FrameType
from typing import Any, Literal

from dominokit.conformance.kit.driver import Engine, Hello
from dominokit.conformance.run import settings
from dominokit.conformance.run.report import Progress
from dominokit.conformance.run.runner import Case, Context, Outcome, run_case

STOP_GRACE = 5.0
"""Seconds a worker gets to close its engine and exit once it is told to stop."""

Starter = Callable[[Context], "Engine | None"]
"""Opens and greets an engine for a worker; sets ``ctx.hello`` or ``ctx.dead``."""


@dataclass(frozen=True)
class Progressed:
    """How far the case ``index`` a worker runs has got (``Context.progress``), ``seconds``
    after it began; ``checkpoint`` as there."""

    index: int
    progress: Progress
    checkpoint: bool
    seconds: float


PROGRESS_EVERY = 0.5
"""Least seconds between two progress messages a worker sends (checkpoints always go)."""


@dataclass(frozen=True)
class Finished:
    """One case a worker ran: its position in the suite, the outcome and how long it took."""

    index: int
    outcome: Outcome
    seconds: float


def available() -> bool:
    """Whether workers can be forked here (POSIX); elsewhere ``-j`` is refused."""
    return "fork" in multiprocessing.get_all_start_methods()


def worker_count(requested: int | Literal["auto"], cases: int) -> int:
    """How many workers a run of ``cases`` cases uses for ``--workers requested``.

    ``auto`` (the command's default) is one worker per usable CPU, never more than there are
    cases, and 1 where workers cannot be forked: a default that always works. A number is
    taken as given (more workers than cases start no idle engines: ``run_suite`` caps them).
    """
    if requested != settings.AUTO:
        return requested
    if not available():
        return 1
    return max(1, min(settings.usable_cpus(), cases))


def _stop(signum: int, frame: FrameType | None) -> None:
    """A worker told to stop (``Pool.close``) unwinds as on Ctrl-C, closing its engine; a
    second signal must not cut that short."""
    signal.signal(signum, signal.SIG_IGN)
    raise KeyboardInterrupt(signal.Signals(signum).name)


def _serve(conn: Connection, cases: Sequence[Case], start: Starter, report_dir: Path) -> None:
    """A worker's life: open the engine, report the hello, run cases until told to stop."""
    ctx = Context(report_dir)
    engine: Engine | None = None
    signal.signal(signal.SIGTERM, _stop)
    try:
        engine = start(ctx)
        conn.send(("hello", ctx.hello, ctx.dead))
        while True:
            try:
                index = conn.recv()
            except EOFError:
                return
            if index is None:
                return
            began = time.monotonic()
            if engine is None or ctx.dead is not None:
                outcome = Outcome.not_run(ctx.dead or "the engine could not be used")
            else:
                ctx.on_progress = _Sender(conn, index, began)
                outcome = run_case(cases[index], engine, ctx)
                ctx.on_progress = None
            conn.send(Finished(index, outcome, time.monotonic() - began))
    except (KeyboardInterrupt, BrokenPipeError, EOFError):
        pass  # the parent is stopping the run (an interrupt reaches the whole group)
    finally:
        if engine is not None:
            with contextlib.suppress(Exception):
                engine.close()
        conn.close()


class Schedule:
    """Which case an idle worker runs next: the cases of one kind and variant stay together.

    The cases of one kind and variant share what the kind computes once per process (the
    hands every invariant case checks, the positions the rejection cases try), so a worker
    keeps to the group it started, in the suite's order, and takes the first group no worker
    has started once its own is done; with none left, it helps the group with the most cases
    still to run. Outcomes do not depend on the worker (each case is run as in a serial run),
    and the parent records them in the suite's order whatever order they finish in.
    """

    def __init__(self, case_ids: Sequence[str]) -> None:
        self._groups: dict[str, deque[int]] = {}
        for index, case_id in enumerate(case_ids):
            self._groups.setdefault(group_of(case_id), deque()).append(index)
        self._unstarted = deque(self._groups)
        self._current: dict[object, str] = {}

    def next_for(self, worker: object) -> int | None:
        """The index of the next case for ``worker``; None when every case has been given."""
        group = self._current.get(worker)
        if group is None or not self._groups[group]:
            if self._unstarted:
                group = self._unstarted.popleft()
            else:
                group = max(self._groups, key=lambda g: len(self._groups[g]))
                if not self._groups[group]:
                    return None
            self._current[worker] = group
        return self._groups[group].popleft()

    def __bool__(self) -> bool:
        """Whether any case is still to be given."""
        return any(self._groups.values())


def group_of(case_id: str) -> str:
    """The group of a case id: its kind and variant (``invariants/poldomino``)."""
    return "/".join(case_id.split("/", 2)[:2])


class _Sender:
    """A worker's ``Context.on_progress``: sends the running case's progress to the parent,
    at most every ``PROGRESS_EVERY`` seconds but every checkpoint."""

    def __init__(self, conn: Connection, index: int, began: float) -> None:
        self.conn, self.index, self.began = conn, index, began
        self.sent = began - PROGRESS_EVERY

    def __call__(self, progress: Progress, checkpoint: bool) -> None:
        now = time.monotonic()
        if checkpoint or now - self.sent >= PROGRESS_EVERY:
            self.sent = now
            self.conn.send(Progressed(self.index, progress, checkpoint, now - self.began))


class Pool:
    """The worker processes of one run and the cases each is running; ``on_progress`` gets
    what a worker says of its running case's progress."""

    on_progress: Callable[[Progressed], None] | None = None

    def __init__(self, cases: Sequence[Case], start: Starter, report_dir: Path,
                 workers: int) -> None:
        context = multiprocessing.get_context("fork")
        self._cases = cases
        self._conns: list[Connection] = []
        self._procs: list[Any] = []
        self._busy: dict[Connection, int] = {}
        for _ in range(workers):
            mine, theirs = context.Pipe()
            proc = context.Process(target=_serve, args=(theirs, cases, start, report_dir),
                                   daemon=True, name="dominokit-worker")
            proc.start()
            theirs.close()
            self._conns.append(mine)
            self._procs.append(proc)

    def hello(self) -> tuple[Hello | None, str | None]:
        """The first worker's hello (or why its engine did not start); the others' are read
        too, so each worker is ready before cases are sent."""
        first: tuple[Hello | None, str | None] | None = None
        for conn in list(self._conns):
            try:
                _, hello, dead = conn.recv()
            except (EOFError, OSError):
                self._drop(conn)
                hello, dead = None, "a worker process died before its engine started"
            if first is None:
                first = (hello, dead)
        return first if first is not None else (None, "no worker process started")

    def idle(self) -> list[Connection]:
        """The workers waiting for a case."""
        return [conn for conn in self._conns if conn not in self._busy]

    def send(self, conn: Connection, index: int) -> None:
        """Give case ``index`` to the idle worker ``conn``."""
        self._busy[conn] = index
        with contextlib.suppress(OSError):  # a dead worker: ``results`` reports its case
            conn.send(index)

    def running(self) -> bool:
        """Whether any worker has a case in hand."""
        return bool(self._busy)

    def results(self) -> Iterator[Finished]:
        """Wait for at least one busy worker to finish; yield what finished. A worker that
        died yields its case as a kit error and is not used again."""
        for ready in wait(list(self._busy)):
            assert isinstance(ready, Connection)
            index = self._busy[ready]
            try:
                finished = ready.recv()
            except (EOFError, OSError):
                self._drop(ready)
                yield Finished(index, Outcome(
                    "errored", "error in the conformance kit: the worker process running "
                    "this case died", rules=self._cases[index].rules, failure_kind="kit"), 0.0)
                continue
            if isinstance(finished, Progressed):
                if self.on_progress is not None:
                    self.on_progress(finished)
                continue
            self._busy.pop(ready)
            assert isinstance(finished, Finished)
            yield finished

    def alive(self) -> bool:
        """Whether any worker is left."""
        return bool(self._conns)

    def _drop(self, conn: Connection) -> None:
        self._conns.remove(conn)
        self._busy.pop(conn, None)
        conn.close()

    def close(self, *, now: bool = False) -> None:
        """Tell every worker to stop and wait for them to close their engines. A worker still
        in a case after STOP_GRACE seconds (at once when ``now``: the run was interrupted) is
        sent SIGTERM, on which it closes its engine and every process the engine started;
        one that still runs after another STOP_GRACE is killed. Never raises."""
        for conn in self._conns:
            with contextlib.suppress(OSError):
                conn.send(None)
        deadline = time.monotonic() + (0.0 if now else STOP_GRACE)
        for proc in self._procs:
            proc.join(max(0.0, deadline - time.monotonic()))
        for proc in self._procs:
            if proc.is_alive():
                with contextlib.suppress(OSError):
                    proc.terminate()
        deadline = time.monotonic() + STOP_GRACE
        for proc in self._procs:
            proc.join(max(0.0, deadline - time.monotonic()))
            if proc.is_alive():
                proc.kill()
                proc.join(1.0)
        for conn in self._conns:
            conn.close()
        self._conns.clear()
