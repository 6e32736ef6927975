"""A small vector runner: drive an engine through exported vectors, as an author's own test
runner would, and say where it departs from them.

It reads only the vector files (and the manifest), never the cases or the reference, so the
test that runs it against ``dominokit engine`` and against the in-process reference shows the
vectors alone carry the suite. The checks are those the documentation
(``docs/engines/vectors.md``) asks of any runner: legal sets compared as sets (or by count and
sha256), events, states and match states as JSON values (``phase`` left out), refusals by
code and, where it is stated, rule, with ``state`` and ``match_state`` unchanged.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dominokit.conformance.cases.compare import same
from dominokit.conformance.cases.requests import snapshot
from dominokit.conformance.kit.driver import Engine, RawLines
from dominokit.conformance.traces.model import legal_digest
from dominokit.conformance.traces.perft import Refused, TooLarge, Walker, replay_budget
from dominokit.conformance.wire.errors import EngineFailure, EngineRejected

JsonObject = dict[str, Any]


class Departure(Exception):
    """The engine's answer differs from the vector's (the message says where and how)."""


@dataclass
class Tally:
    """What a run of vectors found: how many passed, were skipped, and each departure."""

    passed: int = 0
    skipped: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)


def load(folder: Path) -> Iterator[tuple[str, str, JsonObject]]:
    """(file, kind, vector) for every vector the manifest of ``folder`` lists."""
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    for entry in manifest["files"]:
        data = json.loads((folder / entry["path"]).read_text(encoding="utf-8"))
        for vector in data["vectors"]:
            yield entry["path"], entry["kind"], vector


def run_folder(folder: Path, engine: Engine, *, only: Callable[[str], bool] | None = None
               ) -> Tally:
    """Run every vector of ``folder`` (those whose file path ``only`` accepts) on
    ``engine``."""
    tally = Tally()
    for path, kind, vector in load(folder):
        if only is not None and not only(path):
            continue
        where = f"{path}: {vector['id']}"
        if kind == "refusals" and "line_base64" in vector and not isinstance(engine, RawLines):
            tally.skipped.append(f"{where}: a raw line needs an engine that reads lines")
            continue
        try:
            CHECKS[kind](engine, vector)
        except (Departure, EngineRejected) as problem:
            tally.failures.append(f"{where}: {problem}")
        except EngineFailure as failure:  # crashed, hung or broke the protocol: next vector
            first = str(failure).splitlines()[0] if str(failure) else type(failure).__name__
            tally.failures.append(f"{where}: {failure.kind}: {first}")
            engine.restart()
        else:
            tally.passed += 1
    return tally


def _expect(what: str, want: Any, got: Any) -> None:
    if not same(want, got):
        raise Departure(f"{what}: expected {json.dumps(want, sort_keys=True)}, "
                        f"got {json.dumps(got, sort_keys=True)}")


def _legal(what: str, want: Mapping[str, Any], got: list[str]) -> None:
    if "actions" in want:
        _expect(what, sorted(want["actions"]), sorted(set(got)))
        return
    count, digest = legal_digest(got)
    if (count, digest) != (want["count"], want["sha256"]):
        raise Departure(f"{what}: expected {want['count']} actions (sha256 "
                        f"{want['sha256'][:12]}...), got {count} (sha256 {digest[:12]}...)")


def check_hand(engine: Engine, vector: JsonObject) -> None:
    """A hand: the start, then at each step the legal set, events and state, the last legal
    set and the result. (``expect`` only spares the driver a schema check of an answer equal
    to the vector's; every answer is still compared.)"""
    got = engine.new_hand(vector["variant"], dict(vector["options"]), dict(vector["deal"]),
                          expect=vector["start"])
    _expect("start state", vector["start"], got)
    for number, step in enumerate(vector["steps"], start=1):
        _legal(f"step {number}: legal set", step["legal"], engine.legal())
        _expect(f"step {number}: events of {step['action']}", step["events"],
                engine.apply(step["action"], expect=step["events"]))
        _expect(f"step {number}: state after {step['action']}", step["state"],
                engine.state(expect=step["state"]))
    _legal("legal set after the last step", vector["final_legal"], engine.legal())
    final = vector["steps"][-1]["state"] if vector["steps"] else vector["start"]
    _expect("result", vector["result"], engine.state(expect=final).get("result"))


def send(engine: Engine, request: Mapping[str, Any]) -> Any:
    """Send one request of a vector (``cmd`` and its fields) through the engine's verb."""
    cmd = request["cmd"]
    if cmd == "new_hand":
        return engine.new_hand(request["variant"], dict(request["options"]),
                               dict(request["deal"]))
    if cmd == "new_match":
        return engine.new_match(request["variant"], dict(request["options"]),
                                request["first_starter"])
    if cmd == "next_hand":
        return engine.next_hand(dict(request["deal"]))
    if cmd == "apply":
        return engine.apply(request["action"])
    if cmd in ("legal", "state", "match_state"):
        verb: Callable[[], Any] = getattr(engine, cmd)
        return verb()
    raise Departure(f"the vector sends an unknown command {cmd!r}")


def check_refusal(engine: Engine, vector: JsonObject) -> None:
    """A refusal: the setup is accepted, the request refused with the stated code (and rule,
    where stated), and ``state`` and ``match_state`` answer as before."""
    if not vector["setup"] or vector["setup"][0]["cmd"] not in ("new_hand", "new_match"):
        engine.restart()  # a position without a hand or match: only a fresh engine has that
    for number, request in enumerate(vector["setup"], start=1):
        try:
            send(engine, request)
        except EngineRejected as refusal:
            raise Departure(f"setup request {number} ({request['cmd']}) was refused: "
                            f"{refusal}") from None
    want = vector["error"]
    before = snapshot(engine)
    if "line_base64" in vector:
        assert isinstance(engine, RawLines)
        reply = engine.exchange_raw(base64.b64decode(vector["line_base64"]))
        error = reply.get("error") or {}
        code = error.get("code") if isinstance(error, dict) else None
        if code != want["code"] or reply.get("seq", "(missing)") is not None:
            raise Departure(f"expected an error reply with seq null and code "
                            f"{want['code']!r}, got {json.dumps(reply, sort_keys=True)}")
    else:
        try:
            got = send(engine, vector["request"])
        except EngineRejected as refusal:
            if refusal.code != want["code"]:
                raise Departure(f"refused with code {refusal.code!r}, expected "
                                f"{want['code']!r}") from None
            needs_rule = want["code"] == "illegal_action" or want["rule"] is not None
            if needs_rule and refusal.rule != want["rule"]:
                raise Departure(f"refused citing {refusal.rule!r}, expected "
                                f"{want['rule']!r}") from None
        else:
            raise Departure(f"accepted {vector['request']['cmd']} (answer "
                            f"{json.dumps(got, sort_keys=True)[:200]}); expected a refusal "
                            f"with code {want['code']!r}")
    _expect("state and match_state after the refusal", before, snapshot(engine))


def check_perft(engine: Engine, vector: JsonObject) -> None:
    """A perft position: the count at each depth and, where stated, per first action."""
    for count in vector["counts"]:
        depth, expected = count["depth"], count["count"]
        walker = Walker(engine, vector["variant"], dict(vector["options"]), vector["deal"],
                        list(vector["actions"]),
                        replay_budget(expected, depth, len(vector["actions"])))
        try:
            got = walker.count([], depth, here=False)
            if got != expected:
                raise Departure(f"perft({depth}) = {got}, expected {expected}")
            if "divide" in count:
                walker.played = 0
                _expect(f"perft({depth}) per first action", count["divide"],
                        walker.divide(depth))
        except (Refused, TooLarge) as problem:
            raise Departure(f"perft({depth}): {problem}") from None


def _match(value: Mapping[str, Any]) -> JsonObject:
    return {k: v for k, v in value.items() if k != "phase"}


def check_match(engine: Engine, vector: JsonObject) -> None:
    """A match: its start, and for each hand the starting state and the match state after
    its actions."""
    got = engine.new_match(vector["variant"], dict(vector["options"]),
                           vector["first_starter"])
    _expect("match state at the start", vector["start"], _match(got))
    for number, hand in enumerate(vector["hands"], start=1):
        _expect(f"hand {number}: start state", hand["start"],
                engine.next_hand(dict(hand["deal"]), expect=hand["start"]))
        for action in hand["actions"]:
            engine.apply(action)
        _expect(f"hand {number}: match state after it", hand["match"],
                _match(engine.match_state()))


CHECKS: dict[str, Callable[[Engine, JsonObject], None]] = {
    "hands": check_hand, "refusals": check_refusal, "perft": check_perft,
    "matches": check_match,
}
