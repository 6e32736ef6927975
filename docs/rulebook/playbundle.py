"""What the play pages load: the Pyodide runtime and the engine's Python, vendored at build time.

The built rule book must play with no network, so nothing is fetched at run time: the Pyodide
files come from the pinned npm package in ``docs/play/`` (``npm ci`` there), and the engine
comes as one zip of Python sources and data that the page unpacks into Pyodide's file system:

* ``dominokit/spec`` and ``dominokit/reference`` as they are in the checkout, with the spec's
  YAML and JSON Schema files (the engine reads a schema's limits at import);
* the diagrams module (``dominokit/conformance/run/diagrams.py``, alone of the kit) and
  ``dominokit/rulebook/playroom.py``, under stand-in ``__init__.py`` files, because the real
  ones would bring the whole kit and book builder;
* PyYAML's pure-Python package (``dominokit.spec`` imports it; its C parser is optional);
* ``checked-spec.txt``: every bundled rule file loaded and checked here, with the schema
  and lint checks that need jsonschema (see ``dominokit/spec/frozen.py``);
* ``traces.json``: every golden trace's data, for the trace pages' stepper.

The zip is written with fixed timestamps, so the same checkout gives the same bytes.

A book opened from ``file://`` can fetch none of these files (Chromium gives the page a null
origin: no worker, no fetch or XHR of a file, no ES module), but it can run classic scripts.
So the build also writes ``file-bundle.js``: every file ``loadPyodide`` and the engine read
(the interpreter, the standard library, the package lock, ``engine.zip``) as base64 text in
one script, gzipped first where that makes it smaller. ``docs/play/engine-file.js`` loads it,
and answers Pyodide's requests from it, only on a page opened from ``file://``; over HTTP
nothing loads it.
"""

from __future__ import annotations

import base64
import fcntl
import gzip
import io
import itertools
import json
import shutil
import subprocess
import zipfile
from collections.abc import Iterable
from pathlib import Path
from typing import Final

import yaml

from dominokit.conformance.traces import bundled_trace_files
from dominokit.reference.rules import load_rules
from dominokit.spec import frozen
from dominokit.spec.spec import bundled_common_file, load_variant, variant_ids

REPO: Final = Path(__file__).resolve().parent.parent.parent
NPM_DIR: Final = REPO / "docs" / "play"
PYODIDE_DIR: Final = NPM_DIR / "node_modules" / "pyodide"
PYODIDE_FILES: Final = ("pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm",
                        "python_stdlib.zip", "pyodide-lock.json")
"""What ``loadPyodide`` fetches with no package to install: the loader, the compiled
interpreter, the standard library and the (empty for us) package lock."""
SITE_DIR: Final = "play"
"""Where in the built site the play assets go (``play/pyodide/``, ``play/engine.zip``)."""
ENGINE_ZIP: Final = "engine.zip"
FILE_BUNDLE: Final = "file-bundle.js"
FILE_BUNDLED: Final = ("pyodide/pyodide.asm.wasm", "pyodide/python_stdlib.zip",
                       "pyodide/pyodide-lock.json", ENGINE_ZIP)
"""What the file:// page reads through ``file-bundle.js`` (paths under ``play/``); the
scripts, ``pyodide.js`` and ``pyodide.asm.js``, it loads by ``<script>`` tags."""
STAND_IN: Final = ('"""Not shipped to the browser whole: of the kit only the diagrams, of the '
                   'book builder only the playroom."""\n')
_STAMP: Final = (2020, 1, 1, 0, 0, 0)
_LOADER: Final = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class PlayBuildError(RuntimeError):
    """The play assets cannot be made; the message says what is missing and how to get it."""


def ensure_pyodide() -> Path:
    """The installed Pyodide package, running ``npm ci`` in docs/play first when it is missing
    (the lock file pins the version); PlayBuildError if that cannot be done."""
    if all((PYODIDE_DIR / name).is_file() for name in PYODIDE_FILES):
        return PYODIDE_DIR
    npm = shutil.which("npm")
    if npm is None:
        raise PlayBuildError("the play pages need Pyodide from npm: install node and npm, "
                             "then run `npm ci` in docs/play")
    with open(NPM_DIR / ".npm-ci.lock", "w") as lock:  # parallel builds install once
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not all((PYODIDE_DIR / name).is_file() for name in PYODIDE_FILES):
            done = subprocess.run([npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"],
                                  cwd=NPM_DIR, capture_output=True, text=True, check=False)
            if done.returncode != 0:
                raise PlayBuildError("`npm ci` in docs/play failed (the play pages need "
                                     f"Pyodide from npm):\n{done.stdout}{done.stderr}")
    missing = [name for name in PYODIDE_FILES if not (PYODIDE_DIR / name).is_file()]
    if missing:
        raise PlayBuildError(f"docs/play/node_modules/pyodide lacks {', '.join(missing)}")
    return PYODIDE_DIR


def checked_spec() -> str:
    """Every bundled rule file, loaded and checked now, as :func:`frozen.dump` text."""
    documents = {"common.yaml": yaml.safe_load(bundled_common_file().read_text("utf-8"))}
    for variant_id in variant_ids():
        variant = load_variant(variant_id)
        documents[f"variants/{variant_id}.yaml"] = variant.data
        # Every choice of options, checked here against the schema the browser lacks.
        names = sorted(variant.options)
        for values in itertools.product(*(variant.options[name].values for name in names)):
            load_rules(variant_id, dict(zip(names, values, strict=True)))
    return frozen.dump(documents)


def trace_data() -> dict[str, object]:
    """Every golden trace's data by id (the trace files are checked by the kit's own tests)."""
    out: dict[str, object] = {}
    for entry in bundled_trace_files():
        data = yaml.load(entry.read_text(encoding="utf-8"), Loader=_LOADER)
        out[str(data["id"])] = data
    return out


def _sources(folder: Path, patterns: Iterable[str]) -> list[Path]:
    return sorted({p for pattern in patterns for p in folder.rglob(pattern)
                   if "__pycache__" not in p.parts})


def engine_zip() -> bytes:
    """The engine bundle's bytes (see the module docstring for what it holds)."""
    members: dict[str, bytes] = {}
    package = REPO / "dominokit"
    for name in ("spec", "reference"):
        root = (package / name).resolve()
        for path in _sources(root, ("*.py", "*.yaml", "*.json")):
            members[f"dominokit/{name}/{path.relative_to(root).as_posix()}"] = path.read_bytes()
    book = (package / "rulebook").resolve()
    members["dominokit/rulebook/__init__.py"] = STAND_IN.encode()
    members["dominokit/rulebook/playroom.py"] = (book / "playroom.py").read_bytes()
    kit = (package / "conformance").resolve()
    members["dominokit/conformance/__init__.py"] = STAND_IN.encode()
    members["dominokit/conformance/run/__init__.py"] = STAND_IN.encode()
    members["dominokit/conformance/run/diagrams.py"] = (kit / "run" / "diagrams.py").read_bytes()
    pyyaml = Path(yaml.__file__).parent
    for path in sorted(pyyaml.glob("*.py")):
        members[f"yaml/{path.name}"] = path.read_bytes()
    members["checked-spec.txt"] = checked_spec().encode()
    members["traces.json"] = json.dumps(trace_data(), sort_keys=True).encode()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in sorted(members):
            info = zipfile.ZipInfo(name, _STAMP)
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, members[name])
    return buffer.getvalue()


def file_bundle(play_dir: Path) -> str:
    """``file-bundle.js`` for the play folder ``play_dir`` of a built site: a script setting
    ``self.dkFileBundle`` to {path: [encoding, base64]} for each of :data:`FILE_BUNDLED`,
    the encoding ``gzip`` where that saves a tenth or more, else ``identity``."""
    entries = {}
    for name in FILE_BUNDLED:
        data = (play_dir / name).read_bytes()
        packed = gzip.compress(data, compresslevel=9, mtime=0)
        encoding, body = ("gzip", packed) if len(packed) * 10 <= len(data) * 9 \
            else ("identity", data)
        entries[name] = [encoding, base64.b64encode(body).decode("ascii")]
    return ("// The play pages' files for a book opened from file:// (see engine-file.js); "
            "written by dominokit.rulebook.playbundle.\n"
            f"self.dkFileBundle = {json.dumps(entries, indent=0)};\n")


def vendor(site_dir: Path) -> Path:
    """Write the play assets into a built site; their folder is returned."""
    source = ensure_pyodide()
    target = site_dir / SITE_DIR
    (target / "pyodide").mkdir(parents=True, exist_ok=True)
    for name in PYODIDE_FILES:
        shutil.copyfile(source / name, target / "pyodide" / name)
    (target / ENGINE_ZIP).write_bytes(engine_zip())
    (target / FILE_BUNDLE).write_text(file_bundle(target), encoding="ascii")
    return target
