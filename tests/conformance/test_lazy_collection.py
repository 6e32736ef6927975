"""Collection does only what the selection needs: trace headers, and only the kinds it names.

``--list`` and ``--only`` must not parse or schema-check golden traces (the case body does,
with every check), nor run the reference for kinds the glob cannot select.
"""

from __future__ import annotations

import ast
import subprocess
import sys

import pytest

from dominokit.conformance import cases as kinds
from dominokit.conformance import traces
from dominokit.conformance.cases import collect_cases, golden, may_match


def test_golden_cases_come_from_headers_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    full = {case.id: case for case in collect_cases(None, "golden/*")}

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a trace was loaded in full during collection")

    monkeypatch.setattr(traces, "load_trace", refuse)
    lazy = collect_cases(None, "golden/*")
    assert [case.id for case in lazy] == list(full)
    monkeypatch.undo()
    for case in lazy:
        loaded = golden._load(next(e for e in traces.bundled_trace_files(case.variant)
                                   if f"golden/{case.variant}/{e.name[:-5]}" == case.id))
        assert (case.options, case.rules, case.description) == (
            dict(loaded.options), loaded.rules, loaded.description)


def test_a_header_that_cannot_be_read_alone_falls_back_to_the_full_load() -> None:
    text = "# comment\nid: poldomino/x\ndescription: >-\n  two\n  lines\nrules: [R-ALL-06]\n" \
           "variant: poldomino\noptions:\n  catch_penalty_to: loser\nkind: hand\nsteps: []\n"
    assert golden._header_data(text) == {
        "id": "poldomino/x", "description": "two lines", "rules": ["R-ALL-06"],
        "variant": "poldomino", "options": {"catch_penalty_to": "loser"}}
    assert golden._header_data("id: a\nvariant: b\n") is None  # keys missing: load in full
    assert golden._header_data("{id: a}\n") is None


@pytest.mark.parametrize(("glob", "prefix", "may"), [
    ("perft/poldomino/*", "perft/poldomino/", True),
    ("perft/poldomino/*", "golden/poldomino/", False),
    ("perft/poldomino/*", "perft/pijanowski/", False),
    ("perft/poldomino/last-tile-d4", "perft/poldomino/", True),
    ("per*", "perft/poldomino/", True),
    ("*/szczerbak/*", "golden/poldomino/", True),
    ("[gp]*", "match/poldomino/", True),
    (None, "match/poldomino/", True),
])
def test_may_match_never_drops_a_kind_the_glob_can_select(glob: str | None, prefix: str,
                                                          may: bool) -> None:
    assert may_match(glob, prefix) is may


def test_only_collects_the_kinds_it_can_select(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[str] = []
    real = kinds._collector

    def collector(kind: str) -> kinds.Collector:
        found = real(kind)
        return lambda v, p: asked.append(f"{kind}/{v}") or found(v, p)

    monkeypatch.setattr(kinds, "_collector", collector)
    selected = collect_cases(None, "perft/poldomino/*")
    assert asked == ["perft/poldomino"]
    assert selected and all(case.id.startswith("perft/poldomino/") for case in selected)


def test_a_kind_not_selected_is_not_even_imported() -> None:
    # a fresh interpreter: this one has imported every kind already
    script = ("import sys\n"
              "from dominokit.conformance.run.runner import collect_cases\n"
              "assert collect_cases(None, 'perft/poldomino/*')\n"
              "print(sorted(m.rsplit('.', 1)[1] for m in sys.modules\n"
              "             if m.startswith('dominokit.conformance.cases.')))\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         check=True).stdout
    loaded = set(ast.literal_eval(out))
    assert "perft" in loaded
    assert not loaded & {"differential", "requests", "golden", "invariants", "rejection",
                         "match"}, loaded
