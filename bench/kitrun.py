"""One seeded campaign through the kit, in a process of its own: recorded, or replayed.

Section 6 (``kitspeed``) runs this file as a script, so that the checkout it measures is the
one first on ``PYTHONPATH`` (the bench's own, or an older one given as a baseline): it needs
nothing of the kit but ``run_suite``, ``collect_cases`` and ``SubprocessEngine``. Two modes:

- ``record TABLE CASE N``: the campaign against the reference as a subprocess, every request
  line and its reply line written to ``TABLE`` (one after the other, a line each);
- ``reference TABLE CASE N``: the same campaign against the reference, nothing kept;
- ``replay TABLE CASE N [--profile]``: the same campaign against ``tableengine.py`` serving
  ``TABLE``, an engine that costs nothing; with ``PROFILE``, the kit runs under cProfile and
  its top entries are reported.

Either prints one JSON line: hands, requests, whether the case passed, the kit's CPU seconds
(``RUSAGE_SELF``, the campaign alone: imports and the engine's start before it are not
counted), the engine's (``RUSAGE_CHILDREN`` once it has ended) and the wall seconds.
"""

from __future__ import annotations

import io
import json
import resource
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

TABLE_ENGINE = Path(__file__).with_name("tableengine.py")
PROFILE_TOP = 8
"""How many of the kit's functions (most time in the function itself first) a profile lists."""


def _cpu(who: int) -> float:
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


def campaign(mode: str, table: Path, case: str, hands: int, profile: bool) -> dict[str, Any]:
    """Run the campaign (see the module docstring) and return its figures."""
    import hypothesis  # noqa: F401  (imported before the clock starts: seconds, once)

    from dominokit.conformance.cases import collect_cases
    from dominokit.conformance.kit.driver import SubprocessEngine
    from dominokit.conformance.kit.engines import REFERENCE_SERVER
    from dominokit.conformance.run.runner import run_suite

    pairs: list[bytes] = []
    requests = [0]

    class Recording(SubprocessEngine):
        """The driver, keeping every request line and the reply line it got."""

        def _exchange(self, proc: Any, data: bytes, deadline: float, cmd: str,
                      seq: int) -> bytes:
            line: bytes = super()._exchange(proc, data, deadline, cmd, seq)
            requests[0] += 1
            if mode == "record":
                pairs.extend((data.rstrip(b"\n") + b"\n", line.rstrip(b"\n") + b"\n"))
            return line

    argv = ([sys.executable, str(TABLE_ENGINE), str(table)] if mode == "replay"
            else list(REFERENCE_SERVER))
    engine = Recording(argv, 30.0)
    cases = collect_cases(only=case, examples=hands)
    profiler = None
    if profile:
        import cProfile

        profiler = cProfile.Profile(time.process_time)  # CPU: what the kit spends
    with tempfile.TemporaryDirectory(prefix="dominokit-bench-") as folder:
        try:
            engine.hello()  # the engine started and greeted before the clock starts
            requests[0] = 0
            kit_began, wall_began = _cpu(resource.RUSAGE_SELF), time.perf_counter()
            if profiler is not None:
                profiler.enable()
            report = run_suite(engine, cases=cases, examples=hands, out=io.StringIO(),
                               report_dir=folder)
            if profiler is not None:
                profiler.disable()
            kit_cpu = _cpu(resource.RUSAGE_SELF) - kit_began
            wall = time.perf_counter() - wall_began
        finally:
            engine.close()
    if mode == "record":
        table.write_bytes(b"".join(pairs))
    return {"hands": hands, "requests": requests[0], "ok": report.ok,
            "summary": report.summary_line(), "kit_cpu": kit_cpu,
            "engine_cpu": _cpu(resource.RUSAGE_CHILDREN), "wall": wall,
            "profile": [] if profiler is None else top_entries(profiler)}


AREAS = (("hypothesis", "hypothesis (drawing the hands)"),
         ("reference", "the reference's answers (dominokit/reference)"),
         ("kit", "the driver (conformance/kit)"), ("wire", "messages (conformance/wire)"),
         ("cases", "the case (conformance/cases)"), ("run", "the runner (conformance/run)"))
"""Where a function's own time is booked, by the first folder of its path that names one."""
OTHER = "other"


def _area(path: str) -> str | None:
    """The area of a function's file (None: the standard library or a built-in, booked to
    whoever called it)."""
    parts = Path(path).parts
    for folder, area in AREAS:
        if folder in parts:
            return area
    return None


def areas(stats: Any) -> dict[str, float]:
    """Seconds of own time per area; a built-in's or the standard library's time goes to its
    callers, in proportion to the time each call edge took (up to a few levels up)."""
    table = stats.stats  # {func: (cc, nc, tt, ct, callers)}
    booked: dict[str, float] = {}

    def book(func: Any, seconds: float, depth: int) -> None:
        area = _area(func[0])
        callers = table.get(func, (0, 0, 0, 0, {}))[4]
        if area is None and callers and depth < 6:
            total = sum(edge[2] for edge in callers.values()) or 1.0
            for caller, edge in callers.items():
                book(caller, seconds * edge[2] / total, depth + 1)
            return
        booked[area or OTHER] = booked.get(area or OTHER, 0.0) + seconds

    for func, row in table.items():
        book(func, row[2], 0)
    return booked


def top_entries(profiler: Any, top: int = PROFILE_TOP) -> list[str]:
    """The kit's CPU by area (built-ins booked to their callers), then the heaviest
    functions by their own time, one line each."""
    import pstats

    stats = pstats.Stats(profiler)
    rows = sorted(stats.stats.items(), key=lambda item: -item[1][2])  # type: ignore[attr-defined]
    total = sum(row[2] for _, row in rows) or 1.0
    out = [f"{area}: {100 * seconds / total:.0f}% ({seconds:.2f} s)"
           for area, seconds in sorted(areas(stats).items(), key=lambda kv: -kv[1])]
    for (path, line, name), (_, calls, own, cumulative, _) in rows[:top]:
        where = name if path == "~" else f"{name} ({Path(path).name}:{line})"
        out.append(f"{where}: {100 * own / total:.1f}% own time ({cumulative:.2f} s with "
                   f"callees), {calls:,} calls")
    return out


if __name__ == "__main__":
    if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
        del sys.path[0]  # run by path: the bench's own modules are not top-level modules
    mode, table_name, case_id, count = sys.argv[1:5]
    wanted = len(sys.argv) > 5 and sys.argv[5] == "--profile"
    print(json.dumps(campaign(mode, Path(table_name), case_id, int(count), wanted)))
