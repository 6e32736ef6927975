"""The JSON lines report of a run (``--jsonl``): a header, one line per case as it ends,
progress lines of a long case and a summary at the end, each written at once and whole (never
half a line, even on a full disk), so a long run can be followed while it goes on (``-``:
standard output).

A line that cannot be written ends the stream and is noted among the report's write errors;
the run itself goes on.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from pathlib import Path
from typing import Any, BinaryIO

from dominokit.conformance.cases.model import Progress
from dominokit.conformance.run.report import CaseRecord, Report


class Stream:
    """The JSON lines report of a run (``jsonl_path``): a header (what runs), one line per
    case, progress lines of a long case (``Progress``), and a summary when the run ends, each
    written at once; a ``type`` tells them apart.

    A line is written whole or not at all: each goes to the file in unbuffered writes, and a
    write that fails part way (a full disk) is cut back to the end of the line before, so a
    follower never reads half a line, and the run says that the report stopped there."""

    def __init__(self, file: BinaryIO | None) -> None:
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
        line = (json.dumps(data, default=str, ensure_ascii=False) + "\n").encode(
            "utf-8", "backslashreplace")
        fd = self.file.fileno()
        try:
            start: int | None = os.lseek(fd, 0, os.SEEK_END)
        except OSError:  # a pipe (--jsonl /dev/stdout): nothing to cut back
            start = None
        try:
            view = memoryview(line)
            while view:
                view = view[os.write(fd, view):]
        except OSError as error:
            if start is not None:
                with contextlib.suppress(OSError):
                    os.ftruncate(fd, start)
            report.write_errors.append(f"cannot append to the JSON lines report: "
                                       f"{error.strerror or error}; it ends with the last "
                                       f"whole line")
            self.close()

    def close(self) -> None:
        if self.file is not None:
            with contextlib.suppress(OSError):
                self.file.close()
            self.file = None


def open_stream(path: str | Path | None, report: Report) -> Stream:
    """The JSON lines report, emptied (``-``: standard output, through a copy of its
    descriptor, so closing the stream leaves it open), its header written; a write error when
    it cannot be opened."""
    if path is None:
        return Stream(None)
    try:
        if str(path) == "-":
            sys.stdout.flush()
            file = open(os.dup(sys.stdout.fileno()), "wb", buffering=0)  # noqa: SIM115
        else:
            file = open(path, "wb", buffering=0)  # noqa: SIM115 - Stream closes it
    except OSError as error:
        report.write_errors.append(f"cannot write the JSON lines report to {path}: "
                                   f"{error.strerror or error}")
        return Stream(None)
    stream = Stream(file)
    stream.write_header(report)
    return stream
