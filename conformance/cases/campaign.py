"""A long differential campaign as seeded chunks: the unit of parallel work.

A campaign (``--examples`` above one chunk of random hands) is played as chunks: chunk 0 is
the case's searched hands and its first hypothesis run, chunk ``i`` the ``i``-th hypothesis
run, seeded from the run's seed and ``i`` alone (``chunk_seed``). So what a chunk finds (a
``Part``: the hands it played and its failing hands) depends only on the case, the seed and
the chunk's number, never on which worker plays it or when; ``Tally`` folds the parts in
chunk order into the one case record, writing each failing hand's repro trace as it folds
(``MAX_REPROS`` at most, each hand once, numbered in the order found), so a campaign whose
chunks several workers played (``run.gather``) or several pytest items (one per chunk, the
plugin) has the record a serial run gives.

The serial run (``Campaign.run_all``, what ``run_case`` does with a campaign) plays the
chunks in order through the same ``run_chunk`` and ``Tally``. ``run_chunk`` plays one chunk
with the applicability and failure handling ``run_case`` gives a whole case: an engine that
fails ends the campaign at that chunk (the chunks after it do not count, as a serial run
never plays them).
"""

from __future__ import annotations

import json
import random
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from dominokit.conformance.cases import repro as repros
from dominokit.conformance.cases.compare import Divergence
from dominokit.conformance.cases.model import (
    Case,
    CaseInterrupted,
    Context,
    KitNote,
    Outcome,
    Progress,
    guarded,
)
from dominokit.conformance.kit.driver import Engine

JsonObject = dict[str, Any]

MAX_REPROS = 20
"""Repro traces one case writes at most; failing hands past them are only counted."""


def chunk_seed(seed: int, chunk: int) -> int:
    """The hypothesis seed of chunk ``chunk``: the run's seed for the first, one drawn from
    the seed and the chunk's number for each next (never from anything a worker holds)."""
    return seed if chunk == 0 else random.Random(f"campaign:{seed}:{chunk}").randrange(2**32)


@dataclass(frozen=True)
class Failure:
    """One failing hand a chunk found: its deal, the actions up to the divergence, the
    divergence, and how the record introduces it (``searched hand (...): ``)."""

    deal: JsonObject
    actions: tuple[str, ...]
    divergence: Divergence
    prefix: str


@dataclass(frozen=True)
class Part:
    """What one chunk gave: the random hands it played, its failing hands in the order found,
    ``note`` (chunk 0: what the searched hands reached, for a passing record), the kit's
    notes, and ``ended``: the outcome the case ends with at this chunk (an engine failure, a
    kit error, not applicable), None when the chunk ran to its end."""

    chunk: int
    hands: int = 0
    failures: tuple[Failure, ...] = ()
    note: str = ""
    notes: tuple[str, ...] = ()
    ended: Outcome | None = None


class ChunkInterrupted(KeyboardInterrupt):
    """An interrupt inside a chunk: ``part`` is what the chunk had found so far."""

    def __init__(self, part: Part) -> None:
        super().__init__(f"chunk {part.chunk} interrupted")
        self.part = part


@dataclass
class Findings:
    """What a chunk has found so far, filled in by the player as it goes (so that an engine
    failure or an interrupt keeps the failing hands found before it)."""

    chunk: int
    hands: int = 0
    failures: list[Failure] = field(default_factory=list)
    note: str = ""

    def part(self, notes: tuple[str, ...] = (), ended: Outcome | None = None) -> Part:
        return Part(self.chunk, self.hands, tuple(self.failures), self.note, notes, ended)


Player = Callable[[Engine, Context, Findings], None]
"""Plays chunk ``found.chunk`` of a campaign into ``found``; after each random hand it
reports ``Progress(found.hands, <chunk size>)`` through ``ctx.progress`` (chunk-local: the
serial loop and the gatherer turn it into the case's progress)."""


@dataclass(frozen=True)
class Campaign:
    """How a case splits into chunks: ``total`` random hands in chunks of ``chunk_size()``
    (read when asked, so that a test or the benchmark can shrink it), and how one is played.
    A case of one chunk is no campaign: it runs whole and stops at its first failure."""

    case_id: str
    variant: str
    options: Mapping[str, object]
    total: int
    chunk_size: Callable[[], int] = field(compare=False, repr=False)
    player: Player = field(compare=False, repr=False)

    def count(self) -> int:
        """How many chunks (1: the case is played whole, as it always was)."""
        size = max(self.chunk_size(), 1)
        return max(1, -(-self.total // size))

    def size(self, chunk: int) -> int:
        """The random hands of chunk ``chunk``."""
        size = max(self.chunk_size(), 1)
        return min(size, self.total - chunk * size)

    def run_all(self, case: Case, engine: Engine, ctx: Context) -> Outcome:
        """The serial run: every chunk in order, folded as it ends; ``ctx.progress`` hears
        the case's progress (a checkpoint after every chunk but the last). An interrupt
        raises ``CaseInterrupted`` with the partial record."""
        tally = Tally(self, ctx.report_dir)
        listener = ctx.on_progress

        def forward(progress: Progress, checkpoint: bool) -> None:
            if listener is not None:
                listener(tally.progress(progress.hands), checkpoint)

        ctx.on_progress = forward
        try:
            for chunk in range(self.count()):
                try:
                    part = run_chunk(case, engine, ctx, chunk)
                except ChunkInterrupted as stopped:
                    tally.add(stopped.part)
                    raise CaseInterrupted(tally.interrupted()) from None
                except KeyboardInterrupt:
                    raise CaseInterrupted(tally.interrupted()) from None
                tally.add(part)
                if tally.done():
                    break
                if listener is not None:
                    listener(tally.progress(), True)
        finally:
            ctx.on_progress = listener
        return tally.outcome()


def run_chunk(case: Case, engine: Engine, ctx: Context, chunk: int) -> Part:
    """Play chunk ``chunk`` of campaign ``case`` with ``run_case``'s applicability check and
    failure handling (the engine restarted after it fails); the kit's notes are kept in the
    part. An interrupt raises ``ChunkInterrupted`` with what the chunk had found."""
    campaign = case.campaign
    assert campaign is not None
    if ctx.dead is not None:
        return Part(chunk, ended=Outcome.not_run(ctx.dead))
    if ctx.hello is not None:
        why = case.requires.unmet(ctx.hello)
        if why is not None:
            return Part(chunk, ended=Outcome.not_applicable(why))
    found = Findings(chunk)

    def play(engine: Engine, ctx: Context) -> Outcome:
        campaign.player(engine, ctx, found)
        return Outcome.passed()

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", KitNote)
        try:
            outcome = guarded(case, engine, ctx, play)
        except KeyboardInterrupt:
            raise ChunkInterrupted(found.part(_notes(caught))) from None
    return found.part(_notes(caught), None if outcome.status == "passed" else outcome)


def _notes(caught: list[warnings.WarningMessage]) -> tuple[str, ...]:
    """The kit's notes among ``caught``; any other warning is warned again."""
    for other in caught:
        if not issubclass(other.category, KitNote):
            warnings.warn_explicit(other.message, other.category, other.filename, other.lineno)
    return tuple(str(w.message) for w in caught if issubclass(w.category, KitNote))


class Tally:
    """The record of one campaign, folded from its parts in chunk order (``add``).

    The first failing hand's outcome is what the record shows in full; each failing hand
    gets its own repro trace, written as its part is folded (up to ``MAX_REPROS``, never twice
    the same hand; ``label`` names them, the case id by default). A part that ends the case
    (``Part.ended``) makes it its outcome; parts after it are not folded.
    """

    def __init__(self, campaign: Campaign, report_dir: Path,
                 label: str | None = None) -> None:
        self.campaign = campaign
        self.report_dir = report_dir
        self.label = label or campaign.case_id
        self.folded = 0
        self.hands = 0
        self.first: Outcome | None = None
        self.repros: list[str] = []
        self.failing_hands = 0
        self.notes: list[str] = []
        self.note = ""
        self.ended: Outcome | None = None
        self._seen: set[str] = set()

    def add(self, part: Part) -> None:
        """Fold the next part (chunk ``self.folded``, or the one part of a chunk's item)."""
        if self.ended is not None:
            return
        self.folded += 1
        self.hands += part.hands
        self.note = self.note or part.note
        self.notes.extend(part.notes)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", KitNote)
            for failure in part.failures:
                self._add(failure)
        self.notes.extend(_notes(caught))
        if part.ended is not None:
            self.ended = part.ended
            if part.ended.status == "errored" and part.ended.failure_kind != "kit" \
                    and self.repros:
                self.notes.append(f"before the engine failed, {self.failing_hands} hand(s) "
                                  f"diverged; repros: {', '.join(self.repros)}")

    def done(self) -> bool:
        """Whether the record is complete: every chunk folded, or one ended the case."""
        return self.ended is not None or self.folded >= self.campaign.count()

    def _add(self, failure: Failure) -> None:
        self.failing_hands += 1
        divergence = failure.divergence
        actions = list(failure.actions)
        if divergence.what == "answer":
            actions.append(str(divergence.expected["accepted"]))
        key = json.dumps([failure.deal, actions], sort_keys=True)
        path = None
        if key not in self._seen and len(self.repros) < MAX_REPROS:
            self._seen.add(key)
            campaign = self.campaign
            path = repros.write_hand(
                self.report_dir, self.label, campaign.variant, campaign.options, failure.deal,
                actions, divergence.rules, note="written by dominokit conform; every expected "
                "answer comes from the reference engine", number=len(self.repros) + 1)
            if path is not None:
                self.repros.append(path)
        if self.first is None:
            details = [f"actions: {' '.join(actions) or '(none)'}"]
            self.first = divergence.outcome(failure.prefix, details, repro=path)

    def outcome(self, of: int | None = None) -> Outcome:
        """The case's outcome: the one a part ended it with, else the first failure in full
        and a line counting the failing hands of the hands played (of ``of``: the total by
        default), else passed."""
        if self.ended is not None:
            return self.ended.noting(self.notes)
        if self.first is None:
            return Outcome.passed(f"{self.note}; {self.campaign.total} random hands"
                                  ).noting(self.notes)
        return self._failed(of or self.campaign.total).noting(self.notes)

    def _failed(self, of: int, interrupted: bool = False) -> Outcome:
        assert self.first is not None
        first = replace(self.first, repros=tuple(self.repros),
                        failing_hands=self.failing_hands)
        kept = len(self.repros)
        line = (f"{'interrupted: ' if interrupted else ''}{self.failing_hands} failing "
                f"hand(s), {self.hands:,} of {of:,} random hands played; {kept} repro "
                "trace(s) kept" + (f" (at most {MAX_REPROS}, each hand once)"
                                   if kept < self.failing_hands else ""))
        return replace(first, message=f"{first.message}\n{line}")

    def interrupted(self) -> Outcome:
        """The partial outcome of an interrupted campaign: its failures so far, or not run."""
        total = self.campaign.total
        if self.first is None:
            return Outcome.not_run(f"interrupted after {self.hands:,} of {total:,} random "
                                   "hands, none of them failing")
        return self._failed(total, interrupted=True)

    def progress(self, more: int = 0, failing: int = 0) -> Progress:
        """The case's progress: the hands folded and ``more`` played by chunks not folded
        yet (``failing`` of them failing)."""
        return Progress(self.hands + more, self.campaign.total, self.failing_hands + failing,
                        tuple(self.repros))
