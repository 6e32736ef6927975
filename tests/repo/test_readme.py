"""The README's front door stays true: two commands, and CI runs the second one as written."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def _front_door() -> list[str]:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    after_title = text.split("\n", 1)[1].lstrip()
    block = re.match(r"```sh\n(.*?)```", after_title, re.S)
    assert block, "README must open (right after its title) with a sh code block"
    return [line for line in block.group(1).splitlines() if line.strip()]


def test_readme_opens_with_exactly_two_commands() -> None:
    commands = _front_door()
    assert len(commands) == 2
    assert commands[0].endswith("dominokit conform")
    assert "pytest" in commands[1]


def test_ci_runs_the_readme_test_command_verbatim() -> None:
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    assert _front_door()[1] in ci.splitlines()
