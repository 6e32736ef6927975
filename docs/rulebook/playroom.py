"""The play page's engine room: one hand of a game on the reference engine, as page data.

The rule book's play pages run this module in the browser (Pyodide); their JavaScript only
loads it, passes clicks in and puts what :meth:`Room.view` returns into the page. So every
answer the page gives (which actions are legal, what an action does, which rule an illegal
click breaks, how the hand is scored) is the reference's own, and the table is drawn by
the module ``dominokit.conformance.run.diagrams``, which draws the book's pictures. This module
adds only what a page needs on top: a seeded deal, a simple opponent, undo, the legal actions
marked on the drawn table, and the rule entry (words and link) behind every refusal and
scoring term.

It imports the engine, the spec and the diagrams, nothing of the book builder, so that the
browser bundle (``docs/play_build.py``) can ship it with those alone.
"""

from __future__ import annotations

import json
import random
import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from dominokit.conformance.run.diagrams import ChainStyle, chain_svg, state_svg
from dominokit.reference import (
    Action,
    Deal,
    DominokitError,
    Event,
    HandState,
    IllegalActionError,
    Rules,
    Tile,
    apply_action,
    check_action,
    legal_actions,
    load_rules,
    load_variant,
    new_hand,
    new_match,
    random_deal,
)
from dominokit.spec.spec import common_rules

SVG_NS: Final = "http://www.w3.org/2000/svg"
OPPONENTS: Final = ("first", "random")
"""The simple opponents: the first legal action in notation order, or a seeded random one."""
SEATS: Final = ("0", "1", "both")
"""Who the reader plays: player 0, player 1, or both (to step through any line by hand)."""

ET.register_namespace("", SVG_NS)


def deal_for(rules: Rules, seed: int) -> Deal:
    """The deal a seed gives, as ``dominokit play`` deals it: ``Random(seed)`` shuffles, and a
    game whose hand sizes come from its match schedule is dealt its first hand's sizes."""
    rng = random.Random(seed)
    plan = new_match(rules.variant_id, dict(rules.options)).plan()
    sizes = None if rules.setup.hand_size is not None or plan is None else plan.hand_sizes
    return random_deal(rules, rng, hand_sizes=sizes)


def rule_info(variant_id: str, rule_id: str, lang: str) -> dict[str, str]:
    """A rule's id, title, words (in ``lang`` where the spec has them) and its link, relative
    to the book's root (``variants/<page>/#<id>``)."""
    variant = load_variant(variant_id)
    common = {entry.id for entry in common_rules()}
    try:
        entry = variant.rule(rule_id)
    except KeyError:
        return {"id": rule_id, "title": rule_id, "words": "", "href": ""}
    polish = lang == "pl"
    page = "common" if rule_id in common else variant_id
    return {
        "id": rule_id,
        "title": (entry.title_pl if polish and entry.title_pl else entry.title),
        "words": (entry.statement_pl if polish and entry.statement_pl else entry.statement),
        "href": f"variants/{page}/#{rule_id}",
    }


@dataclass
class Room:
    """One hand in play: its rules, the states so far (for undo) and what happened."""

    variant_id: str
    options: dict[str, object]
    lang: str = "en"
    seed: int = 1
    opponent: str = "first"
    seat: str = "0"
    states: list[HandState] = field(default_factory=list)
    moves: list[dict[str, Any]] = field(default_factory=list)
    lakes: list[list[tuple[int, int]]] = field(default_factory=list)
    refusal: dict[str, Any] | None = None
    _rng: random.Random = field(default_factory=random.Random, repr=False)

    # ------------------------------------------------------------------ starting

    @classmethod
    def deal(cls, variant_id: str, options: Mapping[str, object], seed: int, *,
             lang: str = "en", opponent: str = "first", seat: str = "0") -> Room:
        """A fresh hand dealt from ``seed``; the opponent moves at once if it starts."""
        rules = load_rules(variant_id, dict(options))
        room = cls(variant_id, dict(rules.options), lang, seed, opponent, seat)
        room._rng = random.Random(seed)
        room.states.append(new_hand(rules, deal_for(rules, seed)))
        room.lakes.append([])
        room._let_opponent_move()
        return room

    @classmethod
    def from_deal(cls, variant_id: str, options: Mapping[str, object], deal: Mapping[str, Any],
                  actions: Sequence[str] = (), *, lang: str = "en", seat: str = "both",
                  start: Mapping[str, Any] | None = None) -> Room:
        """A hand from a given deal (or start state) with ``actions`` played: a position the
        book shows (a trace step, a perft position) opened for play."""
        rules = load_rules(variant_id, dict(options))
        room = cls(variant_id, dict(rules.options), lang, 0, "first", seat)
        first = (HandState.from_json(start, rules=rules) if start is not None
                 else new_hand(rules, Deal.from_json(deal)))
        room.states.append(first)
        room.lakes.append([])
        for action in actions:
            room._apply(action)
        return room

    # ------------------------------------------------------------------ reading

    @property
    def state(self) -> HandState:
        """The state now."""
        return self.states[-1]

    def mine(self, player: int | None) -> bool:
        """Whether the reader plays ``player``."""
        return player is not None and self.seat in ("both", str(player))

    def view(self, selected: str | None = None) -> dict[str, Any]:
        """Everything the page shows, as JSON-ready data."""
        state = self.state
        legal = legal_actions(state)
        result = state.result
        data = state.to_json()
        return {
            "variant": self.variant_id,
            "options": dict(self.options),
            "seed": self.seed,
            "opponent": self.opponent,
            "seat": self.seat,
            "state": data,
            "to_move": state.to_move,
            "yours": self.mine(state.to_move),
            "svg": self.table_svg(legal, selected),
            "hands": [[{"tile": str(t), "svg": tile_svg(t)} for t in hand]
                      for hand in state.hands],
            "legal": [str(a) for a in legal],
            "legal_count": len(legal),
            "moves": self.moves,
            "link_moves": [m["action"] for m in self.moves if self.mine(m["player"])],
            "can_undo": len(self.states) > 1,
            "refusal": self.refusal,
            "result": None if result is None else {
                **result.to_json(),
                "terms": [{**term.to_json(),
                           "rule_info": rule_info(self.variant_id, term.rule, self.lang)}
                          for term in result.terms],
            },
        }

    def table_svg(self, legal: Sequence[Action], selected: str | None = None) -> str:
        """The table as the book draws it, with a click target over every legal placement
        (of the ``selected`` hand tile only, when one is chosen) and over each open end."""
        state = self.state
        data = state.to_json()
        table_spec = table_spec_of(state.rules)
        lakes = [cell for found in self.lakes for cell in found]
        svg = state_svg(data, table_spec, title=_TABLE_TITLE.get(self.lang, "table"),
                        lakes=lakes, highlight=self._last_highlight(), anchor=self._anchor())
        root = ET.fromstring(svg)
        if data["table"]["kind"] == "board":
            _board_targets(root, data["table"], legal, selected)
        else:
            _chain_targets(root, legal, selected, empty=not data["table"]["tiles"])
        return ET.tostring(root, encoding="unicode")

    def _last_placed(self) -> Action | None:
        """The last placement of the hand so far, if the last action was one."""
        if not self.moves:
            return None
        action = Action.parse(str(self.moves[-1]["action"]))
        return action if action.tile is not None else None

    def _last_highlight(self) -> list[int]:
        """The tile just placed, outlined as the book's pictures outline it."""
        table = self.state.to_json()["table"]
        if table["kind"] == "board":
            return [len(table["placements"]) - 1] if table["placements"] else []
        last = self._last_placed()
        if last is None or not table["tiles"]:
            return []
        return [0 if last.end == "L" else len(table["tiles"]) - 1]

    def _anchor(self) -> int:
        """Where the opening tile sits in the chain: one place further right for every tile
        laid on the left end (offset rows are counted from it, as in the book)."""
        return sum(1 for move in self.moves
                   if str(move["action"]).partition("@")[2].startswith("L"))

    # ------------------------------------------------------------------ acting

    def click(self, kind: str, value: str, selected: str | None = None) -> dict[str, Any]:
        """The reader's click: an action's notation (``action``), an end of the chain with a
        hand tile selected (``end``), or a board cell pair ``r.c+r.c`` (``cells``). A legal
        action is played (and the opponent answers); an illegal one is refused with its rule.
        """
        self.refusal = None
        text = value
        if kind == "end" and selected:
            text = self._end_action(selected, value)
        elif kind == "cells" and selected:
            text = self._cells_action(selected, value)
        if self.state.result is None and not self.mine(self.state.to_move):
            return self._refuse(text, None, "not_your_turn")
        try:
            action = Action.parse(text)
        except DominokitError as exc:
            return self._refuse(text, None, str(exc))
        problem = check_action(self.state, action)
        if problem is not None:
            return self._refuse(text, problem[0], problem[1])
        self._apply(str(action))
        self._let_opponent_move()
        return self.view()

    def undo(self) -> dict[str, Any]:
        """Take back the reader's last action and any opponent replies after it."""
        self.refusal = None
        while len(self.states) > 1:
            self.states.pop()
            self.lakes.pop()
            move = self.moves.pop()
            if self.mine(move["player"]):
                break
        return self.view()

    def _end_action(self, tile_text: str, end: str) -> str:
        """The action of placing ``tile_text`` on ``end`` (``L``, ``R``, or ``open``): the legal
        one if there is one, else the tile laid with its low half touching, for the rule it
        breaks."""
        if end == "open":
            return tile_text
        tile = Tile.parse(tile_text)
        for action in legal_actions(self.state):
            if action.tile == tile and action.end == end:
                return str(action)
        return f"{tile}@{end}{tile.low}"

    def _cells_action(self, tile_text: str, cells: str) -> str:
        """The action of putting ``tile_text`` on the two clicked cells ``r.c+r.c``: its
        legal orientation if it has one, else the clicked order (low half first)."""
        first, _, second = cells.partition("+")
        for text in (f"{tile_text}@{first}+{second}", f"{tile_text}@{second}+{first}"):
            try:
                if check_action(self.state, Action.parse(text)) is None:
                    return text
            except DominokitError:
                continue
        return f"{tile_text}@{first}+{second}"

    def _refuse(self, text: str, rule_id: str | None, message: str) -> dict[str, Any]:
        self.refusal = {"action": text, "message": message,
                        "rule": None if rule_id is None
                        else rule_info(self.variant_id, rule_id, self.lang)}
        return self.view()

    def _apply(self, text: str) -> list[Event]:
        player = self.state.to_move
        try:
            state, events = apply_action(self.state, text)
        except IllegalActionError as exc:  # a position link whose line is not legal
            raise ValueError(f"{text}: {exc}") from exc
        self.states.append(state)
        self.lakes.append([(int(c[0]), int(c[1])) for e in events if e.type == "lake"
                           for c in (e.cells or ())])
        self.moves.append({"player": player, "action": text,
                           "events": [e.to_json() for e in events]})
        return events

    def _let_opponent_move(self) -> None:
        """The opponent plays until it is the reader's turn or the hand is over."""
        while self.state.result is None and not self.mine(self.state.to_move):
            legal = legal_actions(self.state)
            choice = legal[0] if self.opponent == "first" else self._rng.choice(legal)
            self._apply(str(choice))


_TABLE_TITLE: Final = {"en": "The table", "pl": "Stół"}


def tile_svg(tile: Tile) -> str:
    """One hand tile, drawn as the book draws a chain tile."""
    return chain_svg([(tile.low, tile.high)], ChainStyle(), title=str(tile), ends=False)


def _target(parent: ET.Element, x: float, y: float, w: float, h: float, attrs: dict[str, str]
            ) -> None:
    ET.SubElement(parent, f"{{{SVG_NS}}}rect", {
        "x": f"{x:g}", "y": f"{y:g}", "width": f"{w:g}", "height": f"{h:g}", "rx": "5",
        **attrs})


def _chain_targets(root: ET.Element, legal: Sequence[Action], selected: str | None,
                   *, empty: bool) -> None:
    """A target over each end letter of the drawn chain (or the whole empty table), marked
    legal when some legal action of the selected tile (any tile, without one) goes there."""
    chosen = None if not selected else Tile.parse(selected)
    width = float(root.get("width", "0"))
    height = float(root.get("height", "0"))
    ends = {}
    for node in root.iter(f"{{{SVG_NS}}}text"):
        if node.text in ("L", "R"):
            ends[node.text] = (float(node.get("x", "0")), float(node.get("y", "0")))
    group = ET.SubElement(root, f"{{{SVG_NS}}}g", {"class": "dk-targets"})
    if empty:
        fits = any(a.kind == "opening" and (chosen is None or a.tile == chosen) for a in legal)
        _target(group, 2, 2, width - 4, height - 4, {
            "class": "dk-target" + (" dk-legal" if fits else ""), "data-end": "open"})
        return
    for end, (x, y) in sorted(ends.items()):
        fits = any(a.end == end and (chosen is None or a.tile == chosen) for a in legal)
        _target(group, x - 10, y - 18, 20, 24, {
            "class": "dk-target" + (" dk-legal" if fits else ""), "data-end": end})


def _board_targets(root: ET.Element, table: Mapping[str, Any], legal: Sequence[Action],
                   selected: str | None) -> None:
    """Targets read off the drawn fields (one rect per cell, row by row). Without a selected
    tile: every cell some legal placement covers. With one: a target over the two cells of
    each of its legal placements, and every empty cell, for placing it by two clicks."""
    fields = next(g for g in root.iter(f"{{{SVG_NS}}}g") if g.get("class") == "dk-fields")
    cells = list(fields)
    cols = int(table["cols"])
    group = ET.SubElement(root, f"{{{SVG_NS}}}g", {"class": "dk-targets"})
    taken = {(int(r), int(c)) for p in table["placements"] for r, c in p["cells"]}
    if not selected:
        covered = sorted({cell for a in legal if a.cells is not None for cell in a.cells})
        for r, c in covered:
            box = cells[r * cols + c]
            _target(group, float(box.get("x", "0")) + 2, float(box.get("y", "0")) + 2,
                    float(box.get("width", "0")) - 4, float(box.get("height", "0")) - 4,
                    {"class": "dk-legal-cell", "data-cell": f"{r}.{c}"})
        return
    chosen = Tile.parse(selected)
    for index, box in enumerate(cells):
        r, c = divmod(index, cols)
        if (r, c) not in taken:
            _target(group, float(box.get("x", "0")), float(box.get("y", "0")),
                    float(box.get("width", "0")), float(box.get("height", "0")),
                    {"class": "dk-cell", "data-cell": f"{r}.{c}"})
    for action in legal:
        if action.tile != chosen or action.cells is None:
            continue
        boxes = [cells[r * cols + c] for r, c in action.cells]
        xs = [float(b.get("x", "0")) for b in boxes]
        ys = [float(b.get("y", "0")) for b in boxes]
        side = float(boxes[0].get("width", "0"))
        _target(group, min(xs) + 1, min(ys) + 1, max(xs) - min(xs) + side - 2,
                max(ys) - min(ys) + side - 2,
                {"class": "dk-target dk-legal", "data-action": str(action)})


def table_spec_of(rules: Rules) -> Mapping[str, Any]:
    """The resolved ``components.table`` entry of the rules, which says how to draw them."""
    config = (rules.source.config if rules.source is not None
              else load_variant(rules.variant_id).data)
    spec: Mapping[str, Any] = config["components"]["table"]
    return spec


# ---------------------------------------------------------------------------- golden traces


@dataclass
class Stepper:
    """A golden trace replayed on the reference, one action at a time, forward and back.

    ``trace`` is the trace file's data (as the build wrote it for the page). Each hand of the
    trace (one for ``kind: hand``, every hand for ``kind: match``) starts from its deal or
    start state; the page shows the table, both hands, the legal actions and the events of the
    last action at each step, all from the reference, so they can be held against the trace.
    """

    trace: Mapping[str, Any]
    lang: str = "en"
    hand: int = 0
    room: Room | None = None

    def __post_init__(self) -> None:
        self._open(0)

    def _hands(self) -> list[Mapping[str, Any]]:
        if self.trace.get("kind") == "match":
            return list(self.trace["hands"])
        return [self.trace]

    def _open(self, index: int) -> None:
        data = self._hands()[index]
        self.hand = index
        start = data.get("start_state") or data.get("start")
        deal = dict(data.get("deal") or {})
        plan = data.get("plan") or {}
        if deal and deal.get("starter") is None and plan.get("starter") is not None:
            deal["starter"] = plan["starter"]  # a match hand: its plan names the starter
        self.room = Room.from_deal(self.trace["variant"], self.trace.get("options") or {},
                                   deal, lang=self.lang, start=start)

    def _steps(self) -> list[Mapping[str, Any]]:
        return list(self._hands()[self.hand].get("steps") or [])

    def forward(self) -> dict[str, Any]:
        """One action on (into the next hand of a match after the last one)."""
        assert self.room is not None
        done = len(self.room.moves)
        steps = self._steps()
        if done < len(steps):
            self.room._apply(str(steps[done]["action"]))
        elif self.hand + 1 < len(self._hands()):
            self._open(self.hand + 1)
        return self.view()

    def back(self) -> dict[str, Any]:
        """One action back (to the end of the previous hand of a match before the first)."""
        assert self.room is not None
        if self.room.moves:
            self.room.undo()
        elif self.hand > 0:
            self._open(self.hand - 1)
            for step in self._steps():
                self.room._apply(str(step["action"]))
        return self.view()

    def view(self) -> dict[str, Any]:
        """The room's view, with where the stepper is in the trace."""
        assert self.room is not None
        done = len(self.room.moves)
        view = self.room.view()
        last = self.hand + 1 == len(self._hands()) and done == len(self._steps())
        view.update({"hand": self.hand, "hands_total": len(self._hands()), "step": done,
                     "steps_total": len(self._steps()), "at_end": last,
                     "at_start": self.hand == 0 and done == 0,
                     "events": self.room.moves[-1]["events"] if self.room.moves else [],
                     "actions": [str(s["action"]) for s in self._steps()[:done]]})
        return view


# ---------------------------------------------------------------------------- page calls


_PAGE: dict[str, Room | Stepper] = {}
"""The one room or stepper of the open page (the page's JavaScript calls the functions below)."""


def option_specs(variant_id: str, lang: str) -> list[dict[str, Any]]:
    """Every option of a game with its values, default and description, for the page's form,
    each with its name and its values' names in ``lang``."""
    variant = load_variant(variant_id)
    out = []
    polish = lang == "pl"
    for name, spec in variant.options.items():
        words = spec.description_pl if polish and spec.description_pl else spec.description
        # The Polish names from spec/ (label_pl, labels_pl), as the book's Polish pages give
        # them (dominokit.rulebook.optionnames, which this page's bundle does not ship).
        label = spec.label_pl if polish and spec.label_pl else name
        values = [spec.labels_pl.get(v) if polish else None for v in spec.values]
        out.append({"name": name, "values": list(spec.values), "default": spec.default,
                    "words": words, "rule": spec.rule, "label": label,
                    "value_labels": [shown or json.dumps(v).strip('"')
                                     for shown, v in zip(values, spec.values, strict=True)]})
    return out


def page_start(request: Mapping[str, Any], traces: Mapping[str, Any]) -> dict[str, Any]:
    """Open what the page asks for: a trace stepper (``mode: trace``), a position of a trace
    (``trace`` with ``hand`` and ``step``), or a seeded hand (``seed``, options, opponent,
    seat, and ``moves`` already played, as a shared link gives them)."""
    lang = str(request.get("lang", "en"))
    variant_id = str(request["variant"])
    if request.get("mode") == "trace":
        stepper = Stepper(traces[str(request["trace"])], lang)
        _PAGE["current"] = stepper
        return {**stepper.view(), "option_specs": option_specs(variant_id, lang)}
    if request.get("deal"):
        room = Room.from_deal(variant_id, dict(request.get("options") or {}),
                              json.loads(str(request["deal"])),
                              list(request.get("moves") or []), lang=lang,
                              seat=str(request.get("seat", "both")))
    elif request.get("trace"):
        stepper = Stepper(traces[str(request["trace"])], lang)
        for _ in range(int(request.get("hand", 0))):
            stepper._open(stepper.hand + 1)
        assert stepper.room is not None
        room = stepper.room
        for step in stepper._steps()[:int(request.get("step", 0))]:
            room._apply(str(step["action"]))
        room.seat = str(request.get("seat", "both"))
    else:
        room = Room.deal(variant_id, dict(request.get("options") or {}),
                         int(request.get("seed", 1)), lang=lang,
                         opponent=str(request.get("opponent", "first")),
                         seat=str(request.get("seat", "0")))
        for move in request.get("moves") or []:
            if room.state.result is None:
                room._apply(str(move))
                room._let_opponent_move()
    _PAGE["current"] = room
    return {**room.view(), "option_specs": option_specs(variant_id, lang)}


def page_call(verb: str, kind: str = "", value: str = "", selected: str = "") -> dict[str, Any]:
    """The page's verbs on the open room or stepper: ``view``, ``click``, ``undo``,
    ``forward``, ``back``."""
    current = _PAGE["current"]
    if isinstance(current, Stepper):
        return current.forward() if verb == "forward" else (
            current.back() if verb == "back" else current.view())
    if verb == "click":
        return current.click(kind, value, selected or None)
    if verb == "undo":
        return current.undo()
    return current.view(selected or None)
