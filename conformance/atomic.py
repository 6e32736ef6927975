"""Writing a file whole or not at all.

A trace, a report or any other file the kit writes must never be left half-written by a full
disk, a kill or a bad path: the text goes to a temporary file in the same folder (so the final
step is a rename within one file system) and replaces the target only once it is complete.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path


def write_text_atomically(path: Path | str, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` through a temporary file and ``os.replace``.

    Raises OSError when it cannot be written; the target is then untouched and no temporary
    file is left behind.
    """
    path = Path(path)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.",
                                         suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
