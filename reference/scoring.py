"""A hand's result from the spec's scoring terms (R-POL-06..09, R-PIJ-09, R-SZC-07, R-PRO-04).

Each term says what the hand's winner earns (``opponent_pips``, ``own_pips``, a listed last
tile, a caught lone tile, in-hand ``placement_points``) and ``to`` says who gets it: the winner
adds it, the loser pays it (``loser``: subtracted from the loser), or every player gets their
own amount (``each``). Terms are evaluated in spec order; only non-zero ones are reported.
"""

from __future__ import annotations

from dominokit.reference.rules import Term
from dominokit.reference.state import HandResult, HandState, Pair, ScoreTerm

TERMS = ("opponent_pips", "own_pips", "last_tile_bonus", "catch", "placement_points")
"""The scoring vocabulary this module interprets."""


def _amount(term: Term, state: HandState, reason: str, beneficiary: int, pips: Pair) -> int:
    """What ``term`` is worth to ``beneficiary``, before sign and direction."""
    name, b = term.term, beneficiary
    if name == "opponent_pips":
        return pips[1 - b]
    if name == "own_pips":
        return pips[b]
    if name == "placement_points":
        return state.points[b]
    if name == "last_tile_bonus":
        # R-POL-08: only a hand won by emptying it, with a listed tile placed last.
        if reason != "domino" or state.hands[b]:
            return 0
        return term.value_of(state.last_placed[b])
    if name == "catch":
        # R-POL-09: the opponent is caught holding exactly one tile, and that tile is listed.
        caught = state.hands[1 - b]
        return term.value_of(caught[0]) if len(caught) == 1 else 0
    raise ValueError(f"unknown scoring term {name!r}")


def _deltas(term: Term, state: HandState, reason: str, winner: int | None,
            pips: Pair) -> list[tuple[int, int]]:
    """(player, signed points) pairs the term gives, zeros included."""
    if term.to == "each":
        return [(p, term.sign * _amount(term, state, reason, p, pips)) for p in (0, 1)]
    if winner is None:
        return []
    amount = term.sign * _amount(term, state, reason, winner, pips)
    if term.to == "winner":
        return [(winner, amount)]
    if term.to == "loser":
        return [(1 - winner, -amount)]
    raise ValueError(f"unknown scoring direction {term.to!r}")


def _winner(state: HandState, reason: str, pips: Pair) -> int | None:
    """The hand's winner under the spec's winner policy; None on a tie (R-ALL-06)."""
    policy = state.rules.winner.policy
    if policy == "domino_or_fewer_pips":
        if reason == "domino":
            return next(p for p in (0, 1) if not state.hands[p])
        scores = (-pips[0], -pips[1])
    elif policy == "higher_hand_score":
        # R-PIJ-09: a hand score is what the per-player ("each") terms give that player.
        totals = [0, 0]
        for term in state.rules.terms:
            if term.to == "each":
                for player, points in _deltas(term, state, reason, None, pips):
                    totals[player] += points
        scores = (totals[0], totals[1])
    else:
        raise ValueError(f"unknown winner policy {policy!r}")
    if scores[0] == scores[1]:
        # R-ALL-06: level scores give no winner, unless the spec breaks ties for the starter
        return state.starter if state.rules.tie.policy == "starter" else None
    return 0 if scores[0] > scores[1] else 1


def score_hand(state: HandState, reason: str) -> HandResult:
    """The result of a hand that has just ended for ``reason`` (domino, block, mutual_pass)."""
    pips = state.pips()
    winner = _winner(state, reason, pips)
    totals = [0, 0]
    terms: list[ScoreTerm] = []
    for term in state.rules.terms:
        for player, points in _deltas(term, state, reason, winner, pips):
            if points:
                totals[player] += points
                terms.append(ScoreTerm(term.term, player, points, term.rule))
    return HandResult(winner, reason, (totals[0], totals[1]), pips, tuple(terms))
