"""The default run's random hands, recorded as data so that no hypothesis release changes them.

A differential case plays ``--examples`` random hands. Drawn by hypothesis, the same seed gives
other hands under another hypothesis release, so an engine's verdict would hang on which
release its test environment happens to hold. The hands of the default run (seed 0, up to
``RECORDED`` hands per case) were therefore drawn once and are kept in
``conformance/random_hands/<variant>.json``: the seed of each deal, its hand sizes, and the
actions played (each chosen from the reference's sorted legal list, so they are the same for
every engine). A run within those bounds replays them; hypothesis draws (and shrinks) only the
hands of a campaign or of another seed. ``python -m dominokit.conformance.cases.random_hands
--check`` redraws them with the installed hypothesis and says whether they still agree.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from typing import Any

from dominokit.conformance.cases import oracle
from dominokit.reference import apply_action, legal_actions, new_hand
from dominokit.reference.deal import Deal

RECORDED = 25
"""Random hands recorded per differential case: the default ``--examples``."""

RECORDED_SEED = 0
"""The seed the recorded hands were drawn with: the default ``--seed``."""


@dataclass(frozen=True)
class RandomHand:
    """One random hand: the seed of its deal, its hand sizes and the actions played."""

    deal_seed: int
    sizes: tuple[int, int]
    actions: tuple[str, ...]

    def deal(self, variant: str, options: Mapping[str, object]) -> dict[str, Any]:
        """The deal as JSON, dealt again from its seed by the reference's dealer."""
        return oracle.deal_json(oracle.rules_of(variant, options), self.deal_seed, self.sizes)

    def to_json(self) -> dict[str, Any]:
        return {"deal_seed": self.deal_seed, "sizes": list(self.sizes),
                "actions": list(self.actions)}


def recorded(variant: str, options: Mapping[str, object], examples: int,
             seed: int) -> list[RandomHand] | None:
    """The first ``examples`` recorded hands of this case, or None when the run asks for hands
    that were not recorded (another seed, more hands) and hypothesis must draw them."""
    if seed != RECORDED_SEED or examples > RECORDED:
        return None
    hands = _load(variant).get(oracle.options_slug(options))
    if hands is None or len(hands) < examples:
        return None
    return hands[:examples]


@cache
def _load(variant: str) -> dict[str, list[RandomHand]]:
    resource = files("dominokit.conformance").joinpath("random_hands", f"{variant}.json")
    if not resource.is_file():
        return {}
    data = json.loads(resource.read_text(encoding="utf-8"))
    return {slug: [RandomHand(h["deal_seed"], (h["sizes"][0], h["sizes"][1]),
                              tuple(h["actions"])) for h in hands]
            for slug, hands in data["cases"].items()}


def draw(variant: str, options: Mapping[str, object], examples: int,
         seed: int) -> list[RandomHand]:
    """The hands hypothesis draws for one differential case, played on the reference alone.

    The draws are those of the differential case's own hypothesis run (``differential.
    _hypothesis_run``: a deal seed, hand sizes, then an index into the sorted legal list at each
    step), which against an engine that never diverges draws exactly these hands."""
    from hypothesis import HealthCheck, Phase, Verbosity, given, settings
    from hypothesis import seed as hypothesis_seed
    from hypothesis import strategies as st

    rules = oracle.rules_of(variant, options)
    sizes = oracle.hand_sizes(rules)
    out: list[RandomHand] = []

    @settings(max_examples=examples, derandomize=False, database=None,
              deadline=None, suppress_health_check=list(HealthCheck),
              report_multiple_bugs=False, verbosity=Verbosity.quiet, print_blob=False,
              phases=(Phase.generate, Phase.shrink))
    @hypothesis_seed(seed)
    @given(st.data())
    def check(data: st.DataObject) -> None:
        deal_seed = data.draw(st.integers(0, 2**31 - 1), label="deal seed")
        size = data.draw(st.sampled_from(sizes), label="hand sizes")
        state = new_hand(rules, Deal.from_json(oracle.deal_json(rules, deal_seed, size)))
        actions: list[str] = []
        while True:
            legal = sorted(str(a) for a in legal_actions(state))
            if state.result is not None:
                break
            index = data.draw(st.sampled_from(range(len(legal))),
                              label=f"action {len(actions) + 1}")
            actions.append(legal[index])
            state, _ = apply_action(state, legal[index])
        out.append(RandomHand(deal_seed, (size[0], size[1]), tuple(actions)))

    check()
    return out


def render(variant: str) -> str:
    """The recorded hands file of ``variant``, drawn afresh with the installed hypothesis."""
    from importlib.metadata import version

    cases = {oracle.options_slug(options): [hand.to_json() for hand in
                                            draw(variant, options, RECORDED, RECORDED_SEED)]
             for options in oracle.option_sets(variant)}
    data = {"variant": variant, "seed": RECORDED_SEED, "examples": RECORDED,
            "drawn_with": f"hypothesis {version('hypothesis')}", "cases": cases}
    return json.dumps(data, indent=1, sort_keys=True) + "\n"


def main(argv: list[str] | None = None) -> int:
    """``--write`` redraws the recorded hands; ``--check`` says whether they still agree."""
    from pathlib import Path

    from dominokit.reference import variant_ids

    parser = argparse.ArgumentParser(prog="python -m dominokit.conformance.cases.random_hands")
    parser.add_argument("--write", action="store_true", help="rewrite the recorded hands")
    args = parser.parse_args(argv)
    folder = Path(str(files("dominokit.conformance").joinpath("random_hands")))
    stale = []
    for variant in variant_ids():
        text = render(variant)
        path = folder / f"{variant}.json"
        if args.write:
            path.write_text(text, encoding="utf-8")
        elif not path.is_file() or json.loads(path.read_text())["cases"] != json.loads(
                text)["cases"]:
            stale.append(variant)
    if stale:
        print(f"the installed hypothesis draws other hands for: {', '.join(stale)}",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
