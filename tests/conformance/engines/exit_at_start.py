"""Exits with status 2 before reading anything, like an engine missing a dependency."""

from __future__ import annotations

import sys

if __name__ == "__main__":
    print("fatal: cannot initialise", file=sys.stderr, flush=True)
    sys.exit(2)
