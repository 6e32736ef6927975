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

Two cases are about ``undo`` (protocol 2) and apply only to an engine whose ``hello`` declares
it: ``undo-nothing-to-take-back`` (the probes above), and ``undo-takes-back-a-hand-end``, which
plays a match's first hand to its end, takes every action back and plays the last one again:
each ``undo`` must answer with the state the engine reported at that position, and ``legal``,
``match_state`` (the match totals) and the replayed ``apply`` must answer as they did there.
"""

from __future__ import annotations

import copy
import dataclasses
import io
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache, partial
from typing import Any, Protocol

from dominokit.conformance.cases import Params, oracle
from dominokit.conformance.cases import repro as repros
from dominokit.conformance.cases.bad_requests import (
    BUILDERS,
    NEEDS_UNDO,
    MatchPosition,
    Probe,
    Request,
    applies,
    match_hands,
    option_values,
    short,
)
from dominokit.conformance.cases.compare import Blame, diff_text, same, unique
from dominokit.conformance.cases.model import Case, Context, Outcome
from dominokit.conformance.cases.shadow import Shadowed
from dominokit.conformance.kit.driver import Engine, RawLines
from dominokit.conformance.serve.refengine import ReferenceEngine
from dominokit.conformance.serve.server import run_engine_server
from dominokit.conformance.traces.engine import EngineLike
from dominokit.conformance.traces.record import UNDO
from dominokit.conformance.wire.errors import EngineRejected

JsonObject = dict[str, Any]

NOTATION_RULES = ("R-ALL-01", "R-ALL-09")
"""The rules that give every tile and action one spelling (low half first; one spelling per
action): the rules a non-canonical action breaks. Common rules no mechanic cites."""


class Verbs(EngineLike, Protocol):
    """The verbs a probe uses, as both the kit's engines and ``ReferenceEngine`` have them:
    a replay's, and ``undo``."""

    def undo(self) -> JsonObject: ...
    def hello(self) -> Any: ...


_VERBS: dict[str, Callable[[Verbs, Mapping[str, Any]], Any]] = {
    "new_hand": lambda e, f: e.new_hand(f["variant"], dict(f["options"]), dict(f["deal"])),
    "legal": lambda e, f: e.legal(),
    "apply": lambda e, f: e.apply(f["action"]),
    "state": lambda e, f: e.state(),
    "new_match": lambda e, f: e.new_match(f["variant"], dict(f["options"]),
                                          f["first_starter"]),
    "next_hand": lambda e, f: e.next_hand(dict(f["deal"])),
    "match_state": lambda e, f: e.match_state(),
    "undo": lambda e, f: e.undo(),
    "hello": lambda e, f: e.hello(),
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
    """The reply of the reference's server, serving ``obj``, to one raw line."""
    out = io.StringIO()
    run_engine_server(obj, stdin=io.TextIOWrapper(io.BytesIO(line + b"\n"), "utf-8"),
                      stdout=out)
    reply: JsonObject = json.loads(out.getvalue().splitlines()[0])
    return reply


def _error_code(reply: Mapping[str, Any]) -> str | None:
    error = reply.get("error")
    code = error.get("code") if isinstance(error, dict) else None
    return code if isinstance(code, str) else None

UNDO_HAND_END = "undo-takes-back-a-hand-end"
UNDO_CONTRACT = "after an undo every verb answers as it did at that position, match totals too"
"""The case that takes back a match's first hand, its last action first (see the module)."""
UNDO_CASES = frozenset({*NEEDS_UNDO, UNDO_HAND_END})
"""The cases about ``undo``: only for engines that declare it."""
PROTOCOL_ONLY = frozenset({"unsupported-variant", "unsupported-option", "no-hand", "no-match",
                           "not-json", *UNDO_CASES})
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


def tags(variant: str, name: str, seed: int) -> tuple[str, ...]:
    """The rules a case rests on: the rules the reference cites refusing its probes, or the
    rules that decide when its requests are out of place."""
    rules = oracle.rules_of(variant, {})
    if name in PROTOCOL_ONLY:
        return (PROTOCOL_RULE,)
    if name == "unsupported-option-value":
        return unique(rule for _, _, rule in option_values(variant))
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
    out.append(Case(id=f"requests/{variant}/{UNDO_HAND_END}", kind="requests", variant=variant,
                    body=partial(_run_undo, variant, params.seed), rules=(PROTOCOL_RULE,),
                    description="undo takes back a match's hand action by action, the action "
                    "that ended it first, match totals included"))
    return out


def _without_undo(ctx: Context) -> Outcome | None:
    """Not applicable unless the engine's ``hello`` declared ``undo``."""
    if ctx.hello is not None and "undo" in ctx.hello.capabilities:
        return None
    return Outcome.not_applicable("the engine does not declare the undo capability in hello "
                                  "(protocol 2)")


def _run(variant: str, name: str, seed: int, covered: tuple[str, ...], engine: Engine,
         ctx: Context) -> Outcome:
    if name in NEEDS_UNDO and (skip := _without_undo(ctx)) is not None:
        return skip
    built = probes(variant, name, seed)
    raw = any(isinstance(p.request, bytes) for p in built)
    if raw and not (isinstance(engine, RawLines) and engine.reads_its_own_lines):
        return Outcome.not_applicable("a python: engine reads no lines (the kit frames them "
                                      "for it); a line that is not JSON needs an engine run "
                                      "as a command")
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
                f"the engine answered {probe.what} with {short(reply)}; expected an error "
                f"reply with seq {json.dumps(probe.expected['seq'])} and code "
                f"{probe.expected['error']!r}")
        else:
            got = answer(engine, probe.request)
            problem = _judge(probe, got)
        if problem is not None:
            want = probe.expected
            return Outcome("failed", f"{problem}\nafter: "
                           f"{'; '.join(str(r) for r in probe.setup[-3:]) or '(nothing)'}",
                           expected=want, got=got, diff=diff_text(want, got, "answer"),
                           rules=unique([want.get("rule"),
                                         *(() if want.get("rule") else covered),
                                         *_cited(got)]))
        after = snapshot(engine)
        if not same(before, after):
            return Outcome("failed", f"refusing {probe.what} changed what the engine answers "
                           f"to state or match_state", expected=before, got=after,
                           diff=diff_text(before, after, "state and match_state",
                                          "engine before the request"),
                           rules=unique([probe.expected.get("rule")]) or covered)
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


def _run_undo(variant: str, seed: int, engine: Engine, ctx: Context) -> Outcome:
    """Play a match's first hand to its end, then take it back and check every answer against
    the engine's own answers at the same position (see the module)."""
    if (skip := _without_undo(ctx)) is not None:
        return skip
    position: MatchPosition = match_hands(variant, seed, 1)
    start, *actions = [r for r in position.setup if r.cmd in ("next_hand", "apply")]
    played = " ".join(r.fields["action"] for r in actions)
    match = position.setup[0].fields
    fail = partial(_undo_failure, variant, f"new_match, next_hand, apply {played}, then undo",
                   _UndoRepro(ctx, variant, match["first_starter"], dict(start.fields["deal"])))
    shadowed = Shadowed(engine)
    shadowed.new_match(variant, dict(match["options"]), match["first_starter"])
    dealt = shadowed.next_hand(dict(start.fields["deal"]))
    states, legals = [dealt], [sorted(shadowed.legal())]
    before = shadowed.match_state()
    events: list[JsonObject] = []
    for request in actions:
        events = shadowed.apply(request.fields["action"])
        states.append(shadowed.state())
        legals.append(sorted(shadowed.legal()))
    after = shadowed.match_state()
    if same(after, before):
        return Outcome("errored", f"{variant}: the seeded hand did not change the match",
                       failure_kind="kit")
    last = actions[-1].fields["action"]
    names = [r.fields["action"] for r in actions]
    taken = [*names, UNDO]
    again = [*taken, last]
    checks: list[tuple[str, Callable[[], Any], Any, list[str]]] = [
        (f"undo of the hand-ending {last!r}", shadowed.undo, states[-2], taken),
        (f"state after the undo of {last!r}", shadowed.state, states[-2], taken),
        (f"legal after the undo of {last!r}", lambda: sorted(shadowed.legal()), legals[-2],
         taken),
        (f"match_state after the undo of {last!r} (the hand's result taken out again)",
         lambda: _no_phase(shadowed.match_state()), _no_phase(before), taken),
        (f"apply {last!r} again", lambda: shadowed.apply(last), events, again),
        (f"match_state after {last!r} again", lambda: _no_phase(shadowed.match_state()),
         _no_phase(after), again),
    ]
    for index in range(len(actions), 0, -1):
        action = actions[index - 1].fields["action"]
        back = [*again, *[UNDO] * (len(actions) - index + 1)]
        checks.append((f"undo of {action!r} (action {index} of the hand)", shadowed.undo,
                       states[index - 1], back))
    every = [*again, *[UNDO] * len(actions)]
    checks += [(f"legal after taking back all {len(actions)} actions",
                lambda: sorted(shadowed.legal()), legals[0], every),
               ("match_state after taking back the whole hand",
                lambda: _no_phase(shadowed.match_state()), _no_phase(before), every)]
    for what, ask, want, sent in checks:
        try:
            got = ask()
        except EngineRejected as refusal:
            return fail(what, want, {"error": refusal.code, "message": refusal.message}, sent)
        if not same(got, want):
            return fail(what, want, got, sent)
    try:
        extra = shadowed.undo()
    except EngineRejected as refusal:
        if refusal.code == "bad_request":
            return Outcome.passed(f"{len(actions)} actions taken back and the last replayed")
        return fail("one undo more than the hand's actions", {"error": "bad_request"},
                    {"error": refusal.code}, None)
    return fail("one undo more than the hand's actions", {"error": "bad_request"},
                {"accepted": extra}, None)


def _no_phase(state: Any) -> Any:
    """A match state without ``phase``, the free text the contract never compares."""
    return {k: v for k, v in state.items() if k != "phase"} if isinstance(state, dict) else state


@dataclass(frozen=True)
class _UndoRepro:
    """Where and from what an undo failure writes its repro: a match trace of the case's one
    hand whose steps are the requests sent up to the failing one, undo steps included, and
    then the actions still taken back, played again to end the hand."""

    ctx: Context
    variant: str
    first_starter: int
    deal: JsonObject

    def write(self, sent: list[str], rules: tuple[str, ...], what: str) -> str | None:
        played: list[str] = []
        undone: list[str] = []
        for token in sent:
            if token == UNDO:
                undone.append(played.pop())
            else:
                played.append(token)
                if undone and undone[-1] == token:
                    undone.pop()
        return repros.write_match(
            self.ctx.report_dir, f"requests/{self.variant}/{UNDO_HAND_END}", self.variant, {},
            self.first_starter, [(self.deal, [*sent, *reversed(undone)])], rules or
            (PROTOCOL_RULE,), note=f"the engine must answer the last undo step as the "
            f"reference does ({what}); replay it with an engine that declares undo")


def _undo_failure(variant: str, steps: str, repro: _UndoRepro, what: str, want: Any, got: Any,
                  sent: list[str] | None) -> Outcome:
    """An undo that did not restore a position. No rule of the book decides how an engine
    takes an action back (the contract does: spec/protocol.md, ``undo``), so the failure names
    the contract and the requests that show it, and blames the rule of what was not restored,
    as the reference states it at that position (the match totals: the match rule). The repro
    (``sent``: the requests up to the failing one) replays with ``dominokit trace replay``."""
    blame = Blame(oracle.rules_of(variant, {}))
    rules: tuple[str, ...] = ()
    if isinstance(want, dict) and isinstance(got, dict) and "error" not in got:
        rules = blame.match(want, got) if "match_state" in what else blame.state(want, got)
    path = repro.write(sent, rules, what) if sent is not None else None
    return Outcome("failed", f"{what}: the engine answered otherwise than it did at that "
                   f"position (spec/protocol.md, undo: {UNDO_CONTRACT})\n"
                   f"to reproduce: {steps}", expected=want, got=got,
                   diff=diff_text(want, got, "answer", "the engine at that position"),
                   rules=rules, repro=path)
