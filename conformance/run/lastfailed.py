"""The last run's failures, kept in the report folder so that ``conform --lf`` can rerun them.

As pytest's cache does: every run that judged cases writes ``lastfailed.json`` (the ids of the
cases that failed the run, in order) into its report folder, and ``--lf`` narrows the next
selection to them; with none recorded, ``--lf`` runs the whole selection and says so. A folder
that cannot be written is no reason to fail a run: the file is simply not kept.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Sequence
from pathlib import Path

FILE = "lastfailed.json"


def read(report_dir: str | Path) -> list[str] | None:
    """The failing case ids the last run in ``report_dir`` recorded (None: none recorded, or
    the file is not ours to read)."""
    path = Path(report_dir) / FILE
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    ids = data.get("failed") if isinstance(data, dict) else None
    if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
        return None
    return ids or None


def write(report_dir: str | Path, failed: Sequence[str]) -> None:
    """Record ``failed``; a folder that does not exist is made only when there is a failure
    to record (a green run in a read-only checkout writes nothing)."""
    from dominokit.conformance.atomic import write_atomically

    folder = Path(report_dir)
    if not failed and not (folder / FILE).exists():
        return
    text = json.dumps({"failed": list(failed)}, indent=1) + "\n"
    with contextlib.suppress(OSError):
        write_atomically(folder / FILE, text.encode("utf-8"), make_parents=True)
