"""Which tiles are hardest to place: for each tile, the open ends it fits, computed from the
rules.

Under a parity rule (Szczerbak's R-SZC-04, with the blank end of R-SZC-05) some tiles fit on
far fewer ends than others, and players learn to keep or shed them; the book shows the list
rather than stating it, and computes it with the reference's own test of a fit
(``reference.chain.fits``) on the game's tile set, so it changes if the rule does. Only games
whose spec names a parity policy get the section: without one, every tile fits exactly the
ends showing one of its halves.
"""

from __future__ import annotations

from dominokit.reference import Variant
from dominokit.reference.chain import fits
from dominokit.reference.rules import load_rules
from dominokit.reference.tiles import Tile, tile_set
from dominokit.rulebook.book import Book
from dominokit.rulebook.captions import count, say
from dominokit.rulebook.i18n import EN, Lang
from dominokit.rulebook.text import md, tile


def fitting_ends(variant: Variant) -> dict[Tile, tuple[int, ...]]:
    """Tile -> every end value it fits (with either half touching), for the game's set."""
    rules = load_rules(variant)
    spec = variant.data["components"]["tiles"]
    ends = range(spec["max_pip"] + 1)
    return {t: tuple(e for e in ends
                     if any(fits(rules, e, t, touch) is None for touch in (t.low, t.high)))
            for t in sorted(set(tile_set(spec["max_pip"], spec["doubles"], spec["copies"])),
                            key=lambda t: (t.low, t.high))}


def hardest_tiles(variant: Variant) -> list[Tile]:
    """The tiles that fit the fewest end values."""
    table = fitting_ends(variant)
    fewest = min(len(e) for e in table.values())
    return [t for t, e in table.items() if len(e) == fewest]


def placement_rules(variant: Variant) -> tuple[str, ...]:
    """The rules that make some tiles harder to place: the parity policy's rules, or none
    when the game has no parity policy (or is not a chain game)."""
    parity = variant.data["turn"].get("parity", {})
    if variant.data["components"]["table"]["kind"] != "chain" or \
            parity.get("policy", "none") == "none":
        return ()
    return tuple(r for r in (parity.get("rule"), parity.get("blank_rule")) if r)


def placement_section(book: Book, variant: Variant, here: str, level: str = "##",
                      lang: Lang = EN) -> str:
    """The "hardest tiles" section of a game with a parity policy (empty for the others),
    in ``lang``."""
    if not placement_rules(variant):
        return ""
    table = fitting_ends(variant)
    hardest = hardest_tiles(variant)
    rules = book.links(placement_rules(variant), here)
    fewest = len(table[hardest[0]])
    ends = ", ".join(str(e) for e in table[hardest[0]])
    lines = [f"{level} {say(lang, 'hardest_head')}", "",
             say(lang, "hardest", rules=rules, values=count(lang, fewest, "value"),
                 ends=md(ends), tiles=" ".join(tile((t.low, t.high)) for t in hardest)), "",
             '<div class="dk-scroll" markdown>', "", say(lang, "hardest_table"), "|---|---|---|"]
    for t, fit in sorted(table.items(), key=lambda item: (len(item[1]), item[0].low,
                                                           item[0].high)):
        lines.append(f"| {tile((t.low, t.high))} | {', '.join(str(e) for e in fit)} | "
                     f"{len(fit)} |")
    lines += ["", "</div>", ""]
    return "\n".join(lines)
