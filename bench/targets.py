"""The project's speed targets, each beside the figure of this run that measures it.

``dominokit bench`` ends with this table (and ``--json`` carries it as ``targets``): for each
target the figure, met or not, and for a target not met the measured gap ("0.11x, needs 0.5x:
4.5x short") and what bounds it, from a profile: of the reference replaying the block game's
playouts (the engine's targets) and of the kit on the recorded-table campaign (the kit's,
from section 6's notes). A target whose section did not run says so, and one the bench does
not measure says where it is measured.
"""

from __future__ import annotations

import cProfile
import pstats
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

TODAY_PIJANOWSKI = 10_853
"""Pijanowski's mid-game 12x12 legal-action rate "today": positions/s of the full run on
docs/performance.md (2026-12-02, quiet machine) before the targets were set at 3x it."""
PIJANOWSKI_TARGET = 3.0
TODAY_KIT = 160.0
"""The kit's hands per CPU second on the recorded-table campaign "today": section 6 with the
tree of the commit before this section existed as its baseline (2026-12-02, the median of 3
runs of 600 hands, load average about 4; earlier runs of that tree the same hour: 133 to 182).
Section 6 measures it again, beside this checkout, when ``DOMINOKIT_BENCH_BASELINE`` names
that tree, and the target then uses the ratio of the same run."""
KIT_TARGET = 5.0
FLOOR_TARGET = 2.0
"""Most a request may take on average over a campaign, in echo-floor round trips."""
CAMPAIGN_SPEED_UP = 1.8
CONFORM_SECONDS = 10.0
TESTS_SECONDS = 240.0
BOUND_LINES = 4
"""Profile lines quoted as the bound of a target not met."""

Report = dict[str, Any]


@dataclass(frozen=True)
class Target:
    """One row: the target, the figure (text), met (None: not measured here), the gap and
    what bounds it (both empty when met or not measured)."""

    target: str
    figure: str
    met: bool | None
    gap: str = ""
    bound: str = ""

    def to_json(self) -> dict[str, Any]:
        """The target object of the benchmark JSON."""
        return {"target": self.target, "figure": self.figure, "met": self.met,
                "gap": self.gap, "bound": self.bound}


def _x(value: float) -> str:
    return f"{value:.3g}x"


def at_least(target: str, value: float, goal: float, figure: str, bound: str) -> Target:
    """A row for a ratio that must reach ``goal``."""
    if value >= goal:
        return Target(target, figure, True)
    return Target(target, figure, False,
                  f"{_x(value)}, needs {_x(goal)}: {_x(goal / value)} short", bound)


def at_most(target: str, value: float, goal: float, figure: str, bound: str,
            unit: str = "x") -> Target:
    """A row for a figure that must stay at or under ``goal``."""
    if value <= goal:
        return Target(target, figure, True)
    return Target(target, figure, False,
                  f"{value:.3g}{unit}, needs at most {goal:.3g}{unit}: "
                  f"{_x(value / goal)} over", bound)


def _section(report: Report, name: str) -> Report | None:
    return next((s for s in report["sections"] if s["name"] == name), None)


def _ratio(section: Report | None, label: str) -> Report | None:
    if section is None:
        return None
    return next((r for r in section["ratios"] if r["label"] == label), None)


def _figure(section: Report | None, label: str) -> Report | None:
    if section is None:
        return None
    return next((f for f in section["figures"] if f["label"] == label), None)


def _not_run(target: str, section: str) -> Target:
    return Target(target, f"not measured: section {section} did not run", None)


def reference_profile(hands: int = 100, top: int = BOUND_LINES) -> str:
    """What the reference spends replaying the block game's playouts (cProfile, own time)."""
    from dominokit.bench.playouts import block_game, record, reference_work
    from dominokit.conformance.cases import oracle

    block = block_game()
    if block is None:
        return ""
    rules = oracle.rules_of(block, {})
    work = reference_work(rules, [record(rules, seed) for seed in range(hands)])
    return "profile of the reference replaying block playouts: " + _profiled(work, top)


def pijanowski_profile(positions: int = 30, top: int = BOUND_LINES) -> str:
    """What the reference spends listing Pijanowski's mid-game 12x12 legal actions."""
    from dominokit.bench.pijanowski import _board_option_sets, legal_work, mid_game
    from dominokit.conformance.cases import oracle

    for variant, options in _board_option_sets():
        rules = oracle.rules_of(variant, options)
        if rules.table.rows == 12 and rules.table.cols == 12:
            work = legal_work([mid_game(rules, seed) for seed in range(positions)])
            return ("profile of the reference listing 12x12 mid-game legal actions: "
                    + _profiled(partial(_repeat, work, 5), top))
    return ""


def _repeat(work: Callable[[], int], times: int) -> int:
    return sum(work() for _ in range(times))


def _profiled(work: Callable[[], int], top: int) -> str:
    profiler = cProfile.Profile(time.process_time)
    profiler.runcall(work)
    stats = pstats.Stats(profiler)
    rows = sorted(stats.stats.items(), key=lambda item: -item[1][2])  # type: ignore[attr-defined]
    total = sum(row[2] for _, row in rows) or 1.0
    parts = []
    for (path, line, name), (_, calls, own, _, _) in rows[:top]:
        where = name if path == "~" else f"{name} ({Path(path).name}:{line})"
        parts.append(f"{where} {100 * own / total:.0f}% ({calls:,} calls)")
    return "; ".join(parts) + " (own time, under cProfile)"


def kit_profile(section: Report | None, top: int = BOUND_LINES) -> str:
    """The kit's profile on the recorded-table campaign, from section 6's notes."""
    from dominokit.bench.kitspeed import PROFILE_NOTE

    if section is None:
        return ""
    lines = [n.removeprefix(PROFILE_NOTE) for n in section["notes"]
             if n.startswith(PROFILE_NOTE)]
    areas = [line for line in lines if "% (" in line and "own time" not in line]
    return ("profile of the kit on the recorded-table campaign (CPU, under cProfile): "
            + "; ".join(areas[:top + 2])) if areas else ""


def targets(report: Report, quick: bool,
            profile: Callable[[], str] = reference_profile,
            board_profile: Callable[[], str] = pijanowski_profile) -> list[Target]:
    """Every target, from the report's sections (see the module docstring)."""
    from dominokit.bench import kitspeed, playouts

    rows: list[Target] = []
    plays = _section(report, "playouts")
    block = playouts.block_game() or "classic_block"
    engine_bound: list[str] = []

    def bound() -> str:
        if not engine_bound:
            engine_bound.append(profile())
        return engine_bound[0]

    for name, goal in playouts.TARGETS.items():
        target = f"reference >= {_x(goal)} {name} ({block}, actions/s, same hands and choices)"
        found = _ratio(plays, f"reference / {name} (actions/s, {block})")
        if plays is None:
            rows.append(_not_run(target, "playouts"))
        elif found is None:
            skipped = [n for n in plays["notes"] if n.startswith(f"{name} skipped")]
            rows.append(Target(target, skipped[0] if skipped else "not measured", None))
        else:
            rows.append(at_least(target, found["median"], goal, _x(found["median"]),
                                 bound() if found["median"] < goal else ""))
    chain_target = f"chain games within 1.5x of {block} (ratio >= {_x(playouts.CHAIN_TARGET)})"
    chains = [] if plays is None else [r for r in plays["ratios"]
                                       if r["label"].endswith("(reference actions/s)")]
    if not chains:
        rows.append(_not_run(chain_target, "playouts"))
    else:
        low = min(r["median"] for r in chains)
        span = f"{_x(low)} .. {_x(max(r['median'] for r in chains))}"
        rows.append(at_least(chain_target, low, playouts.CHAIN_TARGET, span,
                             bound() if low < playouts.CHAIN_TARGET else ""))
    board = _figure(_section(report, "pijanowski"),
                    "pijanowski 12x12 mid-game: legal-action generation: positions/s")
    board_target = (f"Pijanowski mid-game 12x12 legal actions >= {PIJANOWSKI_TARGET:g}x today's "
                    f"{TODAY_PIJANOWSKI:,} positions/s")
    if board is None:
        rows.append(_not_run(board_target, "pijanowski"))
    else:
        times = board["median"] / TODAY_PIJANOWSKI
        rows.append(at_least(board_target, times, PIJANOWSKI_TARGET,
                             f"{board['median']:,.0f} positions/s ({_x(times)})",
                             board_profile() if times < PIJANOWSKI_TARGET else ""))
    rows += _kit_rows(report, quick, kitspeed)
    rows += _parallel_rows(report, quick)
    rows.append(Target(f"the README's test command under {TESTS_SECONDS / 60:g} minutes wall "
                       "on two cores", "measured outside the bench: see docs/performance.md",
                       None))
    return rows


def _kit_rows(report: Report, quick: bool, kitspeed: Any) -> list[Target]:
    kit = _section(report, "kit")
    rate_target = (f"the kit >= {KIT_TARGET:g}x today's hands per kit CPU second on a campaign "
                   f"(recorded-table engine, same seeds; today {TODAY_KIT:g} hands/s)")
    floor_target = (f"a request at most {FLOOR_TARGET:g}x the echo floor's round trip, on "
                    "average over a campaign (recorded-table engine)")
    if kit is None:
        return [_not_run(rate_target, "kit"), _not_run(floor_target, "kit")]
    bound = kit_profile(kit)
    rows = []
    live = _ratio(kit, kitspeed.OVER_BASELINE)
    rate = _figure(kit, f"{kitspeed.TABLE}: {kitspeed.RATE}")
    assert rate is not None
    if live is not None:
        times, how = live["median"], "against the baseline in this run"
    else:
        times, how = rate["median"] / TODAY_KIT, f"against {TODAY_KIT:g}"
    figure = f"{rate['median']:,.0f} hands/s ({_x(times)} {how})"
    rows.append(_quick(at_least(rate_target, times, KIT_TARGET, figure, bound), quick))
    over = _ratio(kit, kitspeed.OVER_FLOOR)
    assert over is not None
    rows.append(_quick(at_most(floor_target, over["median"], FLOOR_TARGET,
                               f"{_x(over['median'])} the floor", bound), quick))
    return rows


def _quick(row: Target, quick: bool) -> Target:
    """Under ``--quick`` a figure shows the mechanics, not the speed: no verdict."""
    if not quick:
        return row
    return Target(row.target, f"{row.figure} (quick: too short to judge)", None)


def _parallel_rows(report: Report, quick: bool) -> list[Target]:
    rows = []
    target = f"one campaign across cores: -j 2 >= {_x(CAMPAIGN_SPEED_UP)} -j 1 on two cores"
    campaign = _section(report, "campaign")
    found = None if campaign is None else next(
        (r for r in campaign["ratios"] if "-j 2" in r["label"] and "-j 1" in r["label"]), None)
    if found is None:
        rows.append(Target(target, "not measured in this section", None))
    else:
        rows.append(_quick(at_least(target, found["median"], CAMPAIGN_SPEED_UP,
                                    _x(found["median"]), ""), quick))
    target = (f"the default conform against the reference under {CONFORM_SECONDS:g} s wall "
              "on two cores")
    conform = _section(report, "conform")
    walls = [] if conform is None else [
        f for f in conform["figures"] if f["label"].startswith("conform -j ")
        and f["label"].endswith(": wall time")]
    cpus = report["machine"].get("cpus") or 2
    default = next((f for f in walls if f["label"] == f"conform -j {cpus}: wall time"), None)
    if conform is None or default is None:
        rows.append(_not_run(target, "conform"))
    elif quick:
        rows.append(Target(target, f"{default['median']:.1f} s (quick: a small selection, "
                           "not the default run)", None))
    else:
        rows.append(at_most(target, default["median"], CONFORM_SECONDS,
                            f"{default['median']:.1f} s (-j auto: {cpus} workers)",
                            "section 4: the kit's share of an in-process run, and the "
                            "profile of the kit above", unit=" s"))
    return rows


def render_text(rows: Sequence[Target]) -> str:
    """The target table for the terminal."""
    lines = ["targets:"]
    for row in rows:
        verdict = {True: "met", False: "NOT met", None: "-"}[row.met]
        lines.append(f"   [{verdict}] {row.target}: {row.figure}")
        if row.gap:
            lines.append(f"       gap: {row.gap}")
        if row.bound:
            lines.append(f"       bound: {row.bound}")
    return "\n".join(lines)


def render_markdown(rows: Sequence[Target]) -> str:
    """The target table for the Performance page."""
    out = ["### Targets", "", "| target | figure | met | gap | what bounds it |",
           "|---|---|---|---|---|"]
    for row in rows:
        verdict = {True: "yes", False: "**no**", None: "not judged"}[row.met]
        out.append(f"| {row.target} | {row.figure} | {verdict} | {row.gap} | "
                   f"{row.bound.replace('|', '/')} |")
    return "\n".join(out) + "\n"
