"""The exit statuses of every ``dominokit`` command, modelled on pytest's ``ExitCode``.

Scripts and CI read these numbers, so each has one meaning across all subcommands and they
never change: a run that found failures is 1 whatever their count (an exit status wraps at
256, so it must never be a count).
"""

from __future__ import annotations

from enum import IntEnum


class ExitStatus(IntEnum):
    """What a ``dominokit`` run ended with."""

    OK = 0
    """Everything passed (or ended as the expectations file says)."""
    FAILED = 1
    """The run finished and found failures: failed or errored cases, bad files."""
    INTERRUPTED = 2
    """Stopped by Ctrl-C, SIGTERM or SIGHUP; the reports hold what ran."""
    INTERNAL_ERROR = 3
    """A bug in dominokit itself."""
    USAGE_ERROR = 4
    """Bad arguments, an unreadable file named on the command line, an engine that will not
    start: nothing was judged."""
    NO_CASES = 5
    """The selection (``--variant``, ``--only``) matched no case."""
