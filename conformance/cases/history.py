"""The suite's history: which release added or last changed each case, and what it says.

``CHANGELOG.md`` is the source: one section per suite version, and each entry that changes what
cases expect ends with ``Cases:`` and globs over case ids. A case's ``since`` is the newest
release with an entry naming it. ``conformance/history.json`` is what the wheel carries of it
(the changelog itself is not shipped): the releases and their entries, and for every case its
``since`` and a fingerprint of its expected content (its kind, variant, options, rules and the
exported vectors that hold what it asks and expects). A fingerprint that changes while the
case's ``since`` does not move is refused by ``build`` (and so by the tests): a case must not
expect something new under an old version number.

Rebuild it from a checkout with ``python -m dominokit.conformance.commands.history --write``.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fnmatch import fnmatchcase
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any

HISTORY_FILE = "history.json"
"""The history's file name inside the ``dominokit.conformance`` package."""


@dataclass(frozen=True)
class Entry:
    """One changelog entry: its release, its section (Added, Changed, ...), its text, and the
    globs of the cases it concerns (none: it concerns no case's expected content)."""

    version: str
    section: str
    text: str
    cases: tuple[str, ...] = ()

    def concerns(self, case_id: str) -> bool:
        return any(fnmatchcase(case_id, glob) for glob in self.cases)

    def to_json(self) -> dict[str, Any]:
        return {"section": self.section, "text": self.text, "cases": list(self.cases)}


@dataclass(frozen=True)
class Release:
    """One released suite version, newest first in a history."""

    version: str
    date: str
    entries: tuple[Entry, ...]

    def to_json(self) -> dict[str, Any]:
        return {"version": self.version, "date": self.date,
                "entries": [entry.to_json() for entry in self.entries]}


@dataclass(frozen=True)
class CaseHistory:
    since: str
    fingerprint: str


@dataclass(frozen=True)
class History:
    """The releases (newest first) and, per case id, its ``since`` and fingerprint."""

    releases: tuple[Release, ...]
    cases: Mapping[str, CaseHistory]

    @property
    def suite_version(self) -> str:
        return self.releases[0].version

    def since(self, case_id: str) -> str | None:
        """The release that added or last changed the case (None: a case it does not know,
        which the tests refuse)."""
        known = self.cases.get(case_id)
        return known.since if known else derive_since(case_id, self.releases)

    def entries(self, case_id: str, newer_than: str) -> list[Entry]:
        """What the releases after ``newer_than`` say about the case, newest first."""
        floor = version_key(newer_than)
        return [entry for release in self.releases if version_key(release.version) > floor
                for entry in release.entries if entry.concerns(case_id)]

    def to_json(self) -> dict[str, Any]:
        return {"suite_version": self.suite_version,
                "releases": [release.to_json() for release in self.releases],
                "cases": {case_id: {"since": known.since, "fingerprint": known.fingerprint}
                          for case_id, known in sorted(self.cases.items())}}


def version_key(version: str) -> tuple[int, ...]:
    """``"2.0.0"`` as ``(2, 0, 0)``, for ordering; ValueError when it is not ``N.N.N``."""
    if not re.fullmatch(r"\d+\.\d+\.\d+", version):
        raise ValueError(f"{version!r} is not a suite version (MAJOR.MINOR.PATCH)")
    return tuple(int(part) for part in version.split("."))


_RELEASE = re.compile(r"^## \[(\d+\.\d+\.\d+)\] - (\d{4}-\d{2}-\d{2})\s*$")
_SECTION = re.compile(r"^### (\w+)\s*$")
_CASES = re.compile(r"\s*Cases:\s*((?:`[^`]+`[,\s]*)+)\.?\s*$")


def parse_changelog(text: str) -> tuple[Release, ...]:
    """The released sections of a Keep a Changelog file, newest first (``Unreleased`` is not a
    release); each entry with the globs of its closing ``Cases:`` line."""
    releases: list[Release] = []
    version = date = section = None
    entries: list[Entry] = []
    bullet: list[str] = []

    def close_bullet() -> None:
        if bullet and version is not None and section is not None:
            words = " ".join(line.strip() for line in bullet)
            globs: tuple[str, ...] = ()
            found = _CASES.search(words)
            if found:
                globs = tuple(re.findall(r"`([^`]+)`", found.group(1)))
                words = words[:found.start()].rstrip()
            entries.append(Entry(version, section, words, globs))
        bullet.clear()

    def close_release() -> None:
        close_bullet()
        if version is not None and date is not None:
            releases.append(Release(version, date, tuple(entries)))
        entries.clear()

    for line in text.splitlines():
        if line.startswith("## "):
            close_release()
            match = _RELEASE.match(line)
            version, date = (match.group(1), match.group(2)) if match else (None, None)
            section = None
        elif line.startswith("### "):
            close_bullet()
            match = _SECTION.match(line)
            section = match.group(1) if match else None
        elif line.startswith("- "):
            close_bullet()
            bullet.append(line[2:])
        elif line.startswith("  ") and bullet:
            bullet.append(line)
        elif line.startswith("[") or not line.strip():
            close_bullet()
    close_release()
    return tuple(releases)


def derive_since(case_id: str, releases: Sequence[Release]) -> str | None:
    """The newest release (``releases`` newest first) with an entry naming ``case_id``."""
    for release in releases:
        if any(entry.concerns(case_id) for entry in release.entries):
            return release.version
    return None


def fingerprint(case: Mapping[str, Any], vectors: Iterable[Mapping[str, Any]]) -> str:
    """A hash of what a case expects: its metadata and the vector bodies that hold its
    requests and expected answers (each vector without its ``cases`` and ``id``, which name
    it rather than say what it expects)."""
    bodies = sorted(json.dumps({k: v for k, v in vector.items() if k not in ("cases", "id")},
                               sort_keys=True) for vector in vectors)
    text = json.dumps({**case, "vectors": bodies}, sort_keys=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def vectors_by_case(root: Path) -> dict[str, list[dict[str, Any]]]:
    """Every exported vector under ``root`` (``<variant>/<kind>.json``), by the case ids that
    it belongs to."""
    out: dict[str, list[dict[str, Any]]] = {}
    for path in sorted(root.glob("*/*.json")):
        for vector in json.loads(path.read_text(encoding="utf-8"))["vectors"]:
            for case_id in vector.get("cases", []):
                out.setdefault(case_id, []).append(vector)
    return out


@dataclass(frozen=True)
class CaseInfo:
    """The metadata of a case that its fingerprint covers."""

    id: str
    kind: str
    variant: str
    options: Mapping[str, object]
    rules: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "kind": self.kind, "variant": self.variant,
                "options": dict(self.options), "rules": list(self.rules)}


def build(cases: Sequence[CaseInfo], releases: Sequence[Release],
          vectors: Mapping[str, list[dict[str, Any]]],
          old: History | None) -> tuple[History, list[str]]:
    """The history of ``cases`` under ``releases``, and the problems that forbid writing it:
    a case no entry names, and a case whose fingerprint changed while its ``since`` stayed
    where it was (the changelog did not move with it)."""
    problems: list[str] = []
    known: dict[str, CaseHistory] = {}
    for case in cases:
        since = derive_since(case.id, releases)
        if since is None:
            problems.append(f"{case.id}: no changelog entry names this case")
            continue
        print_ = fingerprint(case.to_json(), vectors.get(case.id, []))
        before = old.cases.get(case.id) if old is not None else None
        if before is not None and before.fingerprint != print_ and before.since == since:
            problems.append(
                f"{case.id}: its expected content changed (fingerprint {before.fingerprint} -> "
                f"{print_}) but its since is still {since}: add an entry naming it to the "
                "next release's section of CHANGELOG.md (and bump SUITE_VERSION)")
        known[case.id] = CaseHistory(since, print_)
    return History(tuple(releases), known), problems


def dead_globs(case_ids: Sequence[str], releases: Sequence[Release]) -> list[str]:
    """Changelog globs that name no case (a typo, or cases since renamed)."""
    return [f"CHANGELOG.md {release.version}: `{glob}` names no case"
            for release in releases for entry in release.entries for glob in entry.cases
            if not any(fnmatchcase(case_id, glob) for case_id in case_ids)]


def from_json(data: Mapping[str, Any]) -> History:
    releases = tuple(
        Release(r["version"], r["date"],
                tuple(Entry(r["version"], e["section"], e["text"], tuple(e["cases"]))
                      for e in r["entries"]))
        for r in data["releases"])
    cases = {case_id: CaseHistory(c["since"], c["fingerprint"])
             for case_id, c in data["cases"].items()}
    return History(releases, cases)


@cache
def load() -> History:
    """The history the kit was shipped with."""
    resource = files("dominokit.conformance").joinpath(HISTORY_FILE)
    return from_json(json.loads(resource.read_text(encoding="utf-8")))
