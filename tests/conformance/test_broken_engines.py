"""The suite has teeth: it fails every deliberately broken engine, naming the broken rule.

Each engine in ``tests/conformance/broken/`` is the reference with exactly one rule broken (see
``docs/engines/mutants.md`` for the catalogue). For each, the relevant part of the suite (its
``only`` globs) must report at least one failure whose rule ids include that rule, and no case
may end "errored" (a broken rule is a wrong answer, not a crash). The same cases must all pass
against the reference itself, so every failure is the broken rule's doing. The verdicts are
shared with the catalogue check and the score line (``tests.conformance.broken.verdict``).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from dominokit.conformance.kit.engines import open_engine
from dominokit.reference import load_variant, variant_ids
from dominokit.spec.spec import common_rules
from tests.conformance.broken import catalogue, registry
from tests.conformance.broken.engines import Broken
from tests.conformance.broken.registry import BROKEN
from tests.conformance.broken.verdict import reference_failures, verdict

MINIMUM = 80
"""The issue's floor for the corpus: at least 80 broken engines."""


def test_the_corpus_holds_at_least_eighty_distinct_engines() -> None:
    assert len(BROKEN) >= MINIMUM, len(BROKEN)
    assert len({(e.variant, e.rule, e.__doc__) for e in BROKEN.values()}) == len(BROKEN)
    for name, engine in BROKEN.items():
        assert engine.__doc__ and engine.only, f"{name}: say the bug and the cases that kill it"


def test_every_rule_has_an_engine_or_a_reason() -> None:
    rule_ids = {entry.id for entry in common_rules()}
    for vid in variant_ids():
        rule_ids |= {entry.id for entry in load_variant(vid).rules}
    broken = {engine.rule for engine in BROKEN.values()}
    unexplained = sorted(rule_ids - broken - set(catalogue.NOT_SHOWABLE))
    assert not unexplained, f"rules with no broken engine and no reason: {unexplained}"
    assert not set(catalogue.NOT_SHOWABLE) - rule_ids, "reasons given for unknown rules"
    assert not set(catalogue.NOT_SHOWABLE) & broken, "a rule with an engine needs no reason"


def test_the_registry_holds_every_engine_of_every_module_and_no_helper() -> None:
    helpers = {"Broken", "Mutant", "ListingPatch", "StatePatch", "ResultPatch",
               "BoardPointsPatch", "RuleOfRefusal", "LenientDeal"}
    assert not helpers & set(BROKEN)
    for module in registry.modules():
        for name, value in vars(module).items():
            if isinstance(value, type) and issubclass(value, Broken) \
                    and value.__module__ == module.__name__ and name not in helpers:
                assert BROKEN.get(name) is value, f"{module.__name__}.{name} is not collected"


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_suite_fails_the_broken_engine_on_its_rule(
        name: str, record_property: Callable[[str, object], None]) -> None:
    judged = verdict(name)
    record_property("mutant_killed", judged.killed)  # the score line, from any worker
    assert judged.killed, f"{name} ({BROKEN[name].rule}) {judged.why}"


SEVERAL_BUGS = {"ValidatesNothing": "trusts every request at once: unknown variants, options "
                "and values, any deal, next_hand at any time and any action spelling are each "
                "their own bug"}
"""Engines that plant more than one bug on purpose, so more than three causes are right."""
MOST_CAUSES = 3
"""A single planted bug comes out as one cause, at most three where it shows at genuinely
different places."""


@pytest.mark.parametrize("name", sorted(set(BROKEN) - set(SEVERAL_BUGS)))
def test_one_planted_bug_comes_out_as_at_most_three_causes(name: str) -> None:
    judged = verdict(name)
    assert judged.killed, f"{name} ({BROKEN[name].rule}) {judged.why}"
    assert 1 <= len(judged.causes) <= MOST_CAUSES, (
        f"{name} ({BROKEN[name].rule}): {len(judged.causes)} causes {judged.causes}")


BLAMED_ELSEWHERE: dict[str, tuple[tuple[str, ...], str]] = {
    "AcceptsAnyDeal": (("R-ALL-01", "R-POL-01", "R-ALL-04"),
                       "a bad deal is refused under the rule it breaks: the tile set, the "
                       "hand sizes, the starter; accepting every one shows under each"),
    "CitesHandOverOnEveryRefusal": (("R-POL-02", "R-POL-04"),
                                    "a refusal citing the wrong rule is blamed on the rule it "
                                    "should have cited: the opening's and the matching's"),
    "ClassicBlockTieGoesToPlayer0": (("R-ALL-06",),
                                     "the classic winner rule leaves equal pips to the common "
                                     "tied-block ruling, which is the one the engine breaks"),
    "LeftRightFolded": (("R-POL-04",),
                        "at a double opening, missing the right-end twins looks the same as "
                        "an engine that plays one end only: both are blamed on matching"),
    "PijanowskiDoubleSetTwinsAreOneTile": (("R-ALL-12",),
                                           "the tiles the engine loses are the opponent's: "
                                           "own tiles only is the rule the state breaks"),
    "PijanowskiEqualPipsBlockScoresNothing": (("R-PIJ-09",),
                                              "the hand score is blamed; R-PIJ-14, which "
                                              "refines it for equal pips, is named beside it"),
    "PijanowskiLowHalfFirstOnly": (("R-PIJ-04",),
                                   "the missing placements are ones that touch the board: "
                                   "contacts is blamed, the placement rule named beside it"),
    "PijanowskiStopBeforeBlock": (("R-PIJ-08",),
                                  "the missing end of the hand is blamed on the end rule; "
                                  "R-PIJ-13, which refines it after [0|0], is named beside it"),
    "PoldominoBlockBeforeDomino": (("R-POL-06",),
                                   "a hand that both ends by domino and blocks shows as the "
                                   "wrong winner; the check order R-ALL-10 is named beside it"),
    "ProgressiveMayPassWhenPlaceable": (("R-PRO-03",),
                                        "the reference refuses the pass citing the game's own "
                                        "turn rule, which states compulsory play for it"),
    "SzczerbakNoBlock": (("R-SZC-06",),
                         "Szczerbak's pass-and-end rule is where its block is written; the "
                         "common block rule is named beside it"),
}
"""Single-bug engines whose causes are not exactly the planted rule, each with the reason the
cause blamed is still the right reading of the failure. Equality is exact both ways, so an
entry that goes stale (the kit now blames the planted rule) fails too."""


@pytest.mark.parametrize("name", sorted(set(BROKEN) - set(SEVERAL_BUGS)))
def test_one_planted_bug_is_blamed_on_its_rule(name: str) -> None:
    judged = verdict(name)
    assert judged.killed, f"{name} ({BROKEN[name].rule}) {judged.why}"
    expected = BLAMED_ELSEWHERE.get(name, ((BROKEN[name].rule,), ""))[0]
    assert judged.causes == expected, (
        f"{name} plants {BROKEN[name].rule}: causes blame {list(judged.causes)}, expected "
        f"{list(expected)}")


def test_every_blame_elsewhere_is_a_known_engine_with_a_reason() -> None:
    for name, (causes, reason) in BLAMED_ELSEWHERE.items():
        assert name in BROKEN and name not in SEVERAL_BUGS, name
        assert causes and reason, name


def test_an_engine_with_several_bugs_comes_out_as_several_causes() -> None:
    """The grouping does not fold distinct bugs into one: the engine that validates nothing
    breaks several rules and is reported as more causes than a single bug may give."""
    for name in SEVERAL_BUGS:
        assert len(verdict(name).causes) > MOST_CAUSES, verdict(name).causes


def test_reference_passes_every_case_the_broken_engines_run() -> None:
    assert reference_failures(sorted(BROKEN)) == []


def test_broken_engines_load_by_name() -> None:
    with open_engine("python:tests.conformance.broken.engines:WidowStarterLowerHalf") as engine:
        hello = engine.hello()
    assert "szczerbak" in hello.variants


def test_the_catalogue_page_is_up_to_date() -> None:
    """Runs after the engines' tests, so it reuses their verdicts."""
    committed = catalogue.PAGE.read_text(encoding="utf-8") if catalogue.PAGE.is_file() else ""
    assert committed == catalogue.render(), (
        "docs/engines/mutants.md is out of date: run "
        "python -m tests.conformance.broken.catalogue --write")
