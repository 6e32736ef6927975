"""A typed, frozen view of one resolved variant: the mechanics the engine interprets.

The YAML is read once, here, into small values; the engine then reads attributes instead of
dictionary keys, and every rule id it cites in an error comes from the ``rule:`` field written
next to the mechanic in the spec, never from a string in Python.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from types import MappingProxyType
from typing import Any

from dominokit.reference.errors import SpecError, SpecProblem
from dominokit.reference.tiles import Tile, tile_set
from dominokit.spec import frozen
from dominokit.spec.spec import ResolvedVariant, Variant, common_rules, load_variant
from dominokit.spec.speclint import config_problems
from dominokit.spec.vocabulary import vocabulary
from dominokit.spec.yamldoc import YamlDocument, key_text, schema_problems

SizePair = tuple[int, int]


@dataclass(frozen=True)
class TileSpec:
    """Which tiles are in play (R-ALL-01, R-SZC-01, R-PIJ-11)."""

    max_pip: int
    doubles: bool
    copies: int
    rule: str
    tiles: tuple[Tile, ...]

    @cached_property
    def counts(self) -> Counter[Tile]:
        """How many of each tile are in play: what every deal's tiles are compared with,
        counted once per rule set instead of once per hand. Shared: read it, never change it."""
        return Counter(self.tiles)

    @cached_property
    def identities(self) -> list[int]:
        """The ``id`` of each tile in play, sorted: a deal holding these very tile objects (as
        ``Tile.of`` hands out, and so every deal made from this tile set) holds the tile set,
        which sorting ints shows more cheaply than counting tiles."""
        return sorted(map(id, self.tiles))


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


VOCABULARY: Mapping[str, tuple[str, ...]] = vocabulary()
"""Every mechanic name the engine interprets: the variant schema's enums (spec/vocabulary.py)."""


def _config_problems(resolved: ResolvedVariant) -> list[SpecProblem]:
    """What is wrong with the configuration the engine would read, [] when nothing is.

    Loading a variant checked the file, and every option value of it on its own, against the
    schema and the checks a schema cannot express (spec/speclint.py); a choice of several
    non-default values at once is checked here, the same two ways, before the engine reads a
    key. The file's positions belong to the file as written, so these problems point at its
    top (line 1); the path and the option values name the place.
    """
    variant = resolved.variant
    source = str(variant.path)
    document = YamlDocument(source, view=resolved.config)
    # Rule data checked ahead of time (the in-browser engine, which has no schema validator)
    # was checked under every choice of options when it was frozen.
    ahead = frozen.checked(f"variants/{variant.id}.yaml") is not None
    problems = [] if ahead else schema_problems(document, "variant")
    if not problems:
        problems = [document.problem(path, message)
                    for path, message in config_problems(resolved.config)]
    if problems and any(resolved.options[name] != spec.default
                        for name, spec in variant.options.items()):
        chosen = ", ".join(f"{name}={key_text(value)}" for name, value in resolved.options.items())
        problems = [SpecProblem(p.file, p.line, p.col, p.path, f"with {chosen}: {p.message}")
                    for p in problems]
    return problems


def _mechanic(node: Mapping[str, Any] | None, extra: str | None = None) -> Mechanic:
    """A turn mechanic; an absent one (a variant without parity) is policy ``none``."""
    if node is None:
        return Mechanic("none", "")
    return Mechanic(node["policy"], node.get("rule", ""),
                    node.get(extra) if extra else None)


def _pairs(deals: list[list[int]]) -> tuple[SizePair, ...]:
    return tuple((a, b) for a, b in deals)


def _match(node: Mapping[str, Any]) -> MatchSpec:
    kind, rule = node["kind"], node["rule"]
    if kind == "sets":
        return MatchSpec(kind, rule, set_target=node["set_target"],
                         sets_to_win=node["sets_to_win"])
    if kind == "target":
        return MatchSpec(kind, rule, target=node["target"], compare=node["compare"])
    tb = node.get("tiebreak")
    tiebreak = None if tb is None else TiebreakSpec(_pairs(tb["deals"]), tb["swap_roles"],
                                                    tb["rule"])
    rounds = tuple(RoundSpec(r["name"], _pairs(r["deals"])) for r in node["rounds"])
    return MatchSpec(kind, rule, rounds=rounds, tiebreak=tiebreak)


def _terms(scoring: Mapping[str, Any]) -> tuple[Term, ...]:
    return tuple(
        Term(t["term"], t["to"], t.get("sign", 1), t["rule"],
             tuple(sorted((Tile.parse(k), int(v)) for k, v in (t.get("tiles") or {}).items())))
        for t in scoring["terms"])


def build_rules(resolved: ResolvedVariant) -> Rules:
    """Read a ResolvedVariant (variant, options, config) into Rules; SpecError if malformed.

    The configuration is checked first (``_config_problems``), so what follows reads keys
    the schema requires and values it allowed, without checking them again.
    """
    problems = _config_problems(resolved)
    if problems:
        raise SpecError(problems)
    config: dict[str, Any] = resolved.config
    components, setup_node, turn = config["components"], config["setup"], config["turn"]
    scoring = config["scoring"]
    tn = components["tiles"]
    tiles = TileSpec(tn["max_pip"], tn["doubles"], tn["copies"], tn["rule"],
                     tile_set(tn["max_pip"], tn["doubles"], tn["copies"]))
    tb = components["table"]
    if tb["kind"] == "chain":
        table = TableSpec(tb["kind"], tb["rule"], ends=tb["ends"], doubles=tb.get("doubles"),
                          layout=tb.get("layout"))
    else:
        table = TableSpec(tb["kind"], tb["rule"], rows=tb["rows"], cols=tb["cols"],
                          colouring=tb.get("colouring"))
    size = setup_node["hand_size"]
    deal_node = setup_node.get("deal")
    setup = SetupSpec(None if size == "schedule" else size, setup_node["remainder"],
                      setup_node["starter"], setup_node["rule"],
                      Mechanic("from_pool", setup_node["rule"]) if deal_node is None
                      else Mechanic(deal_node["policy"], deal_node["rule"]))
    en = turn.get("extra_tile")
    pn, ln = scoring.get("placement"), scoring.get("lakes")
    return Rules(
        variant_id=resolved.variant.id,
        options=MappingProxyType(dict(resolved.options)),
        tiles=tiles,
        table=table,
        setup=setup,
        opening=_mechanic(turn["opening"]),
        matching=_mechanic(turn["matching"], "adjacency_rule"),
        parity=_mechanic(turn.get("parity"), "blank_rule"),
        draw=_mechanic(turn["draw"]),
        pass_=_mechanic(turn["pass"]),
        extra_tile=None if en is None else ExtraTile(Tile.parse(en["after"]), en["rule"]),
        end=tuple(EndCondition(e["condition"], e["rule"], e.get("turns", 2))
                  for e in config["end"]),
        placement=None if pn is None else PlacementScoring(pn["same_field_multiplier"],
                                                           pn["rule"]),
        lakes=None if ln is None else LakeScoring(ln["max_cells"], ln["points_per_cell"],
                                                  ln["mode"], ln["rule"]),
        winner=Mechanic(scoring["winner"]["policy"], scoring["winner"]["rule"]),
        tie=Mechanic(scoring["winner"].get("tie", "nobody"), TIED_HAND_RULE),
        terms=_terms(scoring),
        match=_match(config["match"]),
        structural=_structural(),
        source=resolved,
    )


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
