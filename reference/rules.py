"""A typed, frozen view of one resolved variant: the mechanics the engine interprets.

The YAML is read once, here, into small values; the engine then reads attributes instead of
dictionary keys, and every rule id it cites in an error comes from the ``rule:`` field written
next to the mechanic in the spec, never from a string in Python.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from types import MappingProxyType
from typing import Any

from dominokit.reference.errors import SpecError, SpecProblem
from dominokit.reference.tiles import Tile, tile_set
from dominokit.spec.spec import ResolvedVariant, Variant, common_rules, load_variant

SizePair = tuple[int, int]


@dataclass(frozen=True)
class TileSpec:
    """Which tiles are in play (R-ALL-01, R-SZC-01, R-PIJ-11)."""

    max_pip: int
    doubles: bool
    copies: int
    rule: str
    tiles: tuple[Tile, ...]


@dataclass(frozen=True)
class TableSpec:
    """Where tiles go: a chain with ``ends`` open ends, or a ``rows`` x ``cols`` board."""

    kind: str
    rule: str
    ends: int = 2
    doubles: str | None = None
    layout: str | None = None
    rows: int = 0
    cols: int = 0
    colouring: str | None = None


@dataclass(frozen=True)
class Mechanic:
    """A mechanic chosen by policy name, with the rule that states it."""

    policy: str
    rule: str
    extra_rule: str | None = None
    """The second rule some mechanics carry: adjacency (board matching), blank end (parity)."""


@dataclass(frozen=True)
class SetupSpec:
    """How a hand is dealt; ``hand_size`` is None when the match schedule decides.

    ``deal`` says which tiles a hand may hold: ``from_pool`` (any split of the tiles in play)
    or ``one_set_each`` (each player holds one complete copy of the set, R-PIJ-11). A spec
    without ``setup.deal`` means ``from_pool``, citing the setup's rule.
    """

    hand_size: int | None
    remainder: str
    starter: str
    rule: str
    deal: Mechanic


@dataclass(frozen=True)
class ExtraTile:
    """Placing ``after`` lets the same player place one more tile or stop (R-PIJ-07)."""

    after: Tile
    rule: str


@dataclass(frozen=True)
class EndCondition:
    """One way a hand ends; checked in spec order after every action (R-ALL-10)."""

    condition: str
    rule: str
    turns: int = 2


@dataclass(frozen=True)
class PlacementScoring:
    """Board placement points: pips, times ``multiplier`` when the tile lies on one field."""

    multiplier: int
    rule: str


@dataclass(frozen=True)
class LakeScoring:
    """Board lake points (R-PIJ-06)."""

    max_cells: int
    points_per_cell: int
    mode: str
    rule: str


@dataclass(frozen=True)
class Term:
    """One scoring term; ``to`` is winner, loser (subtracted) or each; ``tiles`` for bonuses."""

    term: str
    to: str
    sign: int
    rule: str
    tiles: tuple[tuple[Tile, int], ...] = ()

    def value_of(self, tile: Tile | None) -> int:
        """Points the term lists for ``tile`` (0 when it is not listed)."""
        return next((points for listed, points in self.tiles if listed == tile), 0)


@dataclass(frozen=True)
class RoundSpec:
    """One named round of deals; each deal is (player A's hand size, player B's)."""

    name: str
    deals: tuple[SizePair, ...]


@dataclass(frozen=True)
class TiebreakSpec:
    """Deals played when rounds are tied; roles swap on each repeat when ``swap_roles``."""

    deals: tuple[SizePair, ...]
    swap_roles: bool
    rule: str


@dataclass(frozen=True)
class MatchSpec:
    """How hands make a match: sets, a target total, or scheduled rounds."""

    kind: str
    rule: str
    set_target: int = 0
    sets_to_win: int = 0
    target: int = 0
    compare: str = "at_least"
    rounds: tuple[RoundSpec, ...] = ()
    tiebreak: TiebreakSpec | None = None

    def schedule_sizes(self) -> frozenset[SizePair]:
        """Every (player 0, player 1) hand-size pair the schedule can deal.

        Tiebreak deals may swap roles, and either player may be player A, so both orders of
        each tiebreak pair occur.
        """
        pairs = {deal for rnd in self.rounds for deal in rnd.deals}
        if self.tiebreak is not None:
            for a, b in self.tiebreak.deals:
                pairs |= {(a, b), (b, a)}
        return frozenset(pairs)


@dataclass(frozen=True)
class StructuralRules:
    """Rule ids of the turn structure every variant shares (spec/common.yaml)."""

    own_tiles: str
    """R-ALL-12: a player places only tiles from their own hand."""
    turn_order: str
    """R-ALL-13: only the player to move acts; draws and the extra tile do not end a turn."""
    hand_over: str
    """R-ALL-14: no action after the hand has ended."""
    starters: str
    """R-ALL-04: the lot picks the first starter, then starters alternate across the match;
    the match, not a deal, names a match hand's starter."""


@dataclass(frozen=True)
class Rules:
    """Everything the engine needs to know about one variant under one choice of options."""

    variant_id: str
    options: Mapping[str, object]
    tiles: TileSpec
    table: TableSpec
    setup: SetupSpec
    opening: Mechanic
    matching: Mechanic
    parity: Mechanic
    draw: Mechanic
    pass_: Mechanic
    extra_tile: ExtraTile | None
    end: tuple[EndCondition, ...]
    placement: PlacementScoring | None
    lakes: LakeScoring | None
    winner: Mechanic
    terms: tuple[Term, ...]
    match: MatchSpec
    structural: StructuralRules
    source: ResolvedVariant | None = field(default=None, compare=False, repr=False)
    """The ResolvedVariant this view was built from (for the match and the CLI)."""
    tie: Mechanic = Mechanic("nobody", "R-ALL-06")
    """Who wins a hand whose scores are level (``scoring.winner.tie``, R-ALL-06): nobody, as
    decided; ``starter`` is the ruling's alternative reading, which ``--diagnose`` runs."""

    @property
    def is_board(self) -> bool:
        """True for a board table (Pijanowski), False for a chain."""
        return self.table.kind == "board"

    def options_json(self) -> dict[str, object]:
        """The fully resolved options as a plain dict, as HandState JSON carries them."""
        return dict(self.options)


class _Reader:
    """Reads a config dict, turning a missing or mistyped key into a SpecError with its path."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, path: str, message: str) -> SpecError:
        return SpecError([SpecProblem(self.source, 0, 0, path, message)])

    def node(self, data: Any, path: str) -> dict[str, Any]:
        if not isinstance(data, dict):
            raise self.fail(path, f"expected a mapping, got {data!r}")
        return data

    def get(self, data: dict[str, Any], key: str, path: str, kind: type | tuple[type, ...],
            default: Any = ...) -> Any:
        if key not in data:
            if default is ...:
                raise self.fail(f"{path}.{key}", "missing")
            return default
        value = data[key]
        if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
            raise self.fail(f"{path}.{key}", f"unexpected value {value!r}")
        return value


def _pairs(read: _Reader, data: Any, path: str) -> tuple[SizePair, ...]:
    if not isinstance(data, list):
        raise read.fail(path, f"expected a list of [a, b] pairs, got {data!r}")
    out: list[SizePair] = []
    for i, pair in enumerate(data):
        if not (isinstance(pair, list) and len(pair) == 2
                and all(isinstance(n, int) and not isinstance(n, bool) for n in pair)):
            raise read.fail(f"{path}[{i}]", f"expected [a, b], got {pair!r}")
        out.append((pair[0], pair[1]))
    return tuple(out)


def _mechanic(read: _Reader, turn: dict[str, Any], key: str, extra: str | None = None,
              required: bool = True) -> Mechanic:
    path = f"$.turn.{key}"
    if key not in turn and not required:
        return Mechanic("none", "")
    node = read.node(turn.get(key), path)
    policy = read.get(node, "policy", path, str)
    rule = read.get(node, "rule", path, str, "" if policy == "none" else ...)
    extra_rule = read.get(node, extra, path, str, None) if extra else None
    return Mechanic(policy, rule, extra_rule)


def _match(read: _Reader, node: dict[str, Any]) -> MatchSpec:
    path = "$.match"
    kind = read.get(node, "kind", path, str)
    rule = read.get(node, "rule", path, str)
    if kind == "sets":
        return MatchSpec(kind, rule, set_target=read.get(node, "set_target", path, int),
                         sets_to_win=read.get(node, "sets_to_win", path, int))
    if kind == "target":
        return MatchSpec(kind, rule, target=read.get(node, "target", path, int),
                         compare=read.get(node, "compare", path, str))
    if kind == "rounds":
        rounds = tuple(
            RoundSpec(read.get(read.node(r, f"{path}.rounds[{i}]"), "name", path, str),
                      _pairs(read, r.get("deals"), f"{path}.rounds[{i}].deals"))
            for i, r in enumerate(read.get(node, "rounds", path, list))
        )
        tiebreak = None
        if "tiebreak" in node:
            tb = read.node(node["tiebreak"], f"{path}.tiebreak")
            tiebreak = TiebreakSpec(_pairs(read, tb.get("deals"), f"{path}.tiebreak.deals"),
                                    read.get(tb, "swap_roles", f"{path}.tiebreak", bool),
                                    read.get(tb, "rule", f"{path}.tiebreak", str))
        return MatchSpec(kind, rule, rounds=rounds, tiebreak=tiebreak)
    raise read.fail(f"{path}.kind", f"unknown match kind {kind!r}")


def _terms(read: _Reader, scoring: dict[str, Any]) -> tuple[Term, ...]:
    out: list[Term] = []
    for i, raw in enumerate(read.get(scoring, "terms", "$.scoring", list)):
        path = f"$.scoring.terms[{i}]"
        node = read.node(raw, path)
        listed = read.get(node, "tiles", path, dict, {})
        try:
            tiles = tuple(sorted((Tile.parse(k), int(v)) for k, v in listed.items()))
        except ValueError as exc:
            raise read.fail(f"{path}.tiles", str(exc)) from exc
        sign = read.get(node, "sign", path, int, 1)
        out.append(Term(read.get(node, "term", path, str), read.get(node, "to", path, str),
                        sign, read.get(node, "rule", path, str), tiles))
    return tuple(out)


PLAYERS = 2
"""Every variant is for two players, so a deal has two hands (R-ALL-02)."""

OWN_TILES_RULE = "R-ALL-12"
TURN_ORDER_RULE = "R-ALL-13"
HAND_OVER_RULE = "R-ALL-14"
STARTERS_RULE = "R-ALL-04"
TIED_HAND_RULE = "R-ALL-06"
"""Ids of the structural rules in spec/common.yaml; no variant mechanic carries them."""


def _structural() -> StructuralRules:
    """The structural rule ids, checked against spec/common.yaml so that a retired id fails
    when Rules are built, not in an error message much later."""
    defined = {entry.id for entry in common_rules()}
    wanted = (OWN_TILES_RULE, TURN_ORDER_RULE, HAND_OVER_RULE, STARTERS_RULE)
    missing = [rule_id for rule_id in wanted if rule_id not in defined]
    if missing:
        raise SpecError([SpecProblem("spec/common.yaml", 1, 1, "$.rules",
                                     f"the engine cites {', '.join(missing)}, not defined here")])
    return StructuralRules(*wanted)


VOCABULARY: dict[str, tuple[str, ...]] = {
    "table": ("chain", "board"),
    "remainder": ("stock", "out_of_play", "widow", "none"),
    "starter": ("alternate", "widow"),
    "deal": ("from_pool", "one_set_each"),
    "opening": ("any_tile", "widow", "anywhere"),
    "matching": ("equal_halves", "board_contacts"),
    "parity": ("none", "opposite_or_blank"),
    "draw": ("none", "free", "until_fit"),
    "pass": ("always", "when_stuck"),
    "end": ("domino", "block", "mutual_pass"),
    "winner": ("domino_or_fewer_pips", "higher_hand_score"),
    "term": ("opponent_pips", "own_pips", "last_tile_bonus", "catch", "placement_points"),
    "to": ("winner", "loser", "each"),
    "lake_mode": ("new_region", "newly_enclosed"),
    "tie": ("nobody", "starter"),
}
"""Every mechanic name the engine interprets; anything else is refused when Rules are built."""


def check_vocabulary(rules: Rules, source: str) -> None:
    """Refuse a spec naming a mechanic the engine does not know, before any hand starts."""
    used: list[tuple[str, str, str]] = [
        ("table", "$.components.table.kind", rules.table.kind),
        ("remainder", "$.setup.remainder", rules.setup.remainder),
        ("starter", "$.setup.starter", rules.setup.starter),
        ("deal", "$.setup.deal.policy", rules.setup.deal.policy),
        ("opening", "$.turn.opening.policy", rules.opening.policy),
        ("matching", "$.turn.matching.policy", rules.matching.policy),
        ("parity", "$.turn.parity.policy", rules.parity.policy),
        ("draw", "$.turn.draw.policy", rules.draw.policy),
        ("pass", "$.turn.pass.policy", rules.pass_.policy),
        ("winner", "$.scoring.winner.policy", rules.winner.policy),
        ("tie", "$.scoring.winner.tie", rules.tie.policy),
    ]
    used += [("end", f"$.end[{i}].condition", e.condition) for i, e in enumerate(rules.end)]
    for i, term in enumerate(rules.terms):
        used += [("term", f"$.scoring.terms[{i}].term", term.term),
                 ("to", f"$.scoring.terms[{i}].to", term.to)]
    if rules.lakes is not None:
        used.append(("lake_mode", "$.scoring.lakes.mode", rules.lakes.mode))
    problems = [
        SpecProblem(source, 0, 0, path, f"unknown {what} {value!r}; expected one of "
                    f"{', '.join(VOCABULARY[what])}")
        for what, path, value in used
        if value not in VOCABULARY[what]
    ]
    board = rules.table.kind == "board"
    pairs = [
        ("$.turn.matching.policy", rules.matching.policy == "board_contacts", board),
        ("$.turn.opening.policy", rules.opening.policy == "anywhere", board),
        ("$.turn.opening.policy", rules.opening.policy == "widow",
         rules.setup.remainder == "widow"),
        ("$.setup.starter", rules.setup.starter == "widow", rules.setup.remainder == "widow"),
    ]
    problems += [
        SpecProblem(source, 0, 0, path, "this mechanic does not fit the table or setup "
                    f"({rules.table.kind} table, {rules.setup.remainder} remainder)")
        for path, uses, needs in pairs
        if uses != needs
    ]
    problems += _one_set_each_problems(rules, source)
    if problems:
        raise SpecError(problems)


def _one_set_each_problems(rules: Rules, source: str) -> list[SpecProblem]:
    """A one_set_each deal needs one copy of the set per player, all of it dealt: otherwise
    no deal could satisfy it, and every hand would fail only when dealt."""
    if rules.setup.deal.policy != "one_set_each":
        return []
    one_set = len(rules.tiles.tiles) // rules.tiles.copies
    fits = (rules.tiles.copies == PLAYERS and rules.setup.remainder == "none"
            and rules.setup.hand_size == one_set)
    if fits:
        return []
    return [SpecProblem(
        source, 0, 0, "$.setup.deal.policy",
        f"one_set_each needs components.tiles.copies: {PLAYERS} (one set per player), "
        f"setup.hand_size: {one_set} (one set) and setup.remainder: none; got copies "
        f"{rules.tiles.copies}, hand_size {rules.setup.hand_size}, remainder "
        f"{rules.setup.remainder}")]


def build_rules(resolved: ResolvedVariant) -> Rules:
    """Read a ResolvedVariant (variant, options, config) into Rules; SpecError if malformed."""
    config: dict[str, Any] = resolved.config
    variant = resolved.variant
    read = _Reader(str(variant.path))
    root = read.node(config, "$")
    components = read.node(root.get("components"), "$.components")
    tnode = read.node(components.get("tiles"), "$.components.tiles")
    max_pip = read.get(tnode, "max_pip", "$.components.tiles", int)
    doubles = read.get(tnode, "doubles", "$.components.tiles", bool)
    copies = read.get(tnode, "copies", "$.components.tiles", int, 1)
    tiles = TileSpec(max_pip, doubles, copies, read.get(tnode, "rule", "$.components.tiles", str),
                     tile_set(max_pip, doubles, copies))

    tb = read.node(components.get("table"), "$.components.table")
    tpath = "$.components.table"
    kind = read.get(tb, "kind", tpath, str)
    if kind == "chain":
        table = TableSpec(kind, read.get(tb, "rule", tpath, str),
                          ends=read.get(tb, "ends", tpath, int),
                          doubles=read.get(tb, "doubles", tpath, str, None),
                          layout=read.get(tb, "layout", tpath, str, None))
    elif kind == "board":
        table = TableSpec(kind, read.get(tb, "rule", tpath, str),
                          rows=read.get(tb, "rows", tpath, int),
                          cols=read.get(tb, "cols", tpath, int),
                          colouring=read.get(tb, "colouring", tpath, str, None))
    else:
        raise read.fail(f"{tpath}.kind", f"unknown table kind {kind!r}")

    sn = read.node(root.get("setup"), "$.setup")
    size = read.get(sn, "hand_size", "$.setup", (int, str))
    if isinstance(size, str) and size != "schedule":
        raise read.fail("$.setup.hand_size", f"expected a number or 'schedule', got {size!r}")
    setup_rule = read.get(sn, "rule", "$.setup", str)
    deal = Mechanic("from_pool", setup_rule)
    if "deal" in sn:
        dn = read.node(sn["deal"], "$.setup.deal")
        deal = Mechanic(read.get(dn, "policy", "$.setup.deal", str),
                        read.get(dn, "rule", "$.setup.deal", str))
    setup = SetupSpec(None if isinstance(size, str) else size,
                      read.get(sn, "remainder", "$.setup", str),
                      read.get(sn, "starter", "$.setup", str),
                      setup_rule, deal)

    turn = read.node(root.get("turn"), "$.turn")
    extra = None
    if "extra_tile" in turn:
        en = read.node(turn["extra_tile"], "$.turn.extra_tile")
        try:
            after = Tile.parse(read.get(en, "after", "$.turn.extra_tile", str))
        except ValueError as exc:
            raise read.fail("$.turn.extra_tile.after", str(exc)) from exc
        extra = ExtraTile(after, read.get(en, "rule", "$.turn.extra_tile", str))

    ends: list[EndCondition] = []
    for i, raw in enumerate(read.get(root, "end", "$", list)):
        node = read.node(raw, f"$.end[{i}]")
        ends.append(EndCondition(read.get(node, "condition", f"$.end[{i}]", str),
                                 read.get(node, "rule", f"$.end[{i}]", str),
                                 read.get(node, "turns", f"$.end[{i}]", int, 2)))

    scoring = read.node(root.get("scoring"), "$.scoring")
    placement = None
    if "placement" in scoring:
        pn = read.node(scoring["placement"], "$.scoring.placement")
        placement = PlacementScoring(
            read.get(pn, "same_field_multiplier", "$.scoring.placement", int),
            read.get(pn, "rule", "$.scoring.placement", str))
    lakes = None
    if "lakes" in scoring:
        ln = read.node(scoring["lakes"], "$.scoring.lakes")
        lakes = LakeScoring(read.get(ln, "max_cells", "$.scoring.lakes", int),
                            read.get(ln, "points_per_cell", "$.scoring.lakes", int),
                            read.get(ln, "mode", "$.scoring.lakes", str),
                            read.get(ln, "rule", "$.scoring.lakes", str))
    wn = read.node(scoring.get("winner"), "$.scoring.winner")

    rules = Rules(
        variant_id=variant.id,
        options=MappingProxyType(dict(resolved.options)),
        tiles=tiles,
        table=table,
        setup=setup,
        opening=_mechanic(read, turn, "opening"),
        matching=_mechanic(read, turn, "matching", "adjacency_rule"),
        parity=_mechanic(read, turn, "parity", "blank_rule", required=False),
        draw=_mechanic(read, turn, "draw"),
        pass_=_mechanic(read, turn, "pass"),
        extra_tile=extra,
        end=tuple(ends),
        placement=placement,
        lakes=lakes,
        winner=Mechanic(read.get(wn, "policy", "$.scoring.winner", str),
                        read.get(wn, "rule", "$.scoring.winner", str)),
        tie=Mechanic(read.get(wn, "tie", "$.scoring.winner", str, "nobody"), TIED_HAND_RULE),
        terms=_terms(read, scoring),
        match=_match(read, read.node(root.get("match"), "$.match")),
        structural=_structural(),
        source=resolved,
    )
    check_vocabulary(rules, read.source)
    return rules


@lru_cache(maxsize=128)
def _rules_for_id(variant_id: str, options: tuple[tuple[str, Any], ...]) -> Rules:
    return build_rules(load_variant(variant_id).resolve(dict(options)))


def load_rules(variant: str | Variant, options: Mapping[str, object] | None = None) -> Rules:
    """Rules for a bundled variant id (cached, so states rebuilt from JSON share them), a
    variant file path, or a loaded Variant; OptionError for options the variant refuses."""
    if isinstance(variant, str) and "/" not in variant and not variant.endswith(".yaml"):
        return _rules_for_id(variant, tuple(sorted((options or {}).items())))
    chosen = load_variant(variant) if isinstance(variant, str) else variant
    return build_rules(chosen.resolve(dict(options or {})))
