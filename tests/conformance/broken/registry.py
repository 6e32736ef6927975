"""Every broken engine of the corpus, collected from every module of ``tests/conformance/broken/``.

A broken engine is a ``Broken`` subclass that names the rule it breaks (``rule``); abstract
helpers (``Mutant``, ``ListingPatch``) name none. Modules are found with ``pkgutil``, so a new
module joins the corpus by being added to the folder, with no list to edit. A module that
fails to import fails loudly: a silently skipped module would be mutants nobody runs.
"""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType

import tests.conformance.broken
from tests.conformance.broken.engines import Broken

NOT_ENGINES = frozenset({"registry", "verdict", "catalogue"})
"""Modules of the package that hold the corpus's tooling, not engines."""


def modules() -> list[ModuleType]:
    """Every engine module of the package, in name order."""
    names = sorted(info.name for info in pkgutil.iter_modules(tests.conformance.broken.__path__)
                   if info.name not in NOT_ENGINES)
    return [importlib.import_module(f"tests.conformance.broken.{name}") for name in names]


def collect() -> dict[str, type[Broken]]:
    """Every broken engine by class name; two engines may not share a name."""
    found: dict[str, type[Broken]] = {}
    for module in modules():
        for name, value in vars(module).items():
            if not (isinstance(value, type) and issubclass(value, Broken)
                    and value.__module__ == module.__name__ and "rule" in _declared(value)):
                continue
            if name in found and found[name] is not value:
                raise ValueError(f"two broken engines are called {name}: "
                                 f"{found[name].__module__} and {module.__name__}")
            found[name] = value
    return dict(sorted(found.items()))


def _declared(cls: type) -> set[str]:
    """Class attributes set on ``cls`` or a base below ``Broken`` (not just annotated)."""
    return {key for klass in cls.__mro__ if klass is not Broken for key in vars(klass)}


BROKEN: dict[str, type[Broken]] = collect()
"""Every broken engine by class name (``python:<module>:NAME`` loads one)."""
