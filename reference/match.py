"""The match level: how hands add up to a match (sets, a target total, or scheduled rounds).

A match is a small immutable value: it says what the next hand is (``plan``), takes each hand's
result (``finish_hand``) and reports what that decided as ``MatchEvent`` values. It reads only
the ``match`` section and ``setup.starter`` of the resolved spec, so a new variant that reuses
these mechanics needs YAML only.

Starters alternate hand by hand for the whole match, never reset by sets, rounds or
tiebreaks (R-ALL-04); under a ``widow`` starter policy every plan leaves the starter to the deal.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from dominokit.reference.deal import Deal
from dominokit.reference.engine import apply_action, hand_result, legal_actions, new_hand
from dominokit.reference.errors import DealError
from dominokit.reference.notation import Action
from dominokit.reference.rules import MatchSpec, Rules, SizePair, load_rules
from dominokit.reference.state import HandResult, HandState
from dominokit.spec.spec import Variant

Pair = tuple[int, int]

OVER = "over"
"""The ``phase`` of a finished match."""

_TIEBREAK = "tiebreak"


@dataclass(frozen=True)
class HandPlan:
    """What the match needs from the next hand: its starter, hand sizes and a label.

    ``starter`` is None when the deal's widow decides it; ``hand_sizes`` is indexed by player.
    """

    starter: int | None
    hand_sizes: tuple[int, int]
    label: str


@dataclass(frozen=True)
class StageRecord:
    """A finished round or tiebreak: its name, totals and winner (None for a drawn round)."""

    name: str
    totals: Pair
    winner: int | None

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "totals": list(self.totals), "winner": self.winner}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> StageRecord:
        return cls(str(data["name"]), _pair(data["totals"], "totals"), _player(data["winner"]))


_EVENT_KEYS: dict[str, tuple[str, ...]] = {
    "set_won": ("name", "winner", "totals", "sets_won"),
    "round_end": ("name", "winner", "totals"),
    "tiebreak_start": ("name", "player_a"),
    "match_won": ("winner",),
}


@dataclass(frozen=True)
class MatchEvent:
    """Something a hand's result decided at the match level; fields a type does not use are None.

    ``name`` is the set, round or tiebreak concerned; ``totals`` its totals when it ended;
    ``player_a`` the player who takes the first hand size of each tiebreak deal (R-PRO-06).
    ``match_won`` with winner None ends a match whose rounds tie when the spec has no tiebreak.
    """

    type: str
    name: str | None = None
    winner: int | None = None
    totals: Pair | None = None
    sets_won: Pair | None = None
    player_a: int | None = None

    def __post_init__(self) -> None:
        if self.type not in _EVENT_KEYS:
            raise ValueError(f"unknown match event type {self.type!r}")

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type}
        for key in _EVENT_KEYS[self.type]:
            value = getattr(self, key)
            out[key] = list(value) if isinstance(value, tuple) else value
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> MatchEvent:
        kind = str(data["type"])
        if kind not in _EVENT_KEYS:
            raise ValueError(f"unknown match event type {kind!r}")
        values: dict[str, Any] = {}
        for key in _EVENT_KEYS[kind]:
            raw = data[key]
            values[key] = _pair(raw, key) if key in ("totals", "sets_won") else raw
        return cls(kind, **values)


@dataclass(frozen=True)
class MatchState:
    """Where a match stands. Immutable: ``finish_hand`` returns a new value.

    ``totals`` are the running totals of the current set, round or tiebreak (of the whole
    match for a target match); once the match is over they are left as the last hand left them.
    ``rounds`` lists finished rounds and tiebreaks in play order. ``hand_in_stage`` counts the
    hands already played in the current set, round or tiebreak.
    """

    rules: Rules = field(repr=False)
    first_starter: int
    hands_played: int = 0
    totals: Pair = (0, 0)
    sets_won: Pair = (0, 0)
    rounds: tuple[StageRecord, ...] = ()
    hand_in_stage: int = 0
    winner: int | None = None
    finished: bool = False

    @property
    def spec(self) -> MatchSpec:
        """The resolved ``match`` section this match follows."""
        return self.rules.match

    @property
    def phase(self) -> str:
        """The label of the next hand (``set 2 hand 3``, ``round 1 deal 4``), or ``over``."""
        plan = self.plan()
        return OVER if plan is None else plan.label

    def starter_of_next(self) -> int | None:
        """R-ALL-04: hand n (from 0) is started by first_starter when n is even, else the other."""
        if self.rules.setup.starter == "widow":
            return None
        return self.first_starter if self.hands_played % 2 == 0 else 1 - self.first_starter

    def plan(self) -> HandPlan | None:
        """The next hand's starter, hand sizes and label; None when the match is over."""
        if self.finished:
            return None
        starter = self.starter_of_next()
        if self.spec.kind == "rounds":
            name, deals, player_a = self._stage()
            a, b = deals[self.hand_in_stage]
            sizes = (a, b) if player_a == 0 else (b, a)
            return HandPlan(starter, sizes, f"{name} deal {self.hand_in_stage + 1}")
        size = self.rules.setup.hand_size
        if size is None:
            raise ValueError(f"{self.rules.variant_id}: hand sizes come from a schedule, but "
                             f"the match kind {self.spec.kind!r} has none")
        label = f"hand {self.hands_played + 1}"
        if self.spec.kind == "sets":
            label = f"set {sum(self.sets_won) + 1} hand {self.hand_in_stage + 1}"
        return HandPlan(starter, (size, size), label)

    def _stage(self) -> tuple[str, tuple[SizePair, ...], int]:
        """The current round or tiebreak: name, deals, and player A (R-PRO-06)."""
        spec = self.spec
        done = len(self.rounds)
        if done < len(spec.rounds):
            current = spec.rounds[done]
            return current.name, current.deals, self.first_starter
        if spec.tiebreak is None:
            raise ValueError(f"{self.rules.variant_id}: rounds are tied and the match section "
                             "has no tiebreak")
        number = done - len(spec.rounds) + 1
        swapped = spec.tiebreak.swap_roles and number % 2 == 0
        player_a = 1 - self.first_starter if swapped else self.first_starter
        return f"{_TIEBREAK} {number}", spec.tiebreak.deals, player_a

    def to_json(self) -> dict[str, Any]:
        """The canonical JSON form (DESIGN.md); ``from_json`` reads it back."""
        plan = self.plan()
        out: dict[str, Any] = {
            "variant": self.rules.variant_id,
            "options": self.rules.options_json(),
            "first_starter": self.first_starter,
            "hands_played": self.hands_played,
            "totals": list(self.totals),
        }
        if self.spec.kind == "sets":
            out["sets_won"] = list(self.sets_won)
        if self.spec.kind == "rounds":
            out["rounds"] = [record.to_json() for record in self.rounds]
        out["phase"] = OVER if plan is None else plan.label
        out["next"] = None if plan is None else {
            "starter": plan.starter, "hand_sizes": list(plan.hand_sizes)}
        out["winner"] = self.winner
        out["finished"] = self.finished
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any], variant: Variant | None = None) -> MatchState:
        """Rebuild a match from ``to_json``; ``variant`` for one not bundled (loaded by path).

        The hand count within a set is carried by ``phase``, the label of the next hand.
        """
        rules = load_rules(variant if variant is not None else str(data["variant"]),
                           data.get("options") or {})
        finished = bool(data["finished"])
        hands_played = int(data["hands_played"])
        rounds = tuple(StageRecord.from_json(r) for r in data.get("rounds") or ())
        sets_won = _pair(data.get("sets_won", [0, 0]), "sets_won")
        hand_in_stage = 0
        phase = str(data["phase"])
        if not finished:
            found = re.search(r" ([1-9][0-9]*)$", phase)
            if found is None:
                raise ValueError(f"match phase {phase!r} does not name the next hand")
            hand_in_stage = int(found.group(1)) - 1
        state = cls(rules, _player_required(data["first_starter"]), hands_played,
                    _pair(data["totals"], "totals"), sets_won, rounds, hand_in_stage,
                    _player(data["winner"]), finished)
        if state.phase != phase:
            raise ValueError(f"match phase {phase!r} does not fit the rest of the state "
                             f"(expected {state.phase!r})")
        return state


def new_match(
    variant: str | Variant, options: Mapping[str, object] | None = None, first_starter: int = 0
) -> MatchState:
    """A match before its first hand; ``first_starter`` is the player chosen by lot (R-ALL-04)."""
    match = MatchState(load_rules(variant, options), _player_required(first_starter))
    match.plan()
    return match


def start_hand(match: MatchState, deal: Deal) -> HandState:
    """Start the match's next hand on ``deal``; the match, not the deal, names the starter."""
    plan = match.plan()
    if plan is None:
        raise ValueError("the match is over; no hand to start")
    sizes = (len(deal.hands[0]), len(deal.hands[1]))
    if sizes != plan.hand_sizes:
        raise DealError(f"{plan.label} deals hands of {plan.hand_sizes}, got {sizes}",
                        match.rules.setup.rule)
    return new_hand(match.rules, dataclasses.replace(deal, starter=plan.starter))


def finish_hand(match: MatchState, result: HandResult) -> tuple[MatchState, list[MatchEvent]]:
    """Add a finished hand's points and say what they decide (R-POL-10, R-SZC-07, R-PIJ-10,
    R-PRO-05/06); the input match is left unchanged."""
    if match.finished:
        raise ValueError("the match is over; no hand to finish")
    points = _pair(list(result.points), "points")
    totals = (match.totals[0] + points[0], match.totals[1] + points[1])
    played = dataclasses.replace(match, hands_played=match.hands_played + 1, totals=totals,
                                 hand_in_stage=match.hand_in_stage + 1)
    return _DECIDERS[match.spec.kind](played)


def _higher(totals: Pair) -> int | None:
    """The player with the higher total, None when equal."""
    if totals[0] == totals[1]:
        return None
    return 0 if totals[0] > totals[1] else 1


def _finish(match: MatchState, winner: int | None) -> MatchState:
    """The match over, won by ``winner`` (None only for tied rounds with no tiebreak)."""
    return dataclasses.replace(match, winner=winner, finished=True, hand_in_stage=0)


def _after_set_hand(match: MatchState) -> tuple[MatchState, list[MatchEvent]]:
    """R-POL-10: reaching the set target wins the set; enough sets win the match.

    Both players reaching the target after one hand cannot happen when only the winner gains,
    but the spec allows it: the higher total takes the set and equal totals play on.
    """
    spec, totals = match.spec, match.totals
    if max(totals) < spec.set_target or (winner := _higher(totals)) is None:
        return match, []
    won = (match.sets_won[0] + (winner == 0), match.sets_won[1] + (winner == 1))
    name = f"set {sum(match.sets_won) + 1}"
    events = [MatchEvent("set_won", name=name, winner=winner, totals=totals, sets_won=won)]
    if won[winner] >= spec.sets_to_win:
        events.append(MatchEvent("match_won", winner=winner))
        return _finish(dataclasses.replace(match, sets_won=won), winner), events
    return dataclasses.replace(match, sets_won=won, totals=(0, 0), hand_in_stage=0), events


def _after_target_hand(match: MatchState) -> tuple[MatchState, list[MatchEvent]]:
    """R-SZC-07 (at_least) and R-PIJ-10 (exceeds): once a total gets there the higher total
    wins; equal totals play another hand."""
    spec, totals = match.spec, match.totals
    if spec.compare == "at_least":
        there = max(totals) >= spec.target
    elif spec.compare == "exceeds":
        there = max(totals) > spec.target
    else:
        raise ValueError(f"{match.rules.variant_id}: unknown match compare {spec.compare!r}")
    winner = _higher(totals) if there else None
    if winner is None:
        return match, []
    return _finish(match, winner), [MatchEvent("match_won", winner=winner)]


def _after_round_hand(match: MatchState) -> tuple[MatchState, list[MatchEvent]]:
    """R-PRO-05/06: rounds end after their deals; the round wins decide, else tiebreaks."""
    name, deals, _ = match._stage()
    if match.hand_in_stage < len(deals):
        return match, []
    record = StageRecord(name, match.totals, _higher(match.totals))
    events = [MatchEvent("round_end", name=name, winner=record.winner, totals=record.totals)]
    rounds = (*match.rounds, record)
    ended = dataclasses.replace(match, rounds=rounds, totals=(0, 0), hand_in_stage=0)
    regular = len(match.spec.rounds)
    if len(rounds) < regular:
        return ended, events
    if len(rounds) == regular:
        wins = tuple(sum(r.winner == p for r in rounds) for p in (0, 1))
        winner = _higher((wins[0], wins[1]))
    else:
        winner = record.winner
    if winner is not None or match.spec.tiebreak is None:
        events.append(MatchEvent("match_won", winner=winner))
        return _finish(dataclasses.replace(ended, totals=match.totals), winner), events
    next_name, _, player_a = ended._stage()
    events.append(MatchEvent("tiebreak_start", name=next_name, player_a=player_a))
    return ended, events


_DECIDERS: dict[str, Callable[[MatchState], tuple[MatchState, list[MatchEvent]]]] = {
    "sets": _after_set_hand,
    "target": _after_target_hand,
    "rounds": _after_round_hand,
}


@dataclass(frozen=True)
class PlayedHand:
    """One hand of a recorded match: the plan, the deal, the actions and what they led to."""

    plan: HandPlan
    deal: Deal
    actions: tuple[Action, ...]
    result: HandResult
    events: tuple[MatchEvent, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "label": self.plan.label,
            "deal": self.deal.to_json(),
            "actions": [str(a) for a in self.actions],
            "result": self.result.to_json(),
            "match_events": [e.to_json() for e in self.events],
        }


@dataclass(frozen=True)
class MatchRecord:
    """A whole match as played by ``play_match``: every hand, and the final match state."""

    hands: tuple[PlayedHand, ...]
    final: MatchState

    @property
    def winner(self) -> int | None:
        return self.final.winner

    def to_json(self) -> dict[str, Any]:
        return {"hands": [h.to_json() for h in self.hands], "final": self.final.to_json()}


Policy = Callable[[HandState, list[Action]], Action]


def play_match(
    variant: str | Variant,
    deal_for: Callable[[HandPlan], Deal],
    policy: Policy,
    options: Mapping[str, object] | None = None,
    first_starter: int = 0,
    *,
    max_hands: int = 10_000,
) -> MatchRecord:
    """Play a whole match: ``deal_for`` supplies each deal, ``policy`` picks each action.

    ``max_hands`` stops a match that cannot end (a policy that never scores) with an error
    instead of looping for ever.
    """
    match = new_match(variant, options, first_starter)
    hands: list[PlayedHand] = []
    while (plan := match.plan()) is not None:
        if len(hands) >= max_hands:
            raise RuntimeError(f"match not over after {max_hands} hands")
        deal = deal_for(plan)
        state = start_hand(match, deal)
        actions: list[Action] = []
        while (result := hand_result(state)) is None:
            action = policy(state, legal_actions(state))
            actions.append(action)
            state, _ = apply_action(state, action)
        match, events = finish_hand(match, result)
        played_deal = dataclasses.replace(deal, starter=plan.starter)
        hands.append(PlayedHand(plan, played_deal, tuple(actions), result, tuple(events)))
    return MatchRecord(tuple(hands), match)


def _pair(raw: Any, what: str) -> Pair:
    if not (isinstance(raw, (list, tuple)) and len(raw) == 2
            and all(isinstance(n, int) and not isinstance(n, bool) for n in raw)):
        raise ValueError(f"{what} must be two integers, got {raw!r}")
    return raw[0], raw[1]


def _player(raw: Any) -> int | None:
    return None if raw is None else _player_required(raw)


def _player_required(raw: Any) -> int:
    if raw not in (0, 1) or isinstance(raw, bool):
        raise ValueError(f"a player is 0 or 1, got {raw!r}")
    return int(raw)
