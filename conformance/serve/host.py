"""Serve a Python engine object in a worker process: ``python -m dominokit.conformance.serve.host
MODULE:FACTORY``.

``--engine python:MODULE:FACTORY`` runs the engine here rather than in the kit, because only a
process can be held to a deadline and killed: in the kit's own process a hang would hang the
run, and ``sys.exit`` would end it with nothing recorded. The worker imports ``MODULE``, calls
``FACTORY()`` once, and serves the object with ``server.run_engine_server``; the driver starts
it with the caller's ``sys.path`` and working directory, so whatever the caller can import, the
worker can too. Replies go to a private copy of the original stdout, and file descriptor 1 is
pointed at stderr, so nothing the engine prints, in Python, in C or in a child process, can
reach the reply stream.
"""

from __future__ import annotations

import importlib
import os
import sys
import traceback
from collections.abc import Callable, Sequence

from dominokit.conformance.exit_status import ExitStatus

USAGE = "usage: python -m dominokit.conformance.serve.host MODULE:FACTORY"


def parse_target(target: str) -> tuple[str, str]:
    """``MODULE:FACTORY`` split in two; ValueError naming the expected form otherwise."""
    module, _, factory = target.partition(":")
    if not module or not factory or ":" in factory:
        raise ValueError(f"expected MODULE:FACTORY, got {target!r}")
    return module, factory


def load_factory(module_name: str, attribute: str) -> Callable[[], object]:
    """The callable ``module_name.attribute``; ImportError or TypeError saying which is wrong."""
    module = importlib.import_module(module_name)
    factory = getattr(module, attribute, None)
    if not callable(factory):
        raise TypeError(f"{module_name}:{attribute} is not a callable factory")
    return factory  # type: ignore[no-any-return]


def _named_target_missing(error: Exception, module_name: str) -> bool:
    """True when ``error`` says the named module (or a package on its path) or factory does
    not exist, rather than that importing or calling it failed."""
    if isinstance(error, ModuleNotFoundError):
        parts = module_name.split(".")
        return error.name in {".".join(parts[:i]) for i in range(1, len(parts) + 1)}
    return isinstance(error, TypeError) and str(error).endswith("is not a callable factory")


def _private_stdout() -> int:
    """A descriptor for the replies (a duplicate of fd 1, not inherited by children); fd 1
    itself then writes to stderr."""
    replies = os.dup(1)
    os.dup2(2, 1)
    return replies


def main(argv: Sequence[str] | None = None) -> int:
    """Serve the engine that ``MODULE:FACTORY`` builds; the status when it cannot be built is
    ``ExitStatus.USAGE_ERROR`` (the kit reports it as a startup failure, with this stderr)."""
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        if len(args) != 1:
            raise ValueError("expected one argument")
        module_name, attribute = parse_target(args[0])
    except ValueError as error:
        print(f"{USAGE} ({error})", file=sys.stderr)
        return ExitStatus.USAGE_ERROR
    replies = open(_private_stdout(), "w", encoding="utf-8", newline="\n")  # noqa: SIM115
    try:
        factory = load_factory(module_name, attribute)
        engine = factory()
    except Exception as error:
        # A module or factory that is not there is a wrong --engine value: one line says it.
        # Anything raised by the engine's own code (its import, its factory) keeps its
        # traceback, which is what its author needs.
        if not _named_target_missing(error, module_name):
            traceback.print_exc(file=sys.stderr)
        print(f"dominokit host: cannot build the engine {args[0]}: "
              f"{type(error).__name__}: {error}", file=sys.stderr)
        return ExitStatus.USAGE_ERROR
    from dominokit.conformance.serve.server import run_engine_server

    with replies:
        return run_engine_server(engine, stdout=replies)


if __name__ == "__main__":
    sys.exit(main())
