"""How reading a rule file fails: the error family's base, and the spec's own errors.

The code that loads and checks rule files lives in ``dominokit.spec`` and must not import the
engine, so the errors it raises live here; ``dominokit.reference.errors`` re-exports them beside
the engine's own, so every error the project raises still shares one base class.
"""

from __future__ import annotations

from dataclasses import dataclass


class DominokitError(Exception):
    """Base of every error the project raises on purpose."""


@dataclass(frozen=True)
class SpecProblem:
    """One problem in a YAML or JSON file, located by 1-based line and column. Line 0 means no
    line is known: the problem is printed ``file: $.path: message``, or ``file: message`` when
    it concerns the file as a whole (``$``: too large, say)."""

    file: str
    line: int
    col: int
    path: str
    message: str

    def __str__(self) -> str:
        if self.line == 0:
            where = "" if self.path == "$" else f" {self.path}:"
            return f"{self.file}:{where} {self.message}"
        return f"{self.file}:{self.line}:{self.col}: {self.path}: {self.message}"


class SpecError(DominokitError):
    """A variant (or other spec) file is malformed; carries every problem found."""

    def __init__(self, problems: list[SpecProblem]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


class OptionError(DominokitError, ValueError):
    """An unknown variant option, or a value the option does not allow."""
