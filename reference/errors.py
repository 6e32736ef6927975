"""Every way the reference engine refuses input, as one small exception family.

Each error says what was wrong, where, and under which rule, so that the CLI can print it as
one line instead of a traceback and the conformance kit can compare the rule an engine cites.
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


class NotationError(DominokitError, ValueError):
    """Text that is not a canonical action (or tile) in the spec's notation."""


class DealError(DominokitError, ValueError):
    """A deal that does not fit the variant: wrong tiles, sizes, widow or starter."""

    def __init__(self, message: str, rule: str | None = None) -> None:
        self.rule = rule
        self.reason = message
        """The message without the rule (for replies that carry the rule in a field)."""
        super().__init__(f"{message} ({rule})" if rule else message)


class IllegalActionError(DominokitError, ValueError):
    """An action the rules forbid in this state; names the action and the rule it breaks."""

    def __init__(self, action: str, rule: str, message: str) -> None:
        self.action = action
        self.rule = rule
        self.reason = message
        super().__init__(f"illegal action {action!r}: {message} ({rule})")
