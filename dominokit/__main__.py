"""``python -m dominokit`` runs the ``dominokit`` command line."""

from __future__ import annotations

import sys

from dominokit.conformance.commands.cli import main

sys.exit(main())
