"""The built wheel works on its own: data ships inside it and nothing depends on the checkout.

The wheel and the venv it is installed in are built once per run (tests/shared.py).
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.shared import install_venv, once

# The installed copy must stand alone: no PYTHONPATH pointing back into a checkout.
CLEAN_ENV = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}


@pytest.fixture(scope="session")
def installed_wheel(kit_wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The session's wheel (tests/conftest.py) installed with its dependencies into a fresh
    venv, once per run whichever workers run these tests; return the venv."""
    return once(tmp_path_factory, "wheel-venv",
                lambda env_dir: install_venv(env_dir, kit_wheel)).resolve()


def _run(env_dir: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(env_dir / "bin" / "dominokit"), *args],
        cwd=cwd, env=CLEAN_ENV, capture_output=True, text=True, timeout=300, check=False,
    )


def test_wheel_contains_data_under_dominokit(installed_wheel: Path) -> None:
    site = next((installed_wheel / "lib").glob("python*/site-packages"))
    assert (site / "dominokit" / "spec" / "variants" / "poldomino.yaml").is_file()
    assert (site / "dominokit" / "spec" / "schema" / "variant.schema.json").is_file()
    assert (site / "dominokit" / "reference" / "py.typed").is_file()
    # The code that reads rule files ships with them; the rule-book builder stays in docs/.
    assert (site / "dominokit" / "spec" / "spec.py").is_file()
    assert (site / "dominokit" / "spec" / "py.typed").is_file()
    assert not (site / "dominokit" / "rulebook").exists()
    # The benchmark measures the kit and the reference for their developers: not shipped.
    assert not (site / "dominokit" / "bench").exists()
    assert not list((site / "dominokit").rglob("bench*.py"))
    # No generic top-level import names leak into site-packages.
    for generic in ("reference", "conformance", "spec", "rulebook", "docs"):
        assert not (site / generic).exists()


def test_every_module_of_the_wheel_imports_without_the_checkout(installed_wheel: Path,
                                                                tmp_path: Path) -> None:
    # The wheel does not ship the rule-book builder, so nothing it ships may need it. The
    # published engines' adapters need their engines (the peers extra, not installed here):
    # without them they must say so, naming the extra, and nothing else may import them.
    script = (
        "import importlib, pkgutil, dominokit.spec, dominokit.reference, dominokit.conformance\n"
        "for package in (dominokit.spec, dominokit.reference, dominokit.conformance):\n"
        "    for found in pkgutil.walk_packages(package.__path__, package.__name__ + '.'):\n"
        "        if found.name == 'dominokit.conformance.__main__':\n"
        "            continue\n"
        "        try:\n"
        "            importlib.import_module(found.name)\n"
        "        except ImportError as error:\n"
        "            peer = found.name.startswith('dominokit.conformance.serve.peers.')\n"
        "            if not (peer and \"dominokit[peers]\" in str(error)):\n"
        "                raise\n"
        "print('imported')\n"
    )
    imported = subprocess.run([str(installed_wheel / "bin" / "python"), "-c", script],
                              cwd=tmp_path, env=CLEAN_ENV, capture_output=True, text=True,
                              timeout=120, check=False)
    assert imported.returncode == 0, imported.stderr
    assert imported.stdout.strip() == "imported"


def test_installed_command_runs_from_any_folder(installed_wheel: Path, tmp_path: Path) -> None:
    played = _run(installed_wheel, tmp_path, "play", "szczerbak", "--seed", "3")
    assert played.returncode == 0, played.stderr
    assert "Szczerbak" in played.stdout
    checked = _run(installed_wheel, tmp_path, "spec", "check")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    bench = _run(installed_wheel, tmp_path, "bench", "--quick")
    assert bench.returncode == 4, bench.stdout + bench.stderr
    assert "runs from a checkout" in bench.stderr
    where = subprocess.run(
        [str(installed_wheel / "bin" / "python"), "-c",
         "import dominokit.reference as r; print(r.__file__)"],
        cwd=tmp_path, env=CLEAN_ENV, capture_output=True, text=True, check=True,
    )
    assert str(installed_wheel) in where.stdout
