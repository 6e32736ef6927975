"""Recompute every stored perft count with a second, independent move generator.

The counts in ``conformance/perft/*.yaml`` are the suite's expectations, so they must not come
from the reference engine they judge (``dominokit perft --record`` writes them with the
reference; this file is what makes them trustworthy). It holds a small move generator written
from RULINGS.md alone, importing nothing from ``dominokit.reference``, and checks that it
reproduces every stored count and per-first-action breakdown. Which mechanics a game uses is
read from its spec file with a plain YAML load (the policy names, option values and their
overrides), so a game made of existing mechanics needs no edit here; what each mechanic does
is written below independently. A few depth-1/2 counts are also worked out by hand below,
which keeps this generator honest in turn.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from dataclasses import dataclass, replace
from importlib.resources import files
from typing import Any

import pytest
import yaml

Tile = tuple[int, int]
Cell = tuple[int, int]


@dataclass(frozen=True)
class Game:
    """The turn mechanics of one variant, transcribed from RULINGS.md."""

    board: bool
    ends: int = 2
    parity: bool = False  # R-SZC-04/05
    draw: str = "none"  # "free" (R-POL-03), "until_fit" (R-PRO-03) or "none"
    passing: str = "when_stuck"  # "always" after the opening (R-POL-03), else R-ALL-07
    mutual_pass: int | None = None  # R-POL-05
    extra_after: Tile | None = None  # R-PIJ-07
    rows: int = 0
    cols: int = 0


KNOWN_POLICIES = {
    "opening": {"any_tile", "widow", "anywhere"},
    "matching": {"equal_halves", "board_contacts"},
    "parity": {"none", "opposite_or_blank"},
    "draw": {"none", "free", "until_fit"},
    "pass": {"always", "when_stuck"},
}
"""The policy values of the spec vocabulary this generator implements on its own."""


def _spec_file(variant: str) -> dict[str, Any]:
    path = files("dominokit.spec") / "variants" / f"{variant}.yaml"
    data: dict[str, Any] = yaml.safe_load(path.read_text(encoding="utf-8"))
    return data


def _resolved(data: dict[str, Any], options: dict[str, Any]) -> dict[str, Any]:
    """The spec data under ``options``: each chosen value's ``overrides`` (dotted paths)
    applied, then every ``{option: NAME}`` replaced by the chosen value."""
    chosen = {name: options.get(name, spec["default"])
              for name, spec in (data.get("options") or {}).items()}
    data = copy.deepcopy(data)
    for name, spec in (data.get("options") or {}).items():
        for value, changes in (spec.get("overrides") or {}).items():
            if value != chosen[name]:
                continue
            for dotted, new in changes.items():
                *parents, last = dotted.split(".")
                node = data
                for key in parents:
                    node = node[int(key)] if isinstance(node, list) else node[key]
                node[last] = copy.deepcopy(new)

    def fill(node: Any) -> Any:
        if isinstance(node, dict) and set(node) == {"option"}:
            return chosen[node["option"]]
        if isinstance(node, dict):
            return {k: fill(v) for k, v in node.items()}
        if isinstance(node, list):
            return [fill(v) for v in node]
        return node

    return {k: (v if k in ("options", "rules") else fill(v)) for k, v in data.items()}


def game_for(variant: str, options: dict[str, Any]) -> Game:
    """The turn mechanics of ``variant`` under ``options``, from the policy names in its spec
    file (hand sizes and scoring change only the deal and the result, not the tree)."""
    data = _resolved(_spec_file(variant), options)
    table, turn = data["components"]["table"], data["turn"]
    for mechanic, known in KNOWN_POLICIES.items():
        policy = turn[mechanic]["policy"]
        assert policy in known, (
            f"{variant}: {mechanic} policy {policy!r} is not implemented by this generator; "
            "a new mechanic needs its independent version here")
    ends = [e["condition"] for e in data["end"]]
    assert set(ends) <= {"domino", "block", "mutual_pass"}, ends
    mutual = [e["turns"] for e in data["end"] if e["condition"] == "mutual_pass"]
    extra = turn.get("extra_tile")
    board = table["kind"] == "board"
    return Game(
        board=board,
        ends=table.get("ends", 2),
        parity=turn["parity"]["policy"] == "opposite_or_blank",
        draw=turn["draw"]["policy"],
        passing=turn["pass"]["policy"],
        mutual_pass=mutual[0] if mutual else None,
        extra_after=tile(extra["after"]) if extra else None,
        rows=table["rows"] if board else 0,
        cols=table["cols"] if board else 0,
    )


def spec_variants() -> set[str]:
    """The ids of every game in spec/variants/."""
    folder = files("dominokit.spec") / "variants"
    return {e.name.removesuffix(".yaml") for e in folder.iterdir() if e.name.endswith(".yaml")}


@dataclass(frozen=True)
class Pos:
    """A position: hands, ordered stock, chain ends or board cells, and turn progress."""

    hands: tuple[tuple[Tile, ...], tuple[Tile, ...]]
    stock: tuple[Tile, ...]
    to_move: int
    left: int | None = None
    right: int | None = None
    started: bool = False  # a tile (or the widow) lies on the table
    cells: tuple[tuple[Cell, int], ...] = ()
    passes: int = 0
    extra: bool = False
    over: bool = False


def tile(text: str) -> Tile:
    a, b = text.split("-")
    return int(a), int(b)


def cell(text: str) -> Cell:
    row, col = text.split(".")
    return int(row), int(col)


def name(t: Tile) -> str:
    return f"{t[0]}-{t[1]}"


def start(game: Game, deal: dict[str, Any]) -> Pos:
    """The position before the first action (R-SZC-02 for a widow; end check per R-ALL-10)."""
    hands = (tuple(map(tile, deal["hands"][0])), tuple(map(tile, deal["hands"][1])))
    stock = tuple(map(tile, deal["stock"]))
    widow = deal.get("widow")
    if widow:
        x, y = widow
        pos = Pos(hands, stock, 0 if x > y else 1, right=max(x, y), started=True)
    else:
        pos = Pos(hands, stock, deal["starter"])
    return finish(game, pos)


def chain_plays(game: Game, pos: Pos, hand: tuple[Tile, ...]) -> list[str]:
    if not pos.started:
        return [name(t) for t in sorted(set(hand))]
    out = []
    for a, b in sorted(set(hand)):
        for end, pip in (("L", pos.left), ("R", pos.right)):
            if pip is None:
                continue
            for touch in sorted({a, b}):
                other = b if touch == a else a
                if game.parity:
                    fits = pip == 0 or (touch == pip and (other == 0 or other % 2 != pip % 2))
                else:
                    fits = touch == pip
                if fits:
                    out.append(f"{a}-{b}@{end}{touch}")
    return out


def neighbours(game: Game, cell: Cell) -> Iterator[Cell]:
    r, c = cell
    for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
        if 0 <= nr < game.rows and 0 <= nc < game.cols:
            yield nr, nc


def board_plays(game: Game, pos: Pos, hand: tuple[Tile, ...]) -> list[str]:
    grid = dict(pos.cells)
    out: set[str] = set()
    for a, b in set(hand):
        for r in range(game.rows):
            for c in range(game.cols):
                for other in ((r, c + 1), (r + 1, c)):
                    if other[0] >= game.rows or other[1] >= game.cols:
                        continue
                    for low, high in (((r, c), other), (other, (r, c))):
                        if low in grid or high in grid:
                            continue
                        touching, matching = False, True
                        for cell, pip, mate in ((low, a, high), (high, b, low)):
                            for n in neighbours(game, cell):
                                if n != mate and n in grid:
                                    touching = True
                                    matching = matching and grid[n] == pip
                        if (touching or not grid) and matching:
                            first, second = sorted((low, high)) if a == b else (low, high)
                            out.add(f"{a}-{b}@{first[0]}.{first[1]}+{second[0]}.{second[1]}")
    return sorted(out)


def plays(game: Game, pos: Pos, player: int) -> list[str]:
    hand = pos.hands[player]
    return board_plays(game, pos, hand) if game.board else chain_plays(game, pos, hand)


def legal(game: Game, pos: Pos) -> list[str]:
    """Every legal action; [] once the hand is over."""
    if pos.over:
        return []
    mine = plays(game, pos, pos.to_move)
    if pos.extra:
        return [*mine, "stop"]
    if not pos.started and not game.board:
        return mine  # R-POL-02 / R-PRO-02: the opening is a placement, no draw or pass
    draw_ok = bool(pos.stock) and (
        game.draw == "free" or (game.draw == "until_fit" and not mine))
    pass_ok = game.passing == "always" or not (mine or draw_ok)
    return [*mine, *(["draw"] if draw_ok else []), *(["pass"] if pass_ok else [])]


def with_hand(pos: Pos, hand: tuple[Tile, ...]) -> tuple[tuple[Tile, ...], tuple[Tile, ...]]:
    """The hands with the mover's hand replaced."""
    return (hand, pos.hands[1]) if pos.to_move == 0 else (pos.hands[0], hand)


def play(game: Game, pos: Pos, action: str) -> Pos:
    """The position after a legal action (it is not re-checked here)."""
    me = pos.to_move
    if action == "draw":
        return finish(game, replace(pos, hands=with_hand(pos, (*pos.hands[me], pos.stock[0])),
                                    stock=pos.stock[1:]))
    if action == "pass":
        return finish(game, replace(pos, to_move=1 - me, passes=pos.passes + 1))
    if action == "stop":
        return finish(game, replace(pos, to_move=1 - me, extra=False))
    text, _, where = action.partition("@")
    t = tile(text)
    hand = list(pos.hands[me])
    hand.remove(t)
    pos = replace(pos, hands=with_hand(pos, tuple(hand)), passes=0, started=True)
    if game.board:
        low, high = where.split("+")
        pos = replace(pos, cells=(*pos.cells, (cell(low), t[0]), (cell(high), t[1])))
        if t == game.extra_after and not pos.extra:
            return finish(game, replace(pos, extra=True))
        return finish(game, replace(pos, extra=False, to_move=1 - me))
    if not where:
        pos = replace(pos, left=t[0], right=t[1])
    else:
        touch = int(where[1])
        other = t[1] if touch == t[0] else t[0]
        pos = replace(pos, left=other) if where[0] == "L" else replace(pos, right=other)
    return finish(game, replace(pos, to_move=1 - me))


def finish(game: Game, pos: Pos) -> Pos:
    """Mark the hand over on domino, block, or mutual pass (R-ALL-05, R-PIJ-08, R-POL-05)."""
    domino = not pos.hands[0] or not pos.hands[1]
    block = not pos.stock and not plays(game, pos, 0) and not plays(game, pos, 1)
    mutual = game.mutual_pass is not None and pos.passes >= game.mutual_pass
    return replace(pos, over=True) if domino or block or mutual else pos


def perft(game: Game, pos: Pos, depth: int) -> int:
    """R-ALL-11: sequences of ``depth`` actions; one that ends the hand counts, unextended."""
    actions = legal(game, pos)
    if depth == 1:
        return len(actions)
    total = 0
    for action in actions:
        child = play(game, pos, action)
        total += 1 if child.over else perft(game, child, depth - 1)
    return total


def divide(game: Game, pos: Pos, depth: int) -> dict[str, int]:
    """perft per first action."""
    out = {}
    for action in legal(game, pos):
        child = play(game, pos, action)
        out[action] = 1 if depth == 1 or child.over else perft(game, child, depth - 1)
    return out


def position(variant: str, entry: dict[str, Any]) -> Pos:
    game = game_for(variant, entry.get("options") or {})
    pos = start(game, entry["deal"])
    for action in entry.get("actions", []):
        assert action in legal(game, pos), f"{action} is not legal on the way to {entry['name']}"
        pos = play(game, pos, action)
    return pos


def stored() -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    out = []
    for path in sorted((files("dominokit.conformance") / "perft").iterdir(), key=str):
        if not path.name.endswith(".yaml"):
            continue
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        for entry in data["positions"]:
            for count in entry["perft"]:
                out.append((data["variant"], entry, count))
    return out


STORED = stored()


def test_every_variant_has_perft_data() -> None:
    assert {variant for variant, _, _ in STORED} == spec_variants()


@pytest.mark.parametrize(
    ("variant", "entry", "count"),
    STORED,
    ids=[f"{v}/{e['name']}-d{c['depth']}" for v, e, c in STORED],
)
def test_stored_count_matches_independent_generator(
    variant: str, entry: dict[str, Any], count: dict[str, Any]
) -> None:
    game = game_for(variant, entry.get("options") or {})
    pos = position(variant, entry)
    assert perft(game, pos, count["depth"]) == count["count"]
    if "divide" in count:
        assert divide(game, pos, count["depth"]) == count["divide"]


# Hand counts, made without any program, check the generator and the stored data alike.


def stored_count(variant: str, position_name: str, depth: int) -> tuple[Game, Pos, int]:
    """The game, the stored position and its stored count at ``depth``."""
    for v, entry, count in STORED:
        if (v, entry["name"], count["depth"]) == (variant, position_name, depth):
            game = game_for(variant, entry.get("options") or {})
            return game, position(variant, entry), count["count"]
    raise LookupError(f"no stored perft {variant}/{position_name}-d{depth}")


HAND_COUNTS = [
    # Poldomino, hands 0-0 1-2 2-2 3-6 4-5 / 0-2 1-1 2-5 3-3 5-6, 18 in stock, player 0 starts.
    # d1: the starter may only open, with any of 5 tiles (R-POL-02) -> 5.
    ("poldomino", "start", 1, 5),
    # d2: per opening, player 1 may draw, pass (2 actions) or play:
    #   0-0 (ends 0|0): 0-2 on L or R -> 2 + 2 = 4
    #   1-2 (ends 1|2): 1-1@L1, 0-2@R2, 2-5@R2 -> 3 + 2 = 5
    #   2-2 (ends 2|2): 0-2 and 2-5, each on L and R -> 4 + 2 = 6
    #   3-6 (ends 3|6): 3-3@L3, 5-6@R6 -> 2 + 2 = 4
    #   4-5 (ends 4|5): 2-5@R5, 5-6@R5 -> 2 + 2 = 4
    # -> 4 + 5 + 6 + 4 + 4 = 23.
    ("poldomino", "start", 2, 23),
    # After 1-2 and a pass, player 0 (0-0 2-2 3-6 4-5, ends 1|2): 2-2@R2, draw, pass -> 3.
    ("poldomino", "after-pass", 1, 3),
    # d2: after 2-2@R2 player 1 has 1-1@L1, 0-2@R2, 2-5@R2, draw, pass -> 5; after a draw
    # (0-1) player 0 has 0-1@L1, 2-2@R2, draw, pass -> 4; a second pass ends the hand
    # (R-POL-05) and counts 1 -> 5 + 4 + 1 = 10.
    ("poldomino", "after-pass", 2, 10),
    # Szczerbak, widow [2|3] (3 faces player 1, who starts on end 3, R-SZC-02); player 1 holds
    # 1-6 2-4 2-5 2-6 3-4 3-5 3-6 4-5 4-6 5-6. On odd end 3 the far half must be blank or even
    # (R-SZC-04): 3-4 yes, 3-5 no, 3-6 yes -> 2.
    ("szczerbak", "widow-faces-1", 1, 2),
    # After 3-4@R3 (end 4, even) player 0 needs a 4 with a blank or odd far half: 0-4, 1-4 -> 2.
    # After 3-6@R3 (end 6): only 0-6 -> 1. 2 + 1 = 3.
    ("szczerbak", "widow-faces-1", 2, 3),
    # d3: after 0-4 or 0-6 the end is blank and player 1's 9 tiles each fit either way round
    # (R-SZC-05) -> 18 each; after 1-4@R4 (end 1, odd) only 1-6 fits -> 1. 18 + 18 + 1 = 37.
    ("szczerbak", "widow-faces-1", 3, 37),
    # Classic block, P0 0-0 0-1 1-1 1-2 2-2 2-3 3-3 / P1 0-6 4-4 4-5 4-6 5-5 5-6 6-6, P0 starts.
    # d1: any of the starter's 7 tiles opens (R-CLB-02) -> 7.
    ("classic_block", "start", 1, 7),
    # d2: P1's only tile below 4 is 0-6: after 0-0 (0|0) it fits either end -> 2; after 0-1
    # (0|1) on the 0 -> 1; after 1-1, 1-2, 2-2, 2-3, 3-3 P1 has nothing and passes, while P0
    # can still play, so it is no block (R-CLB-04, R-CLB-05) -> 5 * 1. 2 + 1 + 5 = 8.
    ("classic_block", "start", 2, 8),
    # After 6-6 4-6@R6 5-6@L6 3-4@R4 (ends 5|3) P0 (0-0 0-1 0-2 1-1 1-2) has no 5 or 3: pass.
    ("classic_block", "pass-and-block", 1, 1),
    # Pijanowski: a 6x12 board has 6*11 = 66 horizontal and 5*12 = 60 vertical cell pairs: 126.
    # The first tile may go anywhere (R-PIJ-03): player 0's 10 non-doubles 2 ways per pair,
    # its doubles 0-0 and 1-1 one way -> 10*252 + 2*126 = 2772.
    ("pijanowski", "start", 1, 2772),
    # hand_size 14 (R-PIJ-02): player 0 holds the seven 0-x, 1-1..1-6 and 2-2: 11 non-doubles
    # and 3 doubles -> 11*252 + 3*126 = 3150.
    ("pijanowski", "start-hand-size-14", 1, 3150),
    # double_set (R-PIJ-11): 12x12 cells give 12*11 + 11*12 = 264 pairs; player 0 holds a
    # whole set, 21 non-doubles and 7 doubles -> 21*528 + 7*264 = 12936.
    ("pijanowski", "start-double-set", 1, 12936),
    # [0|0] on 0.0+0.1; the same player may add a tile or stop (R-PIJ-07). A new tile must show
    # 0 on every cell next to the [0|0]: 1.0, 1.1, 0.2, so only the six 0-x tiles can go, with
    # 0 on one of those cells and x on a cell touching nothing: 0 on 1.0 with x on 2.0 (1.1 is
    # itself a contact cell) -> 1; 0 on 1.1 with x on 2.1 or 1.2 -> 2; 0 on 0.2 with x on 0.3
    # or 1.2 -> 2. 6 * (1 + 2 + 2) = 30, plus stop -> 31.
    ("pijanowski", "double-blank-corner", 1, 31),
    # [1|3] on 2.5+2.6, player 1 to move (1-6 2-2 2-3 2-4 2-5 2-6 3-3 3-4 3-5 3-6 4-4 4-5).
    # Cells touching the 1 (1.5, 3.5, 2.4) must show 1: only 1-6, with 6 on a free cell:
    # 1.5 -> 0.5, 1.4 (1.6 would touch the 3); 3.5 -> 4.5, 3.4; 2.4 -> 1.4, 3.4, 2.3: 7.
    # Cells touching the 3 (1.6, 3.6, 2.7) must show 3: 2-3, 3-3, 3-4, 3-5, 3-6, each the same
    # 7 cell pairs by symmetry (1.6 -> 0.6, 1.7; 3.6 -> 4.6, 3.7; 2.7 -> 1.7, 3.7, 2.8), the
    # double one way round: 5 * 7 = 35. 7 + 35 = 42.
    ("pijanowski", "second-tile", 1, 42),
]


@pytest.mark.parametrize(("variant", "position_name", "depth", "by_hand"), HAND_COUNTS)
def test_hand_count(variant: str, position_name: str, depth: int, by_hand: int) -> None:
    game, pos, stored_value = stored_count(variant, position_name, depth)
    assert perft(game, pos, depth) == by_hand
    assert stored_value == by_hand
