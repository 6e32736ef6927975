"""A did-you-mean for a misspelt name: ``--variant szczerbk`` should point at ``szczerbak``."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """``"; did you mean 'szczerbak'?"`` for the closest choice, or ``""`` when none is close."""
    found = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.7)
    return f"; did you mean {found[0]!r}?" if found else ""
