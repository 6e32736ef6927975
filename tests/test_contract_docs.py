"""spec/protocol.md's tables are the contract: the limits match the code's constants, and the
error code and rule of every bad deal and state error are what the reference answers."""

from __future__ import annotations

import io
import json
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from dominokit.conformance import protocol
from dominokit.conformance.errors import EngineRejected
from dominokit.conformance.refengine import ReferenceEngine
from dominokit.conformance.server import request_limits, run_engine_server
from dominokit.reference import load_rules, random_deal, variant_ids
from dominokit.reference.spec import schema

REPO = Path(__file__).resolve().parent.parent
PROSE = (REPO / "spec" / "protocol.md").read_text(encoding="utf-8")
VARIANTS = ("poldomino", "szczerbak", "pijanowski", "progressive")
NOT_APPLICABLE = "—"


def _table(heading: str) -> list[list[str]]:
    """The body rows of the first table under ``heading`` (a ``## `` or ``### `` title), cells
    stripped of surrounding backticks."""
    at = PROSE.index(f" {heading}\n")
    rows: list[list[str]] = []
    for line in PROSE[at:].splitlines()[1:]:
        if line.startswith("#"):
            break
        if line.startswith("|") and not line.startswith("|---"):
            rows.append([cell.strip().strip("`") for cell in line.strip("|").split("|")])
        elif rows and not line.startswith("|"):
            break
    assert rows, f"no table under {heading!r}"
    return rows[1:]


# --- limits ----------------------------------------------------------------------------------

def test_the_documented_limits_are_the_code_constants() -> None:
    rows = {row[1]: row for row in _table("Limits")}
    for name in ("MAX_REQUEST_LINE_BYTES", "MAX_REPLY_LINE_BYTES", "MAX_NESTING_DEPTH"):
        value = int(rows[name][2].split()[0].replace(",", ""))
        assert value == getattr(protocol, name), name
    assert int(rows["deal.schema.json maxItems"][2].split()[0]) == request_limits().tiles
    assert schema("deal")["$defs"]["tiles"]["maxItems"] == request_limits().tiles
    assert int(rows["protocol.schema.json maxProperties"][2].split()[0]) == (
        request_limits().options)


def test_no_stale_size_in_the_prose() -> None:
    mib = protocol.MAX_REPLY_LINE_BYTES // (1024 * 1024)
    assert f"up to {mib} MiB" not in PROSE.split("## Limits")[0], "tie sizes to the Limits table"
    for number in re.findall(r"(\d+) MiB", PROSE):
        assert int(number) in (protocol.MAX_REQUEST_LINE_BYTES >> 20,
                               protocol.MAX_REPLY_LINE_BYTES >> 20), number


# --- bad deals ---------------------------------------------------------------------------------

Deal = dict[str, Any]


def _good(variant: str) -> Deal:
    rules = load_rules(variant)
    sizes = (5, 5) if rules.setup.hand_size is None else None
    return random_deal(rules, random.Random(3), hand_sizes=sizes).to_json()


def _remainder(deal: Deal) -> str | None:
    return next((k for k in ("stock", "out_of_play") if deal[k]), None)


def _hand_size(deal: Deal) -> Deal:
    hands = [deal["hands"][0][1:], sorted([*deal["hands"][1], deal["hands"][0][0]])]
    return {**deal, "hands": hands}


def _duplicate(deal: Deal) -> Deal:
    hand = [deal["hands"][0][1], *deal["hands"][0][1:]]
    return {**deal, "hands": [hand, deal["hands"][1]]}


def _missing(deal: Deal) -> Deal:
    where = _remainder(deal)
    if where is None:
        return {**deal, "hands": [deal["hands"][0][1:], deal["hands"][1]]}
    return {**deal, where: deal[where][1:]}


def _out_of_range(deal: Deal) -> Deal:
    return {**deal, "hands": [["0-7", *deal["hands"][0][1:]], deal["hands"][1]]}


def _in_both(deal: Deal) -> Deal:
    other = [deal["hands"][0][0], *deal["hands"][1][1:]]
    return {**deal, "hands": [deal["hands"][0], sorted(other)]}


def _starter_given(deal: Deal) -> Deal | None:
    return {**deal, "starter": 0} if deal["starter"] is None else None


def _starter_missing(deal: Deal) -> Deal | None:
    return {**deal, "starter": None} if deal["starter"] is not None else None


def _widow_present(deal: Deal) -> Deal | None:
    where = _remainder(deal)
    if deal.get("widow") is not None or where is None:
        return None
    first = deal[where][0]
    low, high = (int(n) for n in first.split("-"))
    return {**deal, where: deal[where][1:], "widow": [low, high]}


def _widow_absent(deal: Deal) -> Deal | None:
    widow = deal.get("widow")
    if widow is None:
        return None
    tile = "-".join(str(n) for n in sorted(widow))
    return {**deal, "widow": None, "out_of_play": [tile]}


def _widow_double(deal: Deal) -> Deal | None:
    widow = deal.get("widow")
    return None if widow is None else {**deal, "widow": [widow[0], widow[0]]}


BAD_DEALS: dict[str, Callable[[Deal], Deal | None]] = {
    "bad-deal-hand-size": _hand_size,
    "bad-deal-duplicate-tile": _duplicate,
    "bad-deal-missing-tile": _missing,
    "bad-deal-tile-out-of-range": _out_of_range,
    "bad-deal-tile-in-both-hands": _in_both,
    "bad-deal-starter-given": _starter_given,
    "bad-deal-starter-missing": _starter_missing,
    "bad-deal-widow-present": _widow_present,
    "bad-deal-widow-absent": _widow_absent,
    "bad-deal-widow-double": _widow_double,
}


def _answer(call: Callable[[], object]) -> tuple[str, str]:
    """(code, rule or "none") of a refusal; ("ok", "none") when the call is accepted."""
    try:
        call()
    except EngineRejected as refusal:
        return refusal.code, refusal.rule or "none"
    return "ok", "none"


def _documented(heading: str) -> dict[str, dict[str, tuple[str, str]]]:
    """name -> variant -> (code, rule) from a table whose columns are name, code, variants."""
    out: dict[str, dict[str, tuple[str, str]]] = {}
    for row in _table(heading):
        name, code, *rules = row
        assert len(rules) == len(VARIANTS), row
        out[name] = {v: (code, r) for v, r in zip(VARIANTS, rules, strict=True)
                     if r != NOT_APPLICABLE}
    return out


def test_the_bad_deal_table_covers_every_kind_and_variant() -> None:
    assert set(_documented("Bad deals")) == set(BAD_DEALS)
    assert set(variant_ids()) == set(VARIANTS)


@pytest.mark.parametrize("name", sorted(BAD_DEALS))
@pytest.mark.parametrize("variant", VARIANTS)
def test_a_bad_deal_gets_the_documented_code_and_rule(variant: str, name: str) -> None:
    bad = BAD_DEALS[name](_good(variant))
    documented = _documented("Bad deals")[name].get(variant)
    assert (bad is None) == (documented is None), (variant, name, "applies?")
    if bad is None or documented is None:
        return
    got = _answer(lambda: ReferenceEngine().new_hand(variant, {}, bad))
    assert got == documented
    line = protocol.encode(protocol.new_hand_request(1, variant, {}, bad))
    out = io.StringIO()
    run_engine_server(None, io.StringIO(line), out)
    reply = json.loads(out.getvalue())
    assert (reply["error"]["code"], reply["error"].get("rule", "none")) == documented


# --- requests the state or the variant refuses --------------------------------------------------

def _match(variant: str) -> tuple[ReferenceEngine, Deal]:
    engine = ReferenceEngine()
    engine.new_match(variant, {}, 0)
    plan = engine.match_state()["next"]
    rules = load_rules(variant)
    deal = random_deal(rules, random.Random(5), hand_sizes=tuple(plan["hand_sizes"])).to_json()
    return engine, {**deal, "starter": None}


def _next_hand_before_end(variant: str) -> tuple[str, str]:
    engine, deal = _match(variant)
    engine.next_hand(deal)
    return _answer(lambda: engine.next_hand(deal))


def _next_hand_after_match(variant: str) -> tuple[str, str]:
    engine, deal = _match(variant)
    from dominokit.reference import finish_hand
    from dominokit.reference.state import HandResult

    match = engine._match
    assert match is not None
    while not match.finished:
        match, _ = finish_hand(match, HandResult(0, "domino", (500, 0), (0, 0), ()))
    engine._match = match
    return _answer(lambda: engine.next_hand(deal))


def _next_hand_starter(variant: str) -> tuple[str, str]:
    engine, deal = _match(variant)
    return _answer(lambda: engine.next_hand({**deal, "starter": 1}))


def _next_hand_sizes(variant: str) -> tuple[str, str]:
    engine, deal = _match(variant)
    return _answer(lambda: engine.next_hand(_hand_size(deal)))


def _bad_option_value(variant: str) -> tuple[str, str]:
    name = next(iter(load_rules(variant).options), None)
    if name is None:
        return "n/a", NOT_APPLICABLE
    return _answer(lambda: ReferenceEngine().new_match(variant, {name: "no such value"}, 0))


STATE_ERRORS: dict[str, Callable[[str], tuple[str, str]]] = {
    "unsupported-variant": lambda v: _answer(
        lambda: ReferenceEngine().new_hand("dominoes", {}, _good(v))),
    "unsupported-option": lambda v: _answer(
        lambda: ReferenceEngine().new_match(v, {"speed": "fast"}, 0)),
    "unsupported-option-value": lambda v: _bad_option_value(v),
    "no-hand": lambda v: _answer(ReferenceEngine().legal),
    "no-match": lambda v: _answer(lambda: ReferenceEngine().next_hand(_good(v))),
    "next-hand-before-hand-ends": _next_hand_before_end,
    "next-hand-after-match": _next_hand_after_match,
    "next-hand-starter-given": _next_hand_starter,
    "next-hand-wrong-sizes": _next_hand_sizes,
}


def test_the_request_error_table_covers_every_kind() -> None:
    assert set(_documented("Requests refused by the state or the variant")) == set(STATE_ERRORS)


@pytest.mark.parametrize("name", sorted(STATE_ERRORS))
@pytest.mark.parametrize("variant", VARIANTS)
def test_a_request_error_gets_the_documented_code_and_rule(variant: str, name: str) -> None:
    documented = _documented("Requests refused by the state or the variant")[name].get(variant)
    got = STATE_ERRORS[name](variant)
    if documented is None:
        assert got[1] == NOT_APPLICABLE
        return
    assert got == documented
