"""Rejection cases: illegal actions, made from real positions, must be refused harmlessly.

Seeded hands are played on the reference; at their positions the kit builds actions of one
kind of illegality (a tile the player does not hold, a tile at an end it does not fit, a
mismatched or parity-breaking tile, an occupied, off-board, untouching or mismatched board
placement, a double written with one cell twice, a draw, pass or stop the rules do not allow,
any action after the hand has ended),
keeps those the reference refuses, and sends them to the engine, which follows the same hand.
Each must get an ``illegal_action`` error reply citing the rule the reference cites (the
contract's precedence, when more than one rule forbids the action) and leave ``state`` exactly
as it was. A case lists the rules its actions are refused under, and only those.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache, partial
from typing import Any

from dominokit.conformance.cases import Params, oracle
from dominokit.conformance.cases import repro as repros
from dominokit.conformance.cases.compare import Blame, diff_text, legal_summary, same, unique
from dominokit.conformance.cases.model import Case, Context, Outcome
from dominokit.conformance.cases.shadow import Shadowed
from dominokit.conformance.kit.driver import Engine
from dominokit.conformance.wire.errors import EngineRejected
from dominokit.reference import Action, HandState, Rules, Tile, legal_actions
from dominokit.reference.engine import check_action
from dominokit.reference.errors import NotationError
from dominokit.reference.state import Turn

JsonObject = dict[str, Any]
Generator = Callable[[HandState], Iterator[str]]

HANDS = 4
"""Seeded reference hands whose positions supply the illegal actions of a case."""
MAX_TRIES = 16
"""Illegal actions sent per case (at most two per position, spread over the hands)."""


@dataclass(frozen=True)
class Category:
    """One kind of illegal action: when it applies (by the mechanics), how to make it, and the
    rule it is about (listed by a case whose searched hands found no such action)."""

    name: str
    applies: Callable[[Rules], bool]
    make: Generator
    about: Callable[[Rules], str | None]
    after_end: bool = False


def _placements_of(state: HandState, player: int) -> list[Action]:
    """The placements ``player`` could make if it were their turn."""
    turned = dataclasses.replace(state, to_move=player, turn=Turn())
    return [a for a in legal_actions(turned) if a.tile is not None]


def _not_in_hand(state: HandState) -> Iterator[str]:
    mover = state.to_move
    assert mover is not None
    mine = set(state.hands[mover])
    for action in _placements_of(state, 1 - mover):
        if action.tile not in mine:
            yield str(action)
    for tile in (*state.stock, *state.out_of_play):
        if tile not in mine:
            for end, pip in getattr(state.table, "open_ends", lambda: iter(()))():
                if pip in (tile.low, tile.high):
                    yield f"{tile}@{end}{pip}"


def _chain_ends(state: HandState) -> list[tuple[str, int | None]]:
    table = state.table
    return [(end, table.end_pip(end)) for end in ("L", "R")]  # type: ignore[union-attr]


def _wrong_end(state: HandState) -> Iterator[str]:
    """A tile that fits one end, played at another (or at a dead end)."""
    mover = state.to_move
    assert mover is not None
    ends = _chain_ends(state)
    for tile in sorted(set(state.hands[mover])):
        for end, pip in ends:
            if pip is None:
                yield f"{tile}@{end}{tile.low}"
                continue
            for other_end, other_pip in ends:
                if other_end != end and other_pip is not None and other_pip != pip \
                        and other_pip in (tile.low, tile.high):
                    yield f"{tile}@{end}{other_pip}"


def _mismatch(state: HandState) -> Iterator[str]:
    """A tile whose touching half is not the end's pips."""
    mover = state.to_move
    assert mover is not None
    for tile in sorted(set(state.hands[mover])):
        for end, pip in _chain_ends(state):
            if pip is not None and pip != 0:
                for half in sorted({tile.low, tile.high} - {pip}):
                    yield f"{tile}@{end}{half}"


def _parity(state: HandState) -> Iterator[str]:
    """A tile that matches the end but whose far half has the end's parity."""
    mover = state.to_move
    assert mover is not None
    for tile in sorted(set(state.hands[mover])):
        for end, pip in _chain_ends(state):
            if pip and pip in (tile.low, tile.high):
                other = tile.high if tile.low == pip else tile.low
                if other != 0 and other % 2 == pip % 2:
                    yield f"{tile}@{end}{pip}"


def _grid(state: HandState) -> tuple[tuple[int | None, ...], ...]:
    return state.table.grid  # type: ignore[union-attr]


def _cells(state: HandState) -> Iterator[tuple[tuple[int, int], tuple[int, int], bool, bool]]:
    """Every pair of edge-adjacent cells: (a, b, both empty, touches a tile)."""
    grid = _grid(state)
    rows, cols = len(grid), len(grid[0])
    for r in range(rows):
        for c in range(cols):
            for b in ((r, c + 1), (r + 1, c)):
                if b[0] >= rows or b[1] >= cols:
                    continue
                a = (r, c)
                empty = grid[r][c] is None and grid[b[0]][b[1]] is None
                touches = any(grid[n[0]][n[1]] is not None for cell in (a, b)
                              for n in _around(cell, rows, cols) if n not in (a, b))
                yield a, b, empty, touches


def _around(cell: tuple[int, int], rows: int, cols: int) -> Iterator[tuple[int, int]]:
    r, c = cell
    for n in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
        if 0 <= n[0] < rows and 0 <= n[1] < cols:
            yield n


def _board(tile: Tile, a: tuple[int, int], b: tuple[int, int]) -> str:
    if tile.is_double and b < a:
        a, b = b, a
    return f"{tile}@{a[0]}.{a[1]}+{b[0]}.{b[1]}"


def _hand_tiles(state: HandState) -> list[Tile]:
    assert state.to_move is not None
    return sorted(set(state.hands[state.to_move]))


def _occupied(state: HandState) -> Iterator[str]:
    grid = _grid(state)
    for a, b, empty, _ in _cells(state):
        if not empty and (grid[a[0]][a[1]] is None) != (grid[b[0]][b[1]] is None):
            for tile in _hand_tiles(state)[:2]:
                yield _board(tile, a, b)


def _off_board(state: HandState) -> Iterator[str]:
    grid = _grid(state)
    rows, cols = len(grid), len(grid[0])
    for tile in _hand_tiles(state)[:2]:
        yield _board(tile, (rows - 1, cols - 1), (rows - 1, cols))
        yield _board(tile, (rows - 1, 0), (rows, 0))


def _broken_contact(state: HandState) -> Iterator[str]:
    for a, b, empty, touches in _cells(state):
        if empty and touches:
            for tile in _hand_tiles(state):
                yield _board(tile, a, b)
                yield _board(tile, b, a)


def _no_contact(state: HandState) -> Iterator[str]:
    if state.table.empty:
        return
    for a, b, empty, touches in _cells(state):
        if empty and not touches:
            for tile in _hand_tiles(state)[:1]:
                yield _board(tile, a, b)


def _not_adjacent(state: HandState) -> Iterator[str]:
    for r, row in enumerate(_grid(state)):
        for c in range(len(row) - 2):
            if row[c] is None and row[c + 2] is None:
                for tile in _hand_tiles(state)[:1]:
                    yield f"{tile}@{r}.{c}+{r}.{c + 2}"


def _double_on_one_cell(state: HandState) -> Iterator[str]:
    """A double the mover holds, written with the same cell twice (``4-4@0.0+0.0``), on an
    empty cell that touches a placed tile (any cell before the first placement): canonical
    notation (spec/protocol.md), refused as two cells that are not edge-adjacent. (A double
    not held cites R-ALL-12 first, as any tile not held does: tile-not-in-hand's concern.)"""
    grid = _grid(state)
    rows, cols = len(grid), len(grid[0])
    empty = [(r, c) for r in range(rows) for c in range(cols) if grid[r][c] is None]
    touching = [cell for cell in empty
                if any(grid[n[0]][n[1]] is not None for n in _around(cell, rows, cols))]
    cells = touching or empty
    for tile in [tile for tile in _hand_tiles(state) if tile.is_double][:2]:
        for r, c in (cells[0], cells[len(cells) // 2]):
            yield f"{tile}@{r}.{c}+{r}.{c}"


def _word(word: str) -> Generator:
    def make(state: HandState) -> Iterator[str]:
        yield word

    return make


def _after_end(state: HandState) -> Iterator[str]:
    yield from ("pass", "draw", "stop")
    for hand in state.hands:
        for tile in hand[:1]:
            yield str(tile)
            yield f"{tile}@R{tile.low}"
            yield f"{tile}@0.0+0.1"


def _chain(rules: Rules) -> bool:
    return rules.table.kind == "chain"


def _board_table(rules: Rules) -> bool:
    return rules.table.kind == "board"


def _stop_rule(rules: Rules) -> str:
    return rules.extra_tile.rule if rules.extra_tile else rules.structural.turn_order


CATEGORIES = (
    Category("tile-not-in-hand", lambda rules: True, _not_in_hand,
             lambda rules: rules.structural.own_tiles),
    Category("wrong-end", _chain, _wrong_end, lambda rules: rules.matching.rule),
    Category("mismatch", _chain, _mismatch, lambda rules: rules.matching.rule),
    Category("parity", lambda rules: _chain(rules) and rules.parity.policy != "none", _parity,
             lambda rules: rules.parity.rule),
    Category("occupied-cell", _board_table, _occupied, lambda rules: rules.matching.extra_rule),
    Category("off-board", _board_table, _off_board, lambda rules: rules.matching.extra_rule),
    Category("broken-contact", _board_table, _broken_contact,
             lambda rules: rules.matching.rule),
    Category("no-contact", _board_table, _no_contact, lambda rules: rules.matching.extra_rule),
    Category("cells-not-adjacent", _board_table, _not_adjacent,
             lambda rules: rules.matching.extra_rule),
    Category("double-on-one-cell", _board_table, _double_on_one_cell,
             lambda rules: rules.matching.extra_rule),
    Category("draw-not-allowed", lambda rules: True, _word("draw"),
             lambda rules: rules.draw.rule),
    Category("pass-not-allowed", lambda rules: True, _word("pass"),
             lambda rules: rules.pass_.rule),
    Category("stop-not-allowed", lambda rules: True, _word("stop"), _stop_rule),
    Category("play-after-end", lambda rules: True, _after_end,
             lambda rules: rules.structural.hand_over, after_end=True),
)


@dataclass(frozen=True)
class Attempt:
    """An illegal action at a position: the hand's deal, the actions before it, and the rule
    the reference cites."""

    deal: JsonObject
    before: tuple[str, ...]
    action: str
    rule: str
    why: str


@cache
def attempts(variant: str, category: str, seed: int) -> tuple[Attempt, ...]:
    """The illegal actions of ``category`` found at the positions of seeded reference hands."""
    chosen = next(c for c in CATEGORIES if c.name == category)
    found: list[Attempt] = []
    for number in range(HANDS):
        played = _hand(variant, seed, number)
        deal = played.deal
        positions = [len(played.actions)] if chosen.after_end else range(len(played.actions))
        quota = max(1, MAX_TRIES // HANDS)
        here_found: list[Attempt] = []
        for index in positions:
            state = played.states[index]
            per_position = 0
            for text in chosen.make(state):
                problem = _refusal(state, text)
                if problem is None:
                    continue
                here_found.append(Attempt(deal, played.actions[:index], text, *problem))
                per_position += 1
                if per_position == 2:
                    break
        # spread the attempts over the hand rather than taking its first positions only
        step = max(1, len(here_found) // quota)
        found.extend(here_found[::step][:quota])
    return tuple(found)


@cache
def _hand(variant: str, seed: int, number: int) -> oracle.Played:
    """Seeded hand ``number`` played on the reference; every category searches the same hands
    (playing them is the costly part, and case collection lists the rules they cite)."""
    rules = oracle.rules_of(variant, {})
    sizes = oracle.hand_sizes(rules)
    rng = random.Random(f"rejection:{variant}:{seed}:{number}")
    deal = oracle.deal_json(rules, rng.randrange(2**31), sizes[number % len(sizes)])
    return oracle.play_deal(variant, {}, deal, oracle.by_kind, rng)


def _refusal(state: HandState, text: str) -> tuple[str, str] | None:
    try:
        action = Action.parse(text)
    except (NotationError, ValueError):
        return None
    return check_action(state, action)


def cases(variant: str, params: Params) -> list[Case]:
    """``rejection/<variant>/<category>`` for the categories the variant's mechanics allow."""
    rules = oracle.rules_of(variant, {})
    return [Case(id=f"rejection/{variant}/{category.name}", kind="rejection",
                 variant=variant, body=partial(_run, variant, category.name, params),
                 rules=covered(variant, category, params.seed),
                 description=f"illegal actions ({category.name}) are refused and change "
                 "nothing")
            for category in CATEGORIES if category.applies(rules)]


def covered(variant: str, category: Category, seed: int) -> tuple[str, ...]:
    """The rules the case's actions are refused under, as the reference cites them (the rule
    the category is about when the searched hands found no such action)."""
    cited = unique(attempt.rule for attempt in attempts(variant, category.name, seed))
    return cited or unique([category.about(oracle.rules_of(variant, {}))])


def _run(variant: str, category: str, params: Params, engine: Engine, ctx: Context
         ) -> Outcome:
    engine = Shadowed(engine)  # replies compared with the reference's, not schema-checked
    tries = attempts(variant, category, params.seed)
    if not tries:
        return Outcome.passed("no position of the searched hands allows this kind of action")
    blame = Blame(oracle.rules_of(variant, {}))
    case_id = f"rejection/{variant}/{category}"
    current: tuple[JsonObject, tuple[str, ...]] | None = None
    for attempt in tries:
        if current is None or current[0] != attempt.deal or \
                attempt.before[:len(current[1])] != current[1]:
            engine.new_hand(variant, {}, attempt.deal)
            current = (attempt.deal, ())
        for action in attempt.before[len(current[1]):]:
            try:
                engine.apply(action)
            except EngineRejected as refusal:
                state = oracle.replay_actions(variant, {}, attempt.deal, current[1])
                return Outcome("failed", f"the engine refused {action!r}, legal for the "
                               f"reference, on the way to a position: {refusal}",
                               step=len(current[1]), knock_on=True,
                               rules=blame.refused(state, action, refusal.rule))
            current = (current[0], (*current[1], action))
        problem = _try(engine, attempt)
        if problem is not None and "accepted" in problem[2]:
            differs = _legal_differs(engine, variant, attempt, blame)
            if differs is not None:
                return differs
        if problem is not None:
            message, expected, got = problem
            path = repros.write_rejection(
                ctx.report_dir, case_id, variant, {}, attempt.deal, attempt.before,
                attempt.action, attempt.rule, note=f"after these actions the engine must "
                f"refuse {attempt.action!r} ({attempt.rule}: {attempt.why})")
            return Outcome("failed", f"{message}\nposition: after "
                           f"{' '.join(attempt.before) or '(no action)'}",
                           step=len(attempt.before), expected=expected, got=got,
                           diff=diff_text(expected, got, "answer"), rules=(attempt.rule,),
                           repro=path)
    return Outcome.passed(f"{len(tries)} illegal actions refused")


def _legal_differs(engine: Engine, variant: str, attempt: Attempt, blame: Blame
                   ) -> Outcome | None:
    """Whether an engine that accepted an illegal action lists other legal actions than the
    reference at that position: then the acceptance only follows from that difference, and the
    difference (the first divergence) is the failure, blamed on the rule the reference cites."""
    engine.new_hand(variant, {}, attempt.deal)
    for action in attempt.before:
        engine.apply(action)
    got = sorted(set(engine.legal()))
    state = oracle.replay_actions(variant, {}, attempt.deal, attempt.before)
    want = sorted(str(a) for a in legal_actions(state))
    if got == want:
        return None
    missing, extra = set(want) - set(got), set(got) - set(want)
    return Outcome("failed", f"the engine accepted the illegal action {attempt.action!r}, and "
                   f"its legal actions there differ: {legal_summary(missing, extra)}",
                   step=len(attempt.before), expected=want, got=got,
                   diff=diff_text(want, got, "legal actions"),
                   rules=blame.legal(state, missing, extra))


def _try(engine: Engine, attempt: Attempt) -> tuple[str, Any, Any] | None:
    """Send the illegal action; what went wrong, with the expected and actual answers."""
    before = engine.state()
    want = {"error": "illegal_action", "rule": attempt.rule, "state": "unchanged"}
    try:
        events = engine.apply(attempt.action)
    except EngineRejected as refusal:
        got = {"error": refusal.code, "rule": refusal.rule, "state": "unchanged"}
        if refusal.code != "illegal_action":
            return (f"the engine refused {attempt.action!r} with code {refusal.code!r}, "
                    f"expected 'illegal_action' ({attempt.rule}: {attempt.why})", want, got)
        if refusal.rule != attempt.rule:
            return (f"the engine refused {attempt.action!r} citing {refusal.rule!r}, expected "
                    f"{attempt.rule!r} ({attempt.why})", want, got)
        after = engine.state()
        if not same(before, after):
            return (f"refusing {attempt.action!r} changed the engine's state", before, after)
        return None
    return (f"the engine accepted the illegal action {attempt.action!r} "
            f"({attempt.rule}: {attempt.why})", want, {"accepted": attempt.action,
                                                       "events": events})
