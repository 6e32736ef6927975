"""Section 2: the protocol, request by request, against ``dominokit engine`` and an echo floor.

One script of requests covers every verb: hello, a hand dealt and played out (new_hand,
legal, apply, state; its last action undone and played again), a match started and a hand of
it (new_match, next_hand, match_state), and Pijanowski's opening (a ``legal`` of 2,772
actions). It is sent three ways, interleaved round by round:

- **kit → engine**: the kit's driver (``SubprocessEngine``, the one ``conform`` uses, with
  the reference's answer as ``expect`` where the runner has one) against ``dominokit engine``;
- **kit → echo**: the same driver against an echo process that answers each request with
  the reply the engine gave it (recorded first), parsed and written with the server's own
  functions (``protocol.parse_message``, ``protocol.encode``): the kit's cost alone;
- **floor**: a bare client (serialize the request, write the line, read a line,
  ``json.loads``) against the echo;
- **floor, own session**: the same, with the echo in a session of its own, as the driver
  starts every engine (spec/protocol.md, "Processes the engine starts"). Where the scheduler
  groups processes by session (Linux's autogroup), a round trip to another session can take
  twice as long; this figure shows how much of the driver's cost is that.

Figures are requests per second of wall time (a round trip is waiting, not CPU). The ratio
"kit → echo over floor" is the target's: what the kit adds to a request, at most 1.5x the
floor (ratio >= 0.67); "kit → engine over kit → echo" is what the engine's own work costs.
Run as ``python -m dominokit.bench.protocol --echo FILE`` it is the echo process.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path

from dominokit.bench.registry import Out, Section, SectionResult
from dominokit.bench.timing import figure, ratio
from dominokit.conformance import traces
from dominokit.conformance.cases import oracle
from dominokit.conformance.kit.driver import SubprocessEngine
from dominokit.conformance.kit.engines import REFERENCE_SERVER
from dominokit.conformance.wire import protocol
from dominokit.conformance.wire.protocol import JsonObject

TARGET = 1 / 1.5
"""Least ratio of the kit's requests/s against the echo to the floor's."""

PIJANOWSKI_OPENING = "legal (Pijanowski opening)"
SESSION_FLOOR = "floor, own session"
Request = tuple[str, str, JsonObject]
"""(label of the verb, command, request fields)."""


def script(seed: int = 7) -> list[Request]:
    """The requests of one round, in order (each verb labelled as it is reported)."""
    out: list[Request] = [("hello", "hello", {})]
    rng = random.Random(seed)
    for variant in ("poldomino", "pijanowski"):
        rules = oracle.rules_of(variant, {})
        deal = oracle.deal_json(rules, rng.randrange(2**31), oracle.hand_sizes(rules)[0])
        if variant == "pijanowski":
            deal = published_opening()
        out.append(("new_hand", "new_hand", {"variant": variant, "options": {}, "deal": deal}))
        out.append((PIJANOWSKI_OPENING if variant == "pijanowski" else "legal", "legal", {}))
        for action in oracle.play_deal(variant, {}, deal, oracle.uniform, rng).actions[:12]:
            out.append(("apply", "apply", {"action": action}))
            out.append(("state", "state", {}))
            out.append(("legal", "legal", {}))
        out.append(("undo", "undo", {}))  # protocol 2: take the last action back, replay it
        out.append(("apply", "apply", {"action": action}))
    rules = oracle.rules_of("poldomino", {})
    out.append(("new_match", "new_match",
                {"variant": "poldomino", "options": {}, "first_starter": 0}))
    deal = oracle.deal_json(rules, rng.randrange(2**31), oracle.hand_sizes(rules)[0])
    deal["starter"] = None  # a match's hand: the engine decides who starts
    out.append(("next_hand", "next_hand", {"deal": deal}))
    out.append(("match_state", "match_state", {}))
    return out


def published_opening() -> JsonObject:
    """The deal of the bundled trace ``pijanowski/published-opening``, whose first player
    has 2,772 legal actions (tests/conformance/test_traces.py counts them by hand)."""
    entry = next(f for f in traces.bundled_trace_files("pijanowski")
                 if f.name == "published-opening.yaml")
    return dict(traces.load_trace(entry).hands[0].deal)


def record(requests: Sequence[Request], timeout: float) -> list[JsonObject]:
    """The reference server's reply to each request of a fresh session, in order."""
    replies: list[JsonObject] = []
    with SubprocessEngine(list(REFERENCE_SERVER), timeout) as engine:
        for _, cmd, fields in requests:
            line = protocol.encode(protocol.request(len(replies) + 1, cmd, **fields))
            reply = engine.exchange_raw(line.encode("ascii"))
            if "error" in reply:  # a bug in the script: every request must be answered
                raise RuntimeError(f"the reference refused {cmd} {fields}: {reply['error']}")
            replies.append(reply)
    return replies


def kit_round(engine: SubprocessEngine, requests: Sequence[Request],
              replies: Sequence[JsonObject]) -> dict[str, list[float]]:
    """Seconds per request through the driver, by label (``expect`` from the recording)."""
    seconds: dict[str, list[float]] = defaultdict(list)
    for (label, cmd, fields), reply in zip(requests, replies, strict=True):
        key = protocol.COMMANDS[cmd].result_key
        expect = reply["result"].get(key) if key and cmd != "hello" else None
        began = time.perf_counter()
        engine._call(cmd, expect, **fields)
        seconds[label].append(time.perf_counter() - began)
    return seconds


class BareClient:
    """The floor: write a request line, read a reply line, parse it; nothing else. The
    request is serialized inside the timing, as the driver's is: the same serializer on both
    sides, so the ratio is what the driver adds to the work any client does."""

    def __init__(self, argv: Sequence[str], *, own_session: bool = False) -> None:
        self.proc = subprocess.Popen(list(argv), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     start_new_session=own_session)
        self.seq = 0

    def round(self, requests: Sequence[Request]) -> dict[str, list[float]]:
        """Seconds per request of one pass over ``requests``, by label."""
        seconds: dict[str, list[float]] = defaultdict(list)
        stdin, stdout = self.proc.stdin, self.proc.stdout
        assert stdin is not None and stdout is not None
        for label, cmd, fields in requests:
            self.seq += 1
            began = time.perf_counter()
            line = protocol.encode(protocol.request(self.seq, cmd, **fields)).encode("ascii")
            stdin.write(line)
            stdin.flush()
            json.loads(stdout.readline())
            seconds[label].append(time.perf_counter() - began)
        return seconds

    def close(self) -> None:
        """Close the echo's stdin and wait for it to end."""
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        try:
            self.proc.wait(5.0)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def serve_echo(path: str) -> int:
    """The echo process: answer the n-th request line with the n-th recorded reply (its seq
    set to the request's), parsed and written as the server does; after the last reply it
    starts again from the first (one pass of the script per round)."""
    replies = [json.loads(line) for line in Path(path).read_text().splitlines()]
    index = 0
    read, out = sys.stdin.buffer.readline, sys.stdout
    while line := read():
        message = protocol.parse_message(line, protocol.MAX_REQUEST_LINE_BYTES)
        reply = dict(replies[index % len(replies)])
        reply["seq"] = message["seq"]
        out.write(protocol.encode(reply))
        out.flush()
        index += 1
    return 0


def run(quick: bool, out: Out) -> SectionResult:
    """Time the script's requests three ways, interleaved, for a number of rounds."""
    rounds = 2 if quick else 9
    requests = script()
    replies = record(requests, 30.0)
    with tempfile.TemporaryDirectory(prefix="dominokit-bench-") as folder:
        stored = Path(folder) / "replies.jsonl"
        stored.write_text("".join(json.dumps(r) + "\n" for r in replies))
        echo = [sys.executable, "-m", "dominokit.bench.protocol", "--echo",
                str(stored)]
        contenders = ("kit → engine", "kit → echo", "floor", SESSION_FLOOR)
        rates: dict[str, dict[str, list[float]]] = {c: defaultdict(list) for c in contenders}
        floor = BareClient(echo)
        apart = BareClient(echo, own_session=True)
        try:
            with SubprocessEngine(list(REFERENCE_SERVER), 30.0) as engine, \
                    SubprocessEngine(echo, 30.0) as echoed:
                ways: dict[str, Callable[[], dict[str, list[float]]]] = {
                    "kit → engine": lambda: kit_round(engine, requests, replies),
                    "kit → echo": lambda: kit_round(echoed, requests, replies),
                    "floor": lambda: floor.round(requests),
                    SESSION_FLOOR: lambda: apart.round(requests)}
                for way in ways.values():
                    way()  # warm up: processes started, caches filled, nothing recorded
                for i in range(rounds):
                    turn = i % len(contenders)
                    for name in contenders[turn:] + contenders[:turn]:
                        for label, times in ways[name]().items():
                            rates[name][label].append(len(times) / sum(times))
                    out(f"  round {i + 1}/{rounds}")
        finally:
            floor.close()
            apart.close()
    result = SectionResult()
    for label in dict.fromkeys(label for label, _, _ in requests):
        for name in contenders:
            result.figures.append(figure(f"{label}: {name}", "requests/s", rates[name][label]))
        result.ratios.append(ratio(f"{label}: kit → echo over floor",
                                   rates["kit → echo"][label], rates["floor"][label], TARGET))
        result.ratios.append(ratio(f"{label}: kit → engine over kit → echo",
                                   rates["kit → engine"][label], rates["kit → echo"][label]))
        result.ratios.append(ratio(f"{label}: kit → echo over {SESSION_FLOOR}",
                                   rates["kit → echo"][label], rates[SESSION_FLOOR][label]))
    result.notes.append("floor: a bare client against an echo process with the server's "
                        "parser and serializer; kit → echo: the kit's driver against it; "
                        f"{SESSION_FLOOR}: the bare client, the echo in a session of its own "
                        "as the driver starts every engine")
    return result


SECTION = Section("protocol", 2, "The protocol: requests/s per verb, against an echo floor", run)


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--echo":
        os.environ.setdefault("PYTHONUNBUFFERED", "0")
        sys.exit(serve_echo(sys.argv[2]))
    print("usage: python -m dominokit.bench.protocol --echo REPLIES.jsonl",
          file=sys.stderr)
    sys.exit(4)
