"""Request cases: the protocol's error paths, each a request an engine must refuse harmlessly.

Every case is a list of probes. A probe puts the engine in a known state with valid requests
(a hand in progress, a match between hands, a match that has ended), then sends one bad request:
a deal that does not fit the variant, an unknown variant, option or option value, a verb with no
hand or no match to act on, ``next_hand`` at the wrong moment, an action not in canonical
notation, or a line that is not JSON at all. The expected answer is the reference's own answer
to the same requests, so the cases follow the contract wherever the reference does. The engine
fails a probe when it accepts the request, answers another error code, or cites another rule
where a rule is required (``illegal_action``, and a deal refused under a rule); a message is
free text. Then ``state`` and ``match_state`` must answer exactly as they did before the bad
request (a refusal changes nothing, not even an error code).
"""

from __future__ import annotations

import copy
import dataclasses
import io
import json
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache, partial
from typing import Any, Protocol

from dominokit.conformance.cases import Params, oracle
from dominokit.conformance.cases.compare import diff_text, same, unique
from dominokit.conformance.driver import Engine, RawLines
from dominokit.conformance.errors import EngineRejected
from dominokit.conformance.refengine import ReferenceEngine
from dominokit.conformance.runner import Case, Context, Outcome
from dominokit.conformance.server import run_engine_server
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
NOTATION_RULES = ("R-ALL-01", "R-ALL-09")
"""The rules that give every tile and action one spelling (low half first; one spelling per
action): the rules a non-canonical action breaks. Common rules no mechanic cites."""
NOT_JSON = (b"hello engine", b'{"seq": 5, "cmd": "legal"', b"\xff\xfe not UTF-8")
"""Lines that are not a JSON request: plain words, a cut-off object, bytes that are no text."""


@dataclass(frozen=True)
class Request:
    """One protocol request as data: the command and its fields (no seq)."""

    cmd: str
    fields: Mapping[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        args = ", ".join(f"{k}={_short(v)}" for k, v in self.fields.items())
        return f"{self.cmd}({args})"


def _short(value: Any) -> str:
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


class Verbs(Protocol):
    """The verbs a probe uses, as both the kit's engines and ``ReferenceEngine`` have them."""

    def new_hand(self, variant: str, options: dict[str, Any], deal: dict[str, Any]
                 ) -> JsonObject: ...
    def legal(self) -> list[str]: ...
    def apply(self, action: str) -> list[JsonObject]: ...
    def state(self) -> JsonObject: ...
    def new_match(self, variant: str, options: dict[str, Any], first_starter: int
                  ) -> JsonObject: ...
    def next_hand(self, deal: dict[str, Any]) -> JsonObject: ...
    def match_state(self) -> JsonObject: ...


_VERBS: dict[str, Callable[[Verbs, Mapping[str, Any]], Any]] = {
    "new_hand": lambda e, f: e.new_hand(f["variant"], dict(f["options"]), dict(f["deal"])),
    "legal": lambda e, f: e.legal(),
    "apply": lambda e, f: e.apply(f["action"]),
    "state": lambda e, f: e.state(),
    "new_match": lambda e, f: e.new_match(f["variant"], dict(f["options"]),
                                          f["first_starter"]),
    "next_hand": lambda e, f: e.next_hand(dict(f["deal"])),
    "match_state": lambda e, f: e.match_state(),
}


def send(engine: Verbs, request: Request) -> Any:
    """Send ``request`` through the engine's verb; a refusal raises ``EngineRejected``."""
    return _VERBS[request.cmd](engine, copy.deepcopy(dict(request.fields)))


def answer(engine: Verbs, request: Request) -> JsonObject:
    """What the engine answered: ``{"error": code, "rule": rule}`` or ``{"accepted": ...}``."""
    try:
        value = send(engine, request)
    except EngineRejected as refusal:
        return {"error": refusal.code, "rule": refusal.rule}
    return {"accepted": value}


def snapshot(engine: Verbs) -> JsonObject:
    """The answers to ``state`` and ``match_state`` (an error reply as its code)."""
    out: JsonObject = {}
    for key, verb in (("state", engine.state), ("match_state", engine.match_state)):
        try:
            out[key] = verb()
        except EngineRejected as refusal:
            out[key] = {"error": refusal.code}
    return out


def with_reference(probe: Probe) -> Probe:
    """The probe with the reference's answers, from a fresh reference engine."""
    ref = ReferenceEngine()
    answers = tuple(json.loads(json.dumps(send(ref, request))) for request in probe.setup)
    if isinstance(probe.request, bytes):
        reply = raw_reply(ref, probe.request)
        expected: JsonObject = {"seq": reply.get("seq"), "error": _error_code(reply)}
    else:
        expected = answer(ref, probe.request)
    return dataclasses.replace(probe, expected=expected, answers=answers)


def set_up(engine: Engine, request: Request, expect: Any) -> None:
    """Send a setup request, telling the driver the reference's result."""
    fields = request.fields
    if request.cmd == "apply":
        engine.apply(fields["action"], expect=expect)
    elif request.cmd == "new_hand":
        engine.new_hand(fields["variant"], dict(fields["options"]), dict(fields["deal"]),
                        expect=expect)
    elif request.cmd == "new_match":
        engine.new_match(fields["variant"], dict(fields["options"]), fields["first_starter"],
                         expect=expect)
    elif request.cmd == "next_hand":
        engine.next_hand(dict(fields["deal"]), expect=expect)
    else:
        send(engine, request)


def raw_reply(obj: object, line: bytes) -> JsonObject:
    """The reply the reference server gives ``obj``'s owner to one raw line."""
    out = io.StringIO()
    run_engine_server(obj, stdin=io.TextIOWrapper(io.BytesIO(line + b"\n"), "utf-8"),
                      stdout=out)
    reply: JsonObject = json.loads(out.getvalue().splitlines()[0])
    return reply


def _error_code(reply: Mapping[str, Any]) -> str | None:
    error = reply.get("error")
    code = error.get("code") if isinstance(error, dict) else None
    return code if isinstance(code, str) else None


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
def _match_hands(variant: str, seed: int, hands: int | None) -> MatchPosition:
    """``new_match`` then ``hands`` whole hands (None: until the match ends), each dealt and
    played on the reference by a seeded random policy."""
    rules = oracle.rules_of(variant, {})
    match = new_match(variant, {}, 0)
    setup = [Request("new_match", {"variant": variant, "options": {}, "first_starter": 0})]
    sizes = oracle.hand_sizes(rules)[0]
    number = 0
    while (plan := match.plan()) is not None and (hands is None or number < hands):
        rng = random.Random(f"requests:match:{variant}:{seed}:{number}")
        deal = random_deal(rules, rng, hand_sizes=plan.hand_sizes, starter=plan.starter)
        data = deal.to_json()
        data["starter"] = None
        played = oracle.play(rules, start_hand(match, deal), oracle.uniform, rng, variant, {},
                             data)
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
    return f"{hand[0]} twice in hand 0 ({missing} nowhere)"


def _twice_in_remainder(deal: JsonObject) -> str | None:
    key = _remainder(deal)
    if key is None or len(deal[key]) < 2:
        return None
    missing = deal[key][1]
    deal[key][1] = deal[key][0]
    return f"{deal[key][0]} twice in the {key} ({missing} nowhere)"


def _widow_copies_a_tile(deal: JsonObject) -> str | None:
    if deal.get("widow") is None:
        return None
    low, high = (int(n) for n in deal["hands"][0][0].split("-"))
    deal["widow"] = [low, high]
    return f"the widow is {low}-{high}, also in hand 0"


def _drop_tile(deal: JsonObject) -> str:
    key = _remainder(deal)
    if key is not None:
        return f"{deal[key].pop()} left out of the {key}"
    if deal.get("widow") is not None:
        deal["widow"] = None
        return "no widow (its tile is nowhere)"
    return f"{deal['hands'][1].pop()} left out of hand 1"


def _out_of_range(text: str, hand: int) -> Mutation:
    def mutate(deal: JsonObject) -> str:
        old = deal["hands"][hand][0]
        deal["hands"][hand][0] = text
        return f"hand {hand} holds {text} instead of {old}"

    return mutate


def _in_both_hands(deal: JsonObject) -> str:
    old = deal["hands"][1][0]
    deal["hands"][1][0] = deal["hands"][0][0]
    return f"{deal['hands'][0][0]} in both hands ({old} nowhere)"


def _starter(value: int | None) -> Mutation:
    def mutate(deal: JsonObject) -> str:
        deal["starter"] = value
        return f"deal.starter {value if value is not None else 'null'}"

    return mutate


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
        *(_out_of_range(text, 0) for text in _foreign_tiles(rules))],
    "bad-deal-tile-in-both-hands": lambda rules: [_in_both_hands],
    "bad-deal-starter-given": lambda rules: (
        [_starter(0), _starter(1)] if rules.setup.starter == "widow" else []),
    "bad-deal-starter-missing": lambda rules: (
        [_starter(None)] if rules.setup.starter == "alternate" else []),
}
"""Each kind of bad deal, as the mutations of a real deal that make it (none: not applicable
to the variant: only a variant whose widow decides the starter refuses a given starter, only one
whose standalone hands alternate needs one)."""

IN_A_MATCH = ("bad-deal-hand-size", "bad-deal-duplicate-tile", "bad-deal-missing-tile",
              "bad-deal-tile-out-of-range", "bad-deal-tile-in-both-hands")
"""Bad deals also sent as ``next_hand`` between two hands of a match (the match decides the
starter, so the starter probes are standalone only)."""


def _bad_deals(variant: str, rules: Rules, seed: int, name: str) -> list[Probe]:
    mutations = DEAL_MUTATIONS[name](rules)
    out: list[Probe] = []
    standalone = _hand_in_progress(variant, seed)
    for mutation in mutations:
        deal = _base_deal(rules, seed, name)
        how = mutation(deal)
        if how is not None:
            out.append(Probe(f"new_hand with a deal where {how}",
                             _requests_new_hand(variant, deal), standalone))
    if name in IN_A_MATCH and out:
        between = _match_hands(variant, seed, 1)
        if between.finished:
            raise RuntimeError(f"{variant}: a match ended after its first hand")
        for mutation in mutations:
            deal = _match_deal(rules, between.sizes, seed, name)
            how = mutation(deal)
            if how is not None:
                out.append(Probe(f"next_hand (after a match's first hand) with a deal where "
                                 f"{how}", Request("next_hand", {"deal": deal}),
                                 between.setup))
    return out


# --------------------------------------------------------------------------- other probes


def _option_values(variant: str) -> list[tuple[str, object, str]]:
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
    for name, value, _ in _option_values(variant):
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
    ended = _match_hands(variant, seed, None)
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


Builder = Callable[[str, Rules, int], list[Probe]]

BUILDERS: dict[str, Builder] = {
    **{name: partial(lambda name, v, r, s: _bad_deals(v, r, s, name), name)
       for name in DEAL_MUTATIONS},
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
}
"""Every request case by name (``requests/<variant>/<name>``), in the order they run."""

PROTOCOL_ONLY = frozenset({"unsupported-variant", "unsupported-option", "no-hand", "no-match",
                           "not-json"})
"""Cases about the protocol alone: no rule of the book decides their answer."""
PROTOCOL_RULE = "R-ALL-03"
"""What the protocol-only cases list: the ruling that a hand is a replay of explicit data,
which is why an engine is driven by requests at all (every other case lists the rules its
probes rest on)."""


@cache
def probes(variant: str, name: str, seed: int) -> tuple[Probe, ...]:
    """The probes of one case, each with the reference's answer (cached: cheap but repeated)."""
    rules = oracle.rules_of(variant, {})
    built = BUILDERS[name](variant, rules, seed)
    return tuple(with_reference(probe) for probe in built)


def applies(variant: str, name: str) -> bool:
    """Whether the case ``name`` has anything to send for ``variant`` (known without building
    its probes)."""
    if name in DEAL_MUTATIONS:
        return bool(DEAL_MUTATIONS[name](oracle.rules_of(variant, {})))
    if name == "unsupported-option-value":
        return bool(_option_values(variant))
    return True


def tags(variant: str, name: str, seed: int) -> tuple[str, ...]:
    """The rules a case rests on: the rules the reference cites refusing its probes, or the
    rules that decide when its requests are out of place."""
    rules = oracle.rules_of(variant, {})
    if name in PROTOCOL_ONLY:
        return (PROTOCOL_RULE,)
    if name == "unsupported-option-value":
        return unique(rule for _, _, rule in _option_values(variant))
    if name == "next-hand-before-hand-ends":
        return unique(end.rule for end in rules.end)
    if name == "next-hand-after-match":
        return (rules.match.rule,)
    if name == "non-canonical-action":
        return NOTATION_RULES
    cited = unique(p.expected.get("rule") for p in probes(variant, name, seed))
    return cited or (rules.tiles.rule,)


def cases(variant: str, params: Params) -> list[Case]:
    """``requests/<variant>/<name>`` for the names that apply to the variant."""
    out = []
    for name in BUILDERS:
        if not applies(variant, name):
            continue
        covered = tags(variant, name, params.seed)
        out.append(Case(id=f"requests/{variant}/{name}", kind="requests", variant=variant,
                        body=partial(_run, variant, name, params.seed, covered), rules=covered,
                        description=f"bad requests ({name}) are refused and change nothing"))
    return out


def _run(variant: str, name: str, seed: int, tags: tuple[str, ...], engine: Engine,
         ctx: Context) -> Outcome:
    built = probes(variant, name, seed)
    raw = any(isinstance(p.request, bytes) for p in built)
    if raw and not isinstance(engine, RawLines):
        return Outcome.not_applicable("an engine driven in-process reads no lines; a line that "
                                      "is not JSON needs an engine run as a command")
    for probe in built:
        if "accepted" in probe.expected:
            return Outcome("errored", f"the reference accepts the bad request of {name}: "
                           f"{probe.what}", failure_kind="kit")
        for request, expect in zip(probe.setup, probe.answers, strict=True):
            set_up(engine, request, expect)
        before = snapshot(engine)
        if isinstance(probe.request, bytes):
            assert isinstance(engine, RawLines)
            reply = engine.exchange_raw(probe.request)
            got: JsonObject = {"seq": reply.get("seq", "(missing)"),
                               "error": _error_code(reply)}
            problem = None if same(got, probe.expected) else (
                f"the engine answered {probe.what} with {_short(reply)}; expected an error "
                f"reply with seq null and code {probe.expected['error']!r}")
        else:
            got = answer(engine, probe.request)
            problem = _judge(probe, got)
        if problem is not None:
            want = probe.expected
            return Outcome("failed", f"{problem}\nafter: "
                           f"{'; '.join(str(r) for r in probe.setup[-3:]) or '(nothing)'}",
                           expected=want, got=got, diff=diff_text(want, got, "answer"),
                           rules=unique([want.get("rule"),
                                         *(() if want.get("rule") else tags), *_cited(got)]))
        after = snapshot(engine)
        if not same(before, after):
            return Outcome("failed", f"refusing {probe.what} changed what the engine answers "
                           f"to state or match_state", expected=before, got=after,
                           diff=diff_text(before, after, "state and match_state",
                                          "engine before the request"),
                           rules=unique([probe.expected.get("rule")]) or tags)
    return Outcome.passed(f"{len(built)} bad requests refused, state unchanged")


def _cited(got: Mapping[str, Any]) -> list[str]:
    rule = got.get("rule")
    return [rule] if isinstance(rule, str) else []


def _judge(probe: Probe, got: Mapping[str, Any]) -> str | None:
    """What is wrong with the engine's answer to a probe, or None."""
    want = probe.expected
    if "accepted" in got:
        return f"the engine accepted {probe.what}; expected {want['error']!r}"
    if got["error"] != want["error"]:
        return (f"the engine refused {probe.what} with code {got['error']!r}, expected "
                f"{want['error']!r}")
    needs_rule = want["error"] == "illegal_action" or want.get("rule") is not None
    if needs_rule and got.get("rule") != want.get("rule"):
        return (f"the engine refused {probe.what} citing {got.get('rule')!r}, expected "
                f"{want.get('rule')!r}")
    return None
