"""Recording what a case asks of an engine, and cutting the record into sessions.

A case body drives an engine through the protocol's verbs; ``Recorder`` is the in-process
reference engine that also writes down each request and whether it was accepted (with the
refusal's code and rule when not). ``sessions`` then reads that record as positions: a hand
(the deal and the actions accepted since it began), a match (its hands so far), and every
refused request together with the requests that reached its position. Recording, rather
than re-deriving each case kind's inputs, is what keeps the vectors to the cases ``conform``
runs: whatever a case plays, searches or shrinks, the vectors hold exactly that.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from typing import Any

from dominokit.conformance.kit.inprocess import InProcessEngine
from dominokit.conformance.serve.refengine import ReferenceEngine
from dominokit.conformance.wire import protocol
from dominokit.conformance.wire.errors import as_rejection

JsonObject = dict[str, Any]


@dataclass(frozen=True)
class Entry:
    """One request as sent (``cmd`` and its fields) and the refusal it met, if any."""

    request: JsonObject
    error: JsonObject | None = None


class Recorder(InProcessEngine):
    """The reference engine, in process, writing down every request and refusal."""

    def __init__(self) -> None:
        super().__init__(ReferenceEngine(), ReferenceEngine)
        self.entries: list[Entry] = []

    def _call(self, cmd: str, expect: Any = None, **fields: Any) -> JsonObject:
        """The verb's result, as ``InProcessEngine`` gives it, but with no schema check of the
        reply: this is the reference, whose answers the schemas are tested against (checking
        every reply of a whole export would cost a sixth of its time)."""
        request = {"cmd": cmd, **copy.deepcopy(fields)}
        command = protocol.COMMANDS[cmd]
        arguments = [json.loads(json.dumps(fields[name])) for name in command.params]
        try:
            value = getattr(self.obj, cmd)(*arguments)
        except Exception as error:
            refusal = as_rejection(error)
            if refusal is None:
                raise
            self.entries.append(Entry(request, {"code": refusal.code, "rule": refusal.rule}))
            raise refusal from None
        if cmd != "hello":
            self.entries.append(Entry(request))
        result: JsonObject = json.loads(protocol.encode(
            value if command.result_key is None else {command.result_key: value}))
        return result

    def restart(self) -> None:
        """A fresh engine: the record notes it, since it ends the position in progress."""
        super().restart()
        self.entries.append(Entry({"cmd": "restart"}))


@dataclass
class HandPlay:
    """A standalone hand as played: the ``new_hand`` request and the accepted actions."""

    start: JsonObject
    actions: list[str] = field(default_factory=list)


@dataclass
class MatchPlay:
    """A match as played: the ``new_match`` request, then each hand's deal and actions."""

    start: JsonObject
    hands: list[HandPlay] = field(default_factory=list)


@dataclass(frozen=True)
class Refused:
    """A refused request and the accepted requests, from a fresh engine, that reach the
    position it was sent in."""

    setup: tuple[JsonObject, ...]
    request: JsonObject
    error: JsonObject


@dataclass
class Sessions:
    """What a record holds, in order: hands, matches and refusals."""

    hands: list[HandPlay] = field(default_factory=list)
    matches: list[MatchPlay] = field(default_factory=list)
    refused: list[Refused] = field(default_factory=list)


def sessions(entries: list[Entry]) -> Sessions:
    """Cut a record into hands, matches and refusals (see the module docstring)."""
    out = Sessions()
    setup: list[JsonObject] = []
    match: MatchPlay | None = None
    hand: HandPlay | None = None
    for entry in entries:
        request = entry.request
        cmd = request["cmd"]
        if entry.error is not None:
            out.refused.append(Refused(tuple(setup), request, entry.error))
            continue
        if cmd == "restart":
            setup, match, hand = [], None, None
        elif cmd == "new_hand":
            setup, match, hand = [request], None, HandPlay(request)
            out.hands.append(hand)
        elif cmd == "new_match":
            setup, match, hand = [request], MatchPlay(request), None
            out.matches.append(match)
        elif cmd == "next_hand" and match is not None:
            setup.append(request)
            hand = HandPlay(request)
            match.hands.append(hand)
        elif cmd == "apply" and hand is not None:
            setup.append(request)
            hand.actions.append(request["action"])
    return out
