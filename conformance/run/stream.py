"""The JSON lines report of a run (``--jsonl``): one line per case as it ends, and progress
lines of a long case, each flushed at once, so a long run can be followed while it goes on.

A line that cannot be written ends the stream and is noted among the report's write errors;
the run itself goes on.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any, TextIO

from dominokit.conformance.cases.model import Progress
from dominokit.conformance.run.report import CaseRecord, Report


class Stream:
    """The JSON lines report of a run (``jsonl_path``): one line per case, and progress lines
    of a long case (``Progress``), each flushed at once; a ``type`` tells them apart."""

    def __init__(self, file: TextIO | None) -> None:
        self.file = file

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
    """The JSON lines report, emptied; a write error when it cannot be opened."""
    if path is None:
        return Stream(None)
    try:
        return Stream(open(path, "w", encoding="utf-8"))  # noqa: SIM115 - Stream closes it
    except OSError as error:
        report.write_errors.append(f"cannot write the JSON lines report to {path}: "
                                   f"{error.strerror or error}")
        return Stream(None)
