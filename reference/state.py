"""The state of one hand, the events an action emits, and a hand's result, with their JSON.

A HandState is a frozen value: the engine builds a new one per action and never changes an
old one, so callers may keep any state (for undo, search, or comparing two engines). Its JSON
form is canonical and round-trips; the Rules it carries are rebuilt from variant and options.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from dominokit.reference import board, board_plain
from dominokit.reference.chain import ChainTable
from dominokit.reference.notation import Action, board_actions
from dominokit.reference.rules import Rules, load_rules
from dominokit.reference.tiles import TILE_ORDER, Tile

Cell = tuple[int, int]
Hands = tuple[tuple[Tile, ...], tuple[Tile, ...]]
Pair = tuple[int, int]

REASONS = ("domino", "block", "mutual_pass")
"""Why a hand ended; HandResult.reason is one of these."""


@dataclass(frozen=True)
class ScoreTerm:
    """One non-zero scoring term of a hand result, with the rule that grants it."""

    term: str
    player: int
    points: int
    rule: str

    def to_json(self) -> dict[str, Any]:
        """The term object of HandResult JSON."""
        return {"term": self.term, "player": self.player, "points": self.points,
                "rule": self.rule}


@dataclass(frozen=True)
class HandResult:
    """How a hand ended and what it is worth to each player's running total."""

    winner: int | None
    reason: str
    points: Pair
    pips: Pair
    terms: tuple[ScoreTerm, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The canonical JSON form (hand_result.schema.json)."""
        return {"winner": self.winner, "reason": self.reason, "points": list(self.points),
                "pips": list(self.pips), "terms": [t.to_json() for t in self.terms]}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> HandResult:
        """Read the JSON form; ValueError when it is malformed."""
        try:
            winner = data["winner"]
            if winner not in (None, 0, 1) or data["reason"] not in REASONS:
                raise ValueError(f"bad winner or reason in {dict(data)!r}")
            terms = tuple(ScoreTerm(str(t["term"]), int(t["player"]), int(t["points"]),
                                    str(t["rule"])) for t in data.get("terms", []))
            return cls(winner, str(data["reason"]), _pair(data["points"]),
                       _pair(data["pips"]), terms)
        except (KeyError, TypeError) as exc:
            raise ValueError(f"malformed hand result {data!r}: {exc!r}") from exc


@dataclass(frozen=True)
class Event:
    """Something that happened during ``apply_action``, in order; unused fields are None."""

    type: str
    player: int | None = None
    action: str | None = None
    tile: str | None = None
    cells: tuple[Cell, ...] | None = None
    points: int | None = None
    rule: str | None = None
    result: HandResult | None = None

    def to_json(self) -> dict[str, Any]:
        """The event object (event.schema.json); absent fields are left out."""
        out: dict[str, Any] = {"type": self.type}
        if self.player is not None:
            out["player"] = self.player
        if self.action is not None:
            out["action"] = self.action
        if self.tile is not None:
            out["tile"] = self.tile
        if self.cells is not None:
            out["cells"] = [list(c) for c in self.cells]
        if self.points is not None:
            out["points"] = self.points
        if self.rule is not None:
            out["rule"] = self.rule
        if self.result is not None:
            out["result"] = self.result.to_json()
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Event:
        """Read the JSON form; ValueError when it is malformed."""
        try:
            cells = data.get("cells")
            result = data.get("result")
            return cls(
                type=str(data["type"]),
                player=data.get("player"),
                action=data.get("action"),
                tile=data.get("tile"),
                cells=None if cells is None else tuple((int(r), int(c)) for r, c in cells),
                points=data.get("points"),
                rule=data.get("rule"),
                result=None if result is None else HandResult.from_json(result),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"malformed event {data!r}: {exc}") from exc


_EVENT_FIELDS = {"type": "", "player": None, "action": None, "tile": None, "cells": None,
                 "points": None, "rule": None, "result": None}


def event(type: str, **fields: Any) -> Event:
    """``Event(type, **fields)`` without the frozen ``__init__``'s per-field setattr.

    The engine emits an event per action; the value is the same as the constructor's.
    """
    made = object.__new__(Event)
    made.__dict__.update(_EVENT_FIELDS, type=type, **fields)
    return made


@dataclass(frozen=True)
class BoardPlacement:
    """One tile on the board: who placed it, its (low, high) cells and the pips on them."""

    player: int
    cells: tuple[Cell, Cell]
    pips: Pair

    def to_json(self) -> dict[str, Any]:
        """The placement object of the board table JSON."""
        return {"player": self.player, "cells": [list(c) for c in self.cells],
                "pips": list(self.pips)}


Kept = tuple[int, tuple[board.Code, ...]]
"""A tile's legal placements on some board: (placements on that board, their codes)."""


Listing = tuple[int, frozenset[Tile], tuple[int, ...], tuple[Action, ...]]
"""A hand's legal placements on some board: (placements on that board, the hand's tiles,
``tile_key(tile) << bits | code`` of each placement, sorted, and their actions)."""


class _Kept:
    """What a board has worked out about its tiles' placements: derived, never compared."""

    __slots__ = ("tiles", "hands", "fronts", "_shared")

    def __init__(self, tiles: dict[Tile, Kept], hands: dict[int, Listing],
                 shared: bool) -> None:
        self.tiles = tiles
        """Each tile asked about, on this board or (not yet brought up) an earlier one."""
        self.hands = hands
        """Each player's hand listed, on this board or an earlier one."""
        self.fronts: dict[int | None, board.Frontier] = {}
        """This board's frontier around the tiles placed since the board with that many
        placements; under None, the whole board's."""
        self._shared = shared
        """``tiles`` is still the board before's dict: copied on the first write only."""

    def handed_on(self) -> _Kept:
        """What a board made from this one by a placement starts from."""
        return _Kept(self.tiles, dict(self.hands), True)

    def keep(self, tile: Tile, entry: Kept) -> None:
        """Record the tile's placements on this board."""
        if self._shared:
            self.tiles = dict(self.tiles)
            self._shared = False
        self.tiles[tile] = entry


def tile_key(tile: Tile) -> int:
    """An int that sorts as tiles do (low half, then high); notation tiles stay below 64."""
    return tile.low << 6 | tile.high


class _ListedActions(dict[int, Action]):
    """Board actions by ``tile_key(tile) << bits | code`` on one board size, made when asked."""

    __slots__ = ("rows", "cols", "bits")

    def __init__(self, rows: int, cols: int) -> None:
        super().__init__()
        self.rows, self.cols = rows, cols
        self.bits = board.geometry(rows, cols).bits

    def __missing__(self, key: int) -> Action:
        tile = Tile.of(key >> self.bits >> 6, key >> self.bits & 63)
        code = key & ((1 << self.bits) - 1)
        action = self[key] = board_actions(tile, board.pairs_of((code,), self.rows,
                                                                self.cols))[0]
        return action


_LISTED: dict[tuple[int, int], _ListedActions] = {}
"""One table per board size played; each holds at most every placement of every tile."""


@dataclass(frozen=True)
class BoardTable:
    """The board: placements in order, plus the grid they make (derived, not serialised).

    Legal placements are derived too, and kept: each player's hand as sorted ints (``listing``)
    and each tile asked about on its own (``can_place``, for the block check). A board made by
    ``with_placement`` takes what the board before it knew and brings it up to date around
    the tiles placed since each answer was found (``board.frontier_around``) instead of
    scanning every cell; a board with nothing to take from (the first boards of a hand, one
    read from JSON) scans once, and that scan serves every tile.
    """

    rows: int
    cols: int
    placements: tuple[BoardPlacement, ...] = ()
    grid: board_plain.Grid = field(default=(), compare=False, repr=False)
    _kept: _Kept | None = field(default=None, compare=False, repr=False)
    _parent: BoardTable | None = field(default=None, compare=False, repr=False)
    """The board this one was made from by one placement, until this one is first asked."""

    def __post_init__(self) -> None:
        if not self.grid:
            grid = board_plain.empty_grid(self.rows, self.cols)
            for p in self.placements:
                grid = board_plain.place(grid, p.cells, p.pips)
            object.__setattr__(self, "grid", grid)

    @property
    def empty(self) -> bool:
        """No tile on the board yet: the next placement is the opening."""
        return not self.placements

    def can_place(self, tile: Tile) -> bool:
        """True when ``tile`` has some legal placement on this board (R-PIJ-03/04)."""
        return bool(self._entry(tile)[1])

    def _known(self) -> _Kept:
        kept = self._kept
        if kept is None:
            parent = self._parent
            handed = None if parent is None else parent._kept
            kept = _Kept({}, {}, False) if handed is None else handed.handed_on()
            object.__setattr__(self, "_kept", kept)
            object.__setattr__(self, "_parent", None)
        return kept

    def listing(self, player: int, hand: tuple[Tile, ...]) -> list[Action]:
        """Every legal placement of ``player``'s ``hand`` on this board, sorted (R-PIJ-03/04).

        Kept per player: a hand listed on an earlier board of the hand, holding every tile it
        holds now, loses the tiles played since and the pairs around the tiles placed since,
        and gains what fits there now; otherwise each tile's own placements are joined.
        """
        kept = self._known()
        tiles = frozenset(hand)
        count = len(self.placements)
        geo = board.geometry(self.rows, self.cols)
        bits = geo.bits
        entry = kept.hands.get(player)
        if entry is not None and entry[0] == count and entry[1] == tiles:
            return list(entry[3])
        keys: list[int]
        if entry is not None and entry[0] > 0 and tiles <= entry[1]:
            since, had, old, _ = entry
            gone = {tile_key(tile) for tile in had - tiles}
            keys = [key for key in old if key >> bits not in gone] if gone else list(old)
            if since < count:
                front = self._front(kept, since)
                replaces = front.replaces
                assert replaces is not None
                mask = (1 << bits) - 1
                keys = [key for key in keys if key & mask not in replaces]
                groups = front.groups
                for tile in tiles:  # board.fitting, inlined: it runs per tile per position
                    low, high = tile.low, tile.high
                    base = (low << 6 | high) << bits
                    for need in ((None, high), (low, None), (low, high)):
                        group = groups.get(need)
                        if group:  # a double is placed low half on the first cell only
                            keys += ([base | code for code in group] if low != high
                                     else [base | code for code in group if code & 2])
                keys.sort()
        else:
            keys = []
            for tile in sorted(tiles, key=TILE_ORDER):
                base = tile_key(tile) << bits
                keys += [base | code for code in self._entry(tile)[1]]
        made = _LISTED.get((self.rows, self.cols))
        if made is None:
            made = _LISTED.setdefault((self.rows, self.cols),
                                      _ListedActions(self.rows, self.cols))
        actions = tuple(map(made.__getitem__, keys))
        kept.hands[player] = (count, tiles, tuple(keys), actions)
        return list(actions)

    def _front(self, kept: _Kept, since: int | None) -> board.Frontier:
        """This board's frontier: whole (``since`` None) or around the tiles placed since the
        board with ``since`` placements; worked out once per board."""
        front = kept.fronts.get(since)
        if front is None:
            if since is None:
                front = board.scan_frontier(self.grid, self.empty)
            else:
                front = board.frontier_around(
                    self.grid, [cell for p in self.placements[since:] for cell in p.cells])
            kept.fronts[since] = front
        return front

    def _entry(self, tile: Tile) -> Kept:
        """The tile's placements on this board: kept, brought up, or found by a scan."""
        kept = self._known()
        count = len(self.placements)
        entry = kept.tiles.get(tile)
        if entry is not None and entry[0] == count:
            return entry
        # On the empty board any pair qualified (R-PIJ-03): nothing of it carries over.
        since = None if entry is None or entry[0] == 0 else entry[0]
        front = self._front(kept, since)
        entry = (count, board.brought_up(() if since is None or entry is None else entry[1],
                                         front, tile.low, tile.high))
        kept.keep(tile, entry)
        return entry

    def with_placement(self, placement: BoardPlacement) -> BoardTable:
        """The board with one more tile (the grid is updated, not rebuilt).

        Made like ``evolve`` makes a state, without the frozen ``__init__``: the fields are
        the same values the constructor would set, and ``__post_init__`` has nothing to do
        once the grid is given.
        """
        grid = board_plain.place(self.grid, placement.cells, placement.pips)
        made = object.__new__(BoardTable)
        made.__dict__.update(rows=self.rows, cols=self.cols,
                             placements=(*self.placements, placement), grid=grid, _kept=None,
                             _parent=self)
        return made

    def to_json(self) -> dict[str, Any]:
        """The ``table`` object of HandState JSON."""
        return {"kind": "board", "rows": self.rows, "cols": self.cols,
                "placements": [p.to_json() for p in self.placements]}


Table = ChainTable | BoardTable


@dataclass(frozen=True)
class Turn:
    """Progress inside the current turn: draws made, and whether the extra tile is pending."""

    draws: int = 0
    extra: bool = False


@dataclass(frozen=True)
class HandState:
    """Everything about a hand in progress (or ended: ``result`` is then set)."""

    rules: Rules = field(compare=False, repr=False)
    hands: Hands
    stock: tuple[Tile, ...]
    out_of_play: tuple[Tile, ...]
    table: Table
    starter: int
    to_move: int | None
    turn: Turn = Turn()
    passes: int = 0
    points: Pair = (0, 0)
    last_placed: tuple[Tile | None, Tile | None] = (None, None)
    widow: Pair | None = None
    result: HandResult | None = None

    @property
    def variant(self) -> str:
        """The variant id, as the JSON form carries it."""
        return self.rules.variant_id

    @property
    def options(self) -> dict[str, object]:
        """The fully resolved options."""
        return self.rules.options_json()

    @property
    def over(self) -> bool:
        """True once the hand has ended."""
        return self.result is not None

    def pips(self) -> Pair:
        """Pips left in each hand."""
        return (sum(t.pips for t in self.hands[0]), sum(t.pips for t in self.hands[1]))

    def to_json(self) -> dict[str, Any]:
        """The canonical JSON form (state.schema.json)."""
        return {
            "variant": self.variant,
            "options": self.options,
            "hands": [[str(t) for t in hand] for hand in self.hands],
            "stock": [str(t) for t in self.stock],
            "out_of_play": [str(t) for t in self.out_of_play],
            "table": self.table.to_json(),
            "starter": self.starter,
            "to_move": self.to_move,
            "turn": {"draws": self.turn.draws, "extra": self.turn.extra},
            "passes": self.passes,
            "points": list(self.points),
            "last_placed": [None if t is None else str(t) for t in self.last_placed],
            "widow": None if self.widow is None else list(self.widow),
            "result": None if self.result is None else self.result.to_json(),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any], *, rules: Rules | None = None) -> HandState:
        """Read the JSON form; the Rules are rebuilt from ``variant`` and ``options``.

        Pass ``rules`` for a state of a variant loaded from a file outside the package. Raises
        ValueError when the JSON is malformed or its tiles are not the variant's tile set.
        """
        try:
            if rules is None:
                rules = load_rules(str(data["variant"]), data.get("options") or {})
            state = cls(
                rules=rules,
                hands=(_tiles(data["hands"][0]), _tiles(data["hands"][1])),
                stock=tuple(Tile.parse(t) for t in data["stock"]),
                out_of_play=_tiles(data["out_of_play"]),
                table=_table(data["table"]),
                starter=_player(data["starter"]),
                to_move=None if data["to_move"] is None else _player(data["to_move"]),
                turn=Turn(int(data["turn"]["draws"]), bool(data["turn"]["extra"])),
                passes=int(data["passes"]),
                points=_pair(data["points"]),
                last_placed=(_opt_tile(data["last_placed"][0]),
                             _opt_tile(data["last_placed"][1])),
                widow=None if data.get("widow") is None else _pair(data["widow"]),
                result=None if data.get("result") is None
                else HandResult.from_json(data["result"]),
            )
        except (KeyError, IndexError, TypeError) as exc:
            raise ValueError(f"malformed hand state: {exc!r}") from exc
        _check_tiles(state)
        _check_turn(state)
        return state


def evolve(state: HandState, **changes: Any) -> HandState:
    """``dataclasses.replace(state, **changes)`` without running ``__init__`` again.

    The engine makes one new state per action; a frozen dataclass's ``__init__`` sets every
    field through ``object.__setattr__``, which cost more than the rules. HandState has no
    ``__post_init__`` and its fields are plain values, so copying them and overriding the
    changed ones gives the same state.
    """
    new = object.__new__(HandState)
    fields = new.__dict__
    fields.update(state.__dict__)
    fields.update(changes)
    return new


def _player(raw: Any) -> int:
    if raw not in (0, 1) or isinstance(raw, bool):
        raise ValueError(f"a player is 0 or 1, got {raw!r}")
    return int(raw)


def _pair(raw: Any) -> Pair:
    if not (isinstance(raw, list | tuple) and len(raw) == 2):
        raise ValueError(f"expected a pair, got {raw!r}")
    return int(raw[0]), int(raw[1])


def _tiles(raw: Any) -> tuple[Tile, ...]:
    return tuple(sorted(Tile.parse(t) for t in raw))


def _opt_tile(raw: Any) -> Tile | None:
    return None if raw is None else Tile.parse(raw)


def _table(raw: Mapping[str, Any]) -> Table:
    if raw["kind"] == "chain":
        tiles = tuple(_pair(t) for t in raw["tiles"])
        left, right = raw.get("left"), raw.get("right")
        return ChainTable(tiles, None if left is None else int(left),
                          None if right is None else int(right))
    if raw["kind"] == "board":
        placements = tuple(
            BoardPlacement(_player(p["player"]),
                           (_pair(p["cells"][0]), _pair(p["cells"][1])), _pair(p["pips"]))
            for p in raw["placements"]
        )
        return BoardTable(int(raw["rows"]), int(raw["cols"]), placements)
    raise ValueError(f"unknown table kind {raw['kind']!r}")


def table_tiles(state: HandState) -> list[Tile]:
    """The tiles lying on the table (the widow included for a widow chain)."""
    if isinstance(state.table, ChainTable):
        return [Tile.of(a, b) for a, b in state.table.tiles]
    return [Tile.of(*p.pips) for p in state.table.placements]


def _check_turn(state: HandState) -> None:
    """The turn fields agree with each other and with the variant's mechanics."""
    if (state.to_move is None) != (state.result is not None):
        raise ValueError("to_move is null exactly when the hand is over")
    if state.turn.extra and state.rules.extra_tile is None:
        raise ValueError(f"{state.variant} has no extra tile, but turn.extra is true")
    if min(state.turn.draws, state.passes) < 0:
        raise ValueError("turn.draws and passes cannot be negative")
    if isinstance(state.table, BoardTable) != state.rules.is_board:
        raise ValueError(f"{state.variant} is not played on a {state.table.to_json()['kind']}")


def _check_tiles(state: HandState) -> None:
    """Every tile of the variant is in exactly one place, so a rebuilt state is playable."""
    have = Counter([*state.hands[0], *state.hands[1], *state.stock, *state.out_of_play,
                    *table_tiles(state)])
    if have != Counter(state.rules.tiles.tiles):
        raise ValueError("the state's tiles are not the variant's tile set")
