"""``dominokit play`` and ``dominokit sample``: readable, deterministic, and polite on bad input."""

from __future__ import annotations

import pytest

from dominokit.conformance.commands.cli import main
from dominokit.reference import Action


@pytest.mark.parametrize("variant", ["poldomino", "pijanowski", "szczerbak", "progressive"])
def test_play_prints_a_whole_hand_in_notation(
    variant: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["play", variant, "--seed", "5"]) == 0
    lines = capsys.readouterr().out.splitlines()
    moves = [line.split()[1] for line in lines if line.startswith(("P0 ", "P1 ")) and
             "hand" not in line]
    assert moves, lines
    for move in moves:
        assert str(Action.parse(move)) == move
    assert lines[-1].startswith("result: ")


def test_play_is_deterministic_for_a_seed(capsys: pytest.CaptureFixture[str]) -> None:
    main(["play", "poldomino", "--seed", "11"])
    first = capsys.readouterr().out
    main(["play", "poldomino", "--seed", "11"])
    assert capsys.readouterr().out == first


def test_sample_plays_every_variant(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sample", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    for name in ("Poldomino", "Pijanowski", "Szczerbak", "Progressive"):
        assert name in out


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["play", "szczerbak", "--option", "foo=bar"], "foo"),
        (["play", "poldomino", "--option", "catch_penalty_to=nobody"], "nobody"),
        (["play", "nosuch"], "nosuch"),
    ],
)
def test_bad_input_is_one_line_and_a_usage_error(
    args: list[str], needle: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(args) == 4
    err = capsys.readouterr().err
    assert needle in err
    assert "Traceback" not in err


def test_trace_record_refuses_actions_it_would_ignore(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["trace", "record", "--variant", "szczerbak", "--seed", "1",
                 "--actions", "9-9"]) == 4
    assert "--actions goes with --deal" in capsys.readouterr().err
