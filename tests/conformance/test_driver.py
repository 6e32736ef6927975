"""The driver names every way an engine misbehaves, quickly, and recovers by restarting it;
and the reference engine plays identically through the subprocess and in-process drivers."""

from __future__ import annotations

import contextlib
import os
import random
import re
import signal
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import dominokit.reference as reference
from dominokit.conformance.kit.driver import Engine, SubprocessEngine
from dominokit.conformance.kit.engines import EngineSpecError, open_engine
from dominokit.conformance.kit.inprocess import InProcessEngine
from dominokit.conformance.kit.process import STDERR_TAIL_BYTES
from dominokit.conformance.serve.refengine import ReferenceEngine
from dominokit.conformance.wire.errors import (
    EngineCrashed,
    EngineFailure,
    EngineRejected,
    EngineStartupFailed,
    EngineTimeout,
    MalformedReply,
    ProtocolViolation,
)

ENGINES = Path(__file__).resolve().parent / "engines"
FAST = 1.0  # seconds per request for the hostile engines (their start has the allowance)
PATIENT = 120.0  # a deadline no named misbehaviour should ever need to reach


def fake(name: str, timeout: float = FAST) -> SubprocessEngine:
    return SubprocessEngine([sys.executable, str(ENGINES / f"{name}.py")], timeout=timeout)


def gone(pid: int) -> bool:
    """True when ``pid`` no longer runs (a zombie awaiting its reaper counts as gone)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return True
    return stat.rsplit(")", 1)[1].split()[0] == "Z"


def eventually_gone(pid: int, within: float = 2.0) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if gone(pid):
            return True
        time.sleep(0.02)
    return gone(pid)


MISBEHAVIOUR = [
    ("hang", EngineTimeout, "timeout", r"no reply to 'legal' \(seq 2\) within 1 s"),
    ("crash", EngineCrashed, "crash", r"exited with status 3 while answering 'legal'"),
    ("garbage", MalformedReply, "malformed", r"not JSON.*I am not JSON at all"),
    ("noise", MalformedReply, "malformed", r"not JSON.*thinking about my move"),
    ("wrong_seq", ProtocolViolation, "protocol", r"reply seq 9 does not match request seq 2"),
    ("out_of_order", ProtocolViolation, "protocol", r"seq 1 arrived while waiting for seq 2"),
    ("bad_schema", ProtocolViolation, "protocol", r"\$\.result\.actions\[1\]: 7 is not of type"),
    ("unreadable", ProtocolViolation, "protocol", r"could not read request 2.*cannot parse"),
    ("deep", MalformedReply, "malformed", r"nests arrays and objects 5002 deep, over the limit "
                                          r"of 32"),
    ("duplicate_key", MalformedReply, "malformed", r"duplicate key 'result'"),
    ("overlong", MalformedReply, "malformed", r"longer than the limit of 67108864 bytes"),
    ("exit_leaving_child", EngineCrashed, "crash",
     r"exited with status 4 while answering 'legal'"),
]


@pytest.mark.parametrize(("script", "failure", "kind", "detail"), MISBEHAVIOUR,
                         ids=[m[0] for m in MISBEHAVIOUR])
def test_misbehaviour_is_named_and_restart_recovers(
    script: str, failure: type[EngineFailure], kind: str, detail: str
) -> None:
    # Only the hanging engine gets the short deadline. Every other misbehaviour must be named
    # by what happened, long before a generous deadline: were it only noticed when time ran
    # out, it would surface as a timeout and fail the type check below. (A wall-clock bound
    # here would measure the machine's load, not the kit.)
    with fake(script, timeout=FAST if failure is EngineTimeout else PATIENT) as engine:
        assert engine.hello().name == "fake"
        pid = engine.pid
        assert pid is not None
        with pytest.raises(EngineFailure) as caught:
            engine.legal()
        assert type(caught.value) is failure
        assert caught.value.kind == kind
        assert re.search(detail, caught.value.detail, re.DOTALL), caught.value.detail
        assert engine.pid is None and eventually_gone(pid), "a failed engine is killed"
        engine.restart()
        hello = engine.hello()
        assert (hello.name, hello.protocol) == ("fake", 2)
        assert engine.pid not in (None, pid)


def test_a_slow_start_is_not_a_hang_but_a_later_hang_is() -> None:
    # The engine sleeps twice the request timeout before reading its first request: only the
    # start-up allowance lets its hello through, and the next request has the plain timeout.
    slow = [sys.executable, str(ENGINES / "slow_start.py"), str(2 * FAST)]
    with SubprocessEngine(slow, timeout=FAST, startup_timeout=PATIENT) as engine:
        assert engine.hello().name == "fake"
        with pytest.raises(EngineTimeout, match=r"no reply to 'legal' \(seq 2\) within 1 s"):
            engine.legal()
        assert engine.hello().name == "fake"  # a fresh process has the allowance again


def test_a_start_slower_than_the_allowance_is_a_timeout_naming_it() -> None:
    slow = [sys.executable, str(ENGINES / "slow_start.py"), "3600"]
    with SubprocessEngine(slow, timeout=0.2, startup_timeout=0.5) as engine, \
            pytest.raises(EngineTimeout, match=r"no reply to 'hello' \(seq 1\) within 0.5 s"):
        engine.hello()


def test_crash_reports_exit_status_and_stderr() -> None:
    with fake("crash") as engine, pytest.raises(EngineCrashed) as caught:
        engine.hello()
        engine.legal()
    assert caught.value.returncode == 3
    assert "boom: simulated crash" in caught.value.stderr
    assert "boom: simulated crash" in caught.value.detail


def test_timeout_kills_the_engines_children_too() -> None:
    with fake("hang") as engine, pytest.raises(EngineTimeout) as caught:
        engine.hello()
        engine.legal()
    found = re.search(r"child pid (\d+)", caught.value.stderr)
    assert found, caught.value.detail
    assert eventually_gone(int(found.group(1)))


def test_engine_that_exits_leaving_a_child_on_its_stdout_is_a_crash() -> None:
    # The child keeps the engine's stdout open, so no end of file ever comes: the kit must
    # notice the exit itself, and kill the child, which is in a session of its own.
    with fake("exit_leaving_child", timeout=PATIENT) as engine:
        engine.hello()
        with pytest.raises(EngineCrashed) as caught:  # a crash, not a timeout at the deadline
            engine.legal()
    assert caught.value.returncode == 4
    found = re.search(r"child pid (\d+)", caught.value.stderr)
    assert found, caught.value.detail
    assert gone(int(found.group(1)))


@pytest.mark.parametrize("signum", [signal.SIGKILL, signal.SIGTERM])
def test_engine_killed_by_a_signal_is_a_crash_naming_the_signal(signum: int) -> None:
    with fake("crash", timeout=30.0) as engine:
        engine.hello()
        pid = engine.pid
        assert pid is not None
        os.kill(pid, signum)
        with pytest.raises(EngineCrashed) as caught:
            engine.legal()
    assert caught.value.returncode == -signum
    assert f"killed by signal {signal.Signals(signum).name}" in caught.value.detail


def test_engine_that_exits_at_start_is_a_startup_failure_every_time() -> None:
    with fake("exit_at_start", timeout=PATIENT) as engine:
        for _ in range(2):  # a restart tries again, and fails again, without hanging
            with pytest.raises(EngineStartupFailed) as caught:
                engine.hello()
            assert caught.value.kind == "startup"
            assert caught.value.returncode == 2
            assert "before answering its first request" in caught.value.detail
            assert "fatal: cannot initialise" in caught.value.detail
            assert caught.value.stderr == "fatal: cannot initialise\n"
            engine.restart()


def test_missing_program_is_a_startup_failure() -> None:
    engine = SubprocessEngine([str(ENGINES / "no-such-engine")], timeout=FAST)
    with pytest.raises(EngineStartupFailed, match="cannot start engine"):
        engine.hello()
    engine.close()


def test_stderr_is_drained_and_only_its_tail_kept() -> None:
    # The engine writes 1 MiB to stderr before answering hello: without draining, it would
    # block on the full pipe and this would time out.
    with fake("stderr_flood", timeout=5.0) as engine:
        assert engine.hello().name == "fake"
        with pytest.raises(EngineCrashed) as caught:
            engine.legal()
    assert caught.value.returncode == 5
    assert caught.value.stderr.endswith("last words\n")
    assert len(caught.value.stderr.encode()) <= STDERR_TAIL_BYTES


def test_close_kills_an_engine_that_ignores_quit() -> None:
    engine = fake("hang")
    engine.hello()
    pid = engine.pid
    assert pid is not None
    started = time.monotonic()
    engine.close()
    # close waits two seconds for quit, then kills: bounded, however loaded the machine
    assert time.monotonic() - started < PATIENT
    assert eventually_gone(pid)
    engine.close()  # idempotent


def test_close_lets_a_good_engine_quit() -> None:
    engine = fake("crash")  # behaves until asked for legal actions
    engine.hello()
    pid = engine.pid
    assert pid is not None
    engine.close()
    assert gone(pid)


def test_error_reply_is_a_rejection_and_the_engine_lives_on() -> None:
    with fake("crash") as engine:
        engine.hello()
        pid = engine.pid
        with pytest.raises(EngineRejected) as caught:
            engine.state()  # the fake answers every other command with `unsupported`
        assert caught.value.code == "unsupported"
        assert engine.pid == pid
        assert engine.hello().name == "fake"


def test_open_engine_forms() -> None:
    command = open_engine(f"{sys.executable} {ENGINES / 'crash.py'}", timeout=FAST)
    assert isinstance(command, SubprocessEngine)
    assert command.argv == [sys.executable, str(ENGINES / "crash.py")]
    assert command.timeout == FAST
    default = open_engine(None, timeout=FAST)
    assert isinstance(default, SubprocessEngine)
    assert default.argv == [sys.executable, "-m", "dominokit.conformance.serve.server"]
    for bad in ("python:json", "python::make", "python:json:", "", "'unclosed"):
        with pytest.raises(EngineSpecError):  # found before anything starts
            open_engine(bad, timeout=FAST)
    # No code of a Python engine runs in the kit: a module that cannot be imported is the
    # worker's startup failure, reported with its words.
    with open_engine("python:no_such_module_xyz:make", timeout=REFERENCE_TIMEOUT) as missing, \
            pytest.raises(EngineStartupFailed) as caught:
        missing.hello()
    assert "No module named 'no_such_module_xyz'" in caught.value.stderr


class _Misbehaving:
    """An in-process engine object whose verbs go wrong in the ways the adapter must catch."""

    class Refusal(Exception):
        code = "illegal_action"
        message = "not your turn"
        rule = "R-ALL-13"

    def hello(self) -> dict[str, Any]:
        return {"name": "inproc", "version": "1", "protocol": 1, "variants": {}}

    def legal(self) -> list[str]:
        raise RuntimeError("bug in legal")

    def apply(self, action: str) -> list[dict[str, Any]]:
        raise self.Refusal()

    def state(self) -> object:
        return {"not": "a state"}

    def match_state(self) -> object:
        return {object()}


class _Exits(_Misbehaving):
    def legal(self) -> list[str]:
        sys.exit(5)

    def next_hand(self, deal: Any) -> object:
        nested: list[object] = []
        for _ in range(deal["depth"]):
            nested = [nested]
        return nested


def test_in_process_sys_exit_is_a_crash_not_the_kits_exit() -> None:
    engine = InProcessEngine(_Exits())
    with pytest.raises(EngineCrashed) as caught:
        engine.legal()
    assert caught.value.returncode == 5
    assert "sys.exit(5)" in caught.value.detail


@pytest.mark.parametrize(("depth", "words"), [
    # the reply object, its result object, and 101 arrays: [] wrapped 100 times
    (100, "nests arrays and objects 103 deep, over the limit of 32"),
    (5000, "not JSON: maximum recursion depth exceeded"),
])
def test_in_process_result_nested_too_deep_is_named(depth: int, words: str) -> None:
    with pytest.raises(EngineFailure, match=words):
        InProcessEngine(_Exits()).next_hand({"depth": depth})


def test_in_process_engine_names_failures() -> None:
    engine = InProcessEngine(_Misbehaving())
    assert engine.hello().name == "inproc"
    with pytest.raises(EngineCrashed) as crashed:
        engine.legal()
    assert "RuntimeError: bug in legal" in crashed.value.detail
    assert "Traceback" in crashed.value.detail
    with pytest.raises(EngineRejected) as refused:
        engine.apply("draw")
    assert (refused.value.code, refused.value.rule) == ("illegal_action", "R-ALL-13")
    with pytest.raises(ProtocolViolation, match=r"\$\.result\.state"):
        engine.state()
    with pytest.raises(ProtocolViolation, match="not JSON"):
        engine.match_state()
    with pytest.raises(EngineRejected) as missing:
        engine.new_match("poldomino", {}, 0)
    assert missing.value.code == "unsupported"


# --- the reference engine through both drivers -------------------------------------------

REFERENCE_TIMEOUT = 60.0  # generous: the server imports the whole reference on start


def _random_policy(seed: int) -> Any:
    rng = random.Random(seed)
    return lambda actions: rng.choice(sorted(actions))


def _play_hand_and_compare(engine: Engine, variant: str, seed: int) -> int:
    """Play one random hand on ``engine`` and on the reference API side by side; returns the
    number of actions played. Every legal set, event list and state must be identical."""
    rules = reference.load_rules(variant)
    plan = reference.new_match(variant).plan()  # hand sizes, also for a scheduled variant
    assert plan is not None
    deal = reference.random_deal(rules, random.Random(seed), hand_sizes=plan.hand_sizes)
    state = reference.new_hand(variant, deal)
    assert engine.new_hand(variant, {}, deal.to_json()) == state.to_json()
    choose = _random_policy(seed)
    steps = 0
    while (expected := [str(a) for a in reference.legal_actions(state)]):
        assert engine.legal() == expected
        action = choose(expected)
        state, events = reference.apply_action(state, action)
        assert engine.apply(action) == [e.to_json() for e in events]
        steps += 1
    assert engine.legal() == []
    assert engine.state() == state.to_json()
    assert state.to_json()["result"] is not None
    return steps


@pytest.fixture(scope="module")
def served() -> Any:
    engine = open_engine(None, timeout=REFERENCE_TIMEOUT)
    yield engine
    engine.close()


def test_served_reference_says_hello(served: Engine) -> None:
    hello = served.hello()
    assert (hello.protocol, hello.capabilities) == (2, ("undo",))
    assert sorted(hello.variants) == sorted(reference.variant_ids())
    for vid, options in hello.variants.items():
        spec = reference.load_variant(vid).options
        assert options == {name: list(o.values) for name, o in spec.items()}


@pytest.mark.parametrize("variant", ["poldomino", "pijanowski", "szczerbak", "progressive"])
def test_served_reference_plays_a_hand_like_the_reference(served: Engine, variant: str) -> None:
    assert _play_hand_and_compare(served, variant, seed=7) > 0


def test_hosted_reference_plays_a_hand_like_the_reference() -> None:
    with open_engine("python:dominokit.conformance.serve.refengine:ReferenceEngine",
                     timeout=REFERENCE_TIMEOUT) as engine:
        assert isinstance(engine, SubprocessEngine)
        assert engine.hello().name == "dominokit-reference"
        assert _play_hand_and_compare(engine, "pijanowski", seed=5) > 0


@pytest.mark.parametrize("variant", ["poldomino", "szczerbak"])
def test_in_process_reference_plays_a_hand_like_the_reference(variant: str) -> None:
    engine = InProcessEngine(ReferenceEngine(), ReferenceEngine)
    assert engine.hello().name == "dominokit-reference"
    assert _play_hand_and_compare(engine, variant, seed=11) > 0
    engine.restart()  # rebuilt from the factory: no hand any more
    with pytest.raises(EngineRejected) as caught:
        engine.legal()
    assert caught.value.code == "no_hand"


def test_served_reference_rejects_with_codes_and_rules(served: Engine) -> None:
    rules = reference.load_rules("poldomino")
    deal = reference.random_deal(rules, random.Random(3))
    state = reference.new_hand("poldomino", deal)
    served.new_hand("poldomino", {}, deal.to_json())
    # Drawing before the opening breaks the opening rule; the reference says which rule.
    with pytest.raises(reference.IllegalActionError) as expected:
        reference.apply_action(state, "draw")
    with pytest.raises(EngineRejected) as caught:
        served.apply("draw")
    assert (caught.value.code, caught.value.rule) == ("illegal_action", expected.value.rule)
    with pytest.raises(EngineRejected) as malformed:
        served.apply("5-1")  # high half first: not canonical notation
    assert malformed.value.code == "bad_request"
    with pytest.raises(EngineRejected) as unknown:
        served.new_hand("chess", {}, deal.to_json())
    assert unknown.value.code == "unsupported"
    assert served.state() == state.to_json(), "refusals leave the hand as it was"


def test_served_reference_plays_a_match_like_the_reference(served: Engine) -> None:
    variant = "szczerbak"
    rng = random.Random(5)
    choose = _random_policy(5)
    match = reference.new_match(variant, None, 1)
    assert served.new_match(variant, {}, 1) == match.to_json()
    hands = 0
    while (plan := match.plan()) is not None:
        deal = reference.random_deal(match.rules, rng, hand_sizes=plan.hand_sizes)
        state = reference.start_hand(match, deal)
        assert served.next_hand(deal.to_json()) == state.to_json()
        while (actions := [str(a) for a in reference.legal_actions(state)]):
            action = choose(actions)
            state, _ = reference.apply_action(state, action)
            served.apply(action)
        result = reference.hand_result(state)
        assert result is not None
        match, _ = reference.finish_hand(match, result)
        assert served.match_state() == match.to_json()
        hands += 1
    assert hands >= 1 and match.to_json()["finished"] is True
    with pytest.raises(EngineRejected) as caught:
        served.next_hand(deal.to_json())
    assert caught.value.code == "bad_request"


# --- without pidfd and /proc (macOS and old kernels) --------------------------------------

@pytest.fixture
def no_linux_extras(monkeypatch: pytest.MonkeyPatch) -> None:
    """The driver as it runs where there is no pidfd and no /proc: exits are noticed by
    polling, and a kill reaches the engine's process group only."""
    import dominokit.conformance.kit.containment as containment
    import dominokit.conformance.kit.process as process

    monkeypatch.setattr(process, "_exit_watch", lambda pid: None)
    monkeypatch.setattr(containment, "PROC", Path("/nonexistent-proc"))


@pytest.mark.parametrize(("script", "failure"), [
    ("hang", EngineTimeout), ("crash", EngineCrashed), ("exit_leaving_child", EngineCrashed),
])
def test_without_pidfd_or_proc_failures_are_still_named(
    no_linux_extras: None, script: str, failure: type[EngineFailure]
) -> None:
    with fake(script) as engine:
        engine.hello()
        pid = engine.pid
        assert pid is not None
        with pytest.raises(EngineFailure) as caught:
            engine.legal()
        assert type(caught.value) is failure
        assert gone(pid)
    found = re.search(r"child pid (\d+)", caught.value.stderr)
    if found and script == "exit_leaving_child":
        # In a session of its own, this child is out of a process-group kill's reach.
        child = int(found.group(1))
        os.kill(child, signal.SIGKILL)
        with contextlib.suppress(ChildProcessError):  # re-parented here by the subreaper
            os.waitpid(child, 0)
    elif found:
        assert eventually_gone(int(found.group(1)))
