"""The JSON lines report of a run (``--jsonl``): a header, one line per case as it ends,
progress lines of a long case and a summary at the end, each flushed at once, so a long run can
be followed while it goes on (``-``: standard output).

A line that cannot be written ends the stream and is noted among the report's write errors;
the run itself goes on.
"""

from __future__ import annotations

import contextlib
import json
import sys
from pathlib import Path
from typing import Any, TextIO, cast

from dominokit.conformance.cases.model import Progress
from dominokit.conformance.run.report import CaseRecord, Report


class Stream:
    """The JSON lines report of a run (``jsonl_path``): a header (what runs), one line per
    case, progress lines of a long case (``Progress``), and a summary when the run ends, each
    flushed at once; a ``type`` tells them apart."""

    def __init__(self, file: TextIO | None) -> None:
        self.file = file

    def write_header(self, report: Report) -> None:
        self._line(report.header_json(), report)

    def write_summary(self, report: Report) -> None:
        self._line(report.summary_json(), report)

    def write(self, record: CaseRecord, report: Report) -> None:
        self._line(record.to_json(), report)

    def write_progress(self, case_id: str, progress: Progress, seconds: float,
                       report: Report) -> None:
        self._line(progress.to_json(case_id, seconds), report)

    def _line(self, data: dict[str, Any], report: Report) -> None:
        if self.file is None:
            return
        try:
            self.file.write(json.dumps(data, default=str) + "\n")
            self.file.flush()
        except OSError as error:
            report.write_errors.append(f"cannot append to the JSON lines report: "
                                       f"{error.strerror or error}")
            self.close()

    def close(self) -> None:
        if self.file is not None:
            with contextlib.suppress(OSError):
                self.file.close()
            self.file = None


def open_stream(path: str | Path | None, report: Report) -> Stream:
    """The JSON lines report, emptied (``-``: standard output), its header written; a write
    error when it cannot be opened."""
    if path is None:
        return Stream(None)
    if str(path) == "-":
        stream = Stream(cast(TextIO, _Unclosed(sys.stdout)))
    else:
        try:
            stream = Stream(open(path, "w", encoding="utf-8"))  # noqa: SIM115 - closed by it
        except OSError as error:
            report.write_errors.append(f"cannot write the JSON lines report to {path}: "
                                       f"{error.strerror or error}")
            return Stream(None)
    stream.write_header(report)
    return stream


class _Unclosed:
    """Standard output as the stream's file: written and flushed, never closed."""

    def __init__(self, out: TextIO) -> None:
        self.out = out

    def write(self, text: str) -> int:
        return self.out.write(text)

    def flush(self) -> None:
        self.out.flush()

    def close(self) -> None:
        self.out.flush()
