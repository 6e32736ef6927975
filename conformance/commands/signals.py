"""How every command stops on a supervisor's signal: once, cleanly, within a grace period.

Ctrl-C (SIGINT), SIGTERM and SIGHUP all raise ``KeyboardInterrupt`` in the main thread, so a
command stops the same way whichever came: the engines closed and every process they started
killed, the reports written with what ran, status 2. The **first** signal starts that
clean-up; from then on every later one, of any of the three, is ignored until the process
exits, so a supervisor that insists (a second Ctrl-C, SIGTERM after Ctrl-C, forty SIGTERMs 20
ms apart) can neither cut the clean-up short (no reports, engines left frozen) nor turn the
status into 143. The handlers are left so on purpose: restoring them before the process exits
is what let a late signal kill it.

The clean-up is bounded: if it has not finished ``GRACE_SECONDS`` after the first signal
(a report on a hung network file system, say), a watchdog kills every engine the kit started
and ends the process with status 2, saying so. SIGKILL still ends everything at once; on Linux
the engines then die with the kit (``kit.containment.die_with_parent``).
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from collections.abc import Iterator
from types import FrameType
from typing import Any, Final

from dominokit.conformance.exit_status import ExitStatus

__all__ = ["GRACE_SECONDS", "STOP_SIGNALS", "stop_signals"]

STOP_SIGNALS: Final = ("SIGINT", "SIGTERM", "SIGHUP")
"""Signals that stop a command as Ctrl-C does (cleanly, reports written), where they exist."""

GRACE_SECONDS: Final = 15.0
"""Seconds the clean-up after the first stop signal may take (closing engines: at most 2 s
each; a worker pool: at most 10 s) before the watchdog ends the process with status 2."""


def _give_up() -> None:
    """The watchdog: the clean-up overran its grace period. Kill what the kit started and
    end the process (no exception could reach the main thread from here)."""
    with contextlib.suppress(Exception):
        from dominokit.conformance.kit import containment

        containment.kill_all()
    with contextlib.suppress(Exception):
        sys.stderr.write(f"dominokit: the clean-up after the signal took longer than "
                         f"{GRACE_SECONDS:g} s; every engine was killed, and the reports may "
                         f"be missing\n")
        sys.stderr.flush()
    os._exit(ExitStatus.INTERRUPTED)


@contextlib.contextmanager
def stop_signals() -> Iterator[None]:
    """Within this context the stop signals raise ``KeyboardInterrupt`` (the first only; see
    the module docstring). The previous handlers come back on leaving it only if no signal
    came; after one, the process is ending and later signals stay ignored."""
    previous: dict[int, Any] = {}
    state: dict[str, threading.Timer] = {}

    def interrupt(signum: int, frame: FrameType | None) -> None:
        for caught in previous:
            signal.signal(caught, signal.SIG_IGN)
        watchdog = threading.Timer(GRACE_SECONDS, _give_up)
        watchdog.daemon = True
        watchdog.start()
        state["watchdog"] = watchdog
        raise KeyboardInterrupt(signal.Signals(signum).name)

    for name in STOP_SIGNALS:
        signum = getattr(signal, name, None)
        if signum is None:
            continue
        with contextlib.suppress(ValueError):  # not the main thread: leave signals alone
            previous[signum] = signal.signal(signum, interrupt)
    try:
        yield
    finally:
        watchdog = state.get("watchdog")
        if watchdog is None:
            for signum, handler in previous.items():
                signal.signal(signum, handler)
        else:
            with contextlib.suppress(Exception):  # the engines, wherever the signal left them
                from dominokit.conformance.kit import containment

                containment.kill_all()
            watchdog.cancel()
