"""The state of one hand, the events an action emits, and a hand's result, with their JSON.

The model is one of honest immutable values. A HandState, its table and its events are built
complete by their constructors and never written afterwards: ``apply_action`` returns a new
state (``evolve``) and leaves the old one as it was. Why values, and not one state changed in
place with an undo stack (python-chess's ``push``/``pop``): a reference is read and compared
more than it is searched. Callers keep any state they like (a trace's every position, a
differential test's two engines side by side, the kit's shrinking back to an earlier
position) and compare or hash them, and no caller can leave a state half-undone. The cost
is one new object per action, kept small: HandState and ChainTable are slotted frozen
dataclasses (reading a slot is quicker), which the engine makes by writing each slot once
as a plain attribute of an object of the same layout, which then takes the frozen class
(``make_state``; the frozen constructor's ``object.__setattr__`` per field cost about six
times as much), and an Event is a named tuple (built in one step; events
are records, created one to three per action).

What the engine works out about a board (each tile's legal placements, brought up to date
from the board before) is not part of any value: it is kept in ``board_table.MEMO``, a memo
beside the boards, owned by that module, which holds each board weakly. It changes how fast a
board answers, never what (tests/reference/test_board_plain.py checks every answer against the plain
rules). A state also remembers its own legal list once the engine has listed it (``_legal``,
for lists of a chain game's length): a memo of what the value determines, like an Action's
remembered spelling, never compared, hashed or written out, so a state read back from JSON
or made by ``dataclasses.replace`` is the same value without it. A later, faster engine may
keep a mutable core with undo behind this same value API.

The JSON form is canonical and round-trips; the Rules a state carries are rebuilt from
variant and options.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from operator import attrgetter
from typing import Any, NamedTuple

from dominokit.reference.board_table import BoardPlacement, BoardTable
from dominokit.reference.chain import ChainTable
from dominokit.reference.notation import Action
from dominokit.reference.rules import Rules, load_rules
from dominokit.reference.tiles import Tile

Cell = tuple[int, int]
Hands = tuple[tuple[Tile, ...], tuple[Tile, ...]]
Pair = tuple[int, int]

_LOW, _HIGH = attrgetter("low"), attrgetter("high")

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


class Event(NamedTuple):
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


def event(type: str, **fields: Any) -> Event:
    """``Event(type, **fields)``: the engine's spelling of one event."""
    return Event(type, **fields)


Table = ChainTable | BoardTable


@dataclass(frozen=True, slots=True)
class Turn:
    """Progress inside the current turn: draws made, and whether the extra tile is pending."""

    draws: int = 0
    extra: bool = False


@dataclass(frozen=True, slots=True)
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
    _legal: tuple[Action, ...] | None = field(default=None, init=False, compare=False,
                                              repr=False)
    """The legal actions once the engine has listed them (``engine.legal_actions``), else
    None. Like ``Action``'s remembered spelling, a memo of what the value already determines,
    never part of it (not compared, hashed, shown or written to JSON): a state is listed at
    the end of the action that made it (the block check needs the mover's placements) and
    again by the caller choosing a move, and ``apply_action`` finds a listed action in it
    instead of checking it again. ``evolve`` and ``dataclasses.replace`` make a state
    without it."""

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
        """Pips left in each hand: ``sum(t.pips for t in hand)``, each half summed in C (every
        hand's end scores it, sometimes twice)."""
        first, second = self.hands
        return (sum(map(_LOW, first)) + sum(map(_HIGH, first)),
                sum(map(_LOW, second)) + sum(map(_HIGH, second)))

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


_SAME: Any = object()
"""``evolve``'s mark of a field left as it is."""


def evolve(state: HandState, *, rules: Rules = _SAME, hands: Hands = _SAME,
           stock: tuple[Tile, ...] = _SAME, out_of_play: tuple[Tile, ...] = _SAME,
           table: Table = _SAME, starter: int = _SAME, to_move: int | None = _SAME,
           turn: Turn = _SAME, passes: int = _SAME, points: Pair = _SAME,
           last_placed: tuple[Tile | None, Tile | None] = _SAME, widow: Pair | None = _SAME,
           result: HandResult | None = _SAME) -> HandState:
    """A new state: ``state`` with the given fields changed (``state`` itself is unchanged).

    ``dataclasses.replace`` does the same, but finds the fields anew on every call, which cost
    more than the rules at one new state per action; this fills every field of a new state
    through ``make_state``, and leaves nothing remembered (``_legal``) from ``state``.
    """
    return make_state(
        state.rules if rules is _SAME else rules,
        state.hands if hands is _SAME else hands,
        state.stock if stock is _SAME else stock,
        state.out_of_play if out_of_play is _SAME else out_of_play,
        state.table if table is _SAME else table,
        state.starter if starter is _SAME else starter,
        state.to_move if to_move is _SAME else to_move,
        state.turn if turn is _SAME else turn,
        state.passes if passes is _SAME else passes,
        state.points if points is _SAME else points,
        state.last_placed if last_placed is _SAME else last_placed,
        state.widow if widow is _SAME else widow,
        state.result if result is _SAME else result,
    )


_FIELDS = ("rules", "hands", "stock", "out_of_play", "table", "starter", "to_move", "turn",
           "passes", "points", "last_placed", "widow", "result", "_legal")
assert tuple(f.name for f in fields(HandState)) == _FIELDS, "make_state sets every field"
class _Unsealed:
    """HandState's very slots, in its order, without its frozen ``__setattr__``: a state is
    written here through plain attribute stores, then given its class (``make_state``)."""

    __slots__ = _FIELDS


def make_state(rules: Rules, hands: Hands, stock: tuple[Tile, ...],
               out_of_play: tuple[Tile, ...], table: Table, starter: int, to_move: int | None,
               turn: Turn, passes: int, points: Pair,
               last_placed: tuple[Tile | None, Tile | None], widow: Pair | None,
               result: HandResult | None) -> HandState:
    """``HandState(rules, hands, ..., result)``, built field by field before anyone sees it.

    The frozen dataclass's constructor writes its fields through ``object.__setattr__``, a
    look-up and a call per field, and even each slot's own descriptor is a call. Here the
    fields are plain attribute stores on an ``_Unsealed`` object, whose slots are
    HandState's, and the finished object then becomes a HandState (``__class__`` assignment,
    which Python allows between classes of one layout): about a third of the descriptors'
    cost, at one state per action. Nothing writes the state after it is returned; nothing is
    checked that the constructor would check: it checks nothing either.
    """
    state: Any = _Unsealed()
    state.rules = rules
    state.hands = hands
    state.stock = stock
    state.out_of_play = out_of_play
    state.table = table
    state.starter = starter
    state.to_move = to_move
    state.turn = turn
    state.passes = passes
    state.points = points
    state.last_placed = last_placed
    state.widow = widow
    state.result = result
    state._legal = None
    state.__class__ = HandState
    made: HandState = state
    return made


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
