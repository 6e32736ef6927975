"""Section 6: the kit with a near-free engine, on one seeded campaign, against the echo floor.

The campaign is ``--only CASE --examples N`` (``campaign.case_id()``, the block game's default
differential case, with more random hands than are recorded, so hypothesis draws them from the
default seed). It is played first against the reference as a subprocess with every request
line and its reply line kept (``kitrun.py record``); that table is then an engine of its own
(``tableengine.py``), answering each request with the reference's reply to it at the cost of a
dictionary look-up. Round by round, interleaved, each in a fresh process:

- **kit → reference**: the campaign against the reference (the kit's CPU and the engine's);
- **kit → recorded table**: the same campaign against the table: the kit's CPU alone, and its
  wall time per request (everything the kit does for a request, the round trip included);
- **kit → recorded table, baseline**: the same, with the checkout named by the environment
  variable ``DOMINOKIT_BENCH_BASELINE`` first on ``PYTHONPATH`` (an older commit's tree),
  when it is set: before and after in the same run;
- **echo floor**: a bare client writing the table's request lines to ``tableengine.py
  --echo`` (one fixed reply line, the engine in a session of its own as the driver starts
  every engine) and reading each reply line: the pipe round trip and nothing else.

Time is the kit process's own CPU (``RUSAGE_SELF`` around the campaign) and the engine's
(``RUSAGE_CHILDREN``), so the machine's load changes little; the round trips are wall time. A
last run of the table campaign under cProfile lists what the kit spends its time on.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from dominokit.bench.registry import Out, Section, SectionResult
from dominokit.bench.timing import figure, last_json_line, ratio

HANDS, QUICK_HANDS = 600, 30
"""Random hands of the campaign (a quick run's: just over the recorded 25, so that hypothesis
draws them as in any campaign)."""
ROUNDS = 3
FLOOR_REQUESTS = 20_000
"""Round trips the echo floor times at most (the table's first requests)."""
BASELINE = "DOMINOKIT_BENCH_BASELINE"
"""The environment variable naming another checkout to time beside this one."""
RUNNER = Path(__file__).with_name("kitrun.py")
ENGINE = Path(__file__).with_name("tableengine.py")
PROFILE_NOTE = "profile of the kit (recorded table, CPU time): "
"""How a note carrying one profile line starts (the target table reads them)."""

REFERENCE = "kit → reference"
TABLE = "kit → recorded table"
OLD_TABLE = "kit → recorded table, baseline"
FLOOR = "echo floor"
RATE = "hands per CPU second of the kit"
PER_REQUEST = "time per request, wall (us)"
FLOOR_LABEL = f"{FLOOR}: round trip, wall (us)"
OVER_FLOOR = f"{TABLE}: time per request over the {FLOOR}'s round trip"
OVER_BASELINE = f"{TABLE}: this checkout over the baseline ({RATE})"


def campaign(mode: str, table: Path, case: str, hands: int, *, tree: str | None = None,
             profile: bool = False) -> dict[str, Any]:
    """One run of ``kitrun.py`` in a fresh process (``tree`` first on its path: the checkout
    measured; default this one's); its figures, RuntimeError when it fails or does not pass."""
    argv = [sys.executable, str(RUNNER), mode, str(table), case, str(hands)]
    import dominokit

    own = str(Path(dominokit.__file__).resolve().parent.parent)  # the checkout running now
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in (tree, own, env.get("PYTHONPATH")) if p)
    return last_json_line(argv + (["--profile"] if profile else []),
                          f"the campaign ({mode})", env)


def requests_of(table: Path) -> list[bytes]:
    """The request lines of a recorded table, in order."""
    return table.read_bytes().splitlines(keepends=True)[0::2]


def floor(lines: list[bytes]) -> float:
    """Seconds per round trip (wall) of a bare client sending ``lines`` to the echo."""
    echo = subprocess.Popen([sys.executable, str(ENGINE), "--echo"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, start_new_session=True)
    assert echo.stdin is not None and echo.stdout is not None
    out, back = echo.stdin.fileno(), echo.stdout.fileno()
    try:
        os.write(out, lines[0])  # started and answering before the clock starts
        os.read(back, 65536)
        began = time.perf_counter()
        for line in lines:
            view = memoryview(line)
            while view:
                view = view[os.write(out, view):]
            reply = os.read(back, 65536)
            while not reply.endswith(b"\n"):
                reply += os.read(back, 65536)
        return (time.perf_counter() - began) / len(lines)
    finally:
        echo.stdin.close()
        echo.wait(5.0)
        echo.stdout.close()


def run(quick: bool, out: Out) -> SectionResult:
    """Record the campaign, then time it against the reference, the table (and a baseline)
    and the echo floor, interleaved; then profile the kit on the table."""
    from dominokit.bench.campaign import case_id

    case = case_id()
    hands = QUICK_HANDS if quick else HANDS
    rounds = ROUNDS
    baseline = os.environ.get(BASELINE) or None
    result = SectionResult()
    with tempfile.TemporaryDirectory(prefix="dominokit-bench-") as folder:
        table = Path(folder) / "table.txt"
        recorded = campaign("record", table, case, hands)
        lines = requests_of(table)[:FLOOR_REQUESTS]
        out(f"  recorded {recorded['requests']:,} requests of {hands:,} hands")
        ways = {REFERENCE: lambda: campaign("reference", table, case, hands),
                TABLE: lambda: campaign("replay", table, case, hands)}
        if baseline:
            ways[OLD_TABLE] = lambda: campaign("replay", table, case, hands, tree=baseline)
        names = [*ways, FLOOR]
        runs: dict[str, list[dict[str, Any]]] = {name: [] for name in ways}
        trips: list[float] = []
        profiled = campaign("replay", table, case, hands, profile=True)
        if quick:  # the mechanics only: the recording and the profiled run stand in
            runs[REFERENCE].append(recorded)
            runs[TABLE].append(profiled)
            rounds = 0
        for i in range(rounds):
            for name in names[i % len(names):] + names[:i % len(names)]:
                if name == FLOOR:
                    trips.append(floor(lines))
                else:
                    runs[name].append(ways[name]())
            out(f"  round {i + 1}/{rounds}: {TABLE} "
                f"{hands / runs[TABLE][-1]['kit_cpu']:,.0f} hands/s of kit CPU, "
                f"{1e6 * runs[TABLE][-1]['wall'] / runs[TABLE][-1]['requests']:.0f} us a "
                f"request; {FLOOR} {1e6 * trips[-1]:.0f} us")
        if quick:
            trips.append(floor(lines))
            if baseline:
                runs[OLD_TABLE].append(ways[OLD_TABLE]())
    rate = {name: [hands / r["kit_cpu"] for r in got] for name, got in runs.items()}
    per_request = {name: [r["wall"] / r["requests"] for r in got] for name, got in runs.items()}
    for name in runs:
        result.figures.append(figure(f"{name}: {RATE}", "hands/s", rate[name]))
        result.figures.append(figure(f"{name}: {PER_REQUEST}", "us",
                                     [1e6 * s for s in per_request[name]]))
    result.figures.append(figure(f"{REFERENCE}: hands per CPU second of the engine", "hands/s",
                                 [hands / max(r["engine_cpu"], 1e-9) for r in runs[REFERENCE]]))
    result.figures.append(figure(f"{TABLE}: the table engine's CPU per request (us)", "us",
                                 [1e6 * r["engine_cpu"] / r["requests"] for r in runs[TABLE]]))
    result.figures.append(figure(FLOOR_LABEL, "us", [1e6 * s for s in trips]))
    result.ratios.append(ratio(OVER_FLOOR, per_request[TABLE], trips))
    result.ratios.append(ratio(f"{TABLE} over {REFERENCE} ({RATE})", rate[TABLE],
                               rate[REFERENCE]))
    if baseline:
        result.ratios.append(ratio(OVER_BASELINE, rate[TABLE], rate[OLD_TABLE]))
    result.notes.append(f"{case} --examples {hands}: {recorded['requests']:,} requests "
                        f"({recorded['requests'] / hands:.0f} a hand); the kit's CPU is its "
                        "process's own around the campaign, the engine's its child's")
    result.notes.append(f"baseline: {baseline}" if baseline else
                        f"no baseline: set {BASELINE} to a checkout to time it beside this one")
    if quick:
        result.notes.append(f"quick: {hands} hands, one run each; {REFERENCE} is the "
                            f"recording run, {TABLE} the profiled run: the mechanics, not "
                            "the rates")
    result.notes += [PROFILE_NOTE + line for line in profiled["profile"]]
    return result


SECTION = Section("kit", 6, "The kit with a near-free engine: a recorded campaign, the echo "
                  "floor", run)
