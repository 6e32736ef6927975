"""Where the bundled rule files are: spec/common.yaml and spec/variants/*.yaml.

Read through importlib.resources, so the same code finds them in a checkout and in an
installed wheel. The loader (:mod:`spec`) and the file checks (:mod:`speclint`) both need
them; keeping them here lets neither import the other for it.
"""

from __future__ import annotations

from importlib import resources
from importlib.resources.abc import Traversable

from dominokit.spec.schemas import SPEC_PACKAGE


def spec_root() -> Traversable:
    """The folder of the spec data as shipped in the package."""
    return resources.files(SPEC_PACKAGE)


def bundled_common_file() -> Traversable:
    """spec/common.yaml as shipped in the package."""
    return spec_root() / "common.yaml"


def bundled_variant_files() -> list[Traversable]:
    """spec/variants/*.yaml as shipped in the package, sorted by name."""
    folder = spec_root() / "variants"
    if not folder.is_dir():
        return []
    return sorted(
        (entry for entry in folder.iterdir() if entry.name.endswith(".yaml")),
        key=lambda entry: entry.name,
    )


def variant_ids() -> list[str]:
    """Ids of the bundled variants: the sorted stems of spec/variants/*.yaml."""
    return [entry.name.removesuffix(".yaml") for entry in bundled_variant_files()]
