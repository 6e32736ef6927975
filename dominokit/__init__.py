"""dominokit: the rules of four Polish domino games (and a fifth), a reference engine, and a
conformance kit that tests any engine against them.

The package's one short import is the kit's Python API::

    from dominokit import conform
    report = conform("python3 my_engine.py", variant="szczerbak")
    assert report.ok, report.summary_line()

``conform`` and what it returns are imported on first use, so ``import dominokit.spec`` or
``dominokit.reference`` costs nothing of the kit.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from dominokit.conformance.api import EngineObject, Report, conform

__all__ = ["EngineObject", "Report", "conform"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from dominokit.conformance import api

        return getattr(api, name)
    raise AttributeError(f"module 'dominokit' has no attribute {name!r}")
