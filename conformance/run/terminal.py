"""What a person (or a CI log) sees while ``dominokit conform`` runs, and after.

On a terminal: one progress line redrawn in place, cut to the terminal's width so it never
wraps. Elsewhere (a CI log, a file): a plain progress line every ``PROGRESS_EVERY`` seconds, so
a long run is never silent, even while one slow case runs (a heartbeat thread asks for it).
A long case that reports its progress (a differential campaign: hands played of its total,
failing hands so far) has it on the same line, after its id.
Either way each case that fails the run is printed in full as soon as it is known, and the
run ends with the failures again in one list, the slowest cases, the counts by variant and by
case kind, and the summary line (always last, for scripts to read).
Colour only where it is wanted: ``--color auto`` means a terminal, no ``NO_COLOR``, no dumb TERM.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import threading
import time
from collections.abc import Callable
from typing import Final, Literal, TextIO

from dominokit.conformance.cases.model import Progress
from dominokit.conformance.run.printable import printable
from dominokit.conformance.run.readingtext import sentence
from dominokit.conformance.run.report import (
    CaseRecord,
    Report,
    count_text,
    format_outcome,
    headline,
    rule_lines,
)

PROGRESS_EVERY: Final = 5.0
"""Seconds between plain progress lines when the output is not a terminal."""

HEARTBEAT: Final = 1.0
"""Seconds between the heartbeat thread's checks for a due progress line."""

REDRAW_EVERY: Final = 0.2
"""Least seconds between two redraws of the bar for a running case's progress."""

BAR_WIDTH: Final = 30
SLOWEST: Final = 5
"""How many of the slowest cases the end of a run lists."""

ColourChoice = Literal["auto", "always", "never"]
COLOUR_CHOICES: Final[tuple[ColourChoice, ...]] = ("auto", "always", "never")

_RED, _GREEN, _YELLOW, _RESET = "\x1b[31m", "\x1b[32m", "\x1b[33m", "\x1b[0m"
_LABEL_COLOURS: Final = {"FAILED": _RED, "ERRORED": _RED, "STALE": _RED, "NOT RUN": _YELLOW}


def use_colour(choice: str, stream: TextIO) -> bool:
    """Whether to colour ``stream`` for a ``--color`` choice (https://no-color.org/)."""
    if choice != "auto":
        return choice == "always"
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    return stream.isatty()


class Terminal:
    """Progress, failures and the end-of-run summary of one run on one stream.

    ``err`` gets what stops a run (the engine did not start), so it is seen even when stdout
    goes to a file; ``clock`` is injectable and ``heartbeat`` can be turned off, so the plain
    progress lines can be tested without a thread.
    """

    def __init__(self, stream: TextIO, total: int, progress: bool, *, color: bool = False,
                 err: TextIO | None = None, clock: Callable[[], float] = time.monotonic,
                 heartbeat: bool = True, verbosity: int = 0) -> None:
        self.stream = stream
        self.verbosity = verbosity
        """-1 (``-q``): the causes and the summary only; 0: each failure once, then the
        causes; 1 (``-v``): also every answer in full and each knock-on's whole block."""
        self.err = err if err is not None else stream
        self.total = total
        progress = progress and verbosity >= 0  # -q: the causes and the summary, no more
        self.bar = progress and stream.isatty()
        self.plain = progress and not self.bar
        self.color = color
        self.clock = clock
        self.began = clock()
        self._last_line = self.began
        self._failed = 0
        self._done = 0
        self._running = ""
        self._drawn_at = self.began - REDRAW_EVERY
        self._drawn = False
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._heart: threading.Thread | None = None
        if self.plain and heartbeat:
            self._heart = threading.Thread(target=self._beat, name="dominokit-progress",
                                           daemon=True)
            self._heart.start()

    # ------------------------------------------------------------------ while running

    def start(self, done: int, case_id: str) -> None:
        """Show that case number ``done`` (from 0) is running."""
        self._done, self._running = done, case_id
        if self.bar:
            self._draw()
        else:
            self.tick()

    def progress(self, case_id: str, progress: Progress) -> None:
        """Show how far running case ``case_id`` has got (``4,000/100,000 hands``) after its
        id: the bar is redrawn at most every ``REDRAW_EVERY`` seconds, a plain line says it
        when due."""
        self._running = f"{case_id} {progress.text()}"
        if self.bar:
            if self.clock() - self._drawn_at >= REDRAW_EVERY:
                self._draw()
        else:
            self.tick()

    def _draw(self) -> None:
        width = _columns() - 1
        filled = BAR_WIDTH * self._done // max(self.total, 1)
        text = (f"[{'#' * filled}{'-' * (BAR_WIDTH - filled)}] {self._done}/{self.total} "
                f"{self._running}")
        self._write("\r" + text[:width].ljust(width))
        self._drawn = True
        self._drawn_at = self.clock()

    def tick(self) -> None:
        """Print a plain progress line if one is due (``PROGRESS_EVERY`` since the last)."""
        if not self.plain or self._stop.is_set():
            return
        with self._lock:
            now = self.clock()
            if now - self._last_line < PROGRESS_EVERY:
                return
            self._last_line = now
        self._write(f"dominokit conform: {self._done}/{self.total} cases, {self._failed} "
                    f"failed, {now - self.began:.0f} s elapsed; running {self._running}\n")

    def _beat(self) -> None:
        while not self._stop.wait(HEARTBEAT):
            with contextlib.suppress(OSError, ValueError):  # output gone: the run goes on
                self.tick()

    def record(self, record: CaseRecord) -> None:
        """Print a case that fails the run, in full, as soon as it is known."""
        if record.judgement.verdict in ("ok", "expected") or record.outcome.status == "not_run":
            return
        self._failed += 1
        if self.verbosity < 0:
            return
        self._clear()
        if record.outcome.knock_on and self.verbosity < 1:
            text = (headline(record.case_id, record.outcome, record.judgement)
                    + "\n  a knock-on of an earlier divergence: see its cause below")
        else:
            text = format_outcome(record.case_id, record.outcome, record.judgement,
                                  verbose=self.verbosity > 0)
        self._write(self._paint(text) + "\n\n")

    # ------------------------------------------------------------------ at the end

    def finish(self, report: Report) -> None:
        """Clear the bar; then expected departures, unused expectations, why the run stopped,
        the failures, the slowest cases, the counts by variant and kind, the summary."""
        self._stop.set()
        if self._heart is not None:
            self._heart.join()
        self._clear()
        lines: list[str] = []
        for record in report.records:
            if record.judgement.verdict == "expected":
                lines.append(f"expected {record.outcome.status}: {record.case_id} "
                             f"({record.judgement.reason})")
        lines.extend(f"warning: expectation {glob!r} matches no selected case"
                     for glob in report.unused_expectations)
        not_run = report.counts()["not_run"]
        if report.stopped and not_run:
            lines.append(self._paint(f"NOT RUN {not_run} cases: {report.stopped}"))
        lines.extend(self._causes(report))
        if self.verbosity >= 0 and any(r.outcome.status != "not_run" for r in report.records):
            lines.extend(self._slowest(report))
            lines.extend(self._by(report, "variant"))
            lines.extend(self._by(report, "kind"))
        lines.extend(report.since_lines())
        if lines:
            self._write("\n".join(lines) + "\n")
        if report.error:
            self._write_err(f"error: {printable(report.error)}\n")
        summary = report.summary_line()
        colour = _GREEN if report.ok else _RED
        self._write((f"{colour}{summary}{_RESET}" if self.color else summary) + "\n")

    def error(self, text: str) -> None:
        """Say on ``err`` what went wrong around the run (a report that could not be written)."""
        self._write_err(f"error: {printable(text)}\n")

    def _causes(self, report: Report) -> list[str]:
        """The causes, most cases first, each with its rule in words and one repro: the
        failures are printed once as they happen, so the end says what they add up to."""
        causes = report.causes()
        if not causes:
            return []
        total = sum(len(c.cases) for c in causes)
        lines = [f"causes ({len(causes)} cause{'s' if len(causes) != 1 else ''} of {total} "
                 f"failing case{'s' if total != 1 else ''}, most cases first):"]
        for cause in causes:
            knock = f", {len(cause.knock_ons)} of them knock-ons" if cause.knock_ons else ""
            count = f"{len(cause.cases)} case{'s' if len(cause.cases) != 1 else ''}{knock}"
            path, _, _ = cause.difference()
            where = cause.where() + (f": {path}" if path else "")
            if cause.rule is None:
                lines.append(f"{cause.id} {cause.label} ({cause.variant}): {count}")
                lines.append(f"   first: {where}")
                lines.append(f"   {_first_line(cause.first().outcome.message)}")
            else:
                lines.append(f"{cause.id} {cause.rule} ({cause.variant}): {count}")
                lines.extend(rule_lines((cause.rule,), indent="   "))
                lines.append(f"   first divergence: {where}")
            repro = cause.first().outcome.repro
            if repro:
                lines.append(f"   repro: {repro}")
            for reading in report.readings:
                if reading.get("cause") == cause.id and reading.get("matches"):
                    lines.append(f"   reading: {sentence(reading)}")
            tried = [r for r in report.readings if r.get("cause") == cause.id]
            if tried and not any(r.get("matches") for r in tried):
                names = ", ".join(str(r["reading"]) for r in tried)
                lines.append(f"   reading: no reading of {cause.rule} matches ({names} tried)")
        return lines

    def _slowest(self, report: Report) -> list[str]:
        ran = [r for r in report.records if r.outcome.status != "not_run"]
        if len(ran) < 2:
            return []
        slow = sorted(ran, key=lambda r: -r.seconds)[:SLOWEST]
        return [f"slowest {len(slow)} cases:",
                *(f"  {r.seconds:8.2f} s  {r.case_id}" for r in slow)]

    def _by(self, report: Report, key: str) -> list[str]:
        groups = report.counts_by(key)
        if len(groups) < 2:  # one group: the summary line says it all
            return []
        width = max(len(name) for name in groups)
        return [f"by {key}:",
                *(f"  {name:<{width}}  {count_text(c)}" for name, c in groups.items())]

    # ------------------------------------------------------------------ output

    def _paint(self, text: str) -> str:
        """Colour the status label that starts ``text`` (only that: the rest stays plain)."""
        if not self.color:
            return text
        for label, colour in _LABEL_COLOURS.items():
            if text.startswith(label):
                return f"{colour}{label}{_RESET}{text[len(label):]}"
        return text

    def _clear(self) -> None:
        if self._drawn:
            width = _columns() - 1
            self._write("\r" + " " * width + "\r")
            self._drawn = False

    def _write(self, text: str) -> None:
        with self._lock:
            self.stream.write(text)
            self.stream.flush()

    def _write_err(self, text: str) -> None:
        self.err.write(text)
        self.err.flush()


def _first_line(text: str) -> str:
    return text.strip().splitlines()[0] if text.strip() else ""


def _columns() -> int:
    """The terminal's width (``COLUMNS`` first), at least 2: the bar is cut to one column
    less, however narrow the terminal, so it never wraps."""
    return max(2, shutil.get_terminal_size().columns)
