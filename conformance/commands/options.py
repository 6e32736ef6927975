"""The one reader of ``--option NAME=VALUE`` for every command (``play``, ``perft``,
``trace record``).

The values stay text here: resolving them against a variant (``spec.resolve_options``) checks
the names and types them (``hand_size=14`` becomes the number 14). An option given twice is
refused rather than the last one silently winning, since the user meant one of them.
"""

from __future__ import annotations

from collections.abc import Sequence

from dominokit.reference.errors import OptionError


def parse_option_pairs(pairs: Sequence[str]) -> dict[str, str]:
    """``{name: value}`` from ``name=value`` strings; ``OptionError`` for one that is not of
    that form, or a name given twice."""
    out: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name:
            raise OptionError(f"option {pair!r} is not of the form name=value")
        if name in out:
            raise OptionError(f"option {name!r} given twice")
        out[name] = value
    return out
