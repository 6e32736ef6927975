"""The HTML report (``conform --html FILE``): one self-contained page to publish a run.

Everything is in the one file (styles, a few lines of script, the diagrams as inline SVG, the
repro traces' text), so it can be kept as a CI artifact or served as it is, with nothing else
to fetch. It shows the summary (by variant and kind, and against ``--since``), the causes when
the report has them, and every failure with its message, rules, the picture of the table where
it diverged (the reference's position next to the engine's when what diverged was a state),
the diff and its repro trace; the failures can be filtered by variant and by kind. It is
built from the JSON report's data, so a report kept from an earlier run renders the same.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from html import escape
from pathlib import Path
from typing import Any

from dominokit.conformance.run import picture

JsonObject = Mapping[str, Any]
STATUSES = ("passed", "failed", "errored", "not_applicable", "not_run")
REPRO_BYTES = 64 * 1024
"""The most of a repro trace's text a page holds (a longer one is cut, and says so)."""

STYLE = """
body{font-family:system-ui,sans-serif;margin:1.5rem auto;max-width:72rem;padding:0 1rem;
color:#1b1b1b;background:#fff}
h1{font-size:1.5rem}h2{font-size:1.2rem;margin-top:2rem}h3{font-size:1rem;margin:0}
table{border-collapse:collapse;margin:.5rem 0}td,th{border:1px solid #ccc;padding:.2rem .5rem;
text-align:right}th:first-child,td:first-child{text-align:left}
.verdict{display:inline-block;padding:.2rem .6rem;border-radius:.3rem;color:#fff;
font-weight:bold}.pass{background:#2b8a3e}.fail{background:#c92a2a}
.failure{border:1px solid #ddd;border-left:.3rem solid #c92a2a;padding:.6rem .8rem;
margin:.8rem 0;border-radius:.2rem}.failure[hidden]{display:none}
.meta{color:dimgray;font-size:.9rem;margin:.3rem 0}
pre{background:#f6f6f6;padding:.5rem;overflow-x:auto;font-size:.85rem;white-space:pre-wrap}
.diagrams{display:flex;flex-wrap:wrap;gap:1rem;margin:.5rem 0}
.diagrams figure{margin:0}.diagrams figcaption{font-size:.85rem;color:dimgray}
.diagrams svg{max-width:34rem;height:auto}
.filters label{margin-right:1rem}
"""

SCRIPT = """
(function(){
  var variant=document.getElementById('filter-variant');
  var kind=document.getElementById('filter-kind');
  function apply(){
    var shown=0;
    document.querySelectorAll('.failure').forEach(function(item){
      var ok=(!variant.value||item.dataset.variant===variant.value)&&
             (!kind.value||item.dataset.kind===kind.value);
      item.hidden=!ok; if(ok){shown++;}
    });
    document.getElementById('shown').textContent=String(shown);
  }
  variant.addEventListener('change',apply);kind.addEventListener('change',apply);apply();
})();
"""


def failing(data: JsonObject) -> list[JsonObject]:
    """The case records that fail the run (unexpected outcomes and stale expectations)."""
    return [case for case in data.get("cases", [])
            if case.get("verdict") in ("unexpected", "stale")]


def engine_label(data: JsonObject) -> str:
    """``name version`` from the hello, else the engine as given."""
    engine = data.get("engine") or {}
    hello = engine.get("hello")
    if hello:
        return f"{hello.get('name')} {hello.get('version')}"
    return str(engine.get("command", "?"))


def render(data: JsonObject) -> str:
    """The page of one run, from its JSON report's data."""
    summary = data.get("summary", {})
    ok = bool(summary.get("ok"))
    title = f"dominokit conformance: {engine_label(data)}"
    parts = [
        "<!doctype html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{escape(title)}</title>", f"<style>{STYLE}</style>", "</head>", "<body>",
        f"<h1>{escape(title)}</h1>",
        f'<p><span class="verdict {"pass" if ok else "fail"}" id="verdict">'
        f'{"PASSED" if ok else "FAILED"}</span> '
        f'suite {escape(str(data.get("suite_version")))}, protocol '
        f'{escape(str(data.get("protocol_version")))}, kit '
        f'{escape(str(data.get("kit_version")))}; engine <code>'
        f'{escape(str((data.get("engine") or {}).get("command")))}</code>; '
        f'{escape(str(data.get("started")))} to {escape(str(data.get("finished")))}</p>',
    ]
    for key, label in (("error", "The engine could not be used"),
                       ("stopped", "The run stopped early")):
        if data.get(key):
            parts.append(f"<p><strong>{label}:</strong> {escape(str(data[key]))}</p>")
    parts += _summary(summary)
    parts += _causes(data.get("causes"))
    parts += _failures(data)
    parts += [f"<script>{SCRIPT}</script>", "</body>", "</html>"]
    return "\n".join(parts) + "\n"


def _counts_row(name: str, counts: Mapping[str, int]) -> str:
    cells = "".join(f"<td>{counts.get(status, 0)}</td>" for status in STATUSES)
    return f"<tr><td>{escape(name)}</td>{cells}<td>{counts.get('total', 0)}</td></tr>"


def _counts_table(rows: Iterable[tuple[str, Mapping[str, int]]], first: str,
                  table_id: str) -> str:
    head = "".join(f"<th>{status.replace('_', ' ')}</th>" for status in STATUSES)
    body = "".join(_counts_row(name, counts) for name, counts in rows)
    return (f'<table id="{table_id}"><tr><th>{first}</th>{head}<th>total</th></tr>'
            f"{body}</table>")


def _summary(summary: JsonObject) -> list[str]:
    parts = ['<h2 id="summary">Summary</h2>',
             _counts_table([("all cases", summary)], "", "summary-all")]
    if summary.get("by_variant"):
        parts.append(_counts_table(summary["by_variant"].items(), "variant", "by-variant"))
    if summary.get("by_kind"):
        parts.append(_counts_table(summary["by_kind"].items(), "kind", "by-kind"))
    since = summary.get("since")
    if since:
        versions = ", ".join(f"{v}: {n}" for v, n in since["by_version"].items()) or "none"
        parts.append(f'<p id="since">Against suite {escape(since["version"])}: '
                     f'{since["failures"]} failures, {since["newer"]} of them in cases added '
                     f"or changed since ({escape(versions)}).</p>")
    return parts


def _causes(causes: Any) -> list[str]:
    """The report's causes (the grouping of failures by their likely cause), when present;
    shown by their text fields and cases, whatever else each holds."""
    if not causes:
        return []
    items = causes if isinstance(causes, list) else [
        {"cause": name, **(value if isinstance(value, dict) else {"detail": value})}
        for name, value in causes.items()] if isinstance(causes, dict) else [causes]
    parts = ['<h2 id="causes">Causes</h2>', "<ol>"]
    for cause in items:
        if not isinstance(cause, dict):
            parts.append(f"<li>{escape(str(cause))}</li>")
            continue
        words = [str(cause[key]) for key in ("cause", "title", "rule", "summary", "message",
                                             "description", "detail") if cause.get(key)]
        cases = cause.get("cases") or []
        listed = ", ".join(f"<code>{escape(str(c))}</code>" for c in cases)
        parts.append(f'<li class="cause">{escape(" — ".join(words)) or "cause"}'
                     + (f"<br>cases: {listed}" if listed else "") + "</li>")
    parts.append("</ol>")
    return parts


def _options(values: Sequence[str]) -> str:
    return "".join(f'<option value="{escape(v)}">{escape(v)}</option>' for v in values)


def _failures(data: JsonObject) -> list[str]:
    failures = failing(data)
    parts = ['<h2 id="failures">Failures</h2>']
    if not failures:
        return [*parts, "<p>None.</p>", '<p hidden><select id="filter-variant"></select>'
                '<select id="filter-kind"></select><span id="shown">0</span></p>']
    variants = sorted({str(c["variant"]) for c in failures})
    kinds = sorted({str(c["kind"]) for c in failures})
    parts.append(
        '<p class="filters"><label>variant <select id="filter-variant"><option value="">all'
        f"</option>{_options(variants)}</select></label><label>kind <select id="
        f'"filter-kind"><option value="">all</option>{_options(kinds)}</select></label>'
        f'showing <span id="shown">{len(failures)}</span> of {len(failures)}</p>')
    parts.extend(_failure(case) for case in failures)
    return parts


def _failure(case: JsonObject) -> str:
    status = "STALE" if case.get("verdict") == "stale" else str(case["status"]).upper()
    kind = f" ({case['failure_kind']})" if case.get("failure_kind") else ""
    meta = []
    if case.get("rules"):
        meta.append("rules " + ", ".join(escape(str(r)) for r in case["rules"]))
    if case.get("since"):
        meta.append(f"since {escape(str(case['since']))}")
    where = []
    if case.get("hand") is not None:
        where.append(f"hand {case['hand']}")
    if case.get("step") is not None:
        where.append(f"after {case['step']} action(s)")
    if where:
        meta.append("first divergence: " + ", ".join(where))
    parts = [f'<article class="failure" data-variant="{escape(str(case["variant"]))}" '
             f'data-kind="{escape(str(case["kind"]))}" id="{escape(_anchor(case["id"]))}">',
             f"<h3>{status}{escape(kind)} <code>{escape(str(case['id']))}</code></h3>",
             f'<p class="meta">{" · ".join(meta)}</p>' if meta else "",
             f'<pre class="message">{escape(str(case.get("message", "")))}</pre>']
    for change in case.get("changes") or []:
        parts.append(f'<p class="meta">changelog {escape(change["version"])}: '
                     f'{escape(change["text"])}</p>')
    parts.append(_diagrams(case))
    if case.get("diff"):
        parts.append(f"<details><summary>diff (expected: reference, got: engine)</summary>"
                     f"<pre>{escape(str(case['diff']))}</pre></details>")
    for repro in case.get("repros") or ([case["repro"]] if case.get("repro") else []):
        parts.append(_repro(str(repro)))
    parts.append("</article>")
    return "\n".join(part for part in parts if part)


def _anchor(case_id: str) -> str:
    return "case-" + "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in case_id)


def _diagrams(case: JsonObject) -> str:
    """The table where the case diverged: both states when the divergence is a state, else
    the reference's position at the divergent step, replayed from the repro."""
    variant = str(case["variant"])
    figures: list[tuple[str, str]] = []
    expected, got = case.get("expected"), case.get("got")
    if isinstance(expected, dict) and picture.is_state(expected):
        figures.append(("reference", picture.draw(expected, variant, "the reference's table")))
        if isinstance(got, dict) and picture.is_state(got):
            figures.append(("engine", picture.draw(got, variant, "the engine's table")))
    elif case.get("repro"):
        found = picture.repro_position(str(case["repro"]), case.get("step"))
        if found is not None:
            state, actions = found
            caption = f"the position after {len(actions)} action(s): {' '.join(actions)}"
            figures.append((caption, picture.draw(state, variant, caption)))
    figures = [(caption, svg) for caption, svg in figures if svg]
    if not figures:
        return ""
    body = "".join(f"<figure>{svg}<figcaption>{escape(caption)}</figcaption></figure>"
                   for caption, svg in figures)
    return f'<div class="diagrams">{body}</div>'


def _repro(path: str) -> str:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return f'<p class="meta">repro: <code>{escape(path)}</code> (not found)</p>'
    if len(text) > REPRO_BYTES:
        text = text[:REPRO_BYTES] + "\n# ... cut: the whole trace is in the file\n"
    return (f'<details class="repro"><summary>repro: <code>{escape(path)}</code> '
            f"(<code>dominokit trace replay --engine ENGINE {escape(path)}</code>)</summary>"
            f"<pre>{escape(text)}</pre></details>")


def render_file(report_json: str | Path) -> str:
    """The page of a JSON report kept on disk."""
    return render(json.loads(Path(report_json).read_text(encoding="utf-8")))
