"""Writing the vectors: one JSON file per variant and kind, a manifest, and the drift check.

The files are the same bytes on every machine for the same suite version: keys sorted, one
vector per line, no timestamps, no absolute paths, fixed seeds. The manifest lists each file
with the rule ids its vectors cover and its sha256, so a reader can tell a damaged or stale
copy from the real thing.
"""

from __future__ import annotations

import hashlib
import json
import sys
import time
from collections.abc import Sequence
from importlib.resources import files
from pathlib import Path
from typing import Any, Final

from dominokit.conformance.cases import SUITE_VERSION
from dominokit.conformance.cases.model import ConformanceError
from dominokit.conformance.exit_status import ExitStatus
from dominokit.conformance.export.build import KINDS, Collected, collect_vectors
from dominokit.conformance.traces.model import LEGAL_LIST_MAX
from dominokit.conformance.wire.protocol import PROTOCOL_VERSIONS
from dominokit.reference import variant_ids
from dominokit.spec.yamldoc import load_yaml_data

JsonObject = dict[str, Any]

FORMAT_VERSION: Final = 1
"""Version of the vector file format (the schemas ``spec/schema/vectors-*.schema.json``)."""

DEFAULT_EXPORT_EXAMPLES: Final = 5
"""Random hands per differential and invariant case in the default export: enough to cover
every option set without making the bundled files large; ``--examples`` asks for more."""

DEFAULT_SEED: Final = 0
MANIFEST: Final = "manifest.json"
VECTORS_PROTOCOL: Final = min(PROTOCOL_VERSIONS)
"""The vectors hold requests of protocol 1 only (the cases about ``undo`` are not exported),
so an engine of either version can replay them."""


def spec_version() -> int:
    """The rule book's ``spec_version`` (``spec/common.yaml``)."""
    data = load_yaml_data(files("dominokit.spec") / "common.yaml")
    return int(data["spec_version"])


def vector_file(kind: str, variant: str, vectors: list[JsonObject]) -> str:
    """The text of one vector file: a header, then one vector per line."""
    header = {"format": f"dominokit-vectors/{kind}", "format_version": FORMAT_VERSION,
              "suite_version": SUITE_VERSION, "variant": variant}
    head = json.dumps(header, sort_keys=True, ensure_ascii=False)[:-1]
    lines = [json.dumps(v, sort_keys=True, ensure_ascii=False) for v in vectors]
    body = ",\n".join(lines)
    return f'{head}, "vectors": [\n{body}\n]}}\n' if lines else f'{head}, "vectors": []}}\n'


def render(variants: Sequence[str], examples: int, seed: int = DEFAULT_SEED
           ) -> dict[str, bytes]:
    """Every file of an export, by its path relative to the export folder."""
    out: dict[str, bytes] = {}
    entries = []
    for variant in variants:
        collected: Collected = collect_vectors(variant, examples=examples, seed=seed)
        for kind in KINDS:
            vectors = collected.vectors(kind)
            data = vector_file(kind, variant, vectors).encode("utf-8")
            path = f"{variant}/{kind}.json"
            out[path] = data
            rules = sorted({rule for v in vectors for rule in v["rules"]})
            entries.append({"path": path, "variant": variant, "kind": kind,
                            "vectors": len(vectors), "rules": rules,
                            "sha256": hashlib.sha256(data).hexdigest()})
    manifest = {"format": "dominokit-vectors/manifest", "format_version": FORMAT_VERSION,
                "suite_version": SUITE_VERSION, "protocol_version": VECTORS_PROTOCOL,
                "spec_version": spec_version(), "examples": examples, "seed": seed,
                "legal_list_max": LEGAL_LIST_MAX, "variants": list(variants),
                "files": entries}
    out[MANIFEST] = (json.dumps(manifest, sort_keys=True, indent=2, ensure_ascii=False)
                     + "\n").encode("utf-8")
    return out


def write(folder: Path, rendered: dict[str, bytes]) -> None:
    """Write an export into ``folder`` (created), replacing the files it had."""
    for path, data in rendered.items():
        target = folder / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)


def drift(folder: Path, rendered: dict[str, bytes], scope: str = "") -> list[str]:
    """How ``folder`` differs from a fresh export: one line per missing, changed or extra
    file (empty when they are the same bytes); ``scope``, a variant, limits the comparison
    to that variant's files."""
    if scope:
        rendered = {p: data for p, data in rendered.items() if p.startswith(f"{scope}/")}
    problems = []
    for path, data in rendered.items():
        target = folder / path
        if not target.is_file():
            problems.append(f"{target}: missing")
        elif target.read_bytes() != data:
            problems.append(f"{target}: differs from a fresh export")
    known = {folder / path for path in rendered}
    problems.extend(f"{extra}: not part of the export"
                    for extra in sorted((folder / scope).rglob("*.json")) if extra not in known)
    return problems


def _variants(variant: str | None) -> list[str]:
    known = list(variant_ids())
    if variant is None:
        return known
    if variant not in known:
        raise ConformanceError(f"unknown variant {variant!r} (known: {', '.join(known)})")
    return [variant]


def run_export(out: str | None, check: str | None, examples: int | None,
               variant: str | None) -> int:
    """``dominokit export``: write the vectors to ``out``, or with ``check`` compare that
    folder with a fresh export of what its manifest names (exit 1 on drift)."""
    if examples is not None and examples < 1:
        raise ConformanceError(f"--examples must be at least 1, not {examples}")
    if check is not None:
        return _check(Path(check), examples, variant)
    assert out is not None
    started = time.monotonic()
    variants = _variants(variant)
    try:  # before the work: a folder that cannot be made is told at once
        Path(out).mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ConformanceError(f"{out}: cannot write the vectors: {error}") from None
    rendered = render(variants, examples or DEFAULT_EXPORT_EXAMPLES)
    try:
        write(Path(out), rendered)
    except OSError as error:
        raise ConformanceError(f"{out}: cannot write the vectors: {error}") from None
    size = sum(len(data) for data in rendered.values())
    print(f"{out}: {len(rendered)} files, {size / 1e6:.1f} MB, "
          f"{time.monotonic() - started:.0f} s")
    return ExitStatus.OK


def _check(folder: Path, examples: int | None, variant: str | None) -> int:
    manifest = folder / MANIFEST
    try:
        stated = json.loads(manifest.read_text(encoding="utf-8"))
        examples = examples or int(stated["examples"])
        variants = _variants(variant) if variant else [str(v) for v in stated["variants"]]
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise ConformanceError(f"{manifest}: not a vectors manifest: {error}") from None
    unknown = [name for name in variants if name not in variant_ids()]
    if unknown:
        raise ConformanceError(f"{manifest}: names unknown variants: {', '.join(unknown)}")
    problems = drift(folder, render(variants, examples), variant or "")
    for problem in problems:
        print(f"dominokit export --check: {problem}", file=sys.stderr)
    if problems:
        print(f"{folder}: the vectors drifted from a fresh export; rewrite them with "
              f"dominokit export --out {folder} --examples {examples}", file=sys.stderr)
        return ExitStatus.FAILED
    print(f"{folder}: the vectors match a fresh export")
    return ExitStatus.OK
