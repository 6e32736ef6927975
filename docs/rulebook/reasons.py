"""Why each move of a worked example is allowed, in the player's words.

A move table that says only what happened ("dokłada [3|6]") teaches nothing a player cannot
see in the picture; the reason it was allowed ("3 do 3, a druga połówka, 6, jest parzysta po
nieparzystej 3") is what the rule means. The reason is read from the position before the move
and from the game's own mechanics in ``spec/`` (its opening, matching, parity, draw and pass
policies), never from the variant's id, so a new game written with these mechanics gets its
reasons for free; the phrases are ``captions.PHRASES`` entries in every language.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from dominokit.reference import Action, Variant
from dominokit.rulebook.captions import say
from dominokit.rulebook.i18n import Lang
from dominokit.rulebook.text import tile

_SIDES = ((-1, 0), (1, 0), (0, -1), (0, 1))


def _parity(lang: Lang, pips: int) -> str:
    return say(lang, f"parity.{pips % 2}")


def _chain_reason(frame: Any, parsed: Action, variant: Variant, lang: Lang) -> str:
    turn = variant.data["turn"]
    table = frame.before["table"]
    assert parsed.tile is not None and parsed.touch is not None
    end = parsed.touch
    new = parsed.tile.high if parsed.touch == parsed.tile.low else parsed.tile.low
    first = not table.get("tiles") or (frame.before.get("widow") is not None
                                        and len(table["tiles"]) == 1)
    if first and turn["opening"]["policy"] == "widow":
        reason = say(lang, "why.widow", end=end, player=frame.player)
    else:
        shown = table["left"] if parsed.end == "L" else table["right"]
        if turn.get("parity", {}).get("policy") == "opposite_or_blank":
            if shown == 0:
                return say(lang, "why.blank_end")
            if new == 0:
                return say(lang, "why.blank_half", end=end)
            return say(lang, "why.parity", end=end, new=new, new_kind=_parity(lang, new),
                       end_kind=_parity(lang, end))
        reason = say(lang, "why.match", end=end)
    double = parsed.tile.low == parsed.tile.high
    if double and variant.data["components"]["table"].get("doubles") == "crosswise":
        reason += say(lang, "why.double_cross")
    return reason


def _board_reason(frame: Any, parsed: Action, lang: Lang, previous: Any | None) -> str:
    placements = frame.before["table"]["placements"]
    if previous is not None and previous.player == frame.player and \
            Action.parse(previous.action).kind == "board":
        prior = Action.parse(previous.action).tile
        if prior is not None and prior.low == prior.high == 0:
            head = say(lang, "why.extra", tile=tile((0, 0))) + "; "
        else:
            head = ""
    else:
        head = ""
    if not placements:
        return head + say(lang, "why.board_first")
    pips = {(int(r), int(c)): int(p) for placement in placements
            for (r, c), p in zip(placement["cells"], placement["pips"], strict=True)}
    assert parsed.tile is not None and parsed.cells is not None
    touching: list[str] = []
    for (r, c), own in zip(parsed.cells, (parsed.tile.low, parsed.tile.high), strict=True):
        for dr, dc in _SIDES:
            if (r + dr, c + dc) in pips:
                touching.append(str(own))
    return head + say(lang, "why.board_touch", pips=", ".join(touching))


def why_legal(frame: Any, variant: Variant, lang: Lang, previous: Any | None = None) -> str:
    """The reason the move of ``frame`` (a ``examples.Frame``) was allowed, in ``lang``."""
    parsed = Action.parse(frame.action)
    turn = variant.data["turn"]
    if parsed.kind == "opening":
        return say(lang, "why.open_any")
    if parsed.kind == "chain":
        return _chain_reason(frame, parsed, variant, lang)
    if parsed.kind == "board":
        return _board_reason(frame, parsed, lang, previous)
    if parsed.kind == "draw":
        return say(lang, "why.draw_free" if turn["draw"]["policy"] == "free"
                   else "why.draw_until")
    if parsed.kind == "pass":
        if turn["pass"]["policy"] == "always":
            return say(lang, "why.pass_free")
        stock = frame.before.get("stock")
        return say(lang, "why.pass_stuck_stock" if turn["draw"]["policy"] != "none"
                   and not stock else "why.pass_stuck")
    if parsed.kind == "stop":
        return say(lang, "why.stop", tile=tile((0, 0)))
    return ""


def reasons(frames: Sequence[Any], variant: Variant, lang: Lang) -> list[str]:
    """The reason for every move of a replayed hand, in order."""
    out: list[str] = []
    previous: Any | None = None
    for frame in frames:
        out.append(why_legal(frame, variant, lang, previous))
        previous = frame
    return out

