"""Who runs the cases: one worker in this process, or one worker process per CPU.

A worker is one engine and its ``Context`` (restarts, memo) running the cases it is handed,
one at a time, with ``run_case``. The serial run is one such worker in this process
(``SerialPool``); ``dominokit conform -j N`` forks N of them (``ForkedPool``), each with its
own engine. Both pools offer the runner the same few calls (``hello``, ``idle``, ``send``,
``results``, ``close``), so the runner has one loop for both, and the report of a parallel
run is the serial run's, case for case.

The forked pool hands the next case to whichever worker is free, keeping each kind and variant
with one worker where it can (``Schedule``). Workers are forked (not spawned) so the cases need
no pickling and no second collection; the parent forks them before it starts any thread or
engine of its own.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from pathlib import Path
from types import FrameType
from typing import Any, Literal, Protocol

from dominokit.conformance.cases.campaign import Part, run_chunk
from dominokit.conformance.cases.model import Case, Context, Outcome, Progress, run_case
from dominokit.conformance.kit import containment
from dominokit.conformance.kit.driver import Engine, Hello
from dominokit.conformance.run import settings

STOP_GRACE = 5.0
"""Seconds a worker gets to close its engine and exit once it is told to stop."""

Starter = Callable[[Context], "Engine | None"]
"""Opens and greets an engine for a worker; sets ``ctx.hello`` or ``ctx.dead``."""


@dataclass(frozen=True)
class Progressed:
    """How far the case ``index`` a worker runs has got (``Context.progress``), ``seconds``
    after it began; ``checkpoint`` as there. ``chunk``: the chunk of a campaign the worker
    plays (its progress is the chunk's own: ``run.gather`` makes it the case's)."""

    index: int
    progress: Progress
    checkpoint: bool
    seconds: float
    chunk: int | None = None


PROGRESS_EVERY = 0.5
"""Least seconds between two progress messages a worker sends (checkpoints always go)."""


@dataclass(frozen=True)
class Finished:
    """One case a worker ran: its position in the suite, the outcome and how long it took.
    ``dead`` says why the worker's engine could not be used (then the case did not run).
    A worker given one chunk of a campaign (``chunk``) gives what it found in ``part`` (None:
    the chunk did not run, ``outcome`` says why), which ``run.gather`` folds."""

    index: int
    outcome: Outcome
    seconds: float
    dead: str | None = None
    chunk: int | None = None
    part: Part | None = None


class Worker:
    """One engine and its context, running cases one at a time: the body of every worker."""

    def __init__(self, cases: Sequence[Case], start: Starter, report_dir: Path) -> None:
        self.cases = cases
        self.start = start
        self.ctx = Context(report_dir)
        self.engine: Engine | None = None

    def begin(self) -> tuple[Hello | None, str | None]:
        """Open and greet the engine: its hello, and why it cannot be used (None: it can)."""
        self.engine = self.start(self.ctx)
        return self.ctx.hello, self.ctx.dead

    def run(self, index: int,
            on_progress: Callable[[Progress, bool], None] | None = None,
            chunk: int | None = None) -> Finished:
        """Run case ``index`` (only its chunk ``chunk``, when given); ``on_progress`` hears
        how far a long case has got."""
        began = time.monotonic()
        if self.engine is None or self.ctx.dead is not None:
            dead = self.ctx.dead or "the engine could not be used"
            return Finished(index, Outcome.not_run(dead), 0.0, dead, chunk)
        self.ctx.on_progress = on_progress
        try:
            if chunk is not None:
                part = run_chunk(self.cases[index], self.engine, self.ctx, chunk)
                return Finished(index, part.ended or Outcome.passed(),
                                time.monotonic() - began, chunk=chunk, part=part)
            outcome = run_case(self.cases[index], self.engine, self.ctx)
        finally:
            self.ctx.on_progress = None
        return Finished(index, outcome, time.monotonic() - began)

    def close(self) -> None:
        """Close the engine this worker opened; never raises."""
        if self.engine is not None:
            with contextlib.suppress(Exception):
                self.engine.close()
            self.engine = None


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
    """A forked worker's life: open the engine, report the hello, run cases until told to
    stop."""
    signal.signal(signal.SIGTERM, _stop)
    # A kit killed outright (SIGKILL) sends its workers SIGTERM, on which each closes its
    # engine; a worker whose parent died before this could be set stops at once.
    parent = multiprocessing.parent_process()
    if containment.arm_parent_death(signal.SIGTERM) and parent is not None \
            and os.getppid() != parent.pid:
        return
    worker = Worker(cases, start, report_dir)
    try:
        conn.send(("hello", *worker.begin()))
        while True:
            try:
                unit = conn.recv()
            except EOFError:
                return
            if unit is None:
                return
            index, chunk = unit
            conn.send(worker.run(index, _Sender(conn, index, time.monotonic(), chunk), chunk))
    except (KeyboardInterrupt, BrokenPipeError, EOFError):
        pass  # the parent is stopping the run (an interrupt reaches the whole group)
    finally:
        worker.close()
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

    def __init__(self, conn: Connection, index: int, began: float,
                 chunk: int | None = None) -> None:
        self.conn, self.index, self.began, self.chunk = conn, index, began, chunk
        self.sent = began - PROGRESS_EVERY

    def __call__(self, progress: Progress, checkpoint: bool) -> None:
        now = time.monotonic()
        if checkpoint or now - self.sent >= PROGRESS_EVERY:
            self.sent = now
            self.conn.send(Progressed(self.index, progress, checkpoint, now - self.began,
                                      self.chunk))


class ForkedPool:
    """The worker processes of one run and the cases each is running; ``on_progress`` gets
    what a worker says of its running case's progress."""

    on_progress: Callable[[Progressed], None] | None = None

    def __init__(self, cases: Sequence[Case], start: Starter, report_dir: Path,
                 workers: int) -> None:
        context = multiprocessing.get_context("fork")
        self._cases = cases
        self._conns: list[Connection] = []
        self._procs: list[Any] = []
        self._busy: dict[Connection, tuple[int, int | None]] = {}
        self._schedule = Schedule([case.id for case in cases])
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

    def next_index(self, conn: Connection) -> int | None:
        """The case the idle worker ``conn`` runs next (``Schedule``); None when all are given."""
        return self._schedule.next_for(conn)

    def send(self, conn: Connection, index: int, chunk: int | None = None) -> None:
        """Give case ``index`` (its chunk ``chunk`` only, when given) to the idle worker
        ``conn``."""
        self._busy[conn] = (index, chunk)
        with contextlib.suppress(OSError):  # a dead worker: ``results`` reports its case
            conn.send((index, chunk))

    def running(self) -> bool:
        """Whether any worker has a case in hand."""
        return bool(self._busy)

    def results(self) -> Iterator[Finished]:
        """Wait for at least one busy worker to finish; yield what finished. A worker that
        died yields its case as a kit error and is not used again."""
        for ready in wait(list(self._busy)):
            assert isinstance(ready, Connection)
            index, chunk = self._busy[ready]
            try:
                finished = ready.recv()
            except (EOFError, OSError):
                self._drop(ready)
                yield Finished(index, Outcome(
                    "errored", "error in the conformance kit: the worker process running "
                    "this case died", rules=self._cases[index].rules, failure_kind="kit"), 0.0,
                    chunk=chunk)
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


class SerialPool:
    """The serial run: one ``Worker`` in this process, given the cases in the suite's order.

    ``results`` runs the case in hand before it returns, so an interrupt (``CaseInterrupted``
    with the partial outcome) reaches the runner from the running case itself. An engine given
    open by the caller (``owned`` False) is left open by ``close``.
    """

    on_progress: Callable[[Progressed], None] | None = None

    def __init__(self, cases: Sequence[Case], start: Starter, report_dir: Path, *,
                 owned: bool = True) -> None:
        self._worker = Worker(cases, start, report_dir)
        self._owned = owned
        self._next = 0
        self._count = len(cases)
        self._in_hand: int | None = None

    def hello(self) -> tuple[Hello | None, str | None]:
        """The engine's hello, and why it cannot be used (None: it can)."""
        return self._worker.begin()

    def idle(self) -> list[SerialPool]:
        """This one worker, when it has no case in hand."""
        return [self] if self._in_hand is None else []

    def next_index(self, worker: object) -> int | None:
        """The next case in the suite's order; None when all are given."""
        if self._next >= self._count:
            return None
        self._next += 1
        return self._next - 1

    def send(self, worker: object, index: int) -> None:
        """Take case ``index`` in hand (it runs in ``results``)."""
        self._in_hand = index

    def running(self) -> bool:
        """Whether a case is in hand."""
        return self._in_hand is not None

    def results(self) -> Iterator[Finished]:
        """Run the case in hand and yield its outcome."""
        index = self._in_hand
        if index is None:
            return
        began = time.monotonic()

        def progressed(progress: Progress, checkpoint: bool) -> None:
            if self.on_progress is not None:
                self.on_progress(Progressed(index, progress, checkpoint,
                                            time.monotonic() - began))

        try:
            finished = self._worker.run(index, progressed)
        finally:
            self._in_hand = None
        yield finished

    def alive(self) -> bool:
        """The one worker never dies apart from this process."""
        return True

    def close(self, *, now: bool = False) -> None:
        """Close the engine, unless the caller gave it open."""
        if self._owned:
            self._worker.close()


class Pool(Protocol):
    """What the runner's one loop uses of a pool, serial or forked. A worker is whatever
    ``idle`` hands out, given back to ``next_index`` and ``send``."""

    on_progress: Callable[[Progressed], None] | None

    def hello(self) -> tuple[Hello | None, str | None]: ...
    def idle(self) -> Sequence[Any]: ...
    def next_index(self, worker: Any) -> int | None: ...
    def send(self, worker: Any, index: int) -> None: ...
    def running(self) -> bool: ...
    def results(self) -> Iterator[Finished]: ...
    def alive(self) -> bool: ...
    def close(self, *, now: bool = False) -> None: ...

