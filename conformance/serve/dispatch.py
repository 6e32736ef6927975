"""Serve one request to an engine object: the one dispatcher behind every way an object is
reached.

An engine object has the protocol's verbs as methods (``hello``, ``new_hand``, ...). Two
places hand it requests: the server (``dominokit engine``, and the worker that hosts a
``python:`` engine), which reads JSON lines, and ``InProcessEngine``, which the kit drives
directly in its own process. Both go through ``dispatch``, so the session's protocol version,
the capabilities ``hello`` declared, a missing verb, a refusal and the shape of a result are
decided in one place and cannot drift apart. What differs stays with the caller: the framing
of lines (the server), and what an exception the object raised means — an ``internal`` error
reply for the server, a crash for the kit — which is why such an exception leaves here as
``VerbRaised``.
"""

from __future__ import annotations

import traceback
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from dominokit.conformance.wire import protocol
from dominokit.conformance.wire.errors import EngineRejected, as_rejection
from dominokit.conformance.wire.protocol import JsonObject


@dataclass
class Session:
    """What is remembered between requests: the protocol version ``hello`` settled (the
    newest until then) and the capabilities it declared (None before a ``hello``: the
    object's verbs decide)."""

    version: int = protocol.PROTOCOL_VERSION
    capabilities: frozenset[str] | None = None


class VerbRaised(Exception):
    """The object's verb raised something that is not a refusal. ``error`` is what it
    raised and ``trace`` its formatted traceback; the caller decides what it means."""

    def __init__(self, cmd: str, error: BaseException, trace: str) -> None:
        super().__init__(f"{type(error).__name__}: {error}")
        self.cmd = cmd
        self.error = error
        self.trace = trace


def dispatch(obj: object, session: Session, seq: int, cmd: str,
             fields: Mapping[str, Any]) -> JsonObject:
    """The reply to request ``seq`` (``cmd`` with its ``fields``), from ``obj``'s verb.

    A command the session does not know (another protocol version, a capability not
    declared) and a verb the object lacks are ``unsupported``; a refusal the verb raises
    (``EngineRejected`` or an error with a protocol code) is its error reply; any other
    exception is raised as ``VerbRaised``. A ``hello`` result is answered for the version
    asked (``protocol.hello_for``) and settles the session.
    """
    if not protocol.known_command(cmd, session.version, session.capabilities):
        return protocol.error_reply(seq, "unsupported", f"unknown command {cmd!r}")
    if cmd == "hello" and fields["protocol"] not in protocol.PROTOCOL_VERSIONS:
        return protocol.error_reply(
            seq, "unsupported", f"this engine speaks protocol "
            f"{' and '.join(map(str, protocol.PROTOCOL_VERSIONS))}, not {fields['protocol']}")
    command = protocol.COMMANDS[cmd]
    verb = getattr(obj, command.name, None)
    if not callable(verb):
        return protocol.error_reply(
            seq, "unsupported", f"this engine does not implement {command.name!r}")
    try:
        value = verb(*(fields[name] for name in command.params))
    except Exception as error:
        rejection = as_rejection(error)
        if rejection is None:
            raise VerbRaised(cmd, error, traceback.format_exc()) from error
        return protocol.error_reply(seq, rejection.code, rejection.message, rejection.rule)
    result = value if command.result_key is None else {command.result_key: value}
    reply: JsonObject = {"seq": seq, "result": result}
    if cmd == "hello" and isinstance(result, dict):
        try:  # the object names its newest version; the session, the one asked
            reply["result"] = protocol.hello_for(result, fields["protocol"])
        except EngineRejected as refusal:
            return protocol.error_reply(seq, refusal.code, refusal.message)
        session.version = fields["protocol"]
        session.capabilities = protocol.declared(reply["result"])
    return reply
