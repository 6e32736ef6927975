"""The reconstruction of the published Pijanowski opening (R-PIJ-12), checked three ways.

1. Facts argued by hand from the rulings (which placements the points allow, the claim that
   ``[5|5][5|6][6|4][4|4]`` lie end to end on one row, the chosen board's points).
2. The search tool's counts recomputed by a second enumeration built on the reference's board
   module (``dominokit.reference.board``), which shares no code with the tool.
3. The bundled trace (replayed by the reference engine) lays exactly a board the tool accepts,
   with the points the tool computes: engine and tool agree on every move.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from dominokit.reference import board as ref_board
from dominokit.reference import board_plain
from dominokit.rulebook import pijanowski_opening as po

pytestmark = pytest.mark.rule("R-PIJ-12", "R-PIJ-05", "R-PIJ-06", "R-PIJ-07")

PUBLISHED_TURN_POINTS = [22, 20, 20, 16, 6, 6, 7, 6 + 16]
"""As printed in the seed: [5|6] (22), [6|4] (20), ... [0|0] i [0|3] (6+16=22)."""


@pytest.fixture(scope="module")
def reports() -> dict[str, po.Report]:
    return {rule: po.run(rule) for rule in po.LAKE_RULES}


def test_symmetries_keep_fields() -> None:
    # By hand: (r, 2k) <-> (r, 11-2k) = (r, 2(5-k)+1) keeps the pair {2k, 2k+1} together,
    # and a row flip never splits a field; so all four maps keep "same field".
    assert po.check_symmetries() == dict.fromkeys(po.SYMMETRIES, True)


def test_a_map_that_splits_fields_is_refused() -> None:
    # Shifting by one column pairs cell 1 with cell 2: fields break, so the check must fail.
    po.SYMMETRIES["shift"] = lambda cell: (cell[0], (cell[1] + 1) % po.COLS)
    try:
        assert po.check_symmetries()["shift"] is False
    finally:
        del po.SYMMETRIES["shift"]


def test_claim_holds_in_every_solution(reports: dict[str, po.Report]) -> None:
    for report in reports.values():
        assert report.claim_holds
        assert all(po.chain_in_one_row(po.moves_of(s)) for s in report.solutions)


def test_first_four_tiles_only_where_the_hand_argument_allows(
    reports: dict[str, po.Report],
) -> None:
    # By hand: 22 and 20 are twice the pips, so [5|6] and [6|4] each cover one field; [6|4]
    # below or above [5|6] would put its 4 against the 5, so it is the next field in the row;
    # [5|5] likewise the field on the 5 side; [4|4] (16 = 2 x 8 or 8 + a two-cell lake) ends
    # up on the field beyond [6|4] in every solution (the claim). A row of four fields fits in
    # 6 fields in 3 ways, in 6 rows, in 2 directions: at most 36 openings.
    allowed = set()
    for row in range(po.ROWS):
        for first in range(3):
            fields = [(row, first + i) for i in range(4)]
            allowed.add(tuple(fields))
            allowed.add(tuple(reversed(fields)))
    for solution in reports["new_region"].solutions:
        by_tile = {m.move.tile: m.move for m in solution}
        line = [by_tile[(5, 5)], by_tile[(5, 6)], by_tile[(4, 6)], by_tile[(4, 4)]]
        assert all(po.same_field(*m.cells) for m in line)
        assert tuple((m.cells[0][0], m.cells[0][1] // 2) for m in line) in allowed


def test_solutions_come_in_fours(reports: dict[str, po.Report]) -> None:
    for report in reports.values():
        assert report.closed_under_symmetry
        # No solution is its own image: the left-right mirror sends [5|6]'s field k to 5 - k,
        # the top-bottom mirror its row r to 5 - r, and neither equation has an integer fixed
        # point; so every class has exactly four members.
        assert len(report.solutions) == 4 * report.classes


def test_every_solution_scores_the_published_points(reports: dict[str, po.Report]) -> None:
    for report in reports.values():
        for solution in report.solutions:
            assert po.turn_points(solution) == PUBLISHED_TURN_POINTS


def test_chosen_reconstruction(reports: dict[str, po.Report]) -> None:
    chosen = reports["new_region"].chosen
    assert po.turn_points(chosen) == PUBLISHED_TURN_POINTS
    # [0|3] lies on one field (2 x 3 = 6) and the turn's lakes have four cells (16).
    zero_three = chosen[-1]
    assert zero_three.move.tile == (0, 3) and zero_three.placement_points == 6
    assert sum(len(lake) for m in chosen[-2:] for lake in m.lakes) == 4
    # Players alternate, the [0|0] turn being player 1's two placements.
    assert [m.player for m in chosen] == [0, 1, 0, 1, 0, 1, 0, 1, 1]
    # The independent replay in ``score`` agrees with the search.
    rescored = po.score(po.moves_of(chosen))
    assert rescored is not None and tuple(rescored) == chosen


def test_score_refuses_illegal_and_reports_changed_points() -> None:
    first = po.Move((5, 6), ((2, 4), (2, 5)))
    # [4|6] with its 4 against the 5 of [5|6]: R-PIJ-04 forbids it.
    assert po.score([first, po.Move((4, 6), ((3, 4), (3, 5)))]) is None
    # [4|6] one field right, 6 touching 6: 2 x 10 = 20, no lake.
    scored = po.score([first, po.Move((4, 6), ((2, 7), (2, 6)))])
    assert scored is not None and [m.points for m in scored] == [22, 20]
    # The same tile standing up from the 6 (cells of two colours): 10.
    scored = po.score([first, po.Move((4, 6), ((0, 5), (1, 5)))])
    assert scored is not None and [m.points for m in scored] == [22, 10]


def _top_left_facing(cells: tuple[po.Cell, po.Cell]) -> bool:
    """[5|6] in the top half with its 5 on the left: one image of each symmetry class."""
    (r1, c1), (_, c2) = cells
    return r1 < po.ROWS // 2 and c1 < c2


def _reference_count(lake_rule: str) -> int:
    """Count again, with the reference engine's board functions, the solutions whose first
    tile is ``_top_left_facing`` (a quarter of them, which keeps the test quick)."""
    steps = [(t, tile, j == len(turn.tiles) - 1)
             for t, turn in enumerate(po.PUBLISHED) for j, tile in enumerate(turn.tiles)]

    def visit(grid: board_plain.Grid, depth: int, left: int, first: bool) -> Iterator[None]:
        if depth == len(steps):
            yield None
            return
        t, (low, high), closes = steps[depth]
        left = po.PUBLISHED[t].points if left < 0 else left
        for cells in ref_board.placements(grid, low, high, first):
            if first and not _top_left_facing(cells):
                continue
            points = (low + high) * (2 if board_plain.same_field(*cells) else 1)
            if points > left:
                continue
            after = board_plain.place(grid, cells, (low, high))
            lakes = ref_board.new_lakes(grid, after, cells, 4, lake_rule)
            rest = left - points - 4 * sum(len(lake) for lake in lakes)
            if rest == 0 or (rest > 0 and not closes):
                yield from visit(after, depth + 1, -1 if closes else rest, False)

    grid = board_plain.empty_grid(po.ROWS, po.COLS)
    return sum(1 for _ in visit(grid, 0, -1, True))


@pytest.mark.parametrize("lake_rule", po.LAKE_RULES)
def test_counts_agree_with_a_second_enumeration(
    reports: dict[str, po.Report], lake_rule: str
) -> None:
    solutions = reports[lake_rule].solutions
    quarter = [s for s in solutions if _top_left_facing(s[0].move.cells)]
    assert 4 * len(quarter) == len(solutions)
    assert _reference_count(lake_rule) == len(quarter)


def test_bundled_trace_lays_a_board_the_search_accepts(reports: dict[str, po.Report]) -> None:
    from dominokit.conformance import traces

    trace = traces.load_trace(next(f for f in traces.bundled_trace_files("pijanowski")
                                   if f.name == "published-opening.yaml"))
    assert traces.replay(trace) == []
    steps = trace.hands[0].steps
    moves = []
    for step in steps:
        if step.action == "stop":
            continue
        tile_text, _, cells_text = step.action.partition("@")
        low, high = (int(p) for p in tile_text.split("-"))
        c1, c2 = (tuple(int(n) for n in cell.split(".")) for cell in cells_text.split("+"))
        moves.append(po.Move((low, high), ((c1[0], c1[1]), (c2[0], c2[1]))))
    accepted = {po.moves_of(s) for s in reports["new_region"].solutions}
    assert tuple(moves) in accepted
    # Every move's placement points and lakes in the trace's events equal the tool's.
    scored = po.score(moves)
    assert scored is not None
    placed = [e for step in steps for e in step.events if e["type"] == "place"]
    lakes = [e for step in steps for e in step.events if e["type"] == "lake"]
    assert [e.get("points", 0) for e in placed] == [m.placement_points for m in scored]
    assert sorted(tuple(tuple(c) for c in e["cells"]) for e in lakes) == sorted(
        lake for m in scored for lake in m.lakes)
    assert [e["player"] for e in placed] == [m.player for m in scored]
    # Turn by turn (consecutive steps of one player are one turn), the engine's points are
    # the published ones.
    turns: list[list[int]] = []
    for step in steps:
        points = sum(e.get("points", 0) for e in step.events)
        if turns and turns[-1][0] == step.player:
            turns[-1][1] += points
        else:
            turns.append([step.player, points])
    assert [points for _, points in turns] == PUBLISHED_TURN_POINTS


def test_many_boards_fit_hundreds_up_to_symmetry(reports: dict[str, po.Report]) -> None:
    # R-PIJ-12: "Many boards fit (hundreds, even up to symmetry)".
    assert all(100 <= report.classes < 1000 for report in reports.values())


def test_documented_figures_match_the_search(reports: dict[str, po.Report]) -> None:
    # The module docstring (quoted by the docs) and the trace's note state the counts and the
    # board; they must say what the search finds.
    from dominokit.conformance import traces

    doc = po.__doc__ or ""
    new, enclosed = reports["new_region"], reports["newly_enclosed"]
    assert f"finds {len(new.solutions)} boards, {new.classes} up to symmetry" in " ".join(
        doc.split())
    assert f"exactly the same {len(enclosed.solutions)} boards" in doc
    assert {po.moves_of(s) for s in new.solutions} == {
        po.moves_of(s) for s in enclosed.solutions}
    assert po.picture(new.chosen).split("\n")[0] in doc
    assert all(m.move.notation() in doc for m in new.chosen)
    trace = traces.load_trace(next(f for f in traces.bundled_trace_files("pijanowski")
                                   if f.name == "published-opening.yaml"))
    note = " ".join((trace.note or "").split())
    assert f"finds {len(new.solutions)} boards, {new.classes} up to" in note
    assert f"also {len(enclosed.solutions)} ({enclosed.classes})" in note
