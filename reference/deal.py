"""Deals as data (R-ALL-03): who holds what, the ordered stock, and the widow.

Every engine replays the same deal, so a deal is a plain value with one canonical JSON form,
checked against the variant before a hand starts. ``random_deal`` is only a convenience for
making deals; the randomness stops at the Deal it returns.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from dominokit.reference.errors import DealError
from dominokit.reference.rules import Rules
from dominokit.reference.tiles import MAX_NOTATION_PIP, Tile
from dominokit.spec.schemas import schema

Hands = tuple[tuple[Tile, ...], tuple[Tile, ...]]

MAX_DEAL_TILES: int = schema("deal")["$defs"]["tiles"]["maxItems"]
"""The most tiles one list of a deal may hold (deal.schema.json): a longer list is refused
before its tiles are read or counted, so the work a deal costs is bounded."""

LISTED_TILES = 6
"""Tiles an error message lists before saying how many more there are."""


@dataclass(frozen=True)
class Deal:
    """The chance part of a hand; hands and out_of_play are kept sorted, the stock in order.

    ``widow`` is the oriented widow ``(x, y)``: x faces player 0, y faces player 1 (R-SZC-02).
    """

    hands: Hands
    stock: tuple[Tile, ...] = ()
    out_of_play: tuple[Tile, ...] = ()
    starter: int | None = None
    widow: tuple[int, int] | None = None

    def __post_init__(self) -> None:
        if len(self.hands) != 2:
            raise DealError(f"a deal has two hands, got {len(self.hands)}")
        object.__setattr__(self, "hands", (tuple(sorted(self.hands[0])),
                                           tuple(sorted(self.hands[1]))))
        object.__setattr__(self, "stock", tuple(self.stock))
        object.__setattr__(self, "out_of_play", tuple(sorted(self.out_of_play)))
        if self.starter not in (None, 0, 1) or isinstance(self.starter, bool):
            raise DealError(f"starter must be 0, 1 or null, got {self.starter!r}")
        if self.widow is not None:
            widow = tuple(self.widow)
            if len(widow) != 2 or not all(
                isinstance(n, int) and not isinstance(n, bool) and 0 <= n <= MAX_NOTATION_PIP
                for n in widow
            ):
                raise DealError(f"widow must be [x, y] pips, got {self.widow!r}")
            object.__setattr__(self, "widow", (widow[0], widow[1]))

    def all_tiles(self) -> list[Tile]:
        """Every tile the deal mentions, the widow included."""
        tiles = [*self.hands[0], *self.hands[1], *self.stock, *self.out_of_play]
        if self.widow is not None:
            tiles.append(Tile.of(*self.widow))
        return tiles

    def to_json(self) -> dict[str, Any]:
        """The canonical JSON form (deal.schema.json)."""
        return {
            "hands": [[str(t) for t in hand] for hand in self.hands],
            "stock": [str(t) for t in self.stock],
            "out_of_play": [str(t) for t in self.out_of_play],
            "starter": self.starter,
            "widow": list(self.widow) if self.widow is not None else None,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Deal:
        """Read a deal's JSON form; DealError names what is malformed."""
        if not isinstance(data, Mapping):
            raise DealError(f"a deal is a JSON object, got {_short(data)}")
        unknown = set(data) - {"hands", "stock", "out_of_play", "starter", "widow"}
        if unknown:
            raise DealError(f"unknown deal keys: {_few(sorted(map(str, unknown)))}")
        hands = data.get("hands")
        if not (isinstance(hands, list) and len(hands) == 2):
            raise DealError(f"deal.hands must be two lists of tiles, got {_short(hands)}")
        return cls(
            hands=(_tiles(hands[0], "hands[0]"), _tiles(hands[1], "hands[1]")),
            stock=_tiles(data.get("stock", []), "stock"),
            out_of_play=_tiles(data.get("out_of_play", []), "out_of_play"),
            starter=data.get("starter"),
            widow=_widow(data.get("widow")),
        )


def _tiles(raw: Any, where: str) -> tuple[Tile, ...]:
    if not isinstance(raw, list):
        raise DealError(f"deal.{where} must be a list of tiles, got {_short(raw)}")
    if len(raw) > MAX_DEAL_TILES:
        raise DealError(f"deal.{where} lists {len(raw)} tiles; a deal's list holds at most "
                        f"{MAX_DEAL_TILES}")
    parsed = []
    for index, text in enumerate(raw):
        if not isinstance(text, str):
            raise DealError(f"deal.{where}[{index}] is not a tile: {_short(text)}")
        try:
            parsed.append(Tile.parse(text))
        except ValueError:
            raise DealError(f"deal.{where}[{index}] is not a tile: {_short(text)}") from None
    return tuple(parsed)


def _widow(raw: Any) -> tuple[int, int] | None:
    if raw is None:
        return None
    if not (isinstance(raw, list) and len(raw) == 2):
        raise DealError(f"deal.widow must be [x, y] or null, got {_short(raw)}")
    return raw[0], raw[1]


def _short(value: Any, limit: int = 60) -> str:
    """``repr(value)`` cut to ``limit`` characters: an error names what it refused, briefly."""
    text = repr(value)
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} characters)"


def _few(items: list[str]) -> str:
    """The first ``LISTED_TILES`` items, then how many more: an error stays short however
    wrong the deal is."""
    shown = " ".join(items[:LISTED_TILES])
    rest = len(items) - LISTED_TILES
    return shown + (f" ... and {rest} more" if rest > 0 else "")


def _counts(tiles: Iterable[Tile]) -> Counter[Tile]:
    return Counter(tiles)


def _copies(rules: Rules) -> list[tuple[Tile, ...]]:
    """The variant's tiles as its separate copies of the set, one tuple per copy."""
    copies = rules.tiles.copies
    # tile_set lists each tile's copies together, so copy k is every copies-th tile from k.
    return [rules.tiles.tiles[k::copies] for k in range(copies)]


def _check_tile_set(rules: Rules, tiles: list[Tile]) -> None:
    """Raise DealError, naming the extra and missing tiles, unless ``tiles`` are the
    variant's tile set counted by value."""
    have, want = _counts(tiles), rules.tiles.counts
    if dict.__ne__(have, want):  # no zero counts here, so dict's C comparison is Counter's
        extra = sorted((have - want).elements())
        missing = sorted((want - have).elements())
        raise DealError(
            "the deal's tiles are not the variant's tile set"
            + (f"; extra: {_few([str(t) for t in extra])}" if extra else "")
            + (f"; missing: {_few([str(t) for t in missing])}" if missing else ""),
            rules.tiles.rule,
        )


def validate_deal(rules: Rules, deal: Deal, hand_sizes: tuple[int, int] | None = None,
                  plan_label: str = "the match's next hand") -> None:
    """Raise DealError, citing the rule, unless the deal fits the variant's setup.

    The checks run in the contract's order (spec/protocol.md, "Bad deals"), so the rule cited
    for a deal wrong in several ways is the first of: the tile set, the hand sizes, one set
    each, where the remainder goes, the widow, the starter. ``hand_sizes``, for a match's hand,
    are the sizes its plan deals (``plan_label`` names that hand in the message); otherwise
    the variant's hand size or its schedule decides.
    """
    setup = rules.setup
    every_tile = deal.all_tiles()
    if sorted(map(id, every_tile)) != rules.tiles.identities:  # else the very same objects
        _check_tile_set(rules, every_tile)
    sizes = (len(deal.hands[0]), len(deal.hands[1]))
    size_rule = setup.deal.rule if setup.hand_size is not None else setup.rule
    if hand_sizes is not None:
        if sizes != hand_sizes:
            raise DealError(f"{plan_label} deals hands of {hand_sizes}, got {sizes}", size_rule)
    elif setup.hand_size is not None:
        if sizes != (setup.hand_size, setup.hand_size):
            raise DealError(f"hands must hold {setup.hand_size} tiles each, got {sizes}",
                            setup.deal.rule)
    elif sizes not in rules.match.schedule_sizes():
        raise DealError(f"hand sizes {sizes} do not occur in the match schedule", setup.rule)
    if setup.deal.policy == "one_set_each":
        one = _counts(_copies(rules)[0])
        for player, hand in enumerate(deal.hands):
            if _counts(hand) != one:
                raise DealError(f"player {player} must hold one complete set", setup.deal.rule)
    remainder = {"stock": deal.stock, "out_of_play": deal.out_of_play}
    for name, tiles in remainder.items():
        if tiles and setup.remainder != name:
            raise DealError(f"this variant deals no {name} (remainder: {setup.remainder})",
                            setup.rule)
    if (deal.widow is not None) != (setup.remainder == "widow"):
        raise DealError("a widow is dealt exactly when the remainder is the widow", setup.rule)
    if deal.widow is not None and deal.widow[0] == deal.widow[1]:
        raise DealError(f"the widow cannot be a double, got {deal.widow}", setup.rule)
    if setup.starter == "widow" and deal.starter is not None:
        raise DealError("the widow decides the starter; deal.starter must be null", setup.rule)
    if setup.starter == "alternate" and deal.starter is None:
        raise DealError("a hand on its own needs deal.starter 0 or 1", setup.rule)


def random_deal(
    rules: Rules,
    rng: random.Random,
    *,
    hand_sizes: tuple[int, int] | None = None,
    starter: int | None = None,
) -> Deal:
    """Shuffle the variant's tiles with ``rng`` and deal them; the result is plain data.

    Without ``hand_sizes`` the setup's hand size is used (a scheduled variant needs them).
    Without ``starter`` an alternating variant draws the starter by lot from ``rng``.
    """
    setup = rules.setup
    if hand_sizes is None:
        if setup.hand_size is None:
            raise DealError("this variant's hand sizes come from the match schedule; "
                            "pass hand_sizes", setup.rule)
        hand_sizes = (setup.hand_size, setup.hand_size)
    if setup.deal.policy == "one_set_each":
        tiles = [tile for one_set in _copies(rules) for tile in one_set]
    else:
        tiles = list(rules.tiles.tiles)
        rng.shuffle(tiles)
    a, b = hand_sizes
    if a < 0 or b < 0 or a + b > len(tiles):
        raise DealError(f"cannot deal hands of {hand_sizes} from {len(tiles)} tiles", setup.rule)
    hands: Hands = (tuple(tiles[:a]), tuple(tiles[a:a + b]))
    rest = tiles[a + b:]
    stock: list[Tile] = []
    out: list[Tile] = []
    widow: tuple[int, int] | None = None
    if setup.remainder == "stock":
        stock = rest
    elif setup.remainder == "out_of_play":
        out = rest
    elif setup.remainder == "widow":
        if len(rest) != 1:
            raise DealError(f"a widow deal leaves one tile, not {len(rest)}", setup.rule)
        tile = rest[0]
        widow = (tile.low, tile.high) if rng.randrange(2) == 0 else (tile.high, tile.low)
    elif rest:
        raise DealError(f"{len(rest)} tiles left over but the variant deals all", setup.rule)
    if setup.starter == "widow":
        starter = None
    elif starter is None:
        starter = rng.randrange(2)
    deal = Deal(hands, tuple(stock), tuple(out), starter, widow)
    validate_deal(rules, deal)
    return deal
