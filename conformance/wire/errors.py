"""The ways an engine can fail a request, each one named, so the runner can report and go on.

An engine that *refuses* a request with an error reply (``EngineRejected``) is behaving
correctly: the kit compares what it refused with what the reference refuses. An engine that
*misbehaves* (``EngineFailure``: it crashed, hung, printed something that is not a reply, or
broke the protocol) is a different outcome ("errored"), and the runner restarts it.
"""

from __future__ import annotations

from typing import ClassVar, Literal

FailureKind = Literal["crash", "timeout", "malformed", "protocol", "startup", "exception"]


class EngineRejected(Exception):
    """The engine answered with an error reply: it refused the request, naming a code.

    ``rule`` is the rule id an ``illegal_action`` refusal cites (None for other codes, or when
    an engine gives none). Engines served in-process raise this from their verbs; the server
    turns it into an error reply and the driver turns an error reply back into it.
    """

    def __init__(self, code: str, message: str, rule: str | None = None) -> None:
        self.code = code
        self.message = message
        self.rule = rule
        super().__init__(f"{code}: {message}" + (f" ({rule})" if rule else ""))

    def __repr__(self) -> str:
        return f"EngineRejected({self.code!r}, {self.message!r}, {self.rule!r})"


class EngineFailure(Exception):
    """The engine misbehaved; ``kind`` says how and ``detail`` what was seen.

    ``detail`` ends with the tail of the engine's stderr when there is one, because that is
    usually where the engine explains itself. After any failure the engine process is gone.
    """

    kind: ClassVar[FailureKind] = "crash"

    def __init__(self, detail: str, *, stderr: str = "") -> None:
        self.reason = detail
        self.stderr = ""
        self.detail = detail
        super().__init__(detail)
        self.attach_stderr(stderr)

    def attach_stderr(self, stderr: str) -> None:
        """Record the engine's stderr tail and append it to ``detail`` (the driver learns it
        only after the process is gone, which is after the failure was detected)."""
        self.stderr = stderr
        self.detail = self.reason + (f"\n--- engine stderr (tail) ---\n{stderr}" if stderr else "")
        self.args = (self.detail,)


class EngineCrashed(EngineFailure):
    """The engine process exited (or closed stdout), or an in-process engine raised.

    ``returncode`` is the exit status when a process exited (negative: killed by a signal).
    """

    kind: ClassVar[FailureKind] = "crash"

    def __init__(self, detail: str, *, stderr: str = "", returncode: int | None = None) -> None:
        self.returncode = returncode
        super().__init__(detail, stderr=stderr)


class EngineRaised(EngineCrashed):
    """The engine's own code raised on a verb and said so (an ``internal`` error reply, or an
    in-process engine's exception): that case's error, with the engine's traceback. The
    engine did not die of it, so it does not count towards ``--max-engine-failures``: one
    repeatable slip in one verb must not stop the run for every case after it."""

    kind: ClassVar[FailureKind] = "exception"


class EngineStartupFailed(EngineCrashed):
    """The engine could not be started, or exited before answering its first request.

    A subclass of ``EngineCrashed`` (it is a crash, only earlier) with its own kind, so a report
    can say "the engine never came up" rather than "it crashed during case X".
    """

    kind: ClassVar[FailureKind] = "startup"


class EngineTimeout(EngineFailure):
    """No complete reply within the per-request timeout; the engine was killed."""

    kind: ClassVar[FailureKind] = "timeout"


class MalformedReply(EngineFailure):
    """A stdout line that is not a JSON object (garbage, or noise printed before a reply)."""

    kind: ClassVar[FailureKind] = "malformed"


class ProtocolViolation(EngineFailure):
    """A JSON reply that breaks the protocol: wrong or missing seq, or not fitting the schema."""

    kind: ClassVar[FailureKind] = "protocol"


def as_rejection(exc: BaseException) -> EngineRejected | None:
    """``exc`` as an ``EngineRejected`` when it is one or looks like one, else None.

    Engines written in Python need not import the kit: any exception with a string ``code``
    attribute (and optionally ``message`` and ``rule``) counts as a refusal.
    """
    if isinstance(exc, EngineRejected):
        return exc
    code = getattr(exc, "code", None)
    if not isinstance(code, str):
        return None
    message = getattr(exc, "message", None)
    rule = getattr(exc, "rule", None)
    return EngineRejected(
        code,
        message if isinstance(message, str) else str(exc),
        rule if isinstance(rule, str) else None,
    )
