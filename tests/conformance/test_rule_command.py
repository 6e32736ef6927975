"""``dominokit rule``: a rule's words from the installed spec alone, in English or Polish.

The rule book is not shipped, so a user who installed the wheel reads a rule with this command;
the test runs it from a copy of the installed package outside the checkout, where no file of
the repository can be reached.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[2]


def _rule(*args: str, cwd: Path | None = None, env: dict[str, str] | None = None
          ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "dominokit.conformance", "rule", *args],
                          capture_output=True, text=True, timeout=60, cwd=cwd, env=env)


def _szc04() -> dict[str, object]:
    data = yaml.safe_load((REPO / "spec/variants/szczerbak.yaml").read_text(encoding="utf-8"))
    entry: dict[str, object] = next(r for r in data["rules"] if r["id"] == "R-SZC-04")
    return entry


def _words(text: object) -> str:
    return " ".join(str(text).split())


def test_rule_prints_title_statement_decision_alternative_and_source() -> None:
    entry = _szc04()
    done = _rule("R-SZC-04")
    assert done.returncode == 0, done.stderr
    out = _words(done.stdout)
    ruling = entry["ruling"]
    assert isinstance(ruling, dict)
    source = entry["source"]
    assert isinstance(source, dict)
    for text in (entry["title"], entry["statement"], ruling["decision"], ruling["alternative"],
                 source["quote"]):
        assert _words(text) in out
    assert "variants/szczerbak.md#R-SZC-04" in out


def test_rule_in_polish() -> None:
    entry = _szc04()
    done = _rule("R-SZC-04", "--lang", "pl")
    assert done.returncode == 0, done.stderr
    out = _words(done.stdout)
    ruling = entry["ruling"]
    assert isinstance(ruling, dict)
    for text in (entry["title_pl"], entry["statement_pl"], ruling["decision_pl"]):
        assert _words(text) in out
    assert "Parity" not in out  # the English title is not mixed in
    assert "variants/szczerbak.pl.md#R-SZC-04" in out


def test_rule_list_names_every_rule_once_with_its_title() -> None:
    done = _rule("--list")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    ids = [line.split()[0] for line in lines if line.startswith("R-")]
    assert len(ids) == len(set(ids))
    assert {"R-ALL-06", "R-SZC-04", "R-PIJ-06", "R-POL-09"} <= set(ids)
    assert any(line.startswith("R-SZC-04") and "Parity" in line for line in lines)


def test_unknown_rule_suggests_the_nearest_and_exits_usage_error() -> None:
    done = _rule("R-SZC-4")
    assert done.returncode == 4
    assert "R-SZC-04" in done.stderr
    assert "Traceback" not in done.stderr


def test_rule_works_from_an_installed_copy_outside_the_checkout(tmp_path: Path) -> None:
    """The wheel holds spec/, reference/ and conformance/ as dominokit.*: copy exactly those
    (symlinks resolved) to a folder outside the repository and run from there."""
    package = tmp_path / "site" / "dominokit"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("", encoding="utf-8")
    for name in ("spec", "reference", "conformance"):
        shutil.copytree(REPO / name, package / name, symlinks=False,
                        ignore=shutil.ignore_patterns("__pycache__"))
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(tmp_path / "site")
    probe = subprocess.run([sys.executable, "-c", "import dominokit.spec, sys; "
                            "print(dominokit.spec.__file__)"], capture_output=True, text=True,
                           env=env, cwd=tmp_path, timeout=60)
    assert str(tmp_path) in probe.stdout, probe.stdout + probe.stderr
    done = _rule("R-SZC-04", cwd=tmp_path, env={**env, "PYTHONSAFEPATH": "1"})
    assert done.returncode == 0, done.stderr
    assert _words(_szc04()["statement"]) in _words(done.stdout)
