"""Writing a file whole or not at all: the one writer of every file the kit writes.

A trace, a report or any other file the kit writes must never be left half-written by a full
disk, a kill or a bad path: the data goes to a temporary file in the same folder (so the final
step is a rename within one file system) and replaces the target only once it is complete.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path


def write_atomically(path: Path | str, data: bytes, *, make_parents: bool = False) -> None:
    """Write ``data`` to ``path`` so that a reader sees the old file or the new, never half.

    A regular file (or a new one) is written beside the target and renamed over it. Anything
    else (``/dev/stdout``, a pipe, ``/dev/full``) is written in place, since renaming over a
    device would replace it; a failed write there still raises, it is never silent.
    ``make_parents`` creates missing folders first. Raises OSError when it cannot be written;
    the target is then untouched and no temporary file is left behind.
    """
    target = Path(path)
    if target.exists() and not target.is_file():
        with open(target, "wb") as stream:
            stream.write(data)
        return
    if make_parents:
        target.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.",
                                         suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def write_text_atomically(path: Path | str, text: str) -> None:
    """``write_atomically`` for UTF-8 text."""
    write_atomically(path, text.encode("utf-8"))
