"""The bad requests of the requests cases, made from real deals and positions.

A probe is a few valid requests that put an engine in a known state (a standalone hand in
progress, a match between two hands, a match in the middle of a hand, a match that has ended)
and one request the engine must refuse there. Every deal comes from the variant's own seeded
deals and every position from hands the reference played, so a probe differs from a good
request in exactly the way its name says; whether a kind of probe applies to a variant is read
from its rules (only a variant whose standalone hands alternate can lack a starter).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache, partial
from typing import Any

from dominokit.conformance.cases import oracle
from dominokit.reference import (
    Action,
    Deal,
    HandState,
    Rules,
    apply_action,
    finish_hand,
    legal_actions,
    load_variant,
    new_hand,
    new_match,
    random_deal,
    start_hand,
)

JsonObject = dict[str, Any]

UNKNOWN_VARIANT = "no_such_variant"
"""A well-formed variant id (the schema's pattern) that no engine plays."""
UNKNOWN_OPTION = "no_such_option"
"""An option name no variant declares."""
SHORTCUT_DEALS = 8
"""Deals tried for each hand of a match that is played to its end (the best one is kept)..."""
SHORTCUT_WORK = 3_000
"""... until their hands have listed this many legal actions (a Pijanowski hand lists more)."""
NOT_JSON = (b"hello engine", b'{"seq": 5, "cmd": "legal"', b"\xff\xfe not UTF-8")
"""Lines that are not a JSON request: plain words, a cut-off object, bytes that are no text."""


@dataclass(frozen=True)
class Request:
    """One protocol request as data: the command and its fields (no seq)."""

    cmd: str
    fields: Mapping[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        args = ", ".join(f"{k}={short(v)}" for k, v in self.fields.items())
        return f"{self.cmd}({args})"


def short(value: Any) -> str:
    """``repr(value)``, cut to 60 characters (for messages)."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


@dataclass(frozen=True)
class Probe:
    """A bad request (or a raw line) sent after ``setup``, with the reference's answer to it."""

    what: str
    request: Request | bytes
    setup: tuple[Request, ...] = ()
    expected: JsonObject = field(default_factory=dict)
    """``{"error": code, "rule": rule}`` (``{"seq": None, "error": code}`` for a raw line)."""
    answers: tuple[Any, ...] = ()
    """The reference's results of the setup requests (the engine's need no schema check when
    they equal these: see ``Engine``)."""


# --------------------------------------------------------------------------- positions


def _requests_new_hand(variant: str, deal: JsonObject,
                       options: Mapping[str, Any] | None = None) -> Request:
    return Request("new_hand", {"variant": variant, "options": dict(options or {}),
                                "deal": deal})


def _base_deal(rules: Rules, seed: int, salt: str) -> JsonObject:
    rng = random.Random(f"requests:{rules.variant_id}:{seed}:{salt}")
    return oracle.deal_json(rules, rng.randrange(2**31), oracle.hand_sizes(rules)[0])


@cache
def _hand_in_progress(variant: str, seed: int) -> tuple[Request, ...]:
    """A standalone hand after its first action (so that a state is more than a deal)."""
    rules = oracle.rules_of(variant, {})
    deal = _base_deal(rules, seed, "setup")
    state = new_hand(rules, Deal.from_json(deal))
    first = legal_actions(state)
    return (_requests_new_hand(variant, deal),
            *([Request("apply", {"action": str(first[0])})] if first else []))


@dataclass(frozen=True)
class MatchPosition:
    """Requests that bring a match to a point, and the match's next hand sizes from there."""

    setup: tuple[Request, ...]
    sizes: tuple[int, int]
    finished: bool


@cache
def match_hands(variant: str, seed: int, hands: int | None) -> MatchPosition:
    """``new_match`` then ``hands`` whole hands (None: until the match ends), each dealt and
    played on the reference by a seeded random policy. To end a match in few requests, each
    hand is the one of up to SHORTCUT_DEALS candidates that most favours player 0 (fewer where
    a hand is costly to play)."""
    rules = oracle.rules_of(variant, {})
    match = new_match(variant, {}, 0)
    setup = [Request("new_match", {"variant": variant, "options": {}, "first_starter": 0})]
    sizes = oracle.hand_sizes(rules)[0]
    number = 0
    while (plan := match.plan()) is not None and (hands is None or number < hands):
        best: tuple[int, JsonObject, oracle.Played] | None = None
        work = 0
        for candidate in range(SHORTCUT_DEALS if hands is None else 1):
            if work >= SHORTCUT_WORK:
                break
            rng = random.Random(f"requests:match:{variant}:{seed}:{number}:{candidate}")
            deal = random_deal(rules, rng, hand_sizes=plan.hand_sizes, starter=plan.starter)
            data = deal.to_json()
            data["starter"] = None
            played = oracle.play(rules, start_hand(match, deal), oracle.uniform, rng, variant,
                                 {}, data)
            work += played.work
            margin = played.result.points[0] - played.result.points[1]
            if best is None or margin > best[0]:
                best = (margin, data, played)
        assert best is not None
        _, data, played = best
        setup.append(Request("next_hand", {"deal": data}))
        setup.extend(Request("apply", {"action": action}) for action in played.actions)
        match, _ = finish_hand(match, played.result)
        sizes = plan.hand_sizes
        number += 1
    plan = match.plan()
    return MatchPosition(tuple(setup), plan.hand_sizes if plan else sizes, match.finished)


def _match_deal(rules: Rules, sizes: tuple[int, int], seed: int, salt: str) -> JsonObject:
    rng = random.Random(f"requests:{rules.variant_id}:{seed}:{salt}")
    data = random_deal(rules, rng, hand_sizes=sizes).to_json()
    data["starter"] = None
    return data


@cache
def _mid_hand(variant: str, seed: int) -> tuple[tuple[Request, ...], HandState]:
    """A match's first hand after one action (one of at least three), and its state then."""
    rules = oracle.rules_of(variant, {})
    match = new_match(variant, {}, 0)
    plan = match.plan()
    assert plan is not None
    for attempt in range(100):
        rng = random.Random(f"requests:mid:{variant}:{seed}:{attempt}")
        deal = random_deal(rules, rng, hand_sizes=plan.hand_sizes, starter=plan.starter)
        data = deal.to_json()
        data["starter"] = None
        played = oracle.play(rules, start_hand(match, deal), oracle.uniform, rng, variant, {},
                             data)
        if len(played.actions) >= 3:
            setup = (Request("new_match", {"variant": variant, "options": {},
                                           "first_starter": 0}),
                     Request("next_hand", {"deal": data}),
                     Request("apply", {"action": played.actions[0]}))
            return setup, played.states[1]
    raise RuntimeError(f"{variant}: no seeded hand lasts three actions")


# --------------------------------------------------------------------------- bad deals


Mutation = Callable[[JsonObject], str | None]
"""Changes a deal in place and says how, or returns None when it cannot apply to the deal."""


def _remainder(deal: JsonObject) -> str | None:
    return next((key for key in ("stock", "out_of_play") if deal.get(key)), None)


def _move_to_other_hand(deal: JsonObject) -> str:
    tile = deal["hands"][0].pop()
    deal["hands"][1].append(tile)
    return f"hand 0 gave {tile} to hand 1 (hand sizes off by one)"


def _move_to_remainder(deal: JsonObject) -> str | None:
    key = _remainder(deal)
    if key is None:
        return None
    tile = deal["hands"][0].pop()
    deal[key].append(tile)
    return f"hand 0 put {tile} in the {key} (hand 0 one tile short)"


def _twice_in_hand(deal: JsonObject) -> str:
    hand = deal["hands"][0]
    missing = hand[1]
    hand[1] = hand[0]
    return f"{hand[0]} is twice in hand 0 ({missing} is nowhere)"


def _twice_in_remainder(deal: JsonObject) -> str | None:
    key = _remainder(deal)
    if key is None or len(deal[key]) < 2:
        return None
    missing = deal[key][1]
    deal[key][1] = deal[key][0]
    return f"{deal[key][0]} is twice in the {key} ({missing} is nowhere)"


def _widow_copies_a_tile(deal: JsonObject) -> str | None:
    if deal.get("widow") is None:
        return None
    low, high = (int(n) for n in deal["hands"][0][0].split("-"))
    deal["widow"] = [low, high]
    return f"the widow is {low}-{high}, also in hand 0"


def _drop_tile(deal: JsonObject) -> str:
    key = _remainder(deal)
    if key is not None:
        return f"{deal[key].pop()} is left out of the {key}"
    if deal.get("widow") is not None:
        deal["widow"] = None
        return "there is no widow (its tile is nowhere)"
    return f"{deal['hands'][1].pop()} is left out of hand 1"


def _out_of_range(text: str, hand: int) -> Mutation:
    def mutate(deal: JsonObject) -> str:
        old = deal["hands"][hand][0]
        deal["hands"][hand][0] = text
        return f"hand {hand} holds {text} instead of {old}"

    return mutate


def _in_both_hands(deal: JsonObject) -> str:
    old = deal["hands"][1][0]
    deal["hands"][1][0] = deal["hands"][0][0]
    return f"{deal['hands'][0][0]} is in both hands ({old} is nowhere)"


def _starter(value: int | None) -> Mutation:
    def mutate(deal: JsonObject) -> str:
        deal["starter"] = value
        return f"deal.starter is {value if value is not None else 'null'}"

    return mutate


def _double_widow(deal: JsonObject) -> str | None:
    if deal.get("widow") is None:
        return None
    pip = deal["widow"][0]
    deal["widow"] = [pip, pip]
    return f"the widow is the double {pip}-{pip}"


def _foreign_tiles(rules: Rules) -> list[str]:
    """Tiles in the notation's range that the variant's set lacks (Szczerbak's doubles)."""
    have = {str(tile) for tile in rules.tiles.tiles}
    return [f"{a}-{b}" for a in range(7) for b in range(a, 7) if f"{a}-{b}" not in have][:1]


DEAL_MUTATIONS: dict[str, Callable[[Rules], list[Mutation]]] = {
    "bad-deal-hand-size": lambda rules: [_move_to_other_hand, _move_to_remainder],
    "bad-deal-duplicate-tile": lambda rules: [_twice_in_hand, _twice_in_remainder,
                                              _widow_copies_a_tile],
    "bad-deal-missing-tile": lambda rules: [_drop_tile],
    "bad-deal-tile-out-of-range": lambda rules: [
        _out_of_range("0-7", 0), _out_of_range("7-7", 1),
        *(_out_of_range(text, 0) for text in _foreign_tiles(rules)), _double_widow],
    "bad-deal-tile-in-both-hands": lambda rules: [_in_both_hands],
    "bad-deal-starter-given": lambda rules: (
        [_starter(0), _starter(1)] if rules.setup.starter == "widow" else []),
    "bad-deal-starter-missing": lambda rules: (
        [_starter(None)] if rules.setup.starter == "alternate" else []),
}
"""Each kind of bad deal, as the mutations of a real deal that make it in ``new_hand`` (none
where the kind cannot occur: only a variant whose widow decides the starter refuses a given
starter there, only one whose standalone hands alternate needs one)."""

MATCH_MUTATIONS: dict[str, Callable[[Rules], list[Mutation]]] = {
    **{name: DEAL_MUTATIONS[name] for name in (
        "bad-deal-hand-size", "bad-deal-duplicate-tile", "bad-deal-missing-tile",
        "bad-deal-tile-out-of-range", "bad-deal-tile-in-both-hands")},
    "bad-deal-starter-given": lambda rules: [_starter(0), _starter(1)],
}
"""Bad deals also sent as ``next_hand`` between two hands of a match. There the match decides
the starter in every variant, so a deal naming one is bad everywhere, and none is missing."""


def _bad_deals(variant: str, rules: Rules, seed: int, name: str) -> list[Probe]:
    out: list[Probe] = []
    standalone = _hand_in_progress(variant, seed)
    for mutation in DEAL_MUTATIONS[name](rules):
        deal = _base_deal(rules, seed, name)
        how = mutation(deal)
        if how is not None:
            out.append(Probe(f"new_hand with a deal where {how}",
                             _requests_new_hand(variant, deal), standalone))
    in_a_match = MATCH_MUTATIONS[name](rules) if name in MATCH_MUTATIONS else []
    if in_a_match:
        between = match_hands(variant, seed, 1)
        if between.finished:
            raise RuntimeError(f"{variant}: a match ended after its first hand")
        for mutation in in_a_match:
            deal = _match_deal(rules, between.sizes, seed, name)
            how = mutation(deal)
            if how is not None:
                out.append(Probe(f"next_hand (after a match's first hand) with a deal where "
                                 f"{how}", Request("next_hand", {"deal": deal}),
                                 between.setup))
    return out


# --------------------------------------------------------------------------- other probes


def option_values(variant: str) -> list[tuple[str, object, str]]:
    """For each option whose values have a type with room for another value, a value of that
    type it does not allow, and the option's rule."""
    out: list[tuple[str, object, str]] = []
    for name, spec in load_variant(variant).options.items():
        values = list(spec.values)
        numbers = [v for v in values if isinstance(v, int) and not isinstance(v, bool)]
        if numbers and len(numbers) == len(values):
            out.append((name, max(numbers) + 1, spec.rule))
        elif all(isinstance(v, str) for v in values):
            out.append((name, "no-such-value", spec.rule))
    return out


def _unsupported_variant(variant: str, rules: Rules, seed: int) -> list[Probe]:
    standalone = _hand_in_progress(variant, seed)
    deal = _base_deal(rules, seed, "unsupported")
    return [
        Probe(f"new_hand of variant {UNKNOWN_VARIANT!r} (a real {variant} deal)",
              _requests_new_hand(UNKNOWN_VARIANT, deal), standalone),
        Probe(f"new_match of variant {UNKNOWN_VARIANT!r}",
              Request("new_match", {"variant": UNKNOWN_VARIANT, "options": {},
                                    "first_starter": 0}), standalone),
    ]


def _unsupported_option(variant: str, rules: Rules, seed: int) -> list[Probe]:
    standalone = _hand_in_progress(variant, seed)
    deal = _base_deal(rules, seed, "unsupported")
    options = {UNKNOWN_OPTION: 1}
    return [
        Probe(f"new_hand with option {UNKNOWN_OPTION!r}",
              _requests_new_hand(variant, deal, options), standalone),
        Probe(f"new_match with option {UNKNOWN_OPTION!r}",
              Request("new_match", {"variant": variant, "options": options,
                                    "first_starter": 0}), standalone),
    ]


def _unsupported_value(variant: str, rules: Rules, seed: int) -> list[Probe]:
    standalone = _hand_in_progress(variant, seed)
    deal = _base_deal(rules, seed, "unsupported")
    out = []
    for name, value, _ in option_values(variant):
        out.append(Probe(f"new_hand with option {name}={value!r}",
                         _requests_new_hand(variant, deal, {name: value}), standalone))
        out.append(Probe(f"new_match with option {name}={value!r}",
                         Request("new_match", {"variant": variant, "options": {name: value},
                                               "first_starter": 0}), standalone))
    return out


def _no_hand(variant: str, rules: Rules, seed: int) -> list[Probe]:
    setup = (Request("new_match", {"variant": variant, "options": {}, "first_starter": 0}),)
    action = str(legal_actions(new_hand(rules, Deal.from_json(
        _base_deal(rules, seed, "no-hand"))))[0])
    return [Probe(f"{request.cmd} in a match before its first hand", request, setup)
            for request in (Request("legal"), Request("apply", {"action": action}),
                            Request("state"))]


def _no_match(variant: str, rules: Rules, seed: int) -> list[Probe]:
    setup = _hand_in_progress(variant, seed)
    deal = _match_deal(rules, oracle.hand_sizes(rules)[0], seed, "no-match")
    return [Probe(f"{request.cmd} during a standalone hand", request, setup)
            for request in (Request("next_hand", {"deal": deal}), Request("match_state"))]


def _before_hand_ends(variant: str, rules: Rules, seed: int) -> list[Probe]:
    setup, _ = _mid_hand(variant, seed)
    plan = new_match(variant, {}, 0).plan()
    assert plan is not None
    deal = _match_deal(rules, plan.hand_sizes, seed, "before-end")
    return [Probe("next_hand while the match's current hand is still being played",
                  Request("next_hand", {"deal": deal}), setup)]


def _after_match(variant: str, rules: Rules, seed: int) -> list[Probe]:
    ended = match_hands(variant, seed, None)
    deal = _match_deal(rules, ended.sizes, seed, "after-match")
    hands = sum(request.cmd == "next_hand" for request in ended.setup)
    return [Probe(f"next_hand after the match ended ({hands} hands played)",
                  Request("next_hand", {"deal": deal}), ended.setup)]


def _respellings(action: str) -> list[str]:
    """Non-canonical spellings of a canonical placement: the tile's halves swapped, the end
    letter in lower case, a row number with a leading zero."""
    tile, _, where = action.partition("@")
    low, high = tile.split("-")
    out = [] if low == high else [f"{high}-{low}" + (f"@{where}" if where else "")]
    if where[:1] in ("L", "R"):
        out.append(f"{tile}@{where[0].lower()}{where[1:]}")
    elif where:
        out.append(f"{tile}@0{where}")
    return out


def _non_canonical(variant: str, rules: Rules, seed: int) -> list[Probe]:
    setup = _hand_in_progress(variant, seed)
    start = new_hand(rules, Deal.from_json(setup[0].fields["deal"]))
    now = start
    for request in setup[1:]:
        now, _ = apply_action(now, request.fields["action"])
    texts: list[str] = []
    # placements legal right now first (a lenient engine would play them), then the opening's
    for state in (now, start):
        placements = [str(a) for a in legal_actions(state) if a.tile is not None]
        for action in placements[:2]:
            texts.extend(t for t in _respellings(action) if t not in texts)
    texts.extend(("DRAW", "Pass", " pass", "pass\t"))
    return [Probe(f"apply {text!r} (not canonical notation)",
                  Request("apply", {"action": text}), setup) for text in texts]


def _not_json(variant: str, rules: Rules, seed: int) -> list[Probe]:
    setup = _hand_in_progress(variant, seed)
    return [Probe(f"the line {line!r}", line, setup) for line in NOT_JSON]


def _keeps_state(variant: str, rules: Rules, seed: int) -> list[Probe]:
    """Bad requests of every kind in the middle of a match's hand: none may disturb it."""
    setup, state = _mid_hand(variant, seed)
    plan = new_match(variant, {}, 0).plan()
    assert plan is not None
    illegal = next(word for word in ("stop", "pass", "draw")
                   if Action.parse(word) not in legal_actions(state))
    bad_deal = _base_deal(rules, seed, "keeps-state")
    _in_both_hands(bad_deal)
    requests = [
        (f"the illegal action {illegal!r}", Request("apply", {"action": illegal})),
        ("a non-canonical action", Request("apply", {"action": "DRAW"})),
        ("new_hand with a bad deal", _requests_new_hand(variant, bad_deal)),
        ("new_hand of an unknown variant",
         _requests_new_hand(UNKNOWN_VARIANT, _base_deal(rules, seed, "keeps-state"))),
        ("new_match with an unknown option",
         Request("new_match", {"variant": variant, "options": {UNKNOWN_OPTION: 1},
                               "first_starter": 1})),
        ("next_hand before the hand ends",
         Request("next_hand", {"deal": _match_deal(rules, plan.hand_sizes, seed, "keep")})),
    ]
    return [Probe(f"{what}, in the middle of a match's hand", request, setup)
            for what, request in requests]


def _nothing_to_undo(variant: str, rules: Rules, seed: int) -> list[Probe]:
    """``undo`` where there is no ``apply`` to take back (protocol 2, engines declaring undo)."""
    standalone = _hand_in_progress(variant, seed)
    between = match_hands(variant, seed, 1)
    deal = _match_deal(rules, between.sizes, seed, "undo")
    undo = Request("undo")
    return [
        Probe("undo in a match before its first hand", undo,
              (Request("new_match", {"variant": variant, "options": {}, "first_starter": 0}),)),
        Probe("undo right after new_hand", undo, standalone[:1]),
        Probe("undo once more after taking back the hand's only apply", undo,
              (*standalone[:2], undo)),
        Probe("undo right after next_hand (the last hand's applies are not the new hand's)",
              undo, (*between.setup, Request("next_hand", {"deal": deal}))),
    ]


NO_COMMAND = (b'{"seq": 7}', b'{"seq": 8, "cmd": 5}', b'{"seq": 9, "cmd": null}',
              b'{"seq": 10, "cmd": ["legal"]}')
"""Requests with a readable seq and no command: no ``cmd``, or one that is not a string."""


def _no_command(variant: str, rules: Rules, seed: int) -> list[Probe]:
    """A request that names no command is ``unsupported``, with its seq (spec/protocol.md,
    the order of the checks, row 7), not ``bad_request``."""
    setup = _hand_in_progress(variant, seed)
    return [Probe(f"the request {line.decode()}", line, setup) for line in NO_COMMAND]


def _hello_mid_session(variant: str, rules: Rules, seed: int) -> list[Probe]:
    """A ``hello`` in the middle of a session resets nothing: a refusal that depends on the
    hand in progress is still that refusal (an engine that dropped its hand would answer
    ``no_hand`` or ``no_match``)."""
    hello = Request("hello", {"protocol": 2})
    setup, state = _mid_hand(variant, seed)
    illegal = next(word for word in ("stop", "pass", "draw")
                   if Action.parse(word) not in legal_actions(state))
    plan = new_match(variant, {}, 0).plan()
    assert plan is not None
    deal = _match_deal(rules, plan.hand_sizes, seed, "hello")
    return [
        Probe(f"the illegal action {illegal!r} after a hello in the middle of a match's hand",
              Request("apply", {"action": illegal}), (*setup, hello)),
        Probe("next_hand before the hand ends, after a hello in the middle of it",
              Request("next_hand", {"deal": deal}), (*setup, hello)),
    ]


Builder = Callable[[str, Rules, int], list[Probe]]

BUILDERS: dict[str, Builder] = {
    **{name: partial(_bad_deals, name=name) for name in DEAL_MUTATIONS},
    "unsupported-variant": _unsupported_variant,
    "unsupported-option": _unsupported_option,
    "unsupported-option-value": _unsupported_value,
    "no-hand": _no_hand,
    "no-match": _no_match,
    "next-hand-before-hand-ends": _before_hand_ends,
    "next-hand-after-match": _after_match,
    "non-canonical-action": _non_canonical,
    "not-json": _not_json,
    "refusal-keeps-state": _keeps_state,
    "undo-nothing-to-take-back": _nothing_to_undo,
    "no-command": _no_command,
    "hello-mid-session": _hello_mid_session,
}
"""Every request case by name (``requests/<variant>/<name>``), in the order they run."""

NEEDS_UNDO = frozenset({"undo-nothing-to-take-back"})
"""Cases that apply only to an engine declaring the ``undo`` capability in ``hello``."""


def applies(variant: str, name: str) -> bool:
    """Whether the case ``name`` has anything to send for ``variant`` (known without building
    its probes)."""
    if name in DEAL_MUTATIONS:
        rules = oracle.rules_of(variant, {})
        return bool(DEAL_MUTATIONS[name](rules) or name in MATCH_MUTATIONS)
    if name == "unsupported-option-value":
        return bool(option_values(variant))
    return True
