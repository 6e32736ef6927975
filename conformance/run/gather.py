"""One campaign across several workers: its chunks handed out, their results gathered.

A differential case with more random hands than one chunk is a campaign of seeded chunks
(``cases.campaign``), each of which any worker can play. ``Gathered`` wraps the forked pool
so that the runner still sees whole cases: the first chunk of a campaign goes to a worker as
a case would, its other chunks to whichever workers are free next (before any new case), and
what each chunk found is folded in chunk order into the case's one ``Tally``. The case is
finished once every chunk is folded, or a chunk ended it (an engine failure: the chunks after
it do not count, as a serial run never plays them), so its record is the serial run's: the
same hands, verdict, failing hands and repros, written by this process as their chunk is
folded, numbered in the order found.

Progress stays the case's: the hands of the chunks folded and of those still running, a
checkpoint each time a chunk but the last is folded (as in a serial run). An interrupt while
a campaign is the next case to record records what its folded chunks found.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dominokit.conformance.cases.campaign import Part, Tally
from dominokit.conformance.cases.model import Case, CaseInterrupted
from dominokit.conformance.kit.driver import Hello
from dominokit.conformance.run.workers import Finished, ForkedPool, Progressed


def units(cases: Sequence[Case]) -> int:
    """How many pieces of work ``cases`` make: a chunk of a campaign is one, a case another."""
    return sum(case.chunks for case in cases)


@dataclass
class _Campaign:
    """A campaign being played: its tally, the parts come in out of order, and the hands of
    its running chunks (their last progress)."""

    tally: Tally
    began: float
    parts: dict[int, tuple[Part, str | None]] = field(default_factory=dict)
    running: dict[int, int] = field(default_factory=dict)
    dead: str | None = None


class Gathered:
    """The forked pool, with each campaign's chunks given to several workers and gathered
    into one case (see the module doc); every other case passes through unchanged."""

    def __init__(self, pool: ForkedPool, cases: Sequence[Case], report_dir: Path, *,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._pool = pool
        self._cases = cases
        self._report_dir = report_dir
        self._clock = clock
        self._campaigns: dict[int, _Campaign] = {}
        self._queued: deque[tuple[int, int]] = deque()
        """Chunks of the campaigns begun that no worker has yet, in order."""
        self._chosen: dict[Any, tuple[int, int | None]] = {}
        self._given: set[int] = set()
        """The cases given to the runner as finished."""
        self.on_progress: Callable[[Progressed], None] | None = None
        pool.on_progress = self._progressed

    def hello(self) -> tuple[Hello | None, str | None]:
        return self._pool.hello()

    def idle(self) -> list[Any]:
        return self._pool.idle()

    def next_index(self, worker: Any) -> int | None:
        """The case whose next piece ``worker`` gets: a chunk of a campaign begun, else the
        next case the pool's schedule gives (a campaign's first chunk)."""
        if self._queued:
            self._chosen[worker] = self._queued.popleft()
            return self._chosen[worker][0]
        given = self._pool.next_index(worker)
        if given is None:
            return None
        index = given
        case = self._cases[index]
        if case.chunks > 1 and case.campaign is not None:
            self._campaigns[index] = _Campaign(Tally(case.campaign, self._report_dir),
                                               self._clock())
            self._queued.extend((index, chunk) for chunk in range(1, case.chunks))
            self._chosen[worker] = (index, 0)
        else:
            self._chosen[worker] = (index, None)
        return index

    def send(self, worker: Any, index: int) -> None:
        """Give ``worker`` the piece ``next_index`` chose for it."""
        _, chunk = self._chosen.pop(worker, (index, None))
        self._pool.send(worker, index, chunk)

    def running(self) -> bool:
        return self._pool.running()

    def alive(self) -> bool:
        return self._pool.alive()

    def close(self, *, now: bool = False) -> None:
        self._pool.close(now=now)

    def results(self) -> Iterator[Finished]:
        """What finished: cases as the pool gives them, a campaign once it is gathered. The
        chunks of a campaign begun go on to free workers even when the runner gives out no
        more (a limit reached): a case begun is finished, as in a serial run."""
        try:
            for finished in self._pool.results():
                whole = finished if finished.chunk is None else self._gather(finished)
                if whole is not None:
                    self._given.add(whole.index)
                    yield whole
        except KeyboardInterrupt:
            self._interrupted()
            raise
        for worker in self._pool.idle():
            if not self._queued:
                break
            index, chunk = self._queued.popleft()
            self._pool.send(worker, index, chunk)

    def _gather(self, finished: Finished) -> Finished | None:
        """Fold what a chunk found, with the chunks before it; the case when it is done."""
        index, chunk = finished.index, finished.chunk
        gathering = self._campaigns.get(index)
        if gathering is None or chunk is None:  # a chunk after the one that ended the case
            return None
        part = finished.part or Part(chunk, ended=finished.outcome)
        gathering.parts[chunk] = (part, finished.dead)
        gathering.running.pop(chunk, None)
        tally = gathering.tally
        while tally.folded in gathering.parts and not tally.done():
            part, dead = gathering.parts.pop(tally.folded)
            gathering.dead = gathering.dead or dead
            tally.add(part)
            if not tally.done() and self.on_progress is not None:
                self.on_progress(Progressed(index, tally.progress(), True,
                                            self._clock() - gathering.began))
        if not tally.done():
            return None
        del self._campaigns[index]
        self._queued = deque(unit for unit in self._queued if unit[0] != index)
        return Finished(index, tally.outcome(), self._clock() - gathering.began,
                        gathering.dead)

    def _progressed(self, sent: Progressed) -> None:
        """A worker's progress: a chunk's becomes its campaign's (the hands of every chunk
        folded, finished or running; the failing ones of those finished)."""
        if self.on_progress is None:
            return
        gathering = self._campaigns.get(sent.index)
        if sent.chunk is None or gathering is None:
            if sent.chunk is None:
                self.on_progress(sent)
            return
        gathering.running[sent.chunk] = sent.progress.hands
        waiting = [part for part, _ in gathering.parts.values()]
        more = sum(gathering.running.values()) + sum(part.hands for part in waiting)
        failing = sum(len(part.failures) for part in waiting)
        self.on_progress(Progressed(sent.index, gathering.tally.progress(more, failing),
                                    False, self._clock() - gathering.began))

    def _interrupted(self) -> None:
        """On an interrupt, the partial record of the campaign the runner records next (every
        case before it given): what its chunks folded so far found."""
        for index, gathering in sorted(self._campaigns.items()):
            if all(earlier in self._given for earlier in range(index)):
                raise CaseInterrupted(gathering.tally.interrupted()) from None
            return
