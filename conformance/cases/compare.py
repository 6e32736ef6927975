"""Comparing an engine's answers with the reference's, and naming the rules a difference is about.

A divergence is reported with the rule ids it concerns so that an engine author knows which
ruling to read. The ids come from the spec: the ``rule:`` written next to each mechanic, scoring
term and end condition (via the resolved Rules), the rule the reference cites when it refuses an
action, and the rule carried by events and result terms. A few rules of ``spec/common.yaml``
are named here, because no mechanic of a variant file cites them (they hold for every
variant): see ``COMMON_RULES``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, Final

from dominokit.conformance.cases.jsondiff import diff_lines
from dominokit.conformance.cases.model import Outcome
from dominokit.reference import Action, HandState, Rules
from dominokit.reference.engine import check_action
from dominokit.reference.errors import NotationError
from dominokit.reference.state import Turn

_RULE_ID: Final = re.compile(r"R-[A-Z]+-\d+")

COMMON_RULES: Final = {
    "distinct_actions": "R-ALL-09",  # one action per end, per touching half, one spelling
    "starters": "R-ALL-04",  # starters alternate hand by hand across the whole match
    "tied_hand": "R-ALL-06",  # equal pips in a block: nobody wins
    "stock_order": "R-ALL-03",  # the stock is ordered; a draw takes its first tile
    "compulsory": "R-ALL-07",  # outside free play, pass (or draw) only when nothing fits
    "one_tile": "R-ALL-08",  # one placement a turn, then the other player moves
    "end_checks": "R-ALL-10",  # end conditions checked in spec order after every action
    "players": "R-ALL-02",  # per-player values listed player 0 first
}


def canonical(value: Any) -> str:
    """Pretty, key-sorted JSON: the form diffs are taken on."""
    return json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False)


def _resized(want: Any, have: Any) -> bool:
    """Two boards whose rows or columns differ."""
    return isinstance(want, dict) and isinstance(have, dict) and want.get("kind") == "board" \
        and any(want.get(key) != have.get(key) for key in ("rows", "cols"))


def same(a: Any, b: Any) -> bool:
    """JSON equality (key order ignored, ``true`` is not ``1``). A value is the same as itself
    without being written out, and both sides are written by one shared encoder (``json.dumps``
    with options makes a new encoder per call, which cost about as much as a short state)."""
    if a is b:
        return True
    return _SORTED.encode(a) == _SORTED.encode(b)


_SORTED = json.JSONEncoder(sort_keys=True)
"""Writes what ``json.dumps(value, sort_keys=True)`` writes."""


def diff_text(expected: Any, got: Any, what: str, source: str = "reference") -> str:
    """The paths where the values differ, one per line (``$.points[1]: 30 -> 25``), under a
    line naming both sides; ``source`` is where the expected value comes from."""
    lines = diff_lines(expected, got)
    if not lines:
        return ""
    return "\n".join([f"{what}: expected ({source}) -> got (engine)", *lines])


def unique(rules: Iterable[str | None]) -> tuple[str, ...]:
    """Rule ids in first-seen order, without blanks or repeats."""
    return tuple(dict.fromkeys(r for r in rules if r))


@dataclass(frozen=True)
class Divergence:
    """The first point where an engine and the reference disagree."""

    what: str
    summary: str
    expected: Any
    got: Any
    rules: tuple[str, ...]
    step: int | None
    """Actions played in the hand when it showed (None: between hands of a match)."""
    hand: int | None = None

    def outcome(self, prefix: str = "", details: Sequence[str] = (),
                repro: str | None = None) -> Outcome:
        """The failed Outcome for this divergence; ``details`` are extra message lines."""
        message = "\n".join([f"{prefix}{self.summary}", *details])
        return Outcome("failed", message, step=self.step, hand=self.hand,
                       expected=self.expected, got=self.got,
                       diff=diff_text(self.expected, self.got, self.what),
                       rules=self.rules, repro=repro)


def _listing(actions: Iterable[str], limit: int = 12) -> str:
    items = sorted(actions)
    shown = " ".join(items[:limit])
    return shown + (f" ... ({len(items)} in all)" if len(items) > limit else "")


class Blame:
    """Names the rules a divergence concerns, from the resolved rules of one variant."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self._rulings = _rulings(rules.variant_id)

    def _named(self, rules: Iterable[str | None]) -> tuple[str, ...]:
        """``rules`` and every ruling of the variant that decides how two of them meet.

        Some rulings refine others and no mechanic cites them (R-PIJ-13: a block during the
        extra tile; R-PIJ-14: equal pips in a Pijanowski block). A ruling whose statement cites
        two of the rules a divergence concerns is about that divergence too.
        """
        named = unique(rules)
        found = set(named)
        return unique([*named, *(rule_id for rule_id, cites in self._rulings
                                 if len(cites & found) >= 2)])

    def _end_rule(self, reason: str | None) -> list[str]:
        return [end.rule for end in self.rules.end if end.condition == reason]

    def _term_rules(self, name: str) -> list[str]:
        return [term.rule for term in self.rules.terms if term.term == name]

    def kind_rules(self, state: HandState, action: Action) -> list[str]:
        """The mechanics that decide whether ``action`` is legal in ``state``."""
        r = self.rules
        if action.kind == "opening":
            return [r.opening.rule]
        if action.kind == "chain":
            out = [r.matching.rule]
            if r.parity.policy != "none":
                out.append(r.parity.rule)
                end_pip = getattr(state.table, "end_pip", None)
                if end_pip is not None and end_pip(action.end) == 0:
                    out.append(r.parity.extra_rule or "")
            return out
        if action.kind == "board":
            # a cell beyond the table's rows and columns is the board's size at fault
            off = action.cells is not None and any(
                not (0 <= row < r.table.rows and 0 <= col < r.table.cols)
                for row, col in action.cells)
            return [r.matching.rule, r.matching.extra_rule or "", r.opening.rule,
                    r.table.rule if off else ""]
        if action.kind == "draw":
            return [r.draw.rule, *self._compulsory(r.draw.policy == "until_fit")]
        if action.kind == "pass":
            return [r.pass_.rule, *self._compulsory(r.pass_.policy == "when_stuck")]
        return [r.extra_tile.rule] if r.extra_tile else [r.structural.turn_order]

    @staticmethod
    def _compulsory(applies: bool) -> list[str]:
        """R-ALL-07 where a pass (or draw) is allowed only to a player who cannot place."""
        return [COMMON_RULES["compulsory"]] if applies else []

    def primary(self, state: HandState, missing: Iterable[str], extra: Iterable[str]
                ) -> str | None:
        """The one rule a legal-set difference is blamed on, the cause's rule.

        A listed placement the reference refuses is blamed on the rule the reference cites;
        else a missing placement on the mechanic that allows it (the parity rule, on a blank
        end its blank rule); only then a pass or draw, since an engine that misses a placement
        also lists the pass it thinks it is left with."""
        extra, missing = sorted(extra), sorted(missing)
        moves = ("pass", "draw", "stop")
        if state.result is not None and extra:
            # the engine plays on where the hand is over: the end condition it missed
            ends = self._end_rule(state.result.reason)
            if ends:
                return ends[0]
        mover = self._wrong_mover(state, extra)
        if mover is not None:
            return mover
        off = self._off_board(extra)
        if off is not None:
            return off
        for text in (t for t in extra if t not in moves):
            try:
                problem = check_action(state, Action.parse(text))
            except NotationError:
                return COMMON_RULES["distinct_actions"]
            if problem is not None:
                return problem[0]
        edge = self._board_edge(state, missing, extra) if not extra else None
        if edge is not None:
            return edge
        placements = [t for t in missing if t not in moves]
        if placements and state.turn.extra and self.rules.extra_tile:
            return self.rules.extra_tile.rule  # the extra tile's turn is what the engine lacks
        if placements and state.table.empty and self.rules.table.kind == "board":
            return self.rules.opening.rule  # nothing to touch yet: the first tile's rule
        for text in placements:
            rules = [rule for rule in self.kind_rules(state, Action.parse(text)) if rule]
            if rules:
                return rules[-1] if self.rules.parity.policy != "none" else rules[0]
        for text in extra:
            problem = check_action(state, Action.parse(text))
            if problem is not None:
                return problem[0]
        for text in missing:
            rules = [rule for rule in self.kind_rules(state, Action.parse(text)) if rule]
            if rules:
                return rules[0]
        return None

    def _wrong_mover(self, state: HandState, extra: Sequence[str]) -> str | None:
        """The rule deciding who moves, when every listed placement the reference lacks is a
        tile of the other player's hand: the engine lists the wrong player's actions. Before
        anyone has placed that is the starter's rule, later the turn order."""
        if state.to_move is None:
            return None
        other = state.hands[1 - state.to_move]
        tiles = [Action.parse(t).tile for t in extra if t not in ("pass", "draw", "stop")]
        if not tiles or not all(tile is not None and tile in other for tile in tiles):
            return None
        r = self.rules
        fresh = state.last_placed == (None, None) and state.passes == 0
        if not fresh:
            return r.structural.turn_order
        return r.opening.rule if r.setup.starter == "widow" else COMMON_RULES["starters"]

    def _blocked_wrongly(self, after: HandState, mover: int) -> str | None:
        """The rule behind a block the engine declared and the reference did not: a placement
        one of the players still has (the mover first), blamed as a missing action."""
        import dataclasses

        from dominokit.reference import legal_actions

        for player in (mover, 1 - mover):
            state = dataclasses.replace(after, to_move=player, turn=Turn())
            placements = {str(a) for a in legal_actions(state) if a.tile is not None}
            if placements:
                return self.primary(state, placements, ())
        return None

    def _board_edge(self, state: HandState, missing: Sequence[str], extra: Sequence[str]
                    ) -> str | None:
        """The board's size rule when every missing action is a board play reaching beyond
        every row or every column the engine's own list reaches: an engine with a smaller
        board (one size too small, or 6 rows where the option gives 12) misses exactly those."""
        from dominokit.reference import legal_actions

        table = self.rules.table
        if not missing or table.kind != "board":
            return None
        listed = ({str(a) for a in legal_actions(state)} - set(missing)) | set(extra)
        cells = [cell for text in listed if text not in ("pass", "draw", "stop")
                 for cell in (Action.parse(text).cells or ())]
        last_row = max((row for row, _ in cells), default=-1)
        last_col = max((col for _, col in cells), default=-1)
        for text in missing:
            action = Action.parse(text)
            if action.cells is None or not any(
                    row > last_row or col > last_col for row, col in action.cells):
                return None
        return self._size_rule()

    def _off_board(self, extra: Sequence[str]) -> str | None:
        """The board's size rule when every extra action is a board play with a cell beyond
        the board: the engine's board is larger than the rules say."""
        table = self.rules.table
        plays = [Action.parse(t) for t in extra if t not in ("pass", "draw", "stop")]
        if not plays or table.kind != "board" or len(plays) != len(extra):
            return None
        for action in plays:
            if action.cells is None or all(0 <= row < table.rows and 0 <= col < table.cols
                                           for row, col in action.cells):
                return None
        return self._size_rule()

    def _size_rule(self) -> str:
        """The rule that sizes the board: the option that changes it where one is chosen
        (double_set: 12 x 12, R-PIJ-11), else the table's own rule."""
        from dominokit.reference import load_variant

        for spec in load_variant(self.rules.variant_id).options.values():
            changes = spec.overrides.get(self.rules.options.get(spec.name), {})
            if any(key.startswith("components.table.") for key in changes):
                return spec.rule
        return self.rules.table.rule

    def legal(self, state: HandState, missing: Iterable[str], extra: Iterable[str]
              ) -> tuple[str, ...]:
        """Rules behind a legal-set difference: why each extra action is illegal (as the
        reference says), which mechanics allow each missing one, and the phase of the turn.
        The first is the rule the difference is blamed on (``primary``)."""
        r = self.rules
        missing, extra = set(missing), set(extra)
        out: list[str | None] = [self.primary(state, missing, extra)]
        if state.table.empty:
            out.append(r.opening.rule)
        if state.turn.extra and r.extra_tile:
            out.append(r.extra_tile.rule)
        for text in sorted(extra):
            try:
                action = Action.parse(text)
            except NotationError:
                out.append(COMMON_RULES["distinct_actions"])
                continue
            problem = check_action(state, action)
            if problem is not None:
                out.append(problem[0])
            out.extend(self.kind_rules(state, action))
        for text in sorted(missing):
            action = Action.parse(text)
            out.extend(self.kind_rules(state, action))
            if action.kind == "chain" and self._has_twin(state, action):
                out.append(COMMON_RULES["distinct_actions"])
        return self._named(unique(out))

    def _has_twin(self, state: HandState, action: Action) -> bool:
        """True when the same tile also fits another end or with its other half: distinct
        actions (R-ALL-09) that an engine may have folded into one."""
        from dominokit.reference import legal_actions

        return any(
            other.kind == "chain" and other.tile == action.tile and other != action
            for other in legal_actions(state)
        )

    def refused(self, state: HandState, action: str, cited: str | None) -> tuple[str, ...]:
        """Rules behind an engine refusing an action the reference allows."""
        return self._named([*self.legal(state, [action], []), cited])

    def events(self, expected: Sequence[Mapping[str, Any]], got: Sequence[Mapping[str, Any]],
               after: HandState | None = None) -> tuple[str, ...]:
        """Rules behind the first differing event of an action. ``after`` is the reference's
        state after it: when only the engine ended the hand there, the placements the
        reference still allows are what the engine got wrong, and their rule is blamed."""
        index = next((i for i, (a, b) in enumerate(zip(expected, got, strict=False))
                      if not same(a, b)), min(len(expected), len(got)))
        pair = [seq[index] if index < len(seq) else None for seq in (expected, got)]
        out: list[str | None] = []
        ended_early = pair[1] is not None and pair[1].get("type") == "end" and not any(
            e.get("type") == "end" for e in expected)
        if ended_early and after is not None and after.result is None \
                and after.to_move is not None:
            out.append(self._blocked_wrongly(after, after.to_move))
        both_ended = pair[0] is not None and pair[1] is not None and \
            pair[0].get("type") == "end" == pair[1].get("type")
        if both_ended and pair[0] is not None and pair[1] is not None:
            # the hand ended on both sides: what differs is its result, blamed first
            out.extend(self.result(pair[0].get("result"), pair[1].get("result")))
        # an event on one side only (a lake, a draw) before the other side's end: the end is
        # what follows from it, so the event's own rule is blamed first
        if all(e is not None and e.get("type") == "draw" for e in pair):
            out.append(COMMON_RULES["stock_order"])  # both drew, another tile: the stock's order
        for event in sorted((e for e in pair if e is not None),
                            key=lambda e: e.get("type") == "end"):
            out.extend(self._event_rules(event))
        if not both_ended and any(event is not None and event.get("type") == "end"
                                  for event in pair):
            out.append(COMMON_RULES["end_checks"])  # one side ended the hand, the other not
        return self._named(out)

    def _event_rules(self, event: Mapping[str, Any]) -> list[str]:
        r = self.rules
        kind = event.get("type")
        out = [event["rule"]] if isinstance(event.get("rule"), str) else []
        if kind == "place":
            out.append(r.placement.rule if r.placement else r.matching.rule)
        elif kind == "lake" and r.lakes:
            out.append(r.lakes.rule)
        elif kind == "draw":
            out += [r.draw.rule, COMMON_RULES["stock_order"]]
        elif kind == "pass":
            out.append(r.pass_.rule)
        elif kind == "stop" and r.extra_tile:
            out.append(r.extra_tile.rule)
        elif kind == "end":
            result = event.get("result")
            out.extend(self._end_rule(result.get("reason") if isinstance(result, dict)
                                      else None))
        return out

    def result(self, expected: Mapping[str, Any] | None, got: Mapping[str, Any] | None
               ) -> tuple[str, ...]:
        """Rules behind differing hand results (either may be partial or None)."""
        if expected is None or got is None:
            present = expected if expected is not None else got
            reason = present.get("reason") if present is not None else None
            ends = self._end_rule(reason) if reason else [e.rule for e in self.rules.end]
            return self._named([*ends, COMMON_RULES["end_checks"]])
        out: list[str] = []
        swapped = any(_swapped(expected.get(key), got.get(key)) for key in ("points", "pips"))
        if swapped and same(expected.get("winner"), got.get("winner")):
            out.append(COMMON_RULES["players"])  # the right values, the players the other way
        if "winner" in expected and not same(expected.get("winner"), got.get("winner")):
            if expected.get("winner") is None:  # a tie the engine gave to somebody
                out.append(COMMON_RULES["tied_hand"])
            out.append(self.rules.winner.rule)
            if got.get("winner") is None:
                out.append(COMMON_RULES["tied_hand"])
        if "reason" in expected and expected.get("reason") != got.get("reason"):
            out.extend(self._end_rule(expected.get("reason")))
            out.extend(self._end_rule(got.get("reason")))
            out.append(COMMON_RULES["end_checks"])
        terms_differ = False
        if "terms" in expected or "terms" in got:
            want = _terms(expected.get("terms"))
            have = _terms(got.get("terms"))
            for key in sorted(set(want) | set(have)):
                if want.get(key, (0, None))[0] != have.get(key, (0, None))[0]:
                    terms_differ = True
                    rule = want.get(key, have.get(key, (0, None)))[1]
                    out.extend([rule] if rule else self._term_rules(key[0]))
        if not terms_differ and ("terms" in expected or "terms" in got) \
                and not same(expected.get("terms"), got.get("terms")):
            # the same terms in another order (or spelt otherwise): the order is the scoring
            # terms' own (spec/protocol.md, the order of a result's terms)
            out.extend(term.rule for term in self.rules.terms)
        if "points" in expected and not same(expected.get("points"), got.get("points")) \
                and not terms_differ:
            out.extend(term.rule for term in self.rules.terms)
        if "pips" in expected and not same(expected.get("pips"), got.get("pips")):
            out.append(self.rules.structural.own_tiles)
        if swapped:
            out.append(COMMON_RULES["players"])
        return self._named(out)

    def state(self, expected: Mapping[str, Any], got: Mapping[str, Any], *,
              in_match: bool = False, move: tuple[HandState, str] | None = None
              ) -> tuple[str, ...]:
        """Rules behind differing hand states (key by key). ``move`` is the reference's state
        before the action that led here and the action: without it the states are a hand's
        start, where who moves and what lies on the table are the deal's and the opening's
        doing; after an action they are the turn's and the placement's."""
        r = self.rules
        out: list[str] = []
        kind = Action.parse(move[1]).kind if move is not None else None
        for key in sorted(set(expected) | set(got)):
            want, have = expected.get(key), got.get(key)
            if same(want, have):
                continue
            if key in ("hands", "out_of_play"):
                out += [r.structural.own_tiles, r.draw.rule]
            elif key == "stock":  # what the stock holds, in order: chance is data
                out += [COMMON_RULES["stock_order"], r.structural.own_tiles, r.draw.rule]
            elif key == "table" and _resized(want, have):
                out.append(self._size_rule())  # a board of another size: nothing else
            elif key == "table":
                if kind in (None, "opening"):  # the first tile (or the widow) lies wrong
                    out.append(r.opening.rule)
                elif r.parity.policy != "none":
                    # under a parity rule the matching rule says which tiles may go on; where
                    # the chain's open end is left is the table's own rule
                    out.append(r.table.rule)
                out += [r.matching.rule, r.opening.rule, r.table.rule]
                if r.parity.policy != "none":
                    out += [r.parity.rule, r.parity.extra_rule or ""]
            elif key in ("starter", "to_move"):
                out += self._mover_rules(expected, got, move, in_match=in_match)
                if key == "to_move":
                    out.append(COMMON_RULES["one_tile"])
            elif key == "turn":
                out += self._turn_rules(want, have)
            elif key == "passes":  # the count of passes in a row is the mutual pass's
                out += [*self._end_rule("mutual_pass"), r.pass_.rule]
            elif key == "points":
                out += [r.placement.rule if r.placement else "", r.lakes.rule if r.lakes else ""]
            elif key == "last_placed":
                out += [r.structural.own_tiles, *self._term_rules("last_tile_bonus")]
            elif key == "widow":
                out += [r.setup.rule, r.opening.rule]
            elif key == "result":
                out += self.result(want if isinstance(want, dict) else None,
                                   have if isinstance(have, dict) else None)
            elif key == "options":
                out += self._option_rules(want, have)
        return self._named(out)

    def _mover_rules(self, expected: Mapping[str, Any], got: Mapping[str, Any],
                     move: tuple[HandState, str] | None, *, in_match: bool) -> list[str]:
        """Rules behind a differing starter or player to move, the likeliest first."""
        r = self.rules
        turns = [s.get("turn") for s in (expected, got)]
        extra = r.extra_tile is not None and any(
            isinstance(t, dict) and t.get("extra") for t in turns)
        starter = r.opening.rule if r.setup.starter == "widow" else r.setup.rule
        rest = [starter, r.opening.rule, r.structural.turn_order,
                COMMON_RULES["starters"] if in_match else None,
                r.extra_tile.rule if extra and r.extra_tile else None]
        if move is None:  # a hand's start: who starts is the deal's (or the widow's)
            return [rule for rule in rest if rule]
        before, action = move
        first: list[str | None] = []
        if extra and r.extra_tile:
            first.append(r.extra_tile.rule)  # the extra tile's turn, granted or not
        placed = Action.parse(action).tile is not None
        if placed and got.get("to_move") == before.to_move:
            first.append(COMMON_RULES["one_tile"])  # the mover placed and moves again
        first.append(r.structural.turn_order)
        return [rule for rule in [*first, *rest] if rule]

    def _turn_rules(self, want: Any, have: Any) -> list[str]:
        r = self.rules
        out: list[str] = []
        want = want if isinstance(want, dict) else {}
        have = have if isinstance(have, dict) else {}
        if want.get("draws") != have.get("draws"):
            out.append(r.draw.rule)
        if want.get("extra") != have.get("extra"):
            out.append(r.extra_tile.rule if r.extra_tile else r.structural.turn_order)
        return out

    def _option_rules(self, want: Any, have: Any) -> list[str]:
        from dominokit.reference import load_variant

        options = load_variant(self.rules.variant_id).options
        want = want if isinstance(want, dict) else {}
        have = have if isinstance(have, dict) else {}
        return [options[k].rule for k in set(want) | set(have)
                if k in options and not same(want.get(k), have.get(k))]

    def match(self, expected: Mapping[str, Any], got: Mapping[str, Any]) -> tuple[str, ...]:
        """Rules behind differing match states (key by key; ``phase`` wording is free)."""
        r = self.rules
        out: list[str] = []
        tiebreak = r.match.tiebreak
        # A match is in a tiebreak once its regular rounds are all played: the phase wording
        # is free, and before the first tiebreak hand no tiebreak round is recorded yet.
        rounds_done = max((len(s["rounds"]) for s in (expected, got)
                           if isinstance(s.get("rounds"), list)), default=0)
        in_tiebreak = tiebreak is not None and (rounds_done >= len(r.match.rounds) or any(
            "tiebreak" in json.dumps(s.get(k)) for s in (expected, got)
            for k in ("phase", "rounds")))
        for key in sorted(set(expected) | set(got)):
            want, have = expected.get(key), got.get(key)
            if key == "phase" or same(want, have):
                continue
            if key == "next":
                want = want if isinstance(want, dict) else {}
                have = have if isinstance(have, dict) else {}
                if not same(want.get("starter"), have.get("starter")):
                    out += [COMMON_RULES["starters"], r.setup.rule]
                if not same(want.get("hand_sizes"), have.get("hand_sizes")):
                    # how many tiles the next hand deals: the tiebreak's deals in a tiebreak,
                    # else the deal rule's (which says how sizes follow a hand's place)
                    if in_tiebreak and tiebreak:
                        out.append(tiebreak.rule)
                    out += [r.setup.rule, r.match.rule]
            elif key == "first_starter":
                out.append(COMMON_RULES["starters"])
            elif key == "options":
                out += self._option_rules(want, have)
            else:
                out.append(r.match.rule)
                if in_tiebreak and tiebreak:
                    out.append(tiebreak.rule)
        return self._named(out)


@cache
def _rulings(variant_id: str) -> tuple[tuple[str, frozenset[str]], ...]:
    """(rule id, the other rule ids its statement cites) for each rule of the variant."""
    from dominokit.reference import load_variant

    return tuple((entry.id, frozenset(_RULE_ID.findall(entry.statement)) - {entry.id})
                 for entry in load_variant(variant_id).rules)


def _swapped(want: Any, have: Any) -> bool:
    """True when ``have`` is the per-player pair ``want`` listed the other way round."""
    return (isinstance(want, list) and isinstance(have, list) and len(want) == 2
            and want != have and want == have[::-1])


def _terms(raw: Any) -> dict[tuple[str, Any], tuple[int, str | None]]:
    """Result terms keyed by (term, player): (summed points, rule)."""
    out: dict[tuple[str, Any], tuple[int, str | None]] = {}
    for term in raw if isinstance(raw, list) else []:
        if not isinstance(term, dict):
            continue
        key = (str(term.get("term")), term.get("player"))
        raw_points = term.get("points")
        points = raw_points if isinstance(raw_points, int) else 0
        previous = out.get(key, (0, None))[0]
        rule = term.get("rule") if isinstance(term.get("rule"), str) else None
        out[key] = (previous + points, rule)
    return out


def legal_summary(missing: Iterable[str], extra: Iterable[str]) -> str:
    """``the engine lists X (not legal) and misses Y`` in words."""
    parts = []
    extra, missing = sorted(extra), sorted(missing)
    if extra:
        parts.append(f"the engine lists {len(extra)} action(s) the reference does not: "
                     f"{_listing(extra)}")
    if missing:
        parts.append(f"the engine misses {len(missing)} legal action(s): {_listing(missing)}")
    return "; ".join(parts)
