"""Measure where a conformance run spends its time, fast paths side by side with plain ones.

Unlike the other tools here this one does not stand apart from the reference: it times the
kit's own machinery on real answers of the reference engine, so that a change meant to make a
run faster shows its effect in one command, with ratios::

    python -m dominokit.conformance.tools.bench [--case ID] [--examples N] [--hands N]

1. Reply checks: every kind of reply the kit reads, taken from seeded reference hands and
   matches, checked by the generic JSON Schema validator and by what ``check_reply`` does
   instead (equality with the reference's answer, the memo of valid messages, the plain
   reading of a legal list).
2. Legal-action generation per variant: positions per second, and for a board the ratio to a
   scan of every pair of cells through the contact rules (``board.contact_violation``),
   building each action through its checked constructor (the scan also checks the lists).
3. One conformance case end to end against the reference served as a subprocess, once with
   every message through the generic validator and once as a normal run.

It prints figures and asserts nothing: times depend on the machine, verdicts do not (the
tests check that the fast paths give the generic validator's verdicts).
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from functools import partial
from pathlib import Path
from typing import Any

from dominokit.conformance import protocol
from dominokit.conformance.cases import differential, match, oracle, perft, rejection
from dominokit.conformance.driver import open_engine
from dominokit.conformance.runner import DEFAULT_EXAMPLES, Context, collect_cases, run_case
from dominokit.reference import (
    Action,
    HandState,
    board,
    board_plain,
    finish_hand,
    legal_actions,
    new_match,
    random_deal,
    start_hand,
    variant_ids,
)
from dominokit.reference.board_table import BoardTable

JsonObject = dict[str, Any]
Reply = tuple[str, JsonObject, Any]
"""(command, reply as it arrives, the reference's answer the kit compares it with or None)."""

DEFAULT_CASE = "differential/poldomino/default"
"""A chain game: its legal lists are short, so the case times reply checking, not listing."""


def _played(variant: str, options: JsonObject, seed: int) -> oracle.Played:
    rules = oracle.rules_of(variant, options)
    sizes = oracle.hand_sizes(rules)
    deal = oracle.deal_json(rules, seed, sizes[seed % len(sizes)])
    return oracle.play_deal(variant, options, deal, oracle.uniform, random.Random(seed))


def _envelope(cmd: str, answer: Any) -> JsonObject:
    key = protocol.COMMANDS[cmd].result_key
    return {"seq": 1, "result": answer if key is None else {key: answer}}


def sample_replies(hands: int) -> Iterator[Reply]:
    """Replies of every command the runner reads, from seeded reference hands and a match
    per variant. ``legal`` and repeated ``new_hand`` replies are not compared with the
    reference (the legal set is compared as a set; a perft walk re-deals its hand)."""
    for variant in variant_ids():
        for seed in range(hands):
            played = _played(variant, {}, seed)
            start = played.states[0].to_json()
            yield "new_hand", _envelope("new_hand", start), start
            yield "new_hand (again)", _envelope("new_hand", start), None
            for state, events in zip(played.states, played.events, strict=False):
                yield "legal", _envelope("legal", [str(a) for a in legal_actions(state)]), None
                happened = [e.to_json() for e in events]
                yield "apply", _envelope("apply", happened), happened
            for state in played.states[1:]:
                answer = state.to_json()
                yield "state", _envelope("state", answer), answer
        yield from _match_replies(variant)


def _match_replies(variant: str) -> Iterator[Reply]:
    rules = oracle.rules_of(variant, {})
    rng = random.Random(f"bench:{variant}")
    current = new_match(variant, {}, 0)
    answer = current.to_json()
    yield "new_match", _envelope("new_match", answer), answer
    while (plan := current.plan()) is not None:
        deal = random_deal(rules, rng, hand_sizes=plan.hand_sizes, starter=plan.starter)
        state = start_hand(current, deal)
        answer = state.to_json()
        yield "next_hand", _envelope("next_hand", answer), answer
        played = oracle.play(rules, state, oracle.uniform, rng, variant, {}, deal.to_json())
        current, _ = finish_hand(current, played.result)
        answer = current.to_json()
        yield "match_state", _envelope("match_state", answer), answer


def _per_item(items: Sequence[Reply], check: Callable[[Reply], object]) -> float:
    """Seconds per item of ``check`` over ``items`` (best of three passes)."""
    best = float("inf")
    for _ in range(3):
        began = time.perf_counter()
        for item in items:
            check(item)
        best = min(best, time.perf_counter() - began)
    return best / max(len(items), 1)


def _generic(item: Reply) -> None:
    cmd, reply, _ = item
    if protocol.problem(reply, f"{cmd.split()[0]}_reply") is not None:
        raise AssertionError(f"reference reply to {cmd} does not fit the schema")


def _fast(item: Reply) -> None:
    cmd, reply, expect = item
    protocol.check_reply(reply, cmd.split()[0], 1, expect)


def bench_replies(hands: int, out: Callable[[str], None]) -> None:
    """Section 1: generic validation vs ``check_reply`` on real replies, per command."""
    by_cmd: dict[str, list[Reply]] = defaultdict(list)
    for item in sample_replies(hands):
        by_cmd[item[0]].append(item)
    for item in by_cmd["new_hand (again)"]:
        _fast(item)  # the first time a perft walk deals its hand
    out("1. reply checks (real reference replies; generic = JSON Schema validator)")
    out(f"   {'command':18} {'replies':>7} {'generic ms':>11} {'check_reply us':>15} "
        f"{'ratio':>8}  fast path")
    paths = {"legal": "plain reading of the list", "new_hand (again)": "memo of valid messages"}
    for cmd, items in by_cmd.items():
        generic = _per_item(items, _generic)
        fast = _per_item(items, _fast)
        out(f"   {cmd:18} {len(items):7d} {generic * 1e3:11.2f} {fast * 1e6:15.1f} "
            f"{generic / fast:7.0f}x  {paths.get(cmd, 'equal to the reference answer')}")


def _scanned_actions(state: HandState) -> list[Action]:
    """Board placements by definition: every pair of cells, both ways round, through the
    contact rules, each action built by its checked constructor."""
    table = state.table
    assert isinstance(table, BoardTable) and state.to_move is not None
    grid = table.grid
    out = []
    for tile in sorted(set(state.hands[state.to_move])):
        found = set()
        for r, row in enumerate(grid):
            for c in range(len(row)):
                for b in board_plain.neighbours(grid, (r, c)):
                    cells = ((r, c), b)
                    if tile.is_double and b < (r, c):
                        continue
                    pips = (tile.low, tile.high)
                    if board_plain.contact_violation(grid, cells, pips, table.empty) is None:
                        found.add(cells)
        out += [Action.board(tile, a, b) for a, b in sorted(found)]
    return out


def _list_all(states: list[HandState]) -> None:
    for state in states:
        legal_actions(state)


def _scan_all(states: list[HandState]) -> None:
    for state in states:
        _scanned_actions(state)


def _best(run: Callable[[], object]) -> float:
    """Seconds ``run`` takes, best of three."""
    best = float("inf")
    for _ in range(3):
        board._frontier.cache_clear()  # each pass finds every board's frontier afresh
        began = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - began)
    return best


def bench_legal(hands: int, out: Callable[[str], None]) -> None:
    """Section 2: legal-action generation per variant and option setting."""
    out("2. legal-action generation (positions of seeded reference hands)")
    out(f"   {'variant':34} {'positions':>9} {'actions/pos':>11} {'positions/s':>11} "
        f"{'vs rule scan':>12}")
    for variant in variant_ids():
        for options in oracle.option_sets(variant):
            states = [s for seed in range(hands) for s in _played(variant, options, seed).states
                      if s.result is None]
            listed = [legal_actions(s) for s in states]
            seconds = _best(partial(_list_all, states))
            actions = sum(map(len, listed)) / max(len(states), 1)
            label = f"{variant} {oracle.options_slug(options)}"
            ratio = ""
            placing = [(s, [a for a in here if a.tile is not None])
                       for s, here in zip(states, listed, strict=True)
                       if isinstance(s.table, BoardTable) and not s.turn.extra]
            if placing:
                if any(_scanned_actions(s) != here for s, here in placing):
                    raise AssertionError(f"{label}: the rule scan lists other placements")
                boards = [s for s, _ in placing]
                plain = _best(partial(_scan_all, boards))
                fast = _best(partial(_list_all, boards))
                ratio = f"{plain / fast:11.1f}x"
            out(f"   {label:34} {len(states):9d} {actions:11.1f} "
                f"{len(states) / seconds:11.0f} {ratio:>12}")


def _forget_searches() -> None:
    """Empty the per-process caches of searched hands, so each run pays for its search."""
    for cached in (differential.search, match.build, rejection.attempts, perft.positions):
        cached.cache_clear()


def bench_case(case_id: str, examples: int, out: Callable[[str], None]) -> None:
    """Section 3: one case end to end, generic validation vs a normal run."""
    cases = collect_cases(only=case_id, examples=examples)
    if len(cases) != 1:
        raise SystemExit(f"bench: no single case {case_id!r}")
    out(f"3. {case_id} end to end (--examples {examples}; the reference as a subprocess)")
    times = {}
    for label in ("generic validator", "normal run"):
        _forget_searches()
        engine = open_engine(None)
        with tempfile.TemporaryDirectory() as tmp:
            ctx = Context(Path(tmp), hello=engine.hello())
            began = time.perf_counter()
            if label == "generic validator":
                with protocol.full_validation():
                    outcome = run_case(cases[0], engine, ctx)
            else:
                outcome = run_case(cases[0], engine, ctx)
            times[label] = time.perf_counter() - began
        engine.close()
        out(f"   {label:18} {times[label]:7.2f} s  {outcome.status}")
    out(f"   ratio {times['generic validator'] / times['normal run']:.1f}x")


def main(argv: Sequence[str] | None = None) -> int:
    """Print the three sections; 0 unless the arguments are wrong."""
    parser = argparse.ArgumentParser(prog="python -m dominokit.conformance.tools.bench",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--case", default=DEFAULT_CASE, help=f"default {DEFAULT_CASE}")
    parser.add_argument("--examples", type=int, default=DEFAULT_EXAMPLES,
                        help=f"random hands of a differential case (default {DEFAULT_EXAMPLES})")
    parser.add_argument("--hands", type=int, default=3, help="seeded hands per variant "
                        "for sections 1 and 2 (default 3)")
    parser.add_argument("--skip-case", action="store_true", help="only sections 1 and 2")
    args = parser.parse_args(argv)

    def out(line: str) -> None:
        print(line, flush=True)

    bench_replies(args.hands, out)
    bench_legal(args.hands, out)
    if not args.skip_case:
        bench_case(args.case, args.examples, out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
