"""A reading that ``--diagnose`` found, in the words the terminal prints.

Kept apart from ``run.readings`` (which runs the reference under each reading) so that the
terminal, which only prints, imports nothing that runs cases.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any


def sentence(reading: Mapping[str, Any]) -> str:
    """``your engine breaks a tied block in favour of the starter: the alternative reading of
    R-ALL-06`` (an option: which value it plays and what its hello declared)."""
    if "option" in reading:
        ((name, value),) = reading["option"].items()
        declared = reading.get("declared")
        said = (f"; its hello declared {name}: {json.dumps(declared)}"
                if declared is not None else "")
        return (f"your engine {reading['says']}, whatever the request asks: the option behind "
                f"{reading['rule']}{said}")
    return f"your engine {reading['says']}: the alternative reading of {reading['rule']}"
