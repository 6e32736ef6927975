"""The case kinds of the conformance suite, one module each, and their registry.

Each kind module has ``cases(variant, params) -> list[Case]``; ``collect`` asks every kind for
every variant, in a fixed order, so case ids and their order are stable from run to run.

- golden: replay each bundled trace step by step (``conformance/traces``)
- perft: count action sequences from fixed positions (``conformance/perft/<variant>.yaml``)
- differential: searched and random hands against the reference, shrunk on failure
- invariants: properties of the engine's own answers (tiles conserved, turns, results)
- rejection: illegal actions from real positions must be refused and change nothing
- requests: bad requests (deals, variants, options, verbs out of place, non-canonical
  notation, lines that are not JSON) must be refused with the reference's code and change
  nothing
- match: whole matches, searched to reach third sets, exact targets and tiebreaks
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fnmatch import fnmatchcase
from typing import Final

from dominokit.conformance.cases.model import Case, ConformanceError
from dominokit.spec.suggest import did_you_mean

SUITE_VERSION: Final = "2.0.0"
"""Semantic version of the suite (docs/engines/versions.md): major when a new or stricter case
can fail an engine that conformed to the last release, minor for a case such an engine cannot
fail, patch for wording. It is the newest release of CHANGELOG.md (a test checks)."""

DEFAULT_EXAMPLES: Final = 25
"""Random hands per differential case (``--examples``)."""


@dataclass(frozen=True)
class Params:
    """How big and how seeded the generated cases are (``--examples``, ``--seed``)."""

    examples: int = DEFAULT_EXAMPLES
    seed: int = 0


Collector = Callable[[str, Params], list[Case]]


def _collector(kind: str) -> Collector:
    """The ``cases`` function of one kind's module, imported only when that kind is collected:
    the differential and request kinds pull in much that ``--only 'perft/...'`` never uses."""
    module = importlib.import_module(f"{__name__}.{kind}")
    collector: Collector = module.cases
    return collector


KINDS = ("golden", "perft", "differential", "invariants", "rejection", "requests", "match")
"""The case kinds, in the order a run goes through them."""


def collect_cases(
    variant: str | None = None,
    only: str | Sequence[str] | None = None,
    examples: int = DEFAULT_EXAMPLES,
    seed: int = 0,
    *,
    skip: Sequence[str] = (),
    rules: Sequence[str] = (),
) -> list[Case]:
    """Every case of the suite, in a stable order, narrowed as asked.

    ``variant`` keeps one variant; ``only`` (a glob or several: their union), ``skip`` (globs
    to leave out) and ``rules`` (rule ids or globs, any of which a case must cover) filter the
    case ids. ``examples`` and ``seed`` size and seed the random (differential) cases.
    Collection is cheap: searches for special positions run inside the case bodies.
    """
    from dominokit.reference import variant_ids

    known = variant_ids()
    if variant is not None and variant not in known:
        raise ConformanceError(f"unknown variant {variant!r}{did_you_mean(variant, known)} "
                               f"(known: {', '.join(known)})")
    globs = (only,) if isinstance(only, str) else tuple(only or ())
    cases = collect([variant] if variant else known, examples=examples, seed=seed,
                    only=globs or None)
    seen: set[str] = set()
    for case in cases:
        if case.id in seen:
            raise RuntimeError(f"duplicate case id {case.id!r}")  # a bug in the suite
        seen.add(case.id)
    return [case for case in cases
            if (not globs or any(fnmatchcase(case.id, glob) for glob in globs))
            and not any(fnmatchcase(case.id, glob) for glob in skip)
            and (not rules or any(fnmatchcase(rule, want) for rule in case.rules
                                  for want in rules))]


def collect(variants: Sequence[str], *, examples: int = DEFAULT_EXAMPLES, seed: int = 0,
            only: str | Sequence[str] | None = None) -> list[Case]:
    """Every case of every kind for ``variants`` (kind by kind, then variant by variant).

    ``only``, globs over case ids (``<kind>/<variant>/...``; any of them may match), skips the
    kinds and variants none of whose ids they can match, judged by each glob's literal start:
    collecting a kind runs the reference to learn the rules each case rests on, which
    ``--only 'perft/poldomino/*'`` should not pay for every other kind. The caller still
    filters the ids themselves.
    """
    params = Params(examples, seed)
    return [case for kind in KINDS for variant in variants
            if may_match(only, f"{kind}/{variant}/")
            for case in _collector(kind)(variant, params)]


def may_match(glob: str | Sequence[str] | None, prefix: str) -> bool:
    """False only when no id starting with ``prefix`` can match ``glob`` (or any of several):
    the glob's literal start (up to its first ``*``, ``?`` or ``[``) and the prefix disagree."""
    if glob is None:
        return True
    if not isinstance(glob, str):
        return not glob or any(may_match(one, prefix) for one in glob)
    literal = re.split(r"[*?\[]", glob, maxsplit=1)[0]
    return prefix.startswith(literal) or literal.startswith(prefix)
