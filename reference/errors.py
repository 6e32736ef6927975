"""Every way the reference engine refuses input, as one small exception family.

Each error says what was wrong, where, and under which rule, so that the CLI can print it as
one line instead of a traceback and the conformance kit can compare the rule an engine cites.
The base class and the errors of reading rule files live in ``dominokit.spec.errors`` (the spec
code does not import the engine) and are re-exported here.
"""

from __future__ import annotations

from dominokit.spec.errors import DominokitError, OptionError, SpecError, SpecProblem

__all__ = [
    "DealError",
    "DominokitError",
    "IllegalActionError",
    "NotationError",
    "OptionError",
    "SpecError",
    "SpecProblem",
]


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
