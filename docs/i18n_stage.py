"""mkdocs hook: let mkdocs-static-i18n see the pages that ``gen_pages.py`` generates.

The i18n plugin sorts the site's files into languages by their ``.pl.md`` suffix, and rebuilds
each file from ``docs_dir``: a page that mkdocs-gen-files wrote into its own temporary folder
is not under ``docs_dir`` and would be dropped ("Unhandled file case"). So between the two
(gen-files runs ``on_files`` first, the i18n plugin last, at priority -100) this hook copies
every documentation file, hand-written or generated, into one staging folder and makes that
folder the ``docs_dir``. The sources are never written to; theme files are left as they are.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path, PurePath
from typing import Any

from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files

_STAGE: dict[str, Path] = {}
"""The staging folder of this build process (the i18n plugin builds once per language)."""


def _stage() -> Path:
    if "dir" not in _STAGE:
        _STAGE["dir"] = Path(tempfile.mkdtemp(prefix="dominokit-docs-"))
    return _STAGE["dir"]


def _is_docs_file(file: File, docs_dir: str) -> bool:
    if file.is_documentation_page():
        return True
    return file.abs_src_path is not None and PurePath(file.abs_src_path).is_relative_to(docs_dir)


@event_priority(-50)
def on_files(files: Files, config: Any) -> Files:
    """Every documentation file copied to the staging folder, which becomes ``docs_dir``."""
    stage = _stage()
    docs_dir = config["docs_dir"]
    staged: list[File] = []
    for file in files:
        if not _is_docs_file(file, docs_dir):
            staged.append(file)
            continue
        target = stage / file.src_uri
        if file.abs_src_path != str(target):
            target.parent.mkdir(parents=True, exist_ok=True)
            if file.abs_src_path is not None:
                shutil.copyfile(file.abs_src_path, target)
            else:
                target.write_bytes(file.content_bytes)
        copy = File(file.src_uri, str(stage), config["site_dir"], config["use_directory_urls"],
                    dest_uri=file.dest_uri, inclusion=file.inclusion)
        staged.append(copy)
    config["docs_dir"] = str(stage)
    return Files(staged)


def on_shutdown(**kwargs: Any) -> None:
    """Remove the staging folder."""
    if "dir" in _STAGE:
        shutil.rmtree(_STAGE.pop("dir"), ignore_errors=True)
