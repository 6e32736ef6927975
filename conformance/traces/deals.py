"""The deals of a trace file checked against its variant, each problem at its tile.

A deal the variant cannot deal (a tile twice, in both hands, missing or not in the set, a hand
of the wrong size, a starter the widow decides) would only be refused by the engine at replay,
as one unlocated error; read here, with the file's marks, every such problem is its own line
``file:line:col: $.deal.hands[1][0]: message (RULE)`` and the replay is not attempted. The rule
cited is the one the reference cites for the same refusal (``reference/deal.py``), and a deal
these checks pass is still given to ``validate_deal``, so nothing the engine refuses slips by.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import Any

from dominokit.reference.deal import Deal, validate_deal
from dominokit.reference.errors import DominokitError, SpecProblem
from dominokit.reference.rules import Rules, load_rules
from dominokit.reference.tiles import Tile
from dominokit.spec.yamldoc import JsonPath, YamlDocument, json_path

_PILES = ("stock", "out_of_play")


def trace_deal_problems(document: YamlDocument) -> list[SpecProblem]:
    """Every problem with the deals of a schema-valid trace ([] if its options do not resolve:
    that is reported on its own)."""
    data: dict[str, Any] = document.data
    try:
        rules = load_rules(data["variant"], dict(data["options"]))
    except (DominokitError, TypeError):
        return []
    if data["kind"] != "match":  # a hand, or a perft position: one standalone deal
        found = _DealCheck(document, rules, ("deal",), in_match=False).run()
    else:
        found = [problem for part in ("prelude", "hands")
                 for index, _ in enumerate(data.get(part, ()))
                 for problem in _DealCheck(document, rules, (part, index, "deal"),
                                           in_match=True).run()]
    return sorted(found, key=lambda p: (p.line, p.col))


class _DealCheck:
    """One deal of the document at ``base``; ``in_match``: the match names the starter."""

    def __init__(self, document: YamlDocument, rules: Rules, base: JsonPath, *,
                 in_match: bool) -> None:
        self.document = document
        self.rules = rules
        self.base = base
        self.in_match = in_match
        node: Any = document.data
        for step in base:
            node = node[step]
        self.deal: dict[str, Any] = node
        self.problems: list[SpecProblem] = []

    def run(self) -> list[SpecProblem]:
        self._tiles()
        self._sizes()
        self._remainder()
        self._starter()
        if not self.problems:
            self._reference()
        return self.problems

    def _add(self, where: JsonPath, message: str, rule: str, *, key: bool = False) -> None:
        self.problems.append(self.document.problem((*self.base, *where), f"{message} ({rule})",
                                                   key=key))

    def _located_tiles(self) -> list[tuple[JsonPath, Tile]]:
        """Every tile of the deal with where it is written, the widow included."""
        out: list[tuple[JsonPath, Tile]] = []
        for player, hand in enumerate(self.deal["hands"]):
            out += [(("hands", player, i), Tile.parse(text)) for i, text in enumerate(hand)]
        for pile in _PILES:
            out += [((pile, i), Tile.parse(text))
                    for i, text in enumerate(self.deal.get(pile) or [])]
        widow = self.deal.get("widow")
        if widow is not None:
            out.append((("widow",), Tile.of(*widow)))
        return out

    def _tiles(self) -> None:
        """R-ALL-03: the deal holds exactly the variant's tiles, each as often as the set."""
        rule = self.rules.tiles.rule
        copies = Counter(self.rules.tiles.tiles)
        first: dict[Tile, JsonPath] = {}
        seen: Counter[Tile] = Counter()
        for where, tile in self._located_tiles():
            seen[tile] += 1
            if tile not in copies:
                self._add(where, f"tile {tile} is not in the variant's tile set", rule)
            elif seen[tile] > copies[tile]:
                earlier = json_path((*self.base, *first[tile]))
                both = where[0] == "hands" and first[tile][0] == "hands" and \
                    where[1] != first[tile][1]
                what = "is in both hands" if both else "is dealt more than once"
                self._add(where, f"tile {tile} {what} (also at {earlier}); the tile set holds "
                                 f"{copies[tile]} {_plural(copies[tile], 'copy', 'copies')}",
                          rule)
            first.setdefault(tile, where)
        missing = sorted((copies - seen).elements())
        if missing:
            self._add((), f"tiles of the set dealt to no one: {' '.join(map(str, missing))}",
                      rule, key=True)

    def _sizes(self) -> None:
        setup = self.rules.setup
        hands = self.deal["hands"]
        if setup.hand_size is not None:
            for player, hand in enumerate(hands):
                if len(hand) != setup.hand_size:
                    self._add(("hands", player), f"player {player}'s hand holds {len(hand)} "
                              f"tiles; the variant deals {setup.hand_size} each",
                              setup.deal.rule)
            return
        sizes = (len(hands[0]), len(hands[1]))
        if sizes not in self.rules.match.schedule_sizes():
            self._add(("hands",), f"hand sizes {list(sizes)} do not occur in the match "
                                  f"schedule", setup.rule)

    def _remainder(self) -> None:
        setup = self.rules.setup
        for pile in _PILES:
            if self.deal.get(pile) and setup.remainder != pile:
                self._add((pile,), f"this variant deals no {pile} (remainder: "
                                   f"{setup.remainder})", setup.rule)
        widow = self.deal.get("widow")
        if (widow is not None) != (setup.remainder == "widow"):
            wanted = "a widow [x, y]" if widow is None else "no widow (null)"
            self._add(("widow",), f"this variant deals {wanted} (remainder: "
                                  f"{setup.remainder})", setup.rule)
        elif widow is not None and widow[0] == widow[1]:
            self._add(("widow",), f"the widow cannot be a double, got {widow}", setup.rule)

    def _starter(self) -> None:
        setup = self.rules.setup
        starter = self.deal.get("starter")
        if setup.starter == "widow" and starter is not None:
            self._add(("starter",), f"the widow decides the starter; deal.starter must be "
                                    f"null, got {starter}", setup.rule)
        elif setup.starter == "alternate" and starter is None and not self.in_match:
            self._add(("starter",), "a hand on its own needs deal.starter 0 or 1", setup.rule)

    def _reference(self) -> None:
        """What these checks do not word is still refused, located at the deal."""
        try:
            deal = Deal.from_json(self.deal)
            if self.in_match and self.rules.setup.starter == "alternate":
                deal = dataclasses.replace(deal, starter=deal.starter or 0)
            validate_deal(self.rules, deal)
        except DominokitError as error:
            rule = getattr(error, "rule", None)
            text = str(error)
            if rule and text.endswith(f" ({rule})"):
                text = text.removesuffix(f" ({rule})")
            self.problems.append(self.document.problem(
                self.base, f"{text} ({rule})" if rule else text, key=True))


def _plural(count: int, one: str, many: str) -> str:
    return one if count == 1 else many
