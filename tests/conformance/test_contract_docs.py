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

from dominokit.conformance.serve.refengine import ReferenceEngine
from dominokit.conformance.serve.server import request_limits, run_engine_server
from dominokit.conformance.wire import protocol
from dominokit.conformance.wire.errors import EngineRejected
from dominokit.reference import load_rules, random_deal, variant_ids
from dominokit.spec.spec import schema

REPO = Path(__file__).resolve().parents[2]
PROSE = (REPO / "spec" / "protocol.md").read_text(encoding="utf-8")
VARIANTS = ("poldomino", "szczerbak", "pijanowski", "progressive")
NOT_APPLICABLE = "—"


def _table(heading: str) -> list[list[str]]:
    """The body rows of the first table under ``heading`` (a ``## `` or ``### `` title), cells
    stripped of spaces and backticks."""
    at = PROSE.index(f" {heading}\n")
    rows: list[list[str]] = []
    for line in PROSE[at:].splitlines()[1:]:
        if line.startswith("#"):
            break
        if line.startswith("|") and not line.startswith("|---"):
            rows.append([cell.strip().replace("`", "") for cell in line.strip("|").split("|")])
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
    # The tables document the games they have columns for; a game added to spec/variants/
    # later follows the order of checks above without an edit of the tables.
    assert set(VARIANTS) <= set(variant_ids())


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
    "undo-nothing-to-take-back": lambda v: _answer(ReferenceEngine().undo),
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


# --- the rule an illegal action cites ------------------------------------------------------------

MECHANIC_RULES: dict[str, Callable[[Any], str | None]] = {
    "the table (components.table)": lambda r: r.table.rule,
    "the opening (turn.opening)": lambda r: r.opening.rule,
    "matching (turn.matching)": lambda r: r.matching.rule,
    "adjacency (turn.matching.adjacency_rule)": lambda r: r.matching.extra_rule,
    "parity (turn.parity)": lambda r: r.parity.rule if r.parity.policy != "none" else None,
    "draw (turn.draw)": lambda r: r.draw.rule,
    "pass (turn.pass)": lambda r: r.pass_.rule,
    "extra tile (turn.extra_tile)": lambda r: r.extra_tile.rule if r.extra_tile else None,
}


def test_the_mechanic_rule_table_is_the_variant_files() -> None:
    rows = _table("Which rule an illegal action cites")
    assert {row[0] for row in rows} == set(MECHANIC_RULES)
    for label, *cells in rows:
        for variant, cell in zip(VARIANTS, cells, strict=True):
            want = MECHANIC_RULES[label](load_rules(variant))
            assert cell == (want or NOT_APPLICABLE), (label, variant)


def _opening(variant: str) -> Any:
    from dominokit.reference import Deal, new_hand

    return new_hand(variant, Deal.from_json(_good(variant)))


def _cites(state: Any, action: str) -> str | None:
    from dominokit.reference import Action
    from dominokit.reference.engine import check_action

    problem = check_action(state, Action.parse(action))
    return None if problem is None else problem[0]


@pytest.mark.parametrize("variant", ["poldomino", "progressive"])
def test_precedence_in_a_chain_game(variant: str) -> None:
    from dominokit.reference import apply_action, legal_actions

    rules = load_rules(variant)
    state = _opening(variant)
    mover = state.to_move
    held = state.hands[mover][0]
    assert _cites(state, "draw") == rules.opening.rule
    assert _cites(state, "pass") == rules.opening.rule
    assert _cites(state, "stop") == rules.structural.turn_order
    assert _cites(state, f"{held}@0.0+0.1") == rules.table.rule  # a board placement
    assert _cites(state, f"{held}@L{held.low}") == rules.opening.rule
    state, _ = apply_action(state, str(legal_actions(state)[0]))
    other = state.hands[1 - state.to_move][0]
    left = state.table.end_pip("L")
    if left not in (other.low, other.high):  # not held, and does not match either
        assert _cites(state, f"{other}@L{other.low}") == rules.structural.own_tiles
    assert _cites(state, str(other)) == rules.opening.rule  # an opening after the opening


def test_precedence_on_a_board_and_after_the_end() -> None:
    from dominokit.reference import apply_action, legal_actions

    rules = load_rules("pijanowski")
    state = _opening("pijanowski")
    mine = state.hands[state.to_move][0]
    theirs = state.hands[1 - state.to_move][0]
    assert _cites(state, "stop") == rules.extra_tile.rule  # type: ignore[union-attr]
    assert _cites(state, str(mine)) == rules.table.rule  # a bare tile on a board
    assert _cites(state, f"{theirs}@0.0+0.1") == rules.structural.own_tiles
    assert _cites(state, f"{mine}@0.0+0.2") == rules.matching.extra_rule
    while state.result is None:
        state, _ = apply_action(state, legal_actions(state)[-1])
    assert _cites(state, str(mine)) == rules.structural.hand_over
    assert _cites(state, "draw") == rules.structural.hand_over
    assert state.to_move is None
    assert (state.turn.draws, state.turn.extra) == (0, False)


# --- the states, exactly -------------------------------------------------------------------------

@pytest.mark.parametrize("variant", VARIANTS)
def test_an_ended_hand_resets_the_turn_and_keeps_passes(variant: str) -> None:
    rng = random.Random(11)
    for _ in range(3):
        engine = ReferenceEngine()
        engine.new_hand(variant, {}, _good_seeded(variant, rng))
        passes = 0
        while engine.state()["result"] is None:
            action = rng.choice(engine.legal())
            engine.apply(action)
            passes = passes + 1 if action == "pass" else 0 if "-" in action else passes
        state = engine.state()
        assert state["to_move"] is None
        assert state["turn"] == {"draws": 0, "extra": False}
        assert state["passes"] == passes
        assert engine.legal() == []


def _good_seeded(variant: str, rng: random.Random, sizes: Any = None) -> Deal:
    rules = load_rules(variant)
    if sizes is None and rules.setup.hand_size is None:
        sizes = (5, 5)
    return random_deal(rules, rng, hand_sizes=sizes).to_json()


@pytest.mark.parametrize("variant", VARIANTS)
def test_match_totals_reset_between_sets_and_rounds_and_stay_at_the_end(variant: str) -> None:
    rng = random.Random(2)
    engine = ReferenceEngine()
    match = engine.new_match(variant, {}, 0)
    kind = load_rules(variant).match.kind
    while not match["finished"]:
        plan = match["next"]
        deal = {**_good_seeded(variant, rng, tuple(plan["hand_sizes"])), "starter": None}
        state = engine.next_hand(deal)
        while state["result"] is None:
            engine.apply(rng.choice(engine.legal()))
            state = engine.state()
        before, match = match, engine.match_state()
        assert match["hands_played"] == before["hands_played"] + 1
        added = [a + b for a, b in zip(before["totals"], state["result"]["points"], strict=True)]
        stage_ended = (kind == "sets" and match["sets_won"] != before["sets_won"]) or (
            kind == "rounds" and len(match["rounds"]) != len(before["rounds"]))
        if stage_ended and not match["finished"]:
            assert match["totals"] == [0, 0]
        else:
            assert match["totals"] == added
        if kind == "rounds" and stage_ended:
            names = [r["name"] for r in match["rounds"]]
            spec_names = [r.name for r in load_rules(variant).match.rounds]
            assert names == [*spec_names, *(f"tiebreak {n}" for n in
                                            range(1, len(names) - len(spec_names) + 1))][
                :len(names)]


# --- the engine author's pages ---------------------------------------------------------------

ENGINE_PAGES = ("docs/engines/quickstart.md", "docs/engines/report.md")


@pytest.mark.parametrize("page", ENGINE_PAGES)
def test_engine_pages_link_to_real_files_of_the_repository(page: str) -> None:
    """Read in a checkout, every relative link resolves; the site build points the links to
    spec files at their published pages (docs/gen_pages.py), and ``mkdocs build --strict``
    checks those."""
    source = REPO / page
    links = re.findall(r"\]\(([^)\s]+)\)", source.read_text(encoding="utf-8"))
    relative = [link.split("#")[0] for link in links if "://" not in link
                and not link.startswith("#")]
    assert relative
    missing = [link for link in relative if not (source.parent / link).is_file()]
    assert not missing, missing


def test_the_report_page_lists_every_failure_kind() -> None:
    from typing import get_args

    from dominokit.conformance.wire.errors import FailureKind

    text = (REPO / "docs/engines/report.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"^\| `([a-z]+)` \|", text, re.MULTILINE))
    assert {*get_args(FailureKind), "kit"} <= listed


def test_precedence_of_draw_pass_and_the_extra_tile() -> None:
    from dataclasses import replace

    from dominokit.reference.state import Turn

    pij = load_rules("pijanowski")
    state = _opening("pijanowski")
    assert _cites(state, "draw") == pij.draw.rule  # no drawing at all, before the opening
    assert _cites(state, "pass") == pij.opening.rule
    extra = replace(state, turn=Turn(0, True))
    assert _cites(extra, "draw") == pij.extra_tile.rule  # type: ignore[union-attr]
    assert _cites(extra, "pass") == pij.extra_tile.rule  # type: ignore[union-attr]
    assert _cites(extra, "stop") is None
    szc = load_rules("szczerbak")
    assert _cites(_opening("szczerbak"), "draw") == szc.draw.rule


def test_a_double_set_deal_that_is_not_one_set_each_cites_r_pij_11() -> None:
    options = {"double_set": True}
    deal = random_deal(load_rules("pijanowski", options), random.Random(1)).to_json()
    mine, theirs = deal["hands"]
    swapped = {**deal, "hands": [sorted([*mine[1:], theirs[1]]),
                                 sorted([mine[0], theirs[0], *theirs[2:]])]}
    for bad in (_hand_size(deal), swapped):
        got = _answer(lambda bad=bad: ReferenceEngine().new_hand("pijanowski", options, bad))
        assert got == ("bad_request", "R-PIJ-11")
