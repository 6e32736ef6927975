"""``dominokit perft``: count action sequences from a position, and record them as suite data.

A perft count (R-ALL-11) is the number of sequences of ``depth`` legal actions from a
position; a sequence whose last action ends the hand counts but is not extended. This command
computes counts with the reference engine in-process and, with ``--record``, writes them to
``conformance/perft/<variant>.yaml`` as a position the suite runs against every engine, so
adding perft data for a new game needs no Python. The stored counts are then recomputed by a
second generator that shares no code with the reference
(``tests/reference/test_perft_independent.py``),
which is what makes them expectations rather than a copy of the reference's answers.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import yaml

from dominokit.conformance.commands.options import parse_option_pairs
from dominokit.reference import Deal, apply_action, legal_actions, load_variant, new_hand
from dominokit.reference.errors import DominokitError
from dominokit.reference.state import HandState

JsonObject = dict[str, Any]

MAX_DEPTH = 10
"""Deepest count the command computes: the tree grows exponentially, and a count that would
run for hours is refused at once rather than left to look like a hang."""
NAME = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")
"""A position name: lowercase letters and digits in dash-separated words (it is in case ids)."""

HEADER = """\
# Perft counts (R-ALL-11) for {variant}: sequences of `depth` legal actions from a position;
# every action (draw, pass, stop included) is one step, and a sequence whose last action ends
# the hand is counted but not extended. The position is `deal` followed by `actions`.
# Written by `dominokit perft {variant} --deal FILE --depth N --record FILE`; the counts are
# recomputed by the independent generator in tests/reference/test_perft_independent.py (which does
# not
# use the reference engine). `divide` is the count per first action, printed on a mismatch.
"""


def perft(state: HandState, depth: int) -> int:
    """R-ALL-11: sequences of ``depth`` actions from ``state``."""
    actions = legal_actions(state)
    if depth <= 1:
        return len(actions)
    total = 0
    for action in actions:
        child, _ = apply_action(state, action)
        total += 1 if child.result is not None else perft(child, depth - 1)
    return total


def divide(state: HandState, depth: int) -> dict[str, int]:
    """perft per first action, keyed by the action in notation."""
    out: dict[str, int] = {}
    for action in legal_actions(state):
        child, _ = apply_action(state, action)
        ended = child.result is not None
        out[str(action)] = 1 if depth == 1 or ended else perft(child, depth - 1)
    return out


def chosen_options(variant: str, given: Mapping[str, str]) -> JsonObject:
    """The options as their declared values (``"true"`` -> True), defaults left out."""
    loaded = load_variant(variant)
    values = loaded.resolve(dict(given)).options
    return {name: value for name, value in values.items()
            if name in given and value != loaded.options[name].default}


def position(variant: str, options: Mapping[str, object], deal: Mapping[str, Any],
             actions: Sequence[str]) -> HandState:
    """The state after ``deal`` and ``actions``; DominokitError naming the refused step."""
    try:
        state = new_hand(variant, Deal.from_json(dict(deal)), options)
    except (KeyError, TypeError, ValueError) as error:
        raise DominokitError(f"malformed deal: {error!r}") from None
    for index, action in enumerate(actions):
        if state.result is not None:
            raise DominokitError(f"action {index} ({action!r}): the hand is already over")
        try:
            state, _ = apply_action(state, action)
        except DominokitError as error:
            raise DominokitError(f"action {index} ({action!r}): {error}") from None
    if state.result is not None:
        raise DominokitError("the hand is over at this position: there is nothing to count")
    return state


def counts(state: HandState, depth: int) -> list[JsonObject]:
    """The stored form: one entry per depth 1..``depth``, with ``divide`` from depth 2."""
    out: list[JsonObject] = []
    for d in range(1, depth + 1):
        entry: JsonObject = {"depth": d, "count": perft(state, d)}
        if d > 1:
            entry["divide"] = divide(state, d)
        out.append(entry)
    return out


def _read_deal(path: Path) -> JsonObject:
    try:
        deal = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise DominokitError(f"{path}: {error.strerror or error}") from None
    except ValueError as error:
        raise DominokitError(f"{path}: not JSON: {error}") from None
    if not isinstance(deal, dict):
        raise DominokitError(f"{path}: a deal is a JSON object")
    return deal


def _leading_comments(text: str) -> str:
    lines: list[str] = []
    for line in text.splitlines():
        if not line.startswith("#"):
            break
        lines.append(line)
    return "\n".join(lines) + "\n" if lines else ""


def record(path: Path, variant: str, entry: JsonObject) -> str:
    """Add ``entry`` to the perft file at ``path`` (replacing a position of the same name);
    returns "added" or "updated". The file's header comment is kept."""
    if path.exists():
        text = path.read_text(encoding="utf-8")
        try:
            data = yaml.safe_load(text) or {}
        except yaml.YAMLError as error:
            raise DominokitError(f"{path}: not YAML: {error}") from None
        if not isinstance(data, dict) or data.get("variant") != variant:
            raise DominokitError(f"{path}: not a perft file of variant {variant!r}")
        header = _leading_comments(text)
    else:
        data = {"variant": variant, "positions": []}
        header = HEADER.format(variant=variant)
    positions = data.get("positions") or []
    if not isinstance(positions, list) or not all(isinstance(p, dict) for p in positions):
        raise DominokitError(f"{path}: `positions` must be a list of positions")
    names = [p.get("name") for p in positions]
    verb = "updated" if entry["name"] in names else "added"
    if verb == "updated":
        positions[names.index(entry["name"])] = entry
    else:
        positions.append(entry)
    body = yaml.safe_dump({"variant": variant, "positions": positions}, sort_keys=False,
                          default_flow_style=None, width=100, allow_unicode=True)
    try:
        path.write_text(header + body, encoding="utf-8")
    except OSError as error:
        raise DominokitError(f"{path}: {error.strerror or error}") from None
    return verb


def run_perft(variant: str, deal_file: str, depth: int, *, show_divide: bool = False,
              option_pairs: Sequence[str] = (), actions: str = "",
              record_file: str | None = None, name: str | None = None,
              description: str = "", rules: str = "") -> int:
    """``dominokit perft``: print the count (and the divide), and record it if asked."""
    if not 1 <= depth <= MAX_DEPTH:
        raise DominokitError(f"--depth must be between 1 and {MAX_DEPTH}, got {depth}")
    if record_file is not None and not (name and NAME.fullmatch(name)):
        raise DominokitError("--record needs --name NAME: lowercase letters, digits and "
                             f"dashes (got {name!r})")
    options = chosen_options(variant, parse_option_pairs(option_pairs))
    deal = _read_deal(Path(deal_file))
    path = actions.split()
    state = position(variant, options, deal, path)
    if show_divide:
        for action, count in divide(state, depth).items():
            print(f"{action}: {count}")
    total = perft(state, depth)
    print(f"perft({depth}) = {total}")
    if record_file is None or name is None:
        return 0
    rule_ids = [r.strip() for r in rules.split(",") if r.strip()] or ["R-ALL-11"]
    entry: JsonObject = {
        "name": name,
        "description": description or f"Position {name}.",
        "rules": rule_ids,
    }
    if options:
        entry["options"] = options
    entry["deal"] = Deal.from_json(deal).to_json()
    entry["actions"] = path
    entry["perft"] = counts(state, depth)
    verb = record(Path(record_file), variant, entry)
    print(f"{verb} position {name!r} (depths 1..{depth}) in {record_file}")
    return 0
