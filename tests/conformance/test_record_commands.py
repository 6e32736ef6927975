"""The commands that write suite data: ``dominokit perft [--record]`` and ``trace record --match``.

A contributor adds perft positions and match traces with these commands only, so they are
checked here as a contributor meets them: counts worked out by hand, the file they write read
back, bad input answered with one line and the usage-error status, and a seed always giving the same
match.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from dominokit.conformance.commands.cli import main
from dominokit.conformance.commands.trace import validate_file
from dominokit.conformance.exit_status import ExitStatus

# Szczerbak's widow-faces-1 position of conformance/perft/szczerbak.yaml: widow [2|3] faces
# player 1 with its 3; on odd 3 the far half must be blank or even (R-SZC-04): 3-4, 3-6 -> 2.
SZC_DEAL = {
    "hands": [["0-1", "0-2", "0-3", "0-4", "0-5", "0-6", "1-2", "1-3", "1-4", "1-5"],
              ["1-6", "2-4", "2-5", "2-6", "3-4", "3-5", "3-6", "4-5", "4-6", "5-6"]],
    "stock": [], "out_of_play": [], "starter": None, "widow": [2, 3],
}


@pytest.fixture
def deal_file(tmp_path: Path) -> Path:
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(SZC_DEAL), encoding="utf-8")
    return path


@pytest.mark.rule("R-ALL-11")
def test_perft_prints_counts_worked_out_by_hand(deal_file: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "szczerbak", "--deal", str(deal_file), "--depth", "2",
                 "--divide"]) == 0
    # After 3-4@R3 (end 4) player 0 has 0-4 and 1-4 -> 2; after 3-6@R3 (end 6) only 0-6 -> 1.
    assert capsys.readouterr().out.splitlines() == ["3-4@R3: 2", "3-6@R3: 1", "perft(2) = 3"]


def test_perft_record_adds_then_updates_a_position(deal_file: Path, tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "szczerbak.yaml"
    base = ["perft", "szczerbak", "--deal", str(deal_file), "--record", str(out),
            "--name", "widow", "--rules", "R-ALL-11,R-SZC-04"]
    assert main([*base, "--depth", "1"]) == 0
    assert main([*base, "--depth", "2", "--description", "Widow [2|3]."]) == 0
    assert "updated position 'widow'" in capsys.readouterr().out
    text = out.read_text(encoding="utf-8")
    assert text.startswith("# Perft counts (R-ALL-11) for szczerbak")
    data = yaml.safe_load(text)
    assert data["variant"] == "szczerbak"
    [entry] = data["positions"]
    assert entry["description"] == "Widow [2|3]."
    assert entry["rules"] == ["R-ALL-11", "R-SZC-04"]
    assert entry["actions"] == []
    assert entry["perft"] == [{"depth": 1, "count": 2},
                              {"depth": 2, "count": 3,
                               "divide": {"3-4@R3": 2, "3-6@R3": 1}}]
    # A second position is appended, the first kept.
    assert main(["perft", "szczerbak", "--deal", str(deal_file), "--actions", "3-6@R3",
                 "--depth", "1", "--record", str(out), "--name", "after-3-6"]) == 0
    names = [p["name"] for p in yaml.safe_load(out.read_text("utf-8"))["positions"]]
    assert names == ["widow", "after-3-6"]


@pytest.mark.parametrize(("extra", "message"), [
    (["--depth", "0"], "--depth must be between 1 and"),
    (["--depth", "2", "--actions", "3-5@R3"], "action 0 ('3-5@R3'): illegal action"),
    (["--depth", "2", "--record", "x.yaml"], "--record needs --name"),
    (["--depth", "2", "--record", "x.yaml", "--name", "Bad Name"], "--record needs --name"),
    (["--depth", "2", "--option", "nope=1"], "has no option 'nope'"),
])
def test_perft_bad_input_is_one_line(deal_file: Path, extra: list[str], message: str,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "szczerbak", "--deal", str(deal_file), *extra]) == ExitStatus.USAGE_ERROR
    err = capsys.readouterr().err
    assert err.startswith("dominokit: ") and message in err and err.count("\n") == 1, err


def test_perft_refuses_a_file_of_another_variant(deal_file: Path, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    other = tmp_path / "other.yaml"
    other.write_text("variant: poldomino\npositions: []\n", encoding="utf-8")
    assert main(["perft", "szczerbak", "--deal", str(deal_file), "--depth", "1",
                 "--record", str(other), "--name", "w"]) == ExitStatus.USAGE_ERROR
    assert "not a perft file of variant 'szczerbak'" in capsys.readouterr().err


@pytest.mark.rule("R-ALL-04")
def test_record_match_is_deterministic_and_replays(tmp_path: Path) -> None:
    first, second = tmp_path / "match-a.yaml", tmp_path / "match-b.yaml"
    for out in (first, second):
        assert main(["trace", "record", "--variant", "szczerbak", "--match", "--seed", "5",
                     "--first-starter", "1", "--description", "A random match.",
                     "--out", str(out)]) == 0
    text = first.read_text(encoding="utf-8")
    assert text.replace("match-a", "match-b") == second.read_text(encoding="utf-8")
    data = yaml.safe_load(text)
    assert data["kind"] == "match" and data["first_starter"] == 1
    assert data["match"]["finished"] is True
    # Szczerbak plays to 100 (R-SZC-07): the winner reached it, and only at the last hand.
    totals = data["match"]["totals"]
    assert max(totals) >= 100
    assert validate_file(first) == []


def test_record_match_needs_a_seed(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["trace", "record", "--variant", "szczerbak", "--match", "--deal",
                 "d.json"]) == ExitStatus.USAGE_ERROR
    assert "--match goes with --seed" in capsys.readouterr().err
