"""The benchmark's sections and the shape of what each one measures.

A section is a module of ``dominokit.bench`` defining ``SECTION``. Its ``run``
returns figures (a rate, median and spread over runs) and ratios (two contenders timed in the
same runs, interleaved), which the command prints as a table and writes as JSON.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

Out = Callable[[str], None]
"""Where a section reports progress (one line at a time)."""


@dataclass(frozen=True)
class Figure:
    """One measured rate: the median over ``runs`` runs, and the slowest and fastest run."""

    label: str
    unit: str
    median: float
    low: float
    high: float
    runs: int

    def to_json(self) -> dict[str, Any]:
        """The figure object of the benchmark JSON."""
        return {"label": self.label, "unit": self.unit, "median": self.median,
                "min": self.low, "max": self.high, "runs": self.runs}


@dataclass(frozen=True)
class Ratio:
    """``numerator`` over ``denominator`` per run (same run, interleaved): median and spread.

    ``target`` is the least ratio the project aims for (None: reported, no target); ``met``
    compares the median with it.
    """

    label: str
    median: float
    low: float
    high: float
    runs: int
    target: float | None = None

    @property
    def met(self) -> bool | None:
        """Whether the median reaches the target; None when there is no target."""
        return None if self.target is None else self.median >= self.target

    def to_json(self) -> dict[str, Any]:
        """The ratio object of the benchmark JSON."""
        return {"label": self.label, "median": self.median, "min": self.low,
                "max": self.high, "runs": self.runs, "target": self.target, "met": self.met}


@dataclass
class SectionResult:
    """What a section measured, plus notes (a contender skipped, how a figure is bounded)."""

    figures: list[Figure] = field(default_factory=list)
    ratios: list[Ratio] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Section:
    """One part of the benchmark: ``order`` is its number in the benchmark's list of sections."""

    name: str
    order: int
    title: str
    run: Callable[[bool, Out], SectionResult]
    """``run(quick, out)``: measure (briefly under ``quick``) and return the results."""


def sections() -> list[Section]:
    """Every section defined in this package, in order."""
    import dominokit.bench as package

    found: list[Section] = []
    for info in pkgutil.iter_modules(package.__path__):
        module = importlib.import_module(f"{package.__name__}.{info.name}")
        section = getattr(module, "SECTION", None)
        if isinstance(section, Section):
            found.append(section)
    return sorted(found, key=lambda s: (s.order, s.name))
