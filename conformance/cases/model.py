"""What a conformance case is, and what running one gives: the model every case kind builds on.

A case is data plus a body: a stable id, the variant and option values it needs, the rule ids
it covers, and a function that drives an engine and returns an ``Outcome``. ``run_case`` runs
one case: it decides applicability from the engine's ``hello`` (a case needing an unsupported
variant or option value is "not applicable", never failed), and turns every way an engine can
misbehave into an "errored" outcome naming the failure kind, restarting the engine after it.
The case kinds import this module and nothing of the run (``conformance/run/``), which
orders the cases, applies the run's limits and writes the reports.
"""

from __future__ import annotations

import traceback
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, Literal

from dominokit.conformance.kit.driver import Engine, Hello
from dominokit.conformance.wire.errors import EngineFailure, EngineRejected
from dominokit.reference.errors import DominokitError

if TYPE_CHECKING:
    from dominokit.conformance.cases.campaign import Campaign

Status = Literal["passed", "failed", "errored", "not_applicable", "not_run"]
STATUSES: Final[tuple[Status, ...]] = ("passed", "failed", "errored", "not_applicable",
                                       "not_run")
"""The statuses a case can end in, in the order the summaries give them."""


class ConformanceError(DominokitError, ValueError):
    """A run that cannot start as asked (unknown variant, no case matching ``--only``)."""


class KitNote(UserWarning):
    """Something the kit could not do for a case (write its repro trace): warned by the case
    body, added to the case's message by ``run_case``, never a change of its status."""


@dataclass(frozen=True)
class Outcome:
    """What running one case gave.

    ``step`` is the number of actions played in the hand when the first divergence showed
    (0: at the start of the hand), ``hand`` the 1-based hand of a match; ``expected`` and
    ``got`` are the diverging values (reference and engine), ``diff`` a unified diff of their
    pretty JSON, ``rules`` the rule ids the failure concerns, ``repro`` the path of a minimal
    trace that reproduces it, ``failure_kind`` how the engine misbehaved for "errored"
    (crash, timeout, malformed, protocol, startup; "kit" for a bug in the kit itself).
    A case that goes on after its first failure (a differential campaign) lists every repro
    it wrote in ``repros`` (``repro`` is the first) and counts its failing hands in
    ``failing_hands`` (None: the case stops at its first failure).
    """

    status: Status
    message: str = ""
    step: int | None = None
    hand: int | None = None
    expected: Any = None
    got: Any = None
    diff: str = ""
    rules: tuple[str, ...] = ()
    repro: str | None = None
    failure_kind: str | None = None
    repros: tuple[str, ...] = ()
    failing_hands: int | None = None
    knock_on: bool = False
    """The failure only follows from an earlier divergence (a refused step on the way to the
    position, a refused request the case needs): it is grouped with a cause, never its own."""

    @classmethod
    def passed(cls, message: str = "") -> Outcome:
        """A case that found nothing wrong (``message`` may say what it covered)."""
        return cls("passed", message)

    @classmethod
    def not_applicable(cls, message: str) -> Outcome:
        """A case the engine does not claim to support."""
        return cls("not_applicable", message)

    @classmethod
    def not_run(cls, reason: str) -> Outcome:
        """A case the run never started, because it stopped early for ``reason``."""
        return cls("not_run", f"not run: {reason}")

    def noting(self, notes: Sequence[str]) -> Outcome:
        """This outcome with ``notes`` (things the kit could not do) added to its message."""
        if not notes:
            return self
        text = "\n".join([self.message, *(f"note: {note}" for note in notes)])
        return replace(self, message=text.lstrip("\n"))

    def to_json(self) -> dict[str, Any]:
        """The outcome fields of a case record in the JSON report."""
        return {
            "status": self.status,
            "message": self.message,
            "step": self.step,
            "hand": self.hand,
            "rules": list(self.rules),
            "expected": self.expected,
            "got": self.got,
            "diff": self.diff,
            "repro": self.repro,
            "failure_kind": self.failure_kind,
            "repros": list(self.repros) if self.repros else [self.repro] if self.repro else [],
            "failing_hands": self.failing_hands,
            "knock_on": self.knock_on,
        }


@dataclass(frozen=True)
class Requirement:
    """What an engine must support for a case to apply: a variant and some option values."""

    variant: str
    options: tuple[tuple[str, object], ...] = ()

    def unmet(self, hello: Hello) -> str | None:
        """Why the engine that said ``hello`` cannot run the case, or None when it can."""
        caps = hello.variants.get(self.variant)
        if caps is None:
            return f"the engine does not support variant {self.variant!r}"
        for name, value in self.options:
            if value not in caps.get(name, []):
                return (f"the engine does not support option {name}={value!r} "
                        f"of variant {self.variant!r}")
        given = dict(self.options)
        for name, values in caps.items():  # an option left at its default needs the default
            default = _default_value(self.variant, name)
            if name not in given and default is not None and default not in values:
                return (f"the engine does not support option {name}={default!r} (the default) "
                        f"of variant {self.variant!r}")
        return None


def _default_value(variant: str, option: str) -> object | None:
    """The default value of a variant's option, or None when the variant has no such option."""
    from dominokit.reference import load_variant

    spec = load_variant(variant).options.get(option)
    return None if spec is None else spec.default


@dataclass(frozen=True)
class Progress:
    """How far a long case (a differential campaign) has got: ``hands`` of its ``of`` random
    hands played, ``failing_hands`` of them diverged so far, and the repro traces written for
    them (also for failing searched hands), in the order they were found."""

    hands: int
    of: int
    failing_hands: int = 0
    repros: tuple[str, ...] = ()

    def to_json(self, case_id: str, seconds: float) -> dict[str, Any]:
        """The progress line of the JSON lines report; ``seconds`` since the case began."""
        return {"type": "progress", "case": case_id, "hands": self.hands, "of": self.of,
                "failing_hands": self.failing_hands, "repros": list(self.repros),
                "seconds": round(seconds, 3)}

    def text(self) -> str:
        """``4,000/100,000 hands, 1 failing`` for the progress line."""
        failing = f", {self.failing_hands:,} failing" if self.failing_hands else ""
        return f"{self.hands:,}/{self.of:,} hands{failing}"


@dataclass
class Context:
    """What a case body may use besides the engine: where to write repro traces, the hello."""

    report_dir: Path
    hello: Hello | None = None
    dead: str | None = None
    """Why the engine could not be restarted after a failure (then nothing more is run)."""
    memo: dict[Any, Any] = field(default_factory=dict)
    """What a case may share with later cases of the same run (one engine): e.g. the hands
    the engine played, which every invariant case checks for a different property."""
    on_progress: Callable[[Progress, bool], None] | None = None
    """Where the running case's progress goes (the terminal, the JSON lines report); set by
    the runner around each case, None when nobody listens."""

    def progress(self, progress: Progress, checkpoint: bool = False) -> None:
        """Say how far a long case has got; a ``checkpoint`` (the end of a chunk of hands)
        is also written to the JSON lines report, the rest only redraws the progress line."""
        if self.on_progress is not None:
            self.on_progress(progress, checkpoint)


class CaseInterrupted(KeyboardInterrupt):
    """An interrupt (Ctrl-C, SIGTERM) that reached a case body which had something to keep:
    ``outcome`` is its partial outcome (the failures and repros found so far), which the
    runner records before the run stops."""

    def __init__(self, outcome: Outcome) -> None:
        super().__init__(outcome.message)
        self.outcome = outcome


CaseBody = Callable[[Engine, Context], Outcome]


@dataclass(frozen=True)
class Case:
    """One conformance case: a stable id, what it needs and covers, and its body.

    ``options`` holds only non-default option values (as traces do); they and the variant make
    ``requires``. The body drives the engine and returns an Outcome; it may raise
    ``EngineFailure`` (the runner reports "errored") or ``EngineRejected`` (a refusal the case
    did not expect: "failed").
    """

    id: str
    kind: str
    variant: str
    body: CaseBody = field(repr=False, compare=False)
    options: Mapping[str, object] = field(default_factory=dict)
    rules: tuple[str, ...] = ()
    description: str = ""
    campaign: Campaign | None = field(default=None, repr=False, compare=False)
    """How a case of many seeded chunks splits (``cases.campaign``): a differential case
    with more random hands than one chunk. None, or one chunk: the case runs whole."""

    @property
    def chunks(self) -> int:
        """How many chunks the case is played in (1: it is not split)."""
        return 1 if self.campaign is None else self.campaign.count()

    @property
    def requires(self) -> Requirement:
        """The variant and option values an engine must list in ``hello``."""
        return Requirement(self.variant, tuple(sorted(self.options.items())))

    @property
    def since(self) -> str | None:
        """The suite version that added or last changed this case (``cases.history``)."""
        from dominokit.conformance.cases import history

        return history.load().since(self.id)

    def run(self, engine: Engine, ctx: Context) -> Outcome:
        """Run the body (no applicability check and no failure handling: see ``run_case``)."""
        return self.body(engine, ctx)



def run_case(case: Case, engine: Engine, ctx: Context) -> Outcome:
    """Run one case with applicability and failure handling; never raises for engine trouble.

    After an ``EngineFailure`` the engine is restarted and greeted again, so the next case
    starts from a fresh engine; if that fails too, ``ctx.dead`` stops further attempts.
    """
    if case.campaign is not None and case.chunks > 1:  # chunk by chunk, as workers may
        return case.campaign.run_all(case, engine, ctx)
    if ctx.dead is not None:
        return Outcome.not_run(ctx.dead)
    if ctx.hello is not None:
        why = case.requires.unmet(ctx.hello)
        if why is not None:
            return Outcome.not_applicable(why)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", KitNote)
        outcome = _run_body(case, engine, ctx)
    notes = [str(w.message) for w in caught if issubclass(w.category, KitNote)]
    for other in caught:
        if not issubclass(other.category, KitNote):
            warnings.warn_explicit(other.message, other.category, other.filename, other.lineno)
    return outcome.noting(notes)


def _run_body(case: Case, engine: Engine, ctx: Context) -> Outcome:
    return guarded(case, engine, ctx, case.run)


def guarded(case: Case, engine: Engine, ctx: Context, body: CaseBody) -> Outcome:
    """``body``'s outcome, or the outcome of the way it failed (an engine failure, with the
    engine restarted; a refusal the case needs; a bug in the kit); an interrupt propagates."""
    try:
        return body(engine, ctx)
    except EngineFailure as failure:
        outcome = Outcome("errored", f"engine {failure.kind}: {failure.detail}",
                          rules=case.rules, failure_kind=failure.kind)
        _restart(engine, ctx)
        return outcome
    except EngineRejected as rejection:
        return Outcome("failed", f"the engine refused a request the case needs: {rejection}",
                       rules=tuple(dict.fromkeys((*case.rules, *_rule_of(rejection)))),
                       knock_on=True)
    except (KeyboardInterrupt, SystemExit):
        raise
    except Exception:
        return Outcome("errored", f"error in the conformance kit:\n{traceback.format_exc()}",
                       rules=case.rules, failure_kind="kit")


def _rule_of(rejection: EngineRejected) -> tuple[str, ...]:
    return (rejection.rule,) if rejection.rule else ()


def _restart(engine: Engine, ctx: Context) -> None:
    try:
        engine.restart()
        ctx.hello = engine.hello()
    except (EngineFailure, EngineRejected) as failure:
        ctx.dead = f"the engine could not be restarted after a failure: {failure}"
