"""Writing a file whole or not at all: the one writer of every file the kit writes.

A trace, a report, a vector file or any other file the kit writes must never be left
half-written by a full disk, a kill or a bad path: the data goes to a temporary file in the
same folder (so the final step is a rename within one file system) and replaces the target
only once it is complete. The file gets the mode any program's new file gets, ``0666`` less
the umask (a temporary file is made ``0600``, which would leave a report only its owner can
read), and a file written over keeps the mode it had.

Writing a set of files so that a failure leaves the previous set whole is ``write_all``: every
file is written beside its target first, and only when all are complete are they renamed into
place.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Mapping
from pathlib import Path

__all__ = ["write_all", "write_atomically", "write_text_atomically"]


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
    write_all({target: data}, make_parents=make_parents)


def write_text_atomically(path: Path | str, text: str) -> None:
    """``write_atomically`` for UTF-8 text."""
    write_atomically(path, text.encode("utf-8"))


def write_all(files: Mapping[Path, bytes], *, make_parents: bool = False) -> None:
    """Write every file of ``files`` (target path -> bytes), replacing the targets only once
    every one is written: a failure (a full disk) leaves every target as it was and no
    temporary file behind. ``make_parents`` creates missing folders first."""
    written: list[tuple[str, Path]] = []
    try:
        for target, data in files.items():
            if make_parents:
                target.parent.mkdir(parents=True, exist_ok=True)
            written.append((_written_beside(target, data), target))
        for temporary, target in written:
            os.replace(temporary, target)
    except BaseException:
        for temporary, _ in written:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
        raise


def _written_beside(target: Path, data: bytes) -> str:
    """A complete temporary file holding ``data`` beside ``target``, with the mode the target
    is to have; its path."""
    handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.",
                                         suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as stream:
            os.fchmod(stream.fileno(), _mode_for(target))
            stream.write(data)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    return temporary


def _mode_for(target: Path) -> int:
    """The mode ``target`` keeps (an existing file's), or a new file's: 0666 less the umask."""
    with contextlib.suppress(OSError):
        return stat.S_IMODE(target.stat().st_mode)
    return 0o666 & ~_umask()


def _umask() -> int:
    """This process's umask, read without changing it where the system says it (Linux
    ``/proc``); elsewhere set and restored at once."""
    with contextlib.suppress(OSError, ValueError):
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    mask = os.umask(0o077)
    os.umask(mask)
    return mask
